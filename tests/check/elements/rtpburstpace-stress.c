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


/* Lifecycle stress tests on the real system clock: state cycles while
 * frames are queued and waits are pending, relinking in a running
 * pipeline, many elements in one process.  Timing is not asserted; the
 * invariants are: every packet that entered comes out exactly once and in
 * order (the media and the repair packets each in their own order) unless
 * a documented flush discarded it, and nothing hangs. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/rtp/gstrtpbuffer.h>

#include "rtpburstpace-common.h"

#define CAPS_100 "application/x-rtp, media=(string)video, " \
    "clock-rate=(int)90000, encoding-name=(string)RAW, payload=(int)96, " \
    "a-framerate=(string)100"

#define REPAIR_PT 97            /* not the caps' payload: a repair packet */

static guint16
buffer_seq_pt (GstBuffer * buf, guint * pt)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  guint16 seq;

  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  seq = gst_rtp_buffer_get_seq (&rtp);
  if (pt)
    *pt = gst_rtp_buffer_get_payload_type (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  return seq;
}

static guint16
buffer_seq (GstBuffer * buf)
{
  return buffer_seq_pt (buf, NULL);
}

/* A retransmission-like packet: REPAIR_PT, an old RTP timestamp. */
static GstBuffer *
repair_packet (guint16 seq)
{
  GstBuffer *buf = test_rtp_packet (seq, 0, FALSE, 200, GST_CLOCK_TIME_NONE);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp));
  gst_rtp_buffer_set_payload_type (&rtp, REPAIR_PT);
  gst_rtp_buffer_unmap (&rtp);
  return buf;
}

static void
start_stream (GstHarness * h)
{
  GstCaps *caps = gst_caps_from_string (CAPS_100);
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (h, gst_event_new_stream_start ("stress"));
  gst_harness_push_event (h, gst_event_new_caps (caps));
  gst_harness_push_event (h, gst_event_new_segment (&segment));
  gst_caps_unref (caps);
}

static GstStateChangeReturn
set_state_bounded (GstElement * e, GstState state)
{
  GstStateChangeReturn ret = gst_element_set_state (e, state);

  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (e, NULL, NULL, 5 * GST_SECOND);
  fail_if (ret == GST_STATE_CHANGE_ASYNC, "state change to %s hangs",
      gst_element_state_get_name (state));
  fail_if (ret == GST_STATE_CHANGE_FAILURE);
  return ret;
}

/* Pulls what is there; checks order (media and repair packets apart: the
 * repair packets leave between the media's slots); returns the number
 * pulled. */
static guint
pull_available (GstHarness * h, gint * last_seq)
{
  GstBuffer *buf;
  guint n = 0;

  while ((buf = gst_harness_try_pull (h))) {
    guint pt;
    guint16 seq = buffer_seq_pt (buf, &pt);
    gint *last = &last_seq[pt == REPAIR_PT];

    /* exactly once, in order: strictly increasing (no wrap in this test) */
    fail_unless (*last < (gint) seq, "seq %u after %d", seq, *last);
    *last = seq;
    gst_buffer_unref (buf);
    n++;
  }
  return n;
}

