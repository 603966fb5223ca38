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

#include "rtpburstgroup.h"
/* GLib locks announced to ThreadSanitizer (GLib only, like this file) */
#include "gstrtpburstlock.h"

/* --- Named groups -------------------------------------------------------- */

/*
 * Who may touch what.  Two kinds of threads call in: control threads (state
 * changes, properties, flushes: join, leave, forget, set_max_rate), which
 * may wait, and the members' pacing threads (try_place, book, claim,
 * occupy, the getters), which may run at real-time priority and never wait
 * for another member.  Each piece of shared state has one mechanism:
 *
 *  - registry_lock: the registry and every group's refs.  Control threads
 *    only; taken before a group's lock, never after.
 *  - RtpBurstGroup.lock: the placement (timeline, the placing members and
 *    their clock) and the members' rates.  Control threads take it; pacing
 *    threads only trylock it (placing a frame) and give up when it is held.
 *    Its holders' work may be long (a placement: a sort and up to
 *    RTP_BURST_GROUP_PHASES x RTP_BURST_GROUP_SAMPLES searches), which is
 *    why pacing threads never wait for it.
 *  - Counts read without the lock (n_members, max_rate): atomics, written
 *    only under the lock.
 *  - The rate's link (RtpBurstLink): atomics only, never a lock; see there.
 *
 * RtpBurstGroupMember is not shared: its owner (one element, under its own
 * lock) reads and writes it.
 */

/* The group's one virtual link for its rate (GCRA-like virtual times, one
 * per class), booked, claimed and occupied by pacing threads without a
 * lock.
 *
 * A pacing thread touches the times only in a rate section, between
 * rate_enter () and rate_exit (): it counts itself in @users, then reads
 * @clock, and goes on only if that is its own clock.  The times belong to
 * @clock, and go when the last member that booked on it leaves (a member of
 * another pipeline's clock then books on its own): rate_member_left (),
 * under the group's lock, sets @clock to RATE_RESETTING, waits until
 * @users is 0, and only then zeroes the times.  That wait is a control
 * thread's, for sections of a few compare-and-exchanges.  As both sides
 * write their variable, then read the other's (sequentially consistent), a
 * section either ended before the reset looked at @users, or saw
 * RATE_RESETTING and touched nothing.
 *
 * Membership: a member counts itself in @members, in a rate section, the
 * first time it books (RtpBurstGroupMember.rate_member), and leaving takes
 * it out.  A reset counts @members again once the sections are over: a
 * member that booked meanwhile keeps the link (and its clock) as it is. */
typedef struct
{
  gpointer clock;               /* atomic: the clock of the times; NULL: none
                                 * yet (the first booking sets it, compare
                                 * and exchange); RATE_RESETTING during a
                                 * reset, which alone changes it otherwise */
  gint users;                   /* atomic: pacing threads in a rate section */
  gint members;                 /* atomic: members that booked on @clock and
                                 * have not left; raised in rate sections,
                                 * lowered under the group's lock */
  /* atomic, @clock's time: when the bytes booked in the class and above end;
   * only raised (compare and exchange), in rate sections, one class at a
   * time (a booking's release depends on its own class only); zeroed only by
   * a reset */
  guint64 tat[RTP_BURST_GROUP_CLASSES];
  guint64 left[RTP_BURST_GROUP_CLASSES];        /* ... the bytes that left */
} RtpBurstLink;

/* Its address marks a link being reset: no member's clock. */
static const gchar rate_resetting;
#define RATE_RESETTING ((gpointer) &rate_resetting)

struct _RtpBurstGroup
{
  gchar *name;                  /* set at creation, then only read */
  guint refs;                   /* guarded by registry_lock */

  /* guarded by lock; pacing threads only trylock it */
  GMutex lock;
  RtpBurstTimeline *timeline;
  GHashTable *placed;           /* ids of the members that placed a frame */
  gconstpointer clock;          /* the clock they all placed on */
  GHashTable *max_rates;        /* member id -> its group-max-rate, if set */

  /* atomic; written only under lock, read without it */
  gint n_members;
  guint64 max_rate;             /* the smallest member's, 0 = none */

  RtpBurstLink link;            /* atomic only: see RtpBurstLink */
};

static GMutex registry_lock;
static GHashTable *registry;    /* name -> RtpBurstGroup; under registry_lock */

