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
 * The element's side of release-ahead (gst/rtpburstahead.h: the decision):
 * the property and the warning when it is not applied.  Private to the
 * plugin.
 */

#ifndef __GST_RTP_BURST_AHEAD_H__
#define __GST_RTP_BURST_AHEAD_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define DEFAULT_RELEASE_AHEAD 0
#define MAX_RELEASE_AHEAD     (10 * GST_SECOND)

/* Installs release-ahead as @prop_id. */
void gst_rtp_burst_ahead_install_property (GObjectClass * klass,
    guint prop_id);
/* Warns that release-ahead is not applied, for @reasons (RtpBurstAheadOff
 * bits). */
void gst_rtp_burst_warn_ahead_off (GstElement * element, guint reasons);

G_END_DECLS

#endif /* __GST_RTP_BURST_AHEAD_H__ */
