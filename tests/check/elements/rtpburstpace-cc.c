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

/* Congestion control through the element (gst/gstrtpburstcc.h): upstream
 * RTPTWCCPackets events, made as GStreamer 1.22's rtpsession makes them,
 * pushed into the element's source pad; the estimate compared with the
 * controller (rtpburstgcc.h, rtpbursttfrc.h) fed the same packets
 * directly, with the round trip measured from them (rtpburstrtt.h); the
 * rate cap it sets; TFRC's nofeedback timer and the no-feedback warning
 * on the test clock.  The element reads the sender's time from the system
 * clock, made the test clock here. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rtpburstpace-fixture.h"

#include "rtpburstgcc.h"
#include "rtpburstrtt.h"
#include "rtpbursttfrc.h"

#define PKTS_PER_REPORT 10
#define PAYLOAD 1200
#define FIRST_TWCC_SEQ 65500    /* the 16-bit seqnums wrap after 36 */
#define RECEIVER_ORIGIN (1000 * MS)     /* the receiver's clock, any origin */

/* One packet of a report: its transport-wide index (the test's own 64-bit
 * count), when it was sent and arrived (NONE: lost). */
typedef struct
{
  guint64 index;
  guint64 local, remote;
  guint size;
} TestPacket;

/* An RTPTWCCPackets event as rtpsession pushes it (gst-plugins-good 1.22,
 * rtpstats.c rtp_twcc_stats_get_packets_structure): "packets", a
 * GValueArray of RTPTWCCPacket structures. */
static GstEvent *
twcc_event (const TestPacket * p, guint n)
{
  GstStructure *s = gst_structure_new_empty ("RTPTWCCPackets");
  GValue value = G_VALUE_INIT;
  GValueArray *array;
  guint i;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  array = g_value_array_new (0);
  for (i = 0; i < n; i++) {
    gboolean lost = p[i].remote == GST_CLOCK_TIME_NONE;
    GstStructure *ps = gst_structure_new ("RTPTWCCPacket",
        "seqnum", G_TYPE_UINT, (guint) (p[i].index & 0xffff),
        "local-ts", G_TYPE_UINT64, p[i].local,
        "remote-ts", G_TYPE_UINT64, p[i].remote,
        "payload-type", G_TYPE_UCHAR, (guchar) 96,
        "size", G_TYPE_UINT, p[i].size,
        "lost", G_TYPE_BOOLEAN, lost, NULL);
    GValue *v;

    g_value_array_append (array, NULL);
    v = g_value_array_get_nth (array, array->n_values - 1);
    g_value_init (v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (v, ps);
  }
  g_value_init (&value, g_value_array_get_type ());
  g_value_take_boxed (&value, array);
  G_GNUC_END_IGNORE_DEPRECATIONS;
  gst_structure_take_value (s, "packets", &value);
  return gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM, s);
}

/* As the controllers take them: the index unwrapped from the first
 * seqnum as the element does (65536 + the first). */
static void
to_feedback (const TestPacket * p, guint n, RtpBurstFeedbackPacket * out)
{
  guint i;

  for (i = 0; i < n; i++) {
    out[i].seq = 65536 + p[i].index;
    out[i].send_time = p[i].local;
    out[i].arrival = p[i].remote == GST_CLOCK_TIME_NONE ?
        RTP_BURST_TIME_NONE : p[i].remote;
    out[i].size = p[i].size;
  }
}

/* Report r: the packets of frame r, sent 1 ms apart from r x 40 ms; from
 * report @congested on their queueing delay grows (the path is
 * over-used); in every 7th report one packet is lost.  *@now: when the
 * sender gets it, 40 ms after the frame's first packet left. */
static void
make_report (guint r, guint congested, TestPacket * p, guint64 * now)
{
  guint j;

  for (j = 0; j < PKTS_PER_REPORT; j++) {
    guint64 delay = 20 * MS;

    if (r >= congested)
      delay += ((r - congested) * PKTS_PER_REPORT + j) * 2 * MS;
    p[j].index = FIRST_TWCC_SEQ + (guint64) r *PKTS_PER_REPORT + j;
    p[j].local = r * PERIOD + j * MS;
    p[j].remote = r % 7 == 3 && j == 5 ? GST_CLOCK_TIME_NONE :
        RECEIVER_ORIGIN + p[j].local + delay;
    p[j].size = PAYLOAD;
  }
  *now = r * PERIOD + PERIOD;
}

static void
on_notify (GObject * object, GParamSpec * pspec, guint * count)
{
  (*count)++;
}

/* The fixture, with the test clock as the system clock (the sender's
 * clock of the events' local-ts) and a bus. */
typedef struct
{
  Fixture f;
  GstBus *bus;
  guint notifies;
} CcFixture;

