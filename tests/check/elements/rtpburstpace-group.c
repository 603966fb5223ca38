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
  guint64 base[MAX_STREAMS];    /* each element's base time */
  guint16 seq[MAX_STREAMS];
  guint left[MAX_STREAMS];      /* packets pushed and not yet out */
  GArray *times;                /* guint64 slot clock time * MAX_STREAMS +
                                 * stream */
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

/* Frame @i of stream @k: @n packets of 1000 bytes, due at clock time
 * i ΔT + the first element's base time: timestamp that minus the stream's
 * base time. */
static void
push_frame (Streams * s, guint k, guint i, guint n)
{
  guint j;

  for (j = 0; j < n; j++)
    fail_unless_equals_int (gst_harness_push (s->h[k],
            test_rtp_packet (s->seq[k]++, 1000 + i * 3600, j == n - 1, 1000,
                s->base[0] + i * PERIOD - s->base[k])), GST_FLOW_OK);
  s->left[k] += n;
}

/* Stream @k's element gets base time @base (another pipeline's). */
static void
streams_set_base_time (Streams * s, guint k, guint64 base)
{
  gst_element_set_base_time (s->h[k]->element, base);
  s->base[k] = base;
}

/* Once every stream with packets left waits on the clock, releases the
 * earliest wait; returns its clock time. */
static GstClockTime
crank_next_wait (Streams * s)
{
  GstClockID id;
  GstClockTime t;

  gst_test_clock_wait_for_multiple_pending_ids (s->clock,
      streams_waiting (s), NULL);
  gst_test_clock_wait_for_next_pending_id (s->clock, &id);
  t = gst_clock_id_get_time (id);
  gst_clock_id_unref (id);
  fail_unless (gst_test_clock_crank (s->clock));
  return t;
}

/* Releases the earliest slot of all streams; notes its clock time (the
 * DTS of its packet is the slot's running time: nothing downstream holds
 * pushes). */
