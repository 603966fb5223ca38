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

/* Unit tests of rtpburstmeter.c: peak rates, release error and gap
 * percentiles, late frames, and absurd input, with exact numbers. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "rtpburstmeter.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))

/* bit/s of @bytes in the 1 ms and the 10 ms window */
#define RATE_1MS(bytes) ((guint64) (bytes) * 8 * 1000)
#define RATE_10MS(bytes) ((guint64) (bytes) * 8 * 100)

/* a one-slot frame released on time, with no period */
static void
release (RtpBurstMeter * m, guint64 t, guint64 bytes)
{
  rtp_burst_meter_slot (m, t, t, 1, bytes, TRUE, TRUE, t, 0);
}

/* a one-slot frame released @error after its slot time 0 */
static void
release_error (RtpBurstMeter * m, guint64 error)
{
  rtp_burst_meter_slot (m, 0, error, 1, 1000, TRUE, TRUE, 0, 0);
}

static void
report (const RtpBurstMeter * m, RtpBurstMeterReport * r)
{
  /* fields the meter leaves alone must not keep garbage */
  memset (r, 0xa5, sizeof (*r));
  rtp_burst_meter_report (m, r);
}

static void
assert_empty (const RtpBurstMeter * m)
{
  RtpBurstMeterReport r, zero;

  memset (&zero, 0, sizeof (zero));
  report (m, &r);
  fail_unless (memcmp (&r, &zero, sizeof (r)) == 0);
}

GST_START_TEST (test_empty)
{
  RtpBurstMeter m;

  rtp_burst_meter_init (&m);
  assert_empty (&m);
}

GST_END_TEST;

GST_START_TEST (test_one_slot)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;

  rtp_burst_meter_init (&m);
  /* 2 packets, 1200 B, 3 us late, ending its 40 ms frame */
  rtp_burst_meter_slot (&m, 10 * MS, 10 * MS + 3 * US, 2, 1200, TRUE, TRUE,
      10 * MS, 40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.slots, 1);
  fail_unless_equals_uint64 (r.packets, 2);
  fail_unless_equals_uint64 (r.peak_rate_1ms, 9600000);
  fail_unless_equals_uint64 (r.peak_rate_10ms, 960000);
  /* 3000 is in the bucket 2816 .. 3071; one value: the exact maximum */
  fail_unless_equals_uint64 (r.error_p50, 3000);
  fail_unless_equals_uint64 (r.error_p99, 3000);
  fail_unless_equals_uint64 (r.error_max, 3000);
  fail_unless_equals_uint64 (r.gaps, 0);
  fail_unless_equals_uint64 (r.gap_min, 0);
  fail_unless_equals_uint64 (r.gap_p1, 0);
  fail_unless_equals_uint64 (r.gap_p50, 0);
  fail_unless_equals_uint64 (r.gap_p99, 0);
  fail_unless_equals_uint64 (r.frames, 1);
  fail_unless_equals_uint64 (r.late_frames, 0);
  /* 3 us of 40 ms */
  fail_unless_equals_uint64 (r.max_frame_end_permille, 0);
  fail_unless_equals_uint64 (r.window_drops, 0);
  fail_unless_equals_uint64 (r.backwards, 0);
}

GST_END_TEST;

GST_START_TEST (test_peak_rate_spacing)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  /* 1000 B every 100 us: a 1 ms window (t - 1 ms, t] holds 10 slots */
  for (i = 0; i < 11; i++)
    release (&m, i * 100 * US, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (10000));
  fail_unless_equals_uint64 (r.peak_rate_1ms, 80000000);
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (11000));
  fail_unless_equals_uint64 (m.sum_short, 10000);

  for (; i < 25; i++)
    release (&m, i * 100 * US, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, 80000000);
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (25000));
  fail_unless_equals_uint64 (r.peak_rate_10ms, 20000000);

  /* and 100 of them: the 10 ms window holds 100, 8 Mbit/s either way */
  for (; i < 200; i++)
    release (&m, i * 100 * US, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, 80000000);
  fail_unless_equals_uint64 (r.peak_rate_10ms, 80000000);
  fail_unless_equals_uint64 (m.sum_long, 100000);
  fail_unless_equals_uint64 (r.window_drops, 0);
}

