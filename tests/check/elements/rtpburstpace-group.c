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

/* Several rtpburstpace elements on one GstTestClock, streams whose frames
 * share their instants: with the same `group` their slots lie between
 * each other's, without it they coincide.  Every slot is released by
 * cranking the clock at the earliest pending wait, once every element
 * that has slots left waits for its next one, so the order of placement
 * and release is the same on every run. */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>

#include "rtpburstpace-common.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))
#define PERIOD (40 * MS)
#define CAPS "application/x-rtp, media=(string)video, " \
    "clock-rate=(int)90000, encoding-name=(string)RAW, payload=(int)96, " \
    "a-framerate=(string)25"
#define MAX_STREAMS 4

typedef struct
{
  guint n;
  GstHarness *h[MAX_STREAMS];
  GstTestClock *clock;          /* the first harness's, used by all */
  guint16 seq[MAX_STREAMS];
  guint left[MAX_STREAMS];      /* packets pushed and not yet out */
  GArray *times;                /* guint64 slot time * MAX_STREAMS + stream */
} Streams;

static void
streams_init (Streams * s, guint n, const gchar * group)
{
  guint k;

  memset (s, 0, sizeof (*s));
  s->n = n;
  s->times = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (k = 0; k < n; k++) {
    GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);

    /* the group is taken from READY to PAUSED: set it first */
    g_object_set (e, "slot-jitter", 0.0, "group", group, NULL);
    s->h[k] = gst_harness_new_with_element (e, "sink", "src");
    gst_object_unref (e);
    if (k == 0)
      s->clock = gst_harness_get_testclock (s->h[0]);
    else
      gst_element_set_clock (s->h[k]->element, GST_CLOCK (s->clock));
    /* the test reads the DTS the element wrote */
    test_announce_handover (s->h[k]->sinkpad);
    gst_harness_set_src_caps_str (s->h[k], CAPS);
  }
}

static void
streams_clear (Streams * s)
{
  guint k;

  for (k = 0; k < s->n; k++)
    gst_harness_teardown (s->h[k]);
  gst_object_unref (s->clock);
  g_array_unref (s->times);
}

static guint
streams_waiting (Streams * s)
{
  guint k, n = 0;

  for (k = 0; k < s->n; k++)
    n += s->left[k] > 0;
  return n;
}

/* Frame @i of stream @k: @n packets of 1000 bytes, timestamp i ΔT. */
static void
push_frame (Streams * s, guint k, guint i, guint n)
{
  guint j;

  for (j = 0; j < n; j++)
    fail_unless_equals_int (gst_harness_push (s->h[k],
            test_rtp_packet (s->seq[k]++, 1000 + i * 3600, j == n - 1, 1000,
                i * PERIOD)), GST_FLOW_OK);
  s->left[k] += n;
}

/* Releases the earliest slot of all streams; notes its time (the DTS of
 * its packet: the slot time, nothing downstream holds pushes). */
static void
crank_earliest (Streams * s)
{
  GstClockID id;
  GstClockTime t;
  guint k;

  gst_test_clock_wait_for_multiple_pending_ids (s->clock,
      streams_waiting (s), NULL);
  gst_test_clock_wait_for_next_pending_id (s->clock, &id);
  t = gst_clock_id_get_time (id);
  gst_clock_id_unref (id);
  fail_unless (gst_test_clock_crank (s->clock));
  for (;;) {
    for (k = 0; k < s->n; k++) {
      if (gst_harness_buffers_in_queue (s->h[k]) > 0) {
        GstBuffer *buf = gst_harness_pull (s->h[k]);
        guint64 v;

        TEST_TSAN_ACQUIRE (buf);
        v = GST_BUFFER_DTS (buf) * MAX_STREAMS + k;

        fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), t);
        g_array_append_val (s->times, v);
        gst_buffer_unref (buf);
        s->left[k]--;
        return;
      }
    }
    g_usleep (100);
  }
}

/* The slot times of stream k, in order. */
static GArray *
stream_times (Streams * s, guint k)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint i;

  for (i = 0; i < s->times->len; i++) {
    guint64 v = g_array_index (s->times, guint64, i);

    if (v % MAX_STREAMS == k) {
      v /= MAX_STREAMS;
      g_array_append_val (out, v);
    }
  }
  return out;
}

/* How many slots left at the same time as one of another stream. */
static guint
count_shared (Streams * s)
{
  guint i, j, n = 0;

  for (i = 0; i < s->times->len; i++)
    for (j = 0; j < s->times->len; j++) {
      guint64 a = g_array_index (s->times, guint64, i);
      guint64 b = g_array_index (s->times, guint64, j);

      if (a % MAX_STREAMS != b % MAX_STREAMS &&
          a / MAX_STREAMS == b / MAX_STREAMS) {
        n++;
        break;
      }
    }
  return n;
}

