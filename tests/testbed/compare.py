#!/usr/bin/python3
"""The reference comparison of issue 3: one video stream against one TCP flow on the dumbbell.

Default: 6 Mbit/s raw video (30 x 1000 B payloads per 40 ms frame, as in the papers), 10 Mbit/s
bottleneck, 13-packet drop-tail, 15 s per run, 3 repetitions; each repetition runs bursty, paced
(rtpburstpace) and tbf (sender-side token bucket at 1.1x) with one iperf3 flow, and bursty and
paced without TCP (--all-cases: tbf without TCP too).  Prints the medians as a Markdown table
and checks them against the issue's "done when" criteria; --ccs cubic,bbr does it for each
TCP, all cases interleaved.  Extra arguments go to run.py, e.g.
  sudo /usr/bin/python3 tests/testbed/compare.py --csv /tmp/ref.csv -- --rate 3
  sudo /usr/bin/python3 tests/testbed/compare.py -- --duty 1.0 --slot-jitter 0
"""
import argparse
import os
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

CASES = [("bursty", 1), ("paced", 1), ("tbf", 1), ("bursty", 0), ("paced", 0)]
ALL_CASES = CASES + [("tbf", 0)]
SHOW = ["rtp_loss", "rtp_goodput_mbps", "owd_p99_ms", "loss_dl100", "frame_loss", "tcp_mbps",
        "tcp_retrans"]
HEADER = {"rtp_loss": "RTP loss", "rtp_goodput_mbps": "RTP goodput Mbit/s",
          "owd_p99_ms": "one-way delay p99 ms", "loss_dl100": "loss at 100 ms deadline",
          "frame_loss": "frames damaged", "tcp_mbps": "TCP Mbit/s", "tcp_retrans": "TCP retransmits"}
MODE_NAME = {"bursty": "bursty (no element)", "paced": "rtpburstpace", "tbf": "bursty + tbf 1.1x"}


class Progress:
    """One line of progress per run on a stream (None: nowhere).  live: each part is printed
    as it comes (the line starts when the run does); else the line is printed whole at its end,
    so that tools printing to the same terminal meanwhile do not break it up."""

    def __init__(self, stream, live):
        self.stream, self.live, self.parts = stream, live, []

    def say(self, text):
        self.parts.append(text)
        if self.stream is not None and self.live:
            print(text, end="", file=self.stream, flush=True)

    def end(self, text):
        self.say(text + "\n")
        if self.stream is not None and not self.live:
            print("".join(self.parts), end="", file=self.stream, flush=True)
        self.parts = []


def run_cases(cases, reps, duration, runargs, csv_path=None, log=sys.stderr, case_args=None,
              keep=None, mode_name=MODE_NAME):
    """Run every case `reps` times (interleaved); {case: [row, ...]}.  A case is (mode, tcp);
    case_args, if given, maps the mode to the run.py arguments that make it (default: --mode
    mode); keep, if given, is a directory for the raw logs of the first repetition.  A run that
    fails is recorded with status "error: ..." and the others go on.  Progress goes to `log`
    (None: nowhere), a line per run such as
      [ 5/18] rtpburstpace, 1 TCP flow  rep 1/3 ... done: RTP loss 2.9 %, TCP 3.71 Mbit/s (15 s)
    begun when the run starts if the tools' output goes to a file (run.py --log in runargs),
    else printed whole when the run ends."""
    rows = {c: [] for c in cases}
    total = reps * len(cases)
    names = {(m, t): "%s, %s" % (mode_name.get(m, m), "%d TCP flow%s" % (t, "s" * (t > 1))
                                  if t else "no TCP") for m, t in cases}
    width = max(len(x) for x in names.values())
    n = 0
    for rep in range(reps):
        for mode, tcp in cases:
            extra = (case_args or {}).get(mode, ["--mode", mode])
            if keep and rep == 0:
                extra = extra + ["--keep", os.path.join(keep, "%s-tcp%d" % (mode, tcp))]
            args = run.parse_args(extra + ["--tcp", str(tcp), "--duration", str(duration),
                                           "--label", "compare-rep%d" % rep] + runargs)
            n += 1
            p = Progress(log, bool(args.log))
            p.say("[%*d/%d] %-*s  rep %d/%d ... " % (len(str(total)), n, total, width,
                                                    names[(mode, tcp)], rep + 1, reps))
            t0 = time.monotonic()
            try:
                row = run.run(args, on_wait=(lambda busy, p=p: p.say(
                    "CPU busy (%.0f %%), waiting ... " % (100 * busy)))
                    if p.live else None)
            except (KeyboardInterrupt, run.Interrupted):
                p.end("interrupted")
                raise
            except Exception as e:  # one failed run must not lose the others
                # e.g. "sender failed: " and the tail of its stderr: the first and last lines
                msg = [x.strip() for x in str(e).splitlines() if x.strip()] or [repr(e)]
                msg = (msg[0] if len(msg) == 1 else "%s ... %s" % (msg[0], msg[-1]))[:200]
                row = {"status": "error: " + msg, "label": args.label, "mode": mode,
                       "tcp_flows": tcp}
                p.end("FAILED: " + msg)
            else:
                if row["status"] == "ok":
                    p.end("done: RTP loss %s%s (%.0f s)" % (
                        pct(row.get("rtp_loss")),
                        ", TCP %s Mbit/s" % num(row.get("tcp_mbps"), "%.2f") if tcp else "",
                        time.monotonic() - t0))
                else:
                    p.end(row["status"])
            if csv_path:
                run.append_csv(csv_path, row)
            rows[(mode, tcp)].append(row)
    return rows


