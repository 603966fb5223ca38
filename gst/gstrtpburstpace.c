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


/**
 * SECTION:element-rtpburstpace
 * @title: rtpburstpace
 *
 * Burst control (A. Chodorek and R. R. Chodorek) for RTP streams.  A payloader
 * pushes all packets of a video frame at once; at a bottleneck with a small
 * drop-tail queue such bursts overflow the queue, the video loses packets
 * and competing TCP flows are driven into timeouts.  rtpburstpace cuts each
 * frame into slots of #GstRtpBurstPace:burst-size packets and spreads the
 * slots over #GstRtpBurstPace:duty times the frame period ΔT, on the
 * pipeline clock, without changing the stream's bit rate.
 *
 * For frame i with payload bytes f_i in n_i packets, payload length p and b
 * packets per slot, the frame gets k_i = max (⌈f_i / (p·b)⌉, ⌈n_i / b⌉)
 * slots of Δt_i = ΔT · duty / k_i (equation (2) of the paper).  Each slot's
 * duration can be randomized by ±#GstRtpBurstPace:slot-jitter (equation (3)).
 * Slot 0 is at the frame's sync time, the running time of its DTS (else
 * PTS), or immediately if that has passed: a frame starts when it arrives
 * unless it arrives early.  With #GstRtpBurstPace:sync-upstream-latency the
 * upstream latency is added, as clocksync does.
 *
 * Each paced packet leaves with its PTS unchanged (the frame's time, from
 * which rtpbin computes its RTCP sender reports) and a DTS that says when it
 * leaves, which is what a synchronising sink waits for.  So the sink after
 * the element may synchronise, as udpsink does by default: one in the
 * element's own thread releases every packet at its slot once the element
 * has taken that sink's latency (from the second frame on; stats
 * `sink-latency`, `held-slots`), one behind a queue the pipeline latency
 * after it.  The element adds no latency to the LATENCY query
 * (docs/algorithm.md, "Timestamps, synchronising sinks and latency").
 *
 * Packets are queued by the streaming thread and released by the element's
 * own source pad task; the queue holds at most 8 complete frames, beyond
 * that the streaming thread blocks.  Nothing is dropped except packets that
 * are not valid RTP (counted in #GstRtpBurstPace:stats, with a warning)
 * and, as in queue, data discarded by a flush.
 *
 * Repair packets (a payload type other than the caps' `payload`, such as
 * rtprtxsend's retransmissions behind rtpbin) are spread between the
 * media's slots, none later than one frame period after they came, and
 * counted in the `repair-*` stats (#GstRtpBurstPace:pace-repair;
 * docs/algorithm.md, "Repair packets").  Streams that share a link can
 * share one schedule and a rate (#GstRtpBurstPace:group,
 * #GstRtpBurstPace:group-max-rate, #GstRtpBurstPace:priority).
 *
 * At raw-video packet rates, #GstRtpBurstPace:min-slot-duration puts
 * several packets in a slot, and #GstRtpBurstPace:realtime-priority keeps
 * other threads from delaying the slots (docs/performance.md).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! \
 *     video/x-raw,format=UYVY,width=160,height=96,framerate=25/1 ! \
 *     rtpvrawpay mtu=1028 ! rtpburstpace burst-size=1 duty=0.9 ! \
 *     udpsink host=127.0.0.1 port=5000
 * ]| A 6 Mbit/s raw video stream of 30 packets per frame, one packet every
 * 1.2 ms instead of 30 packets at once every 40 ms.
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! x264enc tune=zerolatency ! \
 *     rtph264pay ! rtpburstpace ! udpsink host=127.0.0.1 port=5000
 * ]| H.264 with the frame period taken from the caps' a-framerate.
 * |[
 * … ! rtph264pay pt=96 ! rtpbin.send_rtp_sink_0 \
 *   rtpbin.send_rtp_src_0 ! rtpburstpace ! udpsink host=127.0.0.1 port=5000
 * ]| Behind rtpbin with rtprtxsend as its aux sender: the retransmissions
 * are spread between the media's slots (examples/videorecipes.py,
 * recipe paced-rtx-behind).
 * |[
 * ( videotestsrc is-live=true ! x264enc tune=zerolatency ! \
 *     rtph264pay pt=96 ! rtpburstpace name=pay0 )
 * ]| A gst-rtsp-server media factory launch line: the server takes the
 * element named pay0 as the stream's payloader and reads #GstRtpBurstPace:pt,
 * #GstRtpBurstPace:seqnum and the stats from it; #GstRtpBurstPace:mtu and
 * #GstRtpBurstPace:seqnum-offset reach the payloader before it
 * (examples/rtsp-server.py).
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/rtp/gstrtpbuffer.h>

#include "gstrtpburstpace.h"
#include "gstrtpburstlock.h"
#include "gstrtpburstlog.h"
#include "gstrtpburstmessages.h"
#include "gstrtpburstout.h"
#include "gstrtpburstpaycompat.h"
#include "gstrtpburstprops.h"
#include "gstrtpburststats.h"
#include "gstrtpburstthread.h"
#include "gstrtpburstwait.h"
#include "rtpburststream.h"

GST_DEBUG_CATEGORY (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

struct _GstRtpBurstPace
{
  GstElement parent;

  GstPad *sinkpad, *srcpad;

  /* The stream's membership of its group: held while the element joins or
   * leaves it (with lock too) and while it sets its group-max-rate in the
   * group (without lock).  Never taken by the task, nor under lock: the
   * group's own lock, which another member holds while it places a frame,
   * is never waited for with lock held while the task may run.  Order:
   * member_lock, then lock, then the group's lock. */
  GMutex member_lock;

  /* everything below is protected by lock, unless said otherwise; the
   * task takes it at every decision, so nothing slow is done under it */
  GMutex lock;
  /* one condition per kind of waiter, signalled only while one waits: the
   * task waiting for data or a state (its long clock waits use it too,
   * gstrtpburstwait.h), the chain for room for a frame, a serialized query
   * for the queue to empty */
  GCond task_cond, room_cond, drain_cond;
  gboolean task_waiting;
  guint room_waiters, drain_waiters;

  GstFlowReturn srcresult;
  gboolean eos;                 /* upstream sent EOS: it sees no more flow */
  gboolean flow_unreported;     /* srcresult is a fatal flow that neither
                                 * upstream nor the element has posted */
  gboolean playing;
  GstRtpBurstWait wait;         /* the task's clock wait */

  /* the queue, the schedule and the counters (rtpburststream.h) */
  RtpBurstStream *stream;
  RtpBurstStreamConfig config;  /* the properties that shape it */
  guint64 timer_slack;
  gint realtime_priority;

  /* what the task changed on its thread, to undo when it leaves the thread
   * (written by the task thread only) */
  GstRtpBurstThread thread;

  GstCaps *last_caps;
  GstSegment sink_segment;      /* of the sink pad: the frames' sync times;
                                 * protected by the sink pad's stream lock
                                 * (read by the chain without lock) */
  GstSegment segment;           /* of the source pad, updated by the task:
                                 * the DTS of the packets pushed */

  /* what payloader users read (gst-rtsp-server) */
  GstRtpBurstPayInfo pay_info;

  /* the streams it shares a timeline with (property group) */
  gchar *group_name;
  gchar *refused_group;         /* a group set while PAUSED or PLAYING */

  GstRtpBurstInvalid invalid;   /* packets that are not RTP */
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp"));

