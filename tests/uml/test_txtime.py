#!/usr/bin/python3
"""rtpbursttxsink through real qdiscs, in run-uml.sh's User-Mode Linux guest.

    tests/uml/run-uml.sh -- /usr/bin/python3 tests/uml/test_txtime.py

A sender in the namespace $UML_NS_TX hands 200 packets of 1000 bytes to
rtpbursttxsink at once (appsrc, one burst), their DTS 1 ms apart from 200 ms
ahead; a receiver in $UML_NS_RX timestamps their arrival in the kernel
(SO_TIMESTAMPNS).  On the sender's egress:

  fq          the kernel paces: every packet arrives, the median gap within
              10 % of 1 ms, none handed over late; the sink's stats say
              qdisc fq on the veth
  pfifo_fast  it ignores release times: the sink finds it as it starts
              (rtnetlink), warns once naming it and falls back to waiting
              on the clock itself: median gap within 10 % of 1 ms,
              txtime-active false, qdisc pfifo_fast in its stats
  no txtime   txtime=false through pfifo_fast: the sink waits on the clock
              itself, median gap within 10 % of 1 ms, no warning
  etf         mqprio + etf (CLOCK_TAI, delta 10 ms), txtime-clock=tai:
              paced as through fq, every packet received or reported
              dropped by etf (it drops what the guest's late timer makes
              it dequeue past its time: at most 5 %); one more packet
              whose time has passed is
              dropped by etf and reported on the socket's error queue
              (txtime-invalid 1: etf reports a packet late when queued as
              an invalid parameter; one warning); the stats say
              "mqprio: etf" (the queue of priority 0; the veth's other
              queue keeps pfifo_fast)

In every case EOS comes once the pipeline clock passed the last packet's
release time (the sink waits for it, as a synchronising sink would).

The guest's timers are coarse and follow the host's load: a case whose gaps
miss is run once more.  Prints one line per case with the measured gaps.
Exits 77 where the guest has no PyGObject or the plugin.

Roles (the same file): `recv PORT N` in the receiver's namespace prints the
arrival times as JSON; `send ...` in the sender's runs the pipeline and
prints the sink's stats and warnings as JSON.
"""
import json
import os
import statistics
import struct
import sys
import time

import umlnet

N = 200
GAP_NS = 1000000
SIZE = 1000
LEAD_NS = 200000000
PORT = 5000


def receive(port, n):
    """Prints {"seq": [...], "t": [...]}: each packet's sequence number and
    kernel arrival time (ns), after n packets or 3 s without one."""
    seqs, times = [], []
    for data, t in umlnet.receive(port, lambda k: k >= n):
        seqs.append(struct.unpack("!I", data[:4])[0])
        times.append(t)
    print(json.dumps({"seq": seqs, "t": times}), flush=True)


