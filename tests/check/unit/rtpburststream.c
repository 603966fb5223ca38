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

/* Unit tests of rtpburststream.c: what one stream says to do next, with
 * exact times, and how it counts. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburststream.h"
#include "rtpburstgroup.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
#define PERIOD (40 * MS)
#define SIZE 1000
#define MEDIA_PT 96
#define REPAIR_PT 97

/* A packet: its id; every packet is SIZE bytes. */
static guint n_freed;

static void
free_item (gpointer data)
{
  n_freed++;
  g_free (data);
}

static guint
packet_size (gconstpointer packet)
{
  return SIZE;
}

static gpointer
new_id (guint id)
{
  guint *p = g_new (guint, 1);

  *p = id;
  return p;
}

typedef struct
{
  RtpBurstStreamConfig config;
  RtpBurstStream *s;
  RtpBurstStreamNow now;
} Fixture;

/* A stream of a known period, no slot jitter, the whole duty·ΔT: 36 ms. */
static void
setup (Fixture * f)
{
  memset (f, 0, sizeof (*f));
  n_freed = 0;
  f->config.burst_size = 1;
  f->config.duty = 0.9;
  f->config.slot_jitter = 0.0;
  f->config.seed = 1;
  f->config.frame_period = PERIOD;
  f->config.max_latency = 100 * MS;
  f->config.auto_margin = FALSE;
  f->config.pace_repair = TRUE;
  f->config.pace = TRUE;
  f->s = rtp_burst_stream_new (&f->config, free_item, packet_size, free_item);
  rtp_burst_stream_start (f->s, NULL);
  rtp_burst_stream_config_changed (f->s);
  f->now.now = 0;
  f->now.playing = TRUE;
}

static void
teardown (Fixture * f)
{
  rtp_burst_stream_stop (f->s);
  rtp_burst_stream_free (f->s);
}

/* Adds a frame of @n packets with ids from @id, all arriving at @arrival. */
static void
add_frame (Fixture * f, guint32 rtptime, guint n, guint id, guint64 arrival,
    gboolean marker)
{
  RtpBurstPacketIn in;
  RtpBurstStreamWake wake;
  guint i;

  for (i = 0; i < n; i++) {
    fail_unless (rtp_burst_stream_admit (f->s, rtptime, marker && i == n - 1,
            arrival, &wake));
    in.data = new_id (id + i);
    in.size = SIZE;
    in.payload_len = SIZE - 12;
    in.rtptime = rtptime;
    in.marker = marker && i == n - 1;
    in.sync_time = arrival;
    in.arrival = arrival;
    wake = rtp_burst_stream_add_packet (f->s, &in);
    fail_unless (wake & RTP_BURST_STREAM_WAKE_DATA);
    if (in.marker)
      fail_unless (wake & RTP_BURST_STREAM_WAKE_CLOSED);
  }
}

static void
next_at (Fixture * f, guint64 now, RtpBurstNext * next)
{
  f->now.now = now;
  rtp_burst_stream_next (f->s, &f->now, next);
}

/* Expects a wait for the slot at @slot (asked at @now), then the push of
 * one packet, @id, at that slot, which returns at once. */
