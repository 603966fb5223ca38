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
 * #GstBaseSink:sync is FALSE by default: the kernel paces.  Where SO_TXTIME
 * is not in force (#GstRtpBurstTxSink:txtime is FALSE, or the kernel
 * refused it: CLOCK_TAI needs CAP_NET_ADMIN, kernels before 4.19 lack it),
 * the sink warns once and turns #GstBaseSink:sync on while it runs, so
 * that the packets still leave at their times, paced by this thread.
 *
 * The socket is opened and SO_TXTIME set as the sink starts (NULL to
 * READY); the properties are read then.  The socket's error queue is read
 * a last time as it stops (READY to NULL).
 *
 * What the sink cannot see yet: a qdisc that ignores release times
 * (pfifo_fast, noqueue: the packets then leave as they come) still accepts
 * them; #GstRtpBurstTxSink:txtime-active says only that the socket took
 * SO_TXTIME.  etf drops packets it gets too late to send at their time
 * (`txtime-invalid`) or cannot send in time (`txtime-missed`); the kernel
 * reports those on the socket's error queue, which the sink reads after
 * each send: counts in #GstRtpBurstTxSink:stats and one warning.
 * docs/txtime.md has the details.
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
#include "gstrtpbursttxsocket.h"
#include "gstrtpbursttxtiming.h"

GST_DEBUG_CATEGORY (rtp_burst_tx_sink_debug);
#define GST_CAT_DEFAULT rtp_burst_tx_sink_debug

#define STATS_NAME "application/x-rtp-burst-tx-sink-stats"

/* the sink's own lock (gstrtpburstlock.h: seen by ThreadSanitizer) */
#define LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->lock)
#define UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->lock)

#define DEFAULT_HOST "localhost"
#define DEFAULT_PORT 5004
#define DEFAULT_TXTIME TRUE
#define DEFAULT_TXTIME_CLOCK GST_RTP_BURST_TX_CLOCK_MONOTONIC

/* memory blocks of a buffer sent as they are; more are merged first */
#define MAX_IOV 16

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_TXTIME,
  PROP_TXTIME_CLOCK,
  PROP_TXTIME_ACTIVE,
  PROP_STATS,
};

/* The stats fields, defined once: the structure and the property's
 * description are made from this table. */
typedef enum
{
  STAT_PACKETS_SENT,
  STAT_BYTES_SENT,
  STAT_SEND_ERRORS,
  STAT_TIMED,
  STAT_UNTIMED,
  STAT_TXTIME_LATE,
  STAT_TXTIME_MISSED,
  STAT_TXTIME_INVALID,
  STAT_LAST_LEAD,
  STAT_MAX_LEAD,
  STAT_TXTIME_ACTIVE,
  STAT_TXTIME_CLOCK,
  N_STATS
} Stat;

typedef struct
{
  const gchar *name;
  GType type;                   /* a fundamental type: a constant */
  const gchar *meaning;
} Field;

