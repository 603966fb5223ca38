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
 * Probe clusters and their results (rtpburstprobe.h).  The estimate
 * follows libwebrtc's probe bitrate estimator (the ratios 0.8, 2, 0.9 and
 * 0.95, the 1 s bound); where it differs: a cluster is recognised by the
 * span of its send times, not by an identifier in the packet; the
 * feedback must cover 80 % of what was actually sent (not of the planned
 * minimum), and a cluster is judged once per feedback report, not per
 * packet; a cluster whose packets are all reported with too few received
 * fails at once instead of at the timeout.
 */

#include "rtpburstprobe.h"

#include <string.h>

#define MIN_RECEIVED_RATIO 0.8
#define MAX_VALID_RATIO 2.0
#define MIN_RATIO_UNSATURATED 0.9
#define TARGET_UTILIZATION 0.95
#define MAX_INTERVAL (G_GUINT64_CONSTANT (1000000000))

struct _RtpBurstProbe
{
  RtpBurstProbeCluster clusters[RTP_BURST_PROBE_MAX_CLUSTERS];
  guint n;
  guint n_lost[RTP_BURST_PROBE_MAX_CLUSTERS];
};

RtpBurstProbe *
rtp_burst_probe_new (void)
{
  return g_new0 (RtpBurstProbe, 1);
}

void
rtp_burst_probe_free (RtpBurstProbe * probe)
{
  g_free (probe);
}

guint64
rtp_burst_probe_min_bytes (guint64 rate)
{
  return (guint64) ((gdouble) rate / 8.0 *
      RTP_BURST_PROBE_MIN_DURATION / 1e9 + 0.5);
}

gboolean
rtp_burst_probe_plan (RtpBurstProbe * probe, guint64 rate)
{
  RtpBurstProbeCluster *c;

  g_return_val_if_fail (probe != NULL && rate > 0, FALSE);
  if (probe->n == RTP_BURST_PROBE_MAX_CLUSTERS)
    return FALSE;
  c = &probe->clusters[probe->n++];
  memset (c, 0, sizeof (*c));
  c->state = RTP_BURST_PROBE_PENDING;
  c->rate = rate;
  c->min_packets = RTP_BURST_PROBE_MIN_PACKETS;
  /* rate x 15 ms, in bytes */
  c->min_bytes = rtp_burst_probe_min_bytes (rate);
  return TRUE;
}

static guint64
times (guint64 rate, guint k)
{
  return rate > G_MAXUINT64 / k ? G_MAXUINT64 : rate * k;
}

gboolean
rtp_burst_probe_plan_start (RtpBurstProbe * probe, guint64 start_rate,
    guint64 max_rate)
{
  guint64 r3 = times (start_rate, 3), r6 = times (start_rate, 6);

  g_return_val_if_fail (start_rate > 0, FALSE);
  if (max_rate > 0) {
    r3 = MIN (r3, max_rate);
    r6 = MIN (r6, max_rate);
  }
  if (r3 <= start_rate)
    return FALSE;
  rtp_burst_probe_plan (probe, r3);
  rtp_burst_probe_plan (probe, r6);
  return TRUE;
}

/* The cluster being sent, else the next planned one; NULL = none. */
static RtpBurstProbeCluster *
current (const RtpBurstProbe * probe)
{
  guint i;

  for (i = 0; i < probe->n; i++) {
    const RtpBurstProbeCluster *c = &probe->clusters[i];

    if (c->state == RTP_BURST_PROBE_SENDING ||
        c->state == RTP_BURST_PROBE_PENDING)
      return (RtpBurstProbeCluster *) c;
  }
  return NULL;
}

guint64
rtp_burst_probe_rate (const RtpBurstProbe * probe)
{
  const RtpBurstProbeCluster *c = current (probe);

  return c && c->state == RTP_BURST_PROBE_PENDING ? c->rate : 0;
}

void
rtp_burst_probe_on_sent (RtpBurstProbe * probe, guint n_packets,
    guint64 bytes, guint64 start, guint64 end)
{
  RtpBurstProbeCluster *c = current (probe);

  if (c == NULL || n_packets == 0 || start == RTP_BURST_TIME_NONE ||
      end == RTP_BURST_TIME_NONE || end < start)
    return;
  if (c->state == RTP_BURST_PROBE_PENDING) {
    c->state = RTP_BURST_PROBE_SENDING;
    c->first_send = start;
  }
  c->n_sent += n_packets;
  c->bytes_sent += bytes;
  c->first_send = MIN (c->first_send, start);
  c->last_send = MAX (c->last_send, end);
}

void
rtp_burst_probe_close (RtpBurstProbe * probe)
{
  RtpBurstProbeCluster *c = current (probe);

  if (c == NULL || c->state != RTP_BURST_PROBE_SENDING)
    return;
  c->state = c->n_sent >= c->min_packets ? RTP_BURST_PROBE_SENT :
      RTP_BURST_PROBE_FAILED;
}