#define gst_rtp_burst_pace_parent_class parent_class
G_DEFINE_TYPE (GstRtpBurstPace, gst_rtp_burst_pace, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (rtpburstpace, "rtpburstpace",
    GST_RANK_NONE, GST_TYPE_RTP_BURST_PACE,
    GST_DEBUG_CATEGORY_INIT (rtp_burst_pace_debug, "rtpburstpace", 0,
        "RTP burst control"));

/* The element's lock (gstrtpburstlock.h announces it to ThreadSanitizer). */
#define LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->lock)
#define UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->lock)
#define MEMBER_LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->member_lock)
#define MEMBER_UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->member_lock)

static void gst_rtp_burst_pace_finalize (GObject * object);
static void gst_rtp_burst_pace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_rtp_burst_pace_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_rtp_burst_pace_post_message (GstElement * element,
    GstMessage * message);
static GstStateChangeReturn gst_rtp_burst_pace_change_state (GstElement *
    element, GstStateChange transition);
static GstFlowReturn gst_rtp_burst_pace_chain (GstPad * pad, GstObject * parent,
    GstBuffer * buffer);
static GstFlowReturn gst_rtp_burst_pace_chain_list (GstPad * pad,
    GstObject * parent, GstBufferList * list);
static gboolean gst_rtp_burst_pace_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event);
static gboolean gst_rtp_burst_pace_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query);
static gboolean gst_rtp_burst_pace_src_query (GstPad * pad, GstObject * parent,
    GstQuery * query);
