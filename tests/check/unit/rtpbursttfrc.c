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


/* Unit tests of rtpbursttfrc.c: TFRC (RFC 5348) at the sender from
 * per-packet feedback, with the figures worked out from the RFC's
 * formulas. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include <gst/check/gstcheck.h>

#include "rtpbursttfrc.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
/* the receiver's clock: its own origin, far from the sender's */
#define RX_ORIGIN (5000 * MS)
#define MAX_PKTS 64

#define assert_near(a, b, tol) \
  fail_unless (fabs ((gdouble) (a) - (gdouble) (b)) <= (tol), \
      "%s = %.12g, expected %.12g (+- %g)", #a, (gdouble) (a), \
      (gdouble) (b), (gdouble) (tol))

static RtpBurstTfrc *
tfrc_new (guint s, guint64 start_rate)
{
  RtpBurstTfrcConfig c = { s, 0, 0, start_rate };

  return rtp_burst_tfrc_new (&c);
}

/* @count packets from @seq, sent @spacing apart from @send, each arriving
 * @delay after it was sent, @size bytes; those whose seq @lost says are
 * lost.  Delivered at @now with the round trip @rtt. */
typedef gboolean (*LostFunc) (guint64 seq);

static void
feed (RtpBurstTfrc * t, guint64 seq, guint count, guint64 send,
    guint64 spacing, guint64 delay, guint size, LostFunc lost, guint64 now,
    guint64 rtt)
{
  RtpBurstFeedbackPacket pkts[MAX_PKTS];
  guint i;

  fail_unless (count <= MAX_PKTS);
  for (i = 0; i < count; i++) {
    pkts[i].seq = seq + i;
    pkts[i].send_time = send + i * spacing;
    pkts[i].arrival = lost && lost (seq + i) ? NONE :
        RX_ORIGIN + pkts[i].send_time + delay;
    pkts[i].size = size;
  }
  rtp_burst_tfrc_on_feedback (t, pkts, count, now, rtt);
}

static RtpBurstTfrcReport
report (RtpBurstTfrc * t)
{
  RtpBurstTfrcReport r;

  rtp_burst_tfrc_report (t, &r);
  return r;
}

GST_START_TEST (test_tfrc_equation)
{
  /* s = 1000 bytes, R = 100 ms, p = 0.01, b = 1, t_RTO = 4R:
   *   sqrt (2p/3)                = 0.0816496581
   *   12 sqrt (3p/8) p (1+32p^2) = 12 * 0.0612372436 * 0.01 * 1.0032
   *                              = 0.0073719816
   *   X = s / (R (0.0816496581 + 0.0073719816))
   *     = 1000 / 0.0089021640 = 112332.234 bytes/s = 898657.875 bit/s */
  assert_near (rtp_burst_tfrc_equation (1000, 100 * MS, 0.01),
      898657.875, 0.001);
  /* the same with R = 200 ms, s = 160, p = 0.02 (the VoIP case):
   *   sqrt (2p/3) = 0.1154700538, 12 sqrt (3p/8) p (1+32p^2)
   *   = 12 * 0.0866025404 * 0.02 * 1.0128 = 0.0210512791
   *   X = 160 / (0.2 * 0.1365213329) = 5859.917 bytes/s
   *     = 46879.335 bit/s */
  assert_near (rtp_burst_tfrc_equation (160, 200 * MS, 0.02), 46879.335, 0.001);
  /* X falls as p grows */
  fail_unless (rtp_burst_tfrc_equation (1000, 100 * MS, 0.02) <
      rtp_burst_tfrc_equation (1000, 100 * MS, 0.01));

  /* no loss: no limit; R of 0 or unknown: 1 ms, never a division by 0 */
  fail_unless (isinf (rtp_burst_tfrc_equation (1000, 100 * MS, 0.0)));
  fail_unless (isinf (rtp_burst_tfrc_equation (1000, 100 * MS, -1.0)));
  assert_near (rtp_burst_tfrc_equation (1000, 0, 0.01), 898657.875 * 100, 0.1);
  assert_near (rtp_burst_tfrc_equation (1000, NONE, 0.01),
      898657.875 * 100, 0.1);
  fail_unless (isfinite (rtp_burst_tfrc_equation (0, 0, 1.0)));
}

GST_END_TEST;

GST_START_TEST (test_tfrc_cubic_equation)
{
  /* s = 1000 bytes, R = 100 ms, p = 0.01, C = 0.4, beta = 0.7:
   *   (C (3 + beta) / (4 (1 - beta)))^(1/4) = (1.48 / 1.2)^(1/4)
   *                                         = 1.0538289314
   *   R^(-3/4) = 5.6234132519, p^(-3/4) = 31.6227766017
   *   X = 8 s 1.0538289314 x 5.6234132519 x 31.6227766017
   *     = 1499201.832 bit/s, 1.67 x NewReno's 898657.875 */
  assert_near (rtp_burst_tfrc_cubic_equation (1000, 100 * MS, 0.01),
      1499201.832, 0.001);
  /* R of 0 or unknown: 1 ms, 100^(3/4) = 31.62 times as much */
  assert_near (rtp_burst_tfrc_cubic_equation (1000, NONE, 0.01),
      1499201.832 * 31.6227766017, 1.0);
  fail_unless (isinf (rtp_burst_tfrc_cubic_equation (1000, 100 * MS, 0.0)));
  fail_unless (rtp_burst_tfrc_cubic_equation (1000, 100 * MS, 0.02) <
      rtp_burst_tfrc_cubic_equation (1000, 100 * MS, 0.01));
}

