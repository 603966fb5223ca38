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
 * Several streams on one link: one timeline for the slots of all of them,
 * and optionally one rate for all of them.  GLib only; times in ns.
 *
 * Placement.  Streams whose frames are made at the same instants each
 * start a frame's slot 0 when the frame is due; paced on their own, their
 * slots coincide and the bottleneck gets bursts of as many packets as there
 * are streams.  The members of a group book their slots on a shared
 * timeline: a member placing a frame moves its whole slot grid by a phase
 * 0 <= φ < Δt, the earliest of RTP_BURST_GROUP_PHASES candidates
 * m Δt / RTP_BURST_GROUP_PHASES that keeps its slots farthest (up to Δt / 2)
 * from the slots the others booked.  Equation (2) stays per stream (same Δt,
 * same slot count, last slot before start + span).  Two streams of one rate
 * end up half a slot apart, four a quarter; slots of two members coincide
 * only when the schedule is full.  Distances are measured on at most
 * RTP_BURST_GROUP_SAMPLES slots of a frame; a member keeps its bookings for
 * RTP_BURST_GROUP_HISTORY.  RtpBurstTimeline is that part alone, without
 * locks, deterministic for a given order of calls.
 *
 * Groups.  RtpBurstGroup is a timeline shared by name in one process
 * (rtpburstpace's `group`); its members may be in different pipelines.
 * They place and book in clock time (running time + base time), so only
 * members on the same clock agree on when a slot is: the group places on
 * the clock of its placing members and books its rate on the clock of the
 * members that booked on it; a member on another clock gets
 * RTP_BURST_GROUP_OTHER_CLOCK until those members have left.
 *
 * Rate (rtpburstpace's `group-max-rate`, the smallest its members set).
 * Every push books its bytes on the group's one virtual link
 * (rtp_burst_group_book (), GCRA-like) and waits for its release; as it
 * leaves it claims the link (rtp_burst_group_claim ()), which it gets once
 * what left before it in its class and above has had its time; a push that
 * returned late takes the link from then (rtp_burst_group_occupy ()).  What
 * the members send in any interval is then at most the rate times its
 * length plus one push.  Pushes book in a class: 2 x priority (0 to
 * RTP_BURST_GROUP_PRIORITIES - 1), plus 1 for repair packets; pass-through
 * members in RTP_BURST_GROUP_CLASS_TOP.  A booking waits only for the bytes
 * of its class and above, and pushes back every class below.
 *
 * Threads.  A member's pacing thread may run at real-time priority and
 * never waits for another member: rtp_burst_group_try_place () gives up
 * (RTP_BURST_GROUP_BUSY, the frame left where it is) while another member
 * holds the group; booking, claiming, occupying and the getters take no
 * lock.  Joining, leaving, forgetting and setting a rate may wait for
 * another member's placement: call them from other threads.  An
 * RtpBurstGroupMember belongs to one caller, which serialises its calls.
 */

#ifndef __RTP_BURST_GROUP_H__
#define __RTP_BURST_GROUP_H__

#include <glib.h>

#include "rtpburstschedule.h"
#include "rtpbursttimeline.h"

G_BEGIN_DECLS

/* Priorities of members on the group's rate, and the classes they book in
 * (see above). */
#define RTP_BURST_GROUP_PRIORITIES 4
#define RTP_BURST_GROUP_CLASSES (2 * RTP_BURST_GROUP_PRIORITIES + 1)
#define RTP_BURST_GROUP_CLASS_TOP (RTP_BURST_GROUP_CLASSES - 1)

/* --- Named groups shared by element instances ---------------------------- */

typedef struct _RtpBurstGroup RtpBurstGroup;

RtpBurstGroup *rtp_burst_group_join   (const gchar * name, guint * member);
void     rtp_burst_group_leave        (RtpBurstGroup * group, guint member);
void     rtp_burst_group_forget       (RtpBurstGroup * group, guint member);
guint    rtp_burst_group_n_members    (RtpBurstGroup * group);

typedef enum {
  RTP_BURST_GROUP_PLACED = 0,   /* the frame's slots lie between the others' */
  RTP_BURST_GROUP_ALONE,        /* not in a group: nothing moved */
  RTP_BURST_GROUP_BUSY,         /* another member was placing: not moved */
  RTP_BURST_GROUP_OTHER_CLOCK,  /* the member's clock is not the group's */
  /* BUSY from rtp_burst_group_book (): the rate's last member is leaving */
} RtpBurstGroupResult;

RtpBurstGroupResult rtp_burst_group_try_place (RtpBurstGroup * group,
                                       guint member, gconstpointer clock,
                                       RtpBurstPlan * plan,
                                       RtpBurstPlacement * out);

/* --- A shared rate (group-max-rate) ------------------------------------- */

guint64  rtp_burst_rate_book          (guint64 tat, guint64 now, guint64 bytes,
                                       guint64 max_rate, guint64 * release);
void     rtp_burst_group_set_max_rate (RtpBurstGroup * group, guint member,
                                       guint64 max_rate);
guint64  rtp_burst_group_max_rate     (RtpBurstGroup * group);
guint    rtp_burst_group_class        (guint priority, gboolean repair);
gboolean rtp_burst_group_claim        (RtpBurstGroup * group,
                                       gconstpointer clock, guint64 now,
                                       guint64 bytes, guint klass,
                                       guint64 * until);
void     rtp_burst_group_occupy       (RtpBurstGroup * group,
                                       gconstpointer clock, guint64 start,
                                       guint64 bytes, guint klass);
RtpBurstGroupResult rtp_burst_group_book (RtpBurstGroup * group,
                                       gconstpointer clock, guint64 now,
                                       guint64 bytes, guint klass,
                                       guint64 * release);

/* Holds the group's lock as a member placing a frame does: what another
 * member's placement meets then (for tests). */
void     rtp_burst_group_hold         (RtpBurstGroup * group);
void     rtp_burst_group_release      (RtpBurstGroup * group);

/* --- One element's membership -------------------------------------------- */

typedef struct
{
  RtpBurstGroup *group;         /* NULL: not in a group, frames not moved */
  guint id;
  guint64 frames;               /* frames placed */
  guint64 shared_slots;         /* RtpBurstPlacement.shared, summed */
  guint64 last_phase, last_gap; /* of the last frame placed */
  guint64 busy;                 /* frames not placed: RTP_BURST_GROUP_BUSY */
  guint64 other_clock;          /* ... RTP_BURST_GROUP_OTHER_CLOCK */
  gboolean rate_member;         /* booked on the group's rate: counted among
                                 * the members its clock belongs to */
} RtpBurstGroupMember;

void     rtp_burst_group_member_init   (RtpBurstGroupMember * m);
void     rtp_burst_group_member_join   (RtpBurstGroupMember * m,
                                        const gchar * name);
void     rtp_burst_group_member_leave  (RtpBurstGroupMember * m);
void     rtp_burst_group_member_forget (RtpBurstGroupMember * m);
RtpBurstGroupResult rtp_burst_group_member_place (RtpBurstGroupMember * m,
                                        RtpBurstPlan * plan,
                                        gconstpointer clock,
                                        guint64 base_time);
guint    rtp_burst_group_member_n_members (const RtpBurstGroupMember * m);

typedef struct
{
  guint members;                /* of its group, itself included; 0: none */
  guint64 frames, shared_slots; /* RtpBurstGroupMember's */
  guint64 phase, gap;
  guint64 busy, other_clock;
  guint64 max_rate;             /* the group's rate in force, 0: none */
} RtpBurstGroupReport;

void     rtp_burst_group_member_report (const RtpBurstGroupMember * m,
                                        RtpBurstGroupReport * out);
void     rtp_burst_group_member_set_max_rate (RtpBurstGroupMember * m,
                                        guint64 max_rate);
RtpBurstGroupResult rtp_burst_group_member_book (RtpBurstGroupMember * m,
                                        gconstpointer clock,
                                        guint64 base_time, guint64 now,
                                        guint64 bytes, guint klass,
                                        guint64 * release);
gboolean rtp_burst_group_member_claim (RtpBurstGroupMember * m,
                                        gconstpointer clock,
                                        guint64 base_time, guint64 now,
                                        guint64 bytes, guint klass,
                                        guint64 * until);
void     rtp_burst_group_member_occupy (RtpBurstGroupMember * m,
                                        gconstpointer clock,
                                        guint64 base_time, guint64 start,
                                        guint64 bytes, guint klass);

G_END_DECLS

#endif /* __RTP_BURST_GROUP_H__ */
