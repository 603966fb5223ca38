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

/* release-ahead (gst/rtpburstahead.h): slots handed over before their
 * time, each packet with its slot's DTS, and the task's clock wake-ups
 * (stats: wakeups).  GstHarness and GstTestClock, exact times in ns. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>
#include <gst/rtp/gstrtpbuffer.h>

#include "rtpburstpace-fixture.h"

#define US (G_GUINT64_CONSTANT (1000))
/* 10 packets of 1000 bytes in 0.9 x 40 ms: a slot every 3.6 ms */
#define N 10
#define DT (3600 * US)

/* 1012-byte packets (1000 of payload) take 5 ms each at this rate. */
#define PACKET_BYTES 1012
#define SLOW_RATE (G_GUINT64_CONSTANT (8) * PACKET_BYTES * 200)

static void
ahead_init (Fixture * f, guint64 horizon)
{
  fixture_init (f, CAPS_25, "release-ahead", horizon, NULL);
  /* the test reads the DTS the element wrote */
  test_announce_handover (f->h->sinkpad);
}

/* Pulls @n packets, in order, slot j (from @first) with DTS t0 + j dt. */
static void
pull_slots (Fixture * f, guint first, guint n, GstClockTime t0,
    GstClockTime dt)
{
  guint j;

  for (j = first; j < first + n; j++) {
    GstBuffer *buf = gst_harness_pull (f->h);
    GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

    fail_unless (buf != NULL);
    TEST_TSAN_ACQUIRE (buf);
    fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
    fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), f->seq_out);
    gst_rtp_buffer_unmap (&rtp);
    f->seq_out++;
    fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), t0 + j * dt);
    gst_buffer_unref (buf);
  }
}

/* Waits for the task's clock wait, checks that nothing left before it and
 * that it is for @expected, and releases it. */
static void
crank_wait (Fixture * f, GstClockTime expected)
{
  GstClockID id;

  gst_test_clock_wait_for_next_pending_id (f->clock, &id);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f->h), 0);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), expected);
  gst_clock_id_unref (id);
  fail_unless (gst_harness_crank_single_clock_wait (f->h));
}

/* A horizon of one frame period: a frame queued ahead of its time is
 * handed over whole when its first slot is due, one clock wake-up, every
 * packet with its own slot's DTS; frame 0, due now, goes without a wait. */
GST_START_TEST (test_frame_at_once)
{
  Fixture f;
  guint k;

  ahead_init (&f, PERIOD);
  push_frame (&f, 0, N, 1000);
  pull_slots (&f, 0, N, 0, DT);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 0);
  for (k = 1; k < 4; k++)
    push_frame (&f, k, N, 1000);
  for (k = 1; k < 4; k++) {
    crank_wait (&f, k * PERIOD);
    pull_slots (&f, 0, N, k * PERIOD, DT);
  }
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 3);
  fail_unless_equals_uint64 (stat (&f, "packets"), 4 * N);
  fail_unless_equals_uint64 (stat (&f, "slots"), 4 * N);
  fail_unless_equals_uint64 (stat (&f, "slot-duration"), DT);
  fail_unless_equals_uint64 (stat (&f, "late-slots"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* The same frames without it: a clock wake-up per slot. */
GST_START_TEST (test_wakeup_per_slot)
{
  Fixture f;
  guint k;

  ahead_init (&f, 0);
  for (k = 0; k < 4; k++)
    push_frame (&f, k, N, 1000);
  for (k = 0; k < 4; k++)
    crank_frame (&f, k * PERIOD, DT, N, 1);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 4 * N);
  fixture_clear (&f);
}

GST_END_TEST;

/* A horizon shorter than the frame: chunks of 10 ms of slots, each chunk's
 * first slot at its time. */
GST_START_TEST (test_chunks)
{
  Fixture f;

  ahead_init (&f, 10 * MS);
  push_frame (&f, 0, N, 1000);
  /* 0, 3.6 and 7.2 ms are within 10 ms of 0 */
  pull_slots (&f, 0, 3, 0, DT);
  crank_wait (&f, 3 * DT);
  pull_slots (&f, 3, 3, 0, DT);
  crank_wait (&f, 6 * DT);
  pull_slots (&f, 6, 3, 0, DT);
  crank_wait (&f, 9 * DT);
  pull_slots (&f, 9, 1, 0, DT);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 3);
  fixture_clear (&f);
}

