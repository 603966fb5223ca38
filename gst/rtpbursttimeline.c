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

#include "rtpbursttimeline.h"

/* One member's booked slot times, ascending. */
typedef struct
{
  guint id;
  GArray *times;                /* guint64 */
} Track;

struct _RtpBurstTimeline
{
  GPtrArray *tracks;            /* Track */
  guint next_id;
  GArray *near;                 /* other members' times near a frame */
};

static void
track_free (gpointer data)
{
  Track *track = data;

  g_array_unref (track->times);
  g_free (track);
}

RtpBurstTimeline *
rtp_burst_timeline_new (void)
{
  RtpBurstTimeline *tl = g_new0 (RtpBurstTimeline, 1);

  tl->tracks = g_ptr_array_new_with_free_func (track_free);
  tl->near = g_array_new (FALSE, FALSE, sizeof (guint64));
  return tl;
}

void
rtp_burst_timeline_free (RtpBurstTimeline * tl)
{
  if (tl == NULL)
    return;
  g_ptr_array_unref (tl->tracks);
  g_array_unref (tl->near);
  g_free (tl);
}

/* Returns the new member's id, never 0. */
guint
rtp_burst_timeline_add_member (RtpBurstTimeline * tl)
{
  Track *track = g_new0 (Track, 1);

  if (++tl->next_id == 0)
    tl->next_id = 1;
  track->id = tl->next_id;
  track->times = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_ptr_array_add (tl->tracks, track);
  return track->id;
}

static Track *
find_track (const RtpBurstTimeline * tl, guint member, guint * index)
{
  guint i;

  for (i = 0; i < tl->tracks->len; i++) {
    Track *track = g_ptr_array_index (tl->tracks, i);

    if (track->id == member) {
      if (index)
        *index = i;
      return track;
    }
  }
  return NULL;
}

void
rtp_burst_timeline_remove_member (RtpBurstTimeline * tl, guint member)
{
  guint i;

  if (find_track (tl, member, &i))
    g_ptr_array_remove_index (tl->tracks, i);
}

/* Drops the member's bookings (a flush: its queued frames are gone). */
void
rtp_burst_timeline_forget (RtpBurstTimeline * tl, guint member)
{
  Track *track = find_track (tl, member, NULL);

  if (track)
    g_array_set_size (track->times, 0);
}

guint
rtp_burst_timeline_n_members (const RtpBurstTimeline * tl)
{
  return tl->tracks->len;
}

