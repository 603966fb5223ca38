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
 * libFuzzer target for the two congestion controllers, fed with
 * per-packet feedback (gst/rtpburstfeedback.h): GCC (gst/rtpburstgcc.c)
 * when the first byte is even, TFRC (gst/rtpbursttfrc.c) when it is odd.
 * Then the configuration (rates none, 1 bit/s, typical, absurd; min above
 * max; TFRC's segment size 0, 1, 1200, any), then operations, each an
 * opcode byte and its operands (bytes past the end read as 0): feedback
 * reports of up to 9000 packets built by a generator (sequence numbers
 * that step, skip, repeat, go back and jump; losses; send times that
 * stay, step and go back; a one-way delay that grows, shrinks and jumps,
 * so the receiver's clock jumps; sizes 0 … G_MAXUINT), empty reports,
 * round trips unknown, 0, typical and huge, and the sender's time
 * forwards, backwards and anywhere; for TFRC also on_sent () and tick ()
 * in between.
 *
 * Invariants, checked with abort () after every call:
 *
 * GCC (rtpburstgcc.h)
 *  - the target, A_hat and A_s within [max (min_rate, 1), max_rate]
 *    (max_rate 0 = RTP_BURST_GCC_RATE_LIMIT; max below min = min);
 *    A_s <= A_hat; target = min (A_hat, A_s) = rtp_burst_gcc_target ();
 *  - each sequence number counted once within RTP_BURST_GCC_SEQ_WINDOW
 *    (a model: received, lost, lost then received); the loss fraction is
 *    that of the report's new sequence numbers, in [0, 1], held by a
 *    report without any;
 *  - a report that brings no received packet changes neither A_hat nor
 *    the delay-based model; one that does moves A_hat as the state says
 *    (Increase: not down; Hold: unchanged; Decrease: not up), and the
 *    state follows the detector's signal (or over-use in the report);
 *  - A_s follows the loss controller, which acts on windows of new
 *    packets (a model of them): on a window of 20 or more, at most once a
 *    report, with the window's fraction: x (1 - p/2) over 10 %, but not
 *    below the loss model's B where A_s was above it (rtpburstlossmodel.h;
 *    B reported at most the rate limit, its eps in [0, 0.5]), x 1.05
 *    under 2 %, else held; a full window waits only when over 10 % (a
 *    decrease not yet due); then A_s at most A_hat (within rounding);
 *  - the filter's and the detector's values finite; the gradient is
 *    m(i) x min (deltas, 60); the threshold within [6, 600] ms; the
 *    deltas at most the packets received; R_hat and the mean at
 *    decreases at most the rate limit;
 *
 * TFRC (rtpbursttfrc.h)
 *  - X within [min_rate, max_rate] (0 = none; max below min = max), exact
 *    below 2^53 bit/s;
 *  - p in [0, 1], 0 exactly in slow start, and the loss event rate of the
 *    reported intervals (all >= 1 and finite, at most 8 closed, as many
 *    as the loss events up to 8); packets lost follow a model (new
 *    sequence numbers only); loss events <= lost;
 *  - R unknown until a sample, then never above 60 s;
 *  - X_calc = 0 while p = 0; with p > 0 and R known, X_calc is the
 *    equation's for (s, R, p) and X = max (min (X_calc, recv_limit),
 *    s / t_mbi) within the bounds (4.3);
 *  - in slow start, feedback at most doubles X (or raises it to W_init/R);
 *  - on_sent () never changes X, arms the nofeedback timer once; tick ()
 *    before the deadline changes nothing; at or after it, it counts an
 *    expiry, never raises X above max (X, s / t_mbi), and sets the next
 *    deadline after now (or saturated);
 *
 * The probe (rtpburstprobe.h), beside GCC: initial clusters at 3x and 6x
 * the start rate, GCC's reports fed to it too, OP_SENT a push counted in
 * it (and the cluster closed, at times).  Its clusters' states only move forward; a cluster takes no more
 * packets from the feedback than were sent in it; a result (DONE) is at
 * most the cluster's send and receive rates, and its receive rate at most
 * twice its send rate; on_feedback () returns 0 or the highest result of
 * the clusters it completed.
 *
 * The round trip from the same reports (rtpburstrtt.h), for either
 *  - a report's sample at most now minus the send time of each packet
 *    received and sent by now; none when there is no such packet;
 *  - the round trip the smallest sample kept, at most the new sample; the
 *    new sample kept as the newest, the others within the window before
 *    now; at most RTP_BURST_RTT_MAX_SAMPLES;
 *
 * plus AddressSanitizer and UndefinedBehaviorSanitizer, and no critical.
 *
 * RTPBURSTPACE_FUZZ_TRACE=1 prints every call and report.
 */

#include <math.h>

#include "fuzz-input.h"
#include "rtpburstgcc.h"
#include "rtpburstprobe.h"
#include "rtpburstrtt.h"
#include "rtpbursttfrc.h"

#define NONE RTP_BURST_TIME_NONE
#define MAX_OPS 4096
/* packets per report and per input */
#define MAX_REPORT 9000
#define MAX_PACKETS (1 << 16)

/* rtpbursttfrc.c: round-trip samples are taken at most 60 s (tested in
 * tests/check/unit/rtpbursttfrc.c); without a max_rate X stays at most
 * 1e14 bytes/s */
#define TFRC_MAX_RTT (60 * G_GUINT64_CONSTANT (1000000000))
#define TFRC_X_CEILING 1e14
/* t_mbi, s */
#define T_MBI_S (RTP_BURST_TFRC_T_MBI / 1e9)

enum
{
  OP_REPORT = 0,
  OP_EMPTY_REPORT,
  OP_SENT,                      /* TFRC; the probe beside GCC */
  OP_TICK,                      /* TFRC only */
  OP_ADVANCE,
  OP_COUNT
};

static gboolean trace;

