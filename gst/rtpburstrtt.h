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
 * The round trip from per-packet feedback (rtpburstfeedback.h), with no
 * other help from the receiver, as libwebrtc's send-side estimator takes
 * it (GoogCcNetworkController::OnTransportPacketsFeedback):
 *
 *   sample   of one report, received by the sender at now: over the
 *            packets it says arrived, the smallest
 *              (now - sent) - (newest arrival of the report - arrival)
 *            the time from a packet's send to the report, less the time
 *            it waited at the receiver for the report to be made (the
 *            receiver holds a report's packets until its newest one);
 *            never below 0
 *   round    the smallest sample of the reports received within the last
 *   trip     RTP_BURST_RTT_WINDOW (at most RTP_BURST_RTT_MAX_SAMPLES of
 *            them; the newest always counts): what delays a report on
 *            its way besides the path (the receiver's RTCP timing: 1.22's
 *            rtpsession sends a few frames' reports together) only adds,
 *            and a queue on the path still shows within the window
 *
 * Never waits, locks or reads a clock: times are passed in, in ns, the
 * sends' and now on the sender's clock, the arrivals on the receiver's
 * (any origin: only their differences count).  GLib only.
 */

#ifndef __RTP_BURST_RTT_H__
#define __RTP_BURST_RTT_H__

#include <glib.h>

#include "rtpburstfeedback.h"
#include "rtpburstschedule.h"

G_BEGIN_DECLS

/* How far back the smallest sample is taken, ns. */
#define RTP_BURST_RTT_WINDOW (G_GUINT64_CONSTANT (1000000000))
/* Samples kept: more reports than this within the window shorten it. */
#define RTP_BURST_RTT_MAX_SAMPLES 64

typedef struct
{
  guint64 time;                 /* the report's now */
  guint64 rtt;                  /* its sample, ns */
} RtpBurstRttSample;

typedef struct
{
  RtpBurstRttSample samples[RTP_BURST_RTT_MAX_SAMPLES];   /* oldest first */
  guint n;
} RtpBurstRtt;

void     rtp_burst_rtt_init   (RtpBurstRtt * r);

/* The sample of one report of @n packets received at @now: NONE when no
 * packet of it arrived, or none was sent at or before @now. */
guint64  rtp_burst_rtt_sample (const RtpBurstFeedbackPacket * pkts, guint n,
                               guint64 now);

/* Takes the sample of a report received at @now (rtp_burst_rtt_sample ())
 * into the window, and forgets the samples older than the window, or
 * later than @now (the sender's clock went back); the newest stays
 * however old.  Returns rtp_burst_rtt_get (). */
guint64  rtp_burst_rtt_update (RtpBurstRtt * r,
                               const RtpBurstFeedbackPacket * pkts, guint n,
                               guint64 now);

/* The round trip, ns: the smallest sample kept; NONE before the first. */
guint64  rtp_burst_rtt_get    (const RtpBurstRtt * r);

G_END_DECLS

#endif /* __RTP_BURST_RTT_H__ */
