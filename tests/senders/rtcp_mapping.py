#!/usr/bin/python3
"""rtpburstpace with rtpbin: the RTCP sender reports' NTP <-> RTP mapping.

A live H.264 sender (videotestsrc ! x264enc ! rtph264pay with a fixed ssrc and
timestamp-offset) goes into rtpbin with RTCP on; send_rtp_src_0 feeds a udpsink
with default properties (sync=true) on loopback, send_rtcp_src_0 another
udpsink.  A receiver in this process (plain UDP sockets) records the RTP
packets and parses the RTCP sender reports by hand.  Three runs:

  (a) no element
  (b) rtpburstpace before rtpbin's send_rtp_sink_0
  (c) rtpburstpace after send_rtp_src_0, between rtpbin and the udpsink

rtpbin runs with ntp-time-source=running-time, so an SR's NTP timestamp is the
pipeline running time and runs can be compared.  rtpsession maps a packet to
NTP as running-time(PTS) + the pipeline latency (rtcp-sync-send-time=true, the
default), and rtph264pay sets RTP = timestamp-offset + running-time(PTS) x
90 kHz, so for each SR

    offset = NTP_ns - (rtptime - timestamp_offset) / 90000 x 1e9

is the pipeline latency that rtpsession received in its LATENCY event (plus
< 12 us of rounding).  A run's offset is the median over its SRs.

PASS if |offset(b) - offset(a)| < 1 ms and |offset(c) - offset(a)| < 1 ms,
and in every run: at least 3 SRs, their RTP timestamps increase, each is
within [-250 ms, +250 ms] of the last RTP packet received before it (loose:
the sender and the receiver thread may be delayed on a busy machine), and
the per-SR offsets of a run agree within 1 ms.  Also printed, not checked: the
pipeline latency, the element's latency and how the packets of a frame
arrived (spread of a frame, ms), which depend on timing.

Exit codes: 0 pass, 1 fail, 77 skipped (no PyGObject / GStreamer bindings or a
GStreamer plugin it needs is missing).  rtpburstpace is taken from
GST_PLUGIN_PATH, else from ../../build/gst relative to this file; a missing
rtpburstpace is a failure, not a skip.  About 20 s.

    /usr/bin/python3 tests/senders/rtcp_mapping.py [--seconds 5] [-v] [--pace PROPS] [--sync false]
"""
import argparse
import os
import select
import socket
import statistics
import struct
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def plugin_dir():
    """GST_PLUGIN_PATH as printed: relative to the repository when in it."""
    path = os.environ.get("GST_PLUGIN_PATH")
    root = os.path.normpath(os.path.join(HERE, "..", ".."))
    if path and os.path.abspath(path).startswith(root + os.sep):
        return os.path.relpath(os.path.abspath(path), root)
    return path


CLOCK_RATE = 90000
SSRC = 0x1234ABCD
# Wraps about 2 s into the run, so that the unwrapping is exercised.
TS_OFFSET = (1 << 32) - 2 * CLOCK_RATE
FRAMERATE = 25
BOUND_NS = 1_000_000          # the mapping bound: 1 ms
SR_RTP_WINDOW_MS = 250        # an SR's RTP time vs the last packet received (loose: timing)
RTCP_MIN_INTERVAL_NS = 400_000_000

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import gstbindings  # noqa: E402  (exits SKIP without the bindings)
from gstbindings import SKIP, GLib, Gst  # noqa: E402,F401


def ts_diff(a, b):
    """a - b for 32-bit RTP timestamps, as a signed number of ticks."""
    d = (a - b) & 0xFFFFFFFF
    return d - (1 << 32) if d >= (1 << 31) else d


class Receiver:
    """Receives RTP and RTCP on two loopback sockets bound to free ports."""

    def __init__(self):
        self.rtp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rtp.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.rtp.bind(("127.0.0.1", 0))
        self.rtcp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rtcp.bind(("127.0.0.1", 0))
        self.rtp_port = self.rtp.getsockname()[1]
        self.rtcp_port = self.rtcp.getsockname()[1]
        self.packets = []   # (arrival ns, seq, rtptime, ssrc)
        self.srs = []       # dicts, see parse_rtcp
        self.last_rtp = None
        self.stop = False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        socks = [self.rtp, self.rtcp]
        while not self.stop:
            ready, _, _ = select.select(socks, [], [], 0.1)
            # RTP first, so an SR is compared with every packet that came
            # before it
            for s in sorted(ready, key=lambda s: s is not self.rtp):
                while True:
                    try:
                        data = s.recv(65536, socket.MSG_DONTWAIT)
                    except BlockingIOError:
                        break
                    now = time.monotonic_ns()
                    if s is self.rtp:
                        self.on_rtp(now, data)
                    else:
                        self.on_rtcp(now, data)

    def on_rtp(self, now, data):
        if len(data) < 12 or data[0] >> 6 != 2:
            return
        seq, rtptime, ssrc = struct.unpack_from("!HII", data, 2)
        self.packets.append((now, seq, rtptime, ssrc))
        if ssrc == SSRC:
            self.last_rtp = rtptime

    def on_rtcp(self, now, data):
        # a compound packet: walk its packets, keep the sender reports
        pos = 0
        while pos + 4 <= len(data):
            first, pt, length = struct.unpack_from("!BBH", data, pos)
            size = (length + 1) * 4
            if first >> 6 != 2 or pos + size > len(data):
                return
            if pt == 200 and size >= 28:
                ssrc, sec, frac, rtptime, pcount, ocount = struct.unpack_from(
                    "!IIIIII", data, pos + 4)
                self.srs.append({
                    "arrival": now, "ssrc": ssrc,
                    "ntp_ns": sec * 1_000_000_000 + ((frac * 1_000_000_000) >> 32),
                    "rtptime": rtptime, "packets": pcount, "octets": ocount,
                    "last_rtp": self.last_rtp})
            pos += size

    def close(self):
        self.stop = True
        self.thread.join()
        self.rtp.close()
        self.rtcp.close()


