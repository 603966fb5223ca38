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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrtpburstcc.h"
#include "gstrtpburstlock.h"
#include "gstrtpburstprops.h"
#include "gstrtpburststats.h"

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

#define CC_LOCK(cc) RTP_BURST_MUTEX_LOCK (&(cc)->lock)
#define CC_UNLOCK(cc) RTP_BURST_MUTEX_UNLOCK (&(cc)->lock)

/**
 * GstRtpBurstPaceCongestionControl:
 *
 * The controller #GstRtpBurstPace:congestion-control feeds with the
 * receiver's transport-wide congestion control feedback: `none`, `gcc` or
 * `tfrc`.
 *
 * Since: 0.1
 */
GType
gst_rtp_burst_pace_congestion_control_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_RTP_BURST_PACE_CONGESTION_CONTROL_NONE,
        "No congestion control: the feedback is ignored", "none"},
    {GST_RTP_BURST_PACE_CONGESTION_CONTROL_GCC,
        "Google Congestion Control (draft-ietf-rmcat-gcc-02): delay and "
          "loss based", "gcc"},
    {GST_RTP_BURST_PACE_CONGESTION_CONTROL_TFRC,
        "TCP-Friendly Rate Control (RFC 5348): the rate of a TCP flow on "
          "the same path, smoother", "tfrc"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstRtpBurstPaceCongestionControl",
        values);

    g_once_init_leave (&type, t);
  }
  return type;
}

void
gst_rtp_burst_cc_init (GstRtpBurstCc * cc)
{
  g_mutex_init (&cc->lock);
  cc->mode = DEFAULT_CONGESTION_CONTROL;
  cc->min_bitrate = DEFAULT_MIN_BITRATE;
  cc->max_bitrate = DEFAULT_MAX_BITRATE;
  cc->start_bitrate = DEFAULT_START_BITRATE;
  cc->gcc = NULL;
  cc->tfrc = NULL;
  cc->pkts = g_array_new (FALSE, FALSE, sizeof (RtpBurstFeedbackPacket));
  cc->have_seq = FALSE;
  cc->last_seq = 0;
  cc->estimate = cc->posted = 0;
  cc->reports = cc->packets = cc->invalid = 0;
  cc->active = cc->have_feedback = cc->warned = FALSE;
  cc->first_push = GST_CLOCK_TIME_NONE;
  cc->timer = FALSE;
  cc->unsent = 0;
  rtp_burst_rtt_init (&cc->rtt);
  cc->probe = NULL;
  cc->probing = FALSE;
  cc->probe_result = 0;
}

static void
free_controller (GstRtpBurstCc * cc)
{
  g_clear_pointer (&cc->gcc, rtp_burst_gcc_free);
  g_clear_pointer (&cc->tfrc, rtp_burst_tfrc_free);
  g_clear_pointer (&cc->probe, rtp_burst_probe_free);
}

void
gst_rtp_burst_cc_clear (GstRtpBurstCc * cc)
{
  /* (as the element's finalize does for its lock: orders what was done
   * under it before the clean-up) */
  CC_LOCK (cc);
  free_controller (cc);
  CC_UNLOCK (cc);
  g_array_unref (cc->pkts);
  TSAN_DESTROY (&cc->lock);
  g_mutex_clear (&cc->lock);
}

gboolean
gst_rtp_burst_cc_set_property (GstRtpBurstCc * cc, guint prop_id,
    const GValue * value)
{
  CC_LOCK (cc);
  switch (prop_id) {
    case PROP_CONGESTION_CONTROL:
      cc->mode = g_value_get_enum (value);
      break;
    case PROP_MIN_BITRATE:
      cc->min_bitrate = g_value_get_uint64 (value);
      break;
    case PROP_MAX_BITRATE:
      cc->max_bitrate = g_value_get_uint64 (value);
      break;
    case PROP_START_BITRATE:
      cc->start_bitrate = g_value_get_uint64 (value);
      break;
    default:
      CC_UNLOCK (cc);
      return FALSE;
  }
  CC_UNLOCK (cc);
  return TRUE;
}

