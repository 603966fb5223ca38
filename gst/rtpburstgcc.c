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
 * fills a gap it leaves:
 *
 * - The detector compares m(i) multiplied by the number of deltas seen,
 *   at most 60, not m(i) itself.  The threshold's range (6 to 600 ms, 12.5
 *   at first) is one of accumulated delay: m(i) alone is the growth per
 *   group, so a link over-used by 50 % with 5 ms groups (2.5 ms per group)
 *   would never reach it.  libwebrtc's and GStreamer's rtpgccbwe Kalman
 *   detectors scale it the same way.  The "not falling" test (m(i) >=
 *   m(i-1)) is on m(i) itself, as the draft says.
 * - var_v_hat(0) = 1 ms^2 (the draft's floor) and chi = 0.01; f_max is
 *   taken over the last 60 groups.  The outlier filter of 5.3 caps z(i)
 *   both ways.
 * - The threshold's time step t(i) - t(i-1) is taken within [0, 100] ms:
 *   K_u times it then stays below 1, so one step never takes the
 *   threshold past |m(i)|, and a group after a pause does not jump it.
 * - A group that the burst rule (5.2) merges spans at most 100 ms of
 *   arrivals; packets sent before the open group's first, or with a
 *   sequence number the model has already passed, are left out of it
 *   (5.1: packets out of order are ignored).  A delay variation above 3 s
 *   is a clock jump or an outage, not a queue: it is not filtered.
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
 * - The TCP-fair floor is an addition (rtpburstgcc.h).  Beside a flow
 *   that fills a drop-tail queue until it loses packets (CUBIC, NewReno),
 *   the queueing delay GCC backs off from is the competitor's, and it
 *   keeps backing off: measured beside one CUBIC flow, 1.5 Mbit/s of a 4
 *   Mbit/s source through 10 Mbit/s (docs/results.md).  A TCP flow in
 *   its place would be held by the losses only; so the target does not
 *   go below what such a flow gets at the loss event rate and round trip
 *   the feedback shows.  It never makes the sender more aggressive than
 *   TCP; without losses, or with more than 10 % (where TCP is in
 *   timeouts and the equations do not hold), GCC acts alone.  RFC 5348's
 *   first loss interval is seeded from the receive rate, not measured:
 *   the floor's p leaves it out, so the floor starts at the second loss
 *   event.  The floor lifts the rate to no more than the path takes
 *   (R_hat and the fraction lost beside it), not GCC's 1.5 R_hat: p
 *   moves over eight loss intervals, and when the path's capacity halved
 *   beside CUBIC, a floor of 1.5 R_hat at the old p held the rate at
 *   4.2-4.6 Mbit/s through 5 Mbit/s and broke frames (docs/results.md
 *   section 21).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "rtpburstgcc.h"
#include "rtpbursttfrc.h"

#define MS_NS (G_GUINT64_CONSTANT (1000000))

/* 5.2: the burst time, and the longest group the burst rule makes */
#define BURST_TIME_MS 5.0
#define BURST_TIME_NS (5 * MS_NS)
#define MAX_BURST_MS 100.0
/* |d(i)| beyond this is not a queue */
#define MAX_DELAY_VARIATION_MS 3000.0

/* 5.3: the Kalman filter */
#define KALMAN_Q 1e-3
#define KALMAN_E0 0.1
#define KALMAN_CHI 0.01
#define KALMAN_VAR0 1.0
#define KALMAN_VAR_MIN 1.0
#define DEPARTURE_HISTORY 60

/* 5.4: the over-use detector */
#define MAX_DELTAS 60
#define THRESHOLD0_MS 12.5
#define THRESHOLD_MIN_MS 6.0
#define THRESHOLD_MAX_MS 600.0
#define THRESHOLD_MAX_JUMP_MS 15.0
#define THRESHOLD_MAX_STEP_MS 100.0
#define K_U 0.01
#define K_D 0.00018
#define OVERUSE_TIME_NS (10 * MS_NS)

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

/* the TCP-fair floor: in force until FLOOR_SPAN times the longest of the
 * last FLOOR_GAPS times between loss events, at least FLOOR_MEMORY_NS,
 * has passed since the last one; the segment size of its equations,
 * bytes; the packets its bound's lost fraction is averaged over */
#define FLOOR_SPAN 2
#define FLOOR_GAPS 8
#define FLOOR_MEMORY_NS (10 * G_GUINT64_CONSTANT (1000000000))
#define FLOOR_SEGMENT 1200
#define FLOOR_LOSS_PACKETS 200.0

typedef struct
{
  gboolean valid;
  guint64 first_send, last_send;        /* T(i): last_send */
  guint64 first_arrival, last_arrival;  /* t(i): last_arrival */
} Group;

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

  /* the arrival-time model (5.1, 5.2) */
  gboolean have_model_seq;
  guint64 model_seq;
  Group cur, prev;
  gdouble departures[DEPARTURE_HISTORY];        /* T(i) - T(i-1), ms */
  guint n_departures, departure_pos;

  /* the arrival-time filter (5.3) */
  gdouble m, e, var_v;
  guint64 n_deltas;

  /* the over-use detector (5.4) */
  gdouble gradient, threshold;
  gboolean above;
  guint64 above_since;
  RtpBurstGccSignal signal;
  gboolean overuse_in_report;

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

  /* the TCP-fair floor: loss events, round trip and the throughput
   * equation */
  RtpBurstTfrc *tfrc;
  gdouble floor;
  gdouble floor_p;              /* its loss event rate; 0: none */
  gdouble taken_loss;           /* lost fraction, moving average */
  guint64 loss_events;          /* seen in the TFRC's reports */
  gboolean have_event;
  guint64 last_event;           /* when the newest was reported */
  guint64 event_gaps[FLOOR_GAPS];
  guint event_gap_pos;
};

