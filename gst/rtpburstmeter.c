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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "rtpburstmeter.h"

#define RING_MASK (RTP_BURST_METER_RING - 1)
#define LAST_BUCKET (RTP_BURST_METER_N_BUCKETS - 1)
#define NS_PER_S (G_GUINT64_CONSTANT (1000000000))

G_STATIC_ASSERT ((RTP_BURST_METER_RING & RING_MASK) == 0);
G_STATIC_ASSERT (RTP_BURST_METER_WINDOW_SHORT < RTP_BURST_METER_WINDOW_LONG);
/* bit/s = bytes * 8 * (NS_PER_S / window), exact */
G_STATIC_ASSERT (NS_PER_S % RTP_BURST_METER_WINDOW_SHORT == 0);
G_STATIC_ASSERT (NS_PER_S % RTP_BURST_METER_WINDOW_LONG == 0);

/* --- Histograms --------------------------------------------------------- */

/* index of the highest set bit, @v > 0 */
static inline guint
msb64 (guint64 v)
{
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll (v);
#else
  guint n = 0;

  while (v >>= 1)
    n++;
  return n;
#endif
}

static inline guint
bucket_of (guint64 v)
{
  guint k;

  if (v < RTP_BURST_METER_SUB)
    return (guint) v;
  if (v >> RTP_BURST_METER_RANGE_BITS)
    return LAST_BUCKET;
  /* 2^k <= v < 2^(k+1), k >= SUB_BITS: the top SUB_BITS + 1 bits of v
   * are 1sss, s the sub-bucket */
  k = msb64 (v);
  return (k - RTP_BURST_METER_SUB_BITS + 1) * RTP_BURST_METER_SUB +
      (guint) ((v >> (k - RTP_BURST_METER_SUB_BITS)) &
      (RTP_BURST_METER_SUB - 1));
}

/* the largest value bucket @b holds */
static guint64
bucket_upper (guint b)
{
  guint k, s;

  if (b < RTP_BURST_METER_SUB)
    return b;
  if (b >= LAST_BUCKET)
    return G_MAXUINT64;
  k = b / RTP_BURST_METER_SUB + RTP_BURST_METER_SUB_BITS - 1;
  s = b % RTP_BURST_METER_SUB;
  return (((guint64) RTP_BURST_METER_SUB + s + 1) <<
      (k - RTP_BURST_METER_SUB_BITS)) - 1;
}

static inline void
histogram_add (RtpBurstMeterHistogram * h, guint64 v)
{
  h->count[bucket_of (v)]++;
  if (h->n == 0 || v < h->min)
    h->min = v;
  if (v > h->max)
    h->max = v;
  h->n++;
}

/* The @pct-th percentile (0 < @pct <= 100) as the upper bound of its
 * bucket, at most the maximum; 0 for an empty histogram. */
static guint64
histogram_percentile (const RtpBurstMeterHistogram * h, guint pct)
{
  guint64 rank, seen = 0;
  guint b;

  if (h->n == 0)
    return 0;
  /* ceil (n * pct / 100) without overflow */
  rank = h->n / 100 * pct + ((h->n % 100) * pct + 99) / 100;
  if (rank == 0)
    rank = 1;
  for (b = 0; b < RTP_BURST_METER_N_BUCKETS; b++) {
    seen += h->count[b];
    if (seen >= rank)
      return MIN (bucket_upper (b), h->max);
  }
  return h->max;
}

/* --- Frames ------------------------------------------------------------- */

/* @d / @period in 1/1000, rounded down, saturated at G_MAXUINT; @period > 0 */
static guint
ratio_permille (guint64 d, guint64 period)
{
  guint64 q, r;

  /* only periods over 213 days lose their low bits here */
  while (period > G_MAXUINT64 / 1000) {
    period >>= 1;
    d >>= 1;
  }
  q = d / period;
  r = d % period;
  if (q >= G_MAXUINT / 1000)
    return G_MAXUINT;
  return (guint) (q * 1000 + r * 1000 / period);
}

/* --- The meter ---------------------------------------------------------- */

/**
 * rtp_burst_meter_init:
 *
 * Initialises @meter, or resets it: everything measured so far is
 * forgotten.
 */
void
rtp_burst_meter_init (RtpBurstMeter * meter)
{
  memset (meter, 0, sizeof (*meter));
}

