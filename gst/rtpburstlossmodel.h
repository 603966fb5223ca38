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
 * Whether the loss answers the rate: a loss model after libwebrtc's
 * loss-based estimate (LossBasedBweV2).  Each observation is packets the
 * caller gathered (rtpburstgcc.c: those sent over 250 ms or more): the
 * rate they were sent at, how many, how many lost.
 * The model says a packet sent at rate s is lost with probability
 * eps + (1 - eps) max (0, 1 - B / s): eps the loss the stream meets
 * whatever it sends (a competitor that does not back off, such as BBR,
 * fills the queue on its own), B the rate above which its own packets
 * overflow the path.  The answer is the smallest B among the (eps, B)
 * whose likelihood over the last observations is within a factor e^2 of
 * the most likely: where the observations cannot tell the two apart (one
 * rate, or loss rising with the rate) that is the B that blames the
 * stream's own rate, and only observations at several rates that lose
 * alike put B above them.  GLib only.
 */

#ifndef __RTP_BURST_LOSS_MODEL_H__
#define __RTP_BURST_LOSS_MODEL_H__

#include <glib.h>

G_BEGIN_DECLS

/* observations the fit takes, the newest */
#define RTP_BURST_LOSS_MODEL_OBSERVATIONS 20

typedef struct _RtpBurstLossModel RtpBurstLossModel;

RtpBurstLossModel *rtp_burst_loss_model_new (void);
void rtp_burst_loss_model_free (RtpBurstLossModel * model);

/* One observation: @sent packets sent at @rate bit/s, @lost of them lost.
 * Ignored where @sent is 0, @lost above it or @rate not above 0. */
void rtp_burst_loss_model_add (RtpBurstLossModel * model, guint sent,
    guint lost, gdouble rate);

/* B, bit/s (the smallest within e^2 of the most likely), and its eps in
 * @inherent when not NULL; 0 (and eps 0) until the model holds
 * RTP_BURST_LOSS_MODEL_OBSERVATIONS observations with a loss among them. */
gdouble rtp_burst_loss_model_bandwidth (const RtpBurstLossModel * model,
    gdouble * inherent);

void rtp_burst_loss_model_reset (RtpBurstLossModel * model);

G_END_DECLS

#endif /* __RTP_BURST_LOSS_MODEL_H__ */
