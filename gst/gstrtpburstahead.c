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

#include "gstrtpburstahead.h"
#include "rtpburstahead.h"

void
gst_rtp_burst_ahead_install_property (GObjectClass * klass, guint prop_id)
{
  /**
   * GstRtpBurstPace:release-ahead:
   *
   * Hand slots over up to this long before their time, ns; 0 (the
   * default): each at its time.  Every slot whose time is less than
   * release-ahead after now is pushed at once, its packets keeping the DTS
   * they get without it (the slot's time, minus what a synchronising sink
   * in the element's thread adds); then the releasing thread waits for the
   * next slot until its time minus (release-ahead - ΔT), or its time if
   * release-ahead is at most ΔT.  So with release-ahead of a frame period
   * ΔT or more it wakes about once per frame instead of once per slot,
   * every packet handed over between release-ahead - ΔT and release-ahead
   * before its time; shorter, a frame goes in chunks of release-ahead (the
   * `wakeups` field of the stats counts the clock waits).  Something
   * downstream must then release each packet at its DTS: rtpbursttxsink
   * gives it to the kernel as the packet's SO_TXTIME release time, for the
   * fq qdisc to pace (docs/txtime.md); a synchronising sink waits for it
   * itself (in the element's thread, it then waits once per slot instead
   * of the element).  A sink that sends at once (sync=false) sends the
   * slots early, in bursts.

   * Not applied, with a warning, while the element's group has a rate
   * (#GstRtpBurstPace:group-max-rate: the members book the shared link
   * when they push) or with #GstRtpBurstPace:congestion-control
   * (rtpsession takes the feedback's send times as the packets pass it,
   * which would be when they were handed over).  Repair packets keep
   * their own turn.  Taken at the next slot.
   *
   * Since: 0.1
   */
  g_object_class_install_property (klass, prop_id,
      g_param_spec_uint64 ("release-ahead", "Release ahead",
          "Hand each slot over this long before its time, its packets "
          "keeping their slot's DTS for a downstream element that releases "
          "them then (rtpbursttxsink, a synchronising sink), ns "
          "(0 = at its time)", 0, MAX_RELEASE_AHEAD, DEFAULT_RELEASE_AHEAD,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
}

void
gst_rtp_burst_warn_ahead_off (GstElement * element, guint reasons)
{
  if (reasons & RTP_BURST_AHEAD_OFF_GROUP_RATE)
    GST_ELEMENT_WARNING (element, CORE, NEGOTIATION,
        ("release-ahead is not applied while the group has a rate."),
        ("The slots leave at their times, one wake-up each, as with "
            "release-ahead=0: members of a group with group-max-rate book "
            "the shared link as they push."));
  if (reasons & RTP_BURST_AHEAD_OFF_CC)
    GST_ELEMENT_WARNING (element, CORE, NEGOTIATION,
        ("release-ahead is not applied with congestion control."),
        ("The slots leave at their times, one wake-up each, as with "
            "release-ahead=0: rtpsession takes the send times of the "
            "feedback as the packets pass it."));
}
