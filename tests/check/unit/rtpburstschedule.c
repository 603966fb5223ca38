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


/* Unit tests of the burst-control arithmetic (no pads, no clock). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstschedule.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE

GST_START_TEST (test_slot_count_equation_2)
{
  /* full-size payloads: ceil (f / (p b)) = ceil (n / b) */
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 1000, 1), 30);
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 1000, 2), 15);
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 1000, 7), 5);
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 1000, 30), 1);
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 1000, 100), 1);
  /* short last packet */
  fail_unless_equals_int (rtp_burst_slot_count (29500, 30, 1000, 1), 30);
  /* small packets: never more than b per slot, so ceil (n / b) wins */
  fail_unless_equals_int (rtp_burst_slot_count (3000, 30, 1000, 1), 30);
  fail_unless_equals_int (rtp_burst_slot_count (3000, 30, 1000, 4), 8);
  /* p smaller than the real payloads: more slots than packets */
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 500, 1), 60);
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 500, 2), 30);
  /* p unknown */
  fail_unless_equals_int (rtp_burst_slot_count (30000, 30, 0, 4), 8);
  /* degenerate input */
  fail_unless_equals_int (rtp_burst_slot_count (0, 0, 1000, 1), 0);
  fail_unless_equals_int (rtp_burst_slot_count (0, 3, 1000, 1), 3);
  fail_unless_equals_int (rtp_burst_slot_count (100, 1, 1000, 0), 1);
  fail_unless_equals_int (rtp_burst_slot_count (G_MAXUINT64, 1, 1, 1),
      G_MAXUINT);
}

GST_END_TEST;

GST_START_TEST (test_span)
{
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, 0.9), 36 * MS);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, 1.0), 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, 0.5), 20 * MS);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, 0.0), 0);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, -1.0), 0);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, 2.0), 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_span (40 * MS, NAN), 0);
  fail_unless_equals_uint64 (rtp_burst_span (33366667, 0.9), 30030000);
}

GST_END_TEST;

