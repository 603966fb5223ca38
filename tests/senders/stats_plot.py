#!/usr/bin/python3
"""examples/stats.py as a user runs it: its own sender, and a launch line.

Runs `examples/stats.py --seconds 3 --png FILE` (its H.264 sender to a free
loopback port) and `examples/stats.py --seconds 3 --png FILE LAUNCH` with a
launch line of two rtpburstpace elements; checks each exits 0, prints a
status line a second whose frame count grows, names every element, and
writes a PNG (the file starts with the PNG signature and is not tiny).
A launch line without rtpburstpace exits 2.  Exit 0 pass, 1 fail, 77
skipped (no bindings, no matplotlib, or a plugin missing).  About 10 s.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402  (exits SKIP without the bindings)
from gstbindings import SKIP  # noqa: E402

STATS = os.path.join(gstbindings.ROOT, "examples", "stats.py")
NEEDED = ("videotestsrc", "x264enc", "rtph264pay", "rtpvrawpay", "udpsink")
TWO = ("videotestsrc is-live=true ! video/x-raw,format=UYVY,width=160,height=96,"
       "framerate=25/1 ! rtpvrawpay ! rtpburstpace name=one ! fakesink sync=true  "
       "videotestsrc is-live=true ! video/x-raw,format=UYVY,width=160,height=96,"
       "framerate=25/1 ! rtpvrawpay ! rtpburstpace name=two ! fakesink")

failures = []


def check(ok, text):
    print("%s  %s" % ("ok  " if ok else "FAIL", text))
    if not ok:
        failures.append(text)


def run(label, extra, names):
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "stats.png")
        out = subprocess.run([sys.executable, STATS, "--seconds", "3", "--png", png] + extra,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=60)
        check(out.returncode == 0, "%s: exit 0 (%d)%s" % (
            label, out.returncode, (": " + out.stderr.strip()[-400:]) if out.returncode else ""))
        ticks = [l for l in out.stdout.splitlines() if l.startswith("t=")]
        frames = [int(m.group(1)) for m in
                  (re.search(r": (\d+) frames", l) for l in ticks) if m]
        check(len(frames) >= 2 and frames[-1] > frames[0] > 0,
              "%s: status lines a second, frames growing (%s)" % (label, frames))
        check(all(all(n + ":" in l for n in names) for l in ticks),
              "%s: every line names %s" % (label, ", ".join(names)))
        data = open(png, "rb").read() if os.path.exists(png) else b""
        check(data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000,
              "%s: wrote a PNG (%d bytes)" % (label, len(data)))


def main():
    code = gstbindings.unavailable(NEEDED)
    if code is not None:
        return code
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("SKIP: no matplotlib (python3-matplotlib)")
        return SKIP
    sys.path.insert(0, HERE)
    import video_recipes
    port = video_recipes.free_base_port(2)
    run("its own sender", ["--port", str(port)], ["pace"])
    run("a launch line with two elements", [TWO], ["one", "two"])
    none = subprocess.run([sys.executable, STATS, "--seconds", "1", "fakesrc ! fakesink"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    check(none.returncode == 2 and "no rtpburstpace" in none.stderr,
          "a launch line without rtpburstpace: exit 2 (%d)" % none.returncode)
    if failures:
        print("FAIL: %d check(s) failed" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