static gboolean gst_rtp_burst_pace_src_event (GstPad * pad, GstObject * parent,
    GstEvent * event);
static gboolean gst_rtp_burst_pace_sink_activate_mode (GstPad * pad,
    GstObject * parent, GstPadMode mode, gboolean active);
static gboolean gst_rtp_burst_pace_src_activate_mode (GstPad * pad,
    GstObject * parent, GstPadMode mode, gboolean active);
static void gst_rtp_burst_pace_loop (GstRtpBurstPace * self);
static gboolean start_task (GstRtpBurstPace * self);
static void pause_task_flushing (GstRtpBurstPace * self);

static void
gst_rtp_burst_pace_class_init (GstRtpBurstPaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->finalize = gst_rtp_burst_pace_finalize;
  gobject_class->set_property = gst_rtp_burst_pace_set_property;
  gobject_class->get_property = gst_rtp_burst_pace_get_property;

  /* documented with their specifications, in gstrtpburstprops.c */
  gst_rtp_burst_pace_install_properties (gobject_class);
  gst_type_mark_as_plugin_api (GST_TYPE_RTP_BURST_PACE_OVERLOAD, 0);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  gst_element_class_set_static_metadata (element_class,
      "RTP burst control", "Filter/Network/RTP",
      "Burst control: spreads the packets of each frame over duty x the "
      "frame period in slots of burst-size packets, on the pipeline clock, "
      "keeping the bit rate; each packet's DTS is when it leaves",
      "The rtpburstpace authors");

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_change_state);
  element_class->post_message =
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_post_message);
}

static void
gst_rtp_burst_pace_init (GstRtpBurstPace * self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_chain));
  gst_pad_set_chain_list_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_chain_list));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_sink_event));
  gst_pad_set_query_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_sink_query));
  gst_pad_set_activatemode_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_sink_activate_mode));
  GST_PAD_SET_PROXY_CAPS (self->sinkpad);
  GST_PAD_SET_PROXY_ALLOCATION (self->sinkpad);
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);

  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_set_query_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_src_query));
  gst_pad_set_event_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_src_event));
  gst_pad_set_activatemode_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_rtp_burst_pace_src_activate_mode));
  GST_PAD_SET_PROXY_CAPS (self->srcpad);
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);

  /* (not announced to ThreadSanitizer here: it learns of the lock at its
   * first use, in whichever thread that is) */
  g_mutex_init (&self->member_lock);
  g_mutex_init (&self->lock);
  g_cond_init (&self->task_cond);
  g_cond_init (&self->room_cond);
  g_cond_init (&self->drain_cond);
  gst_rtp_burst_wait_init (&self->wait, &self->lock, &self->task_cond);

  self->srcresult = GST_FLOW_FLUSHING;
  gst_rtp_burst_config_init (&self->config);
  self->timer_slack = DEFAULT_TIMER_SLACK;
  self->realtime_priority = DEFAULT_REALTIME_PRIORITY;
  self->stream = rtp_burst_stream_new (&self->config,
      (GDestroyNotify) gst_buffer_unref, gst_rtp_burst_buffer_size,
      (GDestroyNotify) gst_event_unref);
  gst_rtp_burst_thread_init (&self->thread);
  gst_rtp_burst_pay_info_reset (&self->pay_info);
  gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
  gst_segment_init (&self->sink_segment, GST_FORMAT_UNDEFINED);
}

static void
gst_rtp_burst_pace_finalize (GObject * object)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);

  /* The last reference may be dropped by the streaming thread, after the
   * application thread's last state change: taking the lock once orders
   * everything done under it before the clean-up (GObject's reference count
   * does that too, but ThreadSanitizer cannot see it); member_lock
   * likewise. */
  MEMBER_LOCK (self);
  LOCK (self);
  UNLOCK (self);
  MEMBER_UNLOCK (self);
  rtp_burst_stream_free (self->stream);
  gst_clear_caps (&self->last_caps);
  g_free (self->group_name);
  g_free (self->refused_group);
  gst_rtp_burst_wait_clear (&self->wait);
  TSAN_DESTROY (&self->lock);
  g_mutex_clear (&self->lock);
  TSAN_DESTROY (&self->member_lock);
  g_mutex_clear (&self->member_lock);
  g_cond_clear (&self->task_cond);
  g_cond_clear (&self->room_cond);
  g_cond_clear (&self->drain_cond);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* --- waking, called with the lock held ----------------------------------- */

