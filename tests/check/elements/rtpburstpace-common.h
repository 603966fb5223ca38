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

/* Helpers shared by the element test suites. */

#ifndef RTPBURSTPACE_TEST_COMMON_H
#define RTPBURSTPACE_TEST_COMMON_H

#include <gst/check/gstcheck.h>
#include <gst/rtp/gstrtpbuffer.h>

/* GstHarness hands buffers from the element's thread to the test's through
 * a GAsyncQueue, whose futex ThreadSanitizer cannot see: a test that reads
 * what the element wrote into a buffer (its DTS) announces the hand-over,
 * TEST_TSAN_RELEASE in the element's thread before the harness takes the
 * buffer, TEST_TSAN_ACQUIRE after pulling it.  Empty in other builds. */
#if defined(__SANITIZE_THREAD__)
#define RTP_BURST_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RTP_BURST_TEST_TSAN 1
#endif
#endif
#ifdef RTP_BURST_TEST_TSAN
#include <sanitizer/tsan_interface.h>
#define TEST_TSAN_RELEASE(a) __tsan_release (a)
#define TEST_TSAN_ACQUIRE(a) __tsan_acquire (a)
#else
#define TEST_TSAN_RELEASE(a) G_STMT_START { } G_STMT_END
#define TEST_TSAN_ACQUIRE(a) G_STMT_START { } G_STMT_END
#endif

/* In the element's thread, as a buffer reaches the harness. */
static inline GstPadProbeReturn
test_handover_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  TEST_TSAN_RELEASE (GST_PAD_PROBE_INFO_BUFFER (info));
  return GST_PAD_PROBE_OK;
}

/* Announces the hand-over of every buffer that reaches @pad (the
 * harness's sink pad); pull with TEST_TSAN_ACQUIRE after. */
static inline void
test_announce_handover (GstPad * pad)
{
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, test_handover_probe,
      NULL, NULL);
}

/* An RTP packet (payload type 96, SSRC 0x12345678) with @payload_len
 * bytes of payload, each the low byte of @seq, and PTS @pts. */
static inline GstBuffer *
test_rtp_packet (guint16 seq, guint32 rtptime, gboolean marker,
    guint payload_len, GstClockTime pts)
{
  GstBuffer *buf = gst_rtp_buffer_new_allocate (payload_len, 0, 0);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp));
  gst_rtp_buffer_set_payload_type (&rtp, 96);
  gst_rtp_buffer_set_ssrc (&rtp, 0x12345678);
  gst_rtp_buffer_set_seq (&rtp, seq);
  gst_rtp_buffer_set_timestamp (&rtp, rtptime);
  gst_rtp_buffer_set_marker (&rtp, marker);
  memset (gst_rtp_buffer_get_payload (&rtp), seq & 0xff, payload_len);
  gst_rtp_buffer_unmap (&rtp);
  GST_BUFFER_PTS (buf) = pts;
  return buf;
}

/* A counter of the element's stats (a guint64 or guint field). */
static inline guint64
test_stat (GstElement * element, const gchar * field)
{
  GstStructure *s;
  guint64 v = 0;
  guint u;

  g_object_get (element, "stats", &s, NULL);
  fail_unless (s != NULL);
  if (!gst_structure_get_uint64 (s, field, &v)) {
    fail_unless (gst_structure_get_uint (s, field, &u), "no field %s", field);
    v = u;
  }
  gst_structure_free (s);
  return v;
}

#endif /* RTPBURSTPACE_TEST_COMMON_H */