GST_START_TEST (test_state_cycles)
{
  GstHarness *h = gst_harness_new ("rtpburstpace");
  GRand *rand = g_rand_new_with_seed (2026);
  guint64 entered = 0, out = 0, flushed = 0;
  gint last_seq[2] = { -1, -1 };
  guint16 seq = 0, repair_seq = 30000;
  guint32 rtptime = 0;
  guint round, i;
  GstEvent *ev;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  start_stream (h);

  for (round = 0; round < 60; round++) {
    /* a few frames of 1..20 packets, some without marker */
    guint frames = g_rand_int_range (rand, 1, 4);

    for (i = 0; i < frames; i++) {
      guint n = g_rand_int_range (rand, 1, 21), j;
      gboolean marker = g_rand_boolean (rand);

      for (j = 0; j < n; j++) {
        GstFlowReturn ret = gst_harness_push (h,
            test_rtp_packet (seq++, rtptime, marker && j == n - 1, 200,
                GST_CLOCK_TIME_NONE));

        if (ret == GST_FLOW_OK)
          entered++;
        else
          fail_unless_equals_int (ret, GST_FLOW_FLUSHING);
      }
      rtptime += 900;
    }
    /* retransmissions asked for meanwhile */
    for (i = g_rand_int_range (rand, 0, 6); i > 0; i--) {
      GstFlowReturn ret = gst_harness_push (h, repair_packet (repair_seq++));

      if (ret == GST_FLOW_OK)
        entered++;
      else
        fail_unless_equals_int (ret, GST_FLOW_FLUSHING);
    }
    g_usleep (g_rand_int_range (rand, 0, 15000));
    out += pull_available (h, last_seq);

    switch (g_rand_int_range (rand, 0, 4)) {
      case 0:                  /* pause with a wait pending, then resume */
        fail_unless_equals_int (set_state_bounded (h->element,
                GST_STATE_PAUSED), GST_STATE_CHANGE_NO_PREROLL);
        g_usleep (g_rand_int_range (rand, 0, 10000));
        set_state_bounded (h->element, GST_STATE_PLAYING);
        break;
      case 1:                  /* down to READY: the queue is discarded */
        set_state_bounded (h->element, GST_STATE_READY);
        out += pull_available (h, last_seq);
        flushed += test_stat (h->element, "flushed-packets");
        fail_unless_equals_uint64 (test_stat (h->element, "queued-packets"), 0);
        fail_unless_equals_uint64 (test_stat (h->element, "repair-queued"), 0);
        set_state_bounded (h->element, GST_STATE_PLAYING);
        start_stream (h);
        break;
      case 2:                  /* a flush, as a seek does */
        gst_harness_push_event (h, gst_event_new_flush_start ());
        gst_harness_push_event (h, gst_event_new_flush_stop (TRUE));
        start_stream (h);
        break;
      default:
        break;
    }
  }

  /* drain: EOS comes out after everything still queued */
  out += pull_available (h, last_seq);
  gst_harness_push_event (h, gst_event_new_eos ());
  while ((ev = gst_harness_pull_event (h))) {
    gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;

    gst_event_unref (ev);
    if (eos)
      break;
  }
  out += pull_available (h, last_seq);
  /* flushes within the last READY..READY span */
  flushed += test_stat (h->element, "flushed-packets");

  GST_INFO ("entered %" G_GUINT64_FORMAT " out %" G_GUINT64_FORMAT
      " flushed %" G_GUINT64_FORMAT, entered, out, flushed);
  fail_unless (entered > 0);
  fail_unless (last_seq[1] > 30000);    /* repair packets came out */
  fail_unless_equals_uint64 (out + flushed, entered);

  g_rand_free (rand);
  gst_harness_teardown (h);
}

GST_END_TEST;

typedef struct
{
  GMutex lock;
  gint last_seq;                /* -1: none yet */
  guint n, gaps, reordered;
} SeqCheck;

static void
seq_check_buffer (SeqCheck * c, GstBuffer * buf)
{
  guint16 seq = buffer_seq (buf);

  g_mutex_lock (&c->lock);
  if (c->last_seq >= 0) {
    guint16 expected = (guint16) (c->last_seq + 1);
    gint16 d = (gint16) (seq - expected);

    if (d < 0)
      c->reordered++;
    else
      c->gaps += d;
  }
  c->last_seq = seq;
  c->n++;
  g_mutex_unlock (&c->lock);
}

static gboolean
seq_check_list_item (GstBuffer ** buf, guint idx, gpointer user_data)
{
  seq_check_buffer (user_data, *buf);
  return TRUE;
}

