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


/* Deterministic tests of the rtpburstpace element with GstHarness and
 * GstTestClock: every expected slot time is exact, in ns. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define _GNU_SOURCE             /* setresuid (), setresgid () */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>
#include <gst/rtp/gstrtpbuffer.h>
#include <gst/video/video.h>

#include "rtpburstpace-fixture.h"
#ifdef __linux__
#include <pthread.h>
#include <grp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

GST_START_TEST (test_cbr_slots)
{
  Fixture f;

  /* 30 x 1000 B at 25 fps, b = 1, duty 0.9: Δt = 36 ms / 30 = 1.2 ms */
  fixture_init (&f, CAPS_25, "burst-size", 1, "duty", 0.9, NULL);
  push_frame (&f, 0, 30, 1000);
  crank_frame (&f, 0, 1200000, 30, 1);
  push_frame (&f, 1, 30, 1000);
  crank_frame (&f, PERIOD, 1200000, 30, 1);
  push_frame (&f, 2, 30, 1000);
  crank_frame (&f, 2 * PERIOD, 1200000, 30, 1);

  fail_unless_equals_uint64 (stat (&f, "frames"), 3);
  fail_unless_equals_uint64 (stat (&f, "packets"), 90);
  fail_unless_equals_uint64 (stat (&f, "slots"), 90);
  fail_unless_equals_uint64 (stat (&f, "slot-duration"), 1200000);
  fail_unless_equals_uint64 (stat (&f, "frame-period"), PERIOD);
  fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 0);
  fail_unless_equals_uint64 (stat (&f, "unpaced-frames"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_vbr_slots)
{
  Fixture f;

  /* Δt follows each frame's size */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1200);
  crank_frame (&f, 0, 3600000, 10, 1);
  push_frame (&f, 1, 25, 1200);
  crank_frame (&f, PERIOD, 1440000, 25, 1);
  push_frame (&f, 2, 1, 1200);
  crank_frame (&f, 2 * PERIOD, 0, 1, 1);
  /* an I-frame of 72 packets: 0.5 ms */
  push_frame (&f, 3, 72, 1200);
  crank_frame (&f, 3 * PERIOD, 500000, 72, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_small_packets_never_exceed_b)
{
  Fixture f;

  /* p = 1200 seen first; then a frame of 20 small packets:
   * ceil (f / (p b)) = 1 slot, but ceil (n / b) = 20 wins */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 1, 1200);
  crank_frame (&f, 0, 0, 1, 1);
  push_frame (&f, 1, 20, 100);
  crank_frame (&f, PERIOD, 1800000, 20, 1);
  fail_unless_equals_uint64 (stat (&f, "payload-size"), 1200);
  fixture_clear (&f);
}

GST_END_TEST;

static const guint burst_sizes[] = { 1, 2, 7 };

GST_START_TEST (test_burst_size)
{
  guint b = burst_sizes[__i__];
  guint k = (30 + b - 1) / b;
  Fixture f;

  /* b = 7: slots of 7 7 7 7 2 packets, Δt = 36 ms / 5 */
  fixture_init (&f, CAPS_25, "burst-size", b, NULL);
  push_frame (&f, 0, 30, 1000);
  crank_frame (&f, 0, 36 * MS / k, 30, b);
  fail_unless_equals_uint64 (stat (&f, "slots"), k);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_duty)
{
  Fixture f;
  guint j;

  /* duty 1: 40 ms / 30, offsets floor (40 ms j / 30) */
  fixture_init (&f, CAPS_25, "duty", 1.0, NULL);
  push_frame (&f, 0, 30, 1000);
  for (j = 0; j < 30; j++)
    crank_slot (&f, PERIOD * j / 30, 1);
  fixture_clear (&f);

  fixture_init (&f, CAPS_25, "duty", 0.5, NULL);
  push_frame (&f, 0, 30, 1000);
  for (j = 0; j < 30; j++)
    crank_slot (&f, 20 * MS * j / 30, 1);
  fixture_clear (&f);

  /* duty 0: the whole frame in one slot at its sync time, a burst */
  fixture_init (&f, CAPS_25, "duty", 0.0, NULL);
  push_frame (&f, 0, 30, 1000);
  crank_slot (&f, 0, 30);
  push_frame (&f, 1, 30, 1000);
  crank_slot (&f, PERIOD, 30);
  fail_unless_equals_uint64 (stat (&f, "slots"), 2);
  fixture_clear (&f);
}

GST_END_TEST;

static void
collect_slot_times (guint seed, GstClockTime * times, guint n)
{
  Fixture f;
  GstClockID id;
  guint j;

  fixture_init (&f, CAPS_25, "slot-jitter", 0.01, "seed", seed, NULL);
  push_frame (&f, 0, n, 1000);
  for (j = 0; j < n; j++) {
    gst_test_clock_wait_for_next_pending_id (f.clock, &id);
    times[j] = gst_clock_id_get_time (id);
    gst_clock_id_unref (id);
    fail_unless (gst_harness_crank_single_clock_wait (f.h));
    pull_packets (&f, 1);
  }
  fixture_clear (&f);
}

GST_START_TEST (test_randomization)
{
  GstClockTime a[30], b[30], c[30];
  gdouble dt = 36.0 * MS / 30;
  gboolean differs = FALSE;
  guint j;

  collect_slot_times (1234, a, 30);
  collect_slot_times (1234, b, 30);
  collect_slot_times (4321, c, 30);
  fail_unless_equals_uint64 (a[0], 0);
  for (j = 1; j < 30; j++) {
    gdouble d = (gdouble) (a[j] - a[j - 1]);

    fail_unless (d >= dt * 0.99 - 1 && d <= dt * 1.01 + 1,
        "slot %u lasts %.0f ns, nominal %.0f", j - 1, d, dt);
    fail_unless_equals_uint64 (a[j], b[j]);
    differs |= a[j] != c[j];
  }
  fail_unless (differs, "different seeds gave the same slots");
  fail_unless (a[29] < PERIOD);
}

GST_END_TEST;

