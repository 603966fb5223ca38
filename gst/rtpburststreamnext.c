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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* What leaves next, and when: the second part of rtpburststream.c
 * (taking it: rtpburststreamtake.c). */

#include "rtpburstprobe.h"
#include "rtpburststream-private.h"

/* Removes the frame at the head once it is closed and all its packets
 * left. */
void
rtp_burst_stream_finish_frame (RtpBurstStream * s, RtpBurstFrame * frame)
{
  if (!frame->closed || rtp_burst_frame_unsent (frame) > 0)
    return;
  s->st.frames++;
  if (!frame->unpaced)
    s->prev_end = rtp_burst_plan_end (&s->head.plan);
  rtp_burst_frames_remove_head (&s->q);
  reset_head (s);
}

static guint64
sync_time (const RtpBurstStream * s, const RtpBurstFrame * frame)
{
  if (frame->ts_time == RTP_BURST_TIME_NONE)
    return RTP_BURST_TIME_NONE;
  /* a synchronising sink releases it no earlier than the offset */
  return rtp_burst_time_add (frame->ts_time, MAX (s->head.sink_offset,
          s->config->sync_upstream_latency ? s->upstream_latency : 0));
}

/* Notes the frame started, for the caller's log (RtpBurstNext.start). */
static RtpBurstStarted *
note_started (RtpBurstStream * s, const RtpBurstFrame * frame)
{
  RtpBurstStarted *st = &s->started;

  memset (st, 0, sizeof (*st));
  s->have_started = TRUE;
  st->rtptime = frame->rtptime;
  st->n_packets = frame->n_packets;
  st->group = RTP_BURST_GROUP_ALONE;
  return st;
}

static void
start_unpaced (RtpBurstStream * s, RtpBurstFrame * frame)
{
  s->head.started = TRUE;
  frame->unpaced = TRUE;
  note_started (s, frame)->unpaced = TRUE;
  s->st.unpaced_frames++;
  /* pace=false needs no period: nothing to warn about */
  if (s->period == 0 && s->config->pace &&
      ++s->unpaced_since_period >= RTP_BURST_STREAM_PERIOD_WARN_FRAMES &&
      !s->period_warned) {
    s->period_warned = TRUE;
    s->notice_period = TRUE;
  }
}

/* Removes the frame at the head, not started, with all its packets. */
static void
drop_frame (RtpBurstStream * s, RtpBurstFrame * frame, guint64 backlog)
{
  s->st.dropped_frames++;
  s->notice_dropped = TRUE;
  s->drop.rtptime = frame->rtptime;
  s->drop.bytes = frame->bytes;
  s->drop.backlog = backlog;
  s->drop.max_latency = s->config->max_latency;
  s->drop.dropped_frames = s->st.dropped_frames;
  s->drop.packets = rtp_burst_frames_remove_head (&s->q);
  s->st.dropped_packets += s->drop.packets;
  reset_head (s);
}

/* Moves the frame's slots between those of the group's other members, in
 * clock time.  Never waits for the group (rtpburstgroup.h). */
static RtpBurstGroupResult
place_in_group (RtpBurstStream * s, const RtpBurstStreamNow * now)
{
  RtpBurstGroupResult res = rtp_burst_group_member_place (&s->group,
      &s->head.plan, now->clock, now->base_time);

  if (res == RTP_BURST_GROUP_OTHER_CLOCK && !s->group_clock_warned) {
    s->group_clock_warned = TRUE;
    s->notice_other_clock = TRUE;
  }
  return res;
}

/* The span of a frame's slots, with room for the margin after the last
 * when auto-margin is on. */
static guint64
frame_span (RtpBurstStream * s, const RtpBurstFrame * frame)
{
  gboolean shortened;
  guint64 span;

  if (!s->config->auto_margin)
    return rtp_burst_span (frame->period, frame->duty);
  span = rtp_burst_margin_span (frame->period, frame->duty,
      rtp_burst_margin_get (&s->margin), frame->n_slots, &shortened);
  if (shortened)
    s->st.margin_frames++;
  return span;
}

