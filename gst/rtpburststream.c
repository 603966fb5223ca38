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

#include "rtpburststream-private.h"

/* What a new run (READY to PAUSED) starts afresh. */
static void
reset_run (RtpBurstStream * s)
{
  memset (&s->st, 0, sizeof (s->st));
  memset (&s->rate_waits, 0, sizeof (s->rate_waits));
  s->unpaced_since_period = 0;
  rtp_burst_repair_reset_stats (&s->repair);
  rtp_burst_stream_reseed (s);
  rtp_burst_sink_hold_init (&s->sink_hold);
  s->last_push_end = s->prev_push_end = RTP_BURST_TIME_NONE;
  s->held_serial = 0;
  rtp_burst_meter_init (&s->meter);
  rtp_burst_margin_init (&s->margin);
  rtp_burst_wakeup_tracker_init (&s->wakeups);
  rtp_burst_rate_meter_init (&s->rate_meter);
  s->prev_end = RTP_BURST_TIME_NONE;
  s->period_warned = s->group_clock_warned = FALSE;
  rtp_burst_ahead_init (&s->ahead);
}

RtpBurstStream *
rtp_burst_stream_new (const RtpBurstStreamConfig * config,
    GDestroyNotify free_packet, RtpBurstPacketSize packet_size,
    GDestroyNotify free_event)
{
  RtpBurstStream *s = g_new0 (RtpBurstStream, 1);

  s->config = config;
  rtp_burst_frames_init (&s->q, free_packet, packet_size, free_event);
  reset_head (s);
  rtp_burst_period_estimator_init (&s->est);
  s->rand = g_rand_new ();
  rtp_burst_group_member_init (&s->group);
  s->media_pt = -1;
  rtp_burst_repair_init (&s->repair, free_packet);
  rtp_burst_booking_reset (&s->repair_booking);
  reset_run (s);
  return s;
}

