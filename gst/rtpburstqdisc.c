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

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_sched.h>

#include "rtpburstqdisc.h"

/* a reply of more is refused as truncated */
#define RECV_SIZE 32768

GQuark
rtp_burst_qdisc_error_quark (void)
{
  return g_quark_from_static_string ("rtp-burst-qdisc-error-quark");
}

#define MALFORMED(error, ...) \
  g_set_error (error, RTP_BURST_QDISC_ERROR, \
      RTP_BURST_QDISC_ERROR_MALFORMED, __VA_ARGS__)

/* The next message of @buf at *@off: 1 and its header and payload, 0 at
 * the end, -1 if it does not fit. */
static gint
next_message (const guint8 * buf, gsize len, gsize * off,
    struct nlmsghdr *hdr, const guint8 ** payload, gsize * plen,
    GError ** error)
{
  gsize left = len - *off;

  if (left == 0)
    return 0;
  if (left < sizeof (*hdr)) {
    MALFORMED (error, "netlink: %" G_GSIZE_FORMAT " bytes left, less than "
        "a message header", left);
    return -1;
  }
  memcpy (hdr, buf + *off, sizeof (*hdr));
  if (hdr->nlmsg_len < sizeof (*hdr) || hdr->nlmsg_len > left) {
    MALFORMED (error, "netlink: a message of %u bytes where %" G_GSIZE_FORMAT
        " are left", hdr->nlmsg_len, left);
    return -1;
  }
  *payload = buf + *off + NLMSG_HDRLEN;
  *plen = hdr->nlmsg_len - NLMSG_HDRLEN;
  *off += MIN ((gsize) NLMSG_ALIGN (hdr->nlmsg_len), left);
  return 1;
}

/* The attribute @type among @attrs: TRUE and its payload; FALSE if
 * absent; FALSE and @error if the attributes do not fit. */
static gboolean
find_attr (const guint8 * attrs, gsize len, guint16 type,
    const guint8 ** data, gsize * dlen, GError ** error)
{
  struct rtattr rta;

  while (len >= sizeof (rta)) {
    memcpy (&rta, attrs, sizeof (rta));
    if (rta.rta_len < sizeof (rta) || rta.rta_len > len) {
      MALFORMED (error, "netlink: an attribute of %u bytes where %"
          G_GSIZE_FORMAT " are left", rta.rta_len, len);
      return FALSE;
    }
    if ((rta.rta_type & NLA_TYPE_MASK) == type) {
      *data = attrs + RTA_LENGTH (0);
      *dlen = rta.rta_len - RTA_LENGTH (0);
      return TRUE;
    }
    attrs += MIN ((gsize) RTA_ALIGN (rta.rta_len), len);
    len -= MIN ((gsize) RTA_ALIGN (rta.rta_len), len);
  }
  return FALSE;
}

/* NLMSG_ERROR: -1 and @error for an error, 0 for an acknowledgement. */
static gint
parse_error (const guint8 * payload, gsize plen, GError ** error)
{
  gint32 code;

  if (plen < sizeof (code)) {
    MALFORMED (error, "netlink: an error message of %" G_GSIZE_FORMAT
        " bytes", plen);
    return -1;
  }
  memcpy (&code, payload, sizeof (code));
  if (code == 0)
    return 0;
  /* a negative errno; anything else (G_MININT32 has no negation) as is */
  if (code < 0 && code > -4096)
    g_set_error (error, RTP_BURST_QDISC_ERROR, RTP_BURST_QDISC_ERROR_KERNEL,
        "netlink: the kernel answered: %s", g_strerror (-code));
  else
    g_set_error (error, RTP_BURST_QDISC_ERROR, RTP_BURST_QDISC_ERROR_KERNEL,
        "netlink: the kernel answered error %d", code);
  return -1;
}

