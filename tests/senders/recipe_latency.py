#!/usr/bin/python3
"""The RTX recipes' receiver latency follows the round trip it measures.

examples/send-video and examples/receive-video with the recommended recipe, as
a user runs them, on loopback with a relay between them that holds every
datagram for D ms each way (the media and the sender's RTCP to the receiver,
the receiver's RTCP with its NACKs back), and receive-video --drop every=7 so
that there are retransmissions whose round trip the jitterbuffer measures.

Every run starts at RTX_LATENCY_MAX_MS and settles once the jitterbuffer
has a round trip and 50 requests counted since (the drops make them within
the run), each change to videorecipes.rtx_latency_ms of what was measured
then; the jitterbuffer's own latency at the end is the one chosen (the
change reached it through rtpbin).

  D = 30 ms (a 60 ms round trip): the latency ends at least at
  rtx_latency_ms(60 ms) = 300 ms and at most RTX_LATENCY_MAX_MS; frames
  intact >= 0.8 x sent.

  D = 120 ms (a 240 ms round trip): settled on a round trip of at least
  240 ms, the latency never leaves RTX_LATENCY_MAX_MS.

  D = 0: it comes down to the recipe's 200 ms, once.

And once with --latency-start 200 (start at the recipe's latency and only go
up, as the RTX recipes did before) at D = 120 ms: the jitterbuffer then has no
retransmission in time, and receive-video's own measurement (request to
arrival, videorecipes.RtxRoundTrip) makes the first raise (or, where
rtpjitterbuffer still took one in time, its round trip of at least 240 ms),
to RTX_LATENCY_MAX_MS.

And without GStreamer, the arithmetic: rtx_latency_ms and RtxLatency (start,
settle, floor, cap, step, only up once settled; more rounds where requests
fail: rtx_rounds, RtxFailures) on fixed inputs.

Exit codes: 0 pass, 1 fail, 77 skipped (no PyGObject / GStreamer bindings or a
plugin the recipe needs is missing).  About 40 s.

    /usr/bin/python3 tests/senders/recipe_latency.py [-v]
"""
import argparse
import collections
import os
import select
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, HERE)
import videorecipes  # noqa: E402

SECONDS = 5
DROP = "every=7"
DELAY_MS = 30
#: a round trip the recipe's 200 ms cannot cover
LONG_DELAY_MS = 120
#: the sender's ports are the receiver's + SENDER_OFFSET (the relay between)
SENDER_OFFSET = 10
#: the plugins the recommended recipe needs on both ends
NEEDED = ("videotestsrc", "x264enc", "h264parse", "rtph264pay", "rtph264depay", "avdec_h264",
          "rtpbin", "rtprtxsend", "rtprtxreceive", "udpsrc", "udpsink")


