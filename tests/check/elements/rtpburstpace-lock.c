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

/* The element's lock is taken by its pacing thread at every decision (at
 * real-time priority, maybe): no other thread may hold it while it waits
 * for something else.  Here another member of the element's group holds
 * the group's lock, as it does while it places a frame, while a property
 * that concerns the group is set: the element's lock must stay free, so
 * that packets are still queued and the stats still read.
 *
 * The bounded waits below are not timing: they only make a regression
 * fail instead of hanging; on a correct element nothing waits for them. */

#include <gmodule.h>

#include "rtpburstpace-fixture.h"

#define GROUP "rtpburstpace-lock-test"
/* how long a regression may hang before the test fails, µs */
#define DEADLINE (20 * G_TIME_SPAN_SECOND)

/* The group API of the plugin's own copy of the schedule unit
 * (gst/rtpburstgroup.h): linking the unit into the test would give the test
 * a registry of groups of its own, apart from the element's. */
typedef struct _RtpBurstGroup RtpBurstGroup;

typedef struct
{
  GModule *module;
  RtpBurstGroup *(*join) (const gchar * name, guint * member);
  void (*leave) (RtpBurstGroup * group, guint member);
  void (*hold) (RtpBurstGroup * group);
  void (*release) (RtpBurstGroup * group);
} GroupApi;

static void
group_api_init (GroupApi * api, GstElement * element)
{
  GstPlugin *plugin = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE
      (gst_element_get_factory (element)));

  fail_unless (plugin != NULL);
  api->module = g_module_open (gst_plugin_get_filename (plugin),
      G_MODULE_BIND_LOCAL);
  fail_unless (api->module != NULL, "%s", g_module_error ());
  fail_unless (g_module_symbol (api->module, "rtp_burst_group_join",
          (gpointer *) & api->join));
  fail_unless (g_module_symbol (api->module, "rtp_burst_group_leave",
          (gpointer *) & api->leave));
  fail_unless (g_module_symbol (api->module, "rtp_burst_group_hold",
          (gpointer *) & api->hold));
  fail_unless (g_module_symbol (api->module, "rtp_burst_group_release",
          (gpointer *) & api->release));
  gst_object_unref (plugin);
}

static void
group_api_clear (GroupApi * api)
{
  g_module_close (api->module);
}

/* A property set in one thread while another probes the element.  Shared
 * fields are read and written atomically (the GMutex is a futex that
 * ThreadSanitizer cannot see: it only serves to wait). */
typedef struct
{
  GstHarness *h;
  const gchar *prop;
  guint64 value;

  gint setter_done;
  gint probe_done;
  /* the probe's findings, set before probe_done */
  gint push_ret;
  gint queued_packets;

  GMutex lock;
  GCond cond;
} LockProbe;

static void
signal_done (LockProbe * p, gint * done)
{
  g_mutex_lock (&p->lock);
  g_atomic_int_set (done, 1);
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
}

/* TRUE once *done is set; FALSE if DEADLINE passed first. */
static gboolean
wait_done (LockProbe * p, gint * done)
{
  gint64 end = g_get_monotonic_time () + DEADLINE;
  gboolean ok = TRUE;

  g_mutex_lock (&p->lock);
  while (ok && !g_atomic_int_get (done))
    ok = g_cond_wait_until (&p->cond, &p->lock, end);
  g_mutex_unlock (&p->lock);
  return g_atomic_int_get (done);
}

static gpointer
setter_thread (gpointer data)
{
  LockProbe *p = data;

  g_object_set (p->h->element, p->prop, p->value, NULL);
  signal_done (p, &p->setter_done);
  return NULL;
}

/* Waits (polling the property, which takes the element's lock) until the
 * setter has stored the new value; then queues a packet and reads the
 * stats.  No check here (not the test's thread): the findings are kept. */
static gpointer
probe_thread (gpointer data)
{
  LockProbe *p = data;
  GstStructure *s;
  guint64 v = 0;
  guint queued = 0;

  for (;;) {
    g_object_get (p->h->element, p->prop, &v, NULL);
    if (v == p->value)
      break;
    g_thread_yield ();
  }
  /* an open frame: it waits for its timeout on the test clock */
  g_atomic_int_set (&p->push_ret, gst_pad_push (p->h->srcpad,
          test_rtp_packet (1, 1000, FALSE, 100, 0)));
  g_object_get (p->h->element, "stats", &s, NULL);
  if (s != NULL && gst_structure_get_uint (s, "queued-packets", &queued))
    g_atomic_int_set (&p->queued_packets, queued);
  if (s != NULL)
    gst_structure_free (s);
  signal_done (p, &p->probe_done);
  return NULL;
}

/* Sets @prop to @value while the group is held; the element's lock stays
 * free meanwhile.  @blocks: whether the set itself waits for the group. */
