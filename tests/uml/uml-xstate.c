/* uml-xstate: lets Debian 12's linux.uml (6.1) run on hosts whose XSAVE
 * area is larger than the one it was built for (AVX-512, AMX)
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

/* Loaded into linux.uml with LD_PRELOAD by tests/uml/run-uml.sh.
 *
 * linux.uml keeps each guest thread's floating-point state in a buffer the
 * size of its build's struct _xstate (832 bytes: x87/SSE, header, AVX) and
 * restores it with ptrace (PTRACE_SETREGSET, NT_X86_XSTATE) on every return
 * to the guest's user space.  The host kernel accepts that request only
 * with a buffer of its whole XSAVE size (2,696 bytes with AVX-512, 11,008
 * with AMX) and fails it with EFAULT otherwise: the guest's init dies at
 * its first instruction ("userspace - ptrace set fp regs failed, errno =
 * 14").  Here a short PTRACE_SETREGSET becomes a whole one: the traced
 * process's current state with the given bytes on top.
 *
 * What this does not give: the state beyond those bytes (AVX-512's opmask
 * and upper ZMM registers, AMX tiles) is not switched between the guest's
 * threads.  run-uml.sh's guest therefore tells glibc not to use AVX-512
 * (GLIBC_TUNABLES); the guest's programs must not use it themselves. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

/* larger than any XSAVE area so far (AMX: 11,008 bytes) */
#define MAX_XSTATE (64 * 1024)

typedef long (*ptrace_func) (enum __ptrace_request, pid_t, void *, void *);

static __thread unsigned char *whole;

long ptrace (enum __ptrace_request request, ...);

long
ptrace (enum __ptrace_request request, ...)
{
  static ptrace_func real;
  va_list ap;
  pid_t pid;
  void *addr, *data;

  va_start (ap, request);
  pid = va_arg (ap, pid_t);
  addr = va_arg (ap, void *);
  data = va_arg (ap, void *);
  va_end (ap);

  if (real == NULL)
    real = (ptrace_func) dlsym (RTLD_NEXT, "ptrace");

  if (request == PTRACE_SETREGSET && (uintptr_t) addr == NT_X86_XSTATE) {
    struct iovec *given = data;
    struct iovec all;
    long ret;

    if (whole == NULL && posix_memalign ((void **) &whole, 64, MAX_XSTATE))
      whole = NULL;
    if (whole == NULL)
      return real (request, pid, addr, data);

    /* the host's size and the process's current state */
    all.iov_base = whole;
    all.iov_len = MAX_XSTATE;
    if (real (PTRACE_GETREGSET, pid, addr, &all) < 0)
      return -1;
    if (given->iov_len >= all.iov_len)
      return real (request, pid, addr, data);

    memcpy (whole, given->iov_base, given->iov_len);
    ret = real (PTRACE_SETREGSET, pid, addr, &all);
    return ret;
  }
  return real (request, pid, addr, data);
}
