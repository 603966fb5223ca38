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
 * The element's state, shared by its files: gstrtpburstpace.c (the type,
 * states and properties), gstrtpburstpads.c (the packets, events and
 * queries that reach its pads) and gstrtpbursttask.c (the source pad task
 * that paces).  Private to the plugin.
 */

#ifndef __GST_RTP_BURST_PACE_PRIVATE_H__
#define __GST_RTP_BURST_PACE_PRIVATE_H__

#include <gst/gst.h>

#include "gstrtpburstpace.h"
#include "gstrtpburstcc.h"
#include "gstrtpburstlock.h"
#include "gstrtpburstmessages.h"
#include "gstrtpburstpaycompat.h"
#include "gstrtpburstthread.h"
#include "gstrtpburstwait.h"
#include "rtpburststream.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (rtp_burst_pace_debug);

struct _GstRtpBurstPace
{
  GstElement parent;

  GstPad *sinkpad, *srcpad;

  /* The stream's membership of its group: held while the element joins or
   * leaves it (with lock too) and while it sets its group-max-rate in the
   * group (without lock).  Never taken by the task, nor under lock: the
   * group's own lock, which another member holds while it places a frame,
   * is never waited for with lock held while the task may run.  Order:
   * member_lock, then lock, then the group's lock. */
  GMutex member_lock;

  /* everything below is protected by lock, unless said otherwise; the
   * task takes it at every decision, so nothing slow is done under it */
  GMutex lock;
  /* one condition per kind of waiter, signalled only while one waits: the
   * task waiting for data or a state (its long clock waits use it too,
   * gstrtpburstwait.h), the chain for room for a frame, a serialized query
   * for the queue to empty */
  GCond task_cond, room_cond, drain_cond;
  gboolean task_waiting;
  guint room_waiters, drain_waiters;

  GstFlowReturn srcresult;
  gboolean eos;                 /* upstream sent EOS: it sees no more flow */
  gboolean flow_unreported;     /* srcresult is a fatal flow that neither
                                 * upstream nor the element has posted */
  gboolean playing;
  GstRtpBurstWait wait;         /* the task's clock wait */
  guint64 wakeups;              /* ... waits that ran to their time */

  /* the queue, the schedule and the counters (rtpburststream.h) */
  RtpBurstStream *stream;
  RtpBurstStreamConfig config;  /* the properties that shape it */
  guint64 timer_slack;
  gint realtime_priority;

  /* what the task changed on its thread, to undo when it leaves the thread
   * (written by the task thread only) */
  GstRtpBurstThread thread;

  GstCaps *last_caps;
  GstSegment sink_segment;      /* of the sink pad: the frames' sync times;
                                 * protected by the sink pad's stream lock
                                 * (read by the chain without lock) */
  GstSegment segment;           /* of the source pad, updated by the task:
                                 * the DTS of the packets pushed */

  /* what payloader users read (gst-rtsp-server) */
  GstRtpBurstPayInfo pay_info;

  /* the streams it shares a timeline with (property group) */
  gchar *group_name;
  gchar *refused_group;         /* a group set while PAUSED or PLAYING */

  GstRtpBurstInvalid invalid;   /* packets that are not RTP */

  /* the deprecated old property names this element was warned about, a
   * bit each (gst_rtp_burst_props_renamed); atomic, not under lock */
  guint old_names_warned;

  /* congestion control from TWCC feedback (gstrtpburstcc.h): not guarded
   * by lock but by its own, taken before lock when it sets config.cc_rate;
   * the task only tries it, without lock */
  GstRtpBurstCc cc;
};

/* The element's lock (gstrtpburstlock.h announces it to ThreadSanitizer). */
#define LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->lock)
#define UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->lock)
#define MEMBER_LOCK(s) RTP_BURST_MUTEX_LOCK (&(s)->member_lock)
#define MEMBER_UNLOCK(s) RTP_BURST_MUTEX_UNLOCK (&(s)->member_lock)

/* gstrtpburstpace.c: waking, with the lock held */
void gst_rtp_burst_pace_wake_task_locked (GstRtpBurstPace * self,
    RtpBurstStreamWake wake);
void gst_rtp_burst_pace_wake_upstream_locked (GstRtpBurstPace * self);
guint64 gst_rtp_burst_pace_running_time_now (GstRtpBurstPace * self);
gboolean gst_rtp_burst_pace_flow_is_fatal (GstFlowReturn ret);

/* gstrtpburstpads.c */
GstFlowReturn gst_rtp_burst_pace_chain (GstPad * pad, GstObject * parent,
    GstBuffer * buffer);
GstFlowReturn gst_rtp_burst_pace_chain_list (GstPad * pad,
    GstObject * parent, GstBufferList * list);
gboolean gst_rtp_burst_pace_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event);
gboolean gst_rtp_burst_pace_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query);
gboolean gst_rtp_burst_pace_src_query (GstPad * pad, GstObject * parent,
    GstQuery * query);
gboolean gst_rtp_burst_pace_src_event (GstPad * pad, GstObject * parent,
    GstEvent * event);
void gst_rtp_burst_pace_post_pending (GstRtpBurstPace * self);
void gst_rtp_burst_pace_set_cc_rate (guint64 rate, gpointer user_data);
void gst_rtp_burst_pace_flush_locked (GstRtpBurstPace * self);

/* gstrtpbursttask.c */
void gst_rtp_burst_pace_set_flushing (GstRtpBurstPace * self);
void gst_rtp_burst_pace_pause_task_flushing (GstRtpBurstPace * self);
gboolean gst_rtp_burst_pace_start_task (GstRtpBurstPace * self);

G_END_DECLS

#endif /* __GST_RTP_BURST_PACE_PRIVATE_H__ */
