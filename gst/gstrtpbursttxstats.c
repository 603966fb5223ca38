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

#include <string.h>

#include "gstrtpbursttxstats.h"

/* The stats fields, defined once: the structure and the property's
 * description are made from this table.  The counters first, in the order
 * of GstRtpBurstTxCounter. */
typedef enum
{
  STAT_LAST_LEAD = GST_RTP_BURST_TX_N_COUNTERS,
  STAT_MAX_LEAD,
  STAT_TXTIME_ACTIVE,
  STAT_TXTIME_CLOCK,
  STAT_QDISC,
  STAT_EGRESS,
  N_STATS
} Stat;

typedef struct
{
  const gchar *name;
  GType type;                   /* a fundamental type: a constant */
  const gchar *meaning;
} Field;

static const Field fields[N_STATS] = {
  [GST_RTP_BURST_TX_PACKETS_SENT] = {"packets-sent", G_TYPE_UINT64,
      "packets the kernel took (sendmsg succeeded)"},
  [GST_RTP_BURST_TX_BYTES_SENT] = {"bytes-sent", G_TYPE_UINT64,
      "bytes of those packets (UDP payload)"},
  [GST_RTP_BURST_TX_SEND_ERRORS] = {"send-errors", G_TYPE_UINT64,
      "packets sendmsg refused, not sent"},
  [GST_RTP_BURST_TX_TIMED] = {"timed", G_TYPE_UINT64,
      "packets sent with a release time (SCM_TXTIME)"},
  [GST_RTP_BURST_TX_UNTIMED] = {"untimed", G_TYPE_UINT64,
      "packets sent without one: SO_TXTIME not in force, no clock, no "
        "valid timestamp or outside the segment"},
  [GST_RTP_BURST_TX_LATE] = {"txtime-late", G_TYPE_UINT64,
      "timed packets whose release time had passed when the kernel got "
        "them (fq sends them at once, etf drops them)"},
  [GST_RTP_BURST_TX_MISSED] = {"txtime-missed", G_TYPE_UINT64,
      "packets the qdisc dropped after they waited in it past their time "
        "(error queue, SO_EE_CODE_TXTIME_MISSED: etf)"},
  [GST_RTP_BURST_TX_INVALID] = {"txtime-invalid", G_TYPE_UINT64,
      "packets the qdisc refused: a release time already past when queued "
        "or before one it sent, or on another clock (error queue, "
        "SO_EE_CODE_TXTIME_INVALID_PARAM: etf)"},
  [STAT_LAST_LEAD] = {"last-lead", G_TYPE_INT64,
      "how long before its release time the last timed packet was sent, "
        "ns (negative: late)"},
  [STAT_MAX_LEAD] = {"max-lead", G_TYPE_INT64,
      "the longest such lead, ns (0 before the first timed packet)"},
  [STAT_TXTIME_ACTIVE] = {"txtime-active", G_TYPE_BOOLEAN,
      "release times in force: the socket took SO_TXTIME and the egress "
        "qdisc paces (or txtime-check=force); FALSE: the sink waits on the "
        "clock"},
  [STAT_TXTIME_CLOCK] = {"txtime-clock", G_TYPE_STRING,
      "the kernel clock of the release times: monotonic or tai"},
  [STAT_QDISC] = {"qdisc", G_TYPE_STRING,
      "the egress device's qdisc: its root's kind, with a multiqueue root "
        "the kinds of its queues' qdiscs (\"mq: fq\"); \"unknown\" if the "
        "kernel could not be asked, \"not checked\" without SO_TXTIME"},
  [STAT_EGRESS] = {"egress", G_TYPE_STRING,
      "the device the destination is routed through (\"\" if not known)"},
};

const gchar *
gst_rtp_burst_tx_stats_blurb (void)
{
  static gchar *blurb = NULL;

  if (g_once_init_enter (&blurb)) {
    GString *str = g_string_new ("Statistics, a GstStructure "
        GST_RTP_BURST_TX_STATS_NAME " with these fields:");
    guint i;

    for (i = 0; i < N_STATS; i++)
      g_string_append_printf (str, "\n%s (%s): %s", fields[i].name,
          g_type_name (fields[i].type), fields[i].meaning);
    g_once_init_leave (&blurb, g_string_free (str, FALSE));
  }
  return blurb;
}

/* Zero, as the sink starts; the qdisc not checked. */
void
gst_rtp_burst_tx_stats_reset (GstRtpBurstTxStats * s)
{
  g_free (s->qdisc);
  memset (s, 0, sizeof (*s));
  s->qdisc = g_strdup ("not checked");
}

void
gst_rtp_burst_tx_stats_clear (GstRtpBurstTxStats * s)
{
  g_clear_pointer (&s->qdisc, g_free);
}

void
gst_rtp_burst_tx_stats_set_egress (GstRtpBurstTxStats * s,
    const gchar * qdisc, const gchar * device)
{
  g_free (s->qdisc);
  s->qdisc = g_strdup (qdisc);
  g_strlcpy (s->egress, device, sizeof (s->egress));
}

/* A packet sendmsg () took (@ok) or refused, of @size bytes, with the
 * release time @txtime (if @timed) handed over at @kernel_now. */
void
gst_rtp_burst_tx_stats_sent (GstRtpBurstTxStats * s, gboolean ok,
    gsize size, gboolean timed, guint64 txtime, guint64 kernel_now)
{
  gint64 lead;

  if (!ok) {
    s->counters[GST_RTP_BURST_TX_SEND_ERRORS]++;
    return;
  }
  s->counters[GST_RTP_BURST_TX_PACKETS_SENT]++;
  s->counters[GST_RTP_BURST_TX_BYTES_SENT] += size;
  if (!timed) {
    s->counters[GST_RTP_BURST_TX_UNTIMED]++;
    return;
  }
  lead = txtime >= kernel_now ?
      (gint64) MIN (txtime - kernel_now, (guint64) G_MAXINT64) :
      -(gint64) MIN (kernel_now - txtime, (guint64) G_MAXINT64);
  s->counters[GST_RTP_BURST_TX_TIMED]++;
  if (lead < 0)
    s->counters[GST_RTP_BURST_TX_LATE]++;
  s->last_lead = lead;
  if (lead > s->max_lead)
    s->max_lead = lead;
}

GstStructure *
gst_rtp_burst_tx_stats_to_structure (const GstRtpBurstTxStats * s,
    gboolean active, const gchar * clock)
{
  GstStructure *st = gst_structure_new_empty (GST_RTP_BURST_TX_STATS_NAME);
  guint i;

  for (i = 0; i < N_STATS; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, fields[i].type);
    switch (i) {
      case STAT_LAST_LEAD:
        g_value_set_int64 (&v, s->last_lead);
        break;
      case STAT_MAX_LEAD:
        g_value_set_int64 (&v, s->max_lead);
        break;
      case STAT_TXTIME_ACTIVE:
        g_value_set_boolean (&v, active);
        break;
      case STAT_TXTIME_CLOCK:
        g_value_set_static_string (&v, clock);
        break;
      case STAT_QDISC:
        g_value_set_string (&v, s->qdisc ? s->qdisc : "not checked");
        break;
      case STAT_EGRESS:
        g_value_set_string (&v, s->egress);
        break;
      default:
        g_value_set_uint64 (&v, s->counters[i]);
        break;
    }
    gst_structure_take_value (st, fields[i].name, &v);
  }
  return st;
}
