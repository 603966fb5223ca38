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


/**
 * SECTION:element-rtpbursttxsink
 * @title: rtpbursttxsink
 *
 * Sends each buffer as one UDP datagram to #GstRtpBurstTxSink:host and
 * #GstRtpBurstTxSink:port, as udpsink does, but hands its release time to
 * the kernel instead of waiting for it: each packet goes out at once with
 * a `SCM_TXTIME` control message, and the socket's qdisc holds it until
 * then.  The `fq` qdisc (Linux 4.20 and later; the default of many
 * distributions and servers) does this on CLOCK_MONOTONIC, `etf` on the
 * clock it was configured with, usually CLOCK_TAI
 * (#GstRtpBurstTxSink:txtime-clock).  One hrtimer in the kernel then
 * releases the packets, where a synchronising sink wakes a thread for each.
 *
 * A buffer's release time is the instant a synchronising sink would render
 * it: the running time of its DTS, else its PTS, plus the latency, the
 * #GstBaseSink:ts-offset, less the #GstBaseSink:render-delay, plus the base
 * time, on the pipeline clock.  It is moved to the kernel's clock exactly
 * where the pipeline clock is a #GstSystemClock of that clock-type
 * (GStreamer's default clock is CLOCK_MONOTONIC, so with fq nothing is
 * converted), else by the kernel clock's time read between two readings of
 * the pipeline clock, once per buffer or buffer list: so a
 * CLOCK_MONOTONIC system clock gets the current CLOCK_TAI - CLOCK_MONOTONIC
 * for etf, and any other clock (a network clock, a #GstTestClock) its
 * current offset from the kernel's.
 *
 * #GstBaseSink:sync is FALSE by default: the kernel paces.  As it starts,
 * the sink asks the kernel (rtnetlink) which device the destination is
 * routed through and that device's qdisc: the release times are in force
 * where it is fq or etf, or mq, mqprio or taprio with fq or etf on every
 * queue the packets can take.  Where they are not (a qdisc that sends
 * packets as they come: pfifo_fast, noqueue, fq_codel...; the kernel could
 * not be asked; #GstRtpBurstTxSink:txtime is FALSE; the kernel refused
 * SO_TXTIME: CLOCK_TAI needs CAP_NET_ADMIN, kernels before 4.19 lack it),
 * the sink warns once (not for `txtime=false`) and turns #GstBaseSink:sync
 * on while it runs, so that the packets still leave at their times, paced
 * by this thread.  #GstRtpBurstTxSink:txtime-check overrides the qdisc
 * check.  Where etf is on some of those queues and not on others, the
 * sink keeps the release times (etf would drop the packets it sent
 * without) and warns; it warns too where the qdisc's clock is not
 * #GstRtpBurstTxSink:txtime-clock.
 *
 * The socket is opened, SO_TXTIME set and the qdisc checked as the sink
 * starts (NULL to READY); the properties are read then.  At EOS the sink
 * waits on the clock for the last release time it handed to the kernel
 * (unless flushing), so that EOS means the packets left, as with a
 * synchronising sink.  The socket's error queue is read then and a last
 * time as the sink stops (READY to NULL).
 *
 * etf drops packets it gets too late to send at their time
 * (`txtime-invalid`) or cannot send in time (`txtime-missed`); the kernel
 * reports those on the socket's error queue, which the sink reads after
 * each send: counts in #GstRtpBurstTxSink:stats and one warning.  The sink
 * goes on handing release times over then: its fallback sends packets
 * without one, which etf drops.  docs/txtime.md has the details.
 *
 * ## Example launch lines
 * |[
 * tc qdisc replace dev eth0 root fq
 * gst-launch-1.0 videotestsrc is-live=true ! x264enc tune=zerolatency ! \
 *     rtph264pay ! rtpburstpace ! rtpbursttxsink host=192.0.2.1 port=5000
 * ]| Paced H.264 through fq.
 * |[
 * tc qdisc replace dev eth0 parent root handle 100 mqprio num_tc 1 \
 *     map 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 queues 1@0 hw 0
 * tc qdisc add dev eth0 parent 100:1 etf clockid CLOCK_TAI delta 2000000
 * gst-launch-1.0 ... ! rtpbursttxsink host=192.0.2.1 port=5000 \
 *     txtime-clock=tai
 * ]| Through etf, as root (CAP_NET_ADMIN).
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "gstrtpburstlock.h"
#include "gstrtpbursttxsink.h"
#include "gstrtpbursttxegress.h"
#include "gstrtpbursttxsocket.h"
#include "gstrtpbursttxstats.h"
#include "gstrtpbursttxtiming.h"

GST_DEBUG_CATEGORY (rtp_burst_tx_sink_debug);
#define GST_CAT_DEFAULT rtp_burst_tx_sink_debug

/* the sink's own lock (gstrtpburstlock.h: seen by ThreadSanitizer) */
#define LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->lock)
#define UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->lock)

