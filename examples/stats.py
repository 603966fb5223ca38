#!/usr/bin/env python3
"""A small application that inserts rtpburstpace into its own pipeline and
prints the element's stats once a second.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/stats.py --seconds 5
"""

import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=5000)
    args = ap.parse_args()

    Gst.init(None)
    pipeline = Gst.Pipeline.new("sender")
    src = Gst.parse_bin_from_description(
        "videotestsrc is-live=true ! "
        "video/x-raw,format=UYVY,width=160,height=96,framerate=25/1 ! "
        "rtpvrawpay mtu=1028", True)
    pacer = Gst.ElementFactory.make("rtpburstpace", "pacer")
    if pacer is None:
        sys.exit("rtpburstpace not found: set GST_PLUGIN_PATH to build/gst")
    pacer.set_property("burst-size", 1)
    pacer.set_property("duty", 0.9)
    sink = Gst.ElementFactory.make("udpsink")
    sink.set_property("host", args.host)
    sink.set_property("port", args.port)
    # the pacer does the timing; a synchronising sink would re-burst
    sink.set_property("sync", False)
    for e in (src, pacer, sink):
        pipeline.add(e)
    src.link(pacer)
    pacer.link(sink)

    loop = GLib.MainLoop()
    ticks = [0]

    def on_tick():
        s = pacer.get_property("stats")
        print("frames %d packets %d slots %d period %.1f ms (%s) "
              "slot %.3f ms late-slots %d max-lateness %.3f ms queued %d" % (
                  s.get_value("frames"), s.get_value("packets"),
                  s.get_value("slots"), s.get_value("frame-period") / 1e6,
                  s.get_value("frame-period-source"),
                  s.get_value("slot-duration") / 1e6,
                  s.get_value("late-slots"),
                  s.get_value("max-lateness") / 1e6,
                  s.get_value("queued-packets")), flush=True)
        ticks[0] += 1
        if ticks[0] >= args.seconds:
            loop.quit()
            return False
        return True

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("error: %s (%s)" % (err.message, dbg), file=sys.stderr)
            loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, _dbg = msg.parse_warning()
            print("warning: %s" % err.message, file=sys.stderr)

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add_seconds(1, on_tick)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)


if __name__ == "__main__":
    main()
