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


/* Unit tests of rtpburstframes.c: frames and events in the order they
 * came, what each frame holds, and the counts of the queue. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstframes.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE

static guint n_freed;

static void
free_item (gpointer data)
{
  n_freed++;
  g_free (data);
}

/* A packet is a guint: its size on the wire. */
static guint
packet_size (gconstpointer packet)
{
  return *(const guint *) packet;
}

static gpointer
packet (guint size)
{
  guint *p = g_new (guint, 1);

  *p = size;
  return p;
}

static RtpBurstFrame *
add (RtpBurstFrames * q, guint size, guint32 rtptime, guint64 arrival)
{
  return rtp_burst_frames_add (q, packet (size), size, size - 12, rtptime,
      arrival + 5 * MS, arrival, FALSE);
}

static void
setup (RtpBurstFrames * q)
{
  n_freed = 0;
  rtp_burst_frames_init (q, free_item, packet_size, free_item);
}

GST_START_TEST (test_frames_assembly)
{
  RtpBurstFrames q;
  RtpBurstFrame *f1, *f2;

  setup (&q);
  fail_if (rtp_burst_frames_ends_open (&q, 100));
  fail_unless (rtp_burst_frames_close (&q, 0) == NULL);

  f1 = add (&q, 1000, 100, 1 * MS);
  fail_unless (add (&q, 800, 100, 2 * MS) == f1);
  fail_if (rtp_burst_frames_ends_open (&q, 100));
  fail_unless (rtp_burst_frames_ends_open (&q, 200));
  fail_unless_equals_int (f1->n_packets, 2);
  fail_unless_equals_uint64 (f1->bytes, 1800);
  fail_unless_equals_uint64 (f1->payload_bytes, 1776);
  fail_unless_equals_uint64 (f1->ts_time, 6 * MS);
  fail_unless_equals_uint64 (f1->first_arrival, 1 * MS);
  fail_unless_equals_uint64 (f1->last_arrival, 2 * MS);
  fail_unless_equals_uint64 (f1->unsent_arrival, 1 * MS);
  fail_unless_equals_uint64 (f1->serial, 1);
  fail_if (f1->closed);
  fail_unless_equals_int (q.n_closed, 0);
  fail_unless_equals_int (q.n_packets, 2);

  fail_unless (rtp_burst_frames_close (&q, 3 * MS) == f1);
  fail_unless (f1->closed);
  fail_unless_equals_uint64 (f1->ready_time, 3 * MS);
  fail_unless_equals_int (q.n_closed, 1);
  fail_if (rtp_burst_frames_ends_open (&q, 200));

  /* a packet after the close opens the next frame, even of the same
   * timestamp */
  f2 = add (&q, 500, 100, 4 * MS);
  fail_unless (f2 != f1);
  fail_unless_equals_uint64 (f2->serial, 2);
  fail_unless (rtp_burst_frames_head (&q) == f1);
  fail_unless_equals_int (q.n_packets, 3);

  fail_unless_equals_int (rtp_burst_frames_flush (&q, NULL, NULL), 3);
  fail_unless_equals_int (n_freed, 3);
  fail_unless (rtp_burst_frames_head (&q) == NULL);
  fail_unless_equals_int (q.n_closed, 0);
  fail_unless_equals_int (q.n_packets, 0);
  /* serials go on after a flush */
  fail_unless_equals_uint64 (add (&q, 500, 300, 5 * MS)->serial, 3);
  rtp_burst_frames_flush (&q, NULL, NULL);
}

GST_END_TEST;