#define TRACE(...) G_STMT_START {                                       \
  if (G_UNLIKELY (trace))                                               \
    fprintf (stderr, __VA_ARGS__);                                      \
} G_STMT_END

/* The packet generator's state and the sender's clock. */
typedef struct
{
  guint64 seq, send, owd, now;
  guint budget;                 /* packets left for this input */
} Gen;

/* A bit rate: none, a few typical ones, 1 bit/s, anything. */
static guint64
fuzz_rate (FuzzInput * in)
{
  static const guint64 rates[] = { 0, 1, 100000, 1000000, 6000000,
    1000000000, RTP_BURST_GCC_RATE_LIMIT, G_MAXUINT64
  };
  guint8 sel = fuzz_u8 (in);

  if (sel < 200)
    return rates[sel % G_N_ELEMENTS (rates)];
  if (sel < 230)
    return fuzz_u32 (in);
  return fuzz_u64 (in);
}

static guint64
fuzz_rtt (FuzzInput * in)
{
  switch (fuzz_u8 (in) & 3) {
    case 0:
      return NONE;
    case 1:
      return 0;
    case 2:
      return (guint64) fuzz_u16 (in) * 100000;  /* 0 … 6.5 s */
    default:
      return fuzz_time (in);
  }
}

/* The sender's time for a call: after the newest send, later than the
 * last call, the same, or anywhere (fuzz_time: 0, NONE, 2^63 …). */
static guint64
fuzz_now (FuzzInput * in, Gen * g)
{
  switch (fuzz_u8 (in) & 3) {
    case 0:
      g->now = g->send + (guint64) fuzz_u16 (in) * 10000;
      break;
    case 1:
      g->now += (guint64) fuzz_u16 (in) * 1000;
      break;
    case 2:
      g->now = fuzz_time (in);
      break;
    default:
      break;
  }
  return g->now;
}

/* One packet: a flags byte, then the operands it asks for.
 *   bits 0-1  seq: +1; +1 + u8 (a gap); - u8 (repeat, reorder); jump
 *   bit 2     lost
 *   bits 3-4  send time: + u16 µs; same; - u16 µs; fuzz_time ()
 *   bits 5-6  one-way delay: same; + u16 µs; - u16 µs; fuzz_time ()
 *   bit 7     size: 1200, else a selector (0, u16, u32, G_MAXUINT) */
static void
gen_packet (FuzzInput * in, Gen * g, RtpBurstFeedbackPacket * p)
{
  guint8 f = fuzz_u8 (in);

  switch (f & 3) {
    case 0:
      g->seq++;
      break;
    case 1:
      g->seq += 1 + fuzz_u8 (in);
      break;
    case 2:
      g->seq -= fuzz_u8 (in);
      break;
    default:
      switch (fuzz_u8 (in) & 3) {
        case 0:
          g->seq += RTP_BURST_GCC_SEQ_WINDOW - 1 + fuzz_u8 (in);
          break;
        case 1:
          g->seq -= RTP_BURST_GCC_SEQ_WINDOW - 1 + fuzz_u8 (in);
          break;
        case 2:
          g->seq = G_MAXUINT64 - fuzz_u8 (in);
          break;
        default:
          g->seq = fuzz_u64 (in);
          break;
      }
      break;
  }
  switch ((f >> 3) & 3) {
    case 0:
      g->send += (guint64) fuzz_u16 (in) * 1000;
      break;
    case 1:
      break;
    case 2:
      g->send -= MIN (g->send, (guint64) fuzz_u16 (in) * 1000);
      break;
    default:
      g->send = fuzz_time (in);
      break;
  }
  switch ((f >> 5) & 3) {
    case 0:
      break;
    case 1:
      g->owd += (guint64) fuzz_u16 (in) * 1000;
      break;
    case 2:
      g->owd -= (guint64) fuzz_u16 (in) * 1000;
      break;
    default:
      g->owd = fuzz_time (in);
      break;
  }
  p->seq = g->seq;
  p->send_time = g->send;
  /* may wrap, and may land on NONE: then it is a loss */
  p->arrival = (f & 4) ? NONE : g->send + g->owd;
  if (f & 0x80) {
    switch (fuzz_u8 (in) & 3) {
      case 0:
        p->size = 0;
        break;
      case 1:
        p->size = fuzz_u16 (in);
        break;
      case 2:
        p->size = fuzz_u32 (in);
        break;
      default:
        p->size = G_MAXUINT;
        break;
    }
  } else {
    p->size = 1200;
  }
}

/* A report's packets: a count (u8, or when 250 or more a u16 up to
 * MAX_REPORT), then the packets. */
static RtpBurstFeedbackPacket *
gen_report (FuzzInput * in, Gen * g, guint * n_out)
{
  RtpBurstFeedbackPacket *pkts;
  guint n = fuzz_u8 (in), i;

  if (n >= 250)
    n = fuzz_u16 (in) % (MAX_REPORT + 1);
  n = MIN (n, g->budget);
  g->budget -= n;
  pkts = g_new0 (RtpBurstFeedbackPacket, MAX (n, 1));
  for (i = 0; i < n; i++)
    gen_packet (in, g, &pkts[i]);
  *n_out = n;
  return pkts;
}

static void
trace_packets (const RtpBurstFeedbackPacket * pkts, guint n)
{
  guint i;

  for (i = 0; i < n && trace; i++)
    TRACE ("    seq %" G_GUINT64_FORMAT " send %" G_GUINT64_FORMAT
        " arrival %" G_GUINT64_FORMAT " size %u\n", pkts[i].seq,
        pkts[i].send_time, pkts[i].arrival, pkts[i].size);
}

/* --- the round trip ------------------------------------------------------- */

