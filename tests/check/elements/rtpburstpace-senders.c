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

/* The element in real senders, deterministically: a synchronising sink
 * (emulated on the harness's sink pad the way GstBaseSink syncs, on the
 * test clock), and the payloader properties gst-rtsp-server uses. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rtpburstpace-fixture.h"

#define DT (3600 * G_GUINT64_CONSTANT (1000))   /* 36 ms / 10 packets */

/* --- a synchronising sink ------------------------------------------------ */

/* Like GstBaseSink with sync=true: each buffer waits on the clock until the
 * running time of its DTS (else PTS) plus the pipeline latency, in the
 * thread that pushed it, then goes on to the harness. */
typedef struct
{
  GstPadChainFunction chain;
  GstClockTime latency;
  GstClockTimeDiff ts_offset;   /* GstBaseSink's ts-offset */
  GstElement *element;
} SyncSink;

static SyncSink sync_sink;

static GstFlowReturn
sync_sink_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  GstEvent *event = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  const GstSegment *segment;
  GstClock *clock = gst_element_get_clock (sync_sink.element);
  GstClockTime rt;
  GstClockID id;

  fail_unless (event != NULL && clock != NULL);
  gst_event_parse_segment (event, &segment);
  rt = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
      GST_BUFFER_DTS_OR_PTS (buf));
  gst_event_unref (event);
  fail_unless (GST_CLOCK_TIME_IS_VALID (rt));

  id = gst_clock_new_single_shot_id (clock, gst_element_get_base_time
      (sync_sink.element) + rt + sync_sink.latency + sync_sink.ts_offset);
  gst_clock_id_wait (id, NULL);
  gst_clock_id_unref (id);
  gst_object_unref (clock);
  /* the pad ran test_handover_probe before this chain function, which
   * has read sync_sink since: announce the hand-over again */
  TEST_TSAN_RELEASE (buf);
  return sync_sink.chain (pad, parent, buf);
}

/* Makes the harness's sink pad synchronise with @latency. */
static void
sync_element_install (Fixture * f, GstClockTime latency)
{
  sync_sink.chain = GST_PAD_CHAINFUNC (f->h->sinkpad);
  sync_sink.latency = latency;
  sync_sink.ts_offset = 0;
  sync_sink.element = f->h->element;
  gst_pad_set_chain_function (f->h->sinkpad, sync_sink_chain);
}

/* ... and sends the LATENCY event upstream as a GstBaseSink does. */
static void
sync_sink_install (Fixture * f, GstClockTime latency)
{
  sync_element_install (f, latency);
  fail_unless (gst_harness_push_upstream_event (f->h,
          gst_event_new_latency (latency)));
}

static void
sync_sink_set_latency (Fixture * f, GstClockTime latency)
{
  sync_sink.latency = latency;
  fail_unless (gst_harness_push_upstream_event (f->h,
          gst_event_new_latency (latency)));
}

static void
expect_wait (Fixture * f, GstClockTime expected)
{
  GstClockID id;

  gst_test_clock_wait_for_next_pending_id (f->clock, &id);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), expected);
  gst_clock_id_unref (id);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f->h), 0);
  fail_unless (gst_harness_crank_single_clock_wait (f->h));
}

/* The fixture, with the hand-over of buffers announced to ThreadSanitizer:
 * these tests read the DTS the element wrote. */
static void
senders_fixture_init (Fixture * f)
{
  fixture_init (f, CAPS_25, NULL);
  test_announce_handover (f->h->sinkpad);
}

static void
pull_with_times (Fixture * f, GstClockTime pts, GstClockTime dts)
{
  GstBuffer *buf = gst_harness_pull (f->h);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  fail_unless (buf != NULL);
  TEST_TSAN_ACQUIRE (buf);
  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), f->seq_out);
  gst_rtp_buffer_unmap (&rtp);
  f->seq_out++;
  /* PTS stays the frame's time; DTS says when the packet leaves */
  fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), pts);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), dts);
  gst_buffer_unref (buf);
}

/* One slot of one packet: the element waits for @element_time, then the
 * sink for @sink_time; the packet leaves with @dts. */
static void
crank_synced_slot (Fixture * f, GstClockTime element_time,
    GstClockTime sink_time, GstClockTime pts, GstClockTime dts)
{
  expect_wait (f, element_time);
  expect_wait (f, sink_time);
  pull_with_times (f, pts, dts);
}