gboolean
gst_rtp_burst_cc_get_property (GstRtpBurstCc * cc, guint prop_id,
    GValue * value)
{
  CC_LOCK (cc);
  switch (prop_id) {
    case PROP_CONGESTION_CONTROL:
      g_value_set_enum (value, cc->mode);
      break;
    case PROP_MIN_BITRATE:
      g_value_set_uint64 (value, cc->min_bitrate);
      break;
    case PROP_MAX_BITRATE:
      g_value_set_uint64 (value, cc->max_bitrate);
      break;
    case PROP_START_BITRATE:
      g_value_set_uint64 (value, cc->start_bitrate);
      break;
    case PROP_ESTIMATED_BITRATE:
      g_value_set_uint64 (value, cc->estimate);
      break;
    default:
      CC_UNLOCK (cc);
      return FALSE;
  }
  CC_UNLOCK (cc);
  return TRUE;
}

gboolean
gst_rtp_burst_cc_start (GstRtpBurstCc * cc)
{
  gboolean changed;

  CC_LOCK (cc);
  free_controller (cc);
  if (cc->mode == GST_RTP_BURST_PACE_CONGESTION_CONTROL_GCC) {
    RtpBurstGccConfig c;

    c.min_rate = cc->min_bitrate;
    c.max_rate = cc->max_bitrate;
    c.start_rate = cc->start_bitrate;
    cc->gcc = rtp_burst_gcc_new (&c);
    /* the fast start: two frames, at 3 and 6 x the start rate (none
     * that max-bitrate keeps at the start rate), from the first report
     * on: the first frames leave as the pipeline starts (a synchronising
     * sink's preroll held the first push ~180 ms on loopback, which made
     * the cluster's send rate a fiction), and nothing is known before */
    cc->probe = rtp_burst_probe_new ();
    if (cc->start_bitrate == 0 || !rtp_burst_probe_plan_start (cc->probe,
            cc->start_bitrate, cc->max_bitrate))
      g_clear_pointer (&cc->probe, rtp_burst_probe_free);
  } else if (cc->mode == GST_RTP_BURST_PACE_CONGESTION_CONTROL_TFRC) {
    RtpBurstTfrcConfig c;

    c.segment_size = 0;
    c.min_rate = cc->min_bitrate;
    c.max_rate = cc->max_bitrate;
    c.start_rate = cc->start_bitrate;
    cc->tfrc = rtp_burst_tfrc_new (&c);
  }
  cc->have_seq = FALSE;
  cc->last_seq = 0;
  rtp_burst_rtt_init (&cc->rtt);
  changed = cc->estimate != 0;
  cc->estimate = cc->posted = 0;
  cc->reports = cc->packets = cc->invalid = 0;
  cc->first_push = GST_CLOCK_TIME_NONE;
  g_atomic_int_set (&cc->have_feedback, FALSE);
  g_atomic_int_set (&cc->warned, FALSE);
  g_atomic_int_set (&cc->active, cc->gcc != NULL || cc->tfrc != NULL);
  g_atomic_int_set (&cc->timer, cc->tfrc != NULL);
  g_atomic_pointer_set (&cc->unsent, 0);
  cc->probe_result = 0;
  g_atomic_int_set (&cc->probing, FALSE);
  CC_UNLOCK (cc);
  return changed;
}

/* --- the event ----------------------------------------------------------- */

/* The n-th value of the list in @v (a GValueArray as 1.22's rtpsession
 * makes it, or a GstValueArray / GstValueList); NULL past its end. */
