/* pacebench: pacing precision, output rate and CPU cost of rtpburstpace
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
 * For each scenario, in one process:
 *
 *  1. timing run: SRC ! PAYLOADER ! rtpburstpace <props> ! fakesink, with
 *     pad probes on the element's sink pad (per packet: RTP timestamp,
 *     marker, size, arrival time; per frame: PTS) and src pad (per push,
 *     buffer or buffer list: pipeline-clock time, packets, bytes).  After
 *     the run the ideal schedule is rebuilt from what went in (see
 *     reconstruct_schedule()) and each packet's release error is
 *     actual push time - scheduled time.
 *  2. floor: a bare clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME) loop on
 *     its own thread at the scenario's slot spacing, for as many slots as
 *     the timing run measured, right after it (idle machine); with
 *     --floor-spin it sleeps until that long before each time and
 *     busy-waits the rest, to show what a spin would buy and cost.
 *  3. CPU: the same pipeline without probes, with rtpburstpace and with
 *     identity in its place, interleaved, --cpu-reps times each; the
 *     process CPU time (getrusage, user+sys) of each run.
 *
 * Nothing here asserts timing; the exit status only says whether the
 * pipelines ran and the packets came out.
 *
 * The CPU and floor measurements, the bus loop and the JSON scalars are in
 * benchcpu.c, which groupbench (several streams) compiles as well.
 *
 * Build:  scripts/setup.sh builds it as build/tests/bench/pacebench (with
 *         benchcpu.c and the element's schedule unit, gst/rtpburstschedule.c)
 * Run, from the repository's top directory:
 *         GST_PLUGIN_PATH=build/gst build/tests/bench/pacebench [options] [scenario...]
 */

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/rtp/gstrtpbuffer.h>

/* the element's own rules, where the benchmark rebuilds its schedule */
#include "rtpburstmargin.h"
#include "rtpburstschedule.h"

/* CPU, floor, pipeline runs: shared with groupbench */
#include "benchcpu.h"

/* ------------------------------------------------------------------------ */
/* options */

static gdouble opt_seconds = 10.0;
static gdouble opt_raw_seconds = -1.0;  /* (c)/(d); <0: --seconds */
static gdouble opt_cpu_seconds = 5.0;
static gint opt_cpu_reps = 3;
static gdouble opt_warmup = 1.0;
static gchar *opt_props = NULL;
static gchar *opt_out = NULL;
static gchar *opt_dump_dir = NULL;
static gboolean opt_quick = FALSE;
static gboolean opt_no_floor = FALSE;
static gboolean opt_no_cpu = FALSE;
static gint opt_cpu_dma_latency = -1;
static gint opt_floor_spin = 0;
static gboolean opt_keep_jitter = FALSE;

/* ------------------------------------------------------------------------ */
/* scenarios */

typedef struct
{
  const gchar *name;
  const gchar *alias;
  const gchar *descr;
  const gchar *head;            /* source ! payloader (name=pay) */
  const gchar *need;            /* factory that must exist, or NULL */
  gboolean raw_hd;              /* uses --raw-seconds */
} Scenario;

static const Scenario scenarios[] = {
  {"a", "cbr6", "6 Mbit/s CBR raw 160x96 UYVY 25 fps, mtu 1028",
        "videotestsrc name=src is-live=true ! "
        "video/x-raw,format=UYVY,width=160,height=96,framerate=25/1 ! "
        "rtpvrawpay name=pay mtu=1028", NULL, FALSE},
  {"b", "h264", "H.264 1280x720 25 fps ~4 Mbit/s, keyframe every 50",
        "videotestsrc name=src is-live=true pattern=smpte horizontal-speed=8 ! "
        "video/x-raw,format=I420,width=1280,height=720,framerate=25/1 ! "
        "x264enc tune=zerolatency speed-preset=ultrafast bitrate=4000 "
        "key-int-max=50 ! rtph264pay name=pay mtu=1200 config-interval=-1",
      "x264enc", FALSE},
  {"c", "raw1080p30", "raw 1920x1080 UYVY 30 fps (~1 Gbit/s), mtu 1400",
        "videotestsrc name=src is-live=true pattern=black ! "
        "video/x-raw,format=UYVY,width=1920,height=1080,framerate=30/1 ! "
        "rtpvrawpay name=pay", NULL, TRUE},
  {"d", "raw1080p60", "raw 1920x1080 UYVY 60 fps (~2 Gbit/s), mtu 1400",
        "videotestsrc name=src is-live=true pattern=black ! "
        "video/x-raw,format=UYVY,width=1920,height=1080,framerate=60/1 ! "
        "rtpvrawpay name=pay", NULL, TRUE},
};

#define N_SCENARIOS G_N_ELEMENTS (scenarios)

/* ------------------------------------------------------------------------ */
/* chunked record storage: appends never move earlier records */

#define CHUNK_RECS (1 << 16)

typedef struct
{
  gsize rec_size;
  GPtrArray *chunks;
  gsize n;
} RecVec;

static void
recvec_init (RecVec * v, gsize rec_size)
{
  v->rec_size = rec_size;
  v->chunks = g_ptr_array_new_with_free_func (g_free);
  v->n = 0;
}

static void
recvec_clear (RecVec * v)
{
  g_ptr_array_free (v->chunks, TRUE);
  v->chunks = NULL;
  v->n = 0;
}

static gpointer
recvec_get (RecVec * v, gsize i)
{
  return (guint8 *) g_ptr_array_index (v->chunks, i / CHUNK_RECS) +
      (i % CHUNK_RECS) * v->rec_size;
}

static gpointer
recvec_append (RecVec * v)
{
  if (v->n / CHUNK_RECS >= v->chunks->len)
    g_ptr_array_add (v->chunks, g_malloc0 (CHUNK_RECS * v->rec_size));
  return recvec_get (v, v->n++);
}

/* ------------------------------------------------------------------------ */
/* what the probes record (clock times are absolute pipeline-clock times) */

typedef struct
{
  guint32 rtptime;
  guint32 n_packets;
  guint64 bytes;
  GstClockTime first_arrival;
  GstClockTime last_arrival;
  GstClockTime pts, dts;
  gboolean marker;
} FrameRec;

typedef struct
{
  GstClockTime t;               /* when the push reached the src pad probe */
  guint32 rtptime_first, rtptime_last;
  guint32 n_packets;
  guint32 bytes;
  gboolean is_list;
} PushRec;

typedef struct
{
  GstClock *clock;
  volatile gint recording;
  RecVec frames, pushes;
  FrameRec *cur;                /* sink side: the frame being received */
  GstSegment segment;           /* sink side */
  gboolean have_segment;
  volatile gint latency_queries;        /* answered LATENCY queries */
  GstClockTime latency_time;    /* when the last one was answered */
} Recorder;

static gboolean
read_rtp_header (GstBuffer * buf, guint32 * rtptime, gboolean * marker)
{
  guint8 h[12];

  if (gst_buffer_extract (buf, 0, h, 12) != 12 || (h[0] >> 6) != 2)
    return FALSE;
  *marker = (h[1] & 0x80) != 0;
  *rtptime = GST_READ_UINT32_BE (h + 4);
  return TRUE;
}

static void
sink_packet (Recorder * r, GstBuffer * buf, GstClockTime now)
{
  guint32 ts;
  gboolean marker;
  FrameRec *f = r->cur;

  if (!read_rtp_header (buf, &ts, &marker))
    return;
  if (f == NULL || f->rtptime != ts || f->marker) {
    f = r->cur = recvec_append (&r->frames);
    f->rtptime = ts;
    f->first_arrival = now;
    f->pts = GST_BUFFER_PTS (buf);
    f->dts = GST_BUFFER_DTS (buf);
  }
  f->n_packets++;
  f->bytes += gst_buffer_get_size (buf);
  f->last_arrival = now;
  if (marker)
    f->marker = TRUE;
}