/* Wakes the task as an input to the stream says (RtpBurstStreamWake). */
static void
wake_task_locked (GstRtpBurstPace * self, RtpBurstStreamWake wake)
{
  if (wake & RTP_BURST_STREAM_WAKE_CLOCK)
    gst_rtp_burst_wait_unschedule_locked (&self->wait);
  else if (wake & RTP_BURST_STREAM_WAKE_CLOSED)
    gst_rtp_burst_wait_unschedule_close_locked (&self->wait);
  if ((wake & RTP_BURST_STREAM_WAKE_DATA) && self->task_waiting)
    g_cond_signal (&self->task_cond);
}

/* Wakes the upstream threads that wait on the queue: for room for a frame,
 * for the queue to empty, or for srcresult to change. */
static void
wake_upstream_locked (GstRtpBurstPace * self)
{
  if (self->room_waiters)
    g_cond_broadcast (&self->room_cond);
  if (self->drain_waiters)
    g_cond_broadcast (&self->drain_cond);
}

/* --- helpers, called with the lock held ---------------------------------- */

static guint64
running_time_now (GstRtpBurstPace * self)
{
  return gst_rtp_burst_running_time (GST_ELEMENT_CAST (self), NULL, NULL);
}

/* A downstream flow that ends the stream with an error: posted once, by
 * upstream or by the element (see the end of gst_rtp_burst_pace_loop). */
static gboolean
flow_is_fatal (GstFlowReturn ret)
{
  return ret == GST_FLOW_NOT_LINKED || ret < GST_FLOW_EOS;
}

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
    /* dropped, counted and warned about (post_pending_messages) */
    gst_rtp_burst_invalid_count (&self->invalid);
    gst_buffer_unref (buffer);
    return GST_FLOW_OK;
  }

  if (rtp_burst_stream_is_repair (self->stream, p->pt)) {
    wake_task_locked (self, rtp_burst_stream_add_repair (self->stream,
            buffer, p->in.size, *now));
    return GST_FLOW_OK;
  }

  if (!rtp_burst_stream_admit (self->stream, p->in.rtptime, p->in.marker,
          *now, &wake)) {
    /* back-pressure: wait for room for a new frame */
    wake_task_locked (self, wake);
    self->room_waiters++;
    while (!rtp_burst_stream_has_room (self->stream) &&
        self->srcresult == GST_FLOW_OK)
      RTP_BURST_COND_WAIT (&self->room_cond, &self->lock);
    self->room_waiters--;
    /* the packet arrives now, not when the chain began to wait */
    *now = running_time_now (self);
    if (self->srcresult != GST_FLOW_OK)
      return refuse_packet_locked (self, buffer);
  } else {
    wake_task_locked (self, wake);
  }

  p->in.arrival = *now;
  wake_task_locked (self, rtp_burst_stream_add_packet (self->stream, &p->in));
  return GST_FLOW_OK;
}

/* Posts what was noted under the lock (gstrtpburstmessages.h).  Call
 * without the lock. */
static void
post_pending_messages (GstRtpBurstPace * self)
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

static GstFlowReturn
gst_rtp_burst_pace_chain (GstPad * pad, GstObject * parent, GstBuffer * buffer)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  guint64 now = running_time_now (self);
  GstFlowReturn ret;
  ParsedPacket p;

  parse_packet (self, buffer, &p);
  LOCK (self);
  ret = handle_packet_locked (self, &p, &now);
  UNLOCK (self);
  post_pending_messages (self);
  return ret;
}

static GstFlowReturn
gst_rtp_burst_pace_chain_list (GstPad * pad, GstObject * parent,
    GstBufferList * list)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  GstFlowReturn ret = GST_FLOW_OK;
  guint i, len = gst_buffer_list_length (list);
  guint64 now = running_time_now (self);
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
  post_pending_messages (self);
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
static void
flush_locked (GstRtpBurstPace * self)
{
  rtp_burst_stream_flush (self->stream, keep_sticky_event, self);
  wake_upstream_locked (self);
}