/* The group's rate: the smallest of its members' (under the lock). */
static void
update_max_rate (RtpBurstGroup * group)
{
  GHashTableIter iter;
  gpointer value;
  guint64 min = 0;

  g_hash_table_iter_init (&iter, group->max_rates);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    guint64 rate = *(guint64 *) value;

    if (min == 0 || rate < min)
      min = rate;
  }
  __atomic_store_n (&group->max_rate, min, __ATOMIC_RELEASE);
}

/* Starts a rate section on @clock; a booking (@take) gives the link its
 * clock if it has none yet.  PLACED: in the section, end it with
 * rate_exit (); else not in it: OTHER_CLOCK (the link is another clock's,
 * or none's yet) or BUSY (being reset). */
static RtpBurstGroupResult
rate_enter (RtpBurstLink * link, gconstpointer clock, gboolean take)
{
  gpointer c;

  g_atomic_int_inc (&link->users);
  c = g_atomic_pointer_get (&link->clock);
  if (c == NULL && take && g_atomic_pointer_compare_and_exchange
      (&link->clock, NULL, (gpointer) clock))
    c = (gpointer) clock;
  else if (c == NULL)
    c = g_atomic_pointer_get (&link->clock);
  if (c == clock)
    return RTP_BURST_GROUP_PLACED;
  g_atomic_int_add (&link->users, -1);
  return c == RATE_RESETTING ? RTP_BURST_GROUP_BUSY :
      RTP_BURST_GROUP_OTHER_CLOCK;
}

static void
rate_exit (RtpBurstLink * link)
{
  g_atomic_int_add (&link->users, -1);
}

/* A member counted in the link's members left (under the group's lock):
 * the last one resets the link (see RtpBurstLink). */
static void
rate_member_left (RtpBurstLink * link)
{
  gpointer clock;
  guint c;

  if (!g_atomic_int_dec_and_test (&link->members))
    return;
  clock = __atomic_exchange_n (&link->clock, RATE_RESETTING, __ATOMIC_SEQ_CST);
  while (g_atomic_int_get (&link->users) > 0)
    g_thread_yield ();
  if (g_atomic_int_get (&link->members) > 0) {
    /* a member booked on it meanwhile: it stays */
    g_atomic_pointer_set (&link->clock, clock);
    return;
  }
  for (c = 0; c < RTP_BURST_GROUP_CLASSES; c++) {
    __atomic_store_n (&link->tat[c], 0, __ATOMIC_RELAXED);
    __atomic_store_n (&link->left[c], 0, __ATOMIC_RELAXED);
  }
  g_atomic_pointer_set (&link->clock, NULL);
}

/**
 * rtp_burst_group_join:
 * @name: the group's name; one group per name in the process
 * @member: (out): the caller's member id, for the other calls
 *
 * Returns: (transfer full): the group, created if it did not exist; give
 * it back with rtp_burst_group_leave ().
 */
RtpBurstGroup *
rtp_burst_group_join (const gchar * name, guint * member)
{
  RtpBurstGroup *group;

  RTP_BURST_MUTEX_LOCK (&registry_lock);
  if (registry == NULL)
    registry = g_hash_table_new (g_str_hash, g_str_equal);
  group = g_hash_table_lookup (registry, name);
  if (group == NULL) {
    group = g_new0 (RtpBurstGroup, 1);
    group->name = g_strdup (name);
    g_mutex_init (&group->lock);
    group->timeline = rtp_burst_timeline_new ();
    group->placed = g_hash_table_new (NULL, NULL);
    group->max_rates = g_hash_table_new_full (NULL, NULL, NULL, g_free);
    g_hash_table_insert (registry, group->name, group);
  }
  group->refs++;
  RTP_BURST_MUTEX_LOCK (&group->lock);
  *member = rtp_burst_timeline_add_member (group->timeline);
  g_atomic_int_set (&group->n_members,
      rtp_burst_timeline_n_members (group->timeline));
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
  RTP_BURST_MUTEX_UNLOCK (&registry_lock);
  return group;
}

/* @rate_member: @member is counted in the link's members (it booked on the
 * link through rtp_burst_group_member_book ()). */
