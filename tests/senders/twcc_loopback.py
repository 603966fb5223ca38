#!/usr/bin/python3
"""Congestion control on the feedback a real rtpbin sends, on loopback.

A sender as users build it (videotestsrc ! x264enc at a set bit rate, the
picture noise so that the encoder uses the rate it is given !
rtph264pay, the transport-wide congestion control header extension asked
for in the caps after the payloader as `extmap-1`, which GStreamer 1.22's
payloader answers with rtphdrexttwcc ! rtpburstpace congestion-control=X !
rtpbin ! udpsink with its defaults), and a receiving rtpbin whose udpsrc
caps carry the same `extmap-1`, so that its rtpsession sends TWCC
feedback; RTCP both ways.  The receiver's rtpbin has rtp-profile=avpf: it
then sends the first report within a frame or two and one with each frame
(with the default avp, the first came after 1.3 to 3 s, and later ones ten
frames' worth at a time, with its RTCP).  The sending rtpsession turns each report into
the upstream RTPTWCCPackets event the element reads.

With gcc and with tfrc, from the element's stats after 3 s and at the end
(8 s): reports came (cc-feedback-reports > 0) and kept coming, none was
unreadable (cc-invalid-feedback 0), a round trip was measured (cc-rtt,
under 100 ms on loopback), packets reached the receiver, and every
estimate the element notified lay within [min-bitrate, max-bitrate].  On an
unconstrained loopback gcc's estimate never falls below start-bitrate (it
increases or holds); tfrc's never falls below what the video needs: the
rate the element sent over the last 5 s.

A receiver whose caps lack the extension sends no TWCC: the element posts
one warning (a GST_MESSAGE_WARNING from it, 5 s after the first push),
no error, keeps pacing (packets still reach the receiver after the
warning), and no estimate is set.

Exit 0 when all pass, 1 when one fails, 77 when PyGObject or an element
is missing.
"""
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402  (skips without the bindings; default plugin path)
from gstbindings import Gst  # noqa: E402

TWCC_URI = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
ENCODER_KBPS = 1500
MIN_BITRATE = 200000
MAX_BITRATE = 20000000
START_BITRATE = 2048000
SECONDS = 8.0
FIRST_LOOK = 3.0
NO_TWCC_SECONDS = 7.5

failures = []


def check(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
    if not ok:
        failures.append(text)


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def sender_desc(cc, rtp, rtcp, rtcp_back):
    return (
        "rtpbin name=rb  "
        "videotestsrc is-live=true pattern=snow ! "
        "video/x-raw,width=640,height=360,framerate=25/1 ! "
        "x264enc bitrate=%d tune=zerolatency speed-preset=ultrafast key-int-max=50 ! "
        "rtph264pay pt=96 mtu=1200 config-interval=-1 ! "
        "application/x-rtp,extmap-1=(string)%s ! "
        "rtpburstpace name=pacer congestion-control=%s min-bitrate=%d "
        "max-bitrate=%d start-bitrate=%d ! rb.send_rtp_sink_0  "
        "rb.send_rtp_src_0 ! udpsink host=127.0.0.1 port=%s  "
        "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%s sync=false async=false  "
        "udpsrc port=%s ! rb.recv_rtcp_sink_0"
        % (ENCODER_KBPS, TWCC_URI, cc, MIN_BITRATE, MAX_BITRATE, START_BITRATE,
           rtp, rtcp, rtcp_back))


def receiver_desc(twcc, rtp, rtcp, rtcp_back):
    ext = ",extmap-1=(string)%s" % TWCC_URI if twcc else ""
    return (
        "rtpbin name=rb latency=200 rtp-profile=avpf  "
        "udpsrc name=src port=%s caps=\"application/x-rtp,media=video,"
        "clock-rate=90000,encoding-name=H264,payload=96%s\" ! rb.recv_rtp_sink_0  "
        "rb. ! rtph264depay ! fakesink  "
        "udpsrc port=%s ! rb.recv_rtcp_sink_0  "
        "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%s sync=false async=false"
        % (rtp, ext, rtcp, rtcp_back))


class Run:
    """A sender and a receiver pipeline on loopback, the receiver's RTP
    packets counted, the element's estimates and its bus messages kept."""

    def __init__(self, cc, twcc):
        rtp, rtcp, rtcp_back = free_ports(3)
        self.rx = Gst.parse_launch(receiver_desc(twcc, rtp, rtcp, rtcp_back))
        self.tx = Gst.parse_launch(sender_desc(cc, rtp, rtcp, rtcp_back))
        self.pacer = self.tx.get_by_name("pacer")
        self.received = 0
        self.estimates = []
        self.warnings = []
        self.errors = []
        self.rx.get_by_name("src").get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self.on_packet)
        self.pacer.connect("notify::estimated-bitrate", self.on_estimate)

    def on_packet(self, _pad, _info):
        self.received += 1
        return Gst.PadProbeReturn.OK

    def on_estimate(self, pacer, _pspec):
        self.estimates.append(pacer.get_property("estimated-bitrate"))

    def start(self):
        self.rx.set_state(Gst.State.PLAYING)
        self.tx.set_state(Gst.State.PLAYING)
        self.t0 = time.monotonic()

    def run_until(self, t):
        """Reads both buses until @t s after the start."""
        while time.monotonic() - self.t0 < t:
            for p, name in ((self.tx, "sender"), (self.rx, "receiver")):
                msg = p.get_bus().pop_filtered(
                    Gst.MessageType.ERROR | Gst.MessageType.WARNING)
                if msg is None:
                    continue
                if msg.type == Gst.MessageType.ERROR:
                    err, dbg = msg.parse_error()
                    self.errors.append("%s: %s (%s)" % (name, err.message, dbg))
                elif msg.src == self.pacer:
                    err, _dbg = msg.parse_warning()
                    self.warnings.append((time.monotonic() - self.t0,
                                          self.received, err.message))
            time.sleep(0.02)

    def stats(self):
        s = self.pacer.get_property("stats")
        return {f: s.get_value(f) for f in (
            "estimated-bitrate", "cc-feedback-reports", "cc-feedback-packets",
            "cc-invalid-feedback", "cc-lost-packets", "cc-rtt", "bytes", "packets")}

    def stop(self):
        self.tx.set_state(Gst.State.NULL)
        self.rx.set_state(Gst.State.NULL)