GST_END_TEST;

GST_START_TEST (test_peak_rate_window_edges)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;

  /* a slot exactly one window earlier is out of it */
  rtp_burst_meter_init (&m);
  release (&m, 0, 1000);
  release (&m, 1 * MS, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (1000));
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (2000));

  /* 1 ns later it is in */
  rtp_burst_meter_init (&m);
  release (&m, 0, 1000);
  release (&m, 1 * MS - 1, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (2000));

  rtp_burst_meter_init (&m);
  release (&m, 0, 1000);
  release (&m, 10 * MS, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (1000));

  rtp_burst_meter_init (&m);
  release (&m, 0, 1000);
  release (&m, 10 * MS - 1, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (2000));
}

GST_END_TEST;

GST_START_TEST (test_peak_rate_largest_window)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  /* 5 slots of 1500 B at one instant (a late wake-up), sharing one entry */
  for (i = 0; i < 5; i++)
    release (&m, 0, 1500);
  fail_unless_equals_int (m.head, 1);
  /* then one every 2 ms */
  for (i = 1; i <= 10; i++)
    release (&m, i * 2 * MS, 1500);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (7500));
  fail_unless_equals_uint64 (r.peak_rate_1ms, 60000000);
  /* the window ending at 8 ms: 0, 2, 4, 6, 8; at 10 ms the burst is out */
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (13500));
  fail_unless_equals_uint64 (r.peak_rate_10ms, 10800000);
  fail_unless_equals_uint64 (m.sum_long, 7500);
}

GST_END_TEST;

GST_START_TEST (test_ring_overflow)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  /* more distinct release times within 10 ms than the ring holds:
   * 266 slots of 100 B, 1 us apart */
  for (i = 0; i < RTP_BURST_METER_RING + 10; i++)
    release (&m, i * US, 100);
  report (&m, &r);
  /* the true peaks hold 266 slots; the meter drops the oldest 10 early
   * and under-estimates, and says so */
  fail_unless_equals_uint64 (r.window_drops, 10);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (25600));
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (25600));

  /* the sums stay consistent: 20 ms later the windows hold one slot */
  release (&m, 20 * MS, 700);
  fail_unless_equals_uint64 (m.sum_short, 700);
  fail_unless_equals_uint64 (m.sum_long, 700);
  fail_unless_equals_int (m.head - m.tail_long, 1);
  report (&m, &r);
  fail_unless_equals_uint64 (r.window_drops, 10);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (25600));
}

GST_END_TEST;

GST_START_TEST (test_ring_index_wrap)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  /* the free-running indices wrap around G_MAXUINT */
  rtp_burst_meter_init (&m);
  m.head = m.tail_short = m.tail_long = G_MAXUINT - 5;
  for (i = 0; i < 30; i++)
    release (&m, i * 400 * US, 1000);
  report (&m, &r);
  /* (t - 1 ms, t] holds 3 slots 400 us apart, (t - 10 ms, t] 25 */
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (3000));
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (25000));
  fail_unless_equals_uint64 (m.sum_long, 25000);
  fail_unless_equals_int (m.head - m.tail_long, 25);
  fail_unless_equals_int (m.head, 24);
}

GST_END_TEST;

