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
 * GCC's delay-based over-use detector (rtpburstgccdetect.h), after
 * draft-ietf-rmcat-gcc-02 (section numbers below are the draft's).  Where
 * it departs from the draft or fills a gap it leaves:
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
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "rtpburstgccdetect.h"

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

typedef struct
{
  gboolean valid;
  guint64 first_send, last_send;        /* T(i): last_send */
  guint64 first_arrival, last_arrival;  /* t(i): last_arrival */
} Group;

struct _RtpBurstGccDetect
{
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
};

RtpBurstGccDetect *
rtp_burst_gcc_detect_new (void)
{
  RtpBurstGccDetect *det = g_new0 (RtpBurstGccDetect, 1);

  det->e = KALMAN_E0;
  det->var_v = KALMAN_VAR0;
  det->threshold = THRESHOLD0_MS;
  det->signal = RTP_BURST_GCC_NORMAL;
  return det;
}

void
rtp_burst_gcc_detect_free (RtpBurstGccDetect * det)
{
  g_free (det);
}

/* The arrival-time filter (5.3): the Kalman filter's m(i) from d(i), and
 * the smallest inter-departure time of the last groups for f_max. */
static void
kalman_update (RtpBurstGccDetect * det, gdouble d, gdouble min_departure)
{
  gdouble z, zc, limit, alpha, k;

  z = d - det->m;
  /* alpha = (1 - chi)^(30 / (1000 f_max)), f_max = 1 / min_departure
   * per ms */
  alpha = pow (1.0 - KALMAN_CHI, 30.0 * min_departure / 1000.0);
  limit = 3.0 * sqrt (det->var_v);
  zc = CLAMP (z, -limit, limit);
  det->var_v = MAX (alpha * det->var_v + (1.0 - alpha) * zc * zc,
      KALMAN_VAR_MIN);
  k = (det->e + KALMAN_Q) / (det->var_v + det->e + KALMAN_Q);
  det->m += z * k;
  det->e = (1.0 - k) * (det->e + KALMAN_Q);
}

/* The adaptive threshold (5.4), with the group's inter-arrival time. */
static void
threshold_update (RtpBurstGccDetect * det, gdouble gradient, gdouble arrival_ms)
{
  gdouble a = fabs (gradient), k, step;

  if (a - det->threshold > THRESHOLD_MAX_JUMP_MS)
    return;
  k = a < det->threshold ? K_D : K_U;
  step = CLAMP (arrival_ms, 0.0, THRESHOLD_MAX_STEP_MS);
  det->threshold += step * k * (a - det->threshold);
  det->threshold = CLAMP (det->threshold, THRESHOLD_MIN_MS, THRESHOLD_MAX_MS);
}

/* The over-use detector (5.4), for a group received at @t. */
static void
detect (RtpBurstGccDetect * det, gdouble prev_m, guint64 t)
{
  if (det->gradient > det->threshold) {
    if (!det->above) {
      det->above = TRUE;
      det->above_since = t;
    }
    if (t >= det->above_since && t - det->above_since >= OVERUSE_TIME_NS &&
        det->m >= prev_m) {
      det->signal = RTP_BURST_GCC_OVERUSE;
      det->overuse_in_report = TRUE;
    } else {
      det->signal = RTP_BURST_GCC_NORMAL;
    }
  } else {
    det->above = FALSE;
    det->signal = det->gradient < -det->threshold ?
        RTP_BURST_GCC_UNDERUSE : RTP_BURST_GCC_NORMAL;
  }
}

/* Group @cur follows group @prev: d(i) through the filter and the
 * detector. */
static void
group_delta (RtpBurstGccDetect * det, const Group * prev, const Group * cur)
{
  gdouble send_ms, arrival_ms, d, min_departure, prev_m;
  guint i;

  send_ms = rtp_burst_feedback_diff_ms (cur->last_send, prev->last_send);
  arrival_ms =
      rtp_burst_feedback_diff_ms (cur->last_arrival, prev->last_arrival);
  d = arrival_ms - send_ms;
  if (send_ms <= 0 || fabs (d) > MAX_DELAY_VARIATION_MS)
    return;

  det->departures[det->departure_pos] = send_ms;
  det->departure_pos = (det->departure_pos + 1) % DEPARTURE_HISTORY;
  if (det->n_departures < DEPARTURE_HISTORY)
    det->n_departures++;
  min_departure = det->departures[0];
  for (i = 1; i < det->n_departures; i++)
    min_departure = MIN (min_departure, det->departures[i]);

  prev_m = det->m;
  kalman_update (det, d, min_departure);
  det->n_deltas++;
  det->gradient = MIN (det->n_deltas, MAX_DELTAS) * det->m;
  threshold_update (det, det->gradient, arrival_ms);
  detect (det, prev_m, cur->last_arrival);
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
  arrival_ms = rtp_burst_feedback_diff_ms (p->arrival, g->last_arrival);
  send_ms = rtp_burst_feedback_diff_ms (p->send_time, g->last_send);
  return arrival_ms < BURST_TIME_MS && arrival_ms - send_ms < 0 &&
      rtp_burst_feedback_diff_ms (p->arrival, g->first_arrival) < MAX_BURST_MS;
}

/* A received packet for the arrival-time model (5.1, 5.2). */
void
rtp_burst_gcc_detect_add (RtpBurstGccDetect * det,
    const RtpBurstFeedbackPacket * p)
{
  Group *g = &det->cur;

  if (det->have_model_seq && p->seq <= det->model_seq)
    return;
  det->have_model_seq = TRUE;
  det->model_seq = p->seq;

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
  if (det->prev.valid)
    group_delta (det, &det->prev, g);
  det->prev = *g;
  group_start (g, p);
}

void
rtp_burst_gcc_detect_begin (RtpBurstGccDetect * det)
{
  g_return_if_fail (det != NULL);

  det->overuse_in_report = FALSE;
}

RtpBurstGccSignal
rtp_burst_gcc_detect_signal (const RtpBurstGccDetect * det)
{
  g_return_val_if_fail (det != NULL, RTP_BURST_GCC_NORMAL);

  return det->overuse_in_report ? RTP_BURST_GCC_OVERUSE : det->signal;
}

void
rtp_burst_gcc_detect_report (const RtpBurstGccDetect * det,
    RtpBurstGccDetectReport * out)
{
  g_return_if_fail (det != NULL);
  g_return_if_fail (out != NULL);

  out->gradient = det->gradient;
  out->offset = det->m;
  out->threshold = det->threshold;
  out->signal = det->signal;
  out->groups = det->n_deltas;
}