static void
rtt_check (RtpBurstRtt * r, const RtpBurstFeedbackPacket * pkts, guint n,
    guint64 now)
{
  guint64 sample = rtp_burst_rtt_sample (n ? pkts : NULL, n, now);
  guint64 got = rtp_burst_rtt_update (r, n ? pkts : NULL, n, now);
  guint64 least = NONE;
  gboolean any = FALSE;
  guint i;

  for (i = 0; i < n; i++) {
    if (pkts[i].arrival == NONE || pkts[i].send_time == NONE ||
        now == NONE || pkts[i].send_time > now)
      continue;
    any = TRUE;
    FUZZ_CHECK (sample <= now - pkts[i].send_time, "sample %"
        G_GUINT64_FORMAT " above the flight of packet %u", sample, i);
  }
  FUZZ_CHECK (any == (sample != NONE), "sample %" G_GUINT64_FORMAT
      " with%s a packet for it", sample, any ? "" : "out");
  FUZZ_CHECK (r->n <= RTP_BURST_RTT_MAX_SAMPLES, "%u samples kept", r->n);
  for (i = 0; i < r->n; i++) {
    least = MIN (least, r->samples[i].rtt);
    FUZZ_CHECK (now == NONE || i + 1 == r->n || (r->samples[i].time <= now
            && now - r->samples[i].time < RTP_BURST_RTT_WINDOW),
        "sample %u of %" G_GUINT64_FORMAT " kept at %" G_GUINT64_FORMAT,
        i, r->samples[i].time, now);
  }
  FUZZ_CHECK (got == least && got == rtp_burst_rtt_get (r),
      "round trip %" G_GUINT64_FORMAT ", smallest kept %" G_GUINT64_FORMAT,
      got, least);
  if (sample != NONE) {
    FUZZ_CHECK (got <= sample, "round trip %" G_GUINT64_FORMAT
        " above the new sample %" G_GUINT64_FORMAT, got, sample);
    FUZZ_CHECK (r->n > 0 && r->samples[r->n - 1].rtt == sample &&
        r->samples[r->n - 1].time == now, "the new sample not the newest");
  }
}

/* --- GCC ------------------------------------------------------------------ */

typedef enum
{
  M_LOST = 1,
  M_RECEIVED,
} MState;

typedef struct
{
  guint64 lo, hi;
  /* the sequence numbers seen: seq -> MState */
  GHashTable *seen;
  gboolean have_seq;
  guint64 highest;
  guint64 received, lost;
  /* the loss-based controller's window */
  guint win_packets, win_lost;
} GccModel;

static RtpBurstGccState
gcc_next_state (RtpBurstGccState state, RtpBurstGccSignal signal)
{
  if (signal == RTP_BURST_GCC_OVERUSE)
    return RTP_BURST_GCC_DECREASE;
  if (signal == RTP_BURST_GCC_UNDERUSE)
    return RTP_BURST_GCC_HOLD;
  if (state == RTP_BURST_GCC_HOLD)
    return RTP_BURST_GCC_INCREASE;
  if (state == RTP_BURST_GCC_DECREASE)
    return RTP_BURST_GCC_HOLD;
  return state;
}

/* The counting the header promises: each seq once, within the window;
 * one reported lost and then received counts as received. */
static void
gcc_model_report (GccModel * m, const RtpBurstFeedbackPacket * pkts,
    guint n, guint * n_new, guint * n_lost, guint * n_received)
{
  guint i;

  *n_new = *n_lost = *n_received = 0;
  for (i = 0; i < n; i++) {
    const RtpBurstFeedbackPacket *p = &pkts[i];
    gboolean lost = p->arrival == NONE;
    gpointer v;

    if (m->have_seq && m->highest >= RTP_BURST_GCC_SEQ_WINDOW &&
        p->seq <= m->highest - RTP_BURST_GCC_SEQ_WINDOW)
      continue;
    if (g_hash_table_lookup_extended (m->seen, &p->seq, NULL, &v)) {
      if (GPOINTER_TO_UINT (v) == M_LOST && !lost) {
        g_hash_table_replace (m->seen, g_memdup2 (&p->seq, sizeof (guint64)),
            GUINT_TO_POINTER (M_RECEIVED));
        m->lost--;
        m->received++;
        (*n_received)++;
      }
      continue;
    }
    g_hash_table_insert (m->seen, g_memdup2 (&p->seq, sizeof (guint64)),
        GUINT_TO_POINTER (lost ? M_LOST : M_RECEIVED));
    if (!m->have_seq || p->seq > m->highest)
      m->highest = p->seq;
    m->have_seq = TRUE;
    (*n_new)++;
    if (lost) {
      (*n_lost)++;
      m->lost++;
    } else {
      (*n_received)++;
      m->received++;
    }
  }
}

