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

#include "rtpburststream.h"
#include "rtpburstgroup.h"
#include "rtpburstmargin.h"
#include "rtpburstrepair.h"

#include <string.h>

/* An entry of the queue: an event, or a frame of packets. */
typedef struct
{
  gpointer event;               /* non-NULL for an event */

  /* a frame */
  GQueue packets;               /* oldest first */
  guint n_packets;              /* packets added to the frame */
  guint64 payload_bytes;
  guint64 bytes;                /* whole RTP packets */
  guint32 rtptime;
  guint64 ts_time;              /* running time of its first packet's
                                 * DTS (else PTS) */
  guint64 first_arrival;
  guint64 last_arrival;
  guint64 ready_time;           /* it was closed */
  gboolean closed;

  /* fixed when the frame is closed */
  guint64 period;               /* 0 = unknown: released unpaced */
  guint n_slots;
  guint burst_size;
  gdouble duty;
  gdouble slot_jitter;

  /* set when it starts */
  gboolean started;
  gboolean unpaced;
  guint64 sink_offset;          /* R: a paced packet's DTS is its slot - R */
  guint64 serial;               /* frames of a stream, counted from 1 */
  guint released_slots;
  guint64 on_time;              /* offset of its last slot released on time */
  RtpBurstPlan plan;
  gboolean have_slot;
  guint64 slot_time;            /* the pending slot */
  guint slot_packets;
  gboolean slot_reached;        /* the caller waited for it */
  guint64 slot_lateness;        /* ... and woke this late */
  guint64 unsent_arrival;       /* unpaced: the oldest packet not taken */
  gboolean rate_booked;         /* its bytes are booked on the group's rate */
  gboolean rate_waited;         /* ... later than now: it waits for */
  guint64 rate_release;         /* ... then */
} Item;

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
  /* booked on the group's rate: when it returns, the link is taken from
   * then (rtp_burst_group_member_occupy ()) */
  gboolean on_rate;
  guint rate_class;
  gconstpointer clock;
  guint64 base_time;
} Push;

struct _RtpBurstStream
{
  const RtpBurstStreamConfig *config;
  GDestroyNotify free_packet, free_event;
  RtpBurstPacketSize packet_size;

  GQueue items;                 /* Item *, oldest first */
  Item *open;                   /* the newest frame while it is not closed */
  guint n_closed;               /* closed frames in items */
  guint n_queued_packets;
  guint64 n_frames_in;          /* frames queued, for Item.serial */

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

  /* repair packets: another payload type than the caps' */
  gint media_pt;                /* -1 = none */
  RtpBurstRepair repair;
  guint64 last_media_slot;      /* due time of the last media push */
  guint last_media_bytes;       /* ... and its size */
  guint64 events_in, events_out;        /* a repair packet leaves after the
                                         * events queued before it */

  Push push;
  gboolean repair_booked;       /* the head repair packet, on the group's
                                 * rate */
  gboolean repair_waited;       /* ... the link was busy past now: it
                                 * waits for the release */
  guint64 repair_release;

  /* notices */
  gboolean period_warned, notice_period;
  gboolean group_clock_warned, notice_other_clock;
  gboolean notice_dropped;
  RtpBurstDrop drop;

  /* counters, and the rest of the stats filled in when asked */
  RtpBurstStreamStats st;
  guint64 unpaced_since_period;
};

static void
item_free (RtpBurstStream * s, Item * item)
{
  if (item->event)
    s->free_event (item->event);
  g_queue_clear_full (&item->packets, s->free_packet);
  g_slice_free (Item, item);
}

static void
reset_counters (RtpBurstStream * s)
{
  memset (&s->st, 0, sizeof (s->st));
  s->unpaced_since_period = 0;
  rtp_burst_repair_reset_stats (&s->repair);
}

RtpBurstStream *
rtp_burst_stream_new (const RtpBurstStreamConfig * config,
    GDestroyNotify free_packet, RtpBurstPacketSize packet_size,
    GDestroyNotify free_event)
{
  RtpBurstStream *s = g_new0 (RtpBurstStream, 1);

  s->config = config;
  s->free_packet = free_packet;
  s->packet_size = packet_size;
  s->free_event = free_event;
  g_queue_init (&s->items);
  rtp_burst_period_estimator_init (&s->est);
  rtp_burst_wakeup_tracker_init (&s->wakeups);
  rtp_burst_rate_meter_init (&s->rate_meter);
  s->rand = g_rand_new ();
  s->prev_end = RTP_BURST_TIME_NONE;
  rtp_burst_sink_hold_init (&s->sink_hold);
  s->last_push_end = s->prev_push_end = RTP_BURST_TIME_NONE;
  rtp_burst_meter_init (&s->meter);
  rtp_burst_margin_init (&s->margin);
  rtp_burst_group_member_init (&s->group);
  s->media_pt = -1;
  rtp_burst_repair_init (&s->repair, free_packet);
  s->last_media_slot = RTP_BURST_TIME_NONE;
  rtp_burst_stream_reseed (s);
  return s;
}

void
rtp_burst_stream_free (RtpBurstStream * s)
{
  Item *item;

  while ((item = g_queue_pop_head (&s->items)))
    item_free (s, item);
  rtp_burst_repair_flush (&s->repair);
  rtp_burst_group_member_leave (&s->group);
  g_rand_free (s->rand);
  g_free (s);
}

void
rtp_burst_stream_reseed (RtpBurstStream * s)
{
  g_rand_set_seed (s->rand, s->config->seed != 0 ? s->config->seed :
      g_random_int ());
}