/* A release of @bytes (> 0) at @t, not before the last one. */
static inline void
window_add (RtpBurstMeter * m, guint64 t, guint64 bytes)
{
  guint newest, oldest;
  guint32 add;

  /* expire what left the windows: (t - W, t] */
  while (m->tail_short != m->head &&
      t - m->ring_time[m->tail_short & RING_MASK] >=
      RTP_BURST_METER_WINDOW_SHORT) {
    m->sum_short -= m->ring_bytes[m->tail_short & RING_MASK];
    m->tail_short++;
  }
  /* entries still in the short window are in the long one too */
  while (m->tail_long != m->tail_short &&
      t - m->ring_time[m->tail_long & RING_MASK] >=
      RTP_BURST_METER_WINDOW_LONG) {
    m->sum_long -= m->ring_bytes[m->tail_long & RING_MASK];
    m->tail_long++;
  }

  newest = (m->head - 1) & RING_MASK;
  if (m->head != m->tail_long && m->ring_time[newest] == t) {
    /* same release time: share the entry */
    add = (guint32) MIN (bytes, (guint64) G_MAXUINT32 - m->ring_bytes[newest]);
    m->ring_bytes[newest] += add;
  } else {
    if (m->head - m->tail_long == RTP_BURST_METER_RING) {
      /* full: drop the oldest before its time */
      oldest = m->tail_long & RING_MASK;
      if (m->tail_short == m->tail_long) {
        m->sum_short -= m->ring_bytes[oldest];
        m->tail_short++;
      }
      m->sum_long -= m->ring_bytes[oldest];
      m->tail_long++;
      m->window_drops++;
    }
    add = (guint32) MIN (bytes, (guint64) G_MAXUINT32);
    m->ring_time[m->head & RING_MASK] = t;
    m->ring_bytes[m->head & RING_MASK] = add;
    m->head++;
  }

  m->sum_short += add;
  m->sum_long += add;
  if (m->sum_short > m->peak_short)
    m->peak_short = m->sum_short;
  if (m->sum_long > m->peak_long)
    m->peak_long = m->sum_long;
}

/**
 * rtp_burst_meter_slot:
 * @slot_time: when the slot was scheduled
 * @release_time: when it was released
 * @n_packets: packets it released
 * @bytes: their bytes
 * @frame_first: it is the first slot of its frame
 * @frame_last: it is the last slot of its frame
 * @frame_start: the scheduled time of the frame's first slot (read only
 *   with @frame_last)
 * @period: the frame period (read only with @frame_last; 0 = unknown)
 *
 * Measures one released slot; see the header for what, and for absurd
 * input.  O(1) amortised, no allocation, no floating point.
 */
void
rtp_burst_meter_slot (RtpBurstMeter * meter, guint64 slot_time,
    guint64 release_time, guint n_packets, guint64 bytes,
    gboolean frame_first, gboolean frame_last, guint64 frame_start,
    guint64 period)
{
  gboolean gap;
  guint permille;

  meter->slots++;
  meter->packets += n_packets;

  histogram_add (&meter->error,
      release_time > slot_time ? release_time - slot_time : 0);

  gap = meter->have_release && !meter->prev_last && !frame_first;
  if (meter->have_release && release_time < meter->last_release) {
    /* a new time base: start the windows afresh */
    meter->backwards++;
    meter->tail_short = meter->tail_long = meter->head;
    meter->sum_short = meter->sum_long = 0;
    gap = FALSE;
  }
  if (gap)
    histogram_add (&meter->gap, release_time - meter->last_release);
  meter->have_release = TRUE;
  meter->prev_last = frame_last;
  meter->last_release = release_time;

  if (bytes > 0)
    window_add (meter, release_time, bytes);

  if (frame_last) {
    meter->frames++;
    if (period > 0) {
      guint64 d = release_time > frame_start ? release_time - frame_start : 0;

      if (d > period)
        meter->late_frames++;
      permille = ratio_permille (d, period);
      if (permille > meter->max_frame_permille)
        meter->max_frame_permille = permille;
    }
  }
}

/**
 * rtp_burst_meter_report:
 * @report: (out): filled with what @meter measured since its last reset
 */
void
rtp_burst_meter_report (const RtpBurstMeter * meter,
    RtpBurstMeterReport * report)
{
  memset (report, 0, sizeof (*report));

  report->slots = meter->slots;
  report->packets = meter->packets;
  /* peaks <= RTP_BURST_METER_RING * G_MAXUINT32 bytes: no overflow */
  report->peak_rate_1ms = meter->peak_short * 8 *
      (NS_PER_S / RTP_BURST_METER_WINDOW_SHORT);
  report->peak_rate_10ms = meter->peak_long * 8 *
      (NS_PER_S / RTP_BURST_METER_WINDOW_LONG);

  report->error_p50 = histogram_percentile (&meter->error, 50);
  report->error_p99 = histogram_percentile (&meter->error, 99);
  report->error_max = meter->error.max;

  report->gaps = meter->gap.n;
  if (meter->gap.n > 0)
    report->gap_min = meter->gap.min;
  report->gap_p1 = histogram_percentile (&meter->gap, 1);
  report->gap_p50 = histogram_percentile (&meter->gap, 50);
  report->gap_p99 = histogram_percentile (&meter->gap, 99);

  report->frames = meter->frames;
  report->late_frames = meter->late_frames;
  report->max_frame_end_permille = meter->max_frame_permille;
  report->window_drops = meter->window_drops;
  report->backwards = meter->backwards;
}
