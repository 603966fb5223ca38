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


/* Unit tests of rtpburstbooking.c: book, wait and claim on a group's rate,
 * with exact times. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstbooking.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE
/* 8 Mbit/s: 1000 bytes take 1 ms of the link */
#define RATE 8000000
#define CLASS_LOW rtp_burst_group_class (0, FALSE)
#define GO RTP_BURST_BOOKING_GO
#define WAIT_RELEASE RTP_BURST_BOOKING_WAIT_RELEASE
#define WAIT_CLAIM RTP_BURST_BOOKING_WAIT_CLAIM

static const gint clock_x = 0;

static void
rate_time (RtpBurstRateTime * t, guint64 now)
{
  t->now = now;
  t->clock = &clock_x;
  t->base_time = 0;
}

/* Asks @b in the lowest class. */
static RtpBurstBookingStep
ready (RtpBurstBooking * b, RtpBurstGroupMember * m, RtpBurstRateTime * t,
    guint64 bytes, RtpBurstRateWaits * w, guint64 * until)
{
  return rtp_burst_booking_ready (b, m, t, bytes, CLASS_LOW, w, until);
}

static void
join (RtpBurstGroupMember * m, const gchar * name)
{
  rtp_burst_group_member_init (m);
  rtp_burst_group_member_join (m, name);
  rtp_burst_group_member_set_max_rate (m, RATE);
}

GST_START_TEST (test_booking_without_rate)
{
  RtpBurstGroupMember alone, m;
  RtpBurstBooking b;
  RtpBurstRateWaits w = { 0, };
  RtpBurstRateTime t;
  guint64 until = 42;

  rate_time (&t, 5 * MS);
  /* not in a group: ready at once, nothing booked */
  rtp_burst_group_member_init (&alone);
  rtp_burst_booking_reset (&b);
  fail_unless_equals_int (ready (&b, &alone, &t, 1000, &w, &until),
      GO);
  fail_if (b.booked);
  fail_if (rtp_burst_rate_count (&alone, &t, 1000));

  /* in a group without a rate: the same */
  rtp_burst_group_member_init (&m);
  rtp_burst_group_member_join (&m, "booking-no-rate");
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      GO);
  fail_if (b.booked);
  /* with a rate but no clock time: the same */
  rtp_burst_group_member_set_max_rate (&m, RATE);
  rate_time (&t, NONE);
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      GO);
  fail_if (b.booked);
  fail_unless_equals_uint64 (w.waits, 0);
  fail_unless_equals_uint64 (until, 42);
  rtp_burst_group_member_leave (&m);
}

GST_END_TEST;

