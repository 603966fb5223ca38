#!/usr/bin/python3
"""rtpburstpace release-ahead through rtpbursttxsink, fq and etf, in
run-uml.sh's User-Mode Linux guest.

    tests/uml/run-uml.sh -- /usr/bin/python3 tests/uml/test_release_ahead.py

A live pipeline in the namespace $UML_NS_TX

    videotestsrc is-live=true num-buffers=FRAMES !
      video/x-raw,format=UYVY,width=160,height=32,framerate=25/1 !
      rtpvrawpay mtu=1028 ! rtpburstpace release-ahead=R slot-jitter=0
      auto-margin=false min-slot-duration=1 ! rtpbursttxsink

(11 packets a frame, 275 packets/s: the guest's timers are coarse) sends
through the veth with fq on its egress (run-uml.sh's default, flow_limit
1000, above a frame's packets), and for the last run mqprio + etf; a
receiver in $UML_NS_RX timestamps the arrivals in its kernel
(SO_TIMESTAMPNS).  Three runs of the same pipeline:

  ahead    release-ahead = 40 ms (the frame period): the element hands a
           frame's slots over at once, each packet with its slot's DTS, and
           fq sends it at that time.  Its clock wakes it at most 1.5 times
           a frame (stats: wakeups).
  at-time  release-ahead = 0: the element waits on its clock for each slot
           and pushes it at its time, about slots - 1 wake-ups a frame.
  etf      as ahead, through mqprio + etf (CLOCK_TAI, delta 10 ms) with
           txtime-clock=tai and the sink's ts-offset at 15 ms: a frame's
           first slot is due as the frame completes, so without the offset
           its packet would reach etf after its time and be refused; any
           offset above the hand-over's lateness keeps it.  etf (without
           offload) sends a packet delta before its time, at once if it
           comes later than that: an offset above delta plus the hand-over
           keeps the frame's first gap too.  At most 1.5 wake-ups a frame,
           no packet late; a packet etf drops after waiting past its time
           (the guest's timer late by more than delta) is reported on the
           socket's error queue and counted (txtime-missed), at most 5 %,
           with the sink's one warning.

In each every packet arrives or is reported dropped by etf (the RTP
sequence numbers complete, as many as the sink sent) and the median gap
between packets of the same frame
(RTP timestamp) is within 10 % of equation (2)'s
    dt = dT * duty / ceil (packets / burst-size)
with dT = 40 ms, duty 0.9, burst-size 1 and the packets a frame seen at
the receiver.  auto-margin=false and min-slot-duration=1 keep dt at
equation (2) whatever the guest's timers do (the margin would shorten the
span after late slots; the automatic minimum would give a slot more
packets when the clock wakes late).

The guest's timers follow the host's load: a run whose gaps miss is run
once more.  Prints one line per run with the figures.  Exits 77 where the
guest has no PyGObject or the plugin.

Roles (the same file): `recv PORT` in the receiver's namespace prints the
arrivals as JSON; `send ...` in the sender's runs the pipeline and prints
the element's and the sink's stats as JSON.
"""
import json
import math
import os
import statistics
import struct
import sys

import umlnet

FRAMES = 100
PERIOD_NS = 40000000
DUTY = 0.9
BURST_SIZE = 1
PORT = 5002
# etf sends a packet delta before its time (no offload); the sink's
# ts-offset covers delta and the hand-over of a frame's first slot
ETF_DELTA_NS = 10000000
ETF_TS_OFFSET_NS = 15000000


def receive(port):
    """Prints {"seq": [...], "ts": [...], "t": [...]}: each packet's RTP
    sequence number, RTP timestamp and kernel arrival time (ns), until 3 s
    without a packet."""
    seqs, stamps, times = [], [], []
    for data, t in umlnet.receive(port):
        seq, ts = struct.unpack("!HI", data[2:8])
        seqs.append(seq)
        stamps.append(ts)
        times.append(t)
    print(json.dumps({"seq": seqs, "ts": stamps, "t": times}), flush=True)


