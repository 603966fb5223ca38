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
 * Repair packets between the media's slots.
 *
 * Behind rtpbin (`rtpbin.send_rtp_src_0 ! rtpburstpace`) the element sees,
 * besides the media, the packets rtpbin adds on the same pad: the
 * retransmissions of rtprtxsend, which come in bursts when a NACK asks for
 * several packets, each with the RTP timestamp of the frame it repairs.
 * The element tells them apart by payload type (any other than the caps'
 * `payload`) and does not make frames of them; they wait here and leave
 * one at a time, between the media's slots:
 *
 *   due = max (arrival,
 *              previous repair packet + gap,
 *              last media slot + gap / 2)
 *   gap = max (min (Δt of the media, left / queued), size * 8 / max-rate)
 *
 * and a repair packet that would come within gap / 2 of the next media
 * slot leaves gap / 2 after it instead.  So with Δt between media slots, a
 * lone repair packet leaves half way between two of them, and a few leave
 * one per Δt: the repair traffic is spread like the media, and the link
 * sees at most one packet more per slot.  A backlog that would not have
 * left by half the bound at Δt (a NACK for many packets, after a keyframe
 * was hit) is spread evenly over what is left of that time instead (left:
 * from the previous repair packet, or the head's arrival, to the head's
 * arrival + @max_delay / 2), so that retransmissions come back well within
 * the receiver's patience.  No repair packet waits longer than @max_delay
 * (one frame period): past that it leaves at once (counted as an
 * overrun).
 *
 * Under a rate cap (max-rate) gap is at least the packet's own time at
 * the cap, the packet does not leave before the link has carried the last
 * media slot at the cap (last media slot + its size at max-rate), and one
 * that does not fit half way before the next media slot does not wait
 * behind it: it leaves as soon as that allows, at the latest together with
 * the next media slot, which keeps its time.  A media stream held to the
 * cap has its slots back to back, with no room between them; without this
 * a repair packet there would wait until its bound.  Where the media's
 * slots leave faster than the cap (overload=compress sends a frame that
 * the cap would hold past max-delay faster), "at the cap" is at the
 * media's own rate, the last slot's size over Δt: at the cap's the packet
 * would be put back behind every slot until its bound, which is how
 * retransmissions came too late at a start below the stream's rate
 * (docs/results.md, section 25).  The repair packets
 * alone stay within the cap; they are not taken out of the media's share:
 * moving the media's slots later for them was measured, and the later
 * media made the receiver ask for more retransmissions, which moved it
 * later still (docs/results.md, section 7).
 *
 * Pad-free and GLib only: the queue holds opaque packets with their
 * arrival time, size and epoch (the caller's count of what went before
 * them in the media's own queue that they must not overtake: the events
 * that change how the packets after them are read, such as caps, a
 * segment or EOS; not tags and notifications, which an encoder sends
 * with its frames, each behind the media's backlog), and answers when
 * the head may leave.  Times are
 * running times in ns; RTP_BURST_TIME_NONE is "none".
 */

#ifndef __RTP_BURST_REPAIR_H__
#define __RTP_BURST_REPAIR_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GQueue packets;               /* RtpBurstRepairPacket *, oldest first */
  GDestroyNotify free_func;     /* for the packets' data */
  guint64 last_release;         /* due time of the last one released */
  guint64 last_media;           /* due time of the last media push, NONE */
  guint last_media_bytes;       /* ... and its size on the wire */

  /* stats */
  guint64 n_released, bytes_released;
  guint64 n_overrun;            /* released at max_delay, ahead of their gap */
  guint64 max_delay;            /* longest wait of a released one, ns */
} RtpBurstRepair;

void     rtp_burst_repair_init    (RtpBurstRepair * repair,
                                   GDestroyNotify free_func);
guint    rtp_burst_repair_flush   (RtpBurstRepair * repair);
void     rtp_burst_repair_reset_stats (RtpBurstRepair * repair);

/* @epoch: what the packet waits for (above); @order: the caller's count of
 * every item queued before it, barrier or not, which says whether it came
 * before an event it need not wait for. */
void     rtp_burst_repair_push    (RtpBurstRepair * repair, gpointer data,
                                   guint size, guint64 arrival,
                                   guint64 epoch, guint64 order);
guint    rtp_burst_repair_queued  (const RtpBurstRepair * repair);
guint64  rtp_burst_repair_head_epoch (const RtpBurstRepair * repair);
guint64  rtp_burst_repair_head_order (const RtpBurstRepair * repair);
guint    rtp_burst_repair_head_size  (const RtpBurstRepair * repair);

/* What the caller knows of the media's slots. */
typedef struct
{
  guint64 last;                 /* due time of the last media slot, or NONE */
  guint last_bytes;             /* its size on the wire */
  guint64 next;                 /* due time of the next one, NONE = unknown */
  guint64 spacing;              /* Δt of the media's current (or last)
                                 * frame, 0 = none yet */
} RtpBurstRepairMedia;

/* When the packet at the head leaves. */
typedef struct
{
  guint64 due;
  gboolean before_media;        /* before the media's next slot (always
                                 * when that is unknown) */
  gboolean overrun;             /* the bound made it due earlier than its gap */
} RtpBurstRepairTurn;

void     rtp_burst_repair_next    (const RtpBurstRepair * repair,
                                   const RtpBurstRepairMedia * media,
                                   guint64 max_rate, guint64 max_delay,
                                   RtpBurstRepairTurn * turn);
gpointer rtp_burst_repair_pop     (RtpBurstRepair * repair, guint64 due,
                                   gboolean overrun, guint64 now,
                                   guint * size);
void     rtp_burst_repair_refused (RtpBurstRepair * repair, guint size);

/* The media's side, for a caller that queues the media itself: */
/* a media push due at @due, @bytes on the wire, was taken */
void     rtp_burst_repair_media_sent (RtpBurstRepair * repair, guint64 due,
                                   guint bytes);
/* whether a packet is queued that nothing queued before it in the media's
 * queue has to precede (@epoch_out: the caller's count of what left it) */
gboolean rtp_burst_repair_ready   (const RtpBurstRepair * repair,
                                   guint64 epoch_out);
/* rtp_burst_repair_next () after the last media push taken, with the
 * media's next slot at @next_media (NONE: unknown) and @spacing */
void     rtp_burst_repair_turn    (const RtpBurstRepair * repair,
                                   guint64 next_media, guint64 spacing,
                                   guint64 max_rate, guint64 max_delay,
                                   RtpBurstRepairTurn * turn);

typedef struct
{
  guint64 packets, bytes;       /* released */
  guint64 overruns;             /* ... at their bound */
  guint64 max_delay;            /* the longest wait of one released, ns */
  guint queued;
} RtpBurstRepairReport;

void     rtp_burst_repair_report  (const RtpBurstRepair * repair,
                                   RtpBurstRepairReport * out);

G_END_DECLS

#endif /* __RTP_BURST_REPAIR_H__ */
