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
 * libFuzzer target for the schedule unit (gst/rtpburstschedule.c), driven
 * directly: the input is a sequence of operations, each an opcode byte and
 * its operands (see the OP_* list; bytes past the end read as 0).  The
 * operations replay what the element does with a stream (packets, frame
 * closes, caps, property changes, time passing, first-slot and slot
 * computation) and also call the unit's functions with arbitrary arguments.
 *
 * Invariants, checked with abort ():
 *  - frame grouping: CLOSE_BEFORE iff a frame is open and the timestamp
 *    differs, CLOSE_AFTER iff the marker bit;
 *  - slot count: 0 iff no packets, >= ceil (n / b), >= ceil (f / (p b))
 *    unless capped at G_MAXUINT;
 *  - a-framerate: 0 or within [RTP_BURST_MIN_PERIOD, RTP_BURST_MAX_PERIOD];
 *  - estimator: the property if set, else 0 or within the same range;
 *  - first slot: due = max (sync time, min (ready, now)), anchored at
 *    max (due, previous end), started now only when more than
 *    RTP_BURST_START_TOLERANCE late; never before the sync time or the
 *    previous end; lateness = anchor - due shortens the span by
 *    min (lateness, span / 2);
 *  - slots: times non-decreasing and not wrapped around, every packet
 *    released exactly once (sum of n_packets == n), no slot carries more
 *    than b packets (the whole frame with span 0), as many slots as
 *    ceil (n / b), every offset below the period (0 for the first slot);
 *  - latency: at most the period and at least the span;
 * plus AddressSanitizer and UndefinedBehaviorSanitizer (integer overflow
 * in signed arithmetic, float-to-integer overflow, shifts, ...).
 */

#include <math.h>
#include <float.h>

#include "fuzz-input.h"
#include "rtpburstschedule.h"

/* Keeps one iteration fast: a plan of more slots than this is checked
 * only up to here (its slot count is still checked arithmetically). */
#define MAX_SLOTS_WALKED (1u << 17)
/* Packets added plus slots walked per input; big frames and plans are cut
 * down to what is left, so that an iteration stays in the millisecond
 * range while a frame can still reach the 65536-packet bound. */
#define WORK_BUDGET (200000u)
static guint work_left;

static guint
take_work (guint want)
{
  guint n = MIN (want, work_left);

  work_left -= n;
  return n;
}
/* The element closes a frame at this many packets. */
#define MAX_FRAME_PACKETS 65536

/* RTPBURSTPACE_FUZZ_AVOID=plan-wrap (comma-separated list) keeps the
 * fuzzer away from a bug that has been reported but not fixed yet, so that
 * a long run can look for others: all times are kept below 2^63 (292 years
 * of running time), where start + offset cannot wrap around.  See
 * tests/fuzz/README.md. */
static gboolean avoid_plan_wrap;
#define AVOID_WRAP_LIMIT (G_GUINT64_CONSTANT (1) << 63)

static guint64
avoid_wrap (guint64 t)
{
  return avoid_plan_wrap ? MIN (t, AVOID_WRAP_LIMIT) : t;
}

enum
{
  OP_PACKET = 0,
  OP_PACKETS,                   /* many packets of one frame at once */
  OP_CLOSE,
  OP_CAPS,
  OP_PROPERTY,
  OP_TIME,
  OP_PLAN_START,                /* rtp_burst_plan_start, arbitrary */
  OP_PLAN,                      /* rtp_burst_plan_init/next, arbitrary */
  OP_SLOT_COUNT,
  OP_FRAMERATE,                 /* rtp_burst_parse_framerate only */
  OP_RESET_HISTORY,
  OP_ESTIMATOR_FRAME,           /* add_frame with arbitrary arrival */
  OP_LATENCY,
  N_OPS
};

typedef struct
{
  RtpBurstPeriodEstimator est;
  GRand *rand;

  /* properties */
  guint burst_size;
  gdouble duty, slot_jitter;
  guint64 frame_period;
  guint payload_size;

  /* the open frame */
  gboolean open;
  guint32 open_rtptime;
  guint n_packets;
  guint64 payload_bytes;
  guint64 first_arrival;

  guint32 last_rtptime;
  guint max_payload;
  guint64 now;
  guint64 prev_end;
} Model;

