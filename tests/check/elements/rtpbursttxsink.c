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

/* rtpbursttxsink without a pacing qdisc: its properties and stats, the
 * packets on loopback, the release time it computes (exact on a
 * GstTestClock, converted between the system clock's types), the wait for
 * the last release time at EOS, and the fallback to waiting on the clock
 * where SO_TXTIME is not in force or loopback's noqueue qdisc ignores it.
 * The qdiscs' side is tested in a User-Mode Linux guest (tests/uml/). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>

#define MS (G_GUINT64_CONSTANT (1000000))
#define SECOND (G_GUINT64_CONSTANT (1000000000))

/* --- a receiver on loopback ---------------------------------------------- */

static gint
receiver_new (gint * port)
{
  struct sockaddr_in addr;
  socklen_t len = sizeof (addr);
  struct timeval tv = { 10, 0 };
  gint fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  fail_unless (fd >= 0);
  memset (&addr, 0, sizeof (addr));
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fail_unless (bind (fd, (struct sockaddr *) &addr, sizeof (addr)) == 0);
  fail_unless (getsockname (fd, (struct sockaddr *) &addr, &len) == 0);
  fail_unless (setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof (tv)) == 0);
  *port = ntohs (addr.sin_port);
  return fd;
}

/* The next datagram, which must be @size bytes of @data. */
static void
receive_expect (gint fd, const guint8 * data, gsize size)
{
  guint8 buf[2048];
  gssize n = recv (fd, buf, sizeof (buf), 0);

  fail_unless (n >= 0, "recv: %s", g_strerror (errno));
  fail_unless_equals_int ((gint) n, (gint) size);
  fail_unless (memcmp (buf, data, size) == 0);
}

