#!/usr/bin/env python3
"""What held congestion-control=gcc's target where it was: a summary of the element's "gcc:"
LOG lines (GST_DEBUG=rtpburstpace:6) in a sender's log.

    /usr/bin/python3 tests/testbed/gcclog.py LOG [--from S]

LOG: a GStreamer debug log, plain or .gz (launch_lines.py --gst-debug rtpburstpace:6 keeps the
sender's as sender-N.log.gz).  Each "gcc:" line is one feedback report: the received rate
R_hat, the delay-based and loss-based rates, the loss fraction of the loss-based window and the
TCP-fair floor (0 where not in force).  From S seconds after the first report on (default 5,
as the testbed's rate columns) it prints, over the reports: how many had a window lost above
10 % (the loss-based controller decreases; the floor is off), the floor where in force and its
ratio to R_hat, the target (the smaller of the two rates) and R_hat, as medians and p10/p90;
which of the two rates was the target (the loss-based one below the delay-based, the two
equal, the delay-based below), and how many reports the delay detector said over-use."""

import argparse
import gzip
import re
import statistics
import sys

#: the loss fraction above which GCC's loss-based controller decreases (rtpburstgcc.c)
LOSS_HIGH = 0.1

FIELDS = {
    "received": r"received (\d+)",
    "delay": r"delay-based (\d+)",
    "loss_rate": r"loss-based (\d+)",
    "loss": r"\(loss ([0-9.]+)\)",
    "floor": r"floor (\d+) bit/s",
}


def parse(lines):
    """The reports of the "gcc:" lines: dicts of time (s, the log's), received, delay,
    loss_rate, loss and floor."""
    out = []
    for line in lines:
        if "gcc:" not in line:
            continue
        t = line.split()[0].split(":")
        try:
            row = {"time": int(t[0]) * 3600 + int(t[1]) * 60 + float(t[2]),
                   "state": re.search(r"gcc: (\w+),", line).group(1)}
            for key, pattern in FIELDS.items():
                row[key] = float(re.search(pattern, line).group(1))
        except (AttributeError, ValueError, IndexError):
            continue
        out.append(row)
    return out


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarize(reports, from_s=5.0):
    """The figures printed, as a dict (None where there are no reports)."""
    if not reports:
        return None
    t0 = reports[0]["time"]
    rs = [r for r in reports if r["time"] - t0 >= from_s]
    if not rs:
        return None
    target = [min(r["delay"], r["loss_rate"]) for r in rs]
    on = [r for r in rs if r["floor"] > 0]
    high = [r for r in rs if r["loss"] > LOSS_HIGH]
    return {
        "reports": len(rs),
        "loss_high": len(high),
        "loss_rate_at_high": statistics.median([r["loss_rate"] for r in high]) if high else None,
        "floor_on": len(on),
        "floor": statistics.median([r["floor"] for r in on]) if on else None,
        "floor_over_received": statistics.median(
            [r["floor"] / r["received"] for r in on if r["received"] > 0]) if on else None,
        "target": (statistics.median(target), quantile(target, 0.1), quantile(target, 0.9)),
        "received": statistics.median([r["received"] for r in rs]),
        "loss_below": sum(1 for r in rs if r["loss_rate"] < r["delay"]),
        "equal": sum(1 for r in rs if r["loss_rate"] == r["delay"]),
        "delay_below": sum(1 for r in rs if r["delay"] < r["loss_rate"]),
        "overuse": sum(1 for r in rs if r["state"] == "overuse"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--from", dest="from_s", type=float, default=5.0, metavar="S")
    a = ap.parse_args()
    opener = gzip.open if a.log.endswith(".gz") else open
    with opener(a.log, "rt", errors="replace") as f:
        s = summarize(parse(f), a.from_s)
    if s is None:
        print("gcclog.py: no gcc: lines (GST_DEBUG=rtpburstpace:6?)", file=sys.stderr)
        return 1
    mb = lambda v: "—" if v is None else "%.2f" % (v / 1e6)
    print("reports from %.0f s on: %d" % (a.from_s, s["reports"]))
    print("window lost above %d %%: %d (loss-based rate there, median %s Mbit/s)" % (
        100 * LOSS_HIGH, s["loss_high"], mb(s["loss_rate_at_high"])))
    print("floor in force: %d, median %s Mbit/s, %s x R_hat" % (
        s["floor_on"], mb(s["floor"]),
        "—" if s["floor_over_received"] is None else "%.2f" % s["floor_over_received"]))
    print("target median %s Mbit/s (p10 %s, p90 %s); R_hat median %s Mbit/s" % (
        mb(s["target"][0]), mb(s["target"][1]), mb(s["target"][2]), mb(s["received"])))
    print("the target: loss-based below delay-based %d, equal %d, delay-based below %d; "
          "over-use %d" % (s["loss_below"], s["equal"], s["delay_below"], s["overuse"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
