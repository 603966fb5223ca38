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
 * libFuzzer target for one paced stream (gst/rtpburststream.c), driven as
 * the element drives it, on a fake clock that only moves forwards: config
 * changes (every field of RtpBurstStreamConfig, within the properties'
 * ranges, seed never 0; pace=false, a group rate), caps (period,
 * clock-rate, media payload type 96 or none), media packets (admitted,
 * then added; with back-pressure the task runs until there is room, else
 * a flush ends the wait and the packet is refused), repair packets
 * (payload type 97 when the caps make it repair), events, frame closes,
 * latencies, flushes, stop/start with and without a (per-process) group,
 * PLAYING/PAUSED, the clock going away, another member of the group, and
 * the task: rtp_burst_stream_next () with the fake time, acted on like the
 * element's loop does (waits end on time, late, early, or are cut short
 * without rtp_burst_stream_woke (); pushes return at once, late, when a
 * synchronising sink would release them, or refused by a flush; a push may
 * stay pending while input goes on, as the element pushes without its
 * lock).  Each input is a header and a sequence of operations, an opcode
 * byte and its operands (bytes past the end read as 0; 0 is the
 * ordinary choice: a wait ends on time, a push returns at once).
 *
 * Every packet carries an id.  The harness keeps a model of the stream:
 * the packets still queued, which frame each belongs to (frames closed by
 * a marker, a new RTP timestamp, an event, a serialized query, a flush or,
 * seen through stats.timeout_frames, the open frame's timeout), the events
 * and the repair packets.  Invariants, checked with abort ():
 *  - conservation: every packet added leaves exactly once — taken by
 *    take_packets/take_repair, dropped (stats.dropped_packets: exactly the
 *    rest of the head frame, as the drop notice says) or flushed
 *    (stats.flushed_packets: all that is queued, a push refused, and
 *    packets the chain refused while flushing, rtp_burst_stream_refused) —
 *    and at the end, after a flush, stop and free, taken - refused +
 *    flushed + dropped = added, accumulated over the starts (which reset
 *    the stats); the stream frees exactly the packets and events it did
 *    not hand out, each once; stats.packets, repair_packets,
 *    queued_packets and repair_queued follow the model after every
 *    operation;
 *  - order: media packets leave in the order added, a push takes the
 *    oldest queued packets, all of one frame (the head one), with their
 *    bytes; repair packets first in, first out, each after the barrier
 *    events queued before it (and the events before those); an event
 *    leaves after all the media and repair packets queued before it;
 *    pop_event returns the event next () named;
 *  - slots: the slots a frame waits for (WAIT_UNTIL for_slot) do not go
 *    back in time; after rtp_burst_stream_woke () the next answer is the
 *    push of that slot (at or after it: maybe after waits for the group's
 *    rate), and a paced push comes only so, or with release_ahead less
 *    than that before its time; a push or repair packet is not before its
 *    time (but for that), its DTS not after it;
 *  - progress: PUSH has packets and takes them off the queue, REPAIR and
 *    EVENT take one off theirs, DROPPED is one frame dropped and noticed;
 *    a wait that is not for a slot is for a time after now (the element
 *    would spin otherwise) and never without a clock; WAIT_DATA in PLAYING
 *    with a clock only when nothing but the open frame is queued;
 *  - no GLib critical (g_return_if_fail), no leak (LeakSanitizer), plus
 *    AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * RTPBURSTPACE_FUZZ_TRACE=1 prints every operation and answer.
 */

#include <unistd.h>

#include "fuzz-input.h"
#include "rtpburststream.h"
#include "rtpburstgroup.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define US (G_GUINT64_CONSTANT (1000))
#define NONE RTP_BURST_TIME_NONE
#define MEDIA_PT 96
#define REPAIR_PT 97
#define MAX_OPS 1024
#define MAX_PACKETS 4096        /* media and repair packets per input */
#define MAX_TASK_STEPS 64       /* answers acted on per OP_TASK */
#define PACKET_MAGIC 0x5041434bu
#define EVENT_MAGIC 0x4556454eu

enum
{
  OP_FRAME = 0,                 /* packets of one RTP timestamp */
  OP_PACKET,                    /* one packet, fields from the input */
  OP_REPAIR,                    /* a packet of payload type 97 */
  OP_EVENT,
  OP_CLOSE_OPEN,                /* a serialized query */
  OP_CONFIG,
  OP_CAPS,
  OP_LATENCY,
  OP_FLUSH,
  OP_RESTART,                   /* (flush,) stop, start (group or not) */
  OP_PLAYING,
  OP_TASK,                      /* next () and what it says, some steps */
  OP_ADVANCE,                   /* the fake clock moves on */
  OP_CLOCK,                     /* the clock: none, which, base time */
  OP_OTHER,                     /* another member of the group */
  OP_PUSH_DONE,                 /* a pending push returns */
  OP_NOTICES,
  OP_COUNT
};

static const gchar *const op_names[] = { "frame", "packet", "repair",
  "event", "close-open", "config", "caps", "latency", "flush", "restart",
  "playing", "task", "advance", "clock", "other", "push-done", "notices"
};

G_STATIC_ASSERT (G_N_ELEMENTS (op_names) == OP_COUNT);

/* What the stream holds: a packet or an event, with its id. */
typedef struct
{
  guint32 magic;
  gboolean repair;
  guint id;
  guint size;
} Packet;

typedef struct
{
  guint32 magic;
  guint id;
} Event;

typedef enum
{
  FATE_QUEUED = 0,
  FATE_TAKEN,
  FATE_REFUSED,                 /* taken, then refused by a flush */
  FATE_DROPPED,
  FATE_FLUSHED,
} Fate;

typedef struct
{
  guint frame;                  /* media: index in Model.frames */
  guint size;
  Fate fate;
  gboolean freed_by_stream;
  guint64 events_before;        /* repair: events added before it, up to
                                 * the last barrier among them */
} Rec;

typedef struct
{
  guint32 rtptime;
  guint64 last_slot;            /* its last paced slot, NONE: none yet */
} Frame;

typedef struct
{
  guint64 media_before, repair_before;  /* added before it */
  gboolean freed;
} EventRec;

/* The harness's model of the stream and the running totals. */
typedef struct
{
  FuzzInput *in;
  guint64 barriers_end;         /* events up to the last barrier added */
  RtpBurstStreamConfig config;
  RtpBurstStream *s;
  gchar *group;                 /* this process's group name */
  RtpBurstGroupMember other;    /* another member of it */

  /* the fake clock */
  guint64 time;                 /* running time, never NONE */
  gboolean no_clock;            /* the element has no clock: now = NONE */
  gint clock_id;                /* which clock (two pipelines) */
  guint64 base_time;
  gboolean playing;

  /* media packets: ids 0..n_media-1, queued ones from media_lo */
  GArray *media;                /* Rec */
  guint media_lo;
  GArray *frames;               /* Frame */
  gboolean open;                /* a frame is open: the last of frames */
  guint open_packets;
  /* repair packets: ids 0..n-1, queued ones from repair_lo */
  GArray *repair;               /* Rec */
  guint repair_lo;
  /* events: ids 0..n-1, queued ones from event_lo */
  GArray *events;               /* EventRec */
  guint event_lo;
  guint64 events_resolved;

  /* a push taken, push_done not called yet */
  gboolean pending;
  gboolean pending_repair;
  guint64 reached;              /* the slot rtp_burst_stream_woke () was
                                 * called for, until it is pushed; NONE */
  gpointer pending_packets[MAX_PACKETS];
  guint n_pending;
  guint64 last_sink_latency[RTP_BURST_HOLD_N_SOURCES];

  /* counted since the last rtp_burst_stream_start () (the stream's stats
   * start afresh there) */
  guint64 ep_packets, ep_repair, ep_flushed, ep_dropped;
  guint64 ep_bytes, ep_repair_bytes, ep_slots, ep_key_units;
  /* counted over the whole input */
  guint64 added, taken, refused, flushed, dropped;
  guint64 stats_flushed, stats_dropped;   /* the stats, accumulated */
  guint64 allocs, frees, event_allocs, event_frees;
} Model;

static gboolean trace;
/* the model the stream's free functions report to */
static Model *current;

#define TRACE(...) G_STMT_START {                                       \
  if (trace) fprintf (stderr, __VA_ARGS__);                             \
} G_STMT_END