def check_arithmetic(failures):
    """rtx_latency_ms and RtxLatency on fixed inputs."""
    v = videorecipes
    base = v.RTX_LATENCY_SENDER_MS + v.RTX_LATENCY_DETECT_MS
    cases = [(0.5, 200, 200),                                  # the floor
             (60, 200, base + 3 * 60),                         # 300
             (61.2, 200, base + 190),                          # up to the step: 303.6 -> 310
             (100, 200, v.RTX_LATENCY_MAX_MS),                 # the cap
             (1000, 200, v.RTX_LATENCY_MAX_MS),
             (60, 500, 500)]                                   # a floor above the cap wins
    for rtt, floor, want in cases:
        got = v.rtx_latency_ms(rtt, floor)
        if got != want:
            failures.append("rtx_latency_ms(%g, %d) = %d, expected %d" % (rtt, floor, got, want))
    follow = v.RtxLatency(200)
    seq = [(0, None), (10, None), (50, 270), (49, None), (55, 290), (40, None), (200, 400),
           (300, None)]
    for i, (rtt, want) in enumerate(seq):
        got = follow.update(rtt, i)
        if got != want:
            failures.append("RtxLatency.update(%g) #%d = %s, expected %s" % (rtt, i, got, want))
    if follow.ms != 400 or [c[1] for c in follow.changes] != [270, 290, 400]:
        failures.append("RtxLatency ended at %s with changes %s" % (follow.ms, follow.changes))
    # more rounds where requests fail: 0.001 within ceil(log 0.001 / log failed)
    rounds = [(0.0, 3), (0.05, 3), (0.1, 3), (0.2, 5), (0.5, 10), (0.6, 14), (1.0, float("inf"))]
    for failed, want in rounds:
        got = v.rtx_rounds(failed)
        if got != want:
            failures.append("rtx_rounds(%g) = %s, expected %s" % (failed, got, want))
    for rtt, failed, want in [(17, 0.0, 200), (17, 0.35, base + 7 * 17 + 1),   # 239 -> 240
                              (17, 0.6, base + 14 * 17 + 2),                   # 358 -> 360
                              (17, 1.0, v.RTX_LATENCY_MAX_MS), (90, 0.5, v.RTX_LATENCY_MAX_MS)]:
        got = v.rtx_latency_ms(rtt, 200, failed)
        if got != want:
            failures.append("rtx_latency_ms(%g, 200, %g) = %d, expected %d"
                            % (rtt, failed, got, want))
    # from the start: nothing until the path is measured, then down once, then only up
    follow = v.RtxLatency(200, v.RTX_LATENCY_MAX_MS)
    steps = [(dict(rtx_rtt_ms=0, when=0.5, stream_s=0.0), None, 400),
             (dict(rtx_rtt_ms=17, when=1.0, stream_s=0.5), None, 400),        # failed unknown
             (dict(rtx_rtt_ms=17, when=2.0, failed=0.35, failed_known=True,
                   stream_s=1.5), 240, 240),                                  # down once
             (dict(rtx_rtt_ms=17, when=2.5, failed=0.0, failed_known=True,
                   stream_s=2.0), None, 240),                                 # never down again
             (dict(rtx_rtt_ms=17, when=3.0, failed=0.6, failed_known=True,
                   stream_s=2.5), 360, 360)]                                  # up
    for i, (kw, want, ms) in enumerate(steps):
        got = follow.follow(**kw)
        if got != want or follow.ms != ms:
            failures.append("RtxLatency(200, %d).follow #%d (%s) = %s at %s ms, expected %s at %s"
                            % (v.RTX_LATENCY_MAX_MS, i, kw, got, follow.ms, want, ms))
    if follow.settled != [2.0, 240, 17.0, "rtpjitterbuffer", 0.35] or \
            [c[1] for c in follow.changes] != [240, 360] or follow.start != 400:
        failures.append("RtxLatency from the start: settled %s, changes %s"
                        % (follow.settled, follow.changes))
    # no round trip: the floor after RTX_LATENCY_SETTLE_S of the stream; a long
    # one keeps the start (settled, not changed); the start never below the floor
    quiet = v.RtxLatency(200, 400)
    if quiet.follow(0, 3.0, stream_s=v.RTX_LATENCY_SETTLE_S - 0.1) is not None or \
            quiet.follow(0, 3.2, stream_s=v.RTX_LATENCY_SETTLE_S) != 200 or \
            quiet.settled[1:4] != [200, 0.0, "rtpjitterbuffer"]:
        failures.append("RtxLatency without a round trip: %s, settled %s"
                        % (quiet.changes, quiet.settled))
    long = v.RtxLatency(200, 400)
    if long.follow(240, 1.0, "receive-video", 0.0, False, v.RTX_LATENCY_SETTLE_S) is not None \
            or long.ms != 400 or long.changes or long.settled[1] != 400:
        failures.append("RtxLatency at a 240 ms round trip: %s ms, changes %s, settled %s"
                        % (long.ms, long.changes, long.settled))
    if v.RtxLatency(200, 100).ms != 200 or v.RtxLatency(200).settled != []:
        failures.append("RtxLatency's start below the floor, or its floor start not settled")
    follow = v.RtxLatency(200)
    if follow.update(17, 0, failed=0.0) is not None or follow.update(17, 1, failed=0.6) != 360 \
            or follow.changes[-1][4] != 0.6:
        failures.append("RtxLatency with failed requests: %s" % follow.changes)
    # counted from the first stats with a round trip, once 50 requests were made since
    fails = v.RtxFailures()
    shares = [({"rtx-count": 80, "rtx-success-count": 10}, 0.0, False),   # no round trip yet
              ({"rtx-count": 90, "rtx-success-count": 12, "rtx-rtt": 1}, 0.0, False),  # base
              ({"rtx-count": 139, "rtx-success-count": 12, "rtx-rtt": 1}, 0.0, False),  # 49
              ({"rtx-count": 190, "rtx-success-count": 52, "rtx-rtt": 1}, 0.6, True),
              ({"rtx-count": 190, "rtx-success-count": 300, "rtx-rtt": 1}, 0.0, True)]
    for i, (stats, want, known) in enumerate(shares):
        got = fails.update(stats)
        if abs(got - want) > 1e-9 or fails.known != known:
            failures.append("RtxFailures.update #%d (%s) = %s (known %s), expected %s (%s)"
                            % (i, stats, got, fails.known, want, known))
    # the round trip from the first request to the arrival, late or not
    rt = v.RtxRoundTrip()
    rt.request(5, 1.0)
    rt.request(5, 1.1)              # a second request: the first one counts
    rt.arrival(6, 1.2)              # never asked for
    rt.arrival(5, 1.25)
    rt.arrival(5, 1.3)              # a duplicate: asked once, counted once
    rt.request(65536 + 7, 1.4)      # sequence numbers are 16 bits
    rt.request(8, 3.5)              # forgets what was asked before 1.5
    rt.arrival(7, 3.6)
    rt.request(9, 3.6)
    rt.arrival(9, 3.7)
    rt.request(10, 3.7)
    rt.arrival(10, 4.0)
    got = [round(x, 3) for x in rt.samples]
    if got != [0.25, 0.1, 0.3] or abs(rt.ms() - 100) > 1e-6:
        failures.append("RtxRoundTrip samples %s, shortest %s ms; expected [0.25, 0.1, 0.3], 100"
                        % (got, rt.ms()))