static gboolean
nothing_received (gint fd)
{
  guint8 buf[16];

  return recv (fd, buf, sizeof (buf), MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

/* --- the sink ------------------------------------------------------------ */

/* A sink to 127.0.0.1:@port; @clock: its txtime-clock, NULL for the
 * default.  Loopback's noqueue qdisc ignores release times: the sink is
 * told to use them all the same (txtime-check=force), to test them. */
static GstElement *
element_new (gint port, const gchar * clock)
{
  GstElement *sink = gst_element_factory_make ("rtpbursttxsink", NULL);

  fail_unless (sink != NULL);
  g_object_set (sink, "host", "127.0.0.1", "port", port, NULL);
  gst_util_set_object_arg (G_OBJECT (sink), "txtime-check", "force");
  if (clock)
    gst_util_set_object_arg (G_OBJECT (sink), "txtime-clock", clock);
  return sink;
}

/* A harness around @sink, which it starts (READY to PLAYING, with sync and
 * async off, on a GstTestClock) in the calling thread. */
static GstHarness *
harness_new (GstElement * sink)
{
  GstHarness *h = gst_harness_new_with_element (sink, "sink", NULL);

  gst_object_unref (sink);
  gst_harness_set_src_caps_str (h, "application/x-rtp");
  return h;
}

static GstHarness *
sink_new (gint port, const gchar * clock)
{
  return harness_new (element_new (port, clock));
}

static GstBuffer *
packet_new (guint8 fill, gsize size, GstClockTime dts, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (buf, 0, fill, size);
  GST_BUFFER_DTS (buf) = dts;
  GST_BUFFER_PTS (buf) = pts;
  return buf;
}

static GstStructure *
get_stats (GstHarness * h)
{
  GstStructure *s = NULL;

  g_object_get (h->element, "stats", &s, NULL);
  fail_unless (s != NULL);
  return s;
}

/* Fails unless the stats have every field of @expected ("name=(type)value,
 * ..."), with its value. */
static void
check_stats (GstHarness * h, const gchar * expected)
{
  gchar *str = g_strconcat ("application/x-rtp-burst-tx-sink-stats, ",
      expected, NULL);
  GstStructure *want = gst_structure_from_string (str, NULL);
  GstStructure *s = get_stats (h);

  fail_unless (want != NULL, "%s", str);
  g_free (str);
  if (!gst_structure_is_subset (s, want)) {
    gchar *have = gst_structure_to_string (s);

    fail ("stats %s do not have %s", have, expected);
    g_free (have);
  }
  gst_structure_free (s);
  gst_structure_free (want);
}

static gint64
stat_int64 (GstHarness * h, const gchar * name)
{
  GstStructure *s = get_stats (h);
  gint64 v = 0;

  fail_unless (gst_structure_get_int64 (s, name, &v), "%s", name);
  gst_structure_free (s);
  return v;
}

/* --- tests --------------------------------------------------------------- */

GST_START_TEST (test_defaults)
{
  GstElement *sink = gst_element_factory_make ("rtpbursttxsink", NULL);
  gchar *host = NULL;
  gint port = 0, clock = -1, check = -1;
  gboolean txtime = FALSE, active = TRUE, sync = TRUE;
  GstStructure *s = NULL, *want;

  fail_unless (sink != NULL);
  g_object_get (sink, "host", &host, "port", &port, "txtime", &txtime,
      "txtime-clock", &clock, "txtime-active", &active, "sync", &sync,
      "txtime-check", &check, "stats", &s, NULL);
  fail_unless_equals_string (host, "localhost");
  fail_unless_equals_int (check, 0);    /* auto */
  fail_unless_equals_int (port, 5004);
  fail_unless (txtime);
  fail_unless_equals_int (clock, 0);    /* monotonic */
  fail_if (active);
  /* the kernel paces, not the sink */
  fail_if (sync);
  want = gst_structure_from_string ("application/x-rtp-burst-tx-sink-stats, "
      "packets-sent=(guint64)0, bytes-sent=(guint64)0, "
      "send-errors=(guint64)0, timed=(guint64)0, untimed=(guint64)0, "
      "txtime-late=(guint64)0, txtime-missed=(guint64)0, "
      "txtime-invalid=(guint64)0, last-lead=(gint64)0, max-lead=(gint64)0, "
      "txtime-active=(boolean)false, txtime-clock=(string)monotonic, "
      "qdisc=(string)\"not checked\", egress=(string)\"\"", NULL);
  fail_unless (gst_structure_is_equal (s, want), "%" GST_PTR_FORMAT, s);
  gst_structure_free (want);
  gst_structure_free (s);
  g_free (host);

  gst_util_set_object_arg (G_OBJECT (sink), "txtime-clock", "tai");
  g_object_set (sink, "host", "192.0.2.1", "port", 6000, "txtime", FALSE, NULL);
  g_object_get (sink, "host", &host, "port", &port, "txtime", &txtime,
      "txtime-clock", &clock, "stats", &s, NULL);
  fail_unless_equals_string (host, "192.0.2.1");
  fail_unless_equals_int (port, 6000);
  fail_if (txtime);
  fail_unless_equals_int (clock, 1);    /* tai */
  fail_unless_equals_string (gst_structure_get_string (s, "txtime-clock"),
      "tai");
  gst_structure_free (s);
  g_free (host);
  gst_object_unref (sink);
}

GST_END_TEST;

GST_START_TEST (test_caps)
{
  GstElement *sink = gst_element_factory_make ("rtpbursttxsink", NULL);
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstCaps *caps;

  /* any datagram, as udpsink */
  caps = gst_pad_query_caps (pad, NULL);
  fail_unless (gst_caps_is_any (caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("application/x-rtp, media=video");
  fail_unless (gst_pad_query_accept_caps (pad, caps));
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (sink);
}

GST_END_TEST;

/* Every buffer arrives as one datagram with its bytes, in order: several
 * memory blocks, a buffer list, a buffer without a timestamp (sent without
 * a release time); loopback's noqueue sends them at once. */
GST_START_TEST (test_loopback)
{
  gint port, fd = receiver_new (&port);
  GstHarness *h = sink_new (port, NULL);
  GstBuffer *parts;
  GstBufferList *list;
  guint8 joined[300];
  gboolean active = FALSE;

  g_object_get (h->element, "txtime-active", &active, NULL);
  fail_unless (active, "SO_TXTIME refused (Linux 4.19 or later needed)");

  fail_unless_equals_int (gst_harness_push (h, packet_new (1, 100, 0, 0)),
      GST_FLOW_OK);
  parts = packet_new (2, 100, 1 * MS, 1 * MS);
  gst_buffer_append_memory (parts, gst_allocator_alloc (NULL, 200, NULL));
  gst_buffer_memset (parts, 100, 3, 200);
  fail_unless_equals_int (gst_buffer_n_memory (parts), 2);
  fail_unless_equals_int (gst_harness_push (h, parts), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, packet_new (4, 50,
              GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE)), GST_FLOW_OK);
  list = gst_buffer_list_new ();
  gst_buffer_list_add (list, packet_new (5, 10, 2 * MS, 2 * MS));
  gst_buffer_list_add (list, packet_new (6, 20, 2 * MS, 2 * MS));
  fail_unless_equals_int (gst_pad_push_list (h->srcpad, list), GST_FLOW_OK);

  memset (joined, 1, 100);
  receive_expect (fd, joined, 100);
  memset (joined, 2, 100);
  memset (joined + 100, 3, 200);
  receive_expect (fd, joined, 300);
  memset (joined, 4, 50);
  receive_expect (fd, joined, 50);
  memset (joined, 5, 10);
  receive_expect (fd, joined, 10);
  memset (joined, 6, 20);
  receive_expect (fd, joined, 20);
  check_stats (h, "packets-sent=(guint64)5, bytes-sent=(guint64)480, "
      "send-errors=(guint64)0, timed=(guint64)4, untimed=(guint64)1, "
      "txtime-active=(boolean)true, qdisc=(string)noqueue, "
      "egress=(string)lo");
  gst_harness_teardown (h);
  close (fd);
}

GST_END_TEST;

/* A buffer of 20 memory blocks (GstBuffer itself merges beyond 16) goes
 * out as one datagram of all its bytes, in order, with its release time. */
GST_START_TEST (test_many_blocks)
{
  gint port, fd = receiver_new (&port);
  GstHarness *h = sink_new (port, NULL);
  GstBuffer *buf = gst_buffer_new ();
  guint8 expect[40];
  guint i;

  for (i = 0; i < 20; i++) {
    GstMemory *mem = gst_allocator_alloc (NULL, 2, NULL);
    GstMapInfo map;

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    map.data[0] = map.data[1] = i;
    expect[2 * i] = expect[2 * i + 1] = i;
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (buf, mem);
  }
  GST_BUFFER_DTS (buf) = GST_BUFFER_PTS (buf) = 5 * MS;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  receive_expect (fd, expect, sizeof (expect));
  check_stats (h, "packets-sent=(guint64)1, bytes-sent=(guint64)40, "
      "timed=(guint64)1, untimed=(guint64)0");
  gst_harness_teardown (h);
  close (fd);
}

GST_END_TEST;

/* The release time of a buffer is the instant a synchronising sink would
 * render it, on the kernel clock.  On a GstTestClock the sink measures the
 * kernel clock against it, and the lead (release time less the kernel
 * clock at the send) is exactly the running time + base time + latency +
 * ts-offset - render-delay less the test clock's time. */
static void
check_lead_exact (const gchar * clock)
{
  gint port, fd = receiver_new (&port);
  GstHarness *h = sink_new (port, clock);
  GstSegment segment;
  gboolean active = FALSE;

  g_object_get (h->element, "txtime-active", &active, NULL);
  if (!active) {
    /* CLOCK_TAI needs CAP_NET_ADMIN */
    fail_unless_equals_string (clock, "tai");
    g_print ("check_lead_exact: CLOCK_TAI not permitted, not checked\n");
    gst_harness_teardown (h);
    close (fd);
    return;
  }
  gst_element_set_base_time (h->element, 300 * MS);
  gst_harness_set_time (h, 1 * SECOND);

  /* the DTS: 705 + 300 - 1000 */
  gst_harness_push (h, packet_new (0, 10, 705 * MS, 900 * MS));
  fail_unless_equals_int64 (stat_int64 (h, "last-lead"), 5 * MS);
  /* no DTS: the PTS */
  gst_harness_push (h, packet_new (0, 10, GST_CLOCK_TIME_NONE, 750 * MS));
  fail_unless_equals_int64 (stat_int64 (h, "last-lead"), 50 * MS);
  /* + ts-offset, + the latency the pipeline gave, - render-delay */
  g_object_set (h->element, "ts-offset", (gint64) (2 * MS), NULL);
  fail_unless (gst_element_send_event (h->element,
          gst_event_new_latency (10 * MS)));
  g_object_set (h->element, "render-delay", (guint64) (1 * MS), NULL);
  gst_harness_push (h, packet_new (0, 10, 750 * MS, 750 * MS));
  fail_unless_equals_int64 (stat_int64 (h, "last-lead"), 61 * MS);
  /* the running time in a segment that starts at 100 ms */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = 100 * MS;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  gst_harness_push (h, packet_new (0, 10, 850 * MS, 850 * MS));
  fail_unless_equals_int64 (stat_int64 (h, "last-lead"), 61 * MS);
  /* already past: late, 600 - 100 + 300 + 10 + 2 - 1 - 1000 */
  gst_harness_push (h, packet_new (0, 10, 600 * MS, 600 * MS));
  /* before the segment: no running time, sent without a release time */
  gst_harness_push (h, packet_new (0, 10, 50 * MS, 50 * MS));
  check_stats (h, "packets-sent=(guint64)6, timed=(guint64)5, "
      "untimed=(guint64)1, txtime-late=(guint64)1, "
      "last-lead=(gint64)-189000000, max-lead=(gint64)61000000, "
      "txtime-active=(boolean)true");
  gst_harness_teardown (h);
  close (fd);
}

GST_START_TEST (test_lead_exact_monotonic)
{
  check_lead_exact (NULL);
}

GST_END_TEST;

GST_START_TEST (test_lead_exact_tai)
{
  check_lead_exact ("tai");
}

GST_END_TEST;

/* With the system clock, the release time is moved to the kernel's clock:
 * a packet due 10 s after the base time, sent right after, leads by a
 * little under 10 s, whatever the pipeline clock's type and the kernel's
 * (unconverted, the lead would be off by the 37 s between TAI and UTC or
 * by decades). */
static void
check_system_clock (GstClockType type, const gchar * kernel_clock)
{
  gint port, fd = receiver_new (&port);
  GstHarness *h = sink_new (port, kernel_clock);
  GstClock *clock = g_object_new (GST_TYPE_SYSTEM_CLOCK, "clock-type", type,
      NULL);
  gboolean active = FALSE;
  gint64 lead;

  gst_object_ref_sink (clock);
  gst_element_set_clock (h->element, clock);
  g_object_get (h->element, "txtime-active", &active, NULL);
  if (!active) {
    fail_unless_equals_string (kernel_clock, "tai");
    g_print ("check_system_clock: CLOCK_TAI not permitted, not checked\n");
  } else {
    gst_element_set_base_time (h->element, gst_clock_get_time (clock));
    gst_harness_push (h, packet_new (0, 10, 10 * SECOND, 10 * SECOND));
    lead = stat_int64 (h, "last-lead");
    fail_unless (lead > (gint64) (5 * SECOND) && lead <= (gint64) (10 *
            SECOND), "clock type %d, kernel %s: lead %" G_GINT64_FORMAT,
        type, kernel_clock ? kernel_clock : "monotonic", lead);
  }
  gst_harness_teardown (h);
  gst_object_unref (clock);
  close (fd);
}

GST_START_TEST (test_system_clock)
{
  check_system_clock (GST_CLOCK_TYPE_MONOTONIC, NULL);
  check_system_clock (GST_CLOCK_TYPE_REALTIME, NULL);
  check_system_clock (GST_CLOCK_TYPE_TAI, NULL);
  check_system_clock (GST_CLOCK_TYPE_MONOTONIC, "tai");
  check_system_clock (GST_CLOCK_TYPE_REALTIME, "tai");
  check_system_clock (GST_CLOCK_TYPE_TAI, "tai");
}

GST_END_TEST;

/* --- without release times: the sink waits on the clock ----------------- */

typedef struct
{
  GstHarness *h;
  GstBuffer *buf;
  GstFlowReturn ret;
} Push;

static gpointer
push_thread (gpointer data)
{
  Push *p = data;

  p->ret = gst_harness_push (p->h, p->buf);
  return NULL;
}

/* Drops CAP_NET_ADMIN from the calling thread only (the raw system call;
 * glibc would change every thread): SO_TXTIME on CLOCK_TAI is refused
 * then. */
static void
drop_net_admin (void)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];

  fail_unless (syscall (SYS_capget, &hdr, data) == 0);
  data[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
  fail_unless (syscall (SYS_capset, &hdr, data) == 0, "capset: %s",
      g_strerror (errno));
}

typedef struct
{
  GstElement *element;
  gboolean drop;
  GstHarness *h;
} Start;

static gpointer
start_thread (gpointer data)
{
  Start *s = data;

  if (s->drop)
    drop_net_admin ();
  s->h = harness_new (s->element);
  return NULL;
}

/* Where SO_TXTIME is not in force the sink turns sync on while it runs:
 * each packet waits for its time on the clock, then leaves.  @refused:
 * asked for CLOCK_TAI without CAP_NET_ADMIN (a warning); else txtime=false
 * (no warning). */
static void
check_clock_wait (gboolean refused)
{
  gint port, fd = receiver_new (&port);
  GstElement *sink = element_new (port, refused ? "tai" : NULL);
  GstBus *bus = gst_bus_new ();
  Start start = { sink, refused, NULL };
  GstHarness *h;
  Push push;
  GstTestClock *testclock;
  GThread *thread;
  GstMessage *msg;
  gboolean active = TRUE, sync = FALSE;
  guint8 expect[40];

  if (!refused)
    g_object_set (sink, "txtime", FALSE, NULL);
  gst_element_set_bus (sink, bus);
  /* READY to PLAYING (the socket) in a thread without CAP_NET_ADMIN */
  g_thread_join (g_thread_new ("start", start_thread, &start));
  h = start.h;

  g_object_get (h->element, "txtime-active", &active, "sync", &sync, NULL);
  fail_if (active);
  fail_unless (sync);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  if (refused) {
    GError *err = NULL;

    fail_unless (msg != NULL);
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_SETTINGS));
    fail_unless (strstr (err->message, "CAP_NET_ADMIN") != NULL, "%s",
        err->message);
    g_error_free (err);
    gst_message_unref (msg);
  } else {
    fail_unless (msg == NULL);
  }

  /* a packet due at 5 ms waits for it */
  gst_element_set_base_time (h->element, 0);
  push.h = h;
  push.buf = packet_new (9, 40, 5 * MS, 5 * MS);
  thread = g_thread_new ("push", push_thread, &push);
  fail_unless (gst_harness_wait_for_clock_id_waits (h, 1, 60));
  testclock = gst_harness_get_testclock (h);
  fail_unless_equals_uint64 (gst_test_clock_get_next_entry_time (testclock),
      5 * MS);
  gst_object_unref (testclock);
  fail_unless (nothing_received (fd));
  fail_unless (gst_harness_crank_single_clock_wait (h));
  g_thread_join (thread);
  fail_unless_equals_int (push.ret, GST_FLOW_OK);
  memset (expect, 9, sizeof (expect));
  receive_expect (fd, expect, sizeof (expect));
  check_stats (h, "packets-sent=(guint64)1, timed=(guint64)0, "
      "untimed=(guint64)1, txtime-active=(boolean)false");

  /* sync is the user's again */
  gst_element_set_state (h->element, GST_STATE_NULL);
  g_object_get (h->element, "sync", &sync, NULL);
  fail_if (sync);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  close (fd);
}