static Rec *
media_rec (Model * m, guint id)
{
  FUZZ_CHECK (id < m->media->len, "media id %u of %u", id, m->media->len);
  return &g_array_index (m->media, Rec, id);
}

static Rec *
repair_rec (Model * m, guint id)
{
  FUZZ_CHECK (id < m->repair->len, "repair id %u of %u", id,
      m->repair->len);
  return &g_array_index (m->repair, Rec, id);
}

static guint
n_queued_media (const Model * m)
{
  return m->media->len - m->media_lo;
}

static guint
n_queued_repair (const Model * m)
{
  return m->repair->len - m->repair_lo;
}

static guint
n_queued_events (const Model * m)
{
  return m->events->len - m->event_lo;
}

/* --- what the stream frees ---------------------------------------------- */

static void
free_packet (gpointer data)
{
  Packet *p = data;
  Rec *r;

  FUZZ_CHECK (p != NULL && p->magic == PACKET_MAGIC, "freeing %p, not a "
      "packet", data);
  r = p->repair ? repair_rec (current, p->id) : media_rec (current, p->id);
  FUZZ_CHECK (!r->freed_by_stream && r->fate != FATE_TAKEN &&
      r->fate != FATE_REFUSED, "the stream frees %s packet %u, fate %d, "
      "freed before %d", p->repair ? "repair" : "media", p->id, r->fate,
      r->freed_by_stream);
  r->freed_by_stream = TRUE;
  p->magic = 0;
  current->frees++;
  g_free (p);
}

static guint
packet_size (gconstpointer data)
{
  const Packet *p = data;

  FUZZ_CHECK (p != NULL && p->magic == PACKET_MAGIC, "size of %p, not a "
      "packet", data);
  return p->size;
}

static void
free_event (gpointer data)
{
  Event *e = data;
  EventRec *r;

  FUZZ_CHECK (e != NULL && e->magic == EVENT_MAGIC, "freeing %p, not an "
      "event", data);
  FUZZ_CHECK (e->id < current->events->len, "event id %u", e->id);
  r = &g_array_index (current->events, EventRec, e->id);
  FUZZ_CHECK (!r->freed, "event %u freed twice", e->id);
  r->freed = TRUE;
  e->magic = 0;
  current->event_frees++;
  g_free (e);
}

/* the flush's keep_event: takes the event (and frees it here) */
static void
keep_event (gpointer data, gpointer user_data)
{
  Model *m = user_data;
  Event *e = data;

  FUZZ_CHECK (e != NULL && e->magic == EVENT_MAGIC, "kept %p, not an event",
      data);
  FUZZ_CHECK (e->id == m->event_lo, "flush hands over event %u, %u is the "
      "oldest queued", e->id, m->event_lo);
  m->event_lo++;
  m->events_resolved++;
  free_event (e);
}

/* Packets the harness took: freed here, after push_done. */
static void
free_taken (Model * m, Packet * p)
{
  Rec *r = p->repair ? repair_rec (m, p->id) : media_rec (m, p->id);

  FUZZ_CHECK (!r->freed_by_stream, "packet %u taken and freed by the stream",
      p->id);
  p->magic = 0;
  m->frees++;
  g_free (p);
}

static Packet *
new_packet (Model * m, gboolean repair, guint id, guint size)
{
  Packet *p = g_new (Packet, 1);

  p->magic = PACKET_MAGIC;
  p->repair = repair;
  p->id = id;
  p->size = size;
  m->allocs++;
  return p;
}

/* --- the stream against the model ---------------------------------------- */

static void
check_stats (Model * m, const gchar * where)
{
  RtpBurstStreamStats st;

  rtp_burst_stream_get_stats (m->s, &st);
  FUZZ_CHECK (st.queued_packets == n_queued_media (m), "%s: %u packets "
      "queued, %u in the model", where, st.queued_packets,
      n_queued_media (m));
  FUZZ_CHECK (st.repair_queued == n_queued_repair (m), "%s: %u repair "
      "packets queued, %u in the model", where, st.repair_queued,
      n_queued_repair (m));
  FUZZ_CHECK (st.flushed_packets == m->ep_flushed, "%s: flushed-packets %"
      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " in the model", where,
      st.flushed_packets, m->ep_flushed);
  FUZZ_CHECK (st.dropped_packets == m->ep_dropped, "%s: dropped-packets %"
      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " in the model", where,
      st.dropped_packets, m->ep_dropped);
  /* a push counts when taken, and is taken back when refused */
  FUZZ_CHECK (st.packets == m->ep_packets, "%s: packets %" G_GUINT64_FORMAT
      ", %" G_GUINT64_FORMAT " in the model", where, st.packets,
      m->ep_packets);
  FUZZ_CHECK (st.repair_packets == m->ep_repair, "%s: repair-packets %"
      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " in the model", where,
      st.repair_packets, m->ep_repair);
  FUZZ_CHECK (st.bytes == m->ep_bytes && st.repair_bytes ==
      m->ep_repair_bytes, "%s: bytes %" G_GUINT64_FORMAT ", repair-bytes %"
      G_GUINT64_FORMAT "; %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
      " in the model", where, st.bytes, st.repair_bytes, m->ep_bytes,
      m->ep_repair_bytes);
  /* every push of media is a slot, refused or not */
  FUZZ_CHECK (st.slots == m->ep_slots, "%s: slots %" G_GUINT64_FORMAT ", %"
      G_GUINT64_FORMAT " pushes", where, st.slots, m->ep_slots);
  FUZZ_CHECK (st.key_unit_requests == m->ep_key_units, "%s: key-unit "
      "requests %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " drops noticed",
      where, st.key_unit_requests, m->ep_key_units);
  /* frames wait for room; closing the open one may add one more */
  FUZZ_CHECK (st.queued_frames <= RTP_BURST_STREAM_MAX_FRAMES +
      RTP_BURST_STREAM_MAX_LATENCY_FRAMES + 1, "%s: %u frames queued",
      where, st.queued_frames);
  /* (a frame whose packets all left may stay queued until it is done) */
  FUZZ_CHECK (!rtp_burst_stream_is_empty (m->s) || (n_queued_media (m) == 0
          && n_queued_events (m) == 0), "%s: empty with %u packets and %u "
      "events queued", where, n_queued_media (m), n_queued_events (m));
}

static guint64
now_time (const Model * m)
{
  return m->no_clock ? NONE : m->time;
}

/* When a pending push returns: the element reads it for media pushes
 * (NONE without a clock), not for a repair packet. */
static guint64
push_end (const Model * m)
{
  if (m->pending_repair)
    return NONE;
  return now_time (m);
}

static void
advance (Model * m, guint64 d)
{
  m->time = MIN (rtp_burst_time_add (m->time, d), NONE - 1);
}

static void
advance_to (Model * m, guint64 t)
{
  if (t != NONE && t > m->time)
    m->time = MIN (t, NONE - 1);
}

