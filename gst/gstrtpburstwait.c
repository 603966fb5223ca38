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
#include <time.h>

#include "gstrtpburstlock.h"
#include "gstrtpburstwait.h"
#include "rtpburstschedule.h"

/* The longest wait that is one clock_nanosleep () without the lock. */
#define RTP_BURST_SLEEP_MAX (2 * GST_MSECOND)

/**
 * gst_rtp_burst_wait_init:
 * @lock: the element's lock, held by every caller of the waits
 * @cond: the element's condition variable on @lock
 */
void
gst_rtp_burst_wait_init (GstRtpBurstWait * wait, GMutex * lock, GCond * cond)
{
  memset (wait, 0, sizeof (*wait));
  wait->lock = lock;
  wait->cond = cond;
}

void
gst_rtp_burst_wait_clear (GstRtpBurstWait * wait)
{
  gst_clear_object (&wait->direct_clock);
}

/* TRUE if @clock is GStreamer's system clock on CLOCK_MONOTONIC, neither
 * calibrated nor slaved: the usual pipeline clock.  Its time is then
 * clock_gettime (CLOCK_MONOTONIC), which g_cond_wait_until () uses too. */
static gboolean
clock_is_plain_monotonic_locked (GstRtpBurstWait * wait, GstClock * clock)
{
  GstClockTime internal, external, num, denom;

#ifndef __linux__
  /* elsewhere GstSystemClock's monotonic time need not be CLOCK_MONOTONIC */
  return FALSE;
#endif
  if (clock != wait->direct_clock) {
    GstClockType type = GST_CLOCK_TYPE_REALTIME;

    if (G_OBJECT_TYPE (clock) == GST_TYPE_SYSTEM_CLOCK)
      g_object_get (clock, "clock-type", &type, NULL);
    gst_object_replace ((GstObject **) & wait->direct_clock,
        GST_OBJECT_CAST (clock));
    wait->direct_clock_ok = type == GST_CLOCK_TYPE_MONOTONIC;
  }
  if (!wait->direct_clock_ok)
    return FALSE;
  gst_clock_get_calibration (clock, &internal, &external, &num, &denom);
  return internal == external && num == denom;
}

/* Waits until @target on such a clock with one wake-up, where
 * gst_clock_id_wait () on GstSystemClock wakes twice for waits under 2 ms
 * (a condition wait until 500 us before the deadline, then
 * clock_nanosleep ()).  A wait of up to RTP_BURST_SLEEP_MAX (a slot, as a
 * rule) is one clock_nanosleep () without the lock: the most precise wait
 * here, and unscheduling only takes effect when it returns.  A longer wait
 * (between frames, a frame's timeout, a frame due later) is one timed wait
 * on the element's condition variable, which
 * gst_rtp_burst_wait_unschedule_locked () and anything else that
 * broadcasts cond interrupt; it goes back to waiting unless unscheduled.
 * @now: (out): the clock's time when it returns. */
static GstClockReturn
wait_monotonic_locked (GstRtpBurstWait * wait, GstClock * clock,
    GstClockTime target, gboolean for_close, GstClockTime * now)
{
  *now = gst_clock_get_time (clock);
  if (*now >= target)
    return GST_CLOCK_EARLY;

  wait->direct_waiting = TRUE;
  wait->unscheduled = FALSE;
  wait->for_close = for_close;
#ifdef __linux__
  if (target - *now <= RTP_BURST_SLEEP_MAX) {
    struct timespec end;

    end.tv_sec = target / GST_SECOND;
    end.tv_nsec = target % GST_SECOND;
    RTP_BURST_MUTEX_UNLOCK (wait->lock);
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) ==
        EINTR);
    RTP_BURST_MUTEX_LOCK (wait->lock);
  } else
#endif
  {
    gint64 end = (gint64) MIN (target / 1000 + (target % 1000 != 0),
        (GstClockTime) G_MAXINT64);
    gboolean signalled = TRUE;

    while (signalled && !wait->unscheduled)
      RTP_BURST_COND_WAIT_UNTIL (wait->cond, wait->lock, end, signalled);
  }
  wait->direct_waiting = FALSE;
  wait->for_close = FALSE;
  *now = gst_clock_get_time (clock);
  if (wait->unscheduled) {
    wait->unscheduled = FALSE;
    return GST_CLOCK_UNSCHEDULED;
  }
  return GST_CLOCK_OK;
}

/* Waits until @target with a GstClockID, which
 * gst_rtp_burst_wait_unschedule_locked () unschedules.  @now: (out): the
 * clock's time when it returns. */
static GstClockReturn
wait_clock_id_locked (GstRtpBurstWait * wait, GstClock * clock,
    GstClockTime target, gboolean for_close, GstClockTime * now)
{
  GstClockID id;
  GstClockReturn ret;

  id = wait->clock_id = gst_clock_new_single_shot_id (clock, target);
  wait->for_close = for_close;
  RTP_BURST_MUTEX_UNLOCK (wait->lock);

  ret = gst_clock_id_wait (id, NULL);
  *now = gst_clock_get_time (clock);

  RTP_BURST_MUTEX_LOCK (wait->lock);
  wait->clock_id = NULL;
  wait->for_close = FALSE;
  gst_clock_id_unref (id);
  return ret;
}

