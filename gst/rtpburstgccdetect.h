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
 * GCC's delay-based over-use detector (draft-ietf-rmcat-gcc-02 5.1-5.4),
 * the first half of the delay-based controller (rtpburstgcc.h): received
 * packets make groups, the groups' delay variations d(i) go through the
 * Kalman filter to the delay gradient m(i), and m(i), scaled by the
 * number of deltas seen, is compared with the adaptive threshold.  Where
 * it departs from the draft, and why, is said in rtpburstgccdetect.c.
 * Pure arithmetic on the packets it is given, GLib only; times in ns.
 */

#ifndef __RTP_BURST_GCC_DETECT_H__
#define __RTP_BURST_GCC_DETECT_H__

#include <glib.h>

#include "rtpburstfeedback.h"

G_BEGIN_DECLS

/* The over-use detector's signal (5.4). */
typedef enum
{
  RTP_BURST_GCC_NORMAL = 0,
  RTP_BURST_GCC_OVERUSE,
  RTP_BURST_GCC_UNDERUSE,
} RtpBurstGccSignal;

typedef struct _RtpBurstGccDetect RtpBurstGccDetect;

typedef struct
{
  gdouble gradient;             /* the estimate the detector compares,
                                 * ms: m(i) x min (deltas, 60) */
  gdouble offset;               /* m(i) itself, ms */
  gdouble threshold;            /* del_var_th(i), ms */
  RtpBurstGccSignal signal;     /* the latest */
  guint64 groups;               /* deltas d(i) given to the filter */
} RtpBurstGccDetectReport;

RtpBurstGccDetect *rtp_burst_gcc_detect_new (void);
void rtp_burst_gcc_detect_free (RtpBurstGccDetect * detect);

/* A report begins: rtp_burst_gcc_detect_signal () tells of over-use in
 * any group completed from now on. */
void rtp_burst_gcc_detect_begin (RtpBurstGccDetect * detect);

/* A packet the feedback says arrived, reported for the first time. */
void rtp_burst_gcc_detect_add (RtpBurstGccDetect * detect,
    const RtpBurstFeedbackPacket * p);

/* Over-use if any group since rtp_burst_gcc_detect_begin () signalled
 * it, else the latest signal. */
RtpBurstGccSignal rtp_burst_gcc_detect_signal (const RtpBurstGccDetect *
    detect);

void rtp_burst_gcc_detect_report (const RtpBurstGccDetect * detect,
    RtpBurstGccDetectReport * out);

G_END_DECLS

#endif /* __RTP_BURST_GCC_DETECT_H__ */
