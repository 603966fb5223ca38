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


#ifndef __GST_RTP_BURST_TX_SINK_H__
#define __GST_RTP_BURST_TX_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

/**
 * GstRtpBurstTxClock:
 * @GST_RTP_BURST_TX_CLOCK_MONOTONIC: CLOCK_MONOTONIC, the clock of the fq
 *   qdisc
 * @GST_RTP_BURST_TX_CLOCK_TAI: CLOCK_TAI, the usual clock of an etf qdisc
 *   (`tc ... etf clockid CLOCK_TAI`)
 *
 * The kernel clock of the release times rtpbursttxsink gives the kernel.
 *
 * Since: 0.1
 */
typedef enum
{
  GST_RTP_BURST_TX_CLOCK_MONOTONIC,
  GST_RTP_BURST_TX_CLOCK_TAI,
} GstRtpBurstTxClock;

#define GST_TYPE_RTP_BURST_TX_CLOCK (gst_rtp_burst_tx_clock_get_type ())
GType gst_rtp_burst_tx_clock_get_type (void);

/**
 * GstRtpBurstTxCheck:
 * @GST_RTP_BURST_TX_CHECK_AUTO: release times only where the egress
 *   qdisc paces them (fq, etf, or mq, mqprio, taprio with fq or etf on
 *   every queue); else the sink waits on the clock
 * @GST_RTP_BURST_TX_CHECK_FORCE: release times whatever the egress qdisc
 *
 * Whether rtpbursttxsink checks the egress qdisc before handing release
 * times to the kernel.
 *
 * Since: 0.1
 */
typedef enum
{
  GST_RTP_BURST_TX_CHECK_AUTO,
  GST_RTP_BURST_TX_CHECK_FORCE,
} GstRtpBurstTxCheck;

#define GST_TYPE_RTP_BURST_TX_CHECK (gst_rtp_burst_tx_check_get_type ())
GType gst_rtp_burst_tx_check_get_type (void);

#define GST_TYPE_RTP_BURST_TX_SINK (gst_rtp_burst_tx_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstRtpBurstTxSink, gst_rtp_burst_tx_sink, GST,
    RTP_BURST_TX_SINK, GstBaseSink);

GST_ELEMENT_REGISTER_DECLARE (rtpbursttxsink);

G_END_DECLS

#endif /* __GST_RTP_BURST_TX_SINK_H__ */