GST_END_TEST;

/* A horizon of two periods: frames 0 and 1 go at once; frame 2's first
 * slot (80 ms) is waited for until 80 ms - (80 - 40) ms, and the whole
 * frame goes then, 40 to 72.4 ms ahead of its slots. */
GST_START_TEST (test_wake_one_period_ahead)
{
  Fixture f;

  ahead_init (&f, 2 * PERIOD);
  push_frame (&f, 0, N, 1000);
  push_frame (&f, 1, N, 1000);
  push_frame (&f, 2, N, 1000);
  pull_slots (&f, 0, N, 0, DT);
  pull_slots (&f, 0, N, PERIOD, DT);
  crank_wait (&f, PERIOD);
  pull_slots (&f, 0, N, 2 * PERIOD, DT);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

/* A flush while the task waits between two chunks: the chunk handed over
 * stays sent, the rest of the frame is flushed, nothing is left of it; the
 * next frame is handed over from its own first slot. */
GST_START_TEST (test_flush_mid_frame)
{
  Fixture f;

  ahead_init (&f, 10 * MS);
  push_frame (&f, 0, N, 1000);
  pull_slots (&f, 0, 3, 0, DT);
  gst_test_clock_wait_for_next_pending_id (f.clock, NULL);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), N - 3);
  fail_unless_equals_uint64 (stat (&f, "packets"), 3);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);
  /* the wait was cut short: not a wake-up */
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 0);

  push_segment (&f);
  gst_test_clock_set_time (f.clock, 2 * PERIOD);
  f.seq_out = f.seq_in;
  push_frame (&f, 2, N, 1000);
  pull_slots (&f, 0, 3, 2 * PERIOD, DT);
  crank_wait (&f, 2 * PERIOD + 3 * DT);
  pull_slots (&f, 3, 3, 2 * PERIOD, DT);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f.h), 0);
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), N - 3);
  fixture_clear (&f);
}

GST_END_TEST;

/* A retransmission (another payload type) that comes while the task waits
 * between two chunks keeps its own turn: half way between the last media
 * slot handed over (7.2 ms) and the next (10.8 ms), with that DTS; the
 * task, awake then, hands over the slots within 10 ms of it. */
GST_START_TEST (test_repair_between_chunks)
{
  Fixture f;
  GstBuffer *buf;
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  ahead_init (&f, 10 * MS);
  push_frame (&f, 0, N, 1000);
  pull_slots (&f, 0, 3, 0, DT);
  gst_test_clock_wait_for_next_pending_id (f.clock, NULL);
  gst_test_clock_set_time (f.clock, 1 * MS);
  buf = test_rtp_packet (5000, 1000, FALSE, 1000, 0);
  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp));
  gst_rtp_buffer_set_payload_type (&rtp, 97);
  gst_rtp_buffer_unmap (&rtp);
  fail_unless_equals_int (gst_harness_push (f.h, buf), GST_FLOW_OK);

  crank_wait (&f, 3 * DT - DT / 2);
  buf = gst_harness_pull (f.h);
  TEST_TSAN_ACQUIRE (buf);
  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  fail_unless_equals_int (gst_rtp_buffer_get_payload_type (&rtp), 97);
  gst_rtp_buffer_unmap (&rtp);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), 3 * DT - DT / 2);
  gst_buffer_unref (buf);

  pull_slots (&f, 3, 3, 0, DT);
  crank_wait (&f, 6 * DT);
  pull_slots (&f, 6, 3, 0, DT);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 1);
  /* the wait the repair packet cut short is not counted */
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 2);
  fixture_clear (&f);
}