static void
expect_slot (Fixture * f, guint64 now, guint64 slot, guint id)
{
  RtpBurstNext next;
  gpointer packet;

  next_at (f, now, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless (next.for_slot);
  fail_if (next.for_close);
  fail_unless_equals_uint64 (next.time, slot);
  rtp_burst_stream_woke (f->s, 0, TRUE);

  next_at (f, slot, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_PUSH);
  fail_unless_equals_int (next.n_packets, 1);
  fail_unless_equals_uint64 (next.time, slot);
  fail_unless_equals_uint64 (next.dts, slot);
  fail_unless_equals_uint64 (rtp_burst_stream_take_packets (f->s, &next,
          &packet), SIZE);
  fail_unless_equals_int (*(guint *) packet, id);
  free_item (packet);
  rtp_burst_stream_push_done (f->s, slot, FALSE);
}

/* Expects a wait (not for a slot) until @due (asked at @now, before it),
 * then repair packet @id leaving at @due, with that DTS. */
static void
expect_repair (Fixture * f, guint64 now, guint64 due, guint id)
{
  RtpBurstNext next;
  gpointer packet;
  guint size;

  next_at (f, now, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_if (next.for_slot);
  fail_unless_equals_uint64 (next.time, due);
  next_at (f, due, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_REPAIR);
  fail_unless_equals_uint64 (next.time, due);
  fail_unless_equals_uint64 (next.dts, due);
  packet = rtp_burst_stream_take_repair (f->s, &next, due, &size);
  fail_unless_equals_int (*(guint *) packet, id);
  fail_unless_equals_int (size, SIZE);
  free_item (packet);
  rtp_burst_stream_push_done (f->s, RTP_BURST_TIME_NONE, FALSE);
}

/* Four packets of a frame due at 0: slots Δt = 0.9 · 40 ms / 4 = 9 ms
 * apart, each waited for, then nothing until more data. */
GST_START_TEST (test_stream_paces_frame)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstNext next;

  setup (&f);
  add_frame (&f, 0, 4, 0, 0, TRUE);
  expect_slot (&f, 0, 0, 0);
  expect_slot (&f, 0, 9 * MS, 1);
  expect_slot (&f, 9 * MS, 18 * MS, 2);
  expect_slot (&f, 18 * MS, 27 * MS, 3);
  next_at (&f, 27 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);

  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.frames, 1);
  fail_unless_equals_uint64 (st.packets, 4);
  fail_unless_equals_uint64 (st.bytes, 4 * SIZE);
  fail_unless_equals_uint64 (st.slots, 4);
  fail_unless_equals_uint64 (st.slot_duration, 9 * MS);
  fail_unless_equals_uint64 (st.period, PERIOD);
  fail_unless_equals_uint64 (st.late_slots, 0);
  fail_unless_equals_int (st.queued_packets, 0);
  fail_unless_equals_int (st.queued_frames, 0);
  fail_unless (rtp_burst_stream_is_empty (f.s));
  teardown (&f);
}

GST_END_TEST;

/* The next frame, due at 40 ms, starts its slots there; a wake-up 2 ms
 * late is a late slot and the push says so. */
GST_START_TEST (test_stream_second_frame_and_late_slot)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstNext next;
  gpointer packets[2];

  setup (&f);
  add_frame (&f, 0, 1, 0, 0, TRUE);
  add_frame (&f, 3600, 2, 1, PERIOD, TRUE);
  expect_slot (&f, 0, 0, 0);
  expect_slot (&f, 0, PERIOD, 1);
  /* the second slot, 18 ms later, woken 2 ms late */
  next_at (&f, PERIOD, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless_equals_uint64 (next.time, PERIOD + 18 * MS);
  rtp_burst_stream_woke (f.s, 2 * MS, TRUE);
  next_at (&f, PERIOD + 20 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_PUSH);
  fail_unless_equals_uint64 (next.time, PERIOD + 18 * MS);
  rtp_burst_stream_take_packets (f.s, &next, packets);
  free_item (packets[0]);
  rtp_burst_stream_push_done (f.s, PERIOD + 20 * MS, FALSE);

  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.frames, 2);
  fail_unless_equals_uint64 (st.late_slots, 1);
  fail_unless_equals_uint64 (st.max_lateness, 2 * MS);
  teardown (&f);
}

GST_END_TEST;

/* Packets leave only in PLAYING; events before them leave in PAUSED too,
 * in order. */
GST_START_TEST (test_stream_events_and_paused)
{
  Fixture f;
  RtpBurstNext next;
  gpointer event;

  setup (&f);
  f.now.playing = FALSE;
  rtp_burst_stream_add_event (f.s, new_id (100), TRUE, 0);
  add_frame (&f, 0, 1, 0, 0, TRUE);
  rtp_burst_stream_add_event (f.s, new_id (101), TRUE, 0);

  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_EVENT);
  fail_unless_equals_int (*(guint *) next.event, 100);
  event = rtp_burst_stream_pop_event (f.s);
  fail_unless (event == next.event);
  free_item (event);

  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);

  f.now.playing = TRUE;
  expect_slot (&f, 0, 0, 0);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_EVENT);
  fail_unless_equals_int (*(guint *) next.event, 101);
  free_item (rtp_burst_stream_pop_event (f.s));
  fail_unless (rtp_burst_stream_is_empty (f.s));
  teardown (&f);
}

GST_END_TEST;

/* A frame without its marker is waited for one period after its latest
 * packet, then closed and paced. */
