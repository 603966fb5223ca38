/* ccbench: the CPU cost of the congestion controllers' feedback path
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
 * What a feedback report costs the element's `gcc` controller
 * (gst/rtpburstgcc.h), and what the loss model's fit costs
 * (gst/rtpburstlossmodel.h), which runs when a loss-based decrease falls
 * due.  Both run in the thread that brings the feedback (rtpbin's RTCP
 * thread), under the element's cc lock, which the pacing thread only
 * tries; this says how much of a core that path takes.
 *
 * The feedback is synthetic and the same in every repetition (a GRand of
 * a fixed seed): --seconds of a 2 Mbit/s stream of 1200-byte packets,
 * one report every 40 ms (a frame's, as rtpbin sends them behind a 25 fps
 * source), a round trip of 40 ms.  Two streams side by side, interleaved:
 *
 *   lossless   no packet lost: the delay-based controller only;
 *   lossy      15 % of the packets lost at random: over GCC's 10 %, so
 *              the loss-based controller decreases as often as it may
 *              (once per 300 ms + the round trip), and each decrease
 *              runs the fit.
 *
 * and, apart, the fit alone over RTP_BURST_LOSS_MODEL_OBSERVATIONS
 * observations at rates spread over two octaves.  CPU is the thread's
 * own (CLOCK_THREAD_CPUTIME_ID); medians over --reps.  What to read is
 * the ratio lossy / lossless measured in the same run, and the fit's
 * cost against the interval it runs at most once per (300 ms).
 *
 * Run, from the repository's top directory:
 *   build/tests/bench/ccbench [--seconds S] [--reps N]
 */

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "benchcpu.h"
#include "rtpburstgcc.h"
#include "rtpburstlossmodel.h"

#define MS_NS G_GUINT64_CONSTANT (1000000)
#define RATE 2000000.0
#define PACKET 1200
#define REPORT_NS (40 * MS_NS)
#define ONE_WAY_NS (20 * MS_NS)
#define RTT_NS (40 * MS_NS)
#define SEED 20261129
#define LOSSY 0.15
/* libwebrtc's and rtpburstgcc.c's shortest time between two loss-based
 * decreases, without the round trip */
#define FIT_INTERVAL_S 0.3

static gdouble opt_seconds = 60.0;
static gint opt_reps = 7;
static gint opt_fits = 2000;
static gboolean opt_quick = FALSE;

static gdouble
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct
{
  gdouble cpu_s;
  guint reports;
  guint64 lost, loss_updates;
} Session;

/* One session of feedback at @loss through a new controller. */
static Session
run_session (gdouble loss)
{
  RtpBurstGccConfig config = { (guint64) RATE, 100000, 10000000 };
  RtpBurstGcc *gcc = rtp_burst_gcc_new (&config);
  GRand *rand = g_rand_new_with_seed (SEED);
  guint64 gap = (guint64) (PACKET * 8 / RATE * 1e9);
  guint64 end = (guint64) (opt_seconds * 1e9), t = 0, seq = 0, report = 0;
  GPtrArray *reports = g_ptr_array_new_with_free_func (
      (GDestroyNotify) g_array_unref);
  RtpBurstGccReport r;
  Session s = { 0 };
  gdouble start;

  /* the reports are made before the clock starts: only the controller's
   * work is timed */
  while (report < end) {
    GArray *pkts = g_array_new (FALSE, FALSE, sizeof (RtpBurstFeedbackPacket));

    report += REPORT_NS;
    for (; t < report; t += gap) {
      RtpBurstFeedbackPacket p = { seq++, t, RTP_BURST_TIME_NONE, PACKET };

      if (g_rand_double (rand) >= loss)
        p.arrival = t + ONE_WAY_NS + g_rand_int_range (rand, 0, 2 * MS_NS);
      g_array_append_val (pkts, p);
    }
    g_ptr_array_add (reports, pkts);
  }

  start = thread_cpu_s ();
  for (guint i = 0; i < reports->len; i++) {
    GArray *a = g_ptr_array_index (reports, i);

    rtp_burst_gcc_on_feedback (gcc, (RtpBurstFeedbackPacket *) a->data,
        a->len, (i + 1) * REPORT_NS + ONE_WAY_NS, RTT_NS);
  }
  s.cpu_s = thread_cpu_s () - start;
  s.reports = reports->len;
  rtp_burst_gcc_report (gcc, &r);
  s.lost = r.lost;
  s.loss_updates = r.loss_updates;

  g_ptr_array_unref (reports);
  g_rand_free (rand);
  rtp_burst_gcc_free (gcc);
  return s;
}