def send(host, port, ahead, clock, ts_offset):
    """Runs the pipeline to EOS; prints the element's and the sink's stats
    and the warnings as JSON."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "videotestsrc is-live=true num-buffers=%d ! "
        "video/x-raw,format=UYVY,width=160,height=32,framerate=25/1 ! "
        "rtpvrawpay mtu=1028 ! "
        "rtpburstpace name=pace release-ahead=%d slot-jitter=0 duty=%g "
        "burst-size=%d auto-margin=false min-slot-duration=1 ! "
        "rtpbursttxsink name=sink host=%s port=%d txtime-clock=%s ts-offset=%d"
        % (FRAMES, ahead, DUTY, BURST_SIZE, host, port, clock, ts_offset))
    pace, sink = pipeline.get_by_name("pace"), pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    warnings = umlnet.wait_eos(bus, 60)
    out = {"pace": umlnet.structure_dict(pace.get_property("stats")),
           "txtime-active": sink.get_property("txtime-active")}
    pipeline.set_state(Gst.State.NULL)
    out["sink"] = umlnet.structure_dict(sink.get_property("stats"))
    out["warnings"] = warnings
    print(json.dumps(out), flush=True)


def run_case(ahead, clock, ts_offset):
    return umlnet.run_pair(__file__, (str(PORT),),
                           (str(PORT), str(ahead), clock, str(ts_offset)))


def analyse(got):
    """The packets in sequence order (from the first one received, mod
    2^16), the gaps between packets of the same frame (us), the packets a
    frame (the most common count) and the sequence numbers missing."""
    if not got["seq"]:
        return [], 0, None
    first = got["seq"][0]
    pkts = sorted(((s - first) & 0xffff, ts, t)
                  for s, ts, t in zip(got["seq"], got["ts"], got["t"]))
    missing = (pkts[-1][0] + 1) - len(set(p[0] for p in pkts))
    gaps = [(b[2] - a[2]) / 1000.0 for a, b in zip(pkts, pkts[1:])
            if a[1] == b[1] and b[0] == a[0] + 1 and None not in (a[2], b[2])]
    per_frame = {}
    for _, ts, _ in pkts:
        per_frame[ts] = per_frame.get(ts, 0) + 1
    counts = list(per_frame.values())
    packets_a_frame = max(set(counts), key=counts.count)
    return gaps, missing, packets_a_frame


def main():
    not_ready = umlnet.guest_ready(__file__, ("rtpburstpace", "rtpbursttxsink",
                                              "videotestsrc", "rtpvrawpay"))
    if not_ready is not None:
        return not_ready

    dev = os.environ["UML_TX_DEV"]
    failures = []
    cases = [
        # name, qdisc set-up, release-ahead, the sink's txtime-clock and
        # ts-offset, the stats' qdisc
        ("ahead", [], PERIOD_NS, "monotonic", 0, "fq"),
        ("at-time", [], 0, "monotonic", 0, "fq"),
        ("etf", umlnet.etf_setup(dev, ETF_DELTA_NS),
         PERIOD_NS, "tai", ETF_TS_OFFSET_NS, "mqprio: etf"),
    ]
    for name, setup, ahead, clock, ts_offset, qdisc in cases:
        for cmd in setup:
            umlnet.tc(*cmd)
        for attempt in (1, 2):
            got, stats = run_case(ahead, clock, ts_offset)
            pace, sink = stats["pace"], stats["sink"]
            gaps, missing, n = analyse(got)
            # etf drops what comes after its time (txtime-invalid) or what
            # it dequeues past it (txtime-missed), and reports it
            dropped = sink["txtime-missed"] + sink["txtime-invalid"]
            problems = []
            if not gaps or n is None:
                print("%-8s release-ahead %d ms: %d packets received, no gaps"
                      % (name, ahead // 1000000, len(got["seq"])), flush=True)
                problems.append("no gaps")
            else:
                slots = math.ceil(n / BURST_SIZE)
                dt_us = PERIOD_NS * DUTY / slots / 1000.0
                med = statistics.median(gaps)
                q = statistics.quantiles(gaps, n=10)
                frames = pace["frames"]
                wpf = pace["wakeups"] / frames if frames else float("inf")
                print("%-8s release-ahead %d ms: %d/%d packets received (%d missing), "
                      "%d a frame, %d frames; gaps within a frame: median %.1f us "
                      "(p10 %.1f, p90 %.1f; eq. (2) %.1f us, %+.1f %%); "
                      "wakeups %d = %.2f a frame (slots - 1 = %d); "
                      "element: late-slots %d, max-lateness %.1f ms, unpaced-frames %d; "
                      "sink: timed %d, untimed %d, txtime-late %d, txtime-missed %d, "
                      "txtime-invalid %d, max-lead %.1f ms, qdisc '%s'%s"
                      % (name, ahead // 1000000, len(got["seq"]), sink["packets-sent"],
                         missing, n, frames, med, q[0], q[-1], dt_us,
                         100.0 * (med - dt_us) / dt_us, pace["wakeups"], wpf, slots - 1,
                         pace["late-slots"], pace["max-lateness"] / 1e6,
                         pace["unpaced-frames"], sink["timed"], sink["untimed"],
                         sink["txtime-late"], sink["txtime-missed"], sink["txtime-invalid"],
                         sink["max-lead"] / 1e6, sink["qdisc"],
                         "" if attempt == 1 else " (again)"), flush=True)
                if abs(med - dt_us) > 0.1 * dt_us:
                    problems.append("median gap %.1f us not within 10 %% of %.1f us"
                                    % (med, dt_us))
                if ahead:
                    if wpf > 1.5:
                        problems.append("%.2f wake-ups a frame, more than 1.5" % wpf)
                elif not 0.8 * (slots - 1) <= wpf <= slots:
                    problems.append("%.2f wake-ups a frame, not about %d" % (wpf, slots - 1))
            # every packet: as many as the element and the sink sent, none
            # missing but those etf reported dropped, none twice
            if (missing > dropped or dropped > pace["packets"] // 20 or
                    len(got["seq"]) != len(set(got["seq"])) or
                    len(got["seq"]) + dropped != sink["packets-sent"] or
                    sink["packets-sent"] != pace["packets"] or pace["frames"] < FRAMES - 1):
                problems.append("received %d (%d missing, %d reported dropped), sink sent %d, "
                                "element pushed %d in %d frames"
                                % (len(got["seq"]), missing, dropped, sink["packets-sent"],
                                   pace["packets"], pace["frames"]))
            if not stats["txtime-active"] or sink["qdisc"] != qdisc or \
                    sink["timed"] != sink["packets-sent"]:
                problems.append("txtime-active %s, qdisc '%s', timed %d"
                                % (stats["txtime-active"], sink["qdisc"], sink["timed"]))
            if name == "etf" and sink["txtime-late"]:
                problems.append("txtime-late %d through etf" % sink["txtime-late"])
            # the sink warns once at the first drop etf reports
            expected = 1 if dropped and any("release time" in w for w in stats["warnings"]) else 0
            if len(stats["warnings"]) != expected:
                problems.append("warnings %s" % stats["warnings"])
            if not problems:
                break
            print("  %s: %s" % (name, "; ".join(problems)), flush=True)
        else:
            failures.append(name)
        if setup:
            umlnet.tc("qdisc", "del", "dev", dev, "root")
    if failures:
        print("FAILED: %s" % ", ".join(failures))
        return 1
    print("release-ahead through fq and etf: all %d runs as expected" % len(cases))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "recv":
        receive(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5],
             int(sys.argv[6]))
    else:
        sys.exit(main())