/* a - b in ms, signed, without overflow */
static gdouble
diff_ms (guint64 a, guint64 b)
{
  if (a >= b)
    return (gdouble) (a - b) / MS_NS;
  return -((gdouble) (b - a) / MS_NS);
}

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
  RtpBurstTfrcConfig tc;
  guint64 lo, hi;

  lo = MIN (MAX (config->min_rate, 1), RTP_BURST_GCC_RATE_LIMIT);
  hi = config->max_rate == 0 ? RTP_BURST_GCC_RATE_LIMIT :
      MIN (config->max_rate, RTP_BURST_GCC_RATE_LIMIT);
  gcc->min_rate = lo;
  gcc->max_rate = MAX (hi, lo);

  gcc->e = KALMAN_E0;
  gcc->var_v = KALMAN_VAR0;
  gcc->threshold = THRESHOLD0_MS;
  gcc->signal = RTP_BURST_GCC_NORMAL;
  gcc->state = RTP_BURST_GCC_INCREASE;
  gcc->delay_rate = clamp_rate (gcc, (gdouble) config->start_rate);
  gcc->loss_rate = gcc->delay_rate;
  gcc->rtt_ms = DEFAULT_RTT_MS;

  tc.segment_size = FLOOR_SEGMENT;
  tc.min_rate = 0;
  tc.max_rate = 0;
  tc.start_rate = rate_to_uint (gcc->delay_rate);
  gcc->tfrc = rtp_burst_tfrc_new (&tc);
  return gcc;
}

