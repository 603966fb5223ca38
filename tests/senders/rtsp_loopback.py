#!/usr/bin/python3
"""Pacing through gst-rtsp-server, to a real rtspsrc client (loopback).

Starts examples/rtsp-server.py's server (a real GstRTSPServer, the media's
launch line ending in `rtph264pay pt=96 ! rtpburstpace name=pay0`) on a free
port and, in the same process, a client:

    rtspsrc protocols=udp ! rtph264depay ! h264parse
        ! avdec_h264 output-corrupt=false ! fakesink

It records when each RTP packet reaches the client's UDP socket (a probe on
rtspsrc's udpsrc) and counts the frames the decoder outputs.  Passes when the
client decoded frames, no packet was lost, and a frame's packets reached the
client spread over at least 0.8 x 0.85 x 0.9*dT*(n-1)/n (median over the
frames of n >= 2 packets of the ratio of the spread to 0.9*dT*(n-1)/n).

Then a second server with --congestion-control gcc (the payloader sending
the transport-wide-cc header extension, the element running GCC on the
client's feedback) and a client for CC_SECONDS: rtspsrc sends TWCC feedback
from the SDP's a=extmap, the element got reports, and in the factory's
media-configure the example made x264enc follow the estimate: at least one
change of its bitrate, each 85 % of the estimate notified
(ratecontrol.encoder_rate), the encoder's bitrate at the end the last one.

Run with G_DEBUG=fatal-warnings (tests/meson.build does): a GLib warning or
critical, such as a property the server looks for on pay0 and does not find,
aborts the test.  Exit 0 pass, 1 fail, 77 when a needed plugin or binding is
missing.
"""
import importlib.util
import os
import statistics
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

try:
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import GLib, Gst  # noqa: F401
except (ImportError, ValueError) as e:
    print("skipped: %s (Debian: python3-gi, gir1.2-gst-rtsp-server-1.0)" % e)
    sys.exit(77)

SECONDS = 8.0
CC_SECONDS = 5.0        # rtspsrc sends its first RTCP, and feedback, ~2 s in
PERIOD_MS = 40.0
DUTY = 0.9
SKIP_FRAMES = 10        # the stream starts up


