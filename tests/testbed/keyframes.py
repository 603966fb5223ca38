#!/usr/bin/python3
"""Keyframes against a small drop-tail queue: equation (2) alone, with a peak-rate cap, and a
sender-side token bucket.

The stream is VBR H.264 (rtpsend.py --source pan: a camera pan over a detailed texture through
x264enc tune=zerolatency, 640x360, 25 fps, 4 Mbit/s, a keyframe every 25 frames, rtph264pay
mtu 1200): keyframes of 48-82 x 1200 B, other frames 14-22 x 1200 B (it prints the shape of
the stream it sent).  It crosses a 10 Mbit/s bottleneck with a 13-packet drop-tail queue,
without and with one cubic iperf3 flow, sent
  bursty   rtph264pay straight into udpsink
  eq2      through rtpburstpace (b = 1, duty 0.9): each frame over 0.9 x 40 ms; a keyframe of
           70 packets then leaves at ~19 Mbit/s
  cap      the same with max-rate=9000000 (9 Mbit/s of RTP packets, ~9.3 Mbit/s on the wire,
           below the 10 Mbit/s link; max-delay 100 ms, overload=compress: the defaults)
  auto     the same with max-rate-factor=2.25 (cap = 2.25 x the mean rate of the last 64 frames)
  tbf      bursty through tc tbf at 1.25 x the stream's rate on the sender's egress
Default: 3 repetitions of 15 s per case, interleaved (about 10 minutes).  Prints the medians as a
Markdown table and issue 6's criterion (cap without TCP: no loss, and p99 frame delay <= 0.7 x
that of tbf in the same run); --out DIR writes keyframes.csv and keyframes.png (frame-delay
CDF, arrivals around one keyframe, loss) there.  Frame delay = arrival of a complete
frame's last packet - when the payloader pushed its first packet (metrics.py).
  sudo /usr/bin/python3 tests/testbed/keyframes.py --out docs/results
  sudo /usr/bin/python3 tests/testbed/keyframes.py --quick --out /tmp/kf
"""
import os
import re
import shutil
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import metrics  # noqa: E402
import run  # noqa: E402

STREAM = ["--codec", "h264", "--source", "pan", "--keyint", "25", "--rate", "4",
          "--mtu", "1200"]
CASE_ARGS = {
    "bursty": ["--mode", "bursty"],
    "eq2": ["--mode", "paced"],
    "cap": ["--mode", "paced", "--element-prop", "max-rate=9000000"],
    "auto": ["--mode", "paced", "--element-prop", "max-rate-factor=2.25"],
    "tbf": ["--mode", "tbf", "--tbf-factor", "1.25"],
}
MODES = ["bursty", "eq2", "cap", "auto", "tbf"]
NAME = {"bursty": "bursty (no element)", "eq2": "rtpburstpace, eq. (2) only",
        "cap": "rtpburstpace, max-rate 9 Mbit/s", "auto": "rtpburstpace, max-rate-factor 2.25",
        "tbf": "bursty + tbf 1.25x"}
SHOW = ["rtp_loss", "frame_loss", "frame_loss_whole", "frame_delay_p50_ms", "frame_delay_p99_ms", "tcp_mbps",
        "spread_frames", "compressed_frames", "max_backlog_ms"]
HEADER = {"rtp_loss": "RTP loss", "frame_loss": "frames damaged",
          "frame_loss_whole": "frames lost whole",
          "frame_delay_p50_ms": "frame delay p50 ms", "frame_delay_p99_ms": "frame delay p99 ms",
          "tcp_mbps": "TCP Mbit/s", "spread_frames": "frames spread by the cap",
          "compressed_frames": "frames compressed", "max_backlog_ms": "largest backlog ms"}
COLORS = {"bursty": "tab:red", "eq2": "tab:orange", "cap": "tab:blue", "auto": "tab:cyan",
          "tbf": "tab:gray"}


def add_element_stats(row):
    """Copy the element's spread/compressed/backlog counters out of the stats string."""
    text = row.get("element_stats") or ""
    for field, key, scale in (("spread-frames", "spread_frames", 1),
                              ("compressed-frames", "compressed_frames", 1),
                              ("max-backlog", "max_backlog_ms", 1e-6)):
        m = re.search(r"%s=\(guint64\)(\d+)" % field, text)
        row[key] = round(int(m.group(1)) * scale, 3) if m else ""


