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


/* Unit tests of rtpburstgcc.c: Google Congestion Control fed with
 * transport-wide feedback, with exact rates.  The reference figures of
 * the Kalman filter and the threshold were computed apart from this code,
 * from the draft's equations (5.3, 5.4). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "rtpburstgcc.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
#define RTT (100 * MS)
/* every test's packets: 1200 bytes */
#define SIZE 1200

/* A path: the next packet's sequence number, send time and arrival. */
typedef struct
{
  guint64 seq, send, arrival;
  guint64 now;                  /* the last report's */
} Path;

static void
path_init (Path * p, guint64 arrival_origin)
{
  p->seq = 0;
  p->send = 0;
  p->arrival = arrival_origin;
  p->now = 0;
}

/* One report, 100 ms after the last, of @n packets sent @send_gap apart
 * and arriving @arrival_gap apart; every @lost_every-th one (counted from
 * the first, 0 = none) lost. */
static void
path_report (RtpBurstGcc * gcc, Path * p, guint n, guint64 send_gap,
    guint64 arrival_gap, guint lost_every)
{
  RtpBurstFeedbackPacket pkts[64];
  guint i;

  g_assert (n <= G_N_ELEMENTS (pkts));
  for (i = 0; i < n; i++) {
    pkts[i].seq = p->seq++;
    pkts[i].send_time = p->send;
    pkts[i].arrival = lost_every && i % lost_every == 0 ? NONE : p->arrival;
    pkts[i].size = SIZE;
    p->send += send_gap;
    p->arrival += arrival_gap;
  }
  p->now += 100 * MS;
  rtp_burst_gcc_on_feedback (gcc, pkts, n, p->now, RTT);
}

/* @reports reports of 10 packets 10 ms apart, without a queue: 960 kbit/s */
static void
path_steady (RtpBurstGcc * gcc, Path * p, guint reports)
{
  while (reports--)
    path_report (gcc, p, 10, 10 * MS, 10 * MS, 0);
}

static void
pkt_set (RtpBurstFeedbackPacket * pkt, guint64 seq, guint64 send,
    guint64 arrival, guint size)
{
  pkt->seq = seq;
  pkt->send_time = send;
  pkt->arrival = arrival;
  pkt->size = size;
}

static RtpBurstGcc *
gcc_new (guint64 start, guint64 min, guint64 max)
{
  RtpBurstGccConfig c = { start, min, max };

  return rtp_burst_gcc_new (&c);
}

static void
report (const RtpBurstGcc * gcc, RtpBurstGccReport * r)
{
  /* fields left alone must not keep garbage */
  memset (r, 0xa5, sizeof (*r));
  rtp_burst_gcc_report (gcc, r);
}

#define assert_close(a, b) G_STMT_START { \
  gdouble _a = (a), _b = (b); \
  fail_unless (fabs (_a - _b) < 1e-6, "%s = %.9f, not %.9f", #a, _a, _b); \
} G_STMT_END

/* 1.08^(t / 1 s) x @start, rounded: the multiplicative increase over t */
static guint64
grown (gdouble start, gdouble seconds)
{
  return (guint64) (start * pow (1.08, seconds) + 0.5);
}

GST_START_TEST (test_gcc_steady)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;

  path_init (&p, 7000 * MS);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 1000000);

  /* the first report has no time since a last update: eta = 1.08^0 */
  path_steady (gcc, &p, 1);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 1000000);

  /* then 1.08^0.1 per report, 100 ms apart: after 6 reports, 0.5 s */
  path_steady (gcc, &p, 5);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), grown (1000000, 0.5));
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 1039230);

  /* after 11 reports, 1 s: 8 % exactly */
  path_steady (gcc, &p, 5);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.delay_rate, 1080000);
  /* no loss: A_s = min (1.05 A_s, A_hat) = A_hat, on each window of 20
   * packets (reports 2, 4, ... 10): A_hat of report 10, 0.9 s; the
   * target is the lower */
  fail_unless_equals_uint64 (r.loss_rate, grown (1000000, 0.9));
  fail_unless_equals_uint64 (r.target, 1071720);
  assert_close (r.loss, 0);
  fail_unless_equals_int (r.loss_packets, 20);
  fail_unless_equals_uint64 (r.loss_updates, 5);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  fail_unless (!r.near_max);
  /* R_hat: arrivals 0..1090 ms; the 0.5 s up to the newest hold the 50
   * packets of 600..1090 ms: 50 x 1200 x 8 bit / 0.5 s */
  fail_unless_equals_uint64 (r.received_rate, 960000);
  /* 110 packets, one group each; the last is still open and the first
   * has no predecessor: 108 deltas, all d(i) = 0 */
  fail_unless_equals_uint64 (r.groups, 108);
  assert_close (r.gradient, 0);
  /* |m| = 0 below the threshold: K_d, 10 ms per group, from 12.5 ms */
  assert_close (r.threshold, 12.5 * pow (1 - 0.00018 * 10, 108));
  fail_unless_equals_uint64 (r.received, 110);
  fail_unless_equals_uint64 (r.lost, 0);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* Ten steady reports, then packets sent 10 ms apart arriving 12 ms apart
 * (an 800 kbit/s bottleneck), one per report (10 ms apart) so that each
 * report completes one group. */