static void
update_period (RtpBurstStream * s)
{
  s->period = rtp_burst_period_estimator_get (&s->est,
      s->config->frame_period, &s->period_source);
}

void
rtp_burst_stream_config_changed (RtpBurstStream * s)
{
  update_period (s);
  rtp_burst_group_member_set_max_rate (&s->group, s->config->group_max_rate);
}

void
rtp_burst_stream_start (RtpBurstStream * s, const gchar * group)
{
  reset_counters (s);
  rtp_burst_stream_reseed (s);
  rtp_burst_sink_hold_init (&s->sink_hold);
  s->last_push_end = s->prev_push_end = RTP_BURST_TIME_NONE;
  s->held_serial = 0;
  rtp_burst_meter_init (&s->meter);
  rtp_burst_margin_init (&s->margin);
  rtp_burst_group_member_join (&s->group, group);
  rtp_burst_group_member_set_max_rate (&s->group, s->config->group_max_rate);
  s->group_clock_warned = FALSE;
  rtp_burst_wakeup_tracker_init (&s->wakeups);
  rtp_burst_rate_meter_init (&s->rate_meter);
  s->prev_end = RTP_BURST_TIME_NONE;
  s->period_warned = FALSE;
  /* a frame-period property is in force before any caps */
  update_period (s);
}

void
rtp_burst_stream_stop (RtpBurstStream * s)
{
  rtp_burst_stream_flush (s, NULL, NULL);
  s->media_pt = -1;
  rtp_burst_period_estimator_init (&s->est);
  s->period = 0;
  s->period_source = RTP_BURST_PERIOD_UNKNOWN;
  s->max_payload = 0;
  s->upstream_latency = 0;
  rtp_burst_group_member_leave (&s->group);
}

void
rtp_burst_stream_leave_group (RtpBurstStream * s)
{
  rtp_burst_group_member_leave (&s->group);
}

/* --- input ---------------------------------------------------------------- */

void
rtp_burst_stream_set_caps (RtpBurstStream * s, guint64 caps_period,
    gint clock_rate, gint media_pt)
{
  s->media_pt = media_pt;
  /* new caps: estimate the period afresh */
  rtp_burst_period_estimator_reset_history (&s->est);
  rtp_burst_period_estimator_set_caps (&s->est, caps_period, clock_rate);
  update_period (s);
}

gboolean
rtp_burst_stream_is_repair (const RtpBurstStream * s, guint pt)
{
  return s->media_pt >= 0 && (gint) pt != s->media_pt;
}

static guint64
min_slot (const RtpBurstStream * s)
{
  if (s->config->min_slot_duration)
    return s->config->min_slot_duration;
  return s->wakeups.auto_min_slot;
}

static RtpBurstStreamWake
close_open_frame (RtpBurstStream * s, guint64 now)
{
  const RtpBurstStreamConfig *c = s->config;
  Item *frame = s->open;
  guint p;

  if (frame == NULL)
    return RTP_BURST_STREAM_WAKE_NONE;

  s->open = NULL;
  frame->closed = TRUE;
  frame->ready_time = now;
  s->n_closed++;

  rtp_burst_period_estimator_add_frame (&s->est, frame->rtptime,
      frame->first_arrival);
  update_period (s);
  rtp_burst_rate_meter_add (&s->rate_meter, frame->bytes);

  p = c->payload_size ? c->payload_size : s->max_payload;
  frame->period = s->period;
  frame->burst_size = c->burst_size;
  frame->duty = c->duty;
  frame->slot_jitter = c->slot_jitter;
  frame->n_slots = rtp_burst_slot_count (frame->payload_bytes,
      frame->n_packets, p, frame->burst_size);
  frame->burst_size = rtp_burst_coarsen (frame->n_packets,
      rtp_burst_span (frame->period, frame->duty), min_slot (s),
      &frame->n_slots, frame->burst_size);
  return RTP_BURST_STREAM_WAKE_CLOSED | RTP_BURST_STREAM_WAKE_DATA;
}

/* RTP_BURST_STREAM_MAX_FRAMES beyond the frames that wait for a
 * synchronising sink's latency (rtpburstsinkhold.h). */
static guint
max_queued_frames (const RtpBurstStream * s)
{
  guint64 waiting = 0;

  if (s->period > 0)
    waiting = (s->sink_hold.offset + s->period - 1) / s->period;
  return RTP_BURST_STREAM_MAX_FRAMES +
      (guint) MIN (waiting, RTP_BURST_STREAM_MAX_LATENCY_FRAMES);
}

gboolean
rtp_burst_stream_has_room (const RtpBurstStream * s)
{
  return s->n_closed < max_queued_frames (s);
}

gboolean
rtp_burst_stream_admit (RtpBurstStream * s, guint32 rtptime,
    gboolean marker, guint64 now, RtpBurstStreamWake * wake)
{
  RtpBurstPacketAction action = rtp_burst_classify_packet (s->open != NULL,
      s->open ? s->open->rtptime : 0, rtptime, marker);

  *wake = RTP_BURST_STREAM_WAKE_NONE;
  if (action & RTP_BURST_PACKET_CLOSE_BEFORE)
    *wake = close_open_frame (s, now);
  return s->open != NULL || rtp_burst_stream_has_room (s);
}

