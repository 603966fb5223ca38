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
 * Probing for a fast start: short clusters of packets sent faster than the
 * estimate (at 3x and 6x the start rate, as libwebrtc's initial probes),
 * and the rate the path delivered them at, read back from the per-packet
 * feedback.  The caller paces each cluster's packets at its rate (from
 * media it already holds) and tells when each left; a packet belongs to the
 * cluster whose send times span it, so no sequence numbers are needed on
 * the way out (rtpbin numbers the packets after the element).  GLib only.
 *
 * A cluster's result, once feedback covers at least 80 % of its packets and
 * bytes, both spans between 0 and 1 s:
 *   send rate    = (bytes - last sent packet) / (last send - first send)
 *   receive rate = (bytes - first received packet) / (last - first arrival)
 *   result       = min (send, receive); 0.95 x receive when receive is below
 *                  0.9 x send (the path's capacity found); none when
 *                  receive > 2 x send (the arrival times are not trusted).
 */

#ifndef __RTP_BURST_PROBE_H__
#define __RTP_BURST_PROBE_H__

#include <glib.h>

#include "rtpburstfeedback.h"

G_BEGIN_DECLS

/* a cluster: at least this many packets; planned to last this long at its
 * rate (min_bytes, for a caller that chooses its packets) */
#define RTP_BURST_PROBE_MIN_PACKETS 5
#define RTP_BURST_PROBE_MIN_DURATION (15 * G_GUINT64_CONSTANT (1000000))
/* feedback later than this after a cluster's last packet: it failed */
#define RTP_BURST_PROBE_TIMEOUT (G_GUINT64_CONSTANT (1000000000))
#define RTP_BURST_PROBE_MAX_CLUSTERS 4

typedef enum
{
  RTP_BURST_PROBE_PENDING = 0,  /* planned, not started */
  RTP_BURST_PROBE_SENDING,      /* its packets are leaving */
  RTP_BURST_PROBE_SENT,         /* waiting for feedback */
  RTP_BURST_PROBE_DONE,         /* result known */
  RTP_BURST_PROBE_FAILED,       /* no result: too little feedback in time,
                                 * or intervals not to be trusted */
} RtpBurstProbeState;

typedef struct
{
  RtpBurstProbeState state;
  guint64 rate;                 /* bit/s it is sent at */
  guint min_packets;
  guint64 min_bytes;
  /* sent */
  guint n_sent;
  guint64 bytes_sent;
  guint64 first_send, last_send;        /* its span: first push's start,
                                         * last push's end, ns */
  /* from the feedback */
  guint n_received;
  guint64 bytes_received;
  guint64 fb_first_send, fb_last_send;
  guint size_last_send;
  guint64 first_arrival, last_arrival;
  guint size_first_arrival;
  guint64 send_rate, receive_rate;      /* bit/s, when DONE */
  guint64 result;               /* bit/s, when DONE */
} RtpBurstProbeCluster;

typedef struct _RtpBurstProbe RtpBurstProbe;

RtpBurstProbe *rtp_burst_probe_new     (void);
void     rtp_burst_probe_free          (RtpBurstProbe * probe);

/* The bytes a cluster at @rate bit/s needs at least: its minimum
 * duration's worth. */
guint64  rtp_burst_probe_min_bytes     (guint64 rate);

/* Plans a cluster at @rate bit/s (FALSE: no room for another one). */
gboolean rtp_burst_probe_plan          (RtpBurstProbe * probe, guint64 rate);
/* The initial probes: clusters at 3x and 6x @start_rate, each at most
 * @max_rate (0 = none); FALSE, and none planned, when that leaves no
 * cluster above @start_rate. */
gboolean rtp_burst_probe_plan_start    (RtpBurstProbe * probe,
                                        guint64 start_rate,
                                        guint64 max_rate);

/* The rate the next cluster is to be sent at, bit/s: that of the next
 * planned one; 0 while one is being sent (until rtp_burst_probe_close ())
 * or when none is planned. */
guint64  rtp_burst_probe_rate          (const RtpBurstProbe * probe);
/* A push of @n_packets packets, @bytes in all, paced at
 * rtp_burst_probe_rate (), began at @start and returned at @end (ns, the
 * clock of the feedback's send times, which fall between the two): it
 * counts in the cluster being sent, or starts the next planned one.  Its
 * span, from the first push's start to the last one's end, tells its
 * packets in the feedback. */
void     rtp_burst_probe_on_sent       (RtpBurstProbe * probe,
                                        guint n_packets, guint64 bytes,
                                        guint64 start, guint64 end);
/* The cluster being sent is complete: it waits for feedback, or fails at
 * once with fewer than its minimum of packets. */
void     rtp_burst_probe_close         (RtpBurstProbe * probe);
/* Feedback, in any order (a cluster takes no more packets than were sent
 * in it: the caller deduplicates repeats);
 * @now on the clock of the send times.  Returns the highest result of the
 * clusters it completed, bit/s; 0 = none. */
guint64  rtp_burst_probe_on_feedback   (RtpBurstProbe * probe,
                                        const RtpBurstFeedbackPacket * pkts,
                                        guint n, guint64 now);

/* Whether nothing is planned, being sent or waited for. */
gboolean rtp_burst_probe_idle          (const RtpBurstProbe * probe);
guint    rtp_burst_probe_n_clusters    (const RtpBurstProbe * probe);
const RtpBurstProbeCluster *rtp_burst_probe_cluster
                                       (const RtpBurstProbe * probe, guint i);

G_END_DECLS

#endif /* __RTP_BURST_PROBE_H__ */