gint
rtp_burst_qdisc_parse_route (const guint8 * buf, gsize len, guint32 seq,
    gint * ifindex, GError ** error)
{
  struct nlmsghdr hdr;
  const guint8 *payload, *data;
  gsize plen, dlen, off = 0;
  gint r;

  for (;;) {
    gint32 oif;
    GError *err = NULL;

    r = next_message (buf, len, &off, &hdr, &payload, &plen, error);
    if (r <= 0)
      return r;
    if (hdr.nlmsg_seq != seq)
      continue;
    if (hdr.nlmsg_type == NLMSG_ERROR) {
      if (parse_error (payload, plen, error) < 0)
        return -1;
      continue;
    }
    if (hdr.nlmsg_type != RTM_NEWROUTE)
      continue;
    if (plen < NLMSG_ALIGN (sizeof (struct rtmsg))) {
      MALFORMED (error, "netlink: a route message of %" G_GSIZE_FORMAT
          " bytes", plen);
      return -1;
    }
    if (!find_attr (payload + NLMSG_ALIGN (sizeof (struct rtmsg)),
            plen - NLMSG_ALIGN (sizeof (struct rtmsg)), RTA_OIF, &data,
            &dlen, &err)) {
      if (err) {
        g_propagate_error (error, err);
        return -1;
      }
      g_set_error (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_NO_ROUTE, "the route has no output device");
      return -1;
    }
    if (dlen != sizeof (oif)) {
      MALFORMED (error, "netlink: an output device of %" G_GSIZE_FORMAT
          " bytes", dlen);
      return -1;
    }
    memcpy (&oif, data, sizeof (oif));
    *ifindex = oif;
    return 1;
  }
}

/* The queues of priority 0's traffic class, from mqprio's map. */
static void
take_map (RtpBurstQdisc * q, const guint8 * data, gsize len)
{
  struct tc_mqprio_qopt map;
  guint tc;

  if (len < sizeof (map))
    return;
  memcpy (&map, data, sizeof (map));
  tc = map.prio_tc_map[0];
  if (tc >= map.num_tc || tc >= TC_QOPT_MAX_QUEUE)
    return;
  q->has_queues = TRUE;
  q->first_queue = map.offset[tc];
  q->n_queues = map.count[tc];
}

/* What the decision needs of a qdisc's TCA_OPTIONS: etf's clock, the
 * queues mqprio and taprio give priority 0.  Options too short for their
 * structure are ignored (the kernel's own are never). */
static gboolean
parse_options (RtpBurstQdisc * q, const guint8 * attrs, gsize len,
    GError ** error)
{
  const guint8 *data, *inner;
  gsize dlen, ilen;
  GError *err = NULL;

  q->clockid = -1;
  if (!find_attr (attrs, len, TCA_OPTIONS, &data, &dlen, &err)) {
    /* none (noqueue) */
    if (err == NULL)
      return TRUE;
    g_propagate_error (error, err);
    return FALSE;
  }
  if (strcmp (q->kind, "etf") == 0) {
    struct tc_etf_qopt etf;

    if (find_attr (data, dlen, TCA_ETF_PARMS, &inner, &ilen, &err) &&
        ilen >= sizeof (etf)) {
      memcpy (&etf, inner, sizeof (etf));
      q->clockid = etf.clockid;
    }
  } else if (strcmp (q->kind, "mqprio") == 0) {
    /* the structure first, attributes after it */
    take_map (q, data, dlen);
  } else if (strcmp (q->kind, "taprio") == 0) {
    if (find_attr (data, dlen, TCA_TAPRIO_ATTR_PRIOMAP, &inner, &ilen, &err))
      take_map (q, inner, ilen);
  }
  if (err) {
    g_propagate_error (error, err);
    return FALSE;
  }
  return TRUE;
}

