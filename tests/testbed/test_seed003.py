#!/usr/bin/python3
"""tests/testbed/seed003.py's arithmetic on fixed input: the coefficient of variation, the
steady part's ratio and CoVs, iperf3's receiver report, the time-weighted estimate and the VoIP
counts.  Exact expectations; reads and runs nothing else (< 1 s)."""
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import seed003  # noqa: E402

FAILURES = []


def check(what, got, want):
    if got != want:
        FAILURES.append("%s: got %r, want %r" % (what, got, want))


def close(what, got, want, tol=1e-12):
    if got is None or abs(got - want) > tol:
        FAILURES.append("%s: got %r, want %r" % (what, got, want))


def main():
    # population standard deviation / mean: [1, 3] has mean 2, sd 1
    close("cov [1, 3]", seed003.cov([1.0, 3.0]), 0.5)
    close("cov [2, 4, 4, 4, 5, 5, 7, 9]", seed003.cov([2, 4, 4, 4, 5, 5, 7, 9]), 2 / 5)
    check("cov of one value", seed003.cov([5.0]), None)
    check("cov of zeros", seed003.cov([0.0, 0.0]), None)

    # 10 s of video: seconds 5..8 are steady (the last, 9, is left out); TCP lags 1 s, so
    # its intervals 4..7 are the same span
    video = [9, 9, 9, 9, 9, 1.0, 3.0, 1.0, 3.0, 9]
    tcp = [9, 9, 9, 9, 2.0, 6.0, 2.0, 6.0, 9]
    f = seed003.steady_figures(video, tcp, 10)
    check("steady n", f["n"], 4)
    close("tfrc mean", f["tfrc_mbps"], 2.0)
    close("tcp mean", f["tcp_mbps"], 4.0)
    close("ratio", f["ratio"], 0.5)
    close("cov tfrc", f["cov_tfrc"], 0.5)
    close("cov tcp", f["cov_tcp"], 0.5)
    # TCP's intervals shorter than the span: the ratio over what there is
    f = seed003.steady_figures(video, tcp[:6], 10)
    close("short tcp mean", f["tcp_mbps"], 4.0)
    check("short tcp n", f["n"], 2)

    text = "\n".join([
        "Accepted connection from 10.0.2.2, port 40000",
        "[ ID] Interval           Transfer     Bitrate",
        "[  5]   0.00-1.00   sec   250 KBytes  2.05 Mbits/sec                  (omitted)",
        "[  5]   0.00-1.00   sec   122 KBytes  1.00 Mbits/sec",
        "[  5]   1.00-2.00   sec  61.1 KBytes   500 Kbits/sec",
        "[  5]   2.00-3.00   sec  0.00 Bytes  0.00 bits/sec",
        "- - - - - - - - - - - - - - - - - - - - - - - - -",
        "[  5]   0.00-3.00   sec   183 KBytes   500 Kbits/sec                  receiver",
    ])
    check("iperf3 receiver report", seed003.iperf_server_rates(text), [1.0, 0.5, 0.0])
    two = "\n".join([
        "[  5]   0.00-1.00   sec   122 KBytes  1.00 Mbits/sec",
        "[  7]   0.00-1.00   sec   122 KBytes  2.00 Mbits/sec",
        "[SUM]   0.00-1.00   sec   244 KBytes  3.50 Mbits/sec",
    ])
    check("iperf3 [SUM] lines", seed003.iperf_server_rates(two), [3.5])

    pair = "\n".join(
        ["[  5]   %d.00-%d.00   sec   122 KBytes  %s Mbits/sec%s" % (k, k + 1, r, o)
         for k, r, o in ((0, "9.00", "   (omitted)"), (0, "1.00", ""), (1, "3.00", ""),
                         (2, "1.00", ""))] +
        ["[  7]   %d.00-%d.00   sec   122 KBytes  %s Mbits/sec" % (k, k + 1, r)
         for k, r in ((0, "4.00"), (1, "4.00"), (2, "9.00"))] +
        ["[SUM]   0.00-1.00   sec   244 KBytes  5.00 Mbits/sec"])
    per = seed003.iperf_stream_rates(pair)
    check("iperf3 per stream", per, {5: [1.0, 3.0, 1.0], 7: [4.0, 4.0, 9.0]})
    # intervals 0 and 1 (the last left out): means 2 and 4, CoV 0.5 and 0
    p = seed003.pair_figures(per, steady_from=0)
    check("pair", [p["tcp1_mbps"], p["tcp2_mbps"], p["ratio"], p["cov_tcp1"], p["cov_tcp2"]],
          [2.0, 4.0, 0.5, 0.5, 0.0])

    # estimate 1 until t = 6, then 3: over [5, 9] the mean is (1 * 1 + 3 * 3) / 4
    close("time-weighted", seed003.time_weighted([(0.5, 1.0), (6, 3.0)], 5, 9), 2.5)
    close("time-weighted, one step", seed003.time_weighted([(0.5, 4.0)], 5, 9), 4.0)

    # the estimate's 1 s windows 5, 6, 7 of a 9 s video: 1, (1 + 3) / 2, 3 Mbit/s
    close("cov of the estimate", seed003.estimate_cov([[0.5, 1e6, 0], [6.5, 3e6, 0]], 9),
          math.sqrt(2 / 3) / 2)

    tx = {"produced": 10, "sent": 9, "bytes": 9 * 214, "start": 100.0,
          "estimates": [[1.0, 50000], [5.0, 80000], [6.0, 60000], [7.0, 100000]],
          "stats": {"dropped-packets": 1, "cc-feedback-reports": 4,
                    "estimated-bitrate": 90000},
          "send_times": [[65534 + i - (65536 if 65534 + i > 65535 else 0), 100.0 + i]
                         for i in range(9)]}
    # the receiver lost seq 0 (the third packet): 8 of 9 arrived, 10 ms late each
    seqs = [65534, 65535, 65537, 65538, 65539, 65540, 65541, 65542]
    rx = {"received": 8, "distinct": 8, "span": 9, "seqs": seqs,
          "arrivals": [100.0 + (s - 65534) + 0.010 for s in seqs]}
    v = seed003.voip_figures(tx, rx, 9)
    check("voip counts", [v[k] for k in ("produced", "sent", "element_dropped", "received",
                                          "net_lost", "seq_lost", "feedback_reports")],
          [10, 9, 1, 8, 1, 1, 4])
    check("voip estimates", [v["estimate_min_kbps"], v["estimate_median_kbps"],
                             v["estimate_last_kbps"]], [60.0, 80.0, 90.0])
    check("voip rate", v["rate_kbps"], 1.7)  # 9 x 214 B over 9 s
    check("voip delay", [v["owd_p50_ms"], v["owd_p99_ms"]], [10.0, 10.0])

    # a CSV whose header lacks a column gets it (empty in the rows before)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "x.csv")
        seed003.append_csv(path, {"a": 1, "b": 2}, ["a", "b"])
        seed003.append_csv(path, {"a": 3, "b": 4, "c": 5}, ["a", "c", "b"])
        seed003.append_csv(path, {"a": 6, "b": 7, "c": 8}, ["a", "b"])
        with open(path) as f:
            check("csv", f.read().split(), ["a,c,b", "1,,2", "3,5,4", "6,8,7"])

    for f in FAILURES:
        print("FAIL: " + f)
    print("PASS" if not FAILURES else "%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
