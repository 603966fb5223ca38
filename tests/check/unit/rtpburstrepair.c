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

/* Unit tests of rtpburstrepair.c: repair packets between the media's
 * slots, exact times. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstrepair.h"
#include "rtpburstschedule.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))
#define NONE RTP_BURST_TIME_NONE
#define PERIOD (40 * MS)

static guint n_freed;

static void
count_free (gpointer data)
{
  n_freed++;
  g_free (data);
}

/* Pops the head at @due and checks which packet it was. */
static void
pop_expect (RtpBurstRepair * r, guint64 due, gboolean overrun, guint id)
{
  guint size;
  guint *data = rtp_burst_repair_pop (r, due, overrun, due, &size);

  fail_unless (data != NULL);
  fail_unless_equals_int (*data, id);
  g_free (data);
}

/* Queues packet @id in epoch @id, at order @id. */
static void
push_id (RtpBurstRepair * r, guint id, guint size, guint64 arrival)
{
  guint *data = g_new (guint, 1);

  *data = id;
  rtp_burst_repair_push (r, data, size, arrival, id, id);
}

/* When the head leaves, for media slots at @last (of no size) and @next;
 * checks that without a cap it comes before the next media slot exactly
 * when it is due before it. */
static guint64
repair_due (RtpBurstRepair * r, guint64 last, guint64 next, guint64 spacing,
    guint64 max_rate, guint64 max_delay, gboolean * overrun)
{
  RtpBurstRepairMedia media = { last, 0, next, spacing };
  RtpBurstRepairTurn turn;

  rtp_burst_repair_next (r, &media, max_rate, max_delay, &turn);
  *overrun = turn.overrun;
  if (max_rate == 0)
    fail_unless_equals_int (turn.before_media, next == NONE || turn.due < next);
  return turn.due;
}

GST_START_TEST (test_repair_between_slots)
{
  RtpBurstRepair r;
  gboolean overrun = TRUE;
  guint64 dt = 2 * MS, due;

  rtp_burst_repair_init (&r, count_free);
  /* media slots at 10, 12, 14, ... ms; three retransmissions asked for
   * at once at 10.3 ms, after the slot at 10 ms */
  push_id (&r, 1, 1200, 10300 * US);
  push_id (&r, 2, 1200, 10300 * US);
  push_id (&r, 3, 1200, 10300 * US);
  fail_unless_equals_int (rtp_burst_repair_queued (&r), 3);
  /* half way between the slots at 10 and 12 ms */
  due = repair_due (&r, 10 * MS, 12 * MS, dt, 0, PERIOD, &overrun);
  fail_unless_equals_uint64 (due, 11 * MS);
  fail_if (overrun);
  pop_expect (&r, due, overrun, 1);
  /* the next one Δt later: after the media slot at 12 ms, half way to 14 */
  due = repair_due (&r, 10 * MS, 12 * MS, dt, 0, PERIOD, &overrun);
  fail_unless_equals_uint64 (due, 13 * MS);
  /* ... which the caller reads as "after the slot at 12 ms"; the media
   * slot leaves, then it asks again */
  due = repair_due (&r, 12 * MS, 14 * MS, dt, 0, PERIOD, &overrun);
  fail_unless_equals_uint64 (due, 13 * MS);
  pop_expect (&r, due, overrun, 2);
  due = repair_due (&r, 14 * MS, 16 * MS, dt, 0, PERIOD, &overrun);
  fail_unless_equals_uint64 (due, 15 * MS);
  pop_expect (&r, due, overrun, 3);
  fail_unless_equals_int (rtp_burst_repair_queued (&r), 0);
  fail_unless_equals_uint64 (r.n_released, 3);
  fail_unless_equals_uint64 (r.bytes_released, 3600);
  fail_unless_equals_uint64 (r.n_overrun, 0);
  /* the third waited from 10.3 to 15 ms */
  fail_unless_equals_uint64 (r.max_delay, 4700 * US);
  fail_unless_equals_int (rtp_burst_repair_flush (&r), 0);
  fail_unless_equals_int (n_freed, 0);
}

GST_END_TEST;

