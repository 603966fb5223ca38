#!/usr/bin/python3
"""How closely paced packets follow the ideal slot grid, from the sender's (and receiver's) log.

For every frame (packets with one RTP timestamp) of n packets and k = ceil(n / b) slots, the ideal
slot spacing is dt = frame_period * duty / k (equation 2 of the paper), and slot j is ideally at
t_first + j * dt.  From the sender log (send_ns = when the packet reached udpsink) this computes

  gap_err      gap between consecutive slots minus dt (negative: packets closer than planned)
  b2b          share of slot-to-slot gaps shorter than dt / 4 ("back to back")
  short_wire   share of gaps shorter than one packet's serialization time at the bottleneck rate,
               i.e. gaps after which the bottleneck queue grows
  late         send time minus ideal slot time (anchored at the frame's first packet)
  start_delay  frame's first send minus the time the payloader pushed the frame
  span_err     last minus first send of a frame, minus (k - 1) * dt

and the same gaps at the receiver (kernel arrival times, after the bottleneck), each frame's
spread there (first to last arrival) and the longest run of a frame's packets that arrived less
than 200 us apart.  With several
streams (run.py --streams N) the figures above are stream 0's, and "all_streams" describes what
the bottleneck sees of all of them together (the first second left out): packets, packets per
frame per stream, the gaps between consecutive packets of any stream (p1, p5, p50), and the
share of gaps shorter than 0.3 ms and than one packet's serialization time.  Usage:
  pacing.py KEEP_DIR [--duty 0.9] [--burst-size 1] [--fps 25] [--bottleneck 10]
where KEEP_DIR holds send.csv (and recv.csv) written by run.py --keep.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

ETH_IP_UDP = 42
BURST_GAP_NS = 200_000  # packets closer than this arrive as one burst


def _frames(ts):
    start = np.concatenate(([True], np.diff(ts) != 0))
    return np.flatnonzero(start), np.append(np.flatnonzero(start)[1:], len(ts))


def spacing_stats(send_log, recv_log=None, fps=25, duty=0.9, burst=1, bottleneck_mbps=10.0,
                  skip_frames=3):
    """Dict of pacing-precision figures (all times in microseconds)."""
    s = metrics.read_csv(send_log)
    s = {k: v[s["stream"] == 0] for k, v in s.items()}
    period = 1e9 / fps
    gaps_err, gaps, late, start_delay, span_err, wire = [], [], [], [], [], []
    b0, b1 = _frames(s["ts"])
    for a, z in list(zip(b0, b1))[skip_frames:-1]:
        t = s["send_ns"][a:z].astype(np.float64)
        n = len(t)
        k = -(-n // burst)
        dt = period * duty / k
        slot = np.arange(n) // burst
        first_in_slot = np.concatenate(([True], np.diff(slot) != 0))
        ts_slot = t[first_in_slot]
        g = np.diff(ts_slot)
        gaps.append(g)
        gaps_err.append(g - dt)
        late.append(ts_slot - (ts_slot[0] + np.arange(len(ts_slot)) * dt))
        start_delay.append(t[0] - s["ready_ns"][a])
        span_err.append(ts_slot[-1] - ts_slot[0] - (len(ts_slot) - 1) * dt)
        size = s["size"][a:z].astype(np.float64) + ETH_IP_UDP
        wire.append(np.diff(t) < size[1:] * 8 / (bottleneck_mbps * 1e6) * 1e9)
    gaps, gaps_err, late = map(np.concatenate, (gaps, gaps_err, late))
    wire = np.concatenate(wire)
    dt_med = float(np.median(gaps)) if len(gaps) else 0.0
    us = lambda x: round(float(x) / 1e3, 1)  # noqa: E731
    q = lambda a, p: us(np.percentile(a, p)) if len(a) else ""  # noqa: E731
    out = {
        "frames": len(b0) - skip_frames - 1,
        "gap_p50_us": q(gaps, 50),
        "gap_err_p1_us": q(gaps_err, 1), "gap_err_p50_us": q(gaps_err, 50),
        "gap_err_p99_us": q(gaps_err, 99),
        "b2b_share": round(float(np.mean(gaps < 0.25 * (dt_med or 1))), 4) if len(gaps) else "",
        "short_wire_share": round(float(np.mean(wire)), 4) if len(wire) else "",
        "late_p50_us": q(late, 50), "late_p99_us": q(late, 99),
        "late_max_us": us(late.max()) if len(late) else "",
        "start_delay_p50_us": q(np.array(start_delay), 50),
        "start_delay_p99_us": q(np.array(start_delay), 99),
        "span_err_p50_us": q(np.array(span_err), 50),
        "span_err_p99_us": q(np.array(span_err), 99),
    }
    if recv_log and os.path.exists(recv_log):
        r = metrics.read_csv(recv_log)
        r = {k: v[r["port"] == 5000] for k, v in r.items()}
        o = np.argsort(r["arrival_ns"], kind="stable")
        r = {k: v[o] for k, v in r.items()}
        rb0, rb1 = _frames(r["ts"])
        frames = [r["arrival_ns"][a:z].astype(np.float64)
                  for a, z in list(zip(rb0, rb1))[skip_frames:-1]]
        rg = np.concatenate([np.diff(f) for f in frames] or [np.zeros(0)])
        out["rx_gap_p1_us"], out["rx_gap_p50_us"], out["rx_gap_p99_us"] = \
            q(rg, 1), q(rg, 50), q(rg, 99)
        # each frame's spread (first to last arrival) and its longest run of packets less
        # than BURST_GAP_NS apart
        out["rx_spread_p50_us"] = q(np.array([f[-1] - f[0] for f in frames]), 50)
        out["rx_burst_max"] = max((int(metrics.loss_periods(np.diff(f) < BURST_GAP_NS).max(
            initial=0)) + 1 for f in frames), default="")
    return out


def all_streams_stats(send_log, bottleneck_mbps=10.0, skip_ns=1e9):
    """What the bottleneck sees of every stream together (times in microseconds)."""
    s = metrics.read_csv(send_log)
    o = np.argsort(s["send_ns"], kind="stable")
    t = s["send_ns"][o].astype(np.float64)
    size = s["size"][o].astype(np.float64) + ETH_IP_UDP
    keep = t > t[0] + skip_ns
    t, size = t[keep], size[keep]
    g = np.diff(t)
    wire = size[1:] * 8 / (bottleneck_mbps * 1e6) * 1e9
    per_frame = {}
    for st, ts in zip(s["stream"], s["ts"]):
        per_frame[(int(st), int(ts))] = per_frame.get((int(st), int(ts)), 0) + 1
    us = lambda x: round(float(x) / 1e3, 1)  # noqa: E731
    return {
        "streams": len(set(int(x) for x in s["stream"])),
        "packets": int(len(t)),
        "packets_per_frame_p50": float(np.median(list(per_frame.values()))),
        "gap_p1_us": us(np.percentile(g, 1)), "gap_p5_us": us(np.percentile(g, 5)),
        "gap_p50_us": us(np.percentile(g, 50)),
        "gap_below_300us_share": round(float(np.mean(g < 0.3e6)), 4),
        "gap_below_wire_share": round(float(np.mean(g < wire)), 4),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("keep_dir")
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--duty", type=float, default=0.9)
    ap.add_argument("--burst-size", type=int, default=1)
    ap.add_argument("--bottleneck", type=float, default=10.0)
    a = ap.parse_args()
    st = spacing_stats(os.path.join(a.keep_dir, "send.csv"),
                       os.path.join(a.keep_dir, "recv.csv"), a.fps, a.duty, a.burst_size,
                       a.bottleneck)
    st["all_streams"] = all_streams_stats(os.path.join(a.keep_dir, "send.csv"), a.bottleneck)
    print(json.dumps(st, indent=1))


if __name__ == "__main__":
    main()
