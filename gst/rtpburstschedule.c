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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtpburstschedule.h"

/**
 * rtp_burst_slot_count:
 * @payload_bytes: f_i, the sum of the RTP payload sizes of the frame
 * @n_packets: n_i, the number of packets of the frame
 * @payload_size: p, the nominal RTP payload length (0 = unknown)
 * @burst_size: b, packets per slot
 *
 * Equation (2): k_i = C(f_i / (p * b)), but never fewer than C(n_i / b) so
 * that no slot carries more than b packets.  With full-size payloads
 * (f_i = n_i * p) the two agree.  With p the largest payload seen so far
 * (the automatic setting) f_i <= n_i * p, so k_i = C(n_i / b).
 *
 * Returns: the number of slots, 0 for an empty frame.
 */
guint
rtp_burst_slot_count (guint64 payload_bytes, guint n_packets,
    guint payload_size, guint burst_size)
{
  guint64 k, k_bytes, per_slot;

  if (n_packets == 0)
    return 0;
  if (burst_size == 0)
    burst_size = 1;

  k = ((guint64) n_packets + burst_size - 1) / burst_size;
  if (payload_size > 0) {
    per_slot = payload_size * (guint64) burst_size;
    k_bytes = payload_bytes / per_slot + (payload_bytes % per_slot ? 1 : 0);
    if (k_bytes > k)
      k = k_bytes;
  }
  return (guint) MIN (k, G_MAXUINT);
}

/**
 * rtp_burst_span:
 * @period: the frame period ΔT in ns
 * @duty: the duty factor, clamped to 0..1
 *
 * Returns: ΔT * duty rounded to the nearest ns.
 */
guint64
rtp_burst_span (guint64 period, gdouble duty)
{
  if (!(duty > 0.0))            /* also NaN */
    return 0;
  if (duty >= 1.0)
    return period;
  return (guint64) ((gdouble) period * duty + 0.5);
}

/**
 * rtp_burst_parse_framerate:
 * @str: the value of an SDP a-framerate attribute as payloaders put it in
 *   caps: "25", "29.970029970029969" or "30000/1001"
 *
 * Returns: the frame period in ns, or 0 if @str is not a usable frame rate.
 */
guint64
rtp_burst_parse_framerate (const gchar * str)
{
  gchar *end = NULL;
  gdouble fps, den;
  gdouble period;

  if (str == NULL)
    return 0;

  fps = g_ascii_strtod (str, &end);
  if (end == str)
    return 0;
  while (*end == ' ')
    end++;
  if (*end == '/') {
    const gchar *den_str = end + 1;
    den = g_ascii_strtod (den_str, &end);
    if (end == den_str || !(den > 0.0))
      return 0;
    fps /= den;
  }
  while (*end == ' ')
    end++;
  if (*end != '\0' || !isfinite (fps) || !(fps > 0.0))
    return 0;

  period = 1e9 / fps;
  if (!(period >= (gdouble) RTP_BURST_MIN_PERIOD) ||
      !(period <= (gdouble) RTP_BURST_MAX_PERIOD))
    return 0;
  return (guint64) (period + 0.5);
}

/**
 * rtp_burst_classify_packet:
 *
 * Frame grouping: consecutive packets with the same RTP timestamp form a
 * frame; a packet with another timestamp closes the open frame before it is
 * added, and the marker bit closes the frame after its packet.
 */
RtpBurstPacketAction
rtp_burst_classify_packet (gboolean frame_open, guint32 open_rtptime,
    guint32 rtptime, gboolean marker)
{
  RtpBurstPacketAction action = RTP_BURST_PACKET_ADD;

  if (frame_open && rtptime != open_rtptime)
    action |= RTP_BURST_PACKET_CLOSE_BEFORE;
  if (marker)
    action |= RTP_BURST_PACKET_CLOSE_AFTER;
  return action;
}

const gchar *
rtp_burst_period_source_name (RtpBurstPeriodSource source)
{
  switch (source) {
    case RTP_BURST_PERIOD_PROPERTY:
      return "property";
    case RTP_BURST_PERIOD_CAPS:
      return "caps";
    case RTP_BURST_PERIOD_RTPTIME:
      return "rtp-timestamps";
    case RTP_BURST_PERIOD_ARRIVAL:
      return "arrival";
    case RTP_BURST_PERIOD_UNKNOWN:
    default:
      return "unknown";
  }
}