RtpBurstStreamWake
rtp_burst_stream_add_packet (RtpBurstStream * s, const RtpBurstPacketIn * in)
{
  RtpBurstStreamWake wake = RTP_BURST_STREAM_WAKE_NONE;
  RtpBurstPacketAction action = rtp_burst_classify_packet (s->open != NULL,
      s->open ? s->open->rtptime : 0, in->rtptime, in->marker);
  Item *frame;

  if (action & RTP_BURST_PACKET_CLOSE_BEFORE)
    wake = close_open_frame (s, in->arrival);
  if (s->open == NULL) {
    frame = g_slice_new0 (Item);
    frame->rtptime = in->rtptime;
    frame->ts_time = in->sync_time;
    frame->first_arrival = in->arrival;
    frame->serial = ++s->n_frames_in;
    /* until ΔT is known a frame leaves as it comes: its packets cannot wait
     * for the rest of a frame whose period nobody knows */
    frame->unpaced = s->period == 0 || !s->config->pace;
    g_queue_push_tail (&s->items, frame);
    s->open = frame;
  }

  frame = s->open;
  frame->last_arrival = in->arrival;
  if (g_queue_is_empty (&frame->packets))
    frame->unsent_arrival = in->arrival;
  g_queue_push_tail (&frame->packets, in->data);
  frame->n_packets++;
  frame->payload_bytes += in->payload_len;
  frame->bytes += in->size;
  s->n_queued_packets++;
  s->max_payload = MAX (s->max_payload, in->payload_len);

  if ((action & RTP_BURST_PACKET_CLOSE_AFTER) ||
      frame->n_packets >= RTP_BURST_STREAM_MAX_FRAME_PACKETS)
    wake |= close_open_frame (s, in->arrival);
  return wake | RTP_BURST_STREAM_WAKE_DATA;
}

RtpBurstStreamWake
rtp_burst_stream_add_repair (RtpBurstStream * s, gpointer data, guint size,
    guint64 arrival)
{
  rtp_burst_repair_push (&s->repair, data, size, arrival, s->events_in);
  /* the first one may leave before the media's next slot */
  if (rtp_burst_repair_queued (&s->repair) == 1)
    return RTP_BURST_STREAM_WAKE_DATA | RTP_BURST_STREAM_WAKE_CLOCK;
  return RTP_BURST_STREAM_WAKE_NONE;
}

RtpBurstStreamWake
rtp_burst_stream_add_event (RtpBurstStream * s, gpointer event, guint64 now)
{
  Item *item;

  close_open_frame (s, now);
  item = g_slice_new0 (Item);
  item->event = event;
  g_queue_push_tail (&s->items, item);
  s->events_in++;
  return RTP_BURST_STREAM_WAKE_DATA | RTP_BURST_STREAM_WAKE_CLOSED;
}

RtpBurstStreamWake
rtp_burst_stream_close_open (RtpBurstStream * s, guint64 now)
{
  return close_open_frame (s, now);
}

gboolean
rtp_burst_stream_is_empty (const RtpBurstStream * s)
{
  return s->items.length == 0;
}

void
rtp_burst_stream_flush (RtpBurstStream * s, GFunc keep_event,
    gpointer user_data)
{
  Item *item;

  while ((item = g_queue_pop_head (&s->items))) {
    if (item->event) {
      if (keep_event)
        keep_event (g_steal_pointer (&item->event), user_data);
    } else {
      s->st.flushed_packets += g_queue_get_length (&item->packets);
    }
    item_free (s, item);
  }
  s->st.flushed_packets += rtp_burst_repair_flush (&s->repair);
  s->last_media_slot = RTP_BURST_TIME_NONE;
  s->last_media_bytes = 0;
  s->events_out = s->events_in;
  s->open = NULL;
  s->n_closed = 0;
  s->n_queued_packets = 0;
  s->prev_end = RTP_BURST_TIME_NONE;
  s->repair_booked = FALSE;
  rtp_burst_group_member_forget (&s->group);
}

void
rtp_burst_stream_refused (RtpBurstStream * s, guint n)
{
  s->st.flushed_packets += n;
}

void
rtp_burst_stream_set_upstream_latency (RtpBurstStream * s, guint64 latency)
{
  s->upstream_latency = latency;
}

void
rtp_burst_stream_set_sink_latency (RtpBurstStream * s,
    RtpBurstHoldSource source, guint64 latency)
{
  rtp_burst_sink_hold_set_latency (&s->sink_hold, source, latency);
}

guint64
rtp_burst_stream_room (const RtpBurstStream * s)
{
  return RTP_BURST_STREAM_MAX_FRAMES * s->period;
}

guint64
rtp_burst_stream_period (const RtpBurstStream * s)
{
  return s->period;
}

/* --- starting a frame ------------------------------------------------------ */

static gboolean
rate_cap_enabled (const RtpBurstStream * s)
{
  return s->config->max_rate > 0 || s->config->max_rate_factor > 0.0;
}

/* The peak-rate cap in use now, bit/s; 0 = none (yet). */
static guint64
max_rate (const RtpBurstStream * s)
{
  if (s->config->max_rate > 0)
    return s->config->max_rate;
  if (s->config->max_rate_factor > 0.0)
    return (guint64) (s->config->max_rate_factor *
        (gdouble) rtp_burst_rate_meter_get (&s->rate_meter, s->period));
  return 0;
}

/* Removes the frame at the head once all its packets have left. */
static void
finish_frame (RtpBurstStream * s, Item * frame)
{
  if (!frame->closed || !g_queue_is_empty (&frame->packets))
    return;
  g_queue_pop_head (&s->items);
  s->n_closed--;
  s->st.frames++;
  if (!frame->unpaced)
    s->prev_end = rtp_burst_plan_end (&frame->plan);
  item_free (s, frame);
}

