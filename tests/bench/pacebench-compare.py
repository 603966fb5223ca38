#!/usr/bin/python3
"""Side-by-side pacebench runs of rtpburstpace property sets.

Runs pacebench once per variant and repetition, alternating the variants
(v1 rep 1, v2 rep 1, ..., v1 rep 2, ...), so that a slow spell of a shared
machine hits every variant alike, and prints per scenario the medians over
the repetitions as a Markdown table.

    tests/bench/pacebench-compare.py --reps 3 normal= \\
        fifo=realtime-priority=10 -- a b --seconds 10

A variant is NAME=PROPS, PROPS as for pacebench --props (empty: the
element's defaults).  Arguments after -- go to every pacebench run.  The
JSON of each run is kept in --out (NAME-REP.json); --summarize DIR prints
the table again from a directory of such files without running anything.
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))


def git(*args):
    """git -C SOURCE_ROOT ARGS, or None where there is no git at all."""
    try:
        return subprocess.run(["git", "-C", SOURCE_ROOT] + list(args),
                              capture_output=True, text=True)
    except OSError:
        return None


def source_commit():
    """The commit of the source tree, and whether the element or the
    benchmark differ from it.  "unknown" where that cannot be told: no git
    installed, or a tree that is not a git work tree of its own (a release
    tarball, also one unpacked inside some other repository)."""
    top = git("rev-parse", "--show-toplevel")
    if (top is None or top.returncode != 0
            or os.path.realpath(top.stdout.strip())
            != os.path.realpath(SOURCE_ROOT)):
        why = "no git" if top is None else "not a git work tree"
        return "unknown (%s)" % why
    desc = git("describe", "--always")
    commit = desc.stdout.strip() if desc.returncode == 0 else ""
    if not commit:
        return "unknown (no commit)"
    # 1: differences; anything else but 0 is an error, not a change
    if git("diff", "--quiet", "HEAD", "--", "gst",
           "tests/bench").returncode == 1:
        commit += " with uncommitted changes to gst/ or tests/bench/"
    return commit


def run(args):
    os.makedirs(args.out, exist_ok=True)
    commit = source_commit()
    with open(os.path.join(args.out, "source.txt"), "w") as f:
        f.write("commit %s; pacebench %s\n" % (commit,
                                                " ".join(args.pacebench)))
    env = dict(os.environ)
    env.setdefault("GST_PLUGIN_PATH", os.path.join(args.build, "gst"))
    exe = os.path.join(args.build, "tests", "bench", "pacebench")
    for name, _ in args.variants:
        # an earlier run's extra repetitions must not join the medians
        for old in glob.glob(os.path.join(args.out, name + "-*.json")):
            if re.match(re.escape(name) + r"-\d+\.json$",
                        os.path.basename(old)):
                os.remove(old)
    for rep in range(1, args.reps + 1):
        for name, props in args.variants:
            prefix = os.path.join(args.out, "%s-%d" % (name, rep))
            cmd = [exe, "--props", props, "-o", prefix] + args.pacebench
            print("#", " ".join(cmd), file=sys.stderr, flush=True)
            with open(prefix + ".txt", "w") as log:
                subprocess.run(cmd, env=env, stdout=log,
                               stderr=subprocess.STDOUT, check=True)


def load(directory):
    """{variant: {scenario: [result of each rep, in rep order]}}"""
    runs = {}
    for path in glob.glob(os.path.join(directory, "*-*.json")):
        m = re.match(r"(.+)-(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        name, rep = m.group(1), int(m.group(2))
        with open(path) as f:
            data = json.load(f)
        for sc in data["scenarios"]:
            runs.setdefault(name, {}).setdefault(sc["name"], []).append(
                (rep, sc))
    for name in runs:
        for scen in runs[name]:
            runs[name][scen] = [sc for _, sc in sorted(runs[name][scen],
                                                       key=lambda r: r[0])]
    return runs


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, digits=2):
    return "–" if v is None else "%.*f" % (digits, v)


def row(name, results):
    def each(f):
        return [f(sc) for sc in results]

    rel = each(lambda s: s["release_error_per_packet"])
    # (runs with --no-floor have neither)
    flo = each(lambda s: s.get("floor") or {})
    ratio = each(lambda s: s.get("ratio_to_floor") or {})
    cpu = each(lambda s: s.get("cpu") or {})
    over = each(lambda s: 100.0 * s["frames_over_period_fraction"])
    cols = [
        name,
        "%d" % len(results),
        fmt(med(each(lambda s: s["slots_per_frame"])), 1),
        "%s / %s" % (fmt(med([r["p50_us"] for r in rel]), 0),
                     fmt(med([r["p99_us"] for r in rel]), 0)),
        "%s / %s" % (fmt(med([r.get("p50_us") for r in flo]), 0),
                     fmt(med([r.get("p99_us") for r in flo]), 0)),
        "%s / %s" % (fmt(med([r.get("p50") for r in ratio])),
                     fmt(med([r.get("p99") for r in ratio]))),
        fmt(med(each(lambda s: s["lateness_growth"]["slope_us_per_s"])), 1),
        ", ".join(fmt(v, 1) for v in over),
        fmt(max(each(lambda s: s["frame_end_max_periods"]))),
        "%s / %s (%s×)" % (fmt(med([c.get("element_median_s") for c in cpu])),
                           fmt(med([c.get("identity_median_s")
                                    for c in cpu])),
                           fmt(med([c.get("ratio") for c in cpu]))),
        fmt(max(each(lambda s: 100.0 * s["other_processes_cpu_fraction"])),
            1),
    ]
    return "| " + " | ".join(cols) + " |"


HEADER = ("| variant | runs | slots/frame | release error p50 / p99 (µs) | "
          "floor p50 / p99 | ratio p50 / p99 | lateness slope (µs/s) | "
          "frames ending after ΔT, each run (%) | largest frame end (× ΔT) | "
          "CPU per run, element / identity (s) | other processes, "
          "max (% CPU) |")


def summarize(directory, variants=None):
    runs = load(directory)
    names = variants or sorted(runs)
    scenarios = []
    for name in names:
        for scen in runs.get(name, {}):
            if scen not in scenarios:
                scenarios.append(scen)
    for scen in scenarios:
        print("\n%s (medians over runs; frames after ΔT per run; largest "
              "frame end over all runs)\n" % scen)
        print(HEADER)
        print("|" + "---|" * HEADER.count(" | ") + "---|")
        for name in names:
            results = runs.get(name, {}).get(scen)
            if results:
                print(row(name, results))
    print("\nelement properties:")
    for name in names:
        first = next(iter(runs.get(name, {}).values()), [None])[0]
        if first:
            print("- %s: %s" % (name, first["element_properties"]))
    info = os.path.join(directory, "source.txt")
    if os.path.exists(info):
        with open(info) as f:
            print("element source: " + f.read().strip())


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("variants", nargs="*", metavar="NAME=PROPS")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--build", default=os.path.join(SOURCE_ROOT, "build"))
    p.add_argument("--out", default="pacebench-compare")
    p.add_argument("--summarize", metavar="DIR",
                   help="print the table from DIR's JSON files and exit")
    args = p.parse_args(argv)
    args.pacebench = extra
    if args.summarize:
        names = [v.split("=", 1)[0] for v in args.variants] or None
        summarize(args.summarize, names)
        return
    if not args.variants:
        p.error("name at least one variant (NAME=PROPS)")
    args.variants = [tuple(v.split("=", 1)) if "=" in v else (v, "")
                     for v in args.variants]
    names = [n for n, _ in args.variants]
    if len(set(names)) != len(names) or any(
            not re.match(r"^[A-Za-z0-9_.]+$", n) for n in names):
        p.error("variant names must be distinct words")
    run(args)
    summarize(args.out, names)


if __name__ == "__main__":
    main()
