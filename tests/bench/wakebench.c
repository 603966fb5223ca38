/* wakebench: how often rtpburstpace's task wakes, with and without release-ahead
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
 * How often the element's task wakes up with release-ahead (slots handed
 * over ahead of their time, gst/rtpburstahead.h) and without, at 1, 16 and
 * 64 streams in one process: counts, not CPU times.
 *
 * For each stream count N and each release-ahead value, one pipeline of N
 * branches
 *
 *   videotestsrc is-live=true ! video/x-raw,format=UYVY,width=160,
 *     height=32,framerate=25/1 ! rtpvrawpay mtu=1028 !
 *     rtpburstpace name=pacerK slot-jitter=0 release-ahead=H ! SINK
 *
 * (10 packets, so 10 slots, a frame; 250 slots per second per stream), SINK
 * fakesink sync=false: the element's wake-ups do not depend on the sink as
 * long as it does not wait itself (rtpbursttxsink sync=false hands the
 * packets to the kernel and returns; no network here).  After --warmup s
 * in PLAYING, over --seconds: per stream and second, the frames and slots
 * released, the task's clock wake-ups (the `wakeups` field of the stats:
 * clock waits that ran to their time) and how often the task threads
 * ("pacerK:src") were put on a CPU (schedstat: every wake-up, by the clock
 * or by data, and every return after a preemption).  The exit status says
 * whether every pipeline ran and every element released slots.
 *
 * Run, from the repository's top directory:
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/wakebench [-s S]
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "benchcpu.h"

static gdouble opt_seconds = 5.0;
static gdouble opt_warmup = 1.0;
static gchar *opt_streams = NULL;
static gchar *opt_ahead = NULL;
static gboolean opt_quick = FALSE;

#define MAX_STREAMS 128

typedef struct
{
  guint64 frames, slots, wakeups;
} Counts;

typedef struct
{
  guint n;
  guint64 ahead;
  gboolean ok;
  gchar *error;
  gdouble wall_s;
  Counts d;                     /* summed over the streams, in the window */
  guint64 task_runs;
} Run;

static gchar *
launch_line (guint n, guint64 ahead)
{
  GString *s = g_string_new (NULL);
  guint k;

  for (k = 0; k < n; k++)
    g_string_append_printf (s, "videotestsrc is-live=true ! "
        "video/x-raw,format=UYVY,width=160,height=32,framerate=25/1 ! "
        "rtpvrawpay mtu=1028 ! rtpburstpace name=pacer%u slot-jitter=0 "
        "release-ahead=%" G_GUINT64_FORMAT " ! "
        "fakesink sync=false silent=true async=false  ", k, ahead);
  return g_string_free (s, FALSE);
}

static guint64
stats_get (const GstStructure * st, const gchar * field)
{
  guint64 v = 0;

  gst_structure_get_uint64 (st, field, &v);
  return v;
}

/* summed over @n elements; FALSE if one released no slot */
static Counts
read_counts (GstElement ** pacers, guint n, guint64 * slots)
{
  Counts c = { 0, 0, 0 };
  guint k;

  for (k = 0; k < n; k++) {
    GstStructure *st = NULL;

    g_object_get (pacers[k], "stats", &st, NULL);
    if (st == NULL)
      continue;
    slots[k] = stats_get (st, "slots");
    c.frames += stats_get (st, "frames");
    c.slots += slots[k];
    c.wakeups += stats_get (st, "wakeups");
    gst_structure_free (st);
  }
  return c;
}

static guint64
task_runs (GArray * threads, guint n)
{
  guint64 runs = 0;
  guint k;

  for (k = 0; k < n; k++) {
    gchar name[32];

    g_snprintf (name, sizeof (name), "pacer%u:src", k);
    runs += thread_cpu_sum (threads, name).runs;
  }
  return runs;
}

