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
 * The loss model (rtpburstlossmodel.h).  The candidates: eps from 0 to
 * 0.5 in steps of 0.01, B from a quarter to four times the median of the
 * observations' rates in steps of 2^(1/8), so that a fit costs the same
 * whatever the rates (33 x 51 candidates over 20 observations).  A
 * probability is kept within [1e-4, 1 - 1e-4]: an observation the model
 * gives no chance would otherwise decide alone.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rtpburstlossmodel.h"

#include <math.h>
#include <stdlib.h>

#define EPS_STEPS 50
#define EPS_STEP 0.01
#define B_STEPS 16              /* each side of the median */
#define B_STEPS_PER_OCTAVE 8.0
#define P_MIN 1e-4
#define TOLERANCE 2.0           /* log-likelihood, nats */

typedef struct
{
  guint sent, lost;
  gdouble rate;
} Observation;

struct _RtpBurstLossModel
{
  Observation obs[RTP_BURST_LOSS_MODEL_OBSERVATIONS];
  guint n, pos;
};

RtpBurstLossModel *
rtp_burst_loss_model_new (void)
{
  return g_new0 (RtpBurstLossModel, 1);
}

void
rtp_burst_loss_model_free (RtpBurstLossModel * model)
{
  g_free (model);
}

void
rtp_burst_loss_model_reset (RtpBurstLossModel * model)
{
  g_return_if_fail (model != NULL);
  model->n = model->pos = 0;
}

void
rtp_burst_loss_model_add (RtpBurstLossModel * model, guint sent, guint lost,
    gdouble rate)
{
  Observation *o;

  g_return_if_fail (model != NULL);
  /* also NaN */
  if (sent == 0 || lost > sent || !(rate > 0) || isinf (rate))
    return;
  o = &model->obs[model->pos];
  o->sent = sent;
  o->lost = lost;
  o->rate = rate;
  model->pos = (model->pos + 1) % RTP_BURST_LOSS_MODEL_OBSERVATIONS;
  model->n = MIN (model->n + 1, RTP_BURST_LOSS_MODEL_OBSERVATIONS);
}

static int
compare_rate (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static gdouble
log_likelihood (const RtpBurstLossModel * model, gdouble eps, gdouble b)
{
  gdouble sum = 0;
  guint i;

  for (i = 0; i < model->n; i++) {
    const Observation *o = &model->obs[i];
    gdouble p = eps + (1.0 - eps) * MAX (0.0, 1.0 - b / o->rate);

    p = CLAMP (p, P_MIN, 1.0 - P_MIN);
    sum += o->lost * log (p) + (o->sent - o->lost) * log (1.0 - p);
  }
  return sum;
}

gdouble
rtp_burst_loss_model_bandwidth (const RtpBurstLossModel * model,
    gdouble * inherent)
{
  gdouble rates[RTP_BURST_LOSS_MODEL_OBSERVATIONS];
  gdouble ll[2 * B_STEPS + 1][EPS_STEPS + 1];
  gdouble median, best = -INFINITY;
  guint i, lost = 0;
  gint k, e;

  if (inherent)
    *inherent = 0;
  g_return_val_if_fail (model != NULL, 0);
  if (model->n < RTP_BURST_LOSS_MODEL_OBSERVATIONS)
    return 0;
  for (i = 0; i < model->n; i++) {
    rates[i] = model->obs[i].rate;
    lost += model->obs[i].lost;
  }
  if (lost == 0)
    return 0;
  qsort (rates, model->n, sizeof (gdouble), compare_rate);
  median = model->n % 2 ? rates[model->n / 2] :
      (rates[model->n / 2 - 1] + rates[model->n / 2]) / 2;

  for (k = -B_STEPS; k <= B_STEPS; k++)
    for (e = 0; e <= EPS_STEPS; e++) {
      gdouble b = median * exp2 (k / B_STEPS_PER_OCTAVE);

      ll[k + B_STEPS][e] = log_likelihood (model, e * EPS_STEP, b);
      best = MAX (best, ll[k + B_STEPS][e]);
    }
  /* the smallest B within the tolerance, and its most likely eps */
  for (k = -B_STEPS; k <= B_STEPS; k++) {
    gint best_e = -1;

    for (e = 0; e <= EPS_STEPS; e++)
      if (ll[k + B_STEPS][e] >= best - TOLERANCE &&
          (best_e < 0 || ll[k + B_STEPS][e] > ll[k + B_STEPS][best_e]))
        best_e = e;
    if (best_e >= 0) {
      if (inherent)
        *inherent = best_e * EPS_STEP;
      return median * exp2 (k / B_STEPS_PER_OCTAVE);
    }
  }
  g_return_val_if_reached (0);
}
