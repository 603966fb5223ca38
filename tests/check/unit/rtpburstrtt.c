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


/* Unit tests of rtpburstrtt.c: the round trip from per-packet feedback,
 * with exact figures. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstrtt.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))
#define NONE RTP_BURST_TIME_NONE
/* the receiver's clock: its own origin, far from the sender's */
#define RX_ORIGIN (5000 * MS)
#define MAX_PKTS 16

/* @count packets from @seq, sent 1 ms apart from @send, the path taking
 * @owd (one way) plus @queue x i for the i-th; those in the bit mask
 * @lost are lost. */
static guint
make (RtpBurstFeedbackPacket * p, guint64 seq, guint count, guint64 send,
    guint64 owd, guint64 queue, guint lost)
{
  guint i;

  fail_unless (count <= MAX_PKTS);
  for (i = 0; i < count; i++) {
    p[i].seq = seq + i;
    p[i].send_time = send + i * MS;
    p[i].arrival = lost & (1u << i) ? NONE :
        RX_ORIGIN + p[i].send_time + owd + i * queue;
    p[i].size = 1200;
  }
  return count;
}

/* A report of 10 packets sent 1 ms apart from 100 ms, each 20 ms on the
 * way: the receiver sends the report when the last arrives (at 129 ms on
 * the sender's clock) and it takes 20 ms back: at 149 ms.  Every packet
 * says 40 ms: its flight to the report less what it waited there. */
GST_START_TEST (test_rtt_sample_exact)
{
  RtpBurstFeedbackPacket p[MAX_PKTS];
  guint n = make (p, 1, 10, 100 * MS, 20 * MS, 0, 0);

  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 149 * MS), 40 * MS);
  /* held 7 ms more at the receiver: 47 ms, the hold not known */
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 156 * MS), 47 * MS);
  /* the newest lost: the report's newest arrival is packet 8's (128 ms on
   * the sender's clock), the receiver still sends at 129 ms: 41 ms */
  n = make (p, 1, 10, 100 * MS, 20 * MS, 0, 1u << 9);
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 149 * MS), 41 * MS);
  /* a growing queue (each packet 2 ms later than the one before): the
   * first waited least for the last, 18 ms less than the 1 ms spacing
   * says, so it gives the smallest, 40 ms; the others (40 + 2i) more */
  n = make (p, 1, 10, 100 * MS, 20 * MS, 2 * MS, 0);
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 167 * MS), 40 * MS);
}

GST_END_TEST;

/* No sample: nothing arrived, nothing, sent after now, now unknown; a
 * packet without a send time is left out; the sample is never below 0
 * (the receiver's clock runs fast). */
GST_START_TEST (test_rtt_sample_none)
{
  RtpBurstFeedbackPacket p[MAX_PKTS];
  guint n;

  fail_unless_equals_uint64 (rtp_burst_rtt_sample (NULL, 0, 100 * MS), NONE);
  n = make (p, 1, 4, 100 * MS, 20 * MS, 0, 0xf);
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 200 * MS), NONE);
  n = make (p, 1, 4, 100 * MS, 20 * MS, 0, 0);
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, NONE), NONE);
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 99 * MS), NONE);
  /* only packet 0 sent by 100 ms: 100 - 100 - (3 ms it waited) -> 0 */
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 100 * MS), 0);
  /* packet 3 (the newest arrival) without a send time: the others say
   * 143 - 100 - 3 = 40 ms */
  p[3].send_time = NONE;
  fail_unless_equals_uint64 (rtp_burst_rtt_sample (p, n, 143 * MS), 40 * MS);
}

GST_END_TEST;

/* Report k of 5 packets from k x 40 ms, 20 ms each way, held @hold at
 * the receiver; received at (k x 40 + 4 + 40 + hold) ms. */
static guint64
update_report (RtpBurstRtt * r, guint k, guint64 owd, guint64 hold)
{
  RtpBurstFeedbackPacket p[MAX_PKTS];
  guint64 send = k * 40 * MS;
  guint n = make (p, 1 + 5 * k, 5, send, owd, 0, 0);

  return rtp_burst_rtt_update (r, p, n, send + 4 * MS + 2 * owd + hold);
}