static GstPadProbeReturn
sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Recorder *r = user_data;
  GstClockTime now;

  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (ev) == GST_EVENT_SEGMENT) {
      gst_event_copy_segment (ev, &r->segment);
      r->have_segment = TRUE;
    }
    return GST_PAD_PROBE_OK;
  }
  if (!g_atomic_int_get (&r->recording))
    return GST_PAD_PROBE_OK;

  now = gst_clock_get_time (r->clock);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    sink_packet (r, GST_PAD_PROBE_INFO_BUFFER (info), now);
  } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *l = GST_PAD_PROBE_INFO_BUFFER_LIST (info);
    guint i, n = gst_buffer_list_length (l);

    for (i = 0; i < n; i++)
      sink_packet (r, gst_buffer_list_get (l, i), now);
  }
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Recorder *r = user_data;
  GstClockTime now;
  PushRec *p;
  gboolean m;

  if (info->type & GST_PAD_PROBE_TYPE_QUERY_UPSTREAM) {
    GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);

    /* after the element answered: it stores upstream's latency only when
     * the query upstream succeeded (a live source answers live=TRUE) */
    if ((info->type & GST_PAD_PROBE_TYPE_PULL) &&
        GST_QUERY_TYPE (q) == GST_QUERY_LATENCY) {
      gboolean live = FALSE;

      gst_query_parse_latency (q, &live, NULL, NULL);
      if (live) {
        g_atomic_int_inc (&r->latency_queries);
        r->latency_time = gst_clock_get_time (r->clock);
      }
    }
    return GST_PAD_PROBE_OK;
  }
  if (!g_atomic_int_get (&r->recording))
    return GST_PAD_PROBE_OK;
  now = gst_clock_get_time (r->clock);
  p = recvec_append (&r->pushes);
  p->t = now;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);

    read_rtp_header (b, &p->rtptime_first, &m);
    p->rtptime_last = p->rtptime_first;
    p->n_packets = 1;
    p->bytes = gst_buffer_get_size (b);
  } else {
    GstBufferList *l = GST_PAD_PROBE_INFO_BUFFER_LIST (info);
    guint i, n = gst_buffer_list_length (l);

    p->is_list = TRUE;
    p->n_packets = n;
    for (i = 0; i < n; i++)
      p->bytes += gst_buffer_get_size (gst_buffer_list_get (l, i));
    if (n > 0) {
      read_rtp_header (gst_buffer_list_get (l, 0), &p->rtptime_first, &m);
      read_rtp_header (gst_buffer_list_get (l, n - 1), &p->rtptime_last, &m);
    }
  }
  return GST_PAD_PROBE_OK;
}

/* ------------------------------------------------------------------------ */
/* small helpers */

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

/* percentile of a sorted array, nearest rank */
static gint64
pct_i64 (const gint64 * s, gsize n, gdouble q)
{
  gsize i;

  if (n == 0)
    return 0;
  i = (gsize) ceil (q * n);
  if (i > 0)
    i--;
  if (i >= n)
    i = n - 1;
  return s[i];
}

typedef struct
{
  gsize n;
  gdouble p50, p90, p99, p999, max, min, mean;  /* us */
} Dist;

/* sorts v */
static Dist
dist_of (gint64 * v, gsize n)
{
  Dist d = { 0, };
  gsize i;
  gdouble sum = 0;

  d.n = n;
  if (n == 0) {
    d.p50 = d.p90 = d.p99 = d.p999 = d.max = d.min = d.mean = NAN;
    return d;
  }
  qsort (v, n, sizeof (gint64), cmp_i64);
  for (i = 0; i < n; i++)
    sum += v[i];
  d.p50 = pct_i64 (v, n, 0.50) / 1e3;
  d.p90 = pct_i64 (v, n, 0.90) / 1e3;
  d.p99 = pct_i64 (v, n, 0.99) / 1e3;
  d.p999 = pct_i64 (v, n, 0.999) / 1e3;
  d.max = v[n - 1] / 1e3;
  d.min = v[0] / 1e3;
  d.mean = sum / n / 1e3;
  return d;
}

/* ------------------------------------------------------------------------ */
/* running a pipeline */

static gchar *
launch_line (const Scenario * sc, gboolean with_pacer)
{
  if (with_pacer)
    return g_strdup_printf ("%s ! rtpburstpace name=pacer %s %s ! "
        "fakesink name=sink sync=false silent=true async=false", sc->head,
        opt_keep_jitter ? "" : "slot-jitter=0", opt_props ? opt_props : "");
  return g_strdup_printf ("%s ! identity name=pacer silent=true ! "
      "fakesink name=sink sync=false silent=true async=false", sc->head);
}

typedef struct
{
  gboolean ok;
  gchar *error;
  gdouble wall_s, cpu_s;
  /* timing run only */
  GstStructure *stats;          /* the element's stats at the end */
  gchar *props;                 /* the element's properties as set */
  GArray *threads;              /* ThreadCpu */
  GstClockTime base_time;
  GstClockTime upstream_latency;
  GstClockTime pipeline_latency;
  GstClockTime upstream_latency_reported;
  gint latency_queries;
  gdouble duty;
  gboolean auto_margin;
  gboolean adds_upstream_latency;
  MachineCpu m0, m1;
} RunResult;


static gchar *
describe_props (GstElement * e)
{
  GString *s = g_string_new (NULL);
  GParamSpec **specs;
  guint i, n;

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n);
  for (i = 0; i < n; i++) {
    GValue v = G_VALUE_INIT;
    gchar *str;

    if (!(specs[i]->flags & G_PARAM_READABLE) ||
        specs[i]->owner_type != G_OBJECT_TYPE (e) ||
        G_PARAM_SPEC_VALUE_TYPE (specs[i]) == GST_TYPE_STRUCTURE)
      continue;
    g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (specs[i]));
    g_object_get_property (G_OBJECT (e), specs[i]->name, &v);
    str = gst_value_serialize (&v);
    g_string_append_printf (s, "%s%s=%s", s->len ? " " : "", specs[i]->name,
        str ? str : "?");
    g_free (str);
    g_value_unset (&v);
  }
  g_free (specs);
  return g_string_free (s, FALSE);
}

/* One pipeline run.  With @rec, probes record into it (timing run). */
static RunResult
run_pipeline (const Scenario * sc, gboolean with_pacer, gdouble seconds,
    Recorder * rec)
{
  RunResult res = { 0, };
  GError *err = NULL;
  gchar *line = launch_line (sc, with_pacer);
  GstElement *pipeline, *pacer;
  GstClock *clock = gst_system_clock_obtain ();
  gdouble cpu0, wall0;
  GArray *threads0;

  pipeline = gst_parse_launch (line, &err);
  if (pipeline == NULL || err) {
    res.error = g_strdup_printf ("cannot build \"%s\": %s", line,
        err ? err->message : "?");
    g_clear_error (&err);
    g_free (line);
    if (pipeline)
      gst_object_unref (pipeline);
    gst_object_unref (clock);
    return res;
  }
  g_free (line);
  gst_pipeline_use_clock (GST_PIPELINE (pipeline), clock);
  pacer = gst_bin_get_by_name (GST_BIN (pipeline), "pacer");

  if (rec) {
    GstPad *sp = gst_element_get_static_pad (pacer, "sink");
    GstPad *op = gst_element_get_static_pad (pacer, "src");

    rec->clock = clock;
    gst_pad_add_probe (sp, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        sink_probe, rec, NULL);
    gst_pad_add_probe (op, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_QUERY_UPSTREAM,
        src_probe, rec, NULL);
    gst_object_unref (sp);
    gst_object_unref (op);
    g_atomic_int_set (&rec->recording, 1);
  }

  res.m0 = read_machine_cpu ();
  threads0 = read_thread_cpu ();
  cpu0 = process_cpu_s ();
  wall0 = mono_now_s ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    res.error = g_strdup ("cannot go to PLAYING");
  } else {
    res.ok = bus_wait (pipeline, seconds, &res.error);
    if (rec) {
      GstPad *sp = gst_element_get_static_pad (pacer, "sink");
      GstQuery *q = gst_query_new_latency ();
      GstClockTime min, max;
      gboolean live;

      g_atomic_int_set (&rec->recording, 0);
      res.base_time = gst_element_get_base_time (pipeline);
      /* the element adds upstream latency to the sync time only if a
       * LATENCY query reached it (a sink with sync=false sends none) */
      res.latency_queries = g_atomic_int_get (&rec->latency_queries);
      if (gst_pad_peer_query (sp, q)) {
        gst_query_parse_latency (q, &live, &min, &max);
        res.upstream_latency_reported = min;
        if (res.latency_queries > 0)
          res.upstream_latency = min;
      }
      gst_query_unref (q);
      res.pipeline_latency = gst_pipeline_get_latency (GST_PIPELINE (pipeline));
      if (!GST_CLOCK_TIME_IS_VALID (res.pipeline_latency))
        res.pipeline_latency = 0;
      gst_object_unref (sp);
      if (with_pacer) {
        g_object_get (pacer, "stats", &res.stats, "duty", &res.duty, NULL);
        if (g_object_class_find_property (G_OBJECT_GET_CLASS (pacer),
                "auto-margin"))
          g_object_get (pacer, "auto-margin", &res.auto_margin, NULL);
        /* newer elements add the upstream latency only when asked to */
        res.adds_upstream_latency = TRUE;
        if (g_object_class_find_property (G_OBJECT_GET_CLASS (pacer),
                "sync-upstream-latency"))
          g_object_get (pacer, "sync-upstream-latency",
              &res.adds_upstream_latency, NULL);
        if (!res.adds_upstream_latency)
          res.upstream_latency = 0;
        res.props = describe_props (pacer);
      }
    }
    res.threads = thread_cpu_delta (threads0);
    threads0 = NULL;
  }
  if (threads0)
    g_array_free (threads0, TRUE);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  res.wall_s = mono_now_s () - wall0;
  res.cpu_s = process_cpu_s () - cpu0;
  res.m1 = read_machine_cpu ();
  gst_object_unref (pacer);
  gst_object_unref (pipeline);
  gst_object_unref (clock);
  return res;
}

