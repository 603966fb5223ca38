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

/* Unit tests of rtpburstsinkhold.c: when a synchronising sink downstream is
 * detected, and which offset frames get. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstsinkhold.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))

GST_START_TEST (test_no_latency_no_offset)
{
  RtpBurstSinkHold h;

  rtp_burst_sink_hold_init (&h);
  /* without a LATENCY event a long push is just slow */
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 60 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);
  fail_unless_equals_uint64 (h.n_held, 0);
}

GST_END_TEST;

GST_START_TEST (test_held_push_sets_offset)
{
  RtpBurstSinkHold h;
  guint64 release;

  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  /* the latency alone changes nothing: a sync=false sink forwards it too */
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);

  /* slot 0 at 0, pushed 50 us late, released by the sink at 0 + 60 ms
   * (plus its own 100 us wake-up) */
  fail_unless (rtp_burst_sink_hold_push_done (&h, 0, 0, 50 * US,
          60 * MS + 100 * US, NULL));
  /* slot 1 at 3.6 ms: pushed when the first push returned, held 3.6 ms;
   * the sink was to release it at 63.6 ms */
  release = 0;
  fail_unless (rtp_burst_sink_hold_push_done (&h, 3600 * US, 0,
          60 * MS + 100 * US, 63600 * US, &release));
  fail_unless_equals_uint64 (release, 63600 * US);
  fail_unless_equals_uint64 (h.n_held, 2);
  /* the frame in flight keeps its offset; the next one takes the latency */
  fail_unless_equals_uint64 (h.offset, 0);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 60 * MS);

  /* with the offset, the sink's wait ends at once: not held */
  fail_if (rtp_burst_sink_hold_push_done (&h, 100 * MS, 60 * MS,
          100 * MS + 50 * US, 100 * MS + 70 * US, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 60 * MS);
  fail_unless_equals_uint64 (h.n_held, 2);
}

GST_END_TEST;

GST_START_TEST (test_not_held)
{
  RtpBurstSinkHold h;

  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  /* shorter than RTP_BURST_HOLD_MIN */
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 10 * MS,
          10 * MS + 999 * US, NULL));
  /* long, but ending far from where a sink with 60 ms would release it:
   * a stall, not a sink */
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 10 * MS,
          40 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 10 * MS,
          70 * MS + 5 * MS + 1, NULL));
  /* ending at the release time, but the push began less than 1 ms before
   * it: the sink had (almost) nothing to wait for */
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 69500 * US,
          71 * MS, NULL));
  /* at the edges of the window it counts */
  fail_unless (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 10 * MS,
          69 * MS, NULL));
  fail_unless (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 10 * MS,
          75 * MS, NULL));
  fail_unless_equals_uint64 (h.n_held, 2);
  /* absurd times are not held, and do not overflow */
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 20 * MS, 0, 60 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, G_MAXUINT64 - 1, 0, 0,
          G_MAXUINT64 - 1, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 60 * MS, 0, NULL));
}

GST_END_TEST;

GST_START_TEST (test_latency_changes)
{
  RtpBurstSinkHold h;

  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  fail_unless (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 60 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 60 * MS);
  /* a new latency while the offset is in use: taken at the next frame,
   * larger or smaller */
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 80 * MS);
  fail_unless_equals_uint64 (h.offset, 60 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 80 * MS);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 30 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 30 * MS);
  /* a held push judged against the frame's own offset: the sink with
   * 30 ms releases slot 200 ms of a frame planned with 80 ms at 150 ms */
  fail_unless (rtp_burst_sink_hold_push_done (&h, 200 * MS, 80 * MS,
          120 * MS, 150 * MS, NULL));
  /* the offset is the latency, never more: held pushes do not add up */
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 30 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 30 * MS);
  /* a LATENCY event without a time is kept as unknown */
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, G_MAXUINT64);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 60 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 30 * MS);
}

GST_END_TEST;

GST_START_TEST (test_query_latency)
{
  RtpBurstSinkHold h;

  /* a clocksync downstream (webrtcbin) adds what the element answered to
   * the LATENCY query, 40 ms; the pipeline latency of the LATENCY event is
   * 0 there (its sink does not synchronise) */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 0);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_QUERY, 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);
  fail_unless (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 40 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 40 * MS);
  /* R follows the query's value, not the event's */
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 90 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 40 * MS);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_QUERY, 50 * MS);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 50 * MS);

  /* a sink with both known: the push ends at 60 ms, the event's value;
   * the query's 40 ms does not match */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_QUERY, 40 * MS);
  fail_unless (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 60 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 60 * MS);
  /* a push that ends at neither is not held */
  fail_if (rtp_burst_sink_hold_push_done (&h, 100 * MS, 60 * MS, 100 * MS,
          150 * MS, NULL));
}