static guint64
sync_time (const RtpBurstStream * s, const Item * frame)
{
  if (frame->ts_time == RTP_BURST_TIME_NONE)
    return RTP_BURST_TIME_NONE;
  /* a synchronising sink releases it no earlier than the offset */
  return rtp_burst_time_add (frame->ts_time, MAX (frame->sink_offset,
          s->config->sync_upstream_latency ? s->upstream_latency : 0));
}

static void
start_unpaced (RtpBurstStream * s, Item * frame)
{
  frame->started = TRUE;
  frame->unpaced = TRUE;
  s->st.unpaced_frames++;
  /* pace=false needs no period: nothing to warn about */
  if (s->period == 0 && s->config->pace &&
      ++s->unpaced_since_period >= RTP_BURST_STREAM_PERIOD_WARN_FRAMES &&
      !s->period_warned) {
    s->period_warned = TRUE;
    s->notice_period = TRUE;
  }
}

/* Removes the frame at the head, not started, with all its packets. */
static void
drop_frame (RtpBurstStream * s, Item * frame, guint64 backlog)
{
  guint n = g_queue_get_length (&frame->packets);

  s->st.dropped_frames++;
  s->st.dropped_packets += n;
  s->n_queued_packets -= n;
  s->notice_dropped = TRUE;
  s->drop.rtptime = frame->rtptime;
  s->drop.packets = n;
  s->drop.bytes = frame->bytes;
  s->drop.backlog = backlog;
  s->drop.max_latency = s->config->max_latency;
  s->drop.dropped_frames = s->st.dropped_frames;
  g_queue_pop_head (&s->items);
  s->n_closed--;
  item_free (s, frame);
}

/* Moves the frame's slots between those of the group's other members, in
 * clock time.  Never waits for the group (rtpburstgroup.h). */
static void
place_in_group (RtpBurstStream * s, Item * frame,
    const RtpBurstStreamNow * now)
{
  if (rtp_burst_group_member_place (&s->group, &frame->plan, now->clock,
          now->base_time) == RTP_BURST_GROUP_OTHER_CLOCK &&
      !s->group_clock_warned) {
    s->group_clock_warned = TRUE;
    s->notice_other_clock = TRUE;
  }
}

/* Plans the closed frame at the head.  Returns FALSE if it was dropped. */
static gboolean
start_frame (RtpBurstStream * s, Item * frame, const RtpBurstStreamNow * now)
{
  const RtpBurstStreamConfig *c = s->config;
  RtpBurstStart start;
  RtpBurstLimits limits;
  RtpBurstLimitResult limited;
  guint64 span, offset;

  if (frame->period == 0 || now->now == RTP_BURST_TIME_NONE) {
    start_unpaced (s, frame);
    return TRUE;
  }
  s->unpaced_since_period = 0;

  /* frames are due later by what a synchronising sink downstream adds;
   * the previous frame's packets leave later by as much */
  offset = s->sink_hold.offset;
  frame->sink_offset = rtp_burst_sink_hold_frame_start (&s->sink_hold);
  if (frame->sink_offset != offset && s->prev_end != RTP_BURST_TIME_NONE)
    s->prev_end = frame->sink_offset > offset ?
        rtp_burst_time_add (s->prev_end, frame->sink_offset - offset) :
        s->prev_end - MIN (s->prev_end, offset - frame->sink_offset);

  if (c->auto_margin) {
    gboolean shortened;

    /* room for the margin after the last slot, within the period */
    span = rtp_burst_margin_span (frame->period, frame->duty,
        s->margin.margin, frame->n_slots, &shortened);
    if (shortened)
      s->st.margin_frames++;
  } else {
    span = rtp_burst_span (frame->period, frame->duty);
  }
  rtp_burst_plan_start (sync_time (s, frame), frame->ready_time, now->now,
      s->prev_end, span, &start);

  limits.max_rate = max_rate (s);
  limits.budget = rate_cap_enabled (s) ? c->max_latency : 0;
  limits.overload = c->overload;
  if (rtp_burst_apply_limits (&limits, frame->bytes, frame->n_slots, &start,
          &limited) == RTP_BURST_LIMIT_DROP) {
    drop_frame (s, frame, limited.backlog);
    return FALSE;
  }
  frame->started = TRUE;
  if (limited.spread)
    s->st.spread_frames++;
  if (limited.compressed)
    s->st.compressed_frames++;
  s->st.max_backlog = MAX (s->st.max_backlog, limited.backlog);
  if (start.catch_up)
    s->st.catch_up_frames++;
  rtp_burst_plan_init (&frame->plan, start.start, start.span, frame->period,
      frame->n_packets, frame->n_slots, frame->burst_size, frame->slot_jitter);
  place_in_group (s, frame, now);
  s->st.slot_duration = rtp_burst_plan_slot_duration (&frame->plan);
  s->st.burst_size = frame->plan.burst_size;
  return TRUE;
}

/* Makes sure a started paced frame knows the time of its next slot.
 * FALSE once it has none left (it is finished). */
static gboolean
next_slot (RtpBurstStream * s, Item * item)
{
  if (!item->have_slot) {
    if (!rtp_burst_plan_next (&item->plan, s->rand, &item->slot_time,
            &item->slot_packets)) {
      finish_frame (s, item);
      return FALSE;
    }
    item->have_slot = TRUE;
  }
  return TRUE;
}

/* --- what to do next ----------------------------------------------------- */

typedef enum
{
  DECIDED,
  MEDIA,                        /* the media goes first */
  AGAIN,                        /* the head changed: look again */
} Turn;

static void
wait_until (RtpBurstNext * next, guint64 time, gboolean for_close,
    gboolean for_slot)
{
  next->kind = RTP_BURST_NEXT_WAIT_UNTIL;
  next->time = time;
  next->for_close = for_close;
  next->for_slot = for_slot;
}