/* ------------------------------------------------------------------------ */
/* analysis */

typedef struct
{
  const Scenario *sc;
  gboolean ok;
  gchar *error;
  gchar *launch;
  gdouble seconds;

  /* timing run */
  gdouble run_wall_s, run_cpu_s;
  gdouble other_cpu_frac;       /* other processes' CPU, of all cores */
  gdouble steal_frac;           /* hypervisor steal, of all cores */
  GstStructure *stats;
  gchar *props;
  GArray *threads;
  guint64 period_ns;
  gdouble duty;
  gboolean auto_margin;
  gchar *plugin_file;
  gchar *plugin_mtime;
  GstClockTime upstream_latency, upstream_latency_reported;
  gint latency_queries;
  guint64 frames_in, packets_in, frames_measured, frames_incomplete;
  guint64 packets_measured, slots_measured, pushes_lists;
  gdouble in_pps, in_mbps, out_pps, out_mbps;
  gdouble packets_per_frame, slots_per_frame;
  guint64 spacing_ns;           /* median nominal slot spacing span/k */
  Dist err_pkt;                 /* per packet, us */
  Dist err_slot;                /* per slot (push), us */
  Dist start_err;               /* first slot of each frame, us */
  Dist own_err;                 /* slots j > 0 vs the element's own start */
  gdouble early_frac;           /* packets released before their time */
  gdouble growth_first_us, growth_last_us, growth_slope_us_per_s;
  gdouble frame_end_max_periods;        /* max (last push - t0) / dT */
  gdouble frames_over_period_frac;      /* frames whose last push > t0 + dT */
  gdouble behind_sync_max_ms;   /* max (push - frame sync time) */
  guint64 catchup_frames_rebuilt;

  /* floor */
  gboolean have_floor;
  Dist floor;
  gsize floor_n;
  gdouble floor_cpu_s;

  /* CPU */
  gint cpu_reps;
  gdouble cpu_pacer_med, cpu_ident_med, wall_pacer_med, wall_ident_med;
  gdouble cpu_task_med;         /* the element's src pad task thread */
  gdouble *cpu_pacer, *cpu_ident;
} ScenarioResult;

static const gchar *
stats_str (GstStructure * s, const gchar * field)
{
  static gchar buf[128];
  const gsize len = sizeof (buf);
  const GValue *v;
  gchar *str;

  if (s == NULL || !(v = gst_structure_get_value (s, field)))
    return "-";
  str = gst_value_serialize (v);
  g_strlcpy (buf, str ? str : "-", len);
  g_free (str);
  return buf;
}

static guint64
stats_u64 (GstStructure * s, const gchar * field)
{
  guint64 v = 0;
  guint u = 0;

  if (s == NULL)
    return 0;
  if (gst_structure_get_uint64 (s, field, &v))
    return v;
  if (gst_structure_get_uint (s, field, &u))
    return u;
  return 0;
}

/*
 * The schedule ("scheduled release time") is rebuilt from what went into the
 * element, with the rules of docs/algorithm.md, as an ideal pacer with no
 * wake-up delay would release it:
 *
 *   sync_i  = running time of the frame's DTS (else PTS) + upstream latency
 *             (the LATENCY query answered by the payloader)
 *   ready_i = arrival of the frame's last packet at the element's sink pad
 *             (marker bit; without marker: arrival of the next frame)
 *   t0_i, span_i from the element's own rule, rtp_burst_plan_start ()
 *             (gst/rtpburstschedule.c), for a task that is on time (it
 *             reaches the frame at ready_i): t0_i is when the frame is due
 *             and the previous frame's slots have ended
 *   nom_i   = duty*dT, or with auto-margin the span the element's margin
 *             unit gives (gst/rtpburstmargin.c, replayed here with each
 *             frame's measured end and last slot on time)
 *             and the span shortened by how late that is (catch-up)
 *   sched(slot j of k_i) from the element's slot grid,
 *             rtp_burst_plan_slot_offset ()
 *
 * dT is the element's stats frame-period, duty its property, k_i the number
 * of pushes (buffers or buffer lists) the element made for frame i: one push
 * is one slot, whatever burst size the element used.  Exact with
 * slot-jitter=0 (the benchmark's default) and payload-size=0; with jitter the
 * schedule is the unjittered grid.
 */
typedef struct
{
  GstClockTime sync, ready, t0, span, nom;
  guint32 slots, packets_out;
  gsize first_push;
  gboolean complete;
} FrameSched;

/* Slot @j of a frame of @slots pushes spread over @span from @t0: the
 * element's own grid (rtp_burst_plan_slot_offset), one push per slot. */
static GstClockTime
slot_time (GstClockTime t0, GstClockTime span, guint slots, guint packets,
    guint j)
{
  RtpBurstPlan plan;

  rtp_burst_plan_init (&plan, t0, span, span, packets, slots,
      (packets + slots - 1) / MAX (slots, 1), 0.0);
  return t0 + rtp_burst_plan_slot_offset (&plan, j);
}

/* Gives the margin unit the frame as the element's task saw it: when its
 * last slot left after its start, and the offset of its last slot that
 * left at most RTP_BURST_LATE_THRESHOLD after its time before the late
 * ones at its end. */
static void
replay_margin (RtpBurstMargin * margin, Recorder * rec, FrameSched * f,
    GstClockTime base, guint64 period)
{
  guint64 on_time = 0, end = 0;
  guint j;

  for (j = 0; j < f->slots; j++) {
    PushRec *p = recvec_get (&rec->pushes, f->first_push + j);
    guint64 sched = slot_time (f->t0, f->span, f->slots, f->packets_out, j);
    guint64 offset = sched - f->t0;
    guint64 actual = p->t - base;

    if (j == 0 || actual <= sched + RTP_BURST_LATE_THRESHOLD)
      on_time = offset;
    end = actual > f->t0 ? actual - f->t0 : 0;
  }
  rtp_burst_margin_frame (margin, end, on_time, period);
}