GST_START_TEST (test_repair_near_next_slot)
{
  RtpBurstRepair r;
  gboolean overrun;
  guint64 dt = 2 * MS;

  rtp_burst_repair_init (&r, g_free);
  /* arrives 0.5 ms before the next media slot: within Δt/2 of it, so it
   * leaves Δt/2 after that slot, not right beside it */
  push_id (&r, 1, 1000, 11500 * US);
  fail_unless_equals_uint64 (repair_due (&r, 10 * MS, 12 * MS, dt,
          0, PERIOD, &overrun), 13 * MS);
  /* no media slot pending (between frames, duty < 1): Δt/2 after the last
   * one, or at once if that is long past */
  fail_unless_equals_uint64 (repair_due (&r, 10 * MS, NONE, dt,
          0, PERIOD, &overrun), 11500 * US);
  fail_unless_equals_uint64 (repair_due (&r, 11 * MS, NONE, dt,
          0, PERIOD, &overrun), 12 * MS);
  /* no media yet at all: at once */
  fail_unless_equals_uint64 (repair_due (&r, NONE, NONE, 0,
          0, PERIOD, &overrun), 11500 * US);
  fail_if (overrun);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

GST_START_TEST (test_repair_rate_cap)
{
  RtpBurstRepair r;
  gboolean overrun;
  guint64 due;

  rtp_burst_repair_init (&r, g_free);
  push_id (&r, 1, 1250, 0);
  push_id (&r, 2, 1250, 0);
  /* 1250 B at 1 Mbit/s: 10 ms between repair packets, more than Δt */
  due = repair_due (&r, NONE, NONE, 2 * MS, 1000000, PERIOD,
      &overrun);
  fail_unless_equals_uint64 (due, 0);
  pop_expect (&r, due, overrun, 1);
  due = repair_due (&r, NONE, NONE, 2 * MS, 1000000, PERIOD,
      &overrun);
  fail_unless_equals_uint64 (due, 10 * MS);
  fail_if (overrun);
  /* a cap slower than Δt does not make them denser */
  fail_unless_equals_uint64 (repair_due (&r, NONE, NONE, 20 * MS,
          1000000, PERIOD, &overrun), 20 * MS);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

/* Under a cap (1 Mbit/s: 1000 bytes take 8 ms) a media stream held to it
 * has its slots back to back: at 10 and 18 ms.  A repair packet does not
 * wait behind them: it leaves once the link has carried the last one, with
 * the next slot, which keeps its time. */
GST_START_TEST (test_repair_cap_beside_media)
{
  RtpBurstRepair r;
  RtpBurstRepairMedia media = { 10 * MS, 1000, 18 * MS, 8 * MS };
  RtpBurstRepairTurn turn;

  rtp_burst_repair_init (&r, g_free);
  push_id (&r, 1, 1000, 11 * MS);
  push_id (&r, 2, 1000, 11 * MS);
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 18 * MS);
  fail_unless (turn.before_media);
  fail_if (turn.overrun);
  pop_expect (&r, turn.due, turn.overrun, 1);
  /* the media slot left at 18 ms too, the next is at 26 ms: the next
   * repair packet, its own 8 ms after the first, ties with it again */
  media.last = 18 * MS;
  media.next = 26 * MS;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 26 * MS);
  fail_unless (turn.before_media);
  /* without the cap, the same media slots would keep it behind: half a
   * gap after the next media slot */
  rtp_burst_repair_next (&r, &media, 0, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 30 * MS);
  fail_if (turn.before_media);
  rtp_burst_repair_flush (&r);

  /* its own spacing past the next media slot: the media goes first */
  push_id (&r, 3, 1000, 11 * MS);
  pop_expect (&r, 15 * MS, FALSE, 3);
  push_id (&r, 4, 1000, 11 * MS);
  media.last = 10 * MS;
  media.next = 18 * MS;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_if (turn.before_media);
  fail_unless (turn.due > 18 * MS);

  /* with room between the media's slots (20 ms apart), half way between
   * them, as without a cap */
  rtp_burst_repair_flush (&r);
  push_id (&r, 5, 1000, 11 * MS);
  media.next = 30 * MS;
  media.spacing = 20 * MS;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 20 * MS);
  fail_unless (turn.before_media);
  /* ... but never on the link with the last media slot: a slot of 2500
   * bytes takes 20 ms at the cap, so the packet waits until 30 ms and ties
   * with the next slot */
  media.last_bytes = 2500;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 30 * MS);
  fail_unless (turn.before_media);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

/* A frame compressed to max-delay leaves faster than the cap: slots of
 * 1000 bytes 2 ms apart under a cap of 1 Mbit/s (8 ms each).  The repair
 * packets follow the media's rate, 2 ms per 1000 bytes: each ties with
 * the next media slot; at the cap's 8 ms they would fall behind every
 * slot (10, 12, 14, ... ms) until their bound. */