static void
group_leave (RtpBurstGroup * group, guint member, gboolean rate_member)
{
  RTP_BURST_MUTEX_LOCK (&registry_lock);
  RTP_BURST_MUTEX_LOCK (&group->lock);
  rtp_burst_timeline_remove_member (group->timeline, member);
  g_hash_table_remove (group->placed, GUINT_TO_POINTER (member));
  g_hash_table_remove (group->max_rates, GUINT_TO_POINTER (member));
  update_max_rate (group);
  g_atomic_int_set (&group->n_members,
      rtp_burst_timeline_n_members (group->timeline));
  if (rate_member)
    rate_member_left (&group->link);
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
  if (--group->refs == 0) {
    g_hash_table_remove (registry, group->name);
    if (g_hash_table_size (registry) == 0)
      g_clear_pointer (&registry, g_hash_table_unref);
    rtp_burst_timeline_free (group->timeline);
    g_hash_table_unref (group->placed);
    g_hash_table_unref (group->max_rates);
    TSAN_DESTROY (&group->lock);
    g_mutex_clear (&group->lock);
    g_free (group->name);
    g_free (group);
  }
  RTP_BURST_MUTEX_UNLOCK (&registry_lock);
}

/**
 * rtp_burst_group_leave:
 *
 * Gives back a member's reference to the group.  A member that booked on
 * the group's rate through rtp_burst_group_member_book () leaves with
 * rtp_burst_group_member_leave (), so that the rate's clock goes with the
 * last member that booked on it.
 */
void
rtp_burst_group_leave (RtpBurstGroup * group, guint member)
{
  group_leave (group, member, FALSE);
}

void
rtp_burst_group_forget (RtpBurstGroup * group, guint member)
{
  RTP_BURST_MUTEX_LOCK (&group->lock);
  rtp_burst_timeline_forget (group->timeline, member);
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
}

/* Without a lock: a stats getter may ask while another member places. */
guint
rtp_burst_group_n_members (RtpBurstGroup * group)
{
  return g_atomic_int_get (&group->n_members);
}

/**
 * rtp_burst_group_try_place:
 * @clock: the member's clock (compared, never dereferenced); the times of
 *   @plan are that clock's
 *
 * Places the frame of @plan among the other members' (sets its phase),
 * unless another member holds the group at the moment (BUSY) or the group's
 * members place on another clock (OTHER_CLOCK); then @plan is not changed.
 * Never waits.
 */
RtpBurstGroupResult
rtp_burst_group_try_place (RtpBurstGroup * group, guint member,
    gconstpointer clock, RtpBurstPlan * plan, RtpBurstPlacement * out)
{
  RtpBurstGroupResult res = RTP_BURST_GROUP_PLACED;
  gpointer id = GUINT_TO_POINTER (member);
  guint others;

  if (!rtp_burst_mutex_trylock (&group->lock))
    return RTP_BURST_GROUP_BUSY;
  others = g_hash_table_size (group->placed) -
      (g_hash_table_contains (group->placed, id) ? 1 : 0);
  if (others > 0 && group->clock != clock) {
    res = RTP_BURST_GROUP_OTHER_CLOCK;
  } else {
    /* the first to place, or the only one that did, sets the clock */
    g_hash_table_add (group->placed, id);
    group->clock = clock;
    rtp_burst_timeline_place (group->timeline, member, plan, out);
  }
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
  return res;
}

/**
 * rtp_burst_group_set_max_rate:
 * @max_rate: the member's cap on the group's aggregate rate, bit/s; 0: none
 *
 * The group's rate is the smallest its members set.
 */
void
rtp_burst_group_set_max_rate (RtpBurstGroup * group, guint member,
    guint64 max_rate)
{
  RTP_BURST_MUTEX_LOCK (&group->lock);
  if (max_rate > 0)
    g_hash_table_insert (group->max_rates, GUINT_TO_POINTER (member),
        g_memdup2 (&max_rate, sizeof (max_rate)));
  else
    g_hash_table_remove (group->max_rates, GUINT_TO_POINTER (member));
  update_max_rate (group);
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
}

guint64
rtp_burst_group_max_rate (RtpBurstGroup * group)
{
  return __atomic_load_n (&group->max_rate, __ATOMIC_ACQUIRE);
}

/**
 * rtp_burst_rate_book:
 * @tat: when the bytes booked so far end (0: none yet)
 * @now: when the caller would send @bytes
 * @release: (out): when they may leave: @now, or when the earlier ones end
 *
 * One booking on a link of @max_rate bit/s (a virtual scheduling time, as
 * in GCRA): each booking takes bytes·8/max_rate of the link from its
 * release on, so what leaves in any interval is at most max_rate times its
 * length plus one booking.
 *
 * Returns: when the bytes booked, these included, end.
 */