static gboolean
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
      pause_task_flushing (self);
      return ret;

    case GST_EVENT_FLUSH_STOP:
      /* also when no flush-start came first: the task must not hold a
       * queued frame while the queue is emptied */
      pause_task_flushing (self);
      LOCK (self);
      flush_locked (self);
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
      gst_segment_init (&self->sink_segment, GST_FORMAT_UNDEFINED);
      self->srcresult = GST_FLOW_OK;
      self->eos = FALSE;
      UNLOCK (self);
      ret = gst_pad_push_event (self->srcpad, event);
      if (GST_PAD_MODE (self->srcpad) == GST_PAD_MODE_PUSH)
        start_task (self);
      return ret;

    default:
      break;
  }

  if (!GST_EVENT_IS_SERIALIZED (event))
    return gst_pad_event_default (pad, parent, event);

  now = running_time_now (self);
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
        self->flow_unreported && flow_is_fatal (result);

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
  wake_task_locked (self, rtp_burst_stream_close_open (self->stream, now));

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
  wake_task_locked (self, rtp_burst_stream_add_event (self->stream, event,
          now));
  UNLOCK (self);
  /* the task paused at the EOS: resume it for the new stream */
  if (restart && GST_PAD_MODE (self->srcpad) == GST_PAD_MODE_PUSH)
    start_task (self);
  post_pending_messages (self);
  return ret;
}

