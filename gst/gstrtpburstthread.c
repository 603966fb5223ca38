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

#include <errno.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "gstrtpburstthread.h"

#ifdef G_OS_UNIX
#include <pthread.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);
#define GST_CAT_DEFAULT rtp_burst_pace_debug

void
gst_rtp_burst_thread_init (GstRtpBurstThread * thread)
{
  memset (thread, 0, sizeof (*thread));
  thread->rt_failed = -1;
}

/**
 * gst_rtp_burst_thread_apply:
 * @owner: the element, for the log
 *
 * Applies @timer_slack (ns, 0 = the thread's own) and @realtime_priority
 * (SCHED_FIFO, 0 = the thread's own policy) to the calling (task) thread
 * where they differ from what it has.  A failure to set the priority is
 * noted for gst_rtp_burst_thread_take_warning () and not retried until
 * gst_rtp_burst_thread_priority_changed ().
 */
void
gst_rtp_burst_thread_apply (GstRtpBurstThread * thread, GstObject * owner,
    guint64 timer_slack, gint realtime_priority)
{
  gboolean policy_changed = FALSE;

  if (thread->thread != g_thread_self ()) {
    /* a thread we have not changed yet: note what it has */
    thread->thread = g_thread_self ();
    thread->slack_applied = 0;
    thread->rt_applied = 0;
#ifdef PR_GET_TIMERSLACK
    thread->saved_slack = (gulong) prctl (PR_GET_TIMERSLACK, 0, 0, 0, 0);
#endif
#ifdef G_OS_UNIX
    if (pthread_getschedparam (pthread_self (), &thread->saved_policy,
            &thread->saved_param) != 0) {
      thread->saved_policy = SCHED_OTHER;
      memset (&thread->saved_param, 0, sizeof (thread->saved_param));
    }
#endif
  }

  if (realtime_priority != thread->rt_applied &&
      realtime_priority != thread->rt_failed) {
#ifdef G_OS_UNIX
    struct sched_param param = { 0, };
    int ret;

    if (realtime_priority == 0) {
      ret = pthread_setschedparam (pthread_self (), thread->saved_policy,
          &thread->saved_param);
    } else {
      param.sched_priority = realtime_priority;
      ret = pthread_setschedparam (pthread_self (), SCHED_FIFO, &param);
    }
#else
    int ret = ENOSYS;
#endif
    if (ret == 0) {
      GST_DEBUG_OBJECT (owner, "task thread: real-time priority %d",
          realtime_priority);
      thread->rt_applied = realtime_priority;
      policy_changed = TRUE;
    } else {
      thread->rt_error = ret;
      thread->rt_failed = realtime_priority;
      thread->post_warning = TRUE;
    }
  }
#ifdef PR_SET_TIMERSLACK
  /* Linux resets the slack when the policy changes: set it after */
  if (timer_slack != thread->slack_applied || policy_changed) {
    if (prctl (PR_SET_TIMERSLACK, timer_slack ?
            (unsigned long) timer_slack : thread->saved_slack, 0, 0, 0) != 0)
      GST_WARNING_OBJECT (owner, "could not set the timer slack");
    thread->slack_applied = timer_slack;
  }
#endif
}

/**
 * gst_rtp_burst_thread_restore:
 * @owner: the element, for the log
 *
 * Undoes gst_rtp_burst_thread_apply () on the calling (task) thread.
 */
void
gst_rtp_burst_thread_restore (GstRtpBurstThread * thread, GstObject * owner)
{
  if (thread->thread != g_thread_self ())
    return;
#ifdef G_OS_UNIX
  if (thread->rt_applied != 0 && pthread_setschedparam (pthread_self (),
          thread->saved_policy, &thread->saved_param) != 0)
    GST_WARNING_OBJECT (owner, "could not restore the thread's policy");
#endif
#ifdef PR_SET_TIMERSLACK
  if (thread->slack_applied != 0 || thread->rt_applied != 0)
    prctl (PR_SET_TIMERSLACK, thread->saved_slack, 0, 0, 0);
#endif
  thread->thread = NULL;
  thread->slack_applied = 0;
  thread->rt_applied = 0;
}

/**
 * gst_rtp_burst_thread_priority_changed:
 *
 * The realtime-priority property was set: the next apply tries it again,
 * and a refusal is warned about again.
 */
void
gst_rtp_burst_thread_priority_changed (GstRtpBurstThread * thread)
{
  thread->rt_failed = -1;
  thread->post_warning = FALSE;
}

/**
 * gst_rtp_burst_thread_take_warning:
 * @priority: (out): the priority that was refused
 * @error: (out): why (an errno value)
 *
 * Returns: TRUE once after the system refused a priority: the element then
 *   posts gst_rtp_burst_thread_post_warning () without its lock.
 */
gboolean
gst_rtp_burst_thread_take_warning (GstRtpBurstThread * thread,
    gint * priority, gint * error)
{
  gboolean post = thread->post_warning;

  *priority = thread->rt_failed;
  *error = thread->rt_error;
  thread->post_warning = FALSE;
  return post;
}

void
gst_rtp_burst_thread_post_warning (GstElement * element, gint priority,
    gint error)
{
  GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
      ("Could not give the pacing thread real-time priority %d; pacing "
          "continues at normal priority.", priority),
      ("pthread_setschedparam (SCHED_FIFO, %d): %s. It needs "
          "CAP_SYS_NICE or an RLIMIT_RTPRIO of at least %d (ulimit -r).",
          priority, g_strerror (error), priority));
}

/**
 * gst_rtp_burst_thread_left:
 * @message: a message the element posts
 * @task_pad: the pad whose task sets the thread
 *
 * Returns: TRUE if @message is the STREAM_STATUS LEAVE of @task_pad's task,
 *   posted from its thread as the task leaves it: the moment to call
 *   gst_rtp_burst_thread_restore ().
 */
gboolean
gst_rtp_burst_thread_left (GstMessage * message, GstPad * task_pad)
{
  GstStreamStatusType type;
  GstElement *owner;

  if (GST_MESSAGE_TYPE (message) != GST_MESSAGE_STREAM_STATUS)
    return FALSE;
  gst_message_parse_stream_status (message, &type, &owner);
  return type == GST_STREAM_STATUS_TYPE_LEAVE &&
      GST_MESSAGE_SRC (message) == GST_OBJECT_CAST (task_pad);
}

gint
gst_rtp_burst_thread_applied_priority (const GstRtpBurstThread * thread)
{
  return thread->rt_applied;
}
