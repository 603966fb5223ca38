/* groupbench: the cost of scale of rtpburstpace, 1 … N streams in one process
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
 * What a released slot costs the element's task when N streams share one
 * schedule (the `group` property, gst/rtpburstgroup.c), against a bare
 * clock wake-up measured in the same run, for N = 1, 4, 16.
 *
 * For each total rate T and stream count N, one pipeline of N branches
 *
 *   videotestsrc is-live=true ! video/x-raw,format=UYVY,width=W,height=H/N,
 *     framerate=25/1 ! rtpvrawpay mtu=1028 !
 *     rtpburstpace name=pacerK slot-jitter=0 [group=groupbench] ! SINK
 *
 * so that the N streams together carry about T (W x H is the one stream of
 * T; whole lines of W pixels, so that rtpvrawpay's per-line headers do not
 * grow with N) and make their frames at the same instants, on one pipeline
 * clock.
 * SINK is fakesink sync=false (default: what is measured is the element's
 * task, its wait and its push, not the kernel's UDP send), or with
 * --sink udp, udpsink to 127.0.0.1, ports 5000 + 2K, nothing listening
 * (the send then counts in the task's CPU).  Per repetition, for each T and
 * N, in this order (the two pipelines alternate which goes first):
 *
 *  1. the pipeline without a group and with one (each stream on its own,
 *     and all of them through one timeline): after --warmup s in PLAYING,
 *     for --seconds, the summed CPU of the element's task threads
 *     ("pacerK:src", from the kernel's per-thread CPU clocks) over the
 *     summed `slots` the elements released meanwhile (their stats); and
 *     how often those threads were put on a CPU per slot (schedstat: a
 *     wake-up, or a return after a preemption);
 *  2. the floor: a bare clock_nanosleep (TIMER_ABSTIME) loop on one thread,
 *     waking up at the aggregate slot rate of step 1 as many times as the
 *     slots released there (benchcpu.c, as pacebench's floor): CPU per
 *     wake-up;
 *  3. the same wake-ups on N threads, each at the per-stream rate, started
 *     together: N bare loops, as N streams without a group wake up.
 *
 * After all runs, the group's placement on its own (rtp_burst_group_try_place,
 * the call a member makes once per frame, with its mutex, uncontended): N
 * members placing frames of the same instants, of as many slots as the
 * streams of step 1 had, 25 per second for 20 s of stream time; its CPU on
 * one thread per placed frame and per slot, median of three.  The
 * difference between the two pipelines of step 1 that this does not
 * explain is the wake-ups (spread evenly with a group, coinciding
 * without) and the threads meeting at the group's mutex.
 *
 * With --cpu-dma-latency 0 the whole run (pipelines and floors) holds a PM
 * QoS request that keeps idle CPUs polling, as pacebench's option does:
 * what waking a CPU from idle adds to a wake-up, measured as the
 * difference.
 *
 * Repetitions are interleaved (rep 1 of every T and N, then rep 2, …);
 * the table shows medians over them, the JSON every run.  Nothing here
 * asserts timing; the exit status says whether every pipeline ran and every
 * element released slots.
 *
 * Why a tool of its own and not a pacebench mode: pacebench measures one
 * element's release error against a schedule it rebuilds from pad probes;
 * none of that applies to N elements at once, and what applies to both
 * (thread and process CPU, the floor loop, the bus loop) is in benchcpu.c,
 * which both compile.
 *
 * Run, from the repository's top directory:
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/groupbench [options]
 */

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gst/gst.h>

#include "benchcpu.h"
/* the group's placement, measured on its own */
#include "rtpburstgroup.h"

static gdouble opt_seconds = 10.0;
static gdouble opt_warmup = 1.0;
static gint opt_reps = 3;
static gchar *opt_streams = NULL;
static gchar *opt_totals = NULL;
static gchar *opt_sink = NULL;
static gchar *opt_props = NULL;
static gchar *opt_out = NULL;
static gboolean opt_quick = FALSE;
static gint opt_cpu_dma_latency = -1;

#define GROUP_NAME "groupbench"
#define MAX_STREAMS 96

/* the one stream of the total rate: UYVY 25 fps, mtu 1028 */
typedef struct
{
  const gchar *name;
  guint width, height;
} Total;

static const Total totals[] = {
  {"6", 160, 96},               /* pacebench's scenario (a) */
  {"24", 320, 192},
  {"96", 640, 384},
};

