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
 * Google Congestion Control, after draft-ietf-rmcat-gcc-02 (section
 * numbers below are the draft's).  Where this departs from the draft or
 * fills a gap it leaves (the over-use detector's: rtpburstgccdetect.c):
 *
 * - The rate controller runs once per report that brings received
 *   packets, with the detector's latest signal, or over-use if any group
 *   of the report signalled it.  A report that brings none (all lost)
 *   holds the delay-based rate.  The state is entered before acting: a
 *   report that turns Hold into Increase already increases.
 * - An over-use decreases A_hat only once A_hat has been unchanged for
 *   the round trip (within 10 to 200 ms), as libwebrtc's
 *   TimeToReduceFurther; until then neither the rate nor the state
 *   changes, and a decrease goes on (while over-use does) once per round
 *   trip, not once per report.  A probe's result counts as a change.  The
 *   fast start's own cluster queues at the path's rate; its over-use
 *   would otherwise cut A_hat to beta x R_hat, far below the path's rate
 *   while the encoder has not yet followed the new A_hat: measured through
 *   fq_codel at a 100 ms round trip, the 4.4 Mbit/s found became 2.2
 *   Mbit/s 31 ms later (docs/results.md).  libwebrtc also decreases at
 *   once when less than half of A_hat arrives; not here: right after a
 *   probe that is the normal case (5.8 Mbit/s found, 2.7 arriving).
 * - R_hat is the bytes received over the 0.5 s of arrivals ending at the
 *   newest one, in 1 ms steps of the receiver's clock; unknown until the
 *   receiver's clock has covered 0.5 s.  Unknown, a decrease is to
 *   beta x A_hat, and neither the 1.5 x R_hat cap nor the convergence test
 *   applies.
 * - The 1.5 x R_hat cap limits an increase, it never lowers A_hat.  A
 *   decrease never raises A_hat (beta x R_hat above it: A_hat stays).
 * - Convergence: the mean and variance of R_hat at the decreases (an
 *   exponential average, 0.95, updated on entering Decrease); "near" is
 *   within 3 standard deviations of the mean, the deviation taken at
 *   least 2.5 % of the mean: a single decrease gives no spread, and the
 *   band (at least 7.5 %) is then half a decrease, so that the rate just
 *   after one climbs multiplicatively and slows down near the old
 *   maximum.  Above mean + 3 deviations the mean is forgotten.
 * - The response time of the additive increase is 100 ms plus the last
 *   RTT given, 100 ms while none is known.
 * - A_s is kept at most A_hat: growing 5 % per report without a loss, it
 *   would otherwise run far above A_hat and a loss would not lower the
 *   target.  The loss fraction is over the sequence numbers the reports
 *   tell of for the first time, counted over a window of at least 20 of
 *   them.
 * - The draft runs the loss-based controller once per RTCP receiver
 *   report (about one a second); TWCC reports come once a frame, and
 *   A_s (1 - p / 2) on each would compound 25 times a second (20 % loss
 *   took a 2.5 Mbit/s estimate to 100 kbit/s in 3 s).  Here, as in
 *   libwebrtc's loss-based estimate, a decrease comes at most once per
 *   300 ms plus the round trip, over the packets since the controller last
 *   acted; until then the window grows.  An increase or a hold acts on
 *   each window of 20 or more.
 * - Rates stay within [max (min_rate, 1), max_rate], at most 1 Tbit/s.
 * - The TCP-fair floor is an addition (rtpburstfloor.c says why).
 * - So is the loss model (rtpburstlossmodel.h): a decrease of A_s stops
 *   at the model's B, the rate the path takes by the reports' losses at
 *   the rates they were sent at.  Beside BBR, which fills a shallow queue
 *   whatever the stream sends, the windows lose 10-30 % at every rate the
 *   stream sends, and each decrease only handed BBR more of the link
 *   (docs/results.md).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "rtpburstgcc.h"
#include "rtpburstfloor.h"
#include "rtpburstlossmodel.h"

#define MS_NS (G_GUINT64_CONSTANT (1000000))

/* 5.5: the rate controller */
#define ETA 1.08
#define BETA 0.85
#define RECEIVED_CAP 1.5
/* an over-use decreases once the rate has been unchanged for the round
 * trip, taken within these bounds (libwebrtc's TimeToReduceFurther) */
#define REDUCE_INTERVAL_MIN_MS 10.0
#define REDUCE_INTERVAL_MAX_MS 200.0
#define AVG_SMOOTHING 0.95
#define AVG_MIN_DEVIATION 0.025
#define FRAME_RATE 30.0
#define PACKET_BITS (1200.0 * 8.0)
#define MIN_ADDITIVE_BITS 1000.0
#define REACTION_TIME_MS 100.0
#define DEFAULT_RTT_MS 100.0
/* R_hat: 500 steps of 1 ms */
#define RATE_WINDOW 500

/* 6: the loss-based controller */
#define LOSS_HIGH 0.10
#define LOSS_LOW 0.02
#define LOSS_INCREASE 1.05
/* the window the loss fraction is taken over, and the decreases' spacing
 * (+ the round trip) */
#define LOSS_MIN_PACKETS 20
#define LOSS_DECREASE_INTERVAL_MS 300.0
/* the loss model's observations: the packets sent over at least this */
#define MODEL_SPAN_NS (250 * MS_NS)



typedef enum
{
  SEQ_EMPTY = 0,
  SEQ_LOST,
  SEQ_RECEIVED,
} SeqState;

typedef enum
{
  PACKET_OLD,                   /* seen, or too old: not counted */
  PACKET_NEW_LOST,
  PACKET_NEW_RECEIVED,
  PACKET_RECOVERED,             /* reported lost, now received */
} PacketKind;

struct _RtpBurstGcc
{
  gdouble min_rate, max_rate;

  /* each sequence number counted once */
  guint64 seq[RTP_BURST_GCC_SEQ_WINDOW];
  guint8 seq_state[RTP_BURST_GCC_SEQ_WINDOW];
  gboolean have_seq;
  guint64 highest_seq;
  guint64 received, lost;

  /* the over-use detector (5.1-5.4, rtpburstgccdetect.h) */
  RtpBurstGccDetect *detect;

  /* R_hat: bytes received per 1 ms of arrivals */
  guint64 bucket[RATE_WINDOW];
  gboolean have_bucket;
  guint64 newest_bucket, first_bucket;
  guint64 window_bytes;

  /* the rate controller (5.5) */
  RtpBurstGccState state;
  gdouble delay_rate;
  gboolean have_update;
  guint64 last_update;
  gboolean have_change;
  guint64 last_change;          /* A_hat's last change, or a probe's */
  gboolean near_max;
  gboolean have_avg;
  gdouble avg_max, var_max;
  gdouble rtt_ms;

  /* the loss-based controller (6) */
  gdouble loss_rate;
  gdouble loss;
  guint win_packets, win_lost;  /* since the controller last acted */
  guint loss_packets;           /* the window it last acted on */
  guint64 loss_updates;
  gboolean have_decrease;
  guint64 last_decrease;

  /* the TCP-fair floor (rtpburstfloor.h) */
  RtpBurstFloor *floor;

  /* whether the loss answers the rate (rtpburstlossmodel.h) */
  RtpBurstLossModel *model;
  gdouble model_rate;           /* its B at the last decrease due; 0: none */
  gdouble model_inherent;
  /* the observation being gathered */
  guint obs_sent, obs_lost, obs_last_size;
  guint64 obs_bytes, obs_first, obs_last;
};

static gdouble
clamp_rate (const RtpBurstGcc * gcc, gdouble rate)
{
  /* also NaN, which no input should give, to the minimum */
  if (!(rate >= gcc->min_rate))
    return gcc->min_rate;
  return MIN (rate, gcc->max_rate);
}

static guint64
rate_to_uint (gdouble rate)
{
  return (guint64) (rate + 0.5);
}

RtpBurstGcc *
rtp_burst_gcc_new (const RtpBurstGccConfig * config)
{
  RtpBurstGcc *gcc = g_new0 (RtpBurstGcc, 1);
  guint64 lo, hi;

  lo = MIN (MAX (config->min_rate, 1), RTP_BURST_GCC_RATE_LIMIT);
  hi = config->max_rate == 0 ? RTP_BURST_GCC_RATE_LIMIT :
      MIN (config->max_rate, RTP_BURST_GCC_RATE_LIMIT);
  gcc->min_rate = lo;
  gcc->max_rate = MAX (hi, lo);

  gcc->detect = rtp_burst_gcc_detect_new ();
  gcc->state = RTP_BURST_GCC_INCREASE;
  gcc->delay_rate = clamp_rate (gcc, (gdouble) config->start_rate);
  gcc->loss_rate = gcc->delay_rate;
  gcc->rtt_ms = DEFAULT_RTT_MS;

  gcc->floor = rtp_burst_floor_new (rate_to_uint (gcc->delay_rate));
  gcc->model = rtp_burst_loss_model_new ();
  return gcc;
}

void
rtp_burst_gcc_free (RtpBurstGcc * gcc)
{
  if (gcc == NULL)
    return;
  rtp_burst_floor_free (gcc->floor);
  rtp_burst_loss_model_free (gcc->model);
  rtp_burst_gcc_detect_free (gcc->detect);
  g_free (gcc);
}

/* Counting each sequence number once, within the last
 * RTP_BURST_GCC_SEQ_WINDOW. */
static PacketKind
mark_seq (RtpBurstGcc * gcc, const RtpBurstFeedbackPacket * p)
{
  guint i = p->seq % RTP_BURST_GCC_SEQ_WINDOW;
  gboolean lost = p->arrival == RTP_BURST_TIME_NONE;

  if (gcc->have_seq && gcc->highest_seq >= RTP_BURST_GCC_SEQ_WINDOW &&
      p->seq <= gcc->highest_seq - RTP_BURST_GCC_SEQ_WINDOW)
    return PACKET_OLD;
  if (gcc->seq_state[i] != SEQ_EMPTY && gcc->seq[i] == p->seq) {
    if (gcc->seq_state[i] == SEQ_LOST && !lost) {
      gcc->seq_state[i] = SEQ_RECEIVED;
      return PACKET_RECOVERED;
    }
    return PACKET_OLD;
  }
  gcc->seq[i] = p->seq;
  gcc->seq_state[i] = lost ? SEQ_LOST : SEQ_RECEIVED;
  if (!gcc->have_seq || p->seq > gcc->highest_seq)
    gcc->highest_seq = p->seq;
  gcc->have_seq = TRUE;
  return lost ? PACKET_NEW_LOST : PACKET_NEW_RECEIVED;
}

/* R_hat (5.5) */

static void
rate_add (RtpBurstGcc * gcc, guint64 arrival, guint size)
{
  guint64 b = arrival / MS_NS;

  if (!gcc->have_bucket) {
    gcc->have_bucket = TRUE;
    gcc->newest_bucket = gcc->first_bucket = b;
  }
  if (b > gcc->newest_bucket) {
    if (b - gcc->newest_bucket >= RATE_WINDOW) {
      memset (gcc->bucket, 0, sizeof (gcc->bucket));
      gcc->window_bytes = 0;
    } else {
      guint64 k;

      for (k = gcc->newest_bucket + 1; k <= b; k++) {
        gcc->window_bytes -= gcc->bucket[k % RATE_WINDOW];
        gcc->bucket[k % RATE_WINDOW] = 0;
      }
    }
    gcc->newest_bucket = b;
  } else if (gcc->newest_bucket - b >= RATE_WINDOW) {
    return;                     /* older than the window */
  }
  if (b < gcc->first_bucket)
    gcc->first_bucket = b;
  /* saturating: only absurd sizes get there */
  if (gcc->window_bytes > G_MAXUINT64 - size)
    return;
  gcc->bucket[b % RATE_WINDOW] += size;
  gcc->window_bytes += size;
}

/* bit/s; 0 until the arrivals have covered the window */
static gdouble
received_rate (const RtpBurstGcc * gcc)
{
  if (!gcc->have_bucket ||
      gcc->newest_bucket - gcc->first_bucket < RATE_WINDOW - 1)
    return 0;
  return MIN ((gdouble) gcc->window_bytes * 8.0 * 1000.0 / RATE_WINDOW,
      (gdouble) RTP_BURST_GCC_RATE_LIMIT);
}

/* The exponential average and variance of R_hat at decreases (5.5). */
static void
avg_max_update (RtpBurstGcc * gcc, gdouble r)
{
  if (!gcc->have_avg) {
    gcc->have_avg = TRUE;
    gcc->avg_max = r;
    gcc->var_max = 0;
    return;
  }
  gcc->avg_max = AVG_SMOOTHING * gcc->avg_max + (1.0 - AVG_SMOOTHING) * r;
  gcc->var_max = AVG_SMOOTHING * gcc->var_max +
      (1.0 - AVG_SMOOTHING) * (r - gcc->avg_max) * (r - gcc->avg_max);
}

static gdouble
avg_max_deviation (const RtpBurstGcc * gcc)
{
  return MAX (sqrt (gcc->var_max), AVG_MIN_DEVIATION * gcc->avg_max);
}

static RtpBurstGccState
next_state (RtpBurstGccState state, RtpBurstGccSignal signal)
{
  switch (signal) {
    case RTP_BURST_GCC_OVERUSE:
      return RTP_BURST_GCC_DECREASE;
    case RTP_BURST_GCC_UNDERUSE:
      return RTP_BURST_GCC_HOLD;
    case RTP_BURST_GCC_NORMAL:
    default:
      if (state == RTP_BURST_GCC_HOLD)
        return RTP_BURST_GCC_INCREASE;
      if (state == RTP_BURST_GCC_DECREASE)
        return RTP_BURST_GCC_HOLD;
      return state;
  }
}

static gdouble
increase (RtpBurstGcc * gcc, gdouble r, gdouble since_ms)
{
  gdouble a = gcc->delay_rate, next;

  if (gcc->have_avg && r > 0 &&
      r > gcc->avg_max + 3.0 * avg_max_deviation (gcc))
    gcc->have_avg = FALSE;
  gcc->near_max = gcc->have_avg && r > 0 &&
      fabs (r - gcc->avg_max) <= 3.0 * avg_max_deviation (gcc);

  if (gcc->near_max) {
    gdouble response_ms = REACTION_TIME_MS + gcc->rtt_ms;
    gdouble alpha = 0.5 * MIN (since_ms / response_ms, 1.0);
    gdouble bits_per_frame = a / FRAME_RATE;
    gdouble packets_per_frame = MAX (ceil (bits_per_frame / PACKET_BITS), 1);

    next = a + MAX (MIN_ADDITIVE_BITS,
        alpha * bits_per_frame / packets_per_frame);
  } else {
    next = a * pow (ETA, MIN (since_ms / 1000.0, 1.0));
  }
  if (r > 0)
    next = MIN (next, MAX (a, RECEIVED_CAP * r));
  return next;
}

/* Whether an over-use may decrease A_hat at @now: once A_hat has been
 * unchanged for the round trip (within 10 to 200 ms); a queue that drains
 * within the round trip (a probe cluster's) does not decrease it. */
static gboolean
reduce_due (const RtpBurstGcc * gcc, guint64 now)
{
  gdouble interval_ms;

  if (!gcc->have_change || now == RTP_BURST_TIME_NONE || now < gcc->last_change)
    return TRUE;
  interval_ms = CLAMP (gcc->rtt_ms, REDUCE_INTERVAL_MIN_MS,
      REDUCE_INTERVAL_MAX_MS);
  return rtp_burst_feedback_diff_ms (now, gcc->last_change) >= interval_ms;
}

/* The delay-based rate controller (5.5), once per report, at @now. */
static void
rate_control (RtpBurstGcc * gcc, guint64 now)
{
  RtpBurstGccSignal signal;
  RtpBurstGccState prev = gcc->state;
  gdouble r = received_rate (gcc), since_ms = 0, before = gcc->delay_rate;

  signal = rtp_burst_gcc_detect_signal (gcc->detect);
  /* not yet: nothing changes, the state neither */
  if (signal == RTP_BURST_GCC_OVERUSE && !reduce_due (gcc, now))
    return;
  gcc->state = next_state (prev, signal);
  if (gcc->have_update && now != RTP_BURST_TIME_NONE && now > gcc->last_update)
    since_ms = rtp_burst_feedback_diff_ms (now, gcc->last_update);

  switch (gcc->state) {
    case RTP_BURST_GCC_INCREASE:
      gcc->delay_rate = increase (gcc, r, since_ms);
      break;
    case RTP_BURST_GCC_DECREASE:
      if (prev != RTP_BURST_GCC_DECREASE && r > 0)
        avg_max_update (gcc, r);
      gcc->delay_rate = MIN (gcc->delay_rate,
          BETA * (r > 0 ? r : gcc->delay_rate));
      gcc->near_max = FALSE;
      break;
    case RTP_BURST_GCC_HOLD:
    default:
      break;
  }
  gcc->delay_rate = clamp_rate (gcc, gcc->delay_rate);
  if (gcc->delay_rate != before && now != RTP_BURST_TIME_NONE) {
    gcc->have_change = TRUE;
    gcc->last_change = now;
  }
}

/* Whether a decrease may come at @now: the first, one 300 ms + RTT after
 * the last, or any when the time is unknown or went back. */
static gboolean
decrease_due (const RtpBurstGcc * gcc, guint64 now)
{
  if (!gcc->have_decrease || now == RTP_BURST_TIME_NONE ||
      now < gcc->last_decrease)
    return TRUE;
  return rtp_burst_feedback_diff_ms (now, gcc->last_decrease) >=
      LOSS_DECREASE_INTERVAL_MS + gcc->rtt_ms;
}

/* The loss-based controller (6), with @lost of @n new packets added to
 * its window. */
static void
loss_control (RtpBurstGcc * gcc, guint lost, guint n, guint64 now)
{
  gdouble p;

  gcc->win_packets += n;
  gcc->win_lost += lost;
  if (gcc->win_packets < LOSS_MIN_PACKETS)
    return;
  p = (gdouble) gcc->win_lost / gcc->win_packets;
  if (p > LOSS_HIGH) {
    gdouble cut;

    if (!decrease_due (gcc, now))
      return;
    /* no lower than where the loss model puts the path's rate: a loss
     * the stream meets at every rate it sent is not its own */
    cut = gcc->loss_rate * (1.0 - 0.5 * p);
    gcc->model_rate = rtp_burst_loss_model_bandwidth (gcc->model,
        &gcc->model_inherent);
    gcc->loss_rate = MAX (cut, MIN (gcc->model_rate, gcc->loss_rate));
    gcc->have_decrease = now != RTP_BURST_TIME_NONE;
    gcc->last_decrease = now;
  } else if (p < LOSS_LOW) {
    gcc->loss_rate *= LOSS_INCREASE;
  }
  gcc->loss = p;
  gcc->loss_packets = gcc->win_packets;
  gcc->loss_updates++;
  gcc->win_packets = gcc->win_lost = 0;
}

/* The new packets of a report into the loss model's observation, which
 * it takes once they span MODEL_SPAN_NS of sending: the rate they were
 * sent at is the bytes before the last over the time to it. */
static void
observe (RtpBurstGcc * gcc, guint n, guint lost, guint64 bytes,
    guint64 first_send, guint64 last_send, guint last_size)
{
  if (n == 0 || first_send > last_send)
    return;
  if (gcc->obs_sent == 0 || first_send < gcc->obs_first)
    gcc->obs_first = first_send;
  if (gcc->obs_sent == 0 || last_send >= gcc->obs_last) {
    gcc->obs_last = last_send;
    gcc->obs_last_size = last_size;
  }
  gcc->obs_sent += n;
  gcc->obs_lost += lost;
  gcc->obs_bytes += bytes;
  if (gcc->obs_last - gcc->obs_first < MODEL_SPAN_NS)
    return;
  rtp_burst_loss_model_add (gcc->model, gcc->obs_sent, gcc->obs_lost,
      8e9 * (gcc->obs_bytes - gcc->obs_last_size) /
      (gcc->obs_last - gcc->obs_first));
  gcc->obs_sent = gcc->obs_lost = 0;
  gcc->obs_bytes = 0;
}

void
rtp_burst_gcc_on_feedback (RtpBurstGcc * gcc,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now, guint64 rtt)
{
  guint i, n_new = 0, n_lost = 0, n_received = 0;
  guint64 first_send = G_MAXUINT64, last_send = 0, bytes = 0;
  guint last_size = 0;
  gdouble floor;

  g_return_if_fail (gcc != NULL);
  g_return_if_fail (pkts != NULL || n == 0);

  if (rtt != RTP_BURST_TIME_NONE)
    gcc->rtt_ms = rtp_burst_feedback_diff_ms (rtt, 0);
  if (n == 0)
    return;

  rtp_burst_gcc_detect_begin (gcc->detect);
  for (i = 0; i < n; i++) {
    const RtpBurstFeedbackPacket *p = &pkts[i];
    PacketKind kind = mark_seq (gcc, p);

    if ((kind == PACKET_NEW_LOST || kind == PACKET_NEW_RECEIVED) &&
        p->send_time != RTP_BURST_TIME_NONE) {
      bytes += p->size;
      first_send = MIN (first_send, p->send_time);
      if (p->send_time >= last_send) {
        last_send = p->send_time;
        last_size = p->size;
      }
    }
    switch (kind) {
      case PACKET_NEW_LOST:
        n_new++;
        n_lost++;
        gcc->lost++;
        rtp_burst_floor_count (gcc->floor, TRUE);
        continue;
      case PACKET_NEW_RECEIVED:
        n_new++;
        rtp_burst_floor_count (gcc->floor, FALSE);
        break;
      case PACKET_RECOVERED:
        gcc->lost--;
        break;
      case PACKET_OLD:
      default:
        continue;
    }
    gcc->received++;
    n_received++;
    rate_add (gcc, p->arrival, p->size);
    rtp_burst_gcc_detect_add (gcc->detect, p);
  }

  if (n_received > 0)
    rate_control (gcc, now);
  if (now != RTP_BURST_TIME_NONE) {
    gcc->have_update = TRUE;
    gcc->last_update = now;
  }
  observe (gcc, n_new, n_lost, bytes, first_send, last_send, last_size);
  if (n_new > 0)
    loss_control (gcc, n_lost, n_new, now);
  gcc->loss_rate = clamp_rate (gcc, MIN (gcc->loss_rate, gcc->delay_rate));

  floor = rtp_burst_floor_on_feedback (gcc->floor, pkts, n, now, rtt,
      received_rate (gcc), gcc->loss, LOSS_HIGH);
  if (floor > 0) {
    gcc->delay_rate = clamp_rate (gcc, MAX (gcc->delay_rate, floor));
    gcc->loss_rate = clamp_rate (gcc, MAX (gcc->loss_rate, floor));
  }
}

guint64
rtp_burst_gcc_target (const RtpBurstGcc * gcc)
{
  g_return_val_if_fail (gcc != NULL, 0);

  return rate_to_uint (clamp_rate (gcc, MIN (gcc->delay_rate, gcc->loss_rate)));
}

gboolean
rtp_burst_gcc_probe_result (RtpBurstGcc * gcc, guint64 rate)
{
  gdouble r;

  g_return_val_if_fail (gcc != NULL, FALSE);
  r = clamp_rate (gcc, (gdouble) rate);
  if (r <= MIN (gcc->delay_rate, gcc->loss_rate))
    return FALSE;
  gcc->delay_rate = gcc->loss_rate = r;
  /* the cluster's own queue may still show as over-use: a change, as of
   * the last report */
  gcc->have_change = gcc->have_update;
  gcc->last_change = gcc->last_update;
  return TRUE;
}

void
rtp_burst_gcc_report (const RtpBurstGcc * gcc, RtpBurstGccReport * out)
{
  RtpBurstFloorReport floor;
  RtpBurstGccDetectReport detect;

  g_return_if_fail (gcc != NULL);
  g_return_if_fail (out != NULL);

  rtp_burst_gcc_detect_report (gcc->detect, &detect);
  out->gradient = detect.gradient;
  out->offset = detect.offset;
  out->threshold = detect.threshold;
  out->signal = detect.signal;
  out->state = gcc->state;
  out->near_max = gcc->near_max;
  out->received_rate = rate_to_uint (received_rate (gcc));
  out->loss = gcc->loss;
  out->loss_packets = gcc->loss_packets;
  out->loss_updates = gcc->loss_updates;
  out->delay_rate = rate_to_uint (gcc->delay_rate);
  out->loss_rate = rate_to_uint (gcc->loss_rate);
  rtp_burst_floor_report (gcc->floor, &floor);
  out->loss_event_rate = floor.loss_event_rate;
  out->floor_rate = rate_to_uint (floor.rate);
  out->floor_loss = floor.taken_loss;
  out->model_rate = rate_to_uint (MIN (gcc->model_rate,
          (gdouble) RTP_BURST_GCC_RATE_LIMIT));
  out->model_inherent = gcc->model_inherent;
  out->target = rtp_burst_gcc_target (gcc);
  out->avg_max_rate = gcc->have_avg ? rate_to_uint (gcc->avg_max) : 0;
  out->groups = detect.groups;
  out->received = gcc->received;
  out->lost = gcc->lost;
}

const gchar *
rtp_burst_gcc_signal_name (RtpBurstGccSignal signal)
{
  switch (signal) {
    case RTP_BURST_GCC_NORMAL:
      return "normal";
    case RTP_BURST_GCC_OVERUSE:
      return "overuse";
    case RTP_BURST_GCC_UNDERUSE:
      return "underuse";
    default:
      return "unknown";
  }
}

const gchar *
rtp_burst_gcc_state_name (RtpBurstGccState state)
{
  switch (state) {
    case RTP_BURST_GCC_INCREASE:
      return "increase";
    case RTP_BURST_GCC_DECREASE:
      return "decrease";
    case RTP_BURST_GCC_HOLD:
      return "hold";
    default:
      return "unknown";
  }
}