GST_END_TEST;

GST_START_TEST (test_tfrc_loss_intervals_mean)
{
  /* newest first */
  const gdouble closed[9] = { 100, 200, 300, 400, 500, 600, 700, 800, 1 };
  const gdouble two[2] = { 10, 20 };

  /* weights 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2 (W_tot = 6):
   *   I_tot1 = 100 + 200 + 300 + 400 + 0.8*500 + 0.6*600 + 0.4*700
   *            + 0.2*800 = 2200
   *   I_tot0 = 50 + 100 + 200 + 300 + 0.8*400 + 0.6*500 + 0.4*600
   *            + 0.2*700 = 1650
   * the open interval (50) would lower the mean: p = 6 / 2200; the ninth
   * closed interval (1) is not used */
  assert_near (rtp_burst_tfrc_loss_event_rate (50, closed, 9),
      6.0 / 2200, 1e-15);
  /* an open interval of 1000 raises it: I_tot0 = 1000 + 600 + 320 + 300
   * + 240 + 140 = 2600, p = 6 / 2600 */
  assert_near (rtp_burst_tfrc_loss_event_rate (1000, closed, 8),
      6.0 / 2600, 1e-15);
  /* two closed intervals: weights 1, 1 (W_tot = 2), I_tot1 = 30,
   * I_tot0 = 5 + 10 = 15: p = 2 / 30 */
  assert_near (rtp_burst_tfrc_loss_event_rate (5, two, 2), 2.0 / 30, 1e-15);
  /* open 40: I_tot0 = 40 + 10 = 50, p = 2 / 50 */
  assert_near (rtp_burst_tfrc_loss_event_rate (40, two, 2), 2.0 / 50, 1e-15);
  /* no loss interval: no loss event rate */
  assert_near (rtp_burst_tfrc_loss_event_rate (40, NULL, 0), 0.0, 0);
}

GST_END_TEST;

/* The first lost packets of the loss events of test_tfrc_loss_history. */
static gboolean
lost_history (guint64 seq)
{
  return seq == 10 || seq == 30 || seq == 60 || seq == 100 || seq == 150 ||
      seq == 210 || seq == 280 || seq == 360 || seq == 450;
}

static gboolean
lost_all (guint64 seq)
{
  return TRUE;
}

