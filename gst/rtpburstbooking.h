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
 * One push's way onto a group's rate (rtpburstgroup.h, group-max-rate):
 *
 *   book   its bytes on the group's virtual link, once; the link says when
 *          they may leave (the release)
 *   wait   until the release, if it is later than now
 *   claim  the link as the push leaves: granted once what left before it
 *          in its class and above has had its time, else wait again
 *
 * The media's slots and the repair packets take the same way, each with a
 * booking of its own.  A push that leaves whatever the rate says (one a
 * synchronising sink paces, a pass-through push) is counted instead: booked
 * in the top class without waiting, the link taken from now, so that the
 * paced members make room for it.  Never waits or locks: the caller waits
 * until the time it is given and asks again.  GLib only; times are the
 * member's running times in ns.
 */

#ifndef __RTP_BURST_BOOKING_H__
#define __RTP_BURST_BOOKING_H__

#include <glib.h>

#include "rtpburstgroup.h"

G_BEGIN_DECLS

/* Now, and the clock the group's rate is kept on. */
typedef struct
{
  guint64 now;                  /* running time; NONE: no clock, no rate */
  gconstpointer clock;          /* compared only */
  guint64 base_time;
} RtpBurstRateTime;

/* The waits for the rate, counted over a stream's pushes. */
typedef struct
{
  guint64 waits;                /* pushes that waited */
  guint64 max_delay;            /* the longest such wait, ns */
} RtpBurstRateWaits;

typedef struct
{
  gboolean booked;              /* its bytes are booked on the rate */
  gboolean counted;             /* ... in the top class: no wait, no claim */
  gboolean waited;              /* it waited (counted once) */
  guint64 release;              /* booked: when it may leave */
} RtpBurstBooking;

void     rtp_burst_booking_reset (RtpBurstBooking * b);

/* Booked on the rate (by ready () or count ()). */
gboolean rtp_burst_booking_booked (const RtpBurstBooking * b);
/* ... and claims the link as it leaves (not counted in the top class). */
gboolean rtp_burst_booking_on_rate (const RtpBurstBooking * b);
/* When the rate lets it leave; NONE when not booked. */
guint64  rtp_burst_booking_release (const RtpBurstBooking * b);
/* When a wait for the rate ended; 0 when it did not wait. */
guint64  rtp_burst_booking_wait_end (const RtpBurstBooking * b);

typedef enum
{
  RTP_BURST_BOOKING_GO = 0,     /* it may leave now */
  RTP_BURST_BOOKING_WAIT_RELEASE,       /* the rate has no room before */
  RTP_BURST_BOOKING_WAIT_CLAIM, /* what left before it has not had its
                                 * time */
} RtpBurstBookingStep;

/* Books (once), waits for the release and claims: GO when the push may
 * leave now (also without a rate, or without a clock), else why it waits
 * and *until when to ask again.  A wait is counted in @waits once per
 * push. */
RtpBurstBookingStep rtp_burst_booking_ready (RtpBurstBooking * b,
                                  RtpBurstGroupMember * m,
                                  const RtpBurstRateTime * t, guint64 bytes,
                                  guint klass, RtpBurstRateWaits * waits,
                                  guint64 * until);
/* Counts @bytes that leave now whatever the rate says.  TRUE when they
 * were booked (on the rate, in the top class). */
gboolean rtp_burst_rate_count    (RtpBurstGroupMember * m,
                                  const RtpBurstRateTime * t, guint64 bytes);
/* rtp_burst_rate_count () for a push with a booking: it is then ready at
 * once, released at @release.  Returns as rtp_burst_rate_count (). */
gboolean rtp_burst_booking_count (RtpBurstBooking * b,
                                  RtpBurstGroupMember * m,
                                  const RtpBurstRateTime * t, guint64 bytes,
                                  guint64 release);

G_END_DECLS

#endif /* __RTP_BURST_BOOKING_H__ */