GST_START_TEST (test_parse_framerate)
{
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("25"), 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("25.000000"),
      40 * MS);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("29.970029970029969"),
      33366667);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("30000/1001"),
      33366667);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate (" 50 "), 20 * MS);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("0.5"),
      2000 * MS);

  fail_unless_equals_uint64 (rtp_burst_parse_framerate (NULL), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate (""), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("abc"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("0"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("-25"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("25fps"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("1/0"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("25/"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("inf"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("nan"), 0);
  /* beyond 10 kHz and below 0.1 Hz */
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("100000"), 0);
  fail_unless_equals_uint64 (rtp_burst_parse_framerate ("0.01"), 0);
}

GST_END_TEST;

GST_START_TEST (test_classify_packet)
{
  fail_unless_equals_int (rtp_burst_classify_packet (FALSE, 0, 100, FALSE),
      RTP_BURST_PACKET_ADD);
  fail_unless_equals_int (rtp_burst_classify_packet (FALSE, 0, 100, TRUE),
      RTP_BURST_PACKET_CLOSE_AFTER);
  fail_unless_equals_int (rtp_burst_classify_packet (TRUE, 100, 100, FALSE),
      RTP_BURST_PACKET_ADD);
  fail_unless_equals_int (rtp_burst_classify_packet (TRUE, 100, 100, TRUE),
      RTP_BURST_PACKET_CLOSE_AFTER);
  fail_unless_equals_int (rtp_burst_classify_packet (TRUE, 100, 3700, FALSE),
      RTP_BURST_PACKET_CLOSE_BEFORE);
  /* a one-packet frame after a frame without marker */
  fail_unless_equals_int (rtp_burst_classify_packet (TRUE, 100, 3700, TRUE),
      RTP_BURST_PACKET_CLOSE_BEFORE | RTP_BURST_PACKET_CLOSE_AFTER);
}

GST_END_TEST;

static guint64
estimate_from_rtptimes (const guint32 * times, guint n, gint clock_rate,
    RtpBurstPeriodSource * source)
{
  RtpBurstPeriodEstimator est;
  guint i;

  rtp_burst_period_estimator_init (&est);
  rtp_burst_period_estimator_set_caps (&est, 0, clock_rate);
  for (i = 0; i < n; i++)
    rtp_burst_period_estimator_add_frame (&est, times[i], NONE);
  return rtp_burst_period_estimator_get (&est, 0, source);
}

GST_START_TEST (test_period_from_rtptime)
{
  static const guint32 cbr[] = { 0, 3600, 7200 };
  /* I P B B P B B in decoding order, RTP timestamps are presentation times */
  static const guint32 bframes[] = { 0, 3 * 3600, 3600, 2 * 3600, 6 * 3600,
    4 * 3600, 5 * 3600
  };
  static const guint32 dropped[] = { 0, 3600, 3 * 3600, 4 * 3600 };
  static const guint32 wrap[] = { 0xfffff000u, 0xfffff000u + 3000u };
  static const guint32 backwards[] = { 36000, 32400, 28800 };
  static const guint32 ntsc[] = { 1000, 1000 + 3003, 1000 + 6006 };
  RtpBurstPeriodSource source;

  fail_unless_equals_uint64 (estimate_from_rtptimes (cbr, 1, 90000, &source),
      0);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_UNKNOWN);
  fail_unless_equals_uint64 (estimate_from_rtptimes (cbr, 3, 90000, &source),
      40 * MS);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_RTPTIME);
  /* the first difference is 3 periods; the smallest over the window wins */
  fail_unless_equals_uint64 (estimate_from_rtptimes (bframes, 2, 90000, NULL),
      120 * MS);
  fail_unless_equals_uint64 (estimate_from_rtptimes (bframes, 4, 90000, NULL),
      40 * MS);
  fail_unless_equals_uint64 (estimate_from_rtptimes (bframes, 7, 90000, NULL),
      40 * MS);
  fail_unless_equals_uint64 (estimate_from_rtptimes (dropped, 4, 90000, NULL),
      40 * MS);
  fail_unless_equals_uint64 (estimate_from_rtptimes (wrap, 2, 90000, NULL),
      33333333);
  fail_unless_equals_uint64 (estimate_from_rtptimes (backwards, 3, 90000,
          NULL), 0);
  fail_unless_equals_uint64 (estimate_from_rtptimes (ntsc, 3, 90000, NULL),
      33366667);
  /* no clock-rate: RTP timestamps say nothing */
  fail_unless_equals_uint64 (estimate_from_rtptimes (cbr, 3, 0, &source), 0);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_UNKNOWN);
}

GST_END_TEST;

GST_START_TEST (test_period_window)
{
  RtpBurstPeriodEstimator est;
  guint32 ts = 0;
  guint i;

  rtp_burst_period_estimator_init (&est);
  rtp_burst_period_estimator_set_caps (&est, 0, 90000);
  /* 50 fps first, then 25 fps: once a full window of differences is at
   * 25 fps (the first one still says 50 fps) 25 fps wins */
  for (i = 0; i < 5; i++, ts += 1800)
    rtp_burst_period_estimator_add_frame (&est, ts, NONE);
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0, NULL),
      20 * MS);
  for (i = 0; i <= RTP_BURST_ESTIMATOR_WINDOW; i++, ts += 3600)
    rtp_burst_period_estimator_add_frame (&est, ts, NONE);
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0, NULL),
      40 * MS);

  /* a new clock-rate forgets the history */
  rtp_burst_period_estimator_set_caps (&est, 0, 48000);
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0, NULL),
      0);
}

GST_END_TEST;

GST_START_TEST (test_period_priority)
{
  RtpBurstPeriodEstimator est;
  RtpBurstPeriodSource source;

  rtp_burst_period_estimator_init (&est);
  rtp_burst_period_estimator_set_caps (&est, 0, 90000);
  rtp_burst_period_estimator_add_frame (&est, 0, NONE);
  rtp_burst_period_estimator_add_frame (&est, 1800, NONE);
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0,
          &source), 20 * MS);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_RTPTIME);

  rtp_burst_period_estimator_set_caps (&est, 40 * MS, 90000);
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0,
          &source), 40 * MS);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_CAPS);

  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 10 * MS,
          &source), 10 * MS);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_PROPERTY);
  fail_unless_equals_string (rtp_burst_period_source_name (source),
      "property");
}