/* gst_harness_new_with_element ()'s own pads */
static GstStaticPadTemplate harness_src = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate harness_sink = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

/* The element reads the time of the feedback's clock, the system clock,
 * from its pacing thread (gst_system_clock_obtain ()): the harness's test
 * clock becomes the system clock before the element is added, which
 * starts that thread.  gst_system_clock_obtain () refs the clock after it
 * lets go of its lock, and a gst_system_clock_set_default () in between
 * frees it under the thread (valgrind caught it, and the test hung). */
static void
cc_init (CcFixture * c, const gchar * first_prop, ...)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  Fixture *f = &c->f;
  va_list args;

  /* set before the harness starts it: taken from READY to PAUSED */
  g_object_set (e, "slot-jitter", 0.0, NULL);
  if (first_prop) {
    va_start (args, first_prop);
    g_object_set_valist (G_OBJECT (e), first_prop, args);
    va_end (args);
  }
  c->notifies = 0;
  g_signal_connect (e, "notify::estimated-bitrate", G_CALLBACK (on_notify),
      &c->notifies);
  f->h = gst_harness_new_empty ();
  f->clock = gst_harness_get_testclock (f->h);
  gst_system_clock_set_default (GST_CLOCK (f->clock));
  gst_harness_add_element_full (f->h, e, &harness_src, "sink", &harness_sink,
      "src");
  gst_object_unref (e);
  f->seq_in = f->seq_out = 65530;
  gst_harness_set_src_caps_str (f->h, CAPS_25);
  c->bus = gst_bus_new ();
  gst_element_set_bus (f->h->element, c->bus);
}

static void
cc_clear (CcFixture * c)
{
  gst_element_set_bus (c->f.h->element, NULL);
  gst_object_unref (c->bus);
  fixture_clear (&c->f);
  gst_system_clock_set_default (NULL);
}

static guint64
estimate (CcFixture * c)
{
  guint64 v;

  g_object_get (c->f.h->element, "estimated-bitrate", &v, NULL);
  return v;
}

/* Pushes @ev upstream; checks that the element passed it on (behind the
 * upstream events the harness got before). */
static void
push_feedback (CcFixture * c, GstEvent * ev)
{
  GstEvent *out;
  gboolean passed = FALSE;

  fail_unless (gst_harness_push_upstream_event (c->f.h, ev));
  while (!passed && (out = gst_harness_try_pull_upstream_event (c->f.h))) {
    passed = GST_EVENT_TYPE (out) == GST_EVENT_CUSTOM_UPSTREAM;
    gst_event_unref (out);
  }
  fail_unless (passed);
}

/* The estimates of the element's bitrate messages, in order. */
static GArray *
take_bitrate_messages (CcFixture * c)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint64));
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (c->bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    guint64 v;

    if (gst_structure_has_name (s, "GstRtpBurstPaceBitrate")) {
      fail_unless (gst_structure_get_uint64 (s, "estimated-bitrate", &v));
      g_array_append_val (values, v);
    }
    gst_message_unref (msg);
  }
  return values;
}

static guint
count_warnings (CcFixture * c)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (c->bus, GST_MESSAGE_WARNING))) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

/* @first: the first report; @rtt: the round trip the element measures
 * from the reports so far. */
typedef guint64 (*FeedFunc) (gpointer unit, const RtpBurstFeedbackPacket * p,
    guint n, guint64 now, guint64 rtt, gboolean first);

static guint64
feed_gcc (gpointer unit, const RtpBurstFeedbackPacket * p, guint n,
    guint64 now, guint64 rtt, gboolean first)
{
  rtp_burst_gcc_on_feedback (unit, p, n, now, rtt);
  return rtp_burst_gcc_target (unit);
}

/* As the element feeds TFRC: its nofeedback timer first, from the second
 * report on (nothing is pushed here, so nothing is sent). */
static guint64
feed_tfrc (gpointer unit, const RtpBurstFeedbackPacket * p, guint n,
    guint64 now, guint64 rtt, gboolean first)
{
  if (!first)
    rtp_burst_tfrc_tick (unit, now);
  rtp_burst_tfrc_on_feedback (unit, p, n, now, rtt);
  return rtp_burst_tfrc_rate (unit);
}

/* @n_reports reports through the element and straight into @unit: after
 * each, the property equals the unit's rate and cc-rtt the round trip
 * measured from the reports; notify fires when the estimate changed, a
 * message when it moved by more than 5 % since the last one; the stats
 * count them and the cap in force is the estimate.  Returns the last
 * estimate; *@changes, *@decreases: how often it changed, fell. */
