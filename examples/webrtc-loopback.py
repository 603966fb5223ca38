#!/usr/bin/python3
"""rtpburstpace with webrtcbin: two webrtcbins in one process, connected locally.

The sender pipeline

    videotestsrc is-live=true ! x264enc tune=zerolatency ! rtph264pay ! [rtpburstpace !] webrtcbin

and a receiver pipeline (webrtcbin ! rtph264depay ! avdec_h264 ! fakesink)
exchange offer, answer and ICE candidates in-process; the media goes over
loopback through libnice, DTLS and SRTP.  Prints how many frames were
decoded, and how the packets of a frame left the sender's nicesink (SRTP keeps
the RTP header in the clear: packets are grouped by RTP timestamp).

--placement says where rtpburstpace goes:

  input  between the payloader and webrtcbin's sink pad (the default).
         webrtcbin (1.22) puts a clocksync sync=true behind each sink pad,
         which holds every buffer until running-time(DTS, else PTS) + the
         upstream latency; rtpburstpace sees its first frame held that way
         and from then on gives each packet a DTS that this clocksync
         releases at the packet's slot (stats: sink-latency, held-slots).
  aux    inside webrtcbin, from its request-aux-sender signal: after the
         clocksync and the RTX sender, before rtpbin's session and
         DTLS/SRTP; the nicesink after it has sync=false.  The caps there
         are plain application/x-rtp, so frame-period is set (40 ms).
  none   no element.

--congestion-control gcc (or tfrc): the element runs that congestion
control on the receiver's transport-wide congestion control feedback and
the encoder follows its estimate.  The payloader sends the transport-wide-cc
header extension (caps with extmap-1 after it, which its
auto-header-extension reads); webrtcbin offers it (a=extmap and
a=rtcp-fb transport-cc, from those caps).  The receiving webrtcbin answers
with the extension only if its own transceiver asks for it, as a browser's
does: here a recvonly transceiver whose codec preferences carry the same
extmap-1.  Its rtpbin then sends the feedback, and the sender's rtpbin
passes it upstream out of webrtcbin's sink pad to the element.  The element
does not set the encoder's rate itself; the application connects to its
notify::estimated-bitrate (ratecontrol.EncoderFollower: x264enc's bitrate at
85 % of the estimate, never above the configured 2000 kbit/s).  With
--check, the encoder must have followed the estimate: at least one change,
each 85 % of the estimate notified.

--rtcp-check sets the internal rtpbin's ntp-time-source=running-time (the
SRs then carry pipeline running time instead of wall-clock NTP, so do not use
it for a real peer), lowers the RTCP interval and prints the median of
NTP - RTP time over the sender reports, read before SRTP encryption.

Exit codes: 0 when at least one second's worth of frames was decoded (and,
with --check, a frame's packets left the nicesink spread over at least
0.8 x 0.85 x 0.9*dT*(n-1)/n, median over the frames), 1 on an error or too
few frames, 77 when PyGObject, webrtcbin, libnice's GStreamer
plugin (gstreamer1.0-nice) or rtpburstpace is missing.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/webrtc-loopback.py \\
        [--placement input|aux|none] [--seconds 6] [--pace PROPS] [--rtcp-check] \\
        [--congestion-control none|gcc|tfrc]
"""
import argparse
import os
import statistics
import struct
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import ratecontrol  # noqa: E402

SKIP = 77
FRAMERATE = 25
CLOCK_RATE = 90000
TS_OFFSET = 0x10000000
SSRC = 0x5EED0001
ENCODER_KBPS = 2000
MEDIA_CAPS = "application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000"

if not os.environ.get("GST_PLUGIN_PATH"):
    os.environ["GST_PLUGIN_PATH"] = os.path.normpath(os.path.join(HERE, "..", "build", "gst"))

try:
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstWebRTC", "1.0")
    gi.require_version("GstSdp", "1.0")
    from gi.repository import GLib, Gst, GstWebRTC  # noqa: E402
except (ImportError, ValueError) as e:
    print("SKIP: %s (Debian's /usr/bin/python3 with python3-gi, python3-gst-1.0 and "
          "gir1.2-gst-plugins-bad-1.0)" % e)
    sys.exit(SKIP)


def rtp_header(buf):
    """(payload type, RTP timestamp, SSRC) of an RTP or SRTP buffer, else None."""
    ok, info = buf.map(Gst.MapFlags.READ)
    if not ok:
        return None
    try:
        data = bytes(info.data[:12])
    finally:
        buf.unmap(info)
    # RTCP (mux) has payload types 200-207 in the second byte
    if len(data) < 12 or data[0] >> 6 != 2 or 200 <= data[1] <= 207:
        return None
    ts, ssrc = struct.unpack_from("!II", data, 4)
    return data[1] & 0x7F, ts, ssrc