static GstPadProbeReturn
seq_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER)
    seq_check_buffer (user_data, GST_PAD_PROBE_INFO_BUFFER (info));
  else
    gst_buffer_list_foreach (GST_PAD_PROBE_INFO_BUFFER_LIST (info),
        seq_check_list_item, user_data);
  return GST_PAD_PROBE_OK;
}

static void
seq_check_init (SeqCheck * c)
{
  g_mutex_init (&c->lock);
  c->last_seq = -1;
  c->n = c->gaps = c->reordered = 0;
}

/* Checks what reaches @element's sink pad; several elements may feed one
 * SeqCheck. */
static void
watch_sink_pad (GstElement * element, SeqCheck * c)
{
  GstPad *pad = gst_element_get_static_pad (element, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, seq_probe, c, NULL);
  gst_object_unref (pad);
}

static void
add_seq_probe (GstElement * sink, SeqCheck * c)
{
  seq_check_init (c);
  watch_sink_pad (sink, c);
}

static void
check_no_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("error from %s: %s (%s)", GST_OBJECT_NAME (msg->src),
        err->message, dbg);
  }
  gst_object_unref (bus);
}

#define LIVE_SOURCE "videotestsrc is-live=true pattern=black ! " \
    "video/x-raw,format=UYVY,width=64,height=48,framerate=50/1 ! " \
    "rtpvrawpay mtu=400 name=pay"

/* A blocking probe that says when it holds the payloader's thread (an
 * atomic flag: ThreadSanitizer does not see GMutex). */
typedef struct
{
  gint blocked;
} Block;

static GstPadProbeReturn
block_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Block *b = user_data;

  g_atomic_int_set (&b->blocked, 1);
  return GST_PAD_PROBE_OK;
}

/* Blocks @pad's data and waits until its thread is held there, outside
 * the element downstream (up to 2 s); the probe's id. */
static gulong
block_and_wait (GstPad * pad, Block * b)
{
  gint64 deadline = g_get_monotonic_time () + 2 * G_TIME_SPAN_SECOND;
  gulong id;

  g_atomic_int_set (&b->blocked, 0);
  id = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM |
      GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, block_probe,
      b, NULL);
  while (!g_atomic_int_get (&b->blocked) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  fail_unless (g_atomic_int_get (&b->blocked),
      "the payloader did not reach the block");
  return id;
}

