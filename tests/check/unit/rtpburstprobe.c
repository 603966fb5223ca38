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



/* Unit tests of rtpburstprobe.c: probe clusters sent at their rate and the
 * rate the feedback says the path delivered them at, exact.  The figures
 * are worked out in each test's comment. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstprobe.h"

#define US (G_GUINT64_CONSTANT (1000))
#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
#define SIZE 1200
/* a push's span, and where the sending rtpsession's time falls in it */
#define PUSH_SPAN (20 * US)
#define PUSH_IN (10 * US)

/* Sends @n pushes of one 1200-byte packet, @gap apart from @start, each
 * counted by the probe, and closes the cluster; fills @pkts with their feedback: arrivals @arrival
 * apart from 50 ms, every @lost_every-th (from the first; 0 = none) lost.
 * Returns the time after the last push. */
static guint64
send_cluster (RtpBurstProbe * p, guint64 start, guint n, guint64 gap,
    guint64 arrival, guint lost_every, RtpBurstFeedbackPacket * pkts,
    guint64 seq)
{
  guint i;

  for (i = 0; i < n; i++) {
    guint64 t = start + i * gap;

    rtp_burst_probe_on_sent (p, 1, SIZE, t, t + PUSH_SPAN);
    pkts[i].seq = seq + i;
    pkts[i].send_time = t + PUSH_IN;
    pkts[i].arrival = lost_every && i % lost_every == 0 ? NONE :
        50 * MS + i * arrival;
    pkts[i].size = SIZE;
  }
  rtp_burst_probe_close (p);
  return start + n * gap;
}

/* The initial probes: 3x and 6x the start rate; a cluster lasts 15 ms at
 * its rate (2 Mbit/s x 3 = 6 Mbit/s: 11,250 bytes; x 6: 22,500). */
GST_START_TEST (test_probe_plan)
{
  RtpBurstProbe *p = rtp_burst_probe_new ();
  const RtpBurstProbeCluster *c;

  fail_unless (rtp_burst_probe_idle (p));
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 0);
  rtp_burst_probe_plan_start (p, 2000000, 0);
  fail_unless_equals_int (rtp_burst_probe_n_clusters (p), 2);
  fail_if (rtp_burst_probe_idle (p));
  c = rtp_burst_probe_cluster (p, 0);
  fail_unless_equals_uint64 (c->rate, 6000000);
  fail_unless_equals_uint64 (c->min_bytes, 11250);
  fail_unless_equals_int (c->min_packets, 5);
  c = rtp_burst_probe_cluster (p, 1);
  fail_unless_equals_uint64 (c->rate, 12000000);
  fail_unless_equals_uint64 (c->min_bytes, 22500);
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 6000000);
  /* room for four */
  fail_unless (rtp_burst_probe_plan (p, 1000000));
  fail_unless (rtp_burst_probe_plan (p, 1000000));
  fail_if (rtp_burst_probe_plan (p, 1000000));
  rtp_burst_probe_free (p);

  /* at most max_rate; none when that is the start rate */
  p = rtp_burst_probe_new ();
  fail_unless (rtp_burst_probe_plan_start (p, 2000000, 9000000));
  fail_unless_equals_uint64 (rtp_burst_probe_cluster (p, 0)->rate, 6000000);
  fail_unless_equals_uint64 (rtp_burst_probe_cluster (p, 1)->rate, 9000000);
  rtp_burst_probe_free (p);
  p = rtp_burst_probe_new ();
  fail_if (rtp_burst_probe_plan_start (p, 2000000, 2000000));
  fail_unless_equals_int (rtp_burst_probe_n_clusters (p), 0);
  rtp_burst_probe_free (p);
}

GST_END_TEST;

/* A path with room: 10 packets of 1200 bytes (12,000 >= 11,250) sent and
 * received 1.6 ms apart.  Send rate (12,000 - 1,200) x 8 / 14.4 ms =
 * 6 Mbit/s, receive rate the same: the result is 6 Mbit/s. */