def pipeline_description(placement, rtp_port, rtcp_port, pace_props="", sync=True):
    pace = "rtpburstpace name=pace %s ! " % pace_props
    return (
        "rtpbin name=rb ntp-time-source=running-time "
        "videotestsrc is-live=true pattern=smpte ! "
        "video/x-raw,width=640,height=360,framerate=%d/1 ! "
        "x264enc tune=zerolatency speed-preset=ultrafast bitrate=2000 key-int-max=25 ! "
        "rtph264pay mtu=1200 config-interval=-1 pt=96 ssrc=%d timestamp-offset=%d ! "
        "%srb.send_rtp_sink_0 "
        "rb.send_rtp_src_0 ! %sudpsink name=rtpsink host=127.0.0.1 port=%d%s "
        "rb.send_rtcp_src_0 ! udpsink name=rtcpsink host=127.0.0.1 port=%d "
        "sync=false async=false"
        % (FRAMERATE, SSRC, TS_OFFSET,
           pace if placement == "before" else "",
           pace if placement == "after" else "",
           rtp_port, "" if sync else " sync=false", rtcp_port))


def query_latency(element):
    q = Gst.Query.new_latency()
    if not element.query(q):
        return None
    live, lo, hi = q.parse_latency()
    return lo


def run(placement, seconds, verbose, pace_props, sync):
    rx = Receiver()
    desc = pipeline_description(placement, rx.rtp_port, rx.rtcp_port, pace_props, sync)
    if verbose:
        print("  gst-launch-1.0 " + desc, flush=True)
    pipeline = Gst.parse_launch(desc)
    rtpbin = pipeline.get_by_name("rb")
    session = rtpbin.emit("get-session", 0)
    session.set_property("rtcp-min-interval", RTCP_MIN_INTERVAL_NS)

    result = {"placement": placement, "errors": [], "latency_changes": 0}
    loop = GLib.MainLoop()

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            result["errors"].append("%s (%s)" % (err.message, dbg))
            loop.quit()
        elif msg.type == Gst.MessageType.LATENCY:
            # as gst-launch does: a changed latency is distributed again
            result["latency_changes"] += 1
            pipeline.recalculate_latency()
        elif msg.type == Gst.MessageType.WARNING and verbose:
            err, _dbg = msg.parse_warning()
            print("  warning: %s" % err.message, flush=True)

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    handler = bus.connect("message", on_message)
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        result["errors"].append("could not start the pipeline")
    else:
        loop.run()
    result["pipeline_latency"] = query_latency(pipeline)
    pace = pipeline.get_by_name("pace")
    if pace is not None:
        # the element's own latency: at its src pad minus upstream of it
        total = query_latency(pace.get_static_pad("src"))
        upstream = query_latency(pace.get_static_pad("sink").get_peer())
        if total is not None and upstream is not None:
            result["element_latency"] = total - upstream
        result["element_stats"] = pace.get_property("stats")
    pipeline.set_state(Gst.State.NULL)
    bus.disconnect(handler)
    bus.remove_signal_watch()
    rx.close()
    result["packets"] = rx.packets
    result["srs"] = [sr for sr in rx.srs if sr["ssrc"] == SSRC]
    result["foreign_srs"] = len(rx.srs) - len(result["srs"])
    return result


