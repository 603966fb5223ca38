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
 * An element that synchronises downstream holds each buffer until the
 * running time of its DTS (else PTS) plus a latency X, and blocks the
 * thread that pushed it until then:
 *
 * - a sink (GstBaseSink with sync=true: udpsink's default, gst-rtsp-server's
 *   multiudpsink): X = the pipeline latency, which it also sends upstream in
 *   a LATENCY event;
 * - clocksync (webrtcbin puts one behind each of its sink pads): X = the
 *   upstream latency its LATENCY query returned, i.e. what the element
 *   answered to that query.
 *
 * The element gives each paced packet a DTS whose running time is its slot
 * time minus an offset R, so such an element releases it at slot - R + X.
 * This unit decides R from what the element sees of downstream, with no
 * pads, locks or clock:
 *
 * - R starts at 0: the DTS is the slot time.  A synchronising element
 *   behind a queue (not in the element's thread) then releases every packet
 *   X after its slot: the spacing survives, X later.
 * - A push that downstream held for at least RTP_BURST_HOLD_MIN and that
 *   returned when an element with one of the two known latencies would
 *   release its packet is "held": a synchronising element sits in the
 *   element's own thread.  From the next frame on, R = that latency:
 *   frames are due R after their timestamp, the element waits for each
 *   slot itself and downstream's wait ends at once, so the two never fight.
 * - Once R > 0, R follows later values of the same latency (a new LATENCY
 *   event, a new query answer) from the next frame on.
 *
 * - A sink may hold longer or shorter than the latency it announces: its
 *   `ts-offset` (GstBaseSink) moves every release by that much.  Before
 *   any push was held, two pushes in a row that were held, each for at
 *   least RTP_BURST_HOLD_MIN and ending the same time L (within
 *   RTP_BURST_HOLD_EARLY) after their DTS, with L between half and twice
 *   a known latency (not a host stall of a few ms), say that a
 *   synchronising element in the thread adds L: R = L from the next frame
 *   on, and R follows L as it would a known latency.  Only before R is set:
 *   a push that is slow for another reason cannot make R grow push after
 *   push (a ts-offset under RTP_BURST_HOLD_LATE leaves R at the announced
 *   latency, the packets that much late).
 *
 * A latency that is only known, without a held push, never sets R: a
 * sync=false sink forwards the pipeline latency too.  And a push that is
 * merely slow (a busy downstream, a host stall) is not held unless it ends
 * where one of the known latencies says, so R can never grow by itself.
 * All times are running times in ns.
 */

#ifndef __RTP_BURST_SINK_HOLD_H__
#define __RTP_BURST_SINK_HOLD_H__

#include <glib.h>

G_BEGIN_DECLS

/* A push shorter than this was not held. */
#define RTP_BURST_HOLD_MIN (G_GUINT64_CONSTANT (1000000))       /* 1 ms */
/* How far before / after its expected release a held push may return and
 * still count as held by an element with that latency. */
#define RTP_BURST_HOLD_EARLY (G_GUINT64_CONSTANT (1000000))     /* 1 ms */
#define RTP_BURST_HOLD_LATE (G_GUINT64_CONSTANT (5000000))      /* 5 ms */

typedef enum
{
  RTP_BURST_HOLD_EVENT = 0,     /* the last LATENCY event from downstream */
  RTP_BURST_HOLD_QUERY,         /* the element's last LATENCY query answer */
  RTP_BURST_HOLD_N_SOURCES
} RtpBurstHoldSource;

typedef struct
{
  guint64 latency[RTP_BURST_HOLD_N_SOURCES];    /* G_MAXUINT64 = unknown */
  guint64 offset;               /* R for new frames */
  gint source;                  /* the latency R follows, -1 = none,
                                 * RTP_BURST_HOLD_N_SOURCES: the observed */
  gint held_by;                 /* ... a held push matched since the last
                                 * frame start, -1 = none */
  guint64 n_held;               /* held pushes, for the stats */
  /* holds by a latency nobody announced (a sink's ts-offset) */
  guint64 observed;             /* L, G_MAXUINT64 = none */
  guint64 candidate;            /* the L of the last push held so */
  guint n_candidate;            /* pushes in a row that ended at about it */
} RtpBurstSinkHold;

void     rtp_burst_sink_hold_init        (RtpBurstSinkHold * hold);
void     rtp_burst_sink_hold_set_latency (RtpBurstSinkHold * hold,
                                          RtpBurstHoldSource source,
                                          guint64 latency);
gboolean rtp_burst_sink_hold_push_done   (RtpBurstSinkHold * hold,
                                          guint64 slot_time,
                                          guint64 frame_offset,
                                          guint64 push_start,
                                          guint64 push_end,
                                          guint64 * release);
guint64  rtp_burst_sink_hold_frame_start (RtpBurstSinkHold * hold);
/* R for new frames, ns. */
guint64  rtp_burst_sink_hold_offset      (const RtpBurstSinkHold * hold);
/* Pushes held so far. */
guint64  rtp_burst_sink_hold_n_held      (const RtpBurstSinkHold * hold);

G_END_DECLS

#endif /* __RTP_BURST_SINK_HOLD_H__ */