#define DEFAULT_HOST "localhost"
#define DEFAULT_PORT 5004
#define DEFAULT_TXTIME TRUE
#define DEFAULT_TXTIME_CLOCK GST_RTP_BURST_TX_CLOCK_MONOTONIC
#define DEFAULT_TXTIME_CHECK GST_RTP_BURST_TX_CHECK_AUTO

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_TXTIME,
  PROP_TXTIME_CLOCK,
  PROP_TXTIME_CHECK,
  PROP_TXTIME_ACTIVE,
  PROP_STATS,
};

struct _GstRtpBurstTxSink
{
  GstBaseSink parent;

  GMutex lock;

  /* properties, lock */
  gchar *host;
  gint port;
  gboolean txtime;
  GstRtpBurstTxClock txtime_clock;
  GstRtpBurstTxCheck txtime_check;

  /* from start () to stop (); set there, read by the streaming thread */
  gint fd;
  struct sockaddr_storage addr;
  socklen_t addr_len;
  clockid_t kernel_clock;
  gboolean sync_changed;        /* start () turned sync on */
  gboolean warned_send, warned_missed;
  GstClockTime last_release;    /* the latest, on the pipeline clock */

  /* lock */
  gboolean txtime_active;
  GstRtpBurstTxStats stats;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS_ANY);