GST_END_TEST;

GST_START_TEST (test_period_from_arrival)
{
  RtpBurstPeriodEstimator est;
  RtpBurstPeriodSource source;
  /* same timestamp every frame, no clock-rate: only arrivals tell */
  static const guint64 arrivals[] = { 0, 40 * MS, 79 * MS, 121 * MS,
    160 * MS, 161 * MS
  };
  guint i;

  rtp_burst_period_estimator_init (&est);
  for (i = 0; i < 3; i++)
    rtp_burst_period_estimator_add_frame (&est, 0, arrivals[i]);
  /* two differences are not enough */
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0,
          &source), 0);
  for (; i < G_N_ELEMENTS (arrivals); i++)
    rtp_burst_period_estimator_add_frame (&est, 0, arrivals[i]);
  /* differences 40 39 42 39 1: the median */
  fail_unless_equals_uint64 (rtp_burst_period_estimator_get (&est, 0,
          &source), 39 * MS);
  fail_unless_equals_int (source, RTP_BURST_PERIOD_ARRIVAL);
}

GST_END_TEST;

GST_START_TEST (test_plan_start)
{
  RtpBurstStart st;

  /* due in the future: at the sync time */
  rtp_burst_plan_start (100 * MS, 90 * MS, 95 * MS, NONE, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 100 * MS);
  fail_unless_equals_uint64 (st.span, 36 * MS);
  fail_unless (!st.catch_up);

  /* sync time passed: now, full span */
  rtp_burst_plan_start (100 * MS, 105 * MS, 105 * MS, 90 * MS, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 105 * MS);
  fail_unless_equals_uint64 (st.span, 36 * MS);
  fail_unless_equals_uint64 (st.lateness, 0);

  /* unknown sync time and ready time: now */
  rtp_burst_plan_start (NONE, NONE, 7 * MS, NONE, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 7 * MS);
  fail_unless (!st.catch_up);

  /* held back 10 ms by the previous frame: 10 ms shorter */
  rtp_burst_plan_start (100 * MS, 95 * MS, 101 * MS, 110 * MS, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 110 * MS);
  fail_unless_equals_uint64 (st.lateness, 10 * MS);
  fail_unless_equals_uint64 (st.span, 26 * MS);
  fail_unless (st.catch_up);

  /* a backlog complete since 0: at most halved, never a burst */
  rtp_burst_plan_start (40 * MS, 0, 236 * MS, 236 * MS, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 236 * MS);
  fail_unless_equals_uint64 (st.lateness, 196 * MS);
  fail_unless_equals_uint64 (st.span, 18 * MS);

  /* the caller comes 0.5 ms after the due time: the grid keeps its anchor */
  rtp_burst_plan_start (100 * MS, 100 * MS, 100 * MS + 500000, NONE, 36 * MS,
      &st);
  fail_unless_equals_uint64 (st.start, 100 * MS);
  fail_unless (!st.catch_up);
  /* ... 5 ms after it: the frame starts now, and that is no catch-up */
  rtp_burst_plan_start (100 * MS, 100 * MS, 105 * MS, NONE, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 105 * MS);
  fail_unless_equals_uint64 (st.span, 36 * MS);
  fail_unless (!st.catch_up);

  /* a frame that arrived late on its own is not shortened */
  rtp_burst_plan_start (100 * MS, 130 * MS, 130 * MS, 120 * MS, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, 130 * MS);
  fail_unless (!st.catch_up);
}

GST_END_TEST;