GST_START_TEST (test_probe_room)
{
  RtpBurstProbe *p = rtp_burst_probe_new ();
  RtpBurstFeedbackPacket pkts[10];
  const RtpBurstProbeCluster *c;

  /* while a cluster is sent, no rate for the next; closed with 4
   * packets, short of 5, it fails, and the next cluster's turn comes */
  rtp_burst_probe_plan_start (p, 2000000, 0);
  rtp_burst_probe_on_sent (p, 4, 4 * SIZE, 0, PUSH_SPAN);
  c = rtp_burst_probe_cluster (p, 0);
  fail_unless_equals_int (c->state, RTP_BURST_PROBE_SENDING);
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 0);
  rtp_burst_probe_close (p);
  fail_unless_equals_int (c->state, RTP_BURST_PROBE_FAILED);
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 12000000);
  /* closing with nothing sent changes nothing */
  rtp_burst_probe_close (p);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 1)->state,
      RTP_BURST_PROBE_PENDING);
  rtp_burst_probe_free (p);

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 1000 * MS, 10, 1600 * US, 1600 * US, 0, pkts, 0);
  c = rtp_burst_probe_cluster (p, 0);
  fail_unless_equals_int (c->state, RTP_BURST_PROBE_SENT);
  fail_unless_equals_uint64 (c->first_send, 1000 * MS);
  fail_unless_equals_uint64 (c->last_send, 1000 * MS + 9 * 1600 * US +
      PUSH_SPAN);
  /* the next cluster's turn */
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 12000000);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          1100 * MS), 6000000);
  fail_unless_equals_int (c->state, RTP_BURST_PROBE_DONE);
  fail_unless_equals_uint64 (c->send_rate, 6000000);
  fail_unless_equals_uint64 (c->receive_rate, 6000000);
  fail_unless_equals_uint64 (c->result, 6000000);
  /* a report again: judged once */
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          1200 * MS), 0);
  rtp_burst_probe_free (p);
}

GST_END_TEST;

/* A 4 Mbit/s path: the same cluster arrives 2.4 ms apart: receive rate
 * 10,800 x 8 / 21.6 ms = 4 Mbit/s, below 0.9 x 6: the capacity found,
 * the result 0.95 x 4 Mbit/s = 3.8 Mbit/s. */
GST_START_TEST (test_probe_saturated)
{
  RtpBurstProbe *p = rtp_burst_probe_new ();
  RtpBurstFeedbackPacket pkts[10];
  const RtpBurstProbeCluster *c;

  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 2400 * US, 0, pkts, 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          200 * MS), 3800000);
  c = rtp_burst_probe_cluster (p, 0);
  fail_unless_equals_uint64 (c->send_rate, 6000000);
  fail_unless_equals_uint64 (c->receive_rate, 4000000);
  /* received at 5.5 Mbit/s (not below 0.9 x 6): min (send, receive);
   * 10,800 x 8 / 9 / 5.5 Mbit/s = 1745.45 us apart, rounded to the ns */
  rtp_burst_probe_free (p);

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 1745455, 0, pkts, 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          200 * MS), 5499999);
  rtp_burst_probe_free (p);
}

GST_END_TEST;

/* Feedback in two reports: the first (5 of 10 packets) leaves the cluster
 * waiting; the second completes it.  Packets outside its span (sent
 * before it and after it, unpaced) do not count. */
GST_START_TEST (test_probe_two_reports)
{
  RtpBurstProbe *p = rtp_burst_probe_new ();
  RtpBurstFeedbackPacket pkts[10], other[2];
  const RtpBurstProbeCluster *c;

  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 100 * MS, 10, 1600 * US, 1600 * US, 0, pkts, 10);
  other[0] = pkts[0];
  other[0].seq = 9;
  other[0].send_time = 100 * MS - 1;
  other[1] = pkts[9];
  other[1].seq = 20;
  other[1].send_time = 100 * MS + 9 * 1600 * US + PUSH_SPAN + 1;
  other[1].arrival = 60 * MS;
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, other, 2,
          150 * MS), 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 5,
          150 * MS), 0);
  c = rtp_burst_probe_cluster (p, 0);
  fail_unless_equals_int (c->state, RTP_BURST_PROBE_SENT);
  fail_unless_equals_int (c->n_received, 5);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts + 5, 5,
          250 * MS), 6000000);
  fail_unless_equals_int (c->n_received, 10);
  rtp_burst_probe_free (p);
}

GST_END_TEST;