GST_START_TEST (test_stream_open_frame_timeout)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstNext next;

  setup (&f);
  add_frame (&f, 0, 2, 0, 0, FALSE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless (next.for_close);
  fail_unless_equals_uint64 (next.time, PERIOD);
  /* asked again before then, it still waits for the same time */
  next_at (&f, 10 * MS, &next);
  fail_unless_equals_uint64 (next.time, PERIOD);

  next_at (&f, PERIOD, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless (next.for_slot);
  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.timeout_frames, 1);
  fail_unless_equals_int (st.queued_frames, 1);
  teardown (&f);
}

GST_END_TEST;

/* RTP_BURST_STREAM_MAX_FRAMES closed frames: a packet of a new frame has
 * to wait; a packet of the open frame does not. */
GST_START_TEST (test_stream_room)
{
  Fixture f;
  RtpBurstStreamWake wake;
  guint i;

  setup (&f);
  for (i = 0; i < RTP_BURST_STREAM_MAX_FRAMES; i++)
    add_frame (&f, i * 3600, 1, i, i * PERIOD, TRUE);
  fail_if (rtp_burst_stream_has_room (f.s));
  fail_if (rtp_burst_stream_admit (f.s, 100 * 3600, FALSE, 0, &wake));
  fail_unless_equals_uint64 (rtp_burst_stream_room (f.s),
      RTP_BURST_STREAM_MAX_FRAMES * PERIOD);

  expect_slot (&f, 0, 0, 0);
  fail_unless (rtp_burst_stream_has_room (f.s));
  teardown (&f);
  fail_unless_equals_int (n_freed, RTP_BURST_STREAM_MAX_FRAMES);
}

GST_END_TEST;

/* A lone repair packet leaves half way between two media slots, and
 * before the media's next one. */
GST_START_TEST (test_stream_repair_between_slots)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstStreamWake wake;

  setup (&f);
  rtp_burst_stream_set_caps (f.s, 0, 90000, MEDIA_PT);
  fail_unless (rtp_burst_stream_is_repair (f.s, REPAIR_PT));
  fail_if (rtp_burst_stream_is_repair (f.s, MEDIA_PT));
  add_frame (&f, 0, 2, 0, 0, TRUE);
  expect_slot (&f, 0, 0, 0);

  wake = rtp_burst_stream_add_repair (f.s, new_id (50), SIZE, 1 * MS);
  fail_unless (wake & RTP_BURST_STREAM_WAKE_CLOCK);
  expect_repair (&f, 1 * MS, 9 * MS, 50);

  expect_slot (&f, 9 * MS, 18 * MS, 1);
  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.repair_packets, 1);
  fail_unless_equals_uint64 (st.packets, 2);
  teardown (&f);
}

GST_END_TEST;

/* A repair packet queued after an event that is not a barrier (a tag, a
 * notification) takes its turn between the media's slots as if the event
 * were not there; one queued after a barrier waits until the barrier has
 * left, behind the media queued before it. */
GST_START_TEST (test_stream_repair_past_notifications)
{
  Fixture f;
  RtpBurstNext next;

  setup (&f);
  rtp_burst_stream_set_caps (f.s, 0, 90000, MEDIA_PT);
  add_frame (&f, 0, 2, 0, 0, TRUE);
  expect_slot (&f, 0, 0, 0);

  /* behind the frame's second slot: a tag, then a repair packet */
  rtp_burst_stream_add_event (f.s, new_id (100), FALSE, 1 * MS);
  rtp_burst_stream_add_repair (f.s, new_id (50), SIZE, 1 * MS);
  expect_repair (&f, 1 * MS, 9 * MS, 50);

  /* then a barrier (caps, a segment) and another repair packet: it waits
   * for the media's slot, the tag and the barrier */
  rtp_burst_stream_add_event (f.s, new_id (101), TRUE, 10 * MS);
  rtp_burst_stream_add_repair (f.s, new_id (51), SIZE, 10 * MS);
  expect_slot (&f, 10 * MS, 18 * MS, 1);
  next_at (&f, 18 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_EVENT);
  fail_unless_equals_int (*(guint *) next.event, 100);
  free_item (rtp_burst_stream_pop_event (f.s));
  next_at (&f, 18 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_EVENT);
  fail_unless_equals_int (*(guint *) next.event, 101);
  free_item (rtp_burst_stream_pop_event (f.s));
  /* half a slot after the media's last */
  expect_repair (&f, 18 * MS, 27 * MS, 51);
  fail_unless (rtp_burst_stream_is_empty (f.s));

  /* a tag at the head, then a repair packet: the tag, queued first, does
   * not wait for the repair packet's turn */
  rtp_burst_stream_add_event (f.s, new_id (102), FALSE, 28 * MS);
  rtp_burst_stream_add_repair (f.s, new_id (52), SIZE, 28 * MS);
  next_at (&f, 28 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_EVENT);
  fail_unless_equals_int (*(guint *) next.event, 102);
  free_item (rtp_burst_stream_pop_event (f.s));
  expect_repair (&f, 28 * MS, 45 * MS, 52);
  teardown (&f);
}

