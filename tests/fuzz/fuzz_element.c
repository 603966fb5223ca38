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
 * libFuzzer target for the element's input path.  The element is compiled
 * into the fuzzer and registered statically; each input creates one
 * GstHarness with a GstTestClock and replays a sequence of operations:
 * caps with fuzzed clock-rate / a-framerate (arbitrary bytes, wrong types,
 * missing), segments, property values at their limits, valid RTP packets
 * built from fuzzed fields, mutated RTP, raw garbage, buffer lists,
 * flush-start / flush-stop (paired and not), EOS, stream-start, PLAYING <->
 * PAUSED, upstream latency, LATENCY events from downstream, a downstream
 * that synchronises like GstBaseSink (it holds each buffer in the task's
 * thread until its DTS, else PTS, plus that latency, on the test clock),
 * and clock cranks.
 *
 * Only this thread moves the test clock, so nothing can wait forever on
 * it: before a push that could block on the element's full queue (8
 * complete frames) the fuzzer drains, and every wait here is bounded.
 *
 * Invariants, checked with abort ():
 *  A  stats packets + flushed-packets + dropped-packets + queued-packets ==
 *     (each with the repair packets' repair-packets and repair-queued)
 *     valid RTP packets the element accepted (push returned OK) once the task is
 *     idle, <= while it pushes a slot; invalid-packets == invalid buffers
 *     it accepted, always;
 *  B  output order: every buffer that comes out was pushed and accepted,
 *     comes out once, in the order pushed among the media and among the
 *     repair packets (another payload type than the caps' payload when it
 *     was accepted: rtpburstrepair.h), which leave between the media's
 *     slots (buffers are tagged through GST_BUFFER_OFFSET, which the
 *     element must not change);
 *  C  progress: while PLAYING, not flushing and not after EOS, queued
 *     packets leave when the clock is cranked (stuck for STUCK_US = abort);
 *  D  after EOS has come out (and no flush since) nothing is left queued;
 *  E  at the end: buffers out == stats packets (a slot refused by a flush
 *     counts in flushed-packets);
 *  F  a buffer comes out only after stream-start and caps did;
 *  plus AddressSanitizer / UndefinedBehaviorSanitizer, fatal criticals, and
 *  libFuzzer's -timeout for hangs (teardown included).
 */

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>
#include <gst/rtp/gstrtpbuffer.h>

#include "fuzz-input.h"
#include "gstrtpburstpace.h"

#define TAG_MAGIC G_GUINT64_CONSTANT (0x7274706275727374)       /* "rtpburst" */
#define MAX_BUFFERS 2048        /* pushed per input */
#define MAX_BYTES (4u << 20)    /* allocated per input */
#define MAX_OPS 1024
#define STUCK_US (3 * G_USEC_PER_SEC)
#define SETTLE_US (2 * G_USEC_PER_SEC)
#define MAX_QUEUED_FRAMES 8     /* as in gstrtpburstpace.c */

enum
{
  OP_RTP = 0,
  OP_RTP2,                      /* more weight for packets */
  OP_RTP_FRAME,                 /* a frame of several packets */
  OP_MUTATED,
  OP_RAW,
  OP_LIST,
  OP_CAPS,
  OP_SEGMENT,
  OP_PROPERTY,
  OP_FLUSH,
  OP_EOS,
  OP_STREAM_START,
  OP_STATE,
  OP_LATENCY,
  OP_CRANK,
  OP_ADVANCE,
  OP_DRAIN,
  OP_SYNC,                      /* wait until the task waits on the clock */
  OP_SINK_LATENCY,              /* a LATENCY event from downstream */
  OP_SINK_SYNC,                 /* downstream starts / stops synchronising */
  N_OPS
};

/* Known bugs the fuzzer can be told to keep away from, so that a long run
 * looks for others (RTPBURSTPACE_FUZZ_AVOID, comma-separated). */
static gboolean avoid_unpaired_flush_stop;
static gboolean avoid_restart_after_eos;
static gboolean avoid_plan_wrap;
static gboolean avoid_flush_sticky;
static gboolean avoid_list_flush_count;

/* RTPBURSTPACE_FUZZ_TRACE=1: print each operation (to read a reproducer) */
static gboolean trace;
#define TRACE(...) G_STMT_START {                                       \
  if (G_UNLIKELY (trace)) {                                             \
    fprintf (stderr, "  [t=%" GST_TIME_FORMAT "] ",                     \
        GST_TIME_ARGS (gst_clock_get_time (GST_CLOCK (c->clock))));     \
    fprintf (stderr, __VA_ARGS__);                                      \
    fprintf (stderr, "\n");                                             \
  }                                                                     \
} G_STMT_END

typedef struct
{
  GstHarness *h;
  GstTestClock *clock;
  GstPad *elem_sink;
  FuzzInput *in;

  /* what was pushed */
  guint64 n_tags;
  guint8 accepted[MAX_BUFFERS]; /* 0 no, 1 valid RTP accepted, 2 invalid */
  guint8 seen[MAX_BUFFERS];
  guint8 pt[MAX_BUFFERS];       /* payload type, 0xff if not RTP */
  guint8 repair[MAX_BUFFERS];   /* accepted as a repair packet */
  /* caps on the element's sink pad when the buffer was accepted, and on
   * the harness' sink pad when it arrived there (pad probe, task thread) */
  GstCaps *in_caps[MAX_BUFFERS];
  GstCaps *out_caps[MAX_BUFFERS];
  gboolean out_stream_start[MAX_BUFFERS];
  guint64 valid_ok, invalid_ok;
  gsize bytes;

  /* what came out */
  guint64 n_out;
  gboolean have_out[2];         /* per class: media, repair */
  guint64 last_out[2];

  /* stream state as the fuzzer drove it */
  gboolean flushing;            /* flush-start without flush-stop yet */
  gboolean paused;
  /* EOS bookkeeping since the last flush-stop.  A STREAM_START after an
   * EOS starts a new stream that the element resumes for, even if it was
   * queued behind the EOS, so only the last of these events counts. */
  guint n_eos_in;               /* EOS events accepted */
  guint n_eos_out;              /* EOS events that came out */
  gboolean eos_last;            /* the last EOS / STREAM_START accepted was
                                 * an EOS: the pad refuses data */
  gboolean flush_started;       /* a flush-start happened in this input */
  guint syncs;
  guint16 seq;
  guint32 rtptime;
  GstClockTime pts;

  /* a synchronising downstream (OP_SINK_SYNC), in the harness' sink pad
   * probe, in the task's thread; guarded by sink_lock */
  GMutex sink_lock;
  gboolean sink_sync;
  gboolean sink_flushing;       /* between flush-start and flush-stop */
  GstClockTime sink_latency;
  GstClockID sink_id;           /* the wait in progress */
} Ctx;