/* Frames @first .. @last - 1 once the element takes the synchronising
 * element's @latency into account: each due @latency after its timestamp,
 * DTS = slot - @latency, and downstream's wait exactly the element's slot. */
static void
crank_synced_frames (Fixture * f, guint first, guint last,
    GstClockTime latency)
{
  guint i, frame;

  for (frame = first; frame < last; frame++) {
    GstClockTime due = frame * PERIOD + latency;

    push_frame (f, frame, 10, 1000);
    for (i = 0; i < 10; i++)
      crank_synced_slot (f, due + i * DT, due + i * DT, frame * PERIOD,
          frame * PERIOD + i * DT);
  }
}

/* The stats after the first frame was held and the rest were not. */
static void
check_synced_stats (Fixture * f, GstClockTime latency)
{
  fail_unless_equals_uint64 (stat (f, "sink-latency"), latency);
  fail_unless_equals_uint64 (stat (f, "held-slots"), 10);
  fail_unless_equals_uint64 (stat (f, "late-slots"), 0);
  fail_unless_equals_uint64 (stat (f, "catch-up-frames"), 0);
}

GST_START_TEST (test_sync_sink_in_thread)
{
  Fixture f;
  guint i;

  senders_fixture_init (&f);
  sync_sink_install (&f, 60 * MS);

  /* frame 0: each push is held until its slot + 60 ms.  The sink keeps
   * the spacing; the element, blocked, pushes every later slot at once */
  push_frame (&f, 0, 10, 1000);
  for (i = 0; i < 10; i++)
    crank_synced_slot (&f, i * DT, 60 * MS + i * DT, 0, i * DT);
  /* not the element's lateness */
  fail_unless_equals_uint64 (stat (&f, "late-slots"), 0);
  fail_unless_equals_uint64 (stat (&f, "max-lateness"), 0);

  /* from frame 1 on: due 60 ms after its timestamp, DTS = slot - 60 ms,
   * and the sink's wait is exactly the element's slot */
  crank_synced_frames (&f, 1, 4, 60 * MS);
  /* frame 1 began after the task had noted all of frame 0's pushes */
  check_synced_stats (&f, 60 * MS);
  fail_unless_equals_uint64 (stat (&f, "frames"), 4);

  /* the pipeline's latency changes (a new LATENCY event): the next
   * frame takes it, without a held push */
  sync_sink_set_latency (&f, 80 * MS);
  crank_synced_frames (&f, 4, 6, 80 * MS);
  check_synced_stats (&f, 80 * MS);
  fixture_clear (&f);
}

GST_END_TEST;

/* With release-ahead and a synchronising sink in the thread, the element
 * hands every slot over at once and the sink waits for each: the packets
 * still leave at their slots (frame 0 held 60 ms by the sink as without
 * release-ahead, later frames with DTS = slot - 60 ms), and the element's
 * own clock never wakes it. */
