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

/* Unit tests of rtpburstqdisc.c: the rtnetlink replies, built by hand
 * (struct nlmsghdr, rtmsg, tcmsg and their attributes), and the decision
 * whether the egress qdisc paces; malformed replies are errors.  One test
 * asks this machine's kernel about loopback. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_sched.h>

#include <gst/check/gstcheck.h>

#include "rtpburstqdisc.h"

/* --- building replies ----------------------------------------------------- */

#define ROOT TC_H_ROOT
#define H(maj, min) TC_H_MAKE ((guint32) (maj) << 16, (min))

/* Starts a message of @type, @seq; its length is set by msg_end (). */
static guint
msg_begin (GByteArray * b, guint16 type, guint32 seq)
{
  struct nlmsghdr hdr;
  guint start = b->len;

  memset (&hdr, 0, sizeof (hdr));
  hdr.nlmsg_type = type;
  hdr.nlmsg_seq = seq;
  hdr.nlmsg_flags = NLM_F_MULTI;
  g_byte_array_append (b, (const guint8 *) &hdr, sizeof (hdr));
  return start;
}

static void
pad4 (GByteArray * b)
{
  static const guint8 zero[4] = { 0 };

  g_byte_array_append (b, zero, NLMSG_ALIGN (b->len) - b->len);
}

static void
msg_end (GByteArray * b, guint start)
{
  guint32 len = b->len - start;

  memcpy (b->data + start, &len, sizeof (len));
  pad4 (b);
}

static void
put_attr (GByteArray * b, guint16 type, gconstpointer data, gsize len)
{
  struct rtattr rta;

  rta.rta_len = RTA_LENGTH (len);
  rta.rta_type = type;
  g_byte_array_append (b, (const guint8 *) &rta, sizeof (rta));
  g_byte_array_append (b, data, len);
  pad4 (b);
}

static void
put_u32 (GByteArray * b, guint16 type, guint32 v)
{
  put_attr (b, type, &v, sizeof (v));
}

/* A route reply: RTM_NEWROUTE with RTA_DST, RTA_TABLE and, unless < 0,
 * RTA_OIF. */
static void
add_route (GByteArray * b, guint32 seq, gint oif)
{
  struct rtmsg rtm;
  guint start = msg_begin (b, RTM_NEWROUTE, seq);
  guint32 dst = htonl (0xc0000201);

  memset (&rtm, 0, sizeof (rtm));
  rtm.rtm_family = AF_INET;
  rtm.rtm_dst_len = 32;
  g_byte_array_append (b, (const guint8 *) &rtm, sizeof (rtm));
  put_attr (b, RTA_DST, &dst, sizeof (dst));
  put_u32 (b, RTA_TABLE, RT_TABLE_MAIN);
  if (oif >= 0)
    put_u32 (b, RTA_OIF, oif);
  msg_end (b, start);
}

/* One qdisc of a dump: RTM_NEWQDISC with TCA_KIND (unless NULL) and
 * TCA_OPTIONS (@options, else 12 zero bytes), as the kernel sends it. */
static void
add_qdisc_options (GByteArray * b, guint32 seq, gint ifindex,
    guint32 handle, guint32 parent, const gchar * kind,
    gconstpointer options, gsize len)
{
  struct tcmsg tcm;
  guint start = msg_begin (b, RTM_NEWQDISC, seq);
  static const guint8 zero[12] = { 0 };

  memset (&tcm, 0, sizeof (tcm));
  tcm.tcm_family = AF_UNSPEC;
  tcm.tcm_ifindex = ifindex;
  tcm.tcm_handle = handle;
  tcm.tcm_parent = parent;
  g_byte_array_append (b, (const guint8 *) &tcm, sizeof (tcm));
  if (kind)
    put_attr (b, TCA_KIND, kind, strlen (kind) + 1);
  if (options)
    put_attr (b, TCA_OPTIONS, options, len);
  else
    put_attr (b, TCA_OPTIONS, zero, sizeof (zero));
  msg_end (b, start);
}

static void
add_qdisc (GByteArray * b, guint32 seq, gint ifindex, guint32 handle,
    guint32 parent, const gchar * kind)
{
  add_qdisc_options (b, seq, ifindex, handle, parent, kind, NULL, 0);
}