void
rtp_burst_gcc_free (RtpBurstGcc * gcc)
{
  if (gcc == NULL)
    return;
  rtp_burst_tfrc_free (gcc->tfrc);
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

/* The arrival-time filter (5.3): the Kalman filter's m(i) from d(i), and
 * the smallest inter-departure time of the last groups for f_max. */
static void
kalman_update (RtpBurstGcc * gcc, gdouble d, gdouble min_departure)
{
  gdouble z, zc, limit, alpha, k;

  z = d - gcc->m;
  /* alpha = (1 - chi)^(30 / (1000 f_max)), f_max = 1 / min_departure
   * per ms */
  alpha = pow (1.0 - KALMAN_CHI, 30.0 * min_departure / 1000.0);
  limit = 3.0 * sqrt (gcc->var_v);
  zc = CLAMP (z, -limit, limit);
  gcc->var_v = MAX (alpha * gcc->var_v + (1.0 - alpha) * zc * zc,
      KALMAN_VAR_MIN);
  k = (gcc->e + KALMAN_Q) / (gcc->var_v + gcc->e + KALMAN_Q);
  gcc->m += z * k;
  gcc->e = (1.0 - k) * (gcc->e + KALMAN_Q);
}

/* The adaptive threshold (5.4), with the group's inter-arrival time. */
static void
threshold_update (RtpBurstGcc * gcc, gdouble gradient, gdouble arrival_ms)
{
  gdouble a = fabs (gradient), k, step;

  if (a - gcc->threshold > THRESHOLD_MAX_JUMP_MS)
    return;
  k = a < gcc->threshold ? K_D : K_U;
  step = CLAMP (arrival_ms, 0.0, THRESHOLD_MAX_STEP_MS);
  gcc->threshold += step * k * (a - gcc->threshold);
  gcc->threshold = CLAMP (gcc->threshold, THRESHOLD_MIN_MS, THRESHOLD_MAX_MS);
}

/* The over-use detector (5.4), for a group received at @t. */
static void
detect (RtpBurstGcc * gcc, gdouble prev_m, guint64 t)
{
  if (gcc->gradient > gcc->threshold) {
    if (!gcc->above) {
      gcc->above = TRUE;
      gcc->above_since = t;
    }
    if (t >= gcc->above_since && t - gcc->above_since >= OVERUSE_TIME_NS &&
        gcc->m >= prev_m) {
      gcc->signal = RTP_BURST_GCC_OVERUSE;
      gcc->overuse_in_report = TRUE;
    } else {
      gcc->signal = RTP_BURST_GCC_NORMAL;
    }
  } else {
    gcc->above = FALSE;
    gcc->signal = gcc->gradient < -gcc->threshold ?
        RTP_BURST_GCC_UNDERUSE : RTP_BURST_GCC_NORMAL;
  }
}

/* Group @cur follows group @prev: d(i) through the filter and the
 * detector. */
static void
group_delta (RtpBurstGcc * gcc, const Group * prev, const Group * cur)
{
  gdouble send_ms, arrival_ms, d, min_departure, prev_m;
  guint i;

  send_ms = diff_ms (cur->last_send, prev->last_send);
  arrival_ms = diff_ms (cur->last_arrival, prev->last_arrival);
  d = arrival_ms - send_ms;
  if (send_ms <= 0 || fabs (d) > MAX_DELAY_VARIATION_MS)
    return;

  gcc->departures[gcc->departure_pos] = send_ms;
  gcc->departure_pos = (gcc->departure_pos + 1) % DEPARTURE_HISTORY;
  if (gcc->n_departures < DEPARTURE_HISTORY)
    gcc->n_departures++;
  min_departure = gcc->departures[0];
  for (i = 1; i < gcc->n_departures; i++)
    min_departure = MIN (min_departure, gcc->departures[i]);

  prev_m = gcc->m;
  kalman_update (gcc, d, min_departure);
  gcc->n_deltas++;
  gcc->gradient = MIN (gcc->n_deltas, MAX_DELTAS) * gcc->m;
  threshold_update (gcc, gcc->gradient, arrival_ms);
  detect (gcc, prev_m, cur->last_arrival);
}

static void
group_start (Group * g, const RtpBurstFeedbackPacket * p)
{
  g->valid = TRUE;
  g->first_send = g->last_send = p->send_time;
  g->first_arrival = g->last_arrival = p->arrival;
}

/* Whether @p belongs to group @g (5.2). */
static gboolean
group_takes (const Group * g, const RtpBurstFeedbackPacket * p)
{
  gdouble arrival_ms, send_ms;

  if (p->send_time - g->first_send <= BURST_TIME_NS)
    return TRUE;
  /* a burst: it arrives within the burst time of the group's last
   * packet, and sooner than sent after it */
  arrival_ms = diff_ms (p->arrival, g->last_arrival);
  send_ms = diff_ms (p->send_time, g->last_send);
  return arrival_ms < BURST_TIME_MS && arrival_ms - send_ms < 0 &&
      diff_ms (p->arrival, g->first_arrival) < MAX_BURST_MS;
}

/* A received packet for the arrival-time model (5.1, 5.2). */
static void
model_add (RtpBurstGcc * gcc, const RtpBurstFeedbackPacket * p)
{
  Group *g = &gcc->cur;

  if (gcc->have_model_seq && p->seq <= gcc->model_seq)
    return;
  gcc->have_model_seq = TRUE;
  gcc->model_seq = p->seq;

  if (!g->valid) {
    group_start (g, p);
    return;
  }
  if (p->send_time < g->first_send)
    return;
  if (group_takes (g, p)) {
    g->last_send = MAX (g->last_send, p->send_time);
    g->last_arrival = MAX (g->last_arrival, p->arrival);
    g->first_arrival = MIN (g->first_arrival, p->arrival);
    return;
  }
  /* @p opens the next group: the current one is complete */
  if (gcc->prev.valid)
    group_delta (gcc, &gcc->prev, g);
  gcc->prev = *g;
  group_start (g, p);
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
  if (!gcc->have_change || now == RTP_BURST_TIME_NONE || now < gcc->last_change)
    return TRUE;
  return diff_ms (now, gcc->last_change) >= CLAMP (gcc->rtt_ms,
      REDUCE_INTERVAL_MIN_MS, REDUCE_INTERVAL_MAX_MS);
}

/* The delay-based rate controller (5.5), once per report, at @now. */
static void
rate_control (RtpBurstGcc * gcc, guint64 now)
{
  RtpBurstGccSignal signal;
  RtpBurstGccState prev = gcc->state;
  gdouble r = received_rate (gcc), since_ms = 0, before = gcc->delay_rate;

  signal = gcc->overuse_in_report ? RTP_BURST_GCC_OVERUSE : gcc->signal;
  /* not yet: nothing changes, the state neither */
  if (signal == RTP_BURST_GCC_OVERUSE && !reduce_due (gcc, now))
    return;
  gcc->state = next_state (prev, signal);
  if (gcc->have_update && now != RTP_BURST_TIME_NONE && now > gcc->last_update)
    since_ms = diff_ms (now, gcc->last_update);

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
  return diff_ms (now, gcc->last_decrease) >=
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
    if (!decrease_due (gcc, now))
      return;
    gcc->loss_rate *= 1.0 - 0.5 * p;
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

/* Loss events reported at @now: their times, for how long the floor
 * stays in force. */
static void
note_loss_events (RtpBurstGcc * gcc, guint64 events, guint64 now)
{
  if (events <= gcc->loss_events || now == RTP_BURST_TIME_NONE)
    return;
  gcc->loss_events = events;
  if (gcc->have_event && now > gcc->last_event) {
    gcc->event_gaps[gcc->event_gap_pos] = now - gcc->last_event;
    gcc->event_gap_pos = (gcc->event_gap_pos + 1) % FLOOR_GAPS;
  }
  gcc->have_event = TRUE;
  gcc->last_event = now;
}

/* Whether losses still come about as often as they did at @now. */
static gboolean
losses_recent (const RtpBurstGcc * gcc, guint64 now)
{
  guint64 memory = FLOOR_MEMORY_NS;
  guint i;

  if (!gcc->have_event)
    return FALSE;
  if (now == RTP_BURST_TIME_NONE || now <= gcc->last_event)
    return TRUE;
  for (i = 0; i < FLOOR_GAPS; i++)
    if (gcc->event_gaps[i] <= G_MAXUINT64 / FLOOR_SPAN)
      memory = MAX (memory, FLOOR_SPAN * gcc->event_gaps[i]);
  return now - gcc->last_event <= memory;
}

/* The TCP-fair floor at @now, bit/s: the rate a TCP flow (NewReno's
 * equation or CUBIC's, the higher) would have at the loss event rate and
 * round trip seen, while losses still come about as often as they did.
 * 0 before the second loss event, and once they stop. */
static gdouble
tcp_floor (RtpBurstGcc * gcc, guint64 now)
{
  RtpBurstTfrcReport r;
  guint n;
  gdouble p;

  gcc->floor_p = 0;
  rtp_burst_tfrc_report (gcc->tfrc, &r);
  note_loss_events (gcc, r.loss_events, now);
  /* the first event's interval is seeded from the receive rate (RFC 5348
   * 6.3.1), not measured: left out while it is among the last */
  n = MIN (r.n_intervals, RTP_BURST_TFRC_N_INTERVALS);
  if (r.loss_events <= RTP_BURST_TFRC_N_INTERVALS && n > 0)
    n--;
  if (n == 0 || !losses_recent (gcc, now) || r.rtt == RTP_BURST_TIME_NONE)
    return 0;
  /* a TCP losing more than that many packets is in timeouts, which the
   * equations do not cover: the loss-based controller decreases */
  if (gcc->loss > LOSS_HIGH)
    return 0;
  p = rtp_burst_tfrc_loss_event_rate (r.intervals[0], &r.intervals[1], n);
  gcc->floor_p = p;
  if (!(p > 0))
    return 0;
  return MAX (rtp_burst_tfrc_equation (FLOOR_SEGMENT, r.rtt, p),
      rtp_burst_tfrc_cubic_equation (FLOOR_SEGMENT, r.rtt, p));
}

void
rtp_burst_gcc_on_feedback (RtpBurstGcc * gcc,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now, guint64 rtt)
{
  guint i, n_new = 0, n_lost = 0, n_received = 0;
  gdouble r_hat;

  g_return_if_fail (gcc != NULL);
  g_return_if_fail (pkts != NULL || n == 0);

  if (rtt != RTP_BURST_TIME_NONE)
    gcc->rtt_ms = diff_ms (rtt, 0);
  if (n == 0)
    return;

  gcc->overuse_in_report = FALSE;
  for (i = 0; i < n; i++) {
    const RtpBurstFeedbackPacket *p = &pkts[i];

    switch (mark_seq (gcc, p)) {
      case PACKET_NEW_LOST:
        n_new++;
        n_lost++;
        gcc->lost++;
        gcc->taken_loss += (1 - gcc->taken_loss) / FLOOR_LOSS_PACKETS;
        continue;
      case PACKET_NEW_RECEIVED:
        n_new++;
        gcc->taken_loss -= gcc->taken_loss / FLOOR_LOSS_PACKETS;
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
    model_add (gcc, p);
  }

  if (n_received > 0)
    rate_control (gcc, now);
  if (now != RTP_BURST_TIME_NONE) {
    gcc->have_update = TRUE;
    gcc->last_update = now;
  }
  if (n_new > 0)
    loss_control (gcc, n_lost, n_new, now);
  gcc->loss_rate = clamp_rate (gcc, MIN (gcc->loss_rate, gcc->delay_rate));

  rtp_burst_tfrc_on_feedback (gcc->tfrc, pkts, n, now, rtt);
  /* (not before R_hat is known: nothing would bound it) */
  r_hat = received_rate (gcc);
  /* at most what the path takes: R_hat and what it lost beside it */
  gcc->floor = r_hat > 0 ? MIN (tcp_floor (gcc, now),
      r_hat / (1 - MIN (gcc->taken_loss, LOSS_HIGH))) : 0;
  if (gcc->floor > 0) {
    gcc->delay_rate = clamp_rate (gcc, MAX (gcc->delay_rate, gcc->floor));
    gcc->loss_rate = clamp_rate (gcc, MAX (gcc->loss_rate, gcc->floor));
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
  g_return_if_fail (gcc != NULL);
  g_return_if_fail (out != NULL);

  out->gradient = gcc->gradient;
  out->offset = gcc->m;
  out->threshold = gcc->threshold;
  out->signal = gcc->signal;
  out->state = gcc->state;
  out->near_max = gcc->near_max;
  out->received_rate = rate_to_uint (received_rate (gcc));
  out->loss = gcc->loss;
  out->loss_packets = gcc->loss_packets;
  out->loss_updates = gcc->loss_updates;
  out->delay_rate = rate_to_uint (gcc->delay_rate);
  out->loss_rate = rate_to_uint (gcc->loss_rate);
  out->loss_event_rate = gcc->floor_p;
  out->floor_rate = rate_to_uint (gcc->floor);
  out->floor_loss = gcc->taken_loss;
  out->target = rtp_burst_gcc_target (gcc);
  out->avg_max_rate = gcc->have_avg ? rate_to_uint (gcc->avg_max) : 0;
  out->groups = gcc->n_deltas;
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