GST_START_TEST (test_period_from_property)
{
  Fixture f;

  /* the property wins over a-framerate */
  fixture_init (&f, CAPS_25, "frame-period", 20 * MS, NULL);
  push_frame_full (&f, 1000, 0, 10, 1000, TRUE);
  crank_frame (&f, 0, 1800000, 10, 1);
  check_period_source (&f, "property");
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_period_from_framerate_fraction)
{
  Fixture f;

  fixture_init (&f, CAPS_BASE ", a-framerate=(string)30000/1001", NULL);
  push_frame_full (&f, 1000, 0, 10, 1000, TRUE);
  /* ΔT 33366667 ns, span 30030000 ns, 10 slots */
  crank_frame (&f, 0, 3003000, 10, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_period_from_rtptime)
{
  Fixture f;

  /* no a-framerate: ΔT comes from the RTP timestamps once two frames are
   * complete; until then frames leave unpaced, as they come */
  fixture_init (&f, CAPS_BASE, NULL);
  push_frame (&f, 0, 10, 1000);
  pull_packets (&f, 10);
  push_frame (&f, 1, 10, 1000);
  pull_packets (&f, 10);
  fail_unless_equals_uint64 (stat (&f, "unpaced-frames"), 2);
  fail_unless_equals_uint64 (stat (&f, "frame-period"), PERIOD);
  check_period_source (&f, "rtp-timestamps");

  push_frame (&f, 2, 10, 1000);
  crank_frame (&f, 2 * PERIOD, 3600000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "unpaced-frames"), 2);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_period_from_rtptime_bframes)
{
  Fixture f;
  /* decoding order I0 P3 B1 B2 P6: frames 4 and 5 dropped */
  static const guint order[] = { 0, 3, 1, 2, 6 };
  static const GstClockTime period_after[] = { 0, 3 * PERIOD, 3 * PERIOD,
    PERIOD, PERIOD
  };
  guint i;

  /* duty 0: one slot per frame, at its sync time */
  fixture_init (&f, CAPS_BASE, "duty", 0.0, NULL);
  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    GstClockTime pts = order[i] * PERIOD;

    push_frame_full (&f, 1000 + order[i] * 3600, pts, 4, 1000, TRUE);
    if (i < 2)
      pull_packets (&f, 4);     /* unpaced: ΔT not known while it came */
    else
      crank_slot (&f, pts, 4);
    fail_unless_equals_uint64 (stat (&f, "frame-period"), period_after[i]);
  }
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_close_by_timestamp_change)
{
  Fixture f;

  /* no marker bits: a frame ends when the next timestamp arrives */
  fixture_init (&f, CAPS_25, NULL);
  push_frame_full (&f, 1000, 0, 10, 1000, FALSE);
  push_frame_full (&f, 1000 + 3600, PERIOD, 10, 1000, FALSE);
  crank_frame (&f, 0, 3600000, 10, 1);
  /* the second frame is still open: its timeout is one period after its
   * last packet came (at running time 0), then it is paced */
  crank_slot (&f, PERIOD, 0);
  crank_frame (&f, PERIOD, 3600000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "timeout-frames"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_close_by_timeout)
{
  Fixture f;

  fixture_init (&f, CAPS_25, NULL);
  gst_test_clock_set_time (f.clock, 5 * MS);
  push_frame_full (&f, 1000, 0, 10, 1000, FALSE);
  /* no marker, nothing after it: closed one period after the last packet */
  crank_slot (&f, 5 * MS + PERIOD, 0);
  /* then paced from now, its sync time (0) having passed */
  crank_frame (&f, 45 * MS, 3600000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "timeout-frames"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_close_by_eos)
{
  Fixture f;
  GstEvent *ev;

  fixture_init (&f, CAPS_25, NULL);
  push_frame_full (&f, 1000, 0, 10, 1000, FALSE);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  /* EOS closes the frame, its slots are paced, then EOS follows */
  crank_frame (&f, 0, 3600000, 10, 1);
  while ((ev = gst_harness_pull_event (f.h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS) {
      gst_event_unref (ev);
      break;
    }
    gst_event_unref (ev);
  }
  fail_unless_equals_uint64 (stat (&f, "timeout-frames"), 0);
  fail_unless_equals_uint64 (stat (&f, "frames"), 1);
  /* after EOS the chain refuses data */
  fail_unless_equals_int (gst_harness_push (f.h, test_rtp_packet (1, 1, TRUE,
              100, 0)), GST_FLOW_EOS);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_eos_drains_before_forwarding)
{
  Fixture f;
  GstEvent *ev;
  guint j;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 5, 1000);
  push_frame (&f, 1, 5, 1000);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));

  /* drop stream-start, caps and segment */
  do {
    ev = gst_harness_pull_event (f.h);
    fail_unless (ev != NULL);
    j = GST_EVENT_TYPE (ev);
    gst_event_unref (ev);
  } while (j != GST_EVENT_SEGMENT);

  for (j = 0; j < 5; j++) {
    crank_slot (&f, j * 7200000, 1);
    fail_unless_equals_int (gst_harness_events_in_queue (f.h), 0);
  }
  for (j = 0; j < 5; j++) {
    fail_unless_equals_int (gst_harness_events_in_queue (f.h), 0);
    crank_slot (&f, PERIOD + j * 7200000, 1);
  }
  ev = gst_harness_pull_event (f.h);
  fail_unless_equals_int (GST_EVENT_TYPE (ev), GST_EVENT_EOS);
  gst_event_unref (ev);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_new_stream_after_eos)
{
  Fixture f;
  GstEvent *ev;
  gboolean eos = FALSE;

  /* EOS, then at once a new stream (as a concat or a restart does):
   * the packets after it must not be lost behind the EOS */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 2, 1000);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  fail_unless (gst_harness_push_event (f.h,
          gst_event_new_stream_start ("second")));
  push_segment (&f);
  push_frame (&f, 1, 2, 1000);
  crank_frame (&f, 0, 18 * MS, 2, 1);
  crank_frame (&f, PERIOD, 18 * MS, 2, 1);
  while (!eos && (ev = gst_harness_try_pull_event (f.h))) {
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (eos);

  /* and after the task has stopped at an EOS, a new stream restarts it */
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  while ((ev = gst_harness_pull_event (f.h))) {
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      break;
  }
  fail_unless_equals_int (gst_harness_push (f.h, test_rtp_packet (f.seq_in, 1,
              TRUE, 100, 0)), GST_FLOW_EOS);
  fail_unless (gst_harness_push_event (f.h,
          gst_event_new_stream_start ("third")));
  push_segment (&f);
  push_frame (&f, 2, 2, 1000);
  crank_frame (&f, 2 * PERIOD, 18 * MS, 2, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_buffer_list_input)
{
  Fixture f;
  GstBufferList *list = gst_buffer_list_new ();
  guint i;

  /* rtpvrawpay style: one list with two whole frames */
  fixture_init (&f, CAPS_25, NULL);
  for (i = 0; i < 20; i++)
    gst_buffer_list_add (list, test_rtp_packet (f.seq_in++,
            1000 + (i / 10) * 3600, i % 10 == 9, 1000, (i / 10) * PERIOD));
  fail_unless_equals_int (gst_pad_push_list (f.h->srcpad, list), GST_FLOW_OK);
  crank_frame (&f, 0, 3600000, 10, 1);
  crank_frame (&f, PERIOD, 3600000, 10, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_late_frames_catch_up)
{
  Fixture f;
  guint j;

  /* three frames arrive together, 200 ms after the first was due */
  fixture_init (&f, CAPS_25, NULL);
  gst_test_clock_set_time (f.clock, 200 * MS);
  push_frame (&f, 0, 10, 1000);
  push_frame (&f, 1, 10, 1000);
  push_frame (&f, 2, 10, 1000);
  /* the first is spread as usual from now */
  crank_frame (&f, 200 * MS, 3600000, 10, 1);
  /* the backlog: held back 36 and 54 ms, each spread over half a span,
   * 18 ms, not sent as a burst */
  crank_frame (&f, 236 * MS, 1800000, 10, 1);
  crank_frame (&f, 254 * MS, 1800000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 2);

  /* the next frame is on time again: due at 280 ms, full span */
  push_frame (&f, 7, 10, 1000);
  for (j = 0; j < 10; j++)
    crank_slot (&f, 280 * MS + j * 3600000, 1);
  fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 2);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_min_slot_duration)
{
  Fixture f;
  guint j;

  /* 1000 packets in a frame: 36 µs slots; the automatic minimum of 100 µs
   * makes it b = 3 in 334 slots of 36 ms / 334 */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 1000, 1000);
  for (j = 0; j < 334; j++)
    crank_slot (&f, 36 * MS * j / 334, j < 333 ? 3 : 1);
  fail_unless_equals_uint64 (stat (&f, "effective-burst-size"), 3);
  fail_unless_equals_uint64 (stat (&f, "slot-duration"), 36 * MS / 334);
  fail_unless_equals_uint64 (stat (&f, "slots"), 334);
  /* the test clock wakes up exactly: the automatic minimum drops to 50 µs */
  fail_unless_equals_uint64 (stat (&f, "min-slot-duration"), 50000);
  fixture_clear (&f);

  /* an explicit minimum of 1 ns: equation (2) as it is */
  fixture_init (&f, CAPS_25, "min-slot-duration", G_GUINT64_CONSTANT (1),
      NULL);
  push_frame (&f, 0, 1000, 1000);
  crank_frame (&f, 0, 36000, 1000, 1);
  fail_unless_equals_uint64 (stat (&f, "effective-burst-size"), 1);
  fixture_clear (&f);

  /* an explicit 1 ms minimum: 36 slots of 28 packets (the last 20) */
  fixture_init (&f, CAPS_25, "min-slot-duration", 1 * MS, NULL);
  push_frame (&f, 0, 1000, 1000);
  crank_frame (&f, 0, 1 * MS, 1000, 28);
  fail_unless_equals_uint64 (stat (&f, "effective-burst-size"), 28);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_caps_change_framerate)
{
  Fixture f;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_frame (&f, 0, 3600000, 10, 1);
  /* 25 -> 50 fps mid-stream: ΔT 20 ms for the frames after the caps */
  gst_harness_set_src_caps_str (f.h, CAPS_BASE ", a-framerate=(string)50");
  push_frame_full (&f, 1000 + 3600, PERIOD, 10, 1000, TRUE);
  crank_frame (&f, PERIOD, 1800000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "frame-period"), 20 * MS);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_properties_while_playing)
{
  Fixture f;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_frame (&f, 0, 3600000, 10, 1);
  /* each change applies from the next frame on */
  g_object_set (f.h->element, "burst-size", 2, NULL);
  push_frame (&f, 1, 10, 1000);
  crank_frame (&f, PERIOD, 7200000, 10, 2);
  g_object_set (f.h->element, "duty", 0.5, NULL);
  push_frame (&f, 2, 10, 1000);
  crank_frame (&f, 2 * PERIOD, 4 * MS, 10, 2);
  g_object_set (f.h->element, "frame-period", 20 * MS, "burst-size", 1,
      NULL);
  push_frame (&f, 3, 10, 1000);
  crank_frame (&f, 3 * PERIOD, 1 * MS, 10, 1);
  /* a change while a frame is being paced does not touch that frame */
  push_frame (&f, 4, 10, 1000);
  crank_slot (&f, 4 * PERIOD, 1);
  g_object_set (f.h->element, "duty", 1.0, NULL);
  crank_frame (&f, 4 * PERIOD + 1 * MS, 1 * MS, 9, 1);
  fixture_clear (&f);
}