static Run
run_pipeline (guint n, guint64 ahead)
{
  Run r = { n, ahead, FALSE, NULL, 0, {0, 0, 0}, 0 };
  GError *err = NULL;
  gchar *line = launch_line (n, ahead);
  GstElement *pipeline = gst_parse_launch (line, &err);
  GstElement *pacers[MAX_STREAMS];
  guint64 slots0[MAX_STREAMS], slots1[MAX_STREAMS];
  GArray *threads;
  Counts c0, c1;
  gdouble wall0;
  guint k;

  g_free (line);
  if (pipeline == NULL || err) {
    r.error = g_strdup_printf ("cannot build the pipeline: %s",
        err ? err->message : "?");
    g_clear_error (&err);
    if (pipeline)
      gst_object_unref (pipeline);
    return r;
  }
  for (k = 0; k < n; k++) {
    gchar name[32];

    g_snprintf (name, sizeof (name), "pacer%u", k);
    pacers[k] = gst_bin_get_by_name (GST_BIN (pipeline), name);
  }
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    r.error = g_strdup ("cannot go to PLAYING");
  } else if (bus_wait (pipeline, opt_warmup, &r.error)) {
    c0 = read_counts (pacers, n, slots0);
    threads = read_thread_cpu ();
    wall0 = mono_now_s ();
    r.ok = bus_wait (pipeline, opt_seconds, &r.error);
    r.wall_s = mono_now_s () - wall0;
    threads = thread_cpu_delta (threads);
    c1 = read_counts (pacers, n, slots1);
    r.task_runs = task_runs (threads, n);
    g_array_free (threads, TRUE);
    r.d.frames = c1.frames - c0.frames;
    r.d.slots = c1.slots - c0.slots;
    r.d.wakeups = c1.wakeups - c0.wakeups;
    for (k = 0; k < n; k++)
      if (slots1[k] == slots0[k]) {
        r.ok = FALSE;
        r.error = g_strdup_printf ("pacer%u released no slot", k);
        break;
      }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (k = 0; k < n; k++)
    gst_object_unref (pacers[k]);
  gst_object_unref (pipeline);
  return r;
}

/* per stream and second */
static gdouble
rate (const Run * r, guint64 count)
{
  return r->wall_s > 0 ? count / r->wall_s / r->n : 0;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
        "Measured window of each run, in s (default 5)", "S"},
    {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &opt_warmup,
        "PLAYING this long before the window (default 1)", "S"},
    {"streams", 'n', 0, G_OPTION_ARG_STRING, &opt_streams,
        "Stream counts (default 1,16,64)", "N,N,..."},
    {"ahead", 'a', 0, G_OPTION_ARG_STRING, &opt_ahead,
        "release-ahead values, ns (default 0,40000000: none and one frame "
          "period)", "H,H,..."},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
        "CI smoke run: 1 and 4 streams, 2 s; asserts only that every "
          "element releases slots", NULL},
    {NULL, 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL}
  };
  gchar **ns, **hs;
  guint i, j;
  gboolean all_ok = TRUE;

  if (!bench_init (&argc, &argv, "- rtpburstpace: task wake-ups with and "
          "without release-ahead", "Loads rtpburstpace from "
          "GST_PLUGIN_PATH (e.g. GST_PLUGIN_PATH=build/gst).", entries))
    return 2;
  if (opt_quick) {
    opt_seconds = 2;
    opt_warmup = 0.5;
    g_free (opt_streams);
    opt_streams = g_strdup ("1,4");
  }
  ns = g_strsplit (opt_streams ? opt_streams : "1,16,64", ",", -1);
  hs = g_strsplit (opt_ahead ? opt_ahead : "0,40000000", ",", -1);

  g_print ("| streams | release-ahead | frames/s | slots/s | clock "
      "wake-ups/s | task runs/s | wake-ups/frame | runs/frame |\n");
  g_print ("|---|---|---|---|---|---|---|---|\n");
  for (i = 0; ns[i]; i++) {
    guint n = (guint) g_ascii_strtoull (ns[i], NULL, 10);

    if (n < 1 || n > MAX_STREAMS) {
      g_printerr ("%s streams: 1 to %d\n", ns[i], MAX_STREAMS);
      return 2;
    }
    for (j = 0; hs[j]; j++) {
      Run r = run_pipeline (n, g_ascii_strtoull (hs[j], NULL, 10));

      if (!r.ok) {
        g_printerr ("%u streams, release-ahead %s: %s\n", n, hs[j],
            r.error ? r.error : "failed");
        all_ok = FALSE;
        g_free (r.error);
        continue;
      }
      /* per stream and second; per frame */
      g_print ("| %u | %.0f ms | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |\n",
          n, r.ahead / 1e6, rate (&r, r.d.frames), rate (&r, r.d.slots),
          rate (&r, r.d.wakeups), rate (&r, r.task_runs),
          r.d.frames ? (gdouble) r.d.wakeups / r.d.frames : 0,
          r.d.frames ? (gdouble) r.task_runs / r.d.frames : 0);
      g_free (r.error);
    }
  }
  g_strfreev (ns);
  g_strfreev (hs);
  return all_ok ? 0 : 1;
}