static void
queue_builds (RtpBurstGcc * gcc, Path * p, guint reports)
{
  while (reports--) {
    RtpBurstFeedbackPacket pkt = { p->seq++, p->send, p->arrival, SIZE };

    p->send += 10 * MS;
    p->arrival += 12 * MS;
    p->now += 10 * MS;
    rtp_burst_gcc_on_feedback (gcc, &pkt, 1, p->now, RTT);
  }
}

GST_START_TEST (test_gcc_overuse)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;

  path_init (&p, 7000 * MS);
  path_steady (gcc, &p, 10);
  /* 98 deltas of 0: threshold 12.5 x 0.9982^98 */
  report (gcc, &r);
  assert_close (r.threshold, 10.476867);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9));

  /* q0 (arrival 1000 ms) and q1 complete the steady packet 990 and q0: d
   * = 0; q2, q3 complete q1, q2: d = 2 ms, and the Kalman filter (var_v
   * 1, e converged to 0.031 over the 100 zeros) moves m to 0.0618, then
   * 0.1213: x 60 deltas, 3.71 and 7.28 ms, below the threshold */
  queue_builds (gcc, &p, 4);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.groups, 102);
  assert_close (r.offset, 0.121273);
  assert_close (r.gradient, 7.276374);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);

  /* q4 completes q3 (arrival 1036 ms): 60 x 0.178508 = 10.710491 ms,
   * above the threshold (10.452965 after its K_u step) for 0 ms: not yet
   * over-use */
  queue_builds (gcc, &p, 1);
  report (gcc, &r);
  assert_close (r.gradient, 10.710491);
  assert_close (r.threshold, 10.452965);
  fail_unless (r.gradient > r.threshold);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9 + 0.05));

  /* q5 completes q4 (arrival 1048 ms): above for 12 ms and rising:
   * over-use.  A_hat changed at q4's report (1050 ms), 10 ms ago: no
   * decrease until it has been unchanged for the round trip (100 ms);
   * the state stays Increase, A_hat holds */
  queue_builds (gcc, &p, 1);
  report (gcc, &r);
  assert_close (r.gradient, 14.020271);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  fail_unless_equals_uint64 (r.received_rate, 940800);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9 + 0.05));
  fail_unless_equals_uint64 (r.avg_max_rate, 0);
  queue_builds (gcc, &p, 8);
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9 + 0.05));

  /* q14 (1150 ms), over-use still: decrease to 0.85 x R_hat.  The 0.5 s
   * of arrivals up to q14 (1168 ms) hold the steady packets of 670..990
   * ms (33) and q0..q14 (15): 48 x 1200 x 16 = 921600 bit/s, x 0.85 =
   * 783360 */
  queue_builds (gcc, &p, 1);
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_DECREASE);
  fail_unless_equals_uint64 (r.received_rate, 921600);
  fail_unless_equals_uint64 (r.delay_rate, 783360);
  fail_unless_equals_uint64 (r.target, 783360);
  /* the first decrease: the average max rate is R_hat */
  fail_unless_equals_uint64 (r.avg_max_rate, 921600);

  /* over-use goes on: Decrease stays, A_hat holds for the round trip
   * although R_hat falls (q15..q23: 902400, then 883200) */
  queue_builds (gcc, &p, 9);
  report (gcc, &r);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_DECREASE);
  fail_unless_equals_uint64 (r.received_rate, 883200);
  fail_unless_equals_uint64 (r.delay_rate, 783360);
  /* q24 (1250 ms): the next decrease; up to q24 (1288 ms) the window
   * holds 790..990 ms (21) and q0..q24 (25): 46 x 19200 = 883200, x 0.85
   * = 750720 */
  queue_builds (gcc, &p, 1);
  report (gcc, &r);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_DECREASE);
  fail_unless_equals_uint64 (r.delay_rate, 750720);
  fail_unless_equals_uint64 (r.avg_max_rate, 921600);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_recovery)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  gdouble a, bits_per_frame;
  Path p;

  /* as test_gcc_overuse, with q0..q14: decreased to 0.85 x 921600 */
  path_init (&p, 7000 * MS);
  path_steady (gcc, &p, 10);
  queue_builds (gcc, &p, 15);
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless_equals_uint64 (r.delay_rate, 783360);
  fail_unless_equals_uint64 (r.avg_max_rate, 921600);

  /* the path frees up: part of the queue (30 ms) drains, packets arrive
   * 8 ms apart for a while, then as sent: the estimate falls below the
   * threshold, normal: Decrease -> Hold, A_hat held */
  {
    RtpBurstFeedbackPacket pkts[10];
    guint i;

    for (i = 0; i < 10; i++) {
      pkt_set (&pkts[i], p.seq++, p.send, p.arrival, SIZE);
      p.send += 10 * MS;
      p.arrival += i < 4 ? 8 * MS : 10 * MS;
    }
    p.now += 100 * MS;
    rtp_burst_gcc_on_feedback (gcc, pkts, 10, p.now, RTT);
  }
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_DECREASE);
  fail_unless_equals_uint64 (r.delay_rate, 783360);
  path_steady (gcc, &p, 1);
  report (gcc, &r);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_HOLD);
  fail_unless_equals_uint64 (r.delay_rate, 783360);

  /* normal again: Hold -> Increase.  R_hat (921600 to 979200 while the
   * drained packets are in its window, then 960000) is within 3 x 2.5 %
   * (the least deviation) of the average max 921600, [852480, 990720]:
   * near convergence, additive: + 0.5 x min (100 ms / (100 ms + RTT), 1)
   * x the packet size of a 30 fps frame, A_hat / 30 in ceil (A_hat / 30 /
   * 9600) packets: 783360 / 30 = 26112 bits in 3 packets of 8704, + 2176 */
  a = 783360;
  while (a < 810000) {
    path_steady (gcc, &p, 1);
    bits_per_frame = a / 30;
    a += 0.25 * bits_per_frame / ceil (bits_per_frame / 9600);
    report (gcc, &r);
    fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
    fail_unless (r.near_max);
    fail_unless_equals_uint64 (r.delay_rate, (guint64) (a + 0.5));
  }
  fail_unless_equals_uint64 (r.delay_rate, 812124);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_underuse)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;

  path_init (&p, 7000 * MS);
  path_steady (gcc, &p, 10);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9));

  /* a queue empties fast: sent 20 ms apart, arriving 12 ms apart (not a
   * burst: 12 ms >= 5 ms), d = -8 ms */
  path_report (gcc, &p, 3, 20 * MS, 12 * MS, 0);
  report (gcc, &r);
  fail_unless (r.gradient < -r.threshold);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_UNDERUSE);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_HOLD);
  /* held: as after the tenth report */
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.9));

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_loss)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;

  path_init (&p, 0);
  /* 20 packets, 3 lost (0, 7, 14): 15 % > 10 %: A_s x (1 - 0.15 / 2) */
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
  report (gcc, &r);
  assert_close (r.loss, 0.15);
  fail_unless_equals_int (r.loss_packets, 20);
  fail_unless_equals_uint64 (r.loss_updates, 1);
  fail_unless_equals_uint64 (r.lost, 3);
  fail_unless_equals_uint64 (r.received, 17);
  fail_unless_equals_uint64 (r.loss_rate, 925000);
  fail_unless_equals_uint64 (r.delay_rate, 1000000);
  fail_unless_equals_uint64 (r.target, 925000);

  /* the same loss 100, 200 and 300 ms later: the next decrease is due
   * 300 ms + the RTT (100 ms) after the first; the window grows */
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.loss_rate, 925000);
  fail_unless_equals_uint64 (r.loss_updates, 1);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.3));
  /* 400 ms after it: 80 packets, 12 lost, 15 %: 925000 x 0.925 */
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.loss_rate, 855625);
  fail_unless_equals_int (r.loss_packets, 80);
  fail_unless_equals_uint64 (r.loss_updates, 2);
  fail_unless_equals_uint64 (r.target, 855625);

  /* 1 of 20, 5 %: between 2 and 10 %, held */
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 20);
  report (gcc, &r);
  assert_close (r.loss, 0.05);
  fail_unless_equals_uint64 (r.loss_updates, 3);
  fail_unless_equals_uint64 (r.target, 855625);

  /* none: x 1.05 = 898406.25 */
  path_report (gcc, &p, 20, 5 * MS, 5 * MS, 0);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 898406);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* Whether the loss answers the rate (rtpburstlossmodel.h): three reports
 * of 20 packets sent 5 ms apart (1.92 Mbit/s over 295 ms), then one sent
 * 15 ms apart (0.64 Mbit/s over 285 ms), and again; each loses 3 (15 %).
 * The model takes an observation once its packets span 250 ms of sending:
 * the three fast reports, then the slow one.  Once it holds its 20
 * observations (after 40 reports) the loss is not the stream's: the
 * loss-based controller, below the model's B, decreases no more (before
 * the model: each 400 ms by 7.5 %). */
