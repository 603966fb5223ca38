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
 * One paced stream: its queue of frames and events (rtpburstframes.h), the
 * frame period, each frame's plan, the repair packets (rtpburstrepair.h),
 * its place in a group and on the group's rate (rtpburstgroup.h,
 * rtpburstbooking.h), its counters — and one call, rtp_burst_stream_next (),
 * that says what to do next:
 *
 *   PUSH        n packets of the head frame (their slot is due)
 *   REPAIR      the repair packet at the head of its queue
 *   EVENT       the event at the head
 *   DROPPED     a frame was dropped (the rate cap's budget): report it
 *   WAIT_UNTIL  nothing before a time: a slot, a repair packet's turn, or
 *               an open frame's timeout
 *   WAIT_DATA   nothing until the stream or the state changes
 *
 * It never waits and never signals: the caller (the element) holds its own
 * lock around every call, waits as asked, and wakes its waiters as the
 * RtpBurstStreamWake flags of the input calls say.  Packets and events are
 * opaque pointers freed with the functions given at creation; times are
 * running times in ns, RTP_BURST_TIME_NONE when unknown.  GLib only, like
 * the units it composes.  rtpburststream.c has the input, the stream's
 * life and its stats; rtpburststreamnext.c what leaves next.
 */

#ifndef __RTP_BURST_STREAM_H__
#define __RTP_BURST_STREAM_H__

#include <glib.h>

#include "rtpburstframes.h"
#include "rtpburstschedule.h"
#include "rtpburstsinkhold.h"
#include "rtpburstmeter.h"

G_BEGIN_DECLS

/* At most this many complete frames are queued; then a new frame waits. */
#define RTP_BURST_STREAM_MAX_FRAMES 8
/* ... plus those that wait for a synchronising sink's latency, up to this */
#define RTP_BURST_STREAM_MAX_LATENCY_FRAMES 256
/* A frame that grows to this many packets is closed and paced as it is. */
#define RTP_BURST_STREAM_MAX_FRAME_PACKETS RTP_BURST_FRAMES_MAX_PACKETS
/* Frames passed unpaced before a missing frame period is reported. */
#define RTP_BURST_STREAM_PERIOD_WARN_FRAMES 50

/* The element's properties that shape the schedule.  The stream reads them
 * at every decision; the caller changes them under its lock. */
typedef struct
{
  guint burst_size;
  gdouble duty;
  gdouble slot_jitter;
  guint seed;                   /* 0: a random seed */
  guint64 frame_period;         /* 0: derived */
  guint payload_size;           /* 0: the largest payload seen */
  guint64 min_slot_duration;    /* 0: automatic */
  gboolean sync_upstream_latency;
  guint64 max_rate;
  gdouble max_rate_factor;
  guint64 max_latency;          /* property max-delay */
  RtpBurstOverload overload;
  gboolean auto_margin;
  gboolean pace_repair;         /* property pace-other-payloads */
  gboolean pace;                /* FALSE: packets leave as they come */
  guint64 group_max_rate;       /* the group's aggregate, bit/s; 0: none */
  guint priority;               /* property group-priority: on the group's
                                 * rate (rtpburstgroup.h) */
  guint64 cc_rate;              /* a congestion controller's rate, bit/s,
                                 * capping with max_rate; 0: none */
  guint64 release_ahead;        /* slots handed over this long before their
                                 * time (rtpburstahead.h); 0: at it */
  gboolean cc_on;               /* a congestion controller reads the send
                                 * times: release_ahead is not applied */
} RtpBurstStreamConfig;

typedef struct _RtpBurstStream RtpBurstStream;

RtpBurstStream *rtp_burst_stream_new  (const RtpBurstStreamConfig * config,
                                       GDestroyNotify free_packet,
                                       RtpBurstPacketSize packet_size,
                                       GDestroyNotify free_event);
void     rtp_burst_stream_free        (RtpBurstStream * s);

/* READY to PAUSED: counters, meters and the sink's latency start afresh,
 * and the stream joins @group (NULL or "": none). */
void     rtp_burst_stream_start       (RtpBurstStream * s, const gchar * group);
/* PAUSED to READY: everything still queued is flushed (events freed: flush
 * first to keep them), the period and caps are forgotten, the group
 * left. */
void     rtp_burst_stream_stop        (RtpBurstStream * s);
void     rtp_burst_stream_leave_group (RtpBurstStream * s);
/* The seed, or the frame-period or group-max-rate of the config, changed
 * (config_changed: both of the next two). */
void     rtp_burst_stream_reseed      (RtpBurstStream * s);
void     rtp_burst_stream_config_changed (RtpBurstStream * s);
/* The frame period of the config changed; the group is not touched. */
void     rtp_burst_stream_period_changed (RtpBurstStream * s);
/* Sets @max_rate as the stream's cap on its group's rate: takes the
 * group's lock.  Call without the lock the pacing thread takes, with the
 * membership (start, stop, leave_group) held still. */
void     rtp_burst_stream_set_group_max_rate (RtpBurstStream * s,
                                       guint64 max_rate);

/* --- Input (the streaming thread) ----------------------------------------- */

/* Whom the caller wakes after an input call. */
typedef enum
{
  RTP_BURST_STREAM_WAKE_NONE = 0,
  RTP_BURST_STREAM_WAKE_DATA = 1 << 0,  /* a task waiting for data */
  RTP_BURST_STREAM_WAKE_CLOSED = 1 << 1,        /* ... for an open frame's
                                                 * timeout: it is closed */
  RTP_BURST_STREAM_WAKE_CLOCK = 1 << 2, /* a task in any clock wait: a
                                         * repair packet may go first */
} RtpBurstStreamWake;

/* One RTP packet of the media, as parsed by the caller. */
typedef struct
{
  gpointer data;                /* owned by the stream once added */
  guint size;                   /* the whole packet, bytes */
  guint payload_len;
  guint32 rtptime;
  gboolean marker;
  guint64 sync_time;            /* running time of its DTS, else PTS */
  guint64 arrival;              /* running time it came */
} RtpBurstPacketIn;

/* Caps: the frame period of a-framerate (0: none), the clock-rate (0:
 * none), the media's payload type (-1: none; other types are repair). */
void     rtp_burst_stream_set_caps    (RtpBurstStream * s, guint64 caps_period,
                                       gint clock_rate, gint media_pt);
gboolean rtp_burst_stream_is_repair   (const RtpBurstStream * s, guint pt);
/* Whether the packet can be added now.  A packet that begins a new frame
 * closes the open one first; FALSE if it needs room for a new frame and
 * there is none (wait until rtp_burst_stream_has_room ()).  Every packet
 * is admitted before it is added, with nothing added in between: the
 * frame it belongs to is decided here. */
gboolean rtp_burst_stream_admit       (RtpBurstStream * s, guint32 rtptime,
                                       gboolean marker, guint64 now,
                                       RtpBurstStreamWake * wake);
gboolean rtp_burst_stream_has_room    (const RtpBurstStream * s);
RtpBurstStreamWake rtp_burst_stream_add_packet (RtpBurstStream * s,
                                       const RtpBurstPacketIn * in);
RtpBurstStreamWake rtp_burst_stream_add_repair (RtpBurstStream * s,
                                       gpointer data, guint size,
                                       guint64 arrival);
/* A serialized event: completes the open frame, then is queued; repair
 * packets that come after it wait for it only if it is a @barrier
 * (rtp_burst_frames_add_event ()). */
RtpBurstStreamWake rtp_burst_stream_add_event  (RtpBurstStream * s,
                                       gpointer event, gboolean barrier,
                                       guint64 now);
/* Completes the open frame (a serialized query). */
RtpBurstStreamWake rtp_burst_stream_close_open (RtpBurstStream * s,
                                       guint64 now);
/* Nothing queued (frames and events; repair packets aside). */
gboolean rtp_burst_stream_is_empty    (const RtpBurstStream * s);
/* Drops everything queued, counted in flushed-packets; each queued event is
 * handed to @keep_event (which takes it) or else freed. */
void     rtp_burst_stream_flush       (RtpBurstStream * s,
                                       GFunc keep_event, gpointer user_data);

/* @n packets the caller refused while flushing: counted as flushed. */
void     rtp_burst_stream_refused     (RtpBurstStream * s, guint n);

/* Latency: of upstream (the LATENCY query's minimum), and what a
 * synchronising sink downstream adds (rtpburstsinkhold.h). */
void     rtp_burst_stream_set_upstream_latency (RtpBurstStream * s,
                                       guint64 latency);
void     rtp_burst_stream_set_sink_latency (RtpBurstStream * s,
                                       RtpBurstHoldSource source,
                                       guint64 latency);
/* How long the queue can hold: RTP_BURST_STREAM_MAX_FRAMES periods. */
guint64  rtp_burst_stream_room        (const RtpBurstStream * s);

/* --- What to do next (the pacing thread) ---------------------------------- */

typedef struct
{
  guint64 now;                  /* running time, NONE without a clock */
  gboolean playing;             /* packets leave only in PLAYING */
  gconstpointer clock;          /* the pipeline clock, compared only */
  guint64 base_time;            /* ... and the base time: a group places
                                 * in clock time (rtpburstgroup.h) */
} RtpBurstStreamNow;

typedef enum
{
  RTP_BURST_NEXT_WAIT_DATA = 0,
  RTP_BURST_NEXT_WAIT_UNTIL,
  RTP_BURST_NEXT_EVENT,
  RTP_BURST_NEXT_PUSH,
  RTP_BURST_NEXT_REPAIR,
  RTP_BURST_NEXT_DROPPED,
} RtpBurstNextKind;

/* Why: what the caller logs beside the kind. */
typedef enum
{
  RTP_BURST_WHY_NONE = 0,
  RTP_BURST_WHY_EMPTY,          /* WAIT_DATA: nothing queued */
  RTP_BURST_WHY_NOT_PLAYING,    /* WAIT_DATA: packets leave in PLAYING */
  RTP_BURST_WHY_REPAIR_FIRST,   /* WAIT_DATA: the repair packets queued
                                 * before the event leave first, in PLAYING */
  RTP_BURST_WHY_OPEN_FRAME,     /* WAIT_DATA, WAIT_UNTIL: the head frame is
                                 * open (until one period after its latest
                                 * packet, then it is closed) */
  RTP_BURST_WHY_SLOT,           /* WAIT_UNTIL, PUSH: the head frame's slot */
  RTP_BURST_WHY_GROUP_RATE,     /* WAIT_UNTIL: the group's rate has no room
                                 * for the push before then */
  RTP_BURST_WHY_GROUP_CLAIM,    /* WAIT_UNTIL: a push that left before it on
                                 * the group's rate holds the link */
  RTP_BURST_WHY_REPAIR_TURN,    /* WAIT_UNTIL, REPAIR: a repair packet's
                                 * turn between the media's slots */
  RTP_BURST_WHY_REPAIR_BOUND,   /* REPAIR: it waited as long as it may */
  RTP_BURST_WHY_UNPACED,        /* PUSH: packets leave as they come */
  RTP_BURST_WHY_BUDGET,         /* DROPPED: over the rate cap's budget */
  RTP_BURST_WHY_EVENT,          /* EVENT */
} RtpBurstWhy;

const gchar *rtp_burst_why_name (RtpBurstWhy why);

/* A frame the call started, for the log. */
typedef struct
{
  guint32 rtptime;
  guint n_packets;
  gboolean unpaced;             /* leaves as it comes; nothing below */
  guint n_slots, burst_size;
  guint64 first_slot;           /* running time, the group's phase included */
  guint64 slot_duration;        /* Δt */
  guint64 span;                 /* what its slots spread over */
  gboolean catch_up;            /* the span was shortened to catch up */
  gboolean spread, compressed;  /* the rate cap moved or packed its slots */
  gint group;                   /* RtpBurstGroupResult of its placement */
  guint64 phase;                /* ... the phase it was given */
  guint64 probe_rate;           /* a probe at this rate, bit/s (0 = not;
                                 * rtp_burst_stream_probe_next_frame ()) */
} RtpBurstStarted;

typedef struct
{
  RtpBurstNextKind kind;
  RtpBurstWhy why;
  /* WAIT_UNTIL: until when; PUSH: the slot (NONE: unpaced), or when the
   * group's rate lets it leave if that is later; REPAIR: its due time */
  guint64 time;
  /* PUSH, REPAIR: the running time for the packets' DTS (the slot minus
   * what a synchronising sink adds); NONE: leave their DTS */
  guint64 dts;
  guint n_packets;              /* PUSH */
  gboolean for_close;           /* WAIT_UNTIL: an open frame's timeout */
  gboolean for_slot;            /* WAIT_UNTIL: a media slot, waited for
                                 * even when due (rtp_burst_stream_woke) */
  gpointer event;               /* EVENT: the event, still queued */
  guint32 rtptime;              /* PUSH: of the frame */
  gboolean started;             /* a frame was started (any kind): */
  RtpBurstStarted start;
} RtpBurstNext;

void     rtp_burst_stream_next        (RtpBurstStream * s,
                                       const RtpBurstStreamNow * now,
                                       RtpBurstNext * next);
/* A wait for a slot (WAIT_UNTIL, for_slot) ended, @lateness after the
 * slot (not cut short: then the slot is waited for again).  The slot is
 * pushed next.  @counted: the caller did wait (the slot was not already
 * due); the automatic minimum slot duration follows such wake-ups
 * (rtp_burst_wakeup_tracker_add). */
void     rtp_burst_stream_woke        (RtpBurstStream * s, guint64 lateness,
                                       gboolean counted);

/* EVENT: takes the event off the queue. */
gpointer rtp_burst_stream_pop_event   (RtpBurstStream * s);
/* PUSH: takes next->n_packets packets into @packets and counts them as
 * released; returns their bytes.  Then rtp_burst_stream_push_done (). */
guint64  rtp_burst_stream_take_packets (RtpBurstStream * s,
                                       const RtpBurstNext * next,
                                       gpointer * packets);
/* REPAIR: takes the repair packet; *size its bytes.  Then
 * rtp_burst_stream_push_done (). */
gpointer rtp_burst_stream_take_repair (RtpBurstStream * s,
                                       const RtpBurstNext * next,
                                       guint64 now, guint * size);
/* The push of the packets taken returned at @end (NONE: not known; a
 * paced push's end says whether a synchronising sink held it, any push's
 * when the task was free again);
 * @refused: a flush refused them (they are counted as flushed). */
void     rtp_burst_stream_push_done   (RtpBurstStream * s, guint64 end,
                                       gboolean refused);

/* The next paced frame to start leaves at @rate bit/s, to probe the path
 * (rtpburstprobe.h): its slots within bytes x 8 / @rate when that is
 * shorter than their span (duty x the period, the margin), a rate cap
 * below @rate raised to it for that frame; never slower than without the
 * probe.  One frame, of at least RTP_BURST_PROBE_MIN_PACKETS packets and
 * of bytes for RTP_BURST_PROBE_MIN_DURATION at @rate: smaller ones leave
 * it to the next; 0 cancels. */
void     rtp_burst_stream_probe_next_frame (RtpBurstStream * s,
                                       guint64 rate);
/* The packets taken last (rtp_burst_stream_take_packets ()): their
 * frame's probe rate (0 = not a probe), and in @frame_last whether they
 * ended it. */
guint64  rtp_burst_stream_taken_probe (const RtpBurstStream * s,
                                       gboolean * frame_last);

/* --- Notices and stats ---------------------------------------------------- */

typedef struct
{
  guint32 rtptime;
  guint packets;
  guint64 bytes;
  guint64 backlog;              /* its last slot after it was due, ns */
  guint64 max_latency;          /* the max-delay in force */
  guint64 dropped_frames;       /* so far */
} RtpBurstDrop;

typedef struct
{
  gboolean period_unknown;      /* frames pass unpaced: no period */
  gboolean other_clock;         /* the group runs on another clock */
  gboolean dropped;             /* drop: the last frame dropped */
  RtpBurstDrop drop;
  guint ahead_off;              /* release_ahead was not applied, first
                                 * time for these RtpBurstAheadOff reasons */
} RtpBurstStreamNotices;

/* What to report since the last call, once each; a dropped frame counts as
 * a key unit request. */
void     rtp_burst_stream_take_notices (RtpBurstStream * s,
                                       RtpBurstStreamNotices * out);

typedef struct
{
  guint64 frames, packets, bytes, slots;
  guint64 period;
  RtpBurstPeriodSource period_source;
  guint payload_size;
  guint64 slot_duration;
  guint burst_size;
  guint64 min_slot_duration;
  guint64 unpaced_frames, catch_up_frames, timeout_frames;
  guint64 unpaced_pushes;       /* pushes of packets that left as they came */
  guint64 unpaced_late_pushes;  /* ... more than 1 ms after the oldest came
                                 * (or after the previous push returned) */
  guint64 unpaced_max_delay;    /* ... the longest, ns */
  guint64 late_slots, max_lateness;
  guint64 flushed_packets;
  guint queued_packets, queued_frames;
  guint64 max_rate, mean_rate;
  guint64 spread_frames, compressed_frames, max_backlog;
  guint64 dropped_frames, dropped_packets, key_unit_requests;
  guint64 sink_latency, held_slots;
  guint64 margin, margin_frames;
  guint group_members;
  guint64 group_frames, group_shared_slots, group_phase, group_gap;
  guint64 group_busy, group_other_clock;
  guint64 group_max_rate;       /* in force in the group, 0: none */
  guint64 group_rate_waits;     /* pushes that waited for the group's rate */
  guint64 group_rate_max_delay; /* ... the longest such wait, ns */
  guint64 repair_packets, repair_bytes, repair_overruns, repair_max_delay;
  guint repair_queued;
  RtpBurstMeterReport meter;
} RtpBurstStreamStats;

void     rtp_burst_stream_get_stats   (const RtpBurstStream * s,
                                       RtpBurstStreamStats * out);
/* The frame period in use (0: unknown). */
guint64  rtp_burst_stream_period      (const RtpBurstStream * s);

G_END_DECLS

#endif /* __RTP_BURST_STREAM_H__ */