static guint64
run_reports (CcFixture * c, gpointer unit, FeedFunc feed, guint n_reports,
    guint congested, guint * changes, guint * decreases)
{
  GArray *expected = g_array_new (FALSE, FALSE, sizeof (guint64));
  GArray *posted;
  guint64 last = 0, last_posted = 0, lost = 0;
  guint r, i, notifies = 0;
  RtpBurstRtt rtt;

  rtp_burst_rtt_init (&rtt);
  *changes = *decreases = 0;
  for (r = 0; r < n_reports; r++) {
    TestPacket p[PKTS_PER_REPORT];
    RtpBurstFeedbackPacket fb[PKTS_PER_REPORT];
    guint64 now, want;

    make_report (r, congested, p, &now);
    for (i = 0; i < PKTS_PER_REPORT; i++)
      lost += p[i].remote == GST_CLOCK_TIME_NONE;
    to_feedback (p, PKTS_PER_REPORT, fb);
    want = feed (unit, fb, PKTS_PER_REPORT, now,
        rtp_burst_rtt_update (&rtt, fb, PKTS_PER_REPORT, now), r == 0);

    gst_test_clock_set_time (c->f.clock, now);
    push_feedback (c, twcc_event (p, PKTS_PER_REPORT));

    fail_unless_equals_uint64 (estimate (c), want);
    fail_unless_equals_uint64 (stat (&c->f, "cc-rtt"),
        rtp_burst_rtt_get (&rtt));
    /* before the congestion: each packet's report 40 - j ms after it
     * left, less the 9 - j ms it waited for packet 9 */
    if (r < congested)
      fail_unless_equals_uint64 (stat (&c->f, "cc-rtt"), 31 * MS);
    if (want != last) {
      notifies++;
      (*changes)++;
      if (want < last)
        (*decreases)++;
    }
    fail_unless_equals_int (c->notifies, notifies);
    if (last_posted == 0 || want > 1.05 * last_posted ||
        want < 0.95 * last_posted) {
      g_array_append_val (expected, want);
      last_posted = want;
    }
    last = want;
  }

  posted = take_bitrate_messages (c);
  fail_unless_equals_int (posted->len, expected->len);
  for (i = 0; i < posted->len; i++)
    fail_unless_equals_uint64 (g_array_index (posted, guint64, i),
        g_array_index (expected, guint64, i));
  /* not every change is posted */
  fail_unless (posted->len >= 2 && posted->len < *changes);
  g_array_unref (posted);
  g_array_unref (expected);

  fail_unless_equals_uint64 (stat (&c->f, "estimated-bitrate"), last);
  fail_unless_equals_uint64 (stat (&c->f, "max-rate"), last);
  fail_unless_equals_uint64 (stat (&c->f, "cc-feedback-reports"), n_reports);
  fail_unless_equals_uint64 (stat (&c->f, "cc-feedback-packets"),
      n_reports * PKTS_PER_REPORT);
  fail_unless (lost > 0);
  fail_unless_equals_uint64 (stat (&c->f, "cc-lost-packets"), lost);
  fail_unless_equals_uint64 (stat (&c->f, "cc-invalid-feedback"), 0);
  return last;
}

/* GCC: the estimate follows the unit fed the same packets, report by
 * report, across the 16-bit wrap of the seqnums; it grows while the path
 * is not congested and falls when the queueing delay grows. */
GST_START_TEST (test_gcc_follows_feedback)
{
  RtpBurstGccConfig config = { 2048000, 100000, 0 };
  RtpBurstGcc *gcc = rtp_burst_gcc_new (&config);
  CcFixture c;
  guint changes, decreases;

  cc_init (&c, "congestion-control", 1, NULL);
  fail_unless_equals_uint64 (estimate (&c), 0);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), 0);
  run_reports (&c, gcc, feed_gcc, 60, 40, &changes, &decreases);
  fail_unless (changes > 10);
  fail_unless (decreases > 0);
  rtp_burst_gcc_free (gcc);
  cc_clear (&c);
}

GST_END_TEST;

/* TFRC likewise: slow start, then the losses' rate. */
GST_START_TEST (test_tfrc_follows_feedback)
{
  RtpBurstTfrcConfig config = { 0, 100000, 0, 2048000 };
  RtpBurstTfrc *tfrc = rtp_burst_tfrc_new (&config);
  RtpBurstTfrcReport report;
  CcFixture c;
  guint changes, decreases;

  cc_init (&c, "congestion-control", 2, NULL);
  run_reports (&c, tfrc, feed_tfrc, 60, 1000, &changes, &decreases);
  rtp_burst_tfrc_report (tfrc, &report);
  /* it left slow start at the first loss */
  fail_unless (!report.slow_start);
  fail_unless (changes > 2);
  rtp_burst_tfrc_free (tfrc);
  cc_clear (&c);
}

GST_END_TEST;

/* Waits until the task waits for frame @i's slot (so that it is done with
 * the push before), checks the slot's time. */