def pct(x):
    """A share as "2.9 %" ("?" if missing)."""
    return "?" if x in ("", None) else "%.1f %%" % (100 * float(x))


def num(x, fmt="%.3g"):
    return "?" if x in ("", None) else fmt % float(x)


def median(rows, case, key):
    v = [float(r[key]) for r in rows.get(case, [])
         if r.get("status") == "ok" and r.get(key, "") not in ("", None)]
    return statistics.median(v) if v else None


def table(rows, cases, nice=False, show=SHOW, header=HEADER, mode_name=MODE_NAME, percent=None):
    """Markdown table of the medians; the keys in `percent` (default: those with "loss" in
    their name) are shares shown in %."""
    head = [header[k] for k in show] if nice else show
    out = ["| mode | TCP flows | runs | " + " | ".join(head) + " |",
           "|---|---|---|" + "---|" * len(show)]
    for case in cases:
        ok = [r for r in rows[case] if r.get("status") == "ok"]
        cells = []
        for k in show:
            m = median(rows, case, k)
            pct_key = k in percent if percent is not None else "loss" in k
            cells.append("—" if m is None else ("%.1f %%" % (100 * m) if pct_key
                                                 else "%.3g" % m))
        status = str(len(ok)) if ok else rows[case][0].get("status", "?")
        if status.startswith("error"):
            status = "failed"
        out.append("| %s | %d | %s | %s |" % (mode_name[case[0]] if nice else case[0], case[1],
                                               status, " | ".join(cells)))
    return "\n".join(out)


def criteria(rows):
    """[(text, passed)] for issue 3's criteria, or None if a case did not run."""
    pl, bl, tl = (median(rows, (m, 1), "rtp_loss") for m in ("paced", "bursty", "tbf"))
    ptcp, p0 = median(rows, ("paced", 1), "tcp_mbps"), median(rows, ("paced", 0), "rtp_loss")
    if None in (pl, bl, tl, ptcp, p0):
        return None
    r0 = rows[("paced", 1)][0]
    left = float(r0["bottleneck_mbps"]) - float(r0["rate_mbps"]) * int(r0["streams"])
    return [
        ("paced RTP loss <= 5 %% (%.1f %%)" % (100 * pl), pl <= 0.05),
        ("paced loss >= 10x lower than bursty (%.1f %% vs %.1f %%)" % (100 * pl, 100 * bl),
         pl * 10 <= bl),
        ("paced loss within 1.5x of tbf (%.1f %% vs %.1f %%)" % (100 * pl, 100 * tl),
         pl <= 1.5 * tl),
        ("TCP >= 85 %% of the %.1f Mbit/s the video leaves (%.2f)" % (left, ptcp),
         ptcp >= 0.85 * left),
        ("paced without TCP loses nothing (%.2f %%)" % (100 * p0), p0 == 0),
    ]


def case_parser(doc, quick_help):
    """Command line of a script that runs cases: its docstring as help, --reps, --duration,
    --quick, and run.py arguments after --."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=doc.split("\n\n", 1)[1])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=float, default=15.0)
    ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("runargs", nargs="*", help="after --: more run.py arguments")
    return ap


def main():
    ap = case_parser(__doc__, "1 repetition of 5 s (CI smoke test)")
    ap.add_argument("--all-cases", action="store_true", help="also tbf without TCP")
    ap.add_argument("--csv", help="append every run's row here")
    ap.add_argument("--ccs", metavar="CC,CC",
                    help="the comparison once per TCP congestion control (run.py --cc), all "
                         "cases interleaved in each repetition: a table and the criteria for "
                         "each (default: run.py's --cc, cubic)")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.duration = 1, 5.0
    if os.geteuid() != 0:
        sys.exit("compare.py: needs root (network namespaces)")

    signal.signal(signal.SIGTERM, run.on_term)
    cases = ALL_CASES if a.all_cases else CASES
    ccs = a.ccs.split(",") if a.ccs else [None]
    # a case of each congestion control is "mode/cc", run with --mode mode --cc cc
    runs = [("%s/%s" % (m, cc) if cc else m, t) for cc in ccs for m, t in cases]
    args = {"%s/%s" % (m, cc): ["--mode", m, "--cc", cc] for cc in ccs if cc for m, _t in cases}
    names = {"%s/%s" % (m, cc): "%s, %s" % (MODE_NAME[m], cc) for cc in ccs if cc
             for m, _t in cases}
    try:
        rows = run_cases(runs, a.reps, a.duration, a.runargs, a.csv, case_args=args or None,
                         mode_name=dict(MODE_NAME, **names))
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("compare.py: interrupted, testbed removed")
    for cc in ccs:
        of_cc = {(m, t): rows[("%s/%s" % (m, cc) if cc else m, t)] for m, t in cases}
        if cc:
            print("\n%s:\n" % cc)
        # the share of the CPU the hypervisor took meanwhile: these VMs are shared
        print(table(of_cc, cases, show=SHOW + ["cpu_steal"]))
        checks = criteria(of_cc)
        if checks is None:
            print("\ncriteria: not evaluated (a case did not run)")
            continue
        print()
        for text, ok in checks:
            print("%s  %s" % ("PASS" if ok else "FAIL", text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