/* A push waits for the group's rate until @until: counted once per push
 * (*waited), and the longest such wait. */
static void
note_rate_wait (RtpBurstStream * s, const RtpBurstStreamNow * now,
    guint64 until, gboolean * waited)
{
  if (!*waited) {
    *waited = TRUE;
    s->st.group_rate_waits++;
  }
  s->st.group_rate_max_delay = MAX (s->st.group_rate_max_delay,
      until - MIN (until, now->now));
}

/* Books @bytes on the group's rate (rtpburstgroup.h) in class @klass from
 * now: the link's time follows the clock, so a stream that is behind cannot
 * catch up faster than the rate.  TRUE with *release when booked; FALSE
 * without a rate (or a clock to book on).  *waited: the link is busy until
 * later than now (counted, if @waited is given); the push then waits for
 * it. */
static gboolean
book (RtpBurstStream * s, const RtpBurstStreamNow * now, guint64 bytes,
    guint klass, gboolean * waited, guint64 * release)
{
  if (waited)
    *waited = FALSE;
  if (now->now == RTP_BURST_TIME_NONE ||
      rtp_burst_group_member_book (&s->group, now->clock, now->base_time,
          now->now, bytes, klass, release) != RTP_BURST_GROUP_PLACED)
    return FALSE;
  if (waited && *release > now->now)
    note_rate_wait (s, now, *release, waited);
  return TRUE;
}

/* The push being decided was booked on the group's rate in @klass. */
static void
on_rate (RtpBurstStream * s, const RtpBurstStreamNow * now, guint klass)
{
  s->push.on_rate = TRUE;
  s->push.rate_class = klass;
  s->push.clock = now->clock;
  s->push.base_time = now->base_time;
}

/* Counts @bytes that leave whatever the rate says (a pass-through push, or
 * one a synchronising sink paces) in the group's rate: booked in the top
 * class, without waiting, so that every paced member makes room. */
static void
count_in_rate (RtpBurstStream * s, const RtpBurstStreamNow * now,
    guint64 bytes)
{
  guint64 release;

  if (book (s, now, bytes, RTP_BURST_GROUP_CLASS_TOP, NULL, &release)) {
    /* it leaves now: what the others claim comes after it */
    rtp_burst_group_member_occupy (&s->group, now->clock, now->base_time,
        now->now, bytes, RTP_BURST_GROUP_CLASS_TOP);
    on_rate (s, now, RTP_BURST_GROUP_CLASS_TOP);
  }
}

/* As a push booked in @klass leaves (its release come): TRUE when the link
 * is free of what left before it (rtp_burst_group_claim ()); else FALSE
 * and *until when it is, the push waiting for the group's rate that much
 * longer (counted as such). */
static gboolean
claim (RtpBurstStream * s, const RtpBurstStreamNow * now, guint64 bytes,
    guint klass, gboolean * waited, guint64 * until)
{
  if (now->now == RTP_BURST_TIME_NONE ||
      rtp_burst_group_member_claim (&s->group, now->clock, now->base_time,
          now->now, bytes, klass, until))
    return TRUE;
  note_rate_wait (s, now, *until, waited);
  return FALSE;
}

/* The bytes of the first @n packets of @item. */
static guint64
head_bytes (RtpBurstStream * s, Item * item, guint n)
{
  guint64 bytes = 0;
  GList *l;

  for (l = item->packets.head; l && n > 0; l = l->next, n--)
    bytes += s->packet_size (l->data);
  return bytes;
}

/* Whether a repair packet is queued that no queued event has to precede. */
static gboolean
repair_ready (const RtpBurstStream * s)
{
  return rtp_burst_repair_queued (&s->repair) > 0 &&
      rtp_burst_repair_head_epoch (&s->repair) <= s->events_out;
}

/* Whether the repair packet at the head of its queue leaves before the
 * media's next slot (rtpburstrepair.h), and when. */
static Turn
repair_turn (RtpBurstStream * s, Item * item, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  const RtpBurstStreamConfig *c = s->config;
  guint64 next_media = RTP_BURST_TIME_NONE;
  RtpBurstRepairMedia media;
  RtpBurstRepairTurn turn;

  if (item && !item->event) {
    /* a frame to start, or the packets of one that leaves as they come,
     * go first (an unpaced frame still open may wait for more) */
    if ((item->unpaced && !g_queue_is_empty (&item->packets)) ||
        (item->closed && !item->started))
      return MEDIA;
    if (item->started && !item->unpaced) {
      if (!next_slot (s, item))
        return AGAIN;
      next_media = item->slot_time;
    }
  }
  media.last = s->last_media_slot;
  media.last_bytes = s->last_media_bytes;
  media.next = next_media;
  /* not paced: no spacing, at once */
  media.spacing = c->pace_repair ? s->st.slot_duration : 0;
  rtp_burst_repair_next (&s->repair, &media, c->pace_repair ? max_rate (s) :
      0, s->period ? s->period : RTP_BURST_TIME_NONE, &turn);
  if (!turn.before_media)
    return MEDIA;
  if (now->now != RTP_BURST_TIME_NONE && turn.due > now->now) {
    wait_until (next, turn.due, FALSE, FALSE);
    return DECIDED;
  }
  /* its turn: then its room on the group's rate */
  if (!s->repair_booked)
    s->repair_booked = book (s, now, rtp_burst_repair_head_size (&s->repair),
        rtp_burst_group_class (c->priority, TRUE), &s->repair_waited,
        &s->repair_release);
  if (s->repair_booked && s->repair_waited) {
    if (s->repair_release > now->now) {
      wait_until (next, s->repair_release, FALSE, FALSE);
      return DECIDED;
    }
    turn.due = MAX (turn.due, s->repair_release);
  }
  /* and the link free of what left before it, as for the media */
  if (s->repair_booked && !claim (s, now,
          rtp_burst_repair_head_size (&s->repair),
          rtp_burst_group_class (c->priority, TRUE), &s->repair_waited,
          &s->repair_release)) {
    wait_until (next, s->repair_release, FALSE, FALSE);
    return DECIDED;
  }
  next->kind = RTP_BURST_NEXT_REPAIR;
  next->time = turn.due;
  if (turn.due >= s->sink_hold.offset)
    next->dts = turn.due - s->sink_hold.offset;
  s->push.overrun = turn.overrun;
  return DECIDED;
}

