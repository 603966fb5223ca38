#!/usr/bin/python3
"""receive-video --display shows the picture, on an X server of its own (Xvfb).

Starts Xvfb (black root window, a free display number), then
examples/receive-video --display --json and examples/send-video on free
loopback ports with the recommended recipe for a few seconds, and checks:

  receive-video exits 0, its video sink was a real one (the sink
  autovideosink chose, display_sink, is not a fakesink), frames reached it
  (frames_displayed >= 0.8 x frames_intact, and > 0);

  it was listening when it said so (its first line, after which the sender
  starts): packets of at least 90 % of the frames sent came in
  (frames_received; a display sink that takes seconds to start must not
  keep the receiving sockets closed meanwhile);

  a grab of the screen while the video plays (ximagesrc) is not the black
  root window: at least a third of its pixels are lit (the test pattern's
  window covers most of the screen).

--screenshot FILE also writes that grab, at half size, as a PNG
(docs/receive-video-display.png was made so).  Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb: `apt-get
install xvfb`; no X video sink: gstreamer1.0-x; no PyGObject or a plugin the
recipes need).  About 15 s.

    /usr/bin/python3 tests/senders/receive_display.py [--screenshot FILE]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402  (exits SKIP without the bindings)
from gstbindings import SKIP, Gst  # noqa: E402
import video_recipes  # noqa: E402

ROOT = gstbindings.ROOT
SEND_SECONDS = 5
X_SINKS = ("xvimagesink", "ximagesink", "glimagesink")

failures = []


def check(ok, text):
    print("%s  %s" % ("ok  " if ok else "FAIL", text))
    if not ok:
        failures.append(text)


def start_xvfb():
    """(process, display) of a new Xvfb, or (None, why).  -noreset: an X server
    resets when its last client leaves, and refuses connections meanwhile;
    autovideosink's trial of each sink is such a client, and the sink it then
    opens for good failed now and then ("Could not open display")."""
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp", "-br", "-noreset"], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number.isdigit():
        proc.kill()
        proc.wait()
        return None, "Xvfb did not start"
    return proc, ":" + number


def grab(display, path=None):
    """One frame of the screen of DISPLAY as (lit share of its pixels); also a
    PNG at PATH if given."""
    env_display = os.environ.get("DISPLAY")
    pipeline = Gst.parse_launch(
        "ximagesrc display-name=%s num-buffers=1 use-damage=false ! videoconvert ! "
        "tee name=t  t. ! queue ! video/x-raw,format=GRAY8 ! appsink name=gray  "
        "t. ! queue ! videoscale ! video/x-raw,width=640,height=400 ! pngenc ! %s" % (
            display, ("filesink location=%s" % path) if path else "fakesink"))
    pipeline.set_state(Gst.State.PLAYING)
    sample = pipeline.get_by_name("gray").emit("try-pull-sample", 10 * Gst.SECOND)
    pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND,
                                          Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if env_display is not None:
        os.environ["DISPLAY"] = env_display
    if sample is None:
        return 0.0
    buf = sample.get_buffer()
    data = buf.extract_dup(0, buf.get_size())
    lit = sum(1 for b in data[::97] if b > 16)
    return lit / max(1, len(data[::97]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screenshot", metavar="FILE", help="write the screen grab as a PNG")
    args = ap.parse_args()

    if shutil.which("Xvfb") is None:
        print("SKIP: no Xvfb (apt-get install xvfb) to show receive-video --display on")
        return SKIP
    code = gstbindings.unavailable(video_recipes.NEEDED + ("autovideosink", "videoconvert",
                                                           "ximagesrc", "pngenc", "appsink"))
    if code is not None:
        return code
    if not any(Gst.ElementFactory.find(s) for s in X_SINKS):
        print("SKIP: no X video sink (%s; gstreamer1.0-x)" % ", ".join(X_SINKS))
        return SKIP

    xvfb, display = start_xvfb()
    if xvfb is None:
        print("FAIL: %s" % display)
        return 1
    try:
        port = video_recipes.free_base_port()
        env = dict(os.environ, DISPLAY=display)
        rx = subprocess.Popen([os.path.join(ROOT, "examples", "receive-video"), "--port",
                               str(port), "--sender", "127.0.0.1", "--display", "--json",
                               "--seconds", str(SEND_SECONDS + 4)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        rx.stdout.readline()              # listening
        tx = subprocess.Popen([os.path.join(ROOT, "examples", "send-video"), "--port",
                               str(port), "--seconds", str(SEND_SECONDS), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        time.sleep(SEND_SECONDS - 1.5)
        lit = grab(display, args.screenshot)
        tx_out, tx_err = tx.communicate(timeout=SEND_SECONDS + 30)
        rx_out, rx_err = rx.communicate(timeout=SEND_SECONDS + 30)
    finally:
        xvfb.terminate()
        xvfb.wait()

    check(tx.returncode == 0, "send-video exits 0 (%s)%s" % (
        tx.returncode, (": " + tx_err.strip()[-400:]) if tx.returncode else ""))
    check(rx.returncode == 0, "receive-video --display exits 0 (%s)%s" % (
        rx.returncode, (": " + rx_err.strip()[-400:]) if rx.returncode else ""))
    rxj = video_recipes.last_json(rx_out) or {}
    txj = video_recipes.last_json(tx_out) or {}
    sink = rxj.get("display_sink")
    shown, intact = rxj.get("frames_displayed", 0), rxj.get("frames_intact", 0)
    sent, received = txj.get("frames_sent", 0), rxj.get("frames_received", 0)
    print("  display sink %s; frames sent %s, received %s, intact %s, shown %s; screen %.0f %% "
          "lit" % (sink, sent, received, intact, shown, 100 * lit))
    check(sink in X_SINKS, "autovideosink chose an X video sink (%s)" % sink)
    check(received >= 0.9 * sent > 0,
          "receive-video was listening from its first line: packets of %s of the %s frames "
          "sent came in" % (received, sent))
    check(shown > 0 and shown >= 0.8 * intact,
          "frames reached the video sink: %s shown of %s intact" % (shown, intact))
    check(lit >= 1 / 3, "the screen shows the picture: %.0f %% of its pixels lit" % (100 * lit))
    if failures:
        print("FAIL: %d check(s) failed" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