GST_START_TEST (test_error_percentiles)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  for (i = 0; i < 97; i++)
    release_error (&m, 1000);
  /* early: counts as 0 */
  rtp_burst_meter_slot (&m, 5 * MS, 5 * MS - 2000, 1, 1000, TRUE, TRUE, 0, 0);
  release_error (&m, 1 * MS);
  release_error (&m, 5 * MS);
  report (&m, &r);
  /* 0, 97 x 1000, 1 ms, 5 ms: p50 = 1000 in 960 .. 1023, p99 = 1 ms in
   * 983040 .. 1048575 */
  fail_unless_equals_uint64 (r.error_p50, 1023);
  fail_unless_equals_uint64 (r.error_p99, 1048575);
  fail_unless_equals_uint64 (r.error_max, 5 * MS);
  fail_unless_equals_uint64 (r.slots, 100);
  fail_unless_equals_uint64 (r.frames, 100);

  /* 1 .. 100 ns: p50 = 50 in 48 .. 51; p99 = 99 in 96 .. 103, at most the
   * maximum */
  rtp_burst_meter_init (&m);
  for (i = 1; i <= 100; i++)
    release_error (&m, i);
  report (&m, &r);
  fail_unless_equals_uint64 (r.error_p50, 51);
  fail_unless_equals_uint64 (r.error_p99, 100);
  fail_unless_equals_uint64 (r.error_max, 100);

  /* rank ceil (n * p / 100): with 101 values p99 is the 100th */
  release_error (&m, 101);
  report (&m, &r);
  fail_unless_equals_uint64 (r.error_p99, 101);
  fail_unless_equals_uint64 (r.error_p50, 51);

  /* 2 values: p50 is the smaller */
  rtp_burst_meter_init (&m);
  release_error (&m, 7);
  release_error (&m, 8 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.error_p50, 7);
  fail_unless_equals_uint64 (r.error_p99, 8 * MS);
}

GST_END_TEST;

/* the percentile the meter reports for @v: @v and a much larger value,
 * p50 = the bucket of @v */
static guint64
reported (guint64 v)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;

  rtp_burst_meter_init (&m);
  release_error (&m, v);
  release_error (&m, G_MAXUINT64);
  report (&m, &r);
  fail_unless_equals_uint64 (r.error_max, G_MAXUINT64);
  return r.error_p50;
}

GST_START_TEST (test_histogram_buckets)
{
  guint64 v, lo;
  guint k, s;

  /* below 8 ns: exact */
  for (v = 0; v < 8; v++)
    fail_unless_equals_uint64 (reported (v), v);
  fail_unless_equals_uint64 (reported (8), 8);
  fail_unless_equals_uint64 (reported (15), 15);
  fail_unless_equals_uint64 (reported (16), 17);
  fail_unless_equals_uint64 (reported (17), 17);
  fail_unless_equals_uint64 (reported (18), 19);
  fail_unless_equals_uint64 (reported (1023), 1023);
  fail_unless_equals_uint64 (reported (1024), 1151);

  /* every bucket from 8 ns to 2^40 ns: 8 per power of two, each reported
   * as its last value, less than 12.5 % above its first */
  for (k = 3; k < 40; k++) {
    for (s = 0; s < 8; s++) {
      lo = (G_GUINT64_CONSTANT (8) + s) << (k - 3);
      v = lo + (G_GUINT64_CONSTANT (1) << (k - 3)) - 1;
      fail_unless_equals_uint64 (reported (lo), v);
      fail_unless_equals_uint64 (reported (v), v);
      fail_unless ((v - lo) * 8 < lo);
    }
  }
  fail_unless_equals_uint64 (reported ((G_GUINT64_CONSTANT (1) << 40) - 1),
      (G_GUINT64_CONSTANT (1) << 40) - 1);
  /* from 2^40 ns on: the last bucket, reported as the maximum */
  fail_unless_equals_uint64 (reported (G_GUINT64_CONSTANT (1) << 40),
      G_MAXUINT64);
  fail_unless_equals_uint64 (reported (G_MAXUINT64 - 1), G_MAXUINT64);
}

GST_END_TEST;