static void
crank_earliest (Streams * s)
{
  GstClockTime t = crank_next_wait (s);
  guint k;

  for (;;) {
    for (k = 0; k < s->n; k++) {
      if (gst_harness_buffers_in_queue (s->h[k]) > 0) {
        GstBuffer *buf = gst_harness_pull (s->h[k]);
        guint64 v;

        TEST_TSAN_ACQUIRE (buf);
        v = t * MAX_STREAMS + k;

        fail_unless_equals_uint64 (GST_BUFFER_DTS (buf) + s->base[k], t);
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

/* Clock times of 3 frames of 10 slots from @t0, the grid moved by @phase. */
static void
check_grid_from (GArray * times, guint64 t0, guint64 phase)
{
  guint i, j;

  fail_unless_equals_int (times->len, 30);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 10; j++)
      fail_unless_equals_uint64 (g_array_index (times, guint64, i * 10 + j),
          t0 + i * PERIOD + phase + j * 3600 * US);
}

static void
check_grid (GArray * times, guint64 phase)
{
  check_grid_from (times, 0, phase);
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

/* Members in two pipelines on one clock: their base times differ, their
 * frames are due at the same clock instants.  They place in clock time, so
 * the second stream's slots lie half a slot after the first's, as in one
 * pipeline. */
GST_START_TEST (test_group_base_times_differ)
{
  Streams s;
  GArray *t;

  streams_init (&s, 2, "cameras");
  /* the first pipeline started a second after the second one */
  streams_set_base_time (&s, 0, 2 * GST_SECOND);
  streams_set_base_time (&s, 1, GST_SECOND);
  gst_test_clock_set_time (s.clock, 2 * GST_SECOND);
  run_three_frames (&s);
  t = stream_times (&s, 0);
  check_grid_from (t, 2 * GST_SECOND, 0);
  g_array_unref (t);
  t = stream_times (&s, 1);
  check_grid_from (t, 2 * GST_SECOND, 1800 * US);
  g_array_unref (t);
  fail_unless_equals_int (count_shared (&s), 0);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-phase"),
      1800 * US);
  streams_clear (&s);
}

GST_END_TEST;

/* A member on another clock cannot agree on when a slot is: it is not
 * placed, and says so once on the bus and in its stats. */
GST_START_TEST (test_group_other_clock)
{
  Streams s;
  GstClock *other = gst_test_clock_new ();
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GstClockID id;
  guint i, j;

  streams_init (&s, 2, "cameras");
  gst_element_set_bus (s.h[1]->element, bus);
  gst_element_set_clock (s.h[1]->element, other);
  /* stream 0 places its first frame on the shared clock */
  push_frame (&s, 0, 0, 10);
  crank_earliest (&s);
  /* stream 1's frames wait on the other clock, unplaced: slot j of frame
   * i at i ΔT + j Δt */
  for (i = 0; i < 2; i++) {
    push_frame (&s, 1, i, 10);
    for (j = 0; j < 10; j++) {
      GstBuffer *buf;

      gst_test_clock_wait_for_next_pending_id (GST_TEST_CLOCK (other), &id);
      fail_unless_equals_uint64 (gst_clock_id_get_time (id),
          i * PERIOD + j * 3600 * US);
      gst_clock_id_unref (id);
      fail_unless (gst_test_clock_crank (GST_TEST_CLOCK (other)));
      buf = gst_harness_pull (s.h[1]);
      TEST_TSAN_ACQUIRE (buf);
      gst_buffer_unref (buf);
    }
  }
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-other-clock"),
      2);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-frames"), 0);
  fail_unless_equals_uint64 (test_stat (s.h[1]->element, "group-phase"), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (s.h[1]->element));
  gst_message_unref (msg);
  /* once */
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);
  s.left[1] = 0;
  gst_element_set_bus (s.h[1]->element, NULL);
  gst_object_unref (bus);
  streams_clear (&s);
  gst_object_unref (other);
}

GST_END_TEST;

/* The group is taken from READY to PAUSED: set later it is refused with a
 * warning, and the property says which group is in force. */
GST_START_TEST (test_group_set_while_playing)
{
  Streams s;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  gchar *name;

  streams_init (&s, 2, "cameras");
  gst_element_set_bus (s.h[1]->element, bus);
  g_object_set (s.h[1]->element, "group", "other", NULL);
  g_object_get (s.h[1]->element, "group", &name, NULL);
  fail_unless_equals_string (name, "cameras");
  g_free (name);
  fail_unless_equals_uint64 (test_stat (s.h[0]->element, "group-members"),
      2);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  /* and taken in READY, for the next READY to PAUSED */
  gst_element_set_state (s.h[1]->element, GST_STATE_READY);
  g_object_set (s.h[1]->element, "group", "other", NULL);
  g_object_get (s.h[1]->element, "group", &name, NULL);
  fail_unless_equals_string (name, "other");
  g_free (name);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);
  gst_element_set_bus (s.h[1]->element, NULL);
  gst_object_unref (bus);
  streams_clear (&s);
}

GST_END_TEST;

static gboolean
refuse_activation (GstPad * pad, GstObject * parent)
{
  return FALSE;
}

/* A state change that fails after the element joined its group leaves it
 * in READY, and out of the group. */
