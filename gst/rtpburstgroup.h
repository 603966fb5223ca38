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
 * Several streams on one link: one timeline for the slots of all of them.
 *
 * Streams whose frames are made at the same instants (cameras on one clock,
 * simulcast layers, video and the FEC of another stream) each start a
 * frame's slot 0 when the frame is due and place slot j Δt later.  Paced on
 * their own, their slots coincide, and the bottleneck gets bursts of as
 * many packets as there are streams.
 *
 * The members of a group book the times of their slots on a shared
 * timeline.  A member placing a frame moves the frame's whole slot grid by
 * a phase 0 <= φ < Δt, chosen among RTP_BURST_GROUP_PHASES candidates
 * m Δt / RTP_BURST_GROUP_PHASES so that the smallest distance from one of
 * its slots to a slot another member booked is as large as it can be, up
 * to Δt / 2 (as far apart as two streams of one rate can be: a frame is
 * not moved later for more); the earliest phase of the best.  Equation (2) stays per stream: the same Δt,
 * the same slot count, and the last slot still before start + span, so the
 * frame's end, the latency and catch-up do not change.  Two streams of one
 * rate end up half a slot apart, four a quarter: the aggregate leaves as
 * evenly as one stream of the total rate would.  Slots of two members come
 * at the same time only when every candidate phase meets another member's
 * slot: the schedule is full (more than RTP_BURST_GROUP_PHASES streams of
 * one rate, or denser ones).
 *
 * For a frame of many slots the distance is measured on at most
 * RTP_BURST_GROUP_SAMPLES of them, spread evenly; all are booked.  A member
 * keeps its bookings for RTP_BURST_GROUP_HISTORY before its newest frame.
 *
 * RtpBurstTimeline is the pure part: no locks, deterministic for a given
 * order of calls, unit-tested with exact times.  RtpBurstGroup is a
 * timeline with a mutex and a name, shared by the element instances that
 * name it in one process (rtpburstpace's `group` property): each stream
 * keeps its own element and thread, as a gst-rtsp-server media (one
 * payloader element per stream) and rtpbin (one pad pair per session)
 * need.  GLib only; times in ns.
 *
 * The members of one group may be in different pipelines (two
 * gst-rtsp-server medias, two applications' pipelines in one process):
 * their running times differ by their base times.  A member places its
 * frames in clock time (running time + its base time), so the members
 * agree on when a slot is, and only members on the same clock can: the
 * group takes the clock of the first member to place a frame, and a
 * member on another clock is not placed (RTP_BURST_GROUP_OTHER_CLOCK).
 * The group's rate likewise books on the clock of the members that booked
 * on it, until the last of them leaves.
 *
 * A group may have a rate (rtpburstpace's `group-max-rate`, the smallest
 * its members set): then every member books the bytes of each push on the
 * group's one virtual link before they leave (rtp_burst_rate_book (): a
 * GCRA-like virtual time, kept with atomics, never a lock), and a push
 * whose bytes the link has no room for yet waits until it has.  What the
 * members send together in any interval is then at most the rate times its
 * length plus one push; a stream may use what the others leave.  That
 * holds at the times pushes leave, not only at the times they were told:
 * as a push leaves, it claims the link (rtp_burst_group_claim ()), which
 * it gets only once what left before it in its class and above has had
 * its time (a push that left late, one of a higher class that came in
 * between); and a push that downstream held (it returned more than 1 ms
 * after its claim) takes the link from then
 * (rtp_burst_group_occupy ()).  Members
 * that do not pace (`pace=false`: audio, RTCP) book without waiting, so
 * their bytes count in the rate and the others make room.
 *
 * Who goes first when the link has no room for all: every push books in a
 * class, a member's priority (rtpburstpace's `priority`, 0 to
 * RTP_BURST_GROUP_PRIORITIES - 1) twice over, plus one for repair packets,
 * so that a stream's repair packets rank above its media and below the
 * media of a higher priority; pass-through members book in the top class.
 * The link keeps one virtual time per class: a booking in class c waits
 * only for the bytes booked in classes >= c, and pushes back every class
 * below.  A push of a higher class is thus not held behind the pushes of
 * lower ones that wait for the link; those wait for it, also a push of
 * theirs already booked: as it leaves, its claim waits until the higher
 * push has had its time.
 *
 * Placing is done by each member's pacing thread, which may run at
 * real-time priority: it never waits for the group.  When another member
 * is placing at that moment (the group's lock is held), the frame is left
 * where it is and counted (RTP_BURST_GROUP_BUSY); the next frame is placed
 * as usual.  Members are counted without the lock.
 */

#ifndef __RTP_BURST_GROUP_H__
#define __RTP_BURST_GROUP_H__

#include <glib.h>

#include "rtpburstschedule.h"

G_BEGIN_DECLS

#define RTP_BURST_GROUP_PHASES  32
#define RTP_BURST_GROUP_SAMPLES 256
#define RTP_BURST_GROUP_HISTORY (G_GUINT64_CONSTANT (500000000))  /* 0.5 s */
/* Slots of two members closer than this leave together on any link (a
 * 1200-byte packet lasts ~1 µs at 10 Gbit/s): they count as shared. */
#define RTP_BURST_GROUP_TOUCH   (G_GUINT64_CONSTANT (1000))       /* 1 µs */
/* Priorities of members on the group's rate, and the classes they book in
 * (see above). */
#define RTP_BURST_GROUP_PRIORITIES 4
#define RTP_BURST_GROUP_CLASSES (2 * RTP_BURST_GROUP_PRIORITIES + 1)
#define RTP_BURST_GROUP_CLASS_TOP (RTP_BURST_GROUP_CLASSES - 1)

typedef struct _RtpBurstTimeline RtpBurstTimeline;

typedef struct
{
  guint64 phase;       /* the frame's slots are this much later */
  guint64 gap;         /* smallest distance from one of them to another
                        * member's slot; RTP_BURST_TIME_NONE: none within Δt */
  guint shared;        /* its slots closer than RTP_BURST_GROUP_TOUCH to
                        * another member's */
} RtpBurstPlacement;

RtpBurstTimeline *rtp_burst_timeline_new   (void);
void     rtp_burst_timeline_free           (RtpBurstTimeline * tl);
guint    rtp_burst_timeline_add_member     (RtpBurstTimeline * tl);
void     rtp_burst_timeline_remove_member  (RtpBurstTimeline * tl, guint member);
void     rtp_burst_timeline_forget         (RtpBurstTimeline * tl, guint member);
guint    rtp_burst_timeline_n_members      (const RtpBurstTimeline * tl);
void     rtp_burst_timeline_place          (RtpBurstTimeline * tl, guint member,
                                            RtpBurstPlan * plan,
                                            RtpBurstPlacement * out);

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
