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
 * libFuzzer target for the rtnetlink parsers (gst/rtpburstqdisc.c): the
 * kernel's replies to RTM_GETROUTE and to an RTM_GETQDISC dump as byte
 * buffers of any content, read in several parts as from several recv ()
 * calls, then the verdict on the qdiscs parsed.  The input: a byte that
 * picks the parser and the sequence number, a byte for the device, then
 * parts, each a 16-bit length and its bytes.
 *
 * Invariants, checked with abort ():
 *  - a parser answers -1, 0 or 1, an error exactly with -1;
 *  - the route parser sets the device only with 1;
 *  - the dump parser appends only qdiscs of the device asked for, with a
 *    kind that is a non-empty NUL-terminated name, and none after -1;
 *  - the verdict names a qdisc; it paces only with a root fq, etf or a
 *    multiqueue root; an etf clock only with etf in its description;
 * plus AddressSanitizer (every part is copied into an allocation of its
 * own size, so a read past it is caught) and UndefinedBehaviorSanitizer.
 */

#include <string.h>

#include "fuzz-input.h"
#include "rtpburstqdisc.h"

#define MAX_PARTS 64

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

static void
check_verdict (GArray * qdiscs, gint ifindex)
{
  RtpBurstQdiscEgress e;
  const gchar *what;

  memset (&e, 0, sizeof (e));
  rtp_burst_qdisc_judge ((const RtpBurstQdisc *) qdiscs->data, qdiscs->len,
      ifindex, &e);
  what = e.qdisc;
  FUZZ_CHECK (what != NULL && what[0] != '\0', "no description");
  if (e.paces)
    FUZZ_CHECK (g_str_has_prefix (what, "fq") || g_str_has_prefix (what,
            "etf") || g_str_has_prefix (what, "mq") ||
        g_str_has_prefix (what, "taprio"), "paces: %s", what);
  if (e.etf_clockid >= 0)
    FUZZ_CHECK (strstr (what, "etf") != NULL, "etf clock: %s", what);
  if (e.fq)
    FUZZ_CHECK (strstr (what, "fq") != NULL, "fq: %s", what);
  rtp_burst_qdisc_egress_clear (&e);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  guint8 mode = fuzz_u8 (&in);
  gint ifindex = fuzz_u8 (&in) % 4;
  guint32 seq = (mode >> 1) % 3;
  GArray *qdiscs = g_array_new (FALSE, FALSE, sizeof (RtpBurstQdisc));
  gint r = 0, oif = -1;
  guint parts = 0, before, i;

  while (r == 0 && fuzz_more (&in) && parts++ < MAX_PARTS) {
    gsize want = fuzz_u16 (&in), got;
    const guint8 *part = fuzz_bytes (&in, want, &got);
    guint8 *copy = g_memdup2 (part, got);
    GError *error = NULL;

    before = qdiscs->len;
    if (mode & 1) {
      r = rtp_burst_qdisc_parse_dump (copy, got, seq, ifindex, qdiscs,
          &error);
      for (i = before; i < qdiscs->len; i++) {
        const RtpBurstQdisc *q = &g_array_index (qdiscs, RtpBurstQdisc, i);

        FUZZ_CHECK (q->ifindex == ifindex, "qdisc of device %d", q->ifindex);
        FUZZ_CHECK (memchr (q->kind, '\0', sizeof (q->kind)) != NULL &&
            q->kind[0] != '\0', "kind not a name");
      }
      if (r < 0)
        g_array_set_size (qdiscs, before);
    } else {
      r = rtp_burst_qdisc_parse_route (copy, got, seq, &oif, &error);
      FUZZ_CHECK (r == 1 || oif == -1, "device %d with %d", oif, r);
    }
    FUZZ_CHECK (r >= -1 && r <= 1, "answer %d", r);
    FUZZ_CHECK ((r == -1) == (error != NULL), "answer %d, error %s", r,
        error ? error->message : "none");
    g_clear_error (&error);
    g_free (copy);
  }
  if ((mode & 1) && r >= 0)
    check_verdict (qdiscs, ifindex);
  g_array_free (qdiscs, TRUE);
  return 0;
}
