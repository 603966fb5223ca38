#!/usr/bin/python3
"""Pacing through a real udpsink, received on a real UDP socket (loopback).

The 6 Mbit/s raw stream of the README (32 packets of ~1000 B per 40 ms
frame) through `rtpburstpace ! udpsink host=... port=...` as users write it
(udpsink synchronises by default), and the same with sync=false.  Each case
must show per frame, after the first frames: a median spread from first to
last packet of at least 0.85 x 0.9*dT*(n-1)/n, a median gap between packets
within +-20 % of 0.9*dT/n, no run of more than 8 packets less than 200 us
apart in 98 % of the frames, and no packet lost.

Timing on a shared machine is noisy: a host stall of 10 ms holds the
element's thread, and the slots that came due meanwhile leave at once, so
the burst bound is on the 98th percentile of the frames (the largest burst
is printed too), arrival times are the kernel's receive timestamps (the
receiving thread's own delays do not count), and a case whose only failure
is that bound is run again, up to twice.  Exit 0 when all pass, 1 when one fails, 77 when PyGObject or the
plugin is missing.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples"))

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
except (ImportError, ValueError) as e:
    print("skipped: no PyGObject/GStreamer bindings (%s)" % e)
    sys.exit(77)

import demo  # noqa: E402  (examples/demo.py: receiver and per-frame figures)

SECONDS = 6.0
PERIOD_MS = 40.0
DUTY = 0.9
MAX_BURST = 8
BURST_RETRIES = 2


def lost(packets):
    """Packets missing from the sequence numbers received."""
    seqs = [p[1] for p in packets]
    missing = 0
    for a, b in zip(seqs, seqs[1:]):
        missing += (b - a - 1) % 65536
    return missing


def check(label, res, n_lost):
    n = res["packets/frame"]
    spread_min = 0.85 * DUTY * PERIOD_MS * (n - 1) / n
    gap = DUTY * PERIOD_MS / n
    checks = [
        ("median spread %.2f ms >= %.2f ms" % (res["spread ms (median)"], spread_min),
         res["spread ms (median)"] >= spread_min),
        ("median gap %.3f ms within +-20 %% of %.3f ms" % (res["gap ms (median)"], gap),
         abs(res["gap ms (median)"] - gap) <= 0.2 * gap),
        ("largest burst %d <= %d in 98 %% of the frames (largest %d)" % (
            res["burst (p98)"], MAX_BURST, res["largest burst"]),
         res["burst (p98)"] <= MAX_BURST),
        ("packets lost %d == 0" % n_lost, n_lost == 0),
    ]
    for text, ok in checks:
        print("  %s %s: %s" % ("PASS" if ok else "FAIL", label, text))
    return [text for text, ok in checks if not ok]


def run_case(label, sink_props):
    rx = demo.Receiver(0)
    port = rx.sock.getsockname()[1]
    desc = ("%s ! rtpburstpace name=pacer ! udpsink host=127.0.0.1 port=%d%s"
            % (demo.SOURCE.format(width=160, height=96, fps=25, mtu=1028), port,
               sink_props))
    print("%s: %s" % (label, desc), flush=True)
    rx.start()
    stats = demo.run_sender(desc, SECONDS)
    demo.time.sleep(0.2)
    rx.stop()
    res = demo.analyse(rx.packets, 0.2e6)
    if res is None:
        print("  FAIL %s: no frames received" % label)
        return ["no frames"]
    print("  %d frames, %d packets/frame; stats: sink-latency %.1f ms, held-slots %d, "
          "late-slots %d, max-lateness %.2f ms" % (
              res["frames"], res["packets/frame"],
              stats.get_value("sink-latency") / 1e6, stats.get_value("held-slots"),
              stats.get_value("late-slots"), stats.get_value("max-lateness") / 1e6))
    return check(label, res, lost(rx.packets))


def main():
    Gst.init(None)
    if Gst.ElementFactory.find("rtpburstpace") is None:
        print("skipped: rtpburstpace not found (GST_PLUGIN_PATH)")
        return 77
    failed = []
    for label, props in [("udpsink (default sync=true)", ""),
                         ("udpsink sync=false", " sync=false")]:
        fails = run_case(label, props)
        for _ in range(BURST_RETRIES):
            if not fails or not all(f.startswith("largest burst") for f in fails):
                break
            print("  only the burst bound failed (a host stall?): once more")
            fails = run_case(label, props)
        failed += fails
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
