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
 * rtpbursttxsink's stats: the counters of a run (from the sink's start)
 * and the GstStructure of its `stats` property.  The fields are defined
 * once, in a table here, from which the structure and the property's
 * description are made.  The caller holds the sink's lock.
 */

#ifndef __GST_RTP_BURST_TX_STATS_H__
#define __GST_RTP_BURST_TX_STATS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_RTP_BURST_TX_STATS_NAME "application/x-rtp-burst-tx-sink-stats"

/* the counters, in the order of the fields */
typedef enum
{
  GST_RTP_BURST_TX_PACKETS_SENT,
  GST_RTP_BURST_TX_BYTES_SENT,
  GST_RTP_BURST_TX_SEND_ERRORS,
  GST_RTP_BURST_TX_TIMED,
  GST_RTP_BURST_TX_UNTIMED,
  GST_RTP_BURST_TX_LATE,
  GST_RTP_BURST_TX_MISSED,
  GST_RTP_BURST_TX_INVALID,
  GST_RTP_BURST_TX_N_COUNTERS
} GstRtpBurstTxCounter;

typedef struct
{
  guint64 counters[GST_RTP_BURST_TX_N_COUNTERS];
  gint64 last_lead, max_lead;
  gchar *qdisc;                 /* the egress qdisc: "fq", "mq: fq"... */
  gchar egress[16];             /* the egress device */
} GstRtpBurstTxStats;

const gchar  * gst_rtp_burst_tx_stats_blurb        (void);
void           gst_rtp_burst_tx_stats_reset        (GstRtpBurstTxStats * s);
void           gst_rtp_burst_tx_stats_clear        (GstRtpBurstTxStats * s);
void           gst_rtp_burst_tx_stats_set_egress   (GstRtpBurstTxStats * s,
                                                    const gchar * qdisc,
                                                    const gchar * device);
void           gst_rtp_burst_tx_stats_sent         (GstRtpBurstTxStats * s,
                                                    gboolean ok, gsize size,
                                                    gboolean timed,
                                                    guint64 txtime,
                                                    guint64 kernel_now);
GstStructure * gst_rtp_burst_tx_stats_to_structure (const GstRtpBurstTxStats
                                                    * s, gboolean active,
                                                    const gchar * clock);

G_END_DECLS

#endif /* __GST_RTP_BURST_TX_STATS_H__ */