/* etf's options: TCA_ETF_PARMS with @clockid */
static void
add_etf (GByteArray * b, guint32 seq, gint ifindex, guint32 handle,
    guint32 parent, gint clockid)
{
  GByteArray *opt = g_byte_array_new ();
  struct tc_etf_qopt etf = { 2000000, clockid, 0 };

  put_attr (opt, TCA_ETF_PARMS, &etf, sizeof (etf));
  add_qdisc_options (b, seq, ifindex, handle, parent, "etf", opt->data,
      opt->len);
  g_byte_array_free (opt, TRUE);
}

/* mqprio's (@nested FALSE) or taprio's (TRUE) map: two traffic classes,
 * priority 0 in @tc; class 0 on queue 0, class 1 on queues 1 and 2 */
static void
add_mqprio (GByteArray * b, guint32 seq, gint ifindex, guint32 handle,
    const gchar * kind, guint tc, gboolean nested)
{
  GByteArray *opt = g_byte_array_new ();
  struct tc_mqprio_qopt map;
  guint32 clockid = 11;

  memset (&map, 0, sizeof (map));
  map.num_tc = 2;
  map.prio_tc_map[0] = tc;
  map.count[0] = 1;
  map.offset[0] = 0;
  map.count[1] = 2;
  map.offset[1] = 1;
  if (nested) {
    put_attr (opt, TCA_TAPRIO_ATTR_SCHED_CLOCKID, &clockid, 4);
    put_attr (opt, TCA_TAPRIO_ATTR_PRIOMAP, &map, sizeof (map));
  } else {
    g_byte_array_append (opt, (const guint8 *) &map, sizeof (map));
    pad4 (opt);
  }
  add_qdisc_options (b, seq, ifindex, handle, ROOT, kind, opt->data, opt->len);
  g_byte_array_free (opt, TRUE);
}

static void
add_done (GByteArray * b, guint32 seq, gint32 code)
{
  guint start = msg_begin (b, NLMSG_DONE, seq);

  g_byte_array_append (b, (const guint8 *) &code, sizeof (code));
  msg_end (b, start);
}

static void
add_error (GByteArray * b, guint32 seq, gint32 code)
{
  struct nlmsgerr err;
  guint start = msg_begin (b, NLMSG_ERROR, seq);

  memset (&err, 0, sizeof (err));
  err.error = code;
  g_byte_array_append (b, (const guint8 *) &err, sizeof (err));
  msg_end (b, start);
}

/* Parses the dump @b (complete) for @ifindex: the verdict in @e, which
 * must say @what. */
static void
dump_judge (GByteArray * b, gint ifindex, const gchar * what,
    RtpBurstQdiscEgress * e)
{
  GArray *q = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  GError *error = NULL;

  fail_unless_equals_int (rtp_burst_qdisc_parse_dump (b->data, b->len, 7,
          ifindex, q, &error), 1);
  fail_unless (error == NULL);
  memset (e, 0, sizeof (*e));
  rtp_burst_qdisc_judge ((RtpBurstQdisc *) q->data, q->len, ifindex, e);
  fail_unless_equals_string (e->qdisc, what);
  g_array_free (q, TRUE);
  g_byte_array_free (b, TRUE);
}

/* Whether the dump @b says the qdiscs of @ifindex pace; they must be
 * @what. */
static gboolean
dump_paces (GByteArray * b, gint ifindex, const gchar * what)
{
  RtpBurstQdiscEgress e;

  dump_judge (b, ifindex, what, &e);
  rtp_burst_qdisc_egress_clear (&e);
  return e.paces;
}

/* --- tests --------------------------------------------------------------- */