GST_END_TEST;

/* Without a period frames leave as they come, with their own DTS. */
GST_START_TEST (test_stream_unpaced_without_period)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstNext next;
  gpointer packets[2];

  setup (&f);
  f.config.frame_period = 0;
  rtp_burst_stream_config_changed (f.s);
  add_frame (&f, 0, 2, 0, 0, FALSE);
  /* taken 2 ms after they came */
  next_at (&f, 2 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_PUSH);
  fail_unless_equals_int (next.n_packets, 2);
  fail_unless_equals_uint64 (next.time, NONE);
  fail_unless_equals_uint64 (next.dts, NONE);
  rtp_burst_stream_take_packets (f.s, &next, packets);
  free_item (packets[0]);
  free_item (packets[1]);
  rtp_burst_stream_push_done (f.s, NONE, FALSE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);

  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.unpaced_frames, 1);
  fail_unless_equals_uint64 (st.unpaced_pushes, 1);
  fail_unless_equals_uint64 (st.unpaced_late_pushes, 1);
  fail_unless_equals_uint64 (st.unpaced_max_delay, 2 * MS);
  fail_unless_equals_uint64 (st.period, 0);
  teardown (&f);
}

GST_END_TEST;

static void
keep_event (gpointer event, gpointer user_data)
{
  GPtrArray *kept = user_data;

  g_ptr_array_add (kept, event);
}

/* A flush drops the frames and repair packets, counted, and hands the
 * events over; a push a flush refused counts as flushed too. */
GST_START_TEST (test_stream_flush)
{
  Fixture f;
  RtpBurstStreamStats st;
  RtpBurstNext next;
  GPtrArray *kept = g_ptr_array_new_with_free_func (free_item);
  gpointer packet;

  setup (&f);
  rtp_burst_stream_set_caps (f.s, 0, 90000, MEDIA_PT);
  add_frame (&f, 0, 3, 0, 0, TRUE);
  next_at (&f, 0, &next);
  rtp_burst_stream_woke (f.s, 0, FALSE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_PUSH);
  rtp_burst_stream_take_packets (f.s, &next, &packet);
  free_item (packet);
  rtp_burst_stream_push_done (f.s, 0, TRUE);

  rtp_burst_stream_add_event (f.s, new_id (100), TRUE, 0);
  rtp_burst_stream_add_repair (f.s, new_id (50), SIZE, 0);
  rtp_burst_stream_flush (f.s, keep_event, kept);
  fail_unless_equals_int (kept->len, 1);
  fail_unless_equals_int (*(guint *) g_ptr_array_index (kept, 0), 100);
  fail_unless (rtp_burst_stream_is_empty (f.s));

  rtp_burst_stream_get_stats (f.s, &st);
  fail_unless_equals_uint64 (st.flushed_packets, 1 + 2 + 1);
  fail_unless_equals_uint64 (st.packets, 0);
  fail_unless_equals_uint64 (st.bytes, 0);
  fail_unless_equals_int (st.queued_packets, 0);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);
  g_ptr_array_unref (kept);
  teardown (&f);
}

GST_END_TEST;

/* Each answer says why, and the call that starts a frame says how it was
 * planned: what the element logs. */