static const GValue *
list_nth (const GValue * v, guint n)
{
  const GValue *nth = NULL;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  if (G_VALUE_HOLDS (v, g_value_array_get_type ())) {
    GValueArray *array = g_value_get_boxed (v);

    if (array && n < array->n_values)
      nth = g_value_array_get_nth (array, n);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS;
  if (GST_VALUE_HOLDS_ARRAY (v) && n < gst_value_array_get_size (v))
    nth = gst_value_array_get_value (v, n);
  else if (GST_VALUE_HOLDS_LIST (v) && n < gst_value_list_get_size (v))
    nth = gst_value_list_get_value (v, n);
  return nth;
}

/* One RTPTWCCPacket into @pkt, its seq the 16-bit seqnum; FALSE if a field
 * is missing or of another type.  *@known: the sender still knew the
 * packet (local-ts is valid). */
static gboolean
read_packet (const GValue * v, RtpBurstFeedbackPacket * pkt, gboolean * known)
{
  const GstStructure *s;
  guint seqnum, size;
  guint64 local_ts, remote_ts;
  gboolean lost;

  if (v == NULL || !GST_VALUE_HOLDS_STRUCTURE (v) ||
      (s = gst_value_get_structure (v)) == NULL)
    return FALSE;
  if (!gst_structure_get_uint (s, "seqnum", &seqnum) ||
      !gst_structure_get_uint64 (s, "local-ts", &local_ts) ||
      !gst_structure_get_uint64 (s, "remote-ts", &remote_ts) ||
      !gst_structure_get_uint (s, "size", &size) ||
      !gst_structure_get_boolean (s, "lost", &lost))
    return FALSE;
  pkt->seq = seqnum & 0xffff;
  pkt->send_time = local_ts;
  /* received without an arrival time: of no use but as lost */
  pkt->arrival = lost || !GST_CLOCK_TIME_IS_VALID (remote_ts) ?
      RTP_BURST_TIME_NONE : remote_ts;
  pkt->size = size;
  *known = GST_CLOCK_TIME_IS_VALID (local_ts);
  return TRUE;
}

/* The packets of @s into cc->pkts, their seq still 16 bits; only those the
 * sender knew.  FALSE if @s has no list of packets, an empty one or a
 * packet that is not an RTPTWCCPacket. */
static gboolean
read_event (GstRtpBurstCc * cc, const GstStructure * s)
{
  const GValue *list = gst_structure_get_value (s, "packets");
  const GValue *v;
  guint i;

  g_array_set_size (cc->pkts, 0);
  if (list == NULL || list_nth (list, 0) == NULL)
    return FALSE;
  for (i = 0; (v = list_nth (list, i)) != NULL; i++) {
    RtpBurstFeedbackPacket pkt;
    gboolean known;

    if (!read_packet (v, &pkt, &known))
      return FALSE;
    if (known)
      g_array_append_val (cc->pkts, pkt);
  }
  return TRUE;
}

/* The nearest 64-bit sequence number to the highest seen so far that has
 * the 16 bits @seq.  The first starts at 65536 + @seq, so that older
 * packets reported later stay above 0. */
static guint64
unwrap_seq (GstRtpBurstCc * cc, guint64 seq)
{
  gint16 diff;
  guint64 u;

  if (!cc->have_seq) {
    cc->have_seq = TRUE;
    cc->last_seq = G_GUINT64_CONSTANT (65536) + seq;
    return cc->last_seq;
  }
  diff = (gint16) (guint16) (seq - cc->last_seq);
  u = cc->last_seq + diff;
  if (diff > 0)
    cc->last_seq = u;
  return u;
}

static gint
compare_seq (gconstpointer a, gconstpointer b)
{
  const RtpBurstFeedbackPacket *pa = a, *pb = b;

  return pa->seq < pb->seq ? -1 : pa->seq > pb->seq;
}

/* TFRC: the bytes the pacing thread pushed since, as sent at @now. */
static void
give_sent_locked (GstRtpBurstCc * cc, guint64 now)
{
  gsize bytes = (gsize) g_atomic_pointer_and (&cc->unsent, 0);

  if (bytes > 0)
    rtp_burst_tfrc_on_sent (cc->tfrc, bytes, now);
}

/* The fast start's probe, given the report: a result above the estimate
 * raises it. */
static void
probe_feedback_locked (GstRtpBurstCc * cc,
    const RtpBurstFeedbackPacket * pkts, guint n, guint64 now)
{
  guint64 res;

  if (cc->probe == NULL || rtp_burst_probe_idle (cc->probe))
    return;
  res = rtp_burst_probe_on_feedback (cc->probe, pkts, n, now);
  if (res > 0) {
    cc->probe_result = res;
    rtp_burst_gcc_probe_result (cc->gcc, res);
  }
  if (rtp_burst_probe_idle (cc->probe)) {
    guint i;

    g_atomic_int_set (&cc->probing, FALSE);
    for (i = 0; i < rtp_burst_probe_n_clusters (cc->probe); i++) {
      const RtpBurstProbeCluster *c = rtp_burst_probe_cluster (cc->probe, i);

      GST_DEBUG ("fast start: cluster %u at %" G_GUINT64_FORMAT " bit/s %s: "
          "%u packets sent, %u in the feedback; sent at %" G_GUINT64_FORMAT
          ", received at %" G_GUINT64_FORMAT ", result %" G_GUINT64_FORMAT
          " bit/s", i, c->rate,
          c->state == RTP_BURST_PROBE_DONE ? "done" : "failed", c->n_sent,
          c->n_received, c->send_rate, c->receive_rate, c->result);
    }
  }
}

/* Feeds cc->pkts (read_event) to the controller at @now, with the round
 * trip measured from them; the new estimate. */
static guint64
feed_locked (GstRtpBurstCc * cc, guint64 now)
{
  RtpBurstFeedbackPacket *pkts = (RtpBurstFeedbackPacket *) cc->pkts->data;
  guint n = cc->pkts->len, i;
  guint64 rtt;

  for (i = 0; i < n; i++)
    pkts[i].seq = unwrap_seq (cc, pkts[i].seq);
  g_array_sort (cc->pkts, compare_seq);
  cc->reports++;
  cc->packets += n;
  rtt = rtp_burst_rtt_update (&cc->rtt, pkts, n, now);

  if (cc->gcc) {
    rtp_burst_gcc_on_feedback (cc->gcc, pkts, n, now, rtt);
    if (cc->reports == 1 && cc->probe != NULL)
      g_atomic_int_set (&cc->probing, TRUE);
    else
      probe_feedback_locked (cc, pkts, n, now);
    return rtp_burst_gcc_target (cc->gcc);
  }
  give_sent_locked (cc, now);
  /* a timer that expired while nothing was pushed expires before the
   * report counts (the pushes run it otherwise) */
  if (cc->reports > 1)
    rtp_burst_tfrc_tick (cc->tfrc, now);
  rtp_burst_tfrc_on_feedback (cc->tfrc, pkts, n, now, rtt);
  return rtp_burst_tfrc_rate (cc->tfrc);
}

/* GCC's state after a report, in the log. */
static void
log_gcc_locked (GstElement * element, GstRtpBurstCc * cc)
{
  RtpBurstGccReport r;

  if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) < GST_LEVEL_LOG)
    return;
  rtp_burst_gcc_report (cc->gcc, &r);
  GST_LOG_OBJECT (element, "gcc: %s, %s, gradient %.2f ms, threshold %.2f "
      "ms, received %" G_GUINT64_FORMAT ", delay-based %" G_GUINT64_FORMAT
      ", loss-based %" G_GUINT64_FORMAT " (loss %.3f), floor %"
      G_GUINT64_FORMAT " bit/s (p %.5f), loss model %" G_GUINT64_FORMAT
      " bit/s (inherent %.2f)", rtp_burst_gcc_signal_name (r.signal),
      rtp_burst_gcc_state_name (r.state), r.gradient, r.threshold,
      r.received_rate, r.delay_rate, r.loss_rate, r.loss, r.floor_rate,
      r.loss_event_rate, r.model_rate, r.model_inherent);
}

