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

/* Unit tests of rtpbursttxtime.c: release times for the kernel, exact ns. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpbursttxtime.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define SECOND (G_GUINT64_CONSTANT (1000000000))

GST_START_TEST (test_clock_time)
{
  guint64 t = 0;

  /* running time + base time */
  fail_unless (rtp_burst_txtime_clock_time (5 * MS, 100 * SECOND, 0, 0, 0, &t));
  fail_unless_equals_uint64 (t, 100 * SECOND + 5 * MS);
  /* + latency + ts-offset - render-delay, as a synchronising sink */
  fail_unless (rtp_burst_txtime_clock_time (5 * MS, 100 * SECOND, 20 * MS,
          3 * MS, 2 * MS, &t));
  fail_unless_equals_uint64 (t, 100 * SECOND + 26 * MS);
  /* a negative ts-offset */
  fail_unless (rtp_burst_txtime_clock_time (5 * MS, 100 * SECOND, 20 * MS,
          -(gint64) (7 * MS), 0, &t));
  fail_unless_equals_uint64 (t, 100 * SECOND + 18 * MS);
  /* ... larger than the time: 0, then render-delay keeps it at 0 */
  fail_unless (rtp_burst_txtime_clock_time (5 * MS, 100 * SECOND, 0,
          -(gint64) (7 * MS), 1 * MS, &t));
  fail_unless_equals_uint64 (t, 100 * SECOND);
  fail_unless (rtp_burst_txtime_clock_time (5 * MS, 100 * SECOND, 0,
          G_MININT64, 0, &t));
  fail_unless_equals_uint64 (t, 100 * SECOND);
  /* render-delay larger than the time */
  fail_unless (rtp_burst_txtime_clock_time (1 * MS, 7, 0, 0, 2 * MS, &t));
  fail_unless_equals_uint64 (t, 7);
  /* what does not fit in 64 bits leaves t alone */
  t = 42;
  fail_if (rtp_burst_txtime_clock_time (G_MAXUINT64 - 1, 0, 2, 0, 0, &t));
  fail_if (rtp_burst_txtime_clock_time (G_MAXUINT64 - 1, 0, 0, 2, 0, &t));
  fail_if (rtp_burst_txtime_clock_time (G_MAXUINT64 - 1, 2, 0, 0, 0, &t));
  fail_unless_equals_uint64 (t, 42);
  fail_unless (rtp_burst_txtime_clock_time (G_MAXUINT64 - 2, 1, 1, 0, 0, &t));
  fail_unless_equals_uint64 (t, G_MAXUINT64);
}

GST_END_TEST;

GST_START_TEST (test_offset)
{
  /* the kernel clock 37 s ahead (TAI of a monotonic clock, say), read
   * between two readings 1000 ns apart: measured from their middle */
  fail_unless_equals_int64 (rtp_burst_txtime_offset (10 * SECOND,
          47 * SECOND + 500, 10 * SECOND + 1000), 37 * SECOND);
  /* behind */
  fail_unless_equals_int64 (rtp_burst_txtime_offset (50 * SECOND,
          3 * SECOND + 1, 50 * SECOND + 3), -(gint64) (47 * SECOND));
  /* a clock that does not move (GstTestClock): exact */
  fail_unless_equals_int64 (rtp_burst_txtime_offset (2 * SECOND,
          123456789, 2 * SECOND), 123456789 - (gint64) (2 * SECOND));
  /* readings in the wrong order are taken in the right one */
  fail_unless_equals_int64 (rtp_burst_txtime_offset (1000, 0, 0), -500);
  /* no overflow at the ends */
  fail_unless_equals_int64 (rtp_burst_txtime_offset (G_MAXUINT64 - 1,
          5, G_MAXUINT64 - 1), G_MININT64);
  fail_unless_equals_int64 (rtp_burst_txtime_offset (0, G_MAXUINT64, 0),
      G_MAXINT64);
  fail_unless_equals_int64 (rtp_burst_txtime_offset (G_MAXUINT64,
          G_MAXUINT64, G_MAXUINT64), 0);
}

GST_END_TEST;

GST_START_TEST (test_to_kernel)
{
  guint64 tx = 42;

  fail_unless (rtp_burst_txtime_to_kernel (100 * SECOND, 0, &tx));
  fail_unless_equals_uint64 (tx, 100 * SECOND);
  fail_unless (rtp_burst_txtime_to_kernel (100 * SECOND, 37 * SECOND, &tx));
  fail_unless_equals_uint64 (tx, 137 * SECOND);
  fail_unless (rtp_burst_txtime_to_kernel (100 * SECOND,
          -(gint64) (60 * SECOND), &tx));
  fail_unless_equals_uint64 (tx, 40 * SECOND);
  fail_unless (rtp_burst_txtime_to_kernel (100 * SECOND,
          -(gint64) (100 * SECOND), &tx));
  fail_unless_equals_uint64 (tx, 0);
  /* before the kernel clock's 0, or beyond 64 bits: not set */
  tx = 42;
  fail_if (rtp_burst_txtime_to_kernel (100 * SECOND,
          -(gint64) (100 * SECOND) - 1, &tx));
  fail_if (rtp_burst_txtime_to_kernel (0, G_MININT64, &tx));
  fail_if (rtp_burst_txtime_to_kernel (G_MAXUINT64, 1, &tx));
  fail_unless_equals_uint64 (tx, 42);
  fail_unless (rtp_burst_txtime_to_kernel (G_MAXUINT64, G_MININT64, &tx));
  fail_unless_equals_uint64 (tx, G_MAXUINT64 - G_MAXINT64 - 1);
}

GST_END_TEST;

GST_START_TEST (test_from_error)
{
  /* etf's report: the upper half in ee_data, the lower in ee_info */
  fail_unless_equals_uint64 (rtp_burst_txtime_from_error (0x12, 0x3456789a),
      G_GUINT64_CONSTANT (0x123456789a));
  fail_unless_equals_uint64 (rtp_burst_txtime_from_error (0xffffffff,
          0xffffffff), G_MAXUINT64);
}

GST_END_TEST;

static Suite *
rtpbursttxtime_suite (void)
{
  Suite *s = suite_create ("rtpbursttxtime");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_clock_time);
  tcase_add_test (tc, test_offset);
  tcase_add_test (tc, test_to_kernel);
  tcase_add_test (tc, test_from_error);
  return s;
}

GST_CHECK_MAIN (rtpbursttxtime);