gint
rtp_burst_qdisc_parse_dump (const guint8 * buf, gsize len, guint32 seq,
    gint ifindex, GArray * qdiscs, GError ** error)
{
  struct nlmsghdr hdr;
  const guint8 *payload, *data;
  gsize plen, dlen, off = 0;
  gint r;

  for (;;) {
    struct tcmsg tcm;
    RtpBurstQdisc q;
    GError *err = NULL;

    r = next_message (buf, len, &off, &hdr, &payload, &plen, error);
    if (r <= 0)
      return r;
    if (hdr.nlmsg_seq != seq)
      continue;
    if (hdr.nlmsg_type == NLMSG_DONE) {
      gint32 code = 0;

      if (plen >= sizeof (code))
        memcpy (&code, payload, sizeof (code));
      if (code < 0)
        return parse_error (payload, plen, error);
      return 1;
    }
    if (hdr.nlmsg_type == NLMSG_ERROR) {
      if (parse_error (payload, plen, error) < 0)
        return -1;
      continue;
    }
    if (hdr.nlmsg_type != RTM_NEWQDISC)
      continue;
    if (plen < NLMSG_ALIGN (sizeof (tcm))) {
      MALFORMED (error, "netlink: a qdisc message of %" G_GSIZE_FORMAT
          " bytes", plen);
      return -1;
    }
    memcpy (&tcm, payload, sizeof (tcm));
    if (!find_attr (payload + NLMSG_ALIGN (sizeof (tcm)),
            plen - NLMSG_ALIGN (sizeof (tcm)), TCA_KIND, &data, &dlen, &err)) {
      if (err)
        g_propagate_error (error, err);
      else
        MALFORMED (error, "netlink: a qdisc without a kind");
      return -1;
    }
    memset (&q, 0, sizeof (q));
    /* a NUL-terminated name that fits */
    dlen = strnlen ((const gchar *) data, dlen);
    if (dlen == 0 || dlen >= sizeof (q.kind)) {
      MALFORMED (error, "netlink: a qdisc kind of %" G_GSIZE_FORMAT " bytes",
          dlen);
      return -1;
    }
    if (tcm.tcm_ifindex != ifindex)
      continue;
    memcpy (q.kind, data, dlen);
    if (!parse_options (&q, payload + NLMSG_ALIGN (sizeof (tcm)),
            plen - NLMSG_ALIGN (sizeof (tcm)), error))
      return -1;
    q.ifindex = tcm.tcm_ifindex;
    q.handle = tcm.tcm_handle;
    q.parent = tcm.tcm_parent;
    g_array_append_val (qdiscs, q);
  }
}

static gboolean
kind_paces (const gchar * kind)
{
  return strcmp (kind, "fq") == 0 || strcmp (kind, "etf") == 0;
}

static gboolean
kind_multiqueue (const gchar * kind)
{
  return strcmp (kind, "mq") == 0 || strcmp (kind, "mqprio") == 0 ||
      strcmp (kind, "taprio") == 0;
}

/* Whether the qdiscs of @ifindex pace: a root fq or etf, or a multiqueue
 * root with an fq or etf leaf on every queue the packets can take.
 * @egress's qdisc: the root's kind, and for a multiqueue root the kinds of
 * those queues' qdiscs. */
void
rtp_burst_qdisc_judge (const RtpBurstQdisc * qdiscs, guint n, gint ifindex,
    RtpBurstQdiscEgress * egress)
{
  const RtpBurstQdisc *root = NULL;
  GPtrArray *kinds;
  gchar *list;
  guint i, j;

  egress->paces = egress->fq = FALSE;
  egress->etf_clockid = -1;
  g_free (egress->qdisc);
  for (i = 0; i < n && root == NULL; i++)
    if (qdiscs[i].ifindex == ifindex && qdiscs[i].parent == TC_H_ROOT)
      root = &qdiscs[i];
  if (root == NULL) {
    egress->qdisc = g_strdup ("none");
    return;
  }
  if (!kind_multiqueue (root->kind)) {
    egress->qdisc = g_strdup (root->kind);
    egress->paces = kind_paces (root->kind);
    egress->fq = strcmp (root->kind, "fq") == 0;
    egress->etf_clockid = root->clockid;
    return;
  }

  /* the queues: the root's children, their kinds once each */
  kinds = g_ptr_array_new ();
  egress->paces = TRUE;
  for (i = 0; i < n; i++) {
    const RtpBurstQdisc *q = &qdiscs[i];
    gboolean leaf = TRUE, seen = FALSE;
    guint queue = TC_H_MIN (q->parent) - 1;

    if (q == root || q->ifindex != ifindex || q->parent == TC_H_ROOT ||
        q->parent == TC_H_INGRESS ||
        TC_H_MAJ (q->parent) != TC_H_MAJ (root->handle))
      continue;
    /* a queue the packets do not take */
    if (root->has_queues && (queue < root->first_queue ||
            queue >= (guint) root->first_queue + root->n_queues))
      continue;
    /* a classful child (a handle of its own with children) is no leaf */
    for (j = 0; j < n && TC_H_MAJ (q->handle) != 0 &&
        TC_H_MAJ (q->handle) != TC_H_MAJ (root->handle); j++)
      if (qdiscs[j].ifindex == ifindex && qdiscs[j].parent != TC_H_ROOT &&
          TC_H_MAJ (qdiscs[j].parent) == TC_H_MAJ (q->handle))
        leaf = FALSE;
    egress->paces = egress->paces && leaf && kind_paces (q->kind);
    if (leaf && strcmp (q->kind, "fq") == 0)
      egress->fq = TRUE;
    if (leaf && q->clockid >= 0 && egress->etf_clockid < 0)
      egress->etf_clockid = q->clockid;
    for (j = 0; j < kinds->len && !seen; j++)
      seen = strcmp (g_ptr_array_index (kinds, j), q->kind) == 0;
    if (!seen)
      g_ptr_array_add (kinds, (gpointer) q->kind);
  }
  if (kinds->len == 0) {
    egress->qdisc = g_strdup_printf ("%s: no queues", root->kind);
    egress->paces = FALSE;
  } else {
    g_ptr_array_add (kinds, NULL);
    list = g_strjoinv (",", (gchar **) kinds->pdata);
    egress->qdisc = g_strdup_printf ("%s: %s", root->kind, list);
    g_free (list);
  }
  g_ptr_array_free (kinds, TRUE);
}