static void
analyse (ScenarioResult * R, Recorder * rec, RunResult * run, FILE * dump)
{
  gsize nf = rec->frames.n, np = rec->pushes.n, i, fi;
  FrameSched *fs;
  GstClockTime base = run->base_time, warm_end, span_nom, t_first = 0,
      t_last = 0, end_prev = GST_CLOCK_TIME_NONE;
  gint64 *err_pkt, *err_slot, *start_err, *own_err;
  gsize n_pkt = 0, n_slot = 0, n_start = 0, n_early = 0, n_own = 0;
  guint64 bytes_out = 0, pk_out = 0, bytes_in = 0, pk_in = 0;
  GstClockTime in_t0 = 0, in_t1 = 0;
  gdouble *spacings;
  gsize n_spacings = 0;
  /* regression */
  gdouble sx = 0, sy = 0, sxx = 0, sxy = 0;
  gsize sn = 0;
  guint64 n_over = 0, n_frames_used = 0;
  gdouble frame_end_max = 0, behind_max = 0;
  RtpBurstMargin margin;

  R->frames_in = nf;
  R->period_ns = stats_u64 (run->stats, "frame-period");
  if (R->period_ns == 0 || nf < 3 || np == 0) {
    R->error = g_strdup_printf ("nothing to analyse (frames %" G_GSIZE_FORMAT
        ", pushes %" G_GSIZE_FORMAT ", frame-period %" G_GUINT64_FORMAT ")",
        nf, np, R->period_ns);
    R->ok = FALSE;
    return;
  }
  span_nom = (GstClockTime) (R->period_ns * R->duty + 0.5);
  if (R->duty >= 1.0)
    span_nom = R->period_ns;
  warm_end = (GstClockTime) (opt_warmup * GST_SECOND);

  fs = g_new0 (FrameSched, nf);
  rtp_burst_margin_init (&margin);

  /* pushes -> frames, in order (the element never reorders) */
  fi = 0;
  for (i = 0; i < np; i++) {
    PushRec *p = recvec_get (&rec->pushes, i);

    while (fi < nf &&
        ((FrameRec *) recvec_get (&rec->frames, fi))->rtptime !=
        p->rtptime_first)
      fi++;
    if (fi >= nf)
      break;
    if (fs[fi].slots == 0)
      fs[fi].first_push = i;
    fs[fi].slots++;
    fs[fi].packets_out += p->n_packets;
    if (p->is_list)
      R->pushes_lists++;
  }

  /* the ideal schedule */
  for (fi = 0; fi < nf; fi++) {
    FrameRec *f = recvec_get (&rec->frames, fi);
    GstClockTime ts = GST_CLOCK_TIME_IS_VALID (f->dts) ? f->dts : f->pts;
    RtpBurstStart start;

    fs[fi].sync = GST_CLOCK_TIME_NONE;
    if (rec->have_segment && GST_CLOCK_TIME_IS_VALID (ts)) {
      GstClockTime rt = gst_segment_to_running_time (&rec->segment,
          GST_FORMAT_TIME, ts);
      if (GST_CLOCK_TIME_IS_VALID (rt))
        fs[fi].sync = rt;
      /* the element adds the upstream latency it learned from the last
       * answered LATENCY query (none: 0) */
      if (GST_CLOCK_TIME_IS_VALID (rt) && GST_CLOCK_TIME_IS_VALID
          (rec->latency_time) && f->last_arrival >= rec->latency_time)
        fs[fi].sync += run->upstream_latency;
    }
    if (f->marker || fi + 1 >= nf)
      fs[fi].ready = f->last_arrival - base;
    else
      fs[fi].ready = ((FrameRec *) recvec_get (&rec->frames,
              fi + 1))->first_arrival - base;
    fs[fi].nom = R->auto_margin && fs[fi].slots > 0 ?
        rtp_burst_margin_span (R->period_ns, R->duty, margin.margin,
        fs[fi].slots, NULL) : span_nom;
    /* the element's rule (rtp_burst_plan_start) for a task that gets to
     * the frame as soon as it is complete (GST_CLOCK_TIME_NONE is
     * RTP_BURST_TIME_NONE) */
    rtp_burst_plan_start (fs[fi].sync, fs[fi].ready, fs[fi].ready,
        end_prev, fs[fi].nom, &start);
    if (start.catch_up)
      R->catchup_frames_rebuilt++;
    fs[fi].t0 = start.start;
    fs[fi].span = start.span;
    end_prev = fs[fi].t0 + fs[fi].span;
    fs[fi].complete = fs[fi].slots > 0 && fs[fi].packets_out == f->n_packets;
    /* the element's margin sees how the frame ended */
    if (fs[fi].slots > 0)
      replay_margin (&margin, rec, &fs[fi], base, R->period_ns);
  }

  {
    guint64 total_pk = 0;

    for (i = 0; i < np; i++)
      total_pk += ((PushRec *) recvec_get (&rec->pushes, i))->n_packets;
    err_pkt = g_new (gint64, total_pk + 1);
  }
  err_slot = g_new (gint64, np + 1);
  own_err = g_new (gint64, np + 1);
  start_err = g_new (gint64, nf + 1);
  spacings = g_new (gdouble, nf + 1);

  if (dump)
    fprintf (dump, "frame,rtptime,slot,slots,packets,bytes,is_list,"
        "sched_ns,actual_ns,error_ns,sync_ns,ready_ns\n");

  for (fi = 0; fi < nf; fi++) {
    FrameRec *f = recvec_get (&rec->frames, fi);
    guint j;
    GstClockTime last_t = 0;

    pk_in += f->n_packets;
    bytes_in += f->bytes;
    if (f->first_arrival - base >= warm_end) {
      if (in_t0 == 0)
        in_t0 = f->first_arrival;
      in_t1 = f->first_arrival;
    }
    if (!fs[fi].complete) {
      if (fi + 3 < nf)          /* the last frames are cut by the stop */
        R->frames_incomplete++;
      continue;
    }
    if (fs[fi].t0 < warm_end)
      continue;
    n_frames_used++;
    spacings[n_spacings++] = (gdouble) fs[fi].span / fs[fi].slots;

    /* the element's own frame start: its first push; its span shortened
     * by how late that was (catch-up) */
    {
      PushRec *p0 = recvec_get (&rec->pushes, fs[fi].first_push);
      GstClockTime t0e = p0->t - base, sp;
      RtpBurstStart own;

      /* as if the previous frame had held it back until then */
      rtp_burst_plan_start (fs[fi].sync, fs[fi].ready, t0e, t0e,
          fs[fi].nom, &own);
      sp = own.span;
      for (j = 1; j < fs[fi].slots; j++) {
        PushRec *p = recvec_get (&rec->pushes, fs[fi].first_push + j);

        own_err[n_own++] = (gint64) (p->t - base) - (gint64) slot_time (t0e,
            sp, fs[fi].slots, fs[fi].packets_out, j);
      }
    }
    for (j = 0; j < fs[fi].slots; j++) {
      PushRec *p = recvec_get (&rec->pushes, fs[fi].first_push + j);
      GstClockTime sched = slot_time (fs[fi].t0, fs[fi].span, fs[fi].slots,
          fs[fi].packets_out, j);
      GstClockTime actual = p->t - base;
      gint64 e = (gint64) actual - (gint64) sched;
      guint k;
      gdouble x = (gdouble) sched / GST_SECOND, y = e / 1e3;

      if (dump)
        fprintf (dump, "%" G_GSIZE_FORMAT ",%u,%u,%u,%u,%u,%d,%" G_GUINT64_FORMAT
            ",%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
            ",%" G_GUINT64_FORMAT "\n", fi, f->rtptime, j, fs[fi].slots,
            p->n_packets, p->bytes, p->is_list, sched, actual, e,
            GST_CLOCK_TIME_IS_VALID (fs[fi].sync) ? (gint64) fs[fi].sync : -1,
            fs[fi].ready);

      err_slot[n_slot++] = e;
      if (j == 0)
        start_err[n_start++] = e;
      for (k = 0; k < p->n_packets; k++) {
        err_pkt[n_pkt++] = e;
        if (e < 0)
          n_early++;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        sn++;
      }
      pk_out += p->n_packets;
      bytes_out += p->bytes;
      if (t_first == 0)
        t_first = p->t;
      t_last = p->t;
      last_t = actual;
      if (GST_CLOCK_TIME_IS_VALID (fs[fi].sync)) {
        gdouble b = ((gdouble) actual - (gdouble) fs[fi].sync) / 1e6;
        behind_max = MAX (behind_max, b);
      }
    }
    R->slots_measured += fs[fi].slots;
    {
      gdouble endp = ((gdouble) last_t - (gdouble) fs[fi].t0) / R->period_ns;

      frame_end_max = MAX (frame_end_max, endp);
      if (endp > 1.0)
        n_over++;
    }
  }

  R->frames_measured = n_frames_used;
  R->packets_measured = n_pkt;
  R->packets_in = pk_in;
  if (n_frames_used > 0) {
    R->packets_per_frame = (gdouble) n_pkt / n_frames_used;
    R->slots_per_frame = (gdouble) R->slots_measured / n_frames_used;
  }
  R->spacing_ns = (guint64) median_d (spacings, n_spacings);
  if (t_last > t_first) {
    gdouble d = (gdouble) (t_last - t_first) / GST_SECOND;

    R->out_pps = pk_out / d;
    R->out_mbps = bytes_out * 8.0 / d / 1e6;
  }
  if (in_t1 > in_t0) {
    /* input rate over whole frames after the warm-up */
    guint64 pk = 0, by = 0;

    for (fi = 0; fi < nf; fi++) {
      FrameRec *f = recvec_get (&rec->frames, fi);

      if (f->first_arrival >= in_t0 && f->first_arrival < in_t1) {
        pk += f->n_packets;
        by += f->bytes;
      }
    }
    R->in_pps = pk / ((gdouble) (in_t1 - in_t0) / GST_SECOND);
    R->in_mbps = by * 8.0 / ((gdouble) (in_t1 - in_t0) / GST_SECOND) / 1e6;
  }
  R->early_frac = n_pkt ? (gdouble) n_early / n_pkt : 0;
  R->frame_end_max_periods = frame_end_max;
  R->frames_over_period_frac = n_frames_used ?
      (gdouble) n_over / n_frames_used : 0;
  R->behind_sync_max_ms = behind_max;

  /* growth: median error of the first and last 10 % of packets (in
   * schedule order, which is push order), and the least-squares slope */
  if (n_pkt >= 20) {
    gsize tenth = n_pkt / 10;
    gint64 *tmp = g_new (gint64, tenth);

    memcpy (tmp, err_pkt, tenth * sizeof (gint64));
    qsort (tmp, tenth, sizeof (gint64), cmp_i64);
    R->growth_first_us = pct_i64 (tmp, tenth, 0.5) / 1e3;
    memcpy (tmp, err_pkt + n_pkt - tenth, tenth * sizeof (gint64));
    qsort (tmp, tenth, sizeof (gint64), cmp_i64);
    R->growth_last_us = pct_i64 (tmp, tenth, 0.5) / 1e3;
    g_free (tmp);
  }
  if (sn > 1) {
    gdouble den = sn * sxx - sx * sx;

    R->growth_slope_us_per_s = den != 0 ? (sn * sxy - sx * sy) / den : 0;
  }

  R->err_pkt = dist_of (err_pkt, n_pkt);
  R->err_slot = dist_of (err_slot, n_slot);
  R->start_err = dist_of (start_err, n_start);
  R->own_err = dist_of (own_err, n_own);
  g_free (own_err);
  (void) bytes_in;

  g_free (err_pkt);
  g_free (err_slot);
  g_free (start_err);
  g_free (spacings);
  g_free (fs);
  R->ok = n_pkt > 0;
  if (!R->ok)
    R->error = g_strdup ("no complete paced frame after the warm-up");
}

