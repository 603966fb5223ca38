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
 * The task's clock waits: until an absolute time of the pipeline clock,
 * with the element's lock released meanwhile, and cancelled by another
 * thread (a flush, a pause, a frame completed early).
 *
 * With the usual pipeline clock — GStreamer's system clock on
 * CLOCK_MONOTONIC, neither slaved nor calibrated (Linux) — a wait is one
 * wake-up: up to 2 ms (a slot, as a rule) one clock_nanosleep (), longer
 * one timed wait on the element's condition variable.  GstSystemClock
 * (1.22) would wake twice for every wait under 2 ms.  With any other clock
 * (a network or audio clock, GstTestClock) it is a GstClockID.
 *
 * Every function here is called with the element's lock held; the waits
 * release and retake it.  @cond is the task's own: nothing else waits on it
 * while the task is in a clock wait.
 */

#ifndef __GST_RTP_BURST_WAIT_H__
#define __GST_RTP_BURST_WAIT_H__

#include <gst/gst.h>

#include "rtpburststream.h"

G_BEGIN_DECLS

typedef struct
{
  GMutex *lock;                 /* the element's lock */
  GCond *cond;                  /* ... and its cond, which ends a long wait */

  /* guarded by lock */
  GstClockID clock_id;          /* the GstClockID waited on, if any */
  gboolean direct_waiting;      /* the task waits on CLOCK_MONOTONIC itself */
  gboolean unscheduled;         /* ... and is asked to stop waiting */
  gboolean for_close;           /* the wait is an open-frame timeout */
  GstClock *direct_clock;       /* the last clock checked (a reference) */
  gboolean direct_clock_ok;     /* ... is a monotonic GstSystemClock */
} GstRtpBurstWait;

void gst_rtp_burst_wait_init (GstRtpBurstWait * wait, GMutex * lock,
    GCond * cond);
void gst_rtp_burst_wait_clear (GstRtpBurstWait * wait);

GstClockReturn gst_rtp_burst_wait_until_locked (GstRtpBurstWait * wait,
    GstClock * clock, GstClockTime target, gboolean for_close,
    GstClockTime * now);
void gst_rtp_burst_wait_unschedule_locked (GstRtpBurstWait * wait);
void gst_rtp_burst_wait_unschedule_close_locked (GstRtpBurstWait * wait);

/* In running time of @element: its clock's time minus its base time. */
guint64 gst_rtp_burst_running_time (GstElement * element,
    gconstpointer * clock, guint64 * base_time);
/* @now's time, clock and base time, read now for @element. */
void gst_rtp_burst_read_now (GstElement * element, RtpBurstStreamNow * now);
GstClockReturn gst_rtp_burst_wait_until_running_locked (GstRtpBurstWait * wait,
    GstElement * element, guint64 running_time, gboolean for_close,
    guint64 * now);

G_END_DECLS

#endif /* __GST_RTP_BURST_WAIT_H__ */