/* Failures: 3 of 10 lost (7 < 80 %) fails once all are reported; 5
 * reported and nothing more for 1 s fails at the timeout; arrivals faster
 * than twice the sending (0.7 ms apart: 13.7 Mbit/s > 2 x 6) fail; so does
 * a cluster whose packets arrived at one instant. */
GST_START_TEST (test_probe_failures)
{
  RtpBurstProbe *p;
  RtpBurstFeedbackPacket pkts[10];
  guint64 end;
  guint i;

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 1600 * US, 4, pkts, 0);
  /* lost: 0, 4, 8 */
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          100 * MS), 0);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 0)->state,
      RTP_BURST_PROBE_FAILED);
  rtp_burst_probe_free (p);

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  end = send_cluster (p, 0, 10, 1600 * US, 1600 * US, 0, pkts, 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 5,
          100 * MS), 0);
  /* at the last push's end + 1 s: not yet */
  end = end - 1600 * US + PUSH_SPAN;
  rtp_burst_probe_on_feedback (p, NULL, 0, end + 1000 * MS);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 0)->state,
      RTP_BURST_PROBE_SENT);
  rtp_burst_probe_on_feedback (p, NULL, 0, end + 1000 * MS + 1);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 0)->state,
      RTP_BURST_PROBE_FAILED);
  rtp_burst_probe_free (p);

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 700 * US, 0, pkts, 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          100 * MS), 0);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 0)->state,
      RTP_BURST_PROBE_FAILED);
  rtp_burst_probe_free (p);

  p = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 0, 0, pkts, 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 10,
          100 * MS), 0);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 0)->state,
      RTP_BURST_PROBE_FAILED);
  /* the second cluster goes on; a push without packets or with times
   * reversed does not count */
  rtp_burst_probe_on_sent (p, 0, 0, 200 * MS, 200 * MS);
  rtp_burst_probe_on_sent (p, 1, SIZE, 200 * MS, 199 * MS);
  rtp_burst_probe_on_sent (p, 1, SIZE, NONE, 200 * MS);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 1)->n_sent, 0);
  for (i = 0; i < 19; i++)
    rtp_burst_probe_on_sent (p, 1, SIZE, 200 * MS + i * 800 * US,
        200 * MS + i * 800 * US + PUSH_SPAN);
  rtp_burst_probe_close (p);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 1)->state,
      RTP_BURST_PROBE_SENT);
  fail_if (rtp_burst_probe_idle (p));
  rtp_burst_probe_free (p);
}

GST_END_TEST;

/* Both clusters complete in one report: the higher result is returned
 * (6 Mbit/s; 12 Mbit/s: 19 packets 0.8 ms apart, 21,600 x 8 / 14.4 ms). */
GST_START_TEST (test_probe_both)
{
  RtpBurstProbe *p = rtp_burst_probe_new ();
  RtpBurstFeedbackPacket pkts[29];

  rtp_burst_probe_plan_start (p, 2000000, 0);
  send_cluster (p, 0, 10, 1600 * US, 1600 * US, 0, pkts, 0);
  send_cluster (p, 100 * MS, 19, 800 * US, 800 * US, 0, pkts + 10, 10);
  fail_unless_equals_uint64 (rtp_burst_probe_rate (p), 0);
  fail_unless_equals_uint64 (rtp_burst_probe_on_feedback (p, pkts, 29,
          300 * MS), 12000000);
  fail_unless_equals_uint64 (rtp_burst_probe_cluster (p, 0)->result, 6000000);
  fail_unless (rtp_burst_probe_idle (p));
  /* sent after all clusters: nothing counts */
  rtp_burst_probe_on_sent (p, 1, SIZE, 400 * MS, 400 * MS);
  fail_unless_equals_int (rtp_burst_probe_cluster (p, 1)->n_sent, 19);
  rtp_burst_probe_free (p);
}

GST_END_TEST;

static Suite *
rtpburstprobe_suite (void)
{
  Suite *s = suite_create ("rtpburstprobe");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_probe_plan);
  tcase_add_test (tc, test_probe_room);
  tcase_add_test (tc, test_probe_saturated);
  tcase_add_test (tc, test_probe_two_reports);
  tcase_add_test (tc, test_probe_failures);
  tcase_add_test (tc, test_probe_both);
  return s;
}

GST_CHECK_MAIN (rtpburstprobe);
