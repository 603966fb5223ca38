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

#include "rtpbursttxtime.h"

/**
 * rtp_burst_txtime_clock_time:
 * @running_time: the buffer's running time
 * @base_time: the element's base time
 * @latency: the latency the sink was given (gst_base_sink_get_latency ())
 * @ts_offset: the sink's ts-offset
 * @render_delay: the sink's render-delay
 * @clock_time: (out): the pipeline clock's time at which a synchronising
 *   sink would render the buffer
 *
 * Returns: FALSE if that time does not fit in 64 bits (@clock_time is then
 * not set).
 */
gboolean
rtp_burst_txtime_clock_time (guint64 running_time, guint64 base_time,
    guint64 latency, gint64 ts_offset, guint64 render_delay,
    guint64 * clock_time)
{
  guint64 t;

  if (running_time > G_MAXUINT64 - latency)
    return FALSE;
  t = running_time + latency;
  if (ts_offset < 0) {
    /* as a sink does: a negative offset larger than the time gives 0 */
    guint64 back = (guint64) (-(ts_offset + 1)) + 1;

    t = back < t ? t - back : 0;
  } else {
    if (t > G_MAXUINT64 - (guint64) ts_offset)
      return FALSE;
    t += ts_offset;
  }
  t = t > render_delay ? t - render_delay : 0;
  if (t > G_MAXUINT64 - base_time)
    return FALSE;
  *clock_time = t + base_time;
  return TRUE;
}

/**
 * rtp_burst_txtime_offset:
 * @before: the pipeline clock read just before @kernel
 * @kernel: the kernel clock
 * @after: the pipeline clock read just after @kernel
 *
 * Returns: what to add to a time of the pipeline clock to have it on the
 * kernel clock: @kernel less the middle of @before and @after.  Clamped to
 * the range of gint64.
 */
gint64
rtp_burst_txtime_offset (guint64 before, guint64 kernel, guint64 after)
{
  guint64 middle;

  if (after < before) {
    guint64 t = after;

    after = before;
    before = t;
  }
  middle = before + (after - before) / 2;
  if (kernel >= middle) {
    guint64 ahead = kernel - middle;

    return ahead > G_MAXINT64 ? G_MAXINT64 : (gint64) ahead;
  } else {
    guint64 behind = middle - kernel;

    return behind > G_MAXINT64 ? G_MININT64 : -(gint64) behind;
  }
}

/**
 * rtp_burst_txtime_to_kernel:
 * @clock_time: a time of the pipeline clock
 * @offset: from rtp_burst_txtime_offset (), or 0
 * @txtime: (out): @clock_time on the kernel clock
 *
 * Returns: FALSE if the time would be before the kernel clock's 0 or not
 * fit in 64 bits (@txtime is then not set).
 */
gboolean
rtp_burst_txtime_to_kernel (guint64 clock_time, gint64 offset, guint64 * txtime)
{
  if (offset < 0) {
    guint64 back = (guint64) (-(offset + 1)) + 1;

    if (back > clock_time)
      return FALSE;
    *txtime = clock_time - back;
  } else {
    if (clock_time > G_MAXUINT64 - (guint64) offset)
      return FALSE;
    *txtime = clock_time + offset;
  }
  return TRUE;
}

/**
 * rtp_burst_txtime_from_error:
 * @ee_data: a struct sock_extended_err's ee_data
 * @ee_info: its ee_info
 *
 * Returns: the txtime a report of origin SO_EE_ORIGIN_TXTIME is about: the
 * kernel puts its upper 32 bits in ee_data, its lower ones in ee_info.
 */
guint64
rtp_burst_txtime_from_error (guint32 ee_data, guint32 ee_info)
{
  return ((guint64) ee_data << 32) | ee_info;
}
