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
 * What the task sets on the thread it runs on: the timer slack
 * (timer-slack, Linux prctl PR_SET_TIMERSLACK) and the real-time policy
 * (realtime-priority, SCHED_FIFO).  The thread comes from GStreamer's task
 * pool and goes back to it when the task stops, so what the task changed on
 * it is undone when it leaves: gst_rtp_burst_thread_restore () on the
 * task's STREAM_STATUS LEAVE message, which the pad posts from the thread
 * itself (gst_rtp_burst_thread_left ()).
 *
 * A GstRtpBurstThread is guarded by the element's lock; apply and restore
 * run on the task's thread.
 */

#ifndef __GST_RTP_BURST_THREAD_H__
#define __GST_RTP_BURST_THREAD_H__

#include <gst/gst.h>
#ifdef G_OS_UNIX
#include <sched.h>
#endif

G_BEGIN_DECLS

typedef struct
{
  GThread *thread;              /* the thread the settings below apply to */
  guint64 slack_applied;        /* 0 = the thread's own slack */
  gulong saved_slack;
  gint rt_applied;              /* SCHED_FIFO priority set, 0 = none */
  gint rt_failed;               /* priority that could not be set, -1 none */
  gint rt_error;                /* ... and why (errno) */
  gboolean post_warning;        /* ... to be posted */
#ifdef G_OS_UNIX
  int saved_policy;
  struct sched_param saved_param;
#endif
} GstRtpBurstThread;

void gst_rtp_burst_thread_init (GstRtpBurstThread * thread);
void gst_rtp_burst_thread_apply (GstRtpBurstThread * thread,
    GstObject * owner, guint64 timer_slack, gint realtime_priority);
void gst_rtp_burst_thread_restore (GstRtpBurstThread * thread,
    GstObject * owner);
void gst_rtp_burst_thread_priority_changed (GstRtpBurstThread * thread);
/* The SCHED_FIFO priority in force on the task's thread, 0 = none. */
gint gst_rtp_burst_thread_applied_priority (const GstRtpBurstThread * thread);

gboolean gst_rtp_burst_thread_take_warning (GstRtpBurstThread * thread,
    gint * priority, gint * error);
void gst_rtp_burst_thread_post_warning (GstElement * element, gint priority,
    gint error);

gboolean gst_rtp_burst_thread_left (GstMessage * message, GstPad * task_pad);

G_END_DECLS

#endif /* __GST_RTP_BURST_THREAD_H__ */