GST_START_TEST (test_stream_why)
{
  Fixture f;
  RtpBurstNext next;
  gpointer packet;

  setup (&f);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_EMPTY);
  fail_unless_equals_string (rtp_burst_why_name (next.why), "nothing queued");

  /* an open frame: waited for one period after its latest packet */
  add_frame (&f, 7200, 2, 0, 0, FALSE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_OPEN_FRAME);
  fail_if (next.started);

  /* closed in PAUSED: packets leave in PLAYING */
  rtp_burst_stream_close_open (f.s, 1 * MS);
  f.now.playing = FALSE;
  next_at (&f, 1 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_NOT_PLAYING);

  /* in PLAYING the frame starts: two slots Δt = 18 ms apart from 1 ms
   * (it was due when it was closed) */
  f.now.playing = TRUE;
  next_at (&f, 1 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_SLOT);
  fail_unless (next.started);
  fail_unless_equals_int (next.start.rtptime, 7200);
  fail_unless_equals_int (next.start.n_packets, 2);
  fail_if (next.start.unpaced);
  fail_unless_equals_int (next.start.n_slots, 2);
  fail_unless_equals_int (next.start.burst_size, 1);
  fail_unless_equals_uint64 (next.start.first_slot, 1 * MS);
  fail_unless_equals_uint64 (next.start.slot_duration, 18 * MS);
  fail_unless_equals_uint64 (next.start.span, 36 * MS);
  fail_if (next.start.catch_up);
  fail_unless_equals_int (next.start.group, 1 /* RTP_BURST_GROUP_ALONE */ );
  rtp_burst_stream_woke (f.s, 0, TRUE);

  /* the slot's push says which frame; the frame started only once */
  next_at (&f, 1 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_PUSH);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_SLOT);
  fail_unless_equals_int (next.rtptime, 7200);
  fail_if (next.started);
  rtp_burst_stream_take_packets (f.s, &next, &packet);
  free_item (packet);
  rtp_burst_stream_push_done (f.s, 1 * MS, FALSE);

  /* the second slot 18 ms later */
  expect_slot (&f, 1 * MS, 19 * MS, 1);

  /* an event waits behind the repair packets queued before it, which
   * leave in PLAYING */
  rtp_burst_stream_set_caps (f.s, PERIOD, 90000, MEDIA_PT);
  rtp_burst_stream_add_repair (f.s, new_id (50), SIZE, 20 * MS);
  rtp_burst_stream_add_event (f.s, new_id (101), TRUE, 20 * MS);
  f.now.playing = FALSE;
  next_at (&f, 20 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_DATA);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_REPAIR_FIRST);
  /* half a slot after the last media slot */
  f.now.playing = TRUE;
  next_at (&f, 20 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_REPAIR_TURN);
  fail_unless_equals_uint64 (next.time, 28 * MS);
  next_at (&f, 28 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_REPAIR);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_REPAIR_TURN);
  teardown (&f);
}

GST_END_TEST;

/* Why a slot waits on a group's rate, and why a frame is dropped. */
GST_START_TEST (test_stream_why_rate_and_drop)
{
  Fixture f;
  RtpBurstNext next;
  RtpBurstGroupMember other;
  static const gint clock_x = 0;
  guint64 release;

  setup (&f);
  rtp_burst_stream_stop (f.s);
  /* 8 Mbit/s: a packet of SIZE bytes takes 1 ms of the group's link */
  f.config.group_max_rate = 8000000;
  rtp_burst_stream_start (f.s, "stream-why-rate");
  f.now.clock = &clock_x;
  rtp_burst_group_member_init (&other);
  rtp_burst_group_member_join (&other, "stream-why-rate");
  /* another member took the link for 5 ms */
  fail_unless_equals_int (rtp_burst_group_member_book (&other, &clock_x, 0,
          0, 5 * SIZE, RTP_BURST_GROUP_CLASS_TOP, &release),
      RTP_BURST_GROUP_PLACED);

  add_frame (&f, 0, 1, 0, 0, TRUE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_SLOT);
  fail_unless_equals_int (next.start.group, RTP_BURST_GROUP_PLACED);
  rtp_burst_stream_woke (f.s, 0, TRUE);
  next_at (&f, 0, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_WAIT_UNTIL);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_GROUP_RATE);
  fail_unless_equals_uint64 (next.time, 5 * MS);
  rtp_burst_stream_flush (f.s, NULL, NULL);
  rtp_burst_stream_stop (f.s);
  rtp_burst_group_member_leave (&other);

  /* a cap of 1 Mbit/s with a budget of 30 ms: a frame of 4 packets
   * (32 ms at the cap, within its 36 ms) has slots 9 ms apart; the next
   * frame, due at 1 ms, would wait 35 ms for them, over the budget:
   * dropped */
  f.config.group_max_rate = 0;
  f.config.max_rate = 1000000;
  f.config.max_latency = 30 * MS;
  f.config.overload = RTP_BURST_OVERLOAD_DROP;
  rtp_burst_stream_start (f.s, NULL);
  add_frame (&f, 0, 4, 0, 0, TRUE);
  add_frame (&f, 3600, 1, 4, 1 * MS, TRUE);
  expect_slot (&f, 0, 0, 0);
  expect_slot (&f, 0, 9 * MS, 1);
  expect_slot (&f, 9 * MS, 18 * MS, 2);
  expect_slot (&f, 18 * MS, 27 * MS, 3);
  next_at (&f, 27 * MS, &next);
  fail_unless_equals_int (next.kind, RTP_BURST_NEXT_DROPPED);
  fail_unless_equals_int (next.why, RTP_BURST_WHY_BUDGET);
  fail_unless_equals_string (rtp_burst_why_name (next.why),
      "over the rate cap's budget");
  teardown (&f);
}