static void
wait_for_slot (CcFixture * c, guint i)
{
  GstClockID id;

  gst_test_clock_wait_for_next_pending_id (c->f.clock, &id);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), i * PERIOD);
  gst_clock_id_unref (id);
}

/* One report of the packet of frame @i (sent at i x 40 ms, 10 ms on the
 * way), at @now, through the element and into @tfrc and @rtt as the
 * element feeds them (@first: the first report). */
static void
report_frame (CcFixture * c, RtpBurstTfrc * tfrc, RtpBurstRtt * rtt, guint i,
    guint64 now, gboolean first)
{
  RtpBurstFeedbackPacket fb;
  TestPacket p;

  p.index = FIRST_TWCC_SEQ + i;
  p.local = i * PERIOD;
  p.remote = RECEIVER_ORIGIN + p.local + 10 * MS;
  p.size = 1200;
  to_feedback (&p, 1, &fb);
  gst_test_clock_set_time (c->f.clock, now);
  push_feedback (c, twcc_event (&p, 1));
  feed_tfrc (tfrc, &fb, 1, now, rtp_burst_rtt_update (rtt, &fb, 1, now), first);
}

/* TFRC's nofeedback timer (RFC 5348 4.4) runs on the pushes: frames of one
 * packet of 1212 bytes at 25 fps from 0, reports of frames 0 and 1 at 30
 * and 70 ms (round trip 30 ms, reports 40 ms apart).  The first report
 * doubles the start (slow start): 4.096 Mbit/s; the second, one round
 * trip later, takes the rate the receiver got, 1200 bytes in 40 ms:
 * max (min (2X, 2 X_recv), W_init / R) = 4380 bytes / 30 ms = 1.168
 * Mbit/s.  The timer then expires max (4R, twice 40 ms) = 120 ms later,
 * at 190 ms: the push at 200 ms halves the estimate, and so every 120 ms
 * while no report comes (the pushes at 320, 440 ms), each new estimate
 * the cap in force, notified and posted.  The unit fed the same sends,
 * reports and ticks agrees at every push. */
GST_START_TEST (test_tfrc_nofeedback_timer)
{
  RtpBurstTfrcConfig config = { 0, 100000, 0, 2048000 };
  RtpBurstTfrc *tfrc = rtp_burst_tfrc_new (&config);
  RtpBurstTfrcReport report;
  RtpBurstRtt rtt;
  CcFixture c;
  GArray *posted;
  guint64 want = 1168000;
  guint i;

  cc_init (&c, "congestion-control", 2, NULL);
  rtp_burst_rtt_init (&rtt);

  /* frame 0 leaves at 0: sent, no timer before a report */
  push_frame (&c.f, 0, 1, 1200);
  wait_for_slot (&c, 0);
  fail_unless (gst_harness_crank_single_clock_wait (c.f.h));
  pull_packets (&c.f, 1);
  push_frame (&c.f, 1, 1, 1200);
  wait_for_slot (&c, 1);
  rtp_burst_tfrc_on_sent (tfrc, 1212, 0);
  fail_unless_equals_uint64 (estimate (&c), 0);

  report_frame (&c, tfrc, &rtt, 0, 30 * MS, TRUE);
  fail_unless_equals_uint64 (rtp_burst_tfrc_rate (tfrc), 4096000);
  fail_unless_equals_uint64 (estimate (&c), 4096000);
  fail_unless_equals_uint64 (stat (&c.f, "cc-rtt"), 30 * MS);

  for (i = 1; i <= 11; i++) {
    guint64 now = i * PERIOD;

    /* frame i leaves; the task has run the timer when it waits for the
     * next */
    fail_unless (gst_harness_crank_single_clock_wait (c.f.h));
    pull_packets (&c.f, 1);
    push_frame (&c.f, i + 1, 1, 1200);
    wait_for_slot (&c, i + 1);
    rtp_burst_tfrc_on_sent (tfrc, 1212, now);
    rtp_burst_tfrc_tick (tfrc, now);

    if (i == 1) {
      report_frame (&c, tfrc, &rtt, 1, 70 * MS, FALSE);
      rtp_burst_tfrc_report (tfrc, &report);
      fail_unless_equals_uint64 (report.rtt, 30 * MS);
      fail_unless_equals_uint64 (report.feedback_gap, 40 * MS);
      fail_unless_equals_uint64 (report.nofeedback_deadline, 190 * MS);
    }
    if (i == 5 || i == 8 || i == 11)
      want /= 2;
    fail_unless_equals_uint64 (rtp_burst_tfrc_rate (tfrc), want);
    fail_unless_equals_uint64 (estimate (&c), want);
    fail_unless_equals_uint64 (stat (&c.f, "max-rate"), want);
    fail_unless_equals_int (c.notifies, 2 + (i >= 5) + (i >= 8) + (i >= 11));
  }
  rtp_burst_tfrc_report (tfrc, &report);
  fail_unless_equals_uint64 (report.nofeedback_expiries, 3);
  /* at 146 kbit/s 2s/X, 131.5 ms, is longer than 4R */
  fail_unless_equals_uint64 (report.nofeedback_deadline,
      440 * MS + 2 * 1200 * 8 * GST_SECOND / 146000);

  posted = take_bitrate_messages (&c);
  fail_unless_equals_int (posted->len, 5);
  fail_unless_equals_uint64 (g_array_index (posted, guint64, 0), 4096000);
  for (i = 1; i < 5; i++)
    fail_unless_equals_uint64 (g_array_index (posted, guint64, i),
        1168000 >> (i - 1));
  g_array_unref (posted);
  fail_unless_equals_uint64 (stat (&c.f, "cc-feedback-reports"), 2);
  fail_unless_equals_int (count_warnings (&c), 0);
  rtp_burst_tfrc_free (tfrc);
  cc_clear (&c);
}