GST_START_TEST (test_txtime_refused)
{
  check_clock_wait (TRUE);
}

GST_END_TEST;

GST_START_TEST (test_txtime_off)
{
  check_clock_wait (FALSE);
}

GST_END_TEST;

/* --- loopback's qdisc: noqueue ignores release times --------------------- */

typedef struct
{
  GstHarness *h;
  guint first, n;
} PushMany;

/* Pushes packets first .. first + n - 1: packet i has DTS i ms and i as
 * its bytes. */
static gpointer
push_many_thread (gpointer data)
{
  PushMany *p = data;
  guint i;

  for (i = p->first; i < p->first + p->n; i++)
    fail_unless_equals_int (gst_harness_push (p->h, packet_new (i, 20 + i,
                i * MS, i * MS)), GST_FLOW_OK);
  return NULL;
}

/* With txtime-check=auto the sink asks the kernel for the egress qdisc of
 * 127.0.0.1: lo's noqueue.  It warns once, naming the device, the qdisc
 * and the fix, says so in its stats, turns sync on and waits on the clock
 * for each packet (1 ms apart); every packet arrives, once. */
GST_START_TEST (test_fallback_noqueue)
{
  gint port, fd = receiver_new (&port);
  GstElement *sink = element_new (port, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstTestClock *testclock;
  GThread *thread;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  PushMany push;
  gboolean active = TRUE, sync = FALSE;
  guint8 expect[64];
  guint i;

  gst_util_set_object_arg (G_OBJECT (sink), "txtime-check", "auto");
  gst_element_set_bus (sink, bus);
  h = harness_new (sink);
  g_object_get (h->element, "txtime-active", &active, "sync", &sync, NULL);
  fail_if (active);
  fail_unless (sync);
  check_stats (h, "txtime-active=(boolean)false, qdisc=(string)noqueue, "
      "egress=(string)lo");

  /* one warning */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_parse_warning (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS));
  fail_unless (strstr (err->message, "lo (noqueue)") != NULL, "%s",
      err->message);
  fail_unless (strstr (debug, "tc qdisc replace dev lo root fq") != NULL,
      "%s", debug);
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);

  /* each waits for its time on the clock */
  gst_element_set_base_time (h->element, 0);
  testclock = gst_harness_get_testclock (h);
  push.h = h;
  push.first = 1;
  push.n = 43;
  thread = g_thread_new ("push", push_many_thread, &push);
  for (i = 1; i < 44; i++) {
    fail_unless (gst_harness_wait_for_clock_id_waits (h, 1, 60));
    fail_unless_equals_uint64 (gst_test_clock_get_next_entry_time
        (testclock), i * MS);
    fail_unless (gst_harness_crank_single_clock_wait (h));
  }
  g_thread_join (thread);

  for (i = 1; i < 44; i++) {
    memset (expect, i, 20 + i);
    receive_expect (fd, expect, 20 + i);
  }
  fail_unless (nothing_received (fd));
  check_stats (h, "packets-sent=(guint64)43, send-errors=(guint64)0, "
      "timed=(guint64)0, untimed=(guint64)43, txtime-active=(boolean)false");
  /* still the one warning */
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);

  gst_object_unref (testclock);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  close (fd);
}