GST_START_TEST (test_sync_sink_release_ahead)
{
  Fixture f;
  guint i, frame;

  senders_fixture_init (&f);
  g_object_set (f.h->element, "release-ahead", PERIOD, NULL);
  sync_sink_install (&f, 60 * MS);
  for (frame = 0; frame < 3; frame++) {
    GstClockTime slot0 = frame * PERIOD + 60 * MS;

    push_frame (&f, frame, 10, 1000);
    for (i = 0; i < 10; i++) {
      expect_wait (&f, slot0 + i * DT);
      pull_with_times (&f, frame * PERIOD, frame * PERIOD + i * DT);
    }
  }
  check_synced_stats (&f, 60 * MS);
  fail_unless_equals_uint64 (stat (&f, "wakeups"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* A synchronising sink with a ts-offset announces 60 ms and holds each
 * packet 60 ms + the offset after its DTS.  Frame 0 is paced by the sink;
 * its first two pushes, held alike, tell the element the sum, and from
 * frame 1 on the element's wait is the sink's release. */
GST_START_TEST (test_sync_sink_ts_offset)
{
  static const GstClockTimeDiff offsets[] = { 20 * MS, -20 * MS };
  guint i, k;

  for (k = 0; k < G_N_ELEMENTS (offsets); k++) {
    GstClockTime held = 60 * MS + offsets[k];
    Fixture f;

    senders_fixture_init (&f);
    sync_sink_install (&f, 60 * MS);
    sync_sink.ts_offset = offsets[k];
    push_frame (&f, 0, 10, 1000);
    for (i = 0; i < 10; i++)
      crank_synced_slot (&f, i * DT, held + i * DT, 0, i * DT);
    crank_synced_frames (&f, 1, 4, held);
    fail_unless_equals_uint64 (stat (&f, "sink-latency"), held);
    /* all but the first push of frame 0; the second slot, reached when
     * that push returned, is the element's one late slot: it did not know
     * the sink yet */
    fail_unless_equals_uint64 (stat (&f, "held-slots"), 9);
    fail_unless_equals_uint64 (stat (&f, "late-slots"), 1);
    fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 0);
    fixture_clear (&f);
  }
}

GST_END_TEST;

/* 1012-byte packets (1000 of payload) take 5 ms each at this group rate. */
#define RATE_5MS (G_GUINT64_CONSTANT (8) * 1012 * 200)

/* A synchronising sink in the element's thread, and a group whose rate is
 * below the slots'.  While the sink holds the first frame's pushes, they
 * keep their slots and the sink paces them (their bytes are booked, without
 * waiting, so that the next frame waits for the link); the element takes the sink's
 * latency from the next frame on, and then a push the link has no room for
 * yet waits for it and leaves with the DTS of when it gets it minus that
 * latency, so the sink's wait ends at once.  Before, such pushes booked
 * from when their held thread reached them and got that as their DTS, the
 * sink held them again, and a hold was judged against the slot time
 * instead of the DTS: the latency was never taken and every push was held
 * (27 packets in 4 s for H.264 behind rtpbin). */
GST_START_TEST (test_sync_sink_with_group_rate)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  Fixture f = { 0 };
  guint i;

  g_object_set (e, "slot-jitter", 0.0, "group", "senders",
      "group-max-rate", RATE_5MS, NULL);
  f.h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  f.clock = gst_harness_get_testclock (f.h);
  f.seq_in = f.seq_out = 65530;
  gst_harness_set_src_caps_str (f.h, CAPS_25);
  test_announce_handover (f.h->sinkpad);
  sync_sink_install (&f, 60 * MS);

  /* frame 0, before the element knows the sink: every push is held until
   * its DTS + 60 ms.  Once the sink paces the frame so, its pushes keep
   * their slots (slot i at i DT) and do not wait for the rate, as without
   * a group; their bytes are booked all the same, from when each push
   * begins, and the link is taken from when each push returned (slot 0,
   * booked at 0 before the sink was known, left when the sink let it go at
   * 60 ms: the link is taken until 65 ms; slot i >= 1 begins at
   * 60 + (i - 1) DT ms, when the push before it returns, and books 5 ms
   * after the bookings before it): the link is taken until
   * 65 + 5 * 9 = 110 ms */
  push_frame (&f, 0, 10, 1000);
  for (i = 0; i < 10; i++)
    crank_synced_slot (&f, i * DT, 60 * MS + i * DT, 0, i * DT);
  /* frame 1, due at 40 + 60 ms, knows the sink: slot i at 100 ms + i DT;
   * the link (5 ms a packet) is free at 110 ms, then later than each
   * slot: slot i waits for it until 110 + 5i ms, DTS that - 60 ms, and the
   * sink's wait ends at once */
  push_frame (&f, 1, 10, 1000);
  for (i = 0; i < 10; i++) {
    expect_wait (&f, 100 * MS + i * DT);
    crank_synced_slot (&f, 110 * MS + i * 5 * MS, 110 * MS + i * 5 * MS,
        PERIOD, 50 * MS + i * 5 * MS);
  }
  fail_unless_equals_uint64 (stat (&f, "sink-latency"), 60 * MS);
  fail_unless_equals_uint64 (stat (&f, "group-rate-waits"), 10);
  fail_unless_equals_uint64 (stat (&f, "held-slots"), 10);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_clocksync_in_thread)
{
  Fixture f;
  GstQuery *q;
  guint i;

  /* like the clocksync behind each of webrtcbin's sink pads: it holds
   * each buffer until its DTS + the upstream latency its LATENCY query
   * returned (40 ms, which the element passes on), while the pipeline's
   * LATENCY event says 0 (webrtcbin's nicesink does not synchronise) */
  senders_fixture_init (&f);
  gst_harness_set_upstream_latency (f.h, 40 * MS);
  sync_element_install (&f, 40 * MS);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (f.h->sinkpad, q));
  gst_query_unref (q);
  fail_unless (gst_harness_push_upstream_event (f.h,
          gst_event_new_latency (0)));

  push_frame (&f, 0, 10, 1000);
  for (i = 0; i < 10; i++)
    crank_synced_slot (&f, i * DT, 40 * MS + i * DT, 0, i * DT);
  crank_synced_frames (&f, 1, 3, 40 * MS);
  check_synced_stats (&f, 40 * MS);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_latency_without_hold)
{
  Fixture f;
  guint i, frame;

  /* a LATENCY event from a sink that does not hold the element's thread
   * (sync=false in a pipeline whose other sinks synchronise, or a sink
   * behind a queue): frames stay due at their timestamp, DTS = slot */
  senders_fixture_init (&f);
  fail_unless (gst_harness_push_upstream_event (f.h,
          gst_event_new_latency (60 * MS)));
  for (frame = 0; frame < 3; frame++) {
    push_frame (&f, frame, 10, 1000);
    for (i = 0; i < 10; i++) {
      expect_wait (&f, frame * PERIOD + i * DT);
      pull_with_times (&f, frame * PERIOD, frame * PERIOD + i * DT);
    }
  }
  fail_unless_equals_uint64 (stat (&f, "sink-latency"), 0);
  fail_unless_equals_uint64 (stat (&f, "held-slots"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_dts_in_stream_time)
{
  Fixture f;
  GstSegment segment;
  guint i;

  /* a segment that starts at 1 s of stream time, 200 ms into the running
   * time: DTS is the stream time whose running time is the slot */
  senders_fixture_init (&f);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = GST_SECOND;
  segment.base = 200 * MS;
  fail_unless (gst_harness_push_event (f.h, gst_event_new_segment (&segment)));
  push_frame_full (&f, 1000, GST_SECOND, 10, 1000, TRUE);
  for (i = 0; i < 10; i++) {
    expect_wait (&f, 200 * MS + i * DT);
    pull_with_times (&f, GST_SECOND, GST_SECOND + i * DT);
  }
  fixture_clear (&f);
}

GST_END_TEST;

GST_START_TEST (test_unpaced_keeps_dts)
{
  Fixture f;
  GstBuffer *in, *out;

  /* ΔT unknown: the frame leaves as it came, timestamps untouched */
  fixture_init (&f, CAPS_BASE, NULL);
  in = test_rtp_packet (1, 1000, TRUE, 500, 5 * MS);
  GST_BUFFER_DTS (in) = 3 * MS;
  fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  out = gst_harness_pull (f.h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 5 * MS);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (out), 3 * MS);
  gst_buffer_unref (out);
  fail_unless_equals_uint64 (stat (&f, "unpaced-frames"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

/* --- what gst-rtsp-server reads from the element named pay0 ------------- */

GST_START_TEST (test_payloader_info)
{
  Fixture f;
  GstStructure *s;
  guint pt, seqnum, ts, u;
  guint64 rt;

  fixture_init (&f, CAPS_25, NULL);
  /* from the caps until packets left */
  g_object_get (f.h->element, "pt", &pt, NULL);
  fail_unless_equals_int (pt, 96);
  s = get_stats (&f);
  fail_unless (gst_structure_get_uint (s, "clock-rate", &u));
  fail_unless_equals_int (u, 90000);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &rt));
  fail_unless_equals_uint64 (rt, GST_CLOCK_TIME_NONE);
  gst_structure_free (s);

  push_frame (&f, 0, 3, 1000);
  crank_frame (&f, 0, 12 * MS, 3, 1);
  push_frame (&f, 1, 3, 1000);
  crank_frame (&f, PERIOD, 12 * MS, 3, 1);
  wait_queue_empty (&f);

  /* the last packet released: seqnums 65530 ... 65535 */
  g_object_get (f.h->element, "pt", &pt, "seqnum", &seqnum, "timestamp",
      &ts, NULL);
  fail_unless_equals_int (pt, 96);
  fail_unless_equals_int (seqnum, 65535);
  fail_unless_equals_int (ts, 1000 + 3600);
  s = get_stats (&f);
  fail_unless (gst_structure_get_uint (s, "seqnum", &u));
  fail_unless_equals_int (u, 65535);
  fail_unless (gst_structure_get_uint (s, "seqnum-offset", &u));
  fail_unless_equals_int (u, 65530);
  fail_unless (gst_structure_get_uint (s, "timestamp", &u));
  fail_unless_equals_int (u, 1000 + 3600);
  fail_unless (gst_structure_get_uint (s, "ssrc", &u));
  fail_unless_equals_int (u, 0x12345678);
  fail_unless (gst_structure_get_uint (s, "pt", &u));
  fail_unless_equals_int (u, 96);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &rt));
  fail_unless_equals_uint64 (rt, PERIOD);
  gst_structure_free (s);
  fixture_clear (&f);
}

