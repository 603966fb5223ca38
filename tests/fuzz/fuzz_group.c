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
 * libFuzzer target for the group timeline (gst/rtpburstgroup.c): members
 * join, leave, forget and place frames of any size at any times (forwards,
 * backwards, around RTP_BURST_TIME_NONE), on a timeline directly and
 * through named groups.  Each input is a sequence of operations, an opcode
 * byte and its operands (bytes past the end read as 0).
 *
 * Invariants, checked with abort ():
 *  - the phase is below Δt (0 when Δt is 0) and the one the plan got;
 *  - the frame's slots, walked as the element walks them: every packet
 *    once, non-decreasing, none before the start, none at or after
 *    start + span (at the start when the span is 0) unless saturated;
 *  - shared slots <= slots used, and a gap below RTP_BURST_GROUP_TOUCH
 *    (measured on slots of the frame) means some are shared;
 *  - member counts follow joins and leaves; leaving everything frees the
 *    named group (LeakSanitizer);
 *  - bookings on a group's rate (classes of priority, any times): a push
 *    leaves no earlier than asked, and no earlier than the end of what was
 *    booked before it in its class or a higher one (unless saturated);
 *  - the rate's clock (two clocks): a booking is placed exactly when no
 *    member of the group that booked on the rate remains, or its clock is
 *    theirs; all of them booked on one clock;
 * plus AddressSanitizer and UndefinedBehaviorSanitizer.
 */

#include "fuzz-input.h"
#include "rtpburstgroup.h"

#define MAX_MEMBERS 8
#define MAX_PACKETS 2048
#define MAX_PLACES 64

enum
{
  OP_ADD = 0,
  OP_REMOVE,
  OP_FORGET,
  OP_PLACE,
  OP_JOIN,                      /* a named group */
  OP_LEAVE,
  OP_PLACE_NAMED,
  OP_BOOK,                      /* bookings on a named group's rate */
  OP_COUNT
};

static const gchar *const names[] = { "a", "b", "" };
static const gchar clocks[2] = { 'x', 'y' };

/* The members' (gm[i]) bookings are counted on the rate of their group:
 * the clock they booked on, NULL while they have not. */
static gconstpointer counted_on[MAX_MEMBERS];

static void
checked_place (RtpBurstTimeline * tl, RtpBurstGroupMember * gm, guint member,
    FuzzInput * in, GRand * rand)
{
  RtpBurstPlan plan;
  RtpBurstPlacement out = { 0, };
  guint64 start = fuzz_time (in), span, period, dt, t, prev = 0, limit;
  guint n = fuzz_u16 (in) % (MAX_PACKETS + 1);
  guint k = fuzz_u16 (in), b = fuzz_u8 (in) + 1, used, released = 0, np;
  guint slots = 0;
  gdouble jitter = (fuzz_u8 (in) & 1) ? 0.01 : 0.0;

  span = (fuzz_u8 (in) & 1) ? fuzz_time (in) : fuzz_u32 (in);
  period = (fuzz_u8 (in) & 1) ? span : fuzz_time (in);
  rtp_burst_plan_init (&plan, start, span, period, n, k, b, jitter);
  used = rtp_burst_plan_used_slots (&plan);
  dt = rtp_burst_plan_slot_duration (&plan);
  if (gm != NULL) {
    /* two pipelines' clocks, any base time */
    RtpBurstGroupResult res = rtp_burst_group_member_place (gm, &plan,
        &clocks[fuzz_u8 (in) & 1], fuzz_time (in));

    FUZZ_CHECK (res != RTP_BURST_GROUP_BUSY, "busy with one thread");
    FUZZ_CHECK ((res == RTP_BURST_GROUP_ALONE) == (gm->group == NULL),
        "result %d in group %p", res, (gpointer) gm->group);
    FUZZ_CHECK (plan.start == start, "start %" G_GUINT64_FORMAT " became %"
        G_GUINT64_FORMAT, start, plan.start);
    out.phase = res == RTP_BURST_GROUP_PLACED ? gm->last_phase : 0;
    out.gap = res == RTP_BURST_GROUP_PLACED ? gm->last_gap :
        RTP_BURST_TIME_NONE;
  } else {
    rtp_burst_timeline_place (tl, member, &plan, &out);
    FUZZ_CHECK (out.shared <= used, "%u shared of %u slots", out.shared,
        used);
    FUZZ_CHECK (out.gap >= RTP_BURST_GROUP_TOUCH || out.shared > 0,
        "gap %" G_GUINT64_FORMAT " and no slot shared", out.gap);
  }
  FUZZ_CHECK (out.phase == plan.phase, "phase %" G_GUINT64_FORMAT
      " reported, %" G_GUINT64_FORMAT " in the plan", out.phase, plan.phase);
  FUZZ_CHECK (dt == 0 ? plan.phase == 0 : plan.phase < dt, "phase %"
      G_GUINT64_FORMAT " for slots of %" G_GUINT64_FORMAT, plan.phase, dt);

  start = MIN (start, RTP_BURST_TIME_NONE - 1);
  /* the end, unless a time saturated on the way */
  limit = rtp_burst_time_add (start, span);
  while (rtp_burst_plan_next (&plan, jitter > 0 ? rand : NULL, &t, &np)) {
    FUZZ_CHECK (t >= start && t >= prev, "slot %u at %" G_GUINT64_FORMAT
        " (start %" G_GUINT64_FORMAT ", previous %" G_GUINT64_FORMAT ")",
        slots, t, start, prev);
    if (jitter == 0.0 && limit < RTP_BURST_TIME_NONE - 1)
      FUZZ_CHECK (span == 0 ? t == start : t < limit, "slot %u at %"
          G_GUINT64_FORMAT " after the span's end %" G_GUINT64_FORMAT
          " (phase %" G_GUINT64_FORMAT ")", slots, t, limit, plan.phase);
    released += np;
    prev = t;
    slots++;
  }
  FUZZ_CHECK (released == n && slots == used, "%u packets in %u slots of "
      "%u packets in %u", released, slots, n, used);
}