GST_END_TEST;

static GstFlowReturn downstream_flow;

static GstPadProbeReturn
fail_downstream (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GST_PAD_PROBE_INFO_FLOW_RETURN (info) = downstream_flow;
  gst_mini_object_unref (GST_PAD_PROBE_INFO_DATA (info));
  return GST_PAD_PROBE_HANDLED;
}

static const GstFlowReturn downstream_flows[] = {
  GST_FLOW_NOT_LINKED, GST_FLOW_FLUSHING, GST_FLOW_ERROR, GST_FLOW_EOS
};

/* Waits until the element's task has paused itself: GstTask holds the
 * source pad's stream lock for as long as it runs. */
static void
wait_task_paused (Fixture * f)
{
  GstPad *pad = gst_element_get_static_pad (f->h->element, "src");

  GST_PAD_STREAM_LOCK (pad);
  GST_PAD_STREAM_UNLOCK (pad);
  gst_object_unref (pad);
}

GST_START_TEST (test_downstream_flow)
{
  Fixture f;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;

  downstream_flow = downstream_flows[__i__];
  fixture_init (&f, CAPS_25, NULL);
  gst_element_set_bus (f.h->element, bus);
  gst_pad_add_probe (f.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      fail_downstream, NULL, NULL);
  push_frame (&f, 0, 10, 1000);
  fail_unless (gst_harness_crank_single_clock_wait (f.h));

  /* the task stops; the chain returns the flow to upstream */
  wait_task_paused (&f);
  fail_unless_equals_int (gst_harness_push (f.h, test_rtp_packet (f.seq_in++,
              5000, TRUE, 100, PERIOD)), downstream_flow);

  /* before EOS the element posts nothing: upstream acts on the flow (a
   * fatal one is posted by GstBaseSrc, see test_flow_error_once) */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL);
  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

/* When a fatal downstream flow comes, relative to upstream's EOS. */
typedef enum
{
  /* before EOS; upstream pushes again and gets the flow */
  FLOW_BEFORE_EOS_RETURNED,
  /* before EOS; upstream pushes nothing more but its EOS */
  FLOW_BEFORE_EOS_UNSEEN,
  /* after EOS (queued behind the frame) */
  FLOW_AFTER_EOS,
} FlowWhen;

static const struct
{
  GstFlowReturn flow;
  FlowWhen when;
} fatal_flows[] = {
  {GST_FLOW_NOT_NEGOTIATED, FLOW_BEFORE_EOS_RETURNED},
  {GST_FLOW_NOT_NEGOTIATED, FLOW_BEFORE_EOS_UNSEEN},
  {GST_FLOW_NOT_NEGOTIATED, FLOW_AFTER_EOS},
  {GST_FLOW_ERROR, FLOW_BEFORE_EOS_RETURNED},
  {GST_FLOW_ERROR, FLOW_BEFORE_EOS_UNSEEN},
  {GST_FLOW_ERROR, FLOW_AFTER_EOS},
  {GST_FLOW_NOT_LINKED, FLOW_BEFORE_EOS_RETURNED},
  {GST_FLOW_NOT_LINKED, FLOW_AFTER_EOS},
};

/* One error on the bus per fatal flow, as with queue: upstream (here the
 * test, doing what GstBaseSrc does with a fatal flow: post it, push EOS)
 * posts it when the chain returns it; after upstream's EOS the element
 * does, since upstream then sees no flow. */
GST_START_TEST (test_flow_error_once)
{
  GstElement *upstream = gst_element_factory_make ("fakesrc", "upstream");
  GstBus *bus = gst_bus_new ();
  FlowWhen when = fatal_flows[__i__].when;
  GstMessage *msg;
  GstEvent *ev;
  GError *err = NULL;
  gchar *dbg = NULL;
  Fixture f;

  downstream_flow = fatal_flows[__i__].flow;
  fixture_init (&f, CAPS_25, NULL);
  gst_element_set_bus (f.h->element, bus);
  gst_element_set_bus (upstream, bus);
  gst_pad_add_probe (f.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      fail_downstream, NULL, NULL);
  push_frame (&f, 0, 2, 1000);
  if (when == FLOW_AFTER_EOS)
    fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  /* the first slot's push fails; the task pauses */
  fail_unless (gst_harness_crank_single_clock_wait (f.h));
  wait_task_paused (&f);

  if (when == FLOW_BEFORE_EOS_RETURNED) {
    GstFlowReturn ret = gst_harness_push (f.h, test_rtp_packet (f.seq_in++,
            5000, TRUE, 100, PERIOD));

    fail_unless_equals_int (ret, downstream_flow);
    GST_ELEMENT_FLOW_ERROR (upstream, ret);
  }
  if (when != FLOW_AFTER_EOS)
    gst_harness_push_event (f.h, gst_event_new_eos ());
  else {
    /* the task pushed EOS after the error */
    while ((ev = gst_harness_pull_event (f.h)) &&
        GST_EVENT_TYPE (ev) != GST_EVENT_EOS)
      gst_event_unref (ev);
    fail_unless (ev != NULL);
    gst_event_unref (ev);
  }

  /* exactly one error, naming the flow, from whoever could tell */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == (when == FLOW_BEFORE_EOS_RETURNED ?
          GST_OBJECT_CAST (upstream) : GST_OBJECT_CAST (f.h->element)));
  gst_message_parse_error (msg, &err, &dbg);
  fail_unless (strstr (dbg, gst_flow_get_name (downstream_flow)) != NULL,
      "%s", dbg);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "a second error from %s",
      msg ? GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)) : "");

  gst_element_set_bus (f.h->element, NULL);
  gst_element_set_bus (upstream, NULL);
  gst_object_unref (upstream);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

/* A keyframe of 65 x 1212 B (1200 B payloads) at a cap of 8.08 Mbit/s takes
 * 78 ms: 65 slots of 1.2 ms.  While it is paced, the next frame of 10
 * packets arrives at 40.8 ms. */
static void
push_keyframe_and_next (Fixture * f)
{
  guint j;

  push_frame (f, 0, 65, 1200);
  for (j = 0; j <= 34; j++)
    crank_slot (f, j * 1200000, 1);
  push_frame (f, 1, 10, 1200);
  for (; j < 65; j++)
    crank_slot (f, j * 1200000, 1);
}