static void
report_fast_slow (RtpBurstGcc * gcc, Path * p, guint i)
{
  guint64 gap = (i % 4 == 3 ? 15 : 5) * MS;

  path_report (gcc, p, 20, gap, gap, 7);
}

GST_START_TEST (test_gcc_loss_inherent)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  guint64 held;
  Path p;
  guint i;

  path_init (&p, 0);
  for (i = 0; i < 40; i++)
    report_fast_slow (gcc, &p, i);
  report (gcc, &r);
  /* decreases at 0, 0.4, ..., 3.6 s, the model not yet full */
  fail_unless_equals_uint64 (r.loss_updates, 10);
  fail_unless (r.model_rate == 0);
  held = r.loss_rate;
  fail_unless_equals_uint64 (held, (guint64) (1e6 * pow (0.925, 10) + 0.5));

  /* two more decreases due: held, at the model's B (1.28 Mbit/s, the
   * median, x 2^(4/8)) and eps 0.12 */
  for (; i < 48; i++)
    report_fast_slow (gcc, &p, i);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.loss_updates, 12);
  assert_close (r.loss, 0.15);
  fail_unless_equals_uint64 (r.loss_rate, held);
  fail_unless_equals_uint64 (r.model_rate, 1810193);
  assert_close (r.model_inherent, 0.12);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* The same loss at one rate, 1.92 Mbit/s: the model cannot tell, and
 * blames the rate (B = 1.92 x 2^(-2/8) = 1.61 Mbit/s): from 10 Mbit/s the
 * decreases go on (7.5 % each) down to B, not below it. */