GST_START_TEST (test_route_request)
{
  guint8 req[RTP_BURST_QDISC_REQUEST_SIZE];
  struct sockaddr_in in4;
  struct sockaddr_in6 in6;
  struct nlmsghdr hdr;
  struct rtmsg rtm;
  struct rtattr rta;
  gsize len;

  memset (&in4, 0, sizeof (in4));
  in4.sin_family = AF_INET;
  in4.sin_addr.s_addr = htonl (0x7f000001);
  len = rtp_burst_qdisc_route_request (req, 5, (struct sockaddr *) &in4);
  fail_unless_equals_int (len, NLMSG_HDRLEN + sizeof (rtm) + RTA_LENGTH (4));
  memcpy (&hdr, req, sizeof (hdr));
  fail_unless_equals_int (hdr.nlmsg_len, len);
  fail_unless_equals_int (hdr.nlmsg_type, RTM_GETROUTE);
  fail_unless_equals_int (hdr.nlmsg_flags, NLM_F_REQUEST);
  fail_unless_equals_int (hdr.nlmsg_seq, 5);
  memcpy (&rtm, req + NLMSG_HDRLEN, sizeof (rtm));
  fail_unless_equals_int (rtm.rtm_family, AF_INET);
  fail_unless_equals_int (rtm.rtm_dst_len, 32);
  memcpy (&rta, req + NLMSG_HDRLEN + sizeof (rtm), sizeof (rta));
  fail_unless_equals_int (rta.rta_type, RTA_DST);
  fail_unless_equals_int (rta.rta_len, RTA_LENGTH (4));
  fail_unless (memcmp (req + len - 4, &in4.sin_addr, 4) == 0);

  memset (&in6, 0, sizeof (in6));
  in6.sin6_family = AF_INET6;
  in6.sin6_addr = in6addr_loopback;
  len = rtp_burst_qdisc_route_request (req, 6, (struct sockaddr *) &in6);
  fail_unless_equals_int (len, NLMSG_HDRLEN + sizeof (rtm) + RTA_LENGTH (16));
  memcpy (&rtm, req + NLMSG_HDRLEN, sizeof (rtm));
  fail_unless_equals_int (rtm.rtm_family, AF_INET6);
  fail_unless_equals_int (rtm.rtm_dst_len, 128);
  fail_unless (memcmp (req + len - 16, &in6addr_loopback, 16) == 0);

  /* neither */
  in4.sin_family = AF_UNIX;
  fail_unless_equals_int (rtp_burst_qdisc_route_request (req, 7,
          (struct sockaddr *) &in4), 0);
}

GST_END_TEST;