static void
check_set_while_group_held (const gchar * prop, guint64 value, gboolean blocks)
{
  GstElement *e = gst_element_factory_make ("rtpburstpace", NULL);
  LockProbe p = { NULL, };
  GThread *setter, *probe;
  RtpBurstGroup *group;
  gboolean probed, set;
  GroupApi api;
  guint member;

  /* the group is taken from READY to PAUSED: set it first */
  g_object_set (e, "slot-jitter", 0.0, "group", GROUP, NULL);
  p.h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (p.h, CAPS_25);
  p.prop = prop;
  p.value = value;
  g_mutex_init (&p.lock);
  g_cond_init (&p.cond);

  /* another member, placing a frame */
  group_api_init (&api, p.h->element);
  group = api.join (GROUP, &member);
  api.hold (group);

  setter = g_thread_new ("setter", setter_thread, &p);
  probe = g_thread_new ("probe", probe_thread, &p);
  probed = wait_done (&p, &p.probe_done);
  /* the group is still held: a set that goes to the group still waits */
  set = g_atomic_int_get (&p.setter_done);
  if (!blocks && probed)
    set = wait_done (&p, &p.setter_done);

  /* let everything finish before any check fails */
  api.release (group);
  g_thread_join (setter);
  g_thread_join (probe);

  fail_unless (probed, "the element's lock was held while %s waited for "
      "the group", prop);
  if (blocks)
    fail_if (set, "setting %s did not wait for the group: the test does "
        "not test", prop);
  else
    fail_unless (set, "setting %s waited for the group", prop);
  fail_unless_equals_int (g_atomic_int_get (&p.push_ret), GST_FLOW_OK);
  fail_unless_equals_int (g_atomic_int_get (&p.queued_packets), 1);
  /* what was set while the group was held is in force now */
  if (blocks)
    fail_unless_equals_uint64 (test_stat (p.h->element, "group-max-rate"),
        value);

  api.leave (group, member);
  group_api_clear (&api);
  g_mutex_clear (&p.lock);
  g_cond_clear (&p.cond);
  gst_harness_teardown (p.h);
}

/* group-max-rate is set in the group, under the group's lock: not with the
 * element's lock held.  It is in force once the group is free. */
GST_START_TEST (test_group_max_rate_leaves_element_lock_free)
{
  check_set_while_group_held ("group-max-rate", 5000000, TRUE);
}

GST_END_TEST;

/* frame-period concerns the element only: it does not wait for the
 * group. */
GST_START_TEST (test_frame_period_does_not_wait_for_group)
{
  check_set_while_group_held ("frame-period", 20 * MS, FALSE);
}

GST_END_TEST;

/* --- the chain: packets parsed before the lock, accounting unchanged ----- */

static GstPadProbeReturn
refuse_downstream (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GST_PAD_PROBE_INFO_FLOW_RETURN (info) = GST_FLOW_FLUSHING;
  gst_mini_object_unref (GST_PAD_PROBE_INFO_DATA (info));
  return GST_PAD_PROBE_HANDLED;
}

/* Waits until the element's task has paused itself: GstTask holds the
 * source pad's stream lock for as long as it runs. */
static void
wait_task_paused (Fixture * f)
{
  GstPad *pad = gst_element_get_static_pad (f->h->element, "src");

  GST_PAD_STREAM_LOCK (pad);
  GST_PAD_STREAM_UNLOCK (pad);
  gst_object_unref (pad);
}

static GstBuffer *
invalid_packet (void)
{
  static const guint8 garbage[] = { 0x00, 0x01, 0x02 };

  return gst_buffer_new_memdup (garbage, sizeof (garbage));
}

/* In a buffer list, an invalid packet is counted and dropped, the others
 * queued; once the flow is FLUSHING the list is refused from its first
 * packet on, the whole list counted as flushed, nothing as invalid. */
GST_START_TEST (test_buffer_list_accounting)
{
  GstBufferList *list;
  Fixture f;
  guint i;

  fixture_init (&f, CAPS_25, NULL);
  list = gst_buffer_list_new ();
  gst_buffer_list_add (list, test_rtp_packet (f.seq_in++, 1000, FALSE, 1000,
          0));
  gst_buffer_list_add (list, invalid_packet ());
  gst_buffer_list_add (list, test_rtp_packet (f.seq_in++, 1000, TRUE, 1000, 0));
  fail_unless_equals_int (gst_pad_push_list (f.h->srcpad, list), GST_FLOW_OK);
  fail_unless_equals_uint64 (stat (&f, "invalid-packets"), 1);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 2);
  crank_frame (&f, 0, 18 * MS, 2, 1);

  /* downstream flushes: the next push is refused and the task pauses */
  gst_pad_add_probe (f.h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      refuse_downstream, NULL, NULL);
  push_frame (&f, 1, 1, 1000);
  fail_unless (gst_harness_crank_single_clock_wait (f.h));
  wait_task_paused (&f);
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 1);

  list = gst_buffer_list_new ();
  gst_buffer_list_add (list, invalid_packet ());
  for (i = 0; i < 3; i++)
    gst_buffer_list_add (list, test_rtp_packet (f.seq_in++, 8200, i == 2,
            1000, 2 * PERIOD));
  fail_unless_equals_int (gst_pad_push_list (f.h->srcpad, list),
      GST_FLOW_FLUSHING);
  fail_unless_equals_uint64 (stat (&f, "flushed-packets"), 1 + 4);
  fail_unless_equals_uint64 (stat (&f, "invalid-packets"), 1);
  fail_unless_equals_uint64 (stat (&f, "queued-packets"), 0);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
rtpburstpace_lock_suite (void)
{
  Suite *s = suite_create ("rtpburstpace-lock");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_group_max_rate_leaves_element_lock_free);
  tcase_add_test (tc, test_frame_period_does_not_wait_for_group);
  tcase_add_test (tc, test_buffer_list_accounting);
  return s;
}

GST_CHECK_MAIN (rtpburstpace_lock);