GST_START_TEST (test_gcc_loss_one_rate)
{
  RtpBurstGcc *gcc = gcc_new (10000000, 100000, 10000000);
  RtpBurstGccReport r;
  guint64 last = 10000000;
  guint i, decreases = 0;
  Path p;

  path_init (&p, 0);
  for (i = 0; i < 200; i++) {
    path_report (gcc, &p, 20, 5 * MS, 5 * MS, 7);
    report (gcc, &r);
    fail_unless (r.loss_rate <= last);
    if (r.loss_rate < last)
      decreases++;
    last = r.loss_rate;
  }
  fail_unless (decreases > 20);
  fail_unless_equals_uint64 (r.model_rate, 1614521);
  assert_close (r.model_inherent, 0);
  fail_unless_equals_uint64 (r.loss_rate, 1614521);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_lost_only)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;
  guint i;

  path_init (&p, 0);
  path_steady (gcc, &p, 2);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), grown (1000000, 0.1));

  /* all lost: p = 1; a window of 10 is too short to act on; the delay-
   * based side has nothing to go on and holds A_hat */
  path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.loss_updates, 1);
  fail_unless_equals_uint64 (r.loss_rate, grown (1000000, 0.1));
  /* 20: A_s halves; then once per 400 ms (300 ms + the RTT) down to
   * min_rate: 1007726 / 2, / 4 (800 ms later), / 8 = 125965.7 */
  path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  report (gcc, &r);
  assert_close (r.loss, 1);
  fail_unless_equals_uint64 (r.loss_rate,
      (guint64) (1e6 * pow (1.08, 0.1) / 2 + 0.5));
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.1));
  fail_unless_equals_uint64 (r.received, 20);
  fail_unless_equals_uint64 (r.lost, 20);
  for (i = 0; i < 3; i++)
    path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc),
      (guint64) (1e6 * pow (1.08, 0.1) / 2 + 0.5));
  path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc),
      (guint64) (1e6 * pow (1.08, 0.1) / 4 + 0.5));
  for (i = 0; i < 4; i++)
    path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 125966);
  for (i = 0; i < 4; i++)
    path_report (gcc, &p, 10, 10 * MS, 10 * MS, 1);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 100000);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.delay_rate, grown (1000000, 0.1));

  /* a report without packets changes nothing */
  rtp_burst_gcc_on_feedback (gcc, NULL, 0, p.now + 50 * MS, NONE);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 100000);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* One report, 100 ms after the last, of 10 packets sent 10 ms apart and
 * arriving @arrival_gap apart; a packet whose sequence number is
 * @lost_mod - 1 modulo @lost_mod is lost (@lost_mod 0: none). */
