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

/* See benchcpu.h.  Moved here from pacebench.c, which kept them first. */

#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "benchcpu.h"

/* The CPU time of thread @tid of this process in s, from the kernel's
 * per-thread CPU clock (ns, the same sum that /proc/.../stat gives in clock
 * ticks of 10 ms: too coarse for a thread that runs 20 µs per slot, summed
 * over 16 threads); -1 where the kernel does not answer. */
static gdouble
thread_clock_s (gint tid)
{
  /* MAKE_THREAD_CPUCLOCK (tid, CPUCLOCK_SCHED) of the kernel's
   * include/linux/posix-timers.h; glibc has no call for another thread's
   * clock by tid, only pthread_getcpuclockid for a pthread_t of its own */
  clockid_t c = (clockid_t) ((~(guint) tid) << 3) | 4 | 2;
  struct timespec ts;

  if (clock_gettime (c, &ts) != 0)
    return -1;
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

gdouble
mono_now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

gdouble
process_cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

gdouble
median_d (gdouble * v, gint n)
{
  if (n <= 0)
    return NAN;
  qsort (v, n, sizeof (gdouble), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

MachineCpu
read_machine_cpu (void)
{
  MachineCpu m = { 0, 0, 0 };
  gchar *stat = NULL;
  unsigned long long v[10] = { 0, };
  long hz = sysconf (_SC_CLK_TCK);

  if (g_file_get_contents ("/proc/stat", &stat, NULL, NULL)) {
    if (sscanf (stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
            &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
            &v[9]) >= 8) {
      /* user nice system idle iowait irq softirq steal guest guest_nice */
      m.busy_s = (gdouble) (v[0] + v[1] + v[2] + v[5] + v[6]) / hz;
      m.steal_s = (gdouble) v[7] / hz;
      m.total_s = (gdouble) (v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] +
          v[7]) / hz;
    }
    g_free (stat);
  }
  return m;
}

static gint
cmp_thread_cpu (gconstpointer a, gconstpointer b)
{
  const ThreadCpu *x = a, *y = b;

  return x->cpu_s < y->cpu_s ? 1 : (x->cpu_s > y->cpu_s ? -1 : 0);
}

/* "run_ns wait_ns pcount" (kernels with CONFIG_SCHED_INFO; else zeros) */
static void
read_schedstat (const gchar * tid, ThreadCpu * tc)
{
  gchar *path = g_strdup_printf ("/proc/self/task/%s/schedstat", tid);
  gchar *text = NULL;
  unsigned long long run_ns, wait_ns, pcount;

  if (g_file_get_contents (path, &text, NULL, NULL) &&
      sscanf (text, "%llu %llu %llu", &run_ns, &wait_ns, &pcount) == 3) {
    tc->runs = pcount;
    tc->wait_s = wait_ns * 1e-9;
  }
  g_free (text);
  g_free (path);
}

GArray *
read_thread_cpu (void)
{
  GArray *arr = g_array_new (FALSE, TRUE, sizeof (ThreadCpu));
  DIR *d = opendir ("/proc/self/task");
  struct dirent *e;
  long hz = sysconf (_SC_CLK_TCK);

  if (d == NULL)
    return arr;
  while ((e = readdir (d))) {
    gchar *path, *stat = NULL, *comm = NULL;
    ThreadCpu tc;

    if (e->d_name[0] == '.')
      continue;
    memset (&tc, 0, sizeof (tc));
    path = g_strdup_printf ("/proc/self/task/%s/stat", e->d_name);
    if (g_file_get_contents (path, &stat, NULL, NULL)) {
      /* comm is in parentheses and may contain spaces: parse after ')' */
      gchar *rp = strrchr (stat, ')');
      gchar *lp = strchr (stat, '(');

      if (rp && lp && rp > lp) {
        unsigned long ut = 0, st = 0;
        gint field;
        gchar *tok, *save = NULL;

        comm = g_strndup (lp + 1, rp - lp - 1);
        /* fields after ')' start with field 3 (state) */
        for (field = 3, tok = strtok_r (rp + 2, " ", &save); tok;
            tok = strtok_r (NULL, " ", &save), field++) {
          if (field == 14)
            ut = strtoul (tok, NULL, 10);
          else if (field == 15) {
            st = strtoul (tok, NULL, 10);
            break;
          }
        }
        g_strlcpy (tc.name, comm, sizeof (tc.name));
        tc.tid = atoi (e->d_name);
        tc.cpu_s = thread_clock_s (tc.tid);
        if (tc.cpu_s < 0)
          tc.cpu_s = (gdouble) (ut + st) / hz;
        read_schedstat (e->d_name, &tc);
        g_array_append_val (arr, tc);
      }
    }
    g_free (comm);
    g_free (stat);
    g_free (path);
  }
  closedir (d);
  g_array_sort (arr, cmp_thread_cpu);
  return arr;
}

GArray *
thread_cpu_delta (GArray * before)
{
  GArray *now = read_thread_cpu ();
  guint i, j;

  for (i = 0; i < now->len; i++) {
    ThreadCpu *a = &g_array_index (now, ThreadCpu, i);

    for (j = 0; before && j < before->len; j++) {
      ThreadCpu *b = &g_array_index (before, ThreadCpu, j);

      if (a->tid == b->tid) {
        a->cpu_s -= b->cpu_s;
        a->runs -= b->runs;
        a->wait_s -= b->wait_s;
        break;
      }
    }
  }
  g_array_sort (now, cmp_thread_cpu);
  if (before)
    g_array_free (before, TRUE);
  return now;
}

gpointer
floor_thread (gpointer data)
{
  FloorJob *job = data;
  struct timespec ts;
  guint64 start, target, now;
  gsize i;
  struct timespec c0, c1;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &c0);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  start = (guint64) ts.tv_sec * 1000000000ull + ts.tv_nsec + 1000000;
  for (i = 0; i < job->n; i++) {
    guint64 wake;

    target = start + i * job->spacing_ns;
    wake = target - MIN (job->spin_ns, target - start);
    ts.tv_sec = wake / 1000000000ull;
    ts.tv_nsec = wake % 1000000000ull;
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
        EINTR);
    do {                        /* --floor-spin: busy-wait the rest */
      clock_gettime (CLOCK_MONOTONIC, &ts);
      now = (guint64) ts.tv_sec * 1000000000ull + ts.tv_nsec;
    } while (now < target);
    if (job->err)
      job->err[i] = (gint64) (now - target);
  }
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &c1);
  job->cpu_s = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
  return NULL;
}