GST_START_TEST (test_plan_cbr)
{
  RtpBurstPlan plan;
  guint64 t;
  guint n, j = 0;

  /* 30 x 1000 B at 25 fps, b = 1, duty 0.9: one packet every 1.2 ms */
  rtp_burst_plan_init (&plan, 1000 * MS, 36 * MS, 40 * MS, 30,
      rtp_burst_slot_count (30000, 30, 1000, 1), 1, 0.0);
  fail_unless_equals_uint64 (rtp_burst_plan_slot_duration (&plan), 1200000);
  while (rtp_burst_plan_next (&plan, NULL, &t, &n)) {
    fail_unless_equals_uint64 (t, 1000 * MS + j * 1200000);
    fail_unless_equals_int (n, 1);
    j++;
  }
  fail_unless_equals_int (j, 30);
  /* and it stays finished */
  fail_if (rtp_burst_plan_next (&plan, NULL, &t, &n));
}

GST_END_TEST;

GST_START_TEST (test_plan_burst_sizes)
{
  static const guint sizes[] = { 1, 2, 7, 30, 31 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint b = sizes[i];
    guint k = rtp_burst_slot_count (30000, 30, 1000, b);
    guint64 dt = 36 * MS / k, t;
    guint n, j = 0, total = 0;
    RtpBurstPlan plan;

    rtp_burst_plan_init (&plan, 0, 36 * MS, 40 * MS, 30, k, b, 0.0);
    while (rtp_burst_plan_next (&plan, NULL, &t, &n)) {
      fail_unless_equals_uint64 (t, j * dt);
      /* full slots, the last one with the rest */
      fail_unless_equals_int (n, MIN (b, 30 - j * b));
      total += n;
      j++;
    }
    fail_unless_equals_int (j, k);
    fail_unless_equals_int (total, 30);
  }
}

GST_END_TEST;

GST_START_TEST (test_plan_inexact_division)
{
  RtpBurstPlan plan;
  guint64 t, prev = 0;
  guint n, j = 0;

  /* 40 ms over 30 slots: offsets floor (40 ms * j / 30), no drift */
  rtp_burst_plan_init (&plan, 0, 40 * MS, 40 * MS, 30, 30, 1, 0.0);
  while (rtp_burst_plan_next (&plan, NULL, &t, &n)) {
    fail_unless_equals_uint64 (t, (40 * MS * j) / 30);
    fail_unless (j == 0 || t - prev == 1333333 || t - prev == 1333334);
    prev = t;
    j++;
  }
  fail_unless_equals_uint64 (prev, 38666666);
}

GST_END_TEST;

GST_START_TEST (test_plan_more_slots_than_packets)
{
  RtpBurstPlan plan;
  guint64 t;
  guint n, j = 0;

  /* p = 500 for 1000 B packets: 60 slots of 0.6 ms, packets in the first 30 */
  rtp_burst_plan_init (&plan, 0, 36 * MS, 40 * MS, 30,
      rtp_burst_slot_count (30000, 30, 500, 1), 1, 0.0);
  while (rtp_burst_plan_next (&plan, NULL, &t, &n)) {
    fail_unless_equals_uint64 (t, j * 600000);
    j++;
  }
  fail_unless_equals_int (j, 30);
}

GST_END_TEST;

static void
collect_offsets (guint32 seed, gdouble duty, gdouble r, guint k,
    guint64 * offsets)
{
  GRand *rand = g_rand_new_with_seed (seed);
  RtpBurstPlan plan;
  guint64 t;
  guint n, j = 0;

  rtp_burst_plan_init (&plan, 0, rtp_burst_span (40 * MS, duty), 40 * MS, k,
      k, 1, r);
  while (rtp_burst_plan_next (&plan, rand, &t, &n))
    offsets[j++] = t;
  fail_unless_equals_int (j, k);
  g_rand_free (rand);
}

