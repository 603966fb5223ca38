#!/usr/bin/python3
"""send-video drops the keyframe requests that the last keyframe answers.

The arithmetic, without GStreamer: videorecipes.KeyframeHoldoff on fixed
times (a request less than the hold after a keyframe is dropped, one at or
after it passes, every request passes before the first keyframe or with a
hold of 0).

Then examples/send-video and examples/receive-video with the recommended
recipe, as a user runs them, on loopback; the receiver drops 3 consecutive
media packets in every 50 (receive-video --drop every=50,burst=3) and the
sender keeps only the last packet for retransmission
(--rtx-history-packets 1), so the losses stay and the receiver asks for a
keyframe for each damaged frame:

  --keyframe-holdoff 0: every request reaches the encoder (none dropped,
  as many passed as the receiver sent that reached it);

  the recipe's default (its latency, 200 ms): some requests are dropped
  (with a loss every 50 packets, the requests about packets sent before
  the keyframe the previous request made), the encoder made at least one
  keyframe for a request and no more than one per request passed
  (send-video's keyframes_forced), and at most 0.8 x the keyframes of the
  run without the hold;

  --keyframe-holdoff-by encoder (x264enc's min-force-key-unit-interval set
  to the hold instead of the filter): every request reaches the encoder,
  none dropped, and it still makes keyframes for them.  It postpones a
  request that comes sooner than the interval rather than dropping it, so
  it does not make fewer keyframes here; the run prints how many.

Why a dropped request loses nothing (a request that comes less than the
receiver's latency after a keyframe is about a packet sent before it) is
videorecipes.KeyframeHoldoff's docstring; this test checks the filter on
fixed times and that it works in the applications, not the frames.

Exit codes: 0 pass, 1 fail, 77 skipped (no PyGObject / GStreamer bindings or
a plugin the recipe needs is missing).  About 35 s.

    /usr/bin/python3 tests/senders/keyframe_holdoff.py [-v]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, HERE)
import videorecipes  # noqa: E402

SECONDS = 6
DROP = "every=50,burst=3"
#: the hold must remove at least this share of the keyframes the requests make
MAX_KEYFRAME_RATIO = 0.8


def check_arithmetic(failures):
    # (times that binary floating point holds exactly)
    h = videorecipes.KeyframeHoldoff(0.25)
    got = [h.request(0.0)]                  # no keyframe yet: passes
    h.keyframe(1.0)
    got += [h.request(1.0), h.request(1.24), h.request(1.25), h.request(1.5)]
    h.keyframe(1.75)
    got += [h.request(1.875), h.request(0.5)]  # a time before the keyframe: passes
    want = [True, False, False, True, True, False, True]
    if got != want or (h.passed, h.dropped) != (4, 3):
        failures.append("KeyframeHoldoff(0.25): %s, passed %d dropped %d; expected %s, 4 and 3"
                        % (got, h.passed, h.dropped, want))
    off = videorecipes.KeyframeHoldoff(0)
    off.keyframe(1.0)
    if not off.request(1.0) or off.dropped:
        failures.append("KeyframeHoldoff(0) dropped a request")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    failures = []
    check_arithmetic(failures)

    import gstbindings              # exits SKIP without the bindings
    import video_recipes
    code = gstbindings.unavailable(video_recipes.NEEDED)
    if code is not None:
        return code
    hold_ms = videorecipes.get("recommended").latency_ms

    runs = {}
    for label, extra in (("hold 0", ["--keyframe-holdoff", "0"]), ("hold default", []),
                         ("by encoder", ["--keyframe-holdoff-by", "encoder"])):
        txj, rxj, _ticks, problems = video_recipes.run_pair(
            "recommended", SECONDS, DROP, verbose=args.verbose,
            tx_args=["--rtx-history-packets", "1"] + extra)
        failures += ["%s: %s" % (label, p) for p in problems]
        if problems:
            continue
        runs[label] = (txj, rxj)
        print("%-12s hold %s ms: requests asked %s, passed %s, dropped %s; keyframes %d of %d "
              "frames (%d forced); frames intact %d" % (
                  label, txj.get("keyframe_holdoff_ms"), rxj.get("keyframe_requests"),
                  txj.get("keyframe_requests_passed"), txj.get("keyframe_requests_dropped"),
                  txj.get("keyframes_sent", 0), txj.get("frames_sent", 0),
                  txj.get("keyframes_forced", 0), rxj.get("frames_intact", 0)))

    if "hold 0" in runs:
        txj, rxj = runs["hold 0"]
        if txj.get("keyframe_holdoff_ms") != 0 or txj.get("keyframe_requests_dropped") != 0:
            failures.append("hold 0: %s ms, %s requests dropped" % (
                txj.get("keyframe_holdoff_ms"), txj.get("keyframe_requests_dropped")))
        if not txj.get("keyframe_requests_passed"):
            failures.append("hold 0: no keyframe request reached the sender (the receiver "
                            "asked %s times)" % rxj.get("keyframe_requests"))
    if "hold default" in runs:
        txj, rxj = runs["hold default"]
        passed, dropped = (txj.get("keyframe_requests_passed", 0),
                           txj.get("keyframe_requests_dropped", 0))
        if txj.get("keyframe_holdoff_ms") != hold_ms:
            failures.append("hold default: %s ms, not the recipe's latency %d"
                            % (txj.get("keyframe_holdoff_ms"), hold_ms))
        if not dropped:
            failures.append("hold default: no request dropped (%d passed)" % passed)
        # one keyframe per request passed, at most
        forced = txj.get("keyframes_forced", 0)
        if not passed or not 1 <= forced <= passed:
            failures.append("hold default: %s keyframes forced for %d requests passed"
                            % (forced, passed))
    if "by encoder" in runs:
        txj, rxj = runs["by encoder"]
        if txj.get("keyframe_holdoff_by") != "encoder" or \
                txj.get("keyframe_holdoff_ms") != hold_ms or \
                txj.get("keyframe_requests_dropped") != 0:
            failures.append("by encoder: held off by %s, %s ms, %s requests dropped; expected "
                            "the encoder, %d ms, none" % (
                                txj.get("keyframe_holdoff_by"), txj.get("keyframe_holdoff_ms"),
                                txj.get("keyframe_requests_dropped"), hold_ms))
        passed, forced = txj.get("keyframe_requests_passed", 0), txj.get("keyframes_forced", 0)
        if not passed or not 1 <= forced <= passed:
            failures.append("by encoder: %s keyframes forced for %d requests" % (forced, passed))
    if "hold 0" in runs and "hold default" in runs:
        k0, k1 = (runs[l][0].get("keyframes_sent", 0) for l in ("hold 0", "hold default"))
        if k1 > MAX_KEYFRAME_RATIO * k0:
            failures.append("the hold sent %d keyframes against %d without it (more than "
                            "%.1f x)" % (k1, k0, MAX_KEYFRAME_RATIO))
    return video_recipes.report(failures)


if __name__ == "__main__":
    sys.exit(main())