/* ------------------------------------------------------------------------ */
/* one scenario */

static ScenarioResult *
run_scenario (const Scenario * sc)
{
  ScenarioResult *R = g_new0 (ScenarioResult, 1);
  Recorder rec = { 0, };
  RunResult run;
  gdouble seconds = sc->raw_hd && opt_raw_seconds > 0 ? opt_raw_seconds :
      opt_seconds;
  FILE *dump = NULL;
  gint r;

  R->sc = sc;
  R->seconds = seconds;
  R->launch = launch_line (sc, TRUE);
  g_print ("\n== scenario %s (%s): %s\n   %s\n", sc->name, sc->alias,
      sc->descr, R->launch);

  if (sc->need && !have_element (sc->need)) {
    R->error = g_strdup_printf ("skipped: element %s not available", sc->need);
    g_print ("   %s\n", R->error);
    return R;
  }

  /* 1. timing run */
  recvec_init (&rec.frames, sizeof (FrameRec));
  recvec_init (&rec.pushes, sizeof (PushRec));
  gst_segment_init (&rec.segment, GST_FORMAT_UNDEFINED);
  rec.latency_time = GST_CLOCK_TIME_NONE;
  g_print ("   timing run, %.0f s ...\n", seconds);
  run = run_pipeline (sc, TRUE, seconds, &rec);
  R->run_wall_s = run.wall_s;
  R->run_cpu_s = run.cpu_s;
  {
    gdouble tot = run.m1.total_s - run.m0.total_s;

    if (tot > 0) {
      R->other_cpu_frac = MAX (0.0, (run.m1.busy_s - run.m0.busy_s -
              run.cpu_s) / tot);
      R->steal_frac = (run.m1.steal_s - run.m0.steal_s) / tot;
    }
  }
  R->stats = run.stats;
  R->props = run.props;
  R->threads = run.threads;
  R->upstream_latency = run.upstream_latency;
  R->upstream_latency_reported = run.upstream_latency_reported;
  R->latency_queries = run.latency_queries;
  if (!run.ok) {
    R->error = run.error ? run.error : g_strdup ("pipeline failed");
    g_print ("   FAILED: %s\n", R->error);
    recvec_clear (&rec.frames);
    recvec_clear (&rec.pushes);
    return R;
  }
  R->duty = run.duty;
  R->auto_margin = run.auto_margin;
  {
    GstPluginFeature *feat = gst_registry_lookup_feature (gst_registry_get (),
        "rtpburstpace");
    GstPlugin *plugin = feat ? gst_plugin_feature_get_plugin (feat) : NULL;

    if (plugin && gst_plugin_get_filename (plugin)) {
      GStatBuf st;

      R->plugin_file = g_strdup (gst_plugin_get_filename (plugin));
      if (g_stat (R->plugin_file, &st) == 0) {
        GDateTime *dt = g_date_time_new_from_unix_local (st.st_mtime);

        R->plugin_mtime = g_date_time_format (dt, "%F %T");
        g_date_time_unref (dt);
      }
    }
    if (plugin)
      gst_object_unref (plugin);
    if (feat)
      gst_object_unref (feat);
  }
  if (opt_dump_dir) {
    gchar *path = g_strdup_printf ("%s/slots-%s.csv", opt_dump_dir, sc->name);

    dump = fopen (path, "w");
    if (!dump)
      g_printerr ("cannot write %s\n", path);
    g_free (path);
  }
  analyse (R, &rec, &run, dump);
  if (dump)
    fclose (dump);
  recvec_clear (&rec.frames);
  recvec_clear (&rec.pushes);
  if (!R->ok) {
    g_print ("   FAILED: %s\n", R->error);
    return R;
  }
  g_print ("   %" G_GUINT64_FORMAT " packets in %" G_GUINT64_FORMAT
      " slots measured, spacing %.1f us; release error p50 %.1f p99 %.1f "
      "max %.1f us\n", R->packets_measured, R->slots_measured,
      R->spacing_ns / 1e3, R->err_pkt.p50, R->err_pkt.p99, R->err_pkt.max);

  /* 2. floor */
  if (!opt_no_floor && R->spacing_ns > 0) {
    FloorJob job;
    GThread *t;

    job.spacing_ns = R->spacing_ns;
    job.spin_ns = (guint64) opt_floor_spin * 1000;
    job.n = R->slots_measured;
    job.err = g_new (gint64, job.n);
    g_print ("   floor: clock_nanosleep loop, %" G_GSIZE_FORMAT
        " wake-ups every %.1f us, spinning the last %d us ...\n", job.n,
        job.spacing_ns / 1e3, opt_floor_spin);
    t = g_thread_new ("floor", floor_thread, &job);
    g_thread_join (t);
    R->floor = dist_of (job.err, job.n);
    R->floor_n = job.n;
    R->floor_cpu_s = job.cpu_s;
    R->have_floor = TRUE;
    g_free (job.err);
    g_print ("   floor p50 %.1f p99 %.1f max %.1f us\n", R->floor.p50,
        R->floor.p99, R->floor.max);
  }

  /* 3. CPU: element vs identity, interleaved, no probes */
  if (!opt_no_cpu && opt_cpu_reps > 0) {
    gdouble *wp = g_new0 (gdouble, opt_cpu_reps);
    gdouble *wi = g_new0 (gdouble, opt_cpu_reps);
    gdouble *cp = g_new0 (gdouble, opt_cpu_reps);
    gdouble *ci = g_new0 (gdouble, opt_cpu_reps);
    gdouble *tk = g_new0 (gdouble, opt_cpu_reps);

    R->cpu_pacer = g_new0 (gdouble, opt_cpu_reps);
    R->cpu_ident = g_new0 (gdouble, opt_cpu_reps);
    g_print ("   CPU: %d x (rtpburstpace, identity), %.0f s each ...\n",
        opt_cpu_reps, opt_cpu_seconds);
    for (r = 0; r < opt_cpu_reps; r++) {
      gint w;

      for (w = 0; w < 2; w++) {
        /* alternate which goes first */
        gboolean pacer = (w == 0) == (r % 2 == 0);
        RunResult cr = run_pipeline (sc, pacer, opt_cpu_seconds, NULL);

        if (!cr.ok)
          g_print ("   CPU run failed: %s\n", cr.error ? cr.error : "?");
        if (pacer) {
          R->cpu_pacer[r] = cp[r] = cr.cpu_s;
          wp[r] = cr.wall_s;
          tk[r] = thread_cpu_sum (cr.threads, "pacer:src").cpu_s;
        } else {
          R->cpu_ident[r] = ci[r] = cr.cpu_s;
          wi[r] = cr.wall_s;
        }
        g_free (cr.error);
        if (cr.threads)
          g_array_free (cr.threads, TRUE);
        if (cr.stats)
          gst_structure_free (cr.stats);
        g_free (cr.props);
      }
    }
    R->cpu_reps = opt_cpu_reps;
    R->cpu_pacer_med = median_d (cp, opt_cpu_reps);
    R->cpu_ident_med = median_d (ci, opt_cpu_reps);
    R->wall_pacer_med = median_d (wp, opt_cpu_reps);
    R->wall_ident_med = median_d (wi, opt_cpu_reps);
    R->cpu_task_med = median_d (tk, opt_cpu_reps);
    g_free (tk);
    g_print ("   CPU median: rtpburstpace %.2f s, identity %.2f s (%.2fx)\n",
        R->cpu_pacer_med, R->cpu_ident_med,
        R->cpu_pacer_med / R->cpu_ident_med);
    g_free (wp);
    g_free (wi);
    g_free (cp);
    g_free (ci);
  }
  return R;
}