typedef struct
{
  guint64 packets, invalid, flushed, dropped, frames;
  guint queued, queued_frames;
} Stats;

/* --- helpers ------------------------------------------------------------- */

static void
get_stats (Ctx * c, Stats * st)
{
  GstStructure *s = NULL;
  guint64 repair;
  guint repair_queued;

  g_object_get (c->h->element, "stats", &s, NULL);
  FUZZ_CHECK (s != NULL, "no stats");
  FUZZ_CHECK (gst_structure_get_uint64 (s, "repair-packets", &repair) &&
      gst_structure_get_uint (s, "repair-queued", &repair_queued),
      "repair stats fields missing");
  FUZZ_CHECK (gst_structure_get_uint64 (s, "packets", &st->packets) &&
      gst_structure_get_uint64 (s, "invalid-packets", &st->invalid) &&
      gst_structure_get_uint64 (s, "flushed-packets", &st->flushed) &&
      gst_structure_get_uint64 (s, "dropped-packets", &st->dropped) &&
      gst_structure_get_uint64 (s, "frames", &st->frames) &&
      gst_structure_get_uint (s, "queued-packets", &st->queued) &&
      gst_structure_get_uint (s, "queued-frames", &st->queued_frames),
      "stats fields missing");
  /* here the repair packets count with the media */
  st->packets += repair;
  st->queued += repair_queued;
  gst_structure_free (s);
}

/* Invariant A.  The element counts a slot in packets (or flushed-packets,
 * if a flush refused it) when its push has returned: while the task is
 * pushing, that slot is in none of the three counters.  So: <= at any time,
 * == once the task is idle (@exact). */
static gboolean
accounting_exact (Ctx * c, Stats * st)
{
  get_stats (c, st);
  return st->packets + st->flushed + st->dropped + st->queued == c->valid_ok &&
      st->invalid == c->invalid_ok;
}

static void
check_accounting_full (Ctx * c, Stats * st, gboolean exact)
{
  gboolean ok = accounting_exact (c, st);

  if (!exact)
    ok = st->packets + st->flushed + st->dropped + st->queued <= c->valid_ok
        && st->invalid == c->invalid_ok;
  FUZZ_CHECK (ok, "packets %" G_GUINT64_FORMAT " + flushed %"
      G_GUINT64_FORMAT " + dropped %" G_GUINT64_FORMAT " + queued %u %s %"
      G_GUINT64_FORMAT " valid packets accepted, invalid-packets %"
      G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
      " came out, %" G_GUINT64_FORMAT " frames, %u queued)", st->packets,
      st->flushed, st->dropped, st->queued, exact ? "!=" : ">",
      c->valid_ok, st->invalid, c->invalid_ok, c->n_out, st->frames,
      st->queued_frames);
}

static void
check_accounting (Ctx * c, Stats * st)
{
  check_accounting_full (c, st, FALSE);
}

static void
note_out_caps (Ctx * c, GstPad * pad, GstBuffer * buf)
{
  guint64 tag = GST_BUFFER_OFFSET (buf);
  GstEvent *ss;

  if (GST_BUFFER_OFFSET_END (buf) != TAG_MAGIC || tag >= MAX_BUFFERS ||
      c->out_caps[tag] != NULL)
    return;                     /* pull_output () reports it */
  c->out_caps[tag] = gst_pad_get_current_caps (pad);
  ss = gst_pad_get_sticky_event (pad, GST_EVENT_STREAM_START, 0);
  c->out_stream_start[tag] = ss != NULL;
  if (ss)
    gst_event_unref (ss);
}

static gboolean
note_list_item (GstBuffer ** buf, guint idx, gpointer user_data)
{
  gpointer *args = user_data;

  note_out_caps (args[0], args[1], *buf);
  return TRUE;
}

/* When downstream synchronises: holds @buf like GstBaseSink with sync=true,
 * until the running time of its DTS (else PTS) plus the sink latency, on
 * the test clock, unless flushing or told to stop (sink_unschedule ()). */
static void
sink_hold (Ctx * c, GstPad * pad, GstBuffer * buf)
{
  GstEvent *ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  const GstSegment *seg;
  GstClockTime rt = GST_CLOCK_TIME_NONE, base;
  GstClockID id = NULL;

  if (ev) {
    gst_event_parse_segment (ev, &seg);
    if (seg->format == GST_FORMAT_TIME)
      rt = gst_segment_to_running_time (seg, GST_FORMAT_TIME,
          GST_BUFFER_DTS_OR_PTS (buf));
    gst_event_unref (ev);
  }
  base = gst_element_get_base_time (c->h->element);
  g_mutex_lock (&c->sink_lock);
  if (c->sink_sync && !c->sink_flushing && GST_CLOCK_TIME_IS_VALID (rt) &&
      c->sink_latency < G_MAXUINT64 / 4 && rt < G_MAXUINT64 / 4 &&
      base < G_MAXUINT64 / 4)
    id = c->sink_id = gst_clock_new_single_shot_id (GST_CLOCK (c->clock),
        base + rt + c->sink_latency);
  g_mutex_unlock (&c->sink_lock);
  if (id == NULL)
    return;
  gst_clock_id_wait (id, NULL);
  g_mutex_lock (&c->sink_lock);
  c->sink_id = NULL;
  g_mutex_unlock (&c->sink_lock);
  gst_clock_id_unref (id);
}

/* Ends the sink's wait in progress; @flushing: and refuses new ones. */
static void
sink_unschedule (Ctx * c, gboolean flushing)
{
  g_mutex_lock (&c->sink_lock);
  c->sink_flushing = flushing;
  if (c->sink_id)
    gst_clock_id_unschedule (c->sink_id);
  g_mutex_unlock (&c->sink_lock);
}

/* Runs in the element's task as a buffer reaches the harness. */
static GstPadProbeReturn
out_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Ctx *c = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    note_out_caps (c, pad, GST_PAD_PROBE_INFO_BUFFER (info));
    sink_hold (c, pad, GST_PAD_PROBE_INFO_BUFFER (info));
  } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST (info);
    gpointer args[2] = { c, pad };

    gst_buffer_list_foreach (list, note_list_item, args);
    if (gst_buffer_list_length (list) > 0)
      sink_hold (c, pad, gst_buffer_list_get (list, 0));
  }
  return GST_PAD_PROBE_OK;
}