GST_END_TEST;

/* The round trip from reports the receiver held: frame r's 10 packets
 * leave 1 ms apart from r x 40 ms and take 20 ms each way, one lost in
 * every 7th frame; the receiver sends the reports of five frames together
 * (as 1.22's rtpsession does with its RTCP), when the last of them has
 * arrived, so they come at (5k + 4) x 40 + 49 ms.  cc-rtt is the path's
 * 40 ms from the first batch's last report on (before: the smallest so
 * far, 200, 160, 120, 80 ms), where the time since the newest packet
 * (TFRC's own sample without one) says 40 to 200 ms.  TFRC, out of slow
 * start after the first loss, takes it: its estimate is the unit's given
 * the same round trips, and well above the unit's left to its own. */
GST_START_TEST (test_tfrc_rtt_held_reports)
{
  RtpBurstTfrcConfig config = { 0, 100000, 0, 2048000 };
  RtpBurstTfrc *tfrc = rtp_burst_tfrc_new (&config);
  RtpBurstTfrc *own = rtp_burst_tfrc_new (&config);
  RtpBurstTfrcReport report;
  RtpBurstRtt rtt;
  CcFixture c;
  guint r;

  cc_init (&c, "congestion-control", 2, NULL);
  rtp_burst_rtt_init (&rtt);
  for (r = 0; r < 60; r++) {
    TestPacket p[PKTS_PER_REPORT];
    RtpBurstFeedbackPacket fb[PKTS_PER_REPORT];
    guint64 now = (r / 5 * 5 + 4) * PERIOD + 49 * MS, sample;
    guint j;

    for (j = 0; j < PKTS_PER_REPORT; j++) {
      p[j].index = FIRST_TWCC_SEQ + (guint64) r *PKTS_PER_REPORT + j;
      p[j].local = r * PERIOD + j * MS;
      p[j].remote = r % 7 == 3 && j == 5 ? GST_CLOCK_TIME_NONE :
          RECEIVER_ORIGIN + p[j].local + 20 * MS;
      p[j].size = PAYLOAD;
    }
    to_feedback (p, PKTS_PER_REPORT, fb);
    sample = rtp_burst_rtt_update (&rtt, fb, PKTS_PER_REPORT, now);
    fail_unless_equals_uint64 (sample, r < 4 ? (200 - 40 * r) * MS : 40 * MS);
    feed_tfrc (tfrc, fb, PKTS_PER_REPORT, now, sample, r == 0);
    feed_tfrc (own, fb, PKTS_PER_REPORT, now, RTP_BURST_TIME_NONE, r == 0);

    gst_test_clock_set_time (c.f.clock, now);
    push_feedback (&c, twcc_event (p, PKTS_PER_REPORT));
    fail_unless_equals_uint64 (stat (&c.f, "cc-rtt"), sample);
    fail_unless_equals_uint64 (estimate (&c), rtp_burst_tfrc_rate (tfrc));
  }
  rtp_burst_tfrc_report (tfrc, &report);
  fail_unless (!report.slow_start);
  fail_unless (estimate (&c) > 3 * rtp_burst_tfrc_rate (own) / 2,
      "%" G_GUINT64_FORMAT " bit/s with the measured round trip, %"
      G_GUINT64_FORMAT " without", estimate (&c), rtp_burst_tfrc_rate (own));
  rtp_burst_tfrc_free (own);
  rtp_burst_tfrc_free (tfrc);
  cc_clear (&c);
}

GST_END_TEST;

