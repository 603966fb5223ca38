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

#include <math.h>
#include <string.h>

#include "rtpbursttfrc.h"

#define NS_PER_S 1e9
#define NONE RTP_BURST_TIME_NONE

#define DEFAULT_SEGMENT_SIZE 1200
/* The nofeedback timer before the first feedback (4.2). */
#define FIRST_NOFEEDBACK (2 * G_GUINT64_CONSTANT (1000000000))
/* Round-trip samples above this are taken as this. */
#define MAX_RTT (60 * G_GUINT64_CONSTANT (1000000000))
/* The highest X without a max-rate, bytes/s: far above any link, far
 * below where bit/s would overflow a guint64. */
#define X_CEILING 1e14
/* X_recv_set: at most this many receive rates are kept. */
#define RECV_SET_MAX 32
/* Intervals between feedback kept: the shortest go first. */
#define GAPS_MAX 32
/* Feedback this soon after the last counts as the same (the reports of
 * one RTCP packet come microseconds apart; frames, 8 ms at 120 fps). */
#define MIN_GAP (5 * G_GUINT64_CONSTANT (1000000))

typedef struct
{
  gdouble rate;                 /* bytes/s; INFINITY: the initial value */
  guint64 time;                 /* sender time it was added */
} RecvEntry;

typedef struct
{
  guint64 end;                  /* the feedback that ended it */
  guint64 len;
} Gap;

struct _RtpBurstTfrc
{
  guint s;
  gdouble min_x, max_x;         /* bytes/s */

  /* bytes/s */
  gdouble x;
  gdouble x_recv;               /* 0: none yet */
  gdouble x_calc;               /* 0 while p = 0 */
  gdouble recv_limit;           /* INFINITY: none */
  gdouble p;

  guint64 rtt;                  /* R, ns; NONE: no sample */
  guint64 tld;                  /* time last doubled; NONE: never */
  guint64 start;                /* first time known; NONE: none yet */
  gboolean have_feedback;

  RecvEntry recv_set[RECV_SET_MAX];
  guint n_recv_set;

  /* X_recv's measurement, on the receiver's clock */
  guint64 recv_mark;            /* NONE: no packet received yet */
  guint64 recv_last;
  guint64 recv_bytes;

  /* the loss history */
  gboolean have_seq;
  guint64 first_seq, max_seq;
  gboolean have_loss;
  guint64 event_seq, event_send;        /* the current loss event's first
                                         * lost packet */
  gdouble closed[RTP_BURST_TFRC_N_INTERVALS];   /* newest first */
  guint n_closed;
  guint64 loss_events, lost;

  /* data-limited intervals */
  guint64 interval_start;       /* the last feedback, or the first send */
  guint64 sent_since_feedback;
  gboolean data_limited;

  /* the nofeedback timer */
  guint64 deadline;
  guint64 sent_since_timer;
  guint64 expiries;
  guint64 last_feedback;        /* the last feedback that started an
                                 * interval; NONE: none yet */
  Gap gaps[GAPS_MAX];           /* the recent intervals between feedback */
  guint n_gaps;
};

static const gdouble loss_weights[RTP_BURST_TFRC_N_INTERVALS] = {
  1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2
};

