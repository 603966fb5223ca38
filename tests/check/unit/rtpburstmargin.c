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

/* Unit tests of rtpburstmargin.c: the automatic margin, exact times. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstmargin.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))
#define PERIOD (G_GUINT64_CONSTANT (33333333))

GST_START_TEST (test_margin_need)
{
  RtpBurstMargin m;

  rtp_burst_margin_init (&m);
  fail_unless_equals_uint64 (m.margin, 0);
  /* frames that ended in time need nothing, however late their end */
  rtp_burst_margin_frame (&m, PERIOD, 20 * MS, PERIOD);
  rtp_burst_margin_frame (&m, 30 * MS, 29 * MS, PERIOD);
  rtp_burst_margin_frame (&m, 33 * MS, 25 * MS, PERIOD);
  fail_unless_equals_uint64 (m.margin, 0);
  /* raw 1080p30: the slots from 29.88 ms on left at 33.51 ms: the frame
   * needed 33.33 - 29.82 ms (its last slot on time) free */
  rtp_burst_margin_frame (&m, 33512 * US, 29821 * US, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD - 29821 * US);
  /* the largest need counts */
  rtp_burst_margin_frame (&m, 34 * MS, 29500 * US, PERIOD);
  rtp_burst_margin_frame (&m, 33436 * US, 29582 * US, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD - 29500 * US);
  /* late slots from before the last quarter on: a stall no margin would
   * have helped against; it needs nothing */
  rtp_burst_margin_frame (&m, 80 * MS, 1 * MS, PERIOD);
  rtp_burst_margin_frame (&m, 34208 * US, 10458 * US, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD - 29500 * US);
  /* ... a quarter period is still an end */
  rtp_burst_margin_frame (&m, 34 * MS, PERIOD - PERIOD / 4, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD / 4);
  /* an offset after the period needs nothing more than the end */
  rtp_burst_margin_init (&m);
  rtp_burst_margin_frame (&m, 40 * MS, 50 * MS, PERIOD);
  fail_unless_equals_uint64 (m.need[0], 0);
}

GST_END_TEST;

GST_START_TEST (test_margin_window)
{
  RtpBurstMargin m;
  guint i;

  rtp_burst_margin_init (&m);
  rtp_burst_margin_frame (&m, 34 * MS, 29 * MS, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD - 29 * MS);
  /* the need stays for the window, then leaves it */
  for (i = 0; i < RTP_BURST_MARGIN_WINDOW - 1; i++)
    rtp_burst_margin_frame (&m, 30 * MS, 30 * MS, PERIOD);
  fail_unless_equals_uint64 (m.margin, PERIOD - 29 * MS);
  rtp_burst_margin_frame (&m, 30 * MS, 30 * MS, PERIOD);
  fail_unless_equals_uint64 (m.margin, 0);
  rtp_burst_margin_frame (&m, 34 * MS, 29 * MS, PERIOD);
  rtp_burst_margin_init (&m);
  fail_unless_equals_uint64 (m.margin, 0);
}

GST_END_TEST;

GST_START_TEST (test_margin_span)
{
  gboolean shortened = TRUE;

  /* 40 ms, duty 0.9, 10 slots: 36 ms, the last slot at 32.4 ms, while the
   * margin fits in the 7.6 ms after it */
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9, 0, 10,
          &shortened), 36 * MS);
  fail_if (shortened);
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9, 7600 * US,
          10, &shortened), 36 * MS);
  fail_if (shortened);
  /* 8.5 ms: (40 - 8.5) x 10 / 9 = 35 ms, the last slot at 31.5 ms */
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9, 8500 * US,
          10, &shortened), 35 * MS);
  fail_unless (shortened);
  /* never below half the period */
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9, 30 * MS,
          10, &shortened), 20 * MS);
  fail_unless (shortened);
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9,
          G_MAXUINT64, G_MAXUINT, NULL), 20 * MS);
  /* ... nor above duty: a short duty has its own margin */
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.3, 30 * MS,
          10, &shortened), 12 * MS);
  fail_if (shortened);
  /* one slot, or duty 0: one burst at the start, nothing to shorten */
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.9, 30 * MS,
          1, &shortened), 36 * MS);
  fail_if (shortened);
  fail_unless_equals_uint64 (rtp_burst_margin_span (40 * MS, 0.0, 30 * MS,
          10, &shortened), 0);
  fail_if (shortened);
  /* raw 1080p30, 502 slots, 3.5 ms to keep free at the end:
   * (33333333 - 3500000) x 502 / 501 = 29892880 */
  fail_unless_equals_uint64 (rtp_burst_margin_span (PERIOD, 0.9, 3500 * US,
          502, &shortened), 29833333 + 29833333 / 501);
  fail_unless (shortened);
}

GST_END_TEST;

static Suite *
rtpburstmargin_suite (void)
{
  Suite *s = suite_create ("rtpburstmargin");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_margin_need);
  tcase_add_test (tc, test_margin_window);
  tcase_add_test (tc, test_margin_span);
  return s;
}

GST_CHECK_MAIN (rtpburstmargin);