void
rtp_burst_stream_free (RtpBurstStream * s)
{
  rtp_burst_frames_flush (&s->q, NULL, NULL);
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

void
rtp_burst_stream_config_changed (RtpBurstStream * s)
{
  rtp_burst_stream_period_changed (s);
  rtp_burst_stream_set_group_max_rate (s, s->config->group_max_rate);
}

void
rtp_burst_stream_start (RtpBurstStream * s, const gchar * group)
{
  reset_run (s);
  rtp_burst_group_member_join (&s->group, group);
  rtp_burst_group_member_set_max_rate (&s->group, s->config->group_max_rate);
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
  return rtp_burst_wakeup_tracker_min_slot (&s->wakeups);
}

/* Closes the open frame and fixes its shape: the period, the slots. */
static RtpBurstStreamWake
close_open_frame (RtpBurstStream * s, guint64 now)
{
  const RtpBurstStreamConfig *c = s->config;
  RtpBurstFrame *frame = rtp_burst_frames_close (&s->q, now);
  guint p;

  if (frame == NULL)
    return RTP_BURST_STREAM_WAKE_NONE;

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
    waiting = (rtp_burst_sink_hold_offset (&s->sink_hold) + s->period - 1) /
        s->period;
  return RTP_BURST_STREAM_MAX_FRAMES +
      (guint) MIN (waiting, RTP_BURST_STREAM_MAX_LATENCY_FRAMES);
}

gboolean
rtp_burst_stream_has_room (const RtpBurstStream * s)
{
  return rtp_burst_frames_n_closed (&s->q) < max_queued_frames (s);
}

gboolean
rtp_burst_stream_admit (RtpBurstStream * s, guint32 rtptime,
    gboolean marker, guint64 now, RtpBurstStreamWake * wake)
{
  *wake = RTP_BURST_STREAM_WAKE_NONE;
  if (rtp_burst_frames_ends_open (&s->q, rtptime))
    *wake = close_open_frame (s, now);
  return rtp_burst_frames_is_open (&s->q) || rtp_burst_stream_has_room (s);
}

RtpBurstStreamWake
rtp_burst_stream_add_packet (RtpBurstStream * s, const RtpBurstPacketIn * in)
{
  RtpBurstStreamWake wake = RTP_BURST_STREAM_WAKE_DATA;
  RtpBurstFrame *frame;

  /* until ΔT is known a frame leaves as it comes: its packets cannot wait
   * for the rest of a frame whose period nobody knows */
  frame = rtp_burst_frames_add (&s->q, in->data, in->size, in->payload_len,
      in->rtptime, in->sync_time, in->arrival, s->period == 0 ||
      !s->config->pace);
  s->max_payload = MAX (s->max_payload, in->payload_len);
  if (in->marker || frame->n_packets >= RTP_BURST_FRAMES_MAX_PACKETS)
    wake |= close_open_frame (s, in->arrival);
  return wake;
}

RtpBurstStreamWake
rtp_burst_stream_add_repair (RtpBurstStream * s, gpointer data, guint size,
    guint64 arrival)
{
  rtp_burst_repair_push (&s->repair, data, size, arrival,
      rtp_burst_frames_barriers_in (&s->q), rtp_burst_frames_events_in (&s->q));
  /* the first one may leave before the media's next slot */
  if (rtp_burst_repair_queued (&s->repair) == 1)
    return RTP_BURST_STREAM_WAKE_DATA | RTP_BURST_STREAM_WAKE_CLOCK;
  return RTP_BURST_STREAM_WAKE_NONE;
}

RtpBurstStreamWake
rtp_burst_stream_add_event (RtpBurstStream * s, gpointer event,
    gboolean barrier, guint64 now)
{
  close_open_frame (s, now);
  rtp_burst_frames_add_event (&s->q, event, barrier);
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
  return rtp_burst_frames_head (&s->q) == NULL;
}

void
rtp_burst_stream_flush (RtpBurstStream * s, GFunc keep_event,
    gpointer user_data)
{
  s->st.flushed_packets += rtp_burst_frames_flush (&s->q, keep_event,
      user_data);
  s->st.flushed_packets += rtp_burst_repair_flush (&s->repair);
  reset_head (s);
  s->prev_end = RTP_BURST_TIME_NONE;
  rtp_burst_booking_reset (&s->repair_booking);
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

/* --- a push returned ---------------------------------------------------- */

/* A paced push returned at @end: whether a synchronising sink held it, and
 * when the slot really left, for the meter. */
static void
paced_push_done (RtpBurstStream * s, guint64 end)
{
  Push *push = &s->push;
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
    rtp_burst_group_member_occupy (&s->group, push->rate_time.clock,
        push->rate_time.base_time, end, push->bytes, push->rate_class);
  if (push->repair) {
    if (refused) {
      /* refused by a flush: discarded, and counted as such */
      rtp_burst_repair_refused (&s->repair, push->size);
      s->st.flushed_packets++;
    }
    return;
  }
  if (push->paced)
    paced_push_done (s, end);
  if (refused) {
    /* refused by a flush (ours or downstream's): discarded, and counted */
    s->st.packets -= push->n_packets;
    s->st.bytes -= push->bytes;
    s->st.flushed_packets += push->n_packets;
  }
}

/* --- notices and stats -------------------------------------------------- */

void
rtp_burst_stream_take_notices (RtpBurstStream * s, RtpBurstStreamNotices * out)
{
  out->period_unknown = s->notice_period;
  out->other_clock = s->notice_other_clock;
  out->dropped = s->notice_dropped;
  out->drop = s->drop;
  out->ahead_off = rtp_burst_ahead_take_notice (&s->ahead);
  s->notice_period = s->notice_other_clock = s->notice_dropped = FALSE;
  /* the decoder lost its reference: a key unit is asked for */
  if (out->dropped)
    s->st.key_unit_requests++;
}

void
rtp_burst_stream_get_stats (const RtpBurstStream * s, RtpBurstStreamStats * out)
{
  const RtpBurstStreamConfig *c = s->config;
  RtpBurstGroupReport group;
  RtpBurstRepairReport repair;

  *out = s->st;
  out->period = s->period;
  out->period_source = s->period_source;
  out->payload_size = c->payload_size ? c->payload_size : s->max_payload;
  out->min_slot_duration = min_slot (s);
  out->queued_packets = rtp_burst_frames_n_packets (&s->q);
  out->queued_frames = rtp_burst_frames_n_closed (&s->q);
  out->max_rate = max_rate (s);
  out->mean_rate = rtp_burst_rate_meter_get (&s->rate_meter, s->period);
  out->sink_latency = rtp_burst_sink_hold_offset (&s->sink_hold);
  out->held_slots = rtp_burst_sink_hold_n_held (&s->sink_hold);
  out->margin = c->auto_margin ? rtp_burst_margin_get (&s->margin) : 0;

  rtp_burst_group_member_report (&s->group, &group);
  out->group_members = group.members;
  out->group_frames = group.frames;
  out->group_shared_slots = group.shared_slots;
  out->group_phase = group.phase;
  out->group_gap = group.gap;
  out->group_busy = group.busy;
  out->group_other_clock = group.other_clock;
  out->group_max_rate = group.max_rate;
  out->group_rate_waits = s->rate_waits.waits;
  out->group_rate_max_delay = s->rate_waits.max_delay;

  rtp_burst_repair_report (&s->repair, &repair);
  out->repair_packets = repair.packets;
  out->repair_bytes = repair.bytes;
  out->repair_overruns = repair.overruns;
  out->repair_max_delay = repair.max_delay;
  out->repair_queued = repair.queued;
  rtp_burst_meter_report (&s->meter, &out->meter);
}