/* --- checks ------------------------------------------------------------- */

static void
check_period (guint64 period, const gchar * what)
{
  FUZZ_CHECK (period == 0 || (period >= RTP_BURST_MIN_PERIOD &&
          period <= RTP_BURST_MAX_PERIOD), "%s gave a period of %"
      G_GUINT64_FORMAT " ns", what, period);
}

static guint
checked_slot_count (guint64 payload_bytes, guint n, guint p, guint b)
{
  guint k = rtp_burst_slot_count (payload_bytes, n, p, b);
  guint64 beff = b ? b : 1;
  guint64 k_n = ((guint64) n + beff - 1) / beff;

  FUZZ_CHECK ((k == 0) == (n == 0), "k = %u for n = %u", k, n);
  FUZZ_CHECK (k >= k_n, "k = %u < ceil (n / b) = %" G_GUINT64_FORMAT
      " (n %u, b %u)", k, k_n, n, b);
  if (p > 0 && n > 0 && k < G_MAXUINT) {
    guint64 per = (guint64) p * beff;
    guint64 k_f = payload_bytes / per + (payload_bytes % per ? 1 : 0);

    FUZZ_CHECK (k >= k_f, "k = %u < ceil (f / (p b)) = %" G_GUINT64_FORMAT,
        k, k_f);
    FUZZ_CHECK (k == MAX (k_n, k_f), "k = %u, expected max (%" G_GUINT64_FORMAT
        ", %" G_GUINT64_FORMAT ")", k, k_n, k_f);
  } else if (n > 0 && p == 0) {
    FUZZ_CHECK (k == k_n, "k = %u, expected ceil (n / b) = %" G_GUINT64_FORMAT,
        k, k_n);
  }
  return k;
}

/* The contract of rtp_burst_plan_start (): the frame is due at
 * max (sync time, min (ready, now)); the slot grid is anchored at
 * max (due, previous end) and keeps that anchor unless now is more than
 * RTP_BURST_START_TOLERANCE past it (then it starts now); lateness is
 * anchor - due and shortens the span by at most half. */
static void
checked_plan_start (guint64 sync_time, guint64 ready_time, guint64 now,
    guint64 prev_end, guint64 span, RtpBurstStart * out)
{
  guint64 due, anchor, expect_start;

  memset (out, 0xa5, sizeof (*out));
  rtp_burst_plan_start (sync_time, ready_time, now, prev_end, span, out);

  due = (ready_time == RTP_BURST_TIME_NONE || ready_time > now) ?
      now : ready_time;
  if (sync_time != RTP_BURST_TIME_NONE && sync_time > due)
    due = sync_time;
  anchor = due;
  if (prev_end != RTP_BURST_TIME_NONE && prev_end > anchor)
    anchor = prev_end;
  expect_start = now > rtp_burst_time_add (anchor, RTP_BURST_START_TOLERANCE)
      ? now : anchor;

  FUZZ_CHECK (out->due == due, "due %" G_GUINT64_FORMAT ", expected %"
      G_GUINT64_FORMAT, out->due, due);
  FUZZ_CHECK (out->start == expect_start, "start %" G_GUINT64_FORMAT
      ", expected %" G_GUINT64_FORMAT " (due %" G_GUINT64_FORMAT ", now %"
      G_GUINT64_FORMAT ", previous end %" G_GUINT64_FORMAT ")", out->start,
      expect_start, due, now, prev_end);
  FUZZ_CHECK (sync_time == RTP_BURST_TIME_NONE || out->start >= sync_time,
      "start %" G_GUINT64_FORMAT " before sync time %" G_GUINT64_FORMAT,
      out->start, sync_time);
  FUZZ_CHECK (prev_end == RTP_BURST_TIME_NONE || out->start >= prev_end,
      "start %" G_GUINT64_FORMAT " before previous end %" G_GUINT64_FORMAT,
      out->start, prev_end);
  FUZZ_CHECK (rtp_burst_time_add (out->start, RTP_BURST_START_TOLERANCE) >=
      MIN (now, RTP_BURST_TIME_NONE - 1), "start %" G_GUINT64_FORMAT
      " more than the tolerance before now %" G_GUINT64_FORMAT, out->start,
      now);
  FUZZ_CHECK (out->lateness == anchor - due, "lateness %" G_GUINT64_FORMAT
      ", anchor %" G_GUINT64_FORMAT ", due %" G_GUINT64_FORMAT, out->lateness,
      anchor, due);
  FUZZ_CHECK (out->span <= span && out->span >= span - span / 2,
      "span %" G_GUINT64_FORMAT " from %" G_GUINT64_FORMAT, out->span, span);
  FUZZ_CHECK (span - out->span == MIN (out->lateness, span / 2),
      "span %" G_GUINT64_FORMAT " shortened to %" G_GUINT64_FORMAT
      " for lateness %" G_GUINT64_FORMAT, span, out->span, out->lateness);
  FUZZ_CHECK (out->catch_up == (out->span != span), "catch_up %d, span %"
      G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, out->catch_up, out->span,
      span);
}

