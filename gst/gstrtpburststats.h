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
 * The fields of the element's `stats` structure, defined once: their names,
 * types and meanings are in gstrtpburststats.c.  The element sets them by
 * GstRtpBurstStat; the stats property's description (gst-inspect) is made
 * from the table, and docs/reference.md's stats table is generated from
 * that description (scripts/stats-doc.py; a test checks it is current).
 */

#ifndef __GST_RTP_BURST_STATS_H__
#define __GST_RTP_BURST_STATS_H__

#include <gst/gst.h>

#include "rtpburststream.h"

G_BEGIN_DECLS

#define GST_RTP_BURST_STATS_NAME "application/x-rtp-burst-pace-stats"

typedef enum
{
  /* what was released */
  GST_RTP_BURST_STAT_FRAMES,
  GST_RTP_BURST_STAT_PACKETS,
  GST_RTP_BURST_STAT_BYTES,
  GST_RTP_BURST_STAT_SLOTS,
  /* the schedule in use */
  GST_RTP_BURST_STAT_FRAME_PERIOD,
  GST_RTP_BURST_STAT_FRAME_PERIOD_SOURCE,
  GST_RTP_BURST_STAT_PAYLOAD_SIZE,
  GST_RTP_BURST_STAT_SLOT_DURATION,
  GST_RTP_BURST_STAT_EFFECTIVE_BURST_SIZE,
  GST_RTP_BURST_STAT_MIN_SLOT_DURATION,
  /* events */
  GST_RTP_BURST_STAT_UNPACED_FRAMES,
  GST_RTP_BURST_STAT_CATCH_UP_FRAMES,
  GST_RTP_BURST_STAT_TIMEOUT_FRAMES,
  GST_RTP_BURST_STAT_UNPACED_PUSHES,
  GST_RTP_BURST_STAT_UNPACED_LATE_PUSHES,
  GST_RTP_BURST_STAT_UNPACED_MAX_DELAY,
  GST_RTP_BURST_STAT_LATE_SLOTS,
  GST_RTP_BURST_STAT_MAX_LATENESS,
  GST_RTP_BURST_STAT_INVALID_PACKETS,
  GST_RTP_BURST_STAT_FLUSHED_PACKETS,
  GST_RTP_BURST_STAT_QUEUED_PACKETS,
  GST_RTP_BURST_STAT_QUEUED_FRAMES,
  /* rate cap */
  GST_RTP_BURST_STAT_MAX_RATE,
  GST_RTP_BURST_STAT_MEAN_RATE,
  GST_RTP_BURST_STAT_SPREAD_FRAMES,
  GST_RTP_BURST_STAT_COMPRESSED_FRAMES,
  GST_RTP_BURST_STAT_MAX_BACKLOG,
  GST_RTP_BURST_STAT_DROPPED_FRAMES,
  GST_RTP_BURST_STAT_DROPPED_PACKETS,
  GST_RTP_BURST_STAT_KEY_UNIT_REQUESTS,
  /* congestion control (gstrtpburstcc.h) */
  GST_RTP_BURST_STAT_ESTIMATED_BITRATE,
  GST_RTP_BURST_STAT_CC_FEEDBACK_REPORTS,
  GST_RTP_BURST_STAT_CC_FEEDBACK_PACKETS,
  GST_RTP_BURST_STAT_CC_LOST_PACKETS,
  GST_RTP_BURST_STAT_CC_INVALID_FEEDBACK,
  GST_RTP_BURST_STAT_CC_RTT,
  GST_RTP_BURST_STAT_CC_PROBE_BITRATE,
  /* the thread */
  GST_RTP_BURST_STAT_REALTIME_PRIORITY,
  GST_RTP_BURST_STAT_WAKEUPS,
  /* the automatic margin */
  GST_RTP_BURST_STAT_MARGIN,
  GST_RTP_BURST_STAT_MARGIN_FRAMES,
  /* streams sharing a timeline (rtpburstgroup.h) */
  GST_RTP_BURST_STAT_GROUP_MEMBERS,
  GST_RTP_BURST_STAT_GROUP_FRAMES,
  GST_RTP_BURST_STAT_GROUP_SHARED_SLOTS,
  GST_RTP_BURST_STAT_GROUP_PHASE,
  GST_RTP_BURST_STAT_GROUP_GAP,
  GST_RTP_BURST_STAT_GROUP_BUSY,
  GST_RTP_BURST_STAT_GROUP_OTHER_CLOCK,
  GST_RTP_BURST_STAT_GROUP_MAX_RATE,
  GST_RTP_BURST_STAT_GROUP_RATE_WAITS,
  GST_RTP_BURST_STAT_GROUP_RATE_MAX_DELAY,
  /* repair packets between the media's slots (rtpburstrepair.h) */
  GST_RTP_BURST_STAT_REPAIR_PACKETS,
  GST_RTP_BURST_STAT_REPAIR_BYTES,
  GST_RTP_BURST_STAT_REPAIR_OVERRUNS,
  GST_RTP_BURST_STAT_REPAIR_MAX_DELAY,
  GST_RTP_BURST_STAT_REPAIR_QUEUED,
  /* a synchronising element downstream */
  GST_RTP_BURST_STAT_SINK_LATENCY,
  GST_RTP_BURST_STAT_HELD_SLOTS,
  /* the conformance meter (rtpburstmeter.h) */
  GST_RTP_BURST_STAT_PEAK_RATE_1MS,
  GST_RTP_BURST_STAT_PEAK_RATE_10MS,
  GST_RTP_BURST_STAT_RELEASE_ERROR_P50,
  GST_RTP_BURST_STAT_RELEASE_ERROR_P99,
  GST_RTP_BURST_STAT_RELEASE_ERROR_MAX,
  GST_RTP_BURST_STAT_GAP_P1,
  GST_RTP_BURST_STAT_GAP_P50,
  GST_RTP_BURST_STAT_GAP_P99,
  GST_RTP_BURST_STAT_FRAMES_OVER_PERIOD,
  GST_RTP_BURST_STAT_MAX_FRAME_END,
  /* as a payloader's stats */
  GST_RTP_BURST_STAT_PT,
  GST_RTP_BURST_STAT_SSRC,
  GST_RTP_BURST_STAT_SEQNUM,
  GST_RTP_BURST_STAT_SEQNUM_OFFSET,
  GST_RTP_BURST_STAT_TIMESTAMP,
  GST_RTP_BURST_STAT_CLOCK_RATE,
  GST_RTP_BURST_STAT_RUNNING_TIME,
  GST_RTP_BURST_N_STATS
} GstRtpBurstStat;

const gchar *gst_rtp_burst_stats_blurb (void);
GstStructure *gst_rtp_burst_stats_new  (void);
void     gst_rtp_burst_stats_set_uint64 (GstStructure * s, GstRtpBurstStat stat,
                                         guint64 value);
void     gst_rtp_burst_stats_set_uint   (GstStructure * s, GstRtpBurstStat stat,
                                         guint value);
void     gst_rtp_burst_stats_set_int    (GstStructure * s, GstRtpBurstStat stat,
                                         gint value);
void     gst_rtp_burst_stats_set_string (GstStructure * s, GstRtpBurstStat stat,
                                         const gchar * value);

/* The stats of @stream, with the element's own counters. */
GstStructure *gst_rtp_burst_stats_from_stream (const RtpBurstStreamStats *
                                         stream, guint64 invalid_packets,
                                         gint realtime_priority,
                                         guint64 wakeups);

G_END_DECLS

#endif /* __GST_RTP_BURST_STATS_H__ */