/* the model's frame assembly, as rtp_burst_classify_packet () says */
static void
model_close (Model * m)
{
  m->open = FALSE;
  m->open_packets = 0;
}

/* --- input ------------------------------------------------------------- */

static void task (Model * m, guint steps, guint8 policy);
static void push_done (Model * m, gboolean refused, guint64 end);
static void flush (Model * m, gboolean keep);

/* @n packets the chain refused while flushing (rtp_burst_stream_refused):
 * never queued, counted as flushed. */
static void
refuse_input (Model * m, guint n)
{
  TRACE ("  %u packets refused while flushing\n", n);
  rtp_burst_stream_refused (m->s, n);
  m->added += n;
  m->flushed += n;
  m->ep_flushed += n;
}

/* A media packet that the element got: admitted, then added; no room: the
 * task runs until there is some, else a flush ends the chain's wait and
 * the packet is refused. */
static void
add_media (Model * m, guint32 rtptime, gboolean marker, guint size,
    guint payload_len, guint64 sync_time)
{
  RtpBurstPacketIn in;
  RtpBurstStreamWake wake;
  RtpBurstPacketAction action;
  Rec r = { 0, };

  if (m->media->len + m->repair->len >= MAX_PACKETS)
    return;
  action = rtp_burst_classify_packet (m->open, m->open ?
      g_array_index (m->frames, Frame, m->frames->len - 1).rtptime : 0,
      rtptime, marker);
  if (!rtp_burst_stream_admit (m->s, rtptime, marker, now_time (m), &wake)) {
    if (action & RTP_BURST_PACKET_CLOSE_BEFORE)
      model_close (m);
    FUZZ_CHECK (!m->open, "an open frame and no admission");
    FUZZ_CHECK (!rtp_burst_stream_has_room (m->s), "not admitted with room");
    TRACE ("  no room: the task runs\n");
    /* the chain waits while the task pushes */
    if (m->pending)
      push_done (m, FALSE, push_end (m));
    task (m, MAX_TASK_STEPS, 0);
    if (m->pending)
      push_done (m, FALSE, push_end (m));
    if (!rtp_burst_stream_has_room (m->s)) {
      /* flush-start wakes the chain, which refuses its packet, then
       * flush-stop empties the queue */
      TRACE ("  still no room: a flush\n");
      refuse_input (m, 1);
      flush (m, TRUE);
      return;
    }
  } else if (action & RTP_BURST_PACKET_CLOSE_BEFORE) {
    model_close (m);
  }

  if (!m->open) {
    Frame nf = { rtptime, NONE };

    g_array_append_val (m->frames, nf);
    m->open = TRUE;
    m->open_packets = 0;
  }
  r.frame = m->frames->len - 1;
  r.size = size;
  in.data = new_packet (m, FALSE, m->media->len, size);
  in.size = size;
  in.payload_len = payload_len;
  in.rtptime = rtptime;
  in.marker = marker;
  in.sync_time = sync_time;
  in.arrival = now_time (m);
  g_array_append_val (m->media, r);
  m->added++;
  TRACE ("  media %u: frame %u rtptime %u%s, %u bytes, sync %"
      G_GUINT64_FORMAT ", arrival %" G_GUINT64_FORMAT "\n", m->media->len - 1,
      r.frame, rtptime, marker ? " marker" : "", size, sync_time, in.arrival);
  wake = rtp_burst_stream_add_packet (m->s, &in);
  FUZZ_CHECK (wake & RTP_BURST_STREAM_WAKE_DATA, "a packet does not wake the "
      "task");
  if (++m->open_packets >= RTP_BURST_STREAM_MAX_FRAME_PACKETS || marker)
    model_close (m);
}

static void
add_repair (Model * m, guint size)
{
  Rec r = { 0, };

  if (m->media->len + m->repair->len >= MAX_PACKETS)
    return;
  r.size = size;
  r.events_before = m->barriers_end;
  g_array_append_val (m->repair, r);
  m->added++;
  TRACE ("  repair %u: %u bytes\n", m->repair->len - 1, size);
  rtp_burst_stream_add_repair (m->s, new_packet (m, TRUE, m->repair->len - 1,
          size), size, now_time (m));
}

/* A packet of payload type @pt: repair if the caps say so. */
static void
add_any (Model * m, guint pt, guint32 rtptime, gboolean marker, guint size,
    guint64 sync_time)
{
  if (rtp_burst_stream_is_repair (m->s, pt))
    add_repair (m, size);
  else
    add_media (m, rtptime, marker, size, size > 12 ? size - 12 : 0,
        sync_time);
}

static guint32 last_rtptime;

/* The sync time of a packet that arrives now: its DTS's running time is
 * about its arrival (0), absent, earlier or later, or anything. */
static guint64
fuzz_sync_time (Model * m, guint8 sel)
{
  guint64 now = now_time (m);

  switch (sel & 3) {
    case 0:
      return now;
    case 1:
      return NONE;
    case 2:{
      guint64 d = (guint64) fuzz_u16 (m->in) * 100 * US;

      /* bit 7 of the offset's selector: earlier */
      if (now == NONE)
        return d;
      return (fuzz_u8 (m->in) & 1) ? now - MIN (now, d) :
          rtp_burst_time_add (now, d);
    }
    default:
      return fuzz_time (m->in);
  }
}

static void
op_frame (Model * m)
{
  guint n = fuzz_u8 (m->in) % 32 + 1, i;
  guint8 flags = fuzz_u8 (m->in);
  guint size = fuzz_u16 (m->in);
  guint64 sync;
  guint32 rtptime;

  switch ((flags >> 1) & 3) {
    case 0:
      rtptime = last_rtptime + 3600;
      break;
    case 1:
      rtptime = last_rtptime;
      break;
    case 2:
      rtptime = last_rtptime - 3600;
      break;
    default:
      rtptime = fuzz_u32 (m->in);
      break;
  }
  last_rtptime = rtptime;
  if (size == 0)
    size = 1200;
  sync = fuzz_sync_time (m, flags >> 3);
  TRACE ("frame: %u packets\n", n);
  for (i = 0; i < n; i++) {
    /* bit 5: the packets come 100 µs apart, else at once */
    if (i > 0 && (flags & 0x20))
      advance (m, 100 * US);
    add_any (m, (flags & 0x40) ? REPAIR_PT : MEDIA_PT, rtptime,
        (flags & 1) && i == n - 1, size, sync);
  }
  /* bit 7: then a frame period passes (a 25 fps source) */
  if (flags & 0x80)
    advance (m, 40 * MS);
}

static void
op_packet (Model * m)
{
  guint8 flags = fuzz_u8 (m->in);
  guint32 rtptime = fuzz_u32 (m->in);
  guint size = fuzz_u16 (m->in);
  guint64 sync = fuzz_sync_time (m, flags >> 2);

  last_rtptime = rtptime;
  TRACE ("packet\n");
  add_any (m, (flags & 2) ? REPAIR_PT : MEDIA_PT, rtptime, flags & 1, size,
      sync);
}

static void
op_event (Model * m)
{
  Event *e = g_new (Event, 1);
  EventRec r = { 0, };
  RtpBurstStreamWake wake;
  gboolean barrier;

  e->magic = EVENT_MAGIC;
  e->id = m->events->len;
  r.media_before = m->media->len;
  r.repair_before = m->repair->len;
  g_array_append_val (m->events, r);
  m->event_allocs++;
  barrier = fuzz_u8 (m->in) & 1;
  if (barrier)
    m->barriers_end = m->events->len;
  TRACE ("  event %u%s\n", e->id, barrier ? ", a barrier" : "");
  wake = rtp_burst_stream_add_event (m->s, e, barrier, now_time (m));
  FUZZ_CHECK (wake & RTP_BURST_STREAM_WAKE_DATA, "an event does not wake "
      "the task");
  model_close (m);
}