/* Walks a plan to completion and checks every slot.  Returns the time of
 * the last slot. */
static guint64
checked_plan (guint64 start, guint64 span, guint64 period, guint n,
    guint k, guint b, gdouble jitter, GRand * rand)
{
  RtpBurstPlan plan;
  guint64 released = 0, t, prev = 0, last;
  guint64 beff, slots = 0, expect_slots, pbound;
  guint np;

  rtp_burst_plan_init (&plan, start, span, period, n, k, b, jitter);

  FUZZ_CHECK (plan.n_slots >= 1, "plan of 0 slots");
  beff = span == 0 ? MAX (n, 1) : MAX (b, 1);
  FUZZ_CHECK (plan.burst_size == beff, "plan b %u, expected %"
      G_GUINT64_FORMAT, plan.burst_size, beff);
  expect_slots = ((guint64) n + beff - 1) / beff;
  FUZZ_CHECK ((guint64) plan.n_slots >= expect_slots, "plan has %u slots "
      "for %" G_GUINT64_FORMAT " needed", plan.n_slots, expect_slots);
  pbound = MAX (period, span);

  if (rtp_burst_plan_slot_duration (&plan) > 0)
    FUZZ_CHECK (rtp_burst_plan_slot_duration (&plan) <= span,
        "slot duration %" G_GUINT64_FORMAT " > span %" G_GUINT64_FORMAT,
        rtp_burst_plan_slot_duration (&plan), span);

  /* slot times saturate below RTP_BURST_TIME_NONE (rtp_burst_time_add):
   * a start at NONE itself means NONE - 1 */
  start = MIN (start, RTP_BURST_TIME_NONE - 1);
  last = start;
  while (slots < MAX_SLOTS_WALKED && rtp_burst_plan_next (&plan, rand, &t,
          &np)) {
    guint64 offset = t - start;

    FUZZ_CHECK (np >= 1 && np <= beff, "slot %" G_GUINT64_FORMAT
        " carries %u packets, b = %" G_GUINT64_FORMAT, slots, np, beff);
    FUZZ_CHECK (t >= start && t < RTP_BURST_TIME_NONE, "slot %"
        G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT " before the start %"
        G_GUINT64_FORMAT " (wrapped around?)", slots, t, start);
    FUZZ_CHECK (slots == 0 || t >= prev, "slot %" G_GUINT64_FORMAT " at %"
        G_GUINT64_FORMAT " before slot %" G_GUINT64_FORMAT " at %"
        G_GUINT64_FORMAT, slots, t, slots - 1, prev);
    FUZZ_CHECK (slots > 0 || offset == 0, "first slot at offset %"
        G_GUINT64_FORMAT, offset);
    FUZZ_CHECK (offset == 0 || offset < pbound, "slot %" G_GUINT64_FORMAT
        " at offset %" G_GUINT64_FORMAT " >= period %" G_GUINT64_FORMAT
        " (span %" G_GUINT64_FORMAT ", k %u, jitter %g)", slots, offset,
        pbound, span, plan.n_slots, plan.slot_jitter);
    if (jitter == 0.0 || rand == NULL)
      FUZZ_CHECK (offset <= span, "slot offset %" G_GUINT64_FORMAT
          " beyond span %" G_GUINT64_FORMAT " without jitter", offset, span);
    released += np;
    prev = last = t;
    slots++;
  }
  if (slots < MAX_SLOTS_WALKED) {
    FUZZ_CHECK (released == n, "%" G_GUINT64_FORMAT " packets released of %u",
        released, n);
    FUZZ_CHECK (slots == expect_slots, "%" G_GUINT64_FORMAT " slots, expected %"
        G_GUINT64_FORMAT, slots, expect_slots);
    /* and it stays finished */
    FUZZ_CHECK (!rtp_burst_plan_next (&plan, rand, &t, &np),
        "plan_next after the end");
  }
  return last;
}