/* The smallest sample of the last second: reports held by the receiver
 * (rtpsession sends five at a time) add nothing; a path that gets longer
 * shows once the shorter samples are a second old; a shorter one at
 * once. */
GST_START_TEST (test_rtt_window)
{
  RtpBurstRtt r;
  guint k;

  rtp_burst_rtt_init (&r);
  fail_unless_equals_uint64 (rtp_burst_rtt_get (&r), NONE);
  /* the receiver holds reports 0-3 until report 4's (160 ms, 120 ms, ...
   * more) */
  for (k = 0; k < 5; k++) {
    guint64 rtt = update_report (&r, k, 20 * MS, (4 - k) * 40 * MS);

    fail_unless_equals_uint64 (rtt, (40 + (4 - k) * 40) * MS);
  }
  fail_unless_equals_uint64 (r.n, 5);
  /* the path takes 50 ms each way from report 5 (at 5 x 40 + 104 =
   * 304 ms): 40 ms stays the round trip while report 4 (at 204 ms) is
   * less than a second old */
  for (k = 5; k < 30; k++) {
    guint64 now = k * 40 * MS + 104 * MS;

    fail_unless_equals_uint64 (update_report (&r, k, 50 * MS, 0),
        now - 204 * MS < 1000 * MS ? 40 * MS : 100 * MS);
  }
  /* (report 4's sample was forgotten at report 28, 1224 ms, 1020 ms after
   * it) */
  fail_unless_equals_uint64 (rtp_burst_rtt_get (&r), 100 * MS);
  /* a shorter path again: at once */
  fail_unless_equals_uint64 (update_report (&r, 30, 10 * MS, 0), 20 * MS);
}

GST_END_TEST;

/* The window keeps at most RTP_BURST_RTT_MAX_SAMPLES; a report without a
 * sample forgets the old ones but the newest; a sample from after now
 * (the sender's clock went back) is forgotten. */
GST_START_TEST (test_rtt_window_limits)
{
  RtpBurstFeedbackPacket p[MAX_PKTS];
  RtpBurstRtt r;
  guint i, n;

  rtp_burst_rtt_init (&r);
  /* 65 reports 1 ms apart: the first, the smallest (1 ms), is pushed
   * out by the 65th */
  for (i = 0; i <= RTP_BURST_RTT_MAX_SAMPLES; i++) {
    guint64 now = 1000 * MS + i * MS;

    n = make (p, 1 + i, 1, now - (i == 0 ? 1 : 2) * MS, 0, 0, 0);
    fail_unless_equals_uint64 (rtp_burst_rtt_update (&r, p, n, now),
        i < RTP_BURST_RTT_MAX_SAMPLES ? 1 * MS : 2 * MS);
  }
  fail_unless_equals_uint64 (r.n, RTP_BURST_RTT_MAX_SAMPLES);

  /* all lost, 5 s later: only the newest sample stays */
  n = make (p, 100, 3, 5000 * MS, 0, 0, 0x7);
  fail_unless_equals_uint64 (rtp_burst_rtt_update (&r, p, n, 6000 * MS),
      2 * MS);
  fail_unless_equals_uint64 (r.n, 1);
  /* the clock went back: the newest sample stays, 3 ms now */
  n = make (p, 200, 1, 497 * MS, 0, 0, 0);
  fail_unless_equals_uint64 (rtp_burst_rtt_update (&r, p, n, 500 * MS), 3 * MS);
  fail_unless_equals_uint64 (r.n, 1);
  /* now unknown: nothing changes */
  fail_unless_equals_uint64 (rtp_burst_rtt_update (&r, p, n, NONE), 3 * MS);
  fail_unless_equals_uint64 (r.n, 1);
}

GST_END_TEST;

static Suite *
rtpburstrtt_suite (void)
{
  Suite *s = suite_create ("rtpburstrtt");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_rtt_sample_exact);
  tcase_add_test (tc, test_rtt_sample_none);
  tcase_add_test (tc, test_rtt_window);
  tcase_add_test (tc, test_rtt_window_limits);
  return s;
}

GST_CHECK_MAIN (rtpburstrtt);