void
rtp_burst_period_estimator_init (RtpBurstPeriodEstimator * est)
{
  memset (est, 0, sizeof (*est));
  est->last_arrival = RTP_BURST_TIME_NONE;
}

/* Forget the frames seen so far, keep what the caps said. */
void
rtp_burst_period_estimator_reset_history (RtpBurstPeriodEstimator * est)
{
  guint64 caps_period = est->caps_period;
  gint clock_rate = est->clock_rate;

  rtp_burst_period_estimator_init (est);
  est->caps_period = caps_period;
  est->clock_rate = clock_rate;
}

void
rtp_burst_period_estimator_set_caps (RtpBurstPeriodEstimator * est,
    guint64 caps_period, gint clock_rate)
{
  if (clock_rate < 0)
    clock_rate = 0;
  if (clock_rate != est->clock_rate) {
    est->have_rtptime = FALSE;
    est->n_ts_diffs = est->ts_pos = 0;
  }
  est->caps_period = caps_period;
  est->clock_rate = clock_rate;
}

static guint64
rtptime_to_ns (guint32 diff, gint clock_rate)
{
  return ((guint64) diff * G_GUINT64_CONSTANT (1000000000) + clock_rate / 2) /
      (guint64) clock_rate;
}

/**
 * rtp_burst_period_estimator_add_frame:
 * @rtptime: the RTP timestamp of the frame
 * @arrival: when its first packet arrived, RTP_BURST_TIME_NONE if unknown
 *
 * Records one complete frame.  Only positive timestamp differences are kept
 * (with 32-bit wrap-around), so B-frames sent in decoding order, whose
 * timestamps go backwards, and dropped frames, which give multiples of the
 * period, do not disturb the smallest difference.
 */
void
rtp_burst_period_estimator_add_frame (RtpBurstPeriodEstimator * est,
    guint32 rtptime, guint64 arrival)
{
  if (est->have_rtptime) {
    gint32 diff = (gint32) (rtptime - est->last_rtptime);

    if (diff > 0 && est->clock_rate > 0) {
      guint64 ns = rtptime_to_ns ((guint32) diff, est->clock_rate);

      if (ns >= RTP_BURST_MIN_PERIOD && ns <= RTP_BURST_MAX_PERIOD) {
        est->ts_diffs[est->ts_pos] = (guint32) diff;
        est->ts_pos = (est->ts_pos + 1) % RTP_BURST_ESTIMATOR_WINDOW;
        if (est->n_ts_diffs < RTP_BURST_ESTIMATOR_WINDOW)
          est->n_ts_diffs++;
      }
    }
  }
  est->have_rtptime = TRUE;
  est->last_rtptime = rtptime;

  if (arrival != RTP_BURST_TIME_NONE) {
    guint64 last = est->last_arrival;

    if (last != RTP_BURST_TIME_NONE && arrival > last) {
      guint64 d = arrival - last;

      if (d >= RTP_BURST_MIN_PERIOD && d <= RTP_BURST_MAX_PERIOD) {
        est->arrival_diffs[est->arrival_pos] = d;
        est->arrival_pos = (est->arrival_pos + 1) % RTP_BURST_ESTIMATOR_WINDOW;
        if (est->n_arrival_diffs < RTP_BURST_ESTIMATOR_WINDOW)
          est->n_arrival_diffs++;
      }
    }
    est->last_arrival = arrival;
  }
}

static int
compare_guint64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Arrival spacing needs this many differences before it is trusted. */
#define MIN_ARRIVAL_DIFFS 3

/**
 * rtp_burst_period_estimator_get:
 * @property_period: the frame-period property, 0 = automatic
 * @source: (out) (optional): where the period came from
 *
 * Returns: the frame period in ns, 0 if it is not known yet.  In order of
 * preference: the property; the caps' a-framerate; the smallest positive
 * difference of RTP timestamps of consecutive frames over the last
 * RTP_BURST_ESTIMATOR_WINDOW frames; the median spacing of frame arrivals.
 */