#define gst_rtp_burst_tx_sink_parent_class parent_class
G_DEFINE_TYPE (GstRtpBurstTxSink, gst_rtp_burst_tx_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (rtpbursttxsink, "rtpbursttxsink",
    GST_RANK_NONE, GST_TYPE_RTP_BURST_TX_SINK,
    GST_DEBUG_CATEGORY_INIT (rtp_burst_tx_sink_debug, "rtpbursttxsink", 0,
        "UDP sink that hands release times to the kernel"));

static void gst_rtp_burst_tx_sink_finalize (GObject * object);
static void gst_rtp_burst_tx_sink_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_rtp_burst_tx_sink_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_rtp_burst_tx_sink_start (GstBaseSink * sink);
static gboolean gst_rtp_burst_tx_sink_stop (GstBaseSink * sink);
static GstFlowReturn gst_rtp_burst_tx_sink_render (GstBaseSink * sink,
    GstBuffer * buffer);
static GstFlowReturn gst_rtp_burst_tx_sink_render_list (GstBaseSink * sink,
    GstBufferList * list);
static GstFlowReturn gst_rtp_burst_tx_sink_wait_event (GstBaseSink * sink,
    GstEvent * event);
static void drain_errors (GstRtpBurstTxSink * self);

static void
gst_rtp_burst_tx_sink_class_init (GstRtpBurstTxSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_rtp_burst_tx_sink_finalize;
  gobject_class->set_property = gst_rtp_burst_tx_sink_set_property;
  gobject_class->get_property = gst_rtp_burst_tx_sink_get_property;

  /**
   * GstRtpBurstTxSink:host:
   *
   * The host or IP address to send to, resolved when the sink starts
   * (NULL to READY, as GstBaseSink starts); the first address the resolver
   * gives is used.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_HOST,
      g_param_spec_string ("host", "Host",
          "The host or IP address to send the packets to",
          DEFAULT_HOST, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:port:
   *
   * The UDP port to send to.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_int ("port", "Port", "The UDP port to send the packets to",
          0, 65535, DEFAULT_PORT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:txtime:
   *
   * Whether to ask the kernel for SO_TXTIME.  FALSE makes the sink a
   * synchronising UDP sink (it turns #GstBaseSink:sync on while it runs),
   * to compare with.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_TXTIME,
      g_param_spec_boolean ("txtime", "Release times to the kernel",
          "Give each packet its release time (SO_TXTIME); FALSE: wait for "
          "it on the clock, as udpsink does", DEFAULT_TXTIME,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:txtime-clock:
   *
   * The kernel clock of the release times, which must be the egress
   * qdisc's: `monotonic` for fq, the etf qdisc's `clockid` for etf
   * (usually `tai`).  fq reads a CLOCK_TAI time as a CLOCK_MONOTONIC one,
   * decades ahead, and drops the packet (beyond its horizon).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_TXTIME_CLOCK,
      g_param_spec_enum ("txtime-clock", "Release time clock",
          "The kernel clock of the release times: the egress qdisc's "
          "(monotonic for fq, usually tai for etf)",
          GST_TYPE_RTP_BURST_TX_CLOCK, DEFAULT_TXTIME_CLOCK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:txtime-check:
   *
   * Whether to check, as the sink starts, that the qdisc of the device the
   * destination is routed through paces: `auto` falls back to waiting on
   * the clock (with a warning) where it does not or where the kernel
   * cannot be asked; `force` hands the release times over whatever the
   * qdisc (the check still fills the stats), for a qdisc the check does
   * not know or a route that changes after the start.  Read as the sink
   * starts (NULL to READY).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_TXTIME_CHECK,
      g_param_spec_enum ("txtime-check", "Check the egress qdisc",
          "Whether release times need an egress qdisc that paces (fq, etf; "
          "else the sink waits on the clock): auto, or force to use them "
          "whatever the qdisc", GST_TYPE_RTP_BURST_TX_CHECK,
          DEFAULT_TXTIME_CHECK, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:txtime-active:
   *
   * TRUE while the release times are in force: the socket took SO_TXTIME
   * and the egress qdisc paces (fq or etf on every queue), or
   * #GstRtpBurstTxSink:txtime-check is `force`.  FALSE: the sink waits on
   * the clock itself (#GstBaseSink:sync on); the stats' `qdisc` and
   * `egress` say which qdisc was found.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_TXTIME_ACTIVE,
      g_param_spec_boolean ("txtime-active", "Release times in force",
          "Whether the kernel paces the packets (SO_TXTIME and an fq or etf "
          "qdisc; FALSE: the sink waits on the clock itself)", FALSE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstTxSink:stats:
   *
   * A #GstStructure named application/x-rtp-burst-tx-sink-stats with the
   * sink's counters since it last started (NULL to READY).  The
   * description of this property (`gst-inspect-1.0 rtpbursttxsink`) lists
   * every field with its type and meaning.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          gst_rtp_burst_tx_stats_blurb (), GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_NAME | G_PARAM_STATIC_NICK |
          G_PARAM_STATIC_BLURB));

  gst_type_mark_as_plugin_api (GST_TYPE_RTP_BURST_TX_CLOCK, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_RTP_BURST_TX_CHECK, 0);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "UDP sink with kernel release times", "Sink/Network",
      "Sends UDP packets with their release times (SO_TXTIME), for the fq "
      "or etf qdisc to pace them", "The rtpburstpace authors");

  basesink_class->start = GST_DEBUG_FUNCPTR (gst_rtp_burst_tx_sink_start);
  basesink_class->stop = GST_DEBUG_FUNCPTR (gst_rtp_burst_tx_sink_stop);
  basesink_class->render = GST_DEBUG_FUNCPTR (gst_rtp_burst_tx_sink_render);
  basesink_class->render_list =
      GST_DEBUG_FUNCPTR (gst_rtp_burst_tx_sink_render_list);
  basesink_class->wait_event =
      GST_DEBUG_FUNCPTR (gst_rtp_burst_tx_sink_wait_event);
}

static void
gst_rtp_burst_tx_sink_init (GstRtpBurstTxSink * self)
{
  self->host = g_strdup (DEFAULT_HOST);
  self->port = DEFAULT_PORT;
  self->txtime = DEFAULT_TXTIME;
  self->txtime_clock = DEFAULT_TXTIME_CLOCK;
  self->txtime_check = DEFAULT_TXTIME_CHECK;
  gst_rtp_burst_tx_stats_reset (&self->stats);
  self->fd = -1;
  g_mutex_init (&self->lock);
  /* the kernel paces */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}

static void
gst_rtp_burst_tx_sink_finalize (GObject * object)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (object);

  g_free (self->host);
  gst_rtp_burst_tx_stats_clear (&self->stats);
  TSAN_DESTROY (&self->lock);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstStructure *
stats_new (GstRtpBurstTxSink * self)
{
  GstStructure *s;

  LOCK (self);
  s = gst_rtp_burst_tx_stats_to_structure (&self->stats, self->txtime_active,
      self->txtime_clock == GST_RTP_BURST_TX_CLOCK_TAI ? "tai" : "monotonic");
  UNLOCK (self);
  return s;
}

static void
gst_rtp_burst_tx_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (object);

  LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_free (self->host);
      self->host = g_value_dup_string (value);
      break;
    case PROP_PORT:
      self->port = g_value_get_int (value);
      break;
    case PROP_TXTIME:
      self->txtime = g_value_get_boolean (value);
      break;
    case PROP_TXTIME_CLOCK:
      self->txtime_clock = g_value_get_enum (value);
      break;
    case PROP_TXTIME_CHECK:
      self->txtime_check = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  UNLOCK (self);
}

