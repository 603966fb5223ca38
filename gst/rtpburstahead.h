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
 * Slots handed over ahead of their time (property release-ahead): every
 * slot whose time is less than the horizon H after now is pushed at once,
 * its packets keeping the slot's DTS, so that whatever is downstream
 * releases them at the slot's time (rtpbursttxsink through the kernel's fq
 * qdisc, or any synchronising sink).  Then the task waits for the next
 * slot until its time minus (H - ΔT) (its time when H <= ΔT), so that each
 * wake-up hands over up to a frame period of slots: with H >= ΔT about one
 * wake-up per frame, every packet handed over H - ΔT to H before its time;
 * with H < ΔT the frame goes in chunks of H, the first slot of a chunk at
 * its time.  (Waking at the next slot's time minus H would hand over one
 * slot per wake-up as soon as frames are queued ahead of their time: the
 * horizon's front then reaches the slots one by one.)
 *
 * H is not applied (0: a wait per slot) where the pushes' own times count:
 *
 * - on a group's rate (group-max-rate): a push books the shared link from
 *   when it is decided and claims it as it leaves, and the other members
 *   book theirs from their now; booked H ahead it would take the link in
 *   the wrong place;
 * - with a congestion controller: rtpsession stamps the transport-wide
 *   congestion control send times (local-ts) as packets pass it, which
 *   would be the hand-over, up to H before they leave.
 *
 * Each reason is noted once (to warn about) until the stream starts
 * afresh.  Pure arithmetic, GLib only; times are running times in ns.
 */

#ifndef __RTP_BURST_AHEAD_H__
#define __RTP_BURST_AHEAD_H__

#include <glib.h>

G_BEGIN_DECLS

/* Why the horizon is not applied (a bit each). */
typedef enum
{
  RTP_BURST_AHEAD_OFF_NONE = 0,
  RTP_BURST_AHEAD_OFF_GROUP_RATE = 1 << 0,
  RTP_BURST_AHEAD_OFF_CC = 1 << 1,
} RtpBurstAheadOff;

typedef struct
{
  guint noted;                  /* RtpBurstAheadOff bits met so far */
  guint notice;                 /* ... not yet taken */
} RtpBurstAhead;

void     rtp_burst_ahead_init   (RtpBurstAhead * a);
/* The horizon in force: @horizon, or 0 where @off gives a reason (each
 * reason noted the first time). */
guint64  rtp_burst_ahead_horizon (RtpBurstAhead * a, guint64 horizon,
                                  guint off);
/* Whether a slot at @slot is handed over at @now with horizon @horizon
 * (> 0): @slot < @now + @horizon; never without a time (@now NONE). */
gboolean rtp_burst_ahead_due    (guint64 slot, guint64 now, guint64 horizon);
/* When to wake for a slot at @slot of a frame of @period: @horizon -
 * @period before it, at it when @horizon <= @period (0 at the earliest). */
guint64  rtp_burst_ahead_wake   (guint64 slot, guint64 horizon,
                                 guint64 period);
/* The reasons noted since the last call (RtpBurstAheadOff bits). */
guint    rtp_burst_ahead_take_notice (RtpBurstAhead * a);

G_END_DECLS

#endif /* __RTP_BURST_AHEAD_H__ */
