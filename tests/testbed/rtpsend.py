#!/usr/bin/python3
"""GStreamer RTP video sender for the testbed (PyGObject).

Builds one pipeline with --streams branches (port, port+1, ...), each
    video source ! payloader ! [rtpburstpace] ! udpsink sync=false
The H.264 source is either videotestsrc (--source testsrc: a test pattern, small frames and
small keyframes) or --source pan: a camera pan over a detailed, natural-looking texture with a
moving patch of fresh detail (appsrc, generated with numpy), which x264enc turns into VBR video
with keyframes several times larger than the other frames (at 4 Mbit/s, keyframe every 25
frames, 640x360: keyframes of 48-82 x 1200 B, other frames 14-22 x 1200 B).
Logs every RTP packet twice with CLOCK_MONOTONIC: when the payloader pushes it ("ready") and
when it reaches udpsink's sink pad ("sent").  Prints "ready" once the pipeline is built, starts
on a line on stdin (or at once with --now), runs --duration seconds, ends the stream with EOS
(every packet logged as sent is then sent before the pipeline stops), then writes the log as
CSV (stream,seq,ts,marker,size,ready_ns,send_ns) and, for paced streams, the element's "stats".
"""
import argparse
import json
import struct
import sys
import time

import gi
import numpy as np

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