/* --- the element's flow -------------------------------------------------- */

static void
model_close (Model * m, FuzzInput * in)
{
  RtpBurstPeriodSource source;
  RtpBurstStart st;
  guint64 period, span, sync_time, ready, last;
  guint p, k;
  guint8 sel;

  if (!m->open)
    return;
  m->open = FALSE;

  rtp_burst_period_estimator_add_frame (&m->est, m->open_rtptime,
      m->first_arrival);
  period = rtp_burst_period_estimator_get (&m->est, m->frame_period, &source);
  if (m->frame_period > 0)
    FUZZ_CHECK (period == m->frame_period && source == RTP_BURST_PERIOD_PROPERTY,
        "property period %" G_GUINT64_FORMAT " gave %" G_GUINT64_FORMAT,
        m->frame_period, period);
  else
    check_period (period, rtp_burst_period_source_name (source));
  FUZZ_CHECK ((period == 0) == (source == RTP_BURST_PERIOD_UNKNOWN),
      "period %" G_GUINT64_FORMAT " from %s", period,
      rtp_burst_period_source_name (source));

  p = m->payload_size ? m->payload_size : m->max_payload;
  k = checked_slot_count (m->payload_bytes, m->n_packets, p, m->burst_size);

  if (period == 0)
    goto done;                  /* unpaced */

  span = rtp_burst_span (period, m->duty);
  FUZZ_CHECK (span <= period, "span %" G_GUINT64_FORMAT " > period %"
      G_GUINT64_FORMAT, span, period);
  FUZZ_CHECK (m->duty < 1.0 || span == period, "duty 1, span %"
      G_GUINT64_FORMAT " period %" G_GUINT64_FORMAT, span, period);
  FUZZ_CHECK (m->duty > 0.0 || span == 0, "duty 0, span %" G_GUINT64_FORMAT,
      span);

  /* the sync time: running time of the PTS (+ latency), or unknown */
  sel = fuzz_u8 (in);
  if (sel & 1)
    sync_time = RTP_BURST_TIME_NONE;
  else if (sel & 2)
    sync_time = m->now + (fuzz_u32 (in) & 0x3fffffff);
  else
    sync_time = fuzz_time (in);
  ready = (sel & 4) ? RTP_BURST_TIME_NONE : m->now;
  if (sync_time != RTP_BURST_TIME_NONE)
    sync_time = avoid_wrap (sync_time);

  checked_plan_start (sync_time, ready, m->now, m->prev_end, span, &st);
  last = checked_plan (st.start, st.span, period, m->n_packets, k,
      m->burst_size, m->slot_jitter, m->rand);
  /* frames never overlap: the next starts after this one's span */
  FUZZ_CHECK (last >= st.start, "last slot before start");
  m->prev_end = rtp_burst_time_add (st.start, st.span);  /* as the element */
  /* the task releases the last slot at its time */
  if (sel & 8)
    m->now = MIN (MAX (m->now, last), RTP_BURST_TIME_NONE - 1);

done:
  m->n_packets = 0;
  m->payload_bytes = 0;
}

