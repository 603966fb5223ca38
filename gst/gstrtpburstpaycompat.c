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

#include <gst/rtp/gstrtpbuffer.h>

#include "gstrtpburstlock.h"
#include "gstrtpburstpaycompat.h"
#include "gstrtpburststats.h"
#include "rtpburstschedule.h"

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

static const gchar *prop_names[GST_RTP_BURST_PAY_N_PROPS] = {
  "pt", "mtu", "seqnum-offset", "seqnum", "timestamp"
};

/**
 * gst_rtp_burst_pay_compat_install:
 * @first_prop_id: the id of the first of GST_RTP_BURST_PAY_N_PROPS
 *   consecutive property ids
 *
 * Installs the payloader properties, named and typed as GstRTPBasePayload
 * names and types them.
 */
void
gst_rtp_burst_pay_compat_install (GObjectClass * klass, guint first_prop_id)
{
  /**
   * GstRtpBurstPace:pt:
   *
   * The payload type of the stream: of the packets released, else from the
   * caps, else the `pt` of the payloader upstream.  For applications that
   * read it from the element standing in for the payloader, such as
   * gst-rtsp-server (the element named `pay0` of a media factory).
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass,
      first_prop_id + GST_RTP_BURST_PAY_PROP_PT,
      g_param_spec_uint ("pt", "Payload type",
          "Payload type of the stream (released packets, else caps, else "
          "the payloader upstream); read-only", 0, 0x7f, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:mtu:
   *
   * The `mtu` of the payloader upstream, read from it and set on it, so that
   * an application that sets the payloader's MTU (gst-rtsp-server on an
   * RTSP Blocksize header) reaches the real payloader.  Reads 0 when the
   * element upstream has no `mtu`.  The payloader uses it from its next
   * buffer, so it may be set while playing; it is set only while the
   * element is linked to the payloader.
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass,
      first_prop_id + GST_RTP_BURST_PAY_PROP_MTU,
      g_param_spec_uint ("mtu", "MTU",
          "MTU in bytes of the payloader upstream (passed on to it; "
          "0 = none upstream)",
          0, G_MAXUINT, 0, G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:seqnum-offset:
   *
   * The `seqnum-offset` of the payloader upstream, passed on to it
   * (gst-rtsp-server sets it when it resumes a suspended media).  The
   * payloader takes it when it goes from READY to PAUSED.
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass,
      first_prop_id + GST_RTP_BURST_PAY_PROP_SEQNUM_OFFSET,
      g_param_spec_int ("seqnum-offset", "Sequence number offset",
          "seqnum-offset of the payloader upstream (passed on to it; "
          "-1 = random)", -1, G_MAXUINT16, -1,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:seqnum:
   *
   * The RTP sequence number of the last packet released.
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass,
      first_prop_id + GST_RTP_BURST_PAY_PROP_SEQNUM,
      g_param_spec_uint ("seqnum", "Sequence number",
          "RTP sequence number of the last packet released", 0, G_MAXUINT16,
          0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:timestamp:
   *
   * The RTP timestamp of the last packet released.
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass,
      first_prop_id + GST_RTP_BURST_PAY_PROP_TIMESTAMP,
      g_param_spec_uint ("timestamp", "Timestamp",
          "RTP timestamp of the last packet released", 0, G_MAXUINT32, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

/* TRUE for the properties that belong to the payloader upstream. */
gboolean
gst_rtp_burst_pay_compat_forwards (GstRtpBurstPayProp prop)
{
  return prop == GST_RTP_BURST_PAY_PROP_MTU ||
      prop == GST_RTP_BURST_PAY_PROP_SEQNUM_OFFSET;
}

/* The element that feeds @sinkpad, through ghost pads; or NULL. */
static GstElement *
upstream_element (GstPad * sinkpad)
{
  GstPad *pad = gst_pad_get_peer (sinkpad);
  guint depth;

  for (depth = 0; pad != NULL && depth < 16; depth++) {
    GstPad *next = NULL;

    if (GST_IS_GHOST_PAD (pad)) {
      /* a bin's source pad: the pad inside it */
      next = gst_ghost_pad_get_target (GST_GHOST_PAD (pad));
    } else if (GST_IS_PROXY_PAD (pad)) {
      /* the inner side of a bin's sink pad: what feeds the bin */
      GstProxyPad *ghost = gst_proxy_pad_get_internal (GST_PROXY_PAD (pad));

      if (ghost) {
        next = gst_pad_get_peer (GST_PAD (ghost));
        gst_object_unref (ghost);
      }
    } else {
      GstElement *element = gst_pad_get_parent_element (pad);

      gst_object_unref (pad);
      return element;
    }
    gst_object_unref (pad);
    pad = next;
  }
  if (pad)
    gst_object_unref (pad);
  return NULL;
}

static GParamSpec *
upstream_pspec (GstElement * element, GstRtpBurstPayProp prop)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), prop_names[prop]);

  if (pspec == NULL || !(pspec->flags & G_PARAM_READABLE))
    return NULL;
  return pspec;
}