/* the element stats summed over the N elements */
typedef struct
{
  guint64 slots, packets, bytes, shared, frames;
  guint64 slots_min;            /* of the element that released fewest */
  guint members_min, members_max;
} StatSum;

typedef struct
{
  gboolean ok;
  gchar *error;
  gdouble wall_s;               /* the measured window */
  StatSum d;                    /* released in the window */
  StatSum end;                  /* at the end of the window (whole run) */
  gdouble task_cpu_s, proc_cpu_s;
  guint64 task_runs;            /* times the task threads were put on a CPU */
  gdouble task_wait_s;          /* ... and waited, runnable, for one */
  gdouble other_frac, steal_frac;
} Run;

typedef struct
{
  gdouble cpu_s;
  gsize wakeups;
} Floor;

/* the placement alone, for one (T, N) */
typedef struct
{
  guint slots_per_frame;
  gdouble us_per_frame, us_per_slot;
  guint64 shared;
} Placement;

/* one (T, N): the reps of each kind */
typedef struct
{
  const Total *total;
  guint n;
  Run *alone, *group;
  Floor *floor1, *floorn;
  Placement placement;
} Cell;

static gchar *
launch_line (const Total * t, guint n, gboolean group)
{
  GString *s = g_string_new (NULL);
  guint k;

  for (k = 0; k < n; k++) {
    g_string_append_printf (s, "videotestsrc is-live=true ! "
        "video/x-raw,format=UYVY,width=%u,height=%u,framerate=25/1 ! "
        "rtpvrawpay mtu=1028 ! rtpburstpace name=pacer%u slot-jitter=0 "
        "%s%s %s ! ", t->width, t->height / n, k,
        group ? "group=" : "", group ? GROUP_NAME : "",
        opt_props ? opt_props : "");
    if (opt_sink && !strcmp (opt_sink, "udp"))
      g_string_append_printf (s, "udpsink host=127.0.0.1 port=%u "
          "sync=false async=false  ", 5000 + 2 * k);
    else
      g_string_append (s, "fakesink sync=false silent=true async=false  ");
  }
  return g_string_free (s, FALSE);
}

static guint64
stats_get (const GstStructure * st, const gchar * field)
{
  guint64 v64 = 0;
  guint v = 0;

  if (gst_structure_get_uint64 (st, field, &v64))
    return v64;
  if (gst_structure_get_uint (st, field, &v))
    return v;
  return 0;
}

/* @per_slots: each element's slots, if not NULL */
static StatSum
read_stats (GstElement ** pacers, guint n, guint64 * per_slots)
{
  StatSum s = { 0, };
  guint k;

  s.slots_min = G_MAXUINT64;
  s.members_min = G_MAXUINT;
  for (k = 0; k < n; k++) {
    GstStructure *st = NULL;
    guint64 slots;
    guint members;

    g_object_get (pacers[k], "stats", &st, NULL);
    if (st == NULL)
      continue;
    slots = stats_get (st, "slots");
    if (per_slots)
      per_slots[k] = slots;
    members = (guint) stats_get (st, "group-members");
    s.slots += slots;
    s.slots_min = MIN (s.slots_min, slots);
    s.packets += stats_get (st, "packets");
    s.bytes += stats_get (st, "bytes");
    s.shared += stats_get (st, "group-shared-slots");
    s.frames += stats_get (st, "group-frames");
    s.members_min = MIN (s.members_min, members);
    s.members_max = MAX (s.members_max, members);
    gst_structure_free (st);
  }
  return s;
}

/* the task threads pacer0:src … summed */
static ThreadCpu
task_cpu (GArray * threads, guint n)
{
  ThreadCpu s = { "", 0, 0, 0, 0 };
  guint k;

  for (k = 0; k < n; k++) {
    gchar name[32];
    ThreadCpu one;

    g_snprintf (name, sizeof (name), "pacer%u:src", k);
    one = thread_cpu_sum (threads, name);
    s.cpu_s += one.cpu_s;
    s.runs += one.runs;
    s.wait_s += one.wait_s;
  }
  return s;
}