GST_START_TEST (test_gaps)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;
  guint64 t;

  rtp_burst_meter_init (&m);
  /* a frame of 4 slots 1 ms apart */
  for (i = 0; i < 4; i++)
    rtp_burst_meter_slot (&m, i * MS, i * MS, 1, 1000, i == 0, i == 3, 0,
        40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 3);
  fail_unless_equals_uint64 (r.gap_min, 1 * MS);
  fail_unless_equals_uint64 (r.gap_p1, 1 * MS);
  fail_unless_equals_uint64 (r.gap_p50, 1 * MS);
  fail_unless_equals_uint64 (r.gap_p99, 1 * MS);

  /* a one-slot frame, then a frame of two slots 10 us apart: the time
   * between frames is no gap */
  release (&m, 40 * MS, 1000);
  rtp_burst_meter_slot (&m, 80 * MS, 80 * MS, 1, 1000, TRUE, FALSE, 80 * MS,
      40 * MS);
  rtp_burst_meter_slot (&m, 80 * MS + 10 * US, 80 * MS + 10 * US, 1, 1000,
      FALSE, TRUE, 80 * MS, 40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 4);
  fail_unless_equals_uint64 (r.gap_min, 10 * US);
  /* 10000 is in 9216 .. 10239 */
  fail_unless_equals_uint64 (r.gap_p1, 10239);
  fail_unless_equals_uint64 (r.gap_p50, 1 * MS);
  fail_unless_equals_uint64 (r.gap_p99, 1 * MS);

  /* 100 gaps in one frame: 10 us, 98 x 1 ms, 5 ms */
  rtp_burst_meter_init (&m);
  t = 100 * MS;
  rtp_burst_meter_slot (&m, t, t, 1, 1000, TRUE, FALSE, 100 * MS, 0);
  t += 10 * US;
  rtp_burst_meter_slot (&m, t, t, 1, 1000, FALSE, FALSE, 100 * MS, 0);
  for (i = 0; i < 98; i++) {
    t += 1 * MS;
    rtp_burst_meter_slot (&m, t, t, 1, 1000, FALSE, FALSE, 100 * MS, 0);
  }
  t += 5 * MS;
  rtp_burst_meter_slot (&m, t, t, 1, 1000, FALSE, TRUE, 100 * MS, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 100);
  fail_unless_equals_uint64 (r.gap_min, 10 * US);
  fail_unless_equals_uint64 (r.gap_p1, 10239);
  fail_unless_equals_uint64 (r.gap_p50, 1048575);
  fail_unless_equals_uint64 (r.gap_p99, 1048575);
  fail_unless_equals_uint64 (r.frames, 1);
}

GST_END_TEST;

GST_START_TEST (test_gaps_frame_flags)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  /* one-slot frames (of 3 packets) have no gaps */
  for (i = 0; i < 5; i++)
    rtp_burst_meter_slot (&m, i * MS, i * MS, 3, 3000, TRUE, TRUE, i * MS,
        1 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 0);
  fail_unless_equals_uint64 (r.gap_p50, 0);
  fail_unless_equals_uint64 (r.frames, 5);
  fail_unless_equals_uint64 (r.packets, 15);

  /* a slot with neither flag continues the frame; after a frame's last
   * slot it starts a gap chain of its own (a frame whose first slot was
   * not seen) */
  rtp_burst_meter_slot (&m, 10 * MS, 10 * MS, 1, 100, FALSE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 11 * MS, 11 * MS, 1, 100, FALSE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 13 * MS, 13 * MS, 1, 100, FALSE, TRUE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 2);
  fail_unless_equals_uint64 (r.gap_min, 1 * MS);
  fail_unless_equals_uint64 (r.gap_p99, 2 * MS);

  /* two slots of a frame at the same time: a gap of 0 */
  rtp_burst_meter_slot (&m, 20 * MS, 20 * MS, 1, 100, TRUE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 20 * MS, 20 * MS, 1, 100, FALSE, TRUE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.gaps, 3);
  fail_unless_equals_uint64 (r.gap_min, 0);
  fail_unless_equals_uint64 (r.gap_p1, 0);
}

GST_END_TEST;

