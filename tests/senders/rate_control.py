#!/usr/bin/python3
"""examples/ratecontrol.py: the loss-based rate control of the -adapt recipes.

Exact values of LossRateControl (draft-ietf-rmcat-gcc-02, section 6: down by half the loss
above 10 %, up 5 % below 2 %, unchanged between, within [min, configured]), of interval_loss
and of report_blocks on RTCP packets built here byte by byte (SR and RR with report blocks,
negative cumulative loss, a compound packet, truncated input); then, when PyGObject and
GStreamer are there, the same report blocks out of a real rtpbin: a sender and a receiver
rtpbin on loopback, the receiver losing every 5th media packet (an identity drop-probability
would be random; a pad probe drops exactly), and RateFollower on the sender must see loss near
20 % and take the encoder's rate down.  Exit 0 pass, 1 fail, 77 without PyGObject (the
arithmetic still ran).
"""
import os
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
sys.dont_write_bytecode = True
import ratecontrol  # noqa: E402

failures = []


def check(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
    if not ok:
        failures.append(text)


def close(a, b):
    return abs(a - b) < 1e-9


def arithmetic():
    c = ratecontrol.LossRateControl(4000, 1000)
    check(close(c.update(0.2), 3600.0), "loss 20 %: 4000 x (1 - 0.1) = 3600")
    check(close(c.update(0.05), 3600.0), "loss 5 %: unchanged")
    check(close(c.update(0.10), 3600.0), "loss exactly 10 %: unchanged")
    check(close(c.update(0.02), 3600.0), "loss exactly 2 %: unchanged")
    check(close(c.update(0.0), 3780.0), "loss 0: up 5 %")
    check(close(c.update(0.0), 3969.0), "loss 0 again: up 5 %")
    check(close(c.update(0.0), 4000.0), "never above the configured 4000")
    for _ in range(50):
        c.update(1.0)
    check(close(c.kbps, 1000.0), "never below the minimum 1000")
    for bad in (-0.1, 1.5):
        try:
            c.update(bad)
            check(False, "loss %r refused" % bad)
        except ValueError:
            check(True, "loss %r refused" % bad)
    try:
        ratecontrol.LossRateControl(500, 1000)
        check(False, "start below the minimum refused")
    except ValueError:
        check(True, "start below the minimum refused")

    il = ratecontrol.interval_loss
    check(close(il((10, 1000), (30, 1200)), 0.1), "interval loss 20 of 200 = 0.1")
    check(il((10, 1000), (10, 1000)) is None, "no new report: None")
    check(il((10, 1000), (12, 990)) is None, "sequence going back: None")
    check(il((10, 1000), (8, 1100)) == 0.0, "fewer lost than before (duplicates): 0")
    check(il((0, 0), (500, 100)) == 1.0, "more lost than expected: at most 1")


def block(ssrc, lost, ext_seq):
    return struct.pack("!IB3sIIII", ssrc, 0, (lost & 0xffffff).to_bytes(3, "big"), ext_seq,
                       0, 0, 0)


def rtcp(pt, sender, blocks, sender_info=b""):
    body = struct.pack("!I", sender) + sender_info + b"".join(blocks)
    return struct.pack("!BBH", 0x80 | len(blocks), pt, len(body) // 4) + body


def parsing():
    rr = rtcp(201, 7, [block(0xdeadbeef, 12, 70000), block(5, -3, 9)])
    check(ratecontrol.report_blocks(rr) == [(0xdeadbeef, 12, 70000), (5, -3, 9)],
          "RR: two blocks, a negative cumulative loss")
    sr = rtcp(200, 7, [block(1, 2, 3)], sender_info=bytes(20))
    sdes = struct.pack("!BBH", 0x81, 202, 2) + bytes(8)
    check(ratecontrol.report_blocks(sr + sdes + rr) ==
          [(1, 2, 3), (0xdeadbeef, 12, 70000), (5, -3, 9)],
          "compound SR + SDES + RR: every block, in order")
    check(ratecontrol.report_blocks(rr[:-10]) == [], "truncated packet: nothing")
    check(ratecontrol.report_blocks(b"\x00" * 8) == [], "not RTCP version 2: nothing")


def rtpbin_loopback():
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import GLib, Gst
    except (ImportError, ValueError) as e:
        print("skipped the rtpbin part: no PyGObject/GStreamer bindings (%s)" % e)
        return 77
    Gst.init(None)
    if not all(Gst.ElementFactory.find(f) for f in ("x264enc", "rtpbin", "rtph264pay")):
        print("skipped the rtpbin part: x264enc, rtpbin or rtph264pay missing")
        return 77
    import socket
    ports = []
    for _ in range(3):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        ports.append(s.getsockname()[1])
        s.close()
    rtp, rtcp_fwd, rtcp_back = ports
    tx = Gst.parse_launch(
        "rtpbin name=rb  videotestsrc is-live=true pattern=ball ! "
        "video/x-raw,width=320,height=180,framerate=25/1 ! "
        "x264enc name=enc bitrate=800 tune=zerolatency speed-preset=ultrafast ! "
        "rtph264pay name=pay pt=96 ! rb.send_rtp_sink_0  "
        "rb.send_rtp_src_0 ! udpsink host=127.0.0.1 port=%d sync=false  "
        "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%d sync=false async=false  "
        "udpsrc port=%d ! rb.recv_rtcp_sink_0" % (rtp, rtcp_fwd, rtcp_back))
    rx = Gst.parse_launch(
        "rtpbin name=rb  udpsrc name=src port=%d caps=\"application/x-rtp,media=video,"
        "clock-rate=90000,encoding-name=H264,payload=96\" ! rb.recv_rtp_sink_0  "
        "udpsrc port=%d ! rb.recv_rtcp_sink_0  "
        "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%d sync=false async=false"
        % (rtp, rtcp_fwd, rtcp_back))
    rx_session = None

    def on_pad(_rb, pad):
        if pad.get_name().startswith("recv_rtp_src_"):
            sink = Gst.ElementFactory.make("fakesink")
            rx.add(sink)
            sink.sync_state_with_parent()
            pad.link(sink.get_static_pad("sink"))
    rx.get_by_name("rb").connect("pad-added", on_pad)
    count = [0]

    def drop_fifth(_pad, _info):
        count[0] += 1
        return Gst.PadProbeReturn.DROP if count[0] % 5 == 0 else Gst.PadProbeReturn.OK
    rx.get_by_name("src").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, drop_fifth)
    for p in (rx, tx):
        p.get_by_name("rb").set_property("latency", 100)
    rx_session = rx.get_by_name("rb").emit("get-internal-session", 0)
    rx_session.set_property("rtcp-min-interval", 100 * Gst.MSECOND)
    rx_session.set_property("bandwidth", 4000000.0)
    enc, pay = tx.get_by_name("enc"), tx.get_by_name("pay")
    follower = ratecontrol.RateFollower(
        tx.get_by_name("rb").emit("get-internal-session", 0),
        lambda: pay.get_property("stats").get_value("ssrc"), enc, None, 100, 1.5)
    rx.set_state(Gst.State.PLAYING)
    tx.set_state(Gst.State.PLAYING)
    start = time.monotonic()
    ctx = GLib.MainContext.default()
    next_tick = start + ratecontrol.PERIOD_S
    while time.monotonic() - start < 6.0:
        while ctx.pending():
            ctx.iteration(False)
        if time.monotonic() >= next_tick:
            follower.tick(time.monotonic() - start)
            next_tick += ratecontrol.PERIOD_S
        time.sleep(0.02)
    tx.set_state(Gst.State.NULL)
    rx.set_state(Gst.State.NULL)
    print("  history (s, loss, kbit/s): %s" % follower.history)
    losses = [h[1] for h in follower.history]
    check(len(losses) >= 4, "the sender saw %d updates from the receiver's reports in 6 s "
          "(at least 4)" % len(losses))
    med = sorted(losses)[len(losses) // 2] if losses else -1
    check(0.15 <= med <= 0.25, "median reported loss %.3f near the 20 %% dropped" % med)
    check(enc.get_property("bitrate") < 800,
          "the encoder's bitrate went down from 800: %d" % enc.get_property("bitrate"))
    return 0


def main():
    arithmetic()
    parsing()
    rc = rtpbin_loopback()
    print("FAIL" if failures else "PASS")
    if failures:
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