/* With none the feedback is passed on and ignored. */
GST_START_TEST (test_none_ignores_feedback)
{
  CcFixture c;
  GArray *posted;
  guint r;

  cc_init (&c, NULL);
  for (r = 0; r < 10; r++) {
    TestPacket p[PKTS_PER_REPORT];
    guint64 now;

    make_report (r, 1000, p, &now);
    gst_test_clock_set_time (c.f.clock, now);
    push_feedback (&c, twcc_event (p, PKTS_PER_REPORT));
  }
  fail_unless_equals_uint64 (estimate (&c), 0);
  fail_unless_equals_int (c.notifies, 0);
  posted = take_bitrate_messages (&c);
  fail_unless_equals_int (posted->len, 0);
  g_array_unref (posted);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), 0);
  fail_unless_equals_uint64 (stat (&c.f, "cc-feedback-reports"), 0);
  fail_unless_equals_uint64 (stat (&c.f, "cc-feedback-packets"), 0);
  cc_clear (&c);
}

GST_END_TEST;

/* A pinned estimate (min-bitrate = max-bitrate) caps the stream exactly as
 * max-rate does: the keyframe of 65 x 1212 B at 8.08 Mbit/s is spread over
 * 78 ms, 1.2 ms a packet.  Before the first report nothing is capped. */
static void
push_pinned_report (CcFixture * c)
{
  TestPacket p[PKTS_PER_REPORT];
  guint64 now;

  make_report (0, 1000, p, &now);
  push_feedback (c, twcc_event (p, PKTS_PER_REPORT));
}

GST_START_TEST (test_estimate_caps_rate)
{
  const guint64 rate = 8080000;
  CcFixture c;
  guint j;

  cc_init (&c, "congestion-control", 1, "min-bitrate", rate,
      "max-bitrate", rate, "start-bitrate", rate, NULL);
  push_pinned_report (&c);
  fail_unless_equals_uint64 (estimate (&c), rate);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), rate);

  push_frame (&c.f, 0, 65, 1200);
  for (j = 0; j < 65; j++)
    crank_slot (&c.f, j * 1200000, 1);
  fail_unless_equals_uint64 (stat (&c.f, "spread-frames"), 1);
  fail_unless_equals_uint64 (stat (&c.f, "compressed-frames"), 0);

  /* the cap in force is the lower of max-rate and the estimate */
  g_object_set (c.f.h->element, "max-rate", G_GUINT64_CONSTANT (5000000), NULL);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), 5000000);
  g_object_set (c.f.h->element, "max-rate", 2 * rate, NULL);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), rate);
  cc_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_no_cap_before_feedback)
{
  const guint64 rate = 8080000;
  CcFixture c;
  guint n;

  cc_init (&c, "congestion-control", 1, "min-bitrate", rate,
      "max-bitrate", rate, "start-bitrate", rate, NULL);
  push_frame (&c.f, 0, 65, 1200);
  /* within duty x 40 ms, as without congestion control */
  for (n = 0; n < 65; n++) {
    GstClockID id;

    gst_test_clock_wait_for_next_pending_id (c.f.clock, &id);
    fail_unless (gst_clock_id_get_time (id) < 36 * MS);
    gst_clock_id_unref (id);
    fail_unless (gst_harness_crank_single_clock_wait (c.f.h));
    pull_packets (&c.f, 1);
  }
  fail_unless_equals_uint64 (stat (&c.f, "spread-frames"), 0);
  fail_unless_equals_uint64 (stat (&c.f, "max-rate"), 0);
  fail_unless_equals_uint64 (estimate (&c), 0);
  cc_clear (&c);
}

GST_END_TEST;