static const Field fields[N_STATS] = {
  [STAT_PACKETS_SENT] = {"packets-sent", G_TYPE_UINT64,
      "packets the kernel took (sendmsg succeeded)"},
  [STAT_BYTES_SENT] = {"bytes-sent", G_TYPE_UINT64,
      "bytes of those packets (UDP payload)"},
  [STAT_SEND_ERRORS] = {"send-errors", G_TYPE_UINT64,
      "packets sendmsg refused, not sent"},
  [STAT_TIMED] = {"timed", G_TYPE_UINT64,
      "packets sent with a release time (SCM_TXTIME)"},
  [STAT_UNTIMED] = {"untimed", G_TYPE_UINT64,
      "packets sent without one: SO_TXTIME not in force, no clock, no "
        "valid timestamp or outside the segment"},
  [STAT_TXTIME_LATE] = {"txtime-late", G_TYPE_UINT64,
      "timed packets whose release time had passed when the kernel got "
        "them (fq sends them at once, etf drops them)"},
  [STAT_TXTIME_MISSED] = {"txtime-missed", G_TYPE_UINT64,
      "packets the qdisc dropped after they waited in it past their time "
        "(error queue, SO_EE_CODE_TXTIME_MISSED: etf)"},
  [STAT_TXTIME_INVALID] = {"txtime-invalid", G_TYPE_UINT64,
      "packets the qdisc refused: a release time already past when queued "
        "or before one it sent, or on another clock (error queue, "
        "SO_EE_CODE_TXTIME_INVALID_PARAM: etf)"},
  [STAT_LAST_LEAD] = {"last-lead", G_TYPE_INT64,
      "how long before its release time the last timed packet was sent, "
        "ns (negative: late)"},
  [STAT_MAX_LEAD] = {"max-lead", G_TYPE_INT64,
      "the longest such lead, ns (0 before the first timed packet)"},
  [STAT_TXTIME_ACTIVE] = {"txtime-active", G_TYPE_BOOLEAN,
      "the socket took SO_TXTIME (not whether its qdisc honours it)"},
  [STAT_TXTIME_CLOCK] = {"txtime-clock", G_TYPE_STRING,
      "the kernel clock of the release times: monotonic or tai"},
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

  /* from start () to stop (); set there, read by the streaming thread */
  gint fd;
  struct sockaddr_storage addr;
  socklen_t addr_len;
  clockid_t kernel_clock;
  gboolean sync_changed;        /* start () turned sync on */
  gboolean sync_before;
  gboolean warned_send, warned_missed;

  /* lock */
  gboolean txtime_active;
  guint64 stats[N_STATS];       /* the counters; leads below */
  gint64 last_lead, max_lead;
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

GType
gst_rtp_burst_tx_clock_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_RTP_BURST_TX_CLOCK_MONOTONIC, "CLOCK_MONOTONIC (the fq qdisc)",
        "monotonic"},
    {GST_RTP_BURST_TX_CLOCK_TAI, "CLOCK_TAI (an etf qdisc; needs "
          "CAP_NET_ADMIN)", "tai"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstRtpBurstTxClock", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

static const gchar *
stats_blurb (void)
{
  static gchar *blurb = NULL;

  if (g_once_init_enter (&blurb)) {
    GString *str = g_string_new ("Statistics, a GstStructure " STATS_NAME
        " with these fields:");
    guint i;

    for (i = 0; i < N_STATS; i++)
      g_string_append_printf (str, "\n%s (%s): %s", fields[i].name,
          g_type_name (fields[i].type), fields[i].meaning);
    g_once_init_leave (&blurb, g_string_free (str, FALSE));
  }
  return blurb;
}

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
   * GstRtpBurstTxSink:txtime-active:
   *
   * TRUE while the sink runs with SO_TXTIME on its socket.  The kernel
   * takes SO_TXTIME whatever the qdisc: pfifo_fast and noqueue ignore the
   * release times without a word.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_TXTIME_ACTIVE,
      g_param_spec_boolean ("txtime-active", "Release times in force",
          "Whether the socket took SO_TXTIME (FALSE: the sink waits on the "
          "clock itself)", FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

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
      g_param_spec_boxed ("stats", "Statistics", stats_blurb (),
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_NAME |
          G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB));

  gst_type_mark_as_plugin_api (GST_TYPE_RTP_BURST_TX_CLOCK, 0);

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
}

