#!/usr/bin/python3
"""examples/cc-sender.c: the encoder's bit rate follows rtpburstpace's estimate, in C.

Runs the built example (its path is the first argument; meson passes it) for SECONDS against a
loopback receiver that sends transport-wide congestion control feedback (twccreceiver.py) and
reads what it prints for each estimate: "estimate E bit/s: bitrate K kbit/s".  Passes when it
exited 0, printed at least one such line, each K is 85 % of E in kbit/s, rounded down, within
[1, 4000] (its rule, ratecontrol.encoder_rate's with the same share), the estimates are not all
the same (GCC moved it), and the receiver decoded frames.  Exit 0 pass, 1 fail, 77 without
PyGObject or a plugin.

    /usr/bin/python3 tests/senders/cc_sender.py build/examples/cc-sender
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gstbindings  # noqa: E402  (exits 77 without the bindings)
import video_recipes  # noqa: E402  (its free_base_port)

SECONDS = 4
NEEDED = ("x264enc", "rtpbin", "rtph264pay", "rtph264depay", "avdec_h264", "udpsrc",
          "udpsink", "rtphdrexttwcc")
LINE = re.compile(r"^estimate (\d+) bit/s: bitrate (\d+) kbit/s$")


def main():
    if len(sys.argv) != 2:
        print("usage: cc_sender.py PATH-TO-cc-sender")
        return 1
    code = gstbindings.unavailable(NEEDED)
    if code is not None:
        return code
    import twccreceiver
    port = video_recipes.free_base_port(6)
    rx = twccreceiver.TwccReceiver(port)
    rx.start()
    try:
        out = subprocess.run([sys.argv[1], "127.0.0.1", str(port), str(SECONDS)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=SECONDS + 30)
    finally:
        frames = rx.stop()
    lines = out.stdout.splitlines()
    pairs = [(int(m.group(1)), int(m.group(2))) for m in map(LINE.match, lines) if m]
    print("cc-sender exited %d: %d lines, %d estimates, first %s, last %s; the receiver "
          "decoded %d frames" % (out.returncode, len(lines), len(pairs), pairs[:1],
                                 pairs[-1:], frames))
    wrong = [(e, k) for e, k in pairs if k != max(1, min(4000, e * 85 // 100 // 1000))]
    checks = [
        ("cc-sender exited 0 (stderr: %s)" % out.stderr.strip()[-300:], out.returncode == 0),
        ("every line it printed is an estimate and the bit rate it set",
         len(pairs) == len(lines)),
        ("it set the encoder from the estimate: %d times" % len(pairs), len(pairs) >= 1),
        ("each bit rate is 85 %% of the estimate in kbit/s, within [1, 4000]: %s"
         % (wrong[:3] or "yes"), not wrong),
        ("the estimate moved: %d different values" % len(set(e for e, _k in pairs)),
         len(set(e for e, _k in pairs)) >= 2),
        ("the receiver decoded %d frames" % frames, frames >= SECONDS * 25 // 2),
    ]
    for text, ok in checks:
        print("%s  %s" % ("PASS" if ok else "FAIL", text))
    return 0 if all(ok for _t, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
