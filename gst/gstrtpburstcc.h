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
 * Congestion control from transport-wide congestion control feedback: the
 * upstream RTPTWCCPackets event that the sending rtpsession (rtpbin) of
 * GStreamer 1.22 pushes out of its send_rtp_sink pad for each TWCC report
 * it receives.  The event's packets become RtpBurstFeedbackPacket[] (the
 * 16-bit transport-wide sequence numbers unwrapped), fed to the controller
 * the congestion-control property chose (rtpburstgcc.h, rtpbursttfrc.h),
 * whose rate, the estimate, becomes the stream's rate cap.
 *
 * The event, as rtpsession builds it (gst-plugins-good 1.22,
 * rtpstats.c rtp_twcc_stats_get_packets_structure): a structure
 * "RTPTWCCPackets" whose field "packets" is a GValueArray of structures
 * "RTPTWCCPacket", one per packet the report covers, in sequence order:
 *
 *   seqnum        guint     the transport-wide sequence number (16 bits)
 *   local-ts      guint64   when the sending rtpsession sent it, on the
 *                           system clock (gst_system_clock_obtain ()); NONE
 *                           if it no longer knows the packet
 *   remote-ts     guint64   when it arrived, on the receiver's reference
 *                           time (any origin); NONE if lost
 *   payload-type  guchar
 *   size          guint     its RTP payload, bytes
 *   lost          gboolean
 *
 * The round trip the controllers take is measured from the same reports
 * (rtpburstrtt.h: when a packet left, when the report of it came, less
 * how long the receiver held it).  TFRC's nofeedback timer runs on the
 * same clock as the reports' local-ts: what the element pushes is told to
 * TFRC, and its timer checked, after each push.
 *
 * The controller's own state is guarded by a lock of its own, never the
 * element's: the pacing thread only tries it, and never waits for a
 * report to be computed.  Private to the plugin.
 */

#ifndef __GST_RTP_BURST_CC_H__
#define __GST_RTP_BURST_CC_H__

#include <gst/gst.h>

#include "rtpburstgcc.h"
#include "rtpburstprobe.h"
#include "rtpburstrtt.h"
#include "rtpbursttfrc.h"

G_BEGIN_DECLS

/* The values of the congestion-control property (documented with its
 * GType, in gstrtpburstcc.c). */
typedef enum
{
  GST_RTP_BURST_PACE_CONGESTION_CONTROL_NONE = 0,
  GST_RTP_BURST_PACE_CONGESTION_CONTROL_GCC,
  GST_RTP_BURST_PACE_CONGESTION_CONTROL_TFRC,
} GstRtpBurstPaceCongestionControl;

#define GST_TYPE_RTP_BURST_PACE_CONGESTION_CONTROL \
    (gst_rtp_burst_pace_congestion_control_get_type ())
GType    gst_rtp_burst_pace_congestion_control_get_type (void);

/* The name of the upstream event and its structure. */
#define GST_RTP_BURST_CC_EVENT_NAME "RTPTWCCPackets"
/* The element message posted when the estimate changed by more than
 * GST_RTP_BURST_CC_MESSAGE_CHANGE since the last one posted. */
#define GST_RTP_BURST_CC_MESSAGE_NAME "GstRtpBurstPaceBitrate"
#define GST_RTP_BURST_CC_MESSAGE_CHANGE 0.05
/* With a controller, PLAYING this long with packets pushed and no
 * RTPTWCCPackets event: the no-feedback warning (running time, ns). */
#define GST_RTP_BURST_CC_FEEDBACK_TIMEOUT (5 * GST_SECOND)