GST_START_TEST (test_plan_jitter)
{
  guint64 a[30], b[30], c[30];
  gdouble dt = 36.0 * MS / 30;
  gboolean differs = FALSE, any_jitter = FALSE;
  guint j;

  collect_offsets (42, 0.9, 0.01, 30, a);
  collect_offsets (42, 0.9, 0.01, 30, b);
  collect_offsets (43, 0.9, 0.01, 30, c);

  fail_unless_equals_uint64 (a[0], 0);
  for (j = 1; j < 30; j++) {
    gdouble d = (gdouble) (a[j] - a[j - 1]);

    /* every slot within +-1 % (+-1 ns of rounding) */
    fail_unless (d >= dt * 0.99 - 1 && d <= dt * 1.01 + 1,
        "slot %u lasts %f ns", j - 1, d);
    if (d != dt)
      any_jitter = TRUE;
    /* same seed, same times */
    fail_unless_equals_uint64 (a[j], b[j]);
    if (a[j] != c[j])
      differs = TRUE;
  }
  fail_unless (any_jitter);
  fail_unless (differs);
  /* the frame within ΔT */
  fail_unless (a[29] < 40 * MS);
}

GST_END_TEST;

GST_START_TEST (test_plan_jitter_capped_at_period)
{
  guint64 o[200];
  guint j;

  /* duty 1 with 50 % jitter would overrun ΔT: slot j is capped at ΔT j/k */
  collect_offsets (7, 1.0, 0.5, 200, o);
  for (j = 1; j < 200; j++) {
    fail_unless (o[j] >= o[j - 1]);
    fail_unless (o[j] <= 40 * MS * j / 200);
  }
  fail_unless (o[199] < 40 * MS);
}

GST_END_TEST;

GST_START_TEST (test_latency)
{
  fail_unless_equals_uint64 (rtp_burst_latency (40 * MS, 0.9, 0.01),
      36360000);
  fail_unless_equals_uint64 (rtp_burst_latency (40 * MS, 0.9, 0.0), 36 * MS);
  fail_unless_equals_uint64 (rtp_burst_latency (40 * MS, 1.0, 0.01), 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_latency (40 * MS, 0.0, 0.01), 0);
}

GST_END_TEST;

GST_START_TEST (test_coarsen)
{
  guint k, b;

  /* 6 Mbit/s CBR: 1.2 ms slots, nothing to do */
  k = 30;
  fail_unless_equals_int (rtp_burst_coarsen (30, 36 * MS, 100000, &k, 1), 1);
  fail_unless_equals_int (k, 30);

  /* raw 1080p30: 3000 packets over 30 ms, 10 µs slots; 100 µs minimum:
   * at most 300 slots, so b = 10 and k = 300 */
  k = 3000;
  fail_unless_equals_int (rtp_burst_coarsen (3000, 30 * MS, 100000, &k, 1),
      10);
  fail_unless_equals_int (k, 300);

  /* not a multiple: b = ceil (1000 / 360) = 3, k = ceil (1000 / 3) = 334,
   * slots of 36 ms / 334 = 107.8 µs */
  k = 1000;
  b = rtp_burst_coarsen (1000, 36 * MS, 100000, &k, 1);
  fail_unless_equals_int (b, 3);
  fail_unless_equals_int (k, 334);
  fail_unless (36 * MS / k >= 100000);

  /* a larger b from the user is kept */
  k = 100;
  fail_unless_equals_int (rtp_burst_coarsen (1000, 36 * MS, 100000, &k, 10),
      10);
  fail_unless_equals_int (k, 100);

  /* a span shorter than one minimum slot: one slot */
  k = 10;
  fail_unless_equals_int (rtp_burst_coarsen (10, 50000, 100000, &k, 1), 10);
  fail_unless_equals_int (k, 1);

  /* no minimum, duty 0, empty frame: unchanged */
  k = 3000;
  fail_unless_equals_int (rtp_burst_coarsen (3000, 30 * MS, 0, &k, 1), 1);
  fail_unless_equals_int (k, 3000);
  fail_unless_equals_int (rtp_burst_coarsen (3000, 0, 100000, &k, 1), 1);
  k = 0;
  fail_unless_equals_int (rtp_burst_coarsen (0, 30 * MS, 100000, &k, 1), 1);
}

GST_END_TEST;