/* ------------------------------------------------------------------------ */
/* output */

static gdouble
ratio (gdouble a, gdouble b)
{
  if (isnan (a) || isnan (b) || b == 0)
    return NAN;
  return a / b;
}

static void
print_table (ScenarioResult ** res, guint n)
{
  guint i, t;
  gchar buf[128];

  g_print ("\nRelease error = push time at the element's src pad - scheduled "
      "time, on the pipeline clock.\nScheduled = the ideal schedule rebuilt "
      "from the frames' arrival, PTS (+ upstream latency if the element adds "
      "it), dT (stats "
      "frame-period), duty and the number of slots\n(pushes) per frame, by "
      "the rules of docs/algorithm.md (see pacebench.c). Floor = bare "
      "clock_nanosleep(TIMER_ABSTIME) loop, same spacing, same\nnumber of "
      "wake-ups, run right after. Times in us unless stated.\n\n");

  g_print ("%-28s", "");
  for (i = 0; i < n; i++)
    g_print (" | %-16s", res[i]->sc->alias);
  g_print ("\n%-28s", "----------------------------");
  for (i = 0; i < n; i++)
    g_print ("-|-%-16s", "----------------");
  g_print ("\n");

#define ROW(label, fmt, ...) do {                                 \
    g_print ("%-28s", label);                                   \
    for (i = 0; i < n; i++) {                                   \
      ScenarioResult *R = res[i];                               \
      if (!R->ok) { g_print (" | %-16s", "-"); continue; }      \
      g_snprintf (buf, sizeof (buf), fmt, __VA_ARGS__);         \
      g_print (" | %-16s", buf);                                \
    }                                                           \
    g_print ("\n");                                             \
  } while (0)

  ROW ("seconds (timing run)", "%.0f", R->seconds);
  ROW ("upstream latency used ms", "%.1f%s", R->upstream_latency / 1e6,
      R->latency_queries ? (R->upstream_latency ? "" : " (not added)") :
      " (no query)");
  ROW ("packets/frame", "%.1f", R->packets_per_frame);
  ROW ("slots/frame (pushes)", "%.1f", R->slots_per_frame);
  ROW ("slot spacing dt", "%.1f", R->spacing_ns / 1e3);
  ROW ("packets measured", "%" G_GUINT64_FORMAT, R->packets_measured);
  ROW ("input  pkt/s | Mbit/s", "%.0f | %.1f", R->in_pps, R->in_mbps);
  ROW ("output pkt/s | Mbit/s", "%.0f | %.1f", R->out_pps, R->out_mbps);
  ROW ("release err p50", "%.1f", R->err_pkt.p50);
  ROW ("release err p99", "%.1f", R->err_pkt.p99);
  ROW ("release err max", "%.1f", R->err_pkt.max);
  ROW ("early packets %", "%.2f", 100 * R->early_frac);
  ROW ("frame-start err p50|p99", "%.0f | %.0f", R->start_err.p50,
      R->start_err.p99);
  ROW ("slot err vs own start p50", "%.1f", R->own_err.p50);
  ROW ("slot err vs own start p99", "%.1f", R->own_err.p99);
  ROW ("floor p50", "%.1f", R->have_floor ? R->floor.p50 : NAN);
  ROW ("floor p99", "%.1f", R->have_floor ? R->floor.p99 : NAN);
  ROW ("floor max", "%.1f", R->have_floor ? R->floor.max : NAN);
  ROW ("ratio p50 | p99 to floor", "%.2f | %.2f",
      ratio (R->err_pkt.p50, R->floor.p50), ratio (R->err_pkt.p99,
          R->floor.p99));
  ROW ("ratio max to floor", "%.2f", ratio (R->err_pkt.max, R->floor.max));
  ROW ("own-start ratio p50|p99", "%.2f | %.2f", ratio (R->own_err.p50,
          R->floor.p50), ratio (R->own_err.p99, R->floor.p99));
  ROW ("lateness first|last 10%", "%.0f | %.0f", R->growth_first_us,
      R->growth_last_us);
  ROW ("lateness slope us/s", "%.1f", R->growth_slope_us_per_s);
  ROW ("frame end max (xdT)", "%.2f", R->frame_end_max_periods);
  ROW ("frames ending > dT %", "%.1f", 100 * R->frames_over_period_frac);
  ROW ("max behind sync (ms)", "%.1f", R->behind_sync_max_ms);
  ROW ("stats late-slots", "%s", stats_str (R->stats, "late-slots"));
  ROW ("stats catch-up-frames", "%s", stats_str (R->stats,
          "catch-up-frames"));
  ROW ("stats max-lateness (us)", "%.0f",
      stats_u64 (R->stats, "max-lateness") / 1e3);
  /* the element's own conformance meter, beside the figures above */
  ROW ("meter error p50|p99|max us", "%.0f | %.0f | %.0f",
      stats_u64 (R->stats, "release-error-p50") / 1e3,
      stats_u64 (R->stats, "release-error-p99") / 1e3,
      stats_u64 (R->stats, "release-error-max") / 1e3);
  ROW ("meter gap p1|p50|p99 us", "%.0f | %.0f | %.0f",
      stats_u64 (R->stats, "gap-p1") / 1e3,
      stats_u64 (R->stats, "gap-p50") / 1e3,
      stats_u64 (R->stats, "gap-p99") / 1e3);
  ROW ("meter peak 1|10 ms Mbit/s", "%.1f | %.1f",
      stats_u64 (R->stats, "peak-rate-1ms") / 1e6,
      stats_u64 (R->stats, "peak-rate-10ms") / 1e6);
  ROW ("meter frames > dT | max end", "%s | %.3f",
      stats_str (R->stats, "frames-over-period"),
      stats_u64 (R->stats, "max-frame-end") / 1e3);
  ROW ("run CPU s (wall s)", "%.2f (%.1f)", R->run_cpu_s, R->run_wall_s);
  ROW ("other procs | steal CPU %", "%.1f | %.1f", 100 * R->other_cpu_frac,
      100 * R->steal_frac);
  ROW ("CPU med element | identity", "%.2f | %.2f", R->cpu_pacer_med,
      R->cpu_ident_med);
  ROW ("CPU ratio element/identity", "%.2f", ratio (R->cpu_pacer_med,
          R->cpu_ident_med));
  ROW ("CPU overhead (E-I)/I", "%.2f", ratio (R->cpu_pacer_med -
          R->cpu_ident_med, R->cpu_ident_med));
  ROW ("CPU med pacer:src thread", "%.2f", R->cpu_task_med);
  /* per wake-up: the task's CPU over the slots of one CPU run (at the timing
   * run's slots per frame), against the bare clock_nanosleep loop's */
  ROW ("CPU us/slot task | floor", "%.1f | %.1f",
      R->period_ns > 0 && R->slots_per_frame > 0 ? 1e6 * R->cpu_task_med /
      (opt_cpu_seconds * 1e9 / R->period_ns * R->slots_per_frame) : NAN,
      R->have_floor && R->floor_n > 0 ? 1e6 * R->floor_cpu_s / R->floor_n :
      NAN);