class PanSource:
    """Frames of a camera pan over a fixed texture (sum of 6 octaves of block noise, roughly
    1/f like natural images), 5 px per frame sideways and a slow vertical sway, with a patch of
    30 % x 30 % of the picture that moves around and carries fresh noise in every frame.  The
    pan is predictable from the previous frame (small P-frames); a keyframe must code the whole
    texture.  Pushed into `appsrc name=gen<k>` with timestamps n / fps; a clocksync after the
    appsrc releases each frame at its time.  Deterministic for a given seed."""

    def __init__(self, appsrc, width, height, fps, seed, pan=5, patch=0.3, octaves=6):
        self.src, self.w, self.h, self.fps, self.pan, self.n = appsrc, width, height, fps, pan, 0
        self.rng = np.random.default_rng(seed)
        tw, th = width * 3, height * 2
        tex = np.zeros((th, tw))
        for o in range(octaves):
            s = 2 ** o
            noise = self.rng.standard_normal((th // s + 2, tw // s + 2))
            tex += np.kron(noise, np.ones((s, s)))[:th, :tw] * s ** 0.7
        self.tex = ((tex - tex.min()) / (tex.max() - tex.min()) * 235 + 10).astype(np.uint8)
        self.pw, self.ph = int(width * patch), int(height * patch)
        self.chroma = np.full(width * height // 2, 128, np.uint8).tobytes()
        appsrc.connect("need-data", self.need_data)

    def need_data(self, src, _length):
        n, w, h = self.n, self.w, self.h
        x = (n * self.pan) % (self.tex.shape[1] - w)
        y = int((self.tex.shape[0] - h) / 2 * (1 + 0.5 * np.sin(n / 40)))
        f = self.tex[y:y + h, x:x + w].copy()
        px = int((w - self.pw) * (0.5 + 0.5 * np.sin(n / 15)))
        py = int((h - self.ph) * (0.5 + 0.5 * np.cos(n / 23)))
        f[py:py + self.ph, px:px + self.pw] = self.rng.integers(10, 245, (self.ph, self.pw),
                                                                dtype=np.uint8)
        buf = Gst.Buffer.new_wrapped(f.tobytes() + self.chroma)
        buf.pts = n * Gst.SECOND // self.fps
        buf.duration = Gst.SECOND // self.fps
        self.n += 1
        src.emit("push-buffer", buf)


def branch(k, a):
    """gst-launch description of stream k."""
    if a.codec == "raw":
        src = ("videotestsrc is-live=true ! video/x-raw,format=UYVY,width=%d,height=%d,"
               "framerate=%d/1 ! rtpvrawpay name=pay%d mtu=%d" % (a.width, a.height, a.fps, k, a.mtu))
    else:
        if a.source == "pan":
            src = ("appsrc name=gen%d is-live=true format=time max-buffers=2 block=false "
                   "caps=video/x-raw,format=I420,width=%d,height=%d,framerate=%d/1 ! clocksync"
                   % (k, a.width, a.height, a.fps))
        else:
            src = ("videotestsrc is-live=true pattern=%s horizontal-speed=%d ! "
                   "video/x-raw,width=%d,height=%d,framerate=%d/1"
                   % (a.pattern, a.speed, a.width, a.height, a.fps))
        src += (" ! x264enc tune=zerolatency speed-preset=ultrafast bitrate=%d key-int-max=%d ! "
                "rtph264pay name=pay%d mtu=%d config-interval=-1"
                % (a.kbps, a.keyint, k, a.mtu))
    pace = ""
    if a.mode == "paced":
        duty = float(a.duties.split(",")[k]) if a.duties else a.duty
        pace = (" ! rtpburstpace name=pace%d burst-size=%d duty=%g slot-jitter=%g seed=%d"
                % (k, a.burst_size, duty, a.slot_jitter, a.seed + k))
        pace += "".join(" %s" % p for p in a.element_prop)
    return "%s%s ! udpsink name=sink%d host=%s port=%d sync=false" % (
        src, pace, k, a.host, a.port + k)


def rtp_header(buf):
    seq, ts = struct.unpack("!HI", buf.extract_dup(2, 6))
    return seq, ts, buf.extract_dup(1, 1)[0] >> 7, buf.get_size()


#: How long the stream may take to end after EOS was sent to its sources.
EOS_TIMEOUT_MS = 5000


def add_probe(pad, k, log):
    def probe(_pad, info):
        now = time.monotonic_ns()
        if info.type & Gst.PadProbeType.BUFFER_LIST:
            bl = info.get_buffer_list()
            bufs = [bl.get(i) for i in range(bl.length())]
        else:
            bufs = [info.get_buffer()]
        for b in bufs:
            log.append((k, now) + rtp_header(b))
        return Gst.PadProbeReturn.OK

    pad.add_probe(Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, probe)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", required=True)
    ap.add_argument("--port", type=int, default=5000)
    ap.add_argument("--streams", type=int, default=1)
    ap.add_argument("--codec", choices=["raw", "h264"], default="raw")
    ap.add_argument("--mode", choices=["bursty", "paced"], default="bursty")
    ap.add_argument("--width", type=int, default=160)
    ap.add_argument("--height", type=int, default=96)
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--mtu", type=int, default=1028, help="payloader mtu (RTP packet size)")
    ap.add_argument("--kbps", type=int, default=2000, help="x264enc bitrate")
    ap.add_argument("--keyint", type=int, default=50, help="x264enc key-int-max")
    ap.add_argument("--source", choices=["testsrc", "pan"], default="testsrc",
                    help="h264 source: videotestsrc, or the PanSource texture pan")
    ap.add_argument("--pattern", default="smpte")
    ap.add_argument("--speed", type=int, default=2, help="videotestsrc horizontal-speed (h264)")
    ap.add_argument("--burst-size", type=int, default=1)
    ap.add_argument("--duty", type=float, default=0.9)
    ap.add_argument("--duties", help="a duty per stream, comma-separated (overrides --duty)")
    ap.add_argument("--slot-jitter", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--element-prop", action="append", default=[],
                    help="extra rtpburstpace property, e.g. frame-period=40000000")
    ap.add_argument("--duration", type=float, default=15.0)
    ap.add_argument("--now", action="store_true", help="do not wait for a line on stdin")
    ap.add_argument("--log", required=True)
    ap.add_argument("--stats", help="write the rtpburstpace stats here (JSON)")
    a = ap.parse_args()

    Gst.init(None)
    desc = "  ".join(branch(k, a) for k in range(a.streams))
    print("pipeline:", desc, file=sys.stderr)
    pipeline = Gst.parse_launch(desc)
    ready, sent = [], []
    # (kept referenced for the pipeline's lifetime: need-data calls into them)
    gens = [PanSource(pipeline.get_by_name("gen%d" % k), a.width, a.height, a.fps, a.seed + k)
            for k in range(a.streams) if a.codec == "h264" and a.source == "pan"]
    for k in range(a.streams):
        add_probe(pipeline.get_by_name("pay%d" % k).get_static_pad("src"), k, ready)
        add_probe(pipeline.get_by_name("sink%d" % k).get_static_pad("sink"), k, sent)

    loop = GLib.MainLoop()
    rc = 0

    def on_message(_bus, msg):
        nonlocal rc
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("error: %s (%s)" % (err.message, dbg), file=sys.stderr)
            rc = 1
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)

    print("ready", flush=True)
    if not a.now:
        sys.stdin.readline()
    pipeline.set_state(Gst.State.PLAYING)

    def stop():
        # EOS at the sources: every packet logged at a udpsink is then sent before the
        # pipeline stops (stopping it mid-stream could flush a packet already logged as sent)
        pipeline.send_event(Gst.Event.new_eos())
        GLib.timeout_add(EOS_TIMEOUT_MS, on_eos_timeout)
        return False

    def on_eos_timeout():
        nonlocal rc
        print("error: no EOS %d ms after the end of the run" % EOS_TIMEOUT_MS, file=sys.stderr)
        rc = 1
        loop.quit()
        return False

    GLib.timeout_add(int(a.duration * 1000), stop)
    loop.run()

    stats = {}
    if a.mode == "paced":
        for k in range(a.streams):
            st = pipeline.get_by_name("pace%d" % k).get_property("stats")
            stats[k] = st.to_string() if st else None
    pipeline.set_state(Gst.State.NULL)

    # Join "ready" and "sent" records by (stream, seq) in order, tolerating 16-bit wrap.
    first_ready = {}
    for k, t, seq, *_ in ready:
        first_ready.setdefault((k, seq), []).append(t)
    with open(a.log, "w") as f:
        f.write("stream,seq,ts,marker,size,ready_ns,send_ns\n")
        for k, t, seq, ts, m, size in sent:
            q = first_ready.get((k, seq))
            r = q.pop(0) if q else t
            f.write("%d,%d,%d,%d,%d,%d,%d\n" % (k, seq, ts, m, size, r, t))
    if a.stats:
        with open(a.stats, "w") as f:
            json.dump(stats, f, indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
