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
 * The packets of one push as the source pad takes them: one buffer, or a
 * buffer list for several, each with the DTS of the slot they leave in
 * (what a synchronising sink waits for; the PTS stays the frame's).
 * Private to the plugin.
 */

#ifndef __GST_RTP_BURST_OUT_H__
#define __GST_RTP_BURST_OUT_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct
{
  GstBuffer *single;            /* one packet */
  GstBufferList *list;          /* ... or several */
} GstRtpBurstOut;

/* A packet's size on the wire (RtpBurstPacketSize). */
guint        gst_rtp_burst_buffer_size (gconstpointer buffer);
/* The DTS for running time @rt (RTP_BURST_TIME_NONE: the packets keep
 * their own) in @segment, the source pad's. */
GstClockTime gst_rtp_burst_out_dts    (const GstSegment * segment,
                                       guint64 rt);
/* @buf with DTS @dts (none: unchanged). */
GstBuffer   *gst_rtp_burst_with_dts   (GstBuffer * buf, GstClockTime dts);
/* Takes the @n (> 0) GstBuffers of @packets; returns the last of them
 * (owned by @out). */
GstBuffer   *gst_rtp_burst_out_init   (GstRtpBurstOut * out,
                                       gpointer * packets, guint n,
                                       GstClockTime dts);
/* Pushes them on @pad (and gives them away). */
GstFlowReturn gst_rtp_burst_out_push  (GstRtpBurstOut * out, GstPad * pad);

G_END_DECLS

#endif /* __GST_RTP_BURST_OUT_H__ */