GST_START_TEST (test_wakeup_tracker)
{
  RtpBurstWakeupTracker t;
  guint i;

  rtp_burst_wakeup_tracker_init (&t);
  fail_unless_equals_uint64 (t.auto_min_slot, 100000);
  /* median 80 µs with a few 5 ms preemptions: 160 µs */
  for (i = 0; i < RTP_BURST_WAKEUP_WINDOW; i++)
    rtp_burst_wakeup_tracker_add (&t, i % 10 == 0 ? 5 * MS : 80000);
  fail_unless_equals_uint64 (t.auto_min_slot, 160000);
  /* an exact clock: the floor */
  for (i = 0; i < RTP_BURST_WAKEUP_WINDOW; i++)
    rtp_burst_wakeup_tracker_add (&t, 0);
  fail_unless_equals_uint64 (t.auto_min_slot, RTP_BURST_AUTO_MIN_SLOT_FLOOR);
  /* a very late clock: the ceiling */
  for (i = 0; i < RTP_BURST_WAKEUP_WINDOW - 1; i++)
    rtp_burst_wakeup_tracker_add (&t, 3 * MS);
  fail_unless_equals_uint64 (t.auto_min_slot, RTP_BURST_AUTO_MIN_SLOT_FLOOR);
  rtp_burst_wakeup_tracker_add (&t, 3 * MS);
  fail_unless_equals_uint64 (t.auto_min_slot,
      RTP_BURST_AUTO_MIN_SLOT_CEILING);
}

GST_END_TEST;

GST_START_TEST (test_plan_near_end_of_time)
{
  RtpBurstPlan plan;
  RtpBurstStart st;
  guint64 t, prev = 0;
  guint n;

  /* an absurd timestamp: slot times saturate instead of wrapping around */
  rtp_burst_plan_start (G_MAXUINT64 - 2, NONE, 0, NONE, 36 * MS, &st);
  fail_unless_equals_uint64 (st.start, G_MAXUINT64 - 2);
  rtp_burst_plan_init (&plan, st.start, st.span, 40 * MS, 30, 30, 1, 0.0);
  while (rtp_burst_plan_next (&plan, NULL, &t, &n)) {
    fail_unless (t >= prev);
    fail_unless (t < NONE);
    prev = t;
  }
  fail_unless_equals_uint64 (rtp_burst_plan_end (&plan), NONE - 1);
  fail_unless_equals_uint64 (rtp_burst_time_add (5, 7), 12);
  fail_unless_equals_uint64 (rtp_burst_time_add (NONE - 10, 20), NONE - 1);
  fail_unless_equals_uint64 (rtp_burst_time_add (3, NONE), NONE - 1);
}

GST_END_TEST;

GST_START_TEST (test_rate_span)
{
  /* 65 packets of 1212 B at 8.08 Mbit/s: 78 ms */
  fail_unless_equals_uint64 (rtp_burst_rate_span (65 * 1212, 8080000),
      78 * MS);
  fail_unless_equals_uint64 (rtp_burst_rate_span (1, 3), 2666666667);
  fail_unless_equals_uint64 (rtp_burst_rate_span (1000, 0), 0);
  fail_unless_equals_uint64 (rtp_burst_rate_span (G_MAXUINT64, 1), NONE - 1);
}

GST_END_TEST;

static RtpBurstStart
start_at (guint64 due, guint64 start, guint64 span)
{
  RtpBurstStart st = { due, start, span, start - due, FALSE };

  return st;
}

