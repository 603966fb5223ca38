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
 * The arithmetic of burst control (Chodorek & Chodorek, equations (1)-(3)),
 * kept apart from the element: no pads, no locks, no clock.  All times are
 * nanoseconds in one time base chosen by the caller (the element uses
 * running time).  Everything here is deterministic given the GRand passed in.
 */

#ifndef __RTP_BURST_SCHEDULE_H__
#define __RTP_BURST_SCHEDULE_H__

#include <glib.h>

G_BEGIN_DECLS

#define RTP_BURST_TIME_NONE G_MAXUINT64

/* Frame periods outside this range are treated as unknown. */
#define RTP_BURST_MIN_PERIOD   (G_GUINT64_CONSTANT (100000))        /* 0.1 ms */
#define RTP_BURST_MAX_PERIOD   (G_GUINT64_CONSTANT (10000000000))   /* 10 s */

/* A frame whose first slot the caller reaches later than this starts now
 * instead of on its due time (rtp_burst_plan_start ()). */
#define RTP_BURST_START_TOLERANCE (G_GUINT64_CONSTANT (1000000))   /* 1 ms */

/* A slot released later than this after its time counts as late. */
#define RTP_BURST_LATE_THRESHOLD (G_GUINT64_CONSTANT (1000000))    /* 1 ms */

/* Number of frame-to-frame differences the estimators look back over. */
#define RTP_BURST_ESTIMATOR_WINDOW 16

/* a + b, saturating below RTP_BURST_TIME_NONE: times derived from absurd
 * timestamps must not wrap around to the past */
static inline guint64
rtp_burst_time_add (guint64 a, guint64 b)
{
  if (b >= RTP_BURST_TIME_NONE - 1 || a >= RTP_BURST_TIME_NONE - 1 - b)
    return RTP_BURST_TIME_NONE - 1;
  return a + b;
}

guint    rtp_burst_slot_count     (guint64 payload_bytes, guint n_packets,
                                   guint payload_size, guint burst_size);

guint64  rtp_burst_span           (guint64 period, gdouble duty);

guint64  rtp_burst_parse_framerate (const gchar * str);

/* --- Frame grouping ----------------------------------------------------- */

typedef enum {
  RTP_BURST_PACKET_ADD = 0,        /* add to the open frame */
  RTP_BURST_PACKET_CLOSE_BEFORE = 1 << 0, /* close the open frame, then add */
  RTP_BURST_PACKET_CLOSE_AFTER = 1 << 1,  /* add, then close (marker) */
} RtpBurstPacketAction;

RtpBurstPacketAction rtp_burst_classify_packet (gboolean frame_open,
                                                guint32 open_rtptime,
                                                guint32 rtptime,
                                                gboolean marker);

/* --- Frame period estimation -------------------------------------------- */

typedef enum {
  RTP_BURST_PERIOD_UNKNOWN = 0,
  RTP_BURST_PERIOD_PROPERTY,
  RTP_BURST_PERIOD_CAPS,
  RTP_BURST_PERIOD_RTPTIME,
  RTP_BURST_PERIOD_ARRIVAL,
} RtpBurstPeriodSource;

const gchar *rtp_burst_period_source_name (RtpBurstPeriodSource source);

typedef struct {
  guint64 caps_period;        /* from a-framerate, 0 = none */
  gint clock_rate;            /* from caps, 0 = none */

  gboolean have_rtptime;
  guint32 last_rtptime;
  /* positive, in RTP units */
  guint32 ts_diffs[RTP_BURST_ESTIMATOR_WINDOW];
  guint n_ts_diffs, ts_pos;

  guint64 last_arrival;       /* RTP_BURST_TIME_NONE = none */
  guint64 arrival_diffs[RTP_BURST_ESTIMATOR_WINDOW];
  guint n_arrival_diffs, arrival_pos;
} RtpBurstPeriodEstimator;

void     rtp_burst_period_estimator_init      (RtpBurstPeriodEstimator * est);
void
rtp_burst_period_estimator_reset_history (RtpBurstPeriodEstimator * est);
void     rtp_burst_period_estimator_set_caps  (RtpBurstPeriodEstimator * est,
                                               guint64 caps_period,
                                               gint clock_rate);
void     rtp_burst_period_estimator_add_frame (RtpBurstPeriodEstimator * est,
                                               guint32 rtptime,
                                               guint64 arrival);
guint64  rtp_burst_period_estimator_get (const RtpBurstPeriodEstimator * est,
                                         guint64 property_period,
                                         RtpBurstPeriodSource * source);

/* --- The slots of one frame --------------------------------------------- */

typedef struct {
  /* input */
  guint64 start;          /* time of slot 0 */
  guint64 span;           /* duty * period, possibly shortened to catch up */
  guint64 period;         /* frame period: no slot starts at or after it */
  guint n_packets;
  guint burst_size;       /* b */
  guint n_slots;          /* k */
  gdouble slot_jitter;    /* r of equation (3), 0 = off */

  guint64 phase;          /* all slots this much later (< Δt;
                           * rtpburstgroup.h) */

  /* progress */
  guint next_slot;
  guint64 offset;         /* offset of the last slot returned */
} RtpBurstPlan;