def load_example():
    spec = importlib.util.spec_from_file_location(
        "rtsp_server", os.path.join(ROOT, "examples", "rtsp-server.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Client:
    """rtspsrc -> decoder; packet arrivals and decoded frames."""

    def __init__(self, url):
        self.pipeline = Gst.parse_launch(
            "rtspsrc name=src location=%s protocols=udp latency=200 ! "
            "rtph264depay ! h264parse ! avdec_h264 output-corrupt=false ! "
            "fakesink name=sink sync=false signal-handoffs=true" % url)
        self.arrivals = []          # (ns, seq, rtptime)
        self.frames = 0
        self.pipeline.get_by_name("sink").connect("handoff", self.on_frame)
        watch_rtp(self.pipeline, self.on_rtp)

    def on_frame(self, *_args):
        self.frames += 1

    def on_rtp(self, now, pt, seq, rtptime):
        if pt == 96:
            self.arrivals.append((now, seq, rtptime))


def watch_rtp(pipeline, on_rtp, with_size=False):
    """Calls on_rtp(ns, payload type, seq, rtptime) for every RTP packet
    that reaches one of rtspsrc's UDP sockets in @pipeline, as it arrives
    (RTCP, on the other sockets, is passed over); with @with_size also the
    packet's size in bytes."""
    def on_packet(_pad, info):
        now = time.monotonic_ns()
        buf = info.get_buffer()
        ok, m = buf.map(Gst.MapFlags.READ)
        if ok:
            data = bytes(m.data[:12])
            buf.unmap(m)
            # RTCP's packet types 200-204 read as payload types 72-76
            if len(data) == 12 and data[0] >> 6 == 2 and not 72 <= data[1] & 0x7f <= 76:
                seq, rtptime = struct.unpack_from("!HI", data, 2)
                if with_size:
                    on_rtp(now, data[1] & 0x7f, seq, rtptime, buf.get_size())
                else:
                    on_rtp(now, data[1] & 0x7f, seq, rtptime)
        return Gst.PadProbeReturn.OK

    def on_element(_bin, _sub, element):
        factory = element.get_factory()
        if factory and factory.get_name() == "udpsrc":
            element.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_packet)

    pipeline.connect("deep-element-added", on_element)


def analyse(arrivals):
    frames = []
    for t, _seq, ts in arrivals:
        if frames and frames[-1][0] == ts:
            frames[-1][1].append(t)
        else:
            frames.append((ts, [t]))
    frames = frames[SKIP_FRAMES:-1]
    ratios = [(a[-1] - a[0]) / 1e6 / (DUTY * PERIOD_MS * (len(a) - 1) / len(a))
              for _ts, a in frames if len(a) >= 2]
    seqs = [s for _t, s, _ts in arrivals]
    lost = sum((b - a - 1) % 65536 for a, b in zip(seqs, seqs[1:]))
    sizes = [len(a) for _ts, a in frames]
    return ratios, lost, sizes


def run_client(pipeline, seconds, before_stop=None):
    """Plays @pipeline for @seconds (the server answers from the same main
    loop), calls before_stop() if given, stops it; the error messages its
    bus posted."""
    loop = GLib.MainLoop()
    errors = []

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            errors.append("%s: %s" % msg.parse_error())
            loop.quit()
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    loop.run()
    if before_stop is not None:
        before_stop()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()
    return errors


def start_server(streams=1, audio=False, group_max_rate=0, **kwargs):
    """Gst.init (), then the server of examples/rtsp-server.py with @streams
    paced streams (and an Opus stream with @audio) on a free port, its
    launch line printed.  Returns (server, factory, url), or None, printed
    why, when an element the client tests need is missing."""
    Gst.init(None)
    needed = ["rtpburstpace", "x264enc", "avdec_h264", "rtspsrc"]
    if audio:
        needed += ["opusenc", "rtpopuspay", "rtpopusdepay"]
    for name in needed:
        if Gst.ElementFactory.find(name) is None:
            print("skipped: no %s" % name)
            return None
    example = load_example()
    server, factory = example.make_server(0, "/video", streams=streams, audio=audio,
                                          group_max_rate=group_max_rate, **kwargs)
    url = "rtsp://127.0.0.1:%d/video" % server.get_bound_port()
    print("server: %s\n  %s" % (url, example.launch_line(
        example.DEFAULT_SOURCE, "", streams, audio, group_max_rate,
        congestion_control=kwargs.get("congestion_control", "none"))))
    return server, factory, url


def main():
    started = start_server()
    if started is None:
        return 77
    _server, _factory, url = started

    client = Client(url)
    errors = run_client(client.pipeline, SECONDS)
    if errors:
        print("FAIL: client error: %s" % errors[0])
        return 1

    ratios, lost, sizes = analyse(client.arrivals)
    if not ratios:
        print("FAIL: no multi-packet frames reached the client (%d packets)"
              % len(client.arrivals))
        return 1
    median = statistics.median(ratios)
    print("client: %d packets, %d frames of median %d packets (%d..%d), %d lost; "
          "%d frames decoded intact" % (
              len(client.arrivals), len(sizes), statistics.median(sizes),
              min(sizes), max(sizes), lost, client.frames))
    print("spread / (0.9*dT*(n-1)/n): median %.3f (p10 %.3f)" % (
        median, sorted(ratios)[len(ratios) // 10]))
    bound = 0.8 * 0.85
    checks = [("frames decoded %d > 0" % client.frames, client.frames > 0),
              ("packets lost %d == 0" % lost, lost == 0),
              ("median spread ratio %.3f >= %.2f" % (median, bound), median >= bound)]
    checks += congestion_control()
    for text, ok in checks:
        print("%s %s" % ("PASS" if ok else "FAIL", text))
    return 0 if all(ok for _t, ok in checks) else 1


def congestion_control():
    """The server with --congestion-control gcc and a client: [(text, ok)]."""
    followers = []
    started = start_server(congestion_control="gcc", followers=followers)
    _server, _factory, url = started
    client = Client(url)
    errors = run_client(client.pipeline, CC_SECONDS)
    import ratecontrol      # (examples/, on the path since load_example)
    checks = [("congestion control: no client error (%s)" % errors[:1], not errors),
              ("congestion control: media-configure made %d follower (1)" % len(followers),
               len(followers) == 1)]
    if len(followers) != 1:
        return checks
    f = followers[0]
    with f.lock:
        history = list(f.history)
    stats = f.pace.get_property("stats")
    print("congestion control: %d frames decoded, %d feedback reports, estimate %d bit/s; "
          "%d changes of x264enc's bitrate, first %s, last %s" % (
              client.frames, stats.get_value("cc-feedback-reports"),
              stats.get_value("estimated-bitrate"), len(history), history[:1], history[-1:]))
    wrong = [h for h in history if h[2] != ratecontrol.encoder_rate(h[1], 4000)]
    checks += [
        ("congestion control: frames decoded %d > 0" % client.frames, client.frames > 0),
        ("congestion control: the element got %d feedback reports"
         % stats.get_value("cc-feedback-reports"), stats.get_value("cc-feedback-reports") > 0),
        ("congestion control: x264enc's bitrate followed the estimate %d times" % len(history),
         len(history) >= 1),
        ("congestion control: each is 85 %% of the estimate: %s" % (wrong[:3] or "yes"),
         not wrong),
        ("congestion control: x264enc ended at the last, %d kbit/s"
         % f.encoder.get_property("bitrate"),
         bool(history) and f.encoder.get_property("bitrate") == history[-1][2]),
    ]
    return checks


if __name__ == "__main__":
    sys.exit(main())