class Relay(threading.Thread):
    """Forwards UDP datagrams from 127.0.0.1:IN to 127.0.0.1:OUT for each
    (IN, OUT) pair, each DELAY_S after it came (the order kept), but those
    for which DROP(datagram) is true."""

    def __init__(self, pairs, delay_s, drop=None):
        super().__init__(daemon=True)
        self.delay = delay_s
        self.drop = drop
        self.dropped = 0
        self.socks = {}
        for port_in, port_out in pairs:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", port_in))
            self.socks[s] = port_out
        self.out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.pending = collections.deque()
        self.stopping = False
        self.forwarded = 0

    def run(self):
        while not self.stopping:
            now = time.monotonic()
            while self.pending and self.pending[0][0] <= now:
                _, data, port = self.pending.popleft()
                self.out.sendto(data, ("127.0.0.1", port))
                self.forwarded += 1
            timeout = max(0.0, self.pending[0][0] - now) if self.pending else 0.05
            ready, _, _ = select.select(list(self.socks), [], [], min(timeout, 0.05))
            for s in ready:
                data = s.recv(65536)
                if self.drop is not None and self.drop(data):
                    self.dropped += 1
                    continue
                self.pending.append((time.monotonic() + self.delay, data, self.socks[s]))

    def stop(self):
        self.stopping = True
        self.join(2)
        for s in list(self.socks) + [self.out]:
            s.close()


def run_through_relay(delay_ms, verbose, rx_args=(), tx_args=(), drop=None):
    """send-video and receive-video (recommended, --drop, RX_ARGS, TX_ARGS)
    with DELAY_MS each way, the relay dropping what DROP (Relay) says;
    returns (tx json, rx json, problems)."""
    import video_recipes          # exits SKIP without the bindings
    p = video_recipes.free_base_port(SENDER_OFFSET + 6)
    q = p + SENDER_OFFSET
    relay = Relay([(q + videorecipes.PORT_RTP, p + videorecipes.PORT_RTP),
                   (q + videorecipes.PORT_RTCP, p + videorecipes.PORT_RTCP),
                   (p + videorecipes.PORT_RTCP_BACK, q + videorecipes.PORT_RTCP_BACK)],
                  delay_ms / 1000.0, drop)
    relay.start()
    try:
        txj, rxj, _ticks, problems = video_recipes.run_pair(
            "recommended", SECONDS, DROP, verbose=verbose, ports=(p, q), rx_args=rx_args,
            tx_args=tx_args)
    finally:
        relay.stop()
    if verbose:
        print("  relay forwarded %d datagrams (dropped %d); latency %s -> %s, changes %s, "
              "settled %s, jitterbuffer %s" % (
                  relay.forwarded, relay.dropped, rxj.get("latency_ms_start"),
                  rxj.get("latency_ms_end"), rxj.get("latency_changes"),
                  rxj.get("latency_settled"), rxj.get("jitterbuffer")))
    return txj, rxj, problems


