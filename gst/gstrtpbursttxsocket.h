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
 * rtpbursttxsink's socket: a UDP socket to one destination, SO_TXTIME on it,
 * a buffer sent as one datagram with or without a release time
 * (SCM_TXTIME), and the qdisc's reports of packets it dropped for their
 * release time, read from the socket's error queue (MSG_ERRQUEUE,
 * SO_EE_ORIGIN_TXTIME).  Errors are posted on the element given.
 */

#ifndef __GST_RTP_BURST_TX_SOCKET_H__
#define __GST_RTP_BURST_TX_SOCKET_H__

#include <time.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <gst/gst.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_tx_sink_debug);

/* What one read of the error queue found. */
typedef struct
{
  guint64 missed;               /* SO_EE_CODE_TXTIME_MISSED */
  guint64 invalid;              /* SO_EE_CODE_TXTIME_INVALID_PARAM */
  guint64 last;                 /* the release time of the last one, ns */
} GstRtpBurstTxErrors;

gint     gst_rtp_burst_tx_socket_open        (GstElement * element,
                                              const gchar * host, gint port,
                                              struct sockaddr_storage * addr,
                                              socklen_t * addr_len);
gboolean gst_rtp_burst_tx_socket_set_txtime  (GstElement * element, gint fd,
                                              clockid_t clock);
gssize   gst_rtp_burst_tx_socket_send        (gint fd,
                                              const struct sockaddr_storage *
                                              addr, socklen_t addr_len,
                                              GstBuffer * buffer,
                                              gboolean timed, guint64 txtime,
                                              gsize * size, gint * err);
void     gst_rtp_burst_tx_socket_read_errors (GstElement * element, gint fd,
                                              GstRtpBurstTxErrors * errors);

G_END_DECLS

#endif /* __GST_RTP_BURST_TX_SOCKET_H__ */
