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
 * What rtpburstpace tells the application: its warnings, and the element
 * message of a dropped frame (with the key unit request upstream that
 * goes with it).  Called without the element's lock.  Private to the
 * plugin.
 */

#ifndef __GST_RTP_BURST_MESSAGES_H__
#define __GST_RTP_BURST_MESSAGES_H__

#include <gst/gst.h>

#include "rtpburststream.h"

G_BEGIN_DECLS

/* Packets that are not valid RTP: counted, and a warning at most once a
 * second (guarded by the element's lock). */
typedef struct
{
  guint64 count;
  gboolean warn;                /* a warning is due */
  gint64 last_warning;          /* monotonic µs, 0: none yet */
} GstRtpBurstInvalid;

void     gst_rtp_burst_invalid_reset (GstRtpBurstInvalid * invalid);
void     gst_rtp_burst_invalid_count (GstRtpBurstInvalid * invalid);
/* The count if a warning is due (and no longer due), else 0. */
guint64  gst_rtp_burst_invalid_take_warning (GstRtpBurstInvalid * invalid);

/* What the element noted under its lock, to post without it. */
typedef struct
{
  RtpBurstStreamNotices notices;
  gchar *group;                 /* the group, if notices.other_clock */
  gchar *refused_group;         /* a group set while PAUSED or PLAYING */
  guint64 n_invalid;            /* a warning about invalid packets */
  gboolean rt_warning;          /* the real-time priority not applied */
  gint rt_priority, rt_error;
} GstRtpBurstPending;

/* Posts them, and frees the strings. */
void gst_rtp_burst_post_pending (GstElement * element, GstPad * sinkpad,
    GstRtpBurstPending * pending);

void gst_rtp_burst_post_frame_dropped (GstElement * element, GstPad * sinkpad,
    const RtpBurstDrop * drop);
void gst_rtp_burst_warn_invalid (GstElement * element, guint64 n_invalid);
void gst_rtp_burst_warn_no_period (GstElement * element);
void gst_rtp_burst_warn_other_clock (GstElement * element, const gchar * group);
void gst_rtp_burst_warn_refused_group (GstElement * element,
    const gchar * group);

G_END_DECLS

#endif /* __GST_RTP_BURST_MESSAGES_H__ */