GST_START_TEST (test_max_rate_spreads_keyframe)
{
  Fixture f;

  fixture_init (&f, CAPS_25, "max-rate", G_GUINT64_CONSTANT (8080000), NULL);
  push_keyframe_and_next (&f);
  /* the next frame waits until 78 ms, in order, and catches up: held back
   * 37.2 ms, so half a span, 18 ms (the cap would allow 12 ms) */
  crank_frame (&f, 78 * MS, 1800000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "spread-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "compressed-frames"), 0);
  fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "max-rate"), 8080000);
  /* the latest last slot: 37.2 ms waited + 16.2 ms of slots */
  fail_unless_equals_uint64 (stat (&f, "max-backlog"), 76800000);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_max_delay_compresses)
{
  Fixture f;

  /* a 60 ms budget: the keyframe's last slot at 60 ms, not 76.8 ms */
  fixture_init (&f, CAPS_25, "max-rate", G_GUINT64_CONSTANT (8080000),
      "max-delay", 60 * MS, NULL);
  push_frame (&f, 0, 65, 1200);
  crank_frame (&f, 0, 937500, 65, 1);
  fail_unless_equals_uint64 (stat (&f, "compressed-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "max-backlog"), 60 * MS);
  fail_unless_equals_uint64 (stat (&f, "dropped-frames"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_overload_drop)
{
  Fixture f;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  const GstStructure *s;
  GstEvent *ev;
  guint packets, j;

  /* a 50 ms budget with overload=drop */
  fixture_init (&f, CAPS_25, "max-rate", G_GUINT64_CONSTANT (8080000),
      "max-delay", 50 * MS, "overload", 1, NULL);
  gst_element_set_bus (f.h->element, bus);
  push_frame (&f, 0, 65, 1200);
  for (j = 0; j < 65; j++) {
    /* the keyframe alone needs 76.8 ms > 50 ms: dropping it would not
     * help, so it is compressed to end at 50 ms (span 50 ms * 65 / 64) */
    crank_slot (&f, j * 781250, 1);
    if (j == 0) {
      /* a frame due at 0 waits for the keyframe until 50.78 ms: even
       * caught up (18 ms) it would end 66.98 ms after it was due; on its
       * own it would fit: it is dropped whole */
      push_frame_full (&f, 1000 + 3600, 0, 10, 1200, TRUE);
    }
  }
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "rtpburstpace-frame-dropped"));
  fail_unless (gst_structure_get_uint (s, "packets", &packets));
  fail_unless_equals_int (packets, 10);
  gst_message_unref (msg);
  /* the encoder is asked for a key unit */
  while ((ev = gst_harness_pull_upstream_event (f.h))) {
    gboolean key_unit = gst_video_event_is_force_key_unit (ev);

    gst_event_unref (ev);
    if (key_unit)
      break;
  }
  fail_unless (ev != NULL);
  fail_unless_equals_uint64 (stat (&f, "compressed-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "dropped-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "dropped-packets"), 10);
  fail_unless_equals_uint64 (stat (&f, "key-unit-requests"), 1);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);

  /* the stream goes on: the next frame is paced normally */
  f.seq_out = f.seq_in;
  gst_test_clock_set_time (f.clock, 80 * MS);
  push_frame (&f, 2, 10, 1200);
  crank_frame (&f, 80 * MS, 3600000, 10, 1);
  fail_unless_equals_uint64 (stat (&f, "dropped-frames"), 1);

  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_max_rate_latency_and_factor)
{
  Fixture f;
  GstQuery *q;
  GstClockTime min, max;
  gboolean live;
  guint64 cap, span;
  guint i;

  /* with a cap too, the DTS carries the delay: no latency of its own */
  fixture_init (&f, CAPS_25, "max-rate-factor", 2.0, "max-delay",
      120 * MS, NULL);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (f.h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless_equals_uint64 (min, 0);
  gst_query_unref (q);

  /* no cap until 32 frames were measured; then 2 x their mean rate:
   * 10 x 1212 B per 40 ms = 2.424 Mbit/s, cap 4.848 Mbit/s */
  for (i = 0; i < 32; i++) {
    push_frame (&f, i, 10, 1200);
    crank_frame (&f, i * PERIOD, 3600000, 10, 1);
  }
  fail_unless_equals_uint64 (stat (&f, "mean-rate"), 2424000);
  fail_unless_equals_uint64 (stat (&f, "max-rate"), 4848000);
  fail_unless_equals_uint64 (stat (&f, "spread-frames"), 0);
  /* a frame of 40 x 1212 B: more than 36 ms at the cap (which now counts
   * this frame too), so it is spread evenly over what the cap needs */
  push_frame (&f, 32, 40, 1200);
  cap = stat (&f, "max-rate");
  fail_unless (cap > 4848000 && cap < 6000000);
  span = (guint64) ceil (40 * 1212 * 8e9 / cap);
  fail_unless (span > 36 * MS);
  for (i = 0; i < 40; i++)
    crank_slot (&f, 32 * PERIOD + span * i / 40, 1);
  fail_unless_equals_uint64 (stat (&f, "spread-frames"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

#ifdef __linux__
/* What the element's streaming thread runs with, seen from inside it. */
typedef struct
{
  gint tid;
  gint policy;
  gint priority;
  gint slack;
} ThreadSeen;

static GstPadProbeReturn
record_thread (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ThreadSeen *seen = user_data;
  struct sched_param param;
  int policy;

  /* runs in the element's streaming thread */
  fail_unless_equals_int (pthread_getschedparam (pthread_self (), &policy,
          &param), 0);
  g_atomic_int_set (&seen->tid, (gint) syscall (SYS_gettid));
  g_atomic_int_set (&seen->policy, policy);
  g_atomic_int_set (&seen->priority, param.sched_priority);
  g_atomic_int_set (&seen->slack, prctl (PR_GET_TIMERSLACK, 0, 0, 0, 0));
  return GST_PAD_PROBE_OK;
}

static gpointer
try_fifo (gpointer data)
{
  struct sched_param param = { 0, };

  param.sched_priority = 1;
  return GINT_TO_POINTER (pthread_setschedparam (pthread_self (), SCHED_FIFO,
          &param));
}

/* Whether a thread of this process may run SCHED_FIFO: root, CAP_SYS_NICE
 * or a large enough RLIMIT_RTPRIO. */
static gboolean
can_use_fifo (void)
{
  return g_thread_join (g_thread_new ("try-fifo", try_fifo, NULL)) == NULL;
}

/* Set by test_realtime_priority_denied for the copy of the test binary it
 * runs: that copy drops root before Check starts (rtpburstpace_suite). */
#define UNPRIVILEGED_ENV "RTPBURSTPACE_TEST_UNPRIVILEGED"

/* Policy (field 41) and timer slack of a thread of this process; the
 * slack of another thread is readable only with CAP_SYS_NICE (-1). */
static void
read_thread (gint tid, gint * policy, gint * slack)
{
  gchar *path = g_strdup_printf ("/proc/self/task/%d/stat", tid);
  gchar *text = NULL, **fields;

  fail_unless (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  /* the fields after the command name, from field 3 (state) on */
  fields = g_strsplit (strrchr (text, ')') + 2, " ", -1);
  fail_unless (g_strv_length (fields) > 38);
  *policy = atoi (fields[41 - 3]);
  g_strfreev (fields);
  g_free (text);
  g_free (path);

  /* not under task/: /proc/TID works for any thread */
  path = g_strdup_printf ("/proc/%d/timerslack_ns", tid);
  *slack = -1;
  if (g_file_get_contents (path, &text, NULL, NULL))
    *slack = atoi (text);
  else
    fail_unless (g_getenv (UNPRIVILEGED_ENV) != NULL, "%s", path);
  g_free (text);
  g_free (path);
}

static void
drop_privileges (void)
{
  struct rlimit none = { 0, 0 };

  /* called before Check runs anything (its files then belong to the new
   * user): plain assertions */
  g_assert_cmpint (setrlimit (RLIMIT_RTPRIO, &none), ==, 0);
  if (geteuid () == 0) {
    g_assert_cmpint (setgroups (0, NULL), ==, 0);
    g_assert_cmpint (setresgid (65534, 65534, 65534), ==, 0);
    g_assert_cmpint (setresuid (65534, 65534, 65534), ==, 0);
  }
  /* a changed uid makes /proc/self/task/ files unreadable otherwise */
  prctl (PR_SET_DUMPABLE, 1, 0, 0, 0);
}

GST_START_TEST (test_timer_slack)
{
  Fixture f;
  ThreadSeen seen = { 0, -1, -1, -1 };

  fixture_init (&f, CAPS_25, "timer-slack", G_GUINT64_CONSTANT (1000), NULL);
  gst_pad_add_probe (f.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      record_thread, &seen, NULL);
  push_frame (&f, 0, 2, 1000);
  crank_frame (&f, 0, 18 * MS, 2, 1);
  fail_unless_equals_int (g_atomic_int_get (&seen.slack), 1000);
  fixture_clear (&f);
}

GST_END_TEST;

/* realtime-priority and timer-slack are applied to the streaming thread,
 * follow the properties while playing and are undone when the task leaves
 * the thread (it goes back to GStreamer's task pool); without the right to
 * use SCHED_FIFO the element warns once and keeps pacing. */
GST_START_TEST (test_thread_settings)
{
  Fixture f;
  ThreadSeen seen = { 0, -1, -1, -1 };
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  gboolean fifo;
  gint own_slack, policy, slack, prio;
  GstStructure *s;

  fifo = can_use_fifo ();
  own_slack = prctl (PR_GET_TIMERSLACK, 0, 0, 0, 0);
  fail_if (own_slack == 1000);

  fixture_init (&f, CAPS_25, "timer-slack", G_GUINT64_CONSTANT (1000), NULL);
  gst_element_set_bus (f.h->element, bus);
  g_object_set (f.h->element, "realtime-priority", 7, NULL);
  gst_pad_add_probe (f.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      record_thread, &seen, NULL);

  push_frame (&f, 0, 2, 1000);
  crank_frame (&f, 0, 18 * MS, 2, 1);
  s = get_stats (&f);
  fail_unless (gst_structure_get_int (s, "realtime-priority", &prio));
  gst_structure_free (s);
  if (fifo) {
    fail_unless_equals_int (g_atomic_int_get (&seen.policy), SCHED_FIFO);
    fail_unless_equals_int (g_atomic_int_get (&seen.priority), 7);
    /* Linux >= 6.7 gives real-time threads no slack at all */
    fail_unless (g_atomic_int_get (&seen.slack) <= 1000);
    fail_unless_equals_int (prio, 7);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);
  } else {
    GError *err = NULL;
    gchar *debug = NULL;

    fail_unless_equals_int (g_atomic_int_get (&seen.policy), SCHED_OTHER);
    fail_unless_equals_int (g_atomic_int_get (&seen.slack), 1000);
    fail_unless_equals_int (prio, 0);
    /* posted by the streaming thread after its push */
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_WARNING);
    fail_unless (msg != NULL);
    gst_message_parse_warning (msg, &err, &debug);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_SETTINGS));
    fail_unless (strstr (err->message, "real-time priority 7") != NULL);
    fail_unless (strstr (debug, "RLIMIT_RTPRIO") != NULL);
    g_error_free (err);
    g_free (debug);
    gst_message_unref (msg);
    /* once: the next frames do not repeat it */
    push_frame (&f, 1, 1, 1000);
    crank_frame (&f, PERIOD, 0, 1, 1);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);
    g_print ("test_thread_settings: checked without SCHED_FIFO rights\n");
  }

  if (fifo) {
    /* back to the thread's own policy while playing, and FIFO again */
    g_object_set (f.h->element, "realtime-priority", 0, NULL);
    push_frame (&f, 1, 1, 1000);
    crank_frame (&f, PERIOD, 0, 1, 1);
    fail_unless_equals_int (g_atomic_int_get (&seen.policy), SCHED_OTHER);
    /* the policy change reset the slack; the element sets it again */
    fail_unless_equals_int (g_atomic_int_get (&seen.slack), 1000);
    g_object_set (f.h->element, "realtime-priority", 9, NULL);
    push_frame (&f, 2, 1, 1000);
    crank_frame (&f, 2 * PERIOD, 0, 1, 1);
    fail_unless_equals_int (g_atomic_int_get (&seen.policy), SCHED_FIFO);
    fail_unless_equals_int (g_atomic_int_get (&seen.priority), 9);
  }

  /* READY stops the task: the pool's thread gets its own settings back */
  fail_unless_equals_int (gst_element_set_state (f.h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  read_thread (g_atomic_int_get (&seen.tid), &policy, &slack);
  fail_unless_equals_int (policy, SCHED_OTHER);
  if (slack != -1)
    fail_unless_equals_int (slack, own_slack);

  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

/* When the tests run with the right to use SCHED_FIFO (as root in CI), the
 * refusal is checked in a copy of this binary that drops it first. */
GST_START_TEST (test_realtime_priority_denied)
{
  gchar *exe, *out = NULL, **env;
  const gchar *argv[2] = { NULL, NULL };
  gint status;
  GError *err = NULL;

  if (!can_use_fifo ())
    return;                     /* test_thread_settings took that path */
  exe = g_file_read_link ("/proc/self/exe", NULL);
  fail_unless (exe != NULL);
  argv[0] = exe;
  env = g_get_environ ();
  env = g_environ_setenv (env, UNPRIVILEGED_ENV, "1", TRUE);
  env = g_environ_setenv (env, "GST_CHECKS", "test_thread_settings", TRUE);
  /* Check's message files go to $TEMP, else the working directory, which
   * the dropped user may not be allowed to write */
  env = g_environ_setenv (env, "TEMP", g_get_tmp_dir (), TRUE);
  fail_unless (g_spawn_sync (NULL, (gchar **) argv, env, G_SPAWN_DEFAULT,
          NULL, NULL, &out, NULL, &status, &err), "%s",
      err ? err->message : "");
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s", out);
  fail_unless (strstr (out, "checked without SCHED_FIFO rights") != NULL,
      "%s", out);
  g_free (out);
  g_strfreev (env);
  g_free (exe);
}

GST_END_TEST;
#endif

/* An upstream that answers the LATENCY query live, 10 ms ... 50 ms. */
static gboolean
bounded_upstream_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return gst_pad_query_default (pad, parent, query);
  gst_query_set_latency (query, TRUE, 10 * MS, 50 * MS);
  return TRUE;
}

static void
query_latency (Fixture * f, GstClockTime * min, GstClockTime * max)
{
  GstQuery *q = gst_query_new_latency ();
  gboolean live;

  fail_unless (gst_pad_peer_query (f->h->sinkpad, q));
  gst_query_parse_latency (q, &live, min, max);
  fail_unless (live);
  gst_query_unref (q);
}

GST_START_TEST (test_latency_query)
{
  Fixture f;
  GstClockTime min, max;
  GstBus *bus = gst_bus_new ();

  fixture_init (&f, NULL, NULL);
  g_object_set (f.h->element, "slot-jitter", 0.01, NULL);
  gst_element_set_bus (f.h->element, bus);
  gst_harness_set_upstream_latency (f.h, 10 * MS);

  /* ΔT unknown: nothing added */
  query_latency (&f, &min, &max);
  fail_unless_equals_uint64 (min, 10 * MS);

  /* ΔT known: still no minimum of its own (the DTS says when a packet
   * leaves), so no latency message either */
  gst_harness_set_src_caps_str (f.h, CAPS_25);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY) == NULL);
  query_latency (&f, &min, &max);
  fail_unless_equals_uint64 (min, 10 * MS);
  /* upstream's unbounded maximum stays unbounded */
  fail_unless_equals_uint64 (max, GST_CLOCK_TIME_NONE);
  /* a bounded one grows by the 8 frames the element can hold */
  gst_pad_set_query_function (f.h->srcpad, bounded_upstream_query);
  query_latency (&f, &min, &max);
  fail_unless_equals_uint64 (min, 10 * MS);
  fail_unless_equals_uint64 (max, 50 * MS + 8 * PERIOD);

  /* by default a frame is due at its timestamp ... */
  g_object_set (f.h->element, "slot-jitter", 0.0, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_frame (&f, 0, 3600000, 10, 1);
  /* ... with sync-upstream-latency, as clocksync computes it */
  g_object_set (f.h->element, "sync-upstream-latency", TRUE, NULL);
  push_frame (&f, 1, 10, 1000);
  crank_frame (&f, PERIOD + 10 * MS, 3600000, 10, 1);

  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_flush_mid_frame)
{
  Fixture f;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_slot (&f, 0, 1);
  crank_slot (&f, 3600000, 1);
  /* 8 packets of frame 0 waiting and half of frame 1 open */
  push_frame_full (&f, 1000 + 3600, PERIOD, 5, 1000, FALSE);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 13);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);

  /* after the flush, a new segment and frames are paced normally */
  push_segment (&f);
  gst_test_clock_set_time (f.clock, 2 * PERIOD);
  f.seq_out = f.seq_in;
  push_frame (&f, 2, 10, 1000);
  crank_frame (&f, 2 * PERIOD, 3600000, 10, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_flush_keeps_caps)
{
  Fixture f;
  GstCaps *caps;
  GstStructure *st;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_slot (&f, 0, 1);
  /* new caps queued behind the frame, then a flush before they went out */
  gst_harness_set_src_caps_str (f.h, CAPS_BASE ", a-framerate=(string)50");
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (FALSE)));
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 9);

  /* the next packet goes out with the caps that were current upstream */
  push_segment (&f);
  f.seq_out = f.seq_in;
  push_frame_full (&f, 99999, PERIOD, 1, 1000, TRUE);
  fail_unless (gst_harness_crank_single_clock_wait (f.h));
  pull_packets (&f, 1);
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  fail_unless (caps != NULL);
  st = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (st, "a-framerate"),
      "50");
  gst_caps_unref (caps);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_flush_stop_without_start)
{
  Fixture f;

  /* not a valid flush, but it must not pull a frame from under the task */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_slot (&f, 0, 1);
  gst_test_clock_wait_for_next_pending_id (f.clock, NULL);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (FALSE)));
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 9);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);
  push_segment (&f);
  f.seq_out = f.seq_in;
  push_frame (&f, 1, 10, 1000);
  crank_frame (&f, PERIOD, 3600000, 10, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_pause_resume_no_burst)
{
  Fixture f;
  guint j;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  for (j = 0; j < 4; j++)
    crank_slot (&f, j * 3600000, 1);

  /* slot 4 is pending; pause for one second */
  gst_test_clock_wait_for_next_pending_id (f.clock, NULL);
  fail_unless_equals_int (gst_element_set_state (f.h->element,
          GST_STATE_PAUSED), GST_STATE_CHANGE_NO_PREROLL);
  gst_test_clock_advance_time (f.clock, 1000 * MS);
  /* as a pipeline does, running time stands still while paused */
  gst_element_set_base_time (f.h->element, 1000 * MS);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f.h), 0);
  fail_unless_equals_int (gst_element_set_state (f.h->element,
          GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);

  /* the remaining slots keep their spacing, shifted by the pause */
  for (j = 4; j < 10; j++)
    crank_slot (&f, 1000 * MS + j * 3600000, 1);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_ready_unschedules)
{
  Fixture f;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  push_frame (&f, 1, 10, 1000);
  crank_slot (&f, 0, 1);
  gst_test_clock_wait_for_next_pending_id (f.clock, NULL);
  /* a pending wait must not keep READY from returning */
  fail_unless_equals_int (gst_element_set_state (f.h->element,
          GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_test_clock_peek_id_count (f.clock), 0);
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 19);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_invalid_packets)
{
  Fixture f;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  static const guint8 garbage[] = { 0x00, 0x01, 0x02 };

  fixture_init (&f, CAPS_25, NULL);
  gst_element_set_bus (f.h->element, bus);
  push_frame_full (&f, 1000, 0, 2, 1000, FALSE);
  fail_unless_equals_int (gst_harness_push (f.h,
          gst_buffer_new_memdup (garbage, sizeof (garbage))), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (f.h,
          gst_buffer_new_memdup (garbage, sizeof (garbage))), GST_FLOW_OK);
  push_frame_full (&f, 1000, 0, 2, 1000, TRUE);
  crank_frame (&f, 0, 9 * MS, 4, 1);
  fail_unless_equals_uint64 (stat (&f, "invalid-packets"), 2);

  /* one warning for both (rate-limited), naming the problem */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "RTP") != NULL);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);

  gst_element_set_bus (f.h->element, NULL);
  gst_object_unref (bus);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_refuses_non_rtp_caps)
{
  GstHarness *h = gst_harness_new ("rtpburstpace");
  GstCaps *caps = gst_caps_from_string ("video/x-raw");

  fail_if (gst_pad_query_accept_caps (h->element->sinkpads->data, caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_property_ranges)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  GParamSpec *ps;

  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "duty");
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->maximum, 1.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->default_value, 0.9);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "burst-size");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (ps)->minimum, 1);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "slot-jitter");
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (ps)->default_value, 0.01);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats");
  fail_if (ps->flags & G_PARAM_WRITABLE);

  /* every property starts at its documented default */
  {
    GParamSpec **props;
    guint i, n;

    props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n);
    for (i = 0; i < n; i++) {
      GValue v = G_VALUE_INIT;

      if (!(props[i]->flags & G_PARAM_WRITABLE) ||
          props[i]->owner_type != G_OBJECT_TYPE (e))
        continue;
      g_value_init (&v, props[i]->value_type);
      g_object_get_property (G_OBJECT (e), props[i]->name, &v);
      fail_unless (g_param_value_defaults (props[i], &v),
          "%s does not start at its default", props[i]->name);
      g_value_unset (&v);
    }
    g_free (props);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Each writable property says, with exactly one GST_PARAM_MUTABLE_* flag,
 * the highest state in which a change still takes effect; read-only ones
 * have none.  A new property must be added to the table. */
