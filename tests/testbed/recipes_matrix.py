#!/usr/bin/python3
"""One table of several tests/testbed/recipes.py runs: a row per path, competitor, source and case.

    tests/testbed/recipes_matrix.py [--source LABEL=DIR ...] DIR ...

Each DIR is a recipes.py --out directory (recipes.csv); the path (queue, round trip)
and the competitor (none, the TCP flow's congestion control, web users) come from its
rows, the source from --source LABEL=DIR (default: "default", send-video's own).
Per case and number of TCP flows, medians over the runs: frames intact (and each run's),
and where the runs recorded them (recipes.py's docstring) the media rate that reached the
receiver from the 5th second on, the target (min (source, fair share)), the seconds until
it reached 80 % of that ("never": the median run did not), the frames' delay p95 and the
keyframes sent;
packet loss on the way, loss after repair, overhead (repair packets over media),
the sender's rate (RTP packets sent, repair included, Mbit/s), the receiver latency
the runs ended at (lowest-highest), the competitor's rate (iperf3's or the web
users'), and the most CPU the hypervisor took in any run (steal).
Reads files only; runs nothing.
"""
import argparse
import csv
import os
import statistics
import sys


def path_label(row):
    rtt = float(row.get("rtt_configured_ms") or 0)
    aqm, queue = row.get("aqm") or "pfifo", row.get("queue") or ""
    queue_label = {"pfifo": "drop-tail %s" % queue, "fq_codel": "fq_codel",
                   "red-ecn": "RED+ECN"}.get(aqm, aqm)
    label = "%s, RTT %s" % (queue_label, "%g ms" % rtt if rtt else "< 1 ms")
    if row.get("switch_at"):
        label += ", %g Mbit/s at %s s" % (float(row["bottleneck_low"]),
                                          row["switch_at"].replace(",", ", back at "))
    return label


def competitor(row):
    if row.get("web_objects"):
        return "web users"
    if row.get("tcp_flows") in ("0", ""):
        return "none"
    return row.get("cc") or "TCP"


def pct(x):
    return "%.1f %%" % (100 * x)


def mbps(x):
    return "%.2f" % x if x is not None else "—"


def summarise(rows):
    """The table's figures of one case's runs."""
    def med(key):
        vals = [float(r[key]) for r in rows if r.get(key) not in (None, "")]
        return statistics.median(vals) if vals else None
    intact = [float(r["intact"]) for r in rows]
    lat = sorted(int(float(r["latency_ms"])) for r in rows if r.get("latency_ms"))
    comp = med("web_mbps") if rows[0].get("web_objects") else med("tcp_mbps")
    steal = max(float(r.get("cpu_steal") or 0) for r in rows)
    t80 = [r.get("t80_s") for r in rows if "t80_s" in r and r.get("media_mbps_tail")]
    # a run that never reached it counts as the whole video (">")
    t80_med = statistics.median(float(x) if x not in (None, "") else float("inf")
                                for x in t80) if t80 else None
    kf = med("keyframes_sent")
    return {
        "media": mbps(med("media_mbps_tail")),
        "target": mbps(med("target_mbps")),
        "t80": "—" if t80_med is None else ("never" if t80_med == float("inf")
                                            else "%g" % t80_med),
        "delay": "—" if med("frame_delay_p95_ms") is None else "%.0f" % med("frame_delay_p95_ms"),
        "keyframes": "—" if kf is None else "%g" % kf,
        "intact": "**%s** (%s)" % (pct(statistics.median(intact)),
                                   ", ".join("%.1f" % (100 * x) for x in intact)),
        "loss": pct(med("net_loss")), "after": pct(med("residual_loss")),
        "overhead": pct(med("overhead")),
        "sent": mbps(med("video_mbps")),
        "latency": ("%d" % lat[0] if lat[0] == lat[-1] else "%d-%d" % (lat[0], lat[-1]))
        if lat else "",
        "competitor": mbps(comp),
        "steal": "%.0f %%" % (100 * steal),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--source", action="append", default=[], metavar="LABEL=DIR",
                    help="the source of DIR's runs (repeat per directory)")
    args = ap.parse_args()
    sources = {}
    for s in args.source:
        label, _, d = s.partition("=")
        sources[os.path.normpath(d)] = label
    print("| path | competitor | source | case | frames intact (runs) | packet loss | "
          "after repair | overhead | sent Mbit/s | latency ms | competitor Mbit/s | steal | "
          "media Mbit/s (5-20 s) | target Mbit/s | s to 80 % | frame delay p95 ms | "
          "keyframes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in args.dirs:
        try:
            rows = [r for r in csv.DictReader(open(os.path.join(d, "recipes.csv")))
                    if r.get("status") == "ok"]
        except OSError as e:
            sys.stderr.write("recipes_matrix.py: %s\n" % e)
            return 1
        keys = []
        for r in rows:
            if (r["case"], r["tcp_flows"]) not in keys:
                keys.append((r["case"], r["tcp_flows"]))
        for case, tcp in keys:
            runs = [r for r in rows if r["case"] == case and r["tcp_flows"] == tcp]
            s = summarise(runs)
            print("| %s | %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | "
                  "%s | %s | %s |" % (
                      path_label(runs[0]), competitor(runs[0]),
                      sources.get(os.path.normpath(d), "default"), case, s["intact"],
                      s["loss"], s["after"], s["overhead"], s["sent"], s["latency"],
                      s["competitor"], s["steal"], s["media"], s["target"], s["t80"],
                      s["delay"], s["keyframes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
