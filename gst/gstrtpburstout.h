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
 * The source pad's side of the task: what one turn of the loop takes from
 * the stream and pushes -- an event, the packets of one push (one buffer,
 * or a buffer list for several, each with the DTS of the slot they leave
 * in: what a synchronising sink waits for; the PTS stays the frame's), or a
 * repair packet -- and what it tells the stream when the push returned.
 * The element calls take and done with its lock held and push without it.
 * Private to the plugin.
 */

#ifndef __GST_RTP_BURST_OUT_H__
#define __GST_RTP_BURST_OUT_H__

#include <gst/gst.h>

#include "rtpburststream.h"

G_BEGIN_DECLS

typedef struct
{
  RtpBurstNextKind kind;        /* EVENT, PUSH or REPAIR */
  GstEvent *event;              /* EVENT */
  GstBuffer *single;            /* PUSH of one packet, REPAIR */
  GstBufferList *list;          /* PUSH of several */
  gboolean eos;                 /* the event is EOS */
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
/* Takes from @stream what @next (EVENT, PUSH or REPAIR) says, at running
 * time @now: an event (a SEGMENT is copied into @segment, the source pad's),
 * or packets with the DTS of their slot in @segment.  Returns the last
 * packet of a PUSH (owned by @out), else NULL.  With the element's lock. */
GstBuffer   *gst_rtp_burst_out_take   (GstRtpBurstOut * out,
                                       RtpBurstStream * stream,
                                       const RtpBurstNext * next,
                                       GstSegment * segment, guint64 now);
/* The bytes of the packets @out holds (0 for an event). */
guint64      gst_rtp_burst_out_bytes  (const GstRtpBurstOut * out);
/* Pushes what @out holds on @pad (and gives it away); an event's push
 * returns GST_FLOW_OK.  Without the lock. */
GstFlowReturn gst_rtp_burst_out_push  (GstRtpBurstOut * out, GstPad * pad);
/* Tells @stream that the push of packets returned @ret at running time
 * @end (how long downstream held them: rtpburstsinkhold.h; NONE for a
 * repair packet, whose hold is not measured: rtpburstrepair.h).  With the
 * lock. */
void         gst_rtp_burst_out_done   (const GstRtpBurstOut * out,
                                       RtpBurstStream * stream,
                                       guint64 end, GstFlowReturn ret);

G_END_DECLS

#endif /* __GST_RTP_BURST_OUT_H__ */