GST_START_TEST (test_late_frames)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;

  rtp_burst_meter_init (&m);
  /* 40 ms frames: the last slot 36 ms after the first slot's time */
  rtp_burst_meter_slot (&m, 0, 0, 1, 1000, TRUE, FALSE, 0, 40 * MS);
  rtp_burst_meter_slot (&m, 36 * MS, 36 * MS, 1, 1000, FALSE, TRUE, 0,
      40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.frames, 1);
  fail_unless_equals_uint64 (r.late_frames, 0);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 900);

  /* ending exactly one period after: not late */
  rtp_burst_meter_slot (&m, 40 * MS, 41 * MS, 1, 1000, TRUE, FALSE, 40 * MS,
      40 * MS);
  rtp_burst_meter_slot (&m, 76 * MS, 80 * MS, 1, 1000, FALSE, TRUE, 40 * MS,
      40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.late_frames, 0);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 1000);

  /* 1 ms over: late, 1025 per mille; judged against the first slot's
   * scheduled time, however late it was released */
  rtp_burst_meter_slot (&m, 80 * MS, 90 * MS, 1, 1000, TRUE, FALSE, 80 * MS,
      40 * MS);
  rtp_burst_meter_slot (&m, 116 * MS, 121 * MS, 1, 1000, FALSE, TRUE,
      80 * MS, 40 * MS);
  /* 1 ns over: late, 1000 per mille (rounded down) */
  rtp_burst_meter_slot (&m, 120 * MS, 160 * MS + 1, 1, 1000, TRUE, TRUE,
      120 * MS, 40 * MS);
  /* no period: counted, not judged */
  rtp_burst_meter_slot (&m, 200 * MS, 900 * MS, 1, 1000, TRUE, TRUE,
      200 * MS, 0);
  /* ending before its start: 0 */
  rtp_burst_meter_slot (&m, 1000 * MS, 999 * MS, 1, 1000, TRUE, TRUE,
      1000 * MS, 40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.frames, 6);
  fail_unless_equals_uint64 (r.late_frames, 2);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 1025);
  /* a frame's first slot alone is no frame */
  rtp_burst_meter_slot (&m, 1040 * MS, 1200 * MS, 1, 1000, TRUE, FALSE,
      1040 * MS, 40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.frames, 6);
  fail_unless_equals_uint64 (r.late_frames, 2);

  /* two periods over */
  rtp_burst_meter_slot (&m, 1041 * MS, 1200 * MS, 1, 1000, FALSE, TRUE,
      1040 * MS, 40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.frames, 7);
  fail_unless_equals_uint64 (r.late_frames, 3);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 4000);
}

GST_END_TEST;

GST_START_TEST (test_steady_stream)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint f, i;
  guint64 start, t, error;

  /* the README's stream: 32 slots of 1000 B per 40 ms frame, 1.125 ms
   * apart; releases on that grid, slot times 0 .. 9 us before them */
  rtp_burst_meter_init (&m);
  for (f = 0; f < 1000; f++) {
    start = 40 * MS * f;
    for (i = 0; i < 32; i++) {
      t = start + i * 1125 * US;
      error = (f * 32 + i) % 10 * US;
      rtp_burst_meter_slot (&m, t - MIN (error, t), t, 1, 1000, i == 0,
          i == 31, start, 40 * MS);
    }
  }
  report (&m, &r);
  fail_unless_equals_uint64 (r.slots, 32000);
  fail_unless_equals_uint64 (r.frames, 1000);
  fail_unless_equals_uint64 (r.late_frames, 0);
  /* 34.875 ms of 40 */
  fail_unless_equals_uint64 (r.max_frame_end_permille, 871);
  /* one slot per 1 ms window, 9 per 10 ms */
  fail_unless_equals_uint64 (r.peak_rate_1ms, 8000000);
  fail_unless_equals_uint64 (r.peak_rate_10ms, 7200000);
  fail_unless_equals_uint64 (r.window_drops, 0);
  /* 1125000 is in 1048576 .. 1179647, capped at the maximum */
  fail_unless_equals_uint64 (r.gaps, 31000);
  fail_unless_equals_uint64 (r.gap_min, 1125 * US);
  fail_unless_equals_uint64 (r.gap_p1, 1125 * US);
  fail_unless_equals_uint64 (r.gap_p50, 1125 * US);
  fail_unless_equals_uint64 (r.gap_p99, 1125 * US);
  /* errors 0, 1, .. 9 us, 10 % each:
   * p50 = 4 us in 3840 .. 4095, p99 = 9 us in 8192 .. 9215, capped */
  fail_unless_equals_uint64 (r.error_p50, 4095);
  fail_unless_equals_uint64 (r.error_p99, 9 * US);
  fail_unless_equals_uint64 (r.error_max, 9 * US);
}

GST_END_TEST;

