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


/* The element's pads: the packets the chain queues (parsed before the
 * lock), the events and queries of both pads.  The element's state is in
 * gstrtpburstpace-private.h. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/rtp/gstrtpbuffer.h>

#include "gstrtpburstpace-private.h"
#include "gstrtpburstout.h"

#define GST_CAT_DEFAULT rtp_burst_pace_debug

/* The chain refuses a packet with the stored flow, which upstream acts on:
 * GstBaseSrc and the like post a fatal flow as an error themselves. */
static GstFlowReturn
refuse_packet_locked (GstRtpBurstPace * self, GstBuffer * buffer)
{
  gst_buffer_unref (buffer);
  self->flow_unreported = FALSE;
  /* discarded by the flush that is under way: counted as flushed */
  if (self->srcresult == GST_FLOW_FLUSHING)
    rtp_burst_stream_refused (self->stream, 1);
  return self->srcresult;
}

/* The running time of a packet's DTS, else its PTS, in the sink pad's
 * segment: when its frame is due.  In the streaming thread (sink_segment). */
static guint64
sync_time (GstRtpBurstPace * self, GstBuffer * buffer)
{
  GstClockTime ts = GST_BUFFER_DTS_OR_PTS (buffer), rt;

  if (self->sink_segment.format != GST_FORMAT_TIME ||
      !GST_CLOCK_TIME_IS_VALID (ts))
    return RTP_BURST_TIME_NONE;
  rt = gst_segment_to_running_time (&self->sink_segment, GST_FORMAT_TIME, ts);
  return GST_CLOCK_TIME_IS_VALID (rt) ? rt : RTP_BURST_TIME_NONE;
}

/* A packet as the chain read it before taking the lock. */
typedef struct
{
  gboolean valid;               /* RTP: the fields of in and pt are set */
  RtpBurstPacketIn in;          /* in.data: the buffer (owned), always */
  guint pt;
} ParsedPacket;

/* Reads what the stream needs of @buffer (taken): the RTP header, the size
 * and the sync time.  Without the lock, in the streaming thread. */
static void
parse_packet (GstRtpBurstPace * self, GstBuffer * buffer, ParsedPacket * p)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  p->in.data = buffer;
  p->valid = gst_rtp_buffer_map (buffer, GST_MAP_READ, &rtp);
  if (!p->valid) {
    GST_DEBUG_OBJECT (self, "invalid RTP packet of %" G_GSIZE_FORMAT
        " bytes", gst_buffer_get_size (buffer));
    return;
  }
  p->in.rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  p->in.marker = gst_rtp_buffer_get_marker (&rtp);
  p->in.payload_len = gst_rtp_buffer_get_payload_len (&rtp);
  p->pt = gst_rtp_buffer_get_payload_type (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  p->in.size = gst_rtp_burst_buffer_size (buffer);
  /* no serialized event (the segment) comes while the chain runs, also
   * while it waits for room below */
  p->in.sync_time = sync_time (self, buffer);
}

/* Queues the packet @p parsed (parse_packet).  Runs with the lock held;
 * may release it while waiting for room for a new frame.
 * @now: (inout): running time of the packet's arrival, one reading per
 *   buffer list, read again after waiting */
static GstFlowReturn
handle_packet_locked (GstRtpBurstPace * self, ParsedPacket * p, guint64 * now)
{
  GstBuffer *buffer = p->in.data;
  RtpBurstStreamWake wake;

  if (self->srcresult != GST_FLOW_OK)
    return refuse_packet_locked (self, buffer);

  if (!p->valid) {
    /* dropped, counted and warned about (gst_rtp_burst_pace_post_pending) */
    gst_rtp_burst_invalid_count (&self->invalid);
    gst_buffer_unref (buffer);
    return GST_FLOW_OK;
  }

  if (rtp_burst_stream_is_repair (self->stream, p->pt)) {
    gst_rtp_burst_pace_wake_task_locked (self,
        rtp_burst_stream_add_repair (self->stream, buffer, p->in.size, *now));
    return GST_FLOW_OK;
  }

  if (!rtp_burst_stream_admit (self->stream, p->in.rtptime, p->in.marker,
          *now, &wake)) {
    /* back-pressure: wait for room for a new frame */
    gst_rtp_burst_pace_wake_task_locked (self, wake);
    self->room_waiters++;
    while (!rtp_burst_stream_has_room (self->stream) &&
        self->srcresult == GST_FLOW_OK)
      RTP_BURST_COND_WAIT (&self->room_cond, &self->lock);
    self->room_waiters--;
    /* the packet arrives now, not when the chain began to wait */
    *now = gst_rtp_burst_pace_running_time_now (self);
    if (self->srcresult != GST_FLOW_OK)
      return refuse_packet_locked (self, buffer);
  } else {
    gst_rtp_burst_pace_wake_task_locked (self, wake);
  }

  p->in.arrival = *now;
  gst_rtp_burst_pace_wake_task_locked (self,
      rtp_burst_stream_add_packet (self->stream, &p->in));
  return GST_FLOW_OK;
}