GST_END_TEST;

GST_START_TEST (test_slow_downstream_never_grows)
{
  RtpBurstSinkHold h;
  guint64 slot, offset = 0;
  guint i;

  /* a downstream that takes 3 ms per push (no synchronisation), with a
   * latency of 3 ms known: the first push looks held, R becomes 3 ms and
   * stays there however long this goes on */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 3 * MS);
  for (i = 0; i < 100; i++) {
    slot = i * 40 * MS + offset;
    rtp_burst_sink_hold_push_done (&h, slot, offset, slot, slot + 3 * MS, NULL);
    offset = rtp_burst_sink_hold_frame_start (&h);
    fail_unless (offset <= 3 * MS);
  }
  fail_unless_equals_uint64 (offset, 3 * MS);
}

GST_END_TEST;

GST_START_TEST (test_sink_ts_offset)
{
  RtpBurstSinkHold h;
  guint64 release = 0;

  /* a sink that announces 60 ms and holds 20 ms more (ts-offset): frame 0
   * planned with R = 0, slot 0 at 0 and slot 1 at 3.6 ms (reached when
   * the first push returned) both end 80 ms after their DTS */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 80 * MS, NULL));
  fail_unless (rtp_burst_sink_hold_push_done (&h, 3600 * US, 0, 80 * MS,
          83600 * US, &release));
  fail_unless_equals_uint64 (release, 83600 * US);
  /* the rest of the frame matches it as it would a known latency */
  fail_unless (rtp_burst_sink_hold_push_done (&h, 7200 * US, 0, 83600 * US,
          87200 * US, NULL));
  fail_unless_equals_uint64 (h.n_held, 2);
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 80 * MS);
  /* frame 1 with R = 80 ms: the sink's wait ends at once */
  fail_if (rtp_burst_sink_hold_push_done (&h, 120 * MS, 80 * MS, 120 * MS,
          120 * MS, NULL));
  /* holds it no longer announce do not move R again */
  fail_if (rtp_burst_sink_hold_push_done (&h, 124 * MS, 80 * MS, 124 * MS,
          134 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 128 * MS, 80 * MS, 134 * MS,
          138 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 80 * MS);

  /* a ts-offset below 0: the sink releases 40 ms after the DTS */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 40 * MS, NULL));
  fail_unless (rtp_burst_sink_hold_push_done (&h, 3600 * US, 0, 40 * MS,
          43600 * US, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 40 * MS);

  /* two holds that end at different times after their DTS, or with a
   * short push between them, are no latency */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 80 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 10 * MS, 0, 80 * MS,
          92 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 20 * MS, 0, 92 * MS,
          92500 * US, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 30 * MS, 0, 92500 * US,
          112 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);
  /* ... and the same hold twice is one */
  fail_unless (rtp_burst_sink_hold_push_done (&h, 40 * MS, 0, 112 * MS,
          122 * MS, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 82 * MS);

  /* two holds alike but far from any known latency: a host stall of a
   * few ms, or a sync=false sink that is slow, not a ts-offset */
  rtp_burst_sink_hold_init (&h);
  rtp_burst_sink_hold_set_latency (&h, RTP_BURST_HOLD_EVENT, 60 * MS);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 3 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 3600 * US, 0, 3 * MS,
          6600 * US, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 7200 * US, 0, 7200 * US,
          150 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 10800 * US, 0, 150 * MS,
          153800 * US, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);

  /* without a latency announced, holds are only slow pushes */
  rtp_burst_sink_hold_init (&h);
  fail_if (rtp_burst_sink_hold_push_done (&h, 0, 0, 0, 80 * MS, NULL));
  fail_if (rtp_burst_sink_hold_push_done (&h, 3600 * US, 0, 80 * MS,
          83600 * US, NULL));
  fail_unless_equals_uint64 (rtp_burst_sink_hold_frame_start (&h), 0);
}

GST_END_TEST;

static Suite *
rtpburstsinkhold_suite (void)
{
  Suite *s = suite_create ("rtpburstsinkhold");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_latency_no_offset);
  tcase_add_test (tc, test_held_push_sets_offset);
  tcase_add_test (tc, test_not_held);
  tcase_add_test (tc, test_latency_changes);
  tcase_add_test (tc, test_query_latency);
  tcase_add_test (tc, test_slow_downstream_never_grows);
  tcase_add_test (tc, test_sink_ts_offset);
  return s;
}

GST_CHECK_MAIN (rtpburstsinkhold);