#undef ROW

  for (i = 0; i < n; i++) {
    ScenarioResult *R = res[i];

    if (!R->ok) {
      g_print ("\n%s: %s\n", R->sc->alias, R->error ? R->error : "failed");
      continue;
    }
    g_print ("\n%s: threads by CPU in the timing run:", R->sc->alias);
    for (t = 0; R->threads && t < R->threads->len && t < 6; t++) {
      ThreadCpu *tc = &g_array_index (R->threads, ThreadCpu, t);

      if (tc->cpu_s > 0)
        g_print (" %s %.2f s;", tc->name, tc->cpu_s);
    }
    if (R->stats) {
      gchar *s = gst_structure_to_string (R->stats);

      g_print ("\n  stats: %s", s);
      g_free (s);
    }
    g_print ("\n  element: %s\n  plugin: %s (%s)\n", R->props ? R->props : "",
        R->plugin_file ? R->plugin_file : "?",
        R->plugin_mtime ? R->plugin_mtime : "?");
  }
}



static void
json_dist (FILE * f, const gchar * name, const Dist * d)
{
  fprintf (f, "\"%s\": {\"n\": %" G_GSIZE_FORMAT ", \"p50_us\": ", name, d->n);
  json_num (f, d->p50);
  fprintf (f, ", \"p90_us\": ");
  json_num (f, d->p90);
  fprintf (f, ", \"p99_us\": ");
  json_num (f, d->p99);
  fprintf (f, ", \"p999_us\": ");
  json_num (f, d->p999);
  fprintf (f, ", \"max_us\": ");
  json_num (f, d->max);
  fprintf (f, ", \"min_us\": ");
  json_num (f, d->min);
  fprintf (f, ", \"mean_us\": ");
  json_num (f, d->mean);
  fprintf (f, "}");
}

static void
write_json (const gchar * path, ScenarioResult ** res, guint n, gchar * argv0)
{
  FILE *f = fopen (path, "w");
  guint i, t;

  if (!f) {
    g_printerr ("cannot write %s\n", path);
    return;
  }
  fprintf (f, "{\n");
  json_machine_open (f, "pacebench");
  fprintf (f, ", \"cpu_dma_latency_us\": %d, \"floor_spin_us\": %d},\n"
      "  \"scheduled_time\": ", opt_cpu_dma_latency, opt_floor_spin);
  json_str (f, "ideal schedule rebuilt from sink-pad arrivals: t0 = max(PTS "
      "running time + upstream latency, arrival of the frame's last packet, "
      "end of previous frame), catch-up as in docs/algorithm.md, slot j at "
      "t0 + floor(span*j/k), k = pushes per frame, span = duty*frame-period");
  fprintf (f, ",\n  \"scenarios\": [\n");
  for (i = 0; i < n; i++) {
    ScenarioResult *R = res[i];

    fprintf (f, "    {\"name\": \"%s\", \"alias\": \"%s\", \"ok\": %s, "
        "\"launch\": ", R->sc->name, R->sc->alias, R->ok ? "true" : "false");
    json_str (f, R->launch);
    if (R->error) {
      fprintf (f, ", \"error\": ");
      json_str (f, R->error);
    }
    if (!R->ok) {
      fprintf (f, "}%s\n", i + 1 < n ? "," : "");
      continue;
    }
    fprintf (f, ",\n     \"plugin_file\": ");
    json_str (f, R->plugin_file);
    fprintf (f, ", \"plugin_mtime\": ");
    json_str (f, R->plugin_mtime);
    fprintf (f, ",\n     \"element_properties\": ");
    json_str (f, R->props);
    if (R->stats) {
      gchar *s = gst_structure_to_string (R->stats);

      fprintf (f, ",\n     \"element_stats\": ");
      json_str (f, s);
      g_free (s);
    }
    fprintf (f, ",\n     \"seconds\": %g, \"warmup_s\": %g, \"frame_period_ns\": %"
        G_GUINT64_FORMAT ", \"duty\": %g, \"upstream_latency_used_ns\": %"
        G_GUINT64_FORMAT ", \"upstream_latency_reported_ns\": %"
        G_GUINT64_FORMAT ", \"latency_queries_seen\": %d,\n", R->seconds,
        opt_warmup, R->period_ns, R->duty, R->upstream_latency,
        R->upstream_latency_reported, R->latency_queries);
    fprintf (f, "     \"frames_in\": %" G_GUINT64_FORMAT ", \"frames_measured\": %"
        G_GUINT64_FORMAT ", \"frames_incomplete\": %" G_GUINT64_FORMAT
        ", \"packets_in\": %" G_GUINT64_FORMAT ", \"packets_measured\": %"
        G_GUINT64_FORMAT ", \"slots_measured\": %" G_GUINT64_FORMAT
        ", \"list_pushes\": %" G_GUINT64_FORMAT ",\n", R->frames_in,
        R->frames_measured, R->frames_incomplete, R->packets_in,
        R->packets_measured, R->slots_measured, R->pushes_lists);
    fprintf (f, "     \"packets_per_frame\": %.2f, \"slots_per_frame\": %.2f, "
        "\"slot_spacing_ns\": %" G_GUINT64_FORMAT ",\n", R->packets_per_frame,
        R->slots_per_frame, R->spacing_ns);
    fprintf (f, "     \"input_pps\": %.1f, \"input_mbps\": %.3f, \"output_pps\": "
        "%.1f, \"output_mbps\": %.3f,\n     ", R->in_pps, R->in_mbps,
        R->out_pps, R->out_mbps);
    json_dist (f, "release_error_per_packet", &R->err_pkt);
    fprintf (f, ",\n     ");
    json_dist (f, "release_error_per_slot", &R->err_slot);
    fprintf (f, ",\n     ");
    json_dist (f, "frame_start_error", &R->start_err);
    fprintf (f, ",\n     ");
    json_dist (f, "slot_error_vs_own_frame_start", &R->own_err);
    fprintf (f, ",\n     \"early_fraction\": %.6f,\n     ", R->early_frac);
    if (R->have_floor) {
      json_dist (f, "floor", &R->floor);
      fprintf (f, ", \"floor_cpu_s\": %.3f,\n     \"ratio_to_floor\": {\"p50\": ",
          R->floor_cpu_s);
      json_num (f, ratio (R->err_pkt.p50, R->floor.p50));
      fprintf (f, ", \"p99\": ");
      json_num (f, ratio (R->err_pkt.p99, R->floor.p99));
      fprintf (f, ", \"max\": ");
      json_num (f, ratio (R->err_pkt.max, R->floor.max));
      fprintf (f, "},\n     ");
    }
    fprintf (f, "\"lateness_growth\": {\"first10pct_median_us\": %.1f, "
        "\"last10pct_median_us\": %.1f, \"slope_us_per_s\": %.3f},\n",
        R->growth_first_us, R->growth_last_us, R->growth_slope_us_per_s);
    fprintf (f, "     \"frame_end_max_periods\": %.3f, "
        "\"frames_over_period_fraction\": %.4f, \"behind_sync_max_ms\": %.3f,"
        " \"catchup_frames_rebuilt\": %" G_GUINT64_FORMAT ",\n",
        R->frame_end_max_periods, R->frames_over_period_frac,
        R->behind_sync_max_ms, R->catchup_frames_rebuilt);
    fprintf (f, "     \"run_cpu_s\": %.3f, \"run_wall_s\": %.3f, "
        "\"other_processes_cpu_fraction\": %.4f, \"steal_fraction\": %.4f,\n",
        R->run_cpu_s, R->run_wall_s, R->other_cpu_frac, R->steal_frac);
    fprintf (f, "     \"threads_cpu_s\": [");
    for (t = 0; R->threads && t < R->threads->len; t++) {
      ThreadCpu *tc = &g_array_index (R->threads, ThreadCpu, t);

      fprintf (f, "%s[", t ? ", " : "");
      json_str (f, tc->name);
      fprintf (f, ", %.2f]", tc->cpu_s);
    }
    fprintf (f, "],\n     \"cpu\": {\"reps\": %d, \"seconds\": %g, "
        "\"element_median_s\": ", R->cpu_reps, opt_cpu_seconds);
    json_num (f, R->cpu_reps ? R->cpu_pacer_med : NAN);
    fprintf (f, ", \"identity_median_s\": ");
    json_num (f, R->cpu_reps ? R->cpu_ident_med : NAN);
    fprintf (f, ", \"ratio\": ");
    json_num (f, R->cpu_reps ? ratio (R->cpu_pacer_med, R->cpu_ident_med) :
        NAN);
    fprintf (f, ", \"overhead_ratio\": ");
    json_num (f, R->cpu_reps ? ratio (R->cpu_pacer_med - R->cpu_ident_med,
            R->cpu_ident_med) : NAN);
    fprintf (f, ", \"element_task_thread_median_s\": ");
    json_num (f, R->cpu_reps ? R->cpu_task_med : NAN);
    fprintf (f, ", \"element_s\": [");
    for (t = 0; t < (guint) R->cpu_reps; t++)
      fprintf (f, "%s%.3f", t ? ", " : "", R->cpu_pacer[t]);
    fprintf (f, "], \"identity_s\": [");
    for (t = 0; t < (guint) R->cpu_reps; t++)
      fprintf (f, "%s%.3f", t ? ", " : "", R->cpu_ident[t]);
    fprintf (f, "]}}%s\n", i + 1 < n ? "," : "");
  }
  fprintf (f, "  ]\n}\n");
  fclose (f);
  (void) argv0;
}

