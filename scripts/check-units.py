#!/usr/bin/python3
"""Checks the boundaries between the plugin's units (gst/):

- the pure units (gst/rtpburst*.c, .h) include GLib and each other only,
  never GStreamer; the one that talks to the kernel (rtpburstqdisc: the
  egress qdisc over rtnetlink) also the C library's and Linux's headers
  it needs, still never GStreamer;
- the stream (gst/rtpburststream*.c) reads no field of another unit's
  state: a member of the stream that is another unit's struct (the frame
  queue, the group membership, the repair queue, the sink hold, ...) is
  used through that unit's functions.  The stream's own records (its
  stats, the push under way, the head frame's pacing, the drop notice)
  and the parameter records it fills for a call are the exceptions.

Exits 1 and lists what it found when a boundary is crossed."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GST = ROOT / "gst"

# members of the stream's own records, which it may reach into
OWN = {"st", "push", "head", "drop", "rate_waits", "rate_time"}
NESTED = re.compile(r"(?:->|\.)([a-z_]+)\.([a-z_]+)")
INCLUDE = re.compile(r'#include\s+[<"]([^>"]+)[>"]')
PURE_OK = re.compile(r"(glib\.h|string\.h|stdlib\.h|math\.h|config\.h|rtpburst[a-z-]*\.h|"
                     r"gstrtpburstlock\.h)$")
# the kernel interface's units and what else they may include
SYSTEM_UNITS = {"rtpburstqdisc"}
SYSTEM_OK = re.compile(r"^(errno\.h|unistd\.h|sys/[a-z_]+\.h|net/[a-z_]+\.h|"
                       r"netinet/[a-z_]+\.h|linux/[a-z_]+\.h)$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def main():
    problems = []
    for path in sorted(GST.glob("rtpburst*.[ch]")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.search(line)
            if m and not PURE_OK.search(m.group(1)) and not (
                    path.stem in SYSTEM_UNITS and SYSTEM_OK.search(m.group(1))):
                problems.append(f"{path.name}:{n}: a pure unit includes "
                                f"{m.group(1)}")
    for path in sorted(GST.glob("rtpburststream*.c")):
        text = strip_comments(path.read_text())
        for n, line in enumerate(text.splitlines(), 1):
            for m in NESTED.finditer(line):
                if m.group(1) not in OWN:
                    problems.append(f"{path.name}:{n}: reads "
                                    f"{m.group(1)}.{m.group(2)}")
    for p in problems:
        print(p)
    print(f"check-units: {len(problems)} boundary crossings")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
