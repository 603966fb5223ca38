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

/* Repair packets through the element (rtpburstrepair.h): packets of
 * another payload type than the caps' payload, as rtprtxsend puts them
 * beside the media behind rtpbin, leave one at a time half way between the
 * media's slots, on the test clock. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rtpburstpace-fixture.h"

#define US (G_GUINT64_CONSTANT (1000))
#define DT (3600 * US)          /* 36 ms / 10 packets */
#define RTX_PT 97

/* A retransmission as rtprtxsend makes it: its own payload type, SSRC and
 * sequence numbers, the RTP timestamp of the frame it repairs. */
static GstBuffer *
rtx_packet_sized (guint16 seq, GstClockTime pts, guint payload_len)
{
  GstBuffer *buf = test_rtp_packet (seq, 1000, FALSE, payload_len, pts);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp));
  gst_rtp_buffer_set_payload_type (&rtp, RTX_PT);
  gst_rtp_buffer_set_ssrc (&rtp, 0x0badf00d);
  gst_rtp_buffer_unmap (&rtp);
  return buf;
}

/* The fixture, with the hand-over of buffers from the element's thread to
 * the test announced to ThreadSanitizer (the test reads their DTS). */
static void
repair_fixture_init_capped (Fixture * f, const gchar * caps, guint64 max_rate)
{
  fixture_init (f, caps, "max-rate", max_rate, NULL);
  test_announce_handover (f->h->sinkpad);
}

static void
repair_fixture_init (Fixture * f, const gchar * caps)
{
  repair_fixture_init_capped (f, caps, 0);
}

/* Waits for the element's next clock wait at @expected, releases it and
 * checks that one packet of payload type @pt came out, with that DTS. */
static void
crank_one (Fixture * f, GstClockTime expected, guint pt, guint16 seq)
{
  GstClockID id;
  GstBuffer *buf;
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  gst_test_clock_wait_for_next_pending_id (f->clock, &id);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f->h), 0);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), expected);
  gst_clock_id_unref (id);
  fail_unless (gst_harness_crank_single_clock_wait (f->h));
  buf = gst_harness_pull (f->h);
  TEST_TSAN_ACQUIRE (buf);
  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  fail_unless_equals_int (gst_rtp_buffer_get_payload_type (&rtp), pt);
  fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), seq);
  gst_rtp_buffer_unmap (&rtp);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), expected);
  gst_buffer_unref (buf);
}

/* Media seq @seq of frame 0 at slot @j. */
#define MEDIA(f, j) crank_one (f, (j) * DT, 96, (guint16) (65530 + (j)))
#define REPAIR(f, t, k) crank_one (f, t, RTX_PT, (guint16) (5000 + (k)))

/* Pushes @n retransmissions of @payload_len bytes (seq 5000 + @first ...)
 * at the clock's time, as rtprtxsend pushes a NACK's worth. */
static void
push_retransmissions (Fixture * f, guint first, guint n, guint payload_len)
{
  guint k;

  for (k = first; k < first + n; k++)
    fail_unless_equals_int (gst_harness_push (f->h, rtx_packet_sized (5000 + k,
                0, payload_len)), GST_FLOW_OK);
}

/* Frame 0 of 10 packets, its first slot released, then @n retransmissions
 * pushed at 1 ms (seq 5000 ...), as rtprtxsend pushes a NACK's worth. */
static void
start_frame_and_retransmissions (Fixture * f, const gchar * caps, guint n)
{
  repair_fixture_init (f, caps);
  push_frame (f, 0, 10, 1000);
  MEDIA (f, 0);
  gst_test_clock_set_time (f->clock, 1 * MS);
  push_retransmissions (f, 0, n, 1002);
}