static void
gcc_check_report (const RtpBurstGcc * gcc, const GccModel * m,
    RtpBurstGccReport * r)
{
  guint64 target;

  rtp_burst_gcc_report (gcc, r);
  target = rtp_burst_gcc_target (gcc);
  TRACE ("  target %" G_GUINT64_FORMAT " A_hat %" G_GUINT64_FORMAT " A_s %"
      G_GUINT64_FORMAT " R_hat %" G_GUINT64_FORMAT " %s/%s m %g grad %g "
      "thr %g loss %g groups %" G_GUINT64_FORMAT "\n", r->target,
      r->delay_rate, r->loss_rate, r->received_rate,
      rtp_burst_gcc_signal_name (r->signal),
      rtp_burst_gcc_state_name (r->state), r->offset, r->gradient,
      r->threshold, r->loss, r->groups);

  FUZZ_CHECK (r->target == target, "report target %" G_GUINT64_FORMAT
      ", rtp_burst_gcc_target () %" G_GUINT64_FORMAT, r->target, target);
  FUZZ_CHECK (target >= m->lo && target <= m->hi, "target %"
      G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      "]", target, m->lo, m->hi);
  FUZZ_CHECK (r->delay_rate >= m->lo && r->delay_rate <= m->hi, "A_hat %"
      G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      "]", r->delay_rate, m->lo, m->hi);
  FUZZ_CHECK (r->loss_rate >= m->lo && r->loss_rate <= m->hi, "A_s %"
      G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      "]", r->loss_rate, m->lo, m->hi);
  FUZZ_CHECK (r->loss_rate <= r->delay_rate, "A_s %" G_GUINT64_FORMAT
      " above A_hat %" G_GUINT64_FORMAT, r->loss_rate, r->delay_rate);
  FUZZ_CHECK (target == MIN (r->delay_rate, r->loss_rate), "target %"
      G_GUINT64_FORMAT " not min (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      ")", target, r->delay_rate, r->loss_rate);

  FUZZ_CHECK (r->received == m->received && r->lost == m->lost,
      "received %" G_GUINT64_FORMAT " lost %" G_GUINT64_FORMAT
      ", the model %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT,
      r->received, r->lost, m->received, m->lost);
  FUZZ_CHECK (isfinite (r->loss) && r->loss >= 0 && r->loss <= 1,
      "loss %g", r->loss);

  FUZZ_CHECK (isfinite (r->offset) && isfinite (r->gradient),
      "m %g, gradient %g", r->offset, r->gradient);
  FUZZ_CHECK (r->gradient == MIN (r->groups, 60) * r->offset,
      "gradient %g, m %g, %" G_GUINT64_FORMAT " deltas", r->gradient,
      r->offset, r->groups);
  FUZZ_CHECK (r->threshold >= 6.0 && r->threshold <= 600.0,
      "threshold %g ms", r->threshold);
  FUZZ_CHECK (r->groups <= r->received, "%" G_GUINT64_FORMAT " deltas of %"
      G_GUINT64_FORMAT " packets", r->groups, r->received);
  FUZZ_CHECK ((guint) r->signal <= RTP_BURST_GCC_UNDERUSE &&
      (guint) r->state <= RTP_BURST_GCC_HOLD, "signal %d state %d",
      r->signal, r->state);
  FUZZ_CHECK (r->model_inherent >= 0 && r->model_inherent <= 0.5 + 1e-9 &&
      r->model_rate <= RTP_BURST_GCC_RATE_LIMIT, "the loss model's B %"
      G_GUINT64_FORMAT ", eps %g", r->model_rate, r->model_inherent);
  FUZZ_CHECK (r->received_rate <= RTP_BURST_GCC_RATE_LIMIT &&
      r->avg_max_rate <= RTP_BURST_GCC_RATE_LIMIT, "R_hat %" G_GUINT64_FORMAT
      ", mean at decreases %" G_GUINT64_FORMAT, r->received_rate,
      r->avg_max_rate);
}

/* Whether A_hat stayed from @b to @a, but for the TCP-fair floor's lift
 * (in any state, to at most the floor). */
static gboolean
gcc_held (const RtpBurstGccReport * b, const RtpBurstGccReport * a)
{
  return a->delay_rate == b->delay_rate || (a->delay_rate > b->delay_rate
      && a->delay_rate <= a->floor_rate);
}

/* What the report after a feedback must be, given the one before; keeps
 * the model of the loss-based controller's window. */
static void
gcc_check_feedback (GccModel * m, const RtpBurstGccReport * b,
    const RtpBurstGccReport * a, guint n_new, guint n_lost, guint n_received)
{
  gdouble factor = 1.0, model = 0, expect, tol;

  if (n_received == 0) {
    /* (but for the TCP-fair floor's lift, to at most the floor) */
    FUZZ_CHECK (gcc_held (b, a) && a->state == b->state &&
        a->signal == b->signal && a->groups == b->groups &&
        a->offset == b->offset && a->threshold == b->threshold,
        "a report without received packets changed the delay-based side: "
        "A_hat %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT ", %s -> %s",
        b->delay_rate, a->delay_rate, rtp_burst_gcc_state_name (b->state),
        rtp_burst_gcc_state_name (a->state));
  } else {
    /* or no step at all: an over-use (in the report, perhaps not the
     * latest signal) that waits for the round trip since A_hat's last
     * change; A_hat then stays (the Hold check below) */
    FUZZ_CHECK (a->state == gcc_next_state (b->state, a->signal) ||
        a->state == RTP_BURST_GCC_DECREASE || a->state == b->state,
        "%s -> %s on %s",
        rtp_burst_gcc_state_name (b->state),
        rtp_burst_gcc_state_name (a->state),
        rtp_burst_gcc_signal_name (a->signal));
    switch (a->state) {
      case RTP_BURST_GCC_INCREASE:
        FUZZ_CHECK (a->delay_rate >= b->delay_rate, "Increase lowered A_hat %"
            G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT, b->delay_rate,
            a->delay_rate);
        break;
      case RTP_BURST_GCC_HOLD:
        /* (the TCP-fair floor lifts A_hat in any state, to at most the
         * floor) */
        FUZZ_CHECK (gcc_held (b, a),
            "Hold changed A_hat %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
            " (floor %" G_GUINT64_FORMAT ")", b->delay_rate, a->delay_rate,
            a->floor_rate);
        break;
      default:
        FUZZ_CHECK (a->delay_rate <= MAX (b->delay_rate, a->floor_rate),
            "Decrease raised A_hat %" G_GUINT64_FORMAT " -> %"
            G_GUINT64_FORMAT " (floor %" G_GUINT64_FORMAT ")", b->delay_rate,
            a->delay_rate, a->floor_rate);
        break;
    }
  }

  /* the loss-based controller: it acts at most once per report, on a
   * window of at least 20 new packets that ends with this report's; its
   * window's fraction sets the factor */
  m->win_packets += n_new;
  m->win_lost += n_lost;
  if (a->loss_updates != b->loss_updates) {
    gdouble p = a->loss;

    FUZZ_CHECK (a->loss_updates == b->loss_updates + 1 && n_new > 0,
        "the loss-based controller acted %" G_GUINT64_FORMAT " times on %u "
        "new packets", a->loss_updates - b->loss_updates, n_new);
    FUZZ_CHECK (a->loss_packets == m->win_packets && a->loss_packets >= 20 &&
        p == (gdouble) m->win_lost / m->win_packets, "loss %g over %u "
        "packets; the window: %u lost of %u", p, a->loss_packets,
        m->win_lost, m->win_packets);
    if (p > 0.10) {
      factor = 1.0 - 0.5 * p;
      model = (gdouble) a->model_rate;
    } else if (p < 0.02)
      factor = 1.05;
    m->win_packets = m->win_lost = 0;
  } else {
    FUZZ_CHECK (a->loss == b->loss && a->loss_packets == b->loss_packets,
        "loss %g -> %g without the controller acting", b->loss, a->loss);
    /* only a decrease not yet due waits with a full window */
    FUZZ_CHECK (m->win_packets < 20 ||
        (gdouble) m->win_lost / m->win_packets > 0.10,
        "a window of %u packets, %u " "lost, not acted on", m->win_packets,
        m->win_lost);
  }
  /* A_s kept as a double: the reports round it, and A_hat, to the bit */
  expect = (gdouble) b->loss_rate * factor;
  if (model > 0)
    expect = MAX (expect, MIN (model, (gdouble) b->loss_rate));
  expect = MIN (expect, (gdouble) a->delay_rate);
  /* the TCP-fair floor lifts it too */
  expect = MAX (expect, (gdouble) a->floor_rate);
  expect = CLAMP (expect, (gdouble) m->lo, (gdouble) m->hi);
  tol = 2.0 + expect * 1e-12;
  FUZZ_CHECK (fabs ((gdouble) a->loss_rate - expect) <= tol, "A_s %"
      G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT ", expected %.1f (factor %g,"
      " A_hat %" G_GUINT64_FORMAT ")", b->loss_rate, a->loss_rate, expect,
      factor, a->delay_rate);
}