/* The fit alone: CPU per rtp_burst_loss_model_bandwidth () call. */
static gdouble
run_fits (gdouble * bandwidth)
{
  RtpBurstLossModel *model = rtp_burst_loss_model_new ();
  GRand *rand = g_rand_new_with_seed (SEED);
  gdouble start, cpu, sum = 0;
  gint i;

  for (i = 0; i < RTP_BURST_LOSS_MODEL_OBSERVATIONS; i++) {
    gdouble rate = 1e6 * exp2 (g_rand_double_range (rand, 0, 2));

    rtp_burst_loss_model_add (model, 60, g_rand_int_range (rand, 0, 8), rate);
  }
  start = thread_cpu_s ();
  for (i = 0; i < opt_fits; i++)
    sum += rtp_burst_loss_model_bandwidth (model, NULL);
  cpu = thread_cpu_s () - start;
  *bandwidth = sum / opt_fits;
  g_rand_free (rand);
  rtp_burst_loss_model_free (model);
  return cpu / opt_fits;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
        "Feedback of this many seconds per session (default 60)", "S"},
    {"reps", 'r', 0, G_OPTION_ARG_INT, &opt_reps,
        "Repetitions, interleaved (default 7)", "N"},
    {"fits", 0, 0, G_OPTION_ARG_INT, &opt_fits,
        "Fits per repetition of the fit alone (default 2000)", "N"},
    {"quick", 0, 0, G_OPTION_ARG_NONE, &opt_quick,
        "2 s, 3 repetitions, 50 fits: only checks that it runs", NULL},
    {NULL, 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- congestion control cost");
  GError *err = NULL;
  gdouble *lossless, *lossy, *fit, *ratio, bw = 0;
  Session a = { 0 }, b = { 0 };
  gint i;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("ccbench: %s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_quick) {
    opt_seconds = 2;
    opt_reps = 3;
    opt_fits = 50;
  }
  if (opt_reps < 1 || opt_fits < 1 || !(opt_seconds >= 1)) {
    g_printerr ("ccbench: --reps and --fits take 1 or more, --seconds 1 "
        "or more\n");
    return 2;
  }

  lossless = g_new (gdouble, opt_reps);
  lossy = g_new (gdouble, opt_reps);
  fit = g_new (gdouble, opt_reps);
  ratio = g_new (gdouble, opt_reps);
  for (i = 0; i < opt_reps; i++) {
    /* the order alternates, so that neither always runs first */
    if (i % 2) {
      b = run_session (LOSSY);
      a = run_session (0);
    } else {
      a = run_session (0);
      b = run_session (LOSSY);
    }
    fit[i] = run_fits (&bw);
    lossless[i] = a.cpu_s / a.reports;
    lossy[i] = b.cpu_s / b.reports;
    ratio[i] = lossy[i] / lossless[i];
  }

  printf ("ccbench: %g s of feedback per session, %u reports of ~%d "
      "packets, %d repetitions\n", opt_seconds, a.reports,
      (gint) (RATE * REPORT_NS / 1e9 / (PACKET * 8) + 0.5), opt_reps);
  printf ("  lossless: %" G_GUINT64_FORMAT " lost, loss-based controller "
      "acted %" G_GUINT64_FORMAT " times\n", a.lost, a.loss_updates);
  printf ("  lossy:    %" G_GUINT64_FORMAT " lost, loss-based controller "
      "acted %" G_GUINT64_FORMAT " times\n", b.lost, b.loss_updates);
  printf ("  CPU per report, median: lossless %.2f us, lossy %.2f us; "
      "lossy / lossless, median of the repetitions' ratios: %.2f\n",
      median_d (lossless, opt_reps) * 1e6, median_d (lossy, opt_reps) * 1e6,
      median_d (ratio, opt_reps));
  printf ("  the fit alone (%d observations), median: %.1f us a fit "
      "(B %.0f bit/s); at most one per %.1f s: %.3f %% of a core\n",
      RTP_BURST_LOSS_MODEL_OBSERVATIONS, median_d (fit, opt_reps) * 1e6, bw,
      FIT_INTERVAL_S, median_d (fit, opt_reps) / FIT_INTERVAL_S * 100);
  printf ("  feedback path at one report per %.0f ms, median: lossless "
      "%.3f %%, lossy %.3f %% of a core\n", REPORT_NS / 1e6,
      median_d (lossless, opt_reps) / (REPORT_NS / 1e9) * 100,
      median_d (lossy, opt_reps) / (REPORT_NS / 1e9) * 100);

  /* what the quick run checks: the sessions ran and the lossy one made
   * the loss-based controller act, and the fit answered a rate */
  ok = a.reports > 0 && a.lost == 0 && b.lost > 0 && b.loss_updates > 0 &&
      bw > 0;
  if (!ok)
    g_printerr ("ccbench: the sessions did not run as planned\n");
  g_free (lossless);
  g_free (lossy);
  g_free (fit);
  g_free (ratio);
  return ok ? 0 : 1;
}
