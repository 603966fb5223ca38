/* rtpburstpace: burst control for RTP streams
 * Copyright (C) 2026 The rtpburstpace authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 *
 * You should have received a copy of the GNU Library General Public
 * License along with this library; if not, write to the
 * Free Software Foundation, Inc., 51 Franklin St, Fifth Floor,
 * Boston, MA 02110-1301, USA.
 */


/*
 * The timeline a group's members place their slots on (rtpburstgroup.h,
 * "Placement"): each member's booked slot times, and the phase that keeps
 * a new frame's slots farthest from the others'.  No locks, deterministic
 * for a given order of calls; the group holds its lock around it.  GLib
 * only; times in ns.
 */

#ifndef __RTP_BURST_TIMELINE_H__
#define __RTP_BURST_TIMELINE_H__

#include <glib.h>

#include "rtpburstschedule.h"

G_BEGIN_DECLS

#define RTP_BURST_GROUP_PHASES  32
#define RTP_BURST_GROUP_SAMPLES 256
#define RTP_BURST_GROUP_HISTORY (G_GUINT64_CONSTANT (500000000))  /* 0.5 s */
/* Slots of two members closer than this leave together on any link (a
 * 1200-byte packet lasts ~1 µs at 10 Gbit/s): they count as shared. */
#define RTP_BURST_GROUP_TOUCH   (G_GUINT64_CONSTANT (1000))       /* 1 µs */
typedef struct _RtpBurstTimeline RtpBurstTimeline;

typedef struct
{
  guint64 phase;       /* the frame's slots are this much later */
  guint64 gap;         /* smallest distance from one of them to another
                        * member's slot; RTP_BURST_TIME_NONE: none within Δt */
  guint shared;        /* its slots closer than RTP_BURST_GROUP_TOUCH to
                        * another member's */
} RtpBurstPlacement;

RtpBurstTimeline *rtp_burst_timeline_new   (void);
void     rtp_burst_timeline_free           (RtpBurstTimeline * tl);
guint    rtp_burst_timeline_add_member     (RtpBurstTimeline * tl);
void     rtp_burst_timeline_remove_member  (RtpBurstTimeline * tl,
                                            guint member);
void     rtp_burst_timeline_forget         (RtpBurstTimeline * tl,
                                            guint member);
guint    rtp_burst_timeline_n_members      (const RtpBurstTimeline * tl);
void     rtp_burst_timeline_place          (RtpBurstTimeline * tl, guint member,
                                            RtpBurstPlan * plan,
                                            RtpBurstPlacement * out);

G_END_DECLS

#endif /* __RTP_BURST_TIMELINE_H__ */
