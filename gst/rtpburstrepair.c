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

#include "rtpburstrepair.h"
#include "rtpburstschedule.h"

typedef struct
{
  gpointer data;
  guint size;
  guint64 arrival;
  guint64 epoch;
  guint64 order;
} RtpBurstRepairPacket;

void
rtp_burst_repair_init (RtpBurstRepair * repair, GDestroyNotify free_func)
{
  g_queue_init (&repair->packets);
  repair->free_func = free_func;
  repair->last_release = RTP_BURST_TIME_NONE;
  repair->last_media = RTP_BURST_TIME_NONE;
  repair->last_media_bytes = 0;
  rtp_burst_repair_reset_stats (repair);
}

void
rtp_burst_repair_reset_stats (RtpBurstRepair * repair)
{
  repair->n_released = repair->bytes_released = 0;
  repair->n_overrun = repair->max_delay = 0;
}

/* Frees every queued packet and forgets the last release (a flush, a new
 * stream).  Returns how many were queued. */
guint
rtp_burst_repair_flush (RtpBurstRepair * repair)
{
  RtpBurstRepairPacket *p;
  guint n = 0;

  while ((p = g_queue_pop_head (&repair->packets))) {
    if (repair->free_func)
      repair->free_func (p->data);
    g_slice_free (RtpBurstRepairPacket, p);
    n++;
  }
  repair->last_release = RTP_BURST_TIME_NONE;
  repair->last_media = RTP_BURST_TIME_NONE;
  repair->last_media_bytes = 0;
  return n;
}

/* Queues @data (@size bytes on the wire) that arrived at @arrival
 * (RTP_BURST_TIME_NONE if unknown: it may leave at once), in @epoch, at
 * @order among the caller's items. */
void
rtp_burst_repair_push (RtpBurstRepair * repair, gpointer data, guint size,
    guint64 arrival, guint64 epoch, guint64 order)
{
  RtpBurstRepairPacket *p = g_slice_new (RtpBurstRepairPacket);

  p->data = data;
  p->size = size;
  p->epoch = epoch;
  p->order = order;
  p->arrival = arrival == RTP_BURST_TIME_NONE ? 0 : arrival;
  g_queue_push_tail (&repair->packets, p);
}

guint
rtp_burst_repair_queued (const RtpBurstRepair * repair)
{
  return repair->packets.length;
}

static const RtpBurstRepairPacket *
head_packet (const RtpBurstRepair * repair)
{
  return repair->packets.head ? repair->packets.head->data : NULL;
}

/* The epoch of the packet at the head; the queue must not be empty. */
guint64
rtp_burst_repair_head_epoch (const RtpBurstRepair * repair)
{
  const RtpBurstRepairPacket *p = head_packet (repair);

  g_return_val_if_fail (p != NULL, 0);
  return p->epoch;
}

/* The order of the packet at the head; the queue must not be empty. */
guint64
rtp_burst_repair_head_order (const RtpBurstRepair * repair)
{
  const RtpBurstRepairPacket *p = head_packet (repair);

  g_return_val_if_fail (p != NULL, 0);
  return p->order;
}

/* The size of the packet at the head, bytes; the queue must not be
 * empty. */
guint
rtp_burst_repair_head_size (const RtpBurstRepair * repair)
{
  const RtpBurstRepairPacket *p = head_packet (repair);

  g_return_val_if_fail (p != NULL, 0);
  return p->size;
}

/**
 * rtp_burst_repair_next:
 * @media: the media's slots
 * @max_rate: bit/s, 0 = no cap
 * @max_delay: the longest a repair packet waits, NONE = no bound
 * @turn: (out): when the packet at the head leaves
 *
 * When the packet at the head may leave (see the top of the header), and
 * whether before the media's next slot.  The queue must not be empty.
 */