/* Events that are not as rtpsession makes them are counted and ignored. */
GST_START_TEST (test_malformed_feedback)
{
  CcFixture c;
  TestPacket p[PKTS_PER_REPORT];
  GstStructure *s;
  GValue list = G_VALUE_INIT;
  GstEvent *ev;
  guint64 now;
  guint n = 0;

  cc_init (&c, "congestion-control", 1, NULL);
  make_report (0, 1000, p, &now);

  /* no packets */
  push_feedback (&c, gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM,
          gst_structure_new_empty ("RTPTWCCPackets")));
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  /* packets of the wrong type */
  push_feedback (&c, gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM,
          gst_structure_new ("RTPTWCCPackets", "packets", G_TYPE_STRING,
              "none", NULL)));
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  /* an empty list */
  push_feedback (&c, twcc_event (p, 0));
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  /* a list of something else than structures */
  s = gst_structure_new_empty ("RTPTWCCPackets");
  g_value_init (&list, GST_TYPE_LIST);
  {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_UINT);
    g_value_set_uint (&v, 1);
    gst_value_list_append_and_take_value (&list, &v);
  }
  gst_structure_take_value (s, "packets", &list);
  push_feedback (&c, gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM, s));
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  /* a packet without lost, one with a seqnum of another type */
  ev = twcc_event (p, PKTS_PER_REPORT);
  s = gst_event_writable_structure (ev);
  {
    const GValue *packets = gst_structure_get_value (s, "packets");
    GstStructure *ps;

    G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
    ps = (GstStructure *) gst_value_get_structure (g_value_array_get_nth
        (g_value_get_boxed (packets), 3));
    G_GNUC_END_IGNORE_DEPRECATIONS;
    gst_structure_remove_field (ps, "lost");
  }
  push_feedback (&c, ev);
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  ev = twcc_event (p, PKTS_PER_REPORT);
  s = gst_event_writable_structure (ev);
  {
    const GValue *packets = gst_structure_get_value (s, "packets");
    GstStructure *ps;

    G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
    ps = (GstStructure *) gst_value_get_structure (g_value_array_get_nth
        (g_value_get_boxed (packets), 0));
    G_GNUC_END_IGNORE_DEPRECATIONS;
    gst_structure_set (ps, "seqnum", G_TYPE_INT, 7, NULL);
  }
  push_feedback (&c, ev);
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), ++n);
  /* another custom upstream event is not feedback */
  push_feedback (&c, gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM,
          gst_structure_new_empty ("GstForceKeyUnit")));
  fail_unless_equals_uint64 (stat (&c.f, "cc-invalid-feedback"), n);

  fail_unless_equals_uint64 (estimate (&c), 0);
  fail_unless_equals_uint64 (stat (&c.f, "cc-feedback-reports"), 0);
  fail_unless_equals_int (c.notifies, 0);

  /* then a good one is taken */
  gst_test_clock_set_time (c.f.clock, now);
  push_feedback (&c, twcc_event (p, PKTS_PER_REPORT));
  fail_unless_equals_uint64 (stat (&c.f, "cc-feedback-reports"), 1);
  fail_unless (estimate (&c) > 0);
  fail_unless_equals_int (c.notifies, 1);
  cc_clear (&c);
}

GST_END_TEST;

/* Frames of one packet at 25 fps from 0; frame i's push returns at
 * i x 40 ms.  Before frame i's slot is released, the task has finished
 * with frame i - 1: the warnings are counted then.  Returns how many came
 * in all; @warn_at: the first frame after which one is expected (none:
 * G_MAXUINT). */
static guint
run_frames (CcFixture * c, guint n, guint warn_at)
{
  guint i, warnings = 0;

  for (i = 0; i < n; i++) {
    GstClockID id;

    push_frame (&c->f, i, 1, 100);
    gst_test_clock_wait_for_next_pending_id (c->f.clock, &id);
    fail_unless_equals_uint64 (gst_clock_id_get_time (id), i * PERIOD);
    gst_clock_id_unref (id);
    warnings += count_warnings (c);
    fail_unless_equals_int (warnings, i > warn_at ? 1 : 0);
    fail_unless (gst_harness_crank_single_clock_wait (c->f.h));
    pull_packets (&c->f, 1);
  }
  return warnings;
}

/* Without feedback the element warns once, 5 s of pushes after the first
 * (frame 125), and paces on. */
GST_START_TEST (test_no_feedback_warning)
{
  CcFixture c;

  cc_init (&c, "congestion-control", 1, NULL);
  fail_unless_equals_int (run_frames (&c, 140, 125), 1);
  cc_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_no_warning_with_feedback)
{
  CcFixture c;

  cc_init (&c, "congestion-control", 2, NULL);
  /* even an unreadable report says the receiver sends feedback */
  push_feedback (&c, gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM,
          gst_structure_new_empty ("RTPTWCCPackets")));
  fail_unless_equals_int (run_frames (&c, 140, G_MAXUINT), 0);
  cc_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_no_warning_without_cc)
{
  CcFixture c;

  cc_init (&c, NULL);
  fail_unless_equals_int (run_frames (&c, 140, G_MAXUINT), 0);
  cc_clear (&c);
}

GST_END_TEST;

/* gcc's fast start: it begins with the first feedback report (the first
 * frames leave as the pipeline starts); the frame after the next one
 * leaves at 3 x start-bitrate, the one after it at 6 x (their slots closer
 * than duty x the period), the next as usual; the feedback on each probe
 * raises the estimate to what the path carried it at.  10 packets of 1212
 * bytes: at 3 Mbit/s 32.32 ms, slots 3.232 ms apart; at 6 Mbit/s 1.616 ms.
 * The first arrives 4.8 ms apart: 10,800 bytes less one (the reports'
 * sizes are payload) over 43.2 ms = 2 Mbit/s, below 0.9 x the 2.97 it was
 * sent at: 0.95 x 2 Mbit/s; the second as sent: 86,400 bit / 14.544 ms =
 * 5,940,594 bit/s. */
