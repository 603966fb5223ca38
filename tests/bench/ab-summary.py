#!/usr/bin/env python3
"""Two builds of the element side by side: the figures of interleaved pacebench and groupbench
runs, as docs/performance.md quotes them.

    tests/bench/ab-summary.py DIR BEFORE AFTER

DIR holds pacebench/V-N.json (`pacebench a ... -o DIR/pacebench/V-N`) and, where run,
groupbench/V-N.json (`groupbench -r 1 ... -o DIR/groupbench/V-N`) for the builds V = BEFORE
and AFTER and the repetitions N; a repetition counts where both builds have it.  Per figure it
prints both medians, their ratio AFTER / BEFORE, and the median of the repetitions' own ratios
(the pair ran back to back, so it cancels the slower drifts of a shared machine) with how many
of them are below 1.  pacebench: the element's CPU per run (every CPU run of every repetition),
its pacing thread's (the median of each repetition's), element / identity; groupbench: the
first cell's task CPU per slot, alone and in the group."""

import argparse
import json
import os
import re
import statistics
import sys


def reps(directory, tool, before, after):
    """The repetitions N for which both builds have a file."""
    pat = re.compile(r"^(.+)-(\d+)\.json$")
    seen = {}
    if not os.path.isdir(os.path.join(directory, tool)):
        return []
    for name in os.listdir(os.path.join(directory, tool)):
        m = pat.match(name)
        if m and m.group(1) in (before, after):
            seen.setdefault(int(m.group(2)), set()).add(m.group(1))
    return sorted(n for n, v in seen.items() if v == {before, after})


def load(directory, tool, variant, n):
    with open(os.path.join(directory, tool, "%s-%d.json" % (variant, n))) as f:
        return json.load(f)


def row(name, pooled, pairs):
    """pooled: {variant: [values]}, in (before, after) order; pairs: [after / before]."""
    (b, vb), (a, va) = pooled
    mb, ma = statistics.median(vb), statistics.median(va)
    below = sum(1 for r in pairs if r < 1)
    print("| %s | %.4g | %.4g | %.3f | %.3f (%d of %d below 1) |" % (
        name, mb, ma, ma / mb, statistics.median(pairs), below, len(pairs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory")
    ap.add_argument("before")
    ap.add_argument("after")
    a = ap.parse_args()
    b, f = a.before, a.after
    if not (reps(a.directory, "pacebench", b, f) or reps(a.directory, "groupbench", b, f)):
        sys.exit("no repetition with both %s and %s in %s" % (b, f, a.directory))

    print("| figure | %s | %s | %s / %s | median of the pairs' ratios |" % (b, f, f, b))
    print("|---|---|---|---|---|")
    ns = reps(a.directory, "pacebench", b, f)
    if ns:
        el = {b: [], f: []}
        th = {b: [], f: []}
        ratio = {b: [], f: []}
        pel, pth, pra = [], [], []
        for n in ns:
            cpu = {v: load(a.directory, "pacebench", v, n)["scenarios"][0]["cpu"]
                   for v in (b, f)}
            for v in (b, f):
                el[v] += cpu[v]["element_s"]
                th[v].append(cpu[v]["element_task_thread_median_s"])
                ratio[v].append(cpu[v]["ratio"])
            pel.append(cpu[f]["element_median_s"] / cpu[b]["element_median_s"])
            pth.append(cpu[f]["element_task_thread_median_s"]
                       / cpu[b]["element_task_thread_median_s"])
            pra.append(cpu[f]["ratio"] / cpu[b]["ratio"])
        row("pacebench, element CPU per run (s)", [(b, el[b]), (f, el[f])], pel)
        row("pacebench, pacing thread per run (s)", [(b, th[b]), (f, th[f])], pth)
        row("pacebench, element / identity", [(b, ratio[b]), (f, ratio[f])], pra)
    ns = reps(a.directory, "groupbench", b, f)
    if ns:
        for key, name in (("alone", "groupbench, task µs per slot, alone"),
                          ("group", "groupbench, task µs per slot, in the group")):
            vals = {v: [load(a.directory, "groupbench", v, n)["cells"][0][key][0]
                        ["task_us_per_slot"] for n in ns] for v in (b, f)}
            row(name, [(b, vals[b]), (f, vals[f])],
                [y / x for x, y in zip(vals[b], vals[f])])


if __name__ == "__main__":
    main()
