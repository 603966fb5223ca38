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
 * A conformance meter: how well the released slots kept to the schedule,
 * since the last rtp_burst_meter_init ().  Fed once per released slot, read
 * with rtp_burst_meter_report ().  No pads, no locks, no clock: the caller
 * serialises the calls.  All times are ns in one time base (the element
 * uses running time).
 *
 * Cost: rtp_burst_meter_slot () does integer arithmetic only, allocates
 * nothing, and is O(1) amortised (each entry of the window ring is added
 * and expired once; one call expires at most RTP_BURST_METER_RING of
 * them).  rtp_burst_meter_report () walks the two histograms.
 *
 * What it measures:
 *
 * - Peak rates: the most bits released within any window of 1 ms and of
 *   10 ms that ends at a release, as bit/s (bits in the window / window
 *   length).  A window ending at release time t holds the slots released
 *   in (t - W, t]: a slot exactly W before t is out.  A slot's bytes all
 *   count at its release time.  The ring keeps one entry per distinct
 *   release time within the last 10 ms (slots released at the same time
 *   share one), at most RTP_BURST_METER_RING of them.  When a release
 *   needs an entry and all are within 10 ms, the oldest is dropped early
 *   and `window_drops` counts it: the peaks can then only be
 *   under-estimated (by the bytes dropped early), never over-estimated.
 *   An entry holds at most G_MAXUINT32 bytes (more at one release time are
 *   clamped), so the sums never overflow.
 *
 * - Release error: release time - slot time, 0 for an early release.
 *
 * - In-frame gaps: the time between two consecutive slots of one frame,
 *   i.e. between two consecutive calls unless the first had @frame_last or
 *   the second has @frame_first.
 *
 *   Both go into log-scale histograms: values 0 .. 7 ns have a bucket each;
 *   each power of two from 8 ns to 2^40 ns has RTP_BURST_METER_SUB
 *   buckets of equal width; values of 2^40 ns (18.3 min) and more share the
 *   last bucket.  A percentile is the smallest value that at least that
 *   share of the values is at or below (rank ceil (n * p / 100)), reported
 *   as the largest value of the bucket that holds it, but never more than
 *   the largest value seen (kept exact, as is the smallest).  So a reported
 *   percentile is never below the true one and less than 12.5 % above it
 *   (1 / RTP_BURST_METER_SUB); below 8 ns it is exact; in the last bucket
 *   it is the maximum.
 *
 * - Frames: counted at the slot with @frame_last.  A frame is late when that
 *   release time - @frame_start (the scheduled time of its first slot) >
 *   @period.  The largest (release - @frame_start) / @period over all
 *   frames is kept in 1/1000 (so 900 for a duty of 0.9 released on time),
 *   saturated at G_MAXUINT.  A frame with @period 0 is counted but neither
 *   judged nor in the maximum; a release before @frame_start counts as 0.
 *
 * Absurd inputs: no arithmetic overflows.  Times near 2^64 are ordinary
 * times.  A slot with 0 bytes takes no ring entry, but its release error
 * and gap count.  A release time earlier than the previous call's (the
 * caller's time base restarted, e.g. after a flush without a reset) counts
 * in `backwards`: the windows restart empty from it (the peaks so far are
 * kept) and no gap is measured into it; the release error and the frame
 * are measured as usual.
 */

#ifndef __RTP_BURST_METER_H__
#define __RTP_BURST_METER_H__

#include <glib.h>

G_BEGIN_DECLS

/* The two peak-rate windows. */
#define RTP_BURST_METER_WINDOW_SHORT (G_GUINT64_CONSTANT (1000000))  /* 1 ms */
#define RTP_BURST_METER_WINDOW_LONG  (G_GUINT64_CONSTANT (10000000)) /* 10 ms */

/* Release times the windows keep (a power of two): 10 ms of slots down to
 * 39 us apart on average. */
#define RTP_BURST_METER_RING 256

/* Histograms: RTP_BURST_METER_SUB buckets per power of two, up to
 * 2^RTP_BURST_METER_RANGE_BITS ns. */
#define RTP_BURST_METER_SUB_BITS 3
#define RTP_BURST_METER_SUB (1 << RTP_BURST_METER_SUB_BITS)
#define RTP_BURST_METER_RANGE_BITS 40
#define RTP_BURST_METER_N_BUCKETS \
  ((RTP_BURST_METER_RANGE_BITS - RTP_BURST_METER_SUB_BITS + 1) * \
      RTP_BURST_METER_SUB + 1)

typedef struct
{
  guint64 count[RTP_BURST_METER_N_BUCKETS];
  guint64 n;
  guint64 min, max;             /* exact, valid if n > 0 */
} RtpBurstMeterHistogram;

typedef struct
{
  /* the windows: release times and bytes, oldest at tail_long; the indices
   * run freely and wrap, the ring entry is index % RTP_BURST_METER_RING */
  guint64 ring_time[RTP_BURST_METER_RING];
  guint32 ring_bytes[RTP_BURST_METER_RING];
  guint head;                   /* next entry */
  guint tail_short, tail_long;  /* oldest entry in each window */
  guint64 sum_short, sum_long;  /* bytes in each window */
  guint64 peak_short, peak_long;        /* largest sums, bytes */

  gboolean have_release;
  gboolean prev_last;           /* the previous slot ended its frame */
  guint64 last_release;

  RtpBurstMeterHistogram error, gap;

  guint64 slots, packets, frames, late_frames;
  guint max_frame_permille;
  guint64 window_drops, backwards;
} RtpBurstMeter;

typedef struct
{
  guint64 slots, packets;
  guint64 peak_rate_1ms, peak_rate_10ms;        /* bit/s */
  guint64 error_p50, error_p99, error_max;      /* ns */
  guint64 gaps;                 /* in-frame gaps measured */
  guint64 gap_min, gap_p1, gap_p50, gap_p99;    /* ns, 0 without gaps */
  guint64 frames, late_frames;
  guint max_frame_end_permille; /* largest (end - start) / period, 1/1000 */
  guint64 window_drops;         /* > 0: the peaks may be under-estimated */
  guint64 backwards;            /* release times that went backwards */
} RtpBurstMeterReport;

void     rtp_burst_meter_init   (RtpBurstMeter * meter);

void     rtp_burst_meter_slot   (RtpBurstMeter * meter, guint64 slot_time,
                                 guint64 release_time, guint n_packets,
                                 guint64 bytes, gboolean frame_first,
                                 gboolean frame_last, guint64 frame_start,
                                 guint64 period);

void     rtp_burst_meter_report (const RtpBurstMeter * meter,
                                 RtpBurstMeterReport * report);

G_END_DECLS

#endif /* __RTP_BURST_METER_H__ */