GST_START_TEST (test_gcc_fast_start)
{
  CcFixture c;
  TestPacket p[10];
  guint j;

  cc_init (&c, "congestion-control", 1, "start-bitrate",
      G_GUINT64_CONSTANT (1000000), NULL);
  push_frame (&c.f, 0, 10, 1200);
  crank_frame (&c.f, 0, 3600000, 10, 1);
  /* no probe before the first report */
  push_frame (&c.f, 1, 10, 1200);
  crank_frame (&c.f, PERIOD, 3600000, 10, 1);
  for (j = 0; j < 10; j++) {
    p[j].index = FIRST_TWCC_SEQ + j;
    p[j].local = j * 3600000;
    p[j].remote = RECEIVER_ORIGIN + 20 * MS + p[j].local;
    p[j].size = PAYLOAD;
  }
  push_feedback (&c, twcc_event (p, 10));
  fail_unless_equals_uint64 (stat (&c.f, "cc-probe-bitrate"), 0);
  /* the estimate (1 Mbit/s) is the cap now: a frame of 3 packets, 29 ms
   * of it, 12 ms apart; the probe is for the frame after it */
  push_frame (&c.f, 2, 3, 1200);
  crank_frame (&c.f, 2 * PERIOD, 12000000, 3, 1);
  push_frame (&c.f, 3, 10, 1200);
  crank_frame (&c.f, 3 * PERIOD, 3232000, 10, 1);
  push_frame (&c.f, 4, 10, 1200);
  crank_frame (&c.f, 4 * PERIOD, 1616000, 10, 1);
  /* the task records a probe frame's pushes after the last one returned:
   * once it waits for the next frame's slot, it is done with this one */
  push_frame (&c.f, 5, 1, 1200);
  gst_test_clock_wait_for_next_pending_id (c.f.clock, NULL);
  fail_unless_equals_uint64 (stat (&c.f, "cc-probe-bitrate"), 0);

  for (j = 0; j < 10; j++) {
    p[j].index = FIRST_TWCC_SEQ + 23 + j;
    p[j].local = 3 * PERIOD + j * 3232000;
    p[j].remote = RECEIVER_ORIGIN + 20 * MS + 3 * PERIOD + j * 4800000;
    p[j].size = PAYLOAD;
  }
  gst_test_clock_set_time (c.f.clock, 5 * PERIOD);
  push_feedback (&c, twcc_event (p, 10));
  fail_unless_equals_uint64 (stat (&c.f, "cc-probe-bitrate"), 1900000);
  fail_unless_equals_uint64 (estimate (&c), 1900000);

  for (j = 0; j < 10; j++) {
    p[j].index = FIRST_TWCC_SEQ + 33 + j;
    p[j].local = 4 * PERIOD + j * 1616000;
    p[j].remote = RECEIVER_ORIGIN + 20 * MS + p[j].local;
    p[j].size = PAYLOAD;
  }
  gst_test_clock_set_time (c.f.clock, 5 * PERIOD + 10 * MS);
  push_feedback (&c, twcc_event (p, 10));
  fail_unless_equals_uint64 (stat (&c.f, "cc-probe-bitrate"), 5940594);
  fail_unless_equals_uint64 (estimate (&c), 5940594);
  cc_clear (&c);
}

GST_END_TEST;

/* With tfrc, or a max-bitrate at the start rate, no frame probes. */
GST_START_TEST (test_no_probe)
{
  CcFixture c;

  cc_init (&c, "congestion-control", 2, NULL);
  push_frame (&c.f, 0, 10, 1200);
  crank_frame (&c.f, 0, 3600000, 10, 1);
  push_frame (&c.f, 1, 10, 1200);
  crank_frame (&c.f, PERIOD, 3600000, 10, 1);
  cc_clear (&c);

  cc_init (&c, "congestion-control", 1, "start-bitrate",
      G_GUINT64_CONSTANT (1000000), "max-bitrate",
      G_GUINT64_CONSTANT (1000000), NULL);
  push_frame (&c.f, 0, 10, 1200);
  crank_frame (&c.f, 0, 3600000, 10, 1);
  push_frame (&c.f, 1, 10, 1200);
  crank_frame (&c.f, PERIOD, 3600000, 10, 1);
  cc_clear (&c);
}

GST_END_TEST;

static Suite *
rtpburstpace_cc_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-cc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gcc_follows_feedback);
  tcase_add_test (tc, test_tfrc_follows_feedback);
  tcase_add_test (tc, test_tfrc_nofeedback_timer);
  tcase_add_test (tc, test_tfrc_rtt_held_reports);
  tcase_add_test (tc, test_none_ignores_feedback);
  tcase_add_test (tc, test_estimate_caps_rate);
  tcase_add_test (tc, test_no_cap_before_feedback);
  tcase_add_test (tc, test_malformed_feedback);
  tcase_add_test (tc, test_no_feedback_warning);
  tcase_add_test (tc, test_no_warning_with_feedback);
  tcase_add_test (tc, test_no_warning_without_cc);
  tcase_add_test (tc, test_gcc_fast_start);
  tcase_add_test (tc, test_no_probe);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_cc);
