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

/* The GstHarness + GstTestClock fixture of the deterministic element
 * suites: a 25 fps stream pushed frame by frame, slots cranked one by one
 * at their exact times. */

#ifndef RTPBURSTPACE_TEST_FIXTURE_H
#define RTPBURSTPACE_TEST_FIXTURE_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>

#include "rtpburstpace-common.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define PERIOD (40 * MS)

#define CAPS_BASE "application/x-rtp, media=(string)video, " \
    "clock-rate=(int)90000, encoding-name=(string)RAW, payload=(int)96"
#define CAPS_25 CAPS_BASE ", a-framerate=(string)25"

typedef struct
{
  GstHarness *h;
  GstTestClock *clock;
  guint16 seq_in;               /* next sequence number pushed */
  guint16 seq_out;              /* next sequence number expected out */
} Fixture;

static inline void
fixture_init (Fixture * f, const gchar * caps, const gchar * first_prop, ...)
{
  va_list args;

  f->h = gst_harness_new ("rtpburstpace");
  f->clock = gst_harness_get_testclock (f->h);
  f->seq_in = f->seq_out = 65530;       /* also crosses the 16-bit wrap */
  g_object_set (f->h->element, "slot-jitter", 0.0, NULL);
  if (first_prop) {
    va_start (args, first_prop);
    g_object_set_valist (G_OBJECT (f->h->element), first_prop, args);
    va_end (args);
  }
  if (caps)
    gst_harness_set_src_caps_str (f->h, caps);
}

static inline void
fixture_clear (Fixture * f)
{
  gst_object_unref (f->clock);
  gst_harness_teardown (f->h);
}

/* n packets of payload_len bytes with one RTP timestamp; the last one
 * carries the marker bit if @marker */
static inline void
push_frame_full (Fixture * f, guint32 rtptime, GstClockTime pts, guint n,
    guint payload_len, gboolean marker)
{
  guint i;

  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (f->h,
            test_rtp_packet (f->seq_in++, rtptime, marker && i == n - 1,
                payload_len, pts)), GST_FLOW_OK);
}

/* frame number i of a 25 fps stream */
static inline void
push_frame (Fixture * f, guint i, guint n, guint payload_len)
{
  push_frame_full (f, 1000 + i * 3600, i * PERIOD, n, payload_len, TRUE);
}

static inline void
pull_packets (Fixture * f, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *buf = gst_harness_pull (f->h);
    GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

    fail_unless (buf != NULL);
    fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
    /* exactly once and in order */
    fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), f->seq_out);
    gst_rtp_buffer_unmap (&rtp);
    f->seq_out++;
    gst_buffer_unref (buf);
  }
}

/* Waits for the element's next clock wait, checks that nothing left early
 * and that the wait is for @expected, releases it and pulls @n packets. */
static inline void
crank_slot (Fixture * f, GstClockTime expected, guint n)
{
  GstClockID id;

  gst_test_clock_wait_for_next_pending_id (f->clock, &id);
  fail_unless_equals_int (gst_harness_buffers_in_queue (f->h), 0);
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), expected);
  gst_clock_id_unref (id);
  fail_unless (gst_harness_crank_single_clock_wait (f->h));
  pull_packets (f, n);
}

/* The slots of a frame: k slots of b packets from t0, Δt apart. */
static inline void
crank_frame (Fixture * f, GstClockTime t0, GstClockTime dt, guint n, guint b)
{
  guint j;

  for (j = 0; j * b < n; j++)
    crank_slot (f, t0 + j * dt, MIN (b, n - j * b));
}

static inline void
push_segment (Fixture * f)
{
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (f->h,
          gst_event_new_segment (&segment)));
}

static inline GstStructure *
get_stats (Fixture * f)
{
  GstStructure *s;

  g_object_get (f->h->element, "stats", &s, NULL);
  fail_unless (s != NULL);
  return s;
}

static inline gchar *
stat_string (Fixture * f, const gchar * field)
{
  GstStructure *s = get_stats (f);
  gchar *v = g_strdup (gst_structure_get_string (s, field));

  gst_structure_free (s);
  return v;
}

static inline void
check_period_source (Fixture * f, const gchar * expected)
{
  gchar *source = stat_string (f, "frame-period-source");

  fail_unless_equals_string (source, expected);
  g_free (source);
}

static inline guint64
stat (Fixture * f, const gchar * field)
{
  return test_stat (f->h->element, field);
}

/* Waits until the element has nothing queued and is idle. */
static inline void
wait_queue_empty (Fixture * f)
{
  while (stat (f, "queued-packets") > 0)
    g_usleep (1000);
}

#endif /* RTPBURSTPACE_TEST_FIXTURE_H */