def criterion(rows):
    """(text, passed) for issue 6's criterion, or None if a case did not run."""
    loss = compare.median(rows, ("cap", 0), "rtp_loss")
    cap99 = compare.median(rows, ("cap", 0), "frame_delay_p99_ms")
    tbf99 = compare.median(rows, ("tbf", 0), "frame_delay_p99_ms")
    if None in (loss, cap99, tbf99):
        return None
    return ("cap without TCP: RTP loss %.2f %% (must be 0), p99 frame delay %.1f ms = %.2f x "
            "tbf's %.1f ms (must be <= 0.7)" % (100 * loss, cap99, cap99 / tbf99, tbf99),
            loss == 0 and cap99 <= 0.7 * tbf99)


def load(keep, mode, tcp=0):
    """(sender log, receiver log) of a kept run, or None."""
    d = os.path.join(keep, "%s-tcp%d" % (mode, tcp))
    if not os.path.exists(os.path.join(d, "recv.csv")):
        return None
    return metrics.read_csv(os.path.join(d, "send.csv")), metrics.read_csv(
        os.path.join(d, "recv.csv"))


def frames_of(snd):
    """(frame index of each packet, packets per frame, keyframe flag per frame) of a sender log:
    a frame is a run of packets with one RTP timestamp, a keyframe one of more than 2.5 x the
    median packets."""
    np = metrics.np
    fid = np.cumsum(np.concatenate(([True], np.diff(snd["ts"]) != 0))) - 1
    sizes = np.bincount(fid)
    return fid, sizes, sizes > 2.5 * np.median(sizes)


def arrival_pattern(snd, rcv):
    """(t_ms, cumulative packets) arriving at the receiver around the 3rd keyframe of a run,
    t relative to when the payloader pushed the keyframe (both logs use CLOCK_MONOTONIC).
    Arrivals, not the sender's log: a tbf shaper acts after the sender's last probe."""
    np = metrics.np
    fid, _sizes, key = frames_of(snd)
    big = np.flatnonzero(key)
    if len(big) < 3:
        return None
    t0 = snd["ready_ns"][np.argmax(fid == big[2])]
    arr = rcv["arrival_ns"]
    t = np.sort(arr[(arr >= t0 - 40e6) & (arr <= t0 + 200e6)])
    return (t - t0) / 1e6, np.arange(1, len(t) + 1)


def stream_shape(keep):
    """One line on the stream as the payloader sent it (first bursty run without TCP): packets
    per frame, keyframes, mean RTP rate."""
    np = metrics.np
    logs = load(keep, "bursty")
    if logs is None:
        return None
    s = logs[0]
    _fid, sizes, key = frames_of(s)
    big = sizes[key]
    secs = (s["ready_ns"][-1] - s["ready_ns"][0]) / 1e9
    return ("stream: %d frames, %d packets per frame (median), %d keyframes of %d-%d packets "
            "(median %d), mean %.2f Mbit/s of RTP" % (
                len(sizes), np.median(sizes), len(big), big.min() if len(big) else 0,
                big.max() if len(big) else 0, np.median(big) if len(big) else 0,
                s["size"].sum() * 8 / secs / 1e6))


def keyframe_losses(keep, tcp=0):
    """Lines "mode: N packets lost, K of them in keyframes" for the kept runs (and which
    frames, if only a few)."""
    np = metrics.np
    out = []
    for mode in MODES:
        logs = load(keep, mode, tcp)
        if logs is None:
            continue
        s, r = logs
        lost = ~np.isin(s["seq"], r["seq"])
        fid, _sizes, key = frames_of(s)
        frames = np.unique(fid[lost])
        out.append("%s, %d TCP: %d packets lost, %d of them in keyframes%s" % (
            mode, tcp, lost.sum(), (lost & key[fid]).sum(),
            " (frames %s)" % ", ".join(map(str, frames)) if 0 < len(frames) <= 5 else ""))
    return out