GST_START_TEST (test_tfrc_loss_history)
{
  RtpBurstTfrc *t = tfrc_new (1000, 0);
  RtpBurstTfrcReport r;
  guint64 seq;

  /* packets 10 ms apart, R = 100 ms: each loss above is 200 ms or more
   * after the one before, so each starts a loss event; the intervals
   * between them, newest first: 90, 80, 70, 60, 50, 40, 30, 20.  The
   * first event's seeded interval is pushed out by the eighth. */
  for (seq = 0; seq < 460; seq += 46)
    feed (t, seq, 46, seq * 10 * MS, 10 * MS, 20 * MS, 1000, lost_history,
        seq * 10 * MS + 560 * MS, 100 * MS);
  r = report (t);
  fail_unless_equals_uint64 (r.loss_events, 9);
  fail_unless_equals_uint64 (r.lost, 9);
  fail_unless_equals_int (r.n_intervals, 8);
  assert_near (r.intervals[1], 90, 0);
  assert_near (r.intervals[8], 20, 0);
  /* I_0 = 459 - 450 + 1 = 10.  I_tot1 = 90 + 80 + 70 + 60 + 0.8*50
   * + 0.6*40 + 0.4*30 + 0.2*20 = 380; I_tot0 = 10 + 90 + 80 + 70
   * + 0.8*60 + 0.6*50 + 0.4*40 + 0.2*30 = 350: p = 6 / 380 */
  assert_near (r.intervals[0], 10, 0);
  assert_near (r.p, 6.0 / 380, 1e-15);

  /* 90 packets more without a loss: I_0 = 549 - 450 + 1 = 100, I_tot0 =
   * 100 + 240 + 100 = 440 is above I_tot1 now: p = 6 / 440 */
  feed (t, 460, 45, 4600 * MS, 10 * MS, 20 * MS, 1000, NULL, 5100 * MS,
      100 * MS);
  feed (t, 505, 45, 5050 * MS, 10 * MS, 20 * MS, 1000, NULL, 5550 * MS,
      100 * MS);
  r = report (t);
  assert_near (r.intervals[0], 100, 0);
  assert_near (r.p, 6.0 / 440, 1e-15);
  fail_unless_equals_uint64 (r.loss_events, 9);

  /* packets reported again (seq not above the highest) are ignored */
  feed (t, 540, 10, 5400 * MS, 10 * MS, 20 * MS, 1000, lost_all,
      5600 * MS, 100 * MS);
  r = report (t);
  assert_near (r.p, 6.0 / 440, 1e-15);
  fail_unless_equals_uint64 (r.lost, 9);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

static gboolean
lost_one_rtt (guint64 seq)
{
  return seq == 10 || seq == 12 || seq == 15 || seq == 20 || seq == 21 ||
      seq == 23;
}

GST_START_TEST (test_tfrc_losses_within_rtt)
{
  RtpBurstTfrc *t = tfrc_new (1000, 0);
  RtpBurstTfrcReport r;

  /* packet n sent at n * 10 ms, R = 100 ms.  10 (sent at 100 ms) starts an
   * event; 12, 15 and 20 (at 200 ms: exactly R later) belong to it; 21
   * (210 ms) starts the next one, with 23 in it. */
  feed (t, 0, 41, 0, 10 * MS, 20 * MS, 1000, lost_one_rtt, 600 * MS, 100 * MS);
  r = report (t);
  fail_unless_equals_uint64 (r.lost, 6);
  fail_unless_equals_uint64 (r.loss_events, 2);
  fail_unless_equals_int (r.n_intervals, 2);
  /* from the first lost packet of one event to that of the next */
  assert_near (r.intervals[1], 21 - 10, 0);
  /* the open one: 40 - 21 + 1 */
  assert_near (r.intervals[0], 20, 0);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

/* Ten packets of 1000 bytes, 10 ms apart, received 30 ms after they were
 * sent, the report of them at the last one's send time + R: 100000 bytes/s
 * (800 kbit/s) through the link.  The sender says it sent plenty (not
 * data-limited). */
static void
round_ten (RtpBurstTfrc * t, guint k, LostFunc lost)
{
  guint64 send = k * 100 * MS;

  rtp_burst_tfrc_on_sent (t, 100000, send + 95 * MS);
  feed (t, 10 * k, 10, send, 10 * MS, 30 * MS, 1000, lost,
      send + 190 * MS, 100 * MS);
}

GST_START_TEST (test_tfrc_slow_start)
{
  RtpBurstTfrc *t = tfrc_new (1000, 0);
  RtpBurstTfrcReport r;

  /* before an RTT: one segment a second */
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 8000);
  rtp_burst_tfrc_on_sent (t, 1000, 0);

  /* the first feedback, R = 100 ms: X = max (min (2X, recv_limit),
   * W_init / R), W_init = min (4s, max (2s, 4380)) = 4000 bytes:
   * 40000 bytes/s = 320 kbit/s.  (The first packet received starts the
   * receive clock: 90 ms of arrivals is less than R, no X_recv yet.) */
  round_ten (t, 0, NULL);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 320000);
  r = report (t);
  fail_unless_equals_uint64 (r.rtt, 100 * MS);
  fail_unless_equals_uint64 (r.x_recv, 0);
  fail_unless (r.slow_start);
  fail_if (r.data_limited);
  /* the nofeedback timer: 2 s while the receiver's pace is not known */
  fail_unless_equals_uint64 (r.nofeedback_deadline, 190 * MS + 2000 * MS);

  /* one R later: doubled.  X_recv = 19000 bytes over 190 ms */
  round_ten (t, 1, NULL);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 640000);
  r = report (t);
  fail_unless_equals_uint64 (r.x_recv, 800000);
  /* the timer: max (4R, 2s/X, twice the 100 ms since the last feedback)
   * = 400 ms */
  fail_unless_equals_uint64 (r.feedback_gap, 100 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 290 * MS + 400 * MS);

  /* a report half an R later: not doubled again */
  rtp_burst_tfrc_on_sent (t, 100000, 300 * MS);
  feed (t, 20, 5, 200 * MS, 10 * MS, 30 * MS, 1000, NULL, 340 * MS, 100 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 640000);

  /* R after the last doubling: doubled, 2X = 1.28 Mbit/s is below
   * 2 X_recv = 1.6 Mbit/s */
  rtp_burst_tfrc_on_sent (t, 100000, 380 * MS);
  feed (t, 25, 5, 250 * MS, 10 * MS, 30 * MS, 1000, NULL, 390 * MS, 100 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1280000);

  /* then 2X = 2.56 Mbit/s: held at 2 X_recv */
  round_ten (t, 3, NULL);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1600000);
  r = report (t);
  fail_unless_equals_uint64 (r.recv_limit, 1600000);
  fail_unless (r.slow_start);
  round_ten (t, 4, NULL);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1600000);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

/* Slow start as in test_tfrc_slow_start up to report @k: X = 1.6 Mbit/s,
 * X_recv = 800 kbit/s. */
static RtpBurstTfrc *
slow_started (guint * k)
{
  RtpBurstTfrc *t = tfrc_new (1000, 0);

  rtp_burst_tfrc_on_sent (t, 1000, 0);
  for (*k = 0; *k < 5; (*k)++)
    round_ten (t, *k, NULL);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1600000);
  return t;
}

static gboolean
lost_57 (guint64 seq)
{
  return seq == 57;
}

