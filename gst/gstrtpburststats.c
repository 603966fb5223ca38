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

#include "gstrtpburststats.h"

typedef struct
{
  const gchar *name;
  GType type;                   /* a fundamental type: a constant */
  const gchar *meaning;
} Field;

/* The one definition of the stats fields, in the order of GstRtpBurstStat.
 * A meaning is one line of text; ΔT, Δt, p and b as in the docs. */
static const Field fields[GST_RTP_BURST_N_STATS] = {
  [GST_RTP_BURST_STAT_FRAMES] = {"frames", G_TYPE_UINT64,
      "frames released"},
  [GST_RTP_BURST_STAT_PACKETS] = {"packets", G_TYPE_UINT64,
      "packets pushed downstream (not counting pushes refused by a flush)"},
  [GST_RTP_BURST_STAT_BYTES] = {"bytes", G_TYPE_UINT64,
      "bytes of those packets (whole RTP packets)"},
  [GST_RTP_BURST_STAT_SLOTS] = {"slots", G_TYPE_UINT64,
      "slots released (an unpaced frame's packets count as one slot per "
        "push)"},
  [GST_RTP_BURST_STAT_FRAME_PERIOD] = {"frame-period", G_TYPE_UINT64,
      "the current ΔT in ns, 0 if unknown"},
  [GST_RTP_BURST_STAT_FRAME_PERIOD_SOURCE] = {"frame-period-source",
        G_TYPE_STRING,
      "where ΔT comes from: property, caps, rtp-timestamps, arrival or "
        "unknown"},
  [GST_RTP_BURST_STAT_PAYLOAD_SIZE] = {"payload-size", G_TYPE_UINT,
      "the p in use, bytes"},
  [GST_RTP_BURST_STAT_SLOT_DURATION] = {"slot-duration", G_TYPE_UINT64,
      "nominal Δt of the last paced frame, ns"},
  [GST_RTP_BURST_STAT_EFFECTIVE_BURST_SIZE] = {"effective-burst-size",
        G_TYPE_UINT,
      "b of the last paced frame, after min-slot-duration raised it"},
  [GST_RTP_BURST_STAT_MIN_SLOT_DURATION] = {"min-slot-duration",
        G_TYPE_UINT64,
      "the minimum slot duration in use, ns"},
  [GST_RTP_BURST_STAT_UNPACED_FRAMES] = {"unpaced-frames", G_TYPE_UINT64,
      "frames released without pacing (ΔT unknown when they began, or no "
        "clock)"},
  [GST_RTP_BURST_STAT_CATCH_UP_FRAMES] = {"catch-up-frames", G_TYPE_UINT64,
      "frames whose span was shortened because the previous frame's slots "
        "held them back past their due time"},
  [GST_RTP_BURST_STAT_TIMEOUT_FRAMES] = {"timeout-frames", G_TYPE_UINT64,
      "frames completed because no packet came for one frame period"},
  [GST_RTP_BURST_STAT_UNPACED_PUSHES] = {"unpaced-pushes", G_TYPE_UINT64,
      "pushes of packets that left as they came (pace=false, or no frame "
        "period yet)"},
  [GST_RTP_BURST_STAT_UNPACED_LATE_PUSHES] = {"unpaced-late-pushes",
        G_TYPE_UINT64,
      "those that left more than 1 ms after the oldest of their packets "
        "came, or after the previous push returned if that was later (the "
        "time downstream held a push is not the element's)"},
  [GST_RTP_BURST_STAT_UNPACED_MAX_DELAY] = {"unpaced-max-delay",
        G_TYPE_UINT64,
      "the longest time such a packet stayed in the element, ns"},
  [GST_RTP_BURST_STAT_LATE_SLOTS] = {"late-slots", G_TYPE_UINT64,
      "slots released more than 1 ms after their time (or after the "
        "previous push returned, if downstream held that push past this "
        "slot's time)"},
  [GST_RTP_BURST_STAT_MAX_LATENESS] = {"max-lateness", G_TYPE_UINT64,
      "the largest such delay, ns, read from the clock after each wait"},
  [GST_RTP_BURST_STAT_INVALID_PACKETS] = {"invalid-packets", G_TYPE_UINT64,
      "buffers dropped because they are not valid RTP"},
  [GST_RTP_BURST_STAT_FLUSHED_PACKETS] = {"flushed-packets", G_TYPE_UINT64,
      "packets discarded by flushes and by going to READY, including a slot "
        "whose push a flush refused (for a slot pushed as a list, the whole "
        "list) and packets refused while flushing (upstream got FLUSHING; "
        "for a buffer list, the rest of the list)"},
  [GST_RTP_BURST_STAT_QUEUED_PACKETS] = {"queued-packets", G_TYPE_UINT,
      "packets in the element now"},
  [GST_RTP_BURST_STAT_QUEUED_FRAMES] = {"queued-frames", G_TYPE_UINT,
      "complete frames in the element now"},
  [GST_RTP_BURST_STAT_MAX_RATE] = {"max-rate", G_TYPE_UINT64,
      "the peak-rate cap in use, bit/s (0 = none, or not measured yet)"},
  [GST_RTP_BURST_STAT_MEAN_RATE] = {"mean-rate", G_TYPE_UINT64,
      "the stream's mean rate over the last 64 frames, bit/s (0 until 32 "
        "frames)"},
  [GST_RTP_BURST_STAT_SPREAD_FRAMES] = {"spread-frames", G_TYPE_UINT64,
      "frames the cap spread beyond duty x ΔT"},
  [GST_RTP_BURST_STAT_COMPRESSED_FRAMES] = {"compressed-frames",
        G_TYPE_UINT64,
      "frames whose slots max-delay shortened"},
  [GST_RTP_BURST_STAT_MAX_BACKLOG] = {"max-backlog", G_TYPE_UINT64,
      "the longest a frame's last slot came after the frame was due, ns"},
  [GST_RTP_BURST_STAT_DROPPED_FRAMES] = {"dropped-frames", G_TYPE_UINT64,
      "frames dropped by overload=drop"},
  [GST_RTP_BURST_STAT_DROPPED_PACKETS] = {"dropped-packets", G_TYPE_UINT64,
      "their packets"},
  [GST_RTP_BURST_STAT_KEY_UNIT_REQUESTS] = {"key-unit-requests",
        G_TYPE_UINT64,
      "force-key-unit events sent upstream"},
  [GST_RTP_BURST_STAT_ESTIMATED_BITRATE] = {"estimated-bitrate",
        G_TYPE_UINT64,
      "the congestion controller's rate (property congestion-control), the "
        "rate cap it sets, bit/s; 0 = none, or no feedback yet"},
  [GST_RTP_BURST_STAT_CC_FEEDBACK_REPORTS] = {"cc-feedback-reports",
        G_TYPE_UINT64,
      "transport-wide congestion control reports (rtpbin's RTPTWCCPackets "
        "events) given to the controller"},
  [GST_RTP_BURST_STAT_CC_FEEDBACK_PACKETS] = {"cc-feedback-packets",
        G_TYPE_UINT64,
      "packets those reports covered, received or lost (a packet reported "
        "twice counts twice)"},
  [GST_RTP_BURST_STAT_CC_LOST_PACKETS] = {"cc-lost-packets", G_TYPE_UINT64,
      "packets the receiver reported lost, each counted once"},
  [GST_RTP_BURST_STAT_CC_INVALID_FEEDBACK] = {"cc-invalid-feedback",
        G_TYPE_UINT64,
      "RTPTWCCPackets events ignored: no list of packets, an empty one, or "
        "a packet without seqnum, size (guint), local-ts, remote-ts (guint64) "
        "or lost (gboolean)"},
  [GST_RTP_BURST_STAT_CC_RTT] = {"cc-rtt", G_TYPE_UINT64,
      "the round trip the controller takes, measured from the reports: "
        "the smallest over the last second of the time from a packet's "
        "send to its report less the time the receiver held it, ns; 0 = "
        "none yet"},
  [GST_RTP_BURST_STAT_CC_PROBE_BITRATE] = {"cc-probe-bitrate",
        G_TYPE_UINT64,
      "gcc's fast start: the rate the path carried the latest probe at "
        "(two frames sent at 3 and 6 times start-bitrate), bit/s, which "
        "raised the estimate if it was higher; 0 = no result yet"},
  [GST_RTP_BURST_STAT_REALTIME_PRIORITY] = {"realtime-priority", G_TYPE_INT,
      "the SCHED_FIFO priority the releasing thread runs at now; 0 = not "
        "set by the element (property 0, or refused)"},
  [GST_RTP_BURST_STAT_WAKEUPS] = {"wakeups", G_TYPE_UINT64,
      "clock waits of the releasing thread that ran to their time: about "
        "one per slot, one per frame or fewer with release-ahead of a "
        "frame period (not counted: a wait whose time had passed, one cut "
        "short by a flush, a pause or a completed frame, waits for data)"},
  [GST_RTP_BURST_STAT_MARGIN] = {"margin", G_TYPE_UINT64,
      "with auto-margin: the time kept free after a frame's last slot, "
        "sized from recent frames that late slots made end after their "
        "period, ns"},
  [GST_RTP_BURST_STAT_MARGIN_FRAMES] = {"margin-frames", G_TYPE_UINT64,
      "frames whose span the margin made shorter than duty x ΔT"},
  [GST_RTP_BURST_STAT_GROUP_MEMBERS] = {"group-members", G_TYPE_UINT,
      "elements in its group (property group), itself included; 0 = not in "
        "a group"},
  [GST_RTP_BURST_STAT_GROUP_FRAMES] = {"group-frames", G_TYPE_UINT64,
      "frames whose slots were placed on the group's timeline"},
  [GST_RTP_BURST_STAT_GROUP_SHARED_SLOTS] = {"group-shared-slots",
        G_TYPE_UINT64,
      "slots placed less than 1 µs from another member's: the group's "
        "timeline had no room between them"},
  [GST_RTP_BURST_STAT_GROUP_PHASE] = {"group-phase", G_TYPE_UINT64,
      "how much later than its own grid the last frame's slots were "
        "placed (< Δt), ns"},
  [GST_RTP_BURST_STAT_GROUP_GAP] = {"group-gap", G_TYPE_UINT64,
      "the smallest distance from the last frame's slots to another "
        "member's, ns; 18446744073709551615 = none within Δt"},
  [GST_RTP_BURST_STAT_GROUP_BUSY] = {"group-busy", G_TYPE_UINT64,
      "frames not placed because another member of the group was placing "
        "one at that moment (the pacing thread never waits for the group)"},
  [GST_RTP_BURST_STAT_GROUP_OTHER_CLOCK] = {"group-other-clock",
        G_TYPE_UINT64,
      "frames not placed because the group's other members run on another "
        "clock"},
  [GST_RTP_BURST_STAT_GROUP_MAX_RATE] = {"group-max-rate", G_TYPE_UINT64,
      "the cap on the group's aggregate rate in force (the smallest its "
        "members set), bit/s; 0 = none"},
  [GST_RTP_BURST_STAT_GROUP_RATE_WAITS] = {"group-rate-waits",
        G_TYPE_UINT64,
      "pushes (slots, repair packets) that waited for room on the group's "
        "rate"},
  [GST_RTP_BURST_STAT_GROUP_RATE_MAX_DELAY] = {"group-rate-max-delay",
        G_TYPE_UINT64,
      "the longest of those waits, ns (a push may wait when it books the "
        "link and again as it leaves: each wait on its own)"},
  [GST_RTP_BURST_STAT_REPAIR_PACKETS] = {"repair-packets", G_TYPE_UINT64,
      "repair packets (another payload type than the caps' payload, such "
        "as rtprtxsend's retransmissions) released between the media's "
        "slots; not in packets and bytes"},
  [GST_RTP_BURST_STAT_REPAIR_BYTES] = {"repair-bytes", G_TYPE_UINT64,
      "bytes of those repair packets"},
  [GST_RTP_BURST_STAT_REPAIR_OVERRUNS] = {"repair-overruns", G_TYPE_UINT64,
      "repair packets that left one frame period after they came, sooner "
        "than their spacing (repairs came faster than one per Δt)"},
  [GST_RTP_BURST_STAT_REPAIR_MAX_DELAY] = {"repair-max-delay",
        G_TYPE_UINT64,
      "the longest a repair packet waited in the element, ns"},
  [GST_RTP_BURST_STAT_REPAIR_QUEUED] = {"repair-queued", G_TYPE_UINT,
      "repair packets waiting for their time"},
  [GST_RTP_BURST_STAT_SINK_LATENCY] = {"sink-latency", G_TYPE_UINT64,
      "the latency a synchronising element in the element's thread adds "
        "(a sink, webrtcbin's clocksync), taken out of the DTS of paced "
        "packets, ns; 0 = none seen"},
  [GST_RTP_BURST_STAT_HELD_SLOTS] = {"held-slots", G_TYPE_UINT64,
      "pushes such an element held until their time (the first frame's, "
        "and a frame's after the latency grew)"},
  [GST_RTP_BURST_STAT_PEAK_RATE_1MS] = {"peak-rate-1ms", G_TYPE_UINT64,
      "paced packets: the most bits released within any 1 ms, as bit/s"},
  [GST_RTP_BURST_STAT_PEAK_RATE_10MS] = {"peak-rate-10ms", G_TYPE_UINT64,
      "the same over 10 ms windows, bit/s"},
  [GST_RTP_BURST_STAT_RELEASE_ERROR_P50] = {"release-error-p50",
        G_TYPE_UINT64,
      "median of release time - slot time over the paced slots, ns (a "
        "percentile is reported up to 12.5 % high, never low)"},
  [GST_RTP_BURST_STAT_RELEASE_ERROR_P99] = {"release-error-p99",
        G_TYPE_UINT64,
      "99th percentile of the same, ns"},
  [GST_RTP_BURST_STAT_RELEASE_ERROR_MAX] = {"release-error-max",
        G_TYPE_UINT64,
      "largest release error, ns"},
  [GST_RTP_BURST_STAT_GAP_P1] = {"gap-p1", G_TYPE_UINT64,
      "1st percentile of the time between consecutive slots of a paced "
        "frame, as released, ns"},
  [GST_RTP_BURST_STAT_GAP_P50] = {"gap-p50", G_TYPE_UINT64,
      "median of the same, ns"},
  [GST_RTP_BURST_STAT_GAP_P99] = {"gap-p99", G_TYPE_UINT64,
      "99th percentile of the same, ns"},
  [GST_RTP_BURST_STAT_FRAMES_OVER_PERIOD] = {"frames-over-period",
        G_TYPE_UINT64,
      "paced frames whose last slot was released more than ΔT after their "
        "first slot's time (a frame the rate cap spreads on purpose counts "
        "too)"},
  [GST_RTP_BURST_STAT_MAX_FRAME_END] = {"max-frame-end", G_TYPE_UINT,
      "the largest (last release - first slot time) / ΔT of a paced frame, "
        "per mille (900 for duty 0.9 on time)"},
  [GST_RTP_BURST_STAT_PT] = {"pt", G_TYPE_UINT,
      "payload type of the last packet released (as a payloader's stats, "
        "which gst-rtsp-server reads)"},
  [GST_RTP_BURST_STAT_SSRC] = {"ssrc", G_TYPE_UINT,
      "SSRC of the last packet released"},
  [GST_RTP_BURST_STAT_SEQNUM] = {"seqnum", G_TYPE_UINT,
      "sequence number of the last packet released"},
  [GST_RTP_BURST_STAT_SEQNUM_OFFSET] = {"seqnum-offset", G_TYPE_UINT,
      "sequence number of the first packet released"},
  [GST_RTP_BURST_STAT_TIMESTAMP] = {"timestamp", G_TYPE_UINT,
      "RTP timestamp of the last packet released"},
  [GST_RTP_BURST_STAT_CLOCK_RATE] = {"clock-rate", G_TYPE_UINT,
      "from the caps; 0 if unknown"},
  [GST_RTP_BURST_STAT_RUNNING_TIME] = {"running-time", G_TYPE_UINT64,
      "running time of the last released packet's PTS; GST_CLOCK_TIME_NONE "
        "if unknown"},
};