GST_START_TEST (test_repair_cap_compressed)
{
  RtpBurstRepair r;
  RtpBurstRepairMedia media = { 10 * MS, 1000, 12 * MS, 2 * MS };
  RtpBurstRepairTurn turn;

  rtp_burst_repair_init (&r, g_free);
  push_id (&r, 1, 1000, 11 * MS);
  push_id (&r, 2, 500, 11 * MS);
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 12 * MS);
  fail_unless (turn.before_media);
  fail_if (turn.overrun);
  pop_expect (&r, turn.due, turn.overrun, 1);
  /* the slot at 12 ms left too: the next, its own 1 ms (500 bytes at
   * the media's rate) after the first, leaves once the link has carried
   * that slot, with the next one at 14 ms */
  media.last = 12 * MS;
  media.next = 14 * MS;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 14 * MS);
  fail_unless (turn.before_media);
  /* a slot that fits the cap (8 ms at 1 Mbit/s, spacing 8 ms): as before */
  media.spacing = 8 * MS;
  media.next = 20 * MS;
  rtp_burst_repair_next (&r, &media, 1000000, PERIOD, &turn);
  fail_unless_equals_uint64 (turn.due, 20 * MS);
  fail_unless (turn.before_media);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

GST_START_TEST (test_repair_bound)
{
  RtpBurstRepair r;
  gboolean overrun;
  guint64 due, prev = 0, t = 100 * MS;
  guint i;

  rtp_burst_repair_init (&r, g_free);
  /* 30 retransmissions at once (a NACK after a keyframe was hit), Δt 2 ms:
   * at Δt the last would leave 58 ms later; instead they are spread evenly
   * over half the bound (20 ms): 20 ms / 30, then what is left / 29 ... */
  for (i = 0; i < 30; i++)
    push_id (&r, i, 1000, t);
  for (i = 0; i < 30; i++) {
    due = repair_due (&r, NONE, NONE, 2 * MS, 0, PERIOD, &overrun);
    fail_if (overrun);
    if (i == 0) {
      fail_unless_equals_uint64 (due, t);
    } else if (i == 1) {
      fail_unless_equals_uint64 (due, t + 20 * MS / 29);
    } else {
      fail_unless (due > prev && due - prev <= 20 * MS / 29 + 1);
    }
    prev = due;
    pop_expect (&r, due, overrun, i);
  }
  fail_unless (prev <= t + 20 * MS && prev >= t + 19 * MS);
  fail_unless_equals_uint64 (r.n_overrun, 0);

  /* a packet that would wait longer than the bound leaves at the bound
   * (here the caller let the previous one leave late, at t + 45 ms) */
  push_id (&r, 50, 1000, t);
  pop_expect (&r, t + 45 * MS, FALSE, 50);
  push_id (&r, 51, 1000, t);
  due = repair_due (&r, NONE, NONE, 2 * MS, 0, PERIOD, &overrun);
  fail_unless_equals_uint64 (due, t + PERIOD);
  fail_unless (overrun);
  pop_expect (&r, due, overrun, 51);
  fail_unless_equals_uint64 (r.n_overrun, 1);
  fail_unless_equals_uint64 (r.max_delay, 45 * MS);
  /* no bound: no spreading over it either */
  push_id (&r, 99, 1000, t);
  push_id (&r, 100, 1000, t);
  fail_unless_equals_uint64 (repair_due (&r, NONE, NONE, 2 * MS,
          0, NONE, &overrun), t + PERIOD + 2 * MS);
  fail_if (overrun);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

GST_START_TEST (test_repair_flush)
{
  RtpBurstRepair r;
  gboolean overrun;

  n_freed = 0;
  rtp_burst_repair_init (&r, count_free);
  push_id (&r, 1, 1000, 0);
  push_id (&r, 2, 1000, 0);
  /* the epoch comes with the packet (push_id gives its id) */
  fail_unless_equals_uint64 (rtp_burst_repair_head_epoch (&r), 1);
  pop_expect (&r, 5 * MS, FALSE, 1);
  fail_unless_equals_uint64 (rtp_burst_repair_head_epoch (&r), 2);
  /* push_id () gives it its id as its order too */
  fail_unless_equals_uint64 (rtp_burst_repair_head_order (&r), 2);
  fail_unless_equals_int (rtp_burst_repair_flush (&r), 1);
  fail_unless_equals_int (n_freed, 1);
  /* an order apart from the epoch (events that are not barriers between
   * the two counts) */
  rtp_burst_repair_push (&r, g_new0 (guint, 1), 1000, 0, 1, 4);
  fail_unless_equals_uint64 (rtp_burst_repair_head_epoch (&r), 1);
  fail_unless_equals_uint64 (rtp_burst_repair_head_order (&r), 4);
  fail_unless_equals_int (rtp_burst_repair_flush (&r), 1);
  fail_unless_equals_int (n_freed, 2);
  fail_unless_equals_int (rtp_burst_repair_queued (&r), 0);
  /* a flush forgets the last release: the next one may leave at once */
  push_id (&r, 3, 1000, 6 * MS);
  fail_unless_equals_uint64 (repair_due (&r, NONE, NONE, 2 * MS,
          0, PERIOD, &overrun), 6 * MS);
  /* ... and the stats stay until reset */
  fail_unless_equals_uint64 (r.n_released, 1);
  /* a push a flush refused is not counted as released */
  rtp_burst_repair_refused (&r, 1000);
  fail_unless_equals_uint64 (r.n_released, 0);
  fail_unless_equals_uint64 (r.bytes_released, 0);
  rtp_burst_repair_reset_stats (&r);
  fail_unless_equals_uint64 (r.n_released, 0);
  fail_unless_equals_int (rtp_burst_repair_flush (&r), 1);
  fail_unless_equals_int (n_freed, 3);
}

GST_END_TEST;

/* The media's side kept by the repair queue: the last media push, whether
 * the head may go (events before it), what it reports. */
GST_START_TEST (test_repair_media_side)
{
  RtpBurstRepair r;
  RtpBurstRepairReport rep;
  RtpBurstRepairTurn turn, expect;
  RtpBurstRepairMedia media = { 10 * MS, 1200, 14 * MS, 2 * MS };

  rtp_burst_repair_init (&r, count_free);
  fail_if (rtp_burst_repair_ready (&r, 5));
  /* push_id () queues packet N in epoch N */
  push_id (&r, 2, 1000, 9 * MS);
  fail_if (rtp_burst_repair_ready (&r, 1));
  fail_unless (rtp_burst_repair_ready (&r, 2));

  /* the turn after the last media push taken, as rtp_burst_repair_next ()
   * with the same media */
  rtp_burst_repair_media_sent (&r, 10 * MS, 1200);
  rtp_burst_repair_turn (&r, 14 * MS, 2 * MS, 0, 40 * MS, &turn);
  rtp_burst_repair_next (&r, &media, 0, 40 * MS, &expect);
  fail_unless_equals_uint64 (turn.due, expect.due);
  fail_unless_equals_int (turn.before_media, expect.before_media);
  /* half a slot after the last media push */
  fail_unless_equals_uint64 (turn.due, 11 * MS);

  rtp_burst_repair_report (&r, &rep);
  fail_unless_equals_int (rep.queued, 1);
  fail_unless_equals_uint64 (rep.packets, 0);
  pop_expect (&r, 11 * MS, FALSE, 2);
  rtp_burst_repair_report (&r, &rep);
  fail_unless_equals_int (rep.queued, 0);
  fail_unless_equals_uint64 (rep.packets, 1);
  fail_unless_equals_uint64 (rep.bytes, 1000);
  fail_unless_equals_uint64 (rep.max_delay, 2 * MS);

  /* a flush forgets the last media push */
  rtp_burst_repair_flush (&r);
  push_id (&r, 3, 1000, 20 * MS);
  rtp_burst_repair_turn (&r, NONE, 2 * MS, 0, 40 * MS, &turn);
  fail_unless_equals_uint64 (turn.due, 20 * MS);
  rtp_burst_repair_flush (&r);
}

GST_END_TEST;

static Suite *
rtpburstrepair_suite (void)
{
  Suite *s = suite_create ("rtpburstrepair");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_repair_between_slots);
  tcase_add_test (tc, test_repair_near_next_slot);
  tcase_add_test (tc, test_repair_rate_cap);
  tcase_add_test (tc, test_repair_cap_beside_media);
  tcase_add_test (tc, test_repair_cap_compressed);
  tcase_add_test (tc, test_repair_bound);
  tcase_add_test (tc, test_repair_flush);
  tcase_add_test (tc, test_repair_media_side);
  return s;
}

GST_CHECK_MAIN (rtpburstrepair);
