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
  guint i;

  for (i = 0; i < RTP_BURST_HOLD_N_SOURCES; i++)
    hold->latency[i] = NONE;
  hold->offset = 0;
  hold->source = hold->held_by = -1;
  hold->n_held = 0;
  hold->observed = hold->candidate = NONE;
  hold->n_candidate = 0;
}

/* The latency of @source (an index of latency[], or the observed one). */
static guint64
source_latency (const RtpBurstSinkHold * hold, gint source)
{
  return source == RTP_BURST_HOLD_N_SOURCES ? hold->observed :
      hold->latency[source];
}

/**
 * rtp_burst_sink_hold_set_latency:
 * @source: where the value comes from
 * @latency: the value of a LATENCY event that came from downstream, or the
 *   minimum latency the element answered to a LATENCY query
 *
 * Notes a latency that an element downstream may add.  It becomes the
 * offset at the next frame once a held push matched it, or if the offset
 * follows it already.
 */
void
rtp_burst_sink_hold_set_latency (RtpBurstSinkHold * hold,
    RtpBurstHoldSource source, guint64 latency)
{
  g_return_if_fail (source < RTP_BURST_HOLD_N_SOURCES);
  hold->latency[source] = latency;
}

/* Does a push of a slot of DTS running time @release_dts, begun at
 * @push_start and ended at @push_end, look held by an element that adds
 * @latency? */
static gboolean
held_with (guint64 release_dts, guint64 latency, guint64 push_start,
    guint64 push_end, guint64 * release)
{
  if (latency == NONE || release_dts > NONE - 1 - latency)
    return FALSE;
  *release = release_dts + latency;
  /* it had a wait of its own to do, and the push ended with it */
  return *release >= push_start && *release - push_start >= RTP_BURST_HOLD_MIN
      && !(*release > push_end && *release - push_end > RTP_BURST_HOLD_EARLY)
      && !(push_end > *release && push_end - *release > RTP_BURST_HOLD_LATE);
}

/**
 * rtp_burst_sink_hold_push_done:
 * @slot_time: the slot the packets were released for
 * @frame_offset: the offset R their frame was planned with
 * @push_start: when the push began
 * @push_end: when it returned
 * @release: (out) (optional): if held, when the element downstream was to
 *   release the packets
 *
 * Judges one push of paced packets.  Returns %TRUE if downstream held it
 * the way a synchronising element with one of the known latencies does:
 * for at least RTP_BURST_HOLD_MIN, returning about when it would release
 * a packet of DTS running time @slot_time - @frame_offset, which was at
 * least RTP_BURST_HOLD_MIN after the push began; or, before R is set, the
 * second of two such pushes in a row that ended the same unannounced time
 * after their DTS (a sink's ts-offset, rtpburstsinkhold.h).
 */
gboolean
rtp_burst_sink_hold_push_done (RtpBurstSinkHold * hold, guint64 slot_time,
    guint64 frame_offset, guint64 push_start, guint64 push_end,
    guint64 * release)
{
  guint64 r = NONE, dts, l;
  gboolean near_known = FALSE;
  gint i;

  if (push_end < push_start || push_end - push_start < RTP_BURST_HOLD_MIN ||
      frame_offset > slot_time) {
    hold->n_candidate = 0;
    return FALSE;
  }
  dts = slot_time - frame_offset;

  for (i = 0; i <= RTP_BURST_HOLD_N_SOURCES; i++) {
    if (held_with (dts, source_latency (hold, i), push_start, push_end, &r))
      goto held;
  }

  /* held by a latency no one announced: the same one twice in a row,
   * within a factor of two of a latency that is known (a synchronising
   * element is downstream, and a ts-offset moves its release by less than
   * the latency as a rule; a host stall does not look like that), and
   * before any held push set R (so R cannot grow push after push) */
  l = push_end > dts ? push_end - dts : 0;
  for (i = 0; i < RTP_BURST_HOLD_N_SOURCES; i++)
    near_known |= hold->latency[i] != NONE && hold->latency[i] > 0 &&
        l >= hold->latency[i] / 2 && l / 2 <= hold->latency[i];
  if (!near_known || hold->source >= 0 || hold->held_by >= 0 ||
      l < RTP_BURST_HOLD_MIN) {
    hold->n_candidate = 0;
    return FALSE;
  }
  if (hold->n_candidate > 0 && (l > hold->candidate ?
          l - hold->candidate : hold->candidate - l) <= RTP_BURST_HOLD_EARLY)
    hold->n_candidate++;
  else
    hold->n_candidate = 1;
  hold->candidate = l;
  if (hold->n_candidate < 2)
    return FALSE;
  hold->observed = l;
  hold->n_candidate = 0;
  r = push_end;
  i = RTP_BURST_HOLD_N_SOURCES;

held:
  hold->held_by = i;
  hold->n_held++;
  if (release)
    *release = r;
  return TRUE;
}

/**
 * rtp_burst_sink_hold_frame_start:
 *
 * Returns: the offset R for the frame that starts now: the latency a held
 * push matched since the last frame start, else the current value of the
 * latency R follows, else the offset so far.
 */
guint64
rtp_burst_sink_hold_frame_start (RtpBurstSinkHold * hold)
{
  if (hold->held_by >= 0)
    hold->source = hold->held_by;
  if (hold->source >= 0 && source_latency (hold, hold->source) != NONE)
    hold->offset = source_latency (hold, hold->source);
  hold->held_by = -1;
  return hold->offset;
}

guint64
rtp_burst_sink_hold_offset (const RtpBurstSinkHold * hold)
{
  return hold->offset;
}

guint64
rtp_burst_sink_hold_n_held (const RtpBurstSinkHold * hold)
{
  return hold->n_held;
}