static gboolean
gst_rtp_burst_pace_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  if (GST_QUERY_IS_SERIALIZED (query)) {
    guint64 now = running_time_now (self);
    gboolean ok;

    /* keep the order: answer once everything before it has left */
    LOCK (self);
    wake_task_locked (self, rtp_burst_stream_close_open (self->stream, now));
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

static gboolean
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
static gboolean
gst_rtp_burst_pace_src_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

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

/* --- the source pad task ------------------------------------------------- */

/* Asks the stream what to do next and waits as it says, until there is
 * something to push (or a frame was dropped) or the task must stop: FALSE
 * then.  *now is when it returned.  The only place the task waits. */
static gboolean
ask_locked (GstRtpBurstPace * self, RtpBurstNext * next,
    RtpBurstStreamNow * now)
{
  GstClockReturn cret;

  gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
  for (;;) {
    gst_rtp_burst_thread_apply (&self->thread, GST_OBJECT_CAST (self),
        self->timer_slack, self->realtime_priority);
    if (self->srcresult != GST_FLOW_OK)
      return FALSE;
    now->playing = self->playing;
    rtp_burst_stream_next (self->stream, now, next);
    gst_rtp_burst_log_next (GST_OBJECT_CAST (self), next, now->now);

    switch (next->kind) {
      case RTP_BURST_NEXT_WAIT_DATA:
        self->task_waiting = TRUE;
        RTP_BURST_COND_WAIT (&self->task_cond, &self->lock);
        self->task_waiting = FALSE;
        gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
        break;
      case RTP_BURST_NEXT_WAIT_UNTIL:
        cret = gst_rtp_burst_wait_until_running_locked (&self->wait,
            GST_ELEMENT_CAST (self), next->time, next->for_close, &now->now);
        /* the slot is reached unless a pause or flush cut the wait short;
         * how late the machine woke counts when it did wait */
        if (next->for_slot && cret != GST_CLOCK_UNSCHEDULED &&
            self->srcresult == GST_FLOW_OK) {
          guint64 late = now->now != RTP_BURST_TIME_NONE &&
              now->now > next->time ? now->now - next->time : 0;

          GST_LOG_OBJECT (self, "woke %" GST_TIME_FORMAT " after the slot%s",
              GST_TIME_ARGS (late), cret == GST_CLOCK_EARLY ?
              " (it was due when asked)" : "");
          rtp_burst_stream_woke (self->stream, late, cret != GST_CLOCK_EARLY);
        }
        if (cret == GST_CLOCK_UNSCHEDULED || cret == GST_CLOCK_BADTIME)
          gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
        break;
      default:
        return TRUE;
    }
  }
}

/* The source pad task: one thing per call, as in queue's loop.  It asks
 * the stream what to do, waiting as it says (ask_locked), takes that from
 * the stream, pushes it without the lock and tells the stream how the push
 * went (gstrtpburstout.h). */
static void
gst_rtp_burst_pace_loop (GstRtpBurstPace * self)
{
  RtpBurstStreamNow now;
  RtpBurstNext next;
  GstRtpBurstOut out;
  GstBuffer *last;
  GstFlowReturn ret;
  guint64 end;

  TSAN_ACQUIRE (self);
  LOCK (self);
  if (!ask_locked (self, &next, &now))
    goto out_flushing;
  /* a frame was dropped (DROPPED): only upstream and the application are
   * told, below */
  if (next.kind != RTP_BURST_NEXT_DROPPED) {
    last = gst_rtp_burst_out_take (&out, self->stream, &next, &self->segment,
        now.now);
    if (last)
      gst_rtp_burst_pay_info_released (&self->pay_info, last, &self->segment);
    /* what left made room for more */
    wake_upstream_locked (self);
    UNLOCK (self);

    ret = gst_rtp_burst_out_push (&out, self->srcpad);
    /* when packets' push returned: how long downstream held them
     * (gst_rtp_burst_out_done) */
    end = out.kind == RTP_BURST_NEXT_PUSH ? running_time_now (self) :
        RTP_BURST_TIME_NONE;

    LOCK (self);
    gst_rtp_burst_out_done (&out, self->stream, end, ret);
    if (self->srcresult != GST_FLOW_OK)
      goto out_flushing;
    /* EOS ends the task, unless a new stream (stream-start, segment) was
     * queued behind it already */
    if (out.eos && rtp_burst_stream_is_empty (self->stream))
      ret = GST_FLOW_EOS;
    self->srcresult = ret;
    if (ret != GST_FLOW_OK)
      goto out_flushing;
  }
  /* a dropped frame made room too */
  if (next.kind == RTP_BURST_NEXT_DROPPED)
    wake_upstream_locked (self);
  UNLOCK (self);
  post_pending_messages (self);
  return;

out_flushing:
  {
    GstFlowReturn result = self->srcresult;
    /* One error per failure, as in queue: upstream posts a fatal flow when
     * the chain returns it; once upstream has sent EOS it pushes no more,
     * so the task posts it (and pushes EOS).  A failure before an EOS that
     * comes without a push in between is posted at that EOS. */
    gboolean post = flow_is_fatal (result) && self->eos;

    self->flow_unreported = flow_is_fatal (result) && !self->eos;
    GST_DEBUG_OBJECT (self, "pausing task: %s", gst_flow_get_name (result));
    gst_pad_pause_task (self->srcpad);
    wake_upstream_locked (self);
    UNLOCK (self);
    if (post) {
      GST_ELEMENT_FLOW_ERROR (self, result);
      gst_pad_push_event (self->srcpad, gst_event_new_eos ());
    }
    return;
  }
}

static gboolean
gst_rtp_burst_pace_post_message (GstElement * element, GstMessage * message)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (element);

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_STREAM_STATUS) {
    /* LEAVE is posted from the task's thread as it leaves; the task start
     * ordered the element's construction before it (as at the loop's top) */
    TSAN_ACQUIRE (self);
    if (gst_rtp_burst_thread_left (message, self->srcpad)) {
      /* give the pooled thread its own slack and policy back */
      LOCK (self);
      gst_rtp_burst_thread_restore (&self->thread, GST_OBJECT_CAST (self));
      UNLOCK (self);
    }
  }
  return GST_ELEMENT_CLASS (parent_class)->post_message (element, message);
}

/* --- activation and states ----------------------------------------------- */

/* Makes the task and a waiting chain or query stop at their next check and
 * wakes them.  Call without the lock. */
static void
set_flushing (GstRtpBurstPace * self)
{
  LOCK (self);
  self->srcresult = GST_FLOW_FLUSHING;
  gst_rtp_burst_wait_unschedule_locked (&self->wait);
  if (self->task_waiting)
    g_cond_signal (&self->task_cond);
  wake_upstream_locked (self);
  UNLOCK (self);
}

/* ... and waits until the task has paused. */
static void
pause_task_flushing (GstRtpBurstPace * self)
{
  set_flushing (self);
  gst_pad_pause_task (self->srcpad);
}