/* The frame at the head, not started: started unpaced, or planned (or
 * dropped) once it is closed; an open one is waited for, at most one period
 * after its latest packet, and then closed. */
static Turn
start_head_frame (RtpBurstStream * s, Item * item,
    const RtpBurstStreamNow * now, RtpBurstNext * next)
{
  guint64 deadline;

  if (item->unpaced) {
    start_unpaced (s, item);
    return MEDIA;
  }
  if (item->closed) {
    if (start_frame (s, item, now))
      return MEDIA;
    next->kind = RTP_BURST_NEXT_DROPPED;
    return DECIDED;
  }
  deadline = rtp_burst_time_add (item->last_arrival, s->period);
  if (item->last_arrival == RTP_BURST_TIME_NONE ||
      now->now == RTP_BURST_TIME_NONE) {
    next->kind = RTP_BURST_NEXT_WAIT_DATA;
  } else if (now->now < deadline) {
    wait_until (next, deadline, TRUE, FALSE);
  } else {
    /* no packet for one period */
    s->st.timeout_frames++;
    close_open_frame (s, now->now);
    return AGAIN;
  }
  return DECIDED;
}

/* A started frame: its packets as they come (unpaced), or its next slot. */
static Turn
frame_turn (RtpBurstStream * s, Item * item, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  if (item->unpaced) {
    guint n = g_queue_get_length (&item->packets);
    if (n == 0) {
      if (!item->closed) {
        next->kind = RTP_BURST_NEXT_WAIT_DATA;
        return DECIDED;
      }
      finish_frame (s, item);
      return AGAIN;
    }
    next->kind = RTP_BURST_NEXT_PUSH;
    next->n_packets = n;
    s->push.paced = FALSE;
    count_in_rate (s, now, head_bytes (s, item, n));
    return DECIDED;
  }

  if (!next_slot (s, item))
    return AGAIN;
  if (!item->slot_reached) {
    /* waited for even when it is due: the caller's clock says when */
    wait_until (next, item->slot_time, FALSE, TRUE);
    return DECIDED;
  }
  /* then for room on the group's rate; but while a synchronising sink in
   * the thread holds this frame's pushes
   * (until the element takes its latency, from the next frame on), that
   * sink paces them by their DTS and the task reaches the slots late: they
   * keep their slots and do not wait for the rate, as without a group; their
   * bytes count in it as a pass-through member's (the group's rate applies
   * to a stream from the frame after the element saw such a sink, its first
   * frame as a rule) */
  if (!item->rate_booked && item->serial == s->held_serial) {
    count_in_rate (s, now, head_bytes (s, item, item->slot_packets));
    item->rate_booked = TRUE;
    item->rate_waited = FALSE;
    item->rate_release = item->slot_time;
  }
  if (!item->rate_booked)
    item->rate_booked = book (s, now, head_bytes (s, item,
            item->slot_packets), rtp_burst_group_class (s->config->priority,
            FALSE), &item->rate_waited, &item->rate_release);
  if (item->rate_booked && item->rate_waited &&
      item->rate_release > now->now) {
    wait_until (next, item->rate_release, FALSE, FALSE);
    return DECIDED;
  }
  /* the push that takes the booking, once the link is free of what left
   * before it (a held frame's booking was counted in the top class,
   * above) */
  if (item->rate_booked && item->serial != s->held_serial) {
    guint klass = rtp_burst_group_class (s->config->priority, FALSE);

    if (!claim (s, now, head_bytes (s, item, item->slot_packets), klass,
            &item->rate_waited, &item->rate_release)) {
      wait_until (next, item->rate_release, FALSE, FALSE);
      return DECIDED;
    }
    on_rate (s, now, klass);
  }
  next->kind = RTP_BURST_NEXT_PUSH;
  next->n_packets = item->slot_packets;
  next->time = item->slot_time;
  /* it leaves when the link has it, with that DTS (a stream that is behind
   * gets DTS now, not its past slot, so that a synchronising sink behind a
   * queue does not send its backlog at once) */
  if (item->rate_booked)
    next->time = MAX (item->slot_time, item->rate_release);
  if (next->time >= item->sink_offset)
    next->dts = next->time - item->sink_offset;
  s->push.paced = TRUE;
  s->push.lateness = item->slot_lateness;
  return DECIDED;
}