GST_END_TEST;

static guint
get_uint (GstElement * e, const gchar * name)
{
  guint v;

  g_object_get (e, name, &v, NULL);
  return v;
}

GST_START_TEST (test_payloader_properties_forwarded)
{
  GstElement *pipeline, *pay, *pace, *bin;
  gint offset;

  /* mtu and seqnum-offset go to the payloader before the element */
  pipeline = gst_parse_launch ("rtpvrawpay name=pay pt=100 mtu=1400 ! "
      "rtpburstpace name=pace ! fakesink", NULL);
  fail_unless (pipeline != NULL);
  pay = gst_bin_get_by_name (GST_BIN (pipeline), "pay");
  pace = gst_bin_get_by_name (GST_BIN (pipeline), "pace");
  fail_unless_equals_int (get_uint (pace, "mtu"), 1400);
  g_object_set (pace, "mtu", 1200, "seqnum-offset", 100, NULL);
  fail_unless_equals_int (get_uint (pay, "mtu"), 1200);
  g_object_get (pay, "seqnum-offset", &offset, NULL);
  fail_unless_equals_int (offset, 100);
  g_object_get (pace, "seqnum-offset", &offset, NULL);
  fail_unless_equals_int (offset, 100);
  /* no caps and no packets yet: the payloader's pt */
  fail_unless_equals_int (get_uint (pace, "pt"), 100);
  gst_object_unref (pay);
  gst_object_unref (pace);
  gst_object_unref (pipeline);

  /* ... also when the payloader sits in a bin behind a ghost pad, and the
   * element in another */
  pipeline = gst_pipeline_new (NULL);
  bin = gst_parse_bin_from_description ("rtpvrawpay name=pay mtu=1300", TRUE,
      NULL);
  pay = gst_bin_get_by_name (GST_BIN (bin), "pay");
  gst_bin_add (GST_BIN (pipeline), bin);
  pace = gst_parse_bin_from_description ("rtpburstpace name=pace", TRUE,
      NULL);
  gst_bin_add (GST_BIN (pipeline), pace);
  fail_unless (gst_element_link (bin, pace));
  bin = pace;
  pace = gst_bin_get_by_name (GST_BIN (bin), "pace");
  fail_unless_equals_int (get_uint (pace, "mtu"), 1300);
  g_object_set (pace, "mtu", 1000, NULL);
  fail_unless_equals_int (get_uint (pay, "mtu"), 1000);
  gst_object_unref (pay);
  gst_object_unref (pace);
  gst_object_unref (pipeline);

  /* nothing upstream: the defaults, and a set that changes nothing */
  pace = gst_element_factory_make ("rtpburstpace", NULL);
  g_object_set (pace, "mtu", 1000, NULL);
  fail_unless_equals_int (get_uint (pace, "mtu"), 0);
  fail_unless_equals_int (get_uint (pace, "pt"), 0);
  g_object_get (pace, "seqnum-offset", &offset, NULL);
  fail_unless_equals_int (offset, -1);
  gst_object_unref (pace);
}

GST_END_TEST;

static Suite *
rtpburstpace_senders_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-senders");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_sync_sink_in_thread);
  tcase_add_test (tc, test_sync_sink_with_group_rate);
  tcase_add_test (tc, test_sync_sink_ts_offset);
  tcase_add_test (tc, test_sync_sink_release_ahead);
  tcase_add_test (tc, test_clocksync_in_thread);
  tcase_add_test (tc, test_latency_without_hold);
  tcase_add_test (tc, test_dts_in_stream_time);
  tcase_add_test (tc, test_unpaced_keeps_dts);
  tcase_add_test (tc, test_payloader_info);
  tcase_add_test (tc, test_payloader_properties_forwarded);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_senders);
