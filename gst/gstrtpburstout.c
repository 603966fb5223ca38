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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstrtpburstout.h"
#include "rtpburstschedule.h"

guint
gst_rtp_burst_buffer_size (gconstpointer buffer)
{
  return (guint) MIN (gst_buffer_get_size ((GstBuffer *) buffer), G_MAXUINT);
}

GstClockTime
gst_rtp_burst_out_dts (const GstSegment * segment, guint64 rt)
{
  if (rt == RTP_BURST_TIME_NONE || segment->format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_position_from_running_time (segment, GST_FORMAT_TIME, rt);
}

GstBuffer *
gst_rtp_burst_with_dts (GstBuffer * buf, GstClockTime dts)
{
  if (GST_CLOCK_TIME_IS_VALID (dts) && GST_BUFFER_DTS (buf) != dts) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_DTS (buf) = dts;
  }
  return buf;
}

GstBuffer *
gst_rtp_burst_out_init (GstRtpBurstOut * out, gpointer * packets, guint n,
    GstClockTime dts)
{
  guint i;

  g_return_val_if_fail (n > 0, NULL);
  out->single = NULL;
  out->list = NULL;
  if (n == 1) {
    out->single = gst_rtp_burst_with_dts (packets[0], dts);
    return out->single;
  }
  out->list = gst_buffer_list_new_sized (n);
  for (i = 0; i < n; i++)
    gst_buffer_list_add (out->list, gst_rtp_burst_with_dts (packets[i], dts));
  return gst_buffer_list_get (out->list, n - 1);
}

/* Packets of one push up to this many are collected on the stack. */
#define PUSH_STACK 64

GstBuffer *
gst_rtp_burst_out_take (GstRtpBurstOut * out, RtpBurstStream * stream,
    const RtpBurstNext * next, GstSegment * segment, guint64 now)
{
  gpointer stack[PUSH_STACK], *packets;
  GstBuffer *last;
  guint n = next->n_packets;

  memset (out, 0, sizeof (*out));
  out->kind = next->kind;
  switch (next->kind) {
    case RTP_BURST_NEXT_EVENT:
      out->event = rtp_burst_stream_pop_event (stream);
      out->eos = GST_EVENT_TYPE (out->event) == GST_EVENT_EOS;
      if (GST_EVENT_TYPE (out->event) == GST_EVENT_SEGMENT)
        gst_event_copy_segment (out->event, segment);
      return NULL;
    case RTP_BURST_NEXT_REPAIR:
      out->single = gst_rtp_burst_with_dts (rtp_burst_stream_take_repair
          (stream, next, now, &n), gst_rtp_burst_out_dts (segment, next->dts));
      return NULL;
    default:
      g_return_val_if_fail (next->kind == RTP_BURST_NEXT_PUSH, NULL);
      packets = n <= PUSH_STACK ? stack : g_new (gpointer, n);
      rtp_burst_stream_take_packets (stream, next, packets);
      last = gst_rtp_burst_out_init (out, packets, n,
          gst_rtp_burst_out_dts (segment, next->dts));
      if (packets != stack)
        g_free (packets);
      return last;
  }
}

guint64
gst_rtp_burst_out_bytes (const GstRtpBurstOut * out)
{
  if (out->single)
    return gst_buffer_get_size (out->single);
  return out->list ? gst_buffer_list_calculate_size (out->list) : 0;
}

GstFlowReturn
gst_rtp_burst_out_push (GstRtpBurstOut * out, GstPad * pad)
{
  GstEvent *event = g_steal_pointer (&out->event);
  GstBuffer *single = g_steal_pointer (&out->single);
  GstBufferList *list = g_steal_pointer (&out->list);

  if (event) {
    gst_pad_push_event (pad, event);
    return GST_FLOW_OK;
  }
  return single ? gst_pad_push (pad, single) : gst_pad_push_list (pad, list);
}

void
gst_rtp_burst_out_done (const GstRtpBurstOut * out, RtpBurstStream * stream,
    guint64 end, GstFlowReturn ret)
{
  /* an event has nothing to report */
  if (out->kind != RTP_BURST_NEXT_EVENT)
    rtp_burst_stream_push_done (stream, end, ret == GST_FLOW_FLUSHING);
}