static void
path_report_global_loss (RtpBurstGcc * gcc, Path * p, guint64 arrival_gap,
    guint lost_mod)
{
  RtpBurstFeedbackPacket pkts[10];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pkts); i++) {
    pkts[i].seq = p->seq;
    pkts[i].send_time = p->send;
    pkts[i].arrival = lost_mod && p->seq % lost_mod == lost_mod - 1 ?
        NONE : p->arrival;
    pkts[i].size = SIZE;
    p->seq++;
    p->send += 10 * MS;
    p->arrival += arrival_gap;
  }
  p->now += 100 * MS;
  rtp_burst_gcc_on_feedback (gcc, pkts, G_N_ELEMENTS (pkts), p->now, RTT);
}

/* The TCP-fair floor: a queue that grows as a loss-based competitor fills
 * it, with a loss every 30 packets, each a loss event of its own (300 ms
 * apart, R = 100 ms): p = 1 / 30 once the seeded first interval is left
 * out.  The delay-based rate decreases on the queue, the target does not
 * go below the rate of a TCP flow at that p and R (under what the path
 * takes, about 773 kbit/s / (1 - 1/30)); when the losses stop, the floor
 * lapses 10 s after the last. */
GST_START_TEST (test_gcc_tcp_floor)
{
  RtpBurstGcc *gcc = gcc_new (2000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;
  guint i, decreases = 0;
  guint64 last_event = 0;
  /* NewReno (RFC 5348 3.1, s = 1200, R = 0.1 s, p = 1/30):
   *   9600 / (0.1 sqrt (2/90) + 0.4 x 3 sqrt (0.0125) x (1/30) x 1.0356)
   *   = 9600 / (0.0149071198 + 0.0046311452) = 491343.52;
   * CUBIC (RFC 9438 5.2): 9600 x 1.0538289314 x 0.1^-0.75 x 30^0.75
   *   = 9600 x 1.0538289314 x 5.6234132519 x 12.8186101919 = 729259.83 */
  const guint64 floor = 729260;

  path_init (&p, 0);
  path_steady (gcc, &p, 10);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.floor_rate, 0);
  fail_unless (r.loss_event_rate == 0);

  /* the queue grows 2 ms a packet (800 of 960 kbit/s get through) */
  for (i = 0; i < 60; i++) {
    path_report_global_loss (gcc, &p, 12 * MS, 30);
    report (gcc, &r);
    if (p.seq % 30 == 0)
      last_event = p.now;
    /* the losses of seqs 119 and 149 are the first two events: the floor
     * is in force from the second */
    if (p.seq < 150) {
      fail_unless_equals_uint64 (r.floor_rate, 0);
      continue;
    }
    fail_unless_equals_uint64 (r.floor_rate, floor);
    fail_unless (r.target >= floor);
    if (r.state == RTP_BURST_GCC_DECREASE && r.target == floor)
      decreases++;
  }
  /* the delay-based decreases (0.85 R_hat, about 657 kbit/s) were lifted
   * to it */
  fail_unless (decreases > 0);
  assert_close (r.loss_event_rate, 1.0 / 30);

  /* the queue stays as it is, no loss: the floor holds for 10 s after
   * the last event's report, then lapses */
  for (i = 0; i < 200 && p.now + 100 * MS <= last_event + 10000 * MS; i++) {
    path_report_global_loss (gcc, &p, 10 * MS, 0);
    report (gcc, &r);
    fail_unless (r.floor_rate > 0);
  }
  fail_unless_equals_uint64 (p.now, last_event + 10000 * MS);
  path_report_global_loss (gcc, &p, 10 * MS, 0);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.floor_rate, 0);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* The floor lifts the rate to no more than the path takes: R_hat and the
 * fraction lost beside it.  test_gcc_tcp_floor's path, but a loss once
 * every 50 packets (p = 1 / 50: TCP's rate 1,069,717 bit/s at R = 100 ms)
 * while 800 kbit/s gets through: the floor is R_hat / (1 - the lost fraction),
 * each new packet moving that fraction 1/200 of the way to 1 (lost) or 0.
 * A floor of GCC's 1.5 R_hat held a sender at 4.2-4.6 Mbit/s where the
 * capacity had halved to 5 (docs/results.md section 21). */
GST_START_TEST (test_gcc_floor_taken)
{
  RtpBurstGcc *gcc = gcc_new (2000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;
  gdouble loss = 0;
  guint i, k, held = 0;

  path_init (&p, 0);
  path_steady (gcc, &p, 10);
  report (gcc, &r);
  fail_unless (r.floor_loss == 0);

  for (i = 0; i < 60; i++) {
    guint64 first = p.seq;

    path_report_global_loss (gcc, &p, 12 * MS, 50);
    report (gcc, &r);
    for (k = 0; k < 10; k++)
      loss += (((first + k) % 50 == 49 ? 1.0 : 0.0) - loss) / 200;
    assert_close (r.floor_loss, loss);
    if (p.seq < 200)
      continue;
    /* NewReno's and CUBIC's rate at that p and R are higher */
    assert_close (r.loss_event_rate, 0.02);
    fail_unless (r.floor_rate < 1069717);
    fail_unless (fabs (r.floor_rate - r.received_rate / (1 - r.floor_loss))
        <= 1.0);
    fail_unless (r.target >= r.floor_rate);
    if (r.state == RTP_BURST_GCC_DECREASE && r.target == r.floor_rate)
      held++;
  }
  /* the fraction of the last 300 packets, 6 of them lost, weighted */
  fail_unless (loss > 0.01 && loss < 0.03);
  fail_unless (held > 0);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_clamps)
{
  RtpBurstGcc *gcc;
  Path p;
  guint i;

  /* the start rate is taken into [min, max] */
  gcc = gcc_new (5000000, 100000, 2000000);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 2000000);
  rtp_burst_gcc_free (gcc);
  gcc = gcc_new (1000, 100000, 2000000);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 100000);
  rtp_burst_gcc_free (gcc);

  /* growing at 8 %/s stops at max_rate: 1.08^0.5 x 1 M > 1.03 M */
  gcc = gcc_new (1000000, 100000, 1030000);
  path_init (&p, 0);
  path_steady (gcc, &p, 6);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 1030000);
  path_steady (gcc, &p, 10);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 1030000);
  rtp_burst_gcc_free (gcc);

  /* an increase stops at 1.5 R_hat: 1200 bytes per 20 ms, 480 kbit/s,
   * caps A_hat at 720000 once R_hat is known (from the sixth report, the
   * arrivals then covering 0.5 s).  600000 x 1.08^t passes 720000 after
   * t = ln 1.2 / ln 1.08 = 2.37 s: 3.9 s of reports are enough */
  gcc = gcc_new (600000, 100000, 10000000);
  path_init (&p, 0);
  for (i = 0; i < 40; i++)
    path_report (gcc, &p, 5, 20 * MS, 20 * MS, 0);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 720000);
  rtp_burst_gcc_free (gcc);

  /* ... but never lowers it: from 1 M, it grows while R_hat is unknown
   * (reports 2 to 5: 0.4 s), then stays above 1.5 R_hat */
  gcc = gcc_new (1000000, 100000, 10000000);
  path_init (&p, 0);
  for (i = 0; i < 20; i++)
    path_report (gcc, &p, 5, 20 * MS, 20 * MS, 0);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), grown (1000000, 0.4));
  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