static Turn
next_once (RtpBurstStream * s, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  Item *item = g_queue_peek_head (&s->items);
  Turn turn;

  /* a slot waited for leaves at once */
  if (item && item->slot_reached)
    return frame_turn (s, item, now, next);
  /* repair packets leave in PLAYING, after the events queued before them */
  if (now->playing && repair_ready (s)) {
    turn = repair_turn (s, item, now, next);
    if (turn != MEDIA)
      return turn;
  }
  if (item == NULL || (item->event && repair_ready (s)) ||
      (!item->event && !now->playing)) {
    /* the repair packets queued before an event leave first, in PLAYING;
     * packets only leave in PLAYING */
    next->kind = RTP_BURST_NEXT_WAIT_DATA;
    return DECIDED;
  }
  if (item->event) {
    next->kind = RTP_BURST_NEXT_EVENT;
    next->event = item->event;
    return DECIDED;
  }
  if (!item->started) {
    turn = start_head_frame (s, item, now, next);
    if (turn != MEDIA)
      return turn;
  }
  return frame_turn (s, item, now, next);
}

void
rtp_burst_stream_next (RtpBurstStream * s, const RtpBurstStreamNow * now,
    RtpBurstNext * next)
{
  do {
    memset (next, 0, sizeof (*next));
    next->time = next->dts = RTP_BURST_TIME_NONE;
    s->push.now = now->now;
    s->push.on_rate = FALSE;
  } while (next_once (s, now, next) == AGAIN);
}

void
rtp_burst_stream_woke (RtpBurstStream * s, guint64 lateness,
    gboolean counted)
{
  Item *item = g_queue_peek_head (&s->items);

  g_return_if_fail (item != NULL && item->have_slot);
  item->slot_reached = TRUE;
  item->slot_lateness = lateness;
  if (counted)
    rtp_burst_wakeup_tracker_add (&s->wakeups, lateness);
}

gpointer
rtp_burst_stream_pop_event (RtpBurstStream * s)
{
  Item *item = g_queue_pop_head (&s->items);
  gpointer event;

  g_return_val_if_fail (item != NULL && item->event != NULL, NULL);
  event = g_steal_pointer (&item->event);
  s->events_out++;
  item_free (s, item);
  return event;
}

/* Counts how late the slot is, and returns that: its own lateness.  In a
 * frame whose pushes a synchronising sink held (it paces that frame
 * itself), a slot whose time went by while the sink still held the
 * previous push is late only by the time since that push returned. */
static guint64
note_slot_lateness (RtpBurstStream * s, const Item * item, guint64 lateness)
{
  guint64 own = lateness;

  if (item->serial == s->held_serial &&
      s->last_push_end != RTP_BURST_TIME_NONE &&
      s->last_push_end > item->slot_time)
    own -= MIN (own, s->last_push_end - item->slot_time);
  if (own > RTP_BURST_LATE_THRESHOLD)
    s->st.late_slots++;
  s->st.max_lateness = MAX (s->st.max_lateness, own);
  return own;
}

guint64
rtp_burst_stream_take_packets (RtpBurstStream * s, const RtpBurstNext * next,
    gpointer * packets)
{
  Item *item = g_queue_peek_head (&s->items);
  Push *push = &s->push;
  guint64 own_lateness = 0;
  guint i, n = next->n_packets;

  g_return_val_if_fail (item != NULL && item->event == NULL &&
      next->kind == RTP_BURST_NEXT_PUSH &&
      n <= g_queue_get_length (&item->packets), 0);

  push->repair = FALSE;
  push->n_packets = n;
  push->bytes = 0;
  if (push->paced) {
    /* when it leaves: its slot, or when the group's rate let it */
    guint64 due = item->rate_booked ?
        MAX (item->slot_time, item->rate_release) : item->slot_time;

    own_lateness = note_slot_lateness (s, item, push->lateness);
    if (own_lateness <= RTP_BURST_LATE_THRESHOLD ||
        item->released_slots == 0)
      item->on_time = item->slot_time - MIN (item->slot_time,
          item->plan.start);
    item->have_slot = item->slot_reached = item->rate_booked = FALSE;
    push->slot_time = due;
    push->sink_offset = item->sink_offset;
    push->start = rtp_burst_time_add (item->slot_time, push->lateness);
    if (push->now != RTP_BURST_TIME_NONE)
      push->start = MAX (push->start, push->now);
    push->frame_first = item->released_slots++ == 0;
    push->serial = item->serial;
    push->frame_start = item->plan.start;
    push->period = item->period;
  }
  if (!push->paced && push->now != RTP_BURST_TIME_NONE &&
      item->unsent_arrival != RTP_BURST_TIME_NONE) {
    /* how long the oldest of them stayed while the task was free: the
     * time downstream held the previous push is downstream's */
    guint64 since = item->unsent_arrival;
    guint64 delay;

    if (s->prev_push_end != RTP_BURST_TIME_NONE && s->prev_push_end > since)
      since = s->prev_push_end;
    delay = push->now - MIN (push->now, since);

    s->st.unpaced_pushes++;
    if (delay > RTP_BURST_LATE_THRESHOLD)
      s->st.unpaced_late_pushes++;
    s->st.unpaced_max_delay = MAX (s->st.unpaced_max_delay, delay);
  }
  for (i = 0; i < n; i++) {
    packets[i] = g_queue_pop_head (&item->packets);
    push->bytes += s->packet_size (packets[i]);
  }
  s->n_queued_packets -= n;
  s->st.slots++;
  /* counted before the push, so that the stats are complete when the
   * packets arrive downstream */
  s->st.packets += n;
  s->st.bytes += push->bytes;

  s->last_media_slot = push->paced ? push->slot_time : push->now;
  s->last_media_bytes = (guint) MIN (push->bytes, G_MAXUINT);
  push->frame_last = item->closed && g_queue_is_empty (&item->packets);
  /* whether late slots at its end made the frame end after its period,
   * for the margin of later frames */
  if (push->frame_last && push->paced)
    rtp_burst_margin_frame (&s->margin, rtp_burst_time_add
        (item->slot_time - MIN (item->slot_time, item->plan.start),
            own_lateness), item->on_time, item->period);
  if (push->frame_last)
    finish_frame (s, item);
  return push->bytes;
}