void
gst_rtp_burst_pay_compat_set_upstream (GstPad * sinkpad,
    GstRtpBurstPayProp prop, const GValue * value)
{
  GstElement *element = upstream_element (sinkpad);
  GParamSpec *pspec = element ? upstream_pspec (element, prop) : NULL;
  GValue v = G_VALUE_INIT;

  if (pspec == NULL || !(pspec->flags & G_PARAM_WRITABLE)) {
    GST_WARNING_OBJECT (sinkpad, "no payloader upstream has a writable %s; "
        "not set", prop_names[prop]);
    goto done;
  }
  g_value_init (&v, pspec->value_type);
  if (g_value_transform (value, &v) && !g_param_value_validate (pspec, &v)) {
    GST_DEBUG_OBJECT (sinkpad, "setting %s on %" GST_PTR_FORMAT,
        prop_names[prop], element);
    g_object_set_property (G_OBJECT (element), prop_names[prop], &v);
  } else {
    GST_WARNING_OBJECT (sinkpad, "%" GST_PTR_FORMAT " does not take this %s",
        element, prop_names[prop]);
  }
  g_value_unset (&v);
done:
  if (element)
    gst_object_unref (element);
}

/* Reads @prop from the payloader upstream into @value, which keeps its
 * default if there is none. */
void
gst_rtp_burst_pay_compat_get_upstream (GstPad * sinkpad,
    GstRtpBurstPayProp prop, GValue * value)
{
  GstElement *element = upstream_element (sinkpad);
  GParamSpec *pspec = element ? upstream_pspec (element, prop) : NULL;
  GValue v = G_VALUE_INIT;

  if (pspec) {
    g_value_init (&v, pspec->value_type);
    g_object_get_property (G_OBJECT (element), prop_names[prop], &v);
    if (!g_value_transform (&v, value))
      GST_WARNING_OBJECT (sinkpad, "cannot read %s of %" GST_PTR_FORMAT,
          prop_names[prop], element);
    g_value_unset (&v);
  }
  if (element)
    gst_object_unref (element);
}

void
gst_rtp_burst_pay_info_reset (GstRtpBurstPayInfo * info)
{
  info->caps_pt = -1;
  info->clock_rate = 0;
  info->have_packet = FALSE;
  info->pt = 0;
  info->ssrc = 0;
  info->seq = info->first_seq = 0;
  info->rtptime = 0;
  info->running_time = GST_CLOCK_TIME_NONE;
}

void
gst_rtp_burst_pay_info_set_caps (GstRtpBurstPayInfo * info,
    const GstCaps * caps)
{
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  gint v;

  info->caps_pt = gst_structure_get_int (s, "payload", &v) && v >= 0 &&
      v <= 0x7f ? v : -1;
  info->clock_rate = gst_structure_get_int (s, "clock-rate", &v) && v > 0 ?
      v : 0;
}

