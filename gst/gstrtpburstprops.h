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
 * The element's properties: their ids, defaults and specifications (with
 * the documentation gst-inspect-1.0 and docs/reference.md show), and the
 * ones that shape the schedule, kept in an RtpBurstStreamConfig.
 * Private to the plugin.
 */

#ifndef __GST_RTP_BURST_PROPS_H__
#define __GST_RTP_BURST_PROPS_H__

#include <gst/gst.h>

#include "gstrtpburstahead.h"
#include "gstrtpburstcc.h"
#include "gstrtpburstpaycompat.h"
#include "rtpburststream.h"

G_BEGIN_DECLS

#define DEFAULT_BURST_SIZE    1
#define DEFAULT_DUTY          0.9
#define DEFAULT_SLOT_JITTER   0.01
#define DEFAULT_SEED          0
#define DEFAULT_FRAME_PERIOD  0
#define DEFAULT_PAYLOAD_SIZE  0
#define DEFAULT_MIN_SLOT_DURATION 0
#define DEFAULT_SYNC_UPSTREAM_LATENCY FALSE
#define DEFAULT_MAX_RATE      0
#define DEFAULT_MAX_RATE_FACTOR 0.0
#define DEFAULT_MAX_DELAY     (100 * GST_MSECOND)
#define DEFAULT_OVERLOAD      RTP_BURST_OVERLOAD_COMPRESS
#define DEFAULT_TIMER_SLACK   1000
#define DEFAULT_REALTIME_PRIORITY 0
#define DEFAULT_AUTO_MARGIN   TRUE
#define DEFAULT_PACE_OTHER_PAYLOADS TRUE
#define DEFAULT_PACE          TRUE
#define DEFAULT_GROUP_MAX_RATE 0
#define DEFAULT_GROUP_PRIORITY 0
#define DEFAULT_CONGESTION_CONTROL GST_RTP_BURST_PACE_CONGESTION_CONTROL_NONE
#define DEFAULT_MIN_BITRATE   100000
#define DEFAULT_MAX_BITRATE   0
#define DEFAULT_START_BITRATE 2048000
#define MAX_REALTIME_PRIORITY 99
/* 100 Gbit/s */
#define MAX_MAX_RATE          (G_GUINT64_CONSTANT (100000000000))
#define MAX_MAX_DELAY         (10 * GST_SECOND)
#define MAX_MIN_SLOT_DURATION (GST_SECOND)

#define MAX_SLOT_JITTER       0.5
#define MAX_PAYLOAD_SIZE      65535

enum
{
  PROP_0,
  PROP_BURST_SIZE,
  PROP_DUTY,
  PROP_SLOT_JITTER,
  PROP_SEED,
  PROP_FRAME_PERIOD,
  PROP_PAYLOAD_SIZE,
  PROP_MIN_SLOT_DURATION,
  PROP_SYNC_UPSTREAM_LATENCY,
  PROP_MAX_RATE,
  PROP_MAX_RATE_FACTOR,
  PROP_MAX_DELAY,
  PROP_OVERLOAD,
  PROP_TIMER_SLACK,
  PROP_REALTIME_PRIORITY,
  PROP_AUTO_MARGIN,
  PROP_GROUP,
  PROP_PACE_OTHER_PAYLOADS,
  PROP_PACE,
  PROP_GROUP_MAX_RATE,
  PROP_GROUP_PRIORITY,
  PROP_CONGESTION_CONTROL,
  PROP_MIN_BITRATE,
  PROP_MAX_BITRATE,
  PROP_START_BITRATE,
  PROP_ESTIMATED_BITRATE,
  PROP_RELEASE_AHEAD,
  PROP_PAY_FIRST,               /* GST_RTP_BURST_PAY_N_PROPS of them */
  PROP_STATS = PROP_PAY_FIRST + GST_RTP_BURST_PAY_N_PROPS,
  /* the old names of renamed properties, deprecated: each is the property
   * it was renamed to (gst_rtp_burst_props_renamed) */
  PROP_OLD_MAX_LATENCY,
  PROP_OLD_PACE_REPAIR,
  PROP_OLD_PRIORITY,
};

/* The type of the overload property, RtpBurstOverload's values; plugin
 * API so that the documentation lists them. */
#define GST_TYPE_RTP_BURST_PACE_OVERLOAD \
    (gst_rtp_burst_pace_overload_get_type ())
GType    gst_rtp_burst_pace_overload_get_type (void);

void     gst_rtp_burst_pace_install_properties (GObjectClass * klass);
/* ... of them, those of the congestion controller (gstrtpburstccprops.c) */
void     gst_rtp_burst_cc_install_properties (GObjectClass * klass);
void     gst_rtp_burst_group_install_properties (GObjectClass * klass);

/* For the deprecated old name of a renamed property: logs a warning the
 * first time @object uses that name (a bit per old name in *@warned, set
 * atomically), sets *@pspec to the new property's spec and returns its id.
 * For any other property: returns @prop_id and leaves *@pspec. */
guint    gst_rtp_burst_props_renamed (GObject * object, guint prop_id,
                                      GParamSpec ** pspec, guint * warned);

/* The config with every property at its default. */
void     gst_rtp_burst_config_init (RtpBurstStreamConfig * config);
/* Sets or gets a property of the config; FALSE if @prop_id is another. */
gboolean gst_rtp_burst_config_set  (RtpBurstStreamConfig * config,
                                    guint prop_id, const GValue * value);
gboolean gst_rtp_burst_config_get  (const RtpBurstStreamConfig * config,
                                    guint prop_id, GValue * value);

/* The group property: @value becomes *@name in NULL and READY; later it is
 * refused (kept in *@refused for a warning), as the group is taken from
 * READY to PAUSED and kept until READY.  Call with the element's lock,
 * which guards *@name and *@refused; the state is read under the object
 * lock, taken here. */
void     gst_rtp_burst_set_group_name (GstElement * element,
                                       const GValue * value, gchar ** name,
                                       gchar ** refused);

G_END_DECLS

#endif /* __GST_RTP_BURST_PROPS_H__ */
