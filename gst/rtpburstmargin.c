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

#include "rtpburstmargin.h"
#include "rtpburstschedule.h"

void
rtp_burst_margin_init (RtpBurstMargin * m)
{
  m->n = m->pos = 0;
  m->margin = 0;
}

/* The RANK-th largest value of the window (0 while it holds fewer). */
static guint64
rank_largest (const RtpBurstMargin * m)
{
  guint64 top[RTP_BURST_MARGIN_RANK] = { 0, };
  guint i, j;

  for (i = 0; i < m->n; i++) {
    guint64 v = m->need[i];

    /* insert v into top[], kept in descending order */
    j = 0;
    while (j < RTP_BURST_MARGIN_RANK && v <= top[j])
      j++;
    if (j == RTP_BURST_MARGIN_RANK)
      continue;
    memmove (&top[j + 1], &top[j], (RTP_BURST_MARGIN_RANK - 1 - j) *
        sizeof (guint64));
    top[j] = v;
  }
  return top[RTP_BURST_MARGIN_RANK - 1];
}

/**
 * rtp_burst_margin_frame:
 * @end: when the frame's last slot was released, after its first slot's
 *   scheduled time, ns
 * @last_on_time: the offset from that time of the frame's last slot that
 *   was released on time before the late slots at its end (its last slot if
 *   none was late at the end), ns
 * @period: the frame period ΔT, ns
 *
 * Adds a paced frame.  A frame that ended after its period needed
 * @period - @last_on_time free at its end, if that is at most @period / 4;
 * one that ended in time, or whose late slots began earlier, needed
 * nothing.  O(window) per frame.
 */
void
rtp_burst_margin_frame (RtpBurstMargin * m, guint64 end,
    guint64 last_on_time, guint64 period)
{
  guint64 need = 0;

  if (end > period)
    need = period - MIN (last_on_time, period);
  m->need[m->pos] = need <= period / 4 ? need : 0;
  m->pos = (m->pos + 1) % RTP_BURST_MARGIN_WINDOW;
  if (m->n < RTP_BURST_MARGIN_WINDOW)
    m->n++;
  m->margin = rank_largest (m);
}

/**
 * rtp_burst_margin_span:
 * @period: ΔT, ns
 * @duty: the most of ΔT a frame may use
 * @margin: the time to keep free after the frame's last slot, ns
 * @n_slots: the frame's slots (k)
 * @shortened: (out) (optional): whether the margin made the span shorter
 *   than @duty * @period
 *
 * The last of k slots is at span * (k - 1) / k, which must be no later
 * than period - @margin.
 *
 * Returns: the span to spread a frame over: duty * period, shortened as
 * much as that needs, but never below half the period (nor above
 * duty * period).
 */
guint64
rtp_burst_margin_span (guint64 period, gdouble duty, guint64 margin,
    guint n_slots, gboolean * shortened)
{
  guint64 span = rtp_burst_span (period, duty), room, limit, floor;

  if (shortened)
    *shortened = FALSE;
  if (n_slots <= 1)
    return span;                /* the only slot is at the frame's start */
  floor = MIN (span, period / 2);
  room = margin < period ? period - margin : 0;
  /* room * k / (k - 1), without overflow (room < 2^63, k < 2^32) */
  limit = room + room / (n_slots - 1);
  limit = MAX (limit, floor);
  if (limit >= span)
    return span;
  if (shortened)
    *shortened = TRUE;
  return limit;
}

guint64
rtp_burst_margin_get (const RtpBurstMargin * m)
{
  return m->margin;
}