def with_feedback(cc):
    print("%s: %s" % (cc, sender_desc(cc, "RTP", "RTCP", "RTCP_BACK")))
    r = Run(cc, True)
    r.start()
    r.run_until(FIRST_LOOK)
    first = r.stats()
    r.run_until(SECONDS)
    last = r.stats()
    received = r.received
    r.stop()

    sent_bps = (last["bytes"] - first["bytes"]) * 8 / (SECONDS - FIRST_LOOK)
    est = r.estimates
    print("  after %.0f s: %s" % (FIRST_LOOK, first))
    print("  after %.0f s: %s" % (SECONDS, last))
    print("  sent %.0f bit/s over the last %.0f s (whole RTP packets); estimates: "
          "%d, first %s, lowest %s, highest %s, last %s; round trip %.2f ms; "
          "%d packets received"
          % (sent_bps, SECONDS - FIRST_LOOK, len(est), est[0] if est else None,
             min(est) if est else None, max(est) if est else None,
             est[-1] if est else None, last["cc-rtt"] / 1e6, received))
    check(not r.errors, "%s: no error (%s)" % (cc, r.errors))
    check(not r.warnings, "%s: no warning from the element (%s)" % (cc, r.warnings))
    check(first["cc-feedback-reports"] > 0,
          "%s: %d reports after %.0f s" % (cc, first["cc-feedback-reports"], FIRST_LOOK))
    check(last["cc-feedback-reports"] > first["cc-feedback-reports"] + 10,
          "%s: reports kept coming: %d -> %d" % (
              cc, first["cc-feedback-reports"], last["cc-feedback-reports"]))
    check(last["cc-feedback-packets"] >= 0.9 * last["packets"] - 200,
          "%s: the reports covered the packets sent: %d of %d" % (
              cc, last["cc-feedback-packets"], last["packets"]))
    check(last["cc-invalid-feedback"] == 0,
          "%s: cc-invalid-feedback %d == 0" % (cc, last["cc-invalid-feedback"]))
    check(0 < last["cc-rtt"] < 100e6,
          "%s: a round trip measured, %.2f ms (< 100 ms on loopback)"
          % (cc, last["cc-rtt"] / 1e6))
    check(received > 0, "%s: %d packets received" % (cc, received))
    check(bool(est) and last["estimated-bitrate"] == est[-1],
          "%s: estimated-bitrate %d is the last notified" % (cc, last["estimated-bitrate"]))
    check(bool(est) and MIN_BITRATE <= min(est) and max(est) <= MAX_BITRATE,
          "%s: every estimate within [%d, %d]" % (cc, MIN_BITRATE, MAX_BITRATE))
    if cc == "gcc":
        check(bool(est) and min(est) >= START_BITRATE,
              "gcc: the estimate never fell below the start %d (lowest %s)"
              % (START_BITRATE, min(est) if est else None))
    else:
        check(bool(est) and min(est) >= sent_bps,
              "tfrc: every estimate at least the rate sent, %.0f bit/s (lowest %s)"
              % (sent_bps, min(est) if est else None))


def without_feedback():
    print("gcc, the receiver without the extension:")
    r = Run("gcc", False)
    r.start()
    r.run_until(NO_TWCC_SECONDS)
    last = r.stats()
    received = r.received
    r.stop()
    print("  stats: %s; warnings %s; %d packets received" % (last, r.warnings, received))
    check(not r.errors, "no TWCC: no error (%s)" % r.errors)
    check(len(r.warnings) == 1, "no TWCC: one warning from the element: %s"
          % [w[2] for w in r.warnings])
    check(bool(r.warnings) and received > r.warnings[0][1] + 25,
          "no TWCC: packets kept arriving after the warning (%s then %d)"
          % (r.warnings[0][1] if r.warnings else None, received))
    check(last["cc-feedback-reports"] == 0 and last["estimated-bitrate"] == 0
          and not r.estimates,
          "no TWCC: no report, no estimate (%d, %d)"
          % (last["cc-feedback-reports"], last["estimated-bitrate"]))


def main():
    rc = gstbindings.unavailable(["rtpbin", "x264enc", "rtph264pay", "rtph264depay",
                                  "rtphdrexttwcc", "videotestsrc", "udpsink", "udpsrc"])
    if rc is not None:
        return rc
    with_feedback("gcc")
    with_feedback("tfrc")
    without_feedback()
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
