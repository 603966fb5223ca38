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
 * TCP-Friendly Rate Control (TFRC, RFC 5348) at the sender, from per-packet
 * feedback (rtpburstfeedback.h): the allowed sending rate X of a flow that
 * is fair to TCP and smoother than it.
 *
 * RFC 5348 puts the loss history and the receive rate at the receiver;
 * here the sender has every packet's fate, so it keeps them itself:
 *
 *   loss events  a lost packet sent more than R after the first lost
 *                packet of the current event starts a new one (5.2, by
 *                send times); the first event's interval before it is
 *                seeded so that the equation gives X_recv (6.3.1)
 *   p            1 / the weighted mean of the 8 most recent loss
 *                intervals, the open one counted when it raises the mean
 *                (5.4); 0 before the first loss
 *   X_recv       bytes received over at least R, by the receiver's arrival
 *                times (6.2)
 *   R            the round trip the caller gives (RTCP), else now minus the
 *                send time of the newest packet received; smoothed with
 *                q = 0.9 (4.3)
 *   X            slow start doubling per R up to 2 max (X_recv_set), but
 *                never below W_init/R (so a data-limited sender keeps
 *                W_init/R however little it sends), until the first
 *                loss, then max (min (X_calc, 2 X_recv), s/t_mbi)
 *                (4.3); halved by the nofeedback timer (4.4); not cut
 *                below what a data-limited sender got through (4.3, 8.2)
 *   timer        the nofeedback timer expires max (4R, 2s/X) after the
 *                last feedback (4.3), and not before twice the longest
 *                recent interval between feedback (one counts until
 *                feedback comes RTP_BURST_TFRC_GAP_MEMORY times its
 *                length after it ended; feedback within 5 ms of the last
 *                is the same), 2 s while none is known (4.2): RFC 5348's
 *                receiver reports once per round trip (6.2), a TWCC
 *                receiver at its own pace (rtpsession 1.22: with each
 *                frame, or ten frames' reports together with its RTCP),
 *                so that on a short path 4R would expire between any two
 *                reports
 *
 * Never waits, locks or reads a clock: times are passed in, in ns
 * (RTP_BURST_TIME_NONE = unknown).  Rates are in bit/s.  GLib only.
 */

#ifndef __RTP_BURST_TFRC_H__
#define __RTP_BURST_TFRC_H__

#include <glib.h>

#include "rtpburstfeedback.h"
#include "rtpburstschedule.h"

G_BEGIN_DECLS

/* The loss intervals the mean is taken over (RFC 5348 5.4: n = 8). */
#define RTP_BURST_TFRC_N_INTERVALS 8

/* The maximum backoff interval t_mbi (RFC 5348 4.3): X >= s / t_mbi. */
#define RTP_BURST_TFRC_T_MBI (64 * G_GUINT64_CONSTANT (1000000000))

/* An interval between feedback counts for the nofeedback timer until
 * feedback comes this many times its length after it ended. */
#define RTP_BURST_TFRC_GAP_MEMORY 8

/* R below this is taken as this in the rate formulas (no division by 0). */
#define RTP_BURST_TFRC_MIN_RTT (G_GUINT64_CONSTANT (1000000))      /* 1 ms */

typedef struct
{
  guint segment_size;           /* s, bytes; 0 = 1200 */
  guint64 min_rate;             /* bit/s, X never below; 0 = none */
  guint64 max_rate;             /* bit/s, X never above; 0 = none */
  guint64 start_rate;           /* bit/s, X before the first feedback;
                                 * 0 = one segment a second (4.2) */
} RtpBurstTfrcConfig;

typedef struct _RtpBurstTfrc RtpBurstTfrc;

typedef struct
{
  guint64 x;                    /* the allowed sending rate X, bit/s */
  gdouble p;                    /* the loss event rate; 0 before a loss */
  guint64 rtt;                  /* R, ns; NONE before a sample */
  guint64 x_recv;               /* the latest receive rate, bit/s; 0 none */
  guint64 x_calc;               /* the equation's rate for p, bit/s;
                                 * 0 while p = 0 */
  guint64 recv_limit;           /* the limit from X_recv_set, bit/s;
                                 * G_MAXUINT64 = none */
  /* [0] the open interval, then the closed ones, newest first; packets */
  gdouble intervals[RTP_BURST_TFRC_N_INTERVALS + 1];
  guint n_intervals;            /* closed intervals in intervals[] */
  guint64 loss_events;          /* since the start */
  guint64 lost;                 /* packets reported lost */
  gboolean slow_start;          /* no loss yet */
  gboolean data_limited;        /* the last feedback interval was */
  guint64 nofeedback_expiries;
  guint64 nofeedback_deadline;  /* when tick () next acts; NONE: nothing
                                 * sent yet */
  guint64 feedback_gap;         /* the longest recent interval between
                                 * feedback, ns; 0: none */
} RtpBurstTfrcReport;

RtpBurstTfrc *rtp_burst_tfrc_new (const RtpBurstTfrcConfig * c);
void     rtp_burst_tfrc_free     (RtpBurstTfrc * t);

/* One feedback report received at sender time @now, its @n packets in
 * increasing seq order (those at or below a seq already reported are
 * ignored).  @rtt: the RTCP round trip, NONE if unknown. */
void     rtp_burst_tfrc_on_feedback (RtpBurstTfrc * t,
                                  const RtpBurstFeedbackPacket * pkts,
                                  guint n, guint64 now, guint64 rtt);
/* The sender sent @bytes at @now (for the data-limited test and the
 * nofeedback timer's idle test). */
void     rtp_burst_tfrc_on_sent  (RtpBurstTfrc * t, guint64 bytes,
                                  guint64 now);
/* The nofeedback timer (4.4): acts when @now is at or after its deadline,
 * else does nothing. */
void     rtp_burst_tfrc_tick     (RtpBurstTfrc * t, guint64 now);

/* The allowed sending rate X, bit/s; at least 1. */
guint64  rtp_burst_tfrc_rate     (const RtpBurstTfrc * t);
void     rtp_burst_tfrc_report   (const RtpBurstTfrc * t,
                                  RtpBurstTfrcReport * out);

/* The throughput equation (3.1, b = 1, t_RTO = 4R): bit/s for segments of
 * @s bytes, round trip @rtt ns and loss event rate @p.  +infinity when
 * p <= 0; @rtt below RTP_BURST_TFRC_MIN_RTT (or NONE) counts as that. */
gdouble  rtp_burst_tfrc_equation (guint s, guint64 rtt, gdouble p);

/* CUBIC's average rate for the same (RFC 9438 5.2: C = 0.4, beta = 0.7):
 * bit/s.  +infinity when p <= 0; @rtt as above. */
gdouble  rtp_burst_tfrc_cubic_equation (guint s, guint64 rtt, gdouble p);

/* The loss event rate (5.4) from the open interval @open and @n closed
 * intervals @closed (newest first; at most RTP_BURST_TFRC_N_INTERVALS are
 * used).  0 when @n is 0. */
gdouble  rtp_burst_tfrc_loss_event_rate (gdouble open,
                                  const gdouble * closed, guint n);

G_END_DECLS

#endif /* __RTP_BURST_TFRC_H__ */