static Run
run_pipeline (const Total * t, guint n, gboolean group)
{
  Run r = { 0, };
  GError *err = NULL;
  gchar *line = launch_line (t, n, group);
  GstElement *pipeline = gst_parse_launch (line, &err);
  GstElement *pacers[MAX_STREAMS];
  guint64 slots0[MAX_STREAMS], slots1[MAX_STREAMS];
  GArray *threads = NULL;
  StatSum s0;
  MachineCpu m0, m1;
  gdouble cpu0 = 0, wall0 = 0;
  guint k;

  if (pipeline == NULL || err) {
    r.error = g_strdup_printf ("cannot build \"%s\": %s", line,
        err ? err->message : "?");
    g_clear_error (&err);
    g_free (line);
    if (pipeline)
      gst_object_unref (pipeline);
    return r;
  }
  g_free (line);
  for (k = 0; k < n; k++) {
    gchar name[32];

    g_snprintf (name, sizeof (name), "pacer%u", k);
    pacers[k] = gst_bin_get_by_name (GST_BIN (pipeline), name);
  }
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    r.error = g_strdup ("cannot go to PLAYING");
  } else if (bus_wait (pipeline, opt_warmup, &r.error)) {
    s0 = read_stats (pacers, n, slots0);
    threads = read_thread_cpu ();
    m0 = read_machine_cpu ();
    cpu0 = process_cpu_s ();
    wall0 = mono_now_s ();
    r.ok = bus_wait (pipeline, opt_seconds, &r.error);
    r.wall_s = mono_now_s () - wall0;
    r.proc_cpu_s = process_cpu_s () - cpu0;
    m1 = read_machine_cpu ();
    threads = thread_cpu_delta (threads);
    r.end = read_stats (pacers, n, slots1);
    {
      ThreadCpu tc = task_cpu (threads, n);

      r.task_cpu_s = tc.cpu_s;
      r.task_runs = tc.runs;
      r.task_wait_s = tc.wait_s;
    }
    g_array_free (threads, TRUE);
    r.d = r.end;
    r.d.slots -= s0.slots;
    r.d.packets -= s0.packets;
    r.d.bytes -= s0.bytes;
    r.d.shared -= s0.shared;
    r.d.frames -= s0.frames;
    /* the fewest slots one element released in the window */
    r.d.slots_min = G_MAXUINT64;
    for (k = 0; k < n; k++)
      r.d.slots_min = MIN (r.d.slots_min, slots1[k] - slots0[k]);
    if (m1.total_s > m0.total_s) {
      gdouble tot = m1.total_s - m0.total_s;

      r.other_frac = MAX (0.0, (m1.busy_s - m0.busy_s - r.proc_cpu_s) / tot);
      r.steal_frac = (m1.steal_s - m0.steal_s) / tot;
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  for (k = 0; k < n; k++)
    gst_object_unref (pacers[k]);
  gst_object_unref (pipeline);
  return r;
}

/* @n loops of @wakeups / @n wake-ups each, @n x @spacing_ns apart */
static Floor
run_floor (guint n, gsize wakeups, guint64 spacing_ns)
{
  Floor f = { 0, 0 };
  FloorJob *jobs = g_new0 (FloorJob, n);
  GThread **th = g_new0 (GThread *, n);
  guint k;

  for (k = 0; k < n; k++) {
    jobs[k].spacing_ns = spacing_ns * n;
    jobs[k].n = wakeups / n;
    th[k] = g_thread_new ("floor", floor_thread, &jobs[k]);
  }
  for (k = 0; k < n; k++) {
    g_thread_join (th[k]);
    f.cpu_s += jobs[k].cpu_s;
    f.wakeups += jobs[k].n;
  }
  g_free (th);
  g_free (jobs);
  return f;
}

static gdouble
thread_cpu_now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define FRAME_NS (GST_SECOND / 25)
#define PLACEMENT_FRAMES 500

/* @n members of a group place @frames frames of @k slots each, all
 * starting at the same instants (duty 0.9, b = 1, no jitter); CPU s */
static gdouble
placement_cpu (guint n, guint k, guint frames, guint64 * shared)
{
  static guint serial;
  gchar *name = g_strdup_printf ("groupbench-placement-%u", serial++);
  RtpBurstGroup *group = NULL;
  guint ids[MAX_STREAMS];
  gdouble t0;
  guint f, m;

  for (m = 0; m < n; m++)
    group = rtp_burst_group_join (name, &ids[m]);
  *shared = 0;
  t0 = thread_cpu_now_s ();
  for (f = 0; f < frames; f++) {
    for (m = 0; m < n; m++) {
      RtpBurstPlan plan;
      RtpBurstPlacement out;

      rtp_burst_plan_init (&plan, GST_SECOND + f * FRAME_NS,
          FRAME_NS * 9 / 10, FRAME_NS, k, k, 1, 0.0);
      /* one thread: never busy */
      if (rtp_burst_group_try_place (group, ids[m], NULL, &plan, &out) !=
          RTP_BURST_GROUP_PLACED)
        g_error ("groupbench: a frame was not placed");
      *shared += out.shared;
    }
  }
  t0 = thread_cpu_now_s () - t0;
  for (m = 0; m < n; m++)
    rtp_burst_group_leave (group, ids[m]);
  g_free (name);
  return t0;
}

static Placement
measure_placement (guint n, guint k)
{
  Placement p = { k, 0, 0, 0 };
  gdouble v[3];
  gint i;

  for (i = 0; i < 3; i++)
    v[i] = placement_cpu (n, k, PLACEMENT_FRAMES, &p.shared) * 1e6 /
        (PLACEMENT_FRAMES * n);
  p.us_per_frame = median_d (v, 3);
  p.us_per_slot = p.us_per_frame / k;
  return p;
}

static gdouble
us_per (gdouble cpu_s, gdouble count)
{
  return count > 0 ? 1e6 * cpu_s / count : NAN;
}

static gdouble
ratio (gdouble a, gdouble b)
{
  return isnan (a) || isnan (b) || b == 0 ? NAN : a / b;
}

/* medians over the reps (--reps <= 64) */
typedef struct
{
  gdouble slots_s, pkts_s, mbps, task_us, proc_us, other, shared, members;
  gdouble runs_per_slot;
} RunMed;

static RunMed
run_medians (const Run * runs, gint reps)
{
  gdouble v[9][64];
  RunMed m;
  gint i;

  for (i = 0; i < reps; i++) {
    const Run *x = &runs[i];

    v[0][i] = x->d.slots / x->wall_s;
    v[1][i] = x->d.packets / x->wall_s;
    v[2][i] = 8e-6 * x->d.bytes / x->wall_s;
    v[3][i] = us_per (x->task_cpu_s, x->d.slots);
    v[4][i] = us_per (x->proc_cpu_s, x->d.slots);
    v[5][i] = 100 * x->other_frac;
    v[6][i] = x->d.shared;
    v[7][i] = x->end.members_max;
    v[8][i] = x->d.slots ? (gdouble) x->task_runs / x->d.slots : NAN;
  }
  m.slots_s = median_d (v[0], reps);
  m.pkts_s = median_d (v[1], reps);
  m.mbps = median_d (v[2], reps);
  m.task_us = median_d (v[3], reps);
  m.proc_us = median_d (v[4], reps);
  m.other = median_d (v[5], reps);
  m.shared = median_d (v[6], reps);
  m.members = median_d (v[7], reps);
  m.runs_per_slot = median_d (v[8], reps);
  return m;
}

static gdouble
floor_median (const Floor * floors, gint reps)
{
  gdouble v[64];
  gint i;

  for (i = 0; i < reps; i++)
    v[i] = us_per (floors[i].cpu_s, floors[i].wakeups);
  return median_d (v, reps);
}

static void
print_table (Cell * cells, guint n_cells, gint reps)
{
  guint i;

  g_print ("\nMedians of %d runs of %.0f s each (after %.1f s warm-up). "
      "Task = the elements' task threads summed; floor 1 = one "
      "clock_nanosleep loop at the aggregate slot rate, floor N = N loops "
      "at the per-stream rate; CPU in us per released slot / wake-up.\n\n",
      reps, opt_seconds, opt_warmup);
  g_print ("| total | N | slots/s | pkt/s | Mbit/s | task us/slot alone | "
      "group | group/alone | floor 1 us/wake | floor N | ratio alone/floor 1 "
      "| group/floor 1 | group/floor N | process us/slot alone | group | "
      "group-shared-slots (window) | members | other CPU %% | slots/frame "
      "per stream | placement us/frame | placement us/slot | task runs/slot "
      "alone | group |\n");
  g_print ("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      "---|---|---|---|---|---|---|\n");
  for (i = 0; i < n_cells; i++) {
    Cell *c = &cells[i];
    RunMed a = run_medians (c->alone, reps);
    RunMed g = run_medians (c->group, reps);
    gdouble f1 = floor_median (c->floor1, reps);
    gdouble fn = floor_median (c->floorn, reps);

    g_print ("| %s | %u | %.0f / %.0f | %.0f | %.1f | %.1f | %.1f | %.2f | "
        "%.1f | %.1f | %.2f | %.2f | %.2f | %.1f | %.1f | %.0f | %.0f | "
        "%.1f / %.1f | %u | %.2f | %.3f | %.2f | %.2f |\n", c->total->name,
        c->n,
        a.slots_s, g.slots_s,
        a.pkts_s, a.mbps, a.task_us, g.task_us, ratio (g.task_us, a.task_us),
        f1, fn, ratio (a.task_us, f1), ratio (g.task_us, f1),
        ratio (g.task_us, fn), a.proc_us, g.proc_us, g.shared, g.members,
        a.other, g.other, c->placement.slots_per_frame,
        c->placement.us_per_frame, c->placement.us_per_slot,
        a.runs_per_slot, g.runs_per_slot);
  }
}

static void
json_run (FILE * f, const Run * r)
{
  fprintf (f, "{\"ok\": %s, \"wall_s\": %.3f, \"slots\": %" G_GUINT64_FORMAT
      ", \"packets\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT
      ", \"slots_min_element\": %" G_GUINT64_FORMAT
      ", \"group_shared_slots\": %" G_GUINT64_FORMAT
      ", \"group_frames\": %" G_GUINT64_FORMAT
      ", \"group_shared_slots_whole_run\": %" G_GUINT64_FORMAT
      ", \"group_members\": [%u, %u], \"task_cpu_s\": %.6f, "
      "\"process_cpu_s\": %.6f, \"task_runs\": %" G_GUINT64_FORMAT ", "
      "\"task_runqueue_wait_s\": %.6f, \"other_cpu_fraction\": %.4f, "
      "\"steal_fraction\": %.4f, \"task_us_per_slot\": ",
      r->ok ? "true" : "false", r->wall_s, r->d.slots, r->d.packets,
      r->d.bytes, r->d.slots_min, r->d.shared, r->d.frames, r->end.shared,
      r->end.members_min, r->end.members_max, r->task_cpu_s, r->proc_cpu_s,
      r->task_runs, r->task_wait_s, r->other_frac, r->steal_frac);
  json_num (f, us_per (r->task_cpu_s, r->d.slots));
  if (r->error) {
    fprintf (f, ", \"error\": ");
    json_str (f, r->error);
  }
  fprintf (f, "}");
}

/* ,\n "NAME": [runs] */
static void
json_runs (FILE * f, const gchar * name, const Run * runs, gint reps)
{
  gint r;

  fprintf (f, ",\n     \"%s\": [", name);
  for (r = 0; r < reps; r++) {
    fprintf (f, "%s\n       ", r ? "," : "");
    json_run (f, &runs[r]);
  }
  fprintf (f, "]");
}

static void
json_floors (FILE * f, const gchar * name, const Floor * floors, gint reps)
{
  gint r;

  fprintf (f, ",\n     \"%s\": [", name);
  for (r = 0; r < reps; r++)
    fprintf (f, "%s{\"cpu_s\": %.6f, \"wakeups\": %" G_GSIZE_FORMAT "}",
        r ? ", " : "", floors[r].cpu_s, floors[r].wakeups);
  fprintf (f, "]");
}

static void
write_json (const gchar * path, Cell * cells, guint n_cells, gint reps)
{
  FILE *f = fopen (path, "w");
  guint i;

  if (!f) {
    g_printerr ("cannot write %s\n", path);
    return;
  }
  fprintf (f, "{\n");
  json_machine_open (f, "groupbench");
  fprintf (f, "},\n  \"seconds\": %g, \"warmup_s\": %g, \"reps\": %d, "
      "\"sink\": ", opt_seconds, opt_warmup, reps);
  json_str (f, opt_sink ? opt_sink : "fake");
  fprintf (f, ", \"props\": ");
  json_str (f, opt_props ? opt_props : "");
  fprintf (f, ", \"cpu_dma_latency_us\": %d", opt_cpu_dma_latency);
  fprintf (f, ",\n  \"cells\": [\n");
  for (i = 0; i < n_cells; i++) {
    Cell *c = &cells[i];
    gchar *line = launch_line (c->total, c->n, TRUE);

    fprintf (f, "    {\"total\": \"%s\", \"streams\": %u, \"launch_group\": ",
        c->total->name, c->n);
    json_str (f, line);
    g_free (line);
    json_runs (f, "alone", c->alone, reps);
    json_runs (f, "group", c->group, reps);
    json_floors (f, "floor1", c->floor1, reps);
    json_floors (f, "floorN", c->floorn, reps);
    fprintf (f, ",\n     \"placement\": {\"slots_per_frame\": %u, "
        "\"frames_per_member\": %d, \"us_per_frame\": %.4f, "
        "\"us_per_slot\": %.4f, \"shared_slots\": %" G_GUINT64_FORMAT "}",
        c->placement.slots_per_frame, PLACEMENT_FRAMES,
        c->placement.us_per_frame, c->placement.us_per_slot,
        c->placement.shared);
    fprintf (f, "}%s\n", i + 1 < n_cells ? "," : "");
  }
  fprintf (f, "  ]\n}\n");
  fclose (f);
}

static gboolean
run_ok (const Run * r, const gchar * what, gint rep)
{
  if (!r->ok) {
    g_print ("   %s rep %d FAILED: %s\n", what, rep + 1,
        r->error ? r->error : "?");
    return FALSE;
  }
  if (r->d.slots_min == 0) {
    g_print ("   %s rep %d FAILED: an element released no slot\n", what,
        rep + 1);
    return FALSE;
  }
  return TRUE;
}

static const Total *
find_total (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (totals); i++)
    if (!strcmp (name, totals[i].name))
      return &totals[i];
  return NULL;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
        "Measured window of each run, in s (default 10)", "S"},
    {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &opt_warmup,
        "PLAYING this long before the window (default 1)", "S"},
    {"reps", 'r', 0, G_OPTION_ARG_INT, &opt_reps,
        "Repetitions, interleaved (default 3)", "N"},
    {"streams", 'n', 0, G_OPTION_ARG_STRING, &opt_streams,
        "Stream counts (default 1,4,16; each must divide the height of the "
          "total's one stream)", "N,N,..."},
    {"totals", 't', 0, G_OPTION_ARG_STRING, &opt_totals,
        "Total rates, Mbit/s: 6 (160x96), 24 (320x192), 96 (640x384) "
          "(default 6,24)", "T,T,..."},
    {"sink", 0, 0, G_OPTION_ARG_STRING, &opt_sink,
        "fake (default: fakesink sync=false) or udp (udpsink to "
          "127.0.0.1, sync=false)", "fake|udp"},
    {"props", 'p', 0, G_OPTION_ARG_STRING, &opt_props,
        "More rtpburstpace properties for every element, as in gst-launch",
        "\"K=V ...\""},
    {"out", 'o', 0, G_OPTION_ARG_STRING, &opt_out,
        "Write PREFIX.json (default groupbench-results)", "PREFIX"},
    {"cpu-dma-latency", 0, 0, G_OPTION_ARG_INT, &opt_cpu_dma_latency,
        "Hold a PM QoS request of this many us on /dev/cpu_dma_latency for "
          "the whole run (0 keeps idle CPUs out of deep idle states; needs "
          "root; default: none)", "US"},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
        "CI smoke run: 1 and 4 streams at 6 Mbit/s, one rep of 2 s; "
          "asserts only that every element releases slots", NULL},
    {NULL, 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL}
  };
  gchar **ns, **ts;
  Cell *cells;
  guint n_cells = 0, i, j, n_ns, n_ts;
  gint r;
  gboolean all_ok = TRUE;
  gchar *path;

  if (!bench_init (&argc, &argv, "- rtpburstpace: CPU per slot with 1 … N "
          "streams through one schedule", "Loads rtpburstpace from "
          "GST_PLUGIN_PATH (e.g. GST_PLUGIN_PATH=build/gst).", entries))
    return 2;
  if (opt_sink && strcmp (opt_sink, "fake") && strcmp (opt_sink, "udp")) {
    g_printerr ("--sink: fake or udp\n");
    return 2;
  }
  if (!bench_hold_cpu_dma_latency (opt_cpu_dma_latency))
    return 2;
  if (opt_quick) {
    opt_seconds = 2;
    opt_warmup = 0.5;
    opt_reps = 1;
    g_free (opt_streams);
    opt_streams = g_strdup ("1,4");
    g_free (opt_totals);
    opt_totals = g_strdup ("6");
  }
  if (opt_reps < 1 || opt_reps > 64) {
    g_printerr ("--reps: 1 to 64\n");
    return 2;
  }
  ns = g_strsplit (opt_streams ? opt_streams : "1,4,16", ",", -1);
  ts = g_strsplit (opt_totals ? opt_totals : "6,24", ",", -1);
  n_ns = g_strv_length (ns);
  n_ts = g_strv_length (ts);
  cells = g_new0 (Cell, n_ns * n_ts);
  for (i = 0; i < n_ts; i++) {
    const Total *t = find_total (ts[i]);

    if (!t) {
      g_printerr ("unknown total %s (6, 24, 96)\n", ts[i]);
      return 2;
    }
    for (j = 0; j < n_ns; j++) {
      Cell *c = &cells[n_cells++];

      c->total = t;
      c->n = (guint) g_ascii_strtoull (ns[j], NULL, 10);
      if (c->n < 1 || c->n > MAX_STREAMS || t->height % c->n) {
        g_printerr ("%s streams: 1 to %d, dividing the height %u\n",
            ns[j], MAX_STREAMS, t->height);
        return 2;
      }
      c->alone = g_new0 (Run, opt_reps);
      c->group = g_new0 (Run, opt_reps);
      c->floor1 = g_new0 (Floor, opt_reps);
      c->floorn = g_new0 (Floor, opt_reps);
    }
  }
  g_strfreev (ns);
  g_strfreev (ts);

  for (r = 0; r < opt_reps; r++) {
    for (i = 0; i < n_cells; i++) {
      Cell *c = &cells[i];
      gint w;
      gdouble slots, wall;

      g_print ("rep %d, %s Mbit/s, %u stream%s:\n", r + 1, c->total->name,
          c->n, c->n > 1 ? "s" : "");
      for (w = 0; w < 2; w++) {
        /* alternate which goes first */
        gboolean group = (w == 0) == (r % 2 == 1);
        Run *run = group ? &c->group[r] : &c->alone[r];

        *run = run_pipeline (c->total, c->n, group);
        if (!run_ok (run, group ? "group" : "alone", r)) {
          all_ok = FALSE;
          continue;
        }
        g_print ("   %-5s %" G_GUINT64_FORMAT " slots in %.1f s, task CPU "
            "%.1f us/slot, shared slots %" G_GUINT64_FORMAT ", members %u\n",
            group ? "group" : "alone", run->d.slots, run->wall_s,
            us_per (run->task_cpu_s, run->d.slots), run->d.shared,
            run->end.members_max);
      }
      /* the floors: the wake-ups of the two runs, on average */
      slots = 0.5 * (c->alone[r].d.slots + c->group[r].d.slots);
      wall = 0.5 * (c->alone[r].wall_s + c->group[r].wall_s);
      if (slots >= c->n && wall > 0) {
        guint64 spacing = (guint64) (wall * 1e9 / slots);

        c->floor1[r] = run_floor (1, (gsize) slots, spacing);
        c->floorn[r] = run_floor (c->n, (gsize) slots, spacing);
        g_print ("   floor %.1f us/wake-up (1 loop), %.1f (%u loops), "
            "every %.1f us\n", us_per (c->floor1[r].cpu_s,
                c->floor1[r].wakeups), us_per (c->floorn[r].cpu_s,
                c->floorn[r].wakeups), c->n, spacing / 1e3);
      }
    }
  }

  /* the placement alone, at each cell's slots per frame and stream */
  for (i = 0; i < n_cells; i++) {
    Cell *c = &cells[i];
    gdouble v[64];

    for (r = 0; r < opt_reps; r++)
      v[r] = c->group[r].wall_s > 0 ? c->group[r].d.slots /
          (c->group[r].wall_s * 25.0 * c->n) : NAN;
    c->placement = measure_placement (c->n,
        MAX (1, (guint) (median_d (v, opt_reps) + 0.5)));
  }

  print_table (cells, n_cells, opt_reps);
  path = g_strdup_printf ("%s.json", opt_out ? opt_out : "groupbench-results");
  write_json (path, cells, n_cells, opt_reps);
  g_print ("\nwrote %s\n", path);
  g_free (path);
  return all_ok ? 0 : 1;
}