/* Whether @frame can make a probe cluster at @rate: the packets and the
 * bytes rtpburstprobe.h asks for. */
static gboolean
probe_fits (const RtpBurstFrame * frame, guint64 rate)
{
  return frame->n_packets >= RTP_BURST_PROBE_MIN_PACKETS &&
      frame->bytes >= rtp_burst_probe_min_bytes (rate);
}

/* Plans the closed frame at the head.  Returns FALSE if it was dropped. */
static gboolean
start_frame (RtpBurstStream * s, RtpBurstFrame * frame,
    const RtpBurstStreamNow * now)
{
  const RtpBurstStreamConfig *c = s->config;
  Head *h = &s->head;
  RtpBurstStart start;
  RtpBurstLimits limits;
  RtpBurstLimitResult limited;
  RtpBurstStarted *st;
  guint64 offset, span, probe;

  if (frame->period == 0 || now->now == RTP_BURST_TIME_NONE) {
    start_unpaced (s, frame);
    return TRUE;
  }
  s->unpaced_since_period = 0;

  /* frames are due later by what a synchronising sink downstream adds;
   * the previous frame's packets leave later by as much */
  offset = rtp_burst_sink_hold_offset (&s->sink_hold);
  h->sink_offset = rtp_burst_sink_hold_frame_start (&s->sink_hold);
  if (h->sink_offset != offset && s->prev_end != RTP_BURST_TIME_NONE)
    s->prev_end = h->sink_offset > offset ?
        rtp_burst_time_add (s->prev_end, h->sink_offset - offset) :
        s->prev_end - MIN (s->prev_end, offset - h->sink_offset);

  /* a probe: the frame at its rate, whatever the cap; a frame too small
   * for a cluster (a B-frame) leaves it to the next */
  span = frame_span (s, frame);
  probe = 0;
  if (s->probe_next > 0 && probe_fits (frame, s->probe_next)) {
    probe = s->probe_next;
    s->probe_next = 0;
  }
  if (probe > 0)
    span = MIN (span, rtp_burst_rate_span (frame->bytes, probe));
  rtp_burst_plan_start (sync_time (s, frame), frame->ready_time, now->now,
      s->prev_end, span, &start);

  /* ... and never slower than without it */
  limits.max_rate = max_rate (s);
  if (probe > 0 && limits.max_rate > 0)
    limits.max_rate = MAX (limits.max_rate, probe);
  limits.budget = rate_cap_enabled (s) ? c->max_latency : 0;
  limits.overload = c->overload;
  if (rtp_burst_apply_limits (&limits, frame->bytes, frame->n_slots, &start,
          &limited) == RTP_BURST_LIMIT_DROP) {
    drop_frame (s, frame, limited.backlog);
    return FALSE;
  }
  st = note_started (s, frame);
  h->started = TRUE;
  h->probe_rate = st->probe_rate = probe;
  if (limited.spread)
    s->st.spread_frames++;
  if (limited.compressed)
    s->st.compressed_frames++;
  s->st.max_backlog = MAX (s->st.max_backlog, limited.backlog);
  if (start.catch_up)
    s->st.catch_up_frames++;
  rtp_burst_plan_init (&h->plan, start.start, start.span, frame->period,
      frame->n_packets, frame->n_slots, frame->burst_size, frame->slot_jitter);
  st->group = place_in_group (s, now);
  s->st.slot_duration = rtp_burst_plan_slot_duration (&h->plan);
  s->st.burst_size = rtp_burst_plan_burst_size (&h->plan);
  st->n_slots = frame->n_slots;
  st->burst_size = s->st.burst_size;
  st->slot_duration = s->st.slot_duration;
  st->span = start.span;
  st->phase = rtp_burst_plan_phase (&h->plan);
  st->first_slot = rtp_burst_time_add (start.start, st->phase);
  st->catch_up = start.catch_up;
  st->spread = limited.spread;
  st->compressed = limited.compressed;
  return TRUE;
}