/* A push release_ahead may hand over without a wait: due, or less than
 * release_ahead before its time. */
static gboolean
ahead_of (const RtpBurstNext * next, const RtpBurstStreamNow * now,
    const RtpBurstStreamConfig * c)
{
  return next->kind == RTP_BURST_NEXT_PUSH && c->release_ahead > 0 &&
      (next->time <= now->now || next->time - now->now < c->release_ahead);
}

/* A value for a config field (which % 19). */
static void
op_config (Model * m)
{
  static const guint64 rates[] = { 0, 1, 1000000, 6000000, 8080000,
    100000000, G_GUINT64_CONSTANT (100000000000)
  };
  static const gdouble factors[] = { 0.0, 0.5, 1.0, 1.5, 2.0, 1000.0 };
  RtpBurstStreamConfig *c = &m->config;
  guint which = fuzz_u8 (m->in) % 19;
  guint8 v = fuzz_u8 (m->in);

  TRACE ("config %u = %u\n", which, v);
  switch (which) {
    case 0:
      c->burst_size = v % 8 + 1;
      break;
    case 1:
      c->duty = v >= 250 ? 0.9 : v / 249.0;
      break;
    case 2:
      c->slot_jitter = 0.5 * v / 255.0;
      break;
    case 3:
      c->seed = fuzz_u32 (m->in);
      if (c->seed == 0)
        c->seed = 1;
      rtp_burst_stream_reseed (m->s);
      break;
    case 4:
      /* 0: derived; 1 ms ... 100 ms (a few usual ones) */
      if (v == 0)
        c->frame_period = 0;
      else if (v == 1)
        c->frame_period = 40 * MS;
      else if (v == 2)
        c->frame_period = 33366667;
      else if (v == 3)
        c->frame_period = 1 * MS + fuzz_u32 (m->in) % (99 * MS + 1);
      else
        c->frame_period = (guint64) (v % 100 + 1) * MS;
      rtp_burst_stream_config_changed (m->s);
      break;
    case 5:
      c->payload_size = v == 0 ? 0 : v == 1 ? 1 : fuzz_u16 (m->in);
      break;
    case 6:
      /* 0: automatic, 1: none, else up to 1 s */
      c->min_slot_duration = v < 2 ? v : v < 200 ? (guint64) v * 10 * US :
          fuzz_u32 (m->in) % (1000 * MS + 1);
      break;
    case 7:
      c->sync_upstream_latency = v & 1;
      break;
    case 8:
      c->max_rate = v < 200 ? rates[v % G_N_ELEMENTS (rates)] :
          fuzz_u64 (m->in) % (rates[G_N_ELEMENTS (rates) - 1] + 1);
      break;
    case 9:
      c->max_rate_factor = v < 200 ? factors[v % G_N_ELEMENTS (factors)] :
          1000.0 * v / 255.0;
      break;
    case 10:
      /* 1 ms ... 10 s */
      c->max_latency = v < 200 ? (guint64) (v + 1) * MS :
          MS + fuzz_u64 (m->in) % (10000 * MS - MS + 1);
      break;
    case 11:
      c->overload = (v & 1) ? RTP_BURST_OVERLOAD_DROP :
          RTP_BURST_OVERLOAD_COMPRESS;
      break;
    case 12:
      c->auto_margin = v & 1;
      break;
    case 13:
      c->pace_repair = v & 1;
      break;
    case 14:
      /* the usual pacing: 25 fps, b = 1, duty 0.9 */
      c->burst_size = 1;
      c->duty = 0.9;
      c->frame_period = v & 1 ? 40 * MS : 0;
      rtp_burst_stream_config_changed (m->s);
      break;
    case 15:
      /* pace=false: frames leave as they come (their bytes still count
       * on the group's rate) */
      c->pace = !(v & 1);
      break;
    case 16:
      /* the group's aggregate rate (the smallest its members set) */
      c->group_max_rate = v < 200 ? rates[v % G_N_ELEMENTS (rates)] :
          fuzz_u64 (m->in) % (rates[G_N_ELEMENTS (rates) - 1] + 1);
      rtp_burst_stream_config_changed (m->s);
      break;
    case 17:
      /* the priority on the group's rate (beyond the highest: the
       * highest) */
      c->priority = v % (RTP_BURST_GROUP_PRIORITIES + 2);
      break;
    case 18:
      /* slots handed over ahead (rtpburstahead.h): none, a chunk, a
       * frame, two frames; a controller turns it off */
      c->release_ahead = (guint64) (v & 3) * (v & 4 ? 20 : 10) * MS;
      c->cc_on = (v & 8) != 0;
      break;
    default:
      g_assert_not_reached ();
  }
}

static void
op_caps (Model * m)
{
  static const guint64 periods[] = { 0, 40 * MS, 33366667, 20 * MS,
    RTP_BURST_MIN_PERIOD, RTP_BURST_MAX_PERIOD, 1 * MS
  };
  static const gint rates[] = { 0, 90000, 48000, 8000, 1 };
  guint8 sel = fuzz_u8 (m->in);
  guint64 period;
  gint rate, pt;

  if ((sel & 7) < G_N_ELEMENTS (periods)) {
    period = periods[sel & 7];
  } else {
    /* what rtp_burst_parse_framerate () gives: 0 or within the range */
    period = fuzz_u32 (m->in) * G_GUINT64_CONSTANT (3);
    if (period < RTP_BURST_MIN_PERIOD || period > RTP_BURST_MAX_PERIOD)
      period = 0;
  }
  if (((sel >> 3) & 7) < G_N_ELEMENTS (rates))
    rate = rates[(sel >> 3) & 7];
  else
    rate = (gint) (fuzz_u32 (m->in) & 0x7fffffff);
  pt = (sel & 0x40) ? -1 : MEDIA_PT;
  TRACE ("caps: period %" G_GUINT64_FORMAT ", clock-rate %d, pt %d\n",
      period, rate, pt);
  rtp_burst_stream_set_caps (m->s, period, rate, pt);
}

static guint64
fuzz_latency (Model * m)
{
  static const guint64 lat[] = { 0, 1 * MS, 20 * MS, 100 * MS, 200 * MS,
    1000 * MS
  };
  guint8 sel = fuzz_u8 (m->in);

  if (sel < 200)
    return lat[sel % G_N_ELEMENTS (lat)];
  return fuzz_time (m->in);
}

static void
op_latency (Model * m)
{
  guint8 which = fuzz_u8 (m->in) % 3;
  guint64 lat = fuzz_latency (m);

  TRACE ("latency %u = %" G_GUINT64_FORMAT "\n", which, lat);
  if (which == 2) {
    rtp_burst_stream_set_upstream_latency (m->s, lat);
  } else {
    rtp_burst_stream_set_sink_latency (m->s, which == 0 ? RTP_BURST_HOLD_EVENT
        : RTP_BURST_HOLD_QUERY, lat);
    m->last_sink_latency[which == 0 ? RTP_BURST_HOLD_EVENT :
        RTP_BURST_HOLD_QUERY] = lat;
  }
}

/* rtp_burst_stream_flush (), or with @by_stop rtp_burst_stream_stop (),
 * which flushes too: everything queued is flushed, the events handed over
 * (@keep) or freed by the stream. */
