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

/* Taking what rtp_burst_stream_next () decided: the slot's packets or a
 * repair packet, with their lateness and the counters; the third part of
 * rtpburststream.c. */

#include "rtpburststream-private.h"

void
rtp_burst_stream_woke (RtpBurstStream * s, guint64 lateness, gboolean counted)
{
  g_return_if_fail (rtp_burst_frames_head (&s->q) != NULL && s->head.have_slot);
  s->head.slot_reached = TRUE;
  s->head.slot_lateness = lateness;
  if (counted)
    rtp_burst_wakeup_tracker_add (&s->wakeups, lateness);
}

gpointer
rtp_burst_stream_pop_event (RtpBurstStream * s)
{
  return rtp_burst_frames_pop_event (&s->q);
}

/* Counts how late the slot is, and returns that: its own lateness.  In a
 * frame whose pushes a synchronising sink held (it paces that frame
 * itself), a slot whose time went by while the sink still held the
 * previous push is late only by the time since that push returned. */
static guint64
note_slot_lateness (RtpBurstStream * s, const RtpBurstFrame * item,
    guint64 lateness)
{
  guint64 own = lateness;

  if (item->serial == s->held_serial &&
      s->last_push_end != RTP_BURST_TIME_NONE &&
      s->last_push_end > s->head.slot_time)
    own -= MIN (own, s->last_push_end - s->head.slot_time);
  if (own > RTP_BURST_LATE_THRESHOLD)
    s->st.late_slots++;
  s->st.max_lateness = MAX (s->st.max_lateness, own);
  return own;
}

/* A paced push of the head's slot is taken: its lateness counted, the slot
 * done; returns the slot's own lateness. */
static guint64
take_slot (RtpBurstStream * s, const RtpBurstFrame * item)
{
  Head *h = &s->head;
  Push *push = &s->push;
  guint64 own_lateness = note_slot_lateness (s, item, push->lateness);

  if (own_lateness <= RTP_BURST_LATE_THRESHOLD || h->released_slots == 0)
    h->on_time = h->slot_time - MIN (h->slot_time,
        rtp_burst_plan_start_time (&h->plan));
  /* when it leaves: its slot, or when the group's rate let it */
  push->slot_time = rtp_burst_booking_booked (&h->booking) ?
      MAX (h->slot_time, rtp_burst_booking_release (&h->booking)) :
      h->slot_time;
  push->sink_offset = h->sink_offset;
  push->start = rtp_burst_time_add (h->slot_time, push->lateness);
  if (push->now != RTP_BURST_TIME_NONE)
    push->start = MAX (push->start, push->now);
  push->frame_first = h->released_slots++ == 0;
  push->serial = item->serial;
  push->frame_start = rtp_burst_plan_start_time (&h->plan);
  push->period = item->period;
  h->have_slot = h->slot_reached = FALSE;
  rtp_burst_booking_reset (&h->booking);
  return own_lateness;
}

/* An unpaced push: how long the oldest of its packets stayed while the
 * task was free (the time downstream held the previous push is
 * downstream's). */
static void
note_unpaced_delay (RtpBurstStream * s, const RtpBurstFrame * item)
{
  guint64 since = item->unsent_arrival, delay;

  if (s->push.now == RTP_BURST_TIME_NONE || since == RTP_BURST_TIME_NONE)
    return;
  if (s->prev_push_end != RTP_BURST_TIME_NONE && s->prev_push_end > since)
    since = s->prev_push_end;
  delay = s->push.now - MIN (s->push.now, since);
  s->st.unpaced_pushes++;
  if (delay > RTP_BURST_LATE_THRESHOLD)
    s->st.unpaced_late_pushes++;
  s->st.unpaced_max_delay = MAX (s->st.unpaced_max_delay, delay);
}

guint64
rtp_burst_stream_take_packets (RtpBurstStream * s, const RtpBurstNext * next,
    gpointer * packets)
{
  RtpBurstFrame *item = rtp_burst_frames_head (&s->q);
  Head *h = &s->head;
  Push *push = &s->push;
  guint64 own_lateness = 0, slot_time = h->slot_time;

  g_return_val_if_fail (item != NULL && item->event == NULL &&
      next->kind == RTP_BURST_NEXT_PUSH &&
      next->n_packets <= rtp_burst_frame_unsent (item), 0);

  push->repair = FALSE;
  push->n_packets = next->n_packets;
  if (push->paced)
    own_lateness = take_slot (s, item);
  else
    note_unpaced_delay (s, item);
  push->bytes = rtp_burst_frames_take (&s->q, next->n_packets, packets);
  s->st.slots++;
  /* counted before the push, so that the stats are complete when the
   * packets arrive downstream */
  s->st.packets += push->n_packets;
  s->st.bytes += push->bytes;

  rtp_burst_repair_media_sent (&s->repair, push->paced ? push->slot_time :
      push->now, (guint) MIN (push->bytes, G_MAXUINT));
  push->frame_last = item->closed && rtp_burst_frame_unsent (item) == 0;
  push->probe_rate = h->probe_rate;
  /* whether late slots at its end made the frame end after its period,
   * for the margin of later frames */
  if (push->frame_last && push->paced)
    rtp_burst_margin_frame (&s->margin, rtp_burst_time_add
        (slot_time - MIN (slot_time, rtp_burst_plan_start_time (&h->plan)),
            own_lateness), h->on_time, item->period);
  if (push->frame_last)
    rtp_burst_stream_finish_frame (s, item);
  return push->bytes;
}

gpointer
rtp_burst_stream_take_repair (RtpBurstStream * s, const RtpBurstNext * next,
    guint64 now, guint * size)
{
  gpointer data;

  g_return_val_if_fail (next->kind == RTP_BURST_NEXT_REPAIR, NULL);

  s->push.repair = TRUE;
  s->push.paced = FALSE;
  rtp_burst_booking_reset (&s->repair_booking);
  data = rtp_burst_repair_pop (&s->repair, next->time, s->push.overrun, now,
      &s->push.size);
  *size = s->push.size;
  return data;
}

void
rtp_burst_stream_probe_next_frame (RtpBurstStream * s, guint64 rate)
{
  s->probe_next = rate;
}

guint64
rtp_burst_stream_taken_probe (const RtpBurstStream * s, gboolean * frame_last)
{
  if (frame_last)
    *frame_last = s->push.frame_last;
  return s->push.repair ? 0 : s->push.probe_rate;
}
