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

#include "gstrtpburstprops.h"
#include "gstrtpburststats.h"
#include "rtpburstgroup.h"

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

/**
 * GstRtpBurstPaceOverload:
 *
 * What #GstRtpBurstPace:overload does when the rate cap cannot be kept
 * within #GstRtpBurstPace:max-delay: `compress` or `drop`.
 *
 * Since: 0.1
 */
GType
gst_rtp_burst_pace_overload_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {RTP_BURST_OVERLOAD_COMPRESS,
          "Shorten the slots to meet max-delay (the rate cap yields)",
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

/**
 * gst_rtp_burst_pace_install_properties:
 *
 * Installs the properties of rtpburstpace on its class.
 */
void
gst_rtp_burst_pace_install_properties (GObjectClass * gobject_class)
{
  /* MUTABLE_PLAYING where the task reads the value under the element's
   * lock for each frame or wake-up (the config below, the thread
   * settings); MUTABLE_READY where it is taken from READY to PAUSED. */

  /**
   * GstRtpBurstPace:burst-size:
   *
   * b: the number of packets released together in one slot.  1 (the
   * default) gives every packet a slot of its own; larger values make
   * fewer, longer slots of several packets, pushed as one buffer list.
   * Where the slots would be shorter than
   * #GstRtpBurstPace:min-slot-duration the element raises the burst size
   * of that frame (stats `effective-burst-size`).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_BURST_SIZE,
      g_param_spec_uint ("burst-size", "Burst size",
          "Packets per slot (b; 1 = one packet per slot); the last slot of "
          "a frame may carry fewer",
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
   *
   * Since: 0.1
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
   *
   * Since: 0.1
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
   *
   * Since: 0.1
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
   *
   * Since: 0.1
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
   *
   * Since: 0.1
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
   * shorter slots (raw video at high packet rates), the element raises the
   * burst size of that frame until its slots are at least this long,
   * instead of scheduling waits the timer cannot meet; the frame still
   * spreads over duty·ΔT.
   *
   * 0 (the default) is automatic: twice the median wake-up lateness of the
   * element's clock waits, taken anew over each 64 waits, kept within
   * 50 µs … 1 ms, and 100 µs until the first 64.  Any other value is a
   * fixed minimum, so 1 (1 ns, shorter than any slot) means no minimum:
   * every slot keeps #GstRtpBurstPace:burst-size packets and a clock wait
   * of its own, however short.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MIN_SLOT_DURATION,
      g_param_spec_uint64 ("min-slot-duration", "Minimum slot duration",
          "Shortest slot in ns; shorter slots get more packets each "
          "(0 = automatic, from the clock's wake-up lateness; "
          "1 = no minimum, every slot its own wait)",
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
   *
   * Since: 0.1
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
   * as #GstRtpBurstPace:max-delay allows.  0 (default) is off, the
   * paper's behaviour, unless #GstRtpBurstPace:max-rate-factor is set.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RATE,
      g_param_spec_uint64 ("max-rate", "Maximum rate",
          "Peak-rate cap in bit/s of whole RTP packets: frames that would "
          "leave faster are spread beyond their period within max-delay "
          "(0 = off)",
          0, MAX_MAX_RATE, DEFAULT_MAX_RATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-rate-factor:
   *
   * Derives the peak-rate cap from the stream: this factor times its mean
   * bit rate over the last 64 frames, from the 32nd frame on (no cap
   * before).  Used when #GstRtpBurstPace:max-rate is 0; 0 (default) is
   * off.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RATE_FACTOR,
      g_param_spec_double ("max-rate-factor", "Maximum rate factor",
          "Peak-rate cap as a multiple of the stream's mean rate over its "
          "last 64 frames, used when max-rate is 0 (0 = off)",
          0.0, 1000.0, DEFAULT_MAX_RATE_FACTOR,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-delay:
   *
   * The rate cap's backlog budget, in ns (1 ms … 10 s): with a peak-rate
   * cap (#GstRtpBurstPace:max-rate, #GstRtpBurstPace:max-rate-factor or
   * #GstRtpBurstPace:congestion-control), the longest a frame's last packet
   * may leave after the frame was due (its timestamp, or its arrival if
   * later).  When the cap would need longer, #GstRtpBurstPace:overload
   * decides.  Without a cap it changes nothing.  It is not the pipeline's
   * latency: the element adds nothing to the LATENCY query's minimum, as a
   * held packet's DTS says when it leaves.  Called max-latency before.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MAX_DELAY,
      g_param_spec_uint64 ("max-delay", "Maximum delay",
          "With a rate cap: the longest a frame's last packet may leave "
          "after the frame was due, in ns (no effect without a cap)",
          GST_MSECOND, MAX_MAX_DELAY, DEFAULT_MAX_DELAY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-latency:
   *
   * The old name of #GstRtpBurstPace:max-delay: the same value, set and
   * read.
   *
   * Since: 0.1
   * Deprecated: 0.1: Use #GstRtpBurstPace:max-delay.
   */
  g_object_class_install_property (gobject_class, PROP_OLD_MAX_LATENCY,
      g_param_spec_uint64 ("max-latency", "Maximum latency (deprecated)",
          "Deprecated name of max-delay (the same value)",
          GST_MSECOND, MAX_MAX_DELAY, DEFAULT_MAX_DELAY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_DEPRECATED |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:overload:
   *
   * What to do when the rate cap cannot be kept within
   * #GstRtpBurstPace:max-delay: compress the frame's slots so that its
   * last packet is just in budget (the cap yields, nothing is lost), or
   * drop whole frames that have not started (never part of a frame), post
   * an element message `rtpburstpace-frame-dropped` and send a
   * force-key-unit event upstream so the encoder recovers.  A frame that
   * alone needs longer than the budget is compressed even with drop.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_OVERLOAD,
      g_param_spec_enum ("overload", "Overload",
          "When the rate cap cannot be kept within max-delay: compress the "
          "slots (the cap yields) or drop whole frames not yet started",
          GST_TYPE_RTP_BURST_PACE_OVERLOAD, DEFAULT_OVERLOAD,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:timer-slack:
   *
   * Linux only: the timer slack, in ns, of the thread that waits for the
   * slots (prctl PR_SET_TIMERSLACK).  Linux lets a normal thread's timer
   * expire up to 50 µs late by default so that wake-ups can be grouped; a
   * smaller slack makes slot wake-ups more punctual (docs/reference.md,
   * "When to change them").  0 leaves the thread as it is.  The thread
   * comes from GStreamer's task pool; its own slack is restored when the
   * task leaves it.  Applied by the task at its next wake-up.
   *
   * Since: 0.1
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
   * that sets it from the task's #GST_MESSAGE_STREAM_STATUS message.  Worth
   * setting at raw-video packet rates or on a loaded machine
   * (docs/reference.md, "When to change them").  The thread never
   * busy-waits.  Applied by the task at its next wake-up.
   *
   * Needs CAP_SYS_NICE or an RLIMIT_RTPRIO (`ulimit -r`) of at least the
   * priority.  If the policy cannot be set, the element posts a warning
   * once and paces at normal priority.  The thread comes from GStreamer's
   * task pool; its own policy is restored when the task leaves it.
   *
   * Since: 0.1
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
   *
   * Since: 0.1
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
   * (never below half the period; gst/rtpburstmargin.h).  Such late slots
   * come from stalls of the machine, for instance while the payloader
   * works on the next frame.  The stats say the margin in use and how many
   * frames it shortened.  FALSE: every frame spans exactly duty·ΔT (for
   * A/B tests).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_AUTO_MARGIN,
      g_param_spec_boolean ("auto-margin", "Automatic margin",
          "Shorten a frame's span (duty is the most) so that it ends "
          "before the late slots that made recent frames end after their "
          "period (FALSE = always duty x the frame period)",
          DEFAULT_AUTO_MARGIN,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:pace-other-payloads:
   *
   * Packets of any payload type other than the caps' `payload` — repair
   * packets, such as rtprtxsend's retransmissions when the element is
   * behind rtpbin — make no frames of their own either way.  TRUE (the
   * default): they leave between the media's slots, at most one per Δt, a
   * backlog spread over half a frame period (gst/rtpburstrepair.h).
   * FALSE: they leave as they come, before the media's next slot.  Called
   * pace-repair before.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_PACE_OTHER_PAYLOADS,
      g_param_spec_boolean ("pace-other-payloads", "Pace other payloads",
          "Spread packets of another payload type than the caps' payload "
          "(e.g. retransmissions) between the media's slots (FALSE = pass "
          "them on as they come)",
          DEFAULT_PACE_OTHER_PAYLOADS,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:pace-repair:
   *
   * The old name of #GstRtpBurstPace:pace-other-payloads: the same value,
   * set and read.
   *
   * Since: 0.1
   * Deprecated: 0.1: Use #GstRtpBurstPace:pace-other-payloads.
   */
  g_object_class_install_property (gobject_class, PROP_OLD_PACE_REPAIR,
      g_param_spec_boolean ("pace-repair", "Pace repair packets (deprecated)",
          "Deprecated name of pace-other-payloads (the same value)",
          DEFAULT_PACE_OTHER_PAYLOADS,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_DEPRECATED |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:pace:
   *
   * FALSE: a pass-through stream — audio, RTCP, anything that must not wait
   * — whose packets leave as they come, in order, with their own
   * timestamps; in a #GstRtpBurstPace:group with a
   * #GstRtpBurstPace:group-max-rate their bytes count in the group's rate
   * (the paced members make room) but never wait for it.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_PACE,
      g_param_spec_boolean ("pace", "Pace",
          "Pace the stream's frames (FALSE: pass packets on as they come, "
          "counted in the group's rate)", DEFAULT_PACE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  gst_rtp_burst_group_install_properties (gobject_class);
  gst_rtp_burst_cc_install_properties (gobject_class);
  gst_rtp_burst_ahead_install_property (gobject_class, PROP_RELEASE_AHEAD);
  gst_rtp_burst_pay_compat_install (gobject_class, PROP_PAY_FIRST);
}

/* The renamed properties: an old name is a second GParamSpec of the same
 * type, range and default, flagged G_PARAM_DEPRECATED, whose value is the
 * new property's. */
static const struct
{
  guint old_id, new_id;
  const gchar *new_name;
} renamed[] = {
  {PROP_OLD_MAX_LATENCY, PROP_MAX_DELAY, "max-delay"},
  {PROP_OLD_PACE_REPAIR, PROP_PACE_OTHER_PAYLOADS, "pace-other-payloads"},
  {PROP_OLD_PRIORITY, PROP_GROUP_PRIORITY, "group-priority"},
};

guint
gst_rtp_burst_props_renamed (GObject * object, guint prop_id,
    GParamSpec ** pspec, guint * warned)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (renamed); i++) {
    if (renamed[i].old_id != prop_id)
      continue;
    if (!(g_atomic_int_or (warned, 1u << i) & (1u << i)))
      GST_WARNING_OBJECT (object, "property '%s' is deprecated: it is now "
          "'%s'", g_param_spec_get_name (*pspec), renamed[i].new_name);
    *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object),
        renamed[i].new_name);
    return renamed[i].new_id;
  }
  return prop_id;
}

/* The stream keeps a pointer to this config and reads it under the
 * element's lock, so a change reaches the next frame it plans. */
void
gst_rtp_burst_config_init (RtpBurstStreamConfig * c)
{
  c->burst_size = DEFAULT_BURST_SIZE;
  c->duty = DEFAULT_DUTY;
  c->slot_jitter = DEFAULT_SLOT_JITTER;
  c->seed = DEFAULT_SEED;
  c->frame_period = DEFAULT_FRAME_PERIOD;
  c->payload_size = DEFAULT_PAYLOAD_SIZE;
  c->min_slot_duration = DEFAULT_MIN_SLOT_DURATION;
  c->sync_upstream_latency = DEFAULT_SYNC_UPSTREAM_LATENCY;
  c->max_rate = DEFAULT_MAX_RATE;
  c->max_rate_factor = DEFAULT_MAX_RATE_FACTOR;
  c->max_latency = DEFAULT_MAX_DELAY;
  c->overload = DEFAULT_OVERLOAD;
  c->auto_margin = DEFAULT_AUTO_MARGIN;
  c->pace_repair = DEFAULT_PACE_OTHER_PAYLOADS;
  c->pace = DEFAULT_PACE;
  c->group_max_rate = DEFAULT_GROUP_MAX_RATE;
  c->priority = DEFAULT_GROUP_PRIORITY;
  c->cc_rate = 0;
  c->release_ahead = DEFAULT_RELEASE_AHEAD;
  c->cc_on = FALSE;
}

gboolean
gst_rtp_burst_config_set (RtpBurstStreamConfig * c, guint prop_id,
    const GValue * value)
{
  switch (prop_id) {
    case PROP_BURST_SIZE:
      c->burst_size = g_value_get_uint (value);
      break;
    case PROP_DUTY:
      c->duty = g_value_get_double (value);
      break;
    case PROP_SLOT_JITTER:
      c->slot_jitter = g_value_get_double (value);
      break;
    case PROP_SEED:
      c->seed = g_value_get_uint (value);
      break;
    case PROP_FRAME_PERIOD:
      c->frame_period = g_value_get_uint64 (value);
      break;
    case PROP_PAYLOAD_SIZE:
      c->payload_size = g_value_get_uint (value);
      break;
    case PROP_MIN_SLOT_DURATION:
      c->min_slot_duration = g_value_get_uint64 (value);
      break;
    case PROP_SYNC_UPSTREAM_LATENCY:
      c->sync_upstream_latency = g_value_get_boolean (value);
      break;
    case PROP_MAX_RATE:
      c->max_rate = g_value_get_uint64 (value);
      break;
    case PROP_MAX_RATE_FACTOR:
      c->max_rate_factor = g_value_get_double (value);
      break;
    case PROP_MAX_DELAY:
      c->max_latency = g_value_get_uint64 (value);
      break;
    case PROP_OVERLOAD:
      c->overload = g_value_get_enum (value);
      break;
    case PROP_AUTO_MARGIN:
      c->auto_margin = g_value_get_boolean (value);
      break;
    case PROP_PACE_OTHER_PAYLOADS:
      c->pace_repair = g_value_get_boolean (value);
      break;
    case PROP_PACE:
      c->pace = g_value_get_boolean (value);
      break;
    case PROP_GROUP_MAX_RATE:
      c->group_max_rate = g_value_get_uint64 (value);
      break;
    case PROP_GROUP_PRIORITY:
      c->priority = g_value_get_uint (value);
      break;
    case PROP_RELEASE_AHEAD:
      c->release_ahead = g_value_get_uint64 (value);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_rtp_burst_config_get (const RtpBurstStreamConfig * c, guint prop_id,
    GValue * value)
{
  switch (prop_id) {
    case PROP_BURST_SIZE:
      g_value_set_uint (value, c->burst_size);
      break;
    case PROP_DUTY:
      g_value_set_double (value, c->duty);
      break;
    case PROP_SLOT_JITTER:
      g_value_set_double (value, c->slot_jitter);
      break;
    case PROP_SEED:
      g_value_set_uint (value, c->seed);
      break;
    case PROP_FRAME_PERIOD:
      g_value_set_uint64 (value, c->frame_period);
      break;
    case PROP_PAYLOAD_SIZE:
      g_value_set_uint (value, c->payload_size);
      break;
    case PROP_MIN_SLOT_DURATION:
      g_value_set_uint64 (value, c->min_slot_duration);
      break;
    case PROP_SYNC_UPSTREAM_LATENCY:
      g_value_set_boolean (value, c->sync_upstream_latency);
      break;
    case PROP_MAX_RATE:
      g_value_set_uint64 (value, c->max_rate);
      break;
    case PROP_MAX_RATE_FACTOR:
      g_value_set_double (value, c->max_rate_factor);
      break;
    case PROP_MAX_DELAY:
      g_value_set_uint64 (value, c->max_latency);
      break;
    case PROP_OVERLOAD:
      g_value_set_enum (value, c->overload);
      break;
    case PROP_AUTO_MARGIN:
      g_value_set_boolean (value, c->auto_margin);
      break;
    case PROP_PACE_OTHER_PAYLOADS:
      g_value_set_boolean (value, c->pace_repair);
      break;
    case PROP_PACE:
      g_value_set_boolean (value, c->pace);
      break;
    case PROP_GROUP_MAX_RATE:
      g_value_set_uint64 (value, c->group_max_rate);
      break;
    case PROP_GROUP_PRIORITY:
      g_value_set_uint (value, c->priority);
      break;
    case PROP_RELEASE_AHEAD:
      g_value_set_uint64 (value, c->release_ahead);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}