GST_START_TEST (test_booking_waits_for_release)
{
  RtpBurstGroupMember m;
  RtpBurstBooking a, b;
  RtpBurstRateWaits w = { 0, };
  RtpBurstRateTime t;
  guint64 until = 0;

  join (&m, "booking-release");
  rtp_burst_booking_reset (&a);
  rtp_burst_booking_reset (&b);

  /* the first push: the link is free, it leaves at once */
  rate_time (&t, 10 * MS);
  fail_unless_equals_int (ready (&a, &m, &t, 1000, &w, &until),
      GO);
  fail_unless (a.booked);
  fail_if (a.waited);
  fail_unless_equals_uint64 (a.release, 10 * MS);

  /* the second, asked at the same time: released when the first's 1 ms is
   * over, counted as a wait of 1 ms */
  fail_unless_equals_int (ready (&b, &m, &t, 2000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 11 * MS);
  fail_unless (b.waited);
  fail_unless_equals_uint64 (w.waits, 1);
  fail_unless_equals_uint64 (w.max_delay, 1 * MS);

  /* asked again before then: the same release, counted once */
  rate_time (&t, 10 * MS + MS / 2);
  fail_unless_equals_int (ready (&b, &m, &t, 2000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 11 * MS);
  fail_unless_equals_uint64 (w.waits, 1);

  /* at the release it claims the link and leaves */
  rate_time (&t, 11 * MS);
  fail_unless_equals_int (ready (&b, &m, &t, 2000, &w, &until),
      GO);
  fail_unless_equals_uint64 (b.release, 11 * MS);
  fail_unless_equals_uint64 (w.waits, 1);
  fail_unless_equals_uint64 (w.max_delay, 1 * MS);

  /* a new booking (the next push) after a reset: the link is taken until
   * 13 ms by the 2000 bytes */
  rtp_burst_booking_reset (&a);
  fail_unless_equals_int (ready (&a, &m, &t, 1000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 13 * MS);
  fail_unless_equals_uint64 (w.waits, 2);
  fail_unless_equals_uint64 (w.max_delay, 2 * MS);
  rtp_burst_group_member_leave (&m);
}

GST_END_TEST;

GST_START_TEST (test_booking_claim_waits)
{
  RtpBurstGroupMember m, other;
  RtpBurstBooking b, o;
  RtpBurstRateWaits w = { 0, }, ow = { 0, };
  RtpBurstRateTime t;
  guint64 until = 0;

  join (&m, "booking-claim");
  join (&other, "booking-claim");
  rtp_burst_booking_reset (&b);
  rtp_burst_booking_reset (&o);

  /* the other member's push takes the link from 20 to 21 ms */
  rate_time (&t, 20 * MS);
  fail_unless_equals_int (ready (&o, &other, &t, 1000, &ow, &until),
      GO);
  /* this one is booked behind it, released at 21 ms */
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 21 * MS);
  fail_unless_equals_uint64 (w.waits, 1);
  /* but the other's push returned late, at 21.5 ms, and takes the link
   * from then: at its release this one's claim waits until 22.5 ms,
   * still one wait, of 1.5 ms */
  rtp_burst_group_member_occupy (&other, &clock_x, 0, 21 * MS + MS / 2,
      1000, CLASS_LOW);
  rate_time (&t, 21 * MS);
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      WAIT_CLAIM);
  fail_unless_equals_uint64 (until, 22 * MS + MS / 2);
  fail_unless_equals_uint64 (w.waits, 1);
  fail_unless_equals_uint64 (w.max_delay, 1 * MS + MS / 2);

  rate_time (&t, 22 * MS + MS / 2);
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      GO);
  fail_unless_equals_uint64 (w.waits, 1);
  rtp_burst_group_member_leave (&other);
  rtp_burst_group_member_leave (&m);
}

GST_END_TEST;

GST_START_TEST (test_booking_counted)
{
  RtpBurstGroupMember m;
  RtpBurstBooking held, b;
  RtpBurstRateWaits w = { 0, };
  RtpBurstRateTime t;
  guint64 until = 0;

  join (&m, "booking-counted");
  rtp_burst_booking_reset (&held);
  rtp_burst_booking_reset (&b);

  /* a push that leaves whatever the rate says: ready at once, with the
   * release it was given, no wait counted */
  rate_time (&t, 30 * MS);
  fail_unless (rtp_burst_booking_count (&held, &m, &t, 3000, 29 * MS));
  fail_unless (held.booked && held.counted);
  fail_unless_equals_int (ready (&held, &m, &t, 3000, &w, &until),
      GO);
  fail_unless_equals_uint64 (held.release, 29 * MS);
  fail_unless_equals_uint64 (w.waits, 0);

  /* ... and its 3 ms count: the next paced push waits for them */
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 33 * MS);

  /* a pass-through push counts the same way */
  rate_time (&t, 40 * MS);
  fail_unless (rtp_burst_rate_count (&m, &t, 1000));
  rtp_burst_booking_reset (&b);
  fail_unless_equals_int (ready (&b, &m, &t, 1000, &w, &until),
      WAIT_RELEASE);
  fail_unless_equals_uint64 (until, 41 * MS);
  rtp_burst_group_member_leave (&m);
}

GST_END_TEST;

static Suite *
rtpburstbooking_suite (void)
{
  Suite *s = suite_create ("rtpburstbooking");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_booking_without_rate);
  tcase_add_test (tc, test_booking_waits_for_release);
  tcase_add_test (tc, test_booking_claim_waits);
  tcase_add_test (tc, test_booking_counted);
  return s;
}

GST_CHECK_MAIN (rtpburstbooking);
