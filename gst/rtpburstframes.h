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
 * A stream's queue: frames of RTP packets and serialized events, in the
 * order they came.  Packets with one RTP timestamp make a frame; the
 * newest frame stays open until a packet of another timestamp, a marker,
 * an event or its owner closes it.  The queue counts what it holds; it
 * knows nothing of slots, clocks or rates: the stream (rtpburststream.h)
 * fixes a frame's shape when it is closed and paces the head.
 *
 * Packets and events are opaque pointers, freed with the functions given
 * at init.  Times are running times in ns, RTP_BURST_TIME_NONE when
 * unknown.  GLib only.
 */

#ifndef __RTP_BURST_FRAMES_H__
#define __RTP_BURST_FRAMES_H__

#include <glib.h>

#include "rtpburstschedule.h"

G_BEGIN_DECLS

/* A frame that grows to this many packets is closed and paced as it is. */
#define RTP_BURST_FRAMES_MAX_PACKETS 65536

/* The size of a packet on the wire, bytes. */
typedef guint (*RtpBurstPacketSize) (gconstpointer packet);

/* An entry of the queue: an event, or a frame of packets. */
typedef struct
{
  gpointer event;               /* non-NULL for an event */
  gboolean barrier;             /* ... that repair packets queued after it
                                 * wait for (rtp_burst_frames_add_event) */

  /* a frame, as it came */
  GQueue packets;               /* not yet taken, oldest first */
  guint n_packets;              /* added to the frame */
  guint64 payload_bytes;
  guint64 bytes;                /* whole RTP packets */
  guint32 rtptime;
  guint64 ts_time;              /* running time of its first packet's
                                 * DTS (else PTS) */
  guint64 first_arrival, last_arrival;
  guint64 unsent_arrival;       /* the oldest packet not taken */
  guint64 ready_time;           /* it was closed */
  gboolean closed;
  guint64 serial;               /* frames of a queue, counted from 1 */
  gboolean unpaced;             /* leaves as it comes */

  /* its shape, fixed by the owner when the frame is closed */
  guint64 period;               /* 0 = unknown: released unpaced */
  guint n_slots;
  guint burst_size;
  gdouble duty;
  gdouble slot_jitter;
} RtpBurstFrame;

typedef struct
{
  GQueue items;                 /* RtpBurstFrame *, oldest first */
  RtpBurstFrame *open;          /* the newest frame while it is open */
  guint n_closed;               /* closed frames in items */
  guint n_packets;              /* packets in items */
  guint64 n_frames;             /* frames ever opened: the serials */
  guint64 n_events_in;          /* events ever queued */
  guint64 n_events_out;         /* ... popped or flushed */
  guint64 n_barriers_in;        /* barrier events ever queued */
  guint64 n_barriers_out;       /* ... popped or flushed */
  GDestroyNotify free_packet, free_event;
  RtpBurstPacketSize packet_size;
} RtpBurstFrames;

void     rtp_burst_frames_init      (RtpBurstFrames * q,
                                     GDestroyNotify free_packet,
                                     RtpBurstPacketSize packet_size,
                                     GDestroyNotify free_event);
/* Drops everything; each event goes to @keep_event (which takes it) or is
 * freed.  Returns the packets dropped. */
guint    rtp_burst_frames_flush     (RtpBurstFrames * q, GFunc keep_event,
                                     gpointer user_data);

/* Whether a packet of @rtptime closes the open frame before it is added
 * (rtp_burst_classify_packet ()). */
gboolean rtp_burst_frames_ends_open (const RtpBurstFrames * q,
                                     guint32 rtptime);
/* Closes the open frame at @now and returns it (still queued), or NULL if
 * none was open. */
RtpBurstFrame *rtp_burst_frames_close (RtpBurstFrames * q, guint64 now);
/* Adds a packet to the open frame, opening one (unpaced if @unpaced) if
 * none is; returns the open frame.  The caller closes it when the packet
 * ends it (a marker, RTP_BURST_FRAMES_MAX_PACKETS). */
RtpBurstFrame *rtp_burst_frames_add (RtpBurstFrames * q, gpointer packet,
                                     guint size, guint payload_len,
                                     guint32 rtptime, guint64 sync_time,
                                     guint64 arrival, gboolean unpaced);
/* Queues an event after what is queued (closes nothing).  A @barrier is
 * one that repair packets queued after it do not overtake (they wait until
 * it has left: rtp_burst_frames_barriers_out ()); one that is not (a tag, a
 * notification such as a force-key-unit event) they may. */
void     rtp_burst_frames_add_event (RtpBurstFrames * q, gpointer event,
                                     gboolean barrier);

static inline RtpBurstFrame *
rtp_burst_frames_head (const RtpBurstFrames * q)
{
  return q->items.head != NULL ? (RtpBurstFrame *) q->items.head->data : NULL;
}

/* Closed frames queued, packets queued (frames', not taken). */
static inline guint
rtp_burst_frames_n_closed (const RtpBurstFrames * q)
{
  return q->n_closed;
}

static inline guint
rtp_burst_frames_n_packets (const RtpBurstFrames * q)
{
  return q->n_packets;
}

/* Whether a frame is open. */
static inline gboolean
rtp_burst_frames_is_open (const RtpBurstFrames * q)
{
  return q->open != NULL;
}

/* Events ever queued, and those popped or flushed: where a repair packet
 * queued now stands among them (an order). */
static inline guint64
rtp_burst_frames_events_in (const RtpBurstFrames * q)
{
  return q->n_events_in;
}

static inline guint64
rtp_burst_frames_events_out (const RtpBurstFrames * q)
{
  return q->n_events_out;
}

/* Barrier events ever queued, and those popped or flushed: what a repair
 * packet queued now has to wait for (an epoch). */
static inline guint64
rtp_burst_frames_barriers_in (const RtpBurstFrames * q)
{
  return q->n_barriers_in;
}

static inline guint64
rtp_burst_frames_barriers_out (const RtpBurstFrames * q)
{
  return q->n_barriers_out;
}

/* The packets of @frame not yet taken. */
static inline guint
rtp_burst_frame_unsent (const RtpBurstFrame * frame)
{
  return frame->packets.length;
}

/* Takes the event at the head off the queue and returns it. */
gpointer rtp_burst_frames_pop_event (RtpBurstFrames * q);
/* Takes the first @n packets of the head frame into @packets; returns
 * their bytes. */
guint64  rtp_burst_frames_take      (RtpBurstFrames * q, guint n,
                                     gpointer * packets);
/* The bytes of the first @n packets of @frame. */
guint64  rtp_burst_frames_head_bytes (const RtpBurstFrames * q,
                                     const RtpBurstFrame * frame, guint n);
/* Removes the head frame, closed, with the packets it still has (counted
 * out of the queue); returns how many it had. */
guint    rtp_burst_frames_remove_head (RtpBurstFrames * q);

G_END_DECLS

#endif /* __RTP_BURST_FRAMES_H__ */
