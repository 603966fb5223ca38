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

#include "rtpburstsinkhold.h"

#define NONE G_MAXUINT64

void
rtp_burst_sink_hold_init (RtpBurstSinkHold * hold)
{
  hold->latency = NONE;
  hold->offset = 0;
  hold->held_seen = FALSE;
  hold->n_held = 0;
}

/**
 * rtp_burst_sink_hold_set_latency:
 * @latency: the value of a LATENCY event that came from downstream
 *
 * Notes the pipeline latency a synchronising sink adds.  It becomes the
 * offset at the next frame if a held push was seen or an offset is in use.
 */
void
rtp_burst_sink_hold_set_latency (RtpBurstSinkHold * hold, guint64 latency)
{
  hold->latency = latency == NONE ? NONE : MIN (latency, NONE - 1);
}

/**
 * rtp_burst_sink_hold_push_done:
 * @slot_time: the slot the packets were released for
 * @frame_offset: the offset R their frame was planned with
 * @push_start: when the push began
 * @push_end: when it returned
 *
 * Judges one push of paced packets.  Returns %TRUE if downstream held it
 * the way a synchronising sink with the announced latency does: for at
 * least RTP_BURST_HOLD_MIN, returning about when it would release a
 * packet of DTS running time @slot_time - @frame_offset, which was at
 * least RTP_BURST_HOLD_MIN after the push began.
 */
gboolean
rtp_burst_sink_hold_push_done (RtpBurstSinkHold * hold, guint64 slot_time,
    guint64 frame_offset, guint64 push_start, guint64 push_end)
{
  guint64 release;

  if (hold->latency == NONE || push_end < push_start ||
      push_end - push_start < RTP_BURST_HOLD_MIN || frame_offset > slot_time)
    return FALSE;

  release = slot_time - frame_offset;
  if (release > NONE - 1 - hold->latency)
    return FALSE;
  release += hold->latency;
  /* the sink had a wait of its own to do, and the push ended with it */
  if (release < push_start || release - push_start < RTP_BURST_HOLD_MIN ||
      (release > push_end && release - push_end > RTP_BURST_HOLD_EARLY) ||
      (push_end > release && push_end - release > RTP_BURST_HOLD_LATE))
    return FALSE;

  hold->held_seen = TRUE;
  hold->n_held++;
  return TRUE;
}

/**
 * rtp_burst_sink_hold_frame_start:
 *
 * Returns: the offset R for the frame that starts now: the announced
 * latency once a push was held (or an offset is in use already), else the
 * offset so far.
 */
guint64
rtp_burst_sink_hold_frame_start (RtpBurstSinkHold * hold)
{
  if ((hold->held_seen || hold->offset > 0) && hold->latency != NONE)
    hold->offset = hold->latency;
  hold->held_seen = FALSE;
  return hold->offset;
}
