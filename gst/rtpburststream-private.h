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
 * The stream's state, shared by its two halves: rtpburststream.c (the
 * queue's input, the stream's life, its stats) and rtpburststreamnext.c
 * (what leaves next, and when).  Not for other units.
 */

#ifndef __RTP_BURST_STREAM_PRIVATE_H__
#define __RTP_BURST_STREAM_PRIVATE_H__

#include <string.h>

#include "rtpburststream.h"
#include "rtpburstahead.h"
#include "rtpburstbooking.h"
#include "rtpburstframes.h"
#include "rtpburstgroup.h"
#include "rtpburstmargin.h"
#include "rtpburstrepair.h"

G_BEGIN_DECLS

/* The pacing of the frame at the head of the queue, once it started. */
typedef struct
{
  gboolean started;
  guint64 sink_offset;          /* R: a paced packet's DTS is its slot - R */
  guint released_slots;
  guint64 on_time;              /* offset of its last slot released on time */
  RtpBurstPlan plan;
  gboolean have_slot;
  guint64 slot_time;            /* the pending slot */
  guint slot_packets;
  gboolean slot_reached;        /* the caller waited for it */
  guint64 slot_lateness;        /* ... and woke this late */
  RtpBurstBooking booking;      /* the slot's, on the group's rate */
  guint64 probe_rate;           /* a probe frame's rate, bit/s; 0 = not */
} Head;

/* The push between rtp_burst_stream_next () and push_done (). */
typedef struct
{
  gboolean repair;
  guint n_packets;
  guint64 bytes;
  guint size;                   /* a repair packet's */
  gboolean paced;
  guint64 now;                  /* when next () was asked */
  guint64 lateness;             /* of the slot, then */
  gboolean overrun;             /* a repair packet due at its bound */
  guint64 slot_time, sink_offset;
  guint64 start;                /* the running time it began */
  gboolean frame_first, frame_last;
  guint64 frame_start, period, serial;
  guint64 probe_rate;           /* its frame's (Head) */
  /* booked on the group's rate: when it returns, the link is taken from
   * then (rtp_burst_group_member_occupy ()) */
  gboolean on_rate;
  guint rate_class;
  RtpBurstRateTime rate_time;
} Push;

struct _RtpBurstStream
{
  const RtpBurstStreamConfig *config;

  RtpBurstFrames q;             /* frames and events (rtpburstframes.h) */
  Head head;

  /* the schedule */
  RtpBurstPeriodEstimator est;
  RtpBurstWakeupTracker wakeups;
  RtpBurstRateMeter rate_meter;
  guint max_payload;
  guint64 period;
  RtpBurstPeriodSource period_source;
  GRand *rand;
  guint64 upstream_latency;
  guint64 prev_end;             /* the last frame's slots end */

  /* a synchronising sink downstream */
  RtpBurstSinkHold sink_hold;
  guint64 last_push_end;        /* the last paced push returned */
  guint64 prev_push_end;        /* the last push of any kind returned */
  guint64 held_serial;          /* the frame such a sink last held */

  RtpBurstMeter meter;
  RtpBurstMargin margin;
  RtpBurstGroupMember group;
  RtpBurstRateWaits rate_waits;

  /* repair packets: another payload type than the caps' */
  gint media_pt;                /* -1 = none */
  RtpBurstRepair repair;
  RtpBurstBooking repair_booking;

  Push push;
  RtpBurstAhead ahead;          /* release_ahead's notices */
  guint64 probe_next;           /* the next frame a probe at this rate */
  gboolean have_started;        /* next () started a frame: */
  RtpBurstStarted started;

  /* notices */
  gboolean period_warned, notice_period;
  gboolean group_clock_warned, notice_other_clock;
  gboolean notice_dropped;
  RtpBurstDrop drop;

  /* counters, and the rest of the stats filled in when asked */
  RtpBurstStreamStats st;
  guint64 unpaced_since_period;
};

static inline void
reset_head (RtpBurstStream * s)
{
  memset (&s->head, 0, sizeof (s->head));
  rtp_burst_booking_reset (&s->head.booking);
}

static inline gboolean
rate_cap_enabled (const RtpBurstStream * s)
{
  return s->config->max_rate > 0 || s->config->max_rate_factor > 0.0 ||
      s->config->cc_rate > 0;
}

/* The peak-rate cap in use now, bit/s; 0 = none (yet): the lower of
 * max_rate (else max_rate_factor's) and the congestion controller's. */
static inline guint64
max_rate (const RtpBurstStream * s)
{
  guint64 cap = 0;

  if (s->config->max_rate > 0)
    cap = s->config->max_rate;
  else if (s->config->max_rate_factor > 0.0)
    cap = (guint64) (s->config->max_rate_factor *
        (gdouble) rtp_burst_rate_meter_get (&s->rate_meter, s->period));
  if (s->config->cc_rate > 0 && (cap == 0 || s->config->cc_rate < cap))
    cap = s->config->cc_rate;
  return cap;
}

/* Removes the frame at the head once it is closed and all its packets
 * left (rtpburststreamnext.c). */
void rtp_burst_stream_finish_frame (RtpBurstStream * s, RtpBurstFrame * frame);

G_END_DECLS

#endif /* __RTP_BURST_STREAM_PRIVATE_H__ */