GST_START_TEST (test_gcc_reorder)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstFeedbackPacket pkts[20];
  RtpBurstGccReport r;
  guint i;

  /* seqs 0..9, 10 ms apart, seq 5 lost */
  for (i = 0; i < 10; i++)
    pkt_set (&pkts[i], i, i * 10 * MS, i == 5 ? NONE : i * 10 * MS, SIZE);
  rtp_burst_gcc_on_feedback (gcc, pkts, 10, 100 * MS, RTT);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.received, 9);
  fail_unless_equals_uint64 (r.lost, 1);
  /* 10 new packets: short of the loss-based controller's window */
  fail_unless_equals_int (r.loss_packets, 0);
  fail_unless_equals_uint64 (r.loss_updates, 0);
  /* 0..9 minus 5: 8 groups, the last open, 7 deltas, all 0 */
  fail_unless_equals_uint64 (r.groups, 7);

  /* the next report repeats 6..9 (duplicates), brings 5 late (arrival
   * 200 ms: it would give d = +105 ms against 4 if the model took it)
   * and 10..14 in reverse order of arrival pairs: 10 and 11 swapped */
  for (i = 0; i < 4; i++)
    pkt_set (&pkts[i], 6 + i, (6 + i) * 10 * MS, (6 + i) * 10 * MS, SIZE);
  pkt_set (&pkts[4], 5, 50 * MS, 200 * MS, SIZE);
  for (i = 0; i < 5; i++)
    pkt_set (&pkts[5 + i], 10 + i, (10 + i) * 10 * MS, (10 + i) * 10 * MS,
        SIZE);
  pkts[5].arrival = 110 * MS;
  pkts[6].arrival = 100 * MS;
  rtp_burst_gcc_on_feedback (gcc, pkts, 10, 200 * MS, RTT);
  report (gcc, &r);
  /* counted once each: 15 packets, 0 lost (5 came); the window holds the
   * new seqs, 0..14: still short of 20 */
  fail_unless_equals_uint64 (r.received, 15);
  fail_unless_equals_uint64 (r.lost, 0);
  fail_unless_equals_uint64 (r.loss_updates, 0);
  /* 5 is left out of the model (9 had passed it); 11, arriving before
   * 10 (sooner than sent after it, within 5 ms), joins 10's group (5.2):
   * groups 9, {10, 11}, 12 and 13 close, each with d(i) = 0: 11 deltas,
   * no trace of the 105 ms */
  fail_unless_equals_uint64 (r.groups, 11);
  assert_close (r.offset, 0);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_NORMAL);

  /* a seq older than the window is ignored altogether */
  pkt_set (&pkts[0], 20000, 200 * MS, 200 * MS, SIZE);
  pkt_set (&pkts[1], 1, 10 * MS, NONE, SIZE);
  rtp_burst_gcc_on_feedback (gcc, pkts, 2, 300 * MS, RTT);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.received, 16);
  fail_unless_equals_uint64 (r.lost, 0);

  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* Only differences of the receiver's times matter: the same path seen
 * with arrival origins 10^18 ns apart gives the same report. */