/* Makes sure the started paced head frame knows the time of its next slot.
 * FALSE once it has none left. */
static gboolean
next_slot (RtpBurstStream * s)
{
  Head *h = &s->head;

  if (!h->have_slot) {
    if (!rtp_burst_plan_next (&h->plan, s->rand, &h->slot_time,
            &h->slot_packets))
      return FALSE;
    h->have_slot = TRUE;
  }
  return TRUE;
}

/* --- what to do next ----------------------------------------------------- */

typedef enum
{
  DECIDED,
  MEDIA,                        /* the media goes first */
  AGAIN,                        /* the head changed: look again */
} Turn;

static void
wait_until (RtpBurstNext * next, guint64 time, RtpBurstWhy why,
    gboolean for_close, gboolean for_slot)
{
  next->kind = RTP_BURST_NEXT_WAIT_UNTIL;
  next->why = why;
  next->time = time;
  next->for_close = for_close;
  next->for_slot = for_slot;
}

static RtpBurstWhy
rate_why (RtpBurstBookingStep step)
{
  return step == RTP_BURST_BOOKING_WAIT_CLAIM ? RTP_BURST_WHY_GROUP_CLAIM :
      RTP_BURST_WHY_GROUP_RATE;
}

static void
rate_time (const RtpBurstStreamNow * now, RtpBurstRateTime * t)
{
  t->now = now->now;
  t->clock = now->clock;
  t->base_time = now->base_time;
}

/* The push being decided was booked on the group's rate in @klass. */
static void
on_rate (RtpBurstStream * s, const RtpBurstStreamNow * now, guint klass)
{
  s->push.on_rate = TRUE;
  s->push.rate_class = klass;
  rate_time (now, &s->push.rate_time);
}

/* Counts @bytes that leave whatever the rate says (a pass-through push, or
 * one a synchronising sink paces) in the group's rate (rtpburstbooking.h),
 * so that every paced member makes room. */
static void
count_in_rate (RtpBurstStream * s, const RtpBurstStreamNow * now, guint64 bytes)
{
  RtpBurstRateTime t;

  rate_time (now, &t);
  if (rtp_burst_rate_count (&s->group, &t, bytes))
    on_rate (s, now, RTP_BURST_GROUP_CLASS_TOP);
}

/* Whether a repair packet is queued that no queued barrier event has to
 * precede. */
static gboolean
repair_ready (const RtpBurstStream * s)
{
  return rtp_burst_repair_ready (&s->repair,
      rtp_burst_frames_barriers_out (&s->q));
}

/* Whether the repair packet at the head was queued before the event at the
 * head of the media's queue, which then waits for it. */
static gboolean
repair_precedes_event (const RtpBurstStream * s)
{
  return rtp_burst_repair_head_order (&s->repair) <=
      rtp_burst_frames_events_out (&s->q);
}

/* Whether the repair packet at the head of its queue leaves before the
 * media's next slot (rtpburstrepair.h), and when. */