/* A sink unschedules its clock wait on flush-start, as GstBaseSink does. */
static GstPadProbeReturn
sink_flush_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

  if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_START)
    sink_unschedule (user_data, TRUE);
  else if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_STOP)
    sink_unschedule (user_data, FALSE);
  return GST_PAD_PROBE_OK;
}

/* Invariant B. */
/* The stream has ended: its last EOS came out and no new stream followed.
 * Nothing may come out or stay queued then. */
static gboolean
stream_ended (Ctx * c)
{
  return c->eos_last && c->n_eos_in > 0 && c->n_eos_out == c->n_eos_in;
}

static void
pull_buffers (Ctx * c)
{
  GstBuffer *buf;

  while ((buf = gst_harness_try_pull (c->h))) {
    guint64 tag = GST_BUFFER_OFFSET (buf);
    guint k;

    FUZZ_CHECK (GST_BUFFER_OFFSET_END (buf) == TAG_MAGIC && tag < c->n_tags,
        "a buffer came out that was never pushed (offset %" G_GUINT64_FORMAT
        ", offset-end %" G_GUINT64_FORMAT ")", tag,
        GST_BUFFER_OFFSET_END (buf));
    FUZZ_CHECK (c->accepted[tag] == 1, "buffer %" G_GUINT64_FORMAT
        " came out but was %s", tag, c->accepted[tag] == 2 ?
        "invalid RTP" : "refused by the element");
    FUZZ_CHECK (!c->seen[tag], "buffer %" G_GUINT64_FORMAT
        " came out twice", tag);
    k = c->repair[tag];
    FUZZ_CHECK (!c->have_out[k] || tag > c->last_out[k], "%s buffer %"
        G_GUINT64_FORMAT " came out after buffer %" G_GUINT64_FORMAT
        " (reordered)", k ? "repair" : "media", tag, c->last_out[k]);
    FUZZ_CHECK (!stream_ended (c),
        "buffer %" G_GUINT64_FORMAT " came out after EOS", tag);
    /* F: downstream got stream-start before the data, and the caps that
     * were current upstream when the data went in */
    if (!avoid_flush_sticky) {
      FUZZ_CHECK (c->out_stream_start[tag], "buffer %" G_GUINT64_FORMAT
          " came out before any stream-start", tag);
      FUZZ_CHECK (c->out_caps[tag] != NULL, "buffer %" G_GUINT64_FORMAT
          " came out before any caps", tag);
      if (c->in_caps[tag] && !gst_caps_is_equal (c->in_caps[tag],
              c->out_caps[tag])) {
        gchar *a = gst_caps_to_string (c->in_caps[tag]);
        gchar *b = gst_caps_to_string (c->out_caps[tag]);

        FUZZ_CHECK (FALSE, "buffer %" G_GUINT64_FORMAT " went in with caps "
            "%s\n  and came out with caps %s", tag, a, b);
      }
    }
    c->seen[tag] = 1;
    c->have_out[k] = TRUE;
    c->last_out[k] = tag;
    c->n_out++;
    TRACE ("out #%" G_GUINT64_FORMAT, tag);
    gst_buffer_unref (buf);
  }
}

/* Invariant B, and EOS bookkeeping.  The harness keeps buffers and events
 * in two queues: a buffer pushed before the EOS may only be seen after it,
 * so the buffers are pulled again when the EOS shows up. */
static void
pull_output (Ctx * c)
{
  GstEvent *ev;

  pull_buffers (c);
  while ((ev = gst_harness_try_pull_event (c->h))) {
    TRACE ("out event %s", GST_EVENT_TYPE_NAME (ev));
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS && c->n_eos_out < c->n_eos_in) {
      pull_buffers (c);
      c->n_eos_out++;
    }
    gst_event_unref (ev);
  }
}

/* Releases the earliest pending clock wait, moving the clock to its time.
 * Waits at most @timeout_ms for one to appear. */
static gboolean
crank (Ctx * c, guint timeout_ms)
{
  GstClockTime t, now;
  GstClockID id;

  t = gst_test_clock_get_next_entry_time (c->clock);
  if (!GST_CLOCK_TIME_IS_VALID (t)) {
    if (timeout_ms == 0 ||
        !gst_test_clock_timed_wait_for_multiple_pending_ids (c->clock, 1,
            timeout_ms, NULL))
      return FALSE;
    t = gst_test_clock_get_next_entry_time (c->clock);
    if (!GST_CLOCK_TIME_IS_VALID (t))
      return FALSE;
  }
  now = gst_clock_get_time (GST_CLOCK (c->clock));
  if (t > now)
    gst_test_clock_set_time (c->clock, t);
  id = gst_test_clock_process_next_clock_id (c->clock);
  if (id == NULL)
    return FALSE;
  TRACE ("released clock wait for %" GST_TIME_FORMAT, GST_TIME_ARGS (t));
  gst_clock_id_unref (id);
  return TRUE;
}

static gboolean
can_progress (Ctx * c)
{
  /* after an EOS came out nothing moves, unless a new stream was
   * started behind it (its stream-start may still be on its way out) */
  return !c->flushing && !c->paused && !stream_ended (c);
}

/* Invariant D. */
static void
check_after_eos (Ctx * c, Stats * st)
{
  if (stream_ended (c) && !c->flushing)
    FUZZ_CHECK (st->queued == 0, "EOS came out but %u packets are still "
        "queued (accepted after EOS, never released)", st->queued);
}

/* Cranks the clock until at most @max_frames complete frames and (if
 * @all) no packet is queued.  Invariant C. */
static void
drain (Ctx * c, guint max_frames, gboolean all)
{
  gint64 deadline = g_get_monotonic_time () + STUCK_US;
  Stats st;

  for (;;) {
    pull_output (c);
    check_accounting (c, &st);
    check_after_eos (c, &st);
    if (st.queued_frames <= max_frames && (!all || st.queued == 0))
      return;
    if (!can_progress (c))
      return;
    if (crank (c, 1))
      continue;
    FUZZ_CHECK (g_get_monotonic_time () < deadline, "stuck: %u packets "
        "(%u complete frames) queued, PLAYING, not flushing, no clock wait "
        "for %d s", st.queued, st.queued_frames, STUCK_US / G_USEC_PER_SEC);
  }
}

/* Makes sure a push of @n packets cannot block on a full queue.  Returns
 * FALSE if it could and nothing can be done about it (PAUSED). */
