#!/usr/bin/env python3
"""Soak: a live 6 Mbit/s stream through rtpburstpace for a long time.

Runs videotestsrc (160x96 UYVY, 25 fps) ! rtpvrawpay ! rtpburstpace !
udpsink to a local UDP socket that this script drains, and samples the
process's resident memory (VmRSS) and the element's stats every
--interval seconds.  At the end it prints the first and last samples, the
RSS growth after the warm-up, and fails (exit 1) if memory grew by more
than --max-growth-kib or the element lost packets.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 tests/soak/soak.py --minutes 10
"""

import argparse
import socket
import sys
import threading
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--interval", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=30.0,
                    help="seconds before the reference RSS sample")
    ap.add_argument("--max-growth-kib", type=int, default=2048)
    ap.add_argument("--port", type=int, default=5700)
    args = ap.parse_args()

    Gst.init(None)
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    rx.bind(("127.0.0.1", args.port))
    rx.settimeout(0.2)
    received = [0]
    running = [True]

    def drain():
        while running[0]:
            try:
                rx.recv(65536)
                received[0] += 1
            except socket.timeout:
                pass

    t = threading.Thread(target=drain, daemon=True)
    t.start()

    pipeline = Gst.parse_launch(
        "videotestsrc is-live=true pattern=ball ! "
        "video/x-raw,format=UYVY,width=160,height=96,framerate=25/1 ! "
        "rtpvrawpay mtu=1028 ! rtpburstpace name=pacer ! "
        "udpsink host=127.0.0.1 port=%d sync=false" % args.port)
    pacer = pipeline.get_by_name("pacer")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)

    start = time.monotonic()
    end = start + args.minutes * 60
    samples = []
    next_sample = start
    reference = None
    while time.monotonic() < end:
        msg = bus.timed_pop_filtered(200 * Gst.MSECOND,
                                     Gst.MessageType.ERROR |
                                     Gst.MessageType.WARNING)
        if msg is not None:
            print("message:", msg.type, msg.src.get_name(),
                  msg.parse_error()[0].message
                  if msg.type == Gst.MessageType.ERROR
                  else msg.parse_warning()[0].message, flush=True)
            if msg.type == Gst.MessageType.ERROR:
                break
        now = time.monotonic()
        if now >= next_sample:
            s = pacer.get_property("stats")
            sample = (now - start, rss_kib(), s.get_value("frames"),
                      s.get_value("packets"), s.get_value("queued-packets"),
                      s.get_value("late-slots"), s.get_value("max-lateness"),
                      s.get_value("catch-up-frames"))
            samples.append(sample)
            if reference is None and now - start >= args.warmup:
                reference = sample
            print("t=%6.0f s rss=%6d KiB frames=%d packets=%d queued=%d "
                  "late-slots=%d max-lateness=%.2f ms catch-up=%d" % (
                      sample[0], sample[1], sample[2], sample[3], sample[4],
                      sample[5], sample[6] / 1e6, sample[7]), flush=True)
            next_sample += args.interval

    stats = pacer.get_property("stats")
    pipeline.set_state(Gst.State.NULL)
    running[0] = False
    t.join()
    last = (time.monotonic() - start, rss_kib())
    if reference is None:
        reference = samples[0]
    growth = last[1] - reference[1]
    print()
    print("duration %.0f s; RSS %d KiB at %.0f s, %d KiB at the end: "
          "growth %+d KiB" % (last[0], reference[1], reference[0], last[1],
                              growth))
    print("element: frames %d packets %d flushed %d invalid %d unpaced %d "
          "late-slots %d max-lateness %.2f ms; receiver got %d packets" % (
              stats.get_value("frames"), stats.get_value("packets"),
              stats.get_value("flushed-packets"),
              stats.get_value("invalid-packets"),
              stats.get_value("unpaced-frames"),
              stats.get_value("late-slots"),
              stats.get_value("max-lateness") / 1e6, received[0]))
    ok = growth <= args.max_growth_kib
    lost = stats.get_value("packets") - received[0]
    print("packets sent but not received on loopback: %d" % lost)
    print("soak: %s" % ("PASS" if ok else "FAIL: memory grew"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
