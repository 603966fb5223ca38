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

/* Unit tests of rtpburstfloor.c: the TCP-fair floor on its own, exact. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include <gst/check/gstcheck.h>

#include "rtpburstfloor.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
#define RTT (100 * MS)
#define LOSS_HIGH 0.1

typedef struct
{
  guint64 seq, send, arrival, now;
} Path;

/* One report, 100 ms after the last, of 10 packets sent 10 ms apart and
 * arriving 10 ms apart; a packet whose sequence number is @lost_mod - 1
 * modulo @lost_mod is lost (@lost_mod 0: none).  Each new packet counted
 * as rtpburstgcc.c counts it.  Returns the floor. */
static gdouble
report (RtpBurstFloor * f, Path * p, guint lost_mod, gdouble r_hat,
    gdouble window_loss)
{
  RtpBurstFeedbackPacket pkts[10];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pkts); i++) {
    gboolean lost = lost_mod && p->seq % lost_mod == lost_mod - 1;

    pkts[i].seq = p->seq++;
    pkts[i].send_time = p->send;
    pkts[i].arrival = lost ? NONE : p->arrival;
    pkts[i].size = 1200;
    rtp_burst_floor_count (f, lost);
    p->send += 10 * MS;
    p->arrival += 10 * MS;
  }
  p->now += 100 * MS;
  return rtp_burst_floor_on_feedback (f, pkts, G_N_ELEMENTS (pkts), p->now,
      RTT, r_hat, window_loss, LOSS_HIGH);
}

/* The lost fraction the bound takes: each packet moves it 1/200 of the
 * way to 1 (lost) or 0 (received). */
GST_START_TEST (test_floor_taken_loss)
{
  RtpBurstFloor *f = rtp_burst_floor_new (1000000);
  RtpBurstFloorReport r;

  rtp_burst_floor_count (f, TRUE);
  rtp_burst_floor_report (f, &r);
  fail_unless (r.taken_loss == 0.005);
  rtp_burst_floor_count (f, FALSE);
  rtp_burst_floor_report (f, &r);
  fail_unless (fabs (r.taken_loss - 0.004975) < 1e-15);
  fail_unless (r.rate == 0);
  fail_unless (r.loss_event_rate == 0);
  rtp_burst_floor_free (f);
}

GST_END_TEST;

/* A loss every 30 packets (each a loss event of its own, 300 ms apart):
 * no floor before the second event, then TCP's rate at p = 1/30 and R =
 * 100 ms, CUBIC's equation the higher: 729,259.83 bit/s (derived in
 * tests/check/unit/rtpburstgcc.c's test_gcc_tcp_floor) where R_hat is
 * high; R_hat / (1 - the lost fraction) where that is lower; none where
 * the loss-based window lost more than 10 %, or R_hat is unknown. */
GST_START_TEST (test_floor_equation_and_bound)
{
  RtpBurstFloor *f = rtp_burst_floor_new (1000000);
  RtpBurstFloorReport r;
  Path p = { 0, 0, 0, 0 };
  gdouble rate = 0;
  guint i;

  for (i = 0; i < 10; i++)
    fail_unless (report (f, &p, 0, 1e9, 0) == 0);
  for (i = 0; i < 60; i++) {
    rate = report (f, &p, 30, 1e9, 0);
    /* seqs 119 and 149 are the first two events */
    if (p.seq < 150)
      fail_unless (rate == 0, "%f at %" G_GUINT64_FORMAT, rate, p.seq);
    else
      fail_unless (fabs (rate - 729259.83) < 0.5, "%f", rate);
  }
  rtp_burst_floor_report (f, &r);
  fail_unless (fabs (r.loss_event_rate - 1.0 / 30) < 1e-12);
  fail_unless (r.rate == rate);

  /* R_hat lower: the bound decides */
  rate = report (f, &p, 30, 500000, 0);
  rtp_burst_floor_report (f, &r);
  fail_unless (fabs (rate - 500000 / (1 - r.taken_loss)) < 1e-6);
  fail_unless (r.taken_loss > 0.02 && r.taken_loss < 0.05);

  /* the window over 10 %: none; R_hat unknown: none */
  fail_unless (report (f, &p, 30, 1e9, 0.11) == 0);
  fail_unless (report (f, &p, 30, 0, 0) == 0);
  fail_unless (report (f, &p, 30, 1e9, 0.1) > 0);

  rtp_burst_floor_free (f);
}

GST_END_TEST;

static Suite *
rtpburstfloor_suite (void)
{
  Suite *s = suite_create ("rtpburstfloor");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_floor_taken_loss);
  tcase_add_test (tc, test_floor_equation_and_bound);
  return s;
}

GST_CHECK_MAIN (rtpburstfloor);