static gboolean
make_room (Ctx * c, guint n)
{
  Stats st;

  /* the pad refuses data (flushing, EOS), or the element does (its EOS
   * came out): nothing blocks */
  if (c->flushing || c->eos_last)
    return TRUE;
  if (n >= MAX_QUEUED_FRAMES)
    return FALSE;
  get_stats (c, &st);
  if (st.queued_frames + n < MAX_QUEUED_FRAMES)
    return TRUE;
  if (c->paused)
    return FALSE;
  drain (c, MAX_QUEUED_FRAMES - 1 - n, FALSE);
  get_stats (c, &st);
  return st.queued_frames + n < MAX_QUEUED_FRAMES;
}

static guint32
pick_rtptime (Ctx * c)
{
  FuzzInput *in = c->in;
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
    case 1:
      return c->rtptime;
    case 2:
      return c->rtptime + 3600;
    case 3:
      return c->rtptime + fuzz_u16 (in);
    case 4:
      return c->rtptime - fuzz_u16 (in);        /* backwards */
    case 5:
      return G_MAXUINT32 - fuzz_u8 (in);        /* about to wrap */
    case 6:
      return c->rtptime + 0x80000000u + (gint8) fuzz_u8 (in);
    default:
      return fuzz_u32 (in);
  }
}

static guint
pick_payload (FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
      return 0;
    case 1:
      return 65535 - 12 - 60;   /* about the largest that fits */
    case 2:
      return fuzz_u16 (in);
    default:
      return fuzz_u8 (in) * 4;
  }
}

static GstClockTime
pick_timestamp (Ctx * c, gboolean dts)
{
  guint8 sel = fuzz_u8 (c->in);
  guint64 t;

  if (dts) {
    if (sel & 3)
      return GST_CLOCK_TIME_NONE;
    t = fuzz_time (c->in);
    if (avoid_plan_wrap && t != GST_CLOCK_TIME_NONE)
      t = MIN (t, G_GUINT64_CONSTANT (1) << 62);
    return t;
  }
  switch (sel & 7) {
    case 0:
      return GST_CLOCK_TIME_NONE;
    case 1:
    case 2:
      return c->pts;
    case 3:
    case 4:
      return c->pts + 40 * GST_MSECOND;
    default:
      t = fuzz_time (c->in);
      if (avoid_plan_wrap && t != GST_CLOCK_TIME_NONE)
        t = MIN (t, G_GUINT64_CONSTANT (1) << 62);
      return t == GST_CLOCK_TIME_NONE ? t - 1 : t;
  }
}

static void
tag_buffer (Ctx * c, GstBuffer * buf)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  c->pt[c->n_tags] = 0xff;
  if (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp)) {
    c->pt[c->n_tags] = gst_rtp_buffer_get_payload_type (&rtp);
    gst_rtp_buffer_unmap (&rtp);
  }
  GST_BUFFER_OFFSET (buf) = c->n_tags++;
  GST_BUFFER_OFFSET_END (buf) = TAG_MAGIC;
}

static GstBuffer *
make_rtp (Ctx * c)
{
  FuzzInput *in = c->in;
  guint8 f = fuzz_u8 (in);
  guint payload = pick_payload (in);
  guint8 pad = (f & 0x10) ? (fuzz_u8 (in) % 32) : 0;
  guint8 csrc = (f & 0x20) ? (fuzz_u8 (in) % 16) : 0;
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  GstBuffer *buf;
  GstClockTime pts, dts;

  if (c->bytes + payload > MAX_BYTES)
    payload = 0;
  c->bytes += payload;
  buf = gst_rtp_buffer_new_allocate (payload, pad, csrc);
  FUZZ_CHECK (gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp),
      "cannot map a built RTP packet");
  gst_rtp_buffer_set_payload_type (&rtp, (f & 0x40) ? fuzz_u8 (in) & 0x7f : 96);
  gst_rtp_buffer_set_ssrc (&rtp, (f & 0x80) ? fuzz_u32 (in) : 0x12345678);
  gst_rtp_buffer_set_seq (&rtp, (f & 0x08) ? fuzz_u16 (in) : c->seq++);
  c->rtptime = pick_rtptime (c);
  gst_rtp_buffer_set_timestamp (&rtp, c->rtptime);
  gst_rtp_buffer_set_marker (&rtp, f & 1);
  gst_rtp_buffer_unmap (&rtp);

  pts = pick_timestamp (c, FALSE);
  dts = pick_timestamp (c, TRUE);
  if (GST_CLOCK_TIME_IS_VALID (pts))
    c->pts = pts;
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DTS (buf) = dts;
  return buf;
}

/* Raw bytes, or a built packet with some bytes overwritten. */
static GstBuffer *
make_garbage (Ctx * c, gboolean mutate)
{
  FuzzInput *in = c->in;
  GstBuffer *buf;
  GstMapInfo map;
  gsize got, len, i;
  const guint8 *bytes;

  if (mutate) {
    guint n = 1 + fuzz_u8 (in) % 4;

    buf = make_rtp (c);
    if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
      return buf;
    for (i = 0; i < n && map.size > 0; i++) {
      gsize pos = fuzz_u8 (in) % MIN (map.size, 24);    /* the header */

      if (fuzz_u8 (in) & 1)
        pos = map.size - 1 - pos % map.size;    /* or the padding byte */
      map.data[pos] = fuzz_u8 (in);
    }
    /* sometimes cut it short */
    len = map.size;
    gst_buffer_unmap (buf, &map);
    if (fuzz_u8 (in) & 1)
      gst_buffer_resize (buf, 0, len - (fuzz_u8 (in) % (len + 1)));
    return buf;
  }

  len = (fuzz_u8 (in) & 1) ? fuzz_u8 (in) : fuzz_u16 (in) % 2048;
  bytes = fuzz_bytes (in, len, &got);
  buf = gst_buffer_new_allocate (NULL, len, NULL);
  gst_buffer_fill (buf, 0, bytes, got);
  if (got < len)
    gst_buffer_memset (buf, got, 0, len - got);
  GST_BUFFER_PTS (buf) = pick_timestamp (c, FALSE);
  c->bytes += len;
  return buf;
}

static gboolean
parse_rtp (GstBuffer * buf, guint32 * rtptime, gboolean * marker)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  if (!gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp))
    return FALSE;
  *rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  *marker = gst_rtp_buffer_get_marker (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  return TRUE;
}

