#!/usr/bin/python3
"""The reference comparison as a Markdown table, for the README's main-job command.

One 6 Mbit/s CBR stream (30 x 1000 B payloads per 40 ms frame) into a 10 Mbit/s bottleneck
with a 13-packet drop-tail queue (by default), sent bursty (no element), through rtpburstpace (b = 1,
duty 0.9), and bursty through a sender-side tbf at 1.1x the stream rate; each with and without
one cubic iperf3 flow.  Default: 3 repetitions of 10 s per case (18 runs, about 5 minutes);
prints a line per run on stderr as it goes, then the medians as a Markdown table and issue 3's
criteria on stdout.  What the tools print (netbed.sh, iperf3, the GStreamer sender and
receiver) goes to a log file (--log; default a new /tmp/rtpburstpace-demo-*.log), named at the
start and again if a run fails.  Exit 0 after printing the table, 77 with a one-line reason
when the machine cannot run the testbed (not root, no namespaces, no iperf3/PyGObject, no
plugin), 1 if runs failed.  run.py arguments after -- choose another path (e.g. -- --rtt 40
--aqm fq_codel --cc bbr); the table's heading says which path the runs had.
  sudo /usr/bin/python3 tests/testbed/demo_table.py
"""
import argparse
import math
import os
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import run  # noqa: E402


def queue_name(row):
    """The bottleneck queue of a run as words: '13-packet drop-tail', 'fq_codel (limit 10240)'."""
    if row["aqm"] == "pfifo":
        return "%s-packet drop-tail" % row["queue"]
    return "%s (limit %s packets)" % (row["aqm"], row["queue"])


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
    ap.add_argument("--log", metavar="FILE",
                    help="append the tools' output here (default: a new "
                         "/tmp/rtpburstpace-demo-<date>-<time>.log)")
    ap.add_argument("--quiet", action="store_true",
                    help="no progress on stderr: only the table, or why runs failed")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    runargs = argv[cut + 1:]

    why = run.testbed_unavailable(a.plugin_path)
    if why:
        print("testbed table skipped: %s" % why)
        return 77
    log = a.log or os.path.join(tempfile.gettempdir(), time.strftime(
        "rtpburstpace-demo-%Y%m%d-%H%M%S.log"))
    n = a.reps * len(compare.ALL_CASES)
    if not a.quiet:
        # + TCP warm-up, testbed set-up and tear-down, quiet-CPU check: ~5 s a run
        minutes = math.ceil(n * (a.duration + 5) / 60)
        print("Testbed: the stream against a real TCP flow (iperf3) through a 10 Mbit/s "
              "bottleneck in network namespaces,\n%d runs of %g s, %s; what the tools print goes "
              "to %s\n" % (n, a.duration, "about %d minutes" % minutes if minutes > 1 else
                           "a minute or so", log), file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        rows = compare.run_cases(compare.ALL_CASES, a.reps, a.duration,
                                 ["--plugin-path", a.plugin_path, "--log", log] + runargs,
                                 a.csv,
                                 log=None if a.quiet else sys.stderr)
    except (KeyboardInterrupt, run.Interrupted):
        print("interrupted, testbed removed; the tools' output is in %s" % log, file=sys.stderr)
        return 1
    if not a.quiet:
        print(file=sys.stderr, flush=True)
    failed = [x for v in rows.values() for x in v if x.get("status", "").startswith("error")]
    r = next((x for v in rows.values() for x in v if x.get("status") == "ok"), None)
    if r is None:
        print("testbed table: no run succeeded: %s; the tools' output is in %s" % (
            rows[compare.ALL_CASES[0]][0].get("status"), log))
        return 1
    print("%g Mbit/s CBR video (%s x %s UYVY, %d packets of %d B payload per frame) into a "
          "%g Mbit/s bottleneck, %s, round trip %.1f ms (ping), one %s iperf3 flow (%s router); "
          "medians of %d x %g s (kernel %s):\n" % (
              float(r["rate_mbps"]), r["width"], r["height"],
              int(r["rtp_sent"]) // max(1, int(r["frames"])), int(r["mtu"]) - 12,
              float(r["bottleneck_mbps"]), queue_name(r), float(r["rtt_ms"]), r["cc"],
              r["router"], a.reps, a.duration, os.uname().release))
    print(compare.table(rows, compare.ALL_CASES, nice=True))
    checks = compare.criteria(rows)
    if checks:
        print()
        for text, ok in checks:
            print("- %s %s" % ("PASS" if ok else "FAIL", text))
    if failed:
        print("\n%d of %d runs failed (first: %s); the tools' output is in %s" % (
            len(failed), n, failed[0]["status"][len("error: "):], log))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
