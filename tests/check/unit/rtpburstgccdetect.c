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

/* Unit tests of rtpburstgccdetect.c: GCC's delay-based over-use detector
 * on its own.  The reference figures were computed apart from this code,
 * from the draft's equations (5.3, 5.4): a Python model of the Kalman
 * filter and the adaptive threshold, group by group. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include <gst/check/gstcheck.h>

#include "rtpburstgccdetect.h"

#define MS (G_GUINT64_CONSTANT (1000000))

static void
add (RtpBurstGccDetect * det, guint64 seq, guint64 send, guint64 arrival)
{
  RtpBurstFeedbackPacket p;

  p.seq = seq;
  p.send_time = send;
  p.arrival = arrival;
  p.size = 1200;
  rtp_burst_gcc_detect_add (det, &p);
}

static void
assert_near (gdouble a, gdouble b)
{
  fail_unless (fabs (a - b) < 1e-9, "%.12f != %.12f", a, b);
}

/* Packets sent 10 ms apart, each a group of its own: 12 arriving 10 ms
 * apart (11 deltas d(i) = 0), then a queue growing 2 ms a packet (d(i) =
 * 2 ms).  m(i) climbs; the scaled gradient passes the threshold at the
 * 20th delta and over-use is signalled at the 21st, 12 ms (>= 10 ms)
 * later with m(i) still rising. */
GST_START_TEST (test_detect_queue)
{
  RtpBurstGccDetect *det = rtp_burst_gcc_detect_new ();
  RtpBurstGccDetectReport r;
  guint64 seq = 0, arrival = 0;
  guint i;

  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 0);
  assert_near (r.threshold, 12.5);

  for (i = 0; i < 12; i++, seq++, arrival += 10 * MS)
    add (det, seq, seq * 10 * MS, arrival);
  /* the 12th packet completes group 11: deltas (0,1) .. (9,10) */
  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 10);
  assert_near (r.offset, 0);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);

  arrival -= 10 * MS;
  for (i = 0; i < 22; i++, seq++) {
    arrival += 12 * MS;
    rtp_burst_gcc_detect_begin (det);
    add (det, seq, seq * 10 * MS, arrival);
    rtp_burst_gcc_detect_report (det, &r);
    if (r.groups == 11) {
      /* the last of d(i) = 0 */
      assert_near (r.threshold, 12.254715514694);
    } else if (r.groups == 12) {
      assert_near (r.offset, 0.102217773493);
      assert_near (r.gradient, 1.226613281921);
      assert_near (r.threshold, 12.230894813871);
    } else if (r.groups == 20) {
      assert_near (r.gradient, 13.597949027783);
      assert_near (r.threshold, 12.326639411762);
      /* above the threshold, not yet for 10 ms */
      fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);
    } else if (r.groups == 21) {
      assert_near (r.offset, 0.732382838447);
      assert_near (r.threshold, 12.693047435236);
      fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
      fail_unless_equals_int (rtp_burst_gcc_detect_signal (det),
          RTP_BURST_GCC_OVERUSE);
      break;
    } else {
      fail_unless (r.groups > 11 && r.groups < 21, "groups %" G_GUINT64_FORMAT,
          r.groups);
      fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);
    }
  }
  fail_unless_equals_uint64 (r.groups, 21);

  /* the report's over-use outlives the signal until the next begin: a
   * packet out of order is ignored, a new report starts clean */
  add (det, 0, 0, arrival + 1 * MS);
  fail_unless_equals_int (rtp_burst_gcc_detect_signal (det),
      RTP_BURST_GCC_OVERUSE);
  rtp_burst_gcc_detect_begin (det);
  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 21);
  fail_unless_equals_int (rtp_burst_gcc_detect_signal (det), r.signal);

  rtp_burst_gcc_detect_free (det);
}

GST_END_TEST;

/* A delay variation above 3 s is a clock jump, not a queue: the filter
 * does not take it. */
GST_START_TEST (test_detect_jump)
{
  RtpBurstGccDetect *det = rtp_burst_gcc_detect_new ();
  RtpBurstGccDetectReport r;

  add (det, 0, 0, 0);
  add (det, 1, 10 * MS, 10 * MS);
  add (det, 2, 20 * MS, 20 * MS);
  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 1);
  /* group 3 arrives 4 s late: the delta (2,3) is dropped when 4 comes */
  add (det, 3, 30 * MS, 4030 * MS);
  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 2);
  add (det, 4, 40 * MS, 4040 * MS);
  rtp_burst_gcc_detect_report (det, &r);
  fail_unless_equals_uint64 (r.groups, 2);
  assert_near (r.offset, 0);

  rtp_burst_gcc_detect_free (det);
}

GST_END_TEST;

static Suite *
rtpburstgccdetect_suite (void)
{
  Suite *s = suite_create ("rtpburstgccdetect");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_detect_queue);
  tcase_add_test (tc, test_detect_jump);
  return s;
}

GST_CHECK_MAIN (rtpburstgccdetect);