static void
note_accepted (Ctx * c, guint64 tag, gboolean valid)
{
  gint media_pt;

  c->accepted[tag] = valid ? 1 : 2;
  c->in_caps[tag] = gst_pad_get_current_caps (c->elem_sink);
  /* a repair packet: the caps have a payload of 0-127 and this is another */
  if (valid && c->in_caps[tag] && gst_structure_get_int
      (gst_caps_get_structure (c->in_caps[tag], 0), "payload", &media_pt) &&
      media_pt >= 0 && media_pt <= 127 && c->pt[tag] != media_pt)
    c->repair[tag] = 1;
  if (valid)
    c->valid_ok++;
  else
    c->invalid_ok++;
}

/* Pushes @bufs (owned) as one list.  After an OK push all were accepted;
 * after another answer a prefix may have been (the stats say how many). */
static void
push_list (Ctx * c, GstBuffer ** bufs, const gboolean * valid, guint n)
{
  GstBufferList *list = gst_buffer_list_new_sized (n);
  guint64 tags[64];
  GstFlowReturn ret;
  guint i;
  Stats st;

  for (i = 0; i < n; i++) {
    tags[i] = GST_BUFFER_OFFSET (bufs[i]);
    gst_buffer_list_add (list, bufs[i]);
  }
  TRACE ("push list of %u (#%" G_GUINT64_FORMAT "...)", n, tags[0]);
  ret = gst_pad_push_list (c->h->srcpad, list);
  TRACE ("  -> %s", gst_flow_get_name (ret));
  if (ret == GST_FLOW_OK) {
    for (i = 0; i < n; i++)
      note_accepted (c, tags[i], valid[i]);
  } else {
    guint64 dv, di;

    get_stats (c, &st);
    dv = st.packets + st.flushed + st.dropped + st.queued - c->valid_ok;
    di = st.invalid - c->invalid_ok;
    for (i = 0; i < n && (dv > 0 || di > 0); i++) {
      if (valid[i] && dv > 0)
        dv--;
      else if (!valid[i] && di > 0)
        di--;
      else
        break;
      note_accepted (c, tags[i], valid[i]);
    }
    FUZZ_CHECK (dv == 0 && di == 0, "a refused list was taken in part, out "
        "of order");
  }
  check_accounting (c, &st);
}

static void
push_one (Ctx * c, GstBuffer * buf, gboolean valid)
{
  guint64 tag = GST_BUFFER_OFFSET (buf);
  GstFlowReturn ret;
  Stats st;

  if (!make_room (c, 1)) {
    gst_buffer_unref (buf);     /* PAUSED with a full queue: would block */
    return;
  }
  if (trace) {
    guint32 rt = 0;
    gboolean mk = FALSE;

    if (valid)
      parse_rtp (buf, &rt, &mk);
    TRACE ("push #%" G_GUINT64_FORMAT " %s rtptime %u%s pts %" GST_TIME_FORMAT
        " dts %" GST_TIME_FORMAT, tag, valid ? "rtp" : "invalid", rt,
        mk ? " marker" : "", GST_TIME_ARGS (GST_BUFFER_PTS (buf)),
        GST_TIME_ARGS (GST_BUFFER_DTS (buf)));
  }
  ret = gst_harness_push (c->h, buf);
  TRACE ("  -> %s", gst_flow_get_name (ret));
  if (ret == GST_FLOW_OK)
    note_accepted (c, tag, valid);
  else if (!c->flushing && !c->eos_last)
    FUZZ_CHECK (FALSE, "push returned %s while not flushing and before "
        "EOS", gst_flow_get_name (ret));
  check_accounting (c, &st);
}

static void
op_push (Ctx * c, guint kind)
{
  GstBuffer *bufs[64];
  gboolean valid[64];
  guint n = 1, i, opens = 0;
  gboolean have_prev = FALSE, prev_marker = FALSE;
  guint32 prev_rt = 0;

  if (kind == OP_RTP_FRAME || kind == OP_LIST)
    n = 1 + fuzz_u8 (c->in) % 48;
  n = MIN (n, MAX_BUFFERS - c->n_tags);
  if (n == 0 || c->bytes >= MAX_BYTES)
    return;

  for (i = 0; i < n; i++) {
    guint32 rt;
    gboolean mk;

    switch (kind) {
      case OP_MUTATED:
        bufs[i] = make_garbage (c, TRUE);
        break;
      case OP_RAW:
        bufs[i] = make_garbage (c, FALSE);
        break;
      case OP_LIST:{
        guint8 sel = fuzz_u8 (c->in);

        bufs[i] = (sel & 7) == 0 ? make_garbage (c, sel & 8) : make_rtp (c);
        break;
      }
      case OP_RTP_FRAME:{
        GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

        /* n packets of one timestamp, the marker on the last one */
        if (i == 0) {
          c->rtptime += 3600;
          c->pts += 40 * GST_MSECOND;
        }
        bufs[i] = gst_rtp_buffer_new_allocate (1000, 0, 0);
        gst_rtp_buffer_map (bufs[i], GST_MAP_WRITE, &rtp);
        gst_rtp_buffer_set_payload_type (&rtp, 96);
        gst_rtp_buffer_set_seq (&rtp, c->seq++);
        gst_rtp_buffer_set_timestamp (&rtp, c->rtptime);
        gst_rtp_buffer_set_marker (&rtp, i == n - 1);
        gst_rtp_buffer_unmap (&rtp);
        GST_BUFFER_PTS (bufs[i]) = c->pts;
        c->bytes += 1012;
        break;
      }
      default:
        bufs[i] = make_rtp (c);
        break;
    }
    tag_buffer (c, bufs[i]);
    valid[i] = parse_rtp (bufs[i], &rt, &mk);
    /* packets that may open a new frame (and so wait for room) */
    if (valid[i]) {
      if (!have_prev || prev_marker || rt != prev_rt)
        opens++;
      have_prev = TRUE;
      prev_rt = rt;
      prev_marker = mk;
    }
  }

  if (kind == OP_LIST && opens < MAX_QUEUED_FRAMES && make_room (c, opens)) {
    push_list (c, bufs, valid, n);
    return;
  }
  for (i = 0; i < n; i++)
    push_one (c, bufs[i], valid[i]);
}