typedef struct
{
  /* guards everything below, except what is said atomic; taken before the
   * element's lock when both are (the apply callback) */
  GMutex lock;

  /* the properties; the mode and bounds are taken from READY to PAUSED */
  GstRtpBurstPaceCongestionControl mode;
  guint64 min_bitrate, max_bitrate, start_bitrate;

  /* the controller in use (none: both NULL) */
  RtpBurstGcc *gcc;
  RtpBurstTfrc *tfrc;
  guint64 last_seq;             /* the highest unwrapped seqnum seen */
  gboolean have_seq;
  GArray *pkts;                 /* RtpBurstFeedbackPacket, reused */
  RtpBurstRtt rtt;              /* the round trip from the reports */

  guint64 estimate;             /* bit/s, 0: none yet */
  guint64 posted;               /* the estimate of the last message */
  guint64 reports, packets, invalid;

  /* the no-feedback warning: read by the pacing thread without the lock */
  gint active;                  /* atomic: a controller is in use */
  gint have_feedback;           /* atomic: an event came since the start */
  gint warned;                  /* atomic: the warning was posted */
  guint64 first_push;           /* the pacing thread's only */

  /* TFRC's sends and nofeedback timer */
  gint timer;                   /* atomic: the controller is TFRC */
  gsize unsent;                 /* atomic: bytes pushed, not yet given to
                                 * TFRC (by whoever holds the lock) */

  /* GCC's fast start (rtpburstprobe.h): its frames, their pushes and the
   * result */
  RtpBurstProbe *probe;
  gint probing;                 /* atomic: a probe is planned or awaited */
  guint64 probe_result;         /* bit/s; 0 = none yet */
} GstRtpBurstCc;

/* Called under the controller's lock when the estimate changed, so that
 * the changes reach the caller in order. */
typedef void (*GstRtpBurstCcApply) (guint64 estimate, gpointer user_data);

void     gst_rtp_burst_cc_init      (GstRtpBurstCc * cc);
void     gst_rtp_burst_cc_clear     (GstRtpBurstCc * cc);

/* The properties congestion-control, min-bitrate, max-bitrate,
 * start-bitrate and estimated-bitrate: FALSE if @prop_id is another. */
gboolean gst_rtp_burst_cc_set_property (GstRtpBurstCc * cc, guint prop_id,
                                        const GValue * value);
gboolean gst_rtp_burst_cc_get_property (GstRtpBurstCc * cc, guint prop_id,
                                        GValue * value);

/* READY to PAUSED: a new controller as the properties say, no estimate.
 * TRUE if the estimate was not 0 (it changed). */
gboolean gst_rtp_burst_cc_start     (GstRtpBurstCc * cc);

/* An upstream event: if it is RTPTWCCPackets, feeds it to the controller,
 * calls @apply if the estimate changed, then (without any lock) notifies
 * estimated-bitrate on @element and posts the element message.  TRUE if
 * it was RTPTWCCPackets. */
gboolean gst_rtp_burst_cc_handle_event (GstRtpBurstCc * cc,
                                        GstElement * element,
                                        GstEvent * event,
                                        GstRtpBurstCcApply apply,
                                        gpointer user_data);

/* The pacing thread pushed @bytes (whole packets), the push returning at
 * running time @now (NONE: not known): posts the no-feedback warning on
 * @element once it is due; with TFRC, gives it the bytes and runs its
 * nofeedback timer, on the system clock, and if the estimate changed
 * calls @apply, notifies and posts as gst_rtp_burst_cc_handle_event ()
 * does.  Only tries the controller's lock: if a report holds it, the
 * bytes wait for the report and the timer for the next push. */
void     gst_rtp_burst_cc_pushed    (GstRtpBurstCc * cc,
                                     GstElement * element, guint64 now,
                                     guint64 bytes,
                                     GstRtpBurstCcApply apply,
                                     gpointer user_data);

/* GCC's fast start.  The rate the next frame is to probe the path at
 * (0 = none: no probe planned, or one being sent); the pacing thread asks
 * after each push, without the element's lock
 * (rtp_burst_stream_probe_next_frame ()).  Takes the controller's lock
 * only while a probe is planned or awaited. */
guint64  gst_rtp_burst_cc_probe_rate (GstRtpBurstCc * cc);
/* A push of a probe frame, @n_packets of @bytes, began at @start and
 * returned at @end (gst_rtp_burst_cc_now ()); @frame_last: it ended the
 * frame, which closes the probe's cluster. */
void     gst_rtp_burst_cc_probe_sent (GstRtpBurstCc * cc, guint n_packets,
                                      guint64 bytes, guint64 start,
                                      guint64 end, gboolean frame_last);
/* Now on the clock of the reports' send times (the system clock, which
 * the sending rtpsession stamps its packets with); NONE if unknown. */
guint64  gst_rtp_burst_cc_now        (void);

/* Adds the estimated-bitrate and cc-* fields to the stats @s. */
void     gst_rtp_burst_cc_add_stats (GstRtpBurstCc * cc, GstStructure * s);

G_END_DECLS

#endif /* __GST_RTP_BURST_CC_H__ */
