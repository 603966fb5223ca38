#!/usr/bin/python3
"""What the ns-3 router adds by itself: the same runs through the kernel's router and through ns-3.

The ns-3 router (ns3/router.cc, netbed.sh --router ns3) is a user-space program that forwards
every packet on a real-time scheduler; it can run late, and it may space packets differently
from the kernel's htb + pfifo.  This runs the reference path (6 Mbit/s CBR, 30 x 1000 B per
40 ms frame, 10 Mbit/s bottleneck, 13-packet drop-tail, no propagation delay) through both
routers, interleaved:
  kernel, ns3          the paced stream alone: spacing of its packets at the receiver, one-way
                       delay, loss (none expected)
  ns3-rtt40            the same through ns-3 with 40 ms round trip and fq_codel
  *-tcp, *-bursty      paced and bursty against one cubic iperf3 flow, through either router:
                       RTP loss and TCP throughput, which should not depend on the router
and prints two Markdown tables: the medians per case (with the router's real-time lateness:
how late its probe events ran, p50 / p99 / max, and the share over 1 ms), and the arrival
spacing of the first repetition of each case without TCP (pacing.py: median and p99 gap
between a frame's packets, the frame's spread, the longest run of packets < 200 us apart).
Default: 3 repetitions of 15 s (about 9 minutes).
  sudo /usr/bin/python3 tests/testbed/routercheck.py --out docs/results/router
"""
import os
import shutil
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import pacing  # noqa: E402
import run  # noqa: E402

CASE_ARGS = {
    "kernel": ["--mode", "paced", "--router", "kernel"],
    "ns3": ["--mode", "paced", "--router", "ns3"],
    "ns3-rtt40": ["--mode", "paced", "--router", "ns3", "--rtt", "40", "--aqm", "fq_codel"],
    "kernel-bursty": ["--mode", "bursty", "--router", "kernel"],
    "ns3-bursty": ["--mode", "bursty", "--router", "ns3"],
}
CASES = [("kernel", 0), ("ns3", 0), ("ns3-rtt40", 0), ("kernel", 1), ("ns3", 1),
         ("kernel-bursty", 1), ("ns3-bursty", 1)]
NAME = {"kernel": "paced, kernel router", "ns3": "paced, ns-3 router",
        "ns3-rtt40": "paced, ns-3, RTT 40 ms, fq_codel",
        "kernel-bursty": "bursty, kernel router", "ns3-bursty": "bursty, ns-3 router"}
SHOW = ["rtt_ms", "rtp_loss", "owd_p50_ms", "owd_p99_ms", "tcp_mbps", "bottleneck_drops",
        "router_late_p50_ms", "router_late_p99_ms", "router_late_max_ms", "router_late_over1ms"]
HEADER = {"rtt_ms": "ping RTT ms", "rtp_loss": "RTP loss", "owd_p50_ms": "one-way delay p50 ms",
          "owd_p99_ms": "one-way delay p99 ms", "tcp_mbps": "TCP Mbit/s",
          "bottleneck_drops": "bottleneck drops", "router_late_p50_ms": "ns-3 late p50 ms",
          "router_late_p99_ms": "ns-3 late p99 ms", "router_late_max_ms": "ns-3 late max ms",
          "router_late_over1ms": "ns-3 probes > 1 ms late"}
SPACING = [("rx_gap_p50_us", "gap p50 us"), ("rx_gap_p99_us", "gap p99 us"),
           ("rx_spread_p50_us", "frame spread p50 us"), ("rx_burst_max", "largest burst"),
           ("gap_p50_us", "gap p50 at the sender us")]


def spacing_table(keep, cases):
    out = ["| case | " + " | ".join(h for _k, h in SPACING) + " |",
           "|---|" + "---|" * len(SPACING)]
    for mode, tcp in cases:
        d = os.path.join(keep, "%s-tcp%d" % (mode, tcp))
        if tcp or not os.path.exists(os.path.join(d, "recv.csv")):
            continue
        st = pacing.spacing_stats(os.path.join(d, "send.csv"), os.path.join(d, "recv.csv"))
        out.append("| %s | %s |" % (NAME[mode], " | ".join(str(st.get(k, "—"))
                                                            for k, _h in SPACING)))
    return "\n".join(out)


def main():
    ap = compare.case_parser(__doc__, "1 repetition of 6 s")
    ap.add_argument("--out", help="directory for routercheck.csv, table.md and the first "
                                  "repetition's logs of the cases without TCP")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.duration = 1, 6.0
    why = run.testbed_unavailable(run.parse_args(a.runargs).plugin_path)
    if why:
        print("routercheck.py: skipped: %s" % why)
        return 77
    if not os.path.exists(run.ns3_router_path(run.parse_args(a.runargs).plugin_path)):
        print("routercheck.py: skipped: the ns-3 router is not built (libns3-dev)")
        return 77
    keep = os.path.join(a.out, "logs") if a.out else tempfile.mkdtemp(prefix="routercheck-")
    csv_path = os.path.join(a.out, "routercheck.csv") if a.out else None
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        if os.path.exists(csv_path):
            os.remove(csv_path)
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        rows = compare.run_cases(CASES, a.reps, a.duration, a.runargs, csv_path,
                                 case_args=CASE_ARGS, keep=keep, mode_name=NAME)
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("routercheck.py: interrupted, testbed removed")
    text = [compare.table(rows, CASES, nice=True, show=SHOW, header=HEADER, mode_name=NAME,
                          percent=["rtp_loss", "router_late_over1ms"]), "",
            "Arrival spacing at the receiver, first repetition, no TCP:", "",
            spacing_table(keep, CASES)]
    print("\n".join(text))
    if a.out:
        with open(os.path.join(a.out, "table.md"), "w") as f:
            f.write("\n".join(text) + "\n")
    else:
        shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