GST_START_TEST (test_tfrc_first_loss)
{
  RtpBurstTfrcReport r;
  RtpBurstTfrc *t;
  guint k;

  t = slow_started (&k);
  /* packet 57 lost.  RFC 5348 6.3.1: the interval before the first loss
   * event is the one whose p makes the equation give X_recv: with
   * s = 1000, R = 100 ms, X_recv = 100000 bytes/s,
   *   1000 / (0.1 f (p)) = 100000, f (p) = sqrt (2p/3) +
   *   12 sqrt (3p/8) p (1 + 32 p^2) = 0.1  =>  p = 0.0121727155,
   * an interval of 82.150938 packets.  The open interval, 59 - 57 + 1 = 3,
   * does not raise the mean: p = 1 / 82.150938 and X_calc = X_recv. */
  round_ten (t, k++, lost_57);
  r = report (t);
  fail_if (r.slow_start);
  fail_unless_equals_uint64 (r.loss_events, 1);
  fail_unless_equals_int (r.n_intervals, 1);
  assert_near (r.intervals[1], 82.150938037, 1e-6);
  assert_near (r.intervals[0], 3, 0);
  assert_near (r.p, 0.0121727155391, 1e-12);
  /* X = max (min (X_calc, 2 X_recv), s / t_mbi) = X_calc = X_recv */
  assert_near (r.x_calc, 800000, 1);
  assert_near (r.x, 800000, 1);

  /* then the link carries 10000 bytes/s (packets of 100 bytes), none
   * lost.  Once the 100000 bytes/s reports are more than 2R old,
   * X = 2 X_recv = 160 kbit/s, below X_calc */
  for (; k < 10; k++) {
    guint64 send = k * 100 * MS;

    rtp_burst_tfrc_on_sent (t, 100000, send + 95 * MS);
    feed (t, 10 * k, 10, send, 10 * MS, 30 * MS, 100, NULL,
        send + 190 * MS, 100 * MS);
  }
  r = report (t);
  fail_unless_equals_uint64 (r.x_recv, 80000);
  fail_unless (r.x_calc > 160000);
  fail_unless_equals_uint64 (r.x, 160000);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

GST_START_TEST (test_tfrc_nofeedback_before_feedback)
{
  RtpBurstTfrc *t = tfrc_new (1000, 1000000);
  RtpBurstTfrcReport r;

  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1000000);
  /* nothing sent: no timer */
  rtp_burst_tfrc_tick (t, 10000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1000000);
  fail_unless_equals_uint64 (report (t).nofeedback_deadline, NONE);

  /* 2 s after the first packet sent without feedback: halved */
  rtp_burst_tfrc_on_sent (t, 1000, 10000 * MS);
  rtp_burst_tfrc_tick (t, 12000 * MS - 1);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1000000);
  rtp_burst_tfrc_tick (t, 12000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 500000);
  r = report (t);
  fail_unless_equals_uint64 (r.nofeedback_expiries, 1);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 14000 * MS);
  /* and again 2 s later */
  rtp_burst_tfrc_on_sent (t, 1000, 13000 * MS);
  rtp_burst_tfrc_tick (t, 14000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 250000);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

