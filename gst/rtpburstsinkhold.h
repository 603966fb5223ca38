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
 * A synchronising sink downstream (udpsink's default sync=true, the
 * multiudpsink of gst-rtsp-server) releases a buffer at the running time
 * of its DTS (else PTS) plus the pipeline latency L, and blocks the thread
 * that pushed it until then.  The element gives each paced packet a DTS
 * whose running time is its slot time minus an offset R, so such a sink
 * releases it at slot time - R + L.  This unit decides R from what the
 * element sees of downstream, with no pads, locks or clock:
 *
 * - R starts at 0: the DTS is the slot time.  A sink behind a queue (not
 *   in the element's thread) then releases every packet L after its slot:
 *   the spacing survives, L later.
 * - A push that downstream held for at least RTP_BURST_HOLD_MIN and that
 *   returned when a sink with the latency of the last LATENCY event would
 *   release it is "held": a synchronising sink sits in the element's own
 *   thread.  From the next frame on, R = L: frames are due L after their
 *   timestamp, the element waits for each slot itself and the sink's own
 *   wait ends at once, so the two never fight.
 * - Once R > 0, a new LATENCY event's value becomes R at the next frame.
 *
 * Without a LATENCY event (no synchronising sink sent one) R stays 0: a
 * push that is merely slow (a busy downstream, a host stall) never moves
 * the schedule.  All times are running times in ns.
 */

#ifndef __RTP_BURST_SINK_HOLD_H__
#define __RTP_BURST_SINK_HOLD_H__

#include <glib.h>

G_BEGIN_DECLS

/* A push shorter than this was not held. */
#define RTP_BURST_HOLD_MIN (G_GUINT64_CONSTANT (1000000))       /* 1 ms */
/* How far before / after its expected release a held push may return and
 * still count as held by a sink with the announced latency. */
#define RTP_BURST_HOLD_EARLY (G_GUINT64_CONSTANT (1000000))     /* 1 ms */
#define RTP_BURST_HOLD_LATE (G_GUINT64_CONSTANT (5000000))      /* 5 ms */

typedef struct
{
  guint64 latency;              /* last LATENCY event, G_MAXUINT64 = none */
  guint64 offset;               /* R for new frames */
  gboolean held_seen;           /* a held push since the last frame start */
  guint64 n_held;               /* held pushes, for the stats */
} RtpBurstSinkHold;

void     rtp_burst_sink_hold_init        (RtpBurstSinkHold * hold);
void     rtp_burst_sink_hold_set_latency (RtpBurstSinkHold * hold,
                                          guint64 latency);
gboolean rtp_burst_sink_hold_push_done   (RtpBurstSinkHold * hold,
                                          guint64 slot_time,
                                          guint64 frame_offset,
                                          guint64 push_start,
                                          guint64 push_end);
guint64  rtp_burst_sink_hold_frame_start (RtpBurstSinkHold * hold);

G_END_DECLS

#endif /* __RTP_BURST_SINK_HOLD_H__ */
