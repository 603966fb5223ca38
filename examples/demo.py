#!/usr/bin/env python3
"""Shows what rtpburstpace does to a live RTP video stream.

Sends the same live stream three times over loopback into a udpsink as
users write it (it synchronises by default): straight from the payloader,
through rtpburstpace, and through rtpburstpace with sync=false on the
udpsink.  Receives it on a plain UDP socket and reports, per frame (packets
with one RTP timestamp), how the packets arrived: the spread from first to
last packet, the gap between packets and the largest burst (packets
arriving less than --burst-gap apart).

The default stream is the paper's 6 Mbit/s CBR case: 160x96 UYVY at 25 fps
through rtpvrawpay, 30 packets of ~1000 B per frame.

Run it with GST_PLUGIN_PATH pointing at the build (scripts/run-demo.sh does).
"""

import argparse
import socket
import statistics
import struct
import sys
import threading
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

SOURCE = ("videotestsrc is-live=true pattern=ball ! "
          "video/x-raw,format=UYVY,width={width},height={height},"
          "framerate={fps}/1 ! rtpvrawpay mtu={mtu}")


class Receiver(threading.Thread):
    """Records (arrival ns, seq, rtptime, size) of each RTP packet on a port.

    The arrival time is the kernel's receive timestamp (SO_TIMESTAMPNS, the
    wall clock when the packet reached the socket), so how late this Python
    thread gets to read a packet does not show up as a burst.  Where the
    option is missing it is the monotonic time after the read."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.kernel_ts = hasattr(socket, "SO_TIMESTAMPNS")
        if self.kernel_ts:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_TIMESTAMPNS, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.settimeout(0.2)
        self.packets = []
        self.running = True

    def run(self):
        while self.running:
            try:
                data, ancdata, _, _ = self.sock.recvmsg(65536, 64)
            except socket.timeout:
                continue
            now = time.monotonic_ns()
            for level, kind, value in ancdata:
                if (self.kernel_ts and level == socket.SOL_SOCKET
                        and kind == socket.SO_TIMESTAMPNS and len(value) >= 16):
                    sec, nsec = struct.unpack_from("@qq", value)
                    now = sec * 1000000000 + nsec
            if len(data) >= 12:
                seq, rtptime = struct.unpack_from("!HI", data, 2)
                self.packets.append((now, seq, rtptime, len(data)))

    def stop(self):
        self.running = False
        self.join()
        self.sock.close()


def run_sender(pipeline_desc, seconds):
    """Runs a sender pipeline for @seconds; returns the pacer's stats."""
    pipeline = Gst.parse_launch(pipeline_desc)
    pacer = pipeline.get_by_name("pacer")
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    deadline = time.monotonic() + seconds
    error = None
    while time.monotonic() < deadline:
        msg = bus.timed_pop_filtered(100 * Gst.MSECOND,
                                     Gst.MessageType.ERROR)
        if msg:
            error = msg.parse_error()
            break
    stats = pacer.get_property("stats") if pacer else None
    pipeline.set_state(Gst.State.NULL)
    if error:
        sys.exit("pipeline error: %s (%s)" % (error[0].message, error[1]))
    return stats


def analyse(packets, burst_gap_ns, skip_frames=5):
    """Per-frame figures from (arrival, seq, rtptime, size) records."""
    frames = []
    for arrival, _seq, rtptime, _size in packets:
        if frames and frames[-1][0] == rtptime:
            frames[-1][1].append(arrival)
        else:
            frames.append((rtptime, [arrival]))
    # the first frames come while the pipeline starts up
    frames = [f for f in frames[skip_frames:-1] if len(f[1]) > 1]
    if not frames:
        return None
    spreads, gaps, bursts = [], [], []
    for _ts, arrivals in frames:
        spreads.append(arrivals[-1] - arrivals[0])
        d = [b - a for a, b in zip(arrivals, arrivals[1:])]
        gaps.extend(d)
        run = best = 1
        for g in d:
            run = run + 1 if g < burst_gap_ns else 1
            best = max(best, run)
        bursts.append(best)
    duration = packets[-1][0] - packets[0][0]
    return {
        "frames": len(frames),
        "packets/frame": statistics.median(len(a) for _t, a in frames),
        "spread ms (median)": statistics.median(spreads) / 1e6,
        "gap ms (median)": statistics.median(gaps) / 1e6,
        "largest burst": max(bursts),
        "burst (median)": statistics.median(bursts),
        "burst (p98)": sorted(bursts)[int(0.98 * (len(bursts) - 1))],
        "packets": len(packets),
        "Mbit/s": sum(p[3] for p in packets) * 8 / duration * 1e3,
    }


