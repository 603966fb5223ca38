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
#include <netdb.h>
#include <netinet/in.h>
#include <sys/types.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>

#include "gstrtpbursttxsocket.h"
#include "rtpbursttxtime.h"

#define GST_CAT_DEFAULT rtp_burst_tx_sink_debug

/* memory blocks of a buffer sent as they are; more are merged first */
#define MAX_IOV 16

/* A UDP socket for the first address @host resolves to; -1 and an error
 * posted if none. */
gint
gst_rtp_burst_tx_socket_open (GstElement * element, const gchar * host,
    gint port, struct sockaddr_storage *addr, socklen_t * addr_len)
{
  struct addrinfo hints, *res = NULL;
  gchar service[8];
  gint err, fd;

  memset (&hints, 0, sizeof (hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_NUMERICSERV;
  g_snprintf (service, sizeof (service), "%d", port);
  err = getaddrinfo (host, service, &hints, &res);
  if (err != 0 || res == NULL) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("Could not resolve host '%s'.", host),
        ("getaddrinfo: %s", gai_strerror (err)));
    return -1;
  }
  fd = socket (res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, OPEN_WRITE,
        ("Could not create a UDP socket."), ("socket: %s", g_strerror (errno)));
    freeaddrinfo (res);
    return -1;
  }
  memcpy (addr, res->ai_addr, res->ai_addrlen);
  *addr_len = res->ai_addrlen;
  freeaddrinfo (res);
  return fd;
}

/* SO_TXTIME with error reports on the socket; a warning if refused. */
gboolean
gst_rtp_burst_tx_socket_set_txtime (GstElement * element, gint fd,
    clockid_t clock)
{
  struct sock_txtime config;
  gint err;

  memset (&config, 0, sizeof (config));
  config.clockid = clock;
  config.flags = SOF_TXTIME_REPORT_ERRORS;
  if (setsockopt (fd, SOL_SOCKET, SO_TXTIME, &config, sizeof (config)) == 0)
    return TRUE;

  err = errno;
  if (err == EPERM && clock == CLOCK_TAI) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("Release times on CLOCK_TAI need the CAP_NET_ADMIN capability: "
            "the sink paces the packets itself."),
        ("setsockopt (SO_TXTIME, CLOCK_TAI): %s; sync is on while the sink "
            "runs", g_strerror (err)));
  } else {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("The kernel does not take release times for this socket: the sink "
            "paces the packets itself."),
        ("setsockopt (SO_TXTIME): %s (needs Linux 4.19 or later); sync is "
            "on while the sink runs", g_strerror (err)));
  }
  return FALSE;
}

/* One datagram of @iov, with the release time @txtime if @timed.  Returns
 * what sendmsg () returned, its errno in @err. */
static gssize
send_iov (gint fd, const struct sockaddr_storage *addr, socklen_t addr_len,
    struct iovec *iov, guint n_iov, gboolean timed, guint64 txtime, gint * err)
{
  union
  {
    gchar buf[CMSG_SPACE (sizeof (guint64))];
    struct cmsghdr align;
  } control;
  struct msghdr msg;
  gssize sent;

  memset (&msg, 0, sizeof (msg));
  msg.msg_name = (gpointer) addr;
  msg.msg_namelen = addr_len;
  msg.msg_iov = iov;
  msg.msg_iovlen = n_iov;
  if (timed) {
    struct cmsghdr *cm;

    memset (&control, 0, sizeof (control));
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof (control.buf);
    cm = CMSG_FIRSTHDR (&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_TXTIME;
    cm->cmsg_len = CMSG_LEN (sizeof (guint64));
    memcpy (CMSG_DATA (cm), &txtime, sizeof (guint64));
  }

  *err = 0;
  do {
    sent = sendmsg (fd, &msg, 0);
  } while (sent < 0 && errno == EINTR);
  if (sent < 0)
    *err = errno;
  return sent;
}

/* @buffer as one datagram (its @size bytes), with the release time
 * @txtime if @timed.  Returns what sendmsg () returned, its errno in @err. */
gssize
gst_rtp_burst_tx_socket_send (gint fd, const struct sockaddr_storage *addr,
    socklen_t addr_len, GstBuffer * buffer, gboolean timed, guint64 txtime,
    gsize * size, gint * err)
{
  GstMapInfo maps[MAX_IOV];
  struct iovec iov[MAX_IOV];
  guint n = gst_buffer_n_memory (buffer), i, mapped = 0;
  GstBuffer *merged = NULL;
  gssize sent;

  if (n > MAX_IOV) {
    /* one block */
    merged = gst_buffer_new ();
    gst_buffer_append_memory (merged, gst_buffer_get_all_memory (buffer));
    buffer = merged;
    n = 1;
  }
  *size = 0;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    if (!gst_memory_map (mem, &maps[mapped], GST_MAP_READ))
      break;
    iov[mapped].iov_base = maps[mapped].data;
    iov[mapped].iov_len = maps[mapped].size;
    *size += maps[mapped].size;
    mapped++;
  }

  if (mapped < n) {
    sent = -1;
    *err = EFAULT;
  } else {
    sent = send_iov (fd, addr, addr_len, iov, mapped, timed, txtime, err);
  }
  for (i = 0; i < mapped; i++)
    gst_memory_unmap (maps[i].memory, &maps[i]);
  if (merged)
    gst_buffer_unref (merged);
  return sent;
}

/* Reads the socket's error queue: the qdisc's reports of packets it
 * dropped for their release time. */
void
gst_rtp_burst_tx_socket_read_errors (GstElement * element, gint fd,
    GstRtpBurstTxErrors * errors)
{
  memset (errors, 0, sizeof (*errors));
  for (;;) {
    union
    {
      gchar buf[CMSG_SPACE (sizeof (struct sock_extended_err) +
              sizeof (struct sockaddr_in6))];
      struct cmsghdr align;
    } control;
    gchar data[64];
    struct iovec iov = { data, sizeof (data) };
    struct msghdr msg;
    struct cmsghdr *cm;

    memset (&msg, 0, sizeof (msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof (control.buf);
    if (recvmsg (fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
      if (errno == EINTR)
        continue;
      break;                    /* EAGAIN: empty */
    }
    for (cm = CMSG_FIRSTHDR (&msg); cm; cm = CMSG_NXTHDR (&msg, cm)) {
      struct sock_extended_err ee;

      if (!((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
              (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)))
        continue;
      memcpy (&ee, CMSG_DATA (cm), sizeof (ee));
      if (ee.ee_origin != SO_EE_ORIGIN_TXTIME)
        continue;
      errors->last = rtp_burst_txtime_from_error (ee.ee_data, ee.ee_info);
      if (ee.ee_code == SO_EE_CODE_TXTIME_MISSED)
        errors->missed++;
      else
        errors->invalid++;
      GST_LOG_OBJECT (element, "qdisc dropped the packet of release time %"
          G_GUINT64_FORMAT ": %s", errors->last, g_strerror (ee.ee_errno));
    }
  }
}