static void
flush_full (Model * m, gboolean keep, gboolean by_stop)
{
  guint64 n = n_queued_media (m) + n_queued_repair (m);
  guint i;

  TRACE ("  flush%s: %u packets, %u repair, %u events\n", by_stop ?
      " by stop" : "", n_queued_media (m), n_queued_repair (m),
      n_queued_events (m));
  FUZZ_CHECK (!m->pending, "flush during a push");
  if (by_stop)
    rtp_burst_stream_stop (m->s);
  else
    rtp_burst_stream_flush (m->s, keep ? keep_event : NULL, m);
  if (!keep) {
    for (; m->event_lo < m->events->len; m->event_lo++) {
      EventRec *e = &g_array_index (m->events, EventRec, m->event_lo);

      FUZZ_CHECK (e->freed, "event %u neither handed over nor freed",
          m->event_lo);
      m->events_resolved++;
    }
  }
  FUZZ_CHECK (m->event_lo == m->events->len, "%u events left after a flush",
      n_queued_events (m));
  for (i = m->media_lo; i < m->media->len; i++) {
    media_rec (m, i)->fate = FATE_FLUSHED;
    FUZZ_CHECK (media_rec (m, i)->freed_by_stream, "media %u flushed, not "
        "freed", i);
  }
  for (i = m->repair_lo; i < m->repair->len; i++) {
    repair_rec (m, i)->fate = FATE_FLUSHED;
    FUZZ_CHECK (repair_rec (m, i)->freed_by_stream, "repair %u flushed, not "
        "freed", i);
  }
  m->media_lo = m->media->len;
  m->repair_lo = m->repair->len;
  m->reached = NONE;
  m->ep_flushed += n;
  m->flushed += n;
  model_close (m);
  FUZZ_CHECK (rtp_burst_stream_is_empty (m->s), "not empty after a flush");
}

static void
flush (Model * m, gboolean keep)
{
  flush_full (m, keep, FALSE);
}

static void
op_flush (Model * m)
{
  guint8 flags = fuzz_u8 (m->in);

  TRACE ("flush\n");
  /* flush-start: a push under way returns FLUSHING (bit 1: it was done) */
  if (m->pending)
    push_done (m, !(flags & 2), push_end (m));
  /* bit 2: a chain came meanwhile, with a buffer list of 1-8 packets */
  if (flags & 4)
    refuse_input (m, (flags >> 3) % 8 + 1);
  flush (m, !(flags & 1));
}

/* Adds the stats of the epoch that ends to the totals. */
static void
end_epoch (Model * m)
{
  RtpBurstStreamStats st;

  rtp_burst_stream_get_stats (m->s, &st);
  m->stats_flushed += st.flushed_packets;
  m->stats_dropped += st.dropped_packets;
}

static void
start (Model * m, const gchar * group)
{
  end_epoch (m);
  m->ep_packets = m->ep_repair = m->ep_flushed = m->ep_dropped = 0;
  m->ep_bytes = m->ep_repair_bytes = m->ep_slots = m->ep_key_units = 0;
  TRACE ("  start, group %s\n", group ? group : "(none)");
  rtp_burst_stream_start (m->s, group);
}

/* PAUSED -> READY -> PAUSED: the element flushes, stops, starts; bit 0:
 * stop without the flush first (stop flushes itself, freeing the events). */
static void
op_restart (Model * m)
{
  guint8 flags = fuzz_u8 (m->in);
  const gchar *group;

  TRACE ("restart\n");
  if (m->pending)
    push_done (m, !(flags & 0x10), push_end (m));
  if (!(flags & 1)) {
    flush (m, !(flags & 8));
    rtp_burst_stream_stop (m->s);
  } else {
    flush_full (m, FALSE, TRUE);
  }
  FUZZ_CHECK (rtp_burst_stream_period (m->s) == 0, "period %"
      G_GUINT64_FORMAT " after stop", rtp_burst_stream_period (m->s));
  switch ((flags >> 1) & 3) {
    case 0:
      group = NULL;
      break;
    case 1:
      group = "";
      break;
    default:
      group = m->group;
      break;
  }
  start (m, group);
  /* READY -> PAUSED, and (bit 5 clear) on to PLAYING */
  m->playing = !(flags & 0x20);
}

/* --- the task ------------------------------------------------------------ */

static const gchar *const kind_names[] = { "WAIT_DATA", "WAIT_UNTIL",
  "EVENT", "PUSH", "REPAIR", "DROPPED"
};

static void
push_done (Model * m, gboolean refused, guint64 end)
{
  guint i;

  FUZZ_CHECK (m->pending, "push_done without a push");
  TRACE ("  push_done%s, end %" G_GUINT64_FORMAT "\n", refused ? " refused" :
      "", end);
  m->pending = FALSE;
  rtp_burst_stream_push_done (m->s, end, refused);
  for (i = 0; i < m->n_pending; i++) {
    Packet *p = m->pending_packets[i];

    if (refused) {
      Rec *r = p->repair ? repair_rec (m, p->id) : media_rec (m, p->id);

      r->fate = FATE_REFUSED;
      m->refused++;
      m->ep_flushed++;
      if (p->repair) {
        m->ep_repair--;
        m->ep_repair_bytes -= MIN (m->ep_repair_bytes, p->size);
      } else {
        m->ep_packets--;
        m->ep_bytes -= p->size;
      }
    }
    free_taken (m, p);
  }
  m->n_pending = 0;
}

static guint64
stat_of (Model * m, gsize offset)
{
  RtpBurstStreamStats st;

  rtp_burst_stream_get_stats (m->s, &st);
  return *(guint64 *) ((guint8 *) & st + offset);
}

#define STAT(m, field) \
  stat_of (m, G_STRUCT_OFFSET (RtpBurstStreamStats, field))

/* PUSH of the slot at @slot (the one waited for; NONE: unpaced). */
static void
take_push (Model * m, const RtpBurstNext * next, guint64 slot)
{
  Packet *p;
  guint64 bytes, expect = 0;
  guint i, n = next->n_packets, frame;
  Frame *f;

  FUZZ_CHECK (n > 0, "PUSH of no packets");
  FUZZ_CHECK (n <= n_queued_media (m), "PUSH of %u packets, %u queued", n,
      n_queued_media (m));
  FUZZ_CHECK (n <= G_N_ELEMENTS (m->pending_packets), "PUSH of %u packets",
      n);
  bytes = rtp_burst_stream_take_packets (m->s, next, m->pending_packets);
  frame = media_rec (m, m->media_lo)->frame;
  f = &g_array_index (m->frames, Frame, frame);
  for (i = 0; i < n; i++) {
    Rec *r;

    p = m->pending_packets[i];
    FUZZ_CHECK (p != NULL && p->magic == PACKET_MAGIC && !p->repair,
        "take_packets gave %p", (gpointer) p);
    /* the oldest queued, in order, all of the head frame */
    FUZZ_CHECK (p->id == m->media_lo, "took media %u, %u is the oldest "
        "queued", p->id, m->media_lo);
    r = media_rec (m, p->id);
    FUZZ_CHECK (r->fate == FATE_QUEUED, "media %u taken again (fate %d)",
        p->id, r->fate);
    FUZZ_CHECK (r->frame == frame, "a push of frames %u and %u", frame,
        r->frame);
    r->fate = FATE_TAKEN;
    expect += r->size;
    m->media_lo++;
  }
  FUZZ_CHECK (bytes == expect, "took %" G_GUINT64_FORMAT " bytes, %"
      G_GUINT64_FORMAT " expected", bytes, expect);
  if (slot != NONE) {
    FUZZ_CHECK (f->last_slot == NONE || slot >= f->last_slot,
        "slot at %" G_GUINT64_FORMAT " before the frame's previous one at %"
        G_GUINT64_FORMAT, slot, f->last_slot);
    f->last_slot = slot;
  }
  m->taken += n;
  m->ep_packets += n;
  m->ep_bytes += bytes;
  m->ep_slots++;
  m->n_pending = n;
  m->pending = TRUE;
  m->pending_repair = FALSE;
}