GST_START_TEST (test_relink_while_running)
{
  GstElement *pipeline, *pay, *pacer, *sink;
  GstPad *paysrc;
  SeqCheck check, entered;
  Block block = { 0 };
  guint64 flushed = 0;
  guint round, seen_at_last_relink = 0;
  guint16 tail;
  gulong id;

  pipeline = gst_parse_launch (LIVE_SOURCE " ! rtpburstpace name=pacer ! "
      "fakesink name=sink sync=false", NULL);
  fail_unless (pipeline != NULL);
  pay = gst_bin_get_by_name (GST_BIN (pipeline), "pay");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  add_seq_probe (sink, &check);
  paysrc = gst_element_get_static_pad (pay, "src");
  /* what reached the pacers' chain, to find what never reached the sink at
   * the end, where no later packet shows a gap (a push into a pad already
   * flushing reaches neither the probe nor the chain) */
  seq_check_init (&entered);
  pacer = gst_bin_get_by_name (GST_BIN (pipeline), "pacer");
  watch_sink_pad (pacer, &entered);
  gst_object_unref (pacer);

  set_state_bounded (pipeline, GST_STATE_PLAYING);
  for (round = 0; round < 5; round++) {
    g_usleep (150 * 1000);
    /* hold the payloader, take the pacer out, put a new one in.  Held
     * before the pacer stops: a payloader inside the pacer's chain would
     * get FLUSHING, and the live source would stop for good */
    id = block_and_wait (paysrc, &block);
    pacer = gst_bin_get_by_name (GST_BIN (pipeline), "pacer");
    /* stopped before it is unlinked: what it held is flushed and counted,
     * nothing is pushed into an unlinked pad */
    set_state_bounded (pacer, GST_STATE_NULL);
    flushed += test_stat (pacer, "flushed-packets");
    gst_element_unlink_many (pay, pacer, sink, NULL);
    gst_bin_remove (GST_BIN (pipeline), pacer);
    gst_object_unref (pacer);

    pacer = gst_element_factory_make ("rtpburstpace", "pacer");
    watch_sink_pad (pacer, &entered);
    gst_bin_add (GST_BIN (pipeline), pacer);
    fail_unless (gst_element_link_many (pay, pacer, sink, NULL));
    fail_unless (gst_element_sync_state_with_parent (pacer));
    g_mutex_lock (&check.lock);
    seen_at_last_relink = check.n;
    g_mutex_unlock (&check.lock);
    gst_pad_remove_probe (paysrc, id);
  }
  g_usleep (300 * 1000);
  /* the end: the payloader held again and the pacer given time to send
   * what it has, so that stopping interrupts no push (downstream flushing
   * in the middle of a list: the element counts the whole list, see
   * flushed-packets) */
  id = block_and_wait (paysrc, &block);
  g_usleep (100 * 1000);
  check_no_error (pipeline);
  pacer = gst_bin_get_by_name (GST_BIN (pipeline), "pacer");
  set_state_bounded (pipeline, GST_STATE_NULL);
  gst_pad_remove_probe (paysrc, id);
  /* what the last pacer still held when the pipeline stopped */
  flushed += test_stat (pacer, "flushed-packets");
  gst_object_unref (pacer);

  fail_unless (check.n > 50, "only %u packets", check.n);
  /* the stream went on after the last relink */
  fail_unless (check.n > seen_at_last_relink, "nothing after the last relink");
  fail_unless_equals_int (check.reordered, 0);
  fail_unless_equals_int (entered.reordered, 0);
  fail_unless_equals_int (entered.gaps, 0);
  /* what the removed elements and the last one held is the only loss: the
   * gaps, and the packets after the last one the sink saw */
  tail = (guint16) (entered.last_seq - check.last_seq);
  fail_unless_equals_uint64 ((guint64) check.gaps + tail, flushed);

  gst_object_unref (paysrc);
  gst_object_unref (pay);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_synchronising_sink_cycles)
{
  GstElement *pipeline, *pacer, *sink;
  SeqCheck check;
  guint round;

  /* a sink that synchronises right after the element: it holds the first
   * frame's pushes, the element takes its latency into account; pausing,
   * resuming and switching the sink's sync on and off while frames are
   * queued and pushes are held lose and reorder nothing */
  pipeline = gst_parse_launch (LIVE_SOURCE " ! rtpburstpace name=pacer ! "
      "fakesink name=sink sync=true", NULL);
  fail_unless (pipeline != NULL);
  pacer = gst_bin_get_by_name (GST_BIN (pipeline), "pacer");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  add_seq_probe (sink, &check);

  set_state_bounded (pipeline, GST_STATE_PLAYING);
  g_usleep (400 * 1000);
  fail_unless (test_stat (pacer, "sink-latency") > 0);
  fail_unless (test_stat (pacer, "held-slots") > 0);
  for (round = 0; round < 6; round++) {
    if (round % 2 == 0) {
      set_state_bounded (pipeline, GST_STATE_PAUSED);
      g_usleep (30 * 1000);
      set_state_bounded (pipeline, GST_STATE_PLAYING);
    } else {
      g_object_set (sink, "sync", round % 4 == 1 ? FALSE : TRUE, NULL);
    }
    g_usleep (150 * 1000);
  }
  check_no_error (pipeline);
  set_state_bounded (pipeline, GST_STATE_NULL);

  fail_unless (check.n > 50, "only %u packets", check.n);
  fail_unless_equals_int (check.reordered, 0);
  /* going to NULL flushes what was queued; nothing else is lost */
  fail_unless_equals_int (check.gaps, 0);

  gst_object_unref (pacer);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

#define N_PIPELINES 16

GST_START_TEST (test_many_elements)
{
  GstElement *pipelines[N_PIPELINES];
  SeqCheck checks[N_PIPELINES];
  guint i;

  for (i = 0; i < N_PIPELINES; i++) {
    GstElement *sink;

    pipelines[i] = gst_parse_launch (LIVE_SOURCE " ! rtpburstpace name=pacer "
        "! fakesink name=sink sync=false", NULL);
    fail_unless (pipelines[i] != NULL);
    sink = gst_bin_get_by_name (GST_BIN (pipelines[i]), "sink");
    add_seq_probe (sink, &checks[i]);
    gst_object_unref (sink);
    set_state_bounded (pipelines[i], GST_STATE_PLAYING);
  }
  g_usleep (1500 * 1000);
  for (i = 0; i < N_PIPELINES; i++) {
    GstElement *pacer = gst_bin_get_by_name (GST_BIN (pipelines[i]), "pacer");

    check_no_error (pipelines[i]);
    /* all paced from the caps' frame rate, nothing lost or reordered */
    fail_unless (test_stat (pacer, "frames") > 20);
    fail_unless_equals_uint64 (test_stat (pacer, "unpaced-frames"), 0);
    fail_unless_equals_uint64 (test_stat (pacer, "frame-period"),
        20 * GST_MSECOND);
    set_state_bounded (pipelines[i], GST_STATE_NULL);
    fail_unless_equals_int (checks[i].reordered, 0);
    fail_unless_equals_int (checks[i].gaps, 0);
    gst_object_unref (pacer);
    gst_object_unref (pipelines[i]);
  }
}

GST_END_TEST;

/* Streams in one group: pipeline A's four streams (frames at the same
 * instants) run while pipeline B's two, in the same group, join and leave
 * it again and again (READY, NULL, PLAYING).  Nothing is lost or
 * reordered, no error, and the members are counted right at every step. */
#define GROUP_BRANCH_WITH(k, props) "videotestsrc is-live=true " \
    "pattern=black ! " \
    "video/x-raw,format=UYVY,width=64,height=48,framerate=50/1 ! " \
    "rtpvrawpay mtu=400 ! rtpburstpace name=pacer" #k " group=stress " \
    props " ! fakesink name=sink" #k " sync=false  "
#define GROUP_BRANCH(k) GROUP_BRANCH_WITH (k, "")

static void
branch_probes (GstElement * pipeline, SeqCheck * checks, guint n)
{
  guint k;

  for (k = 0; k < n; k++) {
    gchar *name = g_strdup_printf ("sink%u", k);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);

    add_seq_probe (sink, &checks[k]);
    gst_object_unref (sink);
    g_free (name);
  }
}

