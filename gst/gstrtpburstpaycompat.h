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
 * What applications read from and write to "the payloader" of a stream,
 * answered by rtpburstpace when it stands in the payloader's place.
 * gst-rtsp-server takes the element named payN of a media factory's launch
 * line as the payloader: it reads `pt`, sets `mtu` (RTSP Blocksize) and
 * `seqnum-offset`, reads `seqnum` and, for RTP-Info, the `stats` fields of
 * GstRTPBasePayload.  `pt`, `seqnum`, `timestamp` and the stats come from
 * the packets the element has released (more exact than the payloader's,
 * which is ahead by what the element holds); `mtu` and `seqnum-offset` are
 * passed on to the payloader upstream.
 */

#ifndef __GST_RTP_BURST_PAY_COMPAT_H__
#define __GST_RTP_BURST_PAY_COMPAT_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum
{
  GST_RTP_BURST_PAY_PROP_PT = 0,
  GST_RTP_BURST_PAY_PROP_MTU,
  GST_RTP_BURST_PAY_PROP_SEQNUM_OFFSET,
  GST_RTP_BURST_PAY_PROP_SEQNUM,
  GST_RTP_BURST_PAY_PROP_TIMESTAMP,
  GST_RTP_BURST_PAY_N_PROPS
} GstRtpBurstPayProp;

/* What the released packets and the caps said; guarded by the element. */
typedef struct
{
  gint caps_pt;                 /* payload from the caps, -1 = none */
  gint clock_rate;              /* from the caps, 0 = none */
  gboolean have_packet;
  guint pt;
  guint32 ssrc;
  guint16 seq, first_seq;
  guint32 rtptime;
  GstClockTime running_time;    /* of the last released packet's PTS */
} GstRtpBurstPayInfo;

void     gst_rtp_burst_pay_compat_install (GObjectClass * klass,
                                           guint first_prop_id);
gboolean gst_rtp_burst_pay_compat_forwards (GstRtpBurstPayProp prop);
void     gst_rtp_burst_pay_compat_set_upstream (GstPad * sinkpad,
                                                GstRtpBurstPayProp prop,
                                                const GValue * value);
void     gst_rtp_burst_pay_compat_get_upstream (GstPad * sinkpad,
                                                GstRtpBurstPayProp prop,
                                                GValue * value);

void     gst_rtp_burst_pay_info_reset    (GstRtpBurstPayInfo * info);
/* Whether packets or caps told the payload type. */
gboolean gst_rtp_burst_pay_info_knows_pt (const GstRtpBurstPayInfo * info);
void     gst_rtp_burst_pay_info_set_caps (GstRtpBurstPayInfo * info,
                                          const GstCaps * caps);
void     gst_rtp_burst_pay_info_released (GstRtpBurstPayInfo * info,
                                          GstBuffer * last,
                                          const GstSegment * segment);
void     gst_rtp_burst_pay_info_get      (const GstRtpBurstPayInfo * info,
                                          GstRtpBurstPayProp prop,
                                          GValue * value);
/* A payloader property's value: from @info (read under @lock) or from the
 * payloader upstream of @sinkpad (mtu, seqnum-offset; pt until packets or
 * caps tell).  Call without @lock. */
void     gst_rtp_burst_pay_compat_get    (const GstRtpBurstPayInfo * info,
                                          GMutex * lock, GstPad * sinkpad,
                                          GstRtpBurstPayProp prop,
                                          GParamSpec * pspec, GValue * value);
/* The frame period of the caps' a-framerate, 0 if none or unusable (with
 * a warning in @object's debug log). */
guint64  gst_rtp_burst_caps_frame_period (GstObject * object,
                                          const GstCaps * caps);
void     gst_rtp_burst_pay_info_add_stats (const GstRtpBurstPayInfo * info,
                                           GstStructure * stats);

G_END_DECLS

#endif /* __GST_RTP_BURST_PAY_COMPAT_H__ */