static void
take_repair (Model * m, const RtpBurstNext * next)
{
  Packet *p;
  Rec *r;
  guint size = 0;

  FUZZ_CHECK (n_queued_repair (m) > 0, "REPAIR with none queued");
  p = rtp_burst_stream_take_repair (m->s, next, now_time (m), &size);
  FUZZ_CHECK (p != NULL && p->magic == PACKET_MAGIC && p->repair,
      "take_repair gave %p", (gpointer) p);
  FUZZ_CHECK (p->id == m->repair_lo, "took repair %u, %u is the oldest "
      "queued", p->id, m->repair_lo);
  r = repair_rec (m, p->id);
  FUZZ_CHECK (r->fate == FATE_QUEUED, "repair %u taken again", p->id);
  FUZZ_CHECK (size == r->size, "repair %u of %u bytes, %u added", p->id,
      size, r->size);
  FUZZ_CHECK (m->events_resolved >= r->events_before, "repair %u leaves "
      "before the events queued before it (%" G_GUINT64_FORMAT " of %"
      G_GUINT64_FORMAT " out)", p->id, m->events_resolved, r->events_before);
  r->fate = FATE_TAKEN;
  m->repair_lo++;
  m->taken++;
  m->ep_repair++;
  m->ep_repair_bytes += size;
  m->pending_packets[0] = p;
  m->n_pending = 1;
  m->pending = TRUE;
  m->pending_repair = TRUE;
}

static void
pop_event (Model * m, const RtpBurstNext * next)
{
  Event *e;
  EventRec *r;

  FUZZ_CHECK (n_queued_events (m) > 0, "EVENT with none queued");
  e = rtp_burst_stream_pop_event (m->s);
  FUZZ_CHECK (e != NULL && e == next->event && e->magic == EVENT_MAGIC,
      "popped %p, next named %p", (gpointer) e, next->event);
  FUZZ_CHECK (e->id == m->event_lo, "popped event %u, %u is the oldest",
      e->id, m->event_lo);
  r = &g_array_index (m->events, EventRec, e->id);
  FUZZ_CHECK (m->media_lo >= r->media_before, "event %u leaves before media "
      "%u, queued before it", e->id, m->media_lo);
  FUZZ_CHECK (m->repair_lo >= r->repair_before, "event %u leaves before "
      "repair %u, queued before it", e->id, m->repair_lo);
  m->event_lo++;
  m->events_resolved++;
  free_event (e);
}

/* DROPPED: the frame at the head went, all of it, and is noticed. */
static void
dropped (Model * m, guint64 dropped_before)
{
  RtpBurstStreamNotices notices;
  guint64 n = 0;
  guint frame;

  FUZZ_CHECK (n_queued_media (m) > 0, "DROPPED with no packet queued");
  frame = media_rec (m, m->media_lo)->frame;
  while (m->media_lo < m->media->len &&
      media_rec (m, m->media_lo)->frame == frame) {
    Rec *r = media_rec (m, m->media_lo);

    FUZZ_CHECK (r->freed_by_stream, "media %u dropped, not freed",
        m->media_lo);
    r->fate = FATE_DROPPED;
    m->media_lo++;
    n++;
  }
  FUZZ_CHECK (!(m->open && frame == m->frames->len - 1), "the open frame "
      "%u was dropped", frame);
  FUZZ_CHECK (STAT (m, dropped_packets) == dropped_before + n,
      "dropped-packets %" G_GUINT64_FORMAT " after dropping frame %u of %"
      G_GUINT64_FORMAT " packets, %" G_GUINT64_FORMAT " before",
      STAT (m, dropped_packets), frame, n, dropped_before);
  m->ep_dropped += n;
  m->dropped += n;
  rtp_burst_stream_take_notices (m->s, &notices);
  m->ep_key_units++;
  FUZZ_CHECK (notices.dropped && notices.drop.packets == n &&
      notices.drop.rtptime == g_array_index (m->frames, Frame,
          frame).rtptime, "drop notice %d: %u packets, rtptime %u; frame "
      "%u of %" G_GUINT64_FORMAT " packets, rtptime %u", notices.dropped,
      notices.drop.packets, notices.drop.rtptime, frame, n,
      g_array_index (m->frames, Frame, frame).rtptime);
}

/* How an answer of next () went, one byte: bits 0-1 a wait (0, 3: on
 * time, 1: late, 2: cut short, and the task stops), bits 2-3 how long
 * downstream held a paced push (0: not, 1: a while, 2, 3: as a
 * synchronising sink with the latency of the last LATENCY event or query
 * would), bit 4 the push was refused by a flush, bit 5 it stays pending
 * (the task stops; input goes on while it pushes).  With bit 7 of the
 * task's policy byte every answer reads its own byte, and its own u16 for
 * "late" and "a while"; else the policy applies to all (2 ms for those). */
#define HOW_WAIT(h) ((h) & 3)
#define HOW_HOLD(h) (((h) >> 2) & 3)
#define HOW_REFUSED 0x10
#define HOW_PENDING 0x20
#define POLICY_PER_ANSWER 0x80

static guint8
answer_how (Model * m, guint8 policy)
{
  return (policy & POLICY_PER_ANSWER) ? fuzz_u8 (m->in) : policy;
}

static guint64
answer_delay (Model * m, guint8 policy)
{
  return (policy & POLICY_PER_ANSWER) ? (guint64) fuzz_u16 (m->in) * 10 * US
      : 2 * MS;
}

/* The element's loop, @steps answers at most (a slot woken for is pushed
 * in any case), acted on as @policy says. */
