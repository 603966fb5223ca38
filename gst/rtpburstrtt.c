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

#include "rtpburstrtt.h"

#define NONE RTP_BURST_TIME_NONE

void
rtp_burst_rtt_init (RtpBurstRtt * r)
{
  memset (r, 0, sizeof (*r));
}

guint64
rtp_burst_rtt_sample (const RtpBurstFeedbackPacket * pkts, guint n, guint64 now)
{
  guint64 newest = 0, best = NONE;
  gboolean any = FALSE;
  guint i;

  g_return_val_if_fail (pkts != NULL || n == 0, NONE);

  if (now == NONE)
    return NONE;
  for (i = 0; i < n; i++) {
    if (pkts[i].arrival == NONE)
      continue;
    newest = any ? MAX (newest, pkts[i].arrival) : pkts[i].arrival;
    any = TRUE;
  }
  for (i = 0; i < n; i++) {
    guint64 flight, held;

    if (pkts[i].arrival == NONE || pkts[i].send_time == NONE ||
        pkts[i].send_time > now)
      continue;
    flight = now - pkts[i].send_time;
    held = newest - pkts[i].arrival;
    best = MIN (best, flight > held ? flight - held : 0);
  }
  return best;
}

guint64
rtp_burst_rtt_update (RtpBurstRtt * r, const RtpBurstFeedbackPacket * pkts,
    guint n, guint64 now)
{
  guint64 sample = rtp_burst_rtt_sample (pkts, n, now);
  guint i, kept = 0;

  if (sample != NONE) {
    if (r->n == RTP_BURST_RTT_MAX_SAMPLES) {
      memmove (&r->samples[0], &r->samples[1],
          (RTP_BURST_RTT_MAX_SAMPLES - 1) * sizeof (RtpBurstRttSample));
      r->n--;
    }
    r->samples[r->n].time = now;
    r->samples[r->n].rtt = sample;
    r->n++;
  }
  if (now == NONE)
    return rtp_burst_rtt_get (r);
  /* within (now - window, now]; the newest stays */
  for (i = 0; i < r->n; i++) {
    const RtpBurstRttSample *s = &r->samples[i];

    if (i + 1 == r->n || (s->time <= now
            && now - s->time < RTP_BURST_RTT_WINDOW))
      r->samples[kept++] = *s;
  }
  r->n = kept;
  return rtp_burst_rtt_get (r);
}

guint64
rtp_burst_rtt_get (const RtpBurstRtt * r)
{
  guint64 best = NONE;
  guint i;

  for (i = 0; i < r->n; i++)
    best = MIN (best, r->samples[i].rtt);
  return best;
}
