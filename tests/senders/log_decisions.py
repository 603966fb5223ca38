#!/usr/bin/python3
"""The element's log explains its decisions: examples/log-decisions.sh as a
user runs it (two H.264 cameras in one group under a group-max-rate, the
second under max-rate with overload=drop, 10 s, GST_DEBUG=rtpburstpace:6),
then the log is searched for each kind of decision the pacing thread makes
and says why (docs/reading-the-log.md).  Exit 0 when every kind is there,
1 when one is missing, 77 when gst-launch-1.0 or x264enc is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = 10

KINDS = [
    ("joined the group", r"joined group cams"),
    ("waiting for data, and why", r"waiting for data: nothing queued"),
    ("a frame planned: slots, dt, placement",
     r"frame \d+: \d+ packets in \d+ slots of up to \d+, dt [0-9:.]+, "
     r"first at [0-9:.]+ over [0-9:.]+.*; placed in its group, phase"),
    ("waiting for a slot", r"waiting until [0-9:.]+ \([-+][0-9:.]+ from now\): slot$"),
    ("how late the thread woke", r"woke [0-9:.]+ after the slot"),
    ("a slot's push", r"pushing \d+ packets of frame \d+ at [0-9:.]+, DTS [0-9:.]+: slot"),
    ("held by the group's rate",
     r"waiting until [0-9:.]+ \(\+[0-9:.]+ from now\): held by the group's rate"),
    ("spread by the rate cap", r"spread by max-rate"),
    ("a frame dropped for the budget", r"frame dropped: over the rate cap's budget"),
    ("an event pushed in order", r"pushing .*event"),
    ("left the group", r"left group cams"),
]


def main():
    if shutil.which("gst-launch-1.0") is None or \
            subprocess.run(["gst-inspect-1.0", "x264enc"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL).returncode != 0:
        print("SKIP: gst-launch-1.0 or x264enc missing")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "rtpburstpace.log")
        proc = subprocess.run(["sh", os.path.join(ROOT, "examples", "log-decisions.sh"),
                               log, "127.0.0.1", str(SECONDS)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=SECONDS * 6)
        with open(log, errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
    failures, passed = [], []

    def check(ok, text):
        print("%s  %s" % ("ok  " if ok else "FAIL", text))
        (passed if ok else failures).append(text)

    check(proc.returncode == 0, "log-decisions.sh ran %d s and exited %d%s"
          % (SECONDS, proc.returncode, "" if proc.returncode == 0
             else ": " + proc.stdout.strip()[-300:]))
    for what, pattern in KINDS:
        rx = re.compile(pattern)
        hits = [line for line in lines if rx.search(line)]
        check(bool(hits), "%s: %d lines%s" % (what, len(hits),
                                               ", e.g. " + hits[0][-120:] if hits else ""))
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
