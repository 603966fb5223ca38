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

#include "gstrtpbursttxegress.h"
#include "gstrtpbursttxsocket.h"
#include "rtpburstqdisc.h"

#define GST_CAT_DEFAULT rtp_burst_tx_sink_debug

GType
gst_rtp_burst_tx_check_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_RTP_BURST_TX_CHECK_AUTO, "Use release times only where the egress "
          "qdisc paces (fq, etf)", "auto"},
    {GST_RTP_BURST_TX_CHECK_FORCE, "Use release times whatever the egress "
          "qdisc", "force"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstRtpBurstTxCheck", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

/* Whether to use release times to @dst: where the egress qdisc paces, or
 * @check forces them, or etf on some queue would drop the packets the
 * sink sent without.  @qdisc (to free) and @device: what was found,
 * "unknown" and "" where the kernel could not be asked.  One warning where
 * the sink will pace the packets itself, one where the qdisc's clock is
 * not @clock. */
gboolean
gst_rtp_burst_tx_egress_check (GstElement * element,
    const struct sockaddr *dst, GstRtpBurstTxCheck check, clockid_t clock,
    gchar ** qdisc, gchar device[16])
{
  RtpBurstQdiscEgress e;
  GError *error = NULL;
  gboolean known, use;

  known = rtp_burst_qdisc_egress (dst, &e, &error);
  GST_INFO_OBJECT (element, "egress %s, qdisc %s%s", e.device, known ?
      e.qdisc : "unknown", known && e.paces ? " paces" : "");
  *qdisc = g_strdup (known ? e.qdisc : "unknown");
  g_strlcpy (device, e.device, 16);
  use = check == GST_RTP_BURST_TX_CHECK_FORCE || (known && (e.paces ||
          e.etf_clockid >= 0));

  if (!known && !use) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("Could not tell whether the egress qdisc paces release times: "
            "the sink paces the packets itself."),
        ("%s; txtime-check=force uses release times whatever the qdisc; "
            "sync is on while the sink runs", error->message));
  } else if (known && !e.paces && !use) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("The qdisc of %s (%s) ignores release times: the sink paces the "
            "packets itself.", e.device, e.qdisc),
        ("for the kernel to pace them: tc qdisc replace dev %s root fq; "
            "sync is on while the sink runs", e.device));
  } else if (known && !e.paces && check != GST_RTP_BURST_TX_CHECK_FORCE) {
    /* etf drops a packet without a release time: no fallback */
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("Some queues of %s (%s) ignore release times.", e.device, e.qdisc),
        ("etf on the others drops packets without one: the sink hands them "
            "over all the same"));
  }
  if (use && ((e.etf_clockid >= 0 && e.etf_clockid != (gint) clock) ||
          (e.fq && clock != CLOCK_MONOTONIC))) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("The qdisc of %s (%s) takes release times on another clock: it "
            "will drop the packets.", e.device, e.qdisc),
        ("set txtime-clock to %s", e.fq ? "monotonic (fq)" :
            (e.etf_clockid == CLOCK_TAI ? "tai (etf)" :
                "etf's clockid (CLOCK_MONOTONIC or CLOCK_TAI)")));
  }
  g_clear_error (&error);
  rtp_burst_qdisc_egress_clear (&e);
  return use;
}
