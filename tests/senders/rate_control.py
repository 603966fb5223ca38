#!/usr/bin/python3
"""examples/ratecontrol.py: the loss-based rate control of the -adapt recipes.

Exact values of LossRateControl (draft-ietf-rmcat-gcc-02, section 6: down by half the loss
above 10 %, up 5 % below 2 %, unchanged between, within [min, configured]; with a round trip,
at most one increase per increase_rounds round trips from the last change), of interval_loss
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


def increase_rounds():
    """At most one increase per increase_rounds round trips, counted from the last change."""
    c = ratecontrol.LossRateControl(4000, 1000, increase_rounds=10)
    check(close(c.update(0.2, 0.0, 0.25), 3600.0), "t=0: loss 20 %: down to 3600")
    check(close(c.update(0.0, 0.5, 0.25), 3600.0),
          "t=0.5: loss 0, 0.5 s since the change < 10 x 0.25 s: unchanged")
    check(close(c.update(0.0, 2.0, 0.25), 3600.0), "t=2.0: still unchanged")
    check(close(c.update(0.0, 2.5, 0.25), 3780.0), "t=2.5: ten round trips on: up 5 %")
    check(close(c.update(0.0, 3.0, 0.25), 3780.0), "t=3.0: counted from that increase")
    check(close(c.update(0.0, 3.0, 0.05), 3969.0), "a round trip of 50 ms: 0.5 s is enough")
    check(close(c.update(0.0, 3.2, 0.05), 3969.0), "... and 0.2 s is not")
    check(close(c.update(0.05, 9.0, 0.25), 3969.0), "loss 5 %: unchanged however long")
    check(close(c.update(0.3, 9.5, 0.25), 3969.0 * 0.85), "loss 30 %: down at once")
    check(close(c.update(0.0, 9.5, None), 3969.0 * 0.85 * 1.05),
          "no round trip yet: up at every update (GCC's rule)")
    f = ratecontrol.LossRateControl(1000, 1000, 4000, full_rtt=0.09)
    check(close(f.update(0.0, 0.5, None), 1050.0), "full_rtt: no round trip yet, up 5 %")
    check(close(f.update(0.0, 1.0, 0.02), 4000.0), "the first round trip 20 ms <= 90 ms: "
          "at the configured rate at once")
    check(close(f.update(0.3, 1.5, 0.02), 3400.0), "then the loss rule: 30 %: down to 3400")
    check(close(f.update(0.0, 2.0, 0.25), 3400.0), "only the first round trip jumps")
    g = ratecontrol.LossRateControl(1000, 1000, 4000, full_rtt=0.09)
    check(close(g.update(0.0, 0.5, 0.25), 1000.0), "the first round trip 250 ms > 90 ms: "
          "stays at the start (and the next increase ten round trips on)")
    check(close(g.update(0.0, 1.0, 0.02), 1050.0), "a shorter one later does not jump (up "
          "5 %: ten of its round trips since the last update)")
    check(close(g.update(0.15, 1.5, 0.25), 1000.0), "loss 15 %: never below the minimum")
    h = ratecontrol.LossRateControl(1000, 1000, 4000, full_rtt=0.09)
    check(close(h.update(0.2, 0.5, 0.02), 3600.0), "a short first round trip with loss 20 %: "
          "up to 4000, then down by half the loss")
    d = ratecontrol.LossRateControl(4000, 1000, increase_rounds=0)
    d.update(0.2, 0.0, 0.25)
    check(close(d.update(0.0, 0.5, 0.25), 3780.0), "increase_rounds 0: up at every update")
    e = ratecontrol.LossRateControl(4000, 1000)
    check(e.increase_rounds == ratecontrol.INCREASE_ROUNDS == 10, "ten round trips by default")
    try:
        ratecontrol.LossRateControl(4000, 1000, increase_rounds=-1)
        check(False, "negative increase_rounds refused")
    except ValueError:
        check(True, "negative increase_rounds refused")


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
        lambda: pay.get_property("stats").get_value("ssrc"), enc, None, 100, 1.5,
        start_share=0.5, full_rtt=0.1)
    check(enc.get_property("bitrate") == 400, "started at half the configured 800: %d"
          % enc.get_property("bitrate"))
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
    print("  history (s, loss, kbit/s, round trip ms): %s" % follower.history)
    losses = [h[1] for h in follower.history]
    rtts = [h[3] for h in follower.history if h[3] is not None]
    check(rtts and all(0 < r < 100 for r in rtts),
          "the round trip read from the session's sources, on loopback under 100 ms: %s"
          % rtts[:3])
    first = [h for h in follower.history if h[3] is not None][:1]
    check(first and first[0][2] > 400,
          "with that round trip under full_rtt the first update went to the configured "
          "rate first (then down for the loss): %s" % first)
    check(len(losses) >= 4, "the sender saw %d updates from the receiver's reports in 6 s "
          "(at least 4)" % len(losses))
    med = sorted(losses)[len(losses) // 2] if losses else -1
    check(0.15 <= med <= 0.25, "median reported loss %.3f near the 20 %% dropped" % med)
    check(enc.get_property("bitrate") < 800,
          "the encoder's bitrate went down from 800: %d" % enc.get_property("bitrate"))
    return 0


def main():
    arithmetic()
    increase_rounds()
    parsing()
    rc = rtpbin_loopback()
    print("FAIL" if failures else "PASS")
    if failures:
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
