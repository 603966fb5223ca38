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
 * Release times for the kernel (SO_TXTIME): the time at which a sink hands
 * a packet's release to the kernel's qdisc (fq, etf), on the kernel's clock.
 *
 * A synchronising GstBaseSink renders a buffer of running time r at the
 * pipeline clock's time
 *
 *     max (0, r + latency + ts-offset) - render-delay (at least 0) + base-time
 *
 * (gst_base_sink_adjust_time () and gst_base_sink_wait_clock () in 1.22).
 * A sink that gives the kernel the release time instead uses the same
 * instant, moved to the kernel's clock (CLOCK_MONOTONIC for fq, CLOCK_TAI
 * for etf) by an offset: 0 where the pipeline clock is that kernel clock
 * (GstSystemClock of the same clock-type, not slaved), else the kernel
 * clock read between two readings of the pipeline clock, less their middle.
 * GLib only; all times in ns.
 */

#ifndef __RTP_BURST_TXTIME_H__
#define __RTP_BURST_TXTIME_H__

#include <glib.h>

G_BEGIN_DECLS

gboolean rtp_burst_txtime_clock_time (guint64 running_time,
                                      guint64 base_time, guint64 latency,
                                      gint64 ts_offset,
                                      guint64 render_delay,
                                      guint64 * clock_time);
gint64   rtp_burst_txtime_offset     (guint64 before, guint64 kernel,
                                      guint64 after);
gboolean rtp_burst_txtime_to_kernel  (guint64 clock_time, gint64 offset,
                                      guint64 * txtime);
guint64  rtp_burst_txtime_from_error (guint32 ee_data, guint32 ee_info);

G_END_DECLS

#endif /* __RTP_BURST_TXTIME_H__ */