GST_START_TEST (test_tfrc_nofeedback_halving)
{
  RtpBurstTfrcReport r;
  RtpBurstTfrc *t;
  guint64 now;
  guint k;

  t = slow_started (&k);
  round_ten (t, k++, lost_57);
  r = report (t);
  assert_near (r.x, 800000, 1);
  /* the timer: max (4R, 2s/X) = max (400 ms, 2000 / 100000 s) = 400 ms
   * after the last feedback (at 690 ms) */
  now = 690 * MS;
  fail_unless_equals_uint64 (r.nofeedback_deadline, now + 400 * MS);
  rtp_burst_tfrc_on_sent (t, 1000, now + 100 * MS);
  rtp_burst_tfrc_tick (t, now + 400 * MS - 1);
  assert_near (rtp_burst_tfrc_rate (t), 800000, 1);

  /* X was X_calc (below 2 X_recv): Update_Limits (X_calc / 2): X_recv_set
   * = { X_calc / 4 }, X = min (X_calc, X_calc / 2) */
  now += 400 * MS;
  rtp_burst_tfrc_tick (t, now);
  assert_near (rtp_burst_tfrc_rate (t), 400000, 1);
  r = report (t);
  fail_unless_equals_uint64 (r.nofeedback_expiries, 1);
  fail_unless_equals_uint64 (r.nofeedback_deadline, now + 400 * MS);

  /* still no feedback: X_calc is now above 2 max (X_recv_set), so
   * Update_Limits (X_recv): X = X_recv = 200 kbit/s */
  rtp_burst_tfrc_on_sent (t, 1000, now + 100 * MS);
  now += 400 * MS;
  rtp_burst_tfrc_tick (t, now);
  assert_near (rtp_burst_tfrc_rate (t), 200000, 1);

  /* idle since the timer was set, with X_recv (100 kbit/s) below
   * recover_rate (W_init / R = 320 kbit/s): not halved */
  now += 400 * MS;
  rtp_burst_tfrc_tick (t, now);
  assert_near (rtp_burst_tfrc_rate (t), 200000, 1);
  fail_unless_equals_uint64 (report (t).nofeedback_expiries, 3);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

/* From test_tfrc_slow_start's state (X = 1.6 Mbit/s, X_recv = 800 kbit/s)
 * the link carries 5000 bytes per R (400 kbit/s) for five reports; the
 * sender says it sent @sent bytes each time.  Returns the report. */
static RtpBurstTfrcReport
slow_link (guint64 sent, LostFunc lost)
{
  RtpBurstTfrcReport r;
  RtpBurstTfrc *t;
  guint k, end;

  t = slow_started (&k);
  for (end = k + 5; k < end; k++) {
    guint64 send = k * 100 * MS;

    rtp_burst_tfrc_on_sent (t, sent, send + 95 * MS);
    feed (t, 10 * k, 10, send, 10 * MS, 30 * MS, 500, lost,
        send + 190 * MS, 100 * MS);
  }
  r = report (t);
  rtp_burst_tfrc_free (t);
  return r;
}

static gboolean
lost_last (guint64 seq)
{
  return seq == 95;
}

GST_START_TEST (test_tfrc_data_limited)
{
  RtpBurstTfrcReport r;

  /* the sender sent its 1.6 Mbit/s (20000 bytes per 100 ms): the link is
   * the limit; once the 800 kbit/s reports are 2R old,
   * X = max (min (2X, 2 X_recv), W_init / R) = 800 kbit/s */
  r = slow_link (20000, NULL);
  fail_if (r.data_limited);
  fail_unless_equals_uint64 (r.x_recv, 400000);
  fail_unless_equals_uint64 (r.x, 800000);

  /* the sender had only 5000 bytes per 100 ms to send (400 kbit/s, less
   * than X/2): data-limited; X_recv_set keeps its maximum (800 kbit/s),
   * X is not cut */
  r = slow_link (5000, NULL);
  fail_unless (r.data_limited);
  fail_unless_equals_uint64 (r.x_recv, 400000);
  fail_unless_equals_uint64 (r.recv_limit, 1600000);
  fail_unless_equals_uint64 (r.x, 1600000);

  /* a loss in a data-limited interval (packet 95): X_recv_set's entries
   * halved, recv_limit = max (X_recv_set) (not twice it) = 400 kbit/s;
   * the seeded interval gives X_calc = X_recv = 400 kbit/s */
  r = slow_link (5000, lost_last);
  fail_unless (r.data_limited);
  fail_unless_equals_uint64 (r.loss_events, 1);
  fail_unless_equals_uint64 (r.recv_limit, 400000);
  assert_near (r.x_calc, 400000, 1);
  assert_near (r.x, 400000, 1);
}

GST_END_TEST;

/* The VoIP case of the TFRC paper (Vardhan & Reddy): G.711, 64 kbit/s in
 * 160-byte packets every 20 ms; R = 200 ms (100 ms each way), a report
 * every 100 ms (5 packets).  Every @every-th packet lost from packet 200
 * on (0: none).  The source sends its 64 kbit/s whatever X says. */
static gboolean
lost_voip_every (guint64 seq, guint every)
{
  return every && seq >= 200 && seq % every == every - 1;
}

static gboolean
lost_voip_50 (guint64 seq)
{
  return lost_voip_every (seq, 50);
}

static gboolean
lost_voip_100 (guint64 seq)
{
  return lost_voip_every (seq, 100);
}

static RtpBurstTfrcReport
voip (guint reports, LostFunc lost, guint64 * first_x)
{
  RtpBurstTfrcConfig c = { 160, 0, 0, 0 };
  RtpBurstTfrc *t = rtp_burst_tfrc_new (&c);
  RtpBurstTfrcReport r;
  guint k, i;

  for (k = 0; k < reports; k++) {
    guint64 send = k * 100 * MS;

    for (i = 0; i < 5; i++)
      rtp_burst_tfrc_on_sent (t, 160, send + i * 20 * MS);
    /* the report leaves the receiver when the fifth packet arrives */
    feed (t, 5 * k, 5, send, 20 * MS, 100 * MS, 160, lost,
        send + 80 * MS + 200 * MS, 200 * MS);
    if (k == 0 && first_x)
      *first_x = rtp_burst_tfrc_rate (t);
  }
  r = report (t);
  rtp_burst_tfrc_free (t);
  return r;
}

GST_START_TEST (test_tfrc_voip)
{
  RtpBurstTfrcReport r;
  guint64 first_x = 0;

  /* no loss.  First X = W_init / R = min (4 * 160, max (2 * 160, 4380))
   * / 0.2 s = 3200 bytes/s = 25.6 kbit/s; slow start then doubles it per
   * R up to 2 X_recv = 128 kbit/s */
  r = voip (40, NULL, &first_x);
  fail_unless_equals_uint64 (first_x, 25600);
  fail_unless (r.slow_start);
  fail_unless_equals_uint64 (r.rtt, 200 * MS);
  fail_unless_equals_uint64 (r.x_recv, 64000);
  fail_unless_equals_uint64 (r.x, 128000);

  /* 1 % loss (packets 299, 399 .. 1399, 2 s apart: one loss event
   * each): after
   * more than 8 events the seeded interval is gone, every interval is 100,
   * p = 0.01 and X = X_calc (160 bytes, 200 ms, 0.01) = 71892.6 bit/s:
   * above the call's 64 kbit/s */
  r = voip (40 + 250, lost_voip_100, NULL);
  fail_unless_equals_uint64 (r.loss_events, 12);
  assert_near (r.p, 0.01, 1e-12);
  assert_near (r.x, 71892.63, 1);
  fail_unless (r.x > 64000);

  /* 2 %: p = 0.02, X = 46879.3 bit/s (test_tfrc_equation): TFRC gives the
   * 160-byte call less than its 64 kbit/s */
  r = voip (40 + 250, lost_voip_50, NULL);
  fail_unless_equals_uint64 (r.loss_events, 25);
  assert_near (r.p, 0.02, 1e-12);
  assert_near (r.x, 46879.335, 1);
  fail_unless (r.x < 64000);
}

GST_END_TEST;

/* A G.711 call alone on a link it fits, as the element feeds the unit:
 * 180 bytes on the wire every 20 ms (72 kbit/s), each sent packet given to
 * on_sent and the nofeedback timer run after it, a report every 50 ms of
 * the packets that arrived since (0.2 ms each way), the timer run before
 * it, with the round trip @rtt the caller measured.  Packets from @from_ms
 * to @to_ms (exclusive), reports after @from_ms to @to_ms (inclusive: all
 * sent are reported); *@seq: the next packet. */
static void
call_72k (RtpBurstTfrc * t, guint64 from_ms, guint64 to_ms, guint64 rtt,
    guint64 * seq)
{
  RtpBurstFeedbackPacket pkts[MAX_PKTS];
  guint64 ms, owd = MS / 5;
  guint n = 0;

  for (ms = from_ms; ms <= to_ms; ms++) {
    if (ms % 20 == 0 && ms < to_ms) {
      rtp_burst_tfrc_on_sent (t, 180, ms * MS);
      rtp_burst_tfrc_tick (t, ms * MS);
      fail_unless (n < MAX_PKTS);
      pkts[n].seq = *seq + n;
      pkts[n].send_time = ms * MS;
      pkts[n].arrival = RX_ORIGIN + ms * MS + owd;
      pkts[n].size = 180;
      n++;
    }
    /* the report leaves the receiver at ms, before ms's own packet
     * arrives, and reaches the sender 0.2 ms later */
    if (ms % 50 == 0 && ms > from_ms) {
      guint sent_now = ms % 20 == 0 && ms < to_ms;

      rtp_burst_tfrc_tick (t, ms * MS + owd);
      rtp_burst_tfrc_on_feedback (t, pkts, n - sent_now, ms * MS + owd, rtt);
      *seq += n - sent_now;
      if (sent_now)
        pkts[0] = pkts[n - 1];
      n = sent_now;
    }
  }
  fail_unless_equals_int (n, 0);
}

/* No loss, the sender data-limited at 72 kbit/s: 4.3 step 4 bounds 2X by
 * recv_limit = 2 max (X_recv_set) = 144 kbit/s, but while p = 0 it takes
 * the larger of that and initial_rate = W_init / R (4.2), W_init = min
 * (4s, max (2s, 4380)) = 4380 bytes for s = 1200: X = 35040 bit / R,
 * whatever the call sends, as long as R is under 4380 bytes / 144 kbit/s
 * = 243.3 ms.  With the element's start rate (2.048 Mbit/s, data-limited
 * from the first report). */
GST_START_TEST (test_tfrc_data_limited_initial_rate)
{
  RtpBurstTfrc *t = tfrc_new (0, 2048000);
  RtpBurstTfrcReport r;
  guint64 seq = 0;

  /* R = 10 ms: 438000 bytes/s */
  call_72k (t, 0, 5000, 10 * MS, &seq);
  fail_unless_equals_uint64 (seq, 250);
  r = report (t);
  fail_unless (r.slow_start);
  fail_unless (r.data_limited);
  assert_near (r.p, 0, 0);
  fail_unless_equals_uint64 (r.rtt, 10 * MS);
  fail_unless_equals_uint64 (r.x_recv, 72000);
  fail_unless_equals_uint64 (r.recv_limit, 144000);
  fail_unless_equals_uint64 (r.x, 3504000);

  /* R smoothed (q = 0.9) to 2.6 ms then 18 ms, within 0.5 us after 100
   * reports (0.9^100 of the step): X follows W_init / R, 13.48 then 1.95
   * Mbit/s (the 1.9-13.5 Mbit/s measured); X_recv and recv_limit do not
   * move */
  call_72k (t, 5000, 10000, 2600 * G_GUINT64_CONSTANT (1000), &seq);
  r = report (t);
  fail_unless (r.data_limited);
  assert_near (r.rtt, 2600 * 1000, 500);
  fail_unless_equals_uint64 (r.recv_limit, 144000);
  assert_near (r.x, 35040.0 / (r.rtt / 1e9), 1);
  assert_near (r.x, 13476923, 13476923 * 2e-4);
  call_72k (t, 10000, 15000, 18 * MS, &seq);
  r = report (t);
  fail_unless (r.data_limited);
  assert_near (r.rtt, 18 * MS, 500);
  fail_unless_equals_uint64 (r.recv_limit, 144000);
  assert_near (r.x, 35040.0 / (r.rtt / 1e9), 1);
  assert_near (r.x, 1946667, 1946667 * 2e-4);

  /* R = 400 ms: W_init / R = 87.6 kbit/s is under recv_limit, which
   * holds X: 2 X_recv = 144 kbit/s */
  call_72k (t, 15000, 20000, 400 * MS, &seq);
  r = report (t);
  fail_unless (r.slow_start);
  fail_unless_equals_uint64 (r.x_recv, 72000);
  fail_unless_equals_uint64 (r.recv_limit, 144000);
  fail_unless_equals_uint64 (r.x, 144000);
  fail_unless_equals_uint64 (r.nofeedback_expiries, 0);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

GST_START_TEST (test_tfrc_guards)
{
  RtpBurstTfrcConfig zero = { 0, 0, 0, 0 };
  RtpBurstTfrcConfig bounded = { 1000, 100000, 500000, 10000000 };
  RtpBurstFeedbackPacket huge[2] = {
    {0, 0, 0, G_MAXUINT},
    {1, 1, G_MAXUINT64 - 1, G_MAXUINT},
  };
  RtpBurstTfrcReport r;
  RtpBurstTfrc *t;

  /* s = 0 is taken as 1200 bytes: one segment a second */
  t = rtp_burst_tfrc_new (&zero);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 9600);
  /* feedback without packets nor a round trip: nothing to go by */
  rtp_burst_tfrc_on_feedback (t, NULL, 0, 0, NONE);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 9600);
  r = report (t);
  fail_unless_equals_uint64 (r.rtt, NONE);
  assert_near (r.p, 0, 0);
  /* R = 0: taken as 1 ms, W_init = 4380 bytes: 35.04 Mbit/s */
  rtp_burst_tfrc_on_feedback (t, NULL, 0, 10 * MS, 0);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 35040000);
  /* absurd sizes and times: no overflow */
  rtp_burst_tfrc_on_sent (t, G_MAXUINT64, 20 * MS);
  rtp_burst_tfrc_on_sent (t, G_MAXUINT64, 20 * MS);
  rtp_burst_tfrc_on_feedback (t, huge, 2, G_MAXUINT64 - 1, NONE);
  rtp_burst_tfrc_tick (t, G_MAXUINT64 - 1);
  r = report (t);
  fail_unless (r.x > 0);
  fail_unless (r.rtt <= 60000 * MS);
  rtp_burst_tfrc_free (t);

  /* a segment of 1 byte: s / t_mbi is 0.125 bit/s, but the rate is never
   * 0 (read as "no rate" by a caller) */
  {
    RtpBurstTfrcConfig tiny = { 1, 0, 0, 1 };

    t = rtp_burst_tfrc_new (&tiny);
    rtp_burst_tfrc_on_sent (t, 1, 0);
    rtp_burst_tfrc_tick (t, 2000 * MS);
    rtp_burst_tfrc_tick (t, 4000 * MS);
    fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 1);
    rtp_burst_tfrc_free (t);
  }

  /* min and max rate bound X: the start rate above max */
  t = rtp_burst_tfrc_new (&bounded);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 500000);
  rtp_burst_tfrc_on_sent (t, 1000, 0);
  rtp_burst_tfrc_tick (t, 2000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 250000);
  rtp_burst_tfrc_tick (t, 4000 * MS);
  rtp_burst_tfrc_tick (t, 6000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), 100000);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

