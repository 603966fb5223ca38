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

/* The properties of a group of streams on one link (gst/rtpburstgroup.h):
 * group, group-max-rate, group-priority and the old name priority, kept
 * apart from the others in gstrtpburstprops.c. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrtpburstprops.h"
#include "rtpburstgroup.h"

/**
 * gst_rtp_burst_group_install_properties:
 *
 * Installs group, group-max-rate, group-priority and priority on the
 * class of rtpburstpace.
 */
void
gst_rtp_burst_group_install_properties (GObjectClass * gobject_class)
{
  /**
   * GstRtpBurstPace:group:
   *
   * Streams that leave on one link: the elements of one process with the
   * same group name share a timeline (gst/rtpburstgroup.h).  Each frame's
   * slots keep equation (2) (the same Δt, the same end) but the whole grid
   * moves by less than Δt to lie between the slots the other members have
   * booked, so streams whose frames are made at the same instants do not
   * send their packets at the same times: two streams of one rate leave
   * half a slot apart, as one stream of the total rate would.  One element
   * per stream, each with its own thread, as gst-rtsp-server (pay0, pay1,
   * ...) and rtpbin use them.  Taken when the element goes from READY to
   * PAUSED; set while PAUSED or PLAYING it is refused with a warning (the
   * property keeps saying which group is in force).  NULL or "" (the
   * default): no group.  The members place their slots in clock time, so
   * they may be in different pipelines (their base times differ) as long as
   * the pipelines share a clock; a member on another clock is not placed,
   * with a warning.  The pacing thread never waits for the group: a frame
   * that comes while another member is placing one stays where it is
   * (group-busy in the stats).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_GROUP,
      g_param_spec_string ("group", "Group",
          "Elements with the same group name place their slots between "
          "each other's (streams sharing a link; NULL or \"\" = none; "
          "set in NULL or READY)",
          NULL, G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:group-max-rate:
   *
   * A cap, in bit/s, on what the members of the #GstRtpBurstPace:group send
   * together (0, the default: none).  Every member books the bytes of each
   * push on the group's one virtual link before they leave; a push the link
   * has no room for yet waits until it has (group-rate-waits in the stats),
   * so over any interval the group sends at most this rate times its length
   * plus one push, and a stream may use what the others leave.  This holds
   * at the times pushes leave: a push takes the link as it leaves, once what
   * left before it has had its time, and one that downstream held takes it
   * from when it returned.  Repair packets go ahead of their stream's media;
   * pass-through members (#GstRtpBurstPace:pace FALSE) book without
   * waiting, ahead of all.  The group's rate is the smallest its members
   * set; booking never takes a lock (gst/rtpburstgroup.h).  Set it above
   * the sum of the streams' rates: below, their queues grow until the chain
   * blocks.  A frame whose pushes a synchronising sink in the element's own
   * thread holds (the first frame, before the element takes that sink's
   * latency) is paced by the sink: its pushes do not wait for the rate, and
   * their bytes are booked as a pass-through member's (docs/algorithm.md,
   * "A shared rate").
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_GROUP_MAX_RATE,
      g_param_spec_uint64 ("group-max-rate", "Group maximum rate",
          "Cap on the aggregate rate of the group's members in bit/s "
          "(0 = none; the group takes the smallest its members set)",
          0, MAX_MAX_RATE, DEFAULT_GROUP_MAX_RATE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:group-priority:
   *
   * Which of a #GstRtpBurstPace:group's streams leaves first when the
   * group's #GstRtpBurstPace:group-max-rate has no room for all: 0 (the
   * default) … 3, 0 the lowest.  A push of a higher priority is not held
   * behind the pushes of lower ones waiting for the link; those wait for it
   * too.  A stream's repair packets rank above its media and below the
   * media of a higher priority; pass-through members (#GstRtpBurstPace:pace
   * FALSE) rank above all.  A push of a lower priority already booked
   * leaves only once the higher one has had its time on the link.  Without
   * a group rate it changes nothing.  It has nothing to do with the
   * thread's scheduling (#GstRtpBurstPace:realtime-priority).  Called
   * priority before.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_GROUP_PRIORITY,
      g_param_spec_uint ("group-priority", "Group priority",
          "Rank of the stream's pushes on the group's rate: higher leaves "
          "first when the link has no room for all (0 = lowest; repair "
          "packets rank above their media, pass-through streams above all; "
          "no effect without group-max-rate)",
          0, RTP_BURST_GROUP_PRIORITIES - 1, DEFAULT_GROUP_PRIORITY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstRtpBurstPace:priority:
   *
   * The old name of #GstRtpBurstPace:group-priority: the same value, set
   * and read.
   *
   * Since: 0.1
   * Deprecated: 0.1: Use #GstRtpBurstPace:group-priority.
   */
  g_object_class_install_property (gobject_class, PROP_OLD_PRIORITY,
      g_param_spec_uint ("priority", "Priority (deprecated)",
          "Deprecated name of group-priority (the same value)",
          0, RTP_BURST_GROUP_PRIORITIES - 1, DEFAULT_GROUP_PRIORITY,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_DEPRECATED |
          G_PARAM_STATIC_STRINGS));
}

void
gst_rtp_burst_set_group_name (GstElement * element, const GValue * value,
    gchar ** name, gchar ** refused)
{
  gboolean fixed;

  /* the group is joined from READY to PAUSED: a later name is kept apart,
   * so that the property still says the group in force and the warning
   * names the refused one */
  GST_OBJECT_LOCK (element);
  fixed = GST_STATE (element) > GST_STATE_READY ||
      GST_STATE_NEXT (element) > GST_STATE_READY;
  GST_OBJECT_UNLOCK (element);
  if (fixed) {
    g_free (*refused);
    *refused = g_value_dup_string (value);
    if (*refused == NULL)
      *refused = g_strdup ("");
  } else {
    g_free (*name);
    *name = g_value_dup_string (value);
  }
}