static void
put_header (guint8 * buf, gsize len, guint16 type, guint16 flags, guint32 seq)
{
  struct nlmsghdr hdr;

  memset (&hdr, 0, sizeof (hdr));
  hdr.nlmsg_len = len;
  hdr.nlmsg_type = type;
  hdr.nlmsg_flags = flags;
  hdr.nlmsg_seq = seq;
  memcpy (buf, &hdr, sizeof (hdr));
}

static gsize
put_attr (guint8 * buf, guint16 type, gconstpointer data, gsize len)
{
  struct rtattr rta;

  rta.rta_len = RTA_LENGTH (len);
  rta.rta_type = type;
  memcpy (buf, &rta, sizeof (rta));
  if (len > 0)
    memcpy (buf + RTA_LENGTH (0), data, len);
  return RTA_ALIGN (rta.rta_len);
}

gsize
rtp_burst_qdisc_route_request (guint8 * buf, guint32 seq,
    const struct sockaddr *dst)
{
  struct rtmsg rtm;
  gconstpointer addr;
  gsize alen, len = NLMSG_HDRLEN + NLMSG_ALIGN (sizeof (rtm));

  memset (buf, 0, RTP_BURST_QDISC_REQUEST_SIZE);
  memset (&rtm, 0, sizeof (rtm));
  rtm.rtm_family = dst->sa_family;
  if (dst->sa_family == AF_INET) {
    addr = &((const struct sockaddr_in *) dst)->sin_addr;
    alen = sizeof (struct in_addr);
  } else if (dst->sa_family == AF_INET6) {
    addr = &((const struct sockaddr_in6 *) dst)->sin6_addr;
    alen = sizeof (struct in6_addr);
  } else {
    return 0;
  }
  rtm.rtm_dst_len = alen * 8;
  memcpy (buf + NLMSG_HDRLEN, &rtm, sizeof (rtm));
  len += put_attr (buf + len, RTA_DST, addr, alen);
  put_header (buf, len, RTM_GETROUTE, NLM_F_REQUEST, seq);
  return len;
}

gsize
rtp_burst_qdisc_dump_request (guint8 * buf, guint32 seq, gint ifindex)
{
  struct tcmsg tcm;
  gsize len = NLMSG_HDRLEN + NLMSG_ALIGN (sizeof (tcm));

  memset (buf, 0, RTP_BURST_QDISC_REQUEST_SIZE);
  memset (&tcm, 0, sizeof (tcm));
  tcm.tcm_family = AF_UNSPEC;
  tcm.tcm_ifindex = ifindex;
  memcpy (buf + NLMSG_HDRLEN, &tcm, sizeof (tcm));
  /* also the default qdiscs of a multiqueue root's queues */
  len += put_attr (buf + len, TCA_DUMP_INVISIBLE, NULL, 0);
  put_header (buf, len, RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP, seq);
  return len;
}