/* The receiver reports at its own pace, not once per round trip: the
 * nofeedback timer waits at least twice the longest recent interval
 * between reports (2 s while none is known), one counting until a report
 * comes eight times its length after it ended.  X pinned at 8 Mbit/s
 * (2s/X = 2.4 ms), R = 1 ms (4R = 4 ms). */
GST_START_TEST (test_tfrc_nofeedback_feedback_gap)
{
  RtpBurstTfrcConfig c = { 1200, 8000000, 8000000, 8000000 };
  RtpBurstTfrc *t = rtp_burst_tfrc_new (&c);
  RtpBurstTfrcReport r;
  guint64 now, seq = 0;
  guint k;

  /* the first report, and one less than 5 ms later (the same RTCP
   * packet): no interval yet, the 2 s of before the first feedback */
  feed (t, seq, 4, 0, MS, 0, 1200, NULL, 10 * MS, MS);
  seq += 4;
  r = report (t);
  fail_unless_equals_uint64 (r.rtt, MS);
  fail_unless_equals_uint64 (r.feedback_gap, 0);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 2010 * MS);
  feed (t, seq, 4, 4 * MS, MS, 0, 1200, NULL, 14 * MS, MS);
  seq += 4;
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 0);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 2014 * MS);
  /* one per frame, 40 ms after the first: 80 ms */
  feed (t, seq, 4, 40 * MS, MS, 0, 1200, NULL, 50 * MS, MS);
  seq += 4;
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 40 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 130 * MS);
  rtp_burst_tfrc_tick (t, 129 * MS);
  fail_unless_equals_uint64 (report (t).nofeedback_expiries, 0);

  /* ten reports together at 90 ms (rtpsession's RTCP), ten more 200 ms
   * later: 400 ms, however many came together */
  for (k = 0; k < 10; k++, seq += 4)
    feed (t, seq, 4, 60 * MS + k * 3 * MS, MS / 4, 0, 1200, NULL, 90 * MS, MS);
  fail_unless_equals_uint64 (report (t).feedback_gap, 40 * MS);
  fail_unless_equals_uint64 (report (t).nofeedback_deadline, 170 * MS);
  for (k = 0; k < 10; k++, seq += 4)
    feed (t, seq, 4, 260 * MS + k * 3 * MS, MS / 4, 0, 1200, NULL,
        290 * MS, MS);
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 200 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 690 * MS);

  /* one per frame again from 330 ms: the 200 ms interval counts until
   * 290 + 8 x 200 = 1890 ms */
  for (now = 330 * MS; now <= 1930 * MS; now += 40 * MS, seq += 4) {
    feed (t, seq, 4, now - 10 * MS, MS, 0, 1200, NULL, now, MS);
    fail_unless_equals_uint64 (report (t).feedback_gap,
        (now <= 1890 * MS ? 200 : 40) * MS);
  }
  fail_unless_equals_uint64 (report (t).nofeedback_deadline, 2010 * MS);
  /* then none: the timer expires at 2010 ms (not at 1934 ms, 4R after) */
  rtp_burst_tfrc_on_sent (t, 1200, 1940 * MS);
  rtp_burst_tfrc_tick (t, 2009 * MS);
  fail_unless_equals_uint64 (report (t).nofeedback_expiries, 0);
  rtp_burst_tfrc_tick (t, 2010 * MS);
  r = report (t);
  fail_unless_equals_uint64 (r.nofeedback_expiries, 1);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 2090 * MS);

  /* the sender's time going back to 1900 ms: the interval that ended at
   * 1930 ms is forgotten, none is added, those before count */
  feed (t, seq, 4, 1890 * MS, MS, 0, 1200, NULL, 1900 * MS, MS);
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 40 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 1980 * MS);
  /* a report a second later: that second counts */
  seq += 4;
  feed (t, seq, 4, 2890 * MS, MS, 0, 1200, NULL, 2900 * MS, MS);
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 1000 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 4900 * MS);
  /* a silence keeps the pace: the timer expires every 2 s */
  rtp_burst_tfrc_tick (t, 4900 * MS);
  rtp_burst_tfrc_tick (t, 6900 * MS);
  rtp_burst_tfrc_tick (t, 8900 * MS);
  r = report (t);
  fail_unless_equals_uint64 (r.nofeedback_expiries, 4);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 10900 * MS);
  /* feedback 18 s after the last: the 1 s interval is forgotten (8 s
   * after it), the 18 s one counts */
  seq += 4;
  feed (t, seq, 4, 20890 * MS, MS, 0, 1200, NULL, 20900 * MS, MS);
  r = report (t);
  fail_unless_equals_uint64 (r.feedback_gap, 18000 * MS);
  fail_unless_equals_uint64 (r.nofeedback_deadline, 56900 * MS);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

