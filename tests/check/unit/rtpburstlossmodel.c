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

/* Unit tests of rtpburstlossmodel.c: the loss model on its own, exact
 * (the figures are the grid's: the median rate x 2^(k/8)). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include <gst/check/gstcheck.h>

#include "rtpburstlossmodel.h"

#define N RTP_BURST_LOSS_MODEL_OBSERVATIONS

/* @n observations of 100 packets, alternately at @odd (lost @odd_lost)
 * and @even (lost @even_lost) bit/s, the first odd */
static void
add_alternating (RtpBurstLossModel * m, guint n, gdouble odd, guint odd_lost,
    gdouble even, guint even_lost)
{
  guint i;

  for (i = 0; i < n; i++) {
    if (i % 2 == 0)
      rtp_burst_loss_model_add (m, 100, odd_lost, odd);
    else
      rtp_burst_loss_model_add (m, 100, even_lost, even);
  }
}

static void
assert_fit (RtpBurstLossModel * m, gdouble median, gint k, gdouble eps)
{
  gdouble inherent = -1;
  gdouble b = rtp_burst_loss_model_bandwidth (m, &inherent);

  fail_unless (fabs (b - median * exp2 (k / 8.0)) < 1e-6,
      "B %f, expected %f", b, median * exp2 (k / 8.0));
  fail_unless (fabs (inherent - eps) < 1e-9, "eps %f, expected %f",
      inherent, eps);
}

GST_START_TEST (test_loss_model_needs_observations)
{
  RtpBurstLossModel *m = rtp_burst_loss_model_new ();
  gdouble inherent = -1;

  /* one short of the window: none */
  add_alternating (m, N - 1, 1e6, 15, 3e6, 15);
  fail_unless (rtp_burst_loss_model_bandwidth (m, &inherent) == 0);
  fail_unless (inherent == 0);
  add_alternating (m, 1, 1e6, 15, 3e6, 15);
  fail_unless (rtp_burst_loss_model_bandwidth (m, NULL) > 0);

  /* a full window without a loss: none */
  rtp_burst_loss_model_reset (m);
  add_alternating (m, N, 1e6, 0, 3e6, 0);
  fail_unless (rtp_burst_loss_model_bandwidth (m, NULL) == 0);

  rtp_burst_loss_model_free (m);
}

GST_END_TEST;

/* 15 % lost at 1 and at 3 Mbit/s alike: the loss is not the stream's;
 * the smallest B the data allow is the grid's first above 3 Mbit/s
 * (2 Mbit/s, the median, x 2^(5/8) = 3.08 Mbit/s), eps 0.15 */
GST_START_TEST (test_loss_model_inherent)
{
  RtpBurstLossModel *m = rtp_burst_loss_model_new ();

  add_alternating (m, N, 1e6, 15, 3e6, 15);
  assert_fit (m, 2e6, 5, 0.15);
  rtp_burst_loss_model_free (m);
}

GST_END_TEST;

/* none lost at 1 Mbit/s, half at 4 (the path takes 2): the stream's own
 * loss; B 2.5 x 2^(-3/8) = 1.93 Mbit/s, eps 0 */
GST_START_TEST (test_loss_model_own)
{
  RtpBurstLossModel *m = rtp_burst_loss_model_new ();

  add_alternating (m, N, 1e6, 0, 4e6, 50);
  assert_fit (m, 2.5e6, -3, 0);
  rtp_burst_loss_model_free (m);
}

GST_END_TEST;

/* 15 % lost, always at 2 Mbit/s: the two explanations fit alike, and the
 * answer blames the rate: 2 x 2^(-2/8) = 1.68 Mbit/s (0.85 x 2 = 1.7 the
 * exact one), eps 0 */
GST_START_TEST (test_loss_model_one_rate)
{
  RtpBurstLossModel *m = rtp_burst_loss_model_new ();

  add_alternating (m, N, 2e6, 15, 2e6, 15);
  assert_fit (m, 2e6, -2, 0);
  rtp_burst_loss_model_free (m);
}

GST_END_TEST;

/* only the newest N count; bad observations are not taken */
GST_START_TEST (test_loss_model_window_and_input)
{
  RtpBurstLossModel *m = rtp_burst_loss_model_new ();

  /* five of the stream's own loss, then a window of inherent loss */
  add_alternating (m, 5, 1e6, 0, 4e6, 50);
  add_alternating (m, N, 1e6, 15, 3e6, 15);
  assert_fit (m, 2e6, 5, 0.15);

  /* none of these replaces an observation */
  rtp_burst_loss_model_add (m, 0, 0, 1e6);
  rtp_burst_loss_model_add (m, 10, 11, 1e6);
  rtp_burst_loss_model_add (m, 10, 1, 0);
  rtp_burst_loss_model_add (m, 10, 1, -1e6);
  rtp_burst_loss_model_add (m, 10, 1, NAN);
  rtp_burst_loss_model_add (m, 10, 1, INFINITY);
  assert_fit (m, 2e6, 5, 0.15);

  /* the window turns over to the stream's own loss */
  add_alternating (m, N, 1e6, 0, 4e6, 50);
  assert_fit (m, 2.5e6, -3, 0);
  rtp_burst_loss_model_free (m);
}

GST_END_TEST;

static Suite *
rtpburstlossmodel_suite (void)
{
  Suite *s = suite_create ("rtpburstlossmodel");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_loss_model_needs_observations);
  tcase_add_test (tc, test_loss_model_inherent);
  tcase_add_test (tc, test_loss_model_own);
  tcase_add_test (tc, test_loss_model_one_rate);
  tcase_add_test (tc, test_loss_model_window_and_input);
  return s;
}

GST_CHECK_MAIN (rtpburstlossmodel);
