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

#include "rtpburstbooking.h"

void
rtp_burst_booking_reset (RtpBurstBooking * b)
{
  b->booked = b->counted = b->waited = FALSE;
  b->release = RTP_BURST_TIME_NONE;
}

gboolean
rtp_burst_booking_booked (const RtpBurstBooking * b)
{
  return b->booked;
}

gboolean
rtp_burst_booking_on_rate (const RtpBurstBooking * b)
{
  return b->booked && !b->counted;
}

guint64
rtp_burst_booking_release (const RtpBurstBooking * b)
{
  return b->booked ? b->release : RTP_BURST_TIME_NONE;
}

guint64
rtp_burst_booking_wait_end (const RtpBurstBooking * b)
{
  return b->booked && b->waited ? b->release : 0;
}

/* A push waits for the rate until @until: counted once per push, and the
 * longest such wait. */
static void
note_wait (RtpBurstBooking * b, const RtpBurstRateTime * t, guint64 until,
    RtpBurstRateWaits * waits)
{
  if (!b->waited) {
    b->waited = TRUE;
    waits->waits++;
  }
  waits->max_delay = MAX (waits->max_delay, until - MIN (until, t->now));
}

/* Books @bytes in @klass from now: the link's time follows the clock, so a
 * stream that is behind cannot catch up faster than the rate.  FALSE
 * without a rate (or a clock to book on). */
static gboolean
book (RtpBurstGroupMember * m, const RtpBurstRateTime * t, guint64 bytes,
    guint klass, guint64 * release)
{
  return t->now != RTP_BURST_TIME_NONE &&
      rtp_burst_group_member_book (m, t->clock, t->base_time, t->now, bytes,
      klass, release) == RTP_BURST_GROUP_PLACED;
}

RtpBurstBookingStep
rtp_burst_booking_ready (RtpBurstBooking * b, RtpBurstGroupMember * m,
    const RtpBurstRateTime * t, guint64 bytes, guint klass,
    RtpBurstRateWaits * waits, guint64 * until)
{
  if (!b->booked) {
    b->waited = FALSE;
    if (!book (m, t, bytes, klass, &b->release))
      return RTP_BURST_BOOKING_GO;
    b->booked = TRUE;
    if (b->release > t->now)
      note_wait (b, t, b->release, waits);
  }
  if (b->waited && b->release > t->now) {
    *until = b->release;
    return RTP_BURST_BOOKING_WAIT_RELEASE;
  }
  /* as it leaves: the link free of what left before it */
  if (!b->counted && t->now != RTP_BURST_TIME_NONE &&
      !rtp_burst_group_member_claim (m, t->clock, t->base_time, t->now,
          bytes, klass, &b->release)) {
    note_wait (b, t, b->release, waits);
    *until = b->release;
    return RTP_BURST_BOOKING_WAIT_CLAIM;
  }
  return RTP_BURST_BOOKING_GO;
}

gboolean
rtp_burst_rate_count (RtpBurstGroupMember * m, const RtpBurstRateTime * t,
    guint64 bytes)
{
  guint64 release;

  if (!book (m, t, bytes, RTP_BURST_GROUP_CLASS_TOP, &release))
    return FALSE;
  /* it leaves now: what the others claim comes after it */
  rtp_burst_group_member_occupy (m, t->clock, t->base_time, t->now, bytes,
      RTP_BURST_GROUP_CLASS_TOP);
  return TRUE;
}

gboolean
rtp_burst_booking_count (RtpBurstBooking * b, RtpBurstGroupMember * m,
    const RtpBurstRateTime * t, guint64 bytes, guint64 release)
{
  b->booked = b->counted = TRUE;
  b->waited = FALSE;
  b->release = release;
  return rtp_burst_rate_count (m, t, bytes);
}