/* --- the probe, beside GCC ----------------------------------------------- */

static void
probe_check (RtpBurstProbe * p, RtpBurstProbeState * states, guint64 result)
{
  guint i;
  gboolean found = result == 0;

  for (i = 0; i < rtp_burst_probe_n_clusters (p); i++) {
    const RtpBurstProbeCluster *c = rtp_burst_probe_cluster (p, i);

    FUZZ_CHECK (c->state >= states[i], "cluster %u went from state %d to %d",
        i, states[i], c->state);
    FUZZ_CHECK (c->n_received <= c->n_sent, "cluster %u: %u received of %u "
        "sent", i, c->n_received, c->n_sent);
    if (c->state == RTP_BURST_PROBE_DONE) {
      FUZZ_CHECK (c->result <= c->send_rate && c->result <= c->receive_rate,
          "cluster %u: result %" G_GUINT64_FORMAT " above send %"
          G_GUINT64_FORMAT " or receive %" G_GUINT64_FORMAT, i, c->result,
          c->send_rate, c->receive_rate);
      FUZZ_CHECK (c->receive_rate <= 2 * (gdouble) c->send_rate + 1,
          "cluster %u: receive %" G_GUINT64_FORMAT " above 2 x send %"
          G_GUINT64_FORMAT, i, c->receive_rate, c->send_rate);
      if (states[i] != RTP_BURST_PROBE_DONE) {
        TRACE ("probe cluster %u done: %" G_GUINT64_FORMAT " bit/s\n", i,
            c->result);
        FUZZ_CHECK (c->result <= result, "cluster %u completed with %"
            G_GUINT64_FORMAT ", returned %" G_GUINT64_FORMAT, i, c->result,
            result);
        found |= c->result == result;
      }
    }
    states[i] = c->state;
  }
  FUZZ_CHECK (found, "returned %" G_GUINT64_FORMAT " is no cluster's result",
      result);
}