GST_START_TEST (test_dump_request)
{
  guint8 req[RTP_BURST_QDISC_REQUEST_SIZE];
  struct nlmsghdr hdr;
  struct tcmsg tcm;
  struct rtattr rta;
  gsize len = rtp_burst_qdisc_dump_request (req, 9, 4);

  fail_unless_equals_int (len, NLMSG_HDRLEN + sizeof (tcm) + RTA_LENGTH (0));
  memcpy (&hdr, req, sizeof (hdr));
  fail_unless_equals_int (hdr.nlmsg_len, len);
  fail_unless_equals_int (hdr.nlmsg_type, RTM_GETQDISC);
  fail_unless_equals_int (hdr.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
  fail_unless_equals_int (hdr.nlmsg_seq, 9);
  memcpy (&tcm, req + NLMSG_HDRLEN, sizeof (tcm));
  fail_unless_equals_int (tcm.tcm_ifindex, 4);
  memcpy (&rta, req + NLMSG_HDRLEN + sizeof (tcm), sizeof (rta));
  fail_unless_equals_int (rta.rta_type, TCA_DUMP_INVISIBLE);
}

GST_END_TEST;

GST_START_TEST (test_route)
{
  GByteArray *b = g_byte_array_new ();
  GError *error = NULL;
  gint ifindex = -1;

  /* a stale reply of another request first, then an acknowledgement */
  add_route (b, 3, 9);
  add_error (b, 4, 0);
  add_route (b, 4, 2);
  fail_unless_equals_int (rtp_burst_qdisc_parse_route (b->data, b->len, 4,
          &ifindex, &error), 1);
  fail_unless (error == NULL);
  fail_unless_equals_int (ifindex, 2);
  /* nothing of this request yet */
  ifindex = -1;
  fail_unless_equals_int (rtp_burst_qdisc_parse_route (b->data, b->len, 5,
          &ifindex, &error), 0);
  fail_unless_equals_int (ifindex, -1);
  g_byte_array_set_size (b, 0);

  /* the kernel's error: no route */
  add_error (b, 4, -ENETUNREACH);
  fail_unless_equals_int (rtp_burst_qdisc_parse_route (b->data, b->len, 4,
          &ifindex, &error), -1);
  fail_unless (g_error_matches (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_KERNEL));
  fail_unless (strstr (error->message, g_strerror (ENETUNREACH)) != NULL,
      "%s", error->message);
  g_clear_error (&error);
  g_byte_array_set_size (b, 0);

  /* an error code that is no errno (G_MININT32: no negation) */
  add_error (b, 4, G_MININT32);
  fail_unless_equals_int (rtp_burst_qdisc_parse_route (b->data, b->len, 4,
          &ifindex, &error), -1);
  fail_unless (g_error_matches (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_KERNEL));
  fail_unless (strstr (error->message, "-2147483648") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  g_byte_array_set_size (b, 0);

  /* a route without an output device */
  add_route (b, 4, -1);
  fail_unless_equals_int (rtp_burst_qdisc_parse_route (b->data, b->len, 4,
          &ifindex, &error), -1);
  fail_unless (g_error_matches (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_NO_ROUTE));
  g_clear_error (&error);
  g_byte_array_free (b, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_fq_root)
{
  GByteArray *b = g_byte_array_new ();

  /* lo's noqueue, then fq on device 2, an ingress qdisc beside it */
  add_qdisc (b, 7, 1, 0, ROOT, "noqueue");
  add_qdisc (b, 7, 2, H (0x8001, 0), ROOT, "fq");
  add_qdisc (b, 7, 2, H (0xffff, 0), TC_H_INGRESS, "ingress");
  add_done (b, 7, 0);
  fail_unless (dump_paces (b, 2, "fq"));

  b = g_byte_array_new ();
  add_etf (b, 7, 3, H (0x100, 0), ROOT, CLOCK_TAI);
  add_done (b, 7, 0);
  fail_unless (dump_paces (b, 3, "etf"));
}

GST_END_TEST;

GST_START_TEST (test_other_roots)
{
  const gchar *kinds[] = { "pfifo_fast", "noqueue", "fq_codel", "htb",
    "netem", "cake", "fq_pie"
  };
  GByteArray *b;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (kinds); i++) {
    b = g_byte_array_new ();
    add_qdisc (b, 7, 2, 0, ROOT, kinds[i]);
    /* an fq elsewhere does not count */
    add_qdisc (b, 7, 3, 0, ROOT, "fq");
    add_done (b, 7, 0);
    fail_if (dump_paces (b, 2, kinds[i]), "%s", kinds[i]);
  }
  /* no qdisc at all on the device */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 3, 0, ROOT, "fq");
  add_done (b, 7, 0);
  fail_if (dump_paces (b, 2, "none"));
}

GST_END_TEST;

GST_START_TEST (test_mq_fq)
{
  GByteArray *b = g_byte_array_new ();
  guint i;

  /* mq's own queues, handle 0, parents :1 to :4, as `tc qdisc show` lists
   * them where net.core.default_qdisc=fq */
  add_qdisc (b, 7, 2, 0, ROOT, "mq");
  for (i = 1; i <= 4; i++)
    add_qdisc (b, 7, 2, 0, H (0, i), "fq");
  add_qdisc (b, 7, 2, H (0xffff, 0), TC_H_INGRESS, "ingress");
  add_done (b, 7, 0);
  fail_unless (dump_paces (b, 2, "mq: fq"));

  /* mqprio 100: with etf 8001: on the queue of priority 0 */
  b = g_byte_array_new ();
  add_mqprio (b, 7, 2, H (0x100, 0), "mqprio", 0, FALSE);
  add_etf (b, 7, 2, H (0x8001, 0), H (0x100, 1), CLOCK_TAI);
  add_done (b, 7, 0);
  fail_unless (dump_paces (b, 2, "mqprio: etf"));

  /* taprio with etf and fq on priority 0's two queues */
  b = g_byte_array_new ();
  add_mqprio (b, 7, 2, H (0x100, 0), "taprio", 1, TRUE);
  add_etf (b, 7, 2, H (0x8001, 0), H (0x100, 2), CLOCK_TAI);
  add_qdisc (b, 7, 2, H (0x8002, 0), H (0x100, 3), "fq");
  add_done (b, 7, 0);
  fail_unless (dump_paces (b, 2, "taprio: etf,fq"));
}

GST_END_TEST;

GST_START_TEST (test_mq_not_all)
{
  GByteArray *b = g_byte_array_new ();
  guint i;

  /* one queue of four with pfifo_fast: its packets leave as they come */
  add_qdisc (b, 7, 2, 0, ROOT, "mq");
  for (i = 1; i <= 4; i++)
    add_qdisc (b, 7, 2, 0, H (0, i), i == 3 ? "pfifo_fast" : "fq");
  add_done (b, 7, 0);
  fail_if (dump_paces (b, 2, "mq: fq,pfifo_fast"));

  /* no queue listed: cannot tell */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, H (0x100, 0), ROOT, "mqprio");
  add_done (b, 7, 0);
  fail_if (dump_paces (b, 2, "mqprio: no queues"));

  /* a classful queue (htb 1:, fq below it) is not a leaf */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "mq");
  add_qdisc (b, 7, 2, H (1, 0), H (0, 1), "fq");
  add_qdisc (b, 7, 2, H (2, 0), H (0, 2), "htb");
  add_qdisc (b, 7, 2, H (0x8001, 0), H (2, 1), "fq");
  add_done (b, 7, 0);
  fail_if (dump_paces (b, 2, "mq: fq,htb"));
}

