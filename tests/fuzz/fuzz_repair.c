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

/*
 * libFuzzer target for the repair queue (gst/rtpburstrepair.c): repair
 * packets of any size arrive at any times (forwards, backwards, around
 * RTP_BURST_TIME_NONE) and are asked for their turn beside media slots of
 * any times and sizes, with and without a rate cap and a bound; they are
 * popped, refused, flushed.  Each input is a sequence of operations, an
 * opcode byte and its operands (bytes past the end read as 0).
 *
 * Invariants, checked with abort ():
 *  - the turn: never after the head's bound (arrival + max_delay,
 *    saturating), at it exactly when it overran; unless it overran, not
 *    before the head's arrival nor the previous release, and under a cap
 *    not before the last media slot has left the link at the cap, or at
 *    the media's own rate (its spacing) where that is the faster;
 *  - before_media iff the next media slot is unknown, or the turn is
 *    before it, or (under a cap only) at it;
 *  - the queue is first in, first out; the counts follow pushes, pops,
 *    refusals and flushes; a flush frees every packet (LeakSanitizer);
 *  - the stats: released = popped - refused, the longest wait is the
 *    largest (now - arrival) popped;
 * plus AddressSanitizer and UndefinedBehaviorSanitizer.
 */

#include "fuzz-input.h"
#include "rtpburstrepair.h"
#include "rtpburstschedule.h"

#define MAX_QUEUED 256
#define MAX_OPS 4096

enum
{
  OP_PUSH = 0,
  OP_TURN,                      /* rtp_burst_repair_next, then maybe pop */
  OP_REFUSE,
  OP_FLUSH,
  OP_RESET_STATS,
  OP_COUNT
};

typedef struct
{
  guint id;
  guint size;
  guint64 arrival;
} Packet;

typedef struct
{
  Packet q[MAX_QUEUED];
  guint head, n;                /* a ring */
  guint next_id;
  guint64 released, last_release, max_delay;
  guint last_size;              /* of the last pop, for a refusal */
  gboolean can_refuse;
} Model;

/* A bit rate: none, a few typical ones, 1 bit/s, anything. */
static guint64
fuzz_rate (FuzzInput * in)
{
  static const guint64 rates[] = { 0, 1, 1000000, 6000000, 8080000,
    1000000000, G_MAXUINT64
  };
  guint8 sel = fuzz_u8 (in);

  if (sel < 200)
    return rates[sel % G_N_ELEMENTS (rates)];
  return fuzz_u64 (in);
}

static void
checked_turn (RtpBurstRepair * r, Model * m, FuzzInput * in)
{
  RtpBurstRepairMedia media;
  RtpBurstRepairTurn turn;
  const Packet *p = &m->q[m->head];
  guint64 max_rate = fuzz_rate (in), max_delay, bound, now;
  guint8 flags = fuzz_u8 (in);
  gboolean capped = max_rate > 0;

  media.last = (flags & 1) ? fuzz_time (in) : RTP_BURST_TIME_NONE;
  media.last_bytes = (flags & 2) ? fuzz_u32 (in) : fuzz_u16 (in);
  media.next = (flags & 4) ? fuzz_time (in) : RTP_BURST_TIME_NONE;
  media.spacing = fuzz_time (in);
  max_delay = (flags & 8) ? RTP_BURST_TIME_NONE : fuzz_time (in);

  rtp_burst_repair_next (r, &media, max_rate, max_delay, &turn);

  bound = rtp_burst_time_add (p->arrival, max_delay);
  FUZZ_CHECK (turn.due <= bound, "due %" G_GUINT64_FORMAT " after the bound %"
      G_GUINT64_FORMAT, turn.due, bound);
  if (turn.overrun) {
    FUZZ_CHECK (turn.due == bound, "overran, due %" G_GUINT64_FORMAT
        " not the bound %" G_GUINT64_FORMAT, turn.due, bound);
  } else {
    FUZZ_CHECK (turn.due >= p->arrival, "due %" G_GUINT64_FORMAT
        " before the arrival %" G_GUINT64_FORMAT, turn.due, p->arrival);
    if (m->last_release != RTP_BURST_TIME_NONE)
      FUZZ_CHECK (turn.due >= m->last_release, "due %" G_GUINT64_FORMAT
          " before the previous release %" G_GUINT64_FORMAT, turn.due,
          m->last_release);
    if (capped && media.last != RTP_BURST_TIME_NONE) {
      guint64 on_link = rtp_burst_rate_span (media.last_bytes, max_rate);

      /* a compressed frame's slots leave faster than the cap */
      if (media.spacing > 0 && on_link > media.spacing)
        on_link = media.spacing;
      FUZZ_CHECK (turn.due >= rtp_burst_time_add (media.last, on_link),
          "due %" G_GUINT64_FORMAT " while the media slot at %"
          G_GUINT64_FORMAT " of %u bytes is on the link", turn.due,
          media.last, media.last_bytes);
    }
  }
  FUZZ_CHECK (turn.before_media == (media.next == RTP_BURST_TIME_NONE ||
          turn.due < media.next || (capped && turn.due == media.next)),
      "before_media %d, due %" G_GUINT64_FORMAT ", next %" G_GUINT64_FORMAT
      ", rate %" G_GUINT64_FORMAT, turn.before_media, turn.due, media.next,
      max_rate);

  /* pop it, as the element does once its time has come (or later) */
  if (fuzz_u8 (in) & 1) {
    guint size, *data;

    now = (fuzz_u8 (in) & 1) ? turn.due : fuzz_time (in);
    data = rtp_burst_repair_pop (r, turn.due, turn.overrun, now, &size);
    FUZZ_CHECK (data != NULL && *data == p->id && size == p->size,
        "popped %u (%u bytes), expected %u (%u bytes)", data ? *data : 0,
        size, p->id, p->size);
    if (now != RTP_BURST_TIME_NONE && now > p->arrival)
      m->max_delay = MAX (m->max_delay, now - p->arrival);
    g_free (data);
    m->released++;
    m->last_release = turn.due;
    m->last_size = p->size;
    m->can_refuse = TRUE;
    m->head = (m->head + 1) % MAX_QUEUED;
    m->n--;
  }
}