gpointer
rtp_burst_stream_take_repair (RtpBurstStream * s, const RtpBurstNext * next,
    guint64 now, guint * size)
{
  gpointer data;

  g_return_val_if_fail (next->kind == RTP_BURST_NEXT_REPAIR, NULL);

  s->push.repair = TRUE;
  s->push.paced = FALSE;
  s->repair_booked = FALSE;
  data = rtp_burst_repair_pop (&s->repair, next->time, s->push.overrun, now,
      &s->push.size);
  *size = s->push.size;
  return data;
}

void
rtp_burst_stream_push_done (RtpBurstStream * s, guint64 end, gboolean refused)
{
  Push *push = &s->push;

  s->prev_push_end = end;
  /* a push that downstream held (it returned more than 1 ms after it took
   * the link) takes the link from when it returned, so that the next push
   * keeps the rate from when this one really left.  Not every push: the
   * time a push takes to reach the socket would be taken from the link
   * each time (a repair packet's claim takes the link from when it was
   * decided, repair_turn ()) */
  if (push->on_rate && !push->repair && !refused &&
      end != RTP_BURST_TIME_NONE && push->now != RTP_BURST_TIME_NONE &&
      end > push->now + RTP_BURST_LATE_THRESHOLD)
    rtp_burst_group_member_occupy (&s->group, push->clock, push->base_time,
        end, push->bytes, push->rate_class);
  if (push->repair) {
    if (refused) {
      /* refused by a flush: discarded, and counted as such */
      rtp_burst_repair_refused (&s->repair, push->size);
      s->st.flushed_packets++;
    }
    return;
  }
  if (push->paced) {
    guint64 target = 0, release = push->start;
    gboolean held = end != RTP_BURST_TIME_NONE &&
        rtp_burst_sink_hold_push_done (&s->sink_hold, push->slot_time,
        push->sink_offset, push->start, end, &target);

    /* a synchronising sink in this thread held the push: the slot left as
     * late after its time as the sink released it after its own */
    s->last_push_end = end;
    if (held) {
      s->held_serial = push->serial;
      release = end > target ? rtp_burst_time_add (push->slot_time,
          end - target) : push->slot_time;
    }
    rtp_burst_meter_slot (&s->meter, push->slot_time, release,
        push->n_packets, push->bytes, push->frame_first, push->frame_last,
        push->frame_start, push->period);
  }
  if (refused) {
    /* refused by a flush (ours or downstream's): discarded, and counted */
    s->st.packets -= push->n_packets;
    s->st.bytes -= push->bytes;
    s->st.flushed_packets += push->n_packets;
  }
}

/* --- notices and stats ------------------------------------------------------ */

void
rtp_burst_stream_take_notices (RtpBurstStream * s,
    RtpBurstStreamNotices * out)
{
  out->period_unknown = s->notice_period;
  out->other_clock = s->notice_other_clock;
  out->dropped = s->notice_dropped;
  out->drop = s->drop;
  s->notice_period = s->notice_other_clock = s->notice_dropped = FALSE;
  /* the decoder lost its reference: a key unit is asked for */
  if (out->dropped)
    s->st.key_unit_requests++;
}

void
rtp_burst_stream_get_stats (const RtpBurstStream * s,
    RtpBurstStreamStats * out)
{
  const RtpBurstStreamConfig *c = s->config;

  *out = s->st;
  out->period = s->period;
  out->period_source = s->period_source;
  out->payload_size = c->payload_size ? c->payload_size : s->max_payload;
  out->min_slot_duration = min_slot (s);
  out->queued_packets = s->n_queued_packets;
  out->queued_frames = s->n_closed;
  out->max_rate = max_rate (s);
  out->mean_rate = rtp_burst_rate_meter_get (&s->rate_meter, s->period);
  out->sink_latency = s->sink_hold.offset;
  out->held_slots = s->sink_hold.n_held;
  out->margin = c->auto_margin ? s->margin.margin : 0;
  out->group_members = rtp_burst_group_member_n_members (&s->group);
  out->group_frames = s->group.frames;
  out->group_shared_slots = s->group.shared_slots;
  out->group_phase = s->group.last_phase;
  out->group_gap = s->group.last_gap;
  out->group_busy = s->group.busy;
  out->group_other_clock = s->group.other_clock;
  out->group_max_rate = s->group.group ?
      rtp_burst_group_max_rate (s->group.group) : 0;
  out->repair_packets = s->repair.n_released;
  out->repair_bytes = s->repair.bytes_released;
  out->repair_overruns = s->repair.n_overrun;
  out->repair_max_delay = s->repair.max_delay;
  out->repair_queued = rtp_burst_repair_queued (&s->repair);
  rtp_burst_meter_report (&s->meter, &out->meter);
}

/* --- Changes applied apart ------------------------------------------------ */

/* The frame-period of the config changed: in force at once.  Unlike
 * rtp_burst_stream_config_changed (), the group is not touched. */
void
rtp_burst_stream_period_changed (RtpBurstStream * s)
{
  update_period (s);
}

/* The stream's cap on its group's rate (group-max-rate), set in the group:
 * takes the group's lock, which another member holds while it places a
 * frame.  Touches nothing the pacing thread writes; the caller keeps the
 * membership (start, stop, leave_group) from changing meanwhile. */
void
rtp_burst_stream_set_group_max_rate (RtpBurstStream * s, guint64 max_rate)
{
  rtp_burst_group_member_set_max_rate (&s->group, max_rate);
}
