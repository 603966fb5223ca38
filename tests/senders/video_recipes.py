#!/usr/bin/python3
"""examples/send-video and examples/receive-video on loopback, recipe by recipe.

Runs the two applications as a user would, from the repository root, as
separate processes on free loopback ports (the receiver first), and checks
what they print:

  without losses, for the recipes bursty, paced, recommended and
  paced-fec5x5 with the default source, and for recommended with a second
  source (another pattern, 640x360 at 30 fps, x264 tune=zerolatency, no
  B-frames): the receiver printed a line per second, the last lines of both
  are JSON objects with the documented fields, frames_sent > 0 and
  frames_intact > 0.9 x frames_sent;

  with receive-video --drop every=7 (every 7th media packet dropped before
  the jitterbuffer) for paced, recommended (without --sender: its RTCP goes
  to where the RTP comes from) and paced-fec5x5: the recovery recipes
  report packets_recovered > 0 and more intact frames than paced, at least
  0.8 x frames_sent, and paced none recovered; the same for paced-rtx-behind
  (the element behind rtpbin), where the element counted every
  retransmission sent as a repair packet and made no frames of them; in
  both retransmission runs the receiver's jitterbuffer had the recipes'
  rtx-min-retry-timeout and rtx-next-seqnum;

  with --drop every=5, more than paced-fec10x10 repairs: the receiver asked
  for keyframes, requests reached the encoder and it made keyframes for them
  (send-video's keyframes_forced: at least one, no more than the requests
  that passed, and each one among keyframes_sent);

  in every run frames_intact <= frames_complete_by_deadline and <=
  frames_sent, and without drops every decoded frame matched a frame that
  came in.

Exit codes: 0 pass, 1 fail, 77 skipped (no PyGObject / GStreamer bindings or
a GStreamer plugin the recipes need is missing).  rtpburstpace is taken from
GST_PLUGIN_PATH, else from ../../build/gst relative to this file; a missing
rtpburstpace is a failure, not a skip.  About 65 s (ten runs of 3 s of
video each, one after the other).

    /usr/bin/python3 tests/senders/video_recipes.py [--seconds 3] [-v]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SECOND_SOURCE = (
    "videotestsrc is-live=true pattern=ball motion=sweep background-color=0xff203040 ! "
    "video/x-raw,width=640,height=360,framerate=30/1 ! "
    "x264enc tune=zerolatency speed-preset=ultrafast bitrate=1500 key-int-max=60")
DROP = "every=7"
RX_KEYS = ("frames_intact", "frames_decoded", "frames_decoded_unmatched",
           "frames_complete_by_deadline", "packets_lost", "packets_recovered",
           "packets_received", "packets_dropped", "keyframe_requests")
TX_KEYS = ("frames_sent", "keyframes_sent", "keyframes_forced", "packets_sent",
           "bytes_sent", "recipe", "pipeline")
UNREPAIRED = "every=5"   # more than FEC 10x10 repairs: keyframe requests
NEEDED = ("videotestsrc", "x264enc", "h264parse", "rtph264pay", "rtph264depay",
          "avdec_h264", "rtpjitterbuffer", "rtpbin", "udpsrc", "udpsink",
          "rtprtxsend", "rtprtxreceive", "rtpst2022-1-fecenc", "rtpst2022-1-fecdec",
          "rtpulpfecenc", "rtpulpfecdec", "fakesink", "identity")

import gstbindings  # noqa: E402  (exits SKIP without the bindings)
from gstbindings import SKIP, Gst  # noqa: E402,F401


def free_base_port(n=10):
    """A base port P with P ... P+N-1 free for UDP (and P+5 on loopback)."""
    for _ in range(200):
        base = 20000 + 10 * int.from_bytes(os.urandom(2), "big") % 4000
        socks = []
        try:
            for i in range(n):
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                socks.append(s)
                s.bind(("0.0.0.0", base + i))
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise RuntimeError("no free block of %d UDP ports" % n)


def last_json(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    if not lines:
        return None
    try:
        obj = json.loads(lines[-1])
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def run_pair(recipe, seconds, drop=None, source=None, sender=True, verbose=False,
             ports=None, tx_args=(), rx_args=()):
    """Runs receiver and sender (with RX_ARGS and TX_ARGS besides), on the base ports
    PORTS (receiver's, sender's) if given, else on one free base port;
    returns (tx json, rx json, rx per-second lines, problems)."""
    rx_port, tx_port = ports or (free_base_port(),) * 2
    rx_cmd = [os.path.join(ROOT, "examples", "receive-video"), "--port", str(rx_port),
              "--seconds", str(seconds + 3), "--recipe", recipe, "--lab", "--json"]
    if sender:
        rx_cmd += ["--sender", "127.0.0.1"]
    if drop:
        rx_cmd += ["--drop", drop]
    rx_cmd += list(rx_args)
    tx_cmd = [os.path.join(ROOT, "examples", "send-video"), "--host", "127.0.0.1",
              "--port", str(tx_port), "--seconds", str(seconds), "--recipe", recipe,
              "--lab", "--json"]
    if source:
        tx_cmd += ["--source", source]
    tx_cmd += list(tx_args)
    problems = []
    rx = subprocess.Popen(rx_cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    first = rx.stdout.readline()          # the receiver is listening
    if verbose:
        sys.stdout.write("  rx: " + first)
    try:
        tx = subprocess.run(tx_cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=seconds + 30)
        tx_out, tx_err, tx_rc = tx.stdout, tx.stderr, tx.returncode
    except subprocess.TimeoutExpired as e:
        tx_out, tx_err, tx_rc = e.stdout or "", e.stderr or "", "timeout"
    try:
        rx_out, rx_err = rx.communicate(timeout=seconds + 30)
        rx_rc = rx.returncode
    except subprocess.TimeoutExpired:
        rx.kill()
        rx_out, rx_err = rx.communicate()
        rx_rc = "timeout"
    rx_out = first + rx_out
    if tx_rc != 0:
        problems.append("send-video exited with %s: %s" % (tx_rc, tx_err.strip()[-800:]))
    if rx_rc != 0:
        problems.append("receive-video exited with %s: %s" % (rx_rc, rx_err.strip()[-800:]))
    txj, rxj = last_json(tx_out), last_json(rx_out)
    if txj is None:
        problems.append("send-video's last line is not a JSON object: %r"
                        % tx_out.strip()[-300:])
    if rxj is None:
        problems.append("receive-video's last line is not a JSON object: %r"
                        % rx_out.strip()[-300:])
    ticks = [l for l in rx_out.splitlines() if l.startswith("t=")]
    for obj, keys, who in ((txj, TX_KEYS, "send-video"), (rxj, RX_KEYS, "receive-video")):
        if obj is not None:
            missing = [k for k in keys if k not in obj]
            if missing:
                problems.append("%s's JSON lacks %s" % (who, ", ".join(missing)))
    if verbose:
        for l in (tx_err + rx_err).strip().splitlines()[-5:]:
            print("  stderr: " + l)
    return txj or {}, rxj or {}, ticks, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=3, help="seconds of video per run")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    code = gstbindings.unavailable(NEEDED)
    if code is not None:
        return code

    sys.path.insert(0, os.path.join(ROOT, "examples"))
    import videorecipes
    recommended = videorecipes.get("recommended").name
    print("recommended = %s" % recommended)

    failures = []
    results = {}
    # (recipe, --drop, --source, --sender given); without --sender the
    # receiver sends its RTCP (and NACKs) to where the RTP came from
    plan = [
        ("bursty", None, None, True),
        ("paced", None, None, True),
        ("recommended", None, None, True),
        ("paced-fec5x5", None, None, True),
        ("recommended", None, SECOND_SOURCE, True),
        ("paced", DROP, None, True),
        ("recommended", DROP, None, False),
        ("paced-rtx-behind", DROP, None, True),
        ("paced-fec5x5", DROP, None, True),
        ("paced-fec10x10", UNREPAIRED, None, True),
    ]
    t0 = time.monotonic()
    for recipe, drop, source, sender in plan:
        label = "%s%s%s%s" % (recipe, " --drop " + drop if drop else "",
                              " (second source)" if source else "",
                              "" if sender else " (no --sender)")
        txj, rxj, ticks, problems = run_pair(recipe, args.seconds, drop, source, sender,
                                             args.verbose)
        results[(recipe, drop, source)] = (txj, rxj)
        sent = txj.get("frames_sent", 0)
        intact = rxj.get("frames_intact", 0)
        print("%-40s frames sent %4s intact %4s complete %4s | packets received %5s "
              "dropped %4s recovered %4s lost %4s | per-second lines %d" % (
                  label, sent, intact, rxj.get("frames_complete_by_deadline"),
                  rxj.get("packets_received"), rxj.get("packets_dropped"),
                  rxj.get("packets_recovered"), rxj.get("packets_lost"), len(ticks)))
        if len(ticks) < 2:
            problems.append("receive-video printed %d per-second lines" % len(ticks))
        if sent <= 0:
            problems.append("no frames sent")
        if not drop and intact <= 0.9 * sent:
            problems.append("frames_intact %s <= 0.9 x frames_sent %s" % (intact, sent))
        if not drop and rxj.get("frames_decoded_unmatched", 0) != 0:
            problems.append("%s decoded frames matched no frame received"
                            % rxj.get("frames_decoded_unmatched"))
        # a frame the decoder passed as intact had all its packets: more
        # intact frames than complete ones would mean damaged frames counted
        if intact > sent or intact > rxj.get("frames_complete_by_deadline", 0):
            problems.append("frames_intact %s > frames_sent %s or frames_complete_by_deadline %s"
                            % (intact, sent, rxj.get("frames_complete_by_deadline")))
        for p in problems:
            failures.append("%s: %s" % (label, p))

    _, paced_drop = results[("paced", DROP, None)]
    if paced_drop.get("packets_recovered", 0) != 0:
        failures.append("paced --drop: packets_recovered %s, expected 0"
                        % paced_drop.get("packets_recovered"))
    if paced_drop.get("packets_dropped", 0) <= 0:
        failures.append("paced --drop: nothing dropped")
    for recipe in ("recommended", "paced-rtx-behind", "paced-fec5x5"):
        txj, rxj = results[(recipe, DROP, None)]
        label = "%s --drop %s" % (recipe, DROP)
        if rxj.get("packets_recovered", 0) <= 0:
            failures.append("%s: packets_recovered %s" % (label, rxj.get("packets_recovered")))
        if rxj.get("frames_intact", 0) <= paced_drop.get("frames_intact", 0):
            failures.append("%s: frames_intact %s, not more than paced's %s" % (
                label, rxj.get("frames_intact"), paced_drop.get("frames_intact")))
        if rxj.get("frames_intact", 0) < 0.8 * txj.get("frames_sent", 0):
            failures.append("%s: frames_intact %s < 0.8 x frames_sent %s" % (
                label, rxj.get("frames_intact"), txj.get("frames_sent")))

    # the receiver of a retransmission recipe asks again after its round
    # trip, not after a frame period, and not for a packet that is only
    # later than predicted (videorecipes.RTX_JITTERBUFFER_PROPS)
    for key in (("recommended", DROP, None), ("paced-rtx-behind", DROP, None)):
        jb = results[key][1].get("jitterbuffer") or {}
        if videorecipes.get(key[0]).protection != "rtx":
            continue
        for prop, want in videorecipes.RTX_JITTERBUFFER_PROPS.items():
            if jb.get(prop) != want:
                failures.append("%s --drop %s: jitterbuffer %s %s, expected %s"
                                % (key[0], DROP, prop, jb.get(prop), want))

    # behind rtpbin, every retransmission went through the element as a
    # repair packet (rtpburstrepair.h), none of them as a frame of its own
    txj, rxj = results[("paced-rtx-behind", DROP, None)]
    pace = txj.get("rtpburstpace") or {}
    if txj.get("rtx_packets_sent", 0) <= 0 or \
            pace.get("repair-packets") != txj.get("rtx_packets_sent"):
        failures.append("paced-rtx-behind --drop %s: %s retransmissions sent, the element "
                        "spread %s" % (DROP, txj.get("rtx_packets_sent"),
                                       pace.get("repair-packets")))
    if pace.get("frames", 0) > txj.get("frames_sent", 0) + 1:
        failures.append("paced-rtx-behind --drop %s: the element paced %s frames for %s "
                        "sent" % (DROP, pace.get("frames"), txj.get("frames_sent")))

    # an unrepaired loss makes the receiver ask for a keyframe (RTCP PLI) and
    # the sender's encoder make one
    # the encoder's regular cadence restarts at a forced keyframe, so
    # keyframes_sent alone does not tell them apart
    txj, rxj = results[("paced-fec10x10", UNREPAIRED, None)]
    forced = txj.get("keyframes_forced", 0)
    if rxj.get("keyframe_requests", 0) <= 0 or forced < 1 or \
            forced > txj.get("keyframe_requests_passed", 0) or \
            txj.get("keyframes_sent", 0) < 1 + forced:
        failures.append("paced-fec10x10 --drop %s: %s keyframe requests, %s passed the "
                        "holdoff, %s keyframes forced, %s sent"
                        % (UNREPAIRED, rxj.get("keyframe_requests"),
                           txj.get("keyframe_requests_passed"), forced,
                           txj.get("keyframes_sent")))

    print("%.0f s" % (time.monotonic() - t0))
    return report(failures)


def report(failures):
    """Prints each failure, or PASS; the exit status."""
    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
