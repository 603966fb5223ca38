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
 * counted in the `repair-*` stats (#GstRtpBurstPace:pace-other-payloads;
 * docs/algorithm.md, "Repair packets").  Streams that share a link can
 * share one schedule and a rate (#GstRtpBurstPace:group,
 * #GstRtpBurstPace:group-max-rate, #GstRtpBurstPace:group-priority).
 *
 * Before rtpbin, with #GstRtpBurstPace:congestion-control, the receiver's
 * transport-wide congestion control feedback (the `RTPTWCCPackets` events
 * rtpbin sends upstream) drives a rate cap: Google Congestion Control or
 * TFRC estimate what the path carries, and frames that would leave faster
 * are spread as with #GstRtpBurstPace:max-rate.
 *
 * At raw-video packet rates, #GstRtpBurstPace:min-slot-duration puts
 * several packets in a slot, and #GstRtpBurstPace:realtime-priority keeps
 * other threads from delaying the slots (docs/performance.md).
 * Into rtpbursttxsink, #GstRtpBurstPace:release-ahead hands the slots over
 * before their time, each packet with its slot's DTS, for the kernel's fq
 * qdisc to send it then: the element's thread wakes about once per frame
 * instead of once per slot (docs/txtime.md).
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
 * … ! rtph264pay pt=96 ! rtpburstpace max-rate=6000000 ! \
 *   rtpbin.send_rtp_sink_0 rtpbin.send_rtp_src_0 ! \
 *   udpsink host=127.0.0.1 port=5000
 * ]| Before rtpbin, with a rate cap of 1.5 times the encoder's bit rate:
 * the placement to use with rtprtxsend as rtpbin's aux sender, which kept
 * more frames intact on the project's testbed (docs/senders.md).
 * |[
 * … ! rtph264pay pt=96 ! rtpbin.send_rtp_sink_0 \
 *   rtpbin.send_rtp_src_0 ! rtpburstpace ! \
 *   udpsink host=127.0.0.1 port=5000 sync=false
 * ]| Behind rtpbin the element also sees rtprtxsend's retransmissions and
 * spreads them between the media's slots
 * (#GstRtpBurstPace:pace-other-payloads; examples/videorecipes.py, recipe
 * paced-rtx-behind).
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

#include "gstrtpburstpace-private.h"
#include "gstrtpburstout.h"
#include "gstrtpburstprops.h"
#include "gstrtpburststats.h"

GST_DEBUG_CATEGORY (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

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

static void gst_rtp_burst_pace_finalize (GObject * object);
static void gst_rtp_burst_pace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_rtp_burst_pace_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_rtp_burst_pace_post_message (GstElement * element,
    GstMessage * message);
static GstStateChangeReturn gst_rtp_burst_pace_change_state (GstElement *
    element, GstStateChange transition);
static gboolean gst_rtp_burst_pace_sink_activate_mode (GstPad * pad,
    GstObject * parent, GstPadMode mode, gboolean active);
static gboolean gst_rtp_burst_pace_src_activate_mode (GstPad * pad,
    GstObject * parent, GstPadMode mode, gboolean active);

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
  gst_type_mark_as_plugin_api (GST_TYPE_RTP_BURST_PACE_CONGESTION_CONTROL, 0);

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
  gst_rtp_burst_cc_init (&self->cc);
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
  gst_rtp_burst_cc_clear (&self->cc);
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
void
gst_rtp_burst_pace_wake_task_locked (GstRtpBurstPace * self,
    RtpBurstStreamWake wake)
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
void
gst_rtp_burst_pace_wake_upstream_locked (GstRtpBurstPace * self)
{
  if (self->room_waiters)
    g_cond_broadcast (&self->room_cond);
  if (self->drain_waiters)
    g_cond_broadcast (&self->drain_cond);
}

/* --- helpers, called with the lock held ---------------------------------- */

guint64
gst_rtp_burst_pace_running_time_now (GstRtpBurstPace * self)
{
  return gst_rtp_burst_running_time (GST_ELEMENT_CAST (self), NULL, NULL);
}

/* A downstream flow that ends the stream with an error: posted once, by
 * upstream or by the element (see the end of gst_rtp_burst_pace_loop). */
gboolean
gst_rtp_burst_pace_flow_is_fatal (GstFlowReturn ret)
{
  return ret == GST_FLOW_NOT_LINKED || ret < GST_FLOW_EOS;
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
    return gst_rtp_burst_pace_start_task (self);
  }

  gst_rtp_burst_pace_set_flushing (self);
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
    gst_rtp_burst_pace_set_flushing (self);
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
      self->wakeups = 0;
      rtp_burst_stream_start (self->stream, self->group_name);
      if (self->group_name && self->group_name[0])
        GST_DEBUG_OBJECT (self, "joined group %s", self->group_name);
      gst_rtp_burst_pay_info_reset (&self->pay_info);
      self->playing = FALSE;
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
      self->config.cc_rate = 0;
      UNLOCK (self);
      MEMBER_UNLOCK (self);
      if (gst_rtp_burst_cc_start (&self->cc))
        g_object_notify (G_OBJECT (self), "estimated-bitrate");
      /* release-ahead is not applied with a controller (rtpburstahead.h) */
      LOCK (self);
      self->config.cc_on = g_atomic_int_get (&self->cc.active);
      UNLOCK (self);
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
      gst_rtp_burst_pace_flush_locked (self);
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
  guint64 invalid, wakeups;
  gint priority;
  GstStructure *s;

  LOCK (self);
  rtp_burst_stream_get_stats (self->stream, &stats);
  invalid = self->invalid.count;
  wakeups = self->wakeups;
  priority = gst_rtp_burst_thread_applied_priority (&self->thread);
  pay_info = self->pay_info;
  UNLOCK (self);

  s = gst_rtp_burst_stats_from_stream (&stats, invalid, priority, wakeups);
  gst_rtp_burst_pay_info_add_stats (&pay_info, s);
  gst_rtp_burst_cc_add_stats (&self->cc, s);
  return s;
}

static void
gst_rtp_burst_pace_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);
  guint id;

  /* a deprecated old name: set the property it was renamed to, and say so
   * to those who listen to the new name */
  id = gst_rtp_burst_props_renamed (object, prop_id, &pspec,
      &self->old_names_warned);
  if (id != prop_id) {
    gst_rtp_burst_pace_set_property (object, id, value, pspec);
    g_object_notify_by_pspec (object, pspec);
    return;
  }

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
  if (gst_rtp_burst_cc_set_property (&self->cc, prop_id, value))
    return;

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
  gst_rtp_burst_pace_post_pending (self);
}

static void
gst_rtp_burst_pace_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);

  /* a deprecated old name: the value of the property it was renamed to */
  prop_id = gst_rtp_burst_props_renamed (object, prop_id, &pspec,
      &self->old_names_warned);

  if (prop_id >= PROP_PAY_FIRST && prop_id < PROP_STATS) {
    gst_rtp_burst_pay_compat_get (&self->pay_info, &self->lock, self->sinkpad,
        prop_id - PROP_PAY_FIRST, pspec, value);
    return;
  }
  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, get_stats (self));
    return;
  }
  if (gst_rtp_burst_cc_get_property (&self->cc, prop_id, value))
    return;

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