static guint64
pacer_stat (GstElement * pipeline, guint k, const gchar * field)
{
  gchar *name = g_strdup_printf ("pacer%u", k);
  GstElement *pacer = gst_bin_get_by_name (GST_BIN (pipeline), name);
  guint64 v = test_stat (pacer, field);

  gst_object_unref (pacer);
  g_free (name);
  return v;
}

/* Pipeline A (four streams) runs while pipeline B (two streams), both in
 * one group, joins and leaves it @rounds times (PLAYING, then READY or
 * NULL); @rate_in and @rate_out, if not 0, are the group-max-rate in force
 * with B in and out.  Nothing is lost or reordered, no error, and the
 * members are counted right at every step. */
static void
run_group_cycles (const gchar * desc_a, const gchar * desc_b, guint rounds,
    guint64 rate_in, guint64 rate_out)
{
  GstElement *a, *b;
  SeqCheck ca[4], cb[2];
  guint round, k;

  a = gst_parse_launch (desc_a, NULL);
  b = gst_parse_launch (desc_b, NULL);
  fail_unless (a != NULL && b != NULL);
  branch_probes (a, ca, 4);
  branch_probes (b, cb, 2);

  set_state_bounded (a, GST_STATE_PLAYING);
  for (round = 0; round < rounds; round++) {
    set_state_bounded (b, GST_STATE_PLAYING);
    g_usleep (120 * 1000);
    fail_unless_equals_uint64 (pacer_stat (a, 0, "group-members"), 6);
    if (rate_in)
      fail_unless_equals_uint64 (pacer_stat (a, 0, "group-max-rate"), rate_in);
    set_state_bounded (b, round % 2 ? GST_STATE_NULL : GST_STATE_READY);
    fail_unless_equals_uint64 (pacer_stat (a, 3, "group-members"), 4);
    fail_unless_equals_uint64 (pacer_stat (b, 1, "group-members"), 0);
    if (rate_out)
      fail_unless_equals_uint64 (pacer_stat (a, 2, "group-max-rate"), rate_out);
    g_usleep (20 * 1000);
  }
  check_no_error (a);
  check_no_error (b);
  /* each of A's members places frames in the group: 20 of them within
   * 30 s of A still PLAYING (a bound on the count, not on the speed: under
   * valgrind on a loaded machine the rounds above may leave fewer) */
  for (k = 0; k < 4; k++) {
    gint64 deadline = g_get_monotonic_time () + 30 * G_TIME_SPAN_SECOND;

    while (pacer_stat (a, k, "group-frames") <= 20 &&
        g_get_monotonic_time () < deadline)
      g_usleep (10 * 1000);
    fail_unless (pacer_stat (a, k, "group-frames") > 20,
        "pacer%u: %" G_GUINT64_FORMAT " frames placed in the group", k,
        pacer_stat (a, k, "group-frames"));
  }
  set_state_bounded (a, GST_STATE_NULL);
  set_state_bounded (b, GST_STATE_NULL);

  for (k = 0; k < 4; k++) {
    fail_unless (ca[k].n > 50, "only %u packets", ca[k].n);
    fail_unless_equals_int (ca[k].reordered, 0);
    fail_unless_equals_int (ca[k].gaps, 0);
  }
  /* B's payloaders pick a new random seqnum-offset at each start */
  for (k = 0; k < 2; k++)
    fail_unless (cb[k].n > 50, "only %u packets", cb[k].n);
  gst_object_unref (a);
  gst_object_unref (b);
}