def sender_reports(buf):
    """[(ssrc, ntp ns, rtptime)] of the SRs in an RTCP compound buffer."""
    ok, info = buf.map(Gst.MapFlags.READ)
    if not ok:
        return []
    try:
        data = bytes(info.data)
    finally:
        buf.unmap(info)
    out, pos = [], 0
    while pos + 4 <= len(data):
        first, pt, length = struct.unpack_from("!BBH", data, pos)
        size = (length + 1) * 4
        if first >> 6 != 2 or pos + size > len(data):
            break
        if pt == 200 and size >= 28:
            ssrc, sec, frac, rtptime = struct.unpack_from("!IIII", data, pos + 4)
            out.append((ssrc, sec * 1_000_000_000 + ((frac * 1_000_000_000) >> 32), rtptime))
        pos += size
    return out


class Loopback:
    def __init__(self, args):
        self.args = args
        self.loop = GLib.MainLoop()
        self.lock = threading.Lock()
        self.errors = []
        self.decoded = 0
        self.departures = []     # (clock ns, rtptime) at the sender's nicesink
        self.srs = []
        self.nicesink = None
        self.follower = None

        cc = args.congestion_control != "none"
        pace_props = args.pace + (" congestion-control=" + args.congestion_control if cc else "")
        pace = "rtpburstpace name=pace %s ! " % pace_props if args.placement == "input" else ""
        self.send_pipe = Gst.parse_launch(
            "videotestsrc is-live=true pattern=smpte ! "
            "video/x-raw,width=640,height=360,framerate=%d/1 ! "
            "x264enc name=enc tune=zerolatency speed-preset=ultrafast bitrate=%d "
            "key-int-max=25 ! rtph264pay mtu=1200 config-interval=-1 pt=96 ssrc=%d "
            "timestamp-offset=%d ! %s%s%s ! webrtcbin name=send bundle-policy=max-bundle"
            % (FRAMERATE, ENCODER_KBPS, SSRC, TS_OFFSET, pace, MEDIA_CAPS,
               ",extmap-%d=(string)%s" % (ratecontrol.TWCC_EXT_ID, ratecontrol.TWCC_URI)
               if cc else ""))
        self.send = self.send_pipe.get_by_name("send")
        if cc and args.placement == "input":
            self.follow(self.send_pipe.get_by_name("pace"))
        # two pipelines: in one, the receiver's jitterbuffer latency would be
        # the sender's latency too
        self.recv_pipe = Gst.Pipeline.new("receiver")
        self.recv = Gst.ElementFactory.make("webrtcbin", "recv")
        self.recv.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        self.recv_pipe.add(self.recv)
        if cc:
            # the receiver's own transceiver asks for the extension, so its answer has it
            self.recv.emit("add-transceiver", GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY,
                           Gst.Caps.from_string("%s,extmap-%d=(string)%s" % (
                               MEDIA_CAPS, ratecontrol.TWCC_EXT_ID, ratecontrol.TWCC_URI)))

        self.send.connect("on-negotiation-needed", self.on_negotiation_needed)
        self.send.connect("on-ice-candidate",
                          lambda _e, mline, cand: self.recv.emit("add-ice-candidate", mline, cand))
        self.recv.connect("on-ice-candidate",
                          lambda _e, mline, cand: self.send.emit("add-ice-candidate", mline, cand))
        self.recv.connect("pad-added", self.on_recv_pad)
        if args.placement == "aux":
            self.send.connect("request-aux-sender", self.on_request_aux_sender)
        self.send_pipe.connect("deep-element-added", self.on_element_added)
        if args.rtcp_check:
            rtpbin = self.send.get_by_name("rtpbin")
            rtpbin.set_property("ntp-time-source", "running-time")
            rtpbin.connect("pad-added", self.on_rtpbin_pad)
        for pipe in (self.send_pipe, self.recv_pipe):
            bus = pipe.get_bus()
            bus.add_signal_watch()
            bus.connect("message", self.on_message, pipe)

    # -- signalling, all in this process --
    def on_negotiation_needed(self, element):
        element.emit("create-offer", None,
                     Gst.Promise.new_with_change_func(self.on_offer_created, None))

    def on_offer_created(self, promise, _data):
        # keep the reply in a variable: promise.get_reply().get_value(...) in
        # one expression crashed PyGObject 3.42 / gst-python 1.22 here
        reply = promise.get_reply()
        offer = reply.get_value("offer")
        self.send.emit("set-local-description", offer, None)
        self.recv.emit("set-remote-description", offer, None)
        self.recv.emit("create-answer", None,
                       Gst.Promise.new_with_change_func(self.on_answer_created, None))

    def on_answer_created(self, promise, _data):
        reply = promise.get_reply()
        answer = reply.get_value("answer")
        self.recv.emit("set-local-description", answer, None)
        self.send.emit("set-remote-description", answer, None)

    def on_request_aux_sender(self, _webrtc, _dtls_transport):
        # The caps here are plain application/x-rtp (no a-framerate, no
        # clock-rate): give the frame period, or the element estimates it
        # from the arrival spacing and leaves the first frames unpaced.
        props = self.args.pace
        if "frame-period" not in props:
            props += " frame-period=%d" % (1_000_000_000 // FRAMERATE)
        if self.args.congestion_control != "none":
            props += " congestion-control=" + self.args.congestion_control
        aux = Gst.parse_bin_from_description("rtpburstpace name=pace %s" % props, True)
        if self.args.congestion_control != "none":
            self.follow(aux.get_by_name("pace"))
        return aux

    def follow(self, pace):
        """x264enc follows the element's estimate (ratecontrol.EncoderFollower)."""
        self.follower = ratecontrol.EncoderFollower(pace, self.send_pipe.get_by_name("enc"))

    # -- receiver --
    def on_recv_pad(self, _element, pad):
        if pad.direction != Gst.PadDirection.SRC:
            return
        dec = Gst.parse_bin_from_description(
            "rtph264depay ! avdec_h264 ! fakesink name=out", True)
        self.recv_pipe.add(dec)
        dec.sync_state_with_parent()
        pad.link(dec.get_static_pad("sink"))
        dec.get_by_name("out").get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, self.on_decoded)

    def on_decoded(self, _pad, _info):
        with self.lock:
            self.decoded += 1
        return Gst.PadProbeReturn.OK

    # -- sender-side measurements --
    def on_element_added(self, _pipe, _bin, element):
        factory = element.get_factory()
        if factory is not None and factory.get_name() == "nicesink" and self.nicesink is None:
            self.nicesink = element
            element.get_static_pad("sink").add_probe(
                Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, self.on_departure)

    def on_departure(self, _pad, info):
        clock = self.nicesink.get_clock()
        now = clock.get_time() if clock is not None else 0
        if info.type & Gst.PadProbeType.BUFFER_LIST:
            bufs = [info.get_buffer_list().get(i) for i in range(info.get_buffer_list().length())]
        else:
            bufs = [info.get_buffer()]
        for buf in bufs:
            h = rtp_header(buf)
            if h is not None and h[0] == 96 and h[2] == SSRC:
                with self.lock:
                    self.departures.append((now, h[1]))
        return Gst.PadProbeReturn.OK

    def on_rtpbin_pad(self, rtpbin, pad):
        if pad.get_name().startswith("send_rtcp_src_"):
            session = rtpbin.emit("get-session", int(pad.get_name().rsplit("_", 1)[1]))
            if session is not None:
                session.set_property("rtcp-min-interval", 500_000_000)
            pad.add_probe(Gst.PadProbeType.BUFFER, self.on_rtcp)

    def on_rtcp(self, _pad, info):
        for ssrc, ntp_ns, rtptime in sender_reports(info.get_buffer()):
            if ssrc == SSRC:
                with self.lock:
                    self.srs.append((ntp_ns, rtptime))
        return Gst.PadProbeReturn.OK

    def on_message(self, _bus, msg, pipe):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            self.errors.append("%s: %s (%s)" % (pipe.get_name(), err.message, dbg))
            self.loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, _dbg = msg.parse_warning()
            print("warning from %s: %s" % (msg.src.get_name(), err.message), file=sys.stderr)
        elif msg.type == Gst.MessageType.LATENCY:
            pipe.recalculate_latency()

    def run(self):
        self.recv_pipe.set_state(Gst.State.PLAYING)
        if self.send_pipe.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            self.errors.append("the sender pipeline did not start")
            return
        GLib.timeout_add(int(self.args.seconds * 1000), self.loop.quit)
        self.loop.run()
        self.ice_state = self.send.get_property("ice-connection-state")
        self.pace_stats = None
        pace = self.follower.pace if self.follower else self.send_pipe.get_by_name("pace")
        if pace is not None:
            self.pace_stats = pace.get_property("stats")
        self.send_pipe.set_state(Gst.State.NULL)
        self.recv_pipe.set_state(Gst.State.NULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--placement", choices=("input", "aux", "none"), default="input")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless the packets of a frame left the nicesink spread "
                         "(tests/senders/meson.build)")
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--pace", default="", metavar="PROPS",
                    help="extra rtpburstpace properties, e.g. 'duty=0.8'")
    ap.add_argument("--rtcp-check", action="store_true",
                    help="NTP = running time in the SRs; print their NTP - RTP offset")
    ap.add_argument("--congestion-control", choices=("none", "gcc", "tfrc"), default="none",
                    help="the element's congestion control on TWCC feedback, x264enc "
                         "following its estimate (default: none)")
    args = ap.parse_args()
    if args.congestion_control != "none" and args.placement == "none":
        ap.error("--congestion-control needs the element (--placement input or aux)")

    Gst.init(None)
    need = ["webrtcbin", "nicesink", "nicesrc", "videotestsrc", "x264enc", "rtph264pay",
            "rtph264depay", "avdec_h264"]
    if args.placement != "none":
        need.append("rtpburstpace")
    missing = [f for f in need if Gst.ElementFactory.find(f) is None]
    if missing:
        print("SKIP: GStreamer elements missing: %s (nicesink/nicesrc: gstreamer1.0-nice; "
              "rtpburstpace: GST_PLUGIN_PATH=%s)" % (" ".join(missing),
                                                    os.environ.get("GST_PLUGIN_PATH")))
        return SKIP

    lb = Loopback(args)
    lb.run()
    expected = int(args.seconds * FRAMERATE)
    print("placement %s: %d frames decoded by the receiving webrtcbin in %.0f s (%d sent at "
          "most); ICE %s" % (args.placement, lb.decoded, args.seconds, expected,
                             lb.ice_state.value_nick))
    frames = {}
    for t, ts in lb.departures:
        frames.setdefault(ts, []).append(t)
    spans = sorted((max(v) - min(v)) / 1e6 for v in frames.values() if len(v) > 1)
    if spans:
        print("at the sender's nicesink (sync=%s): %d frames, %.0f packets/frame, a frame's "
              "packets left over %.2f ms (median), %.2f ms (90th percentile)"
              % (lb.nicesink.get_property("sync"), len(frames),
                 statistics.median(len(v) for v in frames.values()),
                 statistics.median(spans), spans[int(0.9 * (len(spans) - 1))]))
    if lb.pace_stats is not None:
        s = lb.pace_stats
        print("rtpburstpace: %d frames, %d packets, frame period %.1f ms (%s), slot %.3f ms, "
              "late slots %d" % (s.get_value("frames"), s.get_value("packets"),
                                 s.get_value("frame-period") / 1e6,
                                 s.get_value("frame-period-source"),
                                 s.get_value("slot-duration") / 1e6, s.get_value("late-slots")))
    if args.rtcp_check:
        offsets = [ntp - ((rtp - TS_OFFSET) & 0xFFFFFFFF) * 1e9 / CLOCK_RATE
                   for ntp, rtp in lb.srs]
        if offsets:
            print("RTCP SR: %d reports, NTP - RTP time %.3f ms (median), spread %.3f ms"
                  % (len(offsets), statistics.median(offsets) / 1e6,
                     (max(offsets) - min(offsets)) / 1e6))
        else:
            print("RTCP SR: none seen")
    followed = True
    if lb.follower is not None:
        with lb.follower.lock:
            history = list(lb.follower.history)
        wrong = [h for h in history
                 if h[2] != ratecontrol.encoder_rate(h[1], ENCODER_KBPS)]
        stats = lb.pace_stats
        print("congestion control %s: %d feedback reports, estimate %d bit/s; x264enc's "
              "bitrate set %d times from it, first %s, last %s, now %d kbit/s" % (
                  args.congestion_control, stats.get_value("cc-feedback-reports"),
                  stats.get_value("estimated-bitrate"), len(history), history[:1],
                  history[-1:], lb.follower.encoder.get_property("bitrate")))
        followed = (len(history) >= 1 and not wrong and
                    lb.follower.encoder.get_property("bitrate") == history[-1][2])
        if args.check:
            print("%s x264enc's bitrate followed the estimate: %d changes, each 85 %% of it "
                  "(%s), the last in force" % ("PASS" if followed else "FAIL", len(history),
                                               wrong[:3] or "yes"))
    for e in lb.errors:
        print("error: %s" % e)
    ok = not lb.errors and lb.decoded >= FRAMERATE
    if args.check and args.placement != "none":
        # a frame's n packets left over at least 0.8 x 0.85 of 0.9 x dT x (n-1)/n
        period_ms = 1000.0 / FRAMERATE
        ratios = [(max(v) - min(v)) / 1e6 / (0.9 * period_ms * (len(v) - 1) / len(v))
                  for v in frames.values() if len(v) > 1]
        median = statistics.median(ratios) if ratios else 0.0
        paced = median >= 0.8 * 0.85
        print("%s median frame spread / (0.9*dT*(n-1)/n) at the nicesink: %.3f (>= 0.68)"
              % ("PASS" if paced else "FAIL", median))
        ok = ok and paced and followed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