def analyse(r, check):
    """Per-SR offsets and the sanity checks of one run; returns the median offset."""
    name = "(%s) %s" % ({"none": "a", "before": "b", "after": "c"}[r["placement"]],
                        r["placement"])
    check(not r["errors"], "%s: pipeline ran without errors %s" % (name, r["errors"] or ""))
    srs = r["srs"]
    check(len(r["packets"]) > 0, "%s: %d RTP packets received" % (name, len(r["packets"])))
    check(len(srs) >= 3, "%s: %d sender reports of SSRC %08x received" % (name, len(srs), SSRC))
    if not srs:
        return None
    offsets = []
    rtp_ext = []
    near = []
    for sr in srs:
        ticks = (sr["rtptime"] - TS_OFFSET) & 0xFFFFFFFF   # since running time 0
        offsets.append(sr["ntp_ns"] - ticks * 1_000_000_000 / CLOCK_RATE)
        rtp_ext.append(ticks)
        if sr["last_rtp"] is not None:
            near.append(ts_diff(sr["rtptime"], sr["last_rtp"]) * 1000.0 / CLOCK_RATE)
    monotonic = all(b > a for a, b in zip(rtp_ext, rtp_ext[1:]))
    check(monotonic, "%s: SR RTP timestamps increase (%s)" % (
        name, ", ".join("%d" % sr["rtptime"] for sr in srs[:6]) + (", ..." if len(srs) > 6 else "")))
    ok_near = bool(near) and all(-SR_RTP_WINDOW_MS <= d <= SR_RTP_WINDOW_MS for d in near)
    check(ok_near, "%s: SR RTP time - last received packet's RTP time within +-%d ms: "
          "%s ms" % (name, SR_RTP_WINDOW_MS,
                     "%.1f .. %.1f" % (min(near), max(near)) if near else "none"))
    spread = max(offsets) - min(offsets)
    check(spread < BOUND_NS, "%s: per-SR offsets agree within 1 ms: spread %.3f ms" % (
        name, spread / 1e6))
    return statistics.median(offsets)


def frame_spread(packets):
    """Median time from a frame's first to its last packet at the receiver, ms."""
    frames = {}
    for arrival, _seq, rtptime, ssrc in packets:
        if ssrc == SSRC:
            frames.setdefault(rtptime, []).append(arrival)
    spans = [(max(a) - min(a)) / 1e6 for a in frames.values() if len(a) > 1]
    sizes = [len(a) for a in frames.values()]
    return (statistics.median(spans) if spans else 0.0,
            statistics.median(sizes) if sizes else 0, len(frames))


def ms(ns):
    return "n/a" if ns is None else "%.3f ms" % (ns / 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the pipelines and every SR")
    ap.add_argument("--pace", default="", metavar="PROPS",
                    help="extra rtpburstpace properties, e.g. 'duty=0 slot-jitter=0'")
    ap.add_argument("--sync", choices=("true", "false"), default="true",
                    help="the RTP udpsink's sync (default true, udpsink's default)")
    args = ap.parse_args()

    code = gstbindings.unavailable(("videotestsrc", "x264enc", "rtph264pay", "rtpbin",
                                    "udpsink"))
    if code is not None:
        return code

    failures = []

    def check(ok, text):
        print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
        if not ok:
            failures.append(text)

    print("rtcp_mapping: rtpbin ntp-time-source=running-time, %d fps H.264, "
          "RTP udpsink sync=%s, %.0f s per run; rtpburstpace from %s"
          % (FRAMERATE, args.sync, args.seconds, plugin_dir()), flush=True)
    offsets = {}
    for placement in ("none", "before", "after"):
        r = run(placement, args.seconds, args.verbose, args.pace, args.sync == "true")
        if args.verbose:
            for sr in r["srs"]:
                print("  SR ntp %.6f s rtp %u packets %u last-rtp %s" % (
                    sr["ntp_ns"] / 1e9, sr["rtptime"], sr["packets"], sr["last_rtp"]))
        offsets[placement] = analyse(r, check)
        spread, size, nframes = frame_spread(r["packets"])
        info = ("     offset %s; pipeline latency %s; %d frames, %d packets/frame, "
                "a frame's packets arrived over %.2f ms (median); latency messages %d"
                % (ms(offsets[placement]), ms(r["pipeline_latency"]), nframes, size,
                   spread, r["latency_changes"]))
        if "element_stats" in r:
            st = r["element_stats"]
            info += ("; element latency %s, frame period %s (%s), late slots %d of %d" % (
                ms(r.get("element_latency")), ms(st.get_value("frame-period")),
                st.get_value("frame-period-source"), st.get_value("late-slots"),
                st.get_value("slots")))
        print(info, flush=True)

    a, b, c = offsets["none"], offsets["before"], offsets["after"]
    print()
    print("mapping offset NTP - RTP time (median over the SRs of each run):")
    print("  (a) no element:                 %s" % ms(a))
    print("  (b) before send_rtp_sink_0:     %s" % ms(b))
    print("  (c) after send_rtp_src_0:       %s" % ms(c))
    if None in (a, b, c):
        check(False, "an offset is missing")
    else:
        print("  (b) - (a): %+.3f ms   (c) - (a): %+.3f ms" % ((b - a) / 1e6, (c - a) / 1e6))
        check(abs(b - a) < BOUND_NS, "|offset(b) - offset(a)| < 1 ms: %.3f ms" % (abs(b - a) / 1e6))
        check(abs(c - a) < BOUND_NS, "|offset(c) - offset(a)| < 1 ms: %.3f ms" % (abs(c - a) / 1e6))
    print("%s: %d failed check(s)" % ("FAIL" if failures else "PASS", len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