/* Sends @req and reads the replies into @buf until they are complete: the
 * route's output device into @oif, or the qdiscs of @ifindex into @qdiscs
 * (a dump). */
static gboolean
transact (gint fd, const guint8 * req, gsize req_len, guint8 * buf,
    guint32 seq, gint ifindex, gint * oif, GArray * qdiscs, GError ** error)
{
  struct sockaddr_nl kernel;
  gint r;

  memset (&kernel, 0, sizeof (kernel));
  kernel.nl_family = AF_NETLINK;
  if (sendto (fd, req, req_len, 0, (struct sockaddr *) &kernel,
          sizeof (kernel)) < 0) {
    g_set_error (error, RTP_BURST_QDISC_ERROR, RTP_BURST_QDISC_ERROR_SYSTEM,
        "netlink: sendto: %s", g_strerror (errno));
    return FALSE;
  }
  do {
    struct iovec iov = { buf, RECV_SIZE };
    struct msghdr msg;
    gssize n;

    memset (&msg, 0, sizeof (msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    n = recvmsg (fd, &msg, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      g_set_error (error, RTP_BURST_QDISC_ERROR,
          RTP_BURST_QDISC_ERROR_SYSTEM, "netlink: recvmsg: %s",
          g_strerror (errno));
      return FALSE;
    }
    if (msg.msg_flags & MSG_TRUNC) {
      MALFORMED (error, "netlink: a reply over %d bytes", RECV_SIZE);
      return FALSE;
    }
    if (qdiscs)
      r = rtp_burst_qdisc_parse_dump (buf, n, seq, ifindex, qdiscs, error);
    else
      r = rtp_burst_qdisc_parse_route (buf, n, seq, oif, error);
    if (r == 0 && n == 0) {
      MALFORMED (error, "netlink: the reply ended early");
      return FALSE;
    }
  } while (r == 0);
  return r > 0;
}

gboolean
rtp_burst_qdisc_egress (const struct sockaddr *dst,
    RtpBurstQdiscEgress * egress, GError ** error)
{
  guint8 req[RTP_BURST_QDISC_REQUEST_SIZE];
  struct timeval timeout = { 1, 0 };
  GArray *qdiscs = NULL;
  guint8 *buf = NULL;
  gsize len;
  gint fd;
  gboolean ok = FALSE;

  memset (egress, 0, sizeof (*egress));
  egress->etf_clockid = -1;
  len = rtp_burst_qdisc_route_request (req, 1, dst);
  if (len == 0) {
    g_set_error (error, RTP_BURST_QDISC_ERROR,
        RTP_BURST_QDISC_ERROR_NO_ROUTE, "not an IPv4 or IPv6 address");
    return FALSE;
  }
  fd = socket (AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) {
    g_set_error (error, RTP_BURST_QDISC_ERROR, RTP_BURST_QDISC_ERROR_SYSTEM,
        "netlink: socket: %s", g_strerror (errno));
    return FALSE;
  }
  /* never wait long for the kernel */
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof (timeout));
  buf = g_malloc (RECV_SIZE);
  if (!transact (fd, req, len, buf, 1, 0, &egress->ifindex, NULL, error))
    goto out;
  if (if_indextoname (egress->ifindex, egress->device) == NULL)
    g_snprintf (egress->device, sizeof (egress->device), "if%d",
        egress->ifindex);

  qdiscs = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  len = rtp_burst_qdisc_dump_request (req, 2, egress->ifindex);
  if (!transact (fd, req, len, buf, 2, egress->ifindex, NULL, qdiscs, error))
    goto out;
  rtp_burst_qdisc_judge ((const RtpBurstQdisc *) qdiscs->data, qdiscs->len,
      egress->ifindex, egress);
  ok = TRUE;

out:
  if (qdiscs)
    g_array_free (qdiscs, TRUE);
  g_free (buf);
  close (fd);
  return ok;
}

void
rtp_burst_qdisc_egress_clear (RtpBurstQdiscEgress * egress)
{
  g_clear_pointer (&egress->qdisc, g_free);
}