void
rtp_burst_repair_next (const RtpBurstRepair * repair,
    const RtpBurstRepairMedia * media, guint64 max_rate, guint64 max_delay,
    RtpBurstRepairTurn * turn)
{
  const RtpBurstRepairPacket *p = head_packet (repair);
  guint64 gap = media->spacing, last_tx = 0, due, bound, earliest;
  guint64 next = media->next;

  g_return_if_fail (p != NULL);

  /* a backlog (a NACK for many packets) that would not have left by half
   * the bound at Δt is spread evenly over what is left of that */
  if (max_delay != RTP_BURST_TIME_NONE) {
    guint64 end = rtp_burst_time_add (p->arrival, max_delay / 2);
    guint64 from = repair->last_release != RTP_BURST_TIME_NONE ?
        MAX (p->arrival, repair->last_release) : p->arrival;

    gap = MIN (gap, (end > from ? end - from : 0) / repair->packets.length);
  }
  if (max_rate > 0) {
    /* as the media's cap counts them (rounded up, saturating) */
    guint64 own = rtp_burst_rate_span (p->size, max_rate);

    last_tx = rtp_burst_rate_span (media->last_bytes, max_rate);
    if (media->spacing > 0 && last_tx > media->spacing) {
      /* the media's slots leave faster than the cap (a frame compressed
       * to max-delay): at their rate, or each slot would put the packet
       * back behind it until its bound; never slower than at the cap */
      gdouble scaled = (gdouble) p->size * media->spacing /
          media->last_bytes + 0.5;

      if (scaled < (gdouble) own)
        own = (guint64) scaled;
      last_tx = media->spacing;
    }
    gap = MAX (gap, own);
  }
  /* its own spacing, and not on the link with the last media slot */
  earliest = p->arrival;
  if (repair->last_release != RTP_BURST_TIME_NONE)
    earliest = MAX (earliest, rtp_burst_time_add (repair->last_release, gap));
  if (media->last != RTP_BURST_TIME_NONE)
    earliest = MAX (earliest, rtp_burst_time_add (media->last, last_tx));
  /* half way to the next media slot */
  due = earliest;
  if (media->last != RTP_BURST_TIME_NONE)
    due = MAX (due, rtp_burst_time_add (media->last, gap / 2));
  if (next != RTP_BURST_TIME_NONE && gap > 0 &&
      rtp_burst_time_add (due, gap / 2) > next) {
    if (max_rate > 0 && earliest <= next) {
      /* under a cap, no room between the media's slots: beside them */
      due = earliest;
    } else {
      /* not within gap / 2 before the next media slot: after it */
      due = MAX (due, rtp_burst_time_add (next, gap / 2));
    }
  }

  bound = rtp_burst_time_add (p->arrival, max_delay);
  turn->overrun = due > bound;
  due = MIN (due, bound);
  /* under a cap, a tie with the media's slot is the repair packet's */
  turn->before_media = next == RTP_BURST_TIME_NONE || due < next ||
      (max_rate > 0 && due == next);
  turn->due = due;
}

/**
 * rtp_burst_repair_pop:
 * @due: its turn's due time (rtp_burst_repair_next ())
 * @overrun: ... and whether it overran
 * @now: when it leaves
 * @size: (out): its size
 *
 * Takes the packet at the head out, to be pushed now, and counts it.
 * Returns its data.
 */
gpointer
rtp_burst_repair_pop (RtpBurstRepair * repair, guint64 due, gboolean overrun,
    guint64 now, guint * size)
{
  RtpBurstRepairPacket *p = g_queue_pop_head (&repair->packets);
  gpointer data;

  g_return_val_if_fail (p != NULL, NULL);

  data = p->data;
  *size = p->size;
  repair->last_release = due;
  repair->n_released++;
  repair->bytes_released += p->size;
  if (overrun)
    repair->n_overrun++;
  if (now != RTP_BURST_TIME_NONE && now > p->arrival)
    repair->max_delay = MAX (repair->max_delay, now - p->arrival);
  g_slice_free (RtpBurstRepairPacket, p);
  return data;
}

/* The packet last popped (@size bytes) was refused downstream (a flush):
 * not counted as released. */
void
rtp_burst_repair_refused (RtpBurstRepair * repair, guint size)
{
  g_return_if_fail (repair->n_released > 0);
  repair->n_released--;
  repair->bytes_released -= MIN (repair->bytes_released, size);
}

void
rtp_burst_repair_media_sent (RtpBurstRepair * repair, guint64 due, guint bytes)
{
  repair->last_media = due;
  repair->last_media_bytes = bytes;
}

gboolean
rtp_burst_repair_ready (const RtpBurstRepair * repair, guint64 epoch_out)
{
  return rtp_burst_repair_queued (repair) > 0 &&
      rtp_burst_repair_head_epoch (repair) <= epoch_out;
}

void
rtp_burst_repair_turn (const RtpBurstRepair * repair, guint64 next_media,
    guint64 spacing, guint64 max_rate, guint64 max_delay,
    RtpBurstRepairTurn * turn)
{
  RtpBurstRepairMedia media;

  media.last = repair->last_media;
  media.last_bytes = repair->last_media_bytes;
  media.next = next_media;
  media.spacing = spacing;
  rtp_burst_repair_next (repair, &media, max_rate, max_delay, turn);
}

void
rtp_burst_repair_report (const RtpBurstRepair * repair,
    RtpBurstRepairReport * out)
{
  out->packets = repair->n_released;
  out->bytes = repair->bytes_released;
  out->overruns = repair->n_overrun;
  out->max_delay = repair->max_delay;
  out->queued = rtp_burst_repair_queued (repair);
}
