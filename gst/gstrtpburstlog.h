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
 * The element's log of the pacing thread's decisions (GST_DEBUG category
 * rtpburstpace): at LOG (6) every answer of rtp_burst_stream_next () and
 * why, at DEBUG (5) the frames as they start (their slots, Δt, the group's
 * placement), the waits for a group's rate and the dropped frames.
 * docs/reading-the-log.md shows an excerpt.  Private to the plugin.
 */

#ifndef __GST_RTP_BURST_LOG_H__
#define __GST_RTP_BURST_LOG_H__

#include <gst/gst.h>

#include "rtpburststream.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);

/* Logs what @next says, asked at running time @now. */
void gst_rtp_burst_log_next (GstObject * obj, const RtpBurstNext * next,
    guint64 now);

G_END_DECLS

#endif /* __GST_RTP_BURST_LOG_H__ */
