#!/usr/bin/python3
"""The shell examples as users run them: examples/send-raw.sh and send-h264.sh.

Each script is executed directly (its #!/bin/sh, dash on Debian), with no
arguments (its default port on 127.0.0.1) and with HOST PORT and an extra
rtpburstpace property, for SECONDS; a plain UDP socket receives what it
sends.  Checks: the script is still running when it is stopped (a shell
error or a pipeline that failed to start ends it early), packets arrived on
the port, and for the raw sender the spacing says the element paced them
by default (median spread of a frame's packets at least 0.85 x its ideal
0.9*dT*(n-1)/n) and took the extra property (with duty=0 a frame leaves as
one burst: median spread under 5 ms).  Exit 0 when all pass, 1 when one
fails, 77 when PyGObject is missing (examples/demo.py, whose receiver this
uses, needs it).
"""
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402,F401  (skips without the bindings; default plugin path)

ROOT = gstbindings.ROOT
sys.path.insert(0, os.path.join(ROOT, "examples"))
import demo  # noqa: E402  (examples/demo.py: receiver and per-frame figures)

SECONDS = 4.0
PERIOD_MS = 40.0
BURST_GAP_NS = 200_000
TEST_PORT = 5610


def run_script(name, args, port):
    """Runs examples/NAME ARGS for SECONDS; (still running at the end, packets, stderr)."""
    rx = demo.Receiver(port)
    rx.start()
    proc = subprocess.Popen([os.path.join(ROOT, "examples", name)] + args,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(SECONDS)
    running = proc.poll() is None
    if running:
        proc.send_signal(signal.SIGINT)      # gst-launch-1.0 -e: EOS, then exit
    try:
        _out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
    rx.stop()
    return running, rx.packets, err


def main():
    failures, passed = [], []

    def check(ok, text):
        print("%s  %s" % ("ok  " if ok else "FAIL", text))
        (passed if ok else failures).append(text)

    cases = [
        # script, arguments, port it sends to, what the spread must be
        ("send-raw.sh", [], 5000, "paced"),
        ("send-raw.sh", ["127.0.0.1", str(TEST_PORT), "duty=0"], TEST_PORT, "burst"),
        ("send-h264.sh", [], 5002, None),
        ("send-h264.sh", ["127.0.0.1", str(TEST_PORT + 2), "max-rate=8000000"],
         TEST_PORT + 2, None),
    ]
    for name, args, port, spread in cases:
        what = "%s %s" % (name, " ".join(args) or "(no arguments)")
        running, packets, err = run_script(name, args, port)
        check(running, "%s: still running after %.0f s%s"
              % (what, SECONDS, "" if running else "; stderr: " + err.strip()[-300:]))
        check(len(packets) > 0, "%s: %d packets on port %d" % (what, len(packets), port))
        if spread is None or not packets:
            continue
        fig = demo.analyse(packets, BURST_GAP_NS)
        if fig is None:
            check(False, "%s: no frame of several packets" % what)
            continue
        n = fig["packets/frame"]
        ideal = 0.9 * PERIOD_MS * (n - 1) / n
        if spread == "paced":
            check(fig["spread ms (median)"] >= 0.85 * ideal,
                  "%s: median spread %.1f ms >= 0.85 x %.1f ms (paced by default)"
                  % (what, fig["spread ms (median)"], ideal))
        else:
            check(fig["spread ms (median)"] < 5.0,
                  "%s: median spread %.2f ms < 5 ms (the extra property reached "
                  "the element)" % (what, fig["spread ms (median)"]))

    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