GST_START_TEST (test_limits)
{
  RtpBurstLimits lim = { 8080000, 100 * MS, RTP_BURST_OVERLOAD_COMPRESS };
  RtpBurstLimitResult res;
  RtpBurstStart st;

  /* a keyframe of 65 x 1212 B: spread over 78 ms instead of 36 */
  st = start_at (0, 0, 36 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 65 * 1212, 65, &st,
          &res), RTP_BURST_LIMIT_SEND);
  fail_unless_equals_uint64 (st.span, 78 * MS);
  fail_unless (res.spread && !res.compressed);
  fail_unless_equals_uint64 (res.backlog, 78 * MS * 64 / 65);

  /* a small frame is not touched */
  st = start_at (0, 0, 36 * MS);
  rtp_burst_apply_limits (&lim, 10 * 1212, 10, &st, &res);
  fail_unless_equals_uint64 (st.span, 36 * MS);
  fail_unless (!res.spread && !res.compressed);

  /* a 60 ms budget: the last slot at 60 ms, span 60 ms * 65 / 64 */
  lim.budget = 60 * MS;
  st = start_at (0, 0, 36 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 65 * 1212, 65, &st,
          &res), RTP_BURST_LIMIT_SEND);
  fail_unless_equals_uint64 (st.span, 60937500);
  fail_unless (res.spread && res.compressed);
  fail_unless_equals_uint64 (res.backlog, 60 * MS);

  /* held back 50 ms by the keyframe: 10 ms left for a 10-packet frame */
  st = start_at (40 * MS, 90 * MS, 36 * MS);
  rtp_burst_apply_limits (&lim, 10 * 1212, 10, &st, &res);
  fail_unless_equals_uint64 (st.span, 100 * MS / 9);
  fail_unless_equals_uint64 (res.backlog, 60 * MS - 1);
  fail_unless (res.compressed);

  /* ... with overload=drop it is dropped: it would fit on its own */
  lim.overload = RTP_BURST_OVERLOAD_DROP;
  st = start_at (40 * MS, 90 * MS, 36 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 10 * 1212, 10, &st,
          &res), RTP_BURST_LIMIT_DROP);
  fail_unless_equals_uint64 (res.backlog, 50 * MS + 36 * MS * 9 / 10);

  /* ... but a keyframe that alone needs longer than the budget is sent,
   * compressed: dropping it would not let anything through */
  st = start_at (0, 0, 36 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 65 * 1212, 65, &st,
          &res), RTP_BURST_LIMIT_SEND);
  fail_unless (res.compressed);

  /* waited beyond the budget already: compressed to nothing, a burst now */
  lim.overload = RTP_BURST_OVERLOAD_COMPRESS;
  st = start_at (0, 70 * MS, 36 * MS);
  rtp_burst_apply_limits (&lim, 10 * 1212, 10, &st, &res);
  fail_unless_equals_uint64 (st.span, 0);

  /* no cap, no budget: equation (2) as it is */
  lim.max_rate = 0;
  lim.budget = 0;
  st = start_at (0, 500 * MS, 36 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 65 * 1212, 65, &st,
          &res), RTP_BURST_LIMIT_SEND);
  fail_unless_equals_uint64 (st.span, 36 * MS);
}

GST_END_TEST;

/* Frames of one packet (audio: 160 B every 20 ms, 64 kbit/s) under a cap
 * of 10 kbit/s, 128 ms a packet, and a 100 ms budget.  compress keeps the
 * frames behind each within the budget: the first frame's span is cut
 * from 128 to 100 ms, then each to the 20 ms period with 80 ms of wait
 * (without it every frame waited 108 ms more than the one before).  drop
 * leaves the span and drops the frame that would start past the budget. */