GST_START_TEST (test_property_mutable_flags)
{
  static const struct
  {
    const gchar *name;
    GParamFlags mutable;
  } expected[] = {
    /* the task re-reads these under the lock for each frame or wake-up */
    {"burst-size", GST_PARAM_MUTABLE_PLAYING},
    {"duty", GST_PARAM_MUTABLE_PLAYING},
    {"slot-jitter", GST_PARAM_MUTABLE_PLAYING},
    {"seed", GST_PARAM_MUTABLE_PLAYING},
    {"frame-period", GST_PARAM_MUTABLE_PLAYING},
    {"payload-size", GST_PARAM_MUTABLE_PLAYING},
    {"min-slot-duration", GST_PARAM_MUTABLE_PLAYING},
    {"sync-upstream-latency", GST_PARAM_MUTABLE_PLAYING},
    {"max-rate", GST_PARAM_MUTABLE_PLAYING},
    {"max-rate-factor", GST_PARAM_MUTABLE_PLAYING},
    {"max-delay", GST_PARAM_MUTABLE_PLAYING},
    {"overload", GST_PARAM_MUTABLE_PLAYING},
    {"timer-slack", GST_PARAM_MUTABLE_PLAYING},
    {"realtime-priority", GST_PARAM_MUTABLE_PLAYING},
    {"auto-margin", GST_PARAM_MUTABLE_PLAYING},
    {"pace-other-payloads", GST_PARAM_MUTABLE_PLAYING},
    {"pace", GST_PARAM_MUTABLE_PLAYING},
    {"group-max-rate", GST_PARAM_MUTABLE_PLAYING},
    {"group-priority", GST_PARAM_MUTABLE_PLAYING},
    {"release-ahead", GST_PARAM_MUTABLE_PLAYING},
    /* the deprecated old names of renamed ones, as the new names */
    {"max-latency", GST_PARAM_MUTABLE_PLAYING},
    {"pace-repair", GST_PARAM_MUTABLE_PLAYING},
    {"priority", GST_PARAM_MUTABLE_PLAYING},
    /* passed on to the payloader, which reads it for each buffer */
    {"mtu", GST_PARAM_MUTABLE_PLAYING},
    /* taken from READY to PAUSED (the group by the element, seqnum-offset
     * by the payloader it is passed on to) */
    {"group", GST_PARAM_MUTABLE_READY},
    {"seqnum-offset", GST_PARAM_MUTABLE_READY},
    /* the congestion controller, made from READY to PAUSED */
    {"congestion-control", GST_PARAM_MUTABLE_READY},
    {"min-bitrate", GST_PARAM_MUTABLE_READY},
    {"max-bitrate", GST_PARAM_MUTABLE_READY},
    {"start-bitrate", GST_PARAM_MUTABLE_READY},
    /* read-only */
    {"stats", 0},
    {"pt", 0},
    {"seqnum", 0},
    {"timestamp", 0},
    {"estimated-bitrate", 0},
  };
  const GParamFlags any_mutable = GST_PARAM_MUTABLE_READY |
      GST_PARAM_MUTABLE_PAUSED | GST_PARAM_MUTABLE_PLAYING;
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpec **props;
  guint i, j, n, own = 0;

  for (i = 0; i < G_N_ELEMENTS (expected); i++) {
    GParamSpec *ps = g_object_class_find_property (klass, expected[i].name);

    fail_unless (ps != NULL, "no property %s", expected[i].name);
    fail_unless_equals_int (ps->flags & any_mutable, expected[i].mutable);
    /* writable: exactly one; read-only: none */
    fail_unless_equals_int ((ps->flags & G_PARAM_WRITABLE) != 0,
        expected[i].mutable != 0);
  }

  props = g_object_class_list_properties (klass, &n);
  for (i = 0; i < n; i++) {
    gboolean listed = FALSE;

    if (props[i]->owner_type != G_OBJECT_TYPE (e))
      continue;
    own++;
    for (j = 0; j < G_N_ELEMENTS (expected); j++)
      listed |= g_strcmp0 (props[i]->name, expected[j].name) == 0;
    fail_unless (listed, "property %s has no expected mutability",
        props[i]->name);
  }
  fail_unless_equals_int (own, G_N_ELEMENTS (expected));
  g_free (props);
  gst_object_unref (e);
}