GST_START_TEST (test_frames_take)
{
  RtpBurstFrames q;
  RtpBurstFrame *f;
  gpointer out[3];

  setup (&q);
  f = add (&q, 1000, 100, 1 * MS);
  add (&q, 800, 100, 2 * MS);
  add (&q, 600, 100, 3 * MS);
  fail_unless_equals_uint64 (rtp_burst_frames_head_bytes (&q, f, 2), 1800);
  fail_unless_equals_uint64 (rtp_burst_frames_head_bytes (&q, f, 9), 2400);

  fail_unless_equals_uint64 (rtp_burst_frames_take (&q, 2, out), 1800);
  fail_unless_equals_int (*(guint *) out[0], 1000);
  fail_unless_equals_int (*(guint *) out[1], 800);
  g_free (out[0]);
  g_free (out[1]);
  fail_unless_equals_int (q.n_packets, 1);
  fail_unless_equals_int (g_queue_get_length (&f->packets), 1);
  /* what was added stays counted in the frame */
  fail_unless_equals_int (f->n_packets, 3);

  fail_unless_equals_uint64 (rtp_burst_frames_take (&q, 1, out), 600);
  g_free (out[0]);
  /* the oldest packet not taken: the next one added to the empty frame */
  add (&q, 400, 100, 7 * MS);
  fail_unless_equals_uint64 (f->unsent_arrival, 7 * MS);
  fail_unless_equals_uint64 (f->last_arrival, 7 * MS);

  /* the head removed with the packet it still has */
  rtp_burst_frames_close (&q, 8 * MS);
  fail_unless_equals_int (rtp_burst_frames_remove_head (&q), 1);
  fail_unless_equals_int (n_freed, 1);
  fail_unless_equals_int (q.n_closed, 0);
  fail_unless_equals_int (q.n_packets, 0);
  fail_unless (rtp_burst_frames_head (&q) == NULL);
}

GST_END_TEST;

static void
keep (gpointer event, gpointer user_data)
{
  g_ptr_array_add (user_data, event);
}

GST_START_TEST (test_frames_events)
{
  RtpBurstFrames q;
  GPtrArray *kept = g_ptr_array_new_with_free_func (g_free);
  gpointer ev1 = g_strdup ("one"), ev2 = g_strdup ("two"), ev;

  setup (&q);
  add (&q, 1000, 100, 1 * MS);
  rtp_burst_frames_close (&q, 2 * MS);
  rtp_burst_frames_add_event (&q, ev1, TRUE);
  add (&q, 1000, 200, 3 * MS);
  rtp_burst_frames_close (&q, 4 * MS);
  rtp_burst_frames_add_event (&q, ev2, TRUE);
  fail_unless_equals_uint64 (q.n_barriers_in, 2);
  fail_unless_equals_uint64 (q.n_barriers_out, 0);
  fail_unless_equals_int (g_queue_get_length (&q.items), 4);

  /* in the order they came: the frame, then the first event */
  fail_unless (rtp_burst_frames_head (&q)->event == NULL);
  fail_unless_equals_int (rtp_burst_frames_remove_head (&q), 1);
  fail_unless (rtp_burst_frames_head (&q)->event == ev1);
  ev = rtp_burst_frames_pop_event (&q);
  fail_unless (ev == ev1);
  g_free (ev);
  fail_unless_equals_uint64 (q.n_barriers_out, 1);

  /* a flush hands the events over and counts them as gone */
  fail_unless_equals_int (rtp_burst_frames_flush (&q, keep, kept), 1);
  fail_unless_equals_int (kept->len, 1);
  fail_unless (g_ptr_array_index (kept, 0) == ev2);
  fail_unless_equals_uint64 (q.n_barriers_out, 2);
  /* two packets freed, no event */
  fail_unless_equals_int (n_freed, 2);
  g_ptr_array_unref (kept);

  /* an event that is not a barrier is not counted in the epochs */
  rtp_burst_frames_add_event (&q, g_strdup ("tag"), FALSE);
  fail_unless_equals_uint64 (q.n_barriers_in, 2);
  fail_unless_equals_uint64 (q.n_events_in, 3);
  ev = rtp_burst_frames_pop_event (&q);
  fail_unless_equals_string (ev, "tag");
  g_free (ev);
  fail_unless_equals_uint64 (q.n_barriers_out, 2);
  fail_unless_equals_uint64 (q.n_events_out, 3);

  /* an event flushed without a keeper is freed */
  rtp_burst_frames_add_event (&q, g_strdup ("three"), TRUE);
  fail_unless_equals_int (rtp_burst_frames_flush (&q, NULL, NULL), 0);
  fail_unless_equals_int (n_freed, 3);
}

GST_END_TEST;

static Suite *
rtpburstframes_suite (void)
{
  Suite *s = suite_create ("rtpburstframes");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frames_assembly);
  tcase_add_test (tc, test_frames_take);
  tcase_add_test (tc, test_frames_events);
  return s;
}

GST_CHECK_MAIN (rtpburstframes);