static void
gst_rtp_burst_tx_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (object);

  switch (prop_id) {
    case PROP_HOST:
      LOCK (self);
      g_value_set_string (value, self->host);
      UNLOCK (self);
      break;
    case PROP_PORT:
      LOCK (self);
      g_value_set_int (value, self->port);
      UNLOCK (self);
      break;
    case PROP_TXTIME:
      LOCK (self);
      g_value_set_boolean (value, self->txtime);
      UNLOCK (self);
      break;
    case PROP_TXTIME_CLOCK:
      LOCK (self);
      g_value_set_enum (value, self->txtime_clock);
      UNLOCK (self);
      break;
    case PROP_TXTIME_CHECK:
      LOCK (self);
      g_value_set_enum (value, self->txtime_check);
      UNLOCK (self);
      break;
    case PROP_TXTIME_ACTIVE:
      LOCK (self);
      g_value_set_boolean (value, self->txtime_active);
      UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, stats_new (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static gboolean
gst_rtp_burst_tx_sink_start (GstBaseSink * sink)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (sink);
  gchar *host;
  gint port;
  gboolean want;
  GstRtpBurstTxClock which;
  GstRtpBurstTxCheck check;
  gboolean active = FALSE;
  gchar *qdisc = NULL, device[16];

  LOCK (self);
  host = g_strdup (self->host);
  port = self->port;
  want = self->txtime;
  which = self->txtime_clock;
  check = self->txtime_check;
  gst_rtp_burst_tx_stats_reset (&self->stats);
  UNLOCK (self);

  self->warned_send = self->warned_missed = FALSE;
  self->last_release = GST_CLOCK_TIME_NONE;
  self->kernel_clock = which == GST_RTP_BURST_TX_CLOCK_TAI ?
      CLOCK_TAI : CLOCK_MONOTONIC;
  self->fd = gst_rtp_burst_tx_socket_open (GST_ELEMENT (self),
      host ? host : DEFAULT_HOST, port, &self->addr, &self->addr_len);
  if (self->fd < 0) {
    g_free (host);
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "sending to %s:%d", host, port);
  g_free (host);

  if (want)
    active = gst_rtp_burst_tx_socket_set_txtime (GST_ELEMENT (self),
        self->fd, self->kernel_clock);
  if (active) {
    /* the egress qdisc paces them, or they are forced */
    active = gst_rtp_burst_tx_egress_check (GST_ELEMENT (self),
        (struct sockaddr *) &self->addr, check, self->kernel_clock, &qdisc,
        device);
  }
  LOCK (self);
  if (qdisc)
    gst_rtp_burst_tx_stats_set_egress (&self->stats, qdisc, device);
  self->txtime_active = active;
  UNLOCK (self);
  g_free (qdisc);

  /* without release times, pace on the clock as a synchronising sink */
  self->sync_changed = FALSE;
  if (!active && !gst_base_sink_get_sync (sink)) {
    self->sync_changed = TRUE;
    gst_base_sink_set_sync (sink, TRUE);
  }
  GST_INFO_OBJECT (self, "release times %s", active ? "to the kernel" :
      "waited for on the clock");
  /* the streaming thread gets the socket through GStreamer's locks, which
   * ThreadSanitizer cannot see (TSAN_ACQUIRE in the render functions) */
  TSAN_RELEASE (self);
  return TRUE;
}

static gboolean
gst_rtp_burst_tx_sink_stop (GstBaseSink * sink)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (sink);

  /* after the streaming thread's last render */
  TSAN_ACQUIRE (self);
  if (self->fd >= 0) {
    drain_errors (self);
    close (self->fd);
    self->fd = -1;
  }
  if (self->sync_changed) {
    gst_base_sink_set_sync (sink, FALSE);
    self->sync_changed = FALSE;
  }
  LOCK (self);
  self->txtime_active = FALSE;
  UNLOCK (self);
  return TRUE;
}