static void
run_gcc (FuzzInput * in, Gen * g)
{
  RtpBurstGccConfig c;
  GccModel m = { 0, };
  RtpBurstGccReport before, after;
  RtpBurstGcc *gcc;
  RtpBurstProbe *probe;
  RtpBurstProbeState states[RTP_BURST_PROBE_MAX_CLUSTERS] = { 0, };
  RtpBurstRtt rtt_filter;
  guint ops = 0;

  c.start_rate = fuzz_rate (in);
  c.min_rate = fuzz_rate (in);
  c.max_rate = fuzz_rate (in);
  /* the header: [max (min_rate, 1), max_rate], max_rate 0 = the limit,
   * at most the limit; max_rate below min_rate: min_rate */
  m.lo = MIN (MAX (c.min_rate, 1), RTP_BURST_GCC_RATE_LIMIT);
  m.hi = c.max_rate == 0 ? RTP_BURST_GCC_RATE_LIMIT :
      MIN (c.max_rate, RTP_BURST_GCC_RATE_LIMIT);
  m.hi = MAX (m.hi, m.lo);
  m.seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  TRACE ("gcc start %" G_GUINT64_FORMAT " min %" G_GUINT64_FORMAT " max %"
      G_GUINT64_FORMAT "\n", c.start_rate, c.min_rate, c.max_rate);

  gcc = rtp_burst_gcc_new (&c);
  probe = rtp_burst_probe_new ();
  rtp_burst_probe_plan_start (probe, MAX (c.start_rate, 1), 0);
  rtp_burst_rtt_init (&rtt_filter);
  gcc_check_report (gcc, &m, &before);
  FUZZ_CHECK (before.target == CLAMP (c.start_rate, m.lo, m.hi),
      "start target %" G_GUINT64_FORMAT ", start rate %" G_GUINT64_FORMAT,
      before.target, c.start_rate);

  while (fuzz_more (in) && ops++ < MAX_OPS) {
    guint8 op = fuzz_u8 (in) % OP_COUNT;

    switch (op) {
      case OP_REPORT:
      case OP_EMPTY_REPORT:{
        RtpBurstFeedbackPacket *pkts;
        guint n = 0, n_new, n_lost, n_received;
        guint64 now, rtt, probe_res;

        if (op == OP_REPORT)
          pkts = gen_report (in, g, &n);
        else
          pkts = g_new0 (RtpBurstFeedbackPacket, 1);
        now = fuzz_now (in, g);
        rtt = fuzz_rtt (in);
        TRACE ("feedback %u packets, now %" G_GUINT64_FORMAT " rtt %"
            G_GUINT64_FORMAT "\n", n, now, rtt);
        trace_packets (pkts, n);
        rtt_check (&rtt_filter, pkts, n, now);
        gcc_model_report (&m, pkts, n, &n_new, &n_lost, &n_received);
        /* NULL is allowed for no packets */
        rtp_burst_gcc_on_feedback (gcc, n ? pkts : NULL, n, now, rtt);
        probe_res = rtp_burst_probe_on_feedback (probe, n ? pkts : NULL, n,
            now);
        probe_check (probe, states, probe_res);
        g_free (pkts);
        gcc_check_report (gcc, &m, &after);
        gcc_check_feedback (&m, &before, &after, n_new, n_lost, n_received);
        before = after;
        /* the probe's result, as the element gives it: the target rises
         * to it (within the bounds) or stays */
        if (probe_res > 0) {
          gboolean rose = rtp_burst_gcc_probe_result (gcc, probe_res);

          gcc_check_report (gcc, &m, &after);
          FUZZ_CHECK (rose ? after.target == CLAMP (probe_res, m.lo, m.hi) &&
              after.target > before.target : after.target == before.target,
              "probe %" G_GUINT64_FORMAT ": target %" G_GUINT64_FORMAT
              " -> %" G_GUINT64_FORMAT, probe_res, before.target, after.target);
          before = after;
        }
        break;
      }
      case OP_ADVANCE:
        g->send += (guint64) fuzz_u16 (in) * 1000000;
        break;
      case OP_SENT:{
        /* a push of the probe's: packets, bytes, and its span from the
         * generator's send time (fuzz_time () at times) */
        guint8 flags = fuzz_u8 (in);
        guint n = flags & 7;
        guint64 bytes = fuzz_u16 (in);
        guint64 start = (fuzz_u8 (in) & 7) ? g->send : fuzz_time (in);
        guint64 end = start + (guint64) fuzz_u16 (in) * 100;

        TRACE ("probe sent %u packets %" G_GUINT64_FORMAT " bytes %"
            G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "\n", n, bytes, start, end);
        rtp_burst_probe_on_sent (probe, n, bytes, start, end);
        if (flags & 8)
          rtp_burst_probe_close (probe);
        probe_check (probe, states, 0);
        break;
      }
      default:
        /* TFRC's calls: nothing for GCC */
        break;
    }
  }
  rtp_burst_probe_free (probe);
  rtp_burst_gcc_free (gcc);
  g_hash_table_destroy (m.seen);
}

/* --- TFRC ----------------------------------------------------------------- */

typedef struct
{
  guint s;
  guint64 lo, hi;               /* bit/s, as the unit rounds them */
  guint64 floor;                /* s / t_mbi within them */
  guint64 start;                /* X at first */
  gboolean have_seq;
  guint64 max_seq, lost;
} TfrcModel;

