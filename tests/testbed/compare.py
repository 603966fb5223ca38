#!/usr/bin/python3
"""The reference comparison of issue 3: one video stream against one TCP flow on the dumbbell.

Default: 6 Mbit/s raw video, 10 Mbit/s bottleneck, 13-packet drop-tail, 15 s per run, 3
repetitions; each repetition runs bursty, paced (rtpburstpace) and tbf (sender-side token bucket
at 1.1x) with one iperf3 flow, and bursty and paced without TCP.  Prints the medians as a table
and checks them against the issue's "done when" criteria.  Extra arguments go to run.py, e.g.
  sudo /usr/bin/python3 tests/testbed/compare.py --csv /tmp/ref.csv -- --rate 3
"""
import argparse
import os
import signal
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

CASES = [("bursty", 1), ("paced", 1), ("tbf", 1), ("bursty", 0), ("paced", 0)]
SHOW = ["rtp_loss", "rtp_goodput_mbps", "owd_p99_ms", "loss_dl100", "frame_loss", "tcp_mbps",
        "tcp_retrans"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=float, default=15.0)
    ap.add_argument("--quick", action="store_true", help="1 repetition of 5 s (CI smoke test)")
    ap.add_argument("--csv", help="append every run's row here")
    ap.add_argument("runargs", nargs="*", help="after --: more run.py arguments")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.duration = 1, 5.0
    if os.geteuid() != 0:
        sys.exit("compare.py: needs root (network namespaces)")

    signal.signal(signal.SIGTERM, run.on_term)
    rows = {c: [] for c in CASES}
    for rep in range(a.reps):
        for mode, tcp in CASES:
            args = run.parse_args(["--mode", mode, "--tcp", str(tcp), "--duration",
                                   str(a.duration), "--label", "compare-rep%d" % rep]
                                  + a.runargs)
            try:
                row = run.run(args)
            except (KeyboardInterrupt, run.Interrupted):
                sys.exit("compare.py: interrupted, testbed removed")
            if a.csv:
                run.append_csv(a.csv, row)
            print("rep %d %-6s tcp=%d: %s loss=%s tcp=%s" % (
                rep, mode, tcp, row["status"], row.get("rtp_loss"), row.get("tcp_mbps")),
                file=sys.stderr, flush=True)
            rows[(mode, tcp)].append(row)

    def med(case, key):
        v = [float(r[key]) for r in rows[case]
             if r.get("status") == "ok" and r.get(key, "") != ""]
        return statistics.median(v) if v else None

    print("| mode | TCP flows | runs | " + " | ".join(SHOW) + " |")
    print("|---|---|---|" + "---|" * len(SHOW))
    for case in CASES:
        ok = [r for r in rows[case] if r.get("status") == "ok"]
        cells = []
        for k in SHOW:
            m = med(case, k)
            cells.append("—" if m is None else ("%.1f %%" % (100 * m) if "loss" in k else "%g" % m))
        status = str(len(ok)) if ok else rows[case][0]["status"]
        print("| %s | %d | %s | %s |" % (case[0], case[1], status, " | ".join(cells)))

    # The "done when" criteria (medians).
    pl, bl, tl = med(("paced", 1), "rtp_loss"), med(("bursty", 1), "rtp_loss"), \
        med(("tbf", 1), "rtp_loss")
    ptcp, p0 = med(("paced", 1), "tcp_mbps"), med(("paced", 0), "rtp_loss")
    if None in (pl, bl, tl, ptcp, p0):
        print("\ncriteria: not evaluated (a case did not run)")
        return 0
    bneck = float(rows[("paced", 1)][0]["bottleneck_mbps"])
    left = bneck - float(rows[("paced", 1)][0]["rate_mbps"]) * rows[("paced", 1)][0]["streams"]
    checks = [
        ("paced RTP loss <= 5 %", pl <= 0.05),
        ("paced loss >= 10x lower than bursty (%.1f %% vs %.1f %%)" % (100 * pl, 100 * bl),
         pl * 10 <= bl),
        ("paced loss within 1.5x of tbf (%.1f %% vs %.1f %%)" % (100 * pl, 100 * tl),
         pl <= 1.5 * tl),
        ("TCP >= 85 %% of the %.1f Mbit/s the video leaves (%.2f)" % (left, ptcp),
         ptcp >= 0.85 * left),
        ("paced without TCP loses nothing (%.2f %%)" % (100 * p0), p0 == 0),
    ]
    print()
    for text, ok in checks:
        print("%s  %s" % ("PASS" if ok else "FAIL", text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