GST_END_TEST;

/* EOS behind a frame handed over ahead follows its last packet at once:
 * the packets are downstream, with their times. */
GST_START_TEST (test_eos_after_frame)
{
  Fixture f;
  GstEvent *ev;
  gboolean eos = FALSE;

  ahead_init (&f, 2 * PERIOD);
  push_frame (&f, 1, N, 1000);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  pull_slots (&f, 0, N, PERIOD, DT);
  while (!eos && (ev = gst_harness_pull_event (f.h))) {
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (eos);
  /* no clock wait: the clock never moved */
  fail_unless_equals_uint64 (gst_clock_get_time (GST_CLOCK (f.clock)), 0);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 0);
  fail_unless_equals_uint64 (stat (&f, "frames"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

/* The latency the element answers is the same with it. */
GST_START_TEST (test_latency_unchanged)
{
  guint64 horizons[] = { 0, 2 * PERIOD };
  GstClockTime min[2], max[2];
  gboolean live;
  guint i;

  for (i = 0; i < 2; i++) {
    Fixture f;
    GstQuery *q = gst_query_new_latency ();

    ahead_init (&f, horizons[i]);
    push_frame (&f, 0, N, 1000);
    if (horizons[i] == 0)
      crank_frame (&f, 0, DT, N, 1);
    else
      pull_slots (&f, 0, N, 0, DT);
    fail_unless (gst_pad_peer_query (f.h->sinkpad, q));
    gst_query_parse_latency (q, &live, &min[i], &max[i]);
    gst_query_unref (q);
    fixture_clear (&f);
  }
  fail_unless_equals_uint64 (min[1], min[0]);
  fail_unless_equals_uint64 (max[1], max[0]);
}

GST_END_TEST;

/* @f around an element with the properties given set in NULL (the group
 * is taken from READY to PAUSED), on @clock or the harness's own. */
static void
fixture_init_props (Fixture * f, GstTestClock * clock, guint16 seq,
    const gchar * first_prop, ...)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  va_list args;

  g_object_set (e, "slot-jitter", 0.0, NULL);
  va_start (args, first_prop);
  g_object_set_valist (G_OBJECT (e), first_prop, args);
  va_end (args);
  f->h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  if (clock) {
    gst_element_set_clock (f->h->element, GST_CLOCK (clock));
    f->clock = gst_object_ref (clock);
  } else {
    f->clock = gst_harness_get_testclock (f->h);
  }
  f->seq_in = f->seq_out = seq;
  test_announce_handover (f->h->sinkpad);
  gst_harness_set_src_caps_str (f->h, CAPS_25);
}

/* A bus on @f's element; the warnings it got, joined. */
static GstBus *
watch_bus (Fixture * f)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (f->h->element, bus);
  return bus;
}

static gchar *
take_warnings (GstBus * bus)
{
  GString *all = g_string_new (NULL);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;

    gst_message_parse_warning (msg, &err, NULL);
    g_string_append_printf (all, "%s\n", err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  return g_string_free (all, FALSE);
}

/* On a group's rate it is not applied, with one warning: the slots wait
 * for their times and for the link as without it (rtpburstpace-group.c,
 * test_group_max_rate_spaces_pushes), each with the DTS it left at. */
GST_START_TEST (test_group_rate_refused)
{
  Fixture f;
  GstBus *bus;
  gchar *warnings;
  guint j;

  fixture_init_props (&f, NULL, 0, "group", "ahead-rate", "group-max-rate",
      SLOW_RATE, "release-ahead", PERIOD, NULL);
  bus = watch_bus (&f);
  push_frame (&f, 0, N, 1000);
  crank_wait (&f, 0);
  pull_slots (&f, 0, 1, 0, 0);
  for (j = 1; j < 4; j++) {
    crank_wait (&f, j * DT);
    crank_wait (&f, j * 5 * MS);
    pull_slots (&f, j, 1, 0, 5 * MS);
  }
  fail_unless_equals_uint64 (stat (&f, "group-rate-waits"), 3);
  warnings = take_warnings (bus);
  fail_unless (strstr (warnings, "release-ahead is not applied while the "
          "group has a rate") != NULL, "%s", warnings);
  /* once */
  fail_unless (strstr (strstr (warnings, "release-ahead") + 1,
          "release-ahead") == NULL, "%s", warnings);
  g_free (warnings);
  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

/* Two members of a group without a rate: each frame goes at once, the
 * second member's slots half a slot after the first's, as placed. */
GST_START_TEST (test_group_members)
{
  Fixture f[2];
  guint k;

  for (k = 0; k < 2; k++)
    fixture_init_props (&f[k], k ? f[0].clock : NULL, 100 * k, "group",
        "ahead-members", "release-ahead", PERIOD, NULL);
  push_frame (&f[0], 0, N, 1000);
  pull_slots (&f[0], 0, N, 0, DT);
  push_frame (&f[1], 0, N, 1000);
  pull_slots (&f[1], 0, N, DT / 2, DT);
  fail_unless_equals_uint64 (stat (&f[1], "group-phase"), DT / 2);
  fail_unless_equals_uint64 (stat (&f[1], "group-frames"), 1);
  for (k = 0; k < 2; k++)
    fail_unless_equals_uint64 (stat (&f[k], "wakeups"), 0);
  fixture_clear (&f[1]);
  fixture_clear (&f[0]);
}

GST_END_TEST;

/* With congestion control it is not applied, with one warning. */
GST_START_TEST (test_cc_refused)
{
  Fixture f;
  GstBus *bus;
  gchar *warnings;

  fixture_init_props (&f, NULL, 0, "congestion-control", 1,
      "release-ahead", PERIOD, NULL);
  bus = watch_bus (&f);
  push_frame (&f, 0, 4, 1000);
  crank_wait (&f, 0);
  pull_slots (&f, 0, 1, 0, 9 * MS);
  crank_wait (&f, 9 * MS);
  pull_slots (&f, 1, 1, 0, 9 * MS);
  warnings = take_warnings (bus);
  fail_unless (strstr (warnings, "release-ahead is not applied with "
          "congestion control") != NULL, "%s", warnings);
  g_free (warnings);
  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

/* Set while PLAYING, it applies from the next slot. */
GST_START_TEST (test_set_while_playing)
{
  Fixture f;

  ahead_init (&f, 0);
  push_frame (&f, 0, N, 1000);
  crank_wait (&f, 0);
  pull_slots (&f, 0, 1, 0, DT);
  crank_wait (&f, DT);
  pull_slots (&f, 1, 1, 0, DT);
  g_object_set (f.h->element, "release-ahead", PERIOD, NULL);
  /* the task waits for slot 2 already; then the rest goes at once */
  crank_wait (&f, 2 * DT);
  pull_slots (&f, 2, N - 2, 0, DT);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 3);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
rtpburstpace_ahead_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-ahead");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frame_at_once);
  tcase_add_test (tc, test_wakeup_per_slot);
  tcase_add_test (tc, test_chunks);
  tcase_add_test (tc, test_wake_one_period_ahead);
  tcase_add_test (tc, test_flush_mid_frame);
  tcase_add_test (tc, test_repair_between_chunks);
  tcase_add_test (tc, test_eos_after_frame);
  tcase_add_test (tc, test_latency_unchanged);
  tcase_add_test (tc, test_group_rate_refused);
  tcase_add_test (tc, test_group_members);
  tcase_add_test (tc, test_cc_refused);
  tcase_add_test (tc, test_set_while_playing);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_ahead);