GST_END_TEST;

/* --- EOS: after the last release time ------------------------------------- */

typedef struct
{
  GstHarness *h;
  gboolean ret;
} PushEos;

static gpointer
push_eos_thread (gpointer data)
{
  PushEos *p = data;

  p->ret = gst_harness_push_event (p->h, gst_event_new_eos ());
  return NULL;
}

/* The sink posts EOS once the clock reached the latest release time it
 * handed to the kernel (not the last packet's: 50 ms after 80 ms), as a
 * synchronising sink posts it after rendering its last buffer; a flush
 * ends the wait without EOS. */
static void
check_eos_wait (gboolean flush)
{
  gint port, fd = receiver_new (&port);
  GstElement *sink = element_new (port, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstTestClock *testclock;
  GThread *thread;
  GstMessage *msg;
  PushEos push;

  gst_element_set_bus (sink, bus);
  h = harness_new (sink);
  gst_element_set_base_time (h->element, 0);
  gst_harness_set_time (h, 10 * MS);
  gst_harness_push (h, packet_new (1, 10, 80 * MS, 80 * MS));
  gst_harness_push (h, packet_new (2, 10, 50 * MS, 50 * MS));
  check_stats (h, "timed=(guint64)2, txtime-active=(boolean)true");

  push.h = h;
  thread = g_thread_new ("eos", push_eos_thread, &push);
  fail_unless (gst_harness_wait_for_clock_id_waits (h, 1, 60));
  testclock = gst_harness_get_testclock (h);
  fail_unless_equals_uint64 (gst_test_clock_get_next_entry_time (testclock),
      80 * MS);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_EOS) == NULL);
  if (flush) {
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    g_thread_join (thread);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_EOS) == NULL);
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  } else {
    fail_unless (gst_harness_crank_single_clock_wait (h));
    g_thread_join (thread);
    fail_unless (push.ret);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_EOS);
    fail_unless (msg != NULL);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (gst_test_clock_peek_id_count (testclock), 0);

  gst_object_unref (testclock);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  close (fd);
}