guint64
rtp_burst_period_estimator_get (const RtpBurstPeriodEstimator * est,
    guint64 property_period, RtpBurstPeriodSource * source)
{
  RtpBurstPeriodSource src = RTP_BURST_PERIOD_UNKNOWN;
  guint64 period = 0;

  if (property_period > 0) {
    src = RTP_BURST_PERIOD_PROPERTY;
    period = property_period;
  } else if (est->caps_period > 0) {
    src = RTP_BURST_PERIOD_CAPS;
    period = est->caps_period;
  } else if (est->clock_rate > 0 && est->n_ts_diffs > 0) {
    guint32 min = G_MAXUINT32;
    guint i;

    for (i = 0; i < est->n_ts_diffs; i++)
      min = MIN (min, est->ts_diffs[i]);
    src = RTP_BURST_PERIOD_RTPTIME;
    period = rtptime_to_ns (min, est->clock_rate);
  } else if (est->n_arrival_diffs >= MIN_ARRIVAL_DIFFS) {
    guint64 sorted[RTP_BURST_ESTIMATOR_WINDOW];

    memcpy (sorted, est->arrival_diffs,
        est->n_arrival_diffs * sizeof (guint64));
    qsort (sorted, est->n_arrival_diffs, sizeof (guint64), compare_guint64);
    src = RTP_BURST_PERIOD_ARRIVAL;
    period = sorted[est->n_arrival_diffs / 2];
  }

  if (source)
    *source = src;
  return period;
}

/**
 * rtp_burst_plan_start:
 * @sync_time: when the frame is due (the running time of its timestamp),
 *   or RTP_BURST_TIME_NONE if unknown
 * @ready_time: when the frame was complete, or RTP_BURST_TIME_NONE
 * @now: the current time
 * @prev_end: the end of the previous frame's slots, or RTP_BURST_TIME_NONE
 * @span: duty * ΔT for this frame
 * @out: (out): where the first slot goes and what span to use
 *
 * A frame is due at max (sync time, time it was complete): when it is due
 * by its timestamp, or when it arrived if that was later.  Its first slot
 * is at that time, and never before the previous frame's slots have ended.
 * The slot grid keeps that anchor even if the caller gets to the frame a
 * little later (the wake-up of a thread), so later slots are not shifted by
 * it; only when the caller is more than RTP_BURST_START_TOLERANCE late does
 * the frame start now.
 *
 * A frame that the previous frame's slots held back past its due time
 * (frames come faster than they can be paced, a backlog) is late by the
 * difference.  Its span is shortened by that lateness, down to half of
 * @span, so that the delay shrinks instead of growing, and the half keeps a
 * backlog from leaving as a burst.  Unused time is never carried over: an
 * early frame simply waits for its sync time.
 */
void
rtp_burst_plan_start (guint64 sync_time, guint64 ready_time, guint64 now,
    guint64 prev_end, guint64 span, RtpBurstStart * out)
{
  guint64 due = ready_time, start, shorten;

  if (due == RTP_BURST_TIME_NONE || due > now)
    due = now;
  if (sync_time != RTP_BURST_TIME_NONE && sync_time > due)
    due = sync_time;

  out->due = due;
  start = due;
  if (prev_end != RTP_BURST_TIME_NONE && prev_end > start)
    start = prev_end;
  out->lateness = start - due;

  if (now > rtp_burst_time_add (start, RTP_BURST_START_TOLERANCE))
    start = now;
  out->start = start;

  shorten = MIN (out->lateness, span / 2);
  out->span = span - shorten;
  out->catch_up = shorten > 0;
}

void
rtp_burst_plan_init (RtpBurstPlan * plan, guint64 start, guint64 span,
    guint64 period, guint n_packets, guint n_slots, guint burst_size,
    gdouble slot_jitter)
{
  memset (plan, 0, sizeof (*plan));
  plan->start = start;
  plan->span = span;
  plan->period = MAX (period, span);
  plan->n_packets = n_packets;
  plan->burst_size = MAX (burst_size, 1);
  /* Δt = 0 (duty 0): the whole frame is one burst, b_i = n_i */
  if (span == 0)
    plan->burst_size = MAX (n_packets, 1);
  /* at least enough slots for all packets: j < k for every slot used */
  plan->n_slots = MAX (n_slots, rtp_burst_slot_count (0, n_packets, 0,
          plan->burst_size));
  plan->n_slots = MAX (plan->n_slots, 1);
  plan->slot_jitter = CLAMP (slot_jitter, 0.0, 1.0);
}

