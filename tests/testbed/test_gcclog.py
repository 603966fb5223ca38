#!/usr/bin/python3
"""gcclog.py on three "gcc:" lines made here (exact figures) and on the committed log of
docs/results/launch-lines/overload-log (the figures docs/results.md section 22 quotes).
Reads files only (< 1 s)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import gcclog  # noqa: E402

LINE = ("0:00:%06.3f000000  1 0x1 LOG rtpburstpace gstrtpburstcc.c:412:log_gcc_locked:<pace> "
        "gcc: normal, increase, gradient 0.10 ms, threshold 12.00 ms, received %d, "
        "delay-based %d, loss-based %d (loss %.3f), floor %d bit/s (p 0.03000)\n")


def main():
    failures = []
    lines = [LINE % (1.0, 1000000, 9000000, 9000000, 0.0, 0),   # before --from: left out
             LINE % (6.0, 2000000, 3000000, 2500000, 0.200, 0),
             LINE % (7.0, 4000000, 5000000, 6000000, 0.050, 4400000),
             LINE.replace("normal, increase", "overuse, decrease") % (
                 8.0, 3000000, 4000000, 4000000, 0.0, 0),
             "0:00:07.500000000  1 0x1 LOG rtpburstpace other line\n"]
    s = gcclog.summarize(gcclog.parse(lines), from_s=5.0)
    want = {"reports": 3, "loss_high": 1, "loss_rate_at_high": 2500000, "floor_on": 1,
            "floor": 4400000, "floor_over_received": 1.1, "received": 3000000,
            "target": (4000000, 2500000, 5000000),
            "loss_below": 1, "equal": 1, "delay_below": 1, "overuse": 1}
    for k, v in want.items():
        if k == "floor_over_received":
            ok = abs(s[k] - v) < 1e-9
        else:
            ok = s[k] == v
        if not ok:
            failures.append("%s: %r, expected %r" % (k, s[k], v))
    if gcclog.summarize(gcclog.parse(lines[:1]), from_s=5.0) is not None:
        failures.append("a log with no report after --from gave figures")

    log = os.path.join(ROOT, "docs", "results", "launch-lines", "overload-log",
                       "sender-gcc-lines.txt.gz")
    out = subprocess.run([sys.executable, os.path.join(HERE, "gcclog.py"), log],
                         stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    for text in ("reports from 5 s on: 414", "window lost above 10 %: 214",
                 "floor in force: 200, median 8.23 Mbit/s, 1.11 x R_hat",
                 "target median 8.10 Mbit/s",
                 "the target: loss-based below delay-based "):
        if text not in out:
            failures.append("committed log: %r not in:\n%s" % (text, out))
    for f in failures:
        print("FAIL", f)
    print("PASS" if not failures else "FAILED", "gcclog.py")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