static void
check_counts (const RtpBurstRepair * r, const Model * m)
{
  FUZZ_CHECK (rtp_burst_repair_queued (r) == m->n, "%u queued, %u expected",
      rtp_burst_repair_queued (r), m->n);
  FUZZ_CHECK (r->n_released == m->released, "%" G_GUINT64_FORMAT
      " released, %" G_GUINT64_FORMAT " expected", r->n_released,
      m->released);
  FUZZ_CHECK (r->max_delay == m->max_delay, "max delay %" G_GUINT64_FORMAT
      ", %" G_GUINT64_FORMAT " expected", r->max_delay, m->max_delay);
  if (m->n > 0)
    FUZZ_CHECK (rtp_burst_repair_head_epoch (r) == m->q[m->head].id,
        "head epoch %" G_GUINT64_FORMAT ", expected %u",
        rtp_burst_repair_head_epoch (r), m->q[m->head].id);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  RtpBurstRepair r;
  Model m = { 0, };
  guint ops = 0;

  rtp_burst_repair_init (&r, g_free);
  m.last_release = RTP_BURST_TIME_NONE;

  while (fuzz_more (&in) && ops++ < MAX_OPS) {
    switch (fuzz_u8 (&in) % OP_COUNT) {
      case OP_PUSH:
        if (m.n < MAX_QUEUED) {
          Packet *p = &m.q[(m.head + m.n) % MAX_QUEUED];
          guint *id = g_new (guint, 1);
          guint64 arrival;

          p->id = *id = m.next_id++;
          p->size = (fuzz_u8 (&in) < 240) ? fuzz_u16 (&in) : fuzz_u32 (&in);
          arrival = fuzz_time (&in);
          /* an unknown arrival may leave at once: it is taken as 0 */
          p->arrival = arrival == RTP_BURST_TIME_NONE ? 0 : arrival;
          /* the epoch (and the order) is the id here: it comes out with
           * the head */
          rtp_burst_repair_push (&r, id, p->size, arrival, p->id, p->id);
          m.n++;
        }
        break;
      case OP_TURN:
        if (m.n > 0)
          checked_turn (&r, &m, &in);
        break;
      case OP_REFUSE:
        /* only right after a pop, as the element does */
        if (m.can_refuse) {
          rtp_burst_repair_refused (&r, m.last_size);
          m.released--;
          m.can_refuse = FALSE;
        }
        break;
      case OP_FLUSH:{
        guint n = rtp_burst_repair_flush (&r);

        FUZZ_CHECK (n == m.n, "flushed %u of %u", n, m.n);
        m.n = 0;
        m.last_release = RTP_BURST_TIME_NONE;
        m.can_refuse = FALSE;
        break;
      }
      case OP_RESET_STATS:
        rtp_burst_repair_reset_stats (&r);
        m.released = m.max_delay = 0;
        m.can_refuse = FALSE;
        break;
    }
    check_counts (&r, &m);
  }
  rtp_burst_repair_flush (&r);
  return 0;
}
