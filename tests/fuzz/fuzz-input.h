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

/* A little-endian reader over the fuzzer's input.  Reading past the end
 * gives zeros, so every input is a complete program: the fuzzer never has
 * to get a length right. */

#ifndef __FUZZ_INPUT_H__
#define __FUZZ_INPUT_H__

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

typedef struct
{
  const guint8 *data;
  gsize size, pos;
} FuzzInput;

static inline gboolean
fuzz_more (const FuzzInput * in)
{
  return in->pos < in->size;
}

static inline guint8
fuzz_u8 (FuzzInput * in)
{
  return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline guint16
fuzz_u16 (FuzzInput * in)
{
  guint16 v = fuzz_u8 (in);

  return v | ((guint16) fuzz_u8 (in) << 8);
}

static inline guint32
fuzz_u32 (FuzzInput * in)
{
  guint32 v = fuzz_u16 (in);

  return v | ((guint32) fuzz_u16 (in) << 16);
}

static inline guint64
fuzz_u64 (FuzzInput * in)
{
  guint64 v = fuzz_u32 (in);

  return v | ((guint64) fuzz_u32 (in) << 32);
}

/* Up to @max bytes of the input, as they are (may be fewer at the end). */
static inline const guint8 *
fuzz_bytes (FuzzInput * in, gsize want, gsize * got)
{
  const guint8 *p = in->data + in->pos;
  gsize n = MIN (want, in->size - in->pos);

  in->pos += n;
  *got = n;
  return p;
}

/* A 64-bit time that is mostly small and "interesting", sometimes anything:
 * 0, 1, NONE, NONE-1, 2^63, multiples of ms, raw. */
static inline guint64
fuzz_time (FuzzInput * in)
{
  guint8 sel = fuzz_u8 (in);

  switch (sel & 7) {
    case 0:
      return 0;
    case 1:
      return (guint64) fuzz_u16 (in) * G_GUINT64_CONSTANT (1000000);  /* ms */
    case 2:
      return (guint64) fuzz_u32 (in);   /* up to 4.3 s in ns */
    case 3:
      return G_MAXUINT64 - fuzz_u8 (in);        /* around NONE */
    case 4:
      return (G_GUINT64_CONSTANT (1) << 63) + fuzz_u16 (in);
    case 5:
      return (guint64) fuzz_u16 (in) * G_GUINT64_CONSTANT (1000);     /* µs */
    case 6:
      return fuzz_u64 (in);
    default:
      return (guint64) fuzz_u8 (in);
  }
}

#define FUZZ_CHECK(cond, ...) G_STMT_START {                            \
  if (G_UNLIKELY (!(cond))) {                                           \
    fprintf (stderr, "%s:%d: invariant violated: %s\n  ", __FILE__,    \
        __LINE__, #cond);                                               \
    fprintf (stderr, __VA_ARGS__);                                      \
    fprintf (stderr, "\n");                                             \
    abort ();                                                           \
  }                                                                     \
} G_STMT_END

/* --- start-up shared by the targets ------------------------------------- */

/* GLib < 2.76 hands out slices from its own magazines, which would hide
 * use-after-free from AddressSanitizer: runs this process again, once,
 * with plain malloc.  Call first in LLVMFuzzerInitialize (). */
static inline void
fuzz_use_plain_malloc (char **argv)
{
  if (g_strcmp0 (g_getenv ("G_SLICE"), "always-malloc") != 0) {
    g_setenv ("G_SLICE", "always-malloc", TRUE);
    execv ("/proc/self/exe", argv);
    perror ("execv /proc/self/exe");
    abort ();
  }
}

static inline void
fuzz_log_abort (const gchar * domain, GLogLevelFlags level,
    const gchar * msg, gpointer user_data)
{
  fprintf (stderr, "%s-%s: %s\n", domain ? domain : "",
      (level & G_LOG_LEVEL_CRITICAL) ? "CRITICAL" : "ERROR", msg);
  abort ();
}

/* A critical or an error logged in the default domain or in one of
 * @domains (NULL-terminated) aborts: g_return_if_fail () and friends in
 * the code under test are bugs. */
static inline void
fuzz_abort_on_criticals (const gchar * const *domains)
{
  const GLogLevelFlags levels = G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR |
      G_LOG_FLAG_FATAL;

  g_log_set_handler (NULL, levels, fuzz_log_abort, NULL);
  for (; domains && *domains; domains++)
    g_log_set_handler (*domains, levels, fuzz_log_abort, NULL);
}

#endif /* __FUZZ_INPUT_H__ */