typedef struct {
  guint64 due;            /* when the frame was due: max (sync, ready) */
  guint64 start;          /* first slot */
  guint64 span;           /* span to spread the frame over */
  guint64 lateness;       /* how long the previous frame held this one back */
  gboolean catch_up;      /* span was shortened */
} RtpBurstStart;

void     rtp_burst_plan_start (guint64 sync_time, guint64 ready_time,
                               guint64 now, guint64 prev_end, guint64 span,
                               RtpBurstStart * out);

void     rtp_burst_plan_init  (RtpBurstPlan * plan, guint64 start, guint64 span,
                               guint64 period, guint n_packets, guint n_slots,
                               guint burst_size, gdouble slot_jitter);

gboolean rtp_burst_plan_next  (RtpBurstPlan * plan, GRand * rand,
                               guint64 * slot_time, guint * n_packets);

guint64  rtp_burst_plan_slot_duration (const RtpBurstPlan * plan);
guint    rtp_burst_plan_used_slots    (const RtpBurstPlan * plan);
guint64  rtp_burst_plan_slot_offset   (const RtpBurstPlan * plan, guint j);
guint64  rtp_burst_plan_end   (const RtpBurstPlan * plan);
/* The time of slot 0 (before the phase), and the packets a slot. */
guint64  rtp_burst_plan_start_time (const RtpBurstPlan * plan);
guint    rtp_burst_plan_burst_size (const RtpBurstPlan * plan);
/* How much later the group moved the slots (rtpburstgroup.h). */
guint64  rtp_burst_plan_phase (const RtpBurstPlan * plan);

guint64  rtp_burst_latency    (guint64 period, gdouble duty,
                               gdouble slot_jitter);

/* --- Peak-rate cap and latency budget ---------------------------------- */

typedef enum {
  RTP_BURST_OVERLOAD_COMPRESS = 0,  /* the cap yields: shorter slots */
  RTP_BURST_OVERLOAD_DROP = 1,      /* drop whole frames not yet started */
} RtpBurstOverload;

typedef enum {
  RTP_BURST_LIMIT_SEND = 0,
  RTP_BURST_LIMIT_DROP,
} RtpBurstLimitDecision;

typedef struct {
  guint64 max_rate;       /* bit/s, 0 = no cap */
  guint64 budget;         /* ns a packet may wait after its frame is due */
  RtpBurstOverload overload;
} RtpBurstLimits;

typedef struct {
  gboolean spread;        /* the cap made the span longer than duty * ΔT */
  gboolean compressed;    /* the budget made it shorter than the cap wants */
  guint64 backlog;        /* how long after it was due the last slot is */
} RtpBurstLimitResult;

guint64  rtp_burst_rate_span  (guint64 bytes, guint64 max_rate);

RtpBurstLimitDecision rtp_burst_apply_limits (const RtpBurstLimits * limits,
                                              guint64 bytes, guint n_slots,
                                              RtpBurstStart * start,
                                              RtpBurstLimitResult * result);

#define RTP_BURST_RATE_WINDOW 64

/* The stream's mean bit rate over its last RTP_BURST_RATE_WINDOW frames. */
typedef struct {
  guint64 bytes[RTP_BURST_RATE_WINDOW];
  guint n, pos;
  guint64 sum;
} RtpBurstRateMeter;

void     rtp_burst_rate_meter_init  (RtpBurstRateMeter * meter);
void     rtp_burst_rate_meter_add   (RtpBurstRateMeter * meter, guint64 bytes);
guint64  rtp_burst_rate_meter_get   (const RtpBurstRateMeter * meter,
                                     guint64 period);

/* --- High packet rates: a minimum slot duration ------------------------- */

guint    rtp_burst_coarsen    (guint n_packets, guint64 span, guint64 min_slot,
                               guint * n_slots, guint burst_size);

#define RTP_BURST_WAKEUP_WINDOW 64
/* bounds and start value of the automatic minimum slot duration: 50 µs,
 * 1 ms and 100 µs */
#define RTP_BURST_AUTO_MIN_SLOT_FLOOR   (G_GUINT64_CONSTANT (50000))
#define RTP_BURST_AUTO_MIN_SLOT_CEILING (G_GUINT64_CONSTANT (1000000))
#define RTP_BURST_AUTO_MIN_SLOT_INITIAL (G_GUINT64_CONSTANT (100000))

typedef struct {
  guint64 ring[RTP_BURST_WAKEUP_WINDOW];
  guint pos;
  guint64 auto_min_slot;
} RtpBurstWakeupTracker;

void     rtp_burst_wakeup_tracker_init (RtpBurstWakeupTracker * tracker);
/* The automatic minimum slot duration, ns. */
guint64  rtp_burst_wakeup_tracker_min_slot
                                       (const RtpBurstWakeupTracker * tracker);
void     rtp_burst_wakeup_tracker_add  (RtpBurstWakeupTracker * tracker,
                                        guint64 lateness);

G_END_DECLS

#endif /* __RTP_BURST_SCHEDULE_H__ */
