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

#include <gst/video/video.h>

#include "gstrtpburstahead.h"
#include "gstrtpburstmessages.h"
#include "gstrtpburstthread.h"

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

/* The rate cap dropped a whole frame (overload=drop): an element message
 * rtpburstpace-frame-dropped, and, since the decoder lost its reference, a
 * request upstream for a key unit. */
void
gst_rtp_burst_post_frame_dropped (GstElement * element, GstPad * sinkpad,
    const RtpBurstDrop * d)
{
  GstStructure *s;

  GST_INFO_OBJECT (element, "dropped frame %u of %u packets: its last slot "
      "would be %" GST_TIME_FORMAT " after it was due", d->rtptime,
      d->packets, GST_TIME_ARGS (d->backlog));
  /* max-latency: the max-delay in force, under the property's old name,
   * which applications may read */
  s = gst_structure_new ("rtpburstpace-frame-dropped",
      "rtptime", G_TYPE_UINT, d->rtptime,
      "packets", G_TYPE_UINT, d->packets,
      "bytes", G_TYPE_UINT64, d->bytes,
      "backlog", G_TYPE_UINT64, d->backlog,
      "max-latency", G_TYPE_UINT64, d->max_latency,
      "dropped-frames", G_TYPE_UINT64, d->dropped_frames, NULL);
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT_CAST (element), s));
  gst_pad_push_event (sinkpad,
      gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
          TRUE, 0));
}

/* At most one warning about invalid packets per this interval (µs). */
#define INVALID_WARN_INTERVAL (G_USEC_PER_SEC)

void
gst_rtp_burst_invalid_reset (GstRtpBurstInvalid * invalid)
{
  invalid->count = 0;
  invalid->warn = FALSE;
  invalid->last_warning = 0;
}

void
gst_rtp_burst_invalid_count (GstRtpBurstInvalid * invalid)
{
  gint64 now = g_get_monotonic_time ();

  invalid->count++;
  if (invalid->last_warning == 0 ||
      now - invalid->last_warning >= INVALID_WARN_INTERVAL) {
    invalid->last_warning = now;
    invalid->warn = TRUE;
  }
}

guint64
gst_rtp_burst_invalid_take_warning (GstRtpBurstInvalid * invalid)
{
  gboolean warn = invalid->warn;

  invalid->warn = FALSE;
  return warn ? invalid->count : 0;
}

void
gst_rtp_burst_warn_invalid (GstElement * element, guint64 n_invalid)
{
  GST_ELEMENT_WARNING (element, STREAM, DECODE,
      ("Dropping packets that are not valid RTP."),
      ("%" G_GUINT64_FORMAT " invalid packets so far (see the "
          "invalid-packets field of the stats property)", n_invalid));
}

void
gst_rtp_burst_warn_no_period (GstElement * element)
{
  GST_ELEMENT_WARNING (element, STREAM, FORMAT,
      ("Cannot derive the frame period; frames are passed unpaced."),
      ("The caps have no a-framerate, the RTP timestamps do not advance "
          "and frame arrivals cannot be timed. Set the frame-period "
          "property."));
}

void
gst_rtp_burst_warn_other_clock (GstElement * element, const gchar * group)
{
  GST_ELEMENT_WARNING (element, CORE, CLOCK,
      ("The other members of group \"%s\" run on another clock: this "
          "stream's slots are not placed between theirs.", group),
      ("Members of a group place their slots in clock time, so they must "
          "share a clock (gst_pipeline_use_clock ()); see the group-other-"
          "clock field of the stats property."));
}

void
gst_rtp_burst_warn_refused_group (GstElement * element, const gchar * group)
{
  GST_ELEMENT_WARNING (element, CORE, STATE_CHANGE,
      ("The group cannot change while PAUSED or PLAYING."),
      ("group \"%s\" was not taken; the element stays in the group it "
          "joined (the group property says which). Set it in NULL or "
          "READY.", group));
}

void
gst_rtp_burst_post_pending (GstElement * element, GstPad * sinkpad,
    GstRtpBurstPending * p)
{
  if (p->notices.dropped)
    gst_rtp_burst_post_frame_dropped (element, sinkpad, &p->notices.drop);
  if (p->n_invalid > 0)
    gst_rtp_burst_warn_invalid (element, p->n_invalid);
  if (p->notices.period_unknown)
    gst_rtp_burst_warn_no_period (element);
  if (p->notices.ahead_off)
    gst_rtp_burst_warn_ahead_off (element, p->notices.ahead_off);
  if (p->rt_warning)
    gst_rtp_burst_thread_post_warning (element, p->rt_priority, p->rt_error);
  if (p->notices.other_clock)
    gst_rtp_burst_warn_other_clock (element, p->group);
  if (p->refused_group)
    gst_rtp_burst_warn_refused_group (element, p->refused_group);
  g_free (p->group);
  g_free (p->refused_group);
}