GST_END_TEST;

/* A probe frame: a frame of 2 packets is too small for a cluster
 * (rtpburstprobe.h: 5 packets, 15 ms at the rate) and is paced as usual;
 * the next, 5 packets of 1000 bytes at 2 Mbit/s, leaves within
 * 40000 bit / 2 Mbit/s = 20 ms, 4 ms apart, not 7.2; the pushes say they
 * are the probe's and which ends the frame; the frame after it is paced as
 * before. */
GST_START_TEST (test_stream_probe_frame)
{
  Fixture f;
  RtpBurstNext next;
  gboolean last;
  guint i;

  setup (&f);
  rtp_burst_stream_probe_next_frame (f.s, 2000000);
  add_frame (&f, 0, 2, 0, 0, TRUE);
  add_frame (&f, 3600, 5, 2, PERIOD, TRUE);
  add_frame (&f, 7200, 2, 7, 2 * PERIOD, TRUE);
  next_at (&f, 0, &next);
  fail_unless (next.started);
  fail_unless_equals_uint64 (next.start.probe_rate, 0);
  expect_slot (&f, 0, 0, 0);
  fail_unless_equals_uint64 (rtp_burst_stream_taken_probe (f.s, &last), 0);
  expect_slot (&f, 0, 18 * MS, 1);

  next_at (&f, 18 * MS, &next);
  fail_unless (next.started);
  fail_unless_equals_uint64 (next.start.probe_rate, 2000000);
  fail_unless_equals_uint64 (next.start.slot_duration, 4 * MS);
  for (i = 0; i < 5; i++) {
    expect_slot (&f, i == 0 ? 18 * MS : PERIOD + (i - 1) * 4 * MS,
        PERIOD + i * 4 * MS, 2 + i);
    fail_unless_equals_uint64 (rtp_burst_stream_taken_probe (f.s, &last),
        2000000);
    fail_unless_equals_int (last, i == 4);
  }
  /* the next frame: 0.9 x 40 ms / 2 = 18 ms */
  next_at (&f, PERIOD + 16 * MS, &next);
  fail_unless_equals_uint64 (next.start.probe_rate, 0);
  expect_slot (&f, PERIOD + 16 * MS, 2 * PERIOD, 7);
  fail_unless_equals_uint64 (rtp_burst_stream_taken_probe (f.s, &last), 0);
  fail_if (last);
  expect_slot (&f, 2 * PERIOD, 2 * PERIOD + 18 * MS, 8);
  fail_unless_equals_uint64 (rtp_burst_stream_taken_probe (f.s, &last), 0);
  fail_unless (last);

  /* a probe slower than the frame leaves it as it is: 36 ms */
  rtp_burst_stream_probe_next_frame (f.s, 100000);
  add_frame (&f, 10800, 5, 9, 3 * PERIOD, TRUE);
  next_at (&f, 3 * PERIOD, &next);
  fail_unless_equals_uint64 (next.start.probe_rate, 100000);
  fail_unless_equals_uint64 (next.start.span, 36 * MS);
  fail_if (next.start.spread);
  teardown (&f);
}

GST_END_TEST;

static Suite *
rtpburststream_suite (void)
{
  Suite *s = suite_create ("rtpburststream");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_stream_paces_frame);
  tcase_add_test (tc, test_stream_probe_frame);
  tcase_add_test (tc, test_stream_why);
  tcase_add_test (tc, test_stream_why_rate_and_drop);
  tcase_add_test (tc, test_stream_second_frame_and_late_slot);
  tcase_add_test (tc, test_stream_events_and_paused);
  tcase_add_test (tc, test_stream_open_frame_timeout);
  tcase_add_test (tc, test_stream_room);
  tcase_add_test (tc, test_stream_repair_between_slots);
  tcase_add_test (tc, test_stream_repair_past_notifications);
  tcase_add_test (tc, test_stream_unpaced_without_period);
  tcase_add_test (tc, test_stream_flush);
  return s;
}

GST_CHECK_MAIN (rtpburststream);
