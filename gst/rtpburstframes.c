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

#include "rtpburstframes.h"

void
rtp_burst_frames_init (RtpBurstFrames * q, GDestroyNotify free_packet,
    RtpBurstPacketSize packet_size, GDestroyNotify free_event)
{
  g_queue_init (&q->items);
  q->open = NULL;
  q->n_closed = q->n_packets = 0;
  q->n_frames = q->n_events_in = q->n_events_out = 0;
  q->n_barriers_in = q->n_barriers_out = 0;
  q->free_packet = free_packet;
  q->packet_size = packet_size;
  q->free_event = free_event;
}

static void
frame_free (RtpBurstFrames * q, RtpBurstFrame * frame)
{
  if (frame->event)
    q->free_event (frame->event);
  g_queue_clear_full (&frame->packets, q->free_packet);
  g_slice_free (RtpBurstFrame, frame);
}

guint
rtp_burst_frames_flush (RtpBurstFrames * q, GFunc keep_event,
    gpointer user_data)
{
  RtpBurstFrame *item;
  guint n = 0;

  while ((item = g_queue_pop_head (&q->items))) {
    if (item->event && keep_event)
      keep_event (g_steal_pointer (&item->event), user_data);
    n += g_queue_get_length (&item->packets);
    frame_free (q, item);
  }
  q->open = NULL;
  q->n_closed = q->n_packets = 0;
  q->n_events_out = q->n_events_in;
  q->n_barriers_out = q->n_barriers_in;
  return n;
}

gboolean
rtp_burst_frames_ends_open (const RtpBurstFrames * q, guint32 rtptime)
{
  return (rtp_burst_classify_packet (q->open != NULL,
          q->open ? q->open->rtptime : 0, rtptime, FALSE) &
      RTP_BURST_PACKET_CLOSE_BEFORE) != 0;
}

RtpBurstFrame *
rtp_burst_frames_close (RtpBurstFrames * q, guint64 now)
{
  RtpBurstFrame *frame = q->open;

  if (frame == NULL)
    return NULL;
  q->open = NULL;
  frame->closed = TRUE;
  frame->ready_time = now;
  q->n_closed++;
  return frame;
}

RtpBurstFrame *
rtp_burst_frames_add (RtpBurstFrames * q, gpointer packet, guint size,
    guint payload_len, guint32 rtptime, guint64 sync_time, guint64 arrival,
    gboolean unpaced)
{
  RtpBurstFrame *frame = q->open;

  if (frame == NULL) {
    frame = g_slice_new0 (RtpBurstFrame);
    frame->rtptime = rtptime;
    frame->ts_time = sync_time;
    frame->first_arrival = arrival;
    frame->serial = ++q->n_frames;
    frame->unpaced = unpaced;
    g_queue_push_tail (&q->items, frame);
    q->open = frame;
  }
  frame->last_arrival = arrival;
  if (g_queue_is_empty (&frame->packets))
    frame->unsent_arrival = arrival;
  g_queue_push_tail (&frame->packets, packet);
  frame->n_packets++;
  frame->payload_bytes += payload_len;
  frame->bytes += size;
  q->n_packets++;
  return frame;
}

void
rtp_burst_frames_add_event (RtpBurstFrames * q, gpointer event,
    gboolean barrier)
{
  RtpBurstFrame *item;

  /* after the open frame, no packet may join it */
  g_return_if_fail (q->open == NULL);
  item = g_slice_new0 (RtpBurstFrame);
  item->event = event;
  item->barrier = barrier;
  g_queue_push_tail (&q->items, item);
  q->n_events_in++;
  if (barrier)
    q->n_barriers_in++;
}

gpointer
rtp_burst_frames_pop_event (RtpBurstFrames * q)
{
  RtpBurstFrame *item = rtp_burst_frames_head (q);
  gpointer event;

  g_return_val_if_fail (item != NULL && item->event != NULL, NULL);
  g_queue_pop_head (&q->items);
  event = g_steal_pointer (&item->event);
  q->n_events_out++;
  if (item->barrier)
    q->n_barriers_out++;
  frame_free (q, item);
  return event;
}

guint64
rtp_burst_frames_take (RtpBurstFrames * q, guint n, gpointer * packets)
{
  RtpBurstFrame *frame = rtp_burst_frames_head (q);
  guint64 bytes = 0;
  guint i;

  g_return_val_if_fail (frame != NULL && frame->event == NULL &&
      n <= g_queue_get_length (&frame->packets), 0);
  for (i = 0; i < n; i++) {
    packets[i] = g_queue_pop_head (&frame->packets);
    bytes += q->packet_size (packets[i]);
  }
  q->n_packets -= n;
  return bytes;
}

guint64
rtp_burst_frames_head_bytes (const RtpBurstFrames * q,
    const RtpBurstFrame * frame, guint n)
{
  guint64 bytes = 0;
  GList *l;

  for (l = frame->packets.head; l && n > 0; l = l->next, n--)
    bytes += q->packet_size (l->data);
  return bytes;
}

guint
rtp_burst_frames_remove_head (RtpBurstFrames * q)
{
  RtpBurstFrame *frame = rtp_burst_frames_head (q);
  guint n;

  g_return_val_if_fail (frame != NULL && frame->event == NULL &&
      frame->closed, 0);
  g_queue_pop_head (&q->items);
  n = g_queue_get_length (&frame->packets);
  q->n_packets -= n;
  q->n_closed--;
  frame_free (q, frame);
  return n;
}
