#!/usr/bin/python3
"""Congestion control side by side: the element's gcc and tfrc, gst-plugins-rs's rtpgccbwe
and the fixed cap, on each path and beside each competitor.

    sudo /usr/bin/python3 tests/testbed/cc_matrix.py --out DIR [--paths P,...]
         [--competitors C,...] [--reps N] [--cases C,...] [--source NAME]

For every path and competitor it runs tests/testbed/recipes.py once, the cases interleaved
(one run of each, then the next repetition), into DIR/PATH-COMPETITOR/, then writes
DIR/matrix.md with tests/testbed/recipes_matrix.py (a row per path, competitor and case:
frames intact, the media rate that reached the receiver from the 5th second on, the time to
80 %% of min (source, fair share), the frames' delay p95, keyframes sent, ...).  A path or
competitor already done (its recipes.csv has every run) is kept: the matrix can be run a part
at a time and resumed.  The cases (--cases):

    recommended      send-video's recommendation: congestion-control=gcc, the encoder following
    capped-rtx-tfrc  the same with congestion-control=tfrc
    gccbwe-rtx       rtpgccbwe in the element's place (tests/testbed/build-rtpgccbwe.sh builds it
                     with cargo into a cache; without cargo recipes.py skips the path)
    capped-rtx       the fixed 6 Mbit/s cap with retransmission, no rate control

Paths (--paths, default all), as run.py options (ns-3 router where the kernel lacks them):
%(paths)s

Competitors (--competitors, default all): %(competitors)s.

Sources (--source, default send-video's own; the matrix's source column names it):
%(sources)s

About 33 s a run: 4 cases x 3 repetitions is ~7 minutes per path and competitor, the whole
matrix (%(n)d of them) ~%(hours).1f hours.  Needs root; Debian's /usr/bin/python3.
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

PATHS = [
    ("dt13", [], "drop-tail 13 packets, RTT < 1 ms"),
    ("dt50-rtt40", ["--rtt", "40", "--queue", "50"], "drop-tail 50, RTT 40 ms"),
    ("dt125-rtt100", ["--rtt", "100", "--queue", "125"], "drop-tail 125, RTT 100 ms"),
    ("fqcodel-rtt100", ["--aqm", "fq_codel", "--rtt", "100"], "fq_codel, RTT 100 ms"),
    ("redecn-rtt40", ["--aqm", "red-ecn", "--rtt", "40"], "RED with ECN, RTT 40 ms"),
    ("halving-dt50-rtt40", ["--rtt", "40", "--queue", "50", "--router", "ns3",
                            "--bottleneck-low", "5", "--switch-at", "8,14"],
     "drop-tail 50, RTT 40 ms, 5 Mbit/s from 8 to 14 s of the video"),
]
COMPETITORS = [
    ("cubic", ["--tcp", "1"], ["--cc", "cubic"]),
    ("bbr", ["--tcp", "1"], ["--cc", "bbr"]),
    ("web", ["--tcp", "1", "--web-flows", "6"], []),
    ("none", ["--tcp", "0"], []),
]
#: the second source: moving bars at 720p, no B-frames (tune=zerolatency, as a real-time
#: sender sets it), another GOP and other content than send-video's zone plate with B-frames
SOURCES = [
    ("default", None, "send-video's own (a zone plate, x264enc 4 Mbit/s, 2 B-frames, "
                      "keyframe every 50)"),
    ("bars", "videotestsrc is-live=true pattern=smpte horizontal-speed=8 ! "
             "video/x-raw,width=1280,height=720,framerate=25/1 ! x264enc bitrate=4000 "
             "tune=zerolatency speed-preset=superfast key-int-max=50",
     "moving SMPTE bars, x264enc 4 Mbit/s tune=zerolatency (no B-frames), keyframe every 50"),
]
CASES = "recommended,capped-rtx-tfrc,gccbwe-rtx,capped-rtx"
RUN_S = 33

__doc__ = __doc__ % {
    "paths": "\n".join("    %-16s %s" % (name, label) for name, _a, label in PATHS),
    "sources": "\n".join("    %-16s %s" % (n, d) for n, _l, d in SOURCES),
    "competitors": "cubic, bbr (one TCP flow of each), web (six users of short downloads), "
                   "none",
    "n": len(PATHS) * len(COMPETITORS),
    "hours": len(PATHS) * len(COMPETITORS) * 4 * 3 * RUN_S / 3600.0,
}


def done(out, runs):
    try:
        with open(os.path.join(out, "recipes.csv")) as f:
            return sum(1 for r in csv.DictReader(f) if r.get("status") == "ok") >= runs
    except OSError:
        return False


def pick(table, names, what):
    if names is None:
        return table
    chosen = [row for row in table if row[0] in names.split(",")]
    unknown = set(names.split(",")) - {row[0] for row in table}
    if unknown:
        sys.exit("cc_matrix.py: unknown %s: %s" % (what, ", ".join(sorted(unknown))))
    return chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--out", required=True, help="the results' directory")
    ap.add_argument("--paths", help="comma-separated path names (default: all)")
    ap.add_argument("--competitors", help="comma-separated competitors (default: all)")
    ap.add_argument("--cases", default=CASES)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--source", default="default", choices=[n for n, _l, _d in SOURCES])
    a = ap.parse_args()
    source = [l for n, l, _d in SOURCES if n == a.source][0]
    cell = "%s-%s" if a.source == "default" else "%s-%s-" + a.source
    n_cases = len(a.cases.split(","))
    dirs = []
    for name, path_args, _label in pick(PATHS, a.paths, "path"):
        for comp, recipe_args, run_args in pick(COMPETITORS, a.competitors, "competitor"):
            out = os.path.join(a.out, cell % (name, comp))
            dirs.append(out)
            if done(out, n_cases * a.reps):
                print("cc_matrix.py: %s-%s done already" % (name, comp), file=sys.stderr)
                continue
            tcp = recipe_args[1]
            cmd = [sys.executable, os.path.join(HERE, "recipes.py"), "--reps", str(a.reps),
                   "--out", out] + recipe_args[2:] + (
                       ["--cases", a.cases, "--cases-no-tcp", ""] if tcp != "0" else
                       ["--cases", a.cases, "--cases-no-tcp", a.cases]) + [
                           "--tcp", tcp] + (["--source", source] if source else []) + [
                               "--"] + path_args + run_args
            print("cc_matrix.py: %s-%s: %s" % (name, comp, " ".join(cmd)), file=sys.stderr,
                  flush=True)
            rc = subprocess.call(cmd)
            if rc == 77:
                print("cc_matrix.py: %s-%s skipped" % (name, comp), file=sys.stderr)
            elif rc != 0:
                print("cc_matrix.py: %s-%s: recipes.py exited %d" % (name, comp, rc),
                      file=sys.stderr)
    have = [d for d in dirs if os.path.exists(os.path.join(d, "recipes.csv"))]
    if not have:
        return 1
    labels = [x for d in have for x in (["--source", "%s=%s" % (a.source, d)] if source else [])]
    table = subprocess.run([sys.executable, os.path.join(HERE, "recipes_matrix.py")] + labels
                           + have,
                           stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    with open(os.path.join(a.out, "matrix.md"), "w") as f:
        f.write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