GST_START_TEST (test_eos_waits)
{
  check_eos_wait (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_eos_flush)
{
  check_eos_wait (TRUE);
}

GST_END_TEST;

/* Without a packet handed over with a release time, EOS at once. */
GST_START_TEST (test_eos_untimed)
{
  gint port, fd = receiver_new (&port);
  GstElement *sink = element_new (port, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstMessage *msg;

  gst_element_set_bus (sink, bus);
  h = harness_new (sink);
  gst_harness_push (h, packet_new (1, 10, GST_CLOCK_TIME_NONE,
          GST_CLOCK_TIME_NONE));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_EOS);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  close (fd);
}

GST_END_TEST;

static Suite *
rtpbursttxsink_suite (void)
{
  Suite *s = suite_create ("rtpbursttxsink");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_loopback);
  tcase_add_test (tc, test_many_blocks);
  tcase_add_test (tc, test_lead_exact_monotonic);
  tcase_add_test (tc, test_lead_exact_tai);
  tcase_add_test (tc, test_system_clock);
  tcase_add_test (tc, test_txtime_refused);
  tcase_add_test (tc, test_txtime_off);
  tcase_add_test (tc, test_fallback_noqueue);
  tcase_add_test (tc, test_eos_waits);
  tcase_add_test (tc, test_eos_flush);
  tcase_add_test (tc, test_eos_untimed);
  return s;
}

GST_CHECK_MAIN (rtpbursttxsink);