/**
 * gst_rtp_burst_stats_blurb:
 *
 * Returns: the description of the stats property: one line per field,
 * "name (type): meaning", after a first line naming the structure.
 */
const gchar *
gst_rtp_burst_stats_blurb (void)
{
  static gchar *blurb = NULL;

  if (g_once_init_enter (&blurb)) {
    GString *str = g_string_new ("Statistics, a GstStructure "
        GST_RTP_BURST_STATS_NAME " with these fields:");
    guint i;

    for (i = 0; i < GST_RTP_BURST_N_STATS; i++)
      g_string_append_printf (str, "\n%s (%s): %s", fields[i].name,
          g_type_name (fields[i].type), fields[i].meaning);
    g_once_init_leave (&blurb, g_string_free (str, FALSE));
  }
  return blurb;
}

GstStructure *
gst_rtp_burst_stats_new (void)
{
  return gst_structure_new_empty (GST_RTP_BURST_STATS_NAME);
}

static void
set (GstStructure * s, GstRtpBurstStat stat, GType type, ...)
{
  va_list args;

  g_return_if_fail (stat < GST_RTP_BURST_N_STATS);
  g_return_if_fail (fields[stat].type == type);
  va_start (args, type);
  gst_structure_set_valist (s, fields[stat].name, args);
  va_end (args);
}