GST_START_TEST (test_group_failed_state_change)
{
  GstElement *a = gst_element_factory_make ("rtpburstpace", NULL);
  GstElement *b = gst_element_factory_make ("rtpburstpace", NULL);
  GstPad *sink, *src;

  g_object_set (a, "group", "cameras", NULL);
  g_object_set (b, "group", "cameras", NULL);
  fail_unless_equals_int (gst_element_set_state (a, GST_STATE_PAUSED),
      GST_STATE_CHANGE_NO_PREROLL);
  fail_unless_equals_uint64 (test_stat (a, "group-members"), 1);
  sink = gst_element_get_static_pad (b, "sink");
  gst_pad_set_activate_function (sink, refuse_activation);
  gst_object_unref (sink);
  fail_unless_equals_int (gst_element_set_state (b, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_uint64 (test_stat (a, "group-members"), 1);
  fail_unless_equals_uint64 (test_stat (b, "group-members"), 0);
  /* and no task left running in READY */
  src = gst_element_get_static_pad (b, "src");
  fail_if (GST_PAD_IS_ACTIVE (src));
  fail_if (gst_pad_get_task_state (src) == GST_TASK_STARTED);
  gst_object_unref (src);
  gst_element_set_state (a, GST_STATE_NULL);
  gst_element_set_state (b, GST_STATE_NULL);
  gst_object_unref (a);
  gst_object_unref (b);
}

GST_END_TEST;

/* 1012-byte packets (1000 of payload) take 5 ms each at this rate. */
#define PACKET_BYTES 1012
#define SLOW_RATE (G_GUINT64_CONSTANT (8) * PACKET_BYTES * 200)

/* Cranks the one pending wait of @h's element; returns the buffer it
 * pushed then, or NULL if it went on to wait for the group's rate (a push
 * queues its buffer in the harness before the element waits again). */
static GstBuffer *
crank_one (GstHarness * h, GstTestClock * clock, GstClockTime expect)
{
  GstClockID id;

  gst_test_clock_wait_for_next_pending_id (clock, &id);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), expect);
  gst_clock_id_unref (id);
  fail_unless (gst_test_clock_crank (clock));
  while (gst_harness_buffers_in_queue (h) == 0 &&
      gst_test_clock_peek_id_count (clock) == 0)
    g_usleep (50);
  if (gst_harness_buffers_in_queue (h) > 0) {
    GstBuffer *buf = gst_harness_pull (h);

    TEST_TSAN_ACQUIRE (buf);
    return buf;
  }
  return NULL;
}

/* A harness around a paced member of a group whose rate takes 5 ms a
 * packet, with a frame of 10 packets of 1000 bytes of payload queued. */
static GstHarness *
rate_harness (const gchar * group, GstTestClock ** clock)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  GstHarness *h;
  guint j;

  g_object_set (e, "slot-jitter", 0.0, "group", group, "group-max-rate",
      SLOW_RATE, NULL);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  *clock = gst_harness_get_testclock (h);
  test_announce_handover (h->sinkpad);
  gst_harness_set_src_caps_str (h, CAPS);
  for (j = 0; j < 10; j++)
    fail_unless_equals_int (gst_harness_push (h, test_rtp_packet (j, 1000,
                j == 9, 1000, 0)), GST_FLOW_OK);
  return h;
}

/* A frame of 10 packets spread 3.6 ms apart, in a group whose rate takes
 * 5 ms a packet: slot j waits for its time, then for the rate; the packets
 * leave 5 ms apart, each with the DTS of when it left, and no 10 ms window
 * holds more than the rate allows plus one packet. */
GST_START_TEST (test_group_max_rate_spaces_pushes)
{
  GstTestClock *clock;
  GstHarness *h = rate_harness ("cap", &clock);
  guint64 out[10];
  guint j, n = 0;

  for (j = 0; j < 10; j++) {
    GstBuffer *buf = crank_one (h, clock, j * 3600 * US);

    /* slot 0 has the link to itself; every later one waits for it */
    if (j > 0) {
      fail_unless (buf == NULL);
      buf = crank_one (h, clock, j * 5 * MS);
    }
    fail_unless (buf != NULL);
    out[n++] = GST_BUFFER_DTS (buf);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), j * 5 * MS);
    gst_buffer_unref (buf);
  }
  for (j = 0; j < n; j++) {
    guint k, bytes = 0;

    for (k = j; k < n && out[k] < out[j] + 10 * MS; k++)
      bytes += PACKET_BYTES;
    fail_unless (bytes <= SLOW_RATE / 8 / 100 + PACKET_BYTES);
  }
  fail_unless_equals_uint64 (test_stat (h->element, "group-max-rate"),
      SLOW_RATE);
  fail_unless_equals_uint64 (test_stat (h->element, "group-rate-waits"), 9);
  fail_unless_equals_uint64 (test_stat (h->element, "packets"), 10);
  gst_object_unref (clock);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Packets 2 and 3 (slots 7.2 and 10.8 ms), after packet 1 left at @left:
 * each waits for the link until 5 ms after the previous one left. */
