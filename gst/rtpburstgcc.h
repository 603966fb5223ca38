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
 * Google Congestion Control (draft-ietf-rmcat-gcc-02), sender side, fed
 * with transport-wide congestion control feedback: for each packet its
 * transport-wide sequence number, when it was sent, when it arrived (or
 * that it was lost) and its size.  Two controllers give a rate each; the
 * target is the lower one, within [min_rate, max_rate]:
 *
 *   delay-based (section 5)
 *     groups     packets sent within 5 ms of a group's first make a group;
 *                a packet that arrives within 5 ms of the group's last
 *                and sooner than its send time says joins it too (a burst
 *                after an outage)
 *     d(i)       t(i) - t(i-1) - (T(i) - T(i-1)): arrival and send times
 *                of the groups' last packets
 *     filter     the Kalman filter of 5.3 estimates m(i), the delay
 *                gradient
 *     detector   m(i), scaled by the number of deltas seen (at most 60),
 *                against the adaptive threshold del_var_th(i): over-use
 *                once above it for 10 ms and not falling, under-use below
 *                its negative, else normal
 *     rate       Increase / Decrease / Hold, once per report: 8 %/s
 *                multiplicative increase, or half a packet per response
 *                time near the average rate of past decreases; a
 *                decrease to 0.85 x the rate received over the last
 *                0.5 s
 *   loss-based (section 6), over a window of at least 20 packets:
 *                over 10 % lost, A_s (1 - p / 2), at most once per
 *                300 ms + RTT, but not below the loss model's B where A_s
 *                was above it (not in the draft: rtpburstlossmodel.h,
 *                over observations of 250 ms of sending); under 2 %,
 *                1.05 A_s; else held; never above the delay-based rate
 *   TCP-fair floor (not in the draft), from the losses of both
 *                (rtpbursttfrc.h: RFC 5348's loss events, p and R): the
 *                rate of a TCP flow at that p and R, the higher of
 *                NewReno's equation and CUBIC's (RFC 9438 5.2), at most
 *                what the path takes: R_hat / (1 - the lost fraction of
 *                about the last 200 packets, a moving average; at most
 *                0.1); A_hat and A_s are lifted to it while loss
 *                events keep coming (until twice the longest of the last
 *                gaps between them, at least 10 s, has passed) and the
 *                loss stays at or under 10 %.  A loss-based TCP in the
 *                same queue keeps it full: the delay-based controller
 *                alone would give it the link (GCC's known starvation
 *                beside such flows in drop-tail queues)
 *
 * Where it departs from the draft, and why, is said in rtpburstgcc.c and
 * rtpburstgccdetect.c; the floor's reasons in rtpburstfloor.c.
 * Only differences of the arrival times matter: the receiver's clock may
 * have any origin.  Pure arithmetic on what it is given: no clock, no
 * lock, GLib only.  Times in ns, rates in bit/s.
 */

#ifndef __RTP_BURST_GCC_H__
#define __RTP_BURST_GCC_H__

#include <glib.h>

#include "rtpburstfeedback.h"
#include "rtpburstgccdetect.h"
#include "rtpburstschedule.h"

G_BEGIN_DECLS


/* Rates, bit/s.  max_rate 0 = no maximum (RTP_BURST_GCC_RATE_LIMIT); the
 * start rate is taken into [min_rate, max_rate]. */
typedef struct
{
  guint64 start_rate, min_rate, max_rate;
} RtpBurstGccConfig;

/* No rate goes above this: 1 Tbit/s. */
#define RTP_BURST_GCC_RATE_LIMIT (G_GUINT64_CONSTANT (1000000000000))

/* The delay-based rate controller's state (5.5). */
typedef enum
{
  RTP_BURST_GCC_INCREASE = 0,
  RTP_BURST_GCC_DECREASE,
  RTP_BURST_GCC_HOLD,
} RtpBurstGccState;

typedef struct
{
  gdouble gradient;             /* the estimate the detector compares,
                                 * ms: m(i) x min (deltas, 60) */
  gdouble offset;               /* m(i) itself, ms */
  gdouble threshold;            /* del_var_th(i), ms */
  RtpBurstGccSignal signal;     /* the detector's latest */
  RtpBurstGccState state;       /* the rate controller's */
  gboolean near_max;            /* the last increase was additive */
  guint64 received_rate;        /* R_hat, bit/s; 0 = not measured yet */
  gdouble loss;                 /* lost fraction of the window the
                                 * loss-based controller last acted on */
  guint loss_packets;           /* ... its packets (0 = none yet) */
  guint64 loss_updates;         /* times it acted */
  guint64 delay_rate;           /* A_hat, bit/s */
  guint64 loss_rate;            /* A_s, bit/s */
  gdouble loss_event_rate;      /* the floor's p (RFC 5348's, the seeded
                                 * first interval left out); 0 while the
                                 * floor has none */
  guint64 floor_rate;           /* the TCP-fair floor, bit/s; 0 = not in
                                 * force */
  gdouble floor_loss;           /* the lost fraction its bound takes:
                                 * each new packet moves it 1/200 of the
                                 * way to 1 (lost) or 0 (received) */
  guint64 model_rate;           /* the loss model's B when the loss-based
                                 * controller last had a decrease due
                                 * (rtpburstlossmodel.h), bit/s; 0 = none */
  gdouble model_inherent;       /* ... and its eps */
  guint64 target;               /* rtp_burst_gcc_target () */
  guint64 avg_max_rate;         /* mean R_hat at decreases; 0 = none */
  guint64 groups;               /* deltas d(i) given to the filter */
  guint64 received, lost;       /* packets counted (each seq once) */
} RtpBurstGccReport;

typedef struct _RtpBurstGcc RtpBurstGcc;

RtpBurstGcc *rtp_burst_gcc_new         (const RtpBurstGccConfig * config);
void     rtp_burst_gcc_free            (RtpBurstGcc * gcc);

/* One feedback report, received by the sender at @now: @n packets in
 * sequence order, as the feedback lists them.  @rtt: the round trip, ns
 * (from RTCP), RTP_BURST_TIME_NONE if unknown.  A sequence number seen
 * before, or older than the last RTP_BURST_GCC_SEQ_WINDOW, is not
 * counted again. */
void     rtp_burst_gcc_on_feedback     (RtpBurstGcc * gcc,
                                        const RtpBurstFeedbackPacket * pkts,
                                        guint n, guint64 now, guint64 rtt);

/* The target rate, bit/s: min (A_hat, A_s) within [min_rate, max_rate]. */
guint64  rtp_burst_gcc_target          (const RtpBurstGcc * gcc);

/* A probe found the path carries @rate bit/s (rtpburstprobe.h): a rate
 * above the target becomes A_hat and A_s (within the bounds), as
 * libwebrtc's delay-based estimate takes a probe's result; the state and
 * the detector are left as they are.  Returns whether the target rose. */
gboolean rtp_burst_gcc_probe_result    (RtpBurstGcc * gcc, guint64 rate);

void     rtp_burst_gcc_report          (const RtpBurstGcc * gcc,
                                        RtpBurstGccReport * out);

const gchar *rtp_burst_gcc_signal_name (RtpBurstGccSignal signal);
const gchar *rtp_burst_gcc_state_name  (RtpBurstGccState state);

/* Sequence numbers remembered to count each packet once. */
#define RTP_BURST_GCC_SEQ_WINDOW 4096

G_END_DECLS

#endif /* __RTP_BURST_GCC_H__ */