/* Index of the first of the ascending times[] that is >= t. */
static guint
lower_bound (const GArray * times, guint64 t)
{
  guint lo = 0, hi = times->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (times, guint64, mid) < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Distance from t to the nearest of the ascending times[], or
 * RTP_BURST_TIME_NONE if there are none. */
static guint64
nearest (const GArray * times, guint64 t)
{
  guint i = lower_bound (times, t);
  guint64 d = RTP_BURST_TIME_NONE;

  if (i < times->len)
    d = g_array_index (times, guint64, i) - t;
  if (i > 0)
    d = MIN (d, t - g_array_index (times, guint64, i - 1));
  return d;
}

static gint
compare_times (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The other members' bookings in [lo, hi], ascending, into tl->near. */
static void
collect_near (RtpBurstTimeline * tl, const Track * own, guint64 lo, guint64 hi)
{
  guint i, j;

  g_array_set_size (tl->near, 0);
  for (i = 0; i < tl->tracks->len; i++) {
    const Track *track = g_ptr_array_index (tl->tracks, i);

    if (track == own)
      continue;
    for (j = lower_bound (track->times, lo); j < track->times->len; j++) {
      guint64 t = g_array_index (track->times, guint64, j);

      if (t > hi)
        break;
      g_array_append_val (tl->near, t);
    }
  }
  g_array_sort (tl->near, compare_times);
}

static guint64
slot_time (const RtpBurstPlan * plan, guint64 phase, guint j)
{
  return rtp_burst_time_add (rtp_burst_time_add (plan->start, phase),
      rtp_burst_plan_slot_offset (plan, j));
}

/* The smallest distance from a sample of the frame's used slots, moved by
 * @phase, to tl->near; stops early once it is no more than @enough. */
static guint64
phase_gap (const RtpBurstTimeline * tl, const RtpBurstPlan * plan,
    guint used, guint64 phase, guint64 enough)
{
  guint n = MIN (used, RTP_BURST_GROUP_SAMPLES);
  guint64 gap = RTP_BURST_TIME_NONE;
  guint s;

  for (s = 0; s < n && gap > enough; s++) {
    guint j = n > 1 ? (guint) ((guint64) s * (used - 1) / (n - 1)) : 0;

    gap = MIN (gap, nearest (tl->near, slot_time (plan, phase, j)));
  }
  return gap;
}

/* Books the member's slots of the frame, from its phase; keeps the
 * member's bookings of the last RTP_BURST_GROUP_HISTORY. */
static void
book (RtpBurstTimeline * tl, Track * track, const RtpBurstPlan * plan,
    guint used, RtpBurstPlacement * out)
{
  guint64 start = plan->start;
  guint j;

  /* slots at or after this frame's start belong to frames that were
   * flushed or to a stream that went back in time: not any more */
  g_array_set_size (track->times, lower_bound (track->times, start));
  g_array_remove_range (track->times, 0, lower_bound (track->times,
          start - MIN (start, RTP_BURST_GROUP_HISTORY)));
  for (j = 0; j < used; j++) {
    guint64 t = slot_time (plan, plan->phase, j);

    g_array_append_val (track->times, t);
    if (tl->near->len > 0 && nearest (tl->near, t) < RTP_BURST_GROUP_TOUCH)
      out->shared++;
  }
}

/**
 * rtp_burst_timeline_place:
 * @plan: a frame's plan (rtp_burst_plan_init ()), before its first slot
 *
 * Chooses the phase of the frame's slots (sets @plan's phase) and books
 * them for @member.  The others' bookings from Δt before the frame's start
 * to Δt after its span are the ones that count.
 */
void
rtp_burst_timeline_place (RtpBurstTimeline * tl, guint member,
    RtpBurstPlan * plan, RtpBurstPlacement * out)
{
  Track *track = find_track (tl, member, NULL);
  guint used = rtp_burst_plan_used_slots (plan);
  guint64 dt = rtp_burst_plan_slot_duration (plan);
  guint64 best_gap = 0, best_score = 0, best_phase = 0;
  guint64 prev = RTP_BURST_TIME_NONE;
  gboolean have_best = FALSE;
  guint m;

  out->phase = 0;
  out->gap = RTP_BURST_TIME_NONE;
  out->shared = 0;
  plan->phase = 0;
  if (track == NULL || used == 0)
    return;

  collect_near (tl, track, plan->start - MIN (plan->start, dt),
      rtp_burst_time_add (plan->start, rtp_burst_time_add (plan->span, dt)));
  for (m = 0; m < RTP_BURST_GROUP_PHASES && tl->near->len > 0; m++) {
    /* floor (dt * m / PHASES), without overflow */
    guint64 phase = dt / RTP_BURST_GROUP_PHASES * m +
        dt % RTP_BURST_GROUP_PHASES * m / RTP_BURST_GROUP_PHASES;
    guint64 gap;

    if (phase == prev)
      continue;                 /* Δt of fewer ns than candidates */
    prev = phase;
    gap = phase_gap (tl, plan, used, phase, have_best ? best_score : 0);
    /* half a slot from the others is as far as two streams of one rate
     * can be: no reason to move the frame later for more */
    if (!have_best || MIN (gap, dt / 2) > best_score) {
      best_gap = gap;
      best_score = MIN (gap, dt / 2);
      best_phase = phase;
      have_best = TRUE;
    }
    if (best_score >= dt / 2)
      break;
  }
  if (have_best) {
    plan->phase = best_phase;
    out->phase = best_phase;
    out->gap = best_gap;
  }
  book (tl, track, plan, used, out);
}