static void
op_caps (Ctx * c)
{
  FuzzInput *in = c->in;
  guint8 f = fuzz_u8 (in);
  GstStructure *s = gst_structure_new ("application/x-rtp",
      "media", G_TYPE_STRING, "video",
      "encoding-name", G_TYPE_STRING, "RAW",
      "payload", G_TYPE_INT, 96, NULL);
  GstCaps *caps;

  switch (f & 3) {
    case 0:
      break;                    /* no clock-rate */
    case 1:
      gst_structure_set (s, "clock-rate", G_TYPE_INT, 90000, NULL);
      break;
    case 2:
      gst_structure_set (s, "clock-rate", G_TYPE_INT, (gint) fuzz_u32 (in),
          NULL);
      break;
    default:
      gst_structure_set (s, "clock-rate", G_TYPE_STRING, "90000", NULL);
      break;
  }
  switch ((f >> 2) & 7) {
    case 0:
      break;                    /* no a-framerate */
    case 1:
      gst_structure_set (s, "a-framerate", G_TYPE_STRING, "25", NULL);
      break;
    case 2:
      gst_structure_set (s, "a-framerate", G_TYPE_STRING, "30000/1001", NULL);
      break;
    case 3:
      gst_structure_set (s, "a-framerate", G_TYPE_INT, 25, NULL);
      break;
    case 4:
      gst_structure_set (s, "a-framerate", GST_TYPE_FRACTION, 25, 1, NULL);
      break;
    default:{
      gsize got;
      const guint8 *bytes = fuzz_bytes (in, fuzz_u8 (in) % 48, &got);
      gchar *raw = g_strndup ((const gchar *) bytes, got);
      /* caps strings are UTF-8 (GstStructure refuses others): SDP text */
      gchar *str = g_utf8_make_valid (raw, -1);

      gst_structure_set (s, "a-framerate", G_TYPE_STRING, str, NULL);
      g_free (str);
      g_free (raw);
      break;
    }
  }
  /* the payload decides which packets are repair packets */
  switch ((f >> 5) & 3) {
    case 0:
      break;                    /* 96 */
    case 1:
      gst_structure_remove_field (s, "payload");
      break;
    case 2:
      gst_structure_set (s, "payload", G_TYPE_INT, (gint) (fuzz_u8 (in) & 0x7f),
          NULL);
      break;
    default:
      gst_structure_set (s, "payload", G_TYPE_INT, 200, NULL);
      break;
  }
  caps = gst_caps_new_full (s, NULL);
  if (trace) {
    gchar *str = gst_caps_to_string (caps);

    TRACE ("caps %s", str);
    g_free (str);
  }
  /* refused while flushing or after EOS: fine, it stays sticky upstream */
  gst_pad_push_event (c->h->srcpad, gst_event_new_caps (caps));
  gst_caps_unref (caps);
}

static void
push_segment (Ctx * c, gboolean fuzzed)
{
  GstSegment seg;

  gst_segment_init (&seg, GST_FORMAT_TIME);
  if (fuzzed) {
    guint8 f = fuzz_u8 (c->in);
    static const gdouble rates[] = { 1.0, 1.0, 2.0, 0.5, -1.0, 1e-9 };

    if ((f & 7) == 7)
      gst_segment_init (&seg, GST_FORMAT_BYTES);
    seg.rate = rates[(f >> 3) % G_N_ELEMENTS (rates)];
    seg.start = fuzz_time (c->in);
    if (seg.start == GST_CLOCK_TIME_NONE)
      seg.start = 0;
    seg.base = (f & 0x40) ? fuzz_time (c->in) : 0;
    if (seg.base == GST_CLOCK_TIME_NONE)
      seg.base = 0;
    if (avoid_plan_wrap) {
      /* running times stay far from 2^64 */
      seg.base = MIN (seg.base, G_GUINT64_CONSTANT (1) << 62);
      seg.start = MIN (seg.start, G_GUINT64_CONSTANT (1) << 62);
      if (seg.rate > 0 && seg.rate < 0.5)
        seg.rate = 1.0;
    }
    if (seg.rate < 0 || (f & 0x80))
      seg.stop = seg.start + fuzz_u32 (c->in);
    seg.time = seg.start;
    seg.position = seg.start;
  }
  TRACE ("segment %s rate %g start %" G_GUINT64_FORMAT " base %"
      G_GUINT64_FORMAT " stop %" G_GUINT64_FORMAT,
      gst_format_get_name (seg.format), seg.rate, seg.start, seg.base,
      seg.stop);
  gst_pad_push_event (c->h->srcpad, gst_event_new_segment (&seg));
}

/* the properties op_property () sets, in the order of its cases */
static const gchar *prop_names[] = { "burst-size", "duty", "slot-jitter",
  "seed", "frame-period", "payload-size", "max-rate", "max-rate-factor",
  "max-delay", "overload", "min-slot-duration", "sync-upstream-latency",
  "auto-margin"
};

static void
op_property (Ctx * c)
{
  FuzzInput *in = c->in;
  guint8 which = fuzz_u8 (in), sel = fuzz_u8 (in);
  GObject *e = G_OBJECT (c->h->element);

  switch (which % G_N_ELEMENTS (prop_names)) {
    case 0:{
      static const guint v[] = { 1, 2, 7, 64, 65536, G_MAXINT };
      guint raw = fuzz_u32 (in);

      g_object_set (e, "burst-size", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          CLAMP (raw, 1, (guint) G_MAXINT), NULL);
      break;
    }
    case 1:{
      static const gdouble v[] = { 0.0, 1.0, 0.9, 0.5, 1e-9, 1.0 - 1e-12 };
      g_object_set (e, "duty", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          fuzz_u16 (in) / 65535.0, NULL);
      break;
    }
    case 2:{
      static const gdouble v[] = { 0.0, 0.5, 0.01, 0.25, 1e-9 };
      g_object_set (e, "slot-jitter", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          0.5 * fuzz_u16 (in) / 65535.0, NULL);
      break;
    }
    case 3:
      g_object_set (e, "seed", (guint) (sel < 128 ? sel : fuzz_u32 (in)),
          NULL);
      break;
    case 4:{
      static const guint64 v[] = { 0, 1, 99999, 100000, 40000000, 33366667,
        1000000000, G_GUINT64_CONSTANT (10000000000)
      };
      g_object_set (e, "frame-period", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          fuzz_u64 (in) % (G_GUINT64_CONSTANT (10000000000) + 1), NULL);
      break;
    }
    case 5:{
      static const guint v[] = { 0, 1, 1000, 1400, 65535 };
      g_object_set (e, "payload-size", sel < 200 ?
          v[sel % G_N_ELEMENTS (v)] : (guint) fuzz_u16 (in), NULL);
      break;
    }
    case 6:{
      /* the cap: off, absurdly low, around the stream's rate, huge */
      static const guint64 v[] = { 0, 1, 1000, 1000000, 9000000, 100000000,
        G_GUINT64_CONSTANT (100000000000)
      };
      g_object_set (e, "max-rate", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          fuzz_u64 (in) % (G_GUINT64_CONSTANT (100000000000) + 1), NULL);
      break;
    }
    case 7:{
      static const gdouble v[] = { 0.0, 1e-6, 0.5, 1.0, 2.25, 1000.0 };
      g_object_set (e, "max-rate-factor", sel < 200 ?
          v[sel % G_N_ELEMENTS (v)] : fuzz_u16 (in) / 65.535, NULL);
      break;
    }
    case 8:{
      static const guint64 v[] = { 1000000, 40000000, 100000000,
        G_GUINT64_CONSTANT (10000000000)
      };
      g_object_set (e, "max-delay", sel < 200 ? v[sel % G_N_ELEMENTS (v)] :
          1000000 + fuzz_u64 (in) % G_GUINT64_CONSTANT (9999000001), NULL);
      break;
    }
    case 9:
      g_object_set (e, "overload", (gint) (sel & 1), NULL);
      break;
    case 10:{
      static const guint64 v[] = { 0, 1, 50000, 1000000, 40000000 };
      g_object_set (e, "min-slot-duration", sel < 200 ?
          v[sel % G_N_ELEMENTS (v)] : fuzz_u64 (in) % 1000000001, NULL);
      break;
    }
    case 11:
      g_object_set (e, "sync-upstream-latency", (gboolean) (sel & 1), NULL);
      break;
    default:
      g_object_set (e, "auto-margin", (gboolean) (sel & 1), NULL);
      break;
  }
  if (trace) {
    GValue v = G_VALUE_INIT;
    const gchar *name = prop_names[which % G_N_ELEMENTS (prop_names)];
    gchar *str;

    g_object_get_property (e, name, &v);
    str = g_strdup_value_contents (&v);
    TRACE ("%s = %s", name, str);
    g_free (str);
    g_value_unset (&v);
  }
}