/* Counts the qdisc's reports of packets it dropped for their release
 * time; one warning. */
static void
drain_errors (GstRtpBurstTxSink * self)
{
  GstRtpBurstTxErrors e;

  gst_rtp_burst_tx_socket_read_errors (GST_ELEMENT (self), self->fd, &e);
  if (e.missed == 0 && e.invalid == 0)
    return;

  LOCK (self);
  self->stats.counters[GST_RTP_BURST_TX_MISSED] += e.missed;
  self->stats.counters[GST_RTP_BURST_TX_INVALID] += e.invalid;
  UNLOCK (self);
  if (!self->warned_missed) {
    self->warned_missed = TRUE;
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("The qdisc dropped packets it could not send at their release "
            "time."), ("%" G_GUINT64_FORMAT " late, %" G_GUINT64_FORMAT
            " with a release time it does not take (the last %"
            G_GUINT64_FORMAT " ns); with etf: a ts-offset on this sink "
            "(packets handed over at their time come late), a larger delta "
            "(packets sent late) or fq; the stats count the next ones",
            e.missed, e.invalid, e.last));
  }
}

static void
send_buffer (GstRtpBurstTxSink * self, GstBuffer * buffer,
    const GstRtpBurstTxTiming * t)
{
  GstClockTime clock_time = GST_CLOCK_TIME_NONE;
  guint64 txtime = 0;
  gboolean timed;
  gsize size = 0;
  gssize sent;
  gint err = 0;

  timed = gst_rtp_burst_tx_timing_buffer (GST_BASE_SINK (self), t, buffer,
      &clock_time, &txtime);
  sent = gst_rtp_burst_tx_socket_send (self->fd, &self->addr, self->addr_len,
      buffer, timed, txtime, &size, &err);
  if (timed && sent >= 0 && (!GST_CLOCK_TIME_IS_VALID (self->last_release)
          || clock_time > self->last_release))
    self->last_release = clock_time;
  LOCK (self);
  gst_rtp_burst_tx_stats_sent (&self->stats, sent >= 0, size, timed, txtime,
      t->kernel_now);
  UNLOCK (self);

  if (sent < 0 && !self->warned_send) {
    /* as udpsink: the stream goes on */
    self->warned_send = TRUE;
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("Could not send a packet of %" G_GSIZE_FORMAT " bytes.", size),
        ("sendmsg: %s; the stats count the next ones", g_strerror (err)));
  }
}