GST_START_TEST (test_limits_one_slot)
{
  RtpBurstLimits lim = { 10000, 100 * MS, RTP_BURST_OVERLOAD_COMPRESS };
  RtpBurstLimitResult res;
  RtpBurstStart st;
  guint64 start = 0;
  guint i;

  st = start_at (0, 0, 18 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 160, 1, &st, &res),
      RTP_BURST_LIMIT_SEND);
  fail_unless_equals_uint64 (st.span, 100 * MS);
  fail_unless (res.spread && res.compressed);
  fail_unless_equals_uint64 (res.backlog, 0);
  start = st.span;
  for (i = 1; i < 10; i++) {
    st = start_at (i * 20 * MS, start, 18 * MS);
    fail_unless_equals_int (rtp_burst_apply_limits (&lim, 160, 1, &st, &res),
        RTP_BURST_LIMIT_SEND);
    fail_unless_equals_uint64 (res.backlog, 80 * MS);
    fail_unless_equals_uint64 (st.span, 20 * MS);
    fail_unless (res.compressed);
    start += st.span;
  }

  /* late beyond the budget already: the next one may start at once */
  st = start_at (0, 150 * MS, 18 * MS);
  rtp_burst_apply_limits (&lim, 160, 1, &st, &res);
  fail_unless_equals_uint64 (st.span, 0);
  fail_unless_equals_uint64 (res.backlog, 150 * MS);

  /* under the cap's rate nothing changes */
  st = start_at (0, 0, 18 * MS);
  rtp_burst_apply_limits (&lim, 10, 1, &st, &res);
  fail_unless_equals_uint64 (st.span, 18 * MS);
  fail_unless (!res.spread && !res.compressed);

  /* drop: the span stays; the next frame, 108 ms late, is dropped */
  lim.overload = RTP_BURST_OVERLOAD_DROP;
  st = start_at (0, 0, 18 * MS);
  rtp_burst_apply_limits (&lim, 160, 1, &st, &res);
  fail_unless_equals_uint64 (st.span, 128 * MS);
  fail_unless (!res.compressed);
  st = start_at (20 * MS, 128 * MS, 18 * MS);
  fail_unless_equals_int (rtp_burst_apply_limits (&lim, 160, 1, &st, &res),
      RTP_BURST_LIMIT_DROP);
}

GST_END_TEST;

GST_START_TEST (test_rate_meter)
{
  RtpBurstRateMeter m;
  guint i;

  rtp_burst_rate_meter_init (&m);
  for (i = 0; i < RTP_BURST_RATE_WINDOW / 2 - 1; i++)
    rtp_burst_rate_meter_add (&m, 20000);
  /* not enough frames yet */
  fail_unless_equals_uint64 (rtp_burst_rate_meter_get (&m, 40 * MS), 0);
  rtp_burst_rate_meter_add (&m, 20000);
  /* 20000 B per 40 ms: 4 Mbit/s */
  fail_unless_equals_uint64 (rtp_burst_rate_meter_get (&m, 40 * MS), 4000000);
  fail_unless_equals_uint64 (rtp_burst_rate_meter_get (&m, 0), 0);
  /* a full window of 10000 B frames forgets the old ones */
  for (i = 0; i < RTP_BURST_RATE_WINDOW; i++)
    rtp_burst_rate_meter_add (&m, 10000);
  fail_unless_equals_uint64 (rtp_burst_rate_meter_get (&m, 40 * MS), 2000000);
}

GST_END_TEST;

static Suite *
rtpburstschedule_suite (void)
{
  Suite *s = suite_create ("rtpburstschedule");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_slot_count_equation_2);
  tcase_add_test (tc, test_span);
  tcase_add_test (tc, test_parse_framerate);
  tcase_add_test (tc, test_classify_packet);
  tcase_add_test (tc, test_period_from_rtptime);
  tcase_add_test (tc, test_period_window);
  tcase_add_test (tc, test_period_priority);
  tcase_add_test (tc, test_period_from_arrival);
  tcase_add_test (tc, test_plan_start);
  tcase_add_test (tc, test_plan_cbr);
  tcase_add_test (tc, test_plan_burst_sizes);
  tcase_add_test (tc, test_plan_inexact_division);
  tcase_add_test (tc, test_plan_more_slots_than_packets);
  tcase_add_test (tc, test_plan_jitter);
  tcase_add_test (tc, test_plan_jitter_capped_at_period);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_plan_near_end_of_time);
  tcase_add_test (tc, test_rate_span);
  tcase_add_test (tc, test_limits);
  tcase_add_test (tc, test_limits_one_slot);
  tcase_add_test (tc, test_rate_meter);
  tcase_add_test (tc, test_coarsen);
  tcase_add_test (tc, test_wakeup_tracker);
  return s;
}

GST_CHECK_MAIN (rtpburstschedule);