/* Posts what was noted under the lock (gstrtpburstmessages.h).  Call
 * without the lock. */
void
gst_rtp_burst_pace_post_pending (GstRtpBurstPace * self)
{
  GstRtpBurstPending p;

  LOCK (self);
  rtp_burst_stream_take_notices (self->stream, &p.notices);
  p.group = p.notices.other_clock ? g_strdup (self->group_name) : NULL;
  p.refused_group = g_steal_pointer (&self->refused_group);
  p.n_invalid = gst_rtp_burst_invalid_take_warning (&self->invalid);
  p.rt_warning = gst_rtp_burst_thread_take_warning (&self->thread,
      &p.rt_priority, &p.rt_error);
  UNLOCK (self);
  gst_rtp_burst_post_pending (GST_ELEMENT_CAST (self), self->sinkpad, &p);
}

GstFlowReturn
gst_rtp_burst_pace_chain (GstPad * pad, GstObject * parent, GstBuffer * buffer)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  guint64 now = gst_rtp_burst_pace_running_time_now (self);
  GstFlowReturn ret;
  ParsedPacket p;

  parse_packet (self, buffer, &p);
  LOCK (self);
  ret = handle_packet_locked (self, &p, &now);
  UNLOCK (self);
  gst_rtp_burst_pace_post_pending (self);
  return ret;
}

GstFlowReturn
gst_rtp_burst_pace_chain_list (GstPad * pad, GstObject * parent,
    GstBufferList * list)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  GstFlowReturn ret = GST_FLOW_OK;
  guint i, len = gst_buffer_list_length (list);
  guint64 now = gst_rtp_burst_pace_running_time_now (self);
  ParsedPacket p;

  /* each packet parsed without the lock, then queued under it */
  for (i = 0; i < len && ret == GST_FLOW_OK; i++) {
    parse_packet (self, gst_buffer_ref (gst_buffer_list_get (list, i)), &p);
    LOCK (self);
    ret = handle_packet_locked (self, &p, &now);
    /* the rest of the list goes with the refused packet */
    if (ret == GST_FLOW_FLUSHING && i + 1 < len)
      rtp_burst_stream_refused (self->stream, len - i - 1);
    UNLOCK (self);
  }
  gst_buffer_list_unref (list);
  gst_rtp_burst_pace_post_pending (self);
  return ret;
}

static void
parse_caps_locked (GstRtpBurstPace * self, GstCaps * caps)
{
  guint64 caps_period;

  if (self->last_caps && gst_caps_is_equal (caps, self->last_caps))
    return;
  gst_caps_replace (&self->last_caps, caps);
  gst_rtp_burst_pay_info_set_caps (&self->pay_info, caps);
  caps_period = gst_rtp_burst_caps_frame_period (GST_OBJECT_CAST (self), caps);
  rtp_burst_stream_set_caps (self->stream, caps_period,
      self->pay_info.clock_rate, self->pay_info.caps_pt);
  GST_DEBUG_OBJECT (self, "caps: clock-rate %d, a-framerate period %"
      GST_TIME_FORMAT ", frame period now %" GST_TIME_FORMAT,
      self->pay_info.clock_rate, GST_TIME_ARGS (caps_period),
      GST_TIME_ARGS (rtp_burst_stream_period (self->stream)));
}

/* As in queue, sticky events other than segment and EOS that were still
 * queued at a flush are stored on the source pad, so that data after the
 * flush still goes out with its caps. */
static void
keep_sticky_event (gpointer data, gpointer user_data)
{
  GstEvent *event = data;
  GstRtpBurstPace *self = user_data;
  GstEventType type = GST_EVENT_TYPE (event);

  if (GST_EVENT_IS_STICKY (event) && type != GST_EVENT_SEGMENT &&
      type != GST_EVENT_EOS)
    gst_pad_store_sticky_event (self->srcpad, event);
  gst_event_unref (event);
}