static void
task (Model * m, guint steps, guint8 policy)
{
  RtpBurstStreamNow now;
  RtpBurstNext next;
  static const gchar clocks[2] = { 'a', 'b' };
  guint step;

  if (m->pending)
    push_done (m, FALSE, push_end (m));

  for (step = 0; step < steps || (m->reached != NONE && step < steps + 8);
      step++) {
    guint64 timeouts, drops, before, slot = NONE;
    guint8 how;

    now.now = now_time (m);
    now.playing = m->playing;
    now.clock = m->no_clock ? NULL : &clocks[m->clock_id];
    now.base_time = m->base_time;
    timeouts = STAT (m, timeout_frames);
    drops = STAT (m, dropped_packets);
    rtp_burst_stream_next (m->s, &now, &next);
    TRACE ("  next at %" G_GUINT64_FORMAT "%s: %s time %" G_GUINT64_FORMAT
        " dts %" G_GUINT64_FORMAT " n %u%s%s\n", now.now,
        now.playing ? "" : " (paused)", kind_names[next.kind], next.time,
        next.dts, next.n_packets, next.for_slot ? " for_slot" : "",
        next.for_close ? " for_close" : "");

    /* the open frame's timeout closes it */
    before = timeouts;
    timeouts = STAT (m, timeout_frames);
    FUZZ_CHECK (timeouts - before <= 1 && (timeouts == before || m->open),
        "%" G_GUINT64_FORMAT " timeouts, frame open %d", timeouts - before,
        m->open);
    if (timeouts > before)
      model_close (m);
    FUZZ_CHECK ((next.kind == RTP_BURST_NEXT_DROPPED) ==
        (STAT (m, dropped_packets) > drops),
        "%s, dropped-packets %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT,
        kind_names[next.kind], drops, STAT (m, dropped_packets));

    if (m->reached != NONE) {
      /* the slot waited for is pushed next, once the group's rate has
       * room for it (the push's time is then when it has) */
      FUZZ_CHECK ((next.kind == RTP_BURST_NEXT_PUSH && next.time >=
              m->reached) || (next.kind == RTP_BURST_NEXT_WAIT_UNTIL &&
              !next.for_slot), "after woke () for the slot at %"
          G_GUINT64_FORMAT ": %s at %" G_GUINT64_FORMAT, m->reached,
          kind_names[next.kind], next.time);
    } else {
      /* ... and a paced slot only after its wait, or handed over ahead:
       * less than release_ahead before its time */
      FUZZ_CHECK (next.kind != RTP_BURST_NEXT_PUSH || next.time == NONE ||
          (now.now != NONE && ahead_of (&next, &now, &m->config)),
          "a push for the slot at %" G_GUINT64_FORMAT " without its wait "
          "at %" G_GUINT64_FORMAT, next.time, now.now);
    }
    if (next.kind == RTP_BURST_NEXT_PUSH) {
      slot = m->reached;
      m->reached = NONE;
    }
    if (next.kind == RTP_BURST_NEXT_PUSH || next.kind ==
        RTP_BURST_NEXT_REPAIR) {
      /* not before its time (the harness waited for it; a slot handed
       * over ahead less than release_ahead before it), and the DTS a
       * synchronising sink releases it at is not after it */
      FUZZ_CHECK (next.time == NONE || now.now == NONE || next.time <=
          now.now || ahead_of (&next, &now, &m->config), "%s due at %"
          G_GUINT64_FORMAT
          " at %" G_GUINT64_FORMAT, kind_names[next.kind], next.time, now.now);
      FUZZ_CHECK (next.dts == NONE || (next.time != NONE &&
              next.dts <= next.time), "%s at %" G_GUINT64_FORMAT " with DTS %"
          G_GUINT64_FORMAT, kind_names[next.kind], next.time, next.dts);
    }

    switch (next.kind) {
      case RTP_BURST_NEXT_WAIT_DATA:
        if (m->playing && now.now != NONE) {
          /* only the open frame can keep a playing task waiting */
          FUZZ_CHECK (n_queued_events (m) == 0 && n_queued_repair (m) == 0
              && (n_queued_media (m) == 0 || (m->open &&
                      media_rec (m, m->media_lo)->frame ==
                      m->frames->len - 1)), "WAIT_DATA in PLAYING with %u "
              "events, %u repair and %u media packets queued (open %d)",
              n_queued_events (m), n_queued_repair (m), n_queued_media (m),
              m->open);
        }
        return;
      case RTP_BURST_NEXT_WAIT_UNTIL:
        how = answer_how (m, policy);
        if (!next.for_slot) {
          FUZZ_CHECK (now.now != NONE && next.time > now.now, "a wait for %"
              G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT " (for_close %d)",
              next.time, now.now, next.for_close);
        }
        if (now.now == NONE) {
          /* no clock: the wait fails at once (BADTIME), the slot is
           * reached */
          if (next.for_slot) {
            rtp_burst_stream_woke (m->s, 0, TRUE);
            m->reached = next.time;
          }
          break;
        }
        if (HOW_WAIT (how) == 2 && next.time > now.now) {
          /* cut short: a state change or flush unscheduled it; the task
           * stops here */
          advance_to (m, now.now + (next.time - now.now) / 2);
          TRACE ("  wait cut short at %" G_GUINT64_FORMAT "\n", m->time);
          return;
        }
        if (HOW_WAIT (how) == 1)
          /* the machine woke late */
          advance_to (m, rtp_burst_time_add (next.time,
                  answer_delay (m, policy)));
        else
          advance_to (m, next.time);
        if (next.for_slot) {
          guint64 t = now_time (m);

          /* EARLY (not counted) if the slot was due when asked */
          rtp_burst_stream_woke (m->s, t > next.time ? t - next.time : 0,
              next.time > now.now);
          m->reached = next.time;
        }
        break;
      case RTP_BURST_NEXT_EVENT:
        pop_event (m, &next);
        break;
      case RTP_BURST_NEXT_PUSH:{
        guint64 end = NONE, lat;

        how = answer_how (m, policy);
        take_push (m, &next, slot);
        if (!m->no_clock) {
          /* how long downstream held the push (a synchronising sink: a
           * paced one, which has a DTS) */
          switch (HOW_HOLD (how)) {
            case 0:
              break;
            case 1:
              advance (m, answer_delay (m, policy));
              break;
            default:
              /* a synchronising sink with the latency last set */
              lat = m->last_sink_latency[HOW_HOLD (how) == 2 ?
                  RTP_BURST_HOLD_EVENT : RTP_BURST_HOLD_QUERY];
              if (next.dts != NONE && lat != NONE)
                advance_to (m, rtp_burst_time_add (next.dts, lat));
              break;
          }
          end = m->time;
        }
        if (how & HOW_PENDING) {
          /* pushing without the lock: input goes on meanwhile */
          TRACE ("  push pending\n");
          return;
        }
        push_done (m, how & HOW_REFUSED, end);
        break;
      }
      case RTP_BURST_NEXT_REPAIR:
        how = answer_how (m, policy);
        take_repair (m, &next);
        if (how & HOW_PENDING) {
          TRACE ("  repair push pending\n");
          return;
        }
        push_done (m, how & HOW_REFUSED, NONE);
        break;
      case RTP_BURST_NEXT_DROPPED:
        dropped (m, drops);
        break;
      default:
        FUZZ_CHECK (FALSE, "next () answered %d", next.kind);
    }
    check_stats (m, "task");
  }
}

/* --- another member of the group ----------------------------------------- */

static void
op_other (Model * m)
{
  static const gchar clocks[2] = { 'a', 'b' };
  guint8 sel = fuzz_u8 (m->in);

  switch (sel & 3) {
    case 0:
      TRACE ("other: joins\n");
      rtp_burst_group_member_join (&m->other, m->group);
      /* bit 4: with a rate for the group of 6 Mbit/s */
      rtp_burst_group_member_set_max_rate (&m->other, (sel & 0x10) ?
          6000000 : 0);
      break;
    case 1:
      TRACE ("other: leaves\n");
      rtp_burst_group_member_leave (&m->other);
      break;
    default:{
      RtpBurstPlan plan;
      guint n = fuzz_u8 (m->in) % 64 + 1;
      guint64 t;
      guint np;

      TRACE ("other: places %u packets\n", n);
      rtp_burst_plan_init (&plan, rtp_burst_time_add (m->time,
              (guint64) fuzz_u16 (m->in) * 10 * US), 36 * MS, 40 * MS, n, n,
          1, 0.0);
      rtp_burst_group_member_place (&m->other, &plan, &clocks[(sel >> 2) & 1],
          m->base_time);
      while (rtp_burst_plan_next (&plan, NULL, &t, &np));
      break;
    }
  }
}

