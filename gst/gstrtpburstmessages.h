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

void gst_rtp_burst_post_frame_dropped (GstElement * element, GstPad * sinkpad,
    const RtpBurstDrop * drop);
void gst_rtp_burst_warn_invalid (GstElement * element, guint64 n_invalid);
void gst_rtp_burst_warn_no_period (GstElement * element);
void gst_rtp_burst_warn_other_clock (GstElement * element, const gchar * group);
void gst_rtp_burst_warn_refused_group (GstElement * element,
    const gchar * group);

G_END_DECLS

#endif /* __GST_RTP_BURST_MESSAGES_H__ */