static guint64
sat_add (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/* bytes/s to bit/s, rounded as rtpbursttfrc.c reports */
static guint64
to_bits (gdouble bytes_per_s)
{
  gdouble bits = bytes_per_s * 8.0;

  if (!(bits > 0.0))
    return 0;
  if (bits >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) (bits + 0.5);
}

static void
tfrc_check_report (const RtpBurstTfrc * t, const TfrcModel * m,
    RtpBurstTfrcReport * r)
{
  guint64 x = rtp_burst_tfrc_rate (t);
  guint i;

  rtp_burst_tfrc_report (t, r);
  TRACE ("  X %" G_GUINT64_FORMAT " p %g R %" G_GUINT64_FORMAT " X_recv %"
      G_GUINT64_FORMAT " X_calc %" G_GUINT64_FORMAT " limit %"
      G_GUINT64_FORMAT " events %" G_GUINT64_FORMAT " lost %"
      G_GUINT64_FORMAT "%s%s expiries %" G_GUINT64_FORMAT " deadline %"
      G_GUINT64_FORMAT "\n", r->x, r->p, r->rtt, r->x_recv, r->x_calc,
      r->recv_limit, r->loss_events, r->lost,
      r->slow_start ? " slow-start" : "",
      r->data_limited ? " data-limited" : "", r->nofeedback_expiries,
      r->nofeedback_deadline);

  FUZZ_CHECK (r->x == x, "report X %" G_GUINT64_FORMAT ", rate %"
      G_GUINT64_FORMAT, r->x, x);
  FUZZ_CHECK (x >= m->lo && x <= m->hi, "X %"
      G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
      "]", x, m->lo, m->hi);
  /* X >= s / t_mbi once the unit has set it (4.3, 4.4); before, the start
   * rate.  (For s < 4 bytes, s / t_mbi rounds to 0 bit/s.) */
  FUZZ_CHECK (x >= MIN (m->start, m->floor), "X %" G_GUINT64_FORMAT
      " below s / t_mbi %" G_GUINT64_FORMAT " and the start %"
      G_GUINT64_FORMAT, x, m->floor, m->start);

  FUZZ_CHECK (isfinite (r->p) && r->p >= 0 && r->p <= 1, "p %g", r->p);
  FUZZ_CHECK (r->slow_start == (r->loss_events == 0), "slow start %d with %"
      G_GUINT64_FORMAT " loss events", r->slow_start, r->loss_events);
  FUZZ_CHECK (r->slow_start == (r->p == 0), "slow start %d, p %g",
      r->slow_start, r->p);
  FUZZ_CHECK (r->lost == m->lost, "%" G_GUINT64_FORMAT " lost, the model %"
      G_GUINT64_FORMAT, r->lost, m->lost);
  FUZZ_CHECK (r->loss_events <= r->lost, "%" G_GUINT64_FORMAT
      " loss events of %" G_GUINT64_FORMAT " lost", r->loss_events, r->lost);
  FUZZ_CHECK (r->n_intervals == MIN (r->loss_events,
          RTP_BURST_TFRC_N_INTERVALS), "%u intervals, %" G_GUINT64_FORMAT
      " loss events", r->n_intervals, r->loss_events);
  for (i = 0; i <= r->n_intervals && !r->slow_start; i++)
    FUZZ_CHECK (isfinite (r->intervals[i]) && r->intervals[i] >= 1.0,
        "interval %u: %g", i, r->intervals[i]);
  if (!r->slow_start) {
    gdouble p = rtp_burst_tfrc_loss_event_rate (r->intervals[0],
        &r->intervals[1], r->n_intervals);

    FUZZ_CHECK (r->p == p, "p %g, the intervals give %g", r->p, p);
  }

  FUZZ_CHECK (r->rtt == NONE || r->rtt <= TFRC_MAX_RTT, "R %"
      G_GUINT64_FORMAT, r->rtt);
  if (r->p == 0)
    FUZZ_CHECK (r->x_calc == 0, "X_calc %" G_GUINT64_FORMAT " with p = 0",
        r->x_calc);
  if (r->p > 0 && r->rtt != NONE) {
    guint64 x_calc, floor_x, expect;

    /* the equation gives bit/s; the unit keeps bytes/s: / 8 and x 8 are
     * exact */
    x_calc = to_bits (rtp_burst_tfrc_equation (m->s, r->rtt, r->p) / 8.0);
    FUZZ_CHECK (r->x_calc == x_calc, "X_calc %" G_GUINT64_FORMAT
        ", the equation %" G_GUINT64_FORMAT " (s %u, R %" G_GUINT64_FORMAT
        ", p %g)", r->x_calc, x_calc, m->s, r->rtt, r->p);
    floor_x = to_bits (m->s / T_MBI_S);
    expect = MAX (MIN (r->x_calc, r->recv_limit), floor_x);
    expect = CLAMP (expect, m->lo, m->hi);
    /* never 0 bit/s (rtp_burst_tfrc_rate ()) */
    expect = MAX (expect, 1);
    FUZZ_CHECK (x == expect, "X %" G_GUINT64_FORMAT " in congestion "
        "avoidance, expected %" G_GUINT64_FORMAT " (X_calc %"
        G_GUINT64_FORMAT ", limit %" G_GUINT64_FORMAT ", floor %"
        G_GUINT64_FORMAT ")", x, expect, r->x_calc, r->recv_limit, floor_x);
  }
}

static void
tfrc_model_report (TfrcModel * m, const RtpBurstFeedbackPacket * pkts, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    if (m->have_seq && pkts[i].seq <= m->max_seq)
      continue;
    m->have_seq = TRUE;
    m->max_seq = pkts[i].seq;
    if (pkts[i].arrival == NONE)
      m->lost++;
  }
}

/* The deadline after the timer was restarted at @now. */
static void
check_deadline (const RtpBurstTfrcReport * r, guint64 now)
{
  FUZZ_CHECK (r->nofeedback_deadline > now ||
      r->nofeedback_deadline == G_MAXUINT64, "nofeedback deadline %"
      G_GUINT64_FORMAT " not after now %" G_GUINT64_FORMAT " (R %"
      G_GUINT64_FORMAT ", X %" G_GUINT64_FORMAT ")", r->nofeedback_deadline,
      now, r->rtt, r->x);
}