def send(host, port, txtime, clock, late):
    """Runs appsrc ! rtpbursttxsink with N packets pushed at once, DTS
    GAP_NS apart from LEAD_NS ahead (and with `late`, one more packet whose
    time has passed); prints the sink's stats and warnings as JSON."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time is-live=true ! rtpbursttxsink name=sink async=false "
        "processing-deadline=0 host=%s port=%d txtime=%s txtime-clock=%s"
        % (host, port, "true" if txtime else "false", clock))
    src, sink = pipeline.get_by_name("src"), pipeline.get_by_name("sink")
    src.set_property("caps", Gst.Caps.from_string("application/x-rtp"))
    src.set_property("max-bytes", 0)
    src.set_property("max-buffers", 0)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    if pipeline.get_state(10 * Gst.SECOND)[0] != Gst.StateChangeReturn.SUCCESS:
        sys.exit("send: the pipeline did not reach PLAYING")
    clock_obj = pipeline.get_clock()
    now = clock_obj.get_time() - pipeline.get_base_time()
    first = now + LEAD_NS

    def packet(seq, dts):
        buf = Gst.Buffer.new_wrapped(struct.pack("!I", seq) + bytes(SIZE - 4))
        buf.dts = buf.pts = dts
        return buf

    for i in range(N):
        src.emit("push-buffer", packet(i, first + i * GAP_NS))
    if late:
        src.emit("push-buffer", packet(N, max(0, now - 50000000)))
    src.emit("end-of-stream")
    warnings = umlnet.wait_eos(bus, 30)
    eos_at = clock_obj.get_time() - pipeline.get_base_time()
    # EOS comes once the last release time passed; etf may still report a
    # drop after it, on the socket's error queue, which the sink reads once
    # more as it stops (READY to NULL, when the pipeline's bus no longer
    # takes messages)
    last = first + N * GAP_NS + 50000000
    while clock_obj.get_time() - pipeline.get_base_time() < last:
        time.sleep(0.01)
    active = sink.get_property("txtime-active")
    pipeline.set_state(Gst.State.READY)
    while True:
        msg = bus.pop_filtered(Gst.MessageType.WARNING)
        if msg is None:
            break
        warnings.append(msg.parse_warning()[0].message)
    pipeline.set_state(Gst.State.NULL)
    stats = sink.get_property("stats")
    out = umlnet.structure_dict(stats)
    out["txtime-active"] = active       # while it ran
    out["warnings"] = warnings
    # EOS after the latest release time (ns; negative: before it)
    out["eos-after-last"] = eos_at - (first + (N - 1) * GAP_NS)
    print(json.dumps(out), flush=True)


def run_case(txtime, clock, late):
    """One burst: the receiver's arrivals and the sender's stats."""
    return umlnet.run_pair(__file__, (str(PORT), str(N)),
                           (str(PORT), "1" if txtime else "0", clock, "1" if late else "0"))


def gaps_us(got):
    pairs = sorted(zip(got["seq"], got["t"]))
    t = [p[1] for p in pairs if p[1] is not None]
    return [(b - a) / 1000.0 for a, b in zip(t, t[1:])]


def describe(name, got, stats):
    g = gaps_us(got)
    if len(g) < 2:
        return "%-10s %d/%d received" % (name, len(got["seq"]), N), None
    q = statistics.quantiles(g, n=10)
    med = statistics.median(g)
    line = ("%-10s %d/%d received, gaps median %.1f us (p10 %.1f, p90 %.1f), span %.1f ms; "
            "sink: timed %d, untimed %d, txtime-late %d, txtime-missed %d, txtime-invalid %d, "
            "max-lead %.1f ms, txtime-active %s, qdisc '%s' on '%s', "
            "EOS %.1f ms after the last release time"
            % (name, len(got["seq"]), N, med, q[0], q[-1], sum(g) / 1000.0,
               stats["timed"], stats["untimed"], stats["txtime-late"],
               stats["txtime-missed"], stats["txtime-invalid"], stats["max-lead"] / 1e6,
               stats["txtime-active"], stats["qdisc"], stats["egress"],
               stats["eos-after-last"] / 1e6))
    return line, med


def main():
    not_ready = umlnet.guest_ready(__file__, ("rtpbursttxsink", "appsrc"))
    if not_ready is not None:
        return not_ready

    dev = os.environ["UML_TX_DEV"]
    failures = []
    cases = [
        # name, qdisc set-up, txtime, clock, late packet, expect: release
        # times in force, the stats' qdisc, a warning
        ("fq", [["qdisc", "replace", "dev", dev, "root", "fq", "flow_limit", "1000"]],
         True, "monotonic", False, True, "fq", None),
        ("pfifo_fast", [["qdisc", "replace", "dev", dev, "root", "pfifo_fast"]],
         True, "monotonic", False, False, "pfifo_fast",
         "The qdisc of %s (pfifo_fast) ignores release times" % dev),
        ("no-txtime", [], False, "monotonic", False, False, "not checked", None),
        ("etf", umlnet.etf_setup(dev, 10000000),
         True, "tai", True, True, "mqprio: etf", None),
    ]
    for name, setup, txtime, clock, late, active, qdisc, warning in cases:
        for cmd in setup:
            umlnet.tc(*cmd)
        for attempt in (1, 2):
            got, stats = run_case(txtime, clock, late)
            line, med = describe(name, got, stats)
            print(line + ("" if attempt == 1 else " (again)"), flush=True)
            problems = []
            # etf drops what it dequeues past its time (the guest's timer
            # late by more than delta) and reports it: none lost unreported,
            # and few
            missed = stats["txtime-missed"] if late else 0
            if (sorted(got["seq"]) != sorted(set(got["seq"])) or
                    not set(got["seq"]) <= set(range(N)) or
                    len(got["seq"]) + missed != N or missed > N // 20):
                problems.append("%d of %d packets arrived once, %d reported missed"
                                % (len(set(got["seq"])), N, missed))
            # paced by the kernel or, where it would not, by the sink
            if med is not None and abs(med - GAP_NS / 1000.0) > 0.1 * GAP_NS / 1000.0:
                problems.append("median gap %.1f us not within 10 %% of %d us"
                                % (med, GAP_NS // 1000))
            if stats["txtime-active"] != active:
                problems.append("txtime-active %s" % stats["txtime-active"])
            if stats["qdisc"] != qdisc or stats["egress"] != (dev if txtime else ""):
                problems.append("qdisc '%s' on '%s'" % (stats["qdisc"], stats["egress"]))
            if stats["eos-after-last"] < 0:
                problems.append("EOS %.1f ms before the last release time"
                                % (-stats["eos-after-last"] / 1e6))
            expect_timed = N + (1 if late else 0) if active else 0
            if stats["timed"] != expect_timed or stats["packets-sent"] != N + (1 if late else 0):
                problems.append("sent %d packets, %d timed" % (stats["packets-sent"],
                                                                 stats["timed"]))
            if active and stats["txtime-late"] != (1 if late else 0):
                problems.append("txtime-late %d" % stats["txtime-late"])
            if late:
                # etf reports a packet already late when queued as an invalid
                # parameter, one that waited too long as missed
                if stats["txtime-invalid"] != 1:
                    problems.append("txtime-invalid %d, not 1" % stats["txtime-invalid"])
                if len([w for w in stats["warnings"] if "release time" in w]) != 1:
                    problems.append("warnings %s" % stats["warnings"])
            elif warning:
                if len(stats["warnings"]) != 1 or warning not in stats["warnings"][0]:
                    problems.append("warnings %s" % stats["warnings"])
            elif stats["warnings"]:
                problems.append("warnings %s" % stats["warnings"])
            if not problems:
                break
            print("  %s: %s" % (name, "; ".join(problems)), flush=True)
        else:
            failures.append(name)
        if name == "etf":
            umlnet.tc("qdisc", "del", "dev", dev, "root")
    if failures:
        print("FAILED: %s" % ", ".join(failures))
        return 1
    print("txtime through qdiscs: all %d cases as expected" % len(cases))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "recv":
        receive(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5],
             sys.argv[6] == "1")
    else:
        sys.exit(main())