GST_START_TEST (test_gcc_clock_offset)
{
  RtpBurstGcc *a = gcc_new (1000000, 100000, 10000000);
  RtpBurstGcc *b = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport ra, rb;
  Path pa, pb;

  path_init (&pa, 0);
  path_init (&pb, G_GUINT64_CONSTANT (1000000000000000000));
  path_steady (a, &pa, 10);
  path_steady (b, &pb, 10);
  queue_builds (a, &pa, 10);
  queue_builds (b, &pb, 10);
  report (a, &ra);
  report (b, &rb);
  fail_unless_equals_int (ra.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless (memcmp (&ra, &rb, sizeof (ra)) == 0);

  /* the receiver's clock jumps by an hour: a d(i) of 3600 s is no queue,
   * left out of the filter */
  pb.arrival += 3600 * 1000 * MS;
  path_steady (b, &pb, 1);
  report (b, &rb);
  fail_unless_equals_uint64 (rb.groups, ra.groups + 9);
  fail_unless (fabs (rb.offset) < ra.offset);

  rtp_burst_gcc_free (a);
  rtp_burst_gcc_free (b);
}

GST_END_TEST;

/* A fuzzer's view: any input, bounded output.  Random reports (seeded,
 * so failures repeat) with absurd times, 0-size packets, identical times,
 * huge gaps, time going back: the target stays within [min, max] and
 * the report finite. */
GST_START_TEST (test_gcc_robust)
{
  static const guint64 times[] = { 0, 1, 5 * MS, G_MAXINT64,
    (guint64) G_MAXINT64 + 1, NONE - 1, NONE
  };
  RtpBurstGcc *gcc = gcc_new (1000000, 50000, 20000000);
  RtpBurstFeedbackPacket pkts[32];
  RtpBurstGccReport r;
  GRand *rand = g_rand_new_with_seed (1234);
  guint round, i;

  /* all at one instant, 0 bytes: no inter-departure time, no rate */
  for (i = 0; i < 32; i++)
    pkt_set (&pkts[i], i, 0, 0, 0);
  rtp_burst_gcc_on_feedback (gcc, pkts, 32, 0, 0);
  rtp_burst_gcc_on_feedback (gcc, pkts, 32, 0, 0);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.groups, 0);
  fail_unless_equals_uint64 (r.target, 1000000);

  for (round = 0; round < 20000; round++) {
    guint n = g_rand_int_range (rand, 0, 33);
    guint64 now = g_rand_boolean (rand) ?
        times[g_rand_int_range (rand, 0, G_N_ELEMENTS (times))] :
        (guint64) g_rand_int (rand) * round;

    for (i = 0; i < n; i++) {
      guint pick = g_rand_int_range (rand, 0, 4);

      pkts[i].seq = pick == 0 ? ((guint64) g_rand_int (rand) << 32) :
          (guint64) round *8 + i;
      pkts[i].send_time = pick == 1 ?
          times[g_rand_int_range (rand, 0, G_N_ELEMENTS (times))] :
          (guint64) round *40 * MS + i * g_rand_int_range (rand, 0, 8) * MS;
      pkts[i].arrival = pick == 2 ?
          times[g_rand_int_range (rand, 0, G_N_ELEMENTS (times))] :
          pkts[i].send_time + g_rand_int_range (rand, 0, 200) * MS;
      pkts[i].size = pick == 3 ? G_MAXUINT :
          (guint) g_rand_int_range (rand, 0, 1500);
    }
    rtp_burst_gcc_on_feedback (gcc, pkts, n, now,
        g_rand_boolean (rand) ? NONE : times[round % G_N_ELEMENTS (times)]);
    report (gcc, &r);
    fail_unless (r.target >= 50000 && r.target <= 20000000);
    fail_unless (r.delay_rate >= 50000 && r.delay_rate <= 20000000);
    fail_unless (r.loss_rate >= 50000 && r.loss_rate <= 20000000);
    fail_unless (isfinite (r.gradient) && isfinite (r.offset));
    fail_unless (r.threshold >= 6 && r.threshold <= 600);
    fail_unless (r.loss >= 0 && r.loss <= 1);
  }
  g_rand_free (rand);
  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* A probe's result above the target raises A_hat and A_s to it, within
 * max_rate; one at or below it changes nothing; the increase goes on from
 * there at 8 %/s. */
GST_START_TEST (test_gcc_probe_result)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 5000000);
  RtpBurstGccReport r;
  Path p;

  path_init (&p, 0);
  path_steady (gcc, &p, 2);
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), grown (1000000, 0.1));
  fail_if (rtp_burst_gcc_probe_result (gcc, 1000000));
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), grown (1000000, 0.1));
  fail_unless (rtp_burst_gcc_probe_result (gcc, 3800000));
  report (gcc, &r);
  fail_unless_equals_uint64 (r.delay_rate, 3800000);
  fail_unless_equals_uint64 (r.loss_rate, 3800000);
  fail_unless_equals_uint64 (r.target, 3800000);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  /* 100 ms later: A_hat 3.8 M x 1.08^0.1 (R_hat, 960 kbit/s once known,
   * does not cap it yet: the arrivals cover 0.3 s of the 0.5 needed); A_s
   * waits for its window of 20 packets: the target stays */
  path_steady (gcc, &p, 1);
  report (gcc, &r);
  fail_unless_equals_uint64 (r.delay_rate, grown (3800000, 0.1));
  fail_unless_equals_uint64 (r.target, 3800000);
  /* above max_rate: max_rate */
  fail_unless (rtp_burst_gcc_probe_result (gcc, 9000000));
  fail_unless_equals_uint64 (rtp_burst_gcc_target (gcc), 5000000);
  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

