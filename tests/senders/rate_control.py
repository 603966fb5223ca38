#!/usr/bin/python3
"""examples/ratecontrol.py: the encoder following rtpburstpace's estimate, in the -adapt recipes.

The arithmetic, exact: ratecontrol.encoder_rate (ENCODER_SHARE of the estimate, rounded down to
the encoder's unit, within [minimum, configured]) and the caps that enable the transport-wide-cc
header extension.

Then real elements on loopback, with a receiver whose rtpbin sends TWCC feedback
(twccreceiver.py):

  ratecontrol.EncoderFollower in this process: x264enc ! rtph264pay ! (TWCC caps) !
  rtpburstpace congestion-control=gcc max-bitrate=3000000 ! rtpbin (the bound keeps the
  estimate where the encoder's share of it is below its 3000 kbit/s: on loopback the fast
  start finds far more).  The element got feedback, the follower set
  the encoder at least once, every change it made is encoder_rate of the estimate it was
  notified, and the encoder's bitrate is the last of them; then the receiver drops every 5th
  packet for 3 s: the element counts the losses and the estimate and the encoder's rate both
  come down (GCC's loss-based rule: above 10 % lost, down by half the loss per report).

  examples/send-video --recipe recommended (capped-rtx-adapt) as a user runs it, against the
  same receiver: its JSON's rate_control lists the encoder's changes, each one encoder_rate of
  the estimate within the recipe's floor (ADAPT_MIN_SHARE of the configured rate), the
  encoder's rate at the end is the last one (on loopback the fast start may take it to the
  configured rate), the element counted
  feedback reports, and the receiver decoded the frames.

Exit 0 pass, 1 fail, 77 without PyGObject or a plugin (the arithmetic still ran).
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import ratecontrol  # noqa: E402
import videorecipes  # noqa: E402
import video_recipes  # noqa: E402  (its free_base_port)

NEEDED = ("x264enc", "rtpbin", "rtph264pay", "rtph264depay", "avdec_h264", "rtprtxsend",
          "udpsrc", "udpsink", "rtphdrexttwcc")
SEND_SECONDS = 5
failures = []


def check(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
    if not ok:
        failures.append(text)


def arithmetic():
    er = ratecontrol.encoder_rate
    check(ratecontrol.ENCODER_SHARE == 0.85, "the encoder aims at 0.85 of the estimate")
    check(er(2048000, 4000) == 1740, "2048000 bit/s: 1740 kbit/s (0.85 x, rounded down)")
    check(er(2947058, 4000) == 2504, "2947058 bit/s: 2504 kbit/s")
    check(er(4705882, 4000) == 3999 and er(4705883, 4000) == 4000,
          "4705882 bit/s: 3999 kbit/s, one more bit/s: 4000")
    check(er(10000000, 4000) == 4000, "never above the configured 4000 kbit/s")
    check(er(100000, 4000, 1000) == 1000, "never below the floor 1000 kbit/s")
    check(er(500, 4000) == 1, "at least 1 kbit/s (x264enc's minimum)")
    check(er(2000000, 10 ** 9, 1, 1) == 1700000, "in bit/s (vp8enc's target-bitrate): 1700000")
    check(ratecontrol.twcc_caps() == "application/x-rtp,extmap-1=(string)http://www.ietf.org/"
          "id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
          "the caps: extmap-1, the transport-wide-cc URI")


def consistent(history, max_units, min_units=1):
    """The changes of HISTORY that are not encoder_rate of their estimate."""
    return [h for h in history
            if h[2] != ratecontrol.encoder_rate(h[1], max_units, min_units)]


def follower_loopback(Gst, GLib, twccreceiver):
    port = video_recipes.free_base_port(6)
    rx = twccreceiver.TwccReceiver(port)
    tx = Gst.parse_launch(
        "rtpbin name=rb  videotestsrc is-live=true pattern=zone-plate kx2=20 ky2=20 kt2=1 ! "
        "video/x-raw,width=640,height=360,framerate=25/1 ! "
        "x264enc name=enc bitrate=3000 tune=zerolatency speed-preset=ultrafast ! "
        "rtph264pay pt=96 mtu=1200 ! %s ! "
        "rtpburstpace name=pace congestion-control=gcc max-bitrate=3000000 ! "
        "rb.send_rtp_sink_0  "
        "rb.send_rtp_src_0 ! udpsink host=127.0.0.1 port=%d  "
        "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%d sync=false async=false  "
        "udpsrc port=%d ! rb.recv_rtcp_sink_0"
        % (ratecontrol.twcc_caps(), port, port + 1, port + 5))
    enc, pace = tx.get_by_name("enc"), tx.get_by_name("pace")
    follower = ratecontrol.EncoderFollower(pace, enc)
    check(follower.max_units == 3000 and follower.prop == "bitrate",
          "the follower found x264enc's bitrate, 3000 kbit/s, as the most it sets")
    rx.start()
    tx.set_state(Gst.State.PLAYING)
    ctx = GLib.MainContext.default()

    def run(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            while ctx.pending():
                ctx.iteration(False)
            time.sleep(0.05)

    run(3.0)
    with follower.lock:
        clean = list(follower.history)
    with rx.lock:
        rx.drop_every = 5
    run(3.0)
    tx.set_state(Gst.State.NULL)
    rx.stop()
    with follower.lock:
        history = list(follower.history)
    stats = pace.get_property("stats")
    print("  without loss: %d changes, the last %s; with every 5th packet dropped (%d): "
          "%d more, the last %s" % (len(clean), clean[-1:], rx.dropped,
                                    len(history) - len(clean), history[-1:]))
    check(stats.get_value("cc-feedback-reports") > 0,
          "the element got %d feedback reports" % stats.get_value("cc-feedback-reports"))
    check(len(clean) >= 1, "the follower set the encoder from the estimate (%d changes in "
          "3 s)" % len(clean))
    bad = consistent(history, 3000)
    check(not bad, "each change is encoder_rate of the estimate notified: %s"
          % (bad[:3] or "yes"))
    check(history and enc.get_property("bitrate") == history[-1][2],
          "the encoder's bitrate %d is the last change's" % enc.get_property("bitrate"))
    check(stats.get_value("cc-lost-packets") > 0,
          "the element counted %d packets lost" % stats.get_value("cc-lost-packets"))
    if clean and history:
        check(history[-1][1] < clean[-1][1] and history[-1][2] < clean[-1][2],
              "with 20 %% loss the estimate (%d -> %d bit/s) and the encoder (%d -> %d "
              "kbit/s) came down" % (clean[-1][1], history[-1][1], clean[-1][2],
                                     history[-1][2]))


def send_video(twccreceiver):
    port = video_recipes.free_base_port(10)
    rx = twccreceiver.TwccReceiver(port)
    rx.start()
    try:
        out = subprocess.run(
            [os.path.join(ROOT, "examples", "send-video"), "--host", "127.0.0.1", "--port",
             str(port), "--seconds", str(SEND_SECONDS), "--recipe", "recommended", "--json"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
            timeout=SEND_SECONDS + 30)
    finally:
        frames = rx.stop()
    lines = out.stdout.strip().splitlines()
    try:
        j = json.loads(lines[-1])
    except (IndexError, ValueError):
        check(False, "send-video's last line is JSON (exit %d): %s" % (
            out.returncode, (out.stdout + out.stderr)[-800:]))
        return
    check(out.returncode == 0 and not j.get("error"),
          "send-video ran (exit %d, error %s)" % (out.returncode, j.get("error")))
    history = j.get("rate_control") or []
    configured = j.get("encoder_rate_configured")
    floor = int(4000 * videorecipes.ADAPT_MIN_SHARE)
    pace = j.get("rtpburstpace") or {}
    print("  send-video: %d frames sent, %d decoded by the receiver; %d changes of the "
          "encoder's rate, first %s, last %s; element: estimate %s bit/s, %s reports"
          % (j.get("frames_sent", 0), frames, len(history), history[:1], history[-1:],
             pace.get("estimated-bitrate"), pace.get("cc-feedback-reports")))
    check(configured == 4000, "the default source's x264enc is configured at 4000 kbit/s: %s"
          % configured)
    check(pace.get("cc-feedback-reports", 0) > 0,
          "the element got feedback: %s reports" % pace.get("cc-feedback-reports"))
    check(len(history) >= 1, "the encoder's rate followed the estimate: %d changes"
          % len(history))
    bad = consistent(history, 4000, floor)
    check(not bad, "each change is encoder_rate of the estimate, at least %d: %s"
          % (floor, bad[:3] or "yes"))
    check(history and j.get("encoder_rate") == history[-1][2],
          "the encoder ended at the last change, %s kbit/s" % j.get("encoder_rate"))
    check(frames >= 0.9 * j.get("frames_sent", 0) > 0,
          "the receiver decoded %d of %d frames" % (frames, j.get("frames_sent", 0)))


def main():
    arithmetic()
    try:
        import gstbindings  # noqa: F401  (exits 77 without the bindings)
    except SystemExit:
        print("FAIL" if failures else "PASS (arithmetic only)")
        return 1 if failures else 77
    from gstbindings import GLib, Gst
    code = gstbindings.unavailable(NEEDED)
    if code is not None:
        return 1 if failures else code
    import twccreceiver
    follower_loopback(Gst, GLib, twccreceiver)
    send_video(twccreceiver)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