static void
check_link_from (GstHarness * h, GstTestClock * clock, GstClockTime left)
{
  guint j;

  for (j = 2; j < 4; j++) {
    GstClockTime link = left + 5 * MS;
    GstBuffer *buf;

    fail_unless (crank_one (h, clock, j * 3600 * US) == NULL);
    buf = crank_one (h, clock, link);
    fail_unless (buf != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), link);
    gst_buffer_unref (buf);
    left = gst_clock_get_time (GST_CLOCK (clock));
    fail_unless_equals_uint64 (left, link);
  }
  fail_unless_equals_uint64 (test_stat (h->element, "group-rate-waits"), 3);
}

/* As above, but the thread wakes 2 ms late for the second packet's turn on
 * the link (5 ms): it leaves at 7 ms, and the link is taken from then on, so
 * the third packet (slot 7.2 ms) waits until 12 ms, not 10 ms: the packets
 * keep the rate between the times they leave. */
GST_START_TEST (test_group_max_rate_late_wake)
{
  GstTestClock *clock;
  GstHarness *h = rate_harness ("late", &clock);
  GstBuffer *buf;

  buf = crank_one (h, clock, 0);
  fail_unless (buf != NULL);
  gst_buffer_unref (buf);
  fail_unless (crank_one (h, clock, 3600 * US) == NULL);
  /* the wait for the link ends at 5 ms; the thread runs at 7 ms */
  gst_test_clock_set_time (clock, 7 * MS);
  buf = crank_one (h, clock, 5 * MS);
  fail_unless (buf != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), 5 * MS);
  gst_buffer_unref (buf);
  check_link_from (h, clock, 7 * MS);
  gst_object_unref (clock);
  gst_harness_teardown (h);
}

GST_END_TEST;

typedef struct
{
  GstTestClock *clock;
  guint n;
} Holder;

/* Moves the test clock to 7 ms while downstream has the second packet: a
 * push that downstream holds for 2 ms. */
static GstPadProbeReturn
hold_second (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Holder *holder = user_data;

  if (++holder->n == 2)
    gst_test_clock_set_time (holder->clock, 7 * MS);
  return GST_PAD_PROBE_OK;
}

/* The second packet's push takes from 5 to 7 ms (downstream holds it): the
 * link is taken from when it returned, as for a late wake. */
GST_START_TEST (test_group_max_rate_push_held)
{
  GstTestClock *clock;
  GstHarness *h = rate_harness ("held", &clock);
  Holder holder = { clock, 0 };
  GstBuffer *buf;

  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER, hold_second,
      &holder, NULL);
  buf = crank_one (h, clock, 0);
  fail_unless (buf != NULL);
  gst_buffer_unref (buf);
  fail_unless (crank_one (h, clock, 3600 * US) == NULL);
  buf = crank_one (h, clock, 5 * MS);
  fail_unless (buf != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), 5 * MS);
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (gst_clock_get_time (GST_CLOCK (clock)), 7 * MS);
  check_link_from (h, clock, 7 * MS);
  gst_object_unref (clock);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A pass-through member (pace=false) leaves at once, without a clock wait
 * and with its own timestamps, and its bytes take the group's rate: the
 * paced member's slot at 0 waits until the link is free at 5 ms. */