/* floor (x * j / k) without overflow for x < 2^64, j, k < 2^32 */
static guint64
scale_floor (guint64 x, guint j, guint k)
{
  return (x / k) * j + ((x % k) * j) / k;
}

/**
 * rtp_burst_plan_next:
 * @plan: a plan
 * @rand: random numbers for equation (3), used only if the plan has jitter
 * @slot_time: (out): when the slot starts
 * @n_packets: (out): how many packets it releases (at most b)
 *
 * Slot j releases packets j*b ... j*b+b-1.  Without jitter slot j starts at
 * start + phase + floor (span * j / k), so the offsets are exact and never
 * drift (the phase is 0 unless a group placed the frame, rtpburstgroup.h).
 * With jitter r, slot j-1 lasts Δt * (1 + U(-r, r)) (equation (3)), and the
 * offsets are capped at floor (ΔT * j / k), the slot grid of duty 1, so the
 * frame's last slot always ends within ΔT of its first.
 *
 * Returns: FALSE when all packets of the frame have been released.
 */
gboolean
rtp_burst_plan_next (RtpBurstPlan * plan, GRand * rand, guint64 * slot_time,
    guint * n_packets)
{
  guint j = plan->next_slot;
  guint64 first = (guint64) j * plan->burst_size;

  if (first >= plan->n_packets)
    return FALSE;

  if (j == 0) {
    plan->offset = 0;
  } else if (plan->slot_jitter > 0.0 && rand != NULL) {
    gdouble dt = (gdouble) plan->span / plan->n_slots;
    gdouble u = g_rand_double_range (rand, -plan->slot_jitter,
        plan->slot_jitter);
    guint64 limit = scale_floor (plan->period, j, plan->n_slots);
    guint64 offset = plan->offset + (guint64) (dt * (1.0 + u) + 0.5);

    plan->offset = MIN (offset, limit);
  } else {
    plan->offset = rtp_burst_plan_slot_offset (plan, j);
  }

  *slot_time = rtp_burst_time_add (rtp_burst_time_add (plan->start,
          plan->phase), plan->offset);
  *n_packets = (guint) MIN ((guint64) plan->burst_size,
      (guint64) plan->n_packets - first);
  plan->next_slot++;
  return TRUE;
}

/* The nominal offset of slot j from start + phase: floor (span * j / k). */
guint64
rtp_burst_plan_slot_offset (const RtpBurstPlan * plan, guint j)
{
  return scale_floor (plan->span, j, plan->n_slots);
}

/* How many slots release packets: ceil (n / b), at most k. */
guint
rtp_burst_plan_used_slots (const RtpBurstPlan * plan)
{
  return (guint) (((guint64) plan->n_packets + plan->burst_size - 1) /
      plan->burst_size);
}

/* When the plan's slots end: what the next frame may not start before. */
guint64
rtp_burst_plan_end (const RtpBurstPlan * plan)
{
  return rtp_burst_time_add (plan->start, plan->span);
}

/* The nominal slot duration Δt = span / k of the plan. */
guint64
rtp_burst_plan_slot_duration (const RtpBurstPlan * plan)
{
  return plan->span / plan->n_slots;
}

/**
 * rtp_burst_latency:
 *
 * The most a packet can be held after its frame's first slot: ΔT * duty
 * plus the margin of equation (3), and never more than ΔT.
 */
guint64
rtp_burst_latency (guint64 period, gdouble duty, gdouble slot_jitter)
{
  guint64 span = rtp_burst_span (period, duty);
  gdouble with_jitter = (gdouble) span * (1.0 + CLAMP (slot_jitter, 0.0, 1.0));

  if (with_jitter >= (gdouble) period)
    return period;
  return (guint64) (with_jitter + 0.5);
}

