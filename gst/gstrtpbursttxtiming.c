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

#include <string.h>

#include "gstrtpbursttxsink.h"
#include "gstrtpbursttxtiming.h"
#include "rtpbursttxtime.h"

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

static guint64
kernel_time (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return GST_TIMESPEC_TO_TIME (ts);
}

/* The kernel clock a GstSystemClock reads, if it is one that is not
 * slaved to another clock (its time is then that kernel clock's). */
static gboolean
system_clock_id (GstClock * clock, clockid_t * id)
{
  GstClockTime internal, external, num, denom;
  GstClockType type;

  if (G_OBJECT_TYPE (clock) != GST_TYPE_SYSTEM_CLOCK)
    return FALSE;
  gst_clock_get_calibration (clock, &internal, &external, &num, &denom);
  if (internal != external || num != denom)
    return FALSE;
  g_object_get (clock, "clock-type", &type, NULL);
  switch (type) {
    case GST_CLOCK_TYPE_MONOTONIC:
      *id = CLOCK_MONOTONIC;
      return TRUE;
    case GST_CLOCK_TYPE_REALTIME:
      *id = CLOCK_REALTIME;
      return TRUE;
    case GST_CLOCK_TYPE_TAI:
      *id = CLOCK_TAI;
      return TRUE;
    default:
      return FALSE;
  }
}

/* The pipeline clock's parameters and its offset from @kernel_clock, read
 * once per render call; not valid unless @active and @sink has a clock. */
void
gst_rtp_burst_tx_timing_read (GstBaseSink * sink, gboolean active,
    clockid_t kernel_clock, GstRtpBurstTxTiming * t)
{
  GstClock *clock;
  clockid_t source;
  guint64 before, after;

  memset (t, 0, sizeof (*t));
  GST_OBJECT_LOCK (sink);
  clock = active ? GST_ELEMENT_CLOCK (sink) : NULL;
  if (clock)
    gst_object_ref (clock);
  t->base_time = GST_ELEMENT_CAST (sink)->base_time;
  GST_OBJECT_UNLOCK (sink);
  if (clock == NULL)
    return;

  t->latency = gst_base_sink_get_latency (sink);
  t->ts_offset = gst_base_sink_get_ts_offset (sink);
  t->render_delay = gst_base_sink_get_render_delay (sink);
  if (!GST_CLOCK_TIME_IS_VALID (t->latency))
    t->latency = 0;
  if (!GST_CLOCK_TIME_IS_VALID (t->render_delay))
    t->render_delay = 0;

  if (system_clock_id (clock, &source)) {
    if (source == kernel_clock) {
      /* the same clock: exact */
      t->kernel_now = kernel_time (kernel_clock);
      t->offset = 0;
    } else {
      before = kernel_time (source);
      t->kernel_now = kernel_time (kernel_clock);
      after = kernel_time (source);
      t->offset = rtp_burst_txtime_offset (before, t->kernel_now, after);
    }
  } else {
    before = gst_clock_get_time (clock);
    t->kernel_now = kernel_time (kernel_clock);
    after = gst_clock_get_time (clock);
    t->offset = rtp_burst_txtime_offset (before, t->kernel_now, after);
  }
  t->valid = TRUE;
  gst_object_unref (clock);
}

/* A buffer's release time, on the pipeline clock (@clock_time) and on the
 * kernel clock (@txtime), if it has one. */
gboolean
gst_rtp_burst_tx_timing_buffer (GstBaseSink * sink,
    const GstRtpBurstTxTiming * t, GstBuffer * buffer,
    GstClockTime * clock_time, guint64 * txtime)
{
  GstSegment *segment = &sink->segment;
  GstClockTime ts = GST_BUFFER_DTS_OR_PTS (buffer);
  GstClockTime running_time;

  if (!t->valid || !GST_CLOCK_TIME_IS_VALID (ts) ||
      segment->format != GST_FORMAT_TIME)
    return FALSE;
  running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts);
  if (!GST_CLOCK_TIME_IS_VALID (running_time))
    return FALSE;
  return rtp_burst_txtime_clock_time (running_time, t->base_time,
      t->latency, t->ts_offset, t->render_delay, clock_time) &&
      rtp_burst_txtime_to_kernel (*clock_time, t->offset, txtime);
}