guint64
rtp_burst_rate_book (guint64 tat, guint64 now, guint64 bytes,
    guint64 max_rate, guint64 * release)
{
  *release = MAX (tat, now);
  return rtp_burst_time_add (*release, rtp_burst_rate_span (bytes, max_rate));
}

/**
 * rtp_burst_group_class:
 * @priority: the member's (0: lowest; above RTP_BURST_GROUP_PRIORITIES - 1
 *   counts as that)
 * @repair: for a repair packet
 *
 * Returns: the class a push books in (see rtpburstgroup.h).
 */
guint
rtp_burst_group_class (guint priority, gboolean repair)
{
  return 2 * MIN (priority, RTP_BURST_GROUP_PRIORITIES - 1) + (repair ? 1 : 0);
}

/* Books in one class's virtual time (compare and exchange). */
static guint64
book_class (guint64 * tat, guint64 now, guint64 bytes, guint64 rate)
{
  guint64 old = __atomic_load_n (tat, __ATOMIC_ACQUIRE), next, release;

  do {
    next = rtp_burst_rate_book (old, now, bytes, rate, &release);
  } while (!__atomic_compare_exchange_n (tat, &old, next, FALSE,
          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  return release;
}

/* rtp_burst_group_book (); @rate_member (if not NULL): whether the caller
 * is counted in the link's members, counted when it books. */
static RtpBurstGroupResult
group_book (RtpBurstGroup * group, gconstpointer clock, guint64 now,
    guint64 bytes, guint klass, guint64 * release, gboolean * rate_member)
{
  guint64 rate = rtp_burst_group_max_rate (group);
  RtpBurstGroupResult res;
  guint c;

  if (rate == 0)
    return RTP_BURST_GROUP_ALONE;
  res = rate_enter (&group->link, clock, TRUE);
  if (res != RTP_BURST_GROUP_PLACED)
    return res;
  klass = MIN (klass, RTP_BURST_GROUP_CLASS_TOP);
  *release = book_class (&group->link.tat[klass], now, bytes, rate);
  for (c = 0; c < klass; c++)
    book_class (&group->link.tat[c], now, bytes, rate);
  /* in the section: a reset of the link sees it */
  if (rate_member && !*rate_member) {
    g_atomic_int_inc (&group->link.members);
    *rate_member = TRUE;
  }
  rate_exit (&group->link);
  return RTP_BURST_GROUP_PLACED;
}

/**
 * rtp_burst_group_book:
 * @clock: the member's clock (compared, never dereferenced); @now is its
 *   time
 * @klass: the push's class (rtp_burst_group_class (), or
 *   RTP_BURST_GROUP_CLASS_TOP)
 * @release: (out): when the bytes may leave, in @clock's time
 *
 * Books @bytes on the group's rate without a lock: a member's pacing
 * thread never waits for another (atomic compare and exchange, one per
 * class from @klass down).  The bytes wait only for those booked in
 * @klass and above, and every class below waits for them.  The first
 * booking gives the rate its clock; rtp_burst_group_member_book () also
 * counts the member as one that booked on it.
 *
 * Returns: RTP_BURST_GROUP_PLACED when booked; ALONE when the group has no
 *   rate; OTHER_CLOCK when the group books on another clock; BUSY when the
 *   last member that booked on the rate is just leaving (not booked).
 */
RtpBurstGroupResult
rtp_burst_group_book (RtpBurstGroup * group, gconstpointer clock,
    guint64 now, guint64 bytes, guint klass, guint64 * release)
{
  return group_book (group, clock, now, bytes, klass, release, NULL);
}

/* Raises one class's virtual time to at least @end (compare and exchange). */
static void
occupy_class (guint64 * tat, guint64 end)
{
  guint64 old = __atomic_load_n (tat, __ATOMIC_ACQUIRE);

  while (old < end && !__atomic_compare_exchange_n (tat, &old, end, FALSE,
          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
}

/* The link is taken until @end in @klass and below: what is booked and
 * what leaves from now on there comes after it (in a rate section). */
static void
occupy_until (RtpBurstLink * link, guint klass, guint64 end)
{
  guint c;

  for (c = 0; c <= klass; c++) {
    occupy_class (&link->tat[c], end);
    occupy_class (&link->left[c], end);
  }
}

/**
 * rtp_burst_group_claim:
 * @clock: the member's clock; @now is its time
 * @now: when a push booked (rtp_burst_group_book ()) would leave, its
 *   release come
 * @klass: the class it was booked in
 * @until: (out): when FALSE, when the link is free for it
 *
 * The second half of a booking, as the push leaves: the link must be free
 * of what has left before it in @klass and above (a push of another member
 * that left later than it was told, one of a higher class that came in
 * between).  Then TRUE, and the link is taken from @now for @bytes in
 * @klass and every class below; else FALSE and the caller waits until
 * *@until and claims again.  So pushes keep the rate between the times
 * they leave, not only between the times they were told.  TRUE without a
 * rate or on another clock.  Never waits.
 */
gboolean
rtp_burst_group_claim (RtpBurstGroup * group, gconstpointer clock,
    guint64 now, guint64 bytes, guint klass, guint64 * until)
{
  RtpBurstLink *link = &group->link;
  guint64 rate = rtp_burst_group_max_rate (group), old, end;
  gboolean got = TRUE;

  if (rate == 0 || rate_enter (link, clock, FALSE) != RTP_BURST_GROUP_PLACED)
    return TRUE;
  klass = MIN (klass, RTP_BURST_GROUP_CLASS_TOP);
  end = rtp_burst_time_add (now, rtp_burst_rate_span (bytes, rate));
  old = __atomic_load_n (&link->left[klass], __ATOMIC_ACQUIRE);
  do {
    if (old > now) {
      *until = old;
      got = FALSE;
      break;
    }
  } while (!__atomic_compare_exchange_n (&link->left[klass], &old, end,
          FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  if (got)
    occupy_until (link, klass, end);
  rate_exit (link);
  return got;
}

/**
 * rtp_burst_group_occupy:
 * @clock: the member's clock; @start is its time
 * @start: when a push that took the link (rtp_burst_group_book (), or a
 *   pass-through push) returned, or otherwise left
 * @klass: the class it was booked in
 *
 * Takes the link for @bytes from @start on, in @klass and every class below
 * (without a lock): a push that left later than it was told (its thread
 * woke late, downstream held it) is followed by what is booked or leaves
 * from now on only once its bytes' time has passed.  Bookings already made
 * keep their times (rtp_burst_group_claim () holds their pushes back).
 * Nothing happens without a rate or on another clock.  Never waits.
 */
void
rtp_burst_group_occupy (RtpBurstGroup * group, gconstpointer clock,
    guint64 start, guint64 bytes, guint klass)
{
  guint64 rate = rtp_burst_group_max_rate (group);

  if (rate == 0 || rate_enter (&group->link, clock,
          FALSE) != RTP_BURST_GROUP_PLACED)
    return;
  occupy_until (&group->link, MIN (klass, RTP_BURST_GROUP_CLASS_TOP),
      rtp_burst_time_add (start, rtp_burst_rate_span (bytes, rate)));
  rate_exit (&group->link);
}

void
rtp_burst_group_hold (RtpBurstGroup * group)
{
  RTP_BURST_MUTEX_LOCK (&group->lock);
}

void
rtp_burst_group_release (RtpBurstGroup * group)
{
  RTP_BURST_MUTEX_UNLOCK (&group->lock);
}

/* --- One element's membership -------------------------------------------- */

void
rtp_burst_group_member_init (RtpBurstGroupMember * m)
{
  m->group = NULL;
  m->id = 0;
  m->frames = m->shared_slots = 0;
  m->last_phase = 0;
  m->last_gap = RTP_BURST_TIME_NONE;
  m->busy = m->other_clock = 0;
  m->rate_member = FALSE;
}

/* Leaves the group it was in, if any, and joins @name (none if NULL or
 * empty), with its counters reset. */
void
rtp_burst_group_member_join (RtpBurstGroupMember * m, const gchar * name)
{
  rtp_burst_group_member_leave (m);
  if (name != NULL && name[0] != '\0')
    m->group = rtp_burst_group_join (name, &m->id);
}

void
rtp_burst_group_member_leave (RtpBurstGroupMember * m)
{
  if (m->group != NULL)
    group_leave (m->group, m->id, m->rate_member);
  rtp_burst_group_member_init (m);
}

void
rtp_burst_group_member_forget (RtpBurstGroupMember * m)
{
  if (m->group != NULL)
    rtp_burst_group_forget (m->group, m->id);
}

/* Moves the frame's slots off the other members' (sets @plan's phase).
 * @plan's times are the member's running time; @base_time makes them
 * @clock's time, in which the members of a group place (see the top of
 * rtpburstgroup.h).  Never waits. */
RtpBurstGroupResult
rtp_burst_group_member_place (RtpBurstGroupMember * m, RtpBurstPlan * plan,
    gconstpointer clock, guint64 base_time)
{
  RtpBurstPlacement placed;
  RtpBurstGroupResult res;

  if (m->group == NULL)
    return RTP_BURST_GROUP_ALONE;
  plan->start += base_time;
  res = rtp_burst_group_try_place (m->group, m->id, clock, plan, &placed);
  plan->start -= base_time;
  switch (res) {
    case RTP_BURST_GROUP_PLACED:
      m->frames++;
      m->shared_slots += placed.shared;
      m->last_phase = placed.phase;
      m->last_gap = placed.gap;
      break;
    case RTP_BURST_GROUP_BUSY:
      m->busy++;
      break;
    case RTP_BURST_GROUP_OTHER_CLOCK:
      m->other_clock++;
      break;
    default:
      break;
  }
  return res;
}

void
rtp_burst_group_member_set_max_rate (RtpBurstGroupMember * m, guint64 max_rate)
{
  if (m->group != NULL)
    rtp_burst_group_set_max_rate (m->group, m->id, max_rate);
}

/* A clock time of the group's rate in running time (0 before @base_time). */
static guint64
running_time (guint64 t, guint64 base_time)
{
  return t >= base_time ? t - base_time : 0;
}

/* Books @bytes on the group's rate at running time @now (see
 * rtp_burst_group_book ()): *release is when they may leave, in running
 * time.  Never waits. */
RtpBurstGroupResult
rtp_burst_group_member_book (RtpBurstGroupMember * m, gconstpointer clock,
    guint64 base_time, guint64 now, guint64 bytes, guint klass,
    guint64 * release)
{
  RtpBurstGroupResult res;
  guint64 r;

  if (m->group == NULL)
    return RTP_BURST_GROUP_ALONE;
  res = group_book (m->group, clock, rtp_burst_time_add (now, base_time),
      bytes, klass, &r, &m->rate_member);
  if (res == RTP_BURST_GROUP_PLACED)
    *release = running_time (r, base_time);
  else if (res == RTP_BURST_GROUP_OTHER_CLOCK)
    m->other_clock++;
  return res;
}

/* rtp_burst_group_claim () for a member; @now and *@until in running time. */
gboolean
rtp_burst_group_member_claim (RtpBurstGroupMember * m, gconstpointer clock,
    guint64 base_time, guint64 now, guint64 bytes, guint klass, guint64 * until)
{
  guint64 u;

  if (m->group == NULL || rtp_burst_group_claim (m->group, clock,
          rtp_burst_time_add (now, base_time), bytes, klass, &u))
    return TRUE;
  *until = running_time (u, base_time);
  return FALSE;
}

/* rtp_burst_group_occupy () for a member; @start in running time. */
void
rtp_burst_group_member_occupy (RtpBurstGroupMember * m, gconstpointer clock,
    guint64 base_time, guint64 start, guint64 bytes, guint klass)
{
  if (m->group != NULL)
    rtp_burst_group_occupy (m->group, clock, rtp_burst_time_add (start,
            base_time), bytes, klass);
}

/* Members of its group, itself included; 0 when not in one. */
guint
rtp_burst_group_member_n_members (const RtpBurstGroupMember * m)
{
  return m->group != NULL ? rtp_burst_group_n_members (m->group) : 0;
}

void
rtp_burst_group_member_report (const RtpBurstGroupMember * m,
    RtpBurstGroupReport * out)
{
  out->members = rtp_burst_group_member_n_members (m);
  out->frames = m->frames;
  out->shared_slots = m->shared_slots;
  out->phase = m->last_phase;
  out->gap = m->last_gap;
  out->busy = m->busy;
  out->other_clock = m->other_clock;
  out->max_rate = m->group ? rtp_burst_group_max_rate (m->group) : 0;
}