static Turn
repair_turn (RtpBurstStream * s, RtpBurstFrame * item,
    const RtpBurstStreamNow * now, RtpBurstNext * next)
{
  const RtpBurstStreamConfig *c = s->config;
  RtpBurstBooking *b = &s->repair_booking;
  guint64 next_media = RTP_BURST_TIME_NONE, until;
  RtpBurstRepairTurn turn;
  RtpBurstBookingStep step;
  RtpBurstRateTime t;

  if (item && !item->event) {
    /* a frame to start, or the packets of one that leaves as they come,
     * go first (an unpaced frame still open may wait for more) */
    if ((item->unpaced && rtp_burst_frame_unsent (item) > 0) ||
        (item->closed && !s->head.started))
      return MEDIA;
    if (s->head.started && !item->unpaced) {
      if (!next_slot (s)) {
        rtp_burst_stream_finish_frame (s, item);
        return AGAIN;
      }
      next_media = s->head.slot_time;
    }
  }
  /* not paced: no spacing, at once */
  rtp_burst_repair_turn (&s->repair, next_media, c->pace_repair ?
      s->st.slot_duration : 0, c->pace_repair ? max_rate (s) : 0,
      s->period ? s->period : RTP_BURST_TIME_NONE, &turn);
  if (!turn.before_media)
    return MEDIA;
  if (now->now != RTP_BURST_TIME_NONE && turn.due > now->now) {
    wait_until (next, turn.due, RTP_BURST_WHY_REPAIR_TURN, FALSE, FALSE);
    return DECIDED;
  }
  /* its turn: then its room on the group's rate */
  rate_time (now, &t);
  step = rtp_burst_booking_ready (b, &s->group, &t,
      rtp_burst_repair_head_size (&s->repair),
      rtp_burst_group_class (c->priority, TRUE), &s->rate_waits, &until);
  if (step != RTP_BURST_BOOKING_GO) {
    wait_until (next, until, rate_why (step), FALSE, FALSE);
    return DECIDED;
  }
  turn.due = MAX (turn.due, rtp_burst_booking_wait_end (b));
  next->kind = RTP_BURST_NEXT_REPAIR;
  next->why = turn.overrun ? RTP_BURST_WHY_REPAIR_BOUND :
      RTP_BURST_WHY_REPAIR_TURN;
  next->time = turn.due;
  if (turn.due >= rtp_burst_sink_hold_offset (&s->sink_hold))
    next->dts = turn.due - rtp_burst_sink_hold_offset (&s->sink_hold);
  s->push.overrun = turn.overrun;
  return DECIDED;
}

/* The frame at the head, not started: started unpaced, or planned (or
 * dropped) once it is closed; an open one is waited for, at most one period
 * after its latest packet, and then closed. */
static Turn
start_head_frame (RtpBurstStream * s, RtpBurstFrame * item,
    const RtpBurstStreamNow * now, RtpBurstNext * next)
{
  guint64 deadline;

  if (item->unpaced) {
    start_unpaced (s, item);
    return MEDIA;
  }
  if (item->closed) {
    if (start_frame (s, item, now))
      return MEDIA;
    next->kind = RTP_BURST_NEXT_DROPPED;
    next->why = RTP_BURST_WHY_BUDGET;
    return DECIDED;
  }
  deadline = rtp_burst_time_add (item->last_arrival, s->period);
  if (item->last_arrival == RTP_BURST_TIME_NONE ||
      now->now == RTP_BURST_TIME_NONE) {
    next->kind = RTP_BURST_NEXT_WAIT_DATA;
    next->why = RTP_BURST_WHY_OPEN_FRAME;
  } else if (now->now < deadline) {
    wait_until (next, deadline, RTP_BURST_WHY_OPEN_FRAME, TRUE, FALSE);
  } else {
    /* no packet for one period */
    s->st.timeout_frames++;
    rtp_burst_stream_close_open (s, now->now);
    return AGAIN;
  }
  return DECIDED;
}

/* A started unpaced frame: its packets as they come. */
static Turn
unpaced_turn (RtpBurstStream * s, RtpBurstFrame * item,
    const RtpBurstStreamNow * now, RtpBurstNext * next)
{
  guint n = rtp_burst_frame_unsent (item);

  if (n == 0) {
    if (!item->closed) {
      next->kind = RTP_BURST_NEXT_WAIT_DATA;
      next->why = RTP_BURST_WHY_OPEN_FRAME;
      return DECIDED;
    }
    rtp_burst_stream_finish_frame (s, item);
    return AGAIN;
  }
  next->kind = RTP_BURST_NEXT_PUSH;
  next->why = RTP_BURST_WHY_UNPACED;
  next->n_packets = n;
  next->rtptime = item->rtptime;
  s->push.paced = FALSE;
  count_in_rate (s, now, rtp_burst_frames_head_bytes (&s->q, item, n));
  return DECIDED;
}