GST_END_TEST;

/* mqprio and taprio: only the queues of priority 0's traffic class count
 * (class 0: queue 0, parent :1; class 1: queues 1 and 2). */
GST_START_TEST (test_mqprio_queues)
{
  const gchar *kinds[] = { "mqprio", "taprio" };
  RtpBurstQdiscEgress e;
  GByteArray *b;
  guint k;

  for (k = 0; k < 2; k++) {
    gchar *what;

    /* priority 0 in class 0: etf on its queue, the others unused */
    b = g_byte_array_new ();
    add_mqprio (b, 7, 2, H (0x100, 0), kinds[k], 0, k == 1);
    add_etf (b, 7, 2, H (0x8001, 0), H (0x100, 1), 11);
    add_qdisc (b, 7, 2, 0, H (0x100, 2), "pfifo_fast");
    add_qdisc (b, 7, 2, 0, H (0x100, 3), "pfifo_fast");
    add_done (b, 7, 0);
    what = g_strdup_printf ("%s: etf", kinds[k]);
    dump_judge (b, 2, what, &e);
    fail_unless (e.paces, "%s", kinds[k]);
    fail_if (e.fq);
    fail_unless_equals_int (e.etf_clockid, 11);
    rtp_burst_qdisc_egress_clear (&e);
    g_free (what);

    /* priority 0 in class 1: queues 1 and 2, one of them pfifo_fast */
    b = g_byte_array_new ();
    add_mqprio (b, 7, 2, H (0x100, 0), kinds[k], 1, k == 1);
    add_etf (b, 7, 2, H (0x8001, 0), H (0x100, 1), 11);
    add_qdisc (b, 7, 2, H (0x8002, 0), H (0x100, 2), "fq");
    add_qdisc (b, 7, 2, 0, H (0x100, 3), "pfifo_fast");
    add_done (b, 7, 0);
    what = g_strdup_printf ("%s: fq,pfifo_fast", kinds[k]);
    dump_judge (b, 2, what, &e);
    fail_if (e.paces, "%s", kinds[k]);
    fail_unless (e.fq);
    fail_unless_equals_int (e.etf_clockid, -1);
    rtp_burst_qdisc_egress_clear (&e);
    g_free (what);
  }

  /* a root etf's clock; fq's */
  b = g_byte_array_new ();
  add_etf (b, 7, 2, H (0x100, 0), ROOT, 11);
  add_done (b, 7, 0);
  dump_judge (b, 2, "etf", &e);
  fail_unless (e.paces);
  fail_unless_equals_int (e.etf_clockid, 11);
  rtp_burst_qdisc_egress_clear (&e);
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, H (0x100, 0), ROOT, "fq");
  add_done (b, 7, 0);
  dump_judge (b, 2, "fq", &e);
  fail_unless (e.fq);
  fail_unless_equals_int (e.etf_clockid, -1);
  rtp_burst_qdisc_egress_clear (&e);
}

GST_END_TEST;

