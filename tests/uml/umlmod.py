#!/usr/bin/python3
"""Loads kernel modules of Debian's user-mode-linux package in the guest.

    umlmod.py MODULES_DIR MODULE...

MODULE is a path under MODULES_DIR/kernel without ".ko" (e.g.
net/sched/sch_fq), loaded in the order given: list a module's dependencies
(MODULES_DIR/modules.dep) before it.  One that is already loaded is left
alone.  The host has no insmod (kmod): init_module (2) through ctypes.
"""
import ctypes
import errno
import os
import sys


def load(modules_dir, names):
    """Loads each module of names (paths under modules_dir/kernel, no
    ".ko"); raises OSError naming the first that fails."""
    libc = ctypes.CDLL(None, use_errno=True)
    for m in names:
        with open(os.path.join(modules_dir, "kernel", m + ".ko"), "rb") as f:
            image = f.read()
        if libc.init_module(image, ctypes.c_ulong(len(image)), b"") != 0:
            e = ctypes.get_errno()
            if e != errno.EEXIST:
                raise OSError(e, "%s: %s" % (m, os.strerror(e)))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: umlmod.py MODULES_DIR MODULE...")
    try:
        load(sys.argv[1], sys.argv[2:])
    except OSError as e:
        sys.exit(e.strerror)