/* Frames 0..2 of 10 packets on every stream (10 slots of 3.6 ms each);
 * stream k's frame is complete once stream k-1 waits for its first slot,
 * so the streams place their frames in order. */
static void
run_three_frames (Streams * s)
{
  guint i, k;

  for (k = 0; k < s->n; k++) {
    for (i = 0; i < 3; i++)
      push_frame (s, k, i, 10);
    gst_test_clock_wait_for_multiple_pending_ids (s->clock, k + 1, NULL);
  }
  while (streams_waiting (s) > 0)
    crank_earliest (s);
}

static void
check_grid (GArray * times, guint64 phase)
{
  guint i, j;

  fail_unless_equals_int (times->len, 30);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 10; j++)
      fail_unless_equals_uint64 (g_array_index (times, guint64, i * 10 + j),
          i * PERIOD + phase + j * 3600 * US);
}

/* Without a group, streams of one rate with the same frame instants send
 * every packet at the same time: the bursts the group is for. */
GST_START_TEST (test_streams_without_group_coincide)
{
  Streams s;
  GArray *t;

  streams_init (&s, 2, NULL);
  run_three_frames (&s);
  t = stream_times (&s, 1);
  check_grid (t, 0);
  g_array_unref (t);
  fail_unless_equals_int (count_shared (&s), 60);
  fail_unless_equals_uint64 (test_stat (s.h[0]->element, "group-members"),
      0);
  streams_clear (&s);
}

GST_END_TEST;

GST_START_TEST (test_group_two_streams)
{
  Streams s;
  GArray *t;

  streams_init (&s, 2, "cameras");
  fail_unless_equals_uint64 (test_stat (s.h[0]->element, "group-members"),
      2);
  run_three_frames (&s);
  t = stream_times (&s, 0);
  check_grid (t, 0);
  g_array_unref (t);
  /* half a slot later, equation (2) otherwise unchanged */
  t = stream_times (&s, 1);
  check_grid (t, 1800 * US);
  g_array_unref (t);
  fail_unless_equals_int (count_shared (&s), 0);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-frames"), 3);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-phase"),
      1800 * US);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-gap"),
      1800 * US);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element,
          "group-shared-slots"), 0);
  streams_clear (&s);
}

GST_END_TEST;

GST_START_TEST (test_group_four_streams)
{
  Streams s;
  guint i, j, k, used;

  streams_init (&s, 4, "cameras");
  run_three_frames (&s);
  /* in each frame each stream keeps its grid, a quarter slot from the
   * others' (which stream gets which phase follows the order in which the
   * streams finished their previous frames) */
  for (i = 0; i < 3; i++) {
    used = 0;
    for (k = 0; k < 4; k++) {
      GArray *t = stream_times (&s, k);
      guint64 phase = g_array_index (t, guint64, i * 10) - i * PERIOD;

      fail_unless_equals_uint64 (phase % (900 * US), 0);
      fail_unless (phase < 3600 * US);
      fail_if (used & (1 << (phase / (900 * US))));
      used |= 1 << (phase / (900 * US));
      for (j = 0; j < 10; j++)
        fail_unless_equals_uint64 (g_array_index (t, guint64, i * 10 + j),
            i * PERIOD + phase + j * 3600 * US);
      g_array_unref (t);
    }
  }
  fail_unless_equals_int (count_shared (&s), 0);
  streams_clear (&s);
}

GST_END_TEST;

/* Leaving (READY) takes a member off the timeline; a flush forgets its
 * bookings. */
GST_START_TEST (test_group_leave_and_flush)
{
  Streams s;

  streams_init (&s, 2, "cameras");
  gst_element_set_state (s.h[1]->element, GST_STATE_READY);
  fail_unless_equals_uint64 (test_stat (s.h[0]->element, "group-members"),
      1);
  g_object_set (s.h[1]->element, "group", "other", NULL);
  gst_harness_play (s.h[1]);
  fail_unless_equals_uint64 (test_stat (s.h[0]->element, "group-members"),
      1);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-members"),
      1);
  streams_clear (&s);

  /* frame 0 of stream 0 planned, then flushed: stream 1 is not moved */
  streams_init (&s, 2, "cameras");
  push_frame (&s, 0, 0, 10);
  gst_test_clock_wait_for_multiple_pending_ids (s.clock, 1, NULL);
  fail_unless (gst_harness_push_event (s.h[0], gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (s.h[0],
          gst_event_new_flush_stop (TRUE)));
  s.left[0] = 0;
  push_frame (&s, 1, 0, 10);
  crank_earliest (&s);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-phase"), 0);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-gap"),
      G_MAXUINT64);
  streams_clear (&s);
}

GST_END_TEST;

static Suite *
rtpburstpace_group_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-group");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_streams_without_group_coincide);
  tcase_add_test (tc, test_group_two_streams);
  tcase_add_test (tc, test_group_four_streams);
  tcase_add_test (tc, test_group_leave_and_flush);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_group);