/* --- the input ----------------------------------------------------------- */

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const gchar *const domains[] = { "GLib", NULL };

  fuzz_use_plain_malloc (*argv);
  trace = g_getenv ("RTPBURSTPACE_FUZZ_TRACE") != NULL;
  /* a critical in the stream (g_return_if_fail and friends) is a bug */
  fuzz_abort_on_criticals (domains);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  static const guint64 starts[4] = { 0, 1000 * MS,
    G_GUINT64_CONSTANT (1) << 62, G_MAXUINT64 - (G_GUINT64_CONSTANT (1) << 34)
  };
  FuzzInput in = { data, size, 0 };
  Model *m = g_new0 (Model, 1);
  RtpBurstStreamConfig *c = &m->config;
  guint ops = 0, i;
  guint8 hdr;

  current = m;
  m->in = &in;
  m->media = g_array_new (FALSE, FALSE, sizeof (Rec));
  m->repair = g_array_new (FALSE, FALSE, sizeof (Rec));
  m->events = g_array_new (FALSE, FALSE, sizeof (EventRec));
  m->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  /* groups are per process: a name of this process's own */
  m->group = g_strdup_printf ("fuzz_stream-%d", (int) getpid ());
  rtp_burst_group_member_init (&m->other);
  for (i = 0; i < RTP_BURST_HOLD_N_SOURCES; i++)
    m->last_sink_latency[i] = NONE;
  m->reached = NONE;
  last_rtptime = 90000;

  /* the element's defaults, a seed of the input's (never 0: random) */
  c->burst_size = 1;
  c->duty = 0.9;
  c->slot_jitter = 0.01;
  c->seed = fuzz_u32 (&in);
  if (c->seed == 0)
    c->seed = 1;
  c->max_latency = 100 * MS;
  c->overload = RTP_BURST_OVERLOAD_COMPRESS;
  c->auto_margin = TRUE;
  c->pace_repair = TRUE;
  c->pace = TRUE;

  /* header: bits 0-1 the start time, 2 a group, 3 caps of 25 fps and
   * payload 96, 4 PAUSED */
  hdr = fuzz_u8 (&in);
  m->time = starts[hdr & 3];
  m->s = rtp_burst_stream_new (c, free_packet, packet_size, free_event);
  start (m, (hdr & 4) ? m->group : NULL);
  rtp_burst_stream_config_changed (m->s);
  if (hdr & 8)
    rtp_burst_stream_set_caps (m->s, 40 * MS, 90000, MEDIA_PT);
  m->playing = !(hdr & 16);

  while (fuzz_more (&in) && ops++ < MAX_OPS) {
    guint8 op = fuzz_u8 (&in) % OP_COUNT;

    TRACE ("%s (t %" G_GUINT64_FORMAT ")\n", op_names[op], m->time);
    switch (op) {
      case OP_FRAME:
        op_frame (m);
        break;
      case OP_PACKET:
        op_packet (m);
        break;
      case OP_REPAIR:
        add_repair (m, fuzz_u16 (&in));
        break;
      case OP_EVENT:
        op_event (m);
        break;
      case OP_CLOSE_OPEN:
        rtp_burst_stream_close_open (m->s, now_time (m));
        model_close (m);
        break;
      case OP_CONFIG:
        op_config (m);
        break;
      case OP_CAPS:
        op_caps (m);
        break;
      case OP_LATENCY:
        op_latency (m);
        break;
      case OP_FLUSH:
        op_flush (m);
        break;
      case OP_RESTART:
        op_restart (m);
        break;
      case OP_PLAYING:
        m->playing = !m->playing;
        TRACE ("  playing %d\n", m->playing);
        break;
      case OP_TASK:{
        guint steps = fuzz_u8 (&in) % MAX_TASK_STEPS + 1;

        task (m, steps, fuzz_u8 (&in));
        break;
      }
      case OP_ADVANCE:{
        guint8 sel = fuzz_u8 (&in);

        advance (m, sel < 128 ? (guint64) sel * MS : (guint64) fuzz_u16 (&in)
            * (sel < 240 ? US : MS));
        break;
      }
      case OP_CLOCK:{
        guint8 sel = fuzz_u8 (&in);

        m->no_clock = sel & 1;
        m->clock_id = (sel >> 1) & 1;
        m->base_time = (sel & 4) ? ((sel & 8) ? fuzz_time (&in) : 1000 * MS)
            : 0;
        TRACE ("  no clock %d, clock %d, base %" G_GUINT64_FORMAT "\n",
            m->no_clock, m->clock_id, m->base_time);
        break;
      }
      case OP_OTHER:
        op_other (m);
        break;
      case OP_PUSH_DONE:{
        guint8 sel = fuzz_u8 (&in);

        if (m->pending) {
          /* downstream held it a while */
          if (!m->pending_repair && !m->no_clock)
            advance (m, (guint64) (sel >> 1) * 100 * US);
          push_done (m, sel & 1, push_end (m));
        }
        break;
      }
      case OP_NOTICES:{
        RtpBurstStreamNotices notices;

        rtp_burst_stream_take_notices (m->s, &notices);
        /* a drop is noticed as it is answered (dropped ()) */
        FUZZ_CHECK (!notices.dropped, "a drop noticed twice");
        break;
      }
    }
    check_stats (m, op_names[op]);
  }

  /* the end: a push under way returns, the element goes to READY */
  if (m->pending)
    push_done (m, FALSE, push_end (m));
  flush (m, TRUE);
  check_stats (m, "final flush");
  rtp_burst_stream_stop (m->s);
  end_epoch (m);
  rtp_burst_stream_free (m->s);
  rtp_burst_group_member_leave (&m->other);

  /* conservation */
  FUZZ_CHECK (m->media_lo == m->media->len && m->repair_lo == m->repair->len,
      "%u media and %u repair packets unaccounted for", n_queued_media (m),
      n_queued_repair (m));
  FUZZ_CHECK (m->taken - m->refused + m->stats_flushed + m->stats_dropped ==
      m->added, "taken %" G_GUINT64_FORMAT " - refused %" G_GUINT64_FORMAT
      " + flushed %" G_GUINT64_FORMAT " + dropped %" G_GUINT64_FORMAT
      " != added %" G_GUINT64_FORMAT, m->taken, m->refused, m->stats_flushed,
      m->stats_dropped, m->added);
  FUZZ_CHECK (m->stats_flushed == m->flushed + m->refused &&
      m->stats_dropped == m->dropped, "stats: flushed %" G_GUINT64_FORMAT
      ", dropped %" G_GUINT64_FORMAT "; model: flushed %" G_GUINT64_FORMAT
      " + refused %" G_GUINT64_FORMAT ", dropped %" G_GUINT64_FORMAT,
      m->stats_flushed, m->stats_dropped, m->flushed, m->refused, m->dropped);
  for (i = 0; i < m->media->len; i++) {
    Rec *r = media_rec (m, i);

    FUZZ_CHECK (r->fate != FATE_QUEUED && r->freed_by_stream ==
        (r->fate == FATE_FLUSHED || r->fate == FATE_DROPPED), "media %u: "
        "fate %d, freed by the stream %d", i, r->fate, r->freed_by_stream);
  }
  for (i = 0; i < m->repair->len; i++) {
    Rec *r = repair_rec (m, i);

    FUZZ_CHECK (r->fate != FATE_QUEUED && r->fate != FATE_DROPPED &&
        r->freed_by_stream == (r->fate == FATE_FLUSHED), "repair %u: fate %d,"
        " freed by the stream %d", i, r->fate, r->freed_by_stream);
  }
  FUZZ_CHECK (m->allocs == m->frees, "%" G_GUINT64_FORMAT " packets, %"
      G_GUINT64_FORMAT " freed", m->allocs, m->frees);
  FUZZ_CHECK (m->event_allocs == m->event_frees && m->event_lo ==
      m->events->len, "%" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
      " freed", m->event_allocs, m->event_frees);

  g_array_free (m->media, TRUE);
  g_array_free (m->repair, TRUE);
  g_array_free (m->events, TRUE);
  g_array_free (m->frames, TRUE);
  g_free (m->group);
  current = NULL;
  g_free (m);
  return 0;
}
