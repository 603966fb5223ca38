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
 * Whether the kernel will pace a socket's release times (SO_TXTIME): the
 * qdisc of the device a destination is routed through, asked of the
 * kernel over rtnetlink.  RTM_GETROUTE for the destination gives the
 * output device (RTA_OIF); an RTM_GETQDISC dump gives that device's
 * qdiscs.  The release times are in force where the root qdisc is fq or
 * etf, or a multiqueue root (mq, mqprio, taprio) whose every queue the
 * packets can take has fq or etf: under mq any queue, under mqprio and
 * taprio those of the traffic class of priority 0 (the sink's packets
 * have no other).  pfifo_fast, noqueue, fq_codel and the rest send a
 * packet as it comes; etf drops one without a release time.
 *
 * The parsing of the kernel's replies is apart from the socket, as pure
 * functions over byte buffers, for unit tests and fuzzing: a malformed
 * or truncated message is an error, never a read out of its buffer.
 * GLib and the Linux headers only.
 */

#ifndef __RTP_BURST_QDISC_H__
#define __RTP_BURST_QDISC_H__

#include <glib.h>
#include <sys/socket.h>

G_BEGIN_DECLS

#define RTP_BURST_QDISC_ERROR (rtp_burst_qdisc_error_quark ())
GQuark rtp_burst_qdisc_error_quark (void);

typedef enum
{
  RTP_BURST_QDISC_ERROR_MALFORMED,      /* a reply is truncated or garbage */
  RTP_BURST_QDISC_ERROR_KERNEL,         /* the kernel answered an error */
  RTP_BURST_QDISC_ERROR_NO_ROUTE,       /* no output device for the address */
  RTP_BURST_QDISC_ERROR_SYSTEM,         /* the netlink socket failed */
} RtpBurstQdiscError;

/* One qdisc of a dump (struct tcmsg, TCA_KIND, some of TCA_OPTIONS). */
typedef struct
{
  gint ifindex;
  guint32 handle;
  guint32 parent;
  gchar kind[16];
  gint clockid;                 /* etf's clock; -1 for other kinds */
  gboolean has_queues;          /* mqprio, taprio: the queues below */
  guint16 first_queue;          /* of priority 0's traffic class */
  guint16 n_queues;
} RtpBurstQdisc;

/* What the kernel will do with the release times of packets to a
 * destination. */
typedef struct
{
  gint ifindex;                 /* the output device */
  gchar device[16];             /* its name (IF_NAMESIZE) */
  gchar *qdisc;                 /* "fq", "mq: fq,pfifo_fast", "noqueue" */
  gboolean paces;               /* TRUE: fq or etf on every queue */
  gboolean fq;                  /* fq on one of them */
  gint etf_clockid;             /* etf on one of them: its clock; or -1 */
} RtpBurstQdiscEgress;

/* the pure parsers: @buf holds what one recv () returned; they return 1
 * when the reply is complete, 0 when more is to be read, -1 and @error
 * for an error or a malformed message */
gint     rtp_burst_qdisc_parse_route (const guint8 * buf, gsize len,
                                      guint32 seq, gint * ifindex,
                                      GError ** error);
gint     rtp_burst_qdisc_parse_dump  (const guint8 * buf, gsize len,
                                      guint32 seq, gint ifindex,
                                      GArray * qdiscs, GError ** error);
void     rtp_burst_qdisc_judge       (const RtpBurstQdisc * qdiscs, guint n,
                                      gint ifindex,
                                      RtpBurstQdiscEgress * egress);

/* the requests, into @buf (at least RTP_BURST_QDISC_REQUEST_SIZE bytes);
 * return their length, 0 for an address family other than IPv4, IPv6 */
#define RTP_BURST_QDISC_REQUEST_SIZE 64
gsize    rtp_burst_qdisc_route_request (guint8 * buf, guint32 seq,
                                        const struct sockaddr * dst);
gsize    rtp_burst_qdisc_dump_request  (guint8 * buf, guint32 seq,
                                        gint ifindex);

/* asks the kernel (rtnetlink) */
gboolean rtp_burst_qdisc_egress       (const struct sockaddr * dst,
                                       RtpBurstQdiscEgress * egress,
                                       GError ** error);
void     rtp_burst_qdisc_egress_clear (RtpBurstQdiscEgress * egress);

G_END_DECLS

#endif /* __RTP_BURST_QDISC_H__ */
