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
 * Per-packet feedback, as the congestion controllers (rtpbursttfrc.h,
 * rtpburstgcc.h) take it: one entry per packet a transport-wide
 * congestion control (TWCC) report covers, received or lost.  GLib only.
 */

#ifndef __RTP_BURST_FEEDBACK_H__
#define __RTP_BURST_FEEDBACK_H__

#include <glib.h>

#include "rtpburstschedule.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 seq;                  /* transport-wide sequence number, unwrapped */
  guint64 send_time;            /* sender's running time, ns */
  guint64 arrival;              /* receiver's time, ns (own clock, arbitrary
                                 * origin); RTP_BURST_TIME_NONE = lost */
  guint size;                   /* bytes on the wire */
} RtpBurstFeedbackPacket;

/* @a - @b in ms, negative when @b is the later: the difference of two of
 * the feedback's times (ns, unsigned). */
static inline gdouble
rtp_burst_feedback_diff_ms (guint64 a, guint64 b)
{
  if (a >= b)
    return (gdouble) (a - b) / 1e6;
  return -((gdouble) (b - a) / 1e6);
}

G_END_DECLS

#endif /* __RTP_BURST_FEEDBACK_H__ */