/* The release-ahead horizon in force (rtpburstahead.h): not on a group's
 * rate, nor with a congestion controller. */
static guint64
ahead_horizon (RtpBurstStream * s)
{
  RtpBurstGroupReport group;
  guint off = RTP_BURST_AHEAD_OFF_NONE;

  if (s->config->release_ahead == 0)
    return 0;
  rtp_burst_group_member_report (&s->group, &group);
  if (group.max_rate > 0)
    off |= RTP_BURST_AHEAD_OFF_GROUP_RATE;
  if (s->config->cc_on)
    off |= RTP_BURST_AHEAD_OFF_CC;
  return rtp_burst_ahead_horizon (&s->ahead, s->config->release_ahead, off);
}

/* A started paced frame: its next slot, once waited for (or within the
 * release-ahead horizon), then its room on the group's rate. */
static Turn
slot_turn (RtpBurstStream * s, RtpBurstFrame * item,
    const RtpBurstStreamNow * now, RtpBurstNext * next)
{
  Head *h = &s->head;
  guint klass = rtp_burst_group_class (s->config->priority, FALSE);
  RtpBurstBookingStep step;
  guint64 bytes, until;
  gboolean held;
  RtpBurstRateTime t;

  if (!next_slot (s)) {
    rtp_burst_stream_finish_frame (s, item);
    return AGAIN;
  }
  if (!h->slot_reached) {
    /* without a clock the wait fails at once and the slot is reached, as
     * without a horizon */
    guint64 ahead = now->now != RTP_BURST_TIME_NONE ? ahead_horizon (s) : 0;

    if (ahead == 0 || !rtp_burst_ahead_due (h->slot_time, now->now, ahead)) {
      /* waited for even when it is due: the caller's clock says when; with
       * a horizon, until a frame period of slots is within it */
      wait_until (next, rtp_burst_ahead_wake (h->slot_time, ahead,
              item->period), RTP_BURST_WHY_SLOT, FALSE, ahead == 0);
      return DECIDED;
    }
    /* handed over now, with its slot's DTS */
    h->slot_reached = TRUE;
    h->slot_lateness = now->now > h->slot_time ? now->now - h->slot_time : 0;
  }
  bytes = rtp_burst_frames_head_bytes (&s->q, item, h->slot_packets);
  rate_time (now, &t);
  /* while a synchronising sink in the thread holds this frame's pushes
   * (until the element takes its latency, from the next frame on), that
   * sink paces them by their DTS and the task reaches the slots late: they
   * keep their slots and do not wait for the rate, as without a group;
   * their bytes count in it as a pass-through member's */
  held = item->serial == s->held_serial;
  if (held && !rtp_burst_booking_booked (&h->booking) &&
      rtp_burst_booking_count (&h->booking, &s->group, &t, bytes, h->slot_time))
    on_rate (s, now, RTP_BURST_GROUP_CLASS_TOP);
  step = rtp_burst_booking_ready (&h->booking, &s->group, &t, bytes, klass,
      &s->rate_waits, &until);
  if (step != RTP_BURST_BOOKING_GO) {
    wait_until (next, until, rate_why (step), FALSE, FALSE);
    return DECIDED;
  }
  if (rtp_burst_booking_on_rate (&h->booking))
    on_rate (s, now, klass);
  next->kind = RTP_BURST_NEXT_PUSH;
  next->why = RTP_BURST_WHY_SLOT;
  next->rtptime = item->rtptime;
  next->n_packets = h->slot_packets;
  next->time = h->slot_time;
  /* it leaves when the link has it, with that DTS (a stream that is behind
   * gets DTS now, not its past slot, so that a synchronising sink behind a
   * queue does not send its backlog at once) */
  if (rtp_burst_booking_booked (&h->booking))
    next->time = MAX (h->slot_time, rtp_burst_booking_release (&h->booking));
  if (next->time >= h->sink_offset)
    next->dts = next->time - h->sink_offset;
  s->push.paced = TRUE;
  s->push.lateness = h->slot_lateness;
  return DECIDED;
}