def plot_timeline(runs, path, n_frames=3):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(runs), 1, figsize=(9, 1.6 * len(runs) + 0.6),
                             sharex=True)
    for ax, (label, packets) in zip(axes, runs):
        # n_frames whole frames from the middle of the run
        starts = [i for i in range(1, len(packets))
                  if packets[i][2] != packets[i - 1][2]]
        first = starts[len(starts) // 2]
        last = starts[len(starts) // 2 + n_frames]
        t0 = packets[first][0]
        xs = [(p[0] - t0) / 1e6 for p in packets[first:last]]
        ax.vlines(xs, 0, 1, linewidth=1)
        ax.set_yticks([])
        ax.set_ylabel(label, rotation=0, ha="right", va="center")
    axes[-1].set_xlabel("arrival time at the receiver (ms)")
    fig.suptitle("Arrivals of the packets of %d consecutive frames" % n_frames)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0,
                    help="duration of each run (default 5)")
    ap.add_argument("--width", type=int, default=160)
    ap.add_argument("--height", type=int, default=96,
                    help="96 gives ~6 Mbit/s, 48 ~3 Mbit/s at 160 wide")
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--mtu", type=int, default=1028)
    ap.add_argument("--pace", default="burst-size=1 duty=0.9",
                    help="rtpburstpace properties (default %(default)s)")
    ap.add_argument("--port", type=int, default=5600)
    ap.add_argument("--burst-gap", type=float, default=0.2,
                    help="packets closer than this (ms) count as one burst")
    ap.add_argument("--plot", help="write a timeline PNG of both runs here")
    args = ap.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("rtpburstpace") is None:
        sys.exit("rtpburstpace not found: set GST_PLUGIN_PATH to the build "
                 "directory's gst/ (scripts/run-demo.sh does)")

    source = SOURCE.format(width=args.width, height=args.height,
                           fps=args.fps, mtu=args.mtu)
    # udpsink as users write it: it synchronises by default
    sink = "udpsink host=127.0.0.1 port=%d" % args.port
    cases = [
        ("payloader only", "%s ! %s" % (source, sink)),
        ("rtpburstpace", "%s ! rtpburstpace name=pacer %s ! %s"
         % (source, args.pace, sink)),
        ("sync=false", "%s ! rtpburstpace name=pacer %s ! %s sync=false"
         % (source, args.pace, sink)),
    ]

    results, runs = [], []
    for label, desc in cases:
        print("running %-15s %s" % (label + ":", desc), flush=True)
        rx = Receiver(args.port)
        rx.start()
        stats = run_sender(desc, args.seconds)
        time.sleep(0.2)
        rx.stop()
        res = analyse(rx.packets, args.burst_gap * 1e6)
        if res is None:
            sys.exit("%s: no frames received" % label)
        if stats is not None:
            res["stats"] = stats
        results.append((label, res))
        runs.append((label, rx.packets))

    keys = ["frames", "packets/frame", "spread ms (median)", "gap ms (median)",
            "burst (median)", "largest burst", "Mbit/s"]
    print()
    print("| %-22s | %s |" % ("per frame", " | ".join(
        "%-15s" % label for label, _r in results)))
    print("|%s|%s|" % ("-" * 24, "|".join("-" * 17 for _ in results)))
    for k in keys:
        print("| %-22s | %s |" % (k, " | ".join(
            "%-15s" % ("%.3g" % r[k] if isinstance(r[k], float) else r[k])
            for _l, r in results)))
    print()
    print("A burst is a run of packets less than %.2f ms apart." %
          args.burst_gap)
    for label, r in results:
        if "stats" in r:
            s = r["stats"]
            print("%s stats: frame-period %.1f ms (%s), slot-duration "
                  "%.3f ms, frames %d, unpaced %d, catch-up %d, late slots "
                  "%d, max lateness %.3f ms, sink-latency %.1f ms" % (
                      label, s.get_value("frame-period") / 1e6,
                      s.get_value("frame-period-source"),
                      s.get_value("slot-duration") / 1e6,
                      s.get_value("frames"), s.get_value("unpaced-frames"),
                      s.get_value("catch-up-frames"),
                      s.get_value("late-slots"),
                      s.get_value("max-lateness") / 1e6,
                      s.get_value("sink-latency") / 1e6))
            # the element's own conformance meter
            print("  meter: release error p50 %.3f / p99 %.3f / max %.3f ms, "
                  "gap p1 %.3f / p50 %.3f / p99 %.3f ms, peak rate "
                  "%.1f Mbit/s over 1 ms, %.1f over 10 ms, %d frames over "
                  "their period (largest end %.2f x period), margin %.2f ms" % (
                      s.get_value("release-error-p50") / 1e6,
                      s.get_value("release-error-p99") / 1e6,
                      s.get_value("release-error-max") / 1e6,
                      s.get_value("gap-p1") / 1e6, s.get_value("gap-p50") / 1e6,
                      s.get_value("gap-p99") / 1e6,
                      s.get_value("peak-rate-1ms") / 1e6,
                      s.get_value("peak-rate-10ms") / 1e6,
                      s.get_value("frames-over-period"),
                      s.get_value("max-frame-end") / 1e3,
                      s.get_value("margin") / 1e6))
    if args.plot:
        plot_timeline(runs, args.plot)


if __name__ == "__main__":
    main()