/* A dump read in two parts: 0 (more to read) after the first. */
GST_START_TEST (test_dump_parts)
{
  GByteArray *b = g_byte_array_new ();
  GArray *q = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  GError *error = NULL;
  RtpBurstQdisc *e;

  add_qdisc (b, 7, 2, 0, ROOT, "mq");
  add_qdisc (b, 7, 2, 0, H (0, 1), "fq");
  fail_unless_equals_int (rtp_burst_qdisc_parse_dump (b->data, b->len, 7, 2,
          q, &error), 0);
  fail_unless_equals_int (q->len, 2);
  g_byte_array_set_size (b, 0);
  add_qdisc (b, 7, 2, 0, H (0, 2), "fq");
  add_done (b, 7, 0);
  fail_unless_equals_int (rtp_burst_qdisc_parse_dump (b->data, b->len, 7, 2,
          q, &error), 1);
  fail_unless (error == NULL);
  fail_unless_equals_int (q->len, 3);
  e = &g_array_index (q, RtpBurstQdisc, 2);
  fail_unless_equals_int (e->ifindex, 2);
  fail_unless_equals_int (e->handle, 0);
  fail_unless_equals_int (e->parent, H (0, 2));
  fail_unless_equals_string (e->kind, "fq");

  /* the dump's end with an error */
  g_byte_array_set_size (b, 0);
  add_done (b, 7, -EINVAL);
  fail_unless_equals_int (rtp_burst_qdisc_parse_dump (b->data, b->len, 7, 2,
          q, &error), -1);
  fail_unless (g_error_matches (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_KERNEL));
  g_clear_error (&error);
  g_array_free (q, TRUE);
  g_byte_array_free (b, TRUE);
}

GST_END_TEST;

static void
expect_malformed (GByteArray * b, const gchar * what)
{
  GArray *q = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  GError *error = NULL;
  gint ifindex = -1;

  fail_unless_equals_int (rtp_burst_qdisc_parse_dump (b->data, b->len, 7, 2,
          q, &error), -1);
  fail_unless (g_error_matches (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_MALFORMED), "%s", what);
  g_clear_error (&error);
  /* the same bytes as a route reply of that sequence number */
  fail_unless (rtp_burst_qdisc_parse_route (b->data, b->len, 7, &ifindex,
          &error) <= 0, "%s", what);
  g_clear_error (&error);
  g_array_free (q, TRUE);
  g_byte_array_free (b, TRUE);
}

GST_START_TEST (test_malformed)
{
  GByteArray *b;
  guint32 v;

  /* less than a header */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "fq");
  g_byte_array_set_size (b, 10);
  expect_malformed (b, "short header");

  /* a length beyond the buffer, and one under a header */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "fq");
  v = b->len + 4;
  memcpy (b->data, &v, 4);
  expect_malformed (b, "long message");
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "fq");
  v = 8;
  memcpy (b->data, &v, 4);
  expect_malformed (b, "short message");

  /* a qdisc message shorter than struct tcmsg */
  b = g_byte_array_new ();
  v = msg_begin (b, RTM_NEWQDISC, 7);
  g_byte_array_append (b, (const guint8 *) "abcdefgh", 8);
  msg_end (b, v);
  expect_malformed (b, "short tcmsg");

  /* no kind; a kind that is not NUL-terminated or is too long */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, NULL);
  expect_malformed (b, "no kind");
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "a_name_longer_than_sixteen");
  expect_malformed (b, "long kind");
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "");
  expect_malformed (b, "empty kind");

  /* an attribute under its header's size, and one past the message */
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "fq");
  v = 2;
  memcpy (b->data + NLMSG_HDRLEN + sizeof (struct tcmsg), &v, 2);
  expect_malformed (b, "short attribute");
  b = g_byte_array_new ();
  add_qdisc (b, 7, 2, 0, ROOT, "fq");
  v = 200;
  memcpy (b->data + NLMSG_HDRLEN + sizeof (struct tcmsg), &v, 2);
  expect_malformed (b, "long attribute");

  /* options whose attributes do not fit */
  b = g_byte_array_new ();
  {
    guint8 bad[8] = { 200, 0, 1, 0, 0, 0, 0, 0 };

    add_qdisc_options (b, 7, 2, 0, ROOT, "etf", bad, sizeof (bad));
  }
  expect_malformed (b, "bad options");

  /* an error message without its code */
  b = g_byte_array_new ();
  v = msg_begin (b, NLMSG_ERROR, 7);
  msg_end (b, v);
  expect_malformed (b, "short error");
}