GST_START_TEST (test_group_pass_through_counts_in_rate)
{
  GstElement *p = gst_element_factory_make ("rtpburstpace", NULL);
  GstElement *v = gst_element_factory_make ("rtpburstpace", NULL);
  GstHarness *hp, *hv;
  GstTestClock *clock;
  GstBuffer *buf;

  g_object_set (p, "pace", FALSE, "group", "mixed", "group-max-rate",
      SLOW_RATE, NULL);
  g_object_set (v, "slot-jitter", 0.0, "group", "mixed", NULL);
  hp = gst_harness_new_with_element (p, "sink", "src");
  hv = gst_harness_new_with_element (v, "sink", "src");
  gst_object_unref (p);
  gst_object_unref (v);
  clock = gst_harness_get_testclock (hp);
  gst_element_set_clock (hv->element, GST_CLOCK (clock));
  test_announce_handover (hp->sinkpad);
  test_announce_handover (hv->sinkpad);
  gst_harness_set_src_caps_str (hp, CAPS);
  gst_harness_set_src_caps_str (hv, CAPS);

  fail_unless_equals_int (gst_harness_push (hp, test_rtp_packet (0, 1000,
              TRUE, 1000, 0)), GST_FLOW_OK);
  buf = gst_harness_pull (hp);
  TEST_TSAN_ACQUIRE (buf);
  fail_unless_equals_int (gst_test_clock_peek_id_count (clock), 0);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), 0);
  fail_if (GST_BUFFER_DTS_IS_VALID (buf));
  gst_buffer_unref (buf);

  fail_unless_equals_int (gst_harness_push (hv, test_rtp_packet (0, 1000,
              TRUE, 1000, 0)), GST_FLOW_OK);
  fail_unless (crank_one (hv, clock, 0) == NULL);
  buf = crank_one (hv, clock, 5 * MS);
  fail_unless (buf != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), 5 * MS);
  gst_buffer_unref (buf);
  /* the group takes the smallest rate its members set */
  fail_unless_equals_uint64 (test_stat (hv->element, "group-max-rate"),
      SLOW_RATE);
  fail_unless_equals_uint64 (test_stat (hv->element, "group-rate-waits"), 1);
  fail_unless_equals_uint64 (test_stat (hp->element, "group-rate-waits"), 0);
  fail_unless_equals_uint64 (test_stat (hp->element, "unpaced-pushes"), 1);
  fail_unless_equals_uint64 (test_stat (hp->element, "unpaced-max-delay"), 0);
  gst_object_unref (clock);
  gst_harness_teardown (hv);
  gst_harness_teardown (hp);
}

GST_END_TEST;

/* Releases every packet of every stream, each wait at the earliest pending
 * clock time, with a group rate: a slot's wait may end in a wait for the
 * link rather than a push.  Notes each push as crank_earliest does. */
static void
run_with_rate (Streams * s)
{
  while (streams_waiting (s) > 0) {
    GstClockTime t = crank_next_wait (s);
    guint k, pushed = G_MAXUINT;

    /* the woken task pushes (its buffer is queued before it waits again)
     * or waits again, for the link */
    for (;;) {
      gboolean settled =
          gst_test_clock_peek_id_count (s->clock) >= streams_waiting (s);

      for (k = 0; k < s->n && pushed == G_MAXUINT; k++)
        if (gst_harness_buffers_in_queue (s->h[k]) > 0)
          pushed = k;
      if (pushed != G_MAXUINT || settled)
        break;
      g_usleep (50);
    }
    if (pushed != G_MAXUINT) {
      GstBuffer *buf = gst_harness_pull (s->h[pushed]);
      guint64 v = t * MAX_STREAMS + pushed;

      TEST_TSAN_ACQUIRE (buf);
      fail_unless_equals_uint64 (GST_BUFFER_DTS (buf), t);
      g_array_append_val (s->times, v);
      gst_buffer_unref (buf);
      s->left[pushed]--;
    }
  }
}

/* Slots colliding on a group rate that takes 5 ms a packet: stream 0 (a
 * frame of 10 packets, 3.6 ms apart) is behind the link from its second
 * slot on, each push booked before its turn; stream 1 (one packet) comes
 * in between.  At the same priority its packet waits behind the booked
 * one; at a higher priority it leaves at its slot, before the packet
 * booked earlier, and that one waits for it (its claim, until stream 1's
 * packet has had its 5 ms).  No 10 ms window holds more than the rate
 * allows plus one push. */