static guint32
pick_rtptime (Model * m, FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
      return m->last_rtptime;
    case 1:
      return m->last_rtptime + fuzz_u16 (in);
    case 2:
      return m->last_rtptime - fuzz_u16 (in);   /* backwards */
    case 3:
      return m->last_rtptime + 3600u * (fuzz_u8 (in) % 8);  /* frames */
    case 4:
      return G_MAXUINT32 - fuzz_u8 (in);        /* about to wrap */
    case 5:
      return m->last_rtptime + 0x80000000u + (gint8) fuzz_u8 (in);
    default:
      return fuzz_u32 (in);
  }
}

static guint
pick_payload (FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 3) {
    case 0:
      return 0;
    case 1:
      return 65535;
    case 2:
      return fuzz_u8 (in) * 8;
    default:
      return fuzz_u16 (in);
  }
}

static void
model_add_packets (Model * m, FuzzInput * in, guint count)
{
  guint32 rtptime = pick_rtptime (m, in);
  guint8 flags = fuzz_u8 (in);
  gboolean marker = flags & 1;
  guint payload = pick_payload (in);
  guint i;

  for (i = 0; i < count; i++) {
    gboolean mk = marker && i == count - 1;
    RtpBurstPacketAction action = rtp_burst_classify_packet (m->open,
        m->open_rtptime, rtptime, mk);

    FUZZ_CHECK (!!(action & RTP_BURST_PACKET_CLOSE_BEFORE) ==
        (m->open && rtptime != m->open_rtptime), "classify: close-before %d, "
        "open %d, %u vs %u", action, m->open, m->open_rtptime, rtptime);
    FUZZ_CHECK (!!(action & RTP_BURST_PACKET_CLOSE_AFTER) == mk,
        "classify: close-after %d, marker %d", action, mk);

    if (action & RTP_BURST_PACKET_CLOSE_BEFORE)
      model_close (m, in);
    if (!m->open) {
      m->open = TRUE;
      m->open_rtptime = rtptime;
      m->first_arrival = (flags & 2) ? RTP_BURST_TIME_NONE : m->now;
    }
    m->n_packets++;
    m->payload_bytes += payload;
    m->max_payload = MAX (m->max_payload, payload);
    if ((action & RTP_BURST_PACKET_CLOSE_AFTER) ||
        m->n_packets >= MAX_FRAME_PACKETS)
      model_close (m, in);
  }
  m->last_rtptime = rtptime;
}

static const gchar *const framerates[] = {
  "25", "30000/1001", "29.970029970029969", "0", "-25", "inf", "nan",
  "1e400", "1e-400", "10000", "10001", "0.1", "0.09999", "1/0", "0/0",
  "25/", "/25", "25 / 1", " 25", "25 ", "0x19", "1e4", "1/1e-300",
  "1e300/1e-300", "", "2/3/4", "25\t", "25/-1", "-25/-1",
};

static guint64
fuzz_framerate (FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);
  guint64 period;

  if (sel < 64) {
    period = rtp_burst_parse_framerate (framerates[sel % G_N_ELEMENTS
            (framerates)]);
  } else if (sel < 72) {
    period = rtp_burst_parse_framerate (NULL);
    FUZZ_CHECK (period == 0, "NULL a-framerate gave %" G_GUINT64_FORMAT,
        period);
  } else {
    gsize len;
    const guint8 *bytes = fuzz_bytes (in, fuzz_u8 (in) % 64, &len);
    gchar *str = g_strndup ((const gchar *) bytes, len);

    period = rtp_burst_parse_framerate (str);
    g_free (str);
  }
  check_period (period, "a-framerate");
  return period;
}

static gint
fuzz_clock_rate (FuzzInput * in)
{
  static const gint rates[] = { 0, 90000, 8000, 1, -1, G_MAXINT, G_MININT,
    1000000000, 48000, 2
  };
  guint8 sel = fuzz_u8 (in);

  if (sel < 128)
    return rates[sel % G_N_ELEMENTS (rates)];
  return (gint) fuzz_u32 (in);
}