/**
 * rtp_burst_coarsen:
 * @n_packets: packets of the frame
 * @span: the span its slots are spread over
 * @min_slot: the shortest slot worth waiting for, 0 = no limit
 * @n_slots: (inout): k from equation (2); reduced if the slots are too short
 * @burst_size: b
 *
 * Slots shorter than @min_slot ask for clock waits the timer cannot meet
 * (raw video at Gbit/s has slots of ~10 µs).  Then b is raised to the
 * smallest value that makes the slots at least @min_slot long, and k to
 * ⌈n / b⌉ so that the frame still spreads over the whole span.
 *
 * Returns: the effective b.
 */
guint
rtp_burst_coarsen (guint n_packets, guint64 span, guint64 min_slot,
    guint * n_slots, guint burst_size)
{
  guint64 k_max;
  guint b;

  burst_size = MAX (burst_size, 1);
  if (min_slot == 0 || span == 0 || n_packets == 0 || *n_slots == 0 ||
      span / *n_slots >= min_slot)
    return burst_size;

  k_max = MAX (span / min_slot, 1);
  b = (guint) MAX ((guint64) burst_size, (n_packets + k_max - 1) / k_max);
  *n_slots = (n_packets + b - 1) / b;
  return b;
}

void
rtp_burst_wakeup_tracker_init (RtpBurstWakeupTracker * tracker)
{
  memset (tracker, 0, sizeof (*tracker));
  tracker->auto_min_slot = RTP_BURST_AUTO_MIN_SLOT_INITIAL;
}

guint64
rtp_burst_wakeup_tracker_min_slot (const RtpBurstWakeupTracker * tracker)
{
  return tracker->auto_min_slot;
}

/**
 * rtp_burst_wakeup_tracker_add:
 * @lateness: how late a clock wait woke up, ns
 *
 * Every RTP_BURST_WAKEUP_WINDOW wake-ups, the automatic minimum slot
 * duration becomes twice their median lateness, within
 * RTP_BURST_AUTO_MIN_SLOT_FLOOR … RTP_BURST_AUTO_MIN_SLOT_CEILING.  The
 * median ignores the rare long preemptions of virtual CPUs.
 */
void
rtp_burst_wakeup_tracker_add (RtpBurstWakeupTracker * tracker, guint64 lateness)
{
  guint64 sorted[RTP_BURST_WAKEUP_WINDOW], value;

  tracker->ring[tracker->pos++] = lateness;
  if (tracker->pos < RTP_BURST_WAKEUP_WINDOW)
    return;
  tracker->pos = 0;

  memcpy (sorted, tracker->ring, sizeof (sorted));
  qsort (sorted, RTP_BURST_WAKEUP_WINDOW, sizeof (guint64), compare_guint64);
  value = 2 * sorted[RTP_BURST_WAKEUP_WINDOW / 2];
  tracker->auto_min_slot = CLAMP (value, RTP_BURST_AUTO_MIN_SLOT_FLOOR,
      RTP_BURST_AUTO_MIN_SLOT_CEILING);
}

/**
 * rtp_burst_rate_span:
 * @bytes: bytes of a frame's packets
 * @max_rate: a bit rate, bit/s
 *
 * Returns: how long @bytes take at @max_rate, in ns rounded up; 0 if there
 * is no cap.
 */
guint64
rtp_burst_rate_span (guint64 bytes, guint64 max_rate)
{
  gdouble ns;

  if (max_rate == 0)
    return 0;
  ns = ceil ((gdouble) bytes * 8e9 / (gdouble) max_rate);
  return ns >= (gdouble) (RTP_BURST_TIME_NONE - 1) ?
      RTP_BURST_TIME_NONE - 1 : (guint64) ns;
}

/* the offset of the last of k slots over span */
static guint64
last_offset (guint64 span, guint k)
{
  return k > 1 ? scale_floor (span, k - 1, k) : 0;
}

