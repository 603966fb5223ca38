#!/usr/bin/python3
"""Several synchronised streams on one bottleneck: each paced alone, with other duties, or
through one schedule (rtpburstpace group), against one stream of their total rate.

N raw video streams (rtpvrawpay, 1000 B payloads, 25 fps) from N live videotestsrc in one
pipeline: their frames are made at the same instants.  Together they carry the rate of one
6 Mbit/s stream (N = 2: 2 x 3 Mbit/s; N = 4: 4 x 1.5 Mbit/s) across a 10 Mbit/s bottleneck with
a 13-packet drop-tail queue, beside one cubic iperf3 flow (and without TCP for the schedule and
the single stream).  Cases:
  single     one 6 Mbit/s stream through rtpburstpace (the reference)
  bursty<N>  N streams, no element
  paced<N>   N streams, each through its own rtpburstpace (duty 0.9)
  duty<N>    the same with a different duty per stream (0.9, 0.7 / 0.9, 0.8, 0.7, 0.6: the
             papers' advice for de-synchronising streams)
  group<N>   N streams through one schedule: the same elements with group=link
Default: 3 repetitions of 15 s per case, interleaved (about 20 minutes for N = 2 and 4).  Prints
the medians as a Markdown table (RTP loss of all streams and of the worst stream, frames
damaged, TCP Mbit/s) and issue 14's criterion: with two streams the worst stream of the group
loses at most 1.15 x what the single stream loses, TCP >= 3.4 Mbit/s, and no loss without TCP.
  sudo /usr/bin/python3 tests/testbed/streams.py --csv docs/results/streams/streams.csv
  sudo /usr/bin/python3 tests/testbed/streams.py --quick
"""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import run  # noqa: E402

DUTIES = {2: "0.9,0.7", 4: "0.9,0.8,0.7,0.6"}
TOTAL_MBPS = 6.0


def case_args(n_streams, total=TOTAL_MBPS):
    """run.py arguments of every case (the keys are the case names)."""
    args = {"single": ["--mode", "paced", "--streams", "1", "--rate", "%g" % total]}
    for n in n_streams:
        each = ["--streams", str(n), "--rate", "%g" % (total / n)]
        args["bursty%d" % n] = ["--mode", "bursty"] + each
        args["paced%d" % n] = ["--mode", "paced"] + each
        args["duty%d" % n] = ["--mode", "paced", "--duties", DUTIES[n]] + each
        args["group%d" % n] = ["--mode", "paced", "--element-prop", "group=link"] + each
    return args


def names(n_streams, total=TOTAL_MBPS):
    out = {"single": "one %g Mbit/s stream, rtpburstpace" % total}
    for n in n_streams:
        each = "%d x %g Mbit/s" % (n, total / n)
        out["bursty%d" % n] = "%s, bursty" % each
        out["paced%d" % n] = "%s, paced each" % each
        out["duty%d" % n] = "%s, paced each, duty %s" % (each, DUTIES[n].replace(",", "/"))
        out["group%d" % n] = "%s, one schedule (group)" % each
    return out


def cases_for(n_streams):
    cases = [("single", 1)]
    for n in n_streams:
        cases += [("bursty%d" % n, 1), ("paced%d" % n, 1), ("duty%d" % n, 1), ("group%d" % n, 1)]
    cases.append(("single", 0))
    cases += [("group%d" % n, 0) for n in n_streams]
    return cases


SHOW = ["rtp_loss", "rtp_loss_max_stream", "frame_loss", "owd_p99_ms", "tcp_mbps"]
HEADER = {"rtp_loss": "RTP loss", "rtp_loss_max_stream": "worst stream's loss",
          "frame_loss": "frames damaged", "owd_p99_ms": "one-way delay p99 ms",
          "tcp_mbps": "TCP Mbit/s"}


def criterion(rows):
    """(text, passed) for issue 14's criterion, or None if a case did not run."""
    g = compare.median(rows, ("group2", 1), "rtp_loss_max_stream")
    s = compare.median(rows, ("single", 1), "rtp_loss")
    tcp = compare.median(rows, ("group2", 1), "tcp_mbps")
    g0 = compare.median(rows, ("group2", 0), "rtp_loss")
    if None in (g, s, tcp, g0):
        return None
    ok = g <= 1.15 * s and tcp >= 3.4 and g0 == 0
    return ("one schedule, 2 streams: worst stream %.2f %% <= 1.15 x single %.2f %% (%.2f %%), "
            "TCP %.2f >= 3.4 Mbit/s, without TCP %.2f %% lost"
            % (100 * g, 100 * s, 115 * s, tcp, 100 * g0), ok)


def main():
    ap = compare.case_parser(__doc__, "1 repetition of 5 s")
    ap.add_argument("--streams", default="2,4", help="numbers of streams, e.g. 2 or 2,4")
    ap.add_argument("--total", type=float, default=TOTAL_MBPS,
                    help="Mbit/s of all streams together (default %(default)s; raw frames are "
                         "whole packets of 1000 B: 4 x 1.5 Mbit/s makes 4 x 8 packets a frame, "
                         "32 in all, where one 6 Mbit/s stream has 30; --total 6.4 gives both "
                         "32)")
    ap.add_argument("--cases", help="only these cases, comma-separated names as in the table's "
                    "rows (single, bursty4, paced4, duty4, group4, ...), each with and without "
                    "TCP as in the full set")
    ap.add_argument("--csv", help="append every run's row here")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.duration = 1, 5.0
    if os.geteuid() != 0:
        sys.exit("streams.py: needs root (network namespaces)")
    n_streams = [int(x) for x in a.streams.split(",")]
    cases = cases_for(n_streams)
    if a.cases:
        cases = [c for c in cases if c[0] in a.cases.split(",")]
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        rows = compare.run_cases(cases, a.reps, a.duration, a.runargs, a.csv,
                                 case_args=case_args(n_streams, a.total),
                                 mode_name=names(n_streams, a.total))
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("streams.py: interrupted, testbed removed")
    print(compare.table(rows, cases, nice=True, show=SHOW, header=HEADER,
                        mode_name=names(n_streams, a.total)))
    check = criterion(rows)
    print()
    print("criterion not evaluated (a case did not run)" if check is None else
          "%s  %s" % ("PASS" if check[1] else "FAIL", check[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
