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


/* The source pad task that paces: asks the stream what to do next, waits
 * as it says, pushes; started and stopped with the source pad.  The
 * element's state is in gstrtpburstpace-private.h. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstrtpburstpace-private.h"
#include "gstrtpburstlog.h"
#include "gstrtpburstout.h"

#define GST_CAT_DEFAULT rtp_burst_pace_debug

static void gst_rtp_burst_pace_loop (GstRtpBurstPace * self);

/* Makes the task and a waiting chain or query stop at their next check and
 * wakes them.  Call without the lock. */
void
gst_rtp_burst_pace_set_flushing (GstRtpBurstPace * self)
{
  LOCK (self);
  self->srcresult = GST_FLOW_FLUSHING;
  gst_rtp_burst_wait_unschedule_locked (&self->wait);
  if (self->task_waiting)
    g_cond_signal (&self->task_cond);
  gst_rtp_burst_pace_wake_upstream_locked (self);
  UNLOCK (self);
}

/* ... and waits until the task has paused. */
void
gst_rtp_burst_pace_pause_task_flushing (GstRtpBurstPace * self)
{
  gst_rtp_burst_pace_set_flushing (self);
  gst_pad_pause_task (self->srcpad);
}

/* Starts (or resumes) the source pad task.  The task holds a reference to
 * the element; a paused task keeps the data it was created with, so a
 * reference is only taken when a new task is made. */
gboolean
gst_rtp_burst_pace_start_task (GstRtpBurstPace * self)
{
  gboolean have_task;

  GST_OBJECT_LOCK (self->srcpad);
  have_task = GST_PAD_TASK (self->srcpad) != NULL;
  GST_OBJECT_UNLOCK (self->srcpad);

  /* GstTask runs the loop in a pooled thread, handed over with GLib locks
   * ThreadSanitizer cannot see: what happened before the start happens
   * before the loop (TSAN_ACQUIRE there) */
  TSAN_RELEASE (self);
  if (have_task)
    return gst_pad_start_task (self->srcpad,
        (GstTaskFunction) gst_rtp_burst_pace_loop, self, NULL);
  return gst_pad_start_task (self->srcpad,
      (GstTaskFunction) gst_rtp_burst_pace_loop, gst_object_ref (self),
      gst_object_unref);
}

/* --- the source pad task ------------------------------------------------- */

/* Asks the stream what to do next and waits as it says, until there is
 * something to push (or a frame was dropped) or the task must stop: FALSE
 * then.  *now is when it returned.  The only place the task waits. */
static gboolean
ask_locked (GstRtpBurstPace * self, RtpBurstNext * next,
    RtpBurstStreamNow * now)
{
  GstClockReturn cret;

  gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
  for (;;) {
    gst_rtp_burst_thread_apply (&self->thread, GST_OBJECT_CAST (self),
        self->timer_slack, self->realtime_priority);
    if (self->srcresult != GST_FLOW_OK)
      return FALSE;
    now->playing = self->playing;
    rtp_burst_stream_next (self->stream, now, next);
    /* the decision is logged at LOG, a frame's plan at DEBUG: nothing to
     * format below that (one test instead of a call per decision) */
    if (G_UNLIKELY (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >=
            GST_LEVEL_DEBUG))
      gst_rtp_burst_log_next (GST_OBJECT_CAST (self), next, now->now);

    switch (next->kind) {
      case RTP_BURST_NEXT_WAIT_DATA:
        self->task_waiting = TRUE;
        RTP_BURST_COND_WAIT (&self->task_cond, &self->lock);
        self->task_waiting = FALSE;
        gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
        break;
      case RTP_BURST_NEXT_WAIT_UNTIL:
        cret = gst_rtp_burst_wait_until_running_locked (&self->wait,
            GST_ELEMENT_CAST (self), next->time, next->for_close, &now->now);
        /* a wake-up of the thread by its clock (stats: wakeups) */
        if (cret == GST_CLOCK_OK)
          self->wakeups++;
        /* the slot is reached unless a pause or flush cut the wait short;
         * how late the machine woke counts when it did wait */
        if (next->for_slot && cret != GST_CLOCK_UNSCHEDULED &&
            self->srcresult == GST_FLOW_OK) {
          guint64 late = now->now != RTP_BURST_TIME_NONE &&
              now->now > next->time ? now->now - next->time : 0;

          GST_LOG_OBJECT (self, "woke %" GST_TIME_FORMAT " after the slot%s",
              GST_TIME_ARGS (late), cret == GST_CLOCK_EARLY ?
              " (it was due when asked)" : "");
          rtp_burst_stream_woke (self->stream, late, cret != GST_CLOCK_EARLY);
        }
        if (cret == GST_CLOCK_UNSCHEDULED || cret == GST_CLOCK_BADTIME)
          gst_rtp_burst_read_now (GST_ELEMENT_CAST (self), now);
        break;
      default:
        return TRUE;
    }
  }
}