/* The cluster whose send span holds @send_time; NULL = none. */
static RtpBurstProbeCluster *
cluster_of (RtpBurstProbe * probe, guint64 send_time, guint * index)
{
  guint i;

  for (i = 0; i < probe->n; i++) {
    RtpBurstProbeCluster *c = &probe->clusters[i];

    if (c->state == RTP_BURST_PROBE_SENT &&
        send_time >= c->first_send && send_time <= c->last_send) {
      *index = i;
      return c;
    }
  }
  return NULL;
}

static void
add (RtpBurstProbeCluster * c, const RtpBurstFeedbackPacket * p)
{
  if (c->n_received == 0 || p->send_time < c->fb_first_send)
    c->fb_first_send = p->send_time;
  if (c->n_received == 0 || p->send_time > c->fb_last_send) {
    c->fb_last_send = p->send_time;
    c->size_last_send = p->size;
  }
  if (c->n_received == 0 || p->arrival < c->first_arrival) {
    c->first_arrival = p->arrival;
    c->size_first_arrival = p->size;
  }
  if (c->n_received == 0 || p->arrival > c->last_arrival)
    c->last_arrival = p->arrival;
  c->n_received++;
  c->bytes_received += p->size;
}

static guint64
rate_of (guint64 bytes, guint64 interval)
{
  gdouble r = (gdouble) bytes * 8.0 * 1e9 / (gdouble) interval + 0.5;

  return r >= 18446744073709551615.0 ? G_MAXUINT64 : (guint64) r;
}

/* Judges a SENT cluster: DONE with its result, FAILED, or still SENT. */
static void
judge (RtpBurstProbeCluster * c, guint n_lost, guint64 now)
{
  guint64 send_interval, receive_interval;

  if (c->n_received < MIN_RECEIVED_RATIO * c->n_sent ||
      c->bytes_received < MIN_RECEIVED_RATIO * c->bytes_sent) {
    /* all reported, or too late: it will not get there */
    if (c->n_received + n_lost >= c->n_sent ||
        (now != RTP_BURST_TIME_NONE &&
            now > c->last_send + RTP_BURST_PROBE_TIMEOUT))
      c->state = RTP_BURST_PROBE_FAILED;
    return;
  }
  send_interval = c->fb_last_send - c->fb_first_send;
  receive_interval = c->last_arrival - c->first_arrival;
  if (send_interval == 0 || send_interval > MAX_INTERVAL ||
      receive_interval == 0 || receive_interval > MAX_INTERVAL ||
      c->bytes_received <= c->size_last_send ||
      c->bytes_received <= c->size_first_arrival) {
    c->state = RTP_BURST_PROBE_FAILED;
    return;
  }
  /* the last packet sent takes no time of the send span, the first
   * received none of the receive span */
  c->send_rate = rate_of (c->bytes_received - c->size_last_send, send_interval);
  c->receive_rate = rate_of (c->bytes_received - c->size_first_arrival,
      receive_interval);
  if (c->receive_rate > MAX_VALID_RATIO * c->send_rate) {
    c->state = RTP_BURST_PROBE_FAILED;
    return;
  }
  c->result = MIN (c->send_rate, c->receive_rate);
  /* received markedly slower than sent: the path's capacity, less a
   * margin so as not to fill its queue at once */
  if (c->receive_rate < MIN_RATIO_UNSATURATED * c->send_rate)
    c->result = (guint64) (TARGET_UTILIZATION * c->receive_rate);
  c->state = RTP_BURST_PROBE_DONE;
}

guint64
rtp_burst_probe_on_feedback (RtpBurstProbe * probe,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now)
{
  guint i, k;
  guint64 best = 0;

  g_return_val_if_fail (probe != NULL && (pkts != NULL || n == 0), 0);
  for (i = 0; i < n; i++) {
    RtpBurstProbeCluster *c = cluster_of (probe, pkts[i].send_time, &k);

    /* a packet reported again (the caller's deduplication aside) */
    if (c == NULL || c->n_received + probe->n_lost[k] >= c->n_sent)
      continue;
    if (pkts[i].arrival == RTP_BURST_TIME_NONE)
      probe->n_lost[k]++;
    else
      add (c, &pkts[i]);
  }
  for (k = 0; k < probe->n; k++) {
    RtpBurstProbeCluster *c = &probe->clusters[k];

    if (c->state != RTP_BURST_PROBE_SENT)
      continue;
    judge (c, probe->n_lost[k], now);
    if (c->state == RTP_BURST_PROBE_DONE)
      best = MAX (best, c->result);
  }
  return best;
}

gboolean
rtp_burst_probe_idle (const RtpBurstProbe * probe)
{
  guint i;

  for (i = 0; i < probe->n; i++)
    if (probe->clusters[i].state < RTP_BURST_PROBE_DONE)
      return FALSE;
  return TRUE;
}

guint
rtp_burst_probe_n_clusters (const RtpBurstProbe * probe)
{
  return probe->n;
}

const RtpBurstProbeCluster *
rtp_burst_probe_cluster (const RtpBurstProbe * probe, guint i)
{
  g_return_val_if_fail (i < probe->n, NULL);
  return &probe->clusters[i];
}