static Turn
next_once (RtpBurstStream * s, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  RtpBurstFrame *item = rtp_burst_frames_head (&s->q);
  gboolean repair_first;
  Turn turn;

  /* a slot waited for leaves at once */
  if (item && s->head.slot_reached)
    return slot_turn (s, item, now, next);
  /* repair packets leave in PLAYING, after the barrier events queued
   * before them; an event at the head queued before the repair packet at
   * the head of its queue goes first */
  repair_first = repair_ready (s) && (item == NULL || !item->event ||
      repair_precedes_event (s));
  if (now->playing && repair_first) {
    turn = repair_turn (s, item, now, next);
    if (turn != MEDIA)
      return turn;
  }
  if (item == NULL || (item->event && repair_first) ||
      (!item->event && !now->playing)) {
    /* the repair packets queued before an event leave first, in PLAYING;
     * packets only leave in PLAYING */
    next->kind = RTP_BURST_NEXT_WAIT_DATA;
    next->why = item == NULL ? RTP_BURST_WHY_EMPTY : item->event ?
        RTP_BURST_WHY_REPAIR_FIRST : RTP_BURST_WHY_NOT_PLAYING;
    return DECIDED;
  }
  if (item->event) {
    next->kind = RTP_BURST_NEXT_EVENT;
    next->why = RTP_BURST_WHY_EVENT;
    next->event = item->event;
    return DECIDED;
  }
  if (!s->head.started) {
    turn = start_head_frame (s, item, now, next);
    if (turn != MEDIA)
      return turn;
  }
  if (item->unpaced)
    return unpaced_turn (s, item, now, next);
  return slot_turn (s, item, now, next);
}

void
rtp_burst_stream_next (RtpBurstStream * s, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  s->have_started = FALSE;
  do {
    memset (next, 0, sizeof (*next));
    next->time = next->dts = RTP_BURST_TIME_NONE;
    s->push.now = now->now;
    s->push.on_rate = FALSE;
  } while (next_once (s, now, next) == AGAIN);
  if (s->have_started) {
    next->started = TRUE;
    next->start = s->started;
  }
}

const gchar *
rtp_burst_why_name (RtpBurstWhy why)
{
  static const gchar *names[] = {
    [RTP_BURST_WHY_NONE] = "",
    [RTP_BURST_WHY_EMPTY] = "nothing queued",
    [RTP_BURST_WHY_NOT_PLAYING] = "packets leave in PLAYING",
    [RTP_BURST_WHY_REPAIR_FIRST] =
        "repair packets queued before the event leave first, in PLAYING",
    [RTP_BURST_WHY_OPEN_FRAME] = "the frame is open",
    [RTP_BURST_WHY_SLOT] = "slot",
    [RTP_BURST_WHY_GROUP_RATE] = "held by the group's rate",
    [RTP_BURST_WHY_GROUP_CLAIM] =
        "held by the group's rate: a push that left before holds the link",
    [RTP_BURST_WHY_REPAIR_TURN] = "repair packet's turn",
    [RTP_BURST_WHY_REPAIR_BOUND] = "repair packet at its bound",
    [RTP_BURST_WHY_UNPACED] = "unpaced",
    [RTP_BURST_WHY_BUDGET] = "over the rate cap's budget",
    [RTP_BURST_WHY_EVENT] = "event",
  };

  if ((guint) why >= G_N_ELEMENTS (names) || names[why] == NULL)
    return "unknown";
  return names[why];
}