/**
 * rtp_burst_apply_limits:
 * @limits: the cap, the budget and what to do when the budget is short
 * @bytes: the frame's bytes (whole RTP packets)
 * @n_slots: its k
 * @start: (inout): from rtp_burst_plan_start (); the span is changed
 * @result: (out): what happened
 *
 * The peak-rate cap spreads a frame that would be sent faster than
 * @limits->max_rate over longer than duty·ΔT (the frames behind it wait
 * in order); the slots stay even.  The budget bounds how long after its
 * due time (its timestamp, or its arrival if later) the frame's last slot
 * may be.  When the frame would miss it, it is either compressed — its
 * span shortened so that the last slot is just in budget, the cap yields —
 * or, with RTP_BURST_OVERLOAD_DROP, dropped, but only if it would meet the
 * budget on its own: a frame that alone needs longer than the budget is
 * compressed, since dropping it would not let anything through.
 *
 * Returns: whether to send or to drop the frame.
 */
RtpBurstLimitDecision
rtp_burst_apply_limits (const RtpBurstLimits * limits, guint64 bytes,
    guint n_slots, RtpBurstStart * start, RtpBurstLimitResult * result)
{
  guint64 cap_span, wait, need, allowed;
  guint k = MAX (n_slots, 1);

  memset (result, 0, sizeof (*result));

  cap_span = rtp_burst_rate_span (bytes, limits->max_rate);
  if (cap_span > start->span) {
    start->span = cap_span;
    result->spread = TRUE;
  }

  wait = start->start > start->due ? start->start - start->due : 0;
  need = last_offset (start->span, k);
  result->backlog = rtp_burst_time_add (wait, need);
  if (limits->budget == 0 || result->backlog <= limits->budget) {
    /* a frame of one slot leaves at once: what the cap spreads is the
     * wait of the frames behind it, which compress keeps within the
     * budget too (else a stream of such frames, audio, would queue
     * without bound under a cap below its rate) */
    if (k == 1 && result->spread && limits->overload != RTP_BURST_OVERLOAD_DROP
        && rtp_burst_time_add (wait, start->span) > limits->budget) {
      start->span = limits->budget - wait;
      result->compressed = TRUE;
    }
    return RTP_BURST_LIMIT_SEND;
  }

  if (limits->overload == RTP_BURST_OVERLOAD_DROP && need <= limits->budget)
    return RTP_BURST_LIMIT_DROP;

  /* compress: the last slot just in budget (or now, if the wait alone
   * has used it up) */
  allowed = limits->budget > wait ? limits->budget - wait : 0;
  if (k > 1) {
    guint64 span = scale_floor (allowed, k, k - 1);

    /* scale_floor can round the last offset one ns below allowed */
    if (span < start->span) {
      start->span = span;
      result->compressed = TRUE;
    }
  } else if (result->spread && allowed < start->span) {
    /* one slot, late already: the frames behind it need not wait more */
    start->span = allowed;
    result->compressed = TRUE;
  }
  result->backlog = rtp_burst_time_add (wait, last_offset (start->span, k));
  return RTP_BURST_LIMIT_SEND;
}

void
rtp_burst_rate_meter_init (RtpBurstRateMeter * meter)
{
  memset (meter, 0, sizeof (*meter));
}

void
rtp_burst_rate_meter_add (RtpBurstRateMeter * meter, guint64 bytes)
{
  if (meter->n == RTP_BURST_RATE_WINDOW)
    meter->sum -= meter->bytes[meter->pos];
  else
    meter->n++;
  meter->bytes[meter->pos] = bytes;
  meter->sum += bytes;
  meter->pos = (meter->pos + 1) % RTP_BURST_RATE_WINDOW;
}

/**
 * rtp_burst_rate_meter_get:
 * @period: the frame period ΔT
 *
 * Returns: the mean bit rate of the last frames, bit/s, or 0 until half a
 * window of frames has been seen (or without a period).
 */
guint64
rtp_burst_rate_meter_get (const RtpBurstRateMeter * meter, guint64 period)
{
  if (period == 0 || meter->n < RTP_BURST_RATE_WINDOW / 2)
    return 0;
  return (guint64) ((gdouble) meter->sum * 8e9 /
      ((gdouble) meter->n * (gdouble) period));
}

guint64
rtp_burst_plan_start_time (const RtpBurstPlan * plan)
{
  return plan->start;
}

guint
rtp_burst_plan_burst_size (const RtpBurstPlan * plan)
{
  return plan->burst_size;
}

guint64
rtp_burst_plan_phase (const RtpBurstPlan * plan)
{
  return plan->phase;
}
