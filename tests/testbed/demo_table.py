#!/usr/bin/python3
"""The reference comparison as a Markdown table, for the README's main-job command.

One 6 Mbit/s CBR stream (30 x 1000 B payloads per 40 ms frame) into a 10 Mbit/s bottleneck
with a 13-packet drop-tail queue, sent bursty (no element), through rtpburstpace (b = 1,
duty 0.9), and bursty through a sender-side tbf at 1.1x the stream rate; each with and without
one cubic iperf3 flow.  Default: 3 repetitions of 10 s per case (18 runs, about 4 minutes);
prints the medians as a Markdown table and issue 3's criteria.  Exit 0 after printing the table,
77 with a one-line reason when the machine cannot run the testbed (not root, no namespaces,
no iperf3/PyGObject, no plugin), 1 if runs failed.
  sudo /usr/bin/python3 tests/testbed/demo_table.py
"""
import argparse
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import run  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--plugin-path",
                    default=os.environ.get("GST_PLUGIN_PATH", "").split(os.pathsep)[0]
                    or run.BUILD_PLUGIN_PATH,
                    help="directory of libgstrtpburstpace.so (default: the first directory of "
                         "GST_PLUGIN_PATH, else build/gst of this checkout)")
    ap.add_argument("--csv", help="append every run's row here")
    ap.add_argument("--quiet", action="store_true", help="no per-run progress on stderr")
    a = ap.parse_args()

    why = run.testbed_unavailable(a.plugin_path)
    if why:
        print("testbed table skipped: %s" % why)
        return 77
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        rows = compare.run_cases(compare.ALL_CASES, a.reps, a.duration,
                                 ["--plugin-path", a.plugin_path], a.csv,
                                 log=open(os.devnull, "w") if a.quiet else sys.stderr)
    except (KeyboardInterrupt, run.Interrupted):
        print("interrupted, testbed removed", file=sys.stderr)
        return 1
    r = next((x for v in rows.values() for x in v if x.get("status") == "ok"), None)
    if r is None:
        print("testbed table: no run succeeded: %s" % rows[compare.ALL_CASES[0]][0].get("status"))
        return 1
    print("6 Mbit/s CBR video (%s x %s UYVY, %d packets of %d B payload per frame) into a "
          "10 Mbit/s bottleneck, 13-packet drop-tail, one cubic iperf3 flow; medians of %d x "
          "%g s (kernel %s):\n" % (r["width"], r["height"],
                                    int(r["rtp_sent"]) // max(1, int(r["frames"])),
                                    int(r["mtu"]) - 12, a.reps, a.duration, os.uname().release))
    print(compare.table(rows, compare.ALL_CASES, nice=True))
    checks = compare.criteria(rows)
    if checks:
        print()
        for text, ok in checks:
            print("- %s %s" % ("PASS" if ok else "FAIL", text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