static void
timing_read (GstRtpBurstTxSink * self, GstRtpBurstTxTiming * t)
{
  gboolean active;

  LOCK (self);
  active = self->txtime_active;
  UNLOCK (self);
  gst_rtp_burst_tx_timing_read (GST_BASE_SINK (self), active,
      self->kernel_clock, t);
}

static GstFlowReturn
gst_rtp_burst_tx_sink_render (GstBaseSink * sink, GstBuffer * buffer)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (sink);
  GstRtpBurstTxTiming t;

  TSAN_ACQUIRE (self);
  timing_read (self, &t);
  send_buffer (self, buffer, &t);
  drain_errors (self);
  TSAN_RELEASE (self);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_rtp_burst_tx_sink_render_list (GstBaseSink * sink, GstBufferList * list)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (sink);
  guint i, n = gst_buffer_list_length (list);
  GstRtpBurstTxTiming t;

  TSAN_ACQUIRE (self);
  timing_read (self, &t);
  for (i = 0; i < n; i++)
    send_buffer (self, gst_buffer_list_get (list, i), &t);
  drain_errors (self);
  TSAN_RELEASE (self);
  return GST_FLOW_OK;
}

/* Waits for the last release time, with the PREROLL_LOCK held (released
 * meanwhile), as gst_base_sink_wait_clock () does: the GstClockID in
 * GstBaseSink's clock_id, which a flush or a pause unschedules. */
static GstClockReturn
wait_last_release (GstRtpBurstTxSink * self)
{
  GstBaseSink *sink = GST_BASE_SINK (self);
  GstClockReturn status;
  GstClockID id;

  GST_OBJECT_LOCK (self);
  if (GST_ELEMENT_CLOCK (self) == NULL) {
    GST_OBJECT_UNLOCK (self);
    return GST_CLOCK_BADTIME;
  }
  id = gst_clock_new_single_shot_id (GST_ELEMENT_CLOCK (self),
      self->last_release);
  GST_OBJECT_UNLOCK (self);

  GST_DEBUG_OBJECT (self, "EOS: waiting for the last release time %"
      GST_TIME_FORMAT, GST_TIME_ARGS (self->last_release));
  sink->clock_id = id;
  GST_BASE_SINK_PREROLL_UNLOCK (sink);
  status = gst_clock_id_wait (id, NULL);
  GST_BASE_SINK_PREROLL_LOCK (sink);
  sink->clock_id = NULL;
  gst_clock_id_unref (id);
  return status;
}

/* EOS once the packets handed to the kernel left, as a synchronising sink
 * posts it once it rendered the last buffer: unless flushing. */
static GstFlowReturn
gst_rtp_burst_tx_sink_wait_event (GstBaseSink * sink, GstEvent * event)
{
  GstRtpBurstTxSink *self = GST_RTP_BURST_TX_SINK (sink);
  GstFlowReturn ret;
  GstClockReturn status;

  ret = GST_BASE_SINK_CLASS (parent_class)->wait_event (sink, event);
  if (ret != GST_FLOW_OK || GST_EVENT_TYPE (event) != GST_EVENT_EOS)
    return ret;
  TSAN_ACQUIRE (self);
  if (!GST_CLOCK_TIME_IS_VALID (self->last_release))
    return GST_FLOW_OK;
  do {
    /* in PLAYING: after a pause, again */
    while (sink->need_preroll) {
      ret = gst_base_sink_wait_preroll (sink);
      /* GST_FLOW_CUSTOM_ERROR: a step (GstBaseSink's GST_FLOW_STEP) */
      if (ret != GST_FLOW_OK && ret != GST_FLOW_CUSTOM_ERROR)
        return ret;
    }
    if (sink->flushing)
      return GST_FLOW_FLUSHING;
    status = wait_last_release (self);
    if (sink->flushing)
      return GST_FLOW_FLUSHING;
  } while (status == GST_CLOCK_UNSCHEDULED);
  /* the qdisc's last reports, before EOS */
  drain_errors (self);
  TSAN_RELEASE (self);
  return GST_FLOW_OK;
}