GST_START_TEST (test_group_cycles)
{
  run_group_cycles (GROUP_BRANCH (0) GROUP_BRANCH (1) GROUP_BRANCH (2)
      GROUP_BRANCH (3), GROUP_BRANCH (0) GROUP_BRANCH (1), 8, 0, 0);
}

GST_END_TEST;

/* The same with a shared rate (each stream about 2.7 Mbit/s): A's four
 * streams under 24 Mbit/s, B's paced stream and pass-through stream
 * (pace=false) setting 18 Mbit/s while they are in the group.  The rate in
 * force follows B in and out, the lower one makes A's slots wait, and
 * nothing is lost or reordered. */
#define RATE_A "group-max-rate=24000000"
#define RATE_B "group-max-rate=18000000"
GST_START_TEST (test_group_rate_cycles)
{
  run_group_cycles (GROUP_BRANCH_WITH (0, RATE_A) GROUP_BRANCH_WITH (1, RATE_A)
      GROUP_BRANCH_WITH (2, RATE_A) GROUP_BRANCH_WITH (3, RATE_A),
      GROUP_BRANCH_WITH (0, RATE_B) GROUP_BRANCH_WITH (1, RATE_B " pace=false"),
      6, 18000000, 24000000);
}

GST_END_TEST;
#undef RATE_A
#undef RATE_B

static Suite *
rtpburstpace_stress_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-stress");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_relink_while_running);
  tcase_add_test (tc, test_synchronising_sink_cycles);
  tcase_add_test (tc, test_many_elements);
  tcase_add_test (tc, test_group_cycles);
  tcase_add_test (tc, test_group_rate_cycles);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_stress);