void
gst_rtp_burst_stats_set_uint64 (GstStructure * s, GstRtpBurstStat stat,
    guint64 value)
{
  set (s, stat, G_TYPE_UINT64, G_TYPE_UINT64, value, NULL);
}

void
gst_rtp_burst_stats_set_uint (GstStructure * s, GstRtpBurstStat stat,
    guint value)
{
  set (s, stat, G_TYPE_UINT, G_TYPE_UINT, value, NULL);
}

void
gst_rtp_burst_stats_set_int (GstStructure * s, GstRtpBurstStat stat, gint value)
{
  set (s, stat, G_TYPE_INT, G_TYPE_INT, value, NULL);
}

void
gst_rtp_burst_stats_set_string (GstStructure * s, GstRtpBurstStat stat,
    const gchar * value)
{
  set (s, stat, G_TYPE_STRING, G_TYPE_STRING, value, NULL);
}

#define SET_U64(id, v) \
  gst_rtp_burst_stats_set_uint64 (s, GST_RTP_BURST_STAT_##id, v)
#define SET_UINT(id, v) \
  gst_rtp_burst_stats_set_uint (s, GST_RTP_BURST_STAT_##id, v)

/**
 * gst_rtp_burst_stats_from_stream:
 *
 * The stats structure of an element: its stream's (rtpburststream.h) and
 * its own counters.  The payloader's fields are added by the caller.
 */
GstStructure *
gst_rtp_burst_stats_from_stream (const RtpBurstStreamStats * st,
    guint64 invalid_packets, gint realtime_priority, guint64 wakeups)
{
  GstStructure *s = gst_rtp_burst_stats_new ();
  const RtpBurstMeterReport *meter = &st->meter;

  SET_U64 (FRAMES, st->frames);
  SET_U64 (PACKETS, st->packets);
  SET_U64 (BYTES, st->bytes);
  SET_U64 (SLOTS, st->slots);
  SET_U64 (FRAME_PERIOD, st->period);
  gst_rtp_burst_stats_set_string (s, GST_RTP_BURST_STAT_FRAME_PERIOD_SOURCE,
      rtp_burst_period_source_name (st->period_source));
  SET_UINT (PAYLOAD_SIZE, st->payload_size);
  SET_U64 (SLOT_DURATION, st->slot_duration);
  SET_UINT (EFFECTIVE_BURST_SIZE, st->burst_size);
  SET_U64 (MIN_SLOT_DURATION, st->min_slot_duration);
  SET_U64 (UNPACED_FRAMES, st->unpaced_frames);
  SET_U64 (CATCH_UP_FRAMES, st->catch_up_frames);
  SET_U64 (TIMEOUT_FRAMES, st->timeout_frames);
  SET_U64 (UNPACED_PUSHES, st->unpaced_pushes);
  SET_U64 (UNPACED_LATE_PUSHES, st->unpaced_late_pushes);
  SET_U64 (UNPACED_MAX_DELAY, st->unpaced_max_delay);
  SET_U64 (LATE_SLOTS, st->late_slots);
  SET_U64 (MAX_LATENESS, st->max_lateness);
  SET_U64 (INVALID_PACKETS, invalid_packets);
  SET_U64 (FLUSHED_PACKETS, st->flushed_packets);
  SET_UINT (QUEUED_PACKETS, st->queued_packets);
  SET_UINT (QUEUED_FRAMES, st->queued_frames);
  SET_U64 (MAX_RATE, st->max_rate);
  SET_U64 (MEAN_RATE, st->mean_rate);
  SET_U64 (SPREAD_FRAMES, st->spread_frames);
  SET_U64 (COMPRESSED_FRAMES, st->compressed_frames);
  SET_U64 (MAX_BACKLOG, st->max_backlog);
  SET_U64 (DROPPED_FRAMES, st->dropped_frames);
  SET_U64 (DROPPED_PACKETS, st->dropped_packets);
  SET_U64 (KEY_UNIT_REQUESTS, st->key_unit_requests);
  gst_rtp_burst_stats_set_int (s, GST_RTP_BURST_STAT_REALTIME_PRIORITY,
      realtime_priority);
  SET_U64 (WAKEUPS, wakeups);
  SET_U64 (SINK_LATENCY, st->sink_latency);
  SET_U64 (HELD_SLOTS, st->held_slots);
  SET_U64 (MARGIN, st->margin);
  SET_U64 (MARGIN_FRAMES, st->margin_frames);
  SET_UINT (GROUP_MEMBERS, st->group_members);
  SET_U64 (GROUP_FRAMES, st->group_frames);
  SET_U64 (GROUP_SHARED_SLOTS, st->group_shared_slots);
  SET_U64 (GROUP_PHASE, st->group_phase);
  SET_U64 (GROUP_GAP, st->group_gap);
  SET_U64 (GROUP_BUSY, st->group_busy);
  SET_U64 (GROUP_OTHER_CLOCK, st->group_other_clock);
  SET_U64 (GROUP_MAX_RATE, st->group_max_rate);
  SET_U64 (GROUP_RATE_WAITS, st->group_rate_waits);
  SET_U64 (GROUP_RATE_MAX_DELAY, st->group_rate_max_delay);
  SET_U64 (REPAIR_PACKETS, st->repair_packets);
  SET_U64 (REPAIR_BYTES, st->repair_bytes);
  SET_U64 (REPAIR_OVERRUNS, st->repair_overruns);
  SET_U64 (REPAIR_MAX_DELAY, st->repair_max_delay);
  SET_UINT (REPAIR_QUEUED, st->repair_queued);
  SET_U64 (PEAK_RATE_1MS, meter->peak_rate_1ms);
  SET_U64 (PEAK_RATE_10MS, meter->peak_rate_10ms);
  SET_U64 (RELEASE_ERROR_P50, meter->error_p50);
  SET_U64 (RELEASE_ERROR_P99, meter->error_p99);
  SET_U64 (RELEASE_ERROR_MAX, meter->error_max);
  SET_U64 (GAP_P1, meter->gap_p1);
  SET_U64 (GAP_P50, meter->gap_p50);
  SET_U64 (GAP_P99, meter->gap_p99);
  SET_U64 (FRAMES_OVER_PERIOD, meter->late_frames);
  SET_UINT (MAX_FRAME_END, meter->max_frame_end_permille);
  return s;
}

#undef SET_U64
#undef SET_UINT