/* Notes the last packet of a slot that is being released. */
void
gst_rtp_burst_pay_info_released (GstRtpBurstPayInfo * info, GstBuffer * last,
    const GstSegment * segment)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  /* the element only queues packets that mapped */
  if (!gst_rtp_buffer_map (last, GST_MAP_READ, &rtp))
    return;
  info->pt = gst_rtp_buffer_get_payload_type (&rtp);
  info->ssrc = gst_rtp_buffer_get_ssrc (&rtp);
  info->seq = gst_rtp_buffer_get_seq (&rtp);
  info->rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  if (!info->have_packet)
    info->first_seq = info->seq;
  info->have_packet = TRUE;
  info->running_time = segment->format == GST_FORMAT_TIME ?
      gst_segment_to_running_time (segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (last)) : GST_CLOCK_TIME_NONE;
}

/* @prop: one that does not forward (pt, seqnum, timestamp); pt is left as
 * it is when nothing tells it. */
void
gst_rtp_burst_pay_info_get (const GstRtpBurstPayInfo * info,
    GstRtpBurstPayProp prop, GValue * value)
{
  switch (prop) {
    case GST_RTP_BURST_PAY_PROP_PT:
      if (info->have_packet)
        g_value_set_uint (value, info->pt);
      else if (info->caps_pt >= 0)
        g_value_set_uint (value, info->caps_pt);
      break;
    case GST_RTP_BURST_PAY_PROP_SEQNUM:
      g_value_set_uint (value, info->seq);
      break;
    case GST_RTP_BURST_PAY_PROP_TIMESTAMP:
      g_value_set_uint (value, info->rtptime);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* The fields of GstRTPBasePayload's stats that gst-rtsp-server reads for
 * RTP-Info, always present as there. */
void
gst_rtp_burst_pay_info_add_stats (const GstRtpBurstPayInfo * info,
    GstStructure * stats)
{
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_PT,
      info->have_packet ? info->pt : (guint) MAX (info->caps_pt, 0));
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_SSRC, info->ssrc);
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_SEQNUM, info->seq);
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_SEQNUM_OFFSET,
      info->first_seq);
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_TIMESTAMP,
      info->rtptime);
  gst_rtp_burst_stats_set_uint (stats, GST_RTP_BURST_STAT_CLOCK_RATE,
      (guint) info->clock_rate);
  gst_rtp_burst_stats_set_uint64 (stats, GST_RTP_BURST_STAT_RUNNING_TIME,
      info->running_time);
}

gboolean
gst_rtp_burst_pay_info_knows_pt (const GstRtpBurstPayInfo * info)
{
  return info->have_packet || info->caps_pt >= 0;
}

void
gst_rtp_burst_pay_compat_get (const GstRtpBurstPayInfo * info, GMutex * lock,
    GstPad * sinkpad, GstRtpBurstPayProp prop, GParamSpec * pspec,
    GValue * value)
{
  gboolean known = TRUE;

  if (!gst_rtp_burst_pay_compat_forwards (prop)) {
    RTP_BURST_MUTEX_LOCK (lock);
    gst_rtp_burst_pay_info_get (info, prop, value);
    known = prop != GST_RTP_BURST_PAY_PROP_PT ||
        gst_rtp_burst_pay_info_knows_pt (info);
    RTP_BURST_MUTEX_UNLOCK (lock);
  }
  /* pt: the payloader's until packets or caps tell */
  if (gst_rtp_burst_pay_compat_forwards (prop) || !known) {
    g_param_value_set_default (pspec, value);
    gst_rtp_burst_pay_compat_get_upstream (sinkpad, prop, value);
  }
}

guint64
gst_rtp_burst_caps_frame_period (GstObject * object, const GstCaps * caps)
{
  const gchar *framerate =
      gst_structure_get_string (gst_caps_get_structure (caps, 0),
      "a-framerate");
  guint64 period;

  if (framerate == NULL)
    return 0;
  period = rtp_burst_parse_framerate (framerate);
  if (period == 0)
    GST_WARNING_OBJECT (object, "ignoring unusable a-framerate \"%s\"",
        framerate);
  return period;
}