static void
op_flush (Ctx * c)
{
  guint8 f = fuzz_u8 (c->in);
  gboolean start = TRUE, stop = TRUE;

  if ((f & 3) == 1)
    stop = FALSE;               /* flush-start alone */
  else if ((f & 3) == 2 && !avoid_unpaired_flush_stop)
    start = FALSE;              /* flush-stop alone */

  TRACE ("%s%s", start ? "flush-start " : "", stop ? "flush-stop" : "");
  if (start) {
    gst_harness_push_event (c->h, gst_event_new_flush_start ());
    c->flushing = TRUE;
    c->flush_started = TRUE;
    pull_output (c);
  }
  if (stop) {
    /* A flush-stop alone waits for the task, which may be in the
     * synchronising sink's wait: a real clock would end that wait, the
     * test clock only moves when this thread cranks it.  So the sink lets
     * the task go, as when its time has come. */
    if (!start)
      sink_unschedule (c, TRUE);
    gst_harness_push_event (c->h, gst_event_new_flush_stop (!(f & 4)));
    c->flushing = FALSE;
    c->n_eos_in = c->n_eos_out = 0;
    c->eos_last = FALSE;
    pull_output (c);
    /* a new segment, as a seek gives */
    push_segment (c, f & 16);
  }
}

static void
op_state (Ctx * c)
{
  TRACE ("%s", c->paused ? "PLAYING" : "PAUSED");
  if (c->paused) {
    FUZZ_CHECK (gst_element_set_state (c->h->element, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE, "PAUSED -> PLAYING failed");
    c->paused = FALSE;
  } else {
    FUZZ_CHECK (gst_element_set_state (c->h->element, GST_STATE_PAUSED) ==
        GST_STATE_CHANGE_NO_PREROLL, "PLAYING -> PAUSED did not return "
        "NO_PREROLL");
    c->paused = TRUE;
  }
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const gchar *const domains[] = { "GStreamer", "GLib-GObject",
    "GLib", NULL
  };
  const gchar *avoid;

  fuzz_use_plain_malloc (*argv);
  /* only the element compiled in here: no plugin scanning, no registry */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", FALSE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", FALSE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", FALSE);

  trace = g_getenv ("RTPBURSTPACE_FUZZ_TRACE") != NULL;
  avoid = g_getenv ("RTPBURSTPACE_FUZZ_AVOID");
  if (avoid) {
    avoid_unpaired_flush_stop = strstr (avoid, "flush-stop-uaf") != NULL;
    avoid_restart_after_eos = strstr (avoid, "eos-restart") != NULL;
    avoid_plan_wrap = strstr (avoid, "plan-wrap") != NULL;
    avoid_flush_sticky = strstr (avoid, "flush-sticky") != NULL;
    avoid_list_flush_count = strstr (avoid, "list-flush-count") != NULL;
    fprintf (stderr, "fuzz_element: avoiding known bugs: %s\n", avoid);
  }

  gst_init (argc, argv);
  FUZZ_CHECK (GST_ELEMENT_REGISTER (rtpburstpace, NULL),
      "cannot register rtpburstpace");
  /* a critical in the element (g_return_if_fail and friends) is a bug */
  fuzz_abort_on_criticals (domains);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  Ctx *c = g_new0 (Ctx, 1);
  guint ops = 0;
  Stats st;

  c->in = &in;
  c->h = gst_harness_new ("rtpburstpace");
  c->clock = gst_harness_get_testclock (c->h);
  c->elem_sink = gst_element_get_static_pad (c->h->element, "sink");
  g_mutex_init (&c->sink_lock);
  gst_pad_add_probe (c->h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, out_probe, c, NULL);
  gst_pad_add_probe (c->h->sinkpad, GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      sink_flush_probe, c, NULL);
  c->seq = fuzz_u16 (&in);
  c->rtptime = fuzz_u32 (&in);

  /* defaults that make pacing happen; the ops change them */
  g_object_set (c->h->element, "seed", 1, NULL);
  {
    guint8 start = fuzz_u8 (&in);

    if (!(start & 1)) {
      GstCaps *caps = gst_caps_from_string ("application/x-rtp, "
          "media=(string)video, clock-rate=(int)90000, "
          "encoding-name=(string)RAW, payload=(int)96, "
          "a-framerate=(string)25");

      gst_pad_push_event (c->h->srcpad, gst_event_new_caps (caps));
      gst_caps_unref (caps);
    } else {
      op_caps (c);
    }
    push_segment (c, start & 2);
  }

  while (fuzz_more (&in) && ops++ < MAX_OPS) {
    guint8 op = fuzz_u8 (&in) % N_OPS;

    switch (op) {
      case OP_RTP:
      case OP_RTP2:
      case OP_RTP_FRAME:
      case OP_MUTATED:
      case OP_RAW:
      case OP_LIST:
        op_push (c, op);
        break;
      case OP_CAPS:
        op_caps (c);
        break;
      case OP_SEGMENT:
        push_segment (c, TRUE);
        break;
      case OP_PROPERTY:
        op_property (c);
        break;
      case OP_FLUSH:
        op_flush (c);
        break;
      case OP_EOS:
      {
        gboolean ok = gst_harness_push_event (c->h, gst_event_new_eos ());

        if (ok) {
          c->n_eos_in++;
          c->eos_last = TRUE;
        }
        TRACE ("eos%s", ok ? "" : " (refused)");
      }
        break;
      case OP_STREAM_START:
        /* clears the pad's EOS: data may follow */
        if (!avoid_restart_after_eos || !c->eos_last) {
          gchar *id = g_strdup_printf ("fuzz-%u", ops);

          gboolean ok = gst_harness_push_event (c->h,
              gst_event_new_stream_start (id));

          if (ok)
            c->eos_last = FALSE;
          TRACE ("stream-start%s", ok ? "" : " (refused)");
          g_free (id);
        }
        break;
      case OP_STATE:
        op_state (c);
        break;
      case OP_LATENCY:
        gst_harness_set_upstream_latency (c->h,
            (fuzz_u8 (&in) & 1) ? 0 : fuzz_time (&in) & ((1ull << 62) - 1));
        gst_harness_query_latency (c->h);
        break;
      case OP_CRANK:{
        guint n = 1 + fuzz_u8 (&in) % 8;

        while (n-- > 0 && can_progress (c) && crank (c, 1)) {
        }
        break;
      }
      case OP_ADVANCE:{
        /* time passes without a clock wait being released: arrivals
         * spread out, frames time out */
        guint64 d = (fuzz_u8 (&in) & 1) ? fuzz_u16 (&in) * GST_USECOND :
            fuzz_u16 (&in) * GST_MSECOND;

        /* the test clock does not check its internal time for overflow
         * (after a wait near 2^64 was released): stay below NONE */
        if (gst_clock_get_time (GST_CLOCK (c->clock)) <
            G_MAXUINT64 - 1 - d) {
          gst_test_clock_advance_time (c->clock, d);
          TRACE ("clock advanced by %" GST_TIME_FORMAT, GST_TIME_ARGS (d));
        }
        break;
      }
      case OP_SYNC:
        /* makes reproducers deterministic: the task is in its wait (if it
         * has something to wait for; a few times per input at most) */
        if (c->syncs < 4 && can_progress (c)) {
          get_stats (c, &st);
          if (st.queued > 0) {
            c->syncs++;
            gst_test_clock_timed_wait_for_multiple_pending_ids (c->clock, 1,
                50, NULL);
          }
        }
        TRACE ("sync: %u clock waits pending",
            gst_test_clock_peek_id_count (c->clock));
        break;
      case OP_DRAIN:
        TRACE ("drain");
        drain (c, 0, TRUE);
        break;
      case OP_SINK_LATENCY:{
        /* as a sink sends the pipeline latency upstream */
        GstClockTime l = (fuzz_u8 (&in) & 1) ? 60 * GST_MSECOND :
            fuzz_time (&in);

        if (!GST_CLOCK_TIME_IS_VALID (l))
          l = 0;                /* an event must carry a time */

        g_mutex_lock (&c->sink_lock);
        c->sink_latency = l;
        g_mutex_unlock (&c->sink_lock);
        TRACE ("downstream latency %" GST_TIME_FORMAT, GST_TIME_ARGS (l));
        gst_harness_push_upstream_event (c->h, gst_event_new_latency (l));
        break;
      }
      case OP_SINK_SYNC:
        g_mutex_lock (&c->sink_lock);
        c->sink_sync = !c->sink_sync;
        TRACE ("downstream %s", c->sink_sync ? "synchronises" :
            "stops synchronising");
        g_mutex_unlock (&c->sink_lock);
        if (!c->sink_sync)
          sink_unschedule (c, c->flushing);
        break;
      default:
        break;
    }
    pull_output (c);
  }

  /* finish: back to PLAYING, everything out that can come out, no sink
   * holding the task any more */
  TRACE ("end of input");
  g_mutex_lock (&c->sink_lock);
  c->sink_sync = FALSE;
  g_mutex_unlock (&c->sink_lock);
  sink_unschedule (c, c->flushing);
  if (c->paused)
    op_state (c);
  drain (c, 0, TRUE);

  /* the task may still be pushing its last slot: wait until it is idle */
  {
    gint64 deadline = g_get_monotonic_time () + SETTLE_US;

    for (;;) {
      pull_output (c);
      if ((accounting_exact (c, &st) && c->n_out == st.packets) ||
          g_get_monotonic_time () > deadline)
        break;
      g_usleep (100);
    }
  }
  pull_output (c);
  check_accounting_full (c, &st, TRUE);
  check_after_eos (c, &st);
  /* E: a slot a flush refused is counted in flushed-packets.  A slot of
   * several packets is one buffer list: a flush can refuse it after part
   * of it went out (GstPad splits a list for a pad without chain_list);
   * RTPBURSTPACE_FUZZ_AVOID=list-flush-count tolerates that. */
  if (avoid_list_flush_count && c->flush_started)
    FUZZ_CHECK (c->n_out >= st.packets && c->n_out <= st.packets + st.flushed,
        "%" G_GUINT64_FORMAT " buffers came out, stats packets %"
        G_GUINT64_FORMAT ", flushed %" G_GUINT64_FORMAT, c->n_out, st.packets,
        st.flushed);
  else
    FUZZ_CHECK (c->n_out == st.packets, "%" G_GUINT64_FORMAT " buffers came "
        "out, stats packets %" G_GUINT64_FORMAT "%s", c->n_out, st.packets,
        c->n_out > st.packets ? " (delivered but counted as flushed?)" : "");
  if (can_progress (c))
    FUZZ_CHECK (st.queued == 0, "%u packets left queued although PLAYING, "
        "not flushing", st.queued);

  gst_object_unref (c->clock);
  gst_object_unref (c->elem_sink);
  gst_harness_teardown (c->h);
  g_mutex_clear (&c->sink_lock);
  for (guint64 i = 0; i < c->n_tags; i++) {
    gst_clear_caps (&c->in_caps[i]);
    gst_clear_caps (&c->out_caps[i]);
  }
  g_free (c);
  return 0;
}