GST_END_TEST;

/* The renamed properties: the old name is a second, deprecated property of
 * the same type, range and default whose value is the new one's, in both
 * directions; setting it notifies the new name too, and the element logs
 * a warning the first time it is used, once per element and old name. */
static const struct
{
  const gchar *old_name, *new_name;
  const gchar *value;           /* another than the default */
} renamed[] = {
  {"max-latency", "max-delay", "42000000"},
  {"pace-repair", "pace-other-payloads", "false"},
  {"priority", "group-priority", "2"},
};

static guint deprecated_warnings;

static void
count_deprecated_warnings (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (level == GST_LEVEL_WARNING &&
      g_strcmp0 (gst_debug_category_get_name (category), "rtpburstpace") == 0
      && strstr (gst_debug_message_get (message), "deprecated") != NULL)
    g_atomic_int_inc (&deprecated_warnings);
}

static void
count_notify (GObject * object, GParamSpec * pspec, guint * count)
{
  (*count)++;
}

/* The property @name of @e as a string. */
static gchar *
get_as_string (GstElement * e, const gchar * name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GValue v = G_VALUE_INIT;
  gchar *str;

  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), name, &v);
  str = gst_value_serialize (&v);
  g_value_unset (&v);
  return str;
}

GST_START_TEST (test_renamed_properties)
{
  guint i;

  gst_debug_set_threshold_for_name ("rtpburstpace", GST_LEVEL_WARNING);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (count_deprecated_warnings, NULL, NULL);
  for (i = 0; i < G_N_ELEMENTS (renamed); i++) {
    GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
    GObjectClass *klass = G_OBJECT_GET_CLASS (e);
    GParamSpec *old = g_object_class_find_property (klass,
        renamed[i].old_name);
    GParamSpec *new = g_object_class_find_property (klass,
        renamed[i].new_name);
    guint notified = 0;
    gchar *str, *detail, *dflt;

    /* two specs alike but for the name and the deprecation */
    fail_unless (old != NULL && new != NULL);
    fail_unless (old->flags & G_PARAM_DEPRECATED);
    fail_if (new->flags & G_PARAM_DEPRECATED);
    fail_unless_equals_int (old->flags & ~G_PARAM_DEPRECATED, new->flags);
    fail_unless (old->value_type == new->value_type);
    fail_unless (g_param_values_cmp (old, g_param_spec_get_default_value (old),
            g_param_spec_get_default_value (new)) == 0);
    if (old->value_type == G_TYPE_UINT64) {
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT64 (old)->minimum,
          G_PARAM_SPEC_UINT64 (new)->minimum);
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT64 (old)->maximum,
          G_PARAM_SPEC_UINT64 (new)->maximum);
    } else if (old->value_type == G_TYPE_UINT) {
      fail_unless_equals_int (G_PARAM_SPEC_UINT (old)->minimum,
          G_PARAM_SPEC_UINT (new)->minimum);
      fail_unless_equals_int (G_PARAM_SPEC_UINT (old)->maximum,
          G_PARAM_SPEC_UINT (new)->maximum);
    }

    /* set through the old name: the new one has the value, and says so */
    detail = g_strdup_printf ("notify::%s", renamed[i].new_name);
    g_signal_connect (e, detail, G_CALLBACK (count_notify), &notified);
    g_free (detail);
    g_atomic_int_set (&deprecated_warnings, 0);
    gst_util_set_object_arg (G_OBJECT (e), renamed[i].old_name,
        renamed[i].value);
    str = get_as_string (e, renamed[i].new_name);
    fail_unless_equals_string (str, renamed[i].value);
    g_free (str);
    fail_unless_equals_int (notified, 1);
    fail_unless_equals_int (g_atomic_int_get (&deprecated_warnings), 1);

    /* set through the new name: read back through the old one, which
     * warns no more on this element */
    g_object_set_property (G_OBJECT (e), renamed[i].new_name,
        g_param_spec_get_default_value (new));
    str = get_as_string (e, renamed[i].old_name);
    dflt = gst_value_serialize (g_param_spec_get_default_value (new));
    fail_unless_equals_string (str, dflt);
    g_free (dflt);
    g_free (str);
    gst_util_set_object_arg (G_OBJECT (e), renamed[i].new_name,
        renamed[i].value);
    str = get_as_string (e, renamed[i].old_name);
    fail_unless_equals_string (str, renamed[i].value);
    g_free (str);
    fail_unless_equals_int (notified, 3);
    fail_unless_equals_int (g_atomic_int_get (&deprecated_warnings), 1);
    gst_object_unref (e);

    /* another element warns again, also when only read */
    e = gst_element_factory_make ("rtpburstpace", NULL);
    g_free (get_as_string (e, renamed[i].old_name));
    fail_unless_equals_int (g_atomic_int_get (&deprecated_warnings), 2);
    gst_object_unref (e);
  }
  gst_debug_remove_log_function (count_deprecated_warnings);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
}