/* Now on the clock of the event's local-ts: the sending rtpsession's
 * system clock. */
guint64
gst_rtp_burst_cc_now (void)
{
  GstClock *sysclock = gst_system_clock_obtain ();
  GstClockTime now = gst_clock_get_time (sysclock);

  gst_object_unref (sysclock);
  return GST_CLOCK_TIME_IS_VALID (now) ? now : RTP_BURST_TIME_NONE;
}

/* The controller's estimate is @estimate: kept, and given to @apply, if
 * it changed (TRUE).  *@post: a message is due (it moved by more than
 * GST_RTP_BURST_CC_MESSAGE_CHANGE since the last one). */
static gboolean
set_estimate_locked (GstRtpBurstCc * cc, guint64 estimate,
    GstRtpBurstCcApply apply, gpointer user_data, gboolean * post)
{
  gboolean changed = estimate != cc->estimate;

  if (changed) {
    cc->estimate = estimate;
    if (apply)
      apply (estimate, user_data);
  }
  *post = cc->posted == 0 || (gdouble) estimate >
      (1.0 + GST_RTP_BURST_CC_MESSAGE_CHANGE) * cc->posted ||
      (gdouble) estimate < (1.0 - GST_RTP_BURST_CC_MESSAGE_CHANGE) * cc->posted;
  if (*post)
    cc->posted = estimate;
  return changed;
}