static guint64
sat_add (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/* R for the formulas, seconds: never 0. */
static gdouble
rtt_s (guint64 rtt)
{
  if (rtt == NONE || rtt < RTP_BURST_TFRC_MIN_RTT)
    rtt = RTP_BURST_TFRC_MIN_RTT;
  return rtt / NS_PER_S;
}

static guint64
to_bits (gdouble bytes_per_s)
{
  gdouble bits = bytes_per_s * 8.0;

  if (!(bits > 0.0))
    return 0;
  if (bits >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) (bits + 0.5);
}

gdouble
rtp_burst_tfrc_equation (guint s, guint64 rtt, gdouble p)
{
  gdouble r, d;

  if (!(p > 0.0))
    return INFINITY;
  /* X_Bps = s / (R sqrt (2bp/3) + t_RTO (3 sqrt (3bp/8)) p (1 + 32 p^2)),
   * b = 1, t_RTO = 4R */
  r = rtt_s (rtt);
  d = r * sqrt (2.0 * p / 3.0) +
      4.0 * r * (3.0 * sqrt (3.0 * p / 8.0)) * p * (1.0 + 32.0 * p * p);
  return 8.0 * s / d;
}

gdouble
rtp_burst_tfrc_cubic_equation (guint s, guint64 rtt, gdouble p)
{
  gdouble r;

  if (!(p > 0.0))
    return INFINITY;
  /* RFC 9438 5.2: AVG_W_cubic = (C (3 + beta) / (4 (1 - beta)))^(1/4)
   * R^(3/4) / p^(3/4) segments, C = 0.4, beta = 0.7; over R */
  r = rtt_s (rtt);
  return 8.0 * s * pow (0.4 * 3.7 / (4.0 * 0.3), 0.25) * pow (r, -0.75) *
      pow (p, -0.75);
}

gdouble
rtp_burst_tfrc_loss_event_rate (gdouble open, const gdouble * closed, guint n)
{
  gdouble i_tot0, i_tot1 = 0.0, w_tot = 0.0, mean;
  guint i, k = MIN (n, RTP_BURST_TFRC_N_INTERVALS);

  if (k == 0)
    return 0.0;
  /* I_tot0: the open interval and the k - 1 newest closed ones; I_tot1:
   * the k newest closed ones; both with the weights w_0 .. w_k-1 */
  i_tot0 = open * loss_weights[0];
  for (i = 0; i < k; i++) {
    w_tot += loss_weights[i];
    i_tot1 += closed[i] * loss_weights[i];
    if (i + 1 < k)
      i_tot0 += closed[i] * loss_weights[i + 1];
  }
  mean = MAX (i_tot0, i_tot1) / w_tot;
  return mean > 1.0 ? 1.0 / mean : 1.0;
}

/* W_init / R (4.2): the initial rate, and recover_rate (4.4). */
static gdouble
initial_rate (const RtpBurstTfrc * t)
{
  guint64 w_init = MIN (4 * (guint64) t->s, MAX (2 * (guint64) t->s, 4380));

  return w_init / rtt_s (t->rtt);
}

static gdouble
clamp_x (const RtpBurstTfrc * t, gdouble x)
{
  return CLAMP (x, t->min_x, t->max_x);
}

RtpBurstTfrc *
rtp_burst_tfrc_new (const RtpBurstTfrcConfig * c)
{
  RtpBurstTfrc *t = g_new0 (RtpBurstTfrc, 1);

  t->s = c->segment_size ? c->segment_size : DEFAULT_SEGMENT_SIZE;
  t->max_x = c->max_rate ? c->max_rate / 8.0 : X_CEILING;
  t->min_x = MIN (c->min_rate / 8.0, t->max_x);
  /* one segment a second before an RTT is known (4.2) */
  t->x = clamp_x (t, c->start_rate ? c->start_rate / 8.0 : (gdouble) t->s);
  t->recv_limit = INFINITY;
  t->rtt = t->tld = t->start = NONE;
  t->recv_mark = NONE;
  t->interval_start = NONE;
  t->deadline = NONE;
  t->last_feedback = NONE;
  return t;
}

void
rtp_burst_tfrc_free (RtpBurstTfrc * t)
{
  g_free (t);
}

static void
note_start (RtpBurstTfrc * t, guint64 now)
{
  if (t->start != NONE)
    return;
  t->start = now;
  /* X_recv_set starts as { Infinity } (4.2) */
  t->recv_set[0].rate = INFINITY;
  t->recv_set[0].time = now;
  t->n_recv_set = 1;
}

/* --- X_recv_set (4.3) --------------------------------------------------- */

static gdouble
recv_set_max (const RtpBurstTfrc * t, gboolean finite)
{
  gdouble m = 0.0;
  guint i;

  for (i = 0; i < t->n_recv_set; i++)
    if (!finite || isfinite (t->recv_set[i].rate))
      m = MAX (m, t->recv_set[i].rate);
  return m;
}

static void
recv_set_add (RtpBurstTfrc * t, gdouble rate, guint64 now)
{
  if (t->n_recv_set == RECV_SET_MAX) {
    memmove (&t->recv_set[0], &t->recv_set[1],
        (RECV_SET_MAX - 1) * sizeof (RecvEntry));
    t->n_recv_set--;
  }
  t->recv_set[t->n_recv_set].rate = rate;
  t->recv_set[t->n_recv_set].time = now;
  t->n_recv_set++;
}

/* Update X_recv_set: add X_recv, drop the values older than 2R (the
 * newest always stays). */
static void
recv_set_update (RtpBurstTfrc * t, gdouble x_recv, guint64 now)
{
  guint64 two_r = t->rtt == NONE ? 0 : 2 * t->rtt;
  guint i, j = 0;

  if (x_recv > 0.0)
    recv_set_add (t, x_recv, now);
  for (i = 0; i < t->n_recv_set; i++) {
    gboolean old = now > two_r && t->recv_set[i].time < now - two_r;

    if (!old || i + 1 == t->n_recv_set)
      t->recv_set[j++] = t->recv_set[i];
  }
  t->n_recv_set = j;
}

/* Maximize X_recv_set: add X_recv, keep only the largest finite value. */
static void
recv_set_maximize (RtpBurstTfrc * t, gdouble x_recv, guint64 now)
{
  gdouble m;

  if (x_recv > 0.0)
    recv_set_add (t, x_recv, now);
  m = recv_set_max (t, TRUE);
  t->n_recv_set = 0;
  if (m > 0.0)
    recv_set_add (t, m, now);
}

/* --- The allowed rate --------------------------------------------------- */

/* The end of step 4 of 4.3. */
static void
update_x (RtpBurstTfrc * t, guint64 now)
{
  gdouble floor_x = t->s / (RTP_BURST_TFRC_T_MBI / NS_PER_S);

  if (t->p > 0.0) {
    /* congestion avoidance */
    t->x_calc = rtp_burst_tfrc_equation (t->s, t->rtt, t->p) / 8.0;
    t->x = MAX (MIN (t->x_calc, t->recv_limit), floor_x);
  } else if (t->tld == NONE || (now >= t->tld && now - t->tld >= t->rtt)) {
    /* initial slow start */
    t->x = MAX (MIN (2.0 * t->x, t->recv_limit), initial_rate (t));
    t->tld = now;
  }
  t->x = clamp_x (t, t->x);
}

/* Forgets the intervals between feedback that ended more than
 * RTP_BURST_TFRC_GAP_MEMORY times their length before @now, or after it
 * (the time went back). */
static void
forget_gaps (RtpBurstTfrc * t, guint64 now)
{
  guint i, kept = 0;

  for (i = 0; i < t->n_gaps; i++) {
    const Gap *g = &t->gaps[i];
    guint64 memory = g->len > G_MAXUINT64 / RTP_BURST_TFRC_GAP_MEMORY ?
        G_MAXUINT64 : g->len * RTP_BURST_TFRC_GAP_MEMORY;

    if (now != NONE && now >= g->end && now - g->end <= memory)
      t->gaps[kept++] = *g;
  }
  t->n_gaps = kept;
}

/* The longest interval between feedback kept; 0: none. */
static guint64
feedback_gap (const RtpBurstTfrc * t)
{
  guint64 gap = 0;
  guint i;

  for (i = 0; i < t->n_gaps; i++)
    gap = MAX (gap, t->gaps[i].len);
  return gap;
}

/* Feedback at @now: the interval since the last one (none when the time
 * went back, or when it is the same feedback), in place of the shortest
 * kept when all places are taken. */
static void
note_feedback (RtpBurstTfrc * t, guint64 now)
{
  forget_gaps (t, now);
  if (t->last_feedback != NONE && now != NONE && now >= t->last_feedback) {
    Gap g = { now, now - t->last_feedback };
    guint i, shortest = 0;

    if (g.len < MIN_GAP)
      return;
    if (t->n_gaps < GAPS_MAX) {
      t->gaps[t->n_gaps++] = g;
    } else {
      for (i = 1; i < t->n_gaps; i++)
        if (t->gaps[i].len < t->gaps[shortest].len)
          shortest = i;
      if (t->gaps[shortest].len < g.len)
        t->gaps[shortest] = g;
    }
  }
  t->last_feedback = now;
}

/* The nofeedback timer's next deadline: max (4R, 2s/X) (4.3 step 3), and
 * at least twice the longest recent interval between feedback (as the
 * last feedback left them: a silence does not forget the pace), or while
 * there is none the 2 s of before the first feedback (4.2); at least 1 ns
 * (R = 0 and 2s/X below 1 ns would make it expire at once). */
static void
restart_timer (RtpBurstTfrc * t, guint64 now)
{
  guint64 rto = FIRST_NOFEEDBACK, gap;

  if (t->rtt != NONE) {
    gdouble two_s = 2.0 * t->s / t->x * NS_PER_S;

    rto = MAX (4 * t->rtt, two_s >= (gdouble) MAX_RTT ? MAX_RTT :
        (guint64) two_s);
    gap = feedback_gap (t);
    rto = MAX (rto, gap > 0 ? MIN (gap, MAX_RTT) * 2 : FIRST_NOFEEDBACK);
    rto = MAX (rto, 1);
  }
  t->deadline = sat_add (now, rto);
  t->sent_since_timer = 0;
}

/* --- Feedback ----------------------------------------------------------- */

/* 6.3.1: the interval before the first loss event, so that the equation
 * gives X_recv: 1/p for the p where X_calc (p) = X_recv.  Without R or
 * X_recv, the packets reported before the loss. */
static gdouble
seed_interval (const RtpBurstTfrc * t, guint64 seq)
{
  gdouble lo = 0.0, hi = 1.0, target = t->x_recv * 8.0;
  guint i;

  if (t->rtt == NONE || !(t->x_recv > 0.0))
    return MAX (seq - t->first_seq, 1);
  if (rtp_burst_tfrc_equation (t->s, t->rtt, hi) >= target)
    return 1.0;
  /* X_calc falls as p grows */
  for (i = 0; i < 200; i++) {
    gdouble mid = (lo + hi) / 2.0;

    if (mid <= lo || mid >= hi)
      break;
    if (rtp_burst_tfrc_equation (t->s, t->rtt, mid) > target)
      lo = mid;
    else
      hi = mid;
  }
  return hi > 0.0 ? 1.0 / hi : 1.0;
}

/* A lost packet: a new loss event when sent more than R after the first
 * lost packet of the current one (5.2).  TRUE when it starts one. */
static gboolean
on_lost (RtpBurstTfrc * t, const RtpBurstFeedbackPacket * pkt)
{
  guint64 r = t->rtt == NONE ? 0 : t->rtt;
  gdouble interval;

  t->lost++;
  if (!t->have_loss) {
    interval = seed_interval (t, pkt->seq);
    t->have_loss = TRUE;
  } else if (pkt->send_time > sat_add (t->event_send, r)) {
    interval = pkt->seq - t->event_seq;
  } else {
    return FALSE;
  }
  memmove (&t->closed[1], &t->closed[0],
      (RTP_BURST_TFRC_N_INTERVALS - 1) * sizeof (gdouble));
  t->closed[0] = interval;
  t->n_closed = MIN (t->n_closed + 1, RTP_BURST_TFRC_N_INTERVALS);
  t->event_seq = pkt->seq;
  t->event_send = pkt->send_time;
  t->loss_events++;
  return TRUE;
}

static gboolean
is_new (const RtpBurstTfrc * t, const RtpBurstFeedbackPacket * pkt)
{
  return !t->have_seq || pkt->seq > t->max_seq;
}

/* Step 1 and 2 of 4.3: R from @rtt, else from the newest packet received
 * (an overestimate by the receiver's feedback delay), smoothed. */
static void
update_rtt (RtpBurstTfrc * t, const RtpBurstFeedbackPacket * pkts, guint n,
    guint64 now, guint64 rtt)
{
  guint64 sample = rtt;
  guint i;

  if (sample == NONE) {
    guint64 newest = NONE;

    for (i = 0; i < n; i++)
      if (pkts[i].arrival != NONE && is_new (t, &pkts[i]) &&
          (newest == NONE || pkts[i].send_time > newest))
        newest = pkts[i].send_time;
    if (newest == NONE || newest > now)
      return;
    sample = now - newest;
  }
  sample = MIN (sample, MAX_RTT);
  t->rtt = t->rtt == NONE ? sample : (9 * t->rtt + sample) / 10;
}

/* The packets' losses and the bytes received: FALSE when no new loss
 * event started.  *@measured: X_recv was measured anew. */
static gboolean
add_packets (RtpBurstTfrc * t, const RtpBurstFeedbackPacket * pkts, guint n,
    gboolean * measured)
{
  gboolean new_event = FALSE;
  guint64 span;
  guint i;

  for (i = 0; i < n; i++) {
    const RtpBurstFeedbackPacket *pkt = &pkts[i];

    if (!is_new (t, pkt))
      continue;
    if (!t->have_seq)
      t->first_seq = pkt->seq;
    if (pkt->arrival == NONE) {
      new_event |= on_lost (t, pkt);
    } else if (t->recv_mark == NONE) {
      /* the first packet received starts the receive-rate clock */
      t->recv_mark = t->recv_last = pkt->arrival;
    } else {
      t->recv_bytes = sat_add (t->recv_bytes, pkt->size);
      t->recv_last = MAX (t->recv_last, pkt->arrival);
    }
    t->have_seq = TRUE;
    t->max_seq = pkt->seq;
  }

  /* X_recv over at least R of arrivals (6.2) */
  span = t->recv_mark == NONE ? 0 : t->recv_last - t->recv_mark;
  *measured = FALSE;
  if (t->recv_bytes > 0 && span > 0 && (t->rtt == NONE || span >= t->rtt)) {
    t->x_recv = t->recv_bytes * NS_PER_S / span;
    t->recv_mark = t->recv_last;
    t->recv_bytes = 0;
    *measured = TRUE;
  }
  return new_event;
}

void
rtp_burst_tfrc_on_feedback (RtpBurstTfrc * t,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now, guint64 rtt)
{
  gdouble p_before = t->p;
  gboolean new_event, measured;

  g_return_if_fail (n == 0 || pkts != NULL);

  note_start (t, now);
  note_feedback (t, now);
  update_rtt (t, pkts, n, now, rtt);
  new_event = add_packets (t, pkts, n, &measured);
  if (t->have_loss)
    t->p = rtp_burst_tfrc_loss_event_rate (t->max_seq - t->event_seq + 1.0,
        t->closed, t->n_closed);

  /* data-limited: sent less than half of X since the last feedback (the
   * RFC 7661 rule; RFC 5348 8.2 leaves the test open) */
  t->data_limited = FALSE;
  if (t->interval_start != NONE && now > t->interval_start)
    t->data_limited = t->sent_since_feedback * NS_PER_S /
        (now - t->interval_start) < t->x / 2.0;

  /* step 4 of 4.3: recv_limit from X_recv_set, then X */
  if (t->rtt != NONE) {
    if (t->data_limited) {
      if (new_event || t->p > p_before) {
        guint i;

        for (i = 0; i < t->n_recv_set; i++)
          t->recv_set[i].rate /= 2.0;
        recv_set_maximize (t, 0.85 * t->x_recv, now);
        t->recv_limit = recv_set_max (t, FALSE);
      } else {
        recv_set_maximize (t, t->x_recv, now);
        t->recv_limit = 2.0 * recv_set_max (t, FALSE);
      }
    } else {
      recv_set_update (t, measured ? t->x_recv : 0.0, now);
      t->recv_limit = 2.0 * recv_set_max (t, FALSE);
    }
    if (t->n_recv_set == 0)
      t->recv_limit = INFINITY;
    update_x (t, now);
  }

  t->have_feedback = TRUE;
  restart_timer (t, now);
  t->interval_start = now;
  t->sent_since_feedback = 0;
}

void
rtp_burst_tfrc_on_sent (RtpBurstTfrc * t, guint64 bytes, guint64 now)
{
  note_start (t, now);
  if (t->interval_start == NONE)
    t->interval_start = now;
  /* the timer runs from the first packet sent (4.2) */
  if (t->deadline == NONE)
    t->deadline = sat_add (now, FIRST_NOFEEDBACK);
  t->sent_since_feedback = sat_add (t->sent_since_feedback, bytes);
  t->sent_since_timer = sat_add (t->sent_since_timer, bytes);
}

/* Update_Limits (4.4): X_recv_set becomes { limit / 2 }, X as in 4.3. */
static void
update_limits (RtpBurstTfrc * t, gdouble limit, guint64 now)
{
  gdouble floor_x = t->s / (RTP_BURST_TFRC_T_MBI / NS_PER_S);

  limit = MAX (limit, floor_x);
  t->n_recv_set = 0;
  recv_set_add (t, limit / 2.0, now);
  t->recv_limit = limit;
  update_x (t, now);
}

void
rtp_burst_tfrc_tick (RtpBurstTfrc * t, guint64 now)
{
  gdouble floor_x = t->s / (RTP_BURST_TFRC_T_MBI / NS_PER_S);
  gdouble recover, x_recv;
  gboolean idle;

  if (t->deadline == NONE || now < t->deadline)
    return;

  t->expiries++;
  idle = t->sent_since_timer == 0;
  recover = t->rtt == NONE ? 0.0 : initial_rate (t);
  x_recv = recv_set_max (t, TRUE);

  if (t->rtt == NONE && !t->have_feedback && !idle) {
    /* no X_Bps nor recover_rate yet */
    t->x = MAX (t->x / 2.0, floor_x);
  } else if (((t->p > 0.0 && x_recv < recover) ||
          (t->p == 0.0 && t->x < 2.0 * recover)) && idle) {
    /* idle at a low rate: not halved */
  } else if (t->p == 0.0) {
    t->x = MAX (t->x / 2.0, floor_x);
  } else if (t->x_calc > 2.0 * x_recv) {
    /* 2 X_recv was the limit */
    update_limits (t, x_recv, now);
  } else {
    update_limits (t, t->x_calc / 2.0, now);
  }
  t->x = clamp_x (t, t->x);
  restart_timer (t, now);
}

guint64
rtp_burst_tfrc_rate (const RtpBurstTfrc * t)
{
  /* never 0, which callers read as "no rate": s / t_mbi of a tiny
   * segment rounds to it */
  return MAX (to_bits (t->x), 1);
}

void
rtp_burst_tfrc_report (const RtpBurstTfrc * t, RtpBurstTfrcReport * out)
{
  guint i;

  memset (out, 0, sizeof (*out));
  out->x = rtp_burst_tfrc_rate (t);
  out->p = t->p;
  out->rtt = t->rtt;
  out->x_recv = to_bits (t->x_recv);
  out->x_calc = t->p > 0.0 ? to_bits (t->x_calc) : 0;
  out->recv_limit = isfinite (t->recv_limit) ? to_bits (t->recv_limit) :
      G_MAXUINT64;
  if (t->have_loss)
    out->intervals[0] = t->max_seq - t->event_seq + 1.0;
  for (i = 0; i < t->n_closed; i++)
    out->intervals[i + 1] = t->closed[i];
  out->n_intervals = t->n_closed;
  out->loss_events = t->loss_events;
  out->lost = t->lost;
  out->slow_start = !t->have_loss;
  out->data_limited = t->data_limited;
  out->nofeedback_expiries = t->expiries;
  out->nofeedback_deadline = t->deadline;
  out->feedback_gap = feedback_gap (t);
}