/* Drops everything queued (flush, READY): counted in flushed-packets.  The
 * stream forgets its slots in its group, under the group's lock: only while
 * the task is paused or stopped, so that it never waits for that lock. */
void
gst_rtp_burst_pace_flush_locked (GstRtpBurstPace * self)
{
  rtp_burst_stream_flush (self->stream, keep_sticky_event, self);
  gst_rtp_burst_pace_wake_upstream_locked (self);
}

/* Whether repair packets that come after @event must not overtake it
 * (rtpburstrepair.h).  A tag, or a custom notification such as the
 * encoder's GstForceKeyUnit, says nothing about how the packets after it
 * are read; an encoder sends them with its frames (a tag at each change of
 * its bit rate), and a repair packet held behind one waits for the media's
 * whole backlog before it.  Every other serialized event (caps, segment,
 * EOS, gap, ...) holds them. */
static gboolean
event_is_barrier (GstEvent * event)
{
  return GST_EVENT_TYPE (event) != GST_EVENT_TAG &&
      GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_DOWNSTREAM;
}

gboolean
gst_rtp_burst_pace_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  gboolean ret = TRUE, restart = FALSE;
  guint64 now;

  GST_LOG_OBJECT (pad, "event %" GST_PTR_FORMAT, event);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      ret = gst_pad_push_event (self->srcpad, event);
      gst_rtp_burst_pace_pause_task_flushing (self);
      return ret;

    case GST_EVENT_FLUSH_STOP:
      /* also when no flush-start came first: the task must not hold a
       * queued frame while the queue is emptied */
      gst_rtp_burst_pace_pause_task_flushing (self);
      LOCK (self);
      gst_rtp_burst_pace_flush_locked (self);
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
      gst_segment_init (&self->sink_segment, GST_FORMAT_UNDEFINED);
      self->srcresult = GST_FLOW_OK;
      self->eos = FALSE;
      UNLOCK (self);
      ret = gst_pad_push_event (self->srcpad, event);
      if (GST_PAD_MODE (self->srcpad) == GST_PAD_MODE_PUSH)
        gst_rtp_burst_pace_start_task (self);
      return ret;

    default:
      break;
  }

  if (!GST_EVENT_IS_SERIALIZED (event))
    return gst_pad_event_default (pad, parent, event);

  now = gst_rtp_burst_pace_running_time_now (self);
  LOCK (self);
  /* as in queue: stream-start and segment end the EOS state of the pad */
  if (self->srcresult == GST_FLOW_EOS &&
      (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START ||
          GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)) {
    self->srcresult = GST_FLOW_OK;
    restart = TRUE;
  }
  if (self->srcresult != GST_FLOW_OK) {
    GstFlowReturn result = self->srcresult;
    /* upstream ends the stream without having seen the task's fatal flow
     * (it would have posted it): post it now, as queue does at EOS */
    gboolean post = GST_EVENT_TYPE (event) == GST_EVENT_EOS &&
        self->flow_unreported && gst_rtp_burst_pace_flow_is_fatal (result);

    if (post)
      self->flow_unreported = FALSE;
    UNLOCK (self);
    if (post)
      GST_ELEMENT_FLOW_ERROR (self, result);
    /* like queue: keep sticky events for when the pad is relinked */
    if (result == GST_FLOW_NOT_LINKED && GST_EVENT_IS_STICKY (event)) {
      gst_pad_store_sticky_event (self->srcpad, event);
      gst_event_unref (event);
      return TRUE;
    }
    GST_DEBUG_OBJECT (self, "refusing %" GST_PTR_FORMAT ": %s", event,
        gst_flow_get_name (result));
    gst_event_unref (event);
    return FALSE;
  }

  /* a serialized event completes the open frame, with what was in force */
  gst_rtp_burst_pace_wake_task_locked (self,
      rtp_burst_stream_close_open (self->stream, now));

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* after EOS upstream sees no flow returns, until a new stream */
      self->eos = TRUE;
      break;
    case GST_EVENT_STREAM_START:
      self->eos = FALSE;
      break;
    case GST_EVENT_SEGMENT:
      self->eos = FALSE;
      gst_event_copy_segment (event, &self->sink_segment);
      break;
    case GST_EVENT_CAPS:{
      GstCaps *caps;

      gst_event_parse_caps (event, &caps);
      parse_caps_locked (self, caps);
      break;
    }
    default:
      break;
  }
  gst_rtp_burst_pace_wake_task_locked (self,
      rtp_burst_stream_add_event (self->stream, event,
          event_is_barrier (event), now));
  UNLOCK (self);
  /* the task paused at the EOS: resume it for the new stream */
  if (restart && GST_PAD_MODE (self->srcpad) == GST_PAD_MODE_PUSH)
    gst_rtp_burst_pace_start_task (self);
  gst_rtp_burst_pace_post_pending (self);
  return ret;
}