GST_START_TEST (test_backwards)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;

  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, 10 * MS, 10 * MS, 1, 1000, TRUE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 10200 * US, 10200 * US, 1, 1000, FALSE, FALSE,
      0, 0);
  rtp_burst_meter_slot (&m, 10400 * US, 10400 * US, 1, 1000, FALSE, FALSE,
      0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (3000));

  /* the time base restarts at 1 ms, in the same frame */
  rtp_burst_meter_slot (&m, 1 * MS, 1 * MS, 1, 1000, FALSE, FALSE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.backwards, 1);
  fail_unless_equals_uint64 (r.gaps, 2);
  fail_unless_equals_uint64 (m.sum_short, 1000);
  fail_unless_equals_uint64 (m.sum_long, 1000);
  /* the peaks so far stay */
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (3000));

  /* and the windows go on from the new times alone: 4 slots, not 7 */
  rtp_burst_meter_slot (&m, 1100 * US, 1100 * US, 1, 1000, FALSE, FALSE, 0,
      0);
  rtp_burst_meter_slot (&m, 1200 * US, 1200 * US, 1, 1000, FALSE, FALSE, 0,
      0);
  rtp_burst_meter_slot (&m, 1300 * US, 1300 * US, 1, 1000, FALSE, TRUE, 0,
      40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (4000));
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (4000));
  fail_unless_equals_uint64 (r.backwards, 1);
  fail_unless_equals_uint64 (r.gaps, 5);
  fail_unless_equals_uint64 (r.gap_min, 100 * US);
  fail_unless_equals_uint64 (r.slots, 7);
  fail_unless_equals_uint64 (r.frames, 1);
  fail_unless_equals_uint64 (r.error_max, 0);

  /* an equal time is not backwards */
  rtp_burst_meter_slot (&m, 1300 * US, 1300 * US, 1, 1000, TRUE, TRUE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.backwards, 1);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (5000));
}

GST_END_TEST;

GST_START_TEST (test_huge_times)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  const guint64 t0 = G_MAXUINT64 - 2 * MS;

  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, t0, t0, 1, 1000, TRUE, FALSE, 0, 40 * MS);
  rtp_burst_meter_slot (&m, t0 + MS, t0 + MS, 1, 1000, FALSE, FALSE, 0,
      40 * MS);
  /* slot time 0, released at 2^64 - 1 */
  rtp_burst_meter_slot (&m, 0, G_MAXUINT64, 1, 1000, FALSE, TRUE, 0,
      40 * MS);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (1000));
  fail_unless_equals_uint64 (r.peak_rate_10ms, RATE_10MS (3000));
  fail_unless_equals_uint64 (r.gaps, 2);
  fail_unless_equals_uint64 (r.gap_p99, 1 * MS);
  fail_unless_equals_uint64 (r.error_p50, 0);
  fail_unless_equals_uint64 (r.error_p99, G_MAXUINT64);
  fail_unless_equals_uint64 (r.error_max, G_MAXUINT64);
  fail_unless_equals_uint64 (r.late_frames, 1);
  fail_unless_equals_uint64 (r.max_frame_end_permille, G_MAXUINT);
  fail_unless_equals_uint64 (r.backwards, 0);

  /* and back to small times */
  release (&m, 5, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.backwards, 1);
  fail_unless_equals_uint64 (m.sum_long, 1000);

  /* huge periods */
  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, 0, G_MAXUINT64, 1, 1000, TRUE, TRUE, 0,
      G_MAXUINT64);
  report (&m, &r);
  fail_unless_equals_uint64 (r.late_frames, 0);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 1000);
  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, 0, G_MAXUINT64 / 2, 1, 1000, TRUE, TRUE, 0,
      G_MAXUINT64);
  report (&m, &r);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 499);
  /* the largest ratio below the saturation */
  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, 0, 4294966 * G_GUINT64_CONSTANT (1000) + 999, 1,
      1000, TRUE, TRUE, 0, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.max_frame_end_permille, 4294966999u);
  rtp_burst_meter_slot (&m, 0, 4294967 * G_GUINT64_CONSTANT (1000), 1, 1000,
      TRUE, TRUE, 0, 1000);
  report (&m, &r);
  fail_unless_equals_uint64 (r.max_frame_end_permille, G_MAXUINT);
}

GST_END_TEST;

