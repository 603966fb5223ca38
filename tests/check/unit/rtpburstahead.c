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

/* Unit tests of rtpburstahead.c: which slots are handed over ahead, when
 * the task wakes for the next, and the reasons it is not applied. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "rtpburstahead.h"
#include "rtpburstschedule.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define NONE RTP_BURST_TIME_NONE

GST_START_TEST (test_due)
{
  /* less than the horizon after now */
  fail_unless (rtp_burst_ahead_due (49 * MS, 10 * MS, 40 * MS));
  fail_if (rtp_burst_ahead_due (50 * MS, 10 * MS, 40 * MS));
  fail_unless (rtp_burst_ahead_due (50 * MS - 1, 10 * MS, 40 * MS));
  /* a slot that has passed */
  fail_unless (rtp_burst_ahead_due (5 * MS, 10 * MS, 1));
  /* no time: never */
  fail_if (rtp_burst_ahead_due (5 * MS, NONE, 40 * MS));
  fail_if (rtp_burst_ahead_due (NONE, 10 * MS, 40 * MS));
  /* near the end of the range */
  fail_unless (rtp_burst_ahead_due (NONE - 2, NONE - 10, G_MAXUINT64 / 2));
  fail_unless (rtp_burst_ahead_due (NONE - 1, NONE - 1, 40 * MS));
  fail_if (rtp_burst_ahead_due (NONE - 1, NONE - 1 - 80 * MS, 40 * MS));
  /* ... where a slot not due is woken for after now */
  fail_unless (rtp_burst_ahead_wake (NONE - 1, 80 * MS, 40 * MS) >
      NONE - 1 - 80 * MS);
}

GST_END_TEST;

GST_START_TEST (test_wake)
{
  /* up to a period: at the slot */
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (100 * MS, 10 * MS,
          40 * MS), 100 * MS);
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (100 * MS, 40 * MS,
          40 * MS), 100 * MS);
  /* beyond: what exceeds the period before it */
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (100 * MS, 80 * MS,
          40 * MS), 60 * MS);
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (100 * MS, 40 * MS, 0),
      60 * MS);
  /* never before 0 */
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (10 * MS, 80 * MS,
          40 * MS), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_wake (NONE, 80 * MS, 40 * MS),
      NONE);
}

GST_END_TEST;

GST_START_TEST (test_horizon_off)
{
  RtpBurstAhead a;

  rtp_burst_ahead_init (&a);
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 40 * MS,
          RTP_BURST_AHEAD_OFF_NONE), 40 * MS);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a), 0);
  /* 0 asked: nothing to say */
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 0,
          RTP_BURST_AHEAD_OFF_CC), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a), 0);
  /* a reason: 0, noted once */
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 40 * MS,
          RTP_BURST_AHEAD_OFF_GROUP_RATE), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 40 * MS,
          RTP_BURST_AHEAD_OFF_GROUP_RATE), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a),
      RTP_BURST_AHEAD_OFF_GROUP_RATE);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a), 0);
  /* another reason is noted in its turn */
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 40 * MS,
          RTP_BURST_AHEAD_OFF_GROUP_RATE | RTP_BURST_AHEAD_OFF_CC), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a),
      RTP_BURST_AHEAD_OFF_CC);
  /* afresh */
  rtp_burst_ahead_init (&a);
  fail_unless_equals_uint64 (rtp_burst_ahead_horizon (&a, 40 * MS,
          RTP_BURST_AHEAD_OFF_CC), 0);
  fail_unless_equals_uint64 (rtp_burst_ahead_take_notice (&a),
      RTP_BURST_AHEAD_OFF_CC);
}

GST_END_TEST;

static Suite *
rtpburstahead_suite (void)
{
  Suite *s = suite_create ("rtpburstahead");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_due);
  tcase_add_test (tc, test_wake);
  tcase_add_test (tc, test_horizon_off);
  return s;
}

GST_CHECK_MAIN (rtpburstahead);