static void
gst_rtp_burst_tx_sink_init (GstRtpBurstTxSink * self)
{
  self->host = g_strdup (DEFAULT_HOST);
  self->port = DEFAULT_PORT;
  self->txtime = DEFAULT_TXTIME;
  self->txtime_clock = DEFAULT_TXTIME_CLOCK;
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
  TSAN_DESTROY (&self->lock);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstStructure *
stats_new (GstRtpBurstTxSink * self)
{
  GstStructure *s = gst_structure_new_empty (STATS_NAME);
  guint i;

  LOCK (self);
  for (i = 0; i < N_STATS; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, fields[i].type);
    switch (i) {
      case STAT_LAST_LEAD:
        g_value_set_int64 (&v, self->last_lead);
        break;
      case STAT_MAX_LEAD:
        g_value_set_int64 (&v, self->max_lead);
        break;
      case STAT_TXTIME_ACTIVE:
        g_value_set_boolean (&v, self->txtime_active);
        break;
      case STAT_TXTIME_CLOCK:
        g_value_set_static_string (&v,
            self->txtime_clock == GST_RTP_BURST_TX_CLOCK_TAI ?
            "tai" : "monotonic");
        break;
      default:
        g_value_set_uint64 (&v, self->stats[i]);
        break;
    }
    gst_structure_take_value (s, fields[i].name, &v);
  }
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
  gboolean active = FALSE;

  LOCK (self);
  host = g_strdup (self->host);
  port = self->port;
  want = self->txtime;
  which = self->txtime_clock;
  memset (self->stats, 0, sizeof (self->stats));
  self->last_lead = self->max_lead = 0;
  UNLOCK (self);

  self->warned_send = self->warned_missed = FALSE;
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
  LOCK (self);
  self->txtime_active = active;
  UNLOCK (self);

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

static void drain_errors (GstRtpBurstTxSink * self);

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
  self->stats[STAT_TXTIME_MISSED] += e.missed;
  self->stats[STAT_TXTIME_INVALID] += e.invalid;
  UNLOCK (self);
  if (!self->warned_missed) {
    self->warned_missed = TRUE;
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("The qdisc dropped packets it could not send at their release "
            "time."), ("%" G_GUINT64_FORMAT " late, %" G_GUINT64_FORMAT
            " with a release time it does not take (the last %"
            G_GUINT64_FORMAT " ns); with etf, a larger delta or fq may help; "
            "the stats count the next ones", e.missed, e.invalid, e.last));
  }
}

static void
send_buffer (GstRtpBurstTxSink * self, GstBuffer * buffer,
    const GstRtpBurstTxTiming * t)
{
  GstMapInfo maps[MAX_IOV];
  struct iovec iov[MAX_IOV];
  guint n = gst_buffer_n_memory (buffer), i, mapped = 0;
  GstBuffer *merged = NULL;
  gsize size = 0;
  GstClockTime clock_time = GST_CLOCK_TIME_NONE;
  guint64 txtime = 0;
  gboolean timed;
  gssize sent;
  gint err = 0;

  if (n > MAX_IOV) {
    /* one block */
    merged = gst_buffer_new ();
    gst_buffer_append_memory (merged, gst_buffer_get_all_memory (buffer));
    buffer = merged;
    n = 1;
  }
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    if (!gst_memory_map (mem, &maps[mapped], GST_MAP_READ))
      break;
    iov[mapped].iov_base = maps[mapped].data;
    iov[mapped].iov_len = maps[mapped].size;
    size += maps[mapped].size;
    mapped++;
  }

  timed = gst_rtp_burst_tx_timing_buffer (GST_BASE_SINK (self), t, buffer,
      &clock_time, &txtime);
  if (mapped < n) {
    sent = -1;
    err = EFAULT;
  } else {
    sent = gst_rtp_burst_tx_socket_send (self->fd, &self->addr,
        self->addr_len, iov, mapped, timed, txtime, &err);
  }
  for (i = 0; i < mapped; i++)
    gst_memory_unmap (maps[i].memory, &maps[i]);
  if (merged)
    gst_buffer_unref (merged);

  LOCK (self);
  if (sent < 0) {
    self->stats[STAT_SEND_ERRORS]++;
  } else {
    self->stats[STAT_PACKETS_SENT]++;
    self->stats[STAT_BYTES_SENT] += size;
    if (timed) {
      gint64 lead = txtime >= t->kernel_now ?
          (gint64) MIN (txtime - t->kernel_now, (guint64) G_MAXINT64) :
          -(gint64) MIN (t->kernel_now - txtime, (guint64) G_MAXINT64);

      self->stats[STAT_TIMED]++;
      if (lead < 0)
        self->stats[STAT_TXTIME_LATE]++;
      self->last_lead = lead;
      if (lead > self->max_lead)
        self->max_lead = lead;
    } else {
      self->stats[STAT_UNTIMED]++;
    }
  }
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