/**
 * gst_rtp_burst_wait_until_locked:
 * @clock: the pipeline clock
 * @target: the clock time to wait for (running time + base time)
 * @for_close: the wait is an open frame's timeout, which completing the
 *   frame cancels (@for_close is TRUE meanwhile)
 * @now: (out): the clock's time when the wait returned
 *
 * Waits on @clock until @target, with the lock released meanwhile.
 *
 * Returns: GST_CLOCK_OK, GST_CLOCK_EARLY if @target had passed, or
 *   GST_CLOCK_UNSCHEDULED if gst_rtp_burst_wait_unschedule_locked () ended
 *   the wait (with a GstClockID, what gst_clock_id_wait () returned).
 */
GstClockReturn
gst_rtp_burst_wait_until_locked (GstRtpBurstWait * wait, GstClock * clock,
    GstClockTime target, gboolean for_close, GstClockTime * now)
{
  if (clock_is_plain_monotonic_locked (wait, clock))
    return wait_monotonic_locked (wait, clock, target, for_close, now);
  return wait_clock_id_locked (wait, clock, target, for_close, now);
}

/**
 * gst_rtp_burst_wait_unschedule_locked:
 *
 * Ends the task's wait, if it waits: at once, or for a short direct wait
 * when its clock_nanosleep () returns (at most 2 ms later).
 */
void
gst_rtp_burst_wait_unschedule_locked (GstRtpBurstWait * wait)
{
  if (wait->clock_id)
    gst_clock_id_unschedule (wait->clock_id);
  if (wait->direct_waiting) {
    wait->unscheduled = TRUE;
    g_cond_broadcast (wait->cond);
  }
}

/**
 * gst_rtp_burst_wait_unschedule_close_locked:
 *
 * Ends the task's wait if it is an open frame's timeout (the frame is
 * complete now).
 */
void
gst_rtp_burst_wait_unschedule_close_locked (GstRtpBurstWait * wait)
{
  if (wait->for_close)
    gst_rtp_burst_wait_unschedule_locked (wait);
}

/**
 * gst_rtp_burst_running_time:
 * @clock: (out) (optional): the clock it was read on, to be compared only
 * @base_time: (out) (optional): @element's base time
 *
 * Returns: the running time of @element now, RTP_BURST_TIME_NONE without a
 *   clock.
 */
guint64
gst_rtp_burst_running_time (GstElement * element, gconstpointer * clock_out,
    guint64 * base_out)
{
  GstClock *clock;
  GstClockTime now, base;

  GST_OBJECT_LOCK (element);
  clock = GST_ELEMENT_CLOCK (element);
  if (clock_out)
    *clock_out = clock;
  if (clock == NULL) {
    GST_OBJECT_UNLOCK (element);
    return RTP_BURST_TIME_NONE;
  }
  gst_object_ref (clock);
  base = element->base_time;
  GST_OBJECT_UNLOCK (element);
  if (base_out)
    *base_out = GST_CLOCK_TIME_IS_VALID (base) ? base : 0;

  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  if (!GST_CLOCK_TIME_IS_VALID (now) || now < base)
    return RTP_BURST_TIME_NONE;
  return now - base;
}

void
gst_rtp_burst_read_now (GstElement * element, RtpBurstStreamNow * now)
{
  now->now = gst_rtp_burst_running_time (element, &now->clock, &now->base_time);
}

/**
 * gst_rtp_burst_wait_until_running_locked:
 * @running_time: when to wake, in running time of @element
 * @now: (out): the running time when the wait ended, RTP_BURST_TIME_NONE
 *   if unknown
 *
 * gst_rtp_burst_wait_until_locked () on @element's clock.
 *
 * Returns: the clock's answer; GST_CLOCK_BADTIME without a clock.
 */
GstClockReturn
gst_rtp_burst_wait_until_running_locked (GstRtpBurstWait * wait,
    GstElement * element, guint64 running_time, gboolean for_close,
    guint64 * now)
{
  GstClock *clock;
  GstClockTime base, clock_now;
  GstClockReturn ret;

  GST_OBJECT_LOCK (element);
  clock = GST_ELEMENT_CLOCK (element);
  if (clock == NULL) {
    GST_OBJECT_UNLOCK (element);
    *now = RTP_BURST_TIME_NONE;
    return GST_CLOCK_BADTIME;
  }
  gst_object_ref (clock);
  base = element->base_time;
  GST_OBJECT_UNLOCK (element);

  ret = gst_rtp_burst_wait_until_locked (wait, clock,
      rtp_burst_time_add (running_time, base), for_close, &clock_now);
  gst_object_unref (clock);
  *now = GST_CLOCK_TIME_IS_VALID (clock_now) && clock_now >= base ?
      clock_now - base : RTP_BURST_TIME_NONE;
  return ret;
}