gboolean
gst_rtp_burst_pace_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  if (GST_QUERY_IS_SERIALIZED (query)) {
    guint64 now = gst_rtp_burst_pace_running_time_now (self);
    gboolean ok;

    /* keep the order: answer once everything before it has left */
    LOCK (self);
    gst_rtp_burst_pace_wake_task_locked (self,
        rtp_burst_stream_close_open (self->stream, now));
    self->drain_waiters++;
    while (self->srcresult == GST_FLOW_OK &&
        !rtp_burst_stream_is_empty (self->stream))
      RTP_BURST_COND_WAIT (&self->drain_cond, &self->lock);
    self->drain_waiters--;
    ok = self->srcresult == GST_FLOW_OK;
    UNLOCK (self);
    if (!ok)
      return FALSE;
  }
  return gst_pad_query_default (pad, parent, query);
}

gboolean
gst_rtp_burst_pace_src_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min, max;
    gboolean live;
    guint64 room;

    if (!gst_pad_peer_query (self->sinkpad, query))
      return FALSE;
    gst_query_parse_latency (query, &live, &min, &max);

    LOCK (self);
    rtp_burst_stream_set_upstream_latency (self->stream, min);
    /* what a clocksync downstream will add (it ignores a non-live one) */
    rtp_burst_stream_set_sink_latency (self->stream, RTP_BURST_HOLD_QUERY,
        live ? min : 0);
    room = rtp_burst_stream_room (self->stream);
    UNLOCK (self);

    /* No minimum latency of its own: a paced packet's DTS is its slot
     * (minus what a synchronising sink adds, rtpburstsinkhold.h), so it
     * reaches a sink that syncs on it in time however long the element
     * held it.  Its queue can hold RTP_BURST_STREAM_MAX_FRAMES frames. */
    GST_DEBUG_OBJECT (self, "upstream latency %" GST_TIME_FORMAT
        ", room for %" GST_TIME_FORMAT, GST_TIME_ARGS (min),
        GST_TIME_ARGS (room));
    if (GST_CLOCK_TIME_IS_VALID (max))
      max += room;
    gst_query_set_latency (query, live, min, max);
    return TRUE;
  }
  return gst_pad_query_default (pad, parent, query);
}

/* A synchronising sink sends the pipeline latency upstream in a LATENCY
 * event (GstBaseSink forwards it): the delay it adds to the timestamps
 * (rtpburstsinkhold.h). */
/* A new estimate of the congestion controller: the stream's rate cap
 * (under the controller's lock, gst_rtp_burst_cc_handle_event and
 * gst_rtp_burst_cc_pushed). */
void
gst_rtp_burst_pace_set_cc_rate (guint64 rate, gpointer user_data)
{
  GstRtpBurstPace *self = user_data;

  LOCK (self);
  self->config.cc_rate = rate;
  UNLOCK (self);
}

gboolean
gst_rtp_burst_pace_src_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  /* TWCC feedback (rtpbin's RTPTWCCPackets): read, and passed on */
  gst_rtp_burst_cc_handle_event (&self->cc, GST_ELEMENT_CAST (self), event,
      gst_rtp_burst_pace_set_cc_rate, self);

  if (GST_EVENT_TYPE (event) == GST_EVENT_LATENCY) {
    GstClockTime latency;

    gst_event_parse_latency (event, &latency);
    GST_DEBUG_OBJECT (self, "downstream latency %" GST_TIME_FORMAT,
        GST_TIME_ARGS (latency));
    LOCK (self);
    rtp_burst_stream_set_sink_latency (self->stream, RTP_BURST_HOLD_EVENT,
        latency);
    UNLOCK (self);
  }
  return gst_pad_event_default (pad, parent, event);
}