def plot(rows, keep, path, note):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.6))
    for m in MODES:
        logs = load(keep, m)
        if logs is None:
            continue
        d = metrics.np.sort(metrics.stream_metrics(*logs)["frame_delay_ns"] / 1e6)
        if len(d):
            ax[0].plot(d, metrics.np.linspace(0, 1, len(d)), color=COLORS[m], label=NAME[m])
        p = arrival_pattern(*logs)
        if p is not None:
            ax[1].step(p[0], p[1], where="post", color=COLORS[m], label=NAME[m])
    ax[0].set(xlabel="frame delay, ms (complete frames)", ylabel="share of frames",
              title="frame delay, no TCP (first repetition)")
    ax[1].set(xlabel="ms after the payloader pushed a keyframe", ylabel="packets received",
              title="arrivals around a keyframe, no TCP")
    x = metrics.np.arange(len(MODES))
    for i, tcp in enumerate((0, 1)):
        v = [compare.median(rows, (m, tcp), "rtp_loss") or 0 for m in MODES]
        ax[2].bar(x + (i - 0.5) * 0.4, [100 * y for y in v], 0.4,
                  label="no TCP" if tcp == 0 else "1 TCP flow",
                  color="tab:green" if tcp == 0 else "tab:purple")
    ax[2].set_xticks(x, [m for m in MODES])
    ax[2].set(ylabel="RTP loss, % (median)", title="RTP loss")
    for a in ax:
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    fig.suptitle("VBR H.264 4 Mbit/s, keyframe every 25 frames, 10 Mbit/s, 13-packet drop-tail")
    fig.text(0.01, 0.01, note, fontsize=7)
    fig.tight_layout(rect=(0, 0.04, 1, 0.95))
    fig.savefig(path, dpi=110)


def main():
    ap = compare.case_parser(__doc__, "1 repetition of 6 s")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--from-logs", metavar="DIR",
                    help="run nothing: describe the stream and where packets were lost from the "
                         "logs a run kept with --logs DIR")
    ap.add_argument("--out", help="directory for keyframes.csv and keyframes.png")
    ap.add_argument("--logs", help="keep the first repetition's raw logs here (default: a "
                                   "temporary directory, removed at the end)")
    a = ap.parse_args()
    if a.from_logs:
        print("\n".join([stream_shape(a.from_logs) or "no bursty-tcp0 log"] +
                        keyframe_losses(a.from_logs, 0) + keyframe_losses(a.from_logs, 1)))
        return 0
    if a.quick:
        a.reps, a.duration = 1, 6.0
    if os.geteuid() != 0:
        sys.exit("keyframes.py: needs root (network namespaces)")
    modes = a.modes.split(",")
    cases = [(m, tcp) for tcp in (0, 1) for m in modes]
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    keep = a.logs or tempfile.mkdtemp(prefix="rtpburstpace-keyframes-")
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        rows = compare.run_cases(cases, a.reps, a.duration, STREAM + a.runargs,
                                 case_args=CASE_ARGS, keep=keep, mode_name=NAME)
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("keyframes.py: interrupted, testbed removed")
    for rs in rows.values():
        for r in rs:
            add_element_stats(r)
            r["label"] = "keyframes-%s" % r["label"]
    if a.out:
        csv_path = os.path.join(a.out, "keyframes.csv")
        if os.path.exists(csv_path):
            os.remove(csv_path)
        cols = ["case"] + run.COLUMNS + ["spread_frames", "compressed_frames", "max_backlog_ms"]
        for (m, _tcp), rs in rows.items():
            for r in rs:
                run.append_csv(csv_path, dict(r, case=m), cols)
    shape = stream_shape(keep)
    if shape:
        print(shape)
    print("\n".join(keyframe_losses(keep, 0) + keyframe_losses(keep, 1)))
    print(compare.table(rows, cases, nice=True, show=SHOW, header=HEADER, mode_name=NAME))
    check = criterion(rows)
    print()
    print("criterion not evaluated (a case did not run)" if check is None else
          "%s  %s" % ("PASS" if check[1] else "FAIL", check[0]))
    if a.out:
        plot(rows, keep, os.path.join(a.out, "keyframes.png"),
             "tests/testbed/keyframes.py; %d x %g s per case; medians" % (a.reps, a.duration))
    if not a.logs:
        shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