GST_END_TEST;

/* Every prefix of a valid dump and random bytes: an answer, never a read
 * out of the buffer (run under valgrind or a sanitizer to see one). */
GST_START_TEST (test_garbage)
{
  GByteArray *b = g_byte_array_new ();
  GArray *q = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  GRand *rand = g_rand_new_with_seed (37);
  GError *error = NULL;
  guint len, i, j;
  gint r, ifindex;

  add_qdisc (b, 7, 2, 0, ROOT, "mq");
  add_qdisc (b, 7, 2, 0, H (0, 1), "fq");
  add_route (b, 7, 2);
  add_done (b, 7, 0);
  for (len = 0; len < b->len; len++) {
    /* copied, so that a read past @len is one past the allocation */
    guint8 *copy = g_memdup2 (b->data, len);

    r = rtp_burst_qdisc_parse_dump (copy, len, 7, 2, q, &error);
    fail_unless (r == 0 || r == -1, "%u: %d", len, r);
    fail_unless ((r == -1) == (error != NULL));
    g_clear_error (&error);
    r = rtp_burst_qdisc_parse_route (copy, len, 7, &ifindex, &error);
    fail_unless ((r == -1) == (error != NULL));
    g_clear_error (&error);
    g_free (copy);
  }
  for (i = 0; i < 2000; i++) {
    guint8 *junk;

    len = g_rand_int_range (rand, 0, 200);
    junk = g_malloc (len + 1);
    for (j = 0; j < len; j++)
      junk[j] = g_rand_int (rand);
    /* now and then a plausible header */
    if (len >= 16 && (i & 1)) {
      guint32 mlen = g_rand_int_range (rand, 0, len + 8);
      guint16 type = (i & 2) ? RTM_NEWQDISC : RTM_NEWROUTE;
      guint32 seq = 7;

      memcpy (junk, &mlen, 4);
      memcpy (junk + 4, &type, 2);
      memcpy (junk + 8, &seq, 4);
    }
    r = rtp_burst_qdisc_parse_dump (junk, len, 7, 2, q, &error);
    fail_unless ((r == -1) == (error != NULL));
    g_clear_error (&error);
    r = rtp_burst_qdisc_parse_route (junk, len, 7, &ifindex, &error);
    fail_unless ((r == -1) == (error != NULL));
    g_clear_error (&error);
    g_free (junk);
  }
  g_rand_free (rand);
  g_array_free (q, TRUE);
  g_byte_array_free (b, TRUE);
}

GST_END_TEST;

/* This machine's kernel: 127.0.0.1 leaves through lo, whose qdisc is
 * noqueue (lo has IFF_NO_QUEUE): no pacing. */
GST_START_TEST (test_loopback)
{
  struct sockaddr_in in4;
  RtpBurstQdiscEgress egress;
  GError *error = NULL;

  memset (&in4, 0, sizeof (in4));
  in4.sin_family = AF_INET;
  in4.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fail_unless (rtp_burst_qdisc_egress ((struct sockaddr *) &in4, &egress,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_int (egress.ifindex, 1);
  fail_unless_equals_string (egress.device, "lo");
  fail_unless_equals_string (egress.qdisc, "noqueue");
  fail_if (egress.paces);
  rtp_burst_qdisc_egress_clear (&egress);
  fail_unless (egress.qdisc == NULL);
}

GST_END_TEST;

static Suite *
rtpburstqdisc_suite (void)
{
  Suite *s = suite_create ("rtpburstqdisc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_route_request);
  tcase_add_test (tc, test_dump_request);
  tcase_add_test (tc, test_route);
  tcase_add_test (tc, test_fq_root);
  tcase_add_test (tc, test_other_roots);
  tcase_add_test (tc, test_mq_fq);
  tcase_add_test (tc, test_mq_not_all);
  tcase_add_test (tc, test_mqprio_queues);
  tcase_add_test (tc, test_dump_parts);
  tcase_add_test (tc, test_malformed);
  tcase_add_test (tc, test_garbage);
  tcase_add_test (tc, test_loopback);
  return s;
}

GST_CHECK_MAIN (rtpburstqdisc);