/* The clock the members of gm[me]'s group that booked on its rate booked
 * on; NULL: none is left. */
static gconstpointer
rate_clock (RtpBurstGroupMember * gm, guint me)
{
  gconstpointer clock = NULL;
  guint j;

  for (j = 0; j < MAX_MEMBERS; j++) {
    if (gm[j].group != gm[me].group || counted_on[j] == NULL)
      continue;
    FUZZ_CHECK (gm[j].rate_member, "member %u booked, not counted", j);
    FUZZ_CHECK (clock == NULL || clock == counted_on[j], "members of one "
        "group's rate booked on two clocks");
    clock = counted_on[j];
  }
  return clock;
}

/* Up to 8 bookings by member gm[me] on one of two clocks, at times that do
 * not go back, in any classes, with the group's rate unchanged in between;
 * each push then leaves at its release or later, claiming the link: a
 * claim fails only while what left in its class and above has not had its
 * time, and succeeds at the time it names. */
static void
checked_book (RtpBurstGroupMember * all, guint me, FuzzInput * in)
{
  RtpBurstGroupMember *gm = &all[me];
  gconstpointer clock = &clocks[fuzz_u8 (in) & 1], on;
  guint64 end[RTP_BURST_GROUP_CLASSES], gone[RTP_BURST_GROUP_CLASSES];
  guint64 now = fuzz_time (in), rate;
  guint i, c, n = fuzz_u8 (in) % 8 + 1;

  if (gm->group == NULL)
    return;
  if (fuzz_u8 (in) & 1)
    rtp_burst_group_member_set_max_rate (gm, fuzz_u8 (in) & 1 ?
        6000000 : fuzz_u64 (in));
  rate = rtp_burst_group_max_rate (gm->group);
  on = rate_clock (all, me);
  for (c = 0; c < RTP_BURST_GROUP_CLASSES; c++)
    end[c] = gone[c] = 0;
  for (i = 0; i < n; i++) {
    guint klass = fuzz_u8 (in) % (RTP_BURST_GROUP_CLASSES + 2);
    guint64 bytes = fuzz_u32 (in) % 100000, release = 0, span, t, until = 0;
    RtpBurstGroupResult res;

    now = rtp_burst_time_add (now, fuzz_u32 (in) % 10000000);
    res = rtp_burst_group_member_book (gm, clock, 0, now, bytes, klass,
        &release);
    FUZZ_CHECK (res == (rate == 0 ? RTP_BURST_GROUP_ALONE : on == NULL ||
            on == clock ? RTP_BURST_GROUP_PLACED :
            RTP_BURST_GROUP_OTHER_CLOCK), "result %d at rate %"
        G_GUINT64_FORMAT " on clock %c, the rate's %c", res, rate,
        *(const gchar *) clock, on ? *(const gchar *) on : '-');
    if (res != RTP_BURST_GROUP_PLACED)
      continue;
    if (counted_on[me] == NULL)
      counted_on[me] = clock;
    on = clock;
    klass = MIN (klass, RTP_BURST_GROUP_CLASS_TOP);
    FUZZ_CHECK (release >= now, "leaves at %" G_GUINT64_FORMAT " asked at %"
        G_GUINT64_FORMAT, release, now);
    for (c = klass; c < RTP_BURST_GROUP_CLASSES; c++)
      FUZZ_CHECK (release >= end[c], "class %u leaves at %" G_GUINT64_FORMAT
          ", class %u's bookings end at %" G_GUINT64_FORMAT, klass, release,
          c, end[c]);
    span = rtp_burst_rate_span (bytes, rate);
    end[klass] = MAX (end[klass], rtp_burst_time_add (release, span));

    t = rtp_burst_time_add (release, fuzz_u32 (in) % 3000000);
    if (!rtp_burst_group_claim (gm->group, clock, t, bytes, klass, &until)) {
      FUZZ_CHECK (until > t, "claim at %" G_GUINT64_FORMAT " refused until %"
          G_GUINT64_FORMAT, t, until);
      t = until;
      FUZZ_CHECK (rtp_burst_group_claim (gm->group, clock, t, bytes, klass,
              &until), "claim refused at the time it named, %"
          G_GUINT64_FORMAT, t);
    }
    for (c = klass; c < RTP_BURST_GROUP_CLASSES; c++)
      FUZZ_CHECK (t >= gone[c], "class %u left at %" G_GUINT64_FORMAT
          ", class %u's pushes end at %" G_GUINT64_FORMAT, klass, t, c,
          gone[c]);
    gone[klass] = MAX (gone[klass], rtp_burst_time_add (t, span));
    /* sometimes the push returns later: the link is taken from then */
    if (fuzz_u8 (in) % 4 == 0) {
      t = rtp_burst_time_add (t, fuzz_u32 (in) % 3000000);
      rtp_burst_group_occupy (gm->group, clock, t, bytes, klass);
      gone[klass] = MAX (gone[klass], rtp_burst_time_add (t, span));
    }
  }
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  RtpBurstTimeline *tl = rtp_burst_timeline_new ();
  RtpBurstGroupMember gm[MAX_MEMBERS];
  guint ids[MAX_MEMBERS], n_ids = 0, places = 0, i;
  GRand *rand = g_rand_new_with_seed (fuzz_u32 (&in));

  for (i = 0; i < MAX_MEMBERS; i++) {
    rtp_burst_group_member_init (&gm[i]);
    counted_on[i] = NULL;
  }

  while (fuzz_more (&in) && places < MAX_PLACES) {
    guint8 op = fuzz_u8 (&in) % OP_COUNT;
    guint sel = fuzz_u8 (&in);

    switch (op) {
      case OP_ADD:
        if (n_ids < MAX_MEMBERS)
          ids[n_ids++] = rtp_burst_timeline_add_member (tl);
        FUZZ_CHECK (rtp_burst_timeline_n_members (tl) == n_ids,
            "%u members, %u added", rtp_burst_timeline_n_members (tl), n_ids);
        break;
      case OP_REMOVE:
        if (n_ids > 0) {
          guint j = sel % n_ids;

          rtp_burst_timeline_remove_member (tl, ids[j]);
          ids[j] = ids[--n_ids];
        }
        FUZZ_CHECK (rtp_burst_timeline_n_members (tl) == n_ids,
            "%u members after a removal, %u expected",
            rtp_burst_timeline_n_members (tl), n_ids);
        break;
      case OP_FORGET:
        /* also an id that is not a member */
        rtp_burst_timeline_forget (tl, n_ids > 0 ? ids[sel % n_ids] : sel);
        break;
      case OP_PLACE:
        places++;
        checked_place (tl, NULL, n_ids > 0 && sel < 240 ? ids[sel % n_ids] :
            sel, &in, rand);
        break;
      case OP_JOIN:
        rtp_burst_group_member_join (&gm[sel % MAX_MEMBERS],
            names[fuzz_u8 (&in) % G_N_ELEMENTS (names)]);
        counted_on[sel % MAX_MEMBERS] = NULL;
        break;
      case OP_LEAVE:
        rtp_burst_group_member_leave (&gm[sel % MAX_MEMBERS]);
        counted_on[sel % MAX_MEMBERS] = NULL;
        FUZZ_CHECK (rtp_burst_group_member_n_members (&gm[sel % MAX_MEMBERS])
            == 0, "members after leaving");
        break;
      case OP_PLACE_NAMED:
        places++;
        checked_place (NULL, &gm[sel % MAX_MEMBERS], 0, &in, rand);
        break;
      case OP_BOOK:
        checked_book (gm, sel % MAX_MEMBERS, &in);
        break;
    }
  }
  for (i = 0; i < MAX_MEMBERS; i++)
    rtp_burst_group_member_leave (&gm[i]);
  g_rand_free (rand);
  rtp_burst_timeline_free (tl);
  return 0;
}
