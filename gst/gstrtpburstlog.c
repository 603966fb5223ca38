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

#include "gstrtpburstlog.h"
#include "rtpburstgroup.h"

#define GST_CAT_DEFAULT rtp_burst_pace_debug

/* A running time, or "none" (%s of the GST_TIME_ARGS of it). */
#define RT_ARGS(t) GST_TIME_ARGS ((t) == RTP_BURST_TIME_NONE ? \
    GST_CLOCK_TIME_NONE : (GstClockTime) (t))

static const gchar *
placement (gint group)
{
  switch (group) {
    case RTP_BURST_GROUP_PLACED:
      return "placed in its group";
    case RTP_BURST_GROUP_BUSY:
      return "not placed: another member was placing";
    case RTP_BURST_GROUP_OTHER_CLOCK:
      return "not placed: the group is on another clock";
    default:
      return "no group";
  }
}

static void
log_started (GstObject * obj, const RtpBurstStarted * st)
{
  if (st->unpaced) {
    GST_DEBUG_OBJECT (obj, "frame %u: %u packets leave as they come "
        "(unpaced)", st->rtptime, st->n_packets);
    return;
  }
  GST_DEBUG_OBJECT (obj, "frame %u: %u packets in %u slots of up to %u, "
      "dt %" GST_TIME_FORMAT ", first at %" GST_TIME_FORMAT " over %"
      GST_TIME_FORMAT "%s%s%s; %s, phase %" GST_TIME_FORMAT, st->rtptime,
      st->n_packets, st->n_slots, st->burst_size,
      RT_ARGS (st->slot_duration), RT_ARGS (st->first_slot),
      RT_ARGS (st->span), st->catch_up ? ", catching up" : "",
      st->spread ? ", spread by max-rate" : "",
      st->compressed ? ", compressed to max-delay" : "",
      placement (st->group), RT_ARGS (st->phase));
  if (st->probe_rate > 0)
    GST_DEBUG_OBJECT (obj, "frame %u probes the path at %" G_GUINT64_FORMAT
        " bit/s", st->rtptime, st->probe_rate);
}

void
gst_rtp_burst_log_next (GstObject * obj, const RtpBurstNext * next, guint64 now)
{
  const gchar *why = rtp_burst_why_name (next->why);

  if (next->started)
    log_started (obj, &next->start);
  switch (next->kind) {
    case RTP_BURST_NEXT_WAIT_DATA:
      GST_LOG_OBJECT (obj, "waiting for data: %s", why);
      break;
    case RTP_BURST_NEXT_WAIT_UNTIL:
      if (next->why == RTP_BURST_WHY_GROUP_RATE ||
          next->why == RTP_BURST_WHY_GROUP_CLAIM)
        GST_DEBUG_OBJECT (obj, "waiting until %" GST_TIME_FORMAT " (%"
            GST_STIME_FORMAT " from now): %s", RT_ARGS (next->time),
            GST_STIME_ARGS (GST_CLOCK_DIFF (now, next->time)), why);
      else
        GST_LOG_OBJECT (obj, "waiting until %" GST_TIME_FORMAT " (%"
            GST_STIME_FORMAT " from now): %s", RT_ARGS (next->time),
            GST_STIME_ARGS (GST_CLOCK_DIFF (now, next->time)), why);
      break;
    case RTP_BURST_NEXT_PUSH:
      GST_LOG_OBJECT (obj, "pushing %u packets of frame %u at %"
          GST_TIME_FORMAT ", DTS %" GST_TIME_FORMAT ": %s", next->n_packets,
          next->rtptime, RT_ARGS (next->time), RT_ARGS (next->dts), why);
      break;
    case RTP_BURST_NEXT_REPAIR:
      GST_LOG_OBJECT (obj, "pushing a repair packet due %" GST_TIME_FORMAT
          ": %s", RT_ARGS (next->time), why);
      break;
    case RTP_BURST_NEXT_EVENT:
      GST_LOG_OBJECT (obj, "pushing %" GST_PTR_FORMAT, next->event);
      break;
    case RTP_BURST_NEXT_DROPPED:
      GST_DEBUG_OBJECT (obj, "frame dropped: %s", why);
      break;
  }
}