/* An over-use right after a probe's result (the cluster's own queue)
 * waits for the round trip, as after any change of A_hat, even though
 * less than half of the new A_hat arrives (the encoder has not followed
 * yet). */
GST_START_TEST (test_gcc_probe_overuse)
{
  RtpBurstGcc *gcc = gcc_new (1000000, 100000, 10000000);
  RtpBurstGccReport r;
  Path p;

  /* as test_gcc_overuse: over-use from q5 (1060 ms) on, A_hat last
   * changed at q4 (1050 ms); the probe's result comes after q9's report
   * (1100 ms): the decrease waits until 1200 ms, q19, not q14 */
  path_init (&p, 7000 * MS);
  path_steady (gcc, &p, 10);
  queue_builds (gcc, &p, 10);
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless (rtp_burst_gcc_probe_result (gcc, 2000000));
  queue_builds (gcc, &p, 9);
  report (gcc, &r);
  fail_unless_equals_int (r.signal, RTP_BURST_GCC_OVERUSE);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_INCREASE);
  fail_unless_equals_uint64 (r.target, 2000000);
  fail_unless (r.received_rate < 1000000);
  /* q19: 0.85 x R_hat, the arrivals of 730..990 ms (27) and q0..q19
   * (20): 47 x 19200 = 902400 */
  queue_builds (gcc, &p, 1);
  report (gcc, &r);
  fail_unless_equals_int (r.state, RTP_BURST_GCC_DECREASE);
  fail_unless_equals_uint64 (r.received_rate, 902400);
  fail_unless_equals_uint64 (r.target, 767040);
  rtp_burst_gcc_free (gcc);
}

GST_END_TEST;

static Suite *
rtpburstgcc_suite (void)
{
  Suite *s = suite_create ("rtpburstgcc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gcc_steady);
  tcase_add_test (tc, test_gcc_overuse);
  tcase_add_test (tc, test_gcc_recovery);
  tcase_add_test (tc, test_gcc_underuse);
  tcase_add_test (tc, test_gcc_loss);
  tcase_add_test (tc, test_gcc_lost_only);
  tcase_add_test (tc, test_gcc_loss_inherent);
  tcase_add_test (tc, test_gcc_loss_one_rate);
  tcase_add_test (tc, test_gcc_tcp_floor);
  tcase_add_test (tc, test_gcc_floor_taken);
  tcase_add_test (tc, test_gcc_clamps);
  tcase_add_test (tc, test_gcc_reorder);
  tcase_add_test (tc, test_gcc_clock_offset);
  tcase_add_test (tc, test_gcc_robust);
  tcase_add_test (tc, test_gcc_probe_result);
  tcase_add_test (tc, test_gcc_probe_overuse);
  return s;
}

GST_CHECK_MAIN (rtpburstgcc);