/* Starts (or resumes) the source pad task.  The task holds a reference to
 * the element; a paused task keeps the data it was created with, so a
 * reference is only taken when a new task is made. */
static gboolean
start_task (GstRtpBurstPace * self)
{
  gboolean have_task;

  GST_OBJECT_LOCK (self->srcpad);
  have_task = GST_PAD_TASK (self->srcpad) != NULL;
  GST_OBJECT_UNLOCK (self->srcpad);

  /* GstTask runs the loop in a pooled thread, handed over with GLib locks
   * ThreadSanitizer cannot see: what happened before the start happens
   * before the loop (TSAN_ACQUIRE there) */
  TSAN_RELEASE (self);
  if (have_task)
    return gst_pad_start_task (self->srcpad,
        (GstTaskFunction) gst_rtp_burst_pace_loop, self, NULL);
  return gst_pad_start_task (self->srcpad,
      (GstTaskFunction) gst_rtp_burst_pace_loop, gst_object_ref (self),
      gst_object_unref);
}

static gboolean
gst_rtp_burst_pace_src_activate_mode (GstPad * pad, GstObject * parent,
    GstPadMode mode, gboolean active)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;

  if (active) {
    LOCK (self);
    self->srcresult = GST_FLOW_OK;
    self->eos = FALSE;
    UNLOCK (self);
    return start_task (self);
  }

  set_flushing (self);
  return gst_pad_stop_task (pad);
}

static gboolean
gst_rtp_burst_pace_sink_activate_mode (GstPad * pad, GstObject * parent,
    GstPadMode mode, gboolean active)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);

  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;

  /* wake a chain blocked on a full queue */
  if (!active)
    set_flushing (self);
  return TRUE;
}

static GstStateChangeReturn
gst_rtp_burst_pace_change_state (GstElement * element,
    GstStateChange transition)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (element);
  GstStateChangeReturn ret;
  gboolean no_preroll = FALSE;

  switch (transition) {
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      GST_PAD_STREAM_LOCK (self->sinkpad);
      gst_segment_init (&self->sink_segment, GST_FORMAT_UNDEFINED);
      GST_PAD_STREAM_UNLOCK (self->sinkpad);
      /* Joining the group takes the group's lock under the element's: the
       * task does not run yet (the pads are activated after this), so no
       * pacing waits for it. */
      MEMBER_LOCK (self);
      LOCK (self);
      gst_rtp_burst_invalid_reset (&self->invalid);
      rtp_burst_stream_start (self->stream, self->group_name);
      if (self->group_name && self->group_name[0])
        GST_DEBUG_OBJECT (self, "joined group %s", self->group_name);
      gst_rtp_burst_pay_info_reset (&self->pay_info);
      self->playing = FALSE;
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
      UNLOCK (self);
      MEMBER_UNLOCK (self);
      no_preroll = TRUE;
      break;
    case GST_STATE_CHANGE_PAUSED_TO_PLAYING:
      LOCK (self);
      self->playing = TRUE;
      if (self->task_waiting)
        g_cond_signal (&self->task_cond);
      UNLOCK (self);
      break;
    case GST_STATE_CHANGE_PLAYING_TO_PAUSED:
      LOCK (self);
      self->playing = FALSE;
      gst_rtp_burst_wait_unschedule_locked (&self->wait);
      UNLOCK (self);
      no_preroll = TRUE;
      break;
    default:
      break;
  }

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (ret == GST_STATE_CHANGE_FAILURE) {
    /* it stays in READY, as after PAUSED to READY: no task (GstElement
     * leaves the pads it activated before the failure active), and not a
     * member of the group it joined */
    if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
      gst_pad_set_active (self->sinkpad, FALSE);
      gst_pad_set_active (self->srcpad, FALSE);
      /* the task stopped with the source pad: it waits for no group */
      MEMBER_LOCK (self);
      LOCK (self);
      rtp_burst_stream_leave_group (self->stream);
      UNLOCK (self);
      MEMBER_UNLOCK (self);
    }
    return ret;
  }

  switch (transition) {
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      /* leaving the group takes its lock under the element's: the task
       * stopped when the parent class deactivated the source pad */
      MEMBER_LOCK (self);
      LOCK (self);
      flush_locked (self);
      rtp_burst_stream_stop (self->stream);
      if (self->group_name && self->group_name[0])
        GST_DEBUG_OBJECT (self, "left group %s", self->group_name);
      gst_clear_caps (&self->last_caps);
      UNLOCK (self);
      MEMBER_UNLOCK (self);
      break;
    default:
      break;
  }

  if (no_preroll && ret == GST_STATE_CHANGE_SUCCESS)
    ret = GST_STATE_CHANGE_NO_PREROLL;
  return ret;
}