static void
run_tfrc (FuzzInput * in, Gen * g)
{
  static const guint sizes[] = { 0, 1, 100, 1200, 1500, 65535 };
  RtpBurstTfrcConfig c;
  TfrcModel m = { 0, };
  RtpBurstTfrcReport before, after;
  RtpBurstTfrc *t;
  RtpBurstRtt rtt_filter;
  gdouble max_x;
  guint ops = 0;
  guint8 sel;

  sel = fuzz_u8 (in);
  c.segment_size = sel < 200 ? sizes[sel % G_N_ELEMENTS (sizes)] :
      fuzz_u32 (in);
  c.min_rate = fuzz_rate (in);
  c.max_rate = fuzz_rate (in);
  c.start_rate = fuzz_rate (in);
  m.s = c.segment_size ? c.segment_size : 1200;
  /* the header: 0 = no bound; the .c: max wins over min */
  max_x = c.max_rate ? c.max_rate / 8.0 : TFRC_X_CEILING;
  m.hi = to_bits (max_x);
  m.lo = to_bits (MIN (c.min_rate / 8.0, max_x));
  /* the unit keeps the bounds as doubles: exact up to 2^53 bit/s, within
   * their rounding above */
  if (c.max_rate)
    FUZZ_CHECK (m.hi <= c.max_rate || m.hi - c.max_rate <= c.max_rate >> 52,
        "X bounded by %" G_GUINT64_FORMAT ", max_rate %" G_GUINT64_FORMAT,
        m.hi, c.max_rate);
  if (c.min_rate <= m.hi)
    FUZZ_CHECK (m.lo >= c.min_rate || c.min_rate - m.lo <= c.min_rate >> 52,
        "X bounded by %" G_GUINT64_FORMAT ", min_rate %" G_GUINT64_FORMAT,
        m.lo, c.min_rate);
  TRACE ("tfrc s %u min %" G_GUINT64_FORMAT " max %" G_GUINT64_FORMAT
      " start %" G_GUINT64_FORMAT "\n", c.segment_size, c.min_rate,
      c.max_rate, c.start_rate);

  m.floor = CLAMP (to_bits (m.s / T_MBI_S), m.lo, m.hi);
  m.start = 0;
  t = rtp_burst_tfrc_new (&c);
  rtp_burst_rtt_init (&rtt_filter);
  tfrc_check_report (t, &m, &before);
  m.start = before.x;
  FUZZ_CHECK (before.nofeedback_deadline == NONE, "deadline %"
      G_GUINT64_FORMAT " before anything", before.nofeedback_deadline);

  while (fuzz_more (in) && ops++ < MAX_OPS) {
    guint8 op = fuzz_u8 (in) % OP_COUNT;

    switch (op) {
      case OP_REPORT:
      case OP_EMPTY_REPORT:{
        RtpBurstFeedbackPacket *pkts;
        guint n = 0;
        guint64 now, rtt;

        if (op == OP_REPORT)
          pkts = gen_report (in, g, &n);
        else
          pkts = g_new0 (RtpBurstFeedbackPacket, 1);
        now = fuzz_now (in, g);
        rtt = fuzz_rtt (in);
        TRACE ("feedback %u packets, now %" G_GUINT64_FORMAT " rtt %"
            G_GUINT64_FORMAT "\n", n, now, rtt);
        trace_packets (pkts, n);
        rtt_check (&rtt_filter, pkts, n, now);
        tfrc_model_report (&m, pkts, n);
        rtp_burst_tfrc_on_feedback (t, n ? pkts : NULL, n, now, rtt);
        g_free (pkts);
        tfrc_check_report (t, &m, &after);
        FUZZ_CHECK (before.rtt == NONE || after.rtt != NONE,
            "R known, then unknown");
        FUZZ_CHECK (after.loss_events >= before.loss_events,
            "loss events went back");
        if (after.slow_start && after.rtt != NONE) {
          guint64 w_init = MIN (4 * (guint64) m.s, MAX (2 * (guint64) m.s,
                  4380));
          gdouble r_s = MAX (after.rtt, RTP_BURST_TFRC_MIN_RTT) / 1e9;
          guint64 limit = MAX (sat_add (before.x, before.x),
              to_bits (w_init / r_s));

          /* rounding: 2 x a rounded X is up to 1 bit above */
          FUZZ_CHECK (after.x <= sat_add (MAX (CLAMP (limit, m.lo, m.hi),
                      before.x), 1), "slow start: X %" G_GUINT64_FORMAT " -> %"
              G_GUINT64_FORMAT ", W_init/R %" G_GUINT64_FORMAT, before.x,
              after.x, to_bits (w_init / r_s));
        }
        check_deadline (&after, now);
        before = after;
        break;
      }
      case OP_SENT:{
        guint64 bytes, now;

        bytes = (fuzz_u8 (in) & 1) ? fuzz_u64 (in) : fuzz_u16 (in);
        now = fuzz_now (in, g);
        TRACE ("sent %" G_GUINT64_FORMAT " bytes, now %" G_GUINT64_FORMAT
            "\n", bytes, now);
        rtp_burst_tfrc_on_sent (t, bytes, now);
        tfrc_check_report (t, &m, &after);
        FUZZ_CHECK (after.x == before.x, "on_sent changed X");
        /* the deadline saturates at NONE when sent at the end of time */
        if (before.nofeedback_deadline == NONE)
          FUZZ_CHECK (after.nofeedback_deadline != NONE ||
              now >= G_MAXUINT64 - TFRC_MAX_RTT, "sent at %" G_GUINT64_FORMAT
              ", no nofeedback timer", now);
        else
          FUZZ_CHECK (after.nofeedback_deadline == before.nofeedback_deadline,
              "on_sent moved the deadline %" G_GUINT64_FORMAT " -> %"
              G_GUINT64_FORMAT, before.nofeedback_deadline,
              after.nofeedback_deadline);
        before = after;
        break;
      }
      case OP_TICK:{
        guint64 now = fuzz_now (in, g);

        TRACE ("tick, now %" G_GUINT64_FORMAT "\n", now);
        rtp_burst_tfrc_tick (t, now);
        tfrc_check_report (t, &m, &after);
        if (before.nofeedback_deadline == NONE ||
            now < before.nofeedback_deadline) {
          FUZZ_CHECK (memcmp (&before, &after, sizeof (before)) == 0,
              "tick before the deadline %" G_GUINT64_FORMAT " (now %"
              G_GUINT64_FORMAT ") changed the state",
              before.nofeedback_deadline, now);
        } else {
          FUZZ_CHECK (after.nofeedback_expiries ==
              before.nofeedback_expiries + 1, "expiry not counted");
          FUZZ_CHECK (after.x <= MAX (before.x, m.floor), "the nofeedback "
              "timer raised X %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT,
              before.x, after.x);
          check_deadline (&after, now);
        }
        before = after;
        break;
      }
      case OP_ADVANCE:
        g->send += (guint64) fuzz_u16 (in) * 1000000;
        break;
      default:
        break;
    }
  }
  rtp_burst_tfrc_free (t);
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const gchar *const domains[] = { "GLib", NULL };

  trace = g_getenv ("RTPBURSTPACE_FUZZ_TRACE") != NULL;
  /* g_return_if_fail () in the units is a bug here */
  fuzz_abort_on_criticals (domains);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  Gen g = { 0, };
  guint8 unit = fuzz_u8 (&in);

  g.seq = 1000;
  g.send = G_GUINT64_CONSTANT (1000000000);
  g.owd = G_GUINT64_CONSTANT (5000000000);
  g.now = g.send;
  g.budget = MAX_PACKETS;
  if (unit & 1)
    run_tfrc (&in, &g);
  else
    run_gcc (&in, &g);
  return 0;
}
