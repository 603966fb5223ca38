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

#include "rtpburstahead.h"
#include "rtpburstschedule.h"

void
rtp_burst_ahead_init (RtpBurstAhead * a)
{
  a->noted = a->notice = 0;
}

guint64
rtp_burst_ahead_horizon (RtpBurstAhead * a, guint64 horizon, guint off)
{
  if (horizon == 0)
    return 0;
  if (off == RTP_BURST_AHEAD_OFF_NONE)
    return horizon;
  a->notice |= off & ~a->noted;
  a->noted |= off;
  return 0;
}

gboolean
rtp_burst_ahead_due (guint64 slot, guint64 now, guint64 horizon)
{
  if (now == RTP_BURST_TIME_NONE || slot == RTP_BURST_TIME_NONE)
    return FALSE;
  /* without a sum that saturates near the end of the range: the wake-up
   * for a slot not due is then always after @now */
  return slot <= now || slot - now < horizon;
}

guint64
rtp_burst_ahead_wake (guint64 slot, guint64 horizon, guint64 period)
{
  guint64 lead = horizon > period ? horizon - period : 0;

  if (slot == RTP_BURST_TIME_NONE)
    return slot;
  return slot - MIN (slot, lead);
}

guint
rtp_burst_ahead_take_notice (RtpBurstAhead * a)
{
  guint notice = a->notice;

  a->notice = 0;
  return notice;
}
