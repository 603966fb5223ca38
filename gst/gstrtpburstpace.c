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
 * leaves, which is what a synchronising sink waits for (GstBaseSink syncs on
 * the DTS when it is set).  So the sink after the element may synchronise,
 * as udpsink does by default and gst-rtsp-server's sinks do:
 *
 * * A synchronising sink in the element's own thread (udpsink right after
 *   it, or after rtpbin) holds each push until the packet's time plus the
 *   pipeline latency.  The element sees its first frame held that way and,
 *   from the next frame on, makes frames due that latency (the value of the
 *   LATENCY event the sink sends upstream) after their timestamp and gives
 *   each packet the DTS slot time minus the latency: the sink releases every
 *   packet exactly at its slot, and the element's own wait, not the sink's,
 *   decides when it leaves.  The stats show the latency taken out
 *   (`sink-latency`) and the pushes that were held (`held-slots`).
 * * A synchronising sink behind a queue releases every packet the pipeline
 *   latency after its slot: the same spacing, that much later.
 * * With sync=false the element alone times the packets.
 *
 * The element adds no latency to the LATENCY query: however long it holds a
 * packet, the packet's DTS is the time it leaves, so a sink that syncs on it
 * never receives it late.
 *
 * Packets are queued by the streaming thread and released by the element's
 * own source pad task, so upstream is never held up for a frame period.  The
 * queue holds at most 8 complete frames; beyond that the streaming thread
 * blocks.  Nothing is dropped except packets that are not valid RTP (counted
 * in #GstRtpBurstPace:stats and reported with a warning) and, like in
 * queue, data discarded by a flush.
 *
 * Repair packets: when the caps have a `payload` field, packets of any
 * other payload type are not media.  Behind rtpbin these are the
 * retransmissions of rtprtxsend (its `rtx-payload`), which it pushes as a
 * burst when a NACK asks for several packets, each with the RTP timestamp
 * of the frame it repairs.  The element makes no frames of them: a lone
 * one leaves half way between two media slots, a few one per Δt (and no
 * faster than #GstRtpBurstPace:max-rate allows), a backlog spread over
 * half a frame period, none later than one frame period after it came
 * (rtpburstrepair.h); with #GstRtpBurstPace:pace-repair FALSE they leave
 * as they come.  The `repair-*` stats count them; the other counters are
 * the media's.  Which placement gives the viewer more is a matter of
 * measurement: on the project's testbed the element before rtpbin, with
 * retransmissions unpaced, did better (docs/results.md, section 7).
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
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/rtp/gstrtpbuffer.h>
#include <gst/video/video.h>

#include "gstrtpburstpace.h"
#include "gstrtpburstlock.h"
#include "gstrtpburstpaycompat.h"
#include "gstrtpburststats.h"
#include "gstrtpburstthread.h"
#include "gstrtpburstwait.h"
#include "rtpburstmargin.h"
#include "rtpburstgroup.h"
#include "rtpburstmeter.h"
#include "rtpburstrepair.h"
#include "rtpburstschedule.h"
#include "rtpburstsinkhold.h"

GST_DEBUG_CATEGORY (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

/* At most this many complete frames are queued; then the chain blocks. */
#define MAX_QUEUED_FRAMES 8
/* ... plus those that wait for a synchronising sink's latency, up to this */
#define MAX_LATENCY_FRAMES 256
/* A frame that grows to this many packets is closed and paced as it is. */
#define MAX_FRAME_PACKETS 65536
/* Frames passed unpaced before a missing frame period is reported. */
#define PERIOD_WARN_FRAMES 50
/* At most one warning about invalid packets per this interval (µs). */
#define INVALID_WARN_INTERVAL (G_USEC_PER_SEC)

#define DEFAULT_BURST_SIZE    1
#define DEFAULT_DUTY          0.9
#define DEFAULT_SLOT_JITTER   0.01
#define DEFAULT_SEED          0
#define DEFAULT_FRAME_PERIOD  0
#define DEFAULT_PAYLOAD_SIZE  0
#define DEFAULT_MIN_SLOT_DURATION 0
#define DEFAULT_SYNC_UPSTREAM_LATENCY FALSE
#define DEFAULT_MAX_RATE      0
#define DEFAULT_MAX_RATE_FACTOR 0.0
#define DEFAULT_MAX_LATENCY   (100 * GST_MSECOND)
#define DEFAULT_OVERLOAD      RTP_BURST_OVERLOAD_COMPRESS
#define DEFAULT_TIMER_SLACK   1000
#define DEFAULT_REALTIME_PRIORITY 0
#define DEFAULT_AUTO_MARGIN   TRUE
#define DEFAULT_PACE_REPAIR   TRUE
#define MAX_REALTIME_PRIORITY 99
#define MAX_MAX_RATE          (G_GUINT64_CONSTANT (100000000000))       /* 100 Gbit/s */
#define MAX_MAX_LATENCY       (10 * GST_SECOND)
#define MAX_MIN_SLOT_DURATION (GST_SECOND)

#define MAX_SLOT_JITTER       0.5
#define MAX_PAYLOAD_SIZE      65535

enum
{
  PROP_0,
  PROP_BURST_SIZE,
  PROP_DUTY,
  PROP_SLOT_JITTER,
  PROP_SEED,
  PROP_FRAME_PERIOD,
  PROP_PAYLOAD_SIZE,
  PROP_MIN_SLOT_DURATION,
  PROP_SYNC_UPSTREAM_LATENCY,
  PROP_MAX_RATE,
  PROP_MAX_RATE_FACTOR,
  PROP_MAX_LATENCY,
  PROP_OVERLOAD,
  PROP_TIMER_SLACK,
  PROP_REALTIME_PRIORITY,
  PROP_AUTO_MARGIN,
  PROP_GROUP,
  PROP_PACE_REPAIR,
  PROP_PAY_FIRST,               /* GST_RTP_BURST_PAY_N_PROPS of them */
  PROP_STATS = PROP_PAY_FIRST + GST_RTP_BURST_PAY_N_PROPS,
};

/* An entry of the queue: a serialized event, or a frame of packets. */
typedef struct
{
  GstEvent *event;              /* non-NULL for an event */

  /* a frame */
  GQueue packets;               /* GstBuffer *, oldest first */
  guint n_packets;              /* packets added to the frame */
  guint64 payload_bytes;
  guint64 bytes;                /* whole RTP packets */
  guint32 rtptime;
  GstClockTime pts, dts;
  guint64 first_arrival;        /* running time, RTP_BURST_TIME_NONE if unknown */
  guint64 last_arrival;
  guint64 ready_time;           /* running time it was closed */
  gboolean closed;

  /* fixed when the frame is closed */
  guint64 period;               /* 0 = unknown: released unpaced */
  guint n_slots;
  guint burst_size;
  gdouble duty;
  gdouble slot_jitter;

  /* set when the first packet is released */
  gboolean started;
  gboolean unpaced;
  guint64 sink_offset;          /* R: a paced packet's DTS is its slot - R */
  guint64 serial;               /* frames of a stream, counted from 1 */
  guint released_slots;
  guint64 on_time;              /* offset of its last slot released on time */
  RtpBurstPlan plan;
  gboolean have_slot;
  guint64 slot_time;            /* running time of the pending slot */
  guint slot_packets;
} Item;

struct _GstRtpBurstPace
{
  GstElement parent;

  GstPad *sinkpad, *srcpad;

  /* everything below is protected by lock */
  GMutex lock;
  GCond cond;                   /* queue, state or flow changed */

  GstFlowReturn srcresult;
  gboolean eos;                 /* upstream sent EOS: it sees no more flow */
  gboolean flow_unreported;     /* srcresult is a fatal flow that neither
                                 * upstream nor the element has posted */
  gboolean playing;
  GstRtpBurstWait wait;         /* the task's clock wait */
  gboolean task_waiting;        /* the task waits on cond for the chain */

  GQueue items;                 /* Item *, oldest first */
  Item *open;                   /* the newest frame while it is not closed */
  guint n_closed;               /* closed frames in items */
  guint n_queued_packets;

  /* properties */
  guint burst_size;
  gdouble duty;
  gdouble slot_jitter;
  guint seed;
  guint64 frame_period;
  guint payload_size;
  guint64 min_slot_duration;
  gboolean sync_upstream_latency;
  guint64 max_rate;
  gdouble max_rate_factor;
  guint64 max_latency;
  RtpBurstOverload overload;
  guint64 timer_slack;
  gint realtime_priority;
  gboolean auto_margin;

  /* what the task changed on its thread, to undo when it leaves the thread
   * (written by the task thread only) */
  GstRtpBurstThread thread;

  /* schedule */
  RtpBurstPeriodEstimator est;
  RtpBurstWakeupTracker wakeups;
  RtpBurstRateMeter rate_meter;
  GstCaps *last_caps;
  guint max_payload;
  guint64 period;
  RtpBurstPeriodSource period_source;
  GRand *rand;
  GstSegment segment;           /* of the source pad, updated by the task */
  GstClockTime upstream_latency;
  guint64 prev_end;             /* running time the last frame's slots end */

  /* a synchronising sink downstream */
  RtpBurstSinkHold sink_hold;
  guint64 last_push_end;        /* running time the last paced push returned */
  guint64 held_serial;          /* the frame a synchronising sink last held */
  guint64 n_frames_in;          /* frames queued, for Item.serial */

  /* what payloader users read (gst-rtsp-server) */
  GstRtpBurstPayInfo pay_info;

  /* how the paced slots left: rates, errors, gaps, frame ends */
  RtpBurstMeter meter;
  /* how much of the period to keep free after the slots */
  RtpBurstMargin margin;
  guint64 num_margin_frames;
  /* the streams it shares a timeline with (property group) */
  gchar *group_name;
  RtpBurstGroupMember group;
  /* packets of another payload type than the caps' (retransmissions behind
   * rtpbin): spread between the media's slots (rtpburstrepair.h) */
  gint media_pt;                /* the caps' payload, -1 = none */
  gboolean pace_repair;         /* property: spread them, else pass them */
  RtpBurstRepair repair;
  guint64 last_media_slot;      /* due time of the last media push */
  guint last_media_bytes;       /* ... and its size */
  guint64 events_in, events_out;        /* queued and pushed: a repair
                                         * packet leaves after the events
                                         * queued before it, and before
                                         * those queued after it */

  /* messages to post once the lock is released */
  gboolean post_invalid_warning;
  gboolean post_period_warning;
  gboolean post_group_clock_warning;
  gboolean group_clock_warned;  /* once per group joined */
  gchar *refused_group;         /* a group set while PAUSED or PLAYING */
  gboolean period_warned;
  gint64 last_invalid_warning;  /* monotonic µs */
  GstStructure *drop_message;   /* details of the last dropped frame */

  /* stats */
  guint64 num_frames, num_packets, num_bytes, num_slots;
  guint64 last_slot_duration;
  guint last_burst_size;
  guint64 num_unpaced, num_catch_up, num_timeout_frames;
  guint64 num_late_slots, max_lateness;
  guint64 num_invalid, num_flushed;
  guint64 unpaced_since_period;
  guint64 num_spread, num_compressed, max_backlog;
  guint64 num_dropped_frames, num_dropped_packets, num_key_unit_requests;
};

#define GST_TYPE_RTP_BURST_PACE_OVERLOAD (gst_rtp_burst_pace_overload_get_type ())
static GType
gst_rtp_burst_pace_overload_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {RTP_BURST_OVERLOAD_COMPRESS,
        "Shorten the slots to meet max-latency (the rate cap yields)",
        "compress"},
    {RTP_BURST_OVERLOAD_DROP,
          "Drop whole frames not yet started, then ask upstream for a key unit",
        "drop"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstRtpBurstPaceOverload", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

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
#define BROADCAST(s) g_cond_broadcast (&(s)->cond)
#define COND_WAIT(s) RTP_BURST_COND_WAIT (&(s)->cond, &(s)->lock)
/* the task waits for the chain: packets only wake it while it does */
#define TASK_WAIT(s) G_STMT_START {                \
  (s)->task_waiting = TRUE;                        \
  COND_WAIT (s);                                   \
  (s)->task_waiting = FALSE;                       \
} G_STMT_END

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

  /**
   * GstRtpBurstPace:burst-size:
   *
   * b: the number of packets released together in one slot.  1 spreads
   * every packet (the paper finds 1 the most TCP-tolerant); larger values
   * make fewer, longer slots.
   */
  g_object_class_install_property (gobject_class, PROP_BURST_SIZE,
      g_param_spec_uint ("burst-size", "Burst size",
          "Packets per slot (b); the last slot of a frame may carry fewer",
          1, G_MAXINT, DEFAULT_BURST_SIZE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:duty:
   *
   * The fraction of the frame period ΔT the slots of a frame are spread
   * over.  1 uses the whole period; 0 gives Δt = 0, that is each frame
   * leaves as one burst at its sync time (useful to A/B-test one pipeline).
   * The default 0.9 follows the paper's preference for values close to 1
   * while leaving a tenth of the period as margin: for the +1 % slot
   * randomization, for frames that arrive a little late, and for the
   * timer's wake-up error, so that a frame normally ends before the next
   * one is due.
   */
  g_object_class_install_property (gobject_class, PROP_DUTY,
      g_param_spec_double ("duty", "Duty factor",
          "Fraction of the frame period the slots are spread over "
          "(1 = whole period, 0 = send each frame as one burst)",
          0.0, 1.0, DEFAULT_DUTY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:slot-jitter:
   *
   * r of equation (3): each slot's duration is multiplied by 1 + U(-r, r),
   * independently per slot, to keep streams from synchronising.  The slots
   * of a frame never reach past the frame period: if the random parts add
   * up beyond it, the slot times are capped at ΔT·j/k.
   */
  g_object_class_install_property (gobject_class, PROP_SLOT_JITTER,
      g_param_spec_double ("slot-jitter", "Slot jitter",
          "Randomize each slot duration by a uniform factor in "
          "[1 - slot-jitter, 1 + slot-jitter] (0 = off)",
          0.0, MAX_SLOT_JITTER, DEFAULT_SLOT_JITTER,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:seed:
   *
   * Seed of the random numbers of #GstRtpBurstPace:slot-jitter.  The same
   * seed gives the same slot times; 0 picks a random seed.  Setting it
   * restarts the sequence.
   */
  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_uint ("seed", "Seed",
          "Seed for the slot randomization (0 = random)",
          0, G_MAXUINT, DEFAULT_SEED,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:frame-period:
   *
   * ΔT in nanoseconds.  0 derives it: from the caps field a-framerate,
   * else from the smallest positive difference of the RTP timestamps of
   * consecutive frames over the last 16 frames and the caps' clock-rate,
   * else from the median spacing of frame arrivals.  Frames are passed
   * unpaced until it is known.
   */
  g_object_class_install_property (gobject_class, PROP_FRAME_PERIOD,
      g_param_spec_uint64 ("frame-period", "Frame period",
          "Frame period in ns (0 = automatic from caps, RTP timestamps "
          "or arrival spacing)",
          0, RTP_BURST_MAX_PERIOD, DEFAULT_FRAME_PERIOD,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:payload-size:
   *
   * p of equation (2), in bytes.  0 uses the largest RTP payload seen so
   * far, which makes k = ⌈n/b⌉.  A smaller value than the real payloads
   * gives more slots than packets, so a frame's packets leave in the first
   * slots and finish before duty·ΔT.
   */
  g_object_class_install_property (gobject_class, PROP_PAYLOAD_SIZE,
      g_param_spec_uint ("payload-size", "Payload size",
          "Nominal RTP payload length p in bytes (0 = largest seen)",
          0, MAX_PAYLOAD_SIZE, DEFAULT_PAYLOAD_SIZE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:min-slot-duration:
   *
   * The shortest slot worth a clock wait, in ns.  When equation (2) gives
   * shorter slots (raw video at high rates: ~10 µs per packet), the element
   * raises the burst size of that frame until its slots are at least this
   * long, instead of scheduling waits the timer cannot meet; the frame
   * still spreads over duty·ΔT.  0 (default) is automatic: twice the median
   * wake-up lateness of the last 64 clock waits, within 50 µs … 1 ms
   * (100 µs until measured).  1 turns the minimum off.
   */
  g_object_class_install_property (gobject_class, PROP_MIN_SLOT_DURATION,
      g_param_spec_uint64 ("min-slot-duration", "Minimum slot duration",
          "Shortest slot in ns; shorter slots get more packets each "
          "(0 = automatic from the measured clock wake-up lateness, "
          "1 = no minimum)",
          0, MAX_MIN_SLOT_DURATION, DEFAULT_MIN_SLOT_DURATION,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:sync-upstream-latency:
   *
   * Whether a frame's sync time includes the upstream latency, as
   * clocksync computes it.  Then frames start exactly ΔT apart even when
   * they arrive late by up to that latency, but every frame that arrives
   * earlier waits for it: with a live source that reports one frame of
   * latency and pushes at the frame's timestamp (videotestsrc), each frame
   * is held one more period.  Off (default): a frame is due at the running
   * time of its timestamp, so it starts when it arrives unless it arrives
   * before its timestamp, and the element adds no delay beyond its slots.
   */
  g_object_class_install_property (gobject_class, PROP_SYNC_UPSTREAM_LATENCY,
      g_param_spec_boolean ("sync-upstream-latency", "Sync upstream latency",
          "Add the upstream latency to each frame's sync time like clocksync "
          "(regular frame starts, but up to that latency more delay)",
          DEFAULT_SYNC_UPSTREAM_LATENCY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-rate:
   *
   * A peak-rate cap in bit/s (whole RTP packets).  Equation (2) spreads a
   * frame over its own period only; a keyframe many times the mean frame
   * then leaves faster than a bottleneck drains.  A frame that would be
   * sent faster than the cap is spread over longer than duty·ΔT, into the
   * following periods, with the frames behind it waiting in order, as long
   * as #GstRtpBurstPace:max-latency allows.  0 (default) is off, the
   * paper's behaviour, unless #GstRtpBurstPace:max-rate-factor is set.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RATE,
      g_param_spec_uint64 ("max-rate", "Maximum rate",
          "Peak-rate cap in bit/s: frames that would leave faster are spread "
          "beyond their period within max-latency (0 = off)",
          0, MAX_MAX_RATE, DEFAULT_MAX_RATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-rate-factor:
   *
   * Derives the peak-rate cap from the stream: this factor times its mean
   * bit rate over the last 64 frames (measured once 32 frames were seen).
   * Used when #GstRtpBurstPace:max-rate is 0; 0 (default) is off.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RATE_FACTOR,
      g_param_spec_double ("max-rate-factor", "Maximum rate factor",
          "Peak-rate cap as a factor of the stream's measured mean rate, "
          "used when max-rate is 0 (0 = off)",
          0.0, 1000.0, DEFAULT_MAX_RATE_FACTOR,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-latency:
   *
   * With a peak-rate cap, the latency budget: the longest a frame's last
   * packet may leave after the frame was due (its timestamp, or its
   * arrival if later).  When the cap would need longer,
   * #GstRtpBurstPace:overload decides.  The LATENCY query reports it.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_LATENCY,
      g_param_spec_uint64 ("max-latency", "Maximum latency",
          "With a rate cap: the longest a packet may be held after its frame "
          "was due, in ns",
          GST_MSECOND, MAX_MAX_LATENCY, DEFAULT_MAX_LATENCY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:overload:
   *
   * What to do when the rate cap cannot be kept within
   * #GstRtpBurstPace:max-latency: compress the frame's slots so that its
   * last packet is just in budget (the cap yields, nothing is lost), or
   * drop whole frames that have not started (never part of a frame), post
   * an element message `rtpburstpace-frame-dropped` and send a
   * force-key-unit event upstream so the encoder recovers.  A frame that
   * alone needs longer than the budget is compressed even with drop.
   */
  g_object_class_install_property (gobject_class, PROP_OVERLOAD,
      g_param_spec_enum ("overload", "Overload",
          "When the rate cap cannot be kept within max-latency: compress the "
          "slots or drop whole frames not yet started",
          GST_TYPE_RTP_BURST_PACE_OVERLOAD, DEFAULT_OVERLOAD,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:timer-slack:
   *
   * Linux only: the timer slack, in ns, of the thread that waits for the
   * slots (prctl PR_SET_TIMERSLACK).  Linux lets a normal thread's timer
   * expire up to 50 µs late by default so that wake-ups can be grouped; a
   * smaller slack makes slot wake-ups more punctual.  The default, 1 µs,
   * halved the median release error of 6 Mbit/s CBR slots on the
   * development machines at the same CPU cost (docs/performance.md).  0
   * leaves the thread as it is.  The thread comes from GStreamer's task
   * pool; its own slack is restored when the task leaves it.
   */
  g_object_class_install_property (gobject_class, PROP_TIMER_SLACK,
      g_param_spec_uint64 ("timer-slack", "Timer slack",
          "Timer slack in ns of the thread that waits for the slots "
          "(Linux; 0 = leave unchanged)",
          0, GST_MSECOND, DEFAULT_TIMER_SLACK,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:realtime-priority:
   *
   * Runs the thread that releases the slots under the real-time policy
   * SCHED_FIFO at this priority (1-99), so that the normal threads of the
   * pipeline and of other programs cannot delay a slot.  0 (the default)
   * leaves the thread's scheduling as it is, for instance to an application
   * that sets it from the task's #GST_MESSAGE_STREAM_STATUS message.
   *
   * On the 2-core development machines, raw 1080p video (90 000 to 180 000
   * packets/s) had 0.2-14 % of its frames end later than one frame period
   * after their start at normal priority, and at most 0.3 % (none in most
   * 30 s runs) with `realtime-priority=10`; the p99 release error of 720p
   * H.264 went from 1.8 ms to 0.17 ms (docs/performance.md).  The thread
   * never busy-waits.
   *
   * Needs CAP_SYS_NICE or an RLIMIT_RTPRIO (`ulimit -r`) of at least the
   * priority.  If the policy cannot be set, the element posts a warning
   * once and paces at normal priority.  The thread comes from GStreamer's
   * task pool; its own policy is restored when the task leaves it.
   */
  g_object_class_install_property (gobject_class, PROP_REALTIME_PRIORITY,
      g_param_spec_int ("realtime-priority", "Real-time priority",
          "SCHED_FIFO priority of the thread that releases the slots "
          "(1-99; needs CAP_SYS_NICE or RLIMIT_RTPRIO; 0 = leave the "
          "thread's scheduling unchanged)",
          0, MAX_REALTIME_PRIORITY, DEFAULT_REALTIME_PRIORITY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:stats:
   *
   * A #GstStructure named application/x-rtp-burst-pace-stats with the
   * element's counters and measurements since it last went from READY to
   * PAUSED: what it released, the schedule in use, late and held slots,
   * the rate cap, the latency a synchronising element downstream adds, and
   * (for gst-rtsp-server) the fields of GstRTPBasePayload's stats.  The
   * description of this property (`gst-inspect-1.0 rtpburstpace`) lists
   * every field with its type and meaning, as docs/reference.md does; both
   * come from gst/gstrtpburststats.c.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", gst_rtp_burst_stats_blurb (),
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_NAME |
          G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB));

  /**
   * GstRtpBurstPace:auto-margin:
   *
   * Keep each frame within its period at the rate the machine delivers
   * wake-ups.  #GstRtpBurstPace:duty is the most of the period a frame's
   * slots may span.  When late slots at the end of a frame made it end
   * after its period, the element notes how much of the period, from its
   * last slot on time, it would have needed free; the margin is the
   * largest need of the last 1024 frames (needs over a quarter period are
   * early stalls and not counted), and a frame's span is shortened just
   * enough that its last slot comes before the period minus the margin
   * (never below half the period; gst/rtpburstmargin.h).  On the 2-vCPU development machines the last
   * slots of raw 1080p frames met a ~3.5 ms stall while the payloader
   * worked on the next frame (docs/performance.md).  The stats say the
   * margin in use and how many frames it shortened.  FALSE: every frame
   * spans exactly duty·ΔT (for A/B tests).
   */
  g_object_class_install_property (gobject_class, PROP_AUTO_MARGIN,
      g_param_spec_boolean ("auto-margin", "Automatic margin",
          "Shorten a frame's span (duty is the most) so that it ends "
          "before the late slots that made recent frames end after their "
          "period",
          DEFAULT_AUTO_MARGIN,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:group:
   *
   * Streams that leave on one link: the elements of one process with the
   * same group name share a timeline (gst/rtpburstgroup.h).  Each frame's
   * slots keep equation (2) (the same Δt, the same end) but the whole grid
   * moves by less than Δt to lie between the slots the other members have
   * booked, so streams whose frames are made at the same instants do not
   * send their packets at the same times: two streams of one rate leave
   * half a slot apart, as one stream of the total rate would.  One element
   * per stream, each with its own thread, as gst-rtsp-server (pay0, pay1,
   * ...) and rtpbin use them.  Taken when the element goes from READY to
   * PAUSED; set while PAUSED or PLAYING it is refused with a warning (the
   * property keeps saying which group is in force).  NULL or "" (the
   * default): no group.  The members place their slots in clock time, so
   * they may be in different pipelines (their base times differ) as long as
   * the pipelines share a clock; a member on another clock is not placed,
   * with a warning.  The pacing thread never waits for the group: a frame
   * that comes while another member is placing one stays where it is
   * (group-busy in the stats).
   */
  g_object_class_install_property (gobject_class, PROP_GROUP,
      g_param_spec_string ("group", "Group",
          "Elements with the same group name place their slots between "
          "each other's (streams sharing a link); NULL = none",
          NULL, G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:pace-repair:
   *
   * Repair packets — another payload type than the caps' payload, such as
   * rtprtxsend's retransmissions when the element is behind rtpbin — make
   * no frames of their own either way.  TRUE (the default): they leave
   * between the media's slots, at most one per Δt, a backlog spread over
   * half a frame period (gst/rtpburstrepair.h).  FALSE: they leave as they
   * come, before the media's next slot.
   */
  g_object_class_install_property (gobject_class, PROP_PACE_REPAIR,
      g_param_spec_boolean ("pace-repair", "Pace repair packets",
          "Spread repair packets (another payload type than the caps' "
          "payload, e.g. retransmissions) between the media's slots; FALSE: "
          "pass them on as they come",
          DEFAULT_PACE_REPAIR,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  gst_rtp_burst_pay_compat_install (gobject_class, PROP_PAY_FIRST);

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
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_queue_init (&self->items);
  gst_rtp_burst_wait_init (&self->wait, &self->lock, &self->cond);

  self->srcresult = GST_FLOW_FLUSHING;
  self->burst_size = DEFAULT_BURST_SIZE;
  self->duty = DEFAULT_DUTY;
  self->slot_jitter = DEFAULT_SLOT_JITTER;
  self->seed = DEFAULT_SEED;
  self->frame_period = DEFAULT_FRAME_PERIOD;
  self->payload_size = DEFAULT_PAYLOAD_SIZE;
  self->min_slot_duration = DEFAULT_MIN_SLOT_DURATION;
  self->sync_upstream_latency = DEFAULT_SYNC_UPSTREAM_LATENCY;
  self->max_rate = DEFAULT_MAX_RATE;
  self->max_rate_factor = DEFAULT_MAX_RATE_FACTOR;
  self->max_latency = DEFAULT_MAX_LATENCY;
  self->overload = DEFAULT_OVERLOAD;
  self->timer_slack = DEFAULT_TIMER_SLACK;
  self->realtime_priority = DEFAULT_REALTIME_PRIORITY;
  self->auto_margin = DEFAULT_AUTO_MARGIN;
  rtp_burst_group_member_init (&self->group);
  gst_rtp_burst_thread_init (&self->thread);
  rtp_burst_rate_meter_init (&self->rate_meter);
  rtp_burst_wakeup_tracker_init (&self->wakeups);
  self->rand = g_rand_new ();
  self->upstream_latency = 0;
  self->prev_end = RTP_BURST_TIME_NONE;
  rtp_burst_period_estimator_init (&self->est);
  rtp_burst_sink_hold_init (&self->sink_hold);
  self->last_push_end = RTP_BURST_TIME_NONE;
  gst_rtp_burst_pay_info_reset (&self->pay_info);
  rtp_burst_meter_init (&self->meter);
  rtp_burst_margin_init (&self->margin);
  self->media_pt = -1;
  self->pace_repair = DEFAULT_PACE_REPAIR;
  rtp_burst_repair_init (&self->repair, (GDestroyNotify) gst_buffer_unref);
  self->last_media_slot = RTP_BURST_TIME_NONE;
  self->last_media_bytes = 0;
  gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
}

static void
item_free (Item * item)
{
  if (item->event)
    gst_event_unref (item->event);
  g_queue_clear_full (&item->packets, (GDestroyNotify) gst_buffer_unref);
  g_slice_free (Item, item);
}

static void
gst_rtp_burst_pace_finalize (GObject * object)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (object);

  /* The last reference may be dropped by the streaming thread, after the
   * application thread's last state change: taking the lock once orders
   * everything done under it before the clean-up (GObject's reference count
   * does that too, but ThreadSanitizer cannot see it). */
  LOCK (self);
  UNLOCK (self);
  g_queue_clear_full (&self->items, (GDestroyNotify) item_free);
  rtp_burst_repair_flush (&self->repair);
  gst_clear_caps (&self->last_caps);
  rtp_burst_group_member_leave (&self->group);
  g_free (self->group_name);
  g_free (self->refused_group);
  gst_rtp_burst_wait_clear (&self->wait);
  if (self->drop_message)
    gst_structure_free (self->drop_message);
  g_rand_free (self->rand);
  TSAN_DESTROY (&self->lock);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* --- helpers, called with the lock held ---------------------------------- */

static void
reseed_locked (GstRtpBurstPace * self)
{
  if (self->seed != 0)
    g_rand_set_seed (self->rand, self->seed);
  else
    g_rand_set_seed (self->rand, g_random_int ());
}

/* Drops everything queued (flush, READY): counted in flushed-packets.
 * As in queue, sticky events other than segment and EOS that were still
 * queued are stored on the source pad, so that data after a flush still
 * goes out with its caps. */
static void
flush_items_locked (GstRtpBurstPace * self)
{
  Item *item;

  while ((item = g_queue_pop_head (&self->items))) {
    if (item->event) {
      GstEventType type = GST_EVENT_TYPE (item->event);

      if (GST_EVENT_IS_STICKY (item->event) && type != GST_EVENT_SEGMENT &&
          type != GST_EVENT_EOS)
        gst_pad_store_sticky_event (self->srcpad, item->event);
    } else {
      self->num_flushed += g_queue_get_length (&item->packets);
    }
    item_free (item);
  }
  self->num_flushed += rtp_burst_repair_flush (&self->repair);
  self->last_media_slot = RTP_BURST_TIME_NONE;
  self->last_media_bytes = 0;
  self->events_out = self->events_in;
  self->open = NULL;
  self->n_closed = 0;
  self->n_queued_packets = 0;
  self->prev_end = RTP_BURST_TIME_NONE;
  rtp_burst_group_member_forget (&self->group);
  BROADCAST (self);
}

static void
reset_stats_locked (GstRtpBurstPace * self)
{
  self->num_frames = self->num_packets = self->num_bytes = 0;
  self->num_slots = self->last_slot_duration = 0;
  self->last_burst_size = 0;
  self->num_unpaced = self->num_catch_up = self->num_timeout_frames = 0;
  self->num_late_slots = self->max_lateness = 0;
  self->num_invalid = self->num_flushed = 0;
  self->unpaced_since_period = 0;
  self->num_spread = self->num_compressed = self->max_backlog = 0;
  self->num_dropped_frames = self->num_dropped_packets = 0;
  self->num_key_unit_requests = 0;
  self->num_margin_frames = 0;
  rtp_burst_repair_reset_stats (&self->repair);
}

/* Running time now, RTP_BURST_TIME_NONE without a clock. */
static guint64
running_time_now (GstRtpBurstPace * self)
{
  GstClock *clock;
  GstClockTime now, base;

  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self);
  if (clock == NULL) {
    GST_OBJECT_UNLOCK (self);
    return RTP_BURST_TIME_NONE;
  }
  gst_object_ref (clock);
  base = GST_ELEMENT_CAST (self)->base_time;
  GST_OBJECT_UNLOCK (self);

  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  if (!GST_CLOCK_TIME_IS_VALID (now) || now < base)
    return RTP_BURST_TIME_NONE;
  return now - base;
}

static void
update_period_locked (GstRtpBurstPace * self)
{
  RtpBurstPeriodSource source;
  guint64 period;

  period = rtp_burst_period_estimator_get (&self->est, self->frame_period,
      &source);
  if (period != self->period) {
    GST_INFO_OBJECT (self, "frame period %" GST_TIME_FORMAT " from %s",
        GST_TIME_ARGS (period), rtp_burst_period_source_name (source));
    self->period = period;
  }
  self->period_source = source;
}

static guint64
min_slot_locked (GstRtpBurstPace * self)
{
  if (self->min_slot_duration)
    return self->min_slot_duration;
  return self->wakeups.auto_min_slot;
}

static void
close_open_frame_locked (GstRtpBurstPace * self)
{
  Item *frame = self->open;
  guint p;

  if (frame == NULL)
    return;

  self->open = NULL;
  frame->closed = TRUE;
  frame->ready_time = running_time_now (self);
  self->n_closed++;

  rtp_burst_period_estimator_add_frame (&self->est, frame->rtptime,
      frame->first_arrival);
  update_period_locked (self);
  rtp_burst_rate_meter_add (&self->rate_meter, frame->bytes);

  p = self->payload_size ? self->payload_size : self->max_payload;
  frame->period = self->period;
  frame->burst_size = self->burst_size;
  frame->duty = self->duty;
  frame->slot_jitter = self->slot_jitter;
  frame->n_slots = rtp_burst_slot_count (frame->payload_bytes,
      frame->n_packets, p, frame->burst_size);
  frame->burst_size = rtp_burst_coarsen (frame->n_packets,
      rtp_burst_span (frame->period, frame->duty), min_slot_locked (self),
      &frame->n_slots, frame->burst_size);

  GST_LOG_OBJECT (self, "closed frame rtptime %u: %u packets, %"
      G_GUINT64_FORMAT " payload bytes, %u slots", frame->rtptime,
      frame->n_packets, frame->payload_bytes, frame->n_slots);

  /* the task may be waiting for this frame's timeout */
  if (self->wait.for_close)
    gst_rtp_burst_wait_unschedule_locked (&self->wait);
  BROADCAST (self);
}

/* MAX_QUEUED_FRAMES beyond the frames that wait for a synchronising sink's
 * latency (rtpburstsinkhold.h). */
static guint
max_queued_frames_locked (GstRtpBurstPace * self)
{
  guint64 waiting = 0;

  if (self->period > 0)
    waiting = (self->sink_hold.offset + self->period - 1) / self->period;
  return MAX_QUEUED_FRAMES + (guint) MIN (waiting, MAX_LATENCY_FRAMES);
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
  return self->srcresult;
}

/* A repair packet (another payload type than the media's): queued apart,
 * and the task woken to time it. */
static void
queue_repair_locked (GstRtpBurstPace * self, GstBuffer * buffer, guint64 now)
{
  rtp_burst_repair_push (&self->repair, buffer, gst_buffer_get_size (buffer),
      now, self->events_in);
  if (rtp_burst_repair_queued (&self->repair) == 1) {
    gst_rtp_burst_wait_unschedule_locked (&self->wait);
    BROADCAST (self);
  }
}

/* Runs with the lock held; may release it while blocking on a full queue.
 * @now: (inout): running time of the packet's arrival, one reading per
 *   buffer list, read again after blocking */
static GstFlowReturn
handle_packet_locked (GstRtpBurstPace * self, GstBuffer * buffer,
    guint64 * now)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  RtpBurstPacketAction action;
  guint32 rtptime;
  gboolean marker;
  guint payload_len, pt;
  Item *frame;

  if (self->srcresult != GST_FLOW_OK)
    return refuse_packet_locked (self, buffer);

  if (!gst_rtp_buffer_map (buffer, GST_MAP_READ, &rtp)) {
    gint64 now = g_get_monotonic_time ();

    self->num_invalid++;
    GST_DEBUG_OBJECT (self, "dropping invalid RTP packet of %" G_GSIZE_FORMAT
        " bytes", gst_buffer_get_size (buffer));
    if (self->last_invalid_warning == 0 ||
        now - self->last_invalid_warning >= INVALID_WARN_INTERVAL) {
      self->last_invalid_warning = now;
      self->post_invalid_warning = TRUE;
    }
    gst_buffer_unref (buffer);
    return GST_FLOW_OK;
  }
  rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  marker = gst_rtp_buffer_get_marker (&rtp);
  payload_len = gst_rtp_buffer_get_payload_len (&rtp);
  pt = gst_rtp_buffer_get_payload_type (&rtp);
  gst_rtp_buffer_unmap (&rtp);

  if (self->media_pt >= 0 && (gint) pt != self->media_pt) {
    queue_repair_locked (self, buffer, *now);
    return GST_FLOW_OK;
  }

  action = rtp_burst_classify_packet (self->open != NULL,
      self->open ? self->open->rtptime : 0, rtptime, marker);
  if (action & RTP_BURST_PACKET_CLOSE_BEFORE)
    close_open_frame_locked (self);

  if (self->open == NULL) {
    /* back-pressure: wait for room for a new frame */
    if (self->n_closed >= max_queued_frames_locked (self)) {
      while (self->n_closed >= max_queued_frames_locked (self) &&
          self->srcresult == GST_FLOW_OK)
        COND_WAIT (self);
      /* the packet arrives now, not when the chain began to wait */
      *now = running_time_now (self);
    }
    if (self->srcresult != GST_FLOW_OK)
      return refuse_packet_locked (self, buffer);
    frame = g_slice_new0 (Item);
    frame->rtptime = rtptime;
    frame->pts = GST_BUFFER_PTS (buffer);
    frame->dts = GST_BUFFER_DTS (buffer);
    frame->first_arrival = *now;
    frame->serial = ++self->n_frames_in;
    /* until ΔT is known a frame leaves as it comes: its packets cannot wait
     * for the rest of a frame whose period nobody knows */
    frame->unpaced = self->period == 0;
    g_queue_push_tail (&self->items, frame);
    self->open = frame;
  }

  frame = self->open;
  frame->last_arrival = *now;
  g_queue_push_tail (&frame->packets, buffer);
  frame->n_packets++;
  frame->payload_bytes += payload_len;
  frame->bytes += gst_buffer_get_size (buffer);
  self->n_queued_packets++;
  self->max_payload = MAX (self->max_payload, payload_len);

  if ((action & RTP_BURST_PACKET_CLOSE_AFTER) ||
      frame->n_packets >= MAX_FRAME_PACKETS)
    close_open_frame_locked (self);
  else if (self->task_waiting)
    BROADCAST (self);
  return GST_FLOW_OK;
}

/* Posts what was noted under the lock.  Call without the lock. */
static void
post_pending_messages (GstRtpBurstPace * self)
{
  gboolean invalid, period, rt_warning, group_clock;
  GstStructure *dropped;
  guint64 n_invalid;
  gint rt_priority, rt_error;
  gchar *group = NULL, *refused_group;

  LOCK (self);
  invalid = self->post_invalid_warning;
  period = self->post_period_warning;
  group_clock = self->post_group_clock_warning;
  self->post_group_clock_warning = FALSE;
  if (group_clock)
    group = g_strdup (self->group_name);
  refused_group = g_steal_pointer (&self->refused_group);
  n_invalid = self->num_invalid;
  dropped = self->drop_message;
  self->drop_message = NULL;
  if (dropped)
    self->num_key_unit_requests++;
  self->post_invalid_warning = FALSE;
  self->post_period_warning = FALSE;
  rt_warning = gst_rtp_burst_thread_take_warning (&self->thread,
      &rt_priority, &rt_error);
  UNLOCK (self);

  if (dropped) {
    gst_element_post_message (GST_ELEMENT_CAST (self),
        gst_message_new_element (GST_OBJECT_CAST (self), dropped));
    /* the decoder lost its reference: ask the encoder for a key unit */
    gst_pad_push_event (self->sinkpad,
        gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
            TRUE, 0));
  }

  if (invalid)
    GST_ELEMENT_WARNING (self, STREAM, DECODE,
        ("Dropping packets that are not valid RTP."),
        ("%" G_GUINT64_FORMAT " invalid packets so far (see the "
            "invalid-packets field of the stats property)", n_invalid));
  if (period)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Cannot derive the frame period; frames are passed unpaced."),
        ("The caps have no a-framerate, the RTP timestamps do not advance "
            "and frame arrivals cannot be timed. Set the frame-period "
            "property."));
  if (rt_warning)
    gst_rtp_burst_thread_post_warning (GST_ELEMENT_CAST (self), rt_priority,
        rt_error);
  if (group_clock)
    GST_ELEMENT_WARNING (self, CORE, CLOCK,
        ("The other members of group \"%s\" run on another clock: this "
            "stream's slots are not placed between theirs.", group),
        ("Members of a group place their slots in clock time, so they must "
            "share a clock (gst_pipeline_use_clock ()); see the group-other-"
            "clock field of the stats property."));
  if (refused_group)
    GST_ELEMENT_WARNING (self, CORE, STATE_CHANGE,
        ("The group cannot change while PAUSED or PLAYING."),
        ("group \"%s\" was not taken; the element stays in the group it "
            "joined (the group property says which). Set it in NULL or "
            "READY.", refused_group));
  g_free (group);
  g_free (refused_group);
}

static GstFlowReturn
gst_rtp_burst_pace_chain (GstPad * pad, GstObject * parent, GstBuffer * buffer)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  guint64 now = running_time_now (self);
  GstFlowReturn ret;

  LOCK (self);
  ret = handle_packet_locked (self, buffer, &now);
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

  LOCK (self);
  for (i = 0; i < len && ret == GST_FLOW_OK; i++)
    ret = handle_packet_locked (self,
        gst_buffer_ref (gst_buffer_list_get (list, i)), &now);
  UNLOCK (self);
  gst_buffer_list_unref (list);
  post_pending_messages (self);
  return ret;
}

static void
parse_caps_locked (GstRtpBurstPace * self, GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint clock_rate = 0;
  guint64 caps_period = 0;
  const gchar *framerate;

  if (self->last_caps && gst_caps_is_equal (caps, self->last_caps))
    return;
  gst_caps_replace (&self->last_caps, caps);

  if (!gst_structure_get_int (s, "clock-rate", &clock_rate) || clock_rate <= 0)
    clock_rate = 0;
  if (!gst_structure_get_int (s, "payload", &self->media_pt) ||
      self->media_pt < 0 || self->media_pt > 127)
    self->media_pt = -1;
  framerate = gst_structure_get_string (s, "a-framerate");
  if (framerate) {
    caps_period = rtp_burst_parse_framerate (framerate);
    if (caps_period == 0)
      GST_WARNING_OBJECT (self, "ignoring unusable a-framerate \"%s\"",
          framerate);
  }
  GST_DEBUG_OBJECT (self, "caps: clock-rate %d, a-framerate period %"
      GST_TIME_FORMAT, clock_rate, GST_TIME_ARGS (caps_period));

  gst_rtp_burst_pay_info_set_caps (&self->pay_info, caps);

  /* new caps: estimate the period afresh */
  rtp_burst_period_estimator_reset_history (&self->est);
  rtp_burst_period_estimator_set_caps (&self->est, caps_period, clock_rate);
  update_period_locked (self);
}

static gboolean
gst_rtp_burst_pace_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstRtpBurstPace *self = GST_RTP_BURST_PACE (parent);
  gboolean ret = TRUE, restart = FALSE;

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
      flush_items_locked (self);
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
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

  /* a serialized event completes the open frame */
  close_open_frame_locked (self);

  /* after EOS upstream sees no flow returns, until a new stream */
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS)
    self->eos = TRUE;
  else if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START ||
      GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    self->eos = FALSE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;

    gst_event_parse_caps (event, &caps);
    parse_caps_locked (self, caps);
  }

  {
    Item *item = g_slice_new0 (Item);

    item->event = event;
    g_queue_push_tail (&self->items, item);
    self->events_in++;
  }
  BROADCAST (self);
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
    /* keep the order: answer once everything before it has left */
    LOCK (self);
    close_open_frame_locked (self);
    while (self->srcresult == GST_FLOW_OK && self->items.length > 0)
      COND_WAIT (self);
    if (self->srcresult != GST_FLOW_OK) {
      UNLOCK (self);
      return FALSE;
    }
    UNLOCK (self);
  }
  return gst_pad_query_default (pad, parent, query);
}

static gboolean
rate_cap_enabled_locked (GstRtpBurstPace * self)
{
  return self->max_rate > 0 || self->max_rate_factor > 0.0;
}

/* The peak-rate cap in use now, bit/s; 0 = none (yet). */
static guint64
max_rate_locked (GstRtpBurstPace * self)
{
  if (self->max_rate > 0)
    return self->max_rate;
  if (self->max_rate_factor > 0.0)
    return (guint64) (self->max_rate_factor *
        (gdouble) rtp_burst_rate_meter_get (&self->rate_meter, self->period));
  return 0;
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
    self->upstream_latency = min;
    /* what a clocksync downstream will add (it ignores a non-live one) */
    rtp_burst_sink_hold_set_latency (&self->sink_hold, RTP_BURST_HOLD_QUERY,
        live ? min : 0);
    room = MAX_QUEUED_FRAMES * self->period;
    UNLOCK (self);

    /* No minimum latency of its own: a paced packet's DTS is its slot
     * (minus what a synchronising sink adds, rtpburstsinkhold.h), so it
     * reaches a sink that syncs on it in time however long the element
     * held it.  Its queue can hold MAX_QUEUED_FRAMES frames. */
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
    rtp_burst_sink_hold_set_latency (&self->sink_hold, RTP_BURST_HOLD_EVENT,
        latency);
    UNLOCK (self);
  }
  return gst_pad_event_default (pad, parent, event);
}

/* --- the source pad task ------------------------------------------------- */

/* Waits on the pipeline clock until running time @rt (gstrtpburstwait.h).
 * Releases the lock meanwhile.  Returns the clock's answer; *lateness is
 * how late the wait ended. */
static GstClockReturn
wait_until_locked (GstRtpBurstPace * self, guint64 rt, gboolean for_close,
    GstClockTimeDiff * lateness)
{
  GstClock *clock;
  GstClockTime base, target, now;
  GstClockReturn ret;

  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self);
  if (clock == NULL) {
    GST_OBJECT_UNLOCK (self);
    return GST_CLOCK_BADTIME;
  }
  gst_object_ref (clock);
  base = GST_ELEMENT_CAST (self)->base_time;
  GST_OBJECT_UNLOCK (self);

  target = rtp_burst_time_add (rt, base);
  ret = gst_rtp_burst_wait_until_locked (&self->wait, clock, target,
      for_close, &now);
  gst_object_unref (clock);
  if (lateness)
    *lateness = GST_CLOCK_DIFF (target, now);
  return ret;
}

/* The DTS of a paced slot's packets: the stream time whose running time is
 * the slot minus what a synchronising sink adds, so that such a sink
 * releases them at the slot.  GST_CLOCK_TIME_NONE to leave them as they
 * are (unpaced, or a frame without a timestamp before its segment). */
static GstClockTime
slot_dts_locked (GstRtpBurstPace * self, Item * frame)
{
  if (frame->unpaced || self->segment.format != GST_FORMAT_TIME ||
      frame->slot_time < frame->sink_offset)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_position_from_running_time (&self->segment,
      GST_FORMAT_TIME, frame->slot_time - frame->sink_offset);
}

static GstBuffer *
pop_packet_locked (Item * frame, GstClockTime dts)
{
  GstBuffer *buf = g_queue_pop_head (&frame->packets);

  if (GST_CLOCK_TIME_IS_VALID (dts) && GST_BUFFER_DTS (buf) != dts) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_DTS (buf) = dts;
  }
  return buf;
}

/* Takes the next @n packets of @frame for one push, gives them their DTS
 * and counts them as released.  Returns their size in bytes. */
static gsize
pop_packets_locked (GstRtpBurstPace * self, Item * frame, guint n,
    GstBuffer ** single, GstBufferList ** list)
{
  GstClockTime dts = slot_dts_locked (self, frame);
  GstBuffer *last = NULL;
  gsize size = 0;
  guint i;

  *single = NULL;
  *list = NULL;
  if (n == 1) {
    last = *single = pop_packet_locked (frame, dts);
    size = gst_buffer_get_size (*single);
  } else {
    *list = gst_buffer_list_new_sized (n);
    for (i = 0; i < n; i++) {
      last = pop_packet_locked (frame, dts);
      size += gst_buffer_get_size (last);
      gst_buffer_list_add (*list, last);
    }
  }
  if (last)
    gst_rtp_burst_pay_info_released (&self->pay_info, last, &self->segment);
  self->n_queued_packets -= n;
  self->num_slots++;
  /* counted before the push, so that the stats are complete when the
   * packets arrive downstream */
  self->num_packets += n;
  self->num_bytes += size;
  return size;
}

/* Removes the frame at the head once all its packets have left. */
static void
finish_frame_locked (GstRtpBurstPace * self, Item * frame)
{
  if (!frame->closed || !g_queue_is_empty (&frame->packets))
    return;
  g_queue_pop_head (&self->items);
  self->n_closed--;
  self->num_frames++;
  if (!frame->unpaced)
    self->prev_end = rtp_burst_plan_end (&frame->plan);
  item_free (frame);
  BROADCAST (self);
}

static guint64
sync_time_locked (GstRtpBurstPace * self, Item * frame)
{
  GstClockTime ts = GST_CLOCK_TIME_IS_VALID (frame->dts) ?
      frame->dts : frame->pts;
  guint64 rt;

  if (self->segment.format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID (ts))
    return RTP_BURST_TIME_NONE;
  rt = gst_segment_to_running_time (&self->segment, GST_FORMAT_TIME, ts);
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return RTP_BURST_TIME_NONE;
  /* a synchronising sink releases it no earlier than the offset */
  return rtp_burst_time_add (rt, MAX (frame->sink_offset,
          self->sync_upstream_latency ? self->upstream_latency : 0));
}

static void
start_unpaced_locked (GstRtpBurstPace * self, Item * frame)
{
  frame->started = TRUE;
  frame->unpaced = TRUE;
  self->num_unpaced++;
  if (self->period == 0 && ++self->unpaced_since_period >= PERIOD_WARN_FRAMES
      && !self->period_warned) {
    self->period_warned = TRUE;
    self->post_period_warning = TRUE;
  }
}

/* Removes the frame at the head, not started, with all its packets. */
static void
drop_frame_locked (GstRtpBurstPace * self, Item * frame, guint64 backlog)
{
  guint n = g_queue_get_length (&frame->packets);

  GST_INFO_OBJECT (self, "dropping frame %u of %u packets: its last slot "
      "would be %" GST_TIME_FORMAT " after it was due", frame->rtptime, n,
      GST_TIME_ARGS (backlog));
  self->num_dropped_frames++;
  self->num_dropped_packets += n;
  self->n_queued_packets -= n;
  if (self->drop_message)
    gst_structure_free (self->drop_message);
  self->drop_message = gst_structure_new ("rtpburstpace-frame-dropped",
      "rtptime", G_TYPE_UINT, frame->rtptime,
      "packets", G_TYPE_UINT, n,
      "bytes", G_TYPE_UINT64, frame->bytes,
      "backlog", G_TYPE_UINT64, backlog,
      "max-latency", G_TYPE_UINT64, self->max_latency,
      "dropped-frames", G_TYPE_UINT64, self->num_dropped_frames, NULL);
  g_queue_pop_head (&self->items);
  self->n_closed--;
  item_free (frame);
  BROADCAST (self);
}

/* Moves the frame's slots between those of the group's other members, in
 * clock time (their pipelines' running times may differ).  Never waits for
 * the group (rtpburstgroup.h). */
static void
place_in_group_locked (GstRtpBurstPace * self, Item * frame)
{
  gconstpointer clock;
  GstClockTime base;

  if (self->group.group == NULL)
    return;
  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self);      /* compared, never dereferenced */
  base = GST_ELEMENT_CAST (self)->base_time;
  GST_OBJECT_UNLOCK (self);
  if (rtp_burst_group_member_place (&self->group, &frame->plan, clock,
          GST_CLOCK_TIME_IS_VALID (base) ? base : 0) ==
      RTP_BURST_GROUP_OTHER_CLOCK && !self->group_clock_warned) {
    self->group_clock_warned = TRUE;
    self->post_group_clock_warning = TRUE;
  }
}

/* Plans the frame at the head.  Returns FALSE if it was dropped. */
static gboolean
start_frame_locked (GstRtpBurstPace * self, Item * frame, guint64 now)
{
  RtpBurstStart start;
  RtpBurstLimits limits;
  RtpBurstLimitResult limited;
  guint64 span, offset;

  if (frame->period == 0 || now == RTP_BURST_TIME_NONE) {
    start_unpaced_locked (self, frame);
    return TRUE;
  }
  self->unpaced_since_period = 0;

  /* frames are due later by what a synchronising sink downstream adds;
   * the previous frame's packets leave later by as much */
  offset = self->sink_hold.offset;
  frame->sink_offset = rtp_burst_sink_hold_frame_start (&self->sink_hold);
  if (frame->sink_offset != offset) {
    GST_INFO_OBJECT (self, "a synchronising sink downstream adds %"
        GST_TIME_FORMAT ": due times move by as much, DTS is slot - that",
        GST_TIME_ARGS (frame->sink_offset));
    if (self->prev_end != RTP_BURST_TIME_NONE)
      self->prev_end = frame->sink_offset > offset ?
          rtp_burst_time_add (self->prev_end, frame->sink_offset - offset) :
          self->prev_end - MIN (self->prev_end, offset - frame->sink_offset);
  }

  if (self->auto_margin) {
    gboolean shortened;

    /* room for the margin after the last slot, within the period */
    span = rtp_burst_margin_span (frame->period, frame->duty,
        self->margin.margin, frame->n_slots, &shortened);
    if (shortened)
      self->num_margin_frames++;
  } else {
    span = rtp_burst_span (frame->period, frame->duty);
  }
  rtp_burst_plan_start (sync_time_locked (self, frame), frame->ready_time,
      now, self->prev_end, span, &start);

  limits.max_rate = max_rate_locked (self);
  limits.budget = rate_cap_enabled_locked (self) ? self->max_latency : 0;
  limits.overload = self->overload;
  if (rtp_burst_apply_limits (&limits, frame->bytes, frame->n_slots, &start,
          &limited) == RTP_BURST_LIMIT_DROP) {
    drop_frame_locked (self, frame, limited.backlog);
    return FALSE;
  }
  frame->started = TRUE;
  if (limited.spread)
    self->num_spread++;
  if (limited.compressed)
    self->num_compressed++;
  self->max_backlog = MAX (self->max_backlog, limited.backlog);

  if (start.catch_up) {
    self->num_catch_up++;
    GST_DEBUG_OBJECT (self, "frame %u held back %" GST_TIME_FORMAT
        ", spreading it over %" GST_TIME_FORMAT, frame->rtptime,
        GST_TIME_ARGS (start.lateness), GST_TIME_ARGS (start.span));
  }
  rtp_burst_plan_init (&frame->plan, start.start, start.span, frame->period,
      frame->n_packets, frame->n_slots, frame->burst_size, frame->slot_jitter);
  place_in_group_locked (self, frame);
  self->last_slot_duration = rtp_burst_plan_slot_duration (&frame->plan);
  self->last_burst_size = frame->plan.burst_size;
  return TRUE;
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

/* What the task does next (next_locked). */
typedef enum
{
  NEXT_AGAIN,                   /* it waited: look again */
  NEXT_EVENT,                   /* forward the event at the head */
  NEXT_PUSH,                    /* push packets of the frame at the head */
  NEXT_REPAIR,                  /* push the repair packet at the head */
  NEXT_MEDIA,                   /* no repair packet before the media's next */
  NEXT_DROPPED,                 /* a frame was dropped: post the messages */
  NEXT_FLUSHING,                /* srcresult is not OK: pause */
} Next;

/* A push of packets; for a paced slot, how it was timed. */
typedef struct
{
  guint n_packets;
  gsize bytes;
  gboolean paced;
  guint64 slot_time, sink_offset;
  guint64 own_lateness;         /* how late the task woke for the slot */
  guint64 start, end;           /* running times around the push */
  /* for the meter */
  gboolean frame_first, frame_last;
  guint64 frame_start, period;
  guint64 serial;
  gboolean overrun;             /* a repair packet that left at its bound */
} Push;

/* Counts how late the task woke for a paced slot, and returns that: its
 * own lateness.  In a frame whose pushes a synchronising sink held (it
 * paces that frame itself), a slot whose time went by while the sink still
 * held the previous push is late only by the time since that push
 * returned. */
static guint64
note_slot_lateness_locked (GstRtpBurstPace * self, Item * item,
    GstClockReturn cret, GstClockTimeDiff lateness)
{
  if (cret != GST_CLOCK_EARLY)
    rtp_burst_wakeup_tracker_add (&self->wakeups, MAX (lateness, 0));
  if (item->serial == self->held_serial &&
      self->last_push_end != RTP_BURST_TIME_NONE &&
      self->last_push_end > item->slot_time)
    lateness -= (GstClockTimeDiff) MIN (self->last_push_end - item->slot_time,
        (guint64) G_MAXINT64);
  if (lateness > (GstClockTimeDiff) RTP_BURST_LATE_THRESHOLD)
    self->num_late_slots++;
  if (lateness > 0 && (guint64) lateness > self->max_lateness)
    self->max_lateness = lateness;
  return MAX (lateness, 0);
}

/* Looks at how long downstream took for a paced push: a synchronising
 * sink in the task's thread holds it (rtpburstsinkhold.h).  Then gives the
 * slot to the meter: released when the push began, or, if such a sink held
 * it, as late after its slot as the sink released it after its time. */
static void
note_push_locked (GstRtpBurstPace * self, const Push * push)
{
  guint64 target = 0, release = push->start;
  gboolean held = push->end != RTP_BURST_TIME_NONE &&
      rtp_burst_sink_hold_push_done (&self->sink_hold, push->slot_time,
      push->sink_offset, push->start, push->end, &target);

  self->last_push_end = push->end;
  if (held) {
    self->held_serial = push->serial;
    GST_LOG_OBJECT (self, "downstream held the slot at %" GST_TIME_FORMAT
        " until %" GST_TIME_FORMAT, GST_TIME_ARGS (push->slot_time),
        GST_TIME_ARGS (push->end));
    release = push->end > target ? rtp_burst_time_add (push->slot_time,
        push->end - target) : push->slot_time;
  }
  rtp_burst_meter_slot (&self->meter, push->slot_time, release,
      push->n_packets, push->bytes, push->frame_first,
      push->frame_last, push->frame_start, push->period);
}

/* Starts the frame at the head: unpaced, or planned (or dropped) once it
 * is closed.  A frame still open is waited for, at most one period after
 * its latest packet, and then closed (NEXT_AGAIN). */
static Next
start_head_frame_locked (GstRtpBurstPace * self, Item * item)
{
  guint64 now = running_time_now (self);
  guint64 deadline;

  if (item->unpaced) {
    start_unpaced_locked (self, item);
    return NEXT_PUSH;
  }
  if (item->closed)
    return start_frame_locked (self, item, now) ? NEXT_PUSH : NEXT_DROPPED;

  deadline = rtp_burst_time_add (item->last_arrival, self->period);
  if (item->last_arrival == RTP_BURST_TIME_NONE || now == RTP_BURST_TIME_NONE) {
    TASK_WAIT (self);
  } else if (now < deadline) {
    wait_until_locked (self, deadline, TRUE, NULL);
  } else {
    GST_DEBUG_OBJECT (self, "closing frame %u: no packet for one period",
        item->rtptime);
    self->num_timeout_frames++;
    close_open_frame_locked (self);
  }
  return NEXT_AGAIN;
}

/* An unpaced frame: its packets leave as they come, all that are there. */
static Next
next_unpaced_locked (GstRtpBurstPace * self, Item * item, Push * push)
{
  guint n = g_queue_get_length (&item->packets);

  if (n == 0) {
    if (item->closed)
      finish_frame_locked (self, item);
    else
      TASK_WAIT (self);
    return NEXT_AGAIN;
  }
  push->n_packets = n;
  return NEXT_PUSH;
}

/* Makes sure a started paced frame knows the time of its next slot.
 * FALSE once it has none left (it is finished). */
static gboolean
next_slot_locked (GstRtpBurstPace * self, Item * item)
{
  if (!item->have_slot) {
    if (!rtp_burst_plan_next (&item->plan, self->rand, &item->slot_time,
            &item->slot_packets)) {
      finish_frame_locked (self, item);
      return FALSE;
    }
    item->have_slot = TRUE;
  }
  return TRUE;
}

/* Whether the repair packet at the head of its queue leaves before the
 * media's next slot (rtpburstrepair.h); then waits for its time.
 * NEXT_REPAIR to push it, NEXT_MEDIA if the media goes first, NEXT_AGAIN
 * if the wait was cut short. */
static Next
next_repair_locked (GstRtpBurstPace * self, Item * item, Push * push)
{
  guint64 next_media = RTP_BURST_TIME_NONE, now;
  RtpBurstRepairMedia media;
  RtpBurstRepairTurn turn;
  GstClockReturn cret;

  if (item && !item->event) {
    /* a frame to start, or the packets of one that leaves as they come,
     * go first (an unpaced frame still open may wait for more) */
    if ((item->unpaced && !g_queue_is_empty (&item->packets)) ||
        (item->closed && !item->started))
      return NEXT_MEDIA;
    if (item->started && !item->unpaced) {
      if (!next_slot_locked (self, item))
        return NEXT_AGAIN;
      next_media = item->slot_time;
    }
  }
  media.last = self->last_media_slot;
  media.last_bytes = self->last_media_bytes;
  media.next = next_media;
  /* not paced: no spacing, at once */
  media.spacing = self->pace_repair ? self->last_slot_duration : 0;
  rtp_burst_repair_next (&self->repair, &media,
      self->pace_repair ? max_rate_locked (self) : 0,
      self->period ? self->period : RTP_BURST_TIME_NONE, &turn);
  if (!turn.before_media)
    return NEXT_MEDIA;
  now = running_time_now (self);
  if (now != RTP_BURST_TIME_NONE && turn.due > now) {
    cret = wait_until_locked (self, turn.due, FALSE, NULL);
    if (self->srcresult != GST_FLOW_OK)
      return NEXT_FLUSHING;
    if (cret == GST_CLOCK_UNSCHEDULED ||
        rtp_burst_repair_queued (&self->repair) == 0)
      return NEXT_AGAIN;
  }
  push->slot_time = turn.due;
  push->overrun = turn.overrun;
  return NEXT_REPAIR;
}

/* A paced frame: waits for its next slot.  NEXT_AGAIN once it has no slot
 * left (it is finished), or when a pause or flush unscheduled the wait
 * (the slot is waited for again after PLAYING). */
static Next
wait_next_slot_locked (GstRtpBurstPace * self, Item * item, Push * push)
{
  GstClockTimeDiff lateness = 0;
  GstClockReturn cret;

  if (!next_slot_locked (self, item))
    return NEXT_AGAIN;

  cret = wait_until_locked (self, item->slot_time, FALSE, &lateness);
  if (cret == GST_CLOCK_UNSCHEDULED)
    return NEXT_AGAIN;
  if (self->srcresult != GST_FLOW_OK)
    return NEXT_FLUSHING;
  push->own_lateness = note_slot_lateness_locked (self, item, cret, lateness);
  if (push->own_lateness <= RTP_BURST_LATE_THRESHOLD ||
      item->released_slots == 0)
    item->on_time = item->slot_time - MIN (item->slot_time, item->plan.start);

  item->have_slot = FALSE;
  push->n_packets = item->slot_packets;
  push->paced = TRUE;
  push->slot_time = item->slot_time;
  push->sink_offset = item->sink_offset;
  push->start = rtp_burst_time_add (item->slot_time, MAX (lateness, 0));
  push->frame_first = item->released_slots++ == 0;
  push->serial = item->serial;
  push->frame_start = item->plan.start;
  push->period = item->period;
  return NEXT_PUSH;
}

/* Whether a repair packet is queued that no queued event has to precede. */
static gboolean
repair_ready_locked (GstRtpBurstPace * self)
{
  return rtp_burst_repair_queued (&self->repair) > 0 &&
      rtp_burst_repair_head_epoch (&self->repair) <= self->events_out;
}

/* What the task does next, with @head the item at the head of the queue.
 * Waits, at most once per call: for data, for PLAYING, for the rest of an
 * open frame, for a slot (then NEXT_AGAIN, or NEXT_PUSH for the slot). */
static Next
next_locked (GstRtpBurstPace * self, Item ** head, Push * push)
{
  Item *item;

  if (self->srcresult != GST_FLOW_OK)
    return NEXT_FLUSHING;
  item = *head = g_queue_peek_head (&self->items);
  /* repair packets leave in PLAYING, after the events queued before them */
  if (self->playing && repair_ready_locked (self)) {
    Next next = next_repair_locked (self, item, push);

    if (next != NEXT_MEDIA)
      return next;
  }
  if (item == NULL) {
    TASK_WAIT (self);
    return NEXT_AGAIN;
  }
  if (item->event) {
    if (!repair_ready_locked (self))
      return NEXT_EVENT;
    /* the repair packets queued before it leave first, in PLAYING */
    TASK_WAIT (self);
    return NEXT_AGAIN;
  }
  /* packets only leave in PLAYING */
  if (!self->playing) {
    TASK_WAIT (self);
    return NEXT_AGAIN;
  }
  if (!item->started) {
    Next next = start_head_frame_locked (self, item);

    if (next != NEXT_PUSH)
      return next;
  }
  if (item->unpaced)
    return next_unpaced_locked (self, item, push);
  return wait_next_slot_locked (self, item, push);
}

/* Pushes the event at the head without the lock.  Returns FALSE for the
 * EOS that ends the task (srcresult is then EOS). */
static gboolean
push_event_locked (GstRtpBurstPace * self, Item * item)
{
  GstEvent *event = item->event;
  gboolean is_eos = GST_EVENT_TYPE (event) == GST_EVENT_EOS;

  item->event = NULL;
  g_queue_pop_head (&self->items);
  self->events_out++;
  item_free (item);
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    gst_event_copy_segment (event, &self->segment);
  BROADCAST (self);
  UNLOCK (self);

  gst_pad_push_event (self->srcpad, event);

  LOCK (self);
  /* EOS ends the task, unless a new stream (stream-start, segment) was
   * queued behind it already */
  if (is_eos && self->srcresult == GST_FLOW_OK &&
      g_queue_is_empty (&self->items)) {
    self->srcresult = GST_FLOW_EOS;
    return FALSE;
  }
  return TRUE;
}

/* Takes the packets of @push from the frame at the head and pushes them
 * without the lock: one buffer, or a buffer list for several.  Returns
 * downstream's flow. */
static GstFlowReturn
push_packets_locked (GstRtpBurstPace * self, Item * item, Push * push)
{
  GstFlowReturn ret;
  GstBuffer *single;
  GstBufferList *list;

  push->bytes = pop_packets_locked (self, item, push->n_packets, &single,
      &list);
  self->last_media_slot = push->paced ? push->slot_time :
      running_time_now (self);
  self->last_media_bytes = (guint) MIN (push->bytes, G_MAXUINT);
  push->frame_last = item->closed && g_queue_is_empty (&item->packets);
  /* whether late slots at its end made the frame end after its period,
   * for the margin of later frames */
  if (push->frame_last && push->paced)
    rtp_burst_margin_frame (&self->margin, rtp_burst_time_add
        (item->slot_time - MIN (item->slot_time, item->plan.start),
            push->own_lateness), item->on_time, item->period);
  if (push->frame_last)
    finish_frame_locked (self, item);
  UNLOCK (self);

  ret = single ? gst_pad_push (self->srcpad, single) :
      gst_pad_push_list (self->srcpad, list);
  if (push->paced)
    push->end = running_time_now (self);
  LOCK (self);
  if (push->paced)
    note_push_locked (self, push);
  if (ret == GST_FLOW_FLUSHING) {
    /* refused by a flush (ours or downstream's): discarded, and counted */
    self->num_packets -= push->n_packets;
    self->num_bytes -= push->bytes;
    self->num_flushed += push->n_packets;
  }
  return ret;
}

/* Takes the repair packet at the head of its queue and pushes it without
 * the lock, with a DTS that a synchronising sink releases at its time.
 * Returns downstream's flow. */
static GstFlowReturn
push_repair_locked (GstRtpBurstPace * self, Push * push)
{
  GstBuffer *buf;
  GstFlowReturn ret;
  guint size;
  guint64 offset = self->sink_hold.offset;

  buf = rtp_burst_repair_pop (&self->repair, push->slot_time, push->overrun,
      running_time_now (self), &size);
  if (self->segment.format == GST_FORMAT_TIME && push->slot_time >= offset) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_DTS (buf) = gst_segment_position_from_running_time
        (&self->segment, GST_FORMAT_TIME, push->slot_time - offset);
  }
  UNLOCK (self);
  ret = gst_pad_push (self->srcpad, buf);
  LOCK (self);
  if (ret == GST_FLOW_FLUSHING) {
    /* refused by a flush: discarded, and counted as such */
    rtp_burst_repair_refused (&self->repair, size);
    self->num_flushed++;
  }
  return ret;
}

/* The source pad task: one thing per call, as in queue's loop.  It waits
 * until there is something to do (next_locked), then forwards an event or
 * pushes packets. */
static void
gst_rtp_burst_pace_loop (GstRtpBurstPace * self)
{
  Push push = { .paced = FALSE };
  GstFlowReturn ret;
  Item *item;
  Next next;

  TSAN_ACQUIRE (self);
  LOCK (self);
  do {
    gst_rtp_burst_thread_apply (&self->thread, GST_OBJECT_CAST (self),
        self->timer_slack, self->realtime_priority);
    next = next_locked (self, &item, &push);
  } while (next == NEXT_AGAIN);

  switch (next) {
    case NEXT_EVENT:
      if (!push_event_locked (self, item))
        goto out_flushing;      /* EOS */
      UNLOCK (self);
      return;
    case NEXT_PUSH:
    case NEXT_REPAIR:
      ret = next == NEXT_PUSH ? push_packets_locked (self, item, &push) :
          push_repair_locked (self, &push);
      if (self->srcresult != GST_FLOW_OK)
        goto out_flushing;
      self->srcresult = ret;
      if (ret != GST_FLOW_OK)
        goto out_flushing;
      break;
    case NEXT_DROPPED:
      /* tell the application and upstream now */
      break;
    default:
      goto out_flushing;
  }
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
    BROADCAST (self);
    UNLOCK (self);
    if (post) {
      GST_ELEMENT_FLOW_ERROR (self, result);
      gst_pad_push_event (self->srcpad, gst_event_new_eos ());
    }
    return;
  }
}

/* --- activation and states ----------------------------------------------- */

/* Makes the task and a blocked chain stop at their next check and wakes
 * them.  Call without the lock. */
static void
set_flushing (GstRtpBurstPace * self)
{
  LOCK (self);
  self->srcresult = GST_FLOW_FLUSHING;
  gst_rtp_burst_wait_unschedule_locked (&self->wait);
  BROADCAST (self);
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
      LOCK (self);
      reset_stats_locked (self);
      reseed_locked (self);
      rtp_burst_sink_hold_init (&self->sink_hold);
      self->last_push_end = RTP_BURST_TIME_NONE;
      self->held_serial = 0;
      gst_rtp_burst_pay_info_reset (&self->pay_info);
      rtp_burst_meter_init (&self->meter);
      rtp_burst_margin_init (&self->margin);
      rtp_burst_group_member_join (&self->group, self->group_name);
      self->group_clock_warned = FALSE;
      rtp_burst_wakeup_tracker_init (&self->wakeups);
      rtp_burst_rate_meter_init (&self->rate_meter);
      self->playing = FALSE;
      self->prev_end = RTP_BURST_TIME_NONE;
      self->period_warned = FALSE;
      gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
      UNLOCK (self);
      no_preroll = TRUE;
      break;
    case GST_STATE_CHANGE_PAUSED_TO_PLAYING:
      LOCK (self);
      self->playing = TRUE;
      BROADCAST (self);
      UNLOCK (self);
      break;
    case GST_STATE_CHANGE_PLAYING_TO_PAUSED:
      LOCK (self);
      self->playing = FALSE;
      gst_rtp_burst_wait_unschedule_locked (&self->wait);
      BROADCAST (self);
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
      LOCK (self);
      rtp_burst_group_member_leave (&self->group);
      UNLOCK (self);
    }
    return ret;
  }

  switch (transition) {
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      LOCK (self);
      flush_items_locked (self);
      rtp_burst_period_estimator_init (&self->est);
      gst_clear_caps (&self->last_caps);
      self->period = 0;
      self->max_payload = 0;
      self->upstream_latency = 0;
      rtp_burst_group_member_leave (&self->group);
      UNLOCK (self);
      break;
    default:
      break;
  }

  if (no_preroll && ret == GST_STATE_CHANGE_SUCCESS)
    ret = GST_STATE_CHANGE_NO_PREROLL;
  return ret;
}

/* --- properties ---------------------------------------------------------- */

/* The group is taken from READY to PAUSED and kept until READY. */
static gboolean
group_is_fixed (GstRtpBurstPace * self)
{
  gboolean fixed;

  GST_OBJECT_LOCK (self);
  fixed = GST_STATE (self) > GST_STATE_READY ||
      GST_STATE_NEXT (self) > GST_STATE_READY;
  GST_OBJECT_UNLOCK (self);
  return fixed;
}

#define SET_U64(id, v) gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_##id, v)
#define SET_UINT(id, v) gst_rtp_burst_stats_set_uint (s, GST_RTP_BURST_STAT_##id, v)

/* The stats structure (its fields are defined in gstrtpburststats.c). */
static GstStructure *
create_stats_locked (GstRtpBurstPace * self)
{
  GstStructure *s = gst_rtp_burst_stats_new ();
  RtpBurstMeterReport meter;

  SET_U64 (FRAMES, self->num_frames);
  SET_U64 (PACKETS, self->num_packets);
  SET_U64 (BYTES, self->num_bytes);
  SET_U64 (SLOTS, self->num_slots);
  SET_U64 (FRAME_PERIOD, self->period);
  gst_rtp_burst_stats_set_string (s, GST_RTP_BURST_STAT_FRAME_PERIOD_SOURCE,
      rtp_burst_period_source_name (self->period_source));
  SET_UINT (PAYLOAD_SIZE, self->payload_size ? self->payload_size :
      self->max_payload);
  SET_U64 (SLOT_DURATION, self->last_slot_duration);
  SET_UINT (EFFECTIVE_BURST_SIZE, self->last_burst_size);
  SET_U64 (MIN_SLOT_DURATION, min_slot_locked (self));
  SET_U64 (UNPACED_FRAMES, self->num_unpaced);
  SET_U64 (CATCH_UP_FRAMES, self->num_catch_up);
  SET_U64 (TIMEOUT_FRAMES, self->num_timeout_frames);
  SET_U64 (LATE_SLOTS, self->num_late_slots);
  SET_U64 (MAX_LATENESS, self->max_lateness);
  SET_U64 (INVALID_PACKETS, self->num_invalid);
  SET_U64 (FLUSHED_PACKETS, self->num_flushed);
  SET_UINT (QUEUED_PACKETS, self->n_queued_packets);
  SET_UINT (QUEUED_FRAMES, self->n_closed);
  SET_U64 (MAX_RATE, max_rate_locked (self));
  SET_U64 (MEAN_RATE, rtp_burst_rate_meter_get (&self->rate_meter,
          self->period));
  SET_U64 (SPREAD_FRAMES, self->num_spread);
  SET_U64 (COMPRESSED_FRAMES, self->num_compressed);
  SET_U64 (MAX_BACKLOG, self->max_backlog);
  SET_U64 (DROPPED_FRAMES, self->num_dropped_frames);
  SET_U64 (DROPPED_PACKETS, self->num_dropped_packets);
  SET_U64 (KEY_UNIT_REQUESTS, self->num_key_unit_requests);
  gst_rtp_burst_stats_set_int (s, GST_RTP_BURST_STAT_REALTIME_PRIORITY,
      self->thread.rt_applied);
  SET_U64 (SINK_LATENCY, self->sink_hold.offset);
  SET_U64 (HELD_SLOTS, self->sink_hold.n_held);
  SET_U64 (MARGIN, self->auto_margin ? self->margin.margin : 0);
  SET_U64 (MARGIN_FRAMES, self->num_margin_frames);
  SET_UINT (GROUP_MEMBERS, rtp_burst_group_member_n_members (&self->group));
  SET_U64 (GROUP_FRAMES, self->group.frames);
  SET_U64 (GROUP_SHARED_SLOTS, self->group.shared_slots);
  SET_U64 (GROUP_PHASE, self->group.last_phase);
  SET_U64 (GROUP_GAP, self->group.last_gap);
  SET_U64 (GROUP_BUSY, self->group.busy);
  SET_U64 (GROUP_OTHER_CLOCK, self->group.other_clock);
  SET_U64 (REPAIR_PACKETS, self->repair.n_released);
  SET_U64 (REPAIR_BYTES, self->repair.bytes_released);
  SET_U64 (REPAIR_OVERRUNS, self->repair.n_overrun);
  SET_U64 (REPAIR_MAX_DELAY, self->repair.max_delay);
  SET_UINT (REPAIR_QUEUED, rtp_burst_repair_queued (&self->repair));
  rtp_burst_meter_report (&self->meter, &meter);
  SET_U64 (PEAK_RATE_1MS, meter.peak_rate_1ms);
  SET_U64 (PEAK_RATE_10MS, meter.peak_rate_10ms);
  SET_U64 (RELEASE_ERROR_P50, meter.error_p50);
  SET_U64 (RELEASE_ERROR_P99, meter.error_p99);
  SET_U64 (RELEASE_ERROR_MAX, meter.error_max);
  SET_U64 (GAP_P1, meter.gap_p1);
  SET_U64 (GAP_P50, meter.gap_p50);
  SET_U64 (GAP_P99, meter.gap_p99);
  SET_U64 (FRAMES_OVER_PERIOD, meter.late_frames);
  SET_UINT (MAX_FRAME_END, meter.max_frame_end_permille);
  gst_rtp_burst_pay_info_add_stats (&self->pay_info, s);
  return s;
}

#undef SET_U64
#undef SET_UINT

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

  LOCK (self);
  switch (prop_id) {
    case PROP_BURST_SIZE:
      self->burst_size = g_value_get_uint (value);
      break;
    case PROP_DUTY:
      self->duty = g_value_get_double (value);
      break;
    case PROP_SLOT_JITTER:
      self->slot_jitter = g_value_get_double (value);
      break;
    case PROP_SEED:
      self->seed = g_value_get_uint (value);
      reseed_locked (self);
      break;
    case PROP_FRAME_PERIOD:
      self->frame_period = g_value_get_uint64 (value);
      update_period_locked (self);
      break;
    case PROP_PAYLOAD_SIZE:
      self->payload_size = g_value_get_uint (value);
      break;
    case PROP_MIN_SLOT_DURATION:
      self->min_slot_duration = g_value_get_uint64 (value);
      break;
    case PROP_SYNC_UPSTREAM_LATENCY:
      self->sync_upstream_latency = g_value_get_boolean (value);
      break;
    case PROP_MAX_RATE:
      self->max_rate = g_value_get_uint64 (value);
      break;
    case PROP_MAX_RATE_FACTOR:
      self->max_rate_factor = g_value_get_double (value);
      break;
    case PROP_MAX_LATENCY:
      self->max_latency = g_value_get_uint64 (value);
      break;
    case PROP_OVERLOAD:
      self->overload = g_value_get_enum (value);
      break;
    case PROP_TIMER_SLACK:
      self->timer_slack = g_value_get_uint64 (value);
      break;
    case PROP_REALTIME_PRIORITY:
      self->realtime_priority = g_value_get_int (value);
      /* try again, and warn about that try */
      gst_rtp_burst_thread_priority_changed (&self->thread);
      break;
    case PROP_AUTO_MARGIN:
      self->auto_margin = g_value_get_boolean (value);
      break;
    case PROP_GROUP:
      /* taken from READY to PAUSED: refused later, so that the property
       * says which group is in force */
      if (group_is_fixed (self)) {
        g_free (self->refused_group);
        self->refused_group = g_value_dup_string (value);
        if (self->refused_group == NULL)
          self->refused_group = g_strdup ("");
      } else {
        g_free (self->group_name);
        self->group_name = g_value_dup_string (value);
      }
      break;
    case PROP_PACE_REPAIR:
      self->pace_repair = g_value_get_boolean (value);
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
    GstRtpBurstPayProp prop = prop_id - PROP_PAY_FIRST;
    gboolean known = TRUE;

    if (!gst_rtp_burst_pay_compat_forwards (prop)) {
      LOCK (self);
      gst_rtp_burst_pay_info_get (&self->pay_info, prop, value);
      known = prop != GST_RTP_BURST_PAY_PROP_PT ||
          self->pay_info.have_packet || self->pay_info.caps_pt >= 0;
      UNLOCK (self);
    }
    /* pt: the payloader's until packets or caps tell */
    if (gst_rtp_burst_pay_compat_forwards (prop) || !known) {
      g_param_value_set_default (pspec, value);
      gst_rtp_burst_pay_compat_get_upstream (self->sinkpad, prop, value);
    }
    return;
  }

  LOCK (self);
  switch (prop_id) {
    case PROP_BURST_SIZE:
      g_value_set_uint (value, self->burst_size);
      break;
    case PROP_DUTY:
      g_value_set_double (value, self->duty);
      break;
    case PROP_SLOT_JITTER:
      g_value_set_double (value, self->slot_jitter);
      break;
    case PROP_SEED:
      g_value_set_uint (value, self->seed);
      break;
    case PROP_FRAME_PERIOD:
      g_value_set_uint64 (value, self->frame_period);
      break;
    case PROP_PAYLOAD_SIZE:
      g_value_set_uint (value, self->payload_size);
      break;
    case PROP_MIN_SLOT_DURATION:
      g_value_set_uint64 (value, self->min_slot_duration);
      break;
    case PROP_SYNC_UPSTREAM_LATENCY:
      g_value_set_boolean (value, self->sync_upstream_latency);
      break;
    case PROP_MAX_RATE:
      g_value_set_uint64 (value, self->max_rate);
      break;
    case PROP_MAX_RATE_FACTOR:
      g_value_set_double (value, self->max_rate_factor);
      break;
    case PROP_MAX_LATENCY:
      g_value_set_uint64 (value, self->max_latency);
      break;
    case PROP_OVERLOAD:
      g_value_set_enum (value, self->overload);
      break;
    case PROP_TIMER_SLACK:
      g_value_set_uint64 (value, self->timer_slack);
      break;
    case PROP_REALTIME_PRIORITY:
      g_value_set_int (value, self->realtime_priority);
      break;
    case PROP_AUTO_MARGIN:
      g_value_set_boolean (value, self->auto_margin);
      break;
    case PROP_GROUP:
      g_value_set_string (value, self->group_name);
      break;
    case PROP_PACE_REPAIR:
      g_value_set_boolean (value, self->pace_repair);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, create_stats_locked (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  UNLOCK (self);
}