/* Without any lock: the notification and the message of a new estimate. */
static void
announce (GstElement * element, gboolean changed, gboolean post,
    guint64 estimate)
{
  if (changed)
    g_object_notify (G_OBJECT (element), "estimated-bitrate");
  if (post) {
    GST_DEBUG_OBJECT (element, "estimate %" G_GUINT64_FORMAT " bit/s",
        estimate);
    gst_element_post_message (element,
        gst_message_new_element (GST_OBJECT_CAST (element),
            gst_structure_new (GST_RTP_BURST_CC_MESSAGE_NAME,
                "estimated-bitrate", G_TYPE_UINT64, estimate, NULL)));
  }
}

gboolean
gst_rtp_burst_cc_handle_event (GstRtpBurstCc * cc, GstElement * element,
    GstEvent * event, GstRtpBurstCcApply apply, gpointer user_data)
{
  const GstStructure *s;
  gboolean changed = FALSE, post = FALSE;
  guint64 estimate = 0, now;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_UPSTREAM ||
      !gst_event_has_name (event, GST_RTP_BURST_CC_EVENT_NAME))
    return FALSE;
  g_atomic_int_set (&cc->have_feedback, TRUE);
  if (!g_atomic_int_get (&cc->active))
    return TRUE;
  s = gst_event_get_structure (event);
  now = gst_rtp_burst_cc_now ();

  CC_LOCK (cc);
  if (cc->gcc == NULL && cc->tfrc == NULL) {
    /* (stopped meanwhile) */
  } else if (now == RTP_BURST_TIME_NONE || !read_event (cc, s)) {
    cc->invalid++;
    GST_DEBUG_OBJECT (element, "ignoring feedback: %" GST_PTR_FORMAT, s);
  } else if (cc->pkts->len > 0) {
    estimate = feed_locked (cc, now);
    GST_LOG_OBJECT (element, "%u packets of feedback: estimate %"
        G_GUINT64_FORMAT " bit/s, round trip %" GST_TIME_FORMAT,
        cc->pkts->len, estimate, GST_TIME_ARGS (rtp_burst_rtt_get (&cc->rtt)));
    if (cc->gcc)
      log_gcc_locked (element, cc);
    changed = set_estimate_locked (cc, estimate, apply, user_data, &post);
  }
  CC_UNLOCK (cc);

  announce (element, changed, post, estimate);
  return TRUE;
}

/* --- after a push -------------------------------------------------------- */

/* TFRC: the bytes pushed, then its nofeedback timer (once a report came:
 * before, the estimate is not in force, and a late receiver should not
 * find the start rate halved). */
static void
run_timer (GstRtpBurstCc * cc, GstElement * element, guint64 bytes,
    GstRtpBurstCcApply apply, gpointer user_data)
{
  gboolean changed = FALSE, post = FALSE;
  guint64 estimate = 0, now;

  if (!g_atomic_int_get (&cc->timer))
    return;
  if (bytes > 0)
    g_atomic_pointer_add (&cc->unsent, (gssize) MIN (bytes, G_MAXSSIZE));
  /* a report being read: it takes the bytes */
  if (!rtp_burst_mutex_trylock (&cc->lock))
    return;
  now = gst_rtp_burst_cc_now ();
  if (cc->tfrc && now != RTP_BURST_TIME_NONE) {
    give_sent_locked (cc, now);
    if (cc->reports > 0) {
      rtp_burst_tfrc_tick (cc->tfrc, now);
      estimate = rtp_burst_tfrc_rate (cc->tfrc);
      changed = set_estimate_locked (cc, estimate, apply, user_data, &post);
    }
  }
  CC_UNLOCK (cc);

  if (changed)
    GST_DEBUG_OBJECT (element, "no feedback in time: estimate %"
        G_GUINT64_FORMAT " bit/s", estimate);
  announce (element, changed, post, estimate);
}

