#!/usr/bin/python3
"""recipes_matrix.py on committed runs (docs/results/recipe-history/start): one row per
case, in the order the runs came, with the median of frames intact and the runs' own
figures, the path and the competitor read from the rows.  Reads files only (< 1 s)."""
import csv
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DIR = os.path.join(ROOT, "docs", "results", "recipe-history", "start", "ab-rtt100-dt125-cubic")


def main():
    out = subprocess.run([sys.executable, os.path.join(HERE, "recipes_matrix.py"),
                          "--source", "zone=" + DIR, DIR], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    rows = [line for line in out.splitlines()[2:] if line.startswith("|")]
    runs = list(csv.DictReader(open(os.path.join(DIR, "recipes.csv"))))
    cases = []
    for r in runs:
        if r["case"] not in cases:
            cases.append(r["case"])
    failures = []
    if len(rows) != len(cases):
        failures.append("%d rows for %d cases:\n%s" % (len(rows), len(cases), out))
    for row, case in zip(rows, cases):
        intact = [100 * float(r["intact"]) for r in runs if r["case"] == case]
        want = "**%.1f %%**" % statistics.median(intact)
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[:4] != ["drop-tail 125, RTT 100 ms", "cubic", "zone", "`%s`" % case] or \
                not cells[4].startswith(want) or len(cells) != 17:
            failures.append("row %s, expected the path, cubic, zone, %s and %s" %
                            (cells, case, want))
    for f in failures:
        print("FAIL: " + f)
    print("PASS" if not failures else "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
