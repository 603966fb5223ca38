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
 * The automatic margin: how much of each frame period to keep free after
 * the slots, sized from when the slots of recent frames actually came.
 *
 * duty is the most of the period a frame may use.  What pushes a frame's
 * last slot past its period is a stall of the pacing thread near the end of
 * the frame: on these 2-vCPU machines the scheduler ran the payloader's
 * work on the next frame (~3.5 ms for raw 1080p30, just before that frame is
 * complete) on the pacing thread's CPU, and every slot that came due in
 * that time left when it ended.  Such a stall sits at about the same place
 * in each period, so shortening the span by the lateness is not enough: the
 * last slot has to come before the stall begins.
 *
 * So for each paced frame that ended after its period (its last slot
 * released more than the period after its first slot's time), the caller
 * reports the offset, from the frame's first slot, of its last slot that
 * was released on time before the late ones at its end; the frame needed
 * the period minus that offset free at the end.  A frame that ended in time
 * needed nothing, and neither did one whose late slots began before the
 * last quarter of its period: a stall that early (of the host, say) is not
 * the one at the end of every frame, and no margin worth having would have
 * kept it in time.  The margin is the largest need of the last
 * RTP_BURST_MARGIN_WINDOW frames (the stall begins a little earlier or
 * later from frame to frame: 0.6 ms apart for raw 1080p30 here), and a
 * frame of k slots gets the longest span whose last slot, at
 * span * (k - 1) / k, comes no later than the period minus the margin:
 *
 *     min (duty * period, (period - margin) * k / (k - 1)),  >= period / 2
 *
 * Once frames end in time, the margin comes down only as the frame that set
 * it leaves the window (1024 frames, 34 s at 30 fps); a stall that begins
 * earlier than any in the window makes one frame late and raises it.
 * GLib only; all times in ns.
 */

#ifndef __RTP_BURST_MARGIN_H__
#define __RTP_BURST_MARGIN_H__

#include <glib.h>

G_BEGIN_DECLS

#define RTP_BURST_MARGIN_WINDOW 1024
#define RTP_BURST_MARGIN_RANK 1

typedef struct
{
  guint64 need[RTP_BURST_MARGIN_WINDOW];
  guint n, pos;
  guint64 margin;               /* the RANK-th largest of need[] */
} RtpBurstMargin;

void     rtp_burst_margin_init  (RtpBurstMargin * m);
/* The margin in use, ns. */
guint64  rtp_burst_margin_get   (const RtpBurstMargin * m);
void     rtp_burst_margin_frame (RtpBurstMargin * m, guint64 end,
                                 guint64 last_on_time, guint64 period);
guint64  rtp_burst_margin_span  (guint64 period, gdouble duty,
                                 guint64 margin, guint n_slots,
                                 gboolean * shortened);

G_END_DECLS

#endif /* __RTP_BURST_MARGIN_H__ */