/* The warning when no feedback comes.  Takes no lock. */
static void
check_feedback (GstRtpBurstCc * cc, GstElement * element, guint64 now)
{
  if (now == RTP_BURST_TIME_NONE || !g_atomic_int_get (&cc->active) ||
      g_atomic_int_get (&cc->have_feedback) || g_atomic_int_get (&cc->warned))
    return;
  if (cc->first_push == GST_CLOCK_TIME_NONE || now < cc->first_push) {
    cc->first_push = now;
    return;
  }
  if (now - cc->first_push < GST_RTP_BURST_CC_FEEDBACK_TIMEOUT ||
      !g_atomic_int_compare_and_exchange (&cc->warned, FALSE, TRUE))
    return;
  GST_ELEMENT_WARNING (element, STREAM, FAILED,
      ("The receiver sends no transport-wide congestion control feedback: "
          "pacing without congestion control."),
      ("No RTPTWCCPackets event in %" GST_TIME_FORMAT " of PLAYING with "
          "packets sent. The element must be before rtpbin's send_rtp_sink, "
          "the packets must carry the transport-wide-cc header extension "
          "and the receiver's caps must have it too.",
          GST_TIME_ARGS (now - cc->first_push)));
}

void
gst_rtp_burst_cc_pushed (GstRtpBurstCc * cc, GstElement * element,
    guint64 now, guint64 bytes, GstRtpBurstCcApply apply, gpointer user_data)
{
  check_feedback (cc, element, now);
  run_timer (cc, element, bytes, apply, user_data);
}

/* --- the fast start's probe --------------------------------------------- */

guint64
gst_rtp_burst_cc_probe_rate (GstRtpBurstCc * cc)
{
  guint64 rate = 0;

  if (!g_atomic_int_get (&cc->probing))
    return 0;
  CC_LOCK (cc);
  if (cc->probe)
    rate = rtp_burst_probe_rate (cc->probe);
  CC_UNLOCK (cc);
  return rate;
}

void
gst_rtp_burst_cc_probe_sent (GstRtpBurstCc * cc, guint n_packets,
    guint64 bytes, guint64 start, guint64 end, gboolean frame_last)
{
  CC_LOCK (cc);
  if (cc->probe) {
    rtp_burst_probe_on_sent (cc->probe, n_packets, bytes, start, end);
    if (frame_last)
      rtp_burst_probe_close (cc->probe);
  }
  CC_UNLOCK (cc);
}

/* --- stats --------------------------------------------------------------- */

void
gst_rtp_burst_cc_add_stats (GstRtpBurstCc * cc, GstStructure * s)
{
  guint64 estimate, reports, packets, invalid, rtt, probe, lost = 0;

  CC_LOCK (cc);
  if (cc->gcc) {
    RtpBurstGccReport r;

    rtp_burst_gcc_report (cc->gcc, &r);
    lost = r.lost;
  } else if (cc->tfrc) {
    RtpBurstTfrcReport r;

    rtp_burst_tfrc_report (cc->tfrc, &r);
    lost = r.lost;
  }
  estimate = cc->estimate;
  reports = cc->reports;
  packets = cc->packets;
  invalid = cc->invalid;
  rtt = rtp_burst_rtt_get (&cc->rtt);
  probe = cc->probe_result;
  CC_UNLOCK (cc);

  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_ESTIMATED_BITRATE,
      estimate);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_FEEDBACK_REPORTS,
      reports);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_FEEDBACK_PACKETS,
      packets);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_LOST_PACKETS, lost);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_INVALID_FEEDBACK,
      invalid);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_RTT,
      rtt == RTP_BURST_TIME_NONE ? 0 : rtt);
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_CC_PROBE_BITRATE,
      probe);
}