/* --- properties ---------------------------------------------------------- */

/* group-max-rate: set in the group without the lock, whose group lock
 * another member may hold while it places a frame; member_lock keeps the
 * membership, and the order of two such sets, as in the config. */
static void
set_group_max_rate (GstRtpBurstPace * self, const GValue * value)
{
  guint64 max_rate;

  MEMBER_LOCK (self);
  LOCK (self);
  gst_rtp_burst_config_set (&self->config, PROP_GROUP_MAX_RATE, value);
  max_rate = self->config.group_max_rate;
  UNLOCK (self);
  rtp_burst_stream_set_group_max_rate (self->stream, max_rate);
  MEMBER_UNLOCK (self);
}

/* The stats structure: the numbers copied under the lock, the structure
 * made without it. */
static GstStructure *
get_stats (GstRtpBurstPace * self)
{
  RtpBurstStreamStats stats;
  GstRtpBurstPayInfo pay_info;
  guint64 invalid;
  gint priority;
  GstStructure *s;

  LOCK (self);
  rtp_burst_stream_get_stats (self->stream, &stats);
  invalid = self->invalid.count;
  priority = gst_rtp_burst_thread_applied_priority (&self->thread);
  pay_info = self->pay_info;
  UNLOCK (self);

  s = gst_rtp_burst_stats_from_stream (&stats, invalid, priority);
  gst_rtp_burst_pay_info_add_stats (&pay_info, s);
  return s;
}

static void
gst_rtp_burst_pace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);

  /* the payloader's own properties: set on it, without the lock */
  if (prop_id >= PROP_PAY_FIRST && prop_id < PROP_STATS) {
    gst_rtp_burst_pay_compat_set_upstream (self->sinkpad,
        prop_id - PROP_PAY_FIRST, value);
    return;
  }
  if (prop_id == PROP_GROUP_MAX_RATE) {
    set_group_max_rate (self, value);
    return;
  }

  LOCK (self);
  if (gst_rtp_burst_config_set (&self->config, prop_id, value)) {
    /* a new seed restarts the sequence; a new period applies at once */
    if (prop_id == PROP_SEED)
      rtp_burst_stream_reseed (self->stream);
    else if (prop_id == PROP_FRAME_PERIOD)
      rtp_burst_stream_period_changed (self->stream);
    UNLOCK (self);
    return;
  }
  switch (prop_id) {
    case PROP_TIMER_SLACK:
      self->timer_slack = g_value_get_uint64 (value);
      break;
    case PROP_REALTIME_PRIORITY:
      self->realtime_priority = g_value_get_int (value);
      /* try again, and warn about that try */
      gst_rtp_burst_thread_priority_changed (&self->thread);
      break;
    case PROP_GROUP:
      /* taken from READY to PAUSED: refused later, so that the property
       * says which group is in force */
      gst_rtp_burst_set_group_name (GST_ELEMENT_CAST (self), value,
          &self->group_name, &self->refused_group);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  UNLOCK (self);
  post_pending_messages (self);
}

static void
gst_rtp_burst_pace_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);

  if (prop_id >= PROP_PAY_FIRST && prop_id < PROP_STATS) {
    gst_rtp_burst_pay_compat_get (&self->pay_info, &self->lock, self->sinkpad,
        prop_id - PROP_PAY_FIRST, pspec, value);
    return;
  }
  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, get_stats (self));
    return;
  }

  LOCK (self);
  if (gst_rtp_burst_config_get (&self->config, prop_id, value)) {
    UNLOCK (self);
    return;
  }
  switch (prop_id) {
    case PROP_TIMER_SLACK:
      g_value_set_uint64 (value, self->timer_slack);
      break;
    case PROP_REALTIME_PRIORITY:
      g_value_set_int (value, self->realtime_priority);
      break;
    case PROP_GROUP:
      g_value_set_string (value, self->group_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  UNLOCK (self);
}
