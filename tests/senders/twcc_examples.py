#!/usr/bin/python3
"""examples/twcc-send.sh and examples/twcc-receive.sh as users run them.

The two scripts are executed directly (#!/bin/sh, dash on Debian) on
loopback for SECONDS, the receiver with SINK=fakesink, the sender with
GST_DEBUG=rtpburstpace:5, which logs each estimate the element posts (the
first, then each move by more than 5 %): the element got the receiver's
TWCC feedback when such lines come.  Checks: both scripts still running
when stopped (a shell error or a pipeline that failed to start ends one
early), estimate lines from the first seconds on, every estimate within
the element's bounds (min-bitrate 100 kbit/s, no max), no warning that the
receiver sends no feedback, no error.

The same with examples/receive-video (recipe paced-rtx, whose rtpbin also
answers the sender's rtprtxsend): its rtpbin recipes send TWCC feedback
too.

Then retransmission and keyframe requests with twcc-receive.sh: a copy of
twcc-send.sh that drops LOSS of the packets it sends (identity
drop-probability after rtpbin, media and retransmissions alike), the
receiver with GST_DEBUG=rtprtxreceive:5, which logs each retransmission it
restores, the sender also with x264enc:4, which logs each keyframe it is
asked for.  Checks: retransmissions restored at the receiver, at least one
keyframe request answered (the depayloader asks once at the start, and
after a loss the retransmissions could not repair), the estimates as above.

Then the same sender against examples/rtpbin-receive.sh, a receiver
without the TWCC extension: there the element must warn (and log no
estimate), which shows the check above can fail.

Exit 0 when all pass, 1 when one fails, 77 when PyGObject or an element
the scripts use is missing.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402  (skips without the bindings; default plugin path)

ROOT = gstbindings.ROOT
SECONDS = 7.0
PORT = 5650
MIN_BITRATE = 100000
ESTIMATE = re.compile(r"gstrtpburstcc\.c:\d+:announce:<rtpburstpace\d+> estimate (\d+) bit/s")
NO_FEEDBACK = "sends no transport-wide congestion control feedback"
#: the share of packets the sender's copy drops in with_loss()
LOSS = 0.03
RESTORED = re.compile(r"gst_rtp_rtx_receive_chain:<[^>]+> Got rtx packet")
KEYFRAME_FORCED = re.compile(r"gst_x264_enc_encode_frame:<[^>]+> Forcing key frame")

failures = []


def check(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
    if not ok:
        failures.append(text)


def stop(proc, interrupt=True):
    """SIGINT (Ctrl-C) to @proc (unless not @interrupt: it ends by itself);
    its output (stdout and stderr together)."""
    if interrupt and proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out


def run(receiver, receiver_ends=False, sender=None, rx_debug=None, tx_debug=""):
    """Runs RECEIVER (argv; the first item in examples/) and
    examples/twcc-send.sh (or @sender, argv of a script) on PORT for
    SECONDS, then stops the sender and the receiver (or waits for it:
    @receiver_ends); (both still running then, the sender's output, the
    receiver's).  @rx_debug: the receiver's GST_DEBUG; @tx_debug: more of
    the sender's."""
    env = dict(os.environ, SINK="fakesink", GST_DEBUG_NO_COLOR="1")
    if rx_debug:
        env["GST_DEBUG"] = rx_debug
    rx = subprocess.Popen([os.path.join(ROOT, "examples", receiver[0])] + receiver[1:],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    time.sleep(0.5)
    env = dict(os.environ, GST_DEBUG="rtpburstpace:5" + tx_debug, GST_DEBUG_NO_COLOR="1")
    tx = subprocess.Popen((sender or [os.path.join(ROOT, "examples", "twcc-send.sh")]) +
                          ["127.0.0.1", str(PORT)], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    t0 = time.monotonic()
    time.sleep(SECONDS)
    running = tx.poll() is None and rx.poll() is None
    tx_out = stop(tx)
    rx_out = stop(rx, not receiver_ends)
    print("  ran %.1f s" % (time.monotonic() - t0))
    return running, tx_out, rx_out


def errors(out):
    return [line for line in out.splitlines() if line.startswith("ERROR")]


def with_feedback(receiver, receiver_ends=False, **kw):
    """The checks above for examples/twcc-send.sh (or @sender of @kw, see
    run()) against RECEIVER; (the sender's output, the receiver's)."""
    print("%s -> %s:" % ("twcc-send.sh" if "sender" not in kw else
                         "twcc-send.sh dropping %g %%" % (100 * LOSS), " ".join(receiver)))
    running, tx_out, rx_out = run(receiver, receiver_ends, **kw)
    estimates = [(line.split()[0], int(m.group(1))) for line in tx_out.splitlines()
                 for m in [ESTIMATE.search(line)] if m]
    print("  estimates posted (running time, bit/s): %s" % estimates)
    check(running, "both scripts still running after %.0f s" % SECONDS)
    check(len(estimates) >= 1, "the element got feedback: %d estimates logged"
          % len(estimates))
    check(bool(estimates) and estimates[0][0] < "0:00:03",
          "the first estimate within 3 s (%s)" % (estimates[0][0] if estimates else None))
    check(all(v >= MIN_BITRATE for _, v in estimates),
          "every estimate at least min-bitrate %d" % MIN_BITRATE)
    check(NO_FEEDBACK not in tx_out, "no warning that the receiver sends no feedback")
    check(not errors(tx_out) and not errors(rx_out), "no error: %s"
          % (errors(tx_out) + errors(rx_out)))
    return tx_out, rx_out


def with_loss():
    """twcc-receive.sh repairs: a copy of twcc-send.sh that drops LOSS of
    what rtpbin sends (media and retransmissions) before its udpsink."""
    with open(os.path.join(ROOT, "examples", "twcc-send.sh")) as f:
        script = f.read()
    link = "rb.send_rtp_src_0 ! udpsink"
    check(link in script, "twcc-send.sh sends rtpbin's RTP through one udpsink (%r)" % link)
    with tempfile.NamedTemporaryFile("w", suffix=".sh") as copy:
        copy.write(script.replace(link, "rb.send_rtp_src_0 ! identity drop-probability=%g "
                                  "! udpsink" % LOSS))
        copy.flush()
        tx_out, rx_out = with_feedback(["twcc-receive.sh", "127.0.0.1", str(PORT)],
                                       sender=["sh", copy.name],
                                       rx_debug="rtprtxreceive:5", tx_debug=",x264enc:4")
    restored = len(RESTORED.findall(rx_out))
    forced = len(KEYFRAME_FORCED.findall(tx_out))
    print("  retransmissions restored at the receiver: %d; keyframes the encoder was "
          "asked for: %d" % (restored, forced))
    check(restored > 0, "the receiver restored retransmissions (%d)" % restored)
    check(forced >= 1, "the receiver's keyframe requests reached the encoder (%d)" % forced)


def without_feedback():
    print("twcc-send.sh -> rtpbin-receive.sh (no TWCC extension):")
    running, tx_out, _ = run(["rtpbin-receive.sh", "127.0.0.1", str(PORT)])
    check(running, "both scripts still running after %.0f s" % SECONDS)
    check(ESTIMATE.search(tx_out) is None, "no estimate logged")
    check(NO_FEEDBACK in tx_out, "the element warned that the receiver sends no feedback")


def main():
    rc = gstbindings.unavailable(["rtpbin", "x264enc", "rtph264pay", "rtph264depay",
                                  "avdec_h264", "rtprtxsend", "rtphdrexttwcc",
                                  "videotestsrc", "udpsink", "udpsrc", "fakesink",
                                  "videoconvert", "rtpsession", "rtprtxreceive",
                                  "rtpssrcdemux", "rtpjitterbuffer", "rtpptdemux",
                                  "identity"])
    if rc is not None:
        return rc
    with_feedback(["twcc-receive.sh", "127.0.0.1", str(PORT)])
    # it stops by itself, after the sender
    with_loss()
    _, out = with_feedback(["receive-video", "--json", "--port", str(PORT), "--seconds",
                            str(SECONDS + 1), "--recipe", "paced-rtx", "--sender",
                            "127.0.0.1"], True)
    result = out.strip().splitlines()[-1] if out.strip() else ""
    try:
        frames = json.loads(result).get("frames_intact", 0)
    except ValueError:
        frames = 0
    check(frames > 0, "receive-video decoded %d frames intact" % frames)
    without_feedback()
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