GST_END_TEST;

GST_START_TEST (test_stats_fields)
{
  static const gchar *u64[] = { "frames", "packets", "bytes", "slots",
    "frame-period", "slot-duration", "unpaced-frames", "catch-up-frames",
    "timeout-frames", "late-slots", "max-lateness", "invalid-packets",
    "flushed-packets"
  };
  Fixture f;
  GstStructure *s;
  guint i;

  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 3, 1000);
  crank_frame (&f, 0, 12 * MS, 3, 1);
  wait_queue_empty (&f);

  s = get_stats (&f);
  fail_unless (gst_structure_has_name (s,
          "application/x-rtp-burst-pace-stats"));
  for (i = 0; i < G_N_ELEMENTS (u64); i++)
    fail_unless (gst_structure_has_field_typed (s, u64[i], G_TYPE_UINT64),
        "%s", u64[i]);
  fail_unless (gst_structure_has_field_typed (s, "queued-packets",
          G_TYPE_UINT));
  fail_unless (gst_structure_has_field_typed (s, "queued-frames",
          G_TYPE_UINT));
  fail_unless (gst_structure_has_field_typed (s, "payload-size", G_TYPE_UINT));
  fail_unless_equals_string (gst_structure_get_string (s,
          "frame-period-source"), "caps");
  /* gst-inspect documents every field, with its type, in the property's
   * description, one line "name (type): meaning" each after the first;
   * docs/reference.md is made from it (scripts/stats-doc.py) */
  {
    const gchar *blurb = g_param_spec_get_blurb (g_object_class_find_property
        (G_OBJECT_GET_CLASS (f.h->element), "stats"));
    gchar **lines = g_strsplit (blurb, "\n", -1);
    guint n = g_strv_length (lines);

    fail_unless_equals_int (n - 1, gst_structure_n_fields (s));
    for (i = 1; i < n; i++) {
      gchar *name = g_strndup (lines[i], strcspn (lines[i], " "));
      gchar *type = g_strdup_printf ("%s (%s): ", name,
          g_type_name (gst_structure_get_field_type (s, name)));

      fail_unless (gst_structure_has_field (s, name), "%s is documented "
          "but not in the stats", name);
      fail_unless (g_str_has_prefix (lines[i], type), "%s: documented as "
          "\"%s\"", type, lines[i]);
      g_free (type);
      g_free (name);
    }
    g_strfreev (lines);
  }
  gst_structure_free (s);

  fail_unless_equals_uint64 (stat (&f, "frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "packets"), 3);
  /* 12 B header + 1000 B payload */
  fail_unless_equals_uint64 (stat (&f, "bytes"), 3 * 1012);
  fail_unless_equals_uint64 (stat (&f, "slots"), 3);
  fail_unless_equals_uint64 (stat (&f, "payload-size"), 1000);
  fail_unless_equals_uint64 (stat (&f, "late-slots"), 0);
  fail_unless_equals_uint64 (stat (&f, "max-lateness"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_meter)
{
  Fixture f;
  GstClockID id;
  guint i;

  /* 10 x 1000 B per 40 ms frame, b = 1: one 1012 B packet every 3.6 ms */
  fixture_init (&f, CAPS_25, NULL);
  push_frame (&f, 0, 10, 1000);
  crank_frame (&f, 0, 3600000, 10, 1);
  /* frame 1: the wait for slot 4 ends 2 ms late (the clock is moved past
   * it), and slot 5 is released at once after it */
  push_frame (&f, 1, 10, 1000);
  crank_frame (&f, PERIOD, 3600000, 4, 1);
  gst_test_clock_wait_for_next_pending_id (f.clock, &id);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), PERIOD + 4 * 3600000);
  gst_clock_id_unref (id);
  gst_test_clock_set_time (f.clock, PERIOD + 4 * 3600000 + 2 * MS);
  fail_unless (gst_harness_crank_single_clock_wait (f.h));
  pull_packets (&f, 1);
  for (i = 5; i < 10; i++)
    crank_slot (&f, PERIOD + i * 3600000, 1);
  wait_queue_empty (&f);

  /* a 1 ms window holds one packet (8096 bit/ms); a 10 ms one three on
   * the 3.6 ms grid, and four where the late slot 4 (56.4 ms) bunched up
   * with slots 5 to 7 (58, 61.6 and 65.2 ms): 32384 bit/10 ms */
  fail_unless_equals_uint64 (stat (&f, "peak-rate-1ms"), 8096000);
  fail_unless_equals_uint64 (stat (&f, "peak-rate-10ms"), 3238400);
  /* one slot of 20 released 2 ms late: p50 0, p99 and max 2 ms (slot 5's
   * wait returned at once, at its time) */
  fail_unless_equals_uint64 (stat (&f, "release-error-p50"), 0);
  fail_unless_equals_uint64 (stat (&f, "release-error-max"), 2 * MS);
  fail_unless_equals_uint64 (stat (&f, "release-error-p99"), 2 * MS);
  /* gaps: 18 of 3.6 ms, one of 5.6 ms and one of 1.6 ms (slots 3-4 and
   * 4-5 of frame 1); percentiles are bucket tops, never above the largest */
  fail_unless (stat (&f, "gap-p1") >= 1600000 &&
      stat (&f, "gap-p1") < 1600000 + 1600000 / 8);
  fail_unless (stat (&f, "gap-p50") >= 3600000 &&
      stat (&f, "gap-p50") < 3600000 + 3600000 / 8);
  fail_unless_equals_uint64 (stat (&f, "gap-p99"), 5600000);
  /* both frames ended 32.4 ms after their first slot: 810 per mille */
  fail_unless_equals_uint64 (stat (&f, "frames-over-period"), 0);
  fail_unless_equals_uint64 (stat (&f, "max-frame-end"), 810);
  fixture_clear (&f);
}

GST_END_TEST;

/* Frame @i of 10 packets from @start, 3.6 ms apart, its last slot
 * released 9 ms late (the clock is moved past it). */
static void
crank_frame_late_end (Fixture * f, guint i, GstClockTime start)
{
  GstClockID id;

  push_frame (f, i, 10, 1000);
  crank_frame (f, start, 3600000, 9, 1);
  gst_test_clock_wait_for_next_pending_id (f->clock, &id);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), start + 32400000);
  gst_clock_id_unref (id);
  gst_test_clock_set_time (f->clock, start + 32400000 + 9 * MS);
  fail_unless (gst_harness_crank_single_clock_wait (f->h));
  pull_packets (f, 1);
}

