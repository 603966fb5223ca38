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
 * The TCP-fair floor under Google Congestion Control's target
 * (rtpburstgcc.h): the rate a TCP flow would have at the loss event rate
 * and round trip the per-packet feedback shows (RFC 5348's p and R from a
 * TFRC receiver side of its own, rtpbursttfrc.h; the higher of NewReno's
 * equation and CUBIC's, RFC 9438 5.2), at most what the path takes:
 * R_hat / (1 - the lost fraction of about the last 200 packets, a moving
 * average, at most the loss-based controller's limit).  In force from the
 * second loss event while they keep coming (until twice the longest of
 * the last eight gaps between them, at least 10 s, has passed) and while
 * the loss-based window lost no more than that limit.  GLib only.
 */

#ifndef __RTP_BURST_FLOOR_H__
#define __RTP_BURST_FLOOR_H__

#include <glib.h>

#include "rtpburstfeedback.h"

G_BEGIN_DECLS

typedef struct _RtpBurstFloor RtpBurstFloor;

typedef struct
{
  gdouble rate;                 /* bit/s; 0 = not in force */
  gdouble loss_event_rate;      /* its p (the seeded first interval left
                                 * out); 0 while it has none */
  gdouble taken_loss;           /* the lost fraction its bound takes:
                                 * each new packet moves it 1/200 of the
                                 * way to 1 (lost) or 0 (received) */
} RtpBurstFloorReport;

/* @start_rate: bit/s, for the first loss interval's seed (RFC 5348 6.3.1) */
RtpBurstFloor *rtp_burst_floor_new (guint64 start_rate);
void rtp_burst_floor_free (RtpBurstFloor * floor);

/* a packet reported for the first time, @lost or received */
void rtp_burst_floor_count (RtpBurstFloor * floor, gboolean lost);

/* One feedback report (as rtp_burst_gcc_on_feedback ()), then the floor
 * at @now, bit/s (0: not in force), from the rate received @r_hat (bit/s,
 * 0 = unknown: no floor), the loss-based window's lost fraction
 * @window_loss and its limit @loss_high. */
gdouble rtp_burst_floor_on_feedback (RtpBurstFloor * floor,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now, guint64 rtt,
    gdouble r_hat, gdouble window_loss, gdouble loss_high);

void rtp_burst_floor_report (const RtpBurstFloor * floor,
    RtpBurstFloorReport * out);

G_END_DECLS

#endif /* __RTP_BURST_FLOOR_H__ */
