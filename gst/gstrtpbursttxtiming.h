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
 * rtpbursttxsink's release times: a buffer's, on the pipeline clock as a
 * synchronising GstBaseSink would render it and moved to the kernel clock
 * of SO_TXTIME (the arithmetic is rtpbursttxtime.c's).  The pipeline
 * clock's parameters and its offset from the kernel clock are read once
 * per render call.
 */

#ifndef __GST_RTP_BURST_TX_TIMING_H__
#define __GST_RTP_BURST_TX_TIMING_H__

#include <time.h>
#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean valid;               /* txtime in force and a clock */
  GstClockTime base_time, latency, render_delay;
  GstClockTimeDiff ts_offset;
  gint64 offset;                /* pipeline clock -> kernel clock */
  guint64 kernel_now;
} GstRtpBurstTxTiming;

void     gst_rtp_burst_tx_timing_read   (GstBaseSink * sink, gboolean active,
                                         clockid_t kernel_clock,
                                         GstRtpBurstTxTiming * t);
gboolean gst_rtp_burst_tx_timing_buffer (GstBaseSink * sink,
                                         const GstRtpBurstTxTiming * t,
                                         GstBuffer * buffer,
                                         GstClockTime * clock_time,
                                         guint64 * txtime);

G_END_DECLS

#endif /* __GST_RTP_BURST_TX_TIMING_H__ */