static void
write_csv (const gchar * path, ScenarioResult ** res, guint n)
{
  FILE *f = fopen (path, "w");
  guint i;

  if (!f) {
    g_printerr ("cannot write %s\n", path);
    return;
  }
  fprintf (f, "scenario,alias,ok,seconds,frame_period_ns,packets_per_frame,"
      "slots_per_frame,slot_spacing_ns,packets_measured,input_pps,input_mbps,"
      "output_pps,output_mbps,err_p50_us,err_p99_us,err_max_us,early_frac,"
      "floor_p50_us,floor_p99_us,floor_max_us,ratio_p50,ratio_p99,ratio_max,"
      "late_first10_us,late_last10_us,late_slope_us_per_s,frame_end_max_periods,"
      "frames_over_period_frac,late_slots,catch_up_frames,max_lateness_ns,"
      "run_cpu_s,run_wall_s,cpu_element_med_s,cpu_identity_med_s,cpu_ratio\n");
  for (i = 0; i < n; i++) {
    ScenarioResult *R = res[i];

    if (!R->ok) {
      fprintf (f, "%s,%s,0", R->sc->name, R->sc->alias);
      fprintf (f, ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n");
      continue;
    }
    fprintf (f, "%s,%s,1,%g,%" G_GUINT64_FORMAT ",%.2f,%.2f,%" G_GUINT64_FORMAT
        ",%" G_GUINT64_FORMAT ",%.1f,%.3f,%.1f,%.3f,%.2f,%.2f,%.2f,%.6f,"
        "%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%.1f,%.1f,%.3f,%.3f,%.4f,%"
        G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
        ",%.3f,%.3f,%.3f,%.3f,%.3f\n", R->sc->name, R->sc->alias, R->seconds,
        R->period_ns, R->packets_per_frame, R->slots_per_frame, R->spacing_ns,
        R->packets_measured, R->in_pps, R->in_mbps, R->out_pps, R->out_mbps,
        R->err_pkt.p50, R->err_pkt.p99, R->err_pkt.max, R->early_frac,
        R->floor.p50, R->floor.p99, R->floor.max,
        ratio (R->err_pkt.p50, R->floor.p50),
        ratio (R->err_pkt.p99, R->floor.p99),
        ratio (R->err_pkt.max, R->floor.max),
        R->growth_first_us, R->growth_last_us, R->growth_slope_us_per_s,
        R->frame_end_max_periods, R->frames_over_period_frac,
        stats_u64 (R->stats, "late-slots"),
        stats_u64 (R->stats, "catch-up-frames"),
        stats_u64 (R->stats, "max-lateness"), R->run_cpu_s, R->run_wall_s,
        R->cpu_pacer_med, R->cpu_ident_med,
        ratio (R->cpu_pacer_med, R->cpu_ident_med));
  }
  fclose (f);
}

/* ------------------------------------------------------------------------ */

static const Scenario *
find_scenario (const gchar * name)
{
  guint i;

  for (i = 0; i < N_SCENARIOS; i++)
    if (!g_ascii_strcasecmp (name, scenarios[i].name) ||
        !g_ascii_strcasecmp (name, scenarios[i].alias))
      return &scenarios[i];
  return NULL;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
        "Timing run per scenario, in s (default 10)", "S"},
    {"raw-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_raw_seconds,
        "Timing run for the raw 1080p scenarios c/d (default: --seconds)", "S"},
    {"cpu-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_seconds,
        "Each CPU-overhead run, in s (default 5)", "S"},
    {"cpu-reps", 0, 0, G_OPTION_ARG_INT, &opt_cpu_reps,
        "CPU-overhead repetitions of each pipeline (default 3)", "N"},
    {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &opt_warmup,
        "Frames scheduled before this running time (s) are not measured "
          "(default 1)", "S"},
    {"props", 'p', 0, G_OPTION_ARG_STRING, &opt_props,
        "rtpburstpace properties, as in gst-launch (\"burst-size=4 "
          "min-slot=100000\"); the benchmark sets slot-jitter=0 first",
        "\"K=V ...\""},
    {"keep-jitter", 0, 0, G_OPTION_ARG_NONE, &opt_keep_jitter,
        "Do not set slot-jitter=0 (the schedule is then the unjittered grid)",
        NULL},
    {"out", 'o', 0, G_OPTION_ARG_STRING, &opt_out,
        "Write PREFIX.json and PREFIX.csv (default pacebench-results)",
        "PREFIX"},
    {"dump-slots", 0, 0, G_OPTION_ARG_STRING, &opt_dump_dir,
        "Write every measured slot to DIR/slots-<scenario>.csv", "DIR"},
    {"no-floor", 0, 0, G_OPTION_ARG_NONE, &opt_no_floor,
        "Skip the clock_nanosleep floor", NULL},
    {"no-cpu", 0, 0, G_OPTION_ARG_NONE, &opt_no_cpu,
        "Skip the CPU comparison with identity", NULL},
    {"cpu-dma-latency", 0, 0, G_OPTION_ARG_INT, &opt_cpu_dma_latency,
        "Hold a PM QoS request of this many us on /dev/cpu_dma_latency for "
          "the whole run (0 keeps idle CPUs out of deep idle states, as "
          "cyclictest does; needs root; default: none)", "US"},
    {"floor-spin", 0, 0, G_OPTION_ARG_INT, &opt_floor_spin,
        "The floor loop sleeps until this many us before each wake-up time "
          "and busy-waits the rest (what a spin before the deadline would "
          "buy, and cost; default 0)", "US"},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
        "CI smoke run: scenario a, 3 s, 1 CPU repetition of 2 s; asserts "
          "only that packets flow", NULL},
    {NULL, 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL}
  };
  const Scenario *chosen[N_SCENARIOS * 4];
  ScenarioResult *res[N_SCENARIOS * 4];
  guint n = 0, i;
  gchar *prefix, *path;
  gboolean all_ok = TRUE;

  if (!bench_init (&argc, &argv, "[SCENARIO...] - rtpburstpace pacing "
          "benchmark", "Scenarios: a|cbr6, b|h264, c|raw1080p30, "
          "d|raw1080p60 (default: all).\nLoads rtpburstpace from "
          "GST_PLUGIN_PATH (e.g. GST_PLUGIN_PATH=build/gst).", entries))
    return 2;

  if (!bench_hold_cpu_dma_latency (opt_cpu_dma_latency))
    return 2;

  if (opt_quick) {
    opt_seconds = 3;
    opt_raw_seconds = -1;
    opt_cpu_reps = 1;
    opt_cpu_seconds = 2;
    opt_warmup = 0.5;
    chosen[n++] = find_scenario ("a");
  } else {
    for (i = 1; i < (guint) argc; i++) {
      const Scenario *sc = find_scenario (argv[i]);

      if (!sc) {
        g_printerr ("unknown scenario %s (a|cbr6, b|h264, c|raw1080p30, "
            "d|raw1080p60)\n", argv[i]);
        return 2;
      }
      if (n < G_N_ELEMENTS (chosen))
        chosen[n++] = sc;
    }
    if (n == 0)
      for (i = 0; i < N_SCENARIOS; i++)
        chosen[n++] = &scenarios[i];
  }

  for (i = 0; i < n; i++) {
    res[i] = run_scenario (chosen[i]);
    if (!res[i]->ok && !(res[i]->error &&
            g_str_has_prefix (res[i]->error, "skipped")))
      all_ok = FALSE;
  }

  print_table (res, n);

  prefix = g_strdup (opt_out ? opt_out : "pacebench-results");
  path = g_strdup_printf ("%s.json", prefix);
  write_json (path, res, n, argv[0]);
  g_print ("\nwrote %s", path);
  g_free (path);
  path = g_strdup_printf ("%s.csv", prefix);
  write_csv (path, res, n);
  g_print (" and %s\n", path);
  g_free (path);
  g_free (prefix);

  return all_ok ? 0 : 1;
}