static gdouble
fuzz_fraction (FuzzInput * in, gdouble max)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
      return 0.0;
    case 1:
      return max;
    case 2:
      return nextafter (0.0, 1.0);
    case 3:
      return nextafter (max, 0.0);
    default:
      return max * fuzz_u16 (in) / 65535.0;
  }
}

static void
model_property (Model * m, FuzzInput * in)
{
  guint8 which = fuzz_u8 (in);
  guint8 sel = fuzz_u8 (in);

  switch (which % 5) {
    case 0:{
      static const guint sizes[] = { 1, 2, 3, 7, 16, G_MAXINT, G_MAXINT - 1 };
      if (sel < 200)
        m->burst_size = sizes[sel % G_N_ELEMENTS (sizes)];
      else {
        guint raw = fuzz_u32 (in);

        m->burst_size = CLAMP (raw, 1, (guint) G_MAXINT);
      }
      break;
    }
    case 1:
      m->duty = fuzz_fraction (in, 1.0);
      break;
    case 2:
      m->slot_jitter = fuzz_fraction (in, 0.5);
      break;
    case 3:{
      static const guint64 periods[] = { 0, 1, RTP_BURST_MIN_PERIOD - 1,
        RTP_BURST_MIN_PERIOD, 40000000, 33366667, RTP_BURST_MAX_PERIOD,
        RTP_BURST_MAX_PERIOD - 1
      };
      /* the GParamSpec allows 0 ... RTP_BURST_MAX_PERIOD */
      if (sel < 200)
        m->frame_period = periods[sel % G_N_ELEMENTS (periods)];
      else
        m->frame_period = fuzz_u64 (in) % (RTP_BURST_MAX_PERIOD + 1);
      break;
    }
    default:{
      static const guint sizes[] = { 0, 1, 1200, 1400, 65535 };
      if (sel < 200)
        m->payload_size = sizes[sel % G_N_ELEMENTS (sizes)];
      else
        m->payload_size = fuzz_u16 (in);
      break;
    }
  }
}

static gdouble
fuzz_any_jitter (FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
      return 0.0;
    case 1:
      return 0.5;
    case 2:
      return 1.0;
    case 3:
      return -0.25;             /* clamped to 0 */
    case 4:
      return 3.0;               /* clamped to 1 */
    case 5:
      return NAN;               /* treated as 0 */
    default:
      return fuzz_u16 (in) / 65535.0;
  }
}

/* The time range the element can hand to the plan: start is any running
 * time (sync times come from buffer timestamps), span and period are at
 * most RTP_BURST_MAX_PERIOD. */