/* The source pad task: one thing per call, as in queue's loop.  It asks
 * the stream what to do, waiting as it says (ask_locked), takes that from
 * the stream, pushes it without the lock and tells the stream how the push
 * went (gstrtpburstout.h). */
static void
gst_rtp_burst_pace_loop (GstRtpBurstPace * self)
{
  RtpBurstStreamNow now;
  RtpBurstNext next;
  GstRtpBurstOut out;
  GstBuffer *last;
  GstFlowReturn ret;
  guint64 end = RTP_BURST_TIME_NONE, bytes = 0, rate;
  /* a push of a probe frame (gst_rtp_burst_cc_probe_sent) */
  guint64 probe = 0, probe_start = 0, probe_end = 0;
  gboolean probe_last = FALSE;

  TSAN_ACQUIRE (self);
  LOCK (self);
  if (!ask_locked (self, &next, &now))
    goto out_flushing;
  /* a frame was dropped (DROPPED): only upstream and the application are
   * told, below */
  if (next.kind != RTP_BURST_NEXT_DROPPED) {
    last = gst_rtp_burst_out_take (&out, self->stream, &next, &self->segment,
        now.now);
    if (last)
      gst_rtp_burst_pay_info_released (&self->pay_info, last, &self->segment);
    if (out.kind == RTP_BURST_NEXT_PUSH)
      probe = rtp_burst_stream_taken_probe (self->stream, &probe_last);
    /* what left made room for more */
    gst_rtp_burst_pace_wake_upstream_locked (self);
    UNLOCK (self);

    /* the bytes only for congestion control's sake */
    if (probe > 0 || g_atomic_int_get (&self->cc.timer))
      bytes = gst_rtp_burst_out_bytes (&out);
    if (probe > 0)
      probe_start = gst_rtp_burst_cc_now ();
    ret = gst_rtp_burst_out_push (&out, self->srcpad);
    if (probe > 0)
      probe_end = gst_rtp_burst_cc_now ();
    /* when packets' push returned: how long downstream held them
     * (gst_rtp_burst_out_done) */
    end =
        out.kind ==
        RTP_BURST_NEXT_PUSH ? gst_rtp_burst_pace_running_time_now (self) :
        RTP_BURST_TIME_NONE;

    LOCK (self);
    gst_rtp_burst_out_done (&out, self->stream, end, ret);
    if (self->srcresult != GST_FLOW_OK)
      goto out_flushing;
    /* EOS ends the task, unless a new stream (stream-start, segment) was
     * queued behind it already */
    if (out.eos && rtp_burst_stream_is_empty (self->stream))
      ret = GST_FLOW_EOS;
    self->srcresult = ret;
    if (ret != GST_FLOW_OK)
      goto out_flushing;
  }
  /* a dropped frame made room too */
  if (next.kind == RTP_BURST_NEXT_DROPPED)
    gst_rtp_burst_pace_wake_upstream_locked (self);
  UNLOCK (self);
  gst_rtp_burst_pace_post_pending (self);
  /* a warning if no congestion control feedback comes; TFRC's timer */
  gst_rtp_burst_cc_pushed (&self->cc, GST_ELEMENT_CAST (self), end, bytes,
      gst_rtp_burst_pace_set_cc_rate, self);
  /* gcc's fast start: the pushes of a probe frame, and the next one */
  if (probe > 0)
    gst_rtp_burst_cc_probe_sent (&self->cc, next.n_packets, bytes,
        probe_start, probe_end, probe_last);
  rate = gst_rtp_burst_cc_probe_rate (&self->cc);
  if (rate > 0) {
    LOCK (self);
    rtp_burst_stream_probe_next_frame (self->stream, rate);
    UNLOCK (self);
  }
  return;

out_flushing:
  {
    GstFlowReturn result = self->srcresult;
    /* One error per failure, as in queue: upstream posts a fatal flow when
     * the chain returns it; once upstream has sent EOS it pushes no more,
     * so the task posts it (and pushes EOS).  A failure before an EOS that
     * comes without a push in between is posted at that EOS. */
    gboolean post = gst_rtp_burst_pace_flow_is_fatal (result) && self->eos;

    self->flow_unreported = gst_rtp_burst_pace_flow_is_fatal (result)
        && !self->eos;
    GST_DEBUG_OBJECT (self, "pausing task: %s", gst_flow_get_name (result));
    gst_pad_pause_task (self->srcpad);
    gst_rtp_burst_pace_wake_upstream_locked (self);
    UNLOCK (self);
    if (post) {
      GST_ELEMENT_FLOW_ERROR (self, result);
      gst_pad_push_event (self->srcpad, gst_event_new_eos ());
    }
    return;
  }
}