gboolean
bus_wait (GstElement * pipeline, gdouble seconds, gchar ** error)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gdouble end = mono_now_s () + seconds;
  gboolean ok = TRUE;

  for (;;) {
    gdouble left = end - mono_now_s ();
    GstMessage *msg;

    if (left <= 0)
      break;
    msg = gst_bus_timed_pop_filtered (bus, (GstClockTime) (left * GST_SECOND),
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_WARNING |
        GST_MESSAGE_LATENCY);
    if (msg == NULL)
      continue;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_LATENCY) {
      /* as gst-launch and any application should */
      gst_bin_recalculate_latency (GST_BIN (pipeline));
      gst_message_unref (msg);
      continue;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("  warning from %s: %s (%s)\n", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      *error = g_strdup_printf ("error from %s: %s (%s)",
          GST_OBJECT_NAME (msg->src), err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      ok = FALSE;
    } else {
      *error = g_strdup ("unexpected EOS");
      ok = FALSE;
    }
    gst_message_unref (msg);
    if (!ok)
      break;
  }
  gst_object_unref (bus);
  return ok;
}

gboolean
have_element (const gchar * name)
{
  GstPluginFeature *f = gst_registry_lookup_feature (gst_registry_get (), name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

void
json_str (FILE * f, const gchar * s)
{
  fputc ('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf (f, "\\%c", *s);
    else if ((guchar) * s < 0x20)
      fprintf (f, "\\u%04x", *s);
    else
      fputc (*s, f);
  }
  fputc ('"', f);
}

void
json_num (FILE * f, gdouble v)
{
  if (isnan (v) || isinf (v))
    fprintf (f, "null");
  else
    fprintf (f, "%.6g", v);
}

ThreadCpu
thread_cpu_sum (GArray * threads, const gchar * name)
{
  ThreadCpu s;
  guint i;

  memset (&s, 0, sizeof (s));
  g_strlcpy (s.name, name, sizeof (s.name));
  for (i = 0; threads && i < threads->len; i++) {
    ThreadCpu *tc = &g_array_index (threads, ThreadCpu, i);

    if (!strcmp (tc->name, name)) {
      s.cpu_s += tc->cpu_s;
      s.runs += tc->runs;
      s.wait_s += tc->wait_s;
    }
  }
  return s;
}

gboolean
bench_init (int *argc, char ***argv, const gchar * parameter,
    const gchar * summary, GOptionEntry * entries)
{
  GOptionContext *ctx = g_option_context_new (parameter);
  GError *err = NULL;

  g_option_context_set_summary (ctx, summary);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &err)) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
    return FALSE;
  }
  g_option_context_free (ctx);
  gst_init (NULL, NULL);
  if (!have_element ("rtpburstpace")) {
    g_printerr ("rtpburstpace not found: set GST_PLUGIN_PATH to the build's "
        "gst/ directory (e.g. GST_PLUGIN_PATH=build/gst)\n");
    return FALSE;
  }
  return TRUE;
}

gboolean
bench_hold_cpu_dma_latency (gint us)
{
  gint32 v = us;
  int fd;

  if (us < 0)
    return TRUE;
  /* the request holds while the file stays open: it is never closed */
  fd = open ("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, &v, sizeof (v)) != sizeof (v)) {
    g_printerr ("cannot set /dev/cpu_dma_latency: %s\n", g_strerror (errno));
    if (fd >= 0)
      close (fd);
    return FALSE;
  }
  g_print ("PM QoS: /dev/cpu_dma_latency held at %d us\n", us);
  return TRUE;
}

void
json_machine_open (FILE * f, const gchar * tool)
{
  struct utsname u;

  uname (&u);
  fprintf (f, "  \"tool\": ");
  json_str (f, tool);
  fprintf (f, ",\n  \"machine\": {\"nproc\": %ld, \"kernel\": ",
      sysconf (_SC_NPROCESSORS_ONLN));
  json_str (f, u.release);
  fprintf (f, ", \"gstreamer\": ");
  json_str (f, gst_version_string ());
}
