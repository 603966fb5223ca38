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
 * The element's lock, as the element and its clock waits
 * (gstrtpburstwait.c) take and release it.  Private to the plugin.
 *
 * ThreadSanitizer cannot see GLib's GMutex (a futex, not a pthread mutex),
 * so in a -Db_sanitize=thread build every lock, unlock and condition wait
 * below is announced to it (tests/tsan/); TSAN_RELEASE and TSAN_ACQUIRE
 * state other hand-overs it cannot see.  In other builds the annotations
 * are empty and these are plain g_mutex_* and g_cond_* calls.
 */

#ifndef __GST_RTP_BURST_LOCK_H__
#define __GST_RTP_BURST_LOCK_H__

#include <glib.h>

#if defined(__SANITIZE_THREAD__)
#define RTP_BURST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RTP_BURST_TSAN 1
#endif
#endif
#ifdef RTP_BURST_TSAN
#include <sanitizer/tsan_interface.h>
#define TSAN_DESTROY(m) __tsan_mutex_destroy ((m), 0)
#define TSAN_PRE_LOCK(m) __tsan_mutex_pre_lock ((m), 0)
#define TSAN_POST_LOCK(m) __tsan_mutex_post_lock ((m), 0, 0)
#define TSAN_PRE_UNLOCK(m) __tsan_mutex_pre_unlock ((m), 0)
#define TSAN_POST_UNLOCK(m) __tsan_mutex_post_unlock ((m), 0)
#define TSAN_RELEASE(a) __tsan_release (a)
#define TSAN_ACQUIRE(a) __tsan_acquire (a)
#else
#define TSAN_DESTROY(m) G_STMT_START { } G_STMT_END
#define TSAN_PRE_LOCK(m) G_STMT_START { } G_STMT_END
#define TSAN_POST_LOCK(m) G_STMT_START { } G_STMT_END
#define TSAN_PRE_UNLOCK(m) G_STMT_START { } G_STMT_END
#define TSAN_POST_UNLOCK(m) G_STMT_START { } G_STMT_END
#define TSAN_RELEASE(a) G_STMT_START { } G_STMT_END
#define TSAN_ACQUIRE(a) G_STMT_START { } G_STMT_END
#endif

/* g_mutex_lock () and g_mutex_unlock () of the GMutex @m */
#define RTP_BURST_MUTEX_LOCK(m) G_STMT_START {     \
  TSAN_PRE_LOCK (m);                               \
  g_mutex_lock (m);                                \
  TSAN_POST_LOCK (m);                              \
} G_STMT_END
#define RTP_BURST_MUTEX_UNLOCK(m) G_STMT_START {   \
  TSAN_PRE_UNLOCK (m);                             \
  g_mutex_unlock (m);                              \
  TSAN_POST_UNLOCK (m);                            \
} G_STMT_END

/* g_mutex_trylock (), announced as such: TRUE if it took the lock. */
static inline gboolean
rtp_burst_mutex_trylock (GMutex * m)
{
  gboolean ok;

#ifdef RTP_BURST_TSAN
  __tsan_mutex_pre_lock (m, __tsan_mutex_try_lock);
  ok = g_mutex_trylock (m);
  __tsan_mutex_post_lock (m, ok ? __tsan_mutex_try_lock :
      __tsan_mutex_try_lock | __tsan_mutex_try_lock_failed, 0);
#else
  ok = g_mutex_trylock (m);
#endif
  return ok;
}

/* g_cond_wait () on the GCond @c releases and retakes the GMutex @m */
#define RTP_BURST_COND_WAIT(c, m) G_STMT_START {   \
  TSAN_PRE_UNLOCK (m);                             \
  TSAN_POST_UNLOCK (m);                            \
  g_cond_wait ((c), (m));                          \
  TSAN_PRE_LOCK (m);                               \
  TSAN_POST_LOCK (m);                              \
} G_STMT_END

/* g_cond_wait_until (): @end in g_get_monotonic_time () microseconds;
 * @res FALSE once end has passed */
#define RTP_BURST_COND_WAIT_UNTIL(c, m, end, res) G_STMT_START { \
  TSAN_PRE_UNLOCK (m);                             \
  TSAN_POST_UNLOCK (m);                            \
  res = g_cond_wait_until ((c), (m), (end));       \
  TSAN_PRE_LOCK (m);                               \
  TSAN_POST_LOCK (m);                              \
} G_STMT_END

#endif /* __GST_RTP_BURST_LOCK_H__ */