GST_START_TEST (test_huge_bytes)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  /* an entry holds at most G_MAXUINT32 bytes */
  rtp_burst_meter_slot (&m, 0, 0, G_MAXUINT, G_MAXUINT64, TRUE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 0, 0, G_MAXUINT, G_MAXUINT64, FALSE, TRUE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.packets, 2 * (guint64) G_MAXUINT);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (G_MAXUINT32));
  rtp_burst_meter_slot (&m, US, US, 1, G_MAXUINT64, TRUE, TRUE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (G_MAXUINT32) * 2);

  /* a full ring of them: the largest sums there can be */
  rtp_burst_meter_init (&m);
  for (i = 0; i < RTP_BURST_METER_RING + 1; i++)
    release (&m, i, G_MAXUINT64);
  report (&m, &r);
  fail_unless_equals_uint64 (r.window_drops, 1);
  fail_unless_equals_uint64 (r.peak_rate_1ms,
      RATE_1MS (G_MAXUINT32) * RTP_BURST_METER_RING);
  fail_unless_equals_uint64 (r.peak_rate_10ms,
      RATE_10MS (G_MAXUINT32) * RTP_BURST_METER_RING);

  /* 0 bytes: no entry, no rate, but a slot with its error and gap */
  rtp_burst_meter_init (&m);
  rtp_burst_meter_slot (&m, 0, 5 * US, 0, 0, TRUE, FALSE, 0, 0);
  rtp_burst_meter_slot (&m, 0, 7 * US, 0, 0, FALSE, TRUE, 0, 0);
  fail_unless_equals_int (m.head, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.slots, 2);
  fail_unless_equals_uint64 (r.peak_rate_1ms, 0);
  fail_unless_equals_uint64 (r.peak_rate_10ms, 0);
  fail_unless_equals_uint64 (r.error_max, 7 * US);
  fail_unless_equals_uint64 (r.gaps, 1);
  fail_unless_equals_uint64 (r.gap_min, 2 * US);
}

GST_END_TEST;

GST_START_TEST (test_reset)
{
  RtpBurstMeter m;
  RtpBurstMeterReport r;
  guint i;

  rtp_burst_meter_init (&m);
  for (i = 0; i < 1000; i++)
    rtp_burst_meter_slot (&m, i * 100 * US, i * 100 * US + i, 1, 1000,
        i % 10 == 0, i % 10 == 9, (i / 10) * MS, 500 * US);
  report (&m, &r);
  fail_unless_equals_uint64 (r.frames, 100);
  fail_unless_equals_uint64 (r.late_frames, 100);
  fail_unless_equals_uint64 (r.gaps, 900);
  fail_unless (r.peak_rate_1ms > 0);

  rtp_burst_meter_init (&m);
  assert_empty (&m);

  /* an earlier time after the reset is a first slot, not backwards, and
   * starts no gap */
  rtp_burst_meter_slot (&m, 0, 0, 1, 1000, FALSE, FALSE, 0, 0);
  report (&m, &r);
  fail_unless_equals_uint64 (r.backwards, 0);
  fail_unless_equals_uint64 (r.gaps, 0);
  fail_unless_equals_uint64 (r.slots, 1);
  fail_unless_equals_uint64 (r.peak_rate_1ms, RATE_1MS (1000));
}

GST_END_TEST;

static Suite *
rtpburstmeter_suite (void)
{
  Suite *s = suite_create ("rtpburstmeter");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_empty);
  tcase_add_test (tc, test_one_slot);
  tcase_add_test (tc, test_peak_rate_spacing);
  tcase_add_test (tc, test_peak_rate_window_edges);
  tcase_add_test (tc, test_peak_rate_largest_window);
  tcase_add_test (tc, test_ring_overflow);
  tcase_add_test (tc, test_ring_index_wrap);
  tcase_add_test (tc, test_error_percentiles);
  tcase_add_test (tc, test_histogram_buckets);
  tcase_add_test (tc, test_gaps);
  tcase_add_test (tc, test_gaps_frame_flags);
  tcase_add_test (tc, test_late_frames);
  tcase_add_test (tc, test_steady_stream);
  tcase_add_test (tc, test_backwards);
  tcase_add_test (tc, test_huge_times);
  tcase_add_test (tc, test_huge_bytes);
  tcase_add_test (tc, test_reset);
  return s;
}

GST_CHECK_MAIN (rtpburstmeter);
