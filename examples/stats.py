#!/usr/bin/python3
"""Runs a pipeline with rtpburstpace, polls the `stats` of every rtpburstpace
in it and plots a few fields over time into a PNG.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/stats.py [--seconds S]
        [--png FILE] [--host H] [--port P] [LAUNCH LINE ...]

Without a launch line it runs an H.264 sender of its own (a test pattern,
x264enc at 2 Mbit/s, rtph264pay ! rtpburstpace max-rate=3000000 ! udpsink
to --host:--port); with one, the pipeline of that gst-launch-1.0
description (quote it as one argument or give it as words, as to
gst-launch-1.0), which must have an rtpburstpace.  The sink after the
element may synchronise (udpsink does by default): the element times its
packets so that such a sink releases them on the element's schedule
(its stats' sink-latency and held-slots; docs/senders.md).

Every --interval seconds it reads `stats` (a GstStructure; gst-inspect-1.0
rtpburstpace documents each field), prints a status line a second, and at
the end (after --seconds, or on Ctrl-C) writes --png with, per element:
the rate it released (bytes over each interval), its rate cap (max-rate in
use) and congestion control estimate (estimated-bitrate, 0 without it),
slots and packets per second, the release error (release-error-p50 / -p99,
how late slots left against their time) and the frames dropped by
overload=drop and late slots (cumulative).  Needs matplotlib
(python3-matplotlib).  Exit status 0, 1 on a pipeline error, 2 on bad
arguments.
"""

import argparse
import os
import signal
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

DEFAULT_LAUNCH = (
    "videotestsrc is-live=true pattern=ball motion=sweep ! "
    "video/x-raw,width=640,height=360,framerate=25/1 ! "
    "x264enc tune=zerolatency speed-preset=ultrafast bitrate=2000 key-int-max=50 ! "
    "rtph264pay config-interval=-1 ! rtpburstpace name=pace max-rate=3000000 ! "
    "udpsink host=%s port=%d")
FIELDS = ("bytes", "packets", "slots", "max-rate", "estimated-bitrate", "release-error-p50",
          "release-error-p99", "dropped-frames", "late-slots", "frames")


def paces(pipeline):
    """The rtpburstpace elements in PIPELINE (in bins too)."""
    out = []
    it = pipeline.iterate_recurse()
    while True:
        res, elem = it.next()
        if res == Gst.IteratorResult.RESYNC:
            it.resync()
            out = []
            continue
        if res != Gst.IteratorResult.OK:
            break
        factory = elem.get_factory()
        if factory is not None and factory.get_name() == "rtpburstpace":
            out.append(elem)
    return sorted(out, key=lambda e: e.get_name())


def read(elem):
    s = elem.get_property("stats")
    return {k: s.get_value(k) for k in FIELDS if s is not None and s.has_field(k)}