static guint64
fuzz_element_period (FuzzInput * in)
{
  return fuzz_time (in) % (RTP_BURST_MAX_PERIOD + 1);
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const gchar *avoid = g_getenv ("RTPBURSTPACE_FUZZ_AVOID");

  avoid_plan_wrap = avoid && strstr (avoid, "plan-wrap");
  if (avoid_plan_wrap)
    fprintf (stderr, "fuzz_schedule: avoiding the known bug plan-wrap\n");
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  Model m;
  guint ops = 0;

  memset (&m, 0, sizeof (m));
  rtp_burst_period_estimator_init (&m.est);
  m.rand = g_rand_new_with_seed (fuzz_u32 (&in));
  m.burst_size = 1;
  m.duty = 0.9;
  m.slot_jitter = 0.01;
  m.prev_end = RTP_BURST_TIME_NONE;
  work_left = WORK_BUDGET;

  while (fuzz_more (&in) && ops++ < 4096) {
    guint8 op = fuzz_u8 (&in);

    switch (op % N_OPS) {
      case OP_PACKET:
        model_add_packets (&m, &in, 1);
        break;
      case OP_PACKETS:{
        guint16 c = fuzz_u16 (&in);
        /* mostly small frames, sometimes up to the 65536 bound and over */
        model_add_packets (&m, &in,
            take_work ((c & 0x8000) ? (c & 0x7fff) * 3u : c % 64));
        break;
      }
      case OP_CLOSE:
        model_close (&m, &in);
        break;
      case OP_CAPS:{
        guint64 caps_period = fuzz_framerate (&in);
        gint clock_rate = fuzz_clock_rate (&in);

        /* as the element: new caps restart the estimate */
        rtp_burst_period_estimator_reset_history (&m.est);
        rtp_burst_period_estimator_set_caps (&m.est, caps_period, clock_rate);
        FUZZ_CHECK (m.est.clock_rate >= 0, "clock rate %d kept",
            m.est.clock_rate);
        check_period (rtp_burst_period_estimator_get (&m.est, 0, NULL),
            "estimator after caps");
        break;
      }
      case OP_PROPERTY:
        model_property (&m, &in);
        break;
      case OP_TIME:{
        guint8 sel = fuzz_u8 (&in);

        if (sel & 1) {
          guint64 d = fuzz_time (&in);

          m.now = rtp_burst_time_add (m.now, d);        /* < NONE */
        } else {
          m.now = MAX (m.now, (guint64) fuzz_u32 (&in) * 1000);
        }
        m.now = avoid_wrap (m.now);
        break;
      }
      case OP_PLAN_START:{
        RtpBurstStart st;
        guint64 a = fuzz_time (&in), b = fuzz_time (&in), c = fuzz_time (&in);
        guint64 d = fuzz_time (&in), e = fuzz_time (&in);

        checked_plan_start (a, b, c, d, e, &st);
        break;
      }
      case OP_PLAN:{
        guint64 start = avoid_wrap (fuzz_time (&in));
        guint64 span = fuzz_element_period (&in);
        guint64 period = fuzz_element_period (&in);
        guint n = take_work (fuzz_u32 (&in) % (MAX_SLOTS_WALKED + 1));
        guint k = fuzz_u32 (&in);
        guint b = fuzz_u32 (&in);
        gdouble jitter = fuzz_any_jitter (&in);

        /* the element never has span > period, the unit copes anyway */
        if (fuzz_u8 (&in) & 1)
          span = MIN (span, period);
        if (fuzz_u8 (&in) & 1)
          k = (k % 4096);
        checked_plan (start, span, period, n, k, b, jitter,
            (fuzz_u8 (&in) & 1) ? m.rand : NULL);
        break;
      }
      case OP_SLOT_COUNT:{
        guint64 f = fuzz_u64 (&in);
        guint n = fuzz_u32 (&in), p = fuzz_u32 (&in), b = fuzz_u32 (&in);

        checked_slot_count (f, n, p, b);
        break;
      }
      case OP_FRAMERATE:
        fuzz_framerate (&in);
        break;
      case OP_RESET_HISTORY:
        rtp_burst_period_estimator_reset_history (&m.est);
        check_period (rtp_burst_period_estimator_get (&m.est, 0, NULL),
            "estimator after reset");
        break;
      case OP_ESTIMATOR_FRAME:{
        RtpBurstPeriodSource src;
        guint64 p;

        rtp_burst_period_estimator_add_frame (&m.est, pick_rtptime (&m, &in),
            fuzz_time (&in));
        p = rtp_burst_period_estimator_get (&m.est, 0, &src);
        check_period (p, rtp_burst_period_source_name (src));
        break;
      }
      case OP_LATENCY:{
        guint64 period = fuzz_element_period (&in);
        gdouble duty = fuzz_fraction (&in, 1.0);
        gdouble jitter = fuzz_fraction (&in, 0.5);
        guint64 lat = rtp_burst_latency (period, duty, jitter);
        guint64 span = rtp_burst_span (period, duty);

        FUZZ_CHECK (lat <= period && lat >= span, "latency %" G_GUINT64_FORMAT
            ", period %" G_GUINT64_FORMAT ", span %" G_GUINT64_FORMAT, lat,
            period, span);
        break;
      }
      default:
        break;
    }
  }
  /* the end of the stream closes the open frame */
  model_close (&m, &in);

  g_rand_free (m.rand);
  return 0;
}
