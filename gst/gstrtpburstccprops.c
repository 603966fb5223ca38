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

/* The properties of the congestion controller (gstrtpburstcc.h), kept
 * apart from the others in gstrtpburstprops.c. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrtpburstprops.h"

/**
 * gst_rtp_burst_cc_install_properties:
 *
 * Installs congestion-control, min-bitrate, max-bitrate, start-bitrate and
 * estimated-bitrate on the class of rtpburstpace.
 */
void
gst_rtp_burst_cc_install_properties (GObjectClass * gobject_class)
{
  /**
   * GstRtpBurstPace:congestion-control:
   *
   * Which controller turns the receiver's transport-wide congestion
   * control (TWCC) feedback into a rate cap: `gcc` (Google Congestion
   * Control, draft-ietf-rmcat-gcc-02, gst/rtpburstgcc.h), `tfrc` (TFRC, RFC
   * 5348, gst/rtpbursttfrc.h) or `none` (the default: the feedback is
   * ignored).  The feedback is the upstream `RTPTWCCPackets` event the
   * sending rtpsession pushes out of rtpbin's send_rtp_sink pad for each
   * report, so the element must be before rtpbin, the packets must carry
   * the transport-wide-cc header extension and the receiver must send
   * TWCC feedback.
   *
   * Each report gives the controller a new rate, the
   * #GstRtpBurstPace:estimated-bitrate, which becomes the stream's rate cap
   * (the lower of it and #GstRtpBurstPace:max-rate, if set): a frame that
   * would leave faster is spread beyond its period, within
   * #GstRtpBurstPace:max-delay, and #GstRtpBurstPace:overload decides
   * beyond, as with max-rate.  Until the first report nothing changes.
   * When the estimate moved by more than 5 % since the last one posted, the
   * element posts an element message `GstRtpBurstPaceBitrate` with the
   * field `estimated-bitrate` (guint64, bit/s).  If no `RTPTWCCPackets`
   * event came after 5 s of PLAYING with packets sent, the element posts
   * one warning (the receiver sends no feedback) and paces without
   * congestion control.  The controller's sizes are RTP payloads, as
   * rtpsession reports them.  Taken when the element goes from READY to
   * PAUSED, as are #GstRtpBurstPace:min-bitrate,
   * #GstRtpBurstPace:max-bitrate and #GstRtpBurstPace:start-bitrate.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_CONGESTION_CONTROL,
      g_param_spec_enum ("congestion-control", "Congestion control",
          "Controller of the rate cap from the receiver's transport-wide "
          "congestion control feedback (rtpbin's RTPTWCCPackets events; "
          "none = the feedback is ignored)",
          GST_TYPE_RTP_BURST_PACE_CONGESTION_CONTROL,
          DEFAULT_CONGESTION_CONTROL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:min-bitrate:
   *
   * The lowest estimate of #GstRtpBurstPace:congestion-control, bit/s:
   * the rate cap never goes below it.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MIN_BITRATE,
      g_param_spec_uint64 ("min-bitrate", "Minimum bitrate",
          "Lowest rate the congestion controller estimates, bit/s",
          0, MAX_MAX_RATE, DEFAULT_MIN_BITRATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:max-bitrate:
   *
   * The highest estimate of #GstRtpBurstPace:congestion-control, bit/s; 0
   * (the default) is none.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MAX_BITRATE,
      g_param_spec_uint64 ("max-bitrate", "Maximum bitrate",
          "Highest rate the congestion controller estimates, bit/s "
          "(0 = no maximum)",
          0, MAX_MAX_RATE, DEFAULT_MAX_BITRATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:start-bitrate:
   *
   * The rate #GstRtpBurstPace:congestion-control starts from, bit/s, taken
   * into [min-bitrate, max-bitrate]: the first report's estimate is near
   * it (gcc grows it by about 8 % a second while the path is not
   * congested; tfrc doubles it each round trip until the first loss).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_START_BITRATE,
      g_param_spec_uint64 ("start-bitrate", "Start bitrate",
          "Rate the congestion controller starts from, bit/s",
          1, MAX_MAX_RATE, DEFAULT_START_BITRATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:estimated-bitrate:
   *
   * The rate #GstRtpBurstPace:congestion-control estimates from the last
   * feedback report, bit/s: the rate cap it sets.  0 with `none` and until
   * the first report (again from READY to PAUSED).  Notified whenever it
   * changes, from the thread that brought the feedback (with `tfrc` also
   * from the streaming thread, when the nofeedback timer halves it).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_ESTIMATED_BITRATE,
      g_param_spec_uint64 ("estimated-bitrate", "Estimated bitrate",
          "The congestion controller's rate from the last feedback, bit/s "
          "(0 = none yet)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}