def plot(path, series):
    """SERIES: {element name: [(seconds, stats dict)]} -> a PNG at PATH."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(4, 1, figsize=(9, 10), sharex=True)
    for name, samples in series.items():
        if len(samples) < 2:
            continue
        t = [s[0] for s in samples[1:]]

        def per_second(key):
            return [(b[1].get(key, 0) - a[1].get(key, 0)) / max(b[0] - a[0], 1e-6)
                    for a, b in zip(samples, samples[1:])]

        def value(key, scale=1.0):
            return [s[1].get(key, 0) * scale for s in samples[1:]]

        axes[0].plot(t, [r * 8 / 1e6 for r in per_second("bytes")], label="%s rate" % name)
        if any(value("max-rate")):
            axes[0].plot(t, value("max-rate", 1e-6), "--", label="%s max-rate in use" % name)
        if any(value("estimated-bitrate")):
            axes[0].plot(t, value("estimated-bitrate", 1e-6), ":",
                         label="%s estimated-bitrate" % name)
        axes[1].plot(t, per_second("slots"), label="%s slots/s" % name)
        axes[1].plot(t, per_second("packets"), "--", label="%s packets/s" % name)
        axes[2].plot(t, value("release-error-p50", 1e-6), label="%s release-error-p50" % name)
        axes[2].plot(t, value("release-error-p99", 1e-6), "--",
                     label="%s release-error-p99" % name)
        axes[3].plot(t, value("dropped-frames"), label="%s dropped-frames" % name)
        axes[3].plot(t, value("late-slots"), "--", label="%s late-slots" % name)
    for ax, unit in zip(axes, ("Mbit/s", "per second", "ms", "count")):
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="upper left")
    axes[0].set_title("rtpburstpace stats over time")
    axes[-1].set_xlabel("seconds")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("launch", nargs="*", metavar="LAUNCH",
                    help="a gst-launch-1.0 description with an rtpburstpace (default: an "
                    "H.264 test sender to --host:--port)")
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="how long to run, s (default: %(default)s; Ctrl-C stops sooner)")
    ap.add_argument("--interval", type=float, default=0.2,
                    help="how often to read the stats, s (default: %(default)s)")
    ap.add_argument("--png", default="rtpburstpace-stats.png", metavar="FILE",
                    help="where the plot goes (default: %(default)s)")
    ap.add_argument("--host", default="127.0.0.1",
                    help="the default sender's destination (default: %(default)s)")
    ap.add_argument("--port", type=int, default=5000,
                    help="the default sender's UDP port (default: %(default)s)")
    args = ap.parse_args()
    if args.seconds <= 0 or args.interval <= 0:
        ap.error("--seconds and --interval take a time above 0")

    Gst.init(None)
    launch = " ".join(args.launch) if args.launch else DEFAULT_LAUNCH % (args.host, args.port)
    try:
        pipeline = Gst.parse_launch(launch)
    except GLib.Error as e:
        sys.stderr.write("stats.py: %s\n" % e.message)
        return 2
    elems = paces(pipeline)
    if not elems:
        sys.stderr.write("stats.py: no rtpburstpace in the pipeline (GST_PLUGIN_PATH=build/gst "
                         "finds the built one)\n")
        return 2

    loop = GLib.MainLoop()
    series = {e.get_name(): [] for e in elems}
    state = {"start": None, "error": None, "last_print": 0.0}

    def poll():
        t = time.monotonic() - state["start"]
        for e in elems:
            series[e.get_name()].append((t, read(e)))
        if t - state["last_print"] >= 1.0 or t >= args.seconds:
            state["last_print"] = t
            parts = []
            for e in elems:
                s = series[e.get_name()][-1][1]
                parts.append("%s: %d frames %d slots, cap %.2f Mbit/s, estimate %.2f Mbit/s, "
                             "release error p99 %.3f ms, %d late slots, %d frames dropped" % (
                                 e.get_name(), s.get("frames", 0), s.get("slots", 0),
                                 s.get("max-rate", 0) / 1e6, s.get("estimated-bitrate", 0) / 1e6,
                                 s.get("release-error-p99", 0) / 1e6, s.get("late-slots", 0),
                                 s.get("dropped-frames", 0)))
            print("t=%.0fs %s" % (t, " | ".join(parts)), flush=True)
        if t >= args.seconds:
            loop.quit()
            return False
        return True

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            state["error"] = "%s (%s)" % (err.message, dbg)
            loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, _dbg = msg.parse_warning()
            print("warning: %s" % err.message, file=sys.stderr)
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()
        return True

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    for signum in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: loop.quit() or True)
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        sys.stderr.write("stats.py: the pipeline does not start: %s\n" % launch)
        return 1
    state["start"] = time.monotonic()
    GLib.timeout_add(int(args.interval * 1000), poll)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()
    if state["error"]:
        sys.stderr.write("stats.py: %s\n" % state["error"])
    plot(args.png, series)
    print("stats.py: %s (%s)" % (args.png, ", ".join(series)), flush=True)
    return 1 if state["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
