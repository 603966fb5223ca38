/* benchcpu: what the benchmarks in tests/bench/ measure alike
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
 * pacebench (one stream: precision and cost) and groupbench (1 … N streams
 * through one schedule: cost of scale) compare the element's task against
 * the same yardsticks, so both compile this unit instead of keeping a copy
 * each:
 *
 *  - CPU: of the process (getrusage), of each thread (/proc/self/task, in ns
 *    where the kernel's per-thread CPU clock answers), of the machine
 *    (/proc/stat, to tell whether something else ran);
 *  - the floor: a bare clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME) loop
 *    on its own thread, its wake-up error and its own CPU;
 *  - running a pipeline for a while (errors, EOS and LATENCY messages);
 *  - medians; the JSON scalars both write.
 */

#ifndef __BENCH_CPU_H__
#define __BENCH_CPU_H__

#include <stdio.h>
#include <gst/gst.h>

G_BEGIN_DECLS

/* CLOCK_MONOTONIC, s */
gdouble   mono_now_s        (void);
/* user + system CPU of the process (getrusage), s */
gdouble   process_cpu_s     (void);
/* sorts @v; NAN for n <= 0 */
gdouble   median_d          (gdouble * v, gint n);

/* machine-wide CPU from /proc/stat: how busy the machine was, and the
 * hypervisor's steal time, to see whether something else ran meanwhile */
typedef struct
{
  gdouble busy_s, steal_s, total_s;
} MachineCpu;

MachineCpu read_machine_cpu (void);

/* per thread: CPU (user + system); from /proc/self/task/TID/schedstat,
 * how often it was put on a CPU (each wake-up, and each return after a
 * preemption) and how long it waited, runnable, for one */
typedef struct
{
  gchar name[32];
  gint tid;
  gdouble cpu_s;
  guint64 runs;
  gdouble wait_s;
} ThreadCpu;

/* every thread of the process, most CPU first */
GArray   *read_thread_cpu   (void);
/* CPU each thread used since @before (threads are pooled and reused by
 * GStreamer, so cumulative figures would include earlier runs); named as
 * now.  Frees @before. */
GArray   *thread_cpu_delta  (GArray * before);
/* summed over the threads of @threads called @name */
ThreadCpu thread_cpu_sum    (GArray * threads, const gchar * name);

/* the floor: a bare clock_nanosleep loop (g_thread_new ("floor",
 * floor_thread, &job)).  Wakes up @n times, @spacing_ns apart, starting
 * 1 ms after it begins; with @spin_ns it sleeps until that long before each
 * time and busy-waits the rest.  Fills @err (lateness per wake-up, ns) if
 * not NULL, and @cpu_s (the thread's own CPU). */
typedef struct
{
  guint64 spacing_ns;
  guint64 spin_ns;
  gsize n;
  gint64 *err;
  gdouble cpu_s;
} FloorJob;

gpointer  floor_thread      (gpointer data);

/* Runs @pipeline's bus for @seconds: recalculates the latency on LATENCY,
 * prints warnings; FALSE with *@error set on an error or EOS. */
gboolean  bus_wait          (GstElement * pipeline, gdouble seconds,
                             gchar ** error);
gboolean  have_element      (const gchar * name);
/* Parses the options (@entries and GStreamer's), initialises GStreamer and
 * checks that rtpburstpace is found; FALSE (after a message) if not:
 * exit with 2. */
gboolean  bench_init        (int * argc, char *** argv,
                             const gchar * parameter, const gchar * summary,
                             GOptionEntry * entries);

/* Holds a PM QoS request of @us µs on /dev/cpu_dma_latency until the
 * process exits (0 keeps idle CPUs out of deep idle states, as cyclictest
 * and tuned's latency-performance profile do; needs root); @us < 0: none.
 * FALSE (after a message) if it could not: exit with 2. */
gboolean  bench_hold_cpu_dma_latency (gint us);

void      json_str          (FILE * f, const gchar * s);
/* null for NaN and infinities */
void      json_num          (FILE * f, gdouble v);
/* "tool": @tool, "machine": {"nproc": …, "kernel": …, "gstreamer": … -- the
 * caller adds fields of its own to the machine object and closes it */
void      json_machine_open (FILE * f, const gchar * tool);

G_END_DECLS

#endif /* __BENCH_CPU_H__ */
