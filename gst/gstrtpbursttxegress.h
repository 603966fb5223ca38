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
 * rtpbursttxsink's check of the egress qdisc (rtpburstqdisc.c asks the
 * kernel) as it starts: whether to hand the release times to the kernel,
 * and one warning where the sink will wait on the clock instead, or where
 * the qdisc's clock is not the release times'.
 */

#ifndef __GST_RTP_BURST_TX_EGRESS_H__
#define __GST_RTP_BURST_TX_EGRESS_H__

#include <time.h>
#include <sys/socket.h>
#include <gst/gst.h>

#include "gstrtpbursttxsink.h"

G_BEGIN_DECLS

gboolean gst_rtp_burst_tx_egress_check (GstElement * element,
                                        const struct sockaddr * dst,
                                        GstRtpBurstTxCheck check,
                                        clockid_t clock, gchar ** qdisc,
                                        gchar device[16]);

G_END_DECLS

#endif /* __GST_RTP_BURST_TX_EGRESS_H__ */