GST_START_TEST (test_repair_between_media_slots)
{
  Fixture f;

  /* a NACK for three packets: rtprtxsend pushes their retransmissions at
   * once, 1 ms into the frame, while the element waits for the slot at
   * 3.6 ms; without the element they would leave as one burst */
  start_frame_and_retransmissions (&f, CAPS_25, 3);
  /* each half way between two media slots, one per Δt */
  REPAIR (&f, DT / 2, 0);
  MEDIA (&f, 1);
  REPAIR (&f, DT + DT / 2, 1);
  MEDIA (&f, 2);
  REPAIR (&f, 2 * DT + DT / 2, 2);
  MEDIA (&f, 3);
  f.seq_out += 4;
  crank_frame (&f, 4 * DT, DT, 6, 1);

  /* they made no frames of their own and are counted apart */
  fail_unless_equals_uint64 (stat (&f, "frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "packets"), 10);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 3);
  fail_unless_equals_uint64 (stat (&f, "repair-bytes"), 3 * (12 + 1002));
  fail_unless_equals_uint64 (stat (&f, "repair-overruns"), 0);
  /* the last one came at 1 ms and left at 9 ms */
  fail_unless_equals_uint64 (stat (&f, "repair-max-delay"),
      2 * DT + DT / 2 - 1 * MS);
  fail_unless_equals_uint64 (stat (&f, "repair-queued"), 0);
  fail_unless_equals_uint64 (stat (&f, "catch-up-frames"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* pace-other-payloads=false: the retransmissions leave as they come, at
 * 1 ms, before the media's next slot, still counted apart. */
GST_START_TEST (test_repair_passed_as_they_come)
{
  Fixture f;
  guint k;

  repair_fixture_init (&f, CAPS_25);
  g_object_set (f.h->element, "pace-other-payloads", FALSE, NULL);
  push_frame (&f, 0, 10, 1000);
  MEDIA (&f, 0);
  gst_test_clock_set_time (f.clock, 1 * MS);
  push_retransmissions (&f, 0, 3, 1002);
  for (k = 0; k < 3; k++) {
    GstBuffer *buf = gst_harness_pull (f.h);
    GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

    TEST_TSAN_ACQUIRE (buf);
    fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
    fail_unless_equals_int (gst_rtp_buffer_get_payload_type (&rtp), RTX_PT);
    fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), 5000 + k);
    gst_rtp_buffer_unmap (&rtp);
    /* no clock wait: they left when they came */
    fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), 1 * MS);
    gst_buffer_unref (buf);
  }
  MEDIA (&f, 1);
  f.seq_out += 2;
  crank_frame (&f, 2 * DT, DT, 8, 1);
  fail_unless_equals_uint64 (stat (&f, "frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "packets"), 10);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 3);
  fail_unless_equals_uint64 (stat (&f, "repair-max-delay"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* A cap with room to spare (100 Mbit/s) changes nothing: the repair
 * packets leave half way between the media's slots, and the media's
 * slots do not move. */
GST_START_TEST (test_repair_loose_cap)
{
  Fixture f;

  repair_fixture_init_capped (&f, CAPS_25, 100000000);
  push_frame (&f, 0, 10, 1000);
  MEDIA (&f, 0);
  gst_test_clock_set_time (f.clock, 1 * MS);
  push_retransmissions (&f, 0, 2, 1002);
  REPAIR (&f, DT / 2, 0);
  MEDIA (&f, 1);
  REPAIR (&f, DT + DT / 2, 1);
  f.seq_out += 2;
  crank_frame (&f, 2 * DT, DT, 8, 1);
  fail_unless_equals_uint64 (stat (&f, "spread-frames"), 0);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 2);
  fixture_clear (&f);
}

GST_END_TEST;

/* A frame the cap holds to it (8.08 Mbit/s: 40 packets of 1212 bytes
 * need 48 ms, more than the 36 ms of duty * ΔT) has its slots back to
 * back, 1.2 ms apart, with no room between them.  Retransmissions do not
 * wait behind them (until their bound, a frame period): each leaves once
 * the link has carried the last media slot, together with the next one,
 * which keeps its time. */
#define CAP_SLOT (1200 * US)

GST_START_TEST (test_repair_under_cap)
{
  Fixture f;

  repair_fixture_init_capped (&f, CAPS_25, 8080000);
  push_frame (&f, 0, 40, 1200);
  MEDIA (&f, 0);
  gst_test_clock_set_time (f.clock, 500 * US);
  push_retransmissions (&f, 0, 2, 1200);
  /* once the link has carried media slot 0 at the cap: with slot 1 */
  REPAIR (&f, CAP_SLOT, 0);
  crank_one (&f, CAP_SLOT, 96, 65531);
  /* its own 1.2 ms later: with slot 2 */
  REPAIR (&f, 2 * CAP_SLOT, 1);
  crank_one (&f, 2 * CAP_SLOT, 96, 65532);
  /* the media's slots 3 ... 39 where they were */
  f.seq_out += 3;
  crank_frame (&f, 3 * CAP_SLOT, CAP_SLOT, 37, 1);
  fail_unless_equals_uint64 (stat (&f, "spread-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 2);
  fail_unless_equals_uint64 (stat (&f, "repair-overruns"), 0);
  fail_unless_equals_uint64 (stat (&f, "repair-max-delay"),
      2 * CAP_SLOT - 500 * US);
  fixture_clear (&f);
}

GST_END_TEST;

/* Between frames (duty 0.9) and before EOS: a repair packet still keeps
 * its distance from the last media slot and from the one before it, and
 * leaves before an event queued after it. */
GST_START_TEST (test_repair_between_frames_and_eos)
{
  Fixture f;

  repair_fixture_init (&f, CAPS_25);
  push_frame (&f, 0, 10, 1000);
  crank_frame (&f, 0, DT, 10, 1);
  /* the last slot was at 32.4 ms; two retransmissions come at 32.9 ms */
  gst_test_clock_set_time (f.clock, 32900 * US);
  push_retransmissions (&f, 0, 2, 1002);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  REPAIR (&f, 9 * DT + DT / 2, 0);
  REPAIR (&f, 9 * DT + DT / 2 + DT, 1);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 2);
  /* then the EOS */
  {
    GstEvent *ev;

    while ((ev = gst_harness_pull_event (f.h)) &&
        GST_EVENT_TYPE (ev) != GST_EVENT_EOS)
      gst_event_unref (ev);
    fail_unless (ev != NULL);
    gst_event_unref (ev);
  }
  fixture_clear (&f);
}

GST_END_TEST;

/* A repair packet does not overtake a barrier event queued before it
 * (here a sticky custom event, behind the rest of a frame): it leaves after
 * the event, Δt/2 after the frame's last slot. */
GST_START_TEST (test_repair_after_event)
{
  Fixture f;
  GstEvent *ev;
  gboolean custom = FALSE;

  repair_fixture_init (&f, CAPS_25);
  push_frame (&f, 0, 10, 1000);
  MEDIA (&f, 0);
  fail_unless (gst_harness_push_event (f.h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM_STICKY,
              gst_structure_new_empty ("marker"))));
  gst_test_clock_set_time (f.clock, 1 * MS);
  push_retransmissions (&f, 0, 1, 1002);
  f.seq_out++;
  crank_frame (&f, DT, DT, 9, 1);
  REPAIR (&f, 9 * DT + DT / 2, 0);
  while ((ev = gst_harness_try_pull_event (f.h))) {
    custom |= GST_EVENT_TYPE (ev) == GST_EVENT_CUSTOM_DOWNSTREAM_STICKY;
    gst_event_unref (ev);
  }
  fail_unless (custom);
  fixture_clear (&f);
}

GST_END_TEST;

/* A tag (an encoder sends one at each change of its bit rate) and a
 * notification such as GstForceKeyUnit say nothing about how the packets
 * after them are read: a repair packet queued after them takes its turn
 * half way between the media's slots, ahead of the events and the rest of
 * the frame before them, which leave in their order. */
GST_START_TEST (test_repair_past_tag_and_notification)
{
  Fixture f;
  GstEvent *ev;
  guint tags = 0, notes = 0;

  repair_fixture_init (&f, CAPS_25);
  push_frame (&f, 0, 10, 1000);
  MEDIA (&f, 0);
  fail_unless (gst_harness_push_event (f.h,
          gst_event_new_tag (gst_tag_list_new (GST_TAG_BITRATE, 2000000,
                  NULL))));
  fail_unless (gst_harness_push_event (f.h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new ("GstForceKeyUnit", "all-headers",
                  G_TYPE_BOOLEAN, TRUE, "count", G_TYPE_UINT, 1, NULL))));
  gst_test_clock_set_time (f.clock, 1 * MS);
  push_retransmissions (&f, 0, 1, 1002);
  REPAIR (&f, DT / 2, 0);
  /* the events still wait behind the frame */
  while ((ev = gst_harness_try_pull_event (f.h))) {
    fail_if (GST_EVENT_TYPE (ev) == GST_EVENT_TAG ||
        GST_EVENT_TYPE (ev) == GST_EVENT_CUSTOM_DOWNSTREAM);
    gst_event_unref (ev);
  }
  f.seq_out++;
  crank_frame (&f, DT, DT, 9, 1);
  /* the task pushes them after the frame's last slot: wait for them, in
   * their order (gst_harness_pull_event () waits up to 60 s) */
  while (tags + notes < 2 && (ev = gst_harness_pull_event (f.h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_TAG) {
      fail_unless_equals_int (notes, 0);
      tags++;
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_CUSTOM_DOWNSTREAM) {
      fail_unless_equals_int (tags, 1);
      notes++;
    }
    gst_event_unref (ev);
  }
  fail_unless_equals_int (tags, 1);
  fail_unless_equals_int (notes, 1);
  fail_unless_equals_uint64 (stat (&f, "repair-overruns"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* Without a payload type in the caps the element cannot tell repair
 * packets from media: every packet is media, as before. */
GST_START_TEST (test_repair_needs_caps_payload)
{
  Fixture f;

  start_frame_and_retransmissions (&f, "application/x-rtp, "
      "media=(string)video, clock-rate=(int)90000, encoding-name=(string)RAW, "
      "a-framerate=(string)25", 1);
  /* frame 0 was closed by its marker: the retransmission, with frame 0's
   * RTP timestamp, is queued as a frame of its own behind it */
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 10);
  fail_unless_equals_uint64 (stat (&f, "repair-queued"), 0);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

/* Before the frame period is known frames leave unpaced, as they come; a
 * repair packet beside such a frame, still open, leaves at once too. */
GST_START_TEST (test_repair_beside_unpaced_frame)
{
  Fixture f;
  GstBuffer *buf;
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  repair_fixture_init (&f, CAPS_BASE);
  push_frame_full (&f, 1000, 0, 1, 1000, FALSE);
  pull_packets (&f, 1);
  push_retransmissions (&f, 0, 1, 1002);
  buf = gst_harness_pull (f.h);
  fail_unless (buf != NULL);
  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  fail_unless_equals_int (gst_rtp_buffer_get_payload_type (&rtp), RTX_PT);
  gst_rtp_buffer_unmap (&rtp);
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat (&f, "unpaced-frames"), 1);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

/* A flush drops queued repair packets and counts them. */
GST_START_TEST (test_repair_flush)
{
  Fixture f;

  start_frame_and_retransmissions (&f, CAPS_25, 3);
  REPAIR (&f, DT / 2, 0);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (TRUE)));
  /* 9 media packets and 2 repair packets were queued */
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 11);
  fail_unless_equals_uint64 (stat (&f, "repair-queued"), 0);
  fail_unless_equals_uint64 (stat (&f, "repair-packets"), 1);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
rtpburstpace_repair_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-repair");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_repair_between_media_slots);
  tcase_add_test (tc, test_repair_passed_as_they_come);
  tcase_add_test (tc, test_repair_loose_cap);
  tcase_add_test (tc, test_repair_under_cap);
  tcase_add_test (tc, test_repair_between_frames_and_eos);
  tcase_add_test (tc, test_repair_after_event);
  tcase_add_test (tc, test_repair_past_tag_and_notification);
  tcase_add_test (tc, test_repair_needs_caps_payload);
  tcase_add_test (tc, test_repair_beside_unpaced_frame);
  tcase_add_test (tc, test_repair_flush);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_repair);