GST_START_TEST (test_auto_margin)
{
  Fixture f;
  gint on;

  for (on = 1; on >= 0; on--) {
    fixture_init (&f, CAPS_25, "auto-margin", (gboolean) on, NULL);
    /* a frame whose last slot comes 9 ms late: past the period, so the
     * next frame starts when the task gets to it */
    crank_frame_late_end (&f, 0, 0);
    if (on) {
      /* its last slot on time was slot 8 (28.8 ms): it needed 40 - 28.8 =
       * 11.2 ms free, more than a quarter period: a stall that early is not
       * one a margin helps against, and sets none */
      fail_unless_equals_uint64 (stat (&f, "margin"), 0);
    }
    /* frame 1 (40 packets, 40 slots 0.9 ms apart from 41.4 ms): its last
     * slot comes 5 ms late, and the frame ends 40.1 ms after its start */
    push_frame (&f, 1, 40, 250);
    crank_frame (&f, 41400000, 900000, 39, 1);
    {
      GstClockID id;

      gst_test_clock_wait_for_next_pending_id (f.clock, &id);
      fail_unless_equals_uint64 (gst_clock_id_get_time (id),
          41400000 + 35100000);
      gst_clock_id_unref (id);
      gst_test_clock_set_time (f.clock, 41400000 + 35100000 + 5 * MS);
      fail_unless (gst_harness_crank_single_clock_wait (f.h));
      pull_packets (&f, 1);
    }
    if (on) {
      /* of 40 slots 0.9 ms apart, the last (35.1 ms) came 5 ms late, so
       * the frame needed 40 - 34.2 ms (the slot before it) = 5.8 ms free.
       * The next frame's last of 40 slots must come by 34.2 ms: it spans
       * (40 - 5.8) x 40 / 39 = 35.076923 ms, slot 1 at 876923 ns */
      fail_unless_equals_uint64 (stat (&f, "margin"), 5800000);
      push_frame (&f, 2, 40, 250);
      crank_frame (&f, 81500000, 876923, 2, 1);
      fail_unless_equals_uint64 (stat (&f, "margin-frames"), 1);
    } else {
      /* off: duty x ΔT, whatever the lateness */
      fail_unless_equals_uint64 (stat (&f, "margin"), 0);
      push_frame (&f, 2, 40, 250);
      crank_frame (&f, 81500000, 900000, 2, 1);
      fail_unless_equals_uint64 (stat (&f, "margin-frames"), 0);
    }
    fixture_clear (&f);
  }
}

GST_END_TEST;

GST_START_TEST (test_packets_unchanged)
{
  Fixture f;
  GstBuffer *in = test_rtp_packet (7, 1000, TRUE, 500, 0), *out;
  GstMapInfo a, b;

  fixture_init (&f, CAPS_25, NULL);
  GST_BUFFER_DTS (in) = 0;
  gst_harness_push (f.h, gst_buffer_ref (in));
  fail_unless (gst_harness_crank_single_clock_wait (f.h));
  out = gst_harness_pull (f.h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
  fail_unless_equals_uint64 (GST_BUFFER_DTS (out), GST_BUFFER_DTS (in));
  gst_buffer_map (in, &a, GST_MAP_READ);
  gst_buffer_map (out, &b, GST_MAP_READ);
  fail_unless_equals_int (a.size, b.size);
  fail_unless (memcmp (a.data, b.data, a.size) == 0);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (out, &b);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
rtpburstpace_suite (void)
{
  Suite *s = suite_create ("rtpburstpace");
  TCase *tc = tcase_create ("general");

#ifdef __linux__
  if (g_getenv (UNPRIVILEGED_ENV))
    drop_privileges ();
#endif

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cbr_slots);
  tcase_add_test (tc, test_vbr_slots);
  tcase_add_test (tc, test_small_packets_never_exceed_b);
  tcase_add_loop_test (tc, test_burst_size, 0, G_N_ELEMENTS (burst_sizes));
  tcase_add_test (tc, test_duty);
  tcase_add_test (tc, test_randomization);
  tcase_add_test (tc, test_period_from_property);
  tcase_add_test (tc, test_period_from_framerate_fraction);
  tcase_add_test (tc, test_period_from_rtptime);
  tcase_add_test (tc, test_period_from_rtptime_bframes);
  tcase_add_test (tc, test_close_by_timestamp_change);
  tcase_add_test (tc, test_close_by_timeout);
  tcase_add_test (tc, test_close_by_eos);
  tcase_add_test (tc, test_eos_drains_before_forwarding);
  tcase_add_test (tc, test_new_stream_after_eos);
  tcase_add_test (tc, test_buffer_list_input);
  tcase_add_test (tc, test_late_frames_catch_up);
  tcase_add_test (tc, test_min_slot_duration);
  tcase_add_test (tc, test_caps_change_framerate);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_loop_test (tc, test_downstream_flow, 0,
      G_N_ELEMENTS (downstream_flows));
  tcase_add_loop_test (tc, test_flow_error_once, 0,
      G_N_ELEMENTS (fatal_flows));
  tcase_add_test (tc, test_max_rate_spreads_keyframe);
  tcase_add_test (tc, test_max_delay_compresses);
  tcase_add_test (tc, test_overload_drop);
  tcase_add_test (tc, test_max_rate_latency_and_factor);
#ifdef __linux__
  tcase_add_test (tc, test_timer_slack);
  tcase_add_test (tc, test_thread_settings);
  tcase_add_test (tc, test_realtime_priority_denied);
#endif
  tcase_add_test (tc, test_latency_query);
  tcase_add_test (tc, test_flush_mid_frame);
  tcase_add_test (tc, test_flush_keeps_caps);
  tcase_add_test (tc, test_flush_stop_without_start);
  tcase_add_test (tc, test_pause_resume_no_burst);
  tcase_add_test (tc, test_ready_unschedules);
  tcase_add_test (tc, test_invalid_packets);
  tcase_add_test (tc, test_refuses_non_rtp_caps);
  tcase_add_test (tc, test_property_ranges);
  tcase_add_test (tc, test_property_mutable_flags);
  tcase_add_test (tc, test_renamed_properties);
  tcase_add_test (tc, test_stats_fields);
  tcase_add_test (tc, test_meter);
  tcase_add_test (tc, test_auto_margin);
  tcase_add_test (tc, test_packets_unchanged);
  return s;
}

GST_CHECK_MAIN (rtpburstpace);