GST_START_TEST (test_group_priority_leaves_first)
{
  guint hi_priority;

  for (hi_priority = 0; hi_priority <= 1; hi_priority++) {
    Streams s;
    GArray *lo, *hi;
    guint i, j;

    streams_init (&s, 2, "prio");
    g_object_set (s.h[0]->element, "group-max-rate", SLOW_RATE, NULL);
    g_object_set (s.h[1]->element, "group-priority", hi_priority, NULL);
    push_frame (&s, 0, 0, 10);
    gst_test_clock_wait_for_multiple_pending_ids (s.clock, 1, NULL);
    push_frame (&s, 1, 0, 1);
    run_with_rate (&s);
    lo = stream_times (&s, 0);
    hi = stream_times (&s, 1);
    fail_unless_equals_int (lo->len, 10);
    fail_unless_equals_int (hi->len, 1);
    /* a packet of stream 0 was booked and waiting when stream 1's left */
    fail_unless (g_array_index (hi, guint64, 0) > 5 * MS);
    if (hi_priority == 0) {
      fail_unless_equals_uint64 (test_stat (s.h[1]->element,
              "group-rate-waits"), 1);
    } else {
      fail_unless_equals_uint64 (test_stat (s.h[1]->element,
              "group-rate-waits"), 0);
      fail_unless_equals_uint64 (test_stat (s.h[1]->element,
              "group-rate-max-delay"), 0);
    }
    /* stream 0 leaves at the rate, each packet 5 ms or more after the one
     * before it and after stream 1's */
    for (i = 1; i < lo->len; i++)
      fail_unless (g_array_index (lo, guint64, i) >=
          g_array_index (lo, guint64, i - 1) + 5 * MS);
    for (i = 0, j = 0; i < lo->len; i++) {
      guint64 t = g_array_index (lo, guint64, i);
      guint64 h = g_array_index (hi, guint64, 0);

      if (t > h)
        fail_unless (t >= h + 5 * MS);
      /* at the same priority stream 1's packet waits for the link too:
       * 5 ms or more after the one of stream 0 before it, which then
       * gives up 5 ms once (a gap of 10 ms); at a higher one it leaves at
       * its slot, less than 5 ms after the packet of stream 0 before it,
       * and the one booked before it waits until it has had its time */
      else if (hi_priority == 0)
        fail_unless (h >= t + 5 * MS);
      else
        j += h < t + 5 * MS;
      if (t > h && i > 0 && g_array_index (lo, guint64, i - 1) < h)
        fail_unless_equals_uint64 (t, hi_priority == 0 ? h + 5 * MS :
            MAX (h + 5 * MS, g_array_index (lo, guint64, i - 1) + 5 * MS));
    }
    fail_unless_equals_int (j, hi_priority);
    /* no 10 ms window holds more than the rate allows plus one push */
    for (i = 0; i < s.times->len; i++) {
      guint64 t0 = g_array_index (s.times, guint64, i) / MAX_STREAMS;
      guint n = 0;

      for (j = i; j < s.times->len &&
          g_array_index (s.times, guint64, j) / MAX_STREAMS < t0 + 10 * MS;
          j++)
        n++;
      fail_unless (n * PACKET_BYTES <= SLOW_RATE / 8 / 100 + PACKET_BYTES);
    }
    g_array_unref (lo);
    g_array_unref (hi);
    streams_clear (&s);
  }
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
  tcase_add_test (tc, test_group_base_times_differ);
  tcase_add_test (tc, test_group_other_clock);
  tcase_add_test (tc, test_group_set_while_playing);
  tcase_add_test (tc, test_group_failed_state_change);
  tcase_add_test (tc, test_group_max_rate_spaces_pushes);
  tcase_add_test (tc, test_group_max_rate_late_wake);
  tcase_add_test (tc, test_group_max_rate_push_held);
  tcase_add_test (tc, test_group_pass_through_counts_in_rate);
  tcase_add_test (tc, test_group_priority_leaves_first);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_group);