/* R = 0 (an RTCP round trip below its 1/65536 s resolution) at a rate
 * where 2s/X is below 1 ns: the nofeedback timer set by feedback must not
 * expire at that same instant, nor halve X again and again there. */
GST_START_TEST (test_tfrc_nofeedback_zero_rtt)
{
  RtpBurstTfrcReport r;
  RtpBurstTfrc *t;
  guint64 x;

  /* no max_rate: X starts at its ceiling, 800 Tbit/s */
  t = tfrc_new (1200, G_MAXUINT64);
  rtp_burst_tfrc_on_feedback (t, NULL, 0, 1000 * MS, 0);
  r = report (t);
  fail_unless_equals_uint64 (r.rtt, 0);
  x = r.x;
  /* 2s/X below 1 ns: X above 19.2 Tbit/s */
  fail_unless (x > G_GUINT64_CONSTANT (19200000000000));
  fail_unless (r.nofeedback_deadline > 1000 * MS,
      "deadline %" G_GUINT64_FORMAT " not after the feedback",
      r.nofeedback_deadline);
  rtp_burst_tfrc_tick (t, 1000 * MS);
  rtp_burst_tfrc_tick (t, 1000 * MS);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (t), x);
  fail_unless_equals_uint64 (report (t).nofeedback_expiries, 0);
  rtp_burst_tfrc_free (t);
}

GST_END_TEST;

static Suite *
rtpbursttfrc_suite (void)
{
  Suite *s = suite_create ("rtpbursttfrc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_tfrc_equation);
  tcase_add_test (tc, test_tfrc_cubic_equation);
  tcase_add_test (tc, test_tfrc_loss_intervals_mean);
  tcase_add_test (tc, test_tfrc_loss_history);
  tcase_add_test (tc, test_tfrc_losses_within_rtt);
  tcase_add_test (tc, test_tfrc_slow_start);
  tcase_add_test (tc, test_tfrc_first_loss);
  tcase_add_test (tc, test_tfrc_nofeedback_before_feedback);
  tcase_add_test (tc, test_tfrc_nofeedback_halving);
  tcase_add_test (tc, test_tfrc_data_limited);
  tcase_add_test (tc, test_tfrc_voip);
  tcase_add_test (tc, test_tfrc_data_limited_initial_rate);
  tcase_add_test (tc, test_tfrc_guards);
  tcase_add_test (tc, test_tfrc_nofeedback_zero_rtt);
  tcase_add_test (tc, test_tfrc_nofeedback_feedback_gap);
  return s;
}

GST_CHECK_MAIN (rtpbursttfrc);