def check_run(label, delay, txj, rxj, floor, start):
    """What a run through the relay must show; returns the failures."""
    v = videorecipes
    failures = []
    end, changes = rxj.get("latency_ms_end"), rxj.get("latency_changes") or []
    settled = rxj.get("latency_settled")
    jb = rxj.get("jitterbuffer") or {}
    sent, intact = txj.get("frames_sent", 0), rxj.get("frames_intact", 0)
    print("%-28s latency %s -> %s ms, changes %s, settled %s, jitterbuffer rtx-rtt %.1f ms, "
          "frames %d sent %d intact" % (label, rxj.get("latency_ms_start"), end, changes,
                                        settled, (jb.get("rtx-rtt") or 0) / 1e6, sent, intact))
    if rxj.get("latency_ms") != floor or rxj.get("latency_ms_start") != start:
        failures.append("%s: floor %s and start %s ms, expected %d and %d"
                        % (label, rxj.get("latency_ms"), rxj.get("latency_ms_start"),
                           floor, start))
    if jb.get("latency") != end:
        failures.append("%s: the jitterbuffer's latency %s is not the chosen %s"
                        % (label, jb.get("latency"), end))
    for entry in changes + ([settled] if settled else []):
        when, ms, rtt, _source, failed = entry
        want = v.rtx_latency_ms(rtt, floor, failed)
        if entry == settled:
            want = min(start, want)         # settling never raises
        # (the rtx-rtt recorded is rounded to 0.1 ms)
        if rtt and abs(ms - want) > v.RTX_LATENCY_STEP_MS:
            failures.append("%s: %s ms at %s s for rtx-rtt %s ms" % (label, ms, when, rtt))
    if start > floor and not settled:
        failures.append("%s: never settled from %d ms (changes %s)" % (label, start, changes))
    if delay == DELAY_MS:
        low = v.rtx_latency_ms(2 * delay, floor)
        if not (low <= end <= v.RTX_LATENCY_MAX_MS):
            failures.append("%s: latency ended at %s ms (changes %s), expected %d-%d"
                            % (label, end, changes, low, v.RTX_LATENCY_MAX_MS))
        if intact < 0.8 * sent:
            failures.append("%s: frames intact %d < 0.8 x sent %d" % (label, intact, sent))
    elif delay == LONG_DELAY_MS and start > floor:
        if end != v.RTX_LATENCY_MAX_MS or changes or not settled or \
                settled[2] < 2 * LONG_DELAY_MS:
            failures.append("%s: latency %s ms, changes %s, settled %s; expected %d throughout, "
                            "settled on a round trip of at least %d ms"
                            % (label, end, changes, settled, v.RTX_LATENCY_MAX_MS,
                               2 * LONG_DELAY_MS))
    elif delay == LONG_DELAY_MS:
        # (a retransmission that rtpjitterbuffer still takes in time, as
        # one in the stream's first second sometimes is, gives it the
        # round trip itself: then the first raise is its, and as high)
        first_own = changes and (changes[0][3] == "receive-video" or
                                 changes[0][2] >= 2 * LONG_DELAY_MS)
        if end != v.RTX_LATENCY_MAX_MS or not first_own:
            failures.append("%s: latency ended at %s ms (raised %s), expected %d, first "
                            "from receive-video's own round trip (or rtpjitterbuffer's "
                            "of at least %d ms)" % (label, end, changes, v.RTX_LATENCY_MAX_MS,
                                                    2 * LONG_DELAY_MS))
    elif end != floor or [c[1] for c in changes] != [floor]:
        failures.append("%s: latency %s ms (changes %s) on loopback, expected down to %d once"
                        % (label, end, changes, floor))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    failures = []
    check_arithmetic(failures)

    import gstbindings              # exits SKIP without the bindings
    code = gstbindings.unavailable(NEEDED)
    if code is not None:
        return code
    floor = videorecipes.get("recommended").latency_ms
    start = videorecipes.RTX_LATENCY_MAX_MS

    runs = [(DELAY_MS, start), (LONG_DELAY_MS, start), (0, start), (LONG_DELAY_MS, floor)]
    for delay, first in runs:
        rx_args = () if first == start else ("--latency-start", str(first))
        txj, rxj, problems = run_through_relay(delay, args.verbose, rx_args)
        label = "%d ms each way, from %d" % (delay, first)
        failures += ["%s: %s" % (label, p) for p in problems]
        if not problems:
            failures += check_run(label, delay, txj, rxj, floor, first)

    import video_recipes
    return video_recipes.report(failures)


if __name__ == "__main__":
    sys.exit(main())
