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
 * The TCP-fair floor (rtpburstfloor.h).  Why it exists: beside a flow that
 * fills a drop-tail queue until it loses packets (CUBIC, NewReno), the
 * queueing delay GCC backs off from is the competitor's, and it keeps
 * backing off: measured beside one CUBIC flow, 1.5 Mbit/s of a 4 Mbit/s
 * source through 10 Mbit/s (docs/results.md).  A TCP flow in its place
 * would be held by the losses only; so the target does not go below what
 * such a flow gets at the loss event rate and round trip the feedback
 * shows.  It never makes the sender more aggressive than TCP; without
 * losses, or with more than the loss-based limit (where TCP is in
 * timeouts and the equations do not hold), GCC acts alone.  RFC 5348's
 * first loss interval is seeded from the receive rate, not measured: p
 * leaves it out, so the floor starts at the second loss event.  It lifts
 * the rate to no more than the path takes (R_hat and the fraction lost
 * beside it), not GCC's 1.5 R_hat: p moves over eight loss intervals, and
 * when the path's capacity halved beside CUBIC, a floor of 1.5 R_hat at
 * the old p held the rate at 4.2-4.6 Mbit/s through 5 Mbit/s and broke
 * frames (docs/results.md section 21).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rtpburstfloor.h"
#include "rtpbursttfrc.h"

/* in force until FLOOR_SPAN times the longest of the last FLOOR_GAPS
 * times between loss events, at least FLOOR_MEMORY_NS, has passed since
 * the last one; the segment size of its equations, bytes; the packets its
 * bound's lost fraction is averaged over */
#define FLOOR_SPAN 2
#define FLOOR_GAPS 8
#define FLOOR_MEMORY_NS (10 * G_GUINT64_CONSTANT (1000000000))
#define FLOOR_SEGMENT 1200
#define FLOOR_LOSS_PACKETS 200.0

struct _RtpBurstFloor
{
  RtpBurstTfrc *tfrc;
  gdouble rate;
  gdouble p;                    /* its loss event rate; 0: none */
  gdouble taken_loss;           /* lost fraction, moving average */
  guint64 loss_events;          /* seen in the TFRC's reports */
  gboolean have_event;
  guint64 last_event;           /* when the newest was reported */
  guint64 event_gaps[FLOOR_GAPS];
  guint event_gap_pos;
};

RtpBurstFloor *
rtp_burst_floor_new (guint64 start_rate)
{
  RtpBurstFloor *floor = g_new0 (RtpBurstFloor, 1);
  RtpBurstTfrcConfig tc;

  tc.segment_size = FLOOR_SEGMENT;
  tc.min_rate = 0;
  tc.max_rate = 0;
  tc.start_rate = start_rate;
  floor->tfrc = rtp_burst_tfrc_new (&tc);
  return floor;
}

void
rtp_burst_floor_free (RtpBurstFloor * floor)
{
  if (floor == NULL)
    return;
  rtp_burst_tfrc_free (floor->tfrc);
  g_free (floor);
}

void
rtp_burst_floor_count (RtpBurstFloor * floor, gboolean lost)
{
  g_return_if_fail (floor != NULL);

  floor->taken_loss += ((lost ? 1.0 : 0.0) - floor->taken_loss)
      / FLOOR_LOSS_PACKETS;
}

/* Loss events reported at @now: their times, for how long the floor
 * stays in force. */
static void
note_loss_events (RtpBurstFloor * floor, guint64 events, guint64 now)
{
  if (events <= floor->loss_events || now == RTP_BURST_TIME_NONE)
    return;
  floor->loss_events = events;
  if (floor->have_event && now > floor->last_event) {
    floor->event_gaps[floor->event_gap_pos] = now - floor->last_event;
    floor->event_gap_pos = (floor->event_gap_pos + 1) % FLOOR_GAPS;
  }
  floor->have_event = TRUE;
  floor->last_event = now;
}

/* Whether losses still come about as often as they did at @now. */
static gboolean
losses_recent (const RtpBurstFloor * floor, guint64 now)
{
  guint64 memory = FLOOR_MEMORY_NS;
  guint i;

  if (!floor->have_event)
    return FALSE;
  if (now == RTP_BURST_TIME_NONE || now <= floor->last_event)
    return TRUE;
  for (i = 0; i < FLOOR_GAPS; i++)
    if (floor->event_gaps[i] <= G_MAXUINT64 / FLOOR_SPAN)
      memory = MAX (memory, FLOOR_SPAN * floor->event_gaps[i]);
  return now - floor->last_event <= memory;
}

/* The rate a TCP flow (NewReno's equation or CUBIC's, the higher) would
 * have at the loss event rate and round trip seen, while losses still
 * come about as often as they did; 0 before the second loss event, once
 * they stop, and where @window_loss is over @loss_high. */
static gdouble
tcp_rate (RtpBurstFloor * floor, guint64 now, gdouble window_loss,
    gdouble loss_high)
{
  RtpBurstTfrcReport r;
  guint n;
  gdouble p;

  floor->p = 0;
  rtp_burst_tfrc_report (floor->tfrc, &r);
  note_loss_events (floor, r.loss_events, now);
  /* the first event's interval is seeded from the receive rate (RFC 5348
   * 6.3.1), not measured: left out while it is among the last */
  n = MIN (r.n_intervals, RTP_BURST_TFRC_N_INTERVALS);
  if (r.loss_events <= RTP_BURST_TFRC_N_INTERVALS && n > 0)
    n--;
  if (n == 0 || !losses_recent (floor, now) || r.rtt == RTP_BURST_TIME_NONE)
    return 0;
  /* a TCP losing more than that many packets is in timeouts, which the
   * equations do not cover: the loss-based controller decreases */
  if (window_loss > loss_high)
    return 0;
  p = rtp_burst_tfrc_loss_event_rate (r.intervals[0], &r.intervals[1], n);
  floor->p = p;
  if (!(p > 0))
    return 0;
  return MAX (rtp_burst_tfrc_equation (FLOOR_SEGMENT, r.rtt, p),
      rtp_burst_tfrc_cubic_equation (FLOOR_SEGMENT, r.rtt, p));
}

gdouble
rtp_burst_floor_on_feedback (RtpBurstFloor * floor,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now, guint64 rtt,
    gdouble r_hat, gdouble window_loss, gdouble loss_high)
{
  gdouble tcp;

  g_return_val_if_fail (floor != NULL, 0);

  rtp_burst_tfrc_on_feedback (floor->tfrc, pkts, n, now, rtt);
  /* (not before R_hat is known: nothing would bound it) */
  if (!(r_hat > 0)) {
    floor->rate = 0;
    return 0;
  }
  tcp = tcp_rate (floor, now, window_loss, loss_high);
  /* at most what the path takes: R_hat and what it lost beside it */
  floor->rate = MIN (tcp, r_hat / (1 - MIN (floor->taken_loss, loss_high)));
  return floor->rate;
}

void
rtp_burst_floor_report (const RtpBurstFloor * floor, RtpBurstFloorReport * out)
{
  g_return_if_fail (floor != NULL);
  g_return_if_fail (out != NULL);

  out->rate = floor->rate;
  out->loss_event_rate = floor->p;
  out->taken_loss = floor->taken_loss;
}
