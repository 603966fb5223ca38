#!/usr/bin/python3
"""The experiments of the burst-control papers on the namespace testbed, each a CSV and a PNG.

Subcommands (one per figure; `all` runs them in this order):
  fig4    002 Fig. 4: RTP payload length 100 ... 4000 B vs RTP goodput, RTP loss, delay
          variation and TCP throughput; 3 and 6 Mbit/s CBR; one TCP flow with a 13-packet or a
          1000-packet drop-tail queue, and no TCP with the 1000-packet queue
  fig7    002 Fig. 7: i TCP flows x j video streams of 1 Mbit/s on 10 Mbit/s (13 packets)
  fig8    002 Fig. 8: video bit rate 1 ... 9 Mbit/s vs one TCP flow on 10 Mbit/s (13 packets)
  fig000  000 Figs. 2-3: 0 ... 10 TCP flows vs 1 Mbit/s video on 2 Mbit/s with 10 ms round
          trip (the paper's 5 ms bottleneck link), 50-packet queue, one panel row per queue
          discipline of --aqms (default pfifo = the paper's DT, red, red-ecn, fq_codel)
  bduty   burst size b (1 ... 30) and duty (0.25 ... 1) sweeps, 6 Mbit/s vs one TCP flow,
          13 packets, with the bursty stream and the sender-side tbf as references
  seed001 Jarvinen et al. (PAM 2013): 3 Mbit/s video (15 x 1000 B per frame) against 1, 2 and 6
          users of web-like short downloads (100 kB objects over new connections, think time
          exponential with mean 1 s) with initial window 3 and 10, 10 Mbit/s, 40 ms round
          trip, 50-packet drop-tail: one-way delay CDF, loss after a 40 and a 100 ms playout
          deadline, loss periods (RFC 3357) by the paper's levels (--logs keeps the raw logs
          the distributions come from; seed001-dist.csv holds them)
  seed004 Kenesi et al.: one TCP flow against VBR H.264 (rtpsend.py --source pan, 4 Mbit/s)
          whose keyframes come every 0.5, 1, 2 or 4 s (or only at the start), bursty, paced
          (eq. 2) and paced with max-rate 6 Mbit/s, 10 Mbit/s, 40 ms round trip, 50-packet
          drop-tail (one bandwidth-delay product); TCP throughput against the free capacity
          (2 repetitions; --ccs for the TCPs)
Paths with a round trip or an AQM go through the kernel's qdiscs where it has them, else
through the ns-3 router (netbed.sh); each row records the path it ran on.  More run.py
arguments after -- go to every point (e.g. -- --cc bbr).  Every point runs both without the
element ("bursty": the payloader's bursts go straight to udpsink) and with it ("paced":
payloader ! rtpburstpace ! udpsink), drawn on the same axes
(paced solid, bursty dashed).  The video is the papers' CBR source: raw UYVY through rtpvrawpay
with frame sizes chosen so that every packet carries exactly the payload length (run.py's
raw_geometry; 6 Mbit/s = 30 x 1000 B per 40 ms frame).

Each point is one run.py run (testbed up, TCP warm-up, video, metrics, testbed down): by default
1 repetition of 8 s video after 2 s of TCP warm-up (seed001 and seed004: 20 s), about 13.5 s per
point with set-up and the idle check (30 s); the full `all` sweep is 203 points, about an hour
on a 2-vCPU VM (plus any time spent waiting for a quiet CPU, run.py --wait-idle).  --quick:
1-16 points per figure of 3 s (37 points, about 5 minutes for `all`).  Points already in the
CSV with status ok are not run again (delete the CSV or pass --fresh to start over);
--plot-only redraws from the CSV, and --table prints its medians as Markdown tables (the
tables of docs/results.md).
Needs root and Debian's /usr/bin/python3 (python3-gi, python3-gst-1.0, python3-numpy,
python3-matplotlib).  Example:
  sudo /usr/bin/python3 tests/testbed/experiments.py all --out docs/results
  sudo /usr/bin/python3 tests/testbed/experiments.py fig8 --quick --out /tmp/tb
"""
import argparse
import csv
import os
import signal
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import metrics  # noqa: E402
import numpy as np  # noqa: E402
import run  # noqa: E402

MODES = ("paced", "bursty")
EXTRA = ["fig", "series", "x", "point"]
COLUMNS = EXTRA + run.COLUMNS


# --- point lists -------------------------------------------------------------------------------
# A point is (series, x, [run.py arguments]); its identity in the CSV is the argument string.

def pts_fig4(q):
    """002 Fig. 4: payload length sweep."""
    rates = (3, 6)
    full = (100, 250, 600, 1000, 1400, 4000)
    few = (100, 1000, 4000)
    conds = [("TCP, 13 pkts", 1, 13, full), ("TCP, 1000 pkts", 1, 1000, few),
             ("no TCP, 1000 pkts", 0, 1000, few)]
    if q:
        rates, conds = (6,), [("TCP, 13 pkts", 1, 13, (250, 1000))]
    out = []
    for rate in rates:
        for cname, tcp, queue, payloads in conds:
            for p in payloads:
                for mode in MODES:
                    args = ["--mode", mode, "--rate", str(rate), "--mtu", str(p + 12),
                            "--tcp", str(tcp), "--queue", str(queue)]
                    if p + 12 + 28 > 1500:  # larger than Ethernet: jumbo veths, TCP MSS kept
                        args += ["--link-mtu", "9000", "--mss", "1448"]
                    out.append(("%d Mbit/s, %s" % (rate, cname), p, args))
    return out


def pts_fig7(q):
    """002 Fig. 7: i TCP flows x j video streams of 1 Mbit/s."""
    flows, streams = ((1, 3, 10), (1, 5, 9)) if not q else ((2,), (3,))
    return [("%d video streams" % j, i,
             ["--mode", mode, "--rate", "1", "--streams", str(j), "--tcp", str(i)])
            for j in streams for i in flows for mode in MODES]


def pts_fig8(q):
    """002 Fig. 8: video bit rate sweep against one TCP flow."""
    rates = range(1, 10) if not q else (3, 8)
    return [("video vs 1 TCP", r, ["--mode", mode, "--rate", str(r), "--tcp", "1"])
            for r in rates for mode in MODES]


def pts_fig000(q, aqms=("pfifo",)):
    """000 Figs. 2-3: N TCP flows vs 1 Mbit/s video on 2 Mbit/s, 10 ms round trip, 50-packet
    queue, one series per queue discipline."""
    flows = (0, 1, 2, 3, 4, 6, 8, 10) if not q else (0, 4)
    return [(aqm, n, ["--mode", mode, "--rate", "1", "--tcp", str(n), "--bottleneck", "2",
                      "--queue", "50", "--aqm", aqm, "--rtt", "10"])
            for aqm in aqms for n in flows for mode in MODES]


SEED001_PATH = ["--rate", "3", "--tcp", "0", "--rtt", "40", "--queue", "50"]


def pts_seed001(q):
    """001: N users of web-like short flows with IW3 / IW10 vs 3 Mbit/s video."""
    users, iws = ((1, 2, 6), (3, 10)) if not q else ((2,), (10,))
    out = [("no web traffic", 0, ["--mode", mode] + SEED001_PATH) for mode in MODES]
    out += [("IW%d" % iw, n, ["--mode", mode, "--web-flows", str(n), "--web-iw", str(iw)]
             + SEED001_PATH) for iw in iws for n in users for mode in MODES]
    return out


SEED004_PATH = ["--codec", "h264", "--source", "pan", "--rate", "4", "--mtu", "1200",
                "--tcp", "1", "--rtt", "40", "--queue", "50"]
SEED004_MODES = {"bursty": ["--mode", "bursty"], "paced": ["--mode", "paced"],
                 "capped": ["--mode", "paced", "--element-prop", "max-rate=6000000"]}
SEED004_NONE = 1000  # key-int-max of "keyframes only at the start": longer than a run


def pts_seed004(q, ccs=("cubic",)):
    """004: one TCP flow vs VBR H.264 with keyframes every 0.5 ... 4 s, with and without the
    element and its cap; x = keyframe period in s."""
    keyints, reps = ((12, 25, 50, 100, SEED004_NONE), 2) if not q else ((25,), 1)
    return [("%s, %s" % (m, cc), k / 25.0,
             SEED004_MODES[m] + ["--keyint", str(k), "--cc", cc, "--seed", str(rep + 1)]
             + SEED004_PATH)
            for rep in range(reps) for cc in ccs for k in keyints for m in SEED004_MODES]


def pts_bduty(q):
    """Burst size and duty sweeps (paced), bursty and tbf references; 6 Mbit/s vs 1 TCP."""
    bs = (1, 2, 5, 10, 30) if not q else (1, 10)
    duties = (0.25, 0.5, 0.75, 1.0) if not q else (0.5,)
    out = [("b (duty 0.9)", b, ["--mode", "paced", "--burst-size", str(b), "--duty", "0.9"])
           for b in bs]
    out += [("duty (b = 1)", d, ["--mode", "paced", "--burst-size", "1", "--duty", str(d)])
            for d in duties]
    out += [("bursty", 0, ["--mode", "bursty"])]
    if not q:
        out += [("tbf 1.1x", 0, ["--mode", "tbf"])]
    return out


FIGS = {"fig4": lambda a: pts_fig4(a.quick), "fig7": lambda a: pts_fig7(a.quick),
        "fig8": lambda a: pts_fig8(a.quick),
        "fig000": lambda a: pts_fig000(a.quick, a.aqms.split(",")),
        "bduty": lambda a: pts_bduty(a.quick), "seed001": lambda a: pts_seed001(a.quick),
        "seed004": lambda a: pts_seed004(a.quick, a.ccs.split(","))}
#: video seconds per point where a figure's default is not 8 (--duration overrides)
FIG_DURATION = {"seed001": 20.0, "seed004": 20.0}
#: figures whose points keep their raw logs (for distributions) under --logs
KEEP_LOGS = {"seed001"}


# --- running -----------------------------------------------------------------------------------

def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_fig(name, a):
    """Run the points of figure `name` not yet in its CSV; returns the seconds it took."""
    path = os.path.join(a.out, name + ".csv")
    if a.fresh and os.path.exists(path):
        os.remove(path)
    pts = FIGS[name](a)
    done = {r["point"] for r in read_rows(path) if r.get("status", "").startswith(("ok", "skip"))}
    duration = a.duration or (3.0 if a.quick else FIG_DURATION.get(name, 8.0))
    common = ["--duration", str(duration), "--warmup", str(a.warmup),
              "--plugin-path", a.plugin_path, "--quiet"] + a.runargs
    t0 = time.monotonic()
    todo = [p for p in pts if " ".join(p[2]) not in done]
    for i, (series, x, args) in enumerate(todo):
        key = " ".join(args)
        keep = ["--keep", log_dir(a, name, key)] if name in KEEP_LOGS else []
        ra = run.parse_args(common + args + keep + ["--label", name])
        t1 = time.monotonic()
        try:
            row = run.run(ra)
        except (KeyboardInterrupt, run.Interrupted):
            sys.exit("experiments.py: interrupted, testbed removed; rerun to resume")
        except Exception as e:  # one failed point must not lose the sweep
            row = {"status": "error: %s" % str(e).replace("\n", " ")[:300]}
        row.update(fig=name, series=series, x=x, point=key)
        run.append_csv(path, row, COLUMNS)
        print("[%s %d/%d %.0fs] %s x=%s %s: %s loss=%s tcp=%s" % (
            name, i + 1, len(todo), time.monotonic() - t1, series, x, args[1], row.get("status"),
            row.get("rtp_loss"), row.get("tcp_mbps")), file=sys.stderr, flush=True)
    return time.monotonic() - t0


def log_dir(a, name, key):
    """Where the raw logs of point `key` of figure `name` are kept."""
    return os.path.join(a.logs, name, "".join(c if c.isalnum() or c in "-." else "_"
                                              for c in key.replace("--", "")))


# --- plotting ----------------------------------------------------------------------------------

def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _series(rows, series, mode, key, xkey="x"):
    """Sorted (x, mean of key) of rows of one series and mode (mean over repetitions)."""
    acc = {}
    for r in rows:
        if r["series"] == series and r["mode"] == mode and r.get("status") == "ok":
            x, y = _num(r[xkey]), _num(r.get(key))
            if x is not None and y is not None:
                acc.setdefault(x, []).append(y)
    xs = sorted(acc)
    return xs, [sum(acc[x]) / len(acc[x]) for x in xs]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


STYLE = {"paced": dict(ls="-", marker="o"), "bursty": dict(ls="--", marker="x"),
         "tbf": dict(ls=":", marker="s")}
LABEL = {"paced": "with rtpburstpace", "bursty": "without (bursty)", "tbf": "tbf"}


def _lines(ax, rows, key, scale=1.0, modes=MODES, series=None, logy=False):
    series = series or sorted({r["series"] for r in rows}, key=_series_order)
    colors = {}
    for s in series:
        for m in modes:
            xs, ys = _series(rows, s, m, key)
            if not xs:
                continue
            if logy:
                ys = [max(y * scale, 1e-4) for y in ys]
            else:
                ys = [y * scale for y in ys]
            kw = dict(STYLE[m])
            if s in colors:
                kw["color"] = colors[s]
            ln, = ax.plot(xs, ys, label="%s, %s" % (s, LABEL[m]), ms=4, lw=1.2, **kw)
            colors[s] = ln.get_color()
    if logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)


def _series_order(s):
    digits = "".join(c if c.isdigit() else " " for c in s).split()
    return (int(digits[0]) if digits else 0, s)


def _finish(fig, axes, path, title, note):
    h, lab = axes[0].get_legend_handles_labels()
    fig.legend(h, lab, loc="lower center", ncol=3 if len(lab) > 4 else 2, fontsize=7,
               frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.text(0.01, 0.005, note, fontsize=6, color="0.4")
    fig.savefig(path, dpi=90)


def plot_fig4(rows, path, note):
    plt = _plt()
    fig, ax = plt.subplots(2, 2, figsize=(11, 8.5))
    ax = ax.ravel()
    _lines(ax[0], rows, "rtp_goodput_mbps")
    ax[0].set_ylabel("RTP goodput [Mbit/s]")
    _lines(ax[1], rows, "rtp_loss", 100)
    ax[1].set_ylabel("RTP packet loss [%]")
    _lines(ax[2], rows, "tcp_mbps")
    ax[2].set_ylabel("TCP throughput [Mbit/s]")
    _lines(ax[3], rows, "owd_std_ms", logy=True)
    ax[3].set_ylabel("one-way delay std. dev. [ms] (log)")
    for a in ax:
        a.set_xscale("log")
        a.set_xlabel("RTP payload length [B]")
    fig.tight_layout(rect=(0, 0.1, 1, 0.96))
    _finish(fig, ax, path, "002 Fig. 4 on Linux: payload length vs RTP and TCP (10 Mbit/s "
            "bottleneck, drop-tail; solid: with rtpburstpace, dashed: without)", note)


def plot_fig7(rows, path, note):
    plt = _plt()
    fig, ax = plt.subplots(1, 3, figsize=(13, 5))
    _lines(ax[0], rows, "tcp_mbps")
    ax[0].set_ylabel("TCP throughput, all flows [Mbit/s]")
    _lines(ax[1], rows, "rtp_throughput_mbps")
    ax[1].set_ylabel("RTP throughput, all streams [Mbit/s]")
    _lines(ax[2], rows, "rtp_loss", 100)
    ax[2].set_ylabel("RTP packet loss [%]")
    for a in ax:
        a.set_xlabel("TCP flows i")
    fig.tight_layout(rect=(0, 0.13, 1, 0.94))
    _finish(fig, ax, path, "002 Fig. 7 on Linux: i TCP flows x j video streams of 1 Mbit/s, "
            "10 Mbit/s, 13-packet drop-tail", note)


def plot_fig8(rows, path, note):
    plt = _plt()
    fig, ax = plt.subplots(1, 2, figsize=(11, 5))
    for m in MODES:
        xs, ys = _series(rows, "video vs 1 TCP", m, "rtp_throughput_mbps")
        ax[0].plot(xs, ys, color="C0", marker="o", ls=STYLE[m]["ls"],
                   label="RTP, %s" % LABEL[m])
        xs, ys = _series(rows, "video vs 1 TCP", m, "tcp_mbps")
        ax[0].plot(xs, ys, color="C3", marker="x", ls=STYLE[m]["ls"],
                   label="TCP, %s" % LABEL[m])
        xs, ys = _series(rows, "video vs 1 TCP", m, "rtp_loss")
        ax[1].plot(xs, [100 * y for y in ys], color="C0", marker="o", ls=STYLE[m]["ls"],
                   label="RTP loss, %s" % LABEL[m])
    ax[0].plot([0, 10], [0, 10], ":", color="0.5", lw=1, label="= video bit rate")
    ax[0].set_ylabel("throughput [Mbit/s]")
    ax[1].set_ylabel("RTP packet loss [%]")
    for a in ax:
        a.set_xlabel("video bit rate [Mbit/s] (RTP payload)")
        a.grid(True, alpha=0.3)
    fig.tight_layout(rect=(0, 0.1, 1, 0.94))
    _finish(fig, ax, path, "002 Fig. 8 on Linux: video bit rate vs one TCP flow, 10 Mbit/s, "
            "13-packet drop-tail", note)


def plot_fig000(rows, path, note):
    plt = _plt()
    aqms = [q for q in run.AQMS if any(r["series"] == q for r in rows)]
    fig, ax = plt.subplots(len(aqms), 2, figsize=(11, 3.2 * len(aqms) + 1.2), squeeze=False)
    for i, s in enumerate(aqms):
        for m in MODES:
            xs, ys = _series(rows, s, m, "rtp_throughput_mbps")
            ax[i][0].plot(xs, ys, color="C0", marker="o", ls=STYLE[m]["ls"],
                          label="RTP, %s" % LABEL[m])
            xs, ys = _series(rows, s, m, "tcp_mbps")
            ax[i][0].plot(xs, ys, color="C3", marker="x", ls=STYLE[m]["ls"],
                          label="TCP, all flows, %s" % LABEL[m])
            xs, ys = _series(rows, s, m, "rtp_loss")
            ax[i][1].plot(xs, [100 * y for y in ys], color="C0", marker="o", ls=STYLE[m]["ls"],
                          label="RTP loss, %s" % LABEL[m])
            xs, ys = _series(rows, s, m, "tcp_retrans_rate")
            ax[i][1].plot(xs, [100 * y for y in ys], color="C3", marker="x", ls=STYLE[m]["ls"],
                          label="TCP retransmitted segments, %s" % LABEL[m])
        ax[i][1].axhline(5, color="0.5", ls=":", lw=1)
        ax[i][0].set_ylabel("%s\nthroughput [Mbit/s]" % AQM_NAME.get(s, s))
        ax[i][1].set_ylabel("packet error rate [%]")
        ax[i][0].set_ylim(0, 2.1)
        for a in ax[i]:
            a.grid(True, alpha=0.3)
    for a in ax[-1]:
        a.set_xlabel("TCP flows N")
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    _finish(fig, ax[0], path, "000 Figs. 2-3 on Linux: N TCP flows vs 1 Mbit/s video on 2 Mbit/s, "
            "10 ms round trip, 50-packet queue\nsolid: burstless (rtpburstpace), dashed: "
            "bursty; TCP error rate = retransmitted / sent segments", note)


AQM_NAME = {"pfifo": "drop-tail", "red": "RED", "red-ecn": "RED + ECN", "codel": "CoDel",
            "fq_codel": "fq_codel", "pie": "PIE"}

# The loss period levels of Jarvinen et al. by how much of the stream a period takes (ms):
# 1: <= 20 ms, 2: 40-60, 3: 80-100, 4: 120-180, 5: 200+ (upper bounds between the levels).
LEVELS = [(1, 20), (2, 60), (3, 100), (4, 180), (5, float("inf"))]
QUANTILES = [0.5 * i for i in range(201)]


def seed001_distributions(rows, a):
    """Rows of seed001-dist.csv from the kept logs of the seed001 points: per point, the
    quantiles (0, 0.5, ..., 100 %) of the network one-way delay and of the frame delay (last
    packet's arrival - when the payloader pushed the frame), and for the 40 and 100 ms
    deadlines the share of late or lost packets in loss periods of each level."""
    out = []
    for r in rows:
        d = log_dir(a, "seed001", r["point"])
        if r.get("status") != "ok" or not os.path.exists(os.path.join(d, "recv.csv")):
            continue
        per = metrics.per_stream(os.path.join(d, "send.csv"), os.path.join(d, "recv.csv"),
                                     base_ms=float(r["rtt_ms"]) / 2)
        owd = np.concatenate([p["owd_ns"] for p in per]) / 1e6
        fd = np.concatenate([p["frame_delay_ns"] for p in per]) / 1e6
        pkt_ms = 40.0 * int(r["frames"]) / max(1, int(r["rtp_sent"]))  # media per packet
        base = {"point": r["point"], "series": r["series"], "x": r["x"], "mode": r["mode"]}
        for what, v in (("owd_ms", owd), ("frame_delay_ms", fd)):
            qs = np.percentile(v, QUANTILES) if len(v) else []
            out += [dict(base, what=what, q=q, value=round(float(y), 3))
                    for q, y in zip(QUANTILES, qs)]
        for dl in (40, 100):
            periods = np.concatenate([p["periods%d" % dl] for p in per])
            lost = max(1, int(periods.sum()))
            lo = 0.0
            for level, hi in LEVELS:
                sel = periods[(periods * pkt_ms > lo) & (periods * pkt_ms <= hi)]
                out.append(dict(base, what="level_dl%d" % dl, q=level,
                                value=round(float(sel.sum()) / lost, 4) if len(periods) else 0))
                lo = hi
    return out


def plot_seed001(rows, path, note, dist):
    plt = _plt()
    fig, ax = plt.subplots(2, 2, figsize=(12, 9))
    ax = ax.ravel()
    # a, b: CDFs of the heaviest case against no web traffic
    heavy = max((float(r["x"]) for r in rows if r["series"] != "no web traffic"), default=0)
    for k, what, title in ((0, "owd_ms", "network one-way delay [ms]"),
                           (1, "frame_delay_ms", "frame delay: payloader to last packet [ms]")):
        for series, x, color in (("no web traffic", 0, "0.5"), ("IW3", heavy, "C0"),
                                 ("IW10", heavy, "C3")):
            for m in MODES:
                pts = sorted((float(d["q"]), float(d["value"])) for d in dist
                             if d["what"] == what and d["series"] == series and
                             float(d["x"]) == x and d["mode"] == m)
                if pts:
                    ax[k].plot([v for _q, v in pts], [q / 100 for q, _v in pts], color=color,
                               ls=STYLE[m]["ls"], label="%s%s, %s" % (
                                   series, "" if not x else ", %d users" % x, LABEL[m]))
        ax[k].set_xlabel(title)
        ax[k].set_ylabel("CDF")
        ax[k].grid(True, alpha=0.3)
        ax[k].legend(fontsize=7)
    # c: loss after the deadlines against the number of users
    for series, color in (("IW3", "C0"), ("IW10", "C3")):
        for m in MODES:
            for key, mk in (("loss_dl40", "o"), ("loss_dl100", "s")):
                xs, ys = _series(rows, series, m, key)
                ax[2].plot(xs, [100 * y for y in ys], color=color, marker=mk, ls=STYLE[m]["ls"],
                           label="%s, %s deadline, %s" % (series, key[-3:].lstrip("l") + " ms",
                                                          LABEL[m]))
    ax[2].set_xlabel("users of web-like short flows")
    ax[2].set_ylabel("packets late or lost [%]")
    ax[2].grid(True, alpha=0.3)
    ax[2].legend(fontsize=6)
    # d: loss period levels at the 100 ms deadline, heaviest case
    cases = [(s, m) for s in ("IW3", "IW10") for m in MODES]
    bottom = [0.0] * len(cases)
    for level, _hi in LEVELS:
        h = []
        for s, m in cases:
            v = [float(d["value"]) for d in dist if d["what"] == "level_dl100" and
                 d["series"] == s and d["mode"] == m and float(d["x"]) == heavy and
                 int(float(d["q"])) == level]
            h.append(v[0] if v else 0.0)
        ax[3].bar(range(len(cases)), h, bottom=bottom, label="level %d" % level)
        bottom = [b + y for b, y in zip(bottom, h)]
    ax[3].set_xticks(range(len(cases)))
    ax[3].set_xticklabels(["%s\n%s" % (s, "paced" if m == "paced" else "bursty")
                           for s, m in cases], fontsize=8)
    ax[3].set_ylabel("share of late or lost packets (100 ms deadline)")
    ax[3].set_title("loss period level, %d users: 1 <= 20 ms of stream, 2 <= 60, 3 <= 100, "
                    "4 <= 180, 5 more" % heavy, fontsize=8)
    ax[3].legend(fontsize=7)
    fig.suptitle("001 (Jarvinen et al.) on Linux: 3 Mbit/s video vs web-like short TCP flows, "
                 "10 Mbit/s, 40 ms round trip, 50-packet drop-tail; solid: rtpburstpace, dashed: "
                 "bursty", fontsize=10)
    fig.tight_layout(rect=(0, 0.02, 1, 0.96))
    fig.text(0.01, 0.005, note, fontsize=6, color="0.4")
    fig.savefig(path, dpi=90)


def plot_seed004(rows, path, note):
    plt = _plt()
    fig, ax = plt.subplots(1, 3, figsize=(15, 5))
    series = sorted({r["series"] for r in rows})
    colors = {"bursty": "C3", "paced": "C1", "capped": "C0"}
    for s in series:
        mode_name = s.split(",")[0]
        ls = "-" if s.endswith("cubic") else "--"
        for k, key, scale in ((0, "tcp_share_free", 100), (1, "tcp_mbps", 1),
                              (2, "rtp_loss", 100)):
            acc = {}
            for r in rows:
                if r["series"] == s and r.get("status") == "ok" and _num(r.get(key)) is not None:
                    acc.setdefault(float(r["x"]), []).append(_num(r[key]))
            xs = sorted(acc)
            ax[k].plot(xs, [scale * sum(acc[x]) / len(acc[x]) for x in xs], marker="o", ls=ls,
                       color=colors.get(mode_name), label=s)
    ax[0].set_ylim(80, 100)  # the dip is a few per cent: not magnified
    for a, yl in zip(ax, ("TCP throughput / free capacity [%]", "TCP throughput [Mbit/s]",
                          "RTP packet loss [%]")):
        a.set_xscale("log")
        a.set_xlabel("keyframe period [s] (%g: only the first)" % (SEED004_NONE / 25))
        a.set_ylabel(yl)
        a.grid(True, alpha=0.3)
        a.legend(fontsize=7)
    fig.suptitle("004 (Kenesi et al.) on Linux: one TCP flow vs 4 Mbit/s VBR H.264 with periodic "
                 "keyframes, 10 Mbit/s, 40 ms round trip, 50-packet drop-tail; bursty, paced "
                 "(eq. 2) and paced with max-rate 6 Mbit/s", fontsize=9)
    fig.tight_layout(rect=(0, 0.03, 1, 0.94))
    fig.text(0.01, 0.005, note, fontsize=6, color="0.4")
    fig.savefig(path, dpi=90)


def plot_bduty(rows, path, note):
    plt = _plt()
    fig, ax = plt.subplots(1, 2, figsize=(11, 5))
    for a, s, xl, log in ((ax[0], "b (duty 0.9)", "burst size b [packets per slot]", True),
                          (ax[1], "duty (b = 1)", "duty", False)):
        xs, ys = _series(rows, s, "paced", "rtp_loss")
        if s.startswith("duty"):  # duty 0.9 is the b = 1 point of the other series
            x9, y9 = _series(rows, "b (duty 0.9)", "paced", "rtp_loss")
            if 1.0 in x9:
                xs, ys = zip(*sorted(list(zip(xs, ys)) + [(0.9, y9[x9.index(1.0)])]))
        a.plot(xs, [100 * y for y in ys], "o-", color="C0", label="RTP loss, rtpburstpace")
        xt, yt = _series(rows, s, "paced", "tcp_mbps")
        if s.startswith("duty"):
            x9, y9 = _series(rows, "b (duty 0.9)", "paced", "tcp_mbps")
            if 1.0 in x9:
                xt, yt = zip(*sorted(list(zip(xt, yt)) + [(0.9, y9[x9.index(1.0)])]))
        a2 = a.twinx()
        a2.plot(xt, yt, "x-", color="C3", label="TCP, rtpburstpace")
        for ref, c in (("bursty", "C0"), ("tbf 1.1x", "C2")):
            m = "bursty" if ref == "bursty" else "tbf"
            _, yl = _series(rows, ref, m, "rtp_loss")
            _, yc = _series(rows, ref, m, "tcp_mbps")
            if yl:
                a.axhline(100 * yl[0], color=c, ls="--", lw=1, label="RTP loss, %s" % ref)
            if yc:
                a2.axhline(yc[0], color="C3" if ref == "bursty" else "C2", ls=":", lw=1,
                           label="TCP, %s" % ref)
        if log:
            a.set_xscale("log")
        a.set_xlabel(xl)
        a.set_ylabel("RTP packet loss [%]")
        a2.set_ylabel("TCP throughput [Mbit/s]")
        a2.set_ylim(0, 10)
        a.set_ylim(bottom=0)
        a.grid(True, alpha=0.3)
        h1, l1 = a.get_legend_handles_labels()
        h2, l2 = a2.get_legend_handles_labels()
        a.legend(h1 + h2, l1 + l2, fontsize=7, loc="center right")
    fig.suptitle("Burst size and duty sweeps: 6 Mbit/s (30 x 1000 B per frame) vs one TCP "
                 "flow, 10 Mbit/s, 13-packet drop-tail", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    fig.text(0.01, 0.005, note, fontsize=6, color="0.4")
    fig.savefig(path, dpi=90)


PLOTS = {"fig4": plot_fig4, "fig7": plot_fig7, "fig8": plot_fig8, "fig000": plot_fig000,
         "bduty": plot_bduty, "seed004": plot_seed004}


def read_figure(name, a):
    """The rows of a figure's CSV with the derived columns: tcp_retrans_rate (TCP retransmitted
    share of segments, MSS 1448 B, for 000 Fig. 3) and tcp_share_free (TCP throughput / what
    the video leaves of the bottleneck, for 004)."""
    rows = read_rows(os.path.join(a.out, name + ".csv"))
    for r in rows:
        if name == "fig000" and r.get("tcp_flows") == "0" and r.get("status") == "ok":
            r["tcp_mbps"], r["tcp_retrans"], r["tcp_sent_mbps"] = 0, 0, 0
        sent, rt, d = _num(r.get("tcp_sent_mbps")), _num(r.get("tcp_retrans")), \
            _num(r.get("duration_s"))
        r["tcp_retrans_rate"] = rt / (sent * 1e6 * d / 8 / 1448) if sent and rt is not None \
            and d else ""
        tcp, rtp, bn = _num(r.get("tcp_mbps")), _num(r.get("rtp_throughput_mbps")), \
            _num(r.get("bottleneck_mbps"))
        r["tcp_share_free"] = tcp / (bn - rtp) if None not in (tcp, rtp, bn) else ""
    return rows


#: what --table prints per figure: (column, heading, scale; "%" after a share)
TABLES = {
    "fig000": [("rtp_loss", "RTP loss", "%"), ("rtp_throughput_mbps", "RTP Mbit/s", 1),
               ("tcp_mbps", "TCP Mbit/s, all flows", 1),
               ("tcp_retrans_rate", "TCP retransmitted segments", "%"),
               ("bottleneck_marks", "ECN marks", 1)],
    "seed001": [("loss_dl40", "late or lost, 40 ms deadline", "%"),
                ("loss_dl100", "late or lost, 100 ms deadline", "%"),
                ("rtp_loss", "lost", "%"), ("owd_p50_ms", "one-way delay p50 ms", 1),
                ("owd_p99_ms", "one-way delay p99 ms", 1),
                ("frame_delay_p99_ms", "frame delay p99 ms", 1),
                ("loss_period_max_dl100", "longest loss period, packets (100 ms)", 1),
                ("web_mbps", "web Mbit/s", 1), ("web_fct_p50_ms", "download time p50 ms", 1)],
    "seed004": [("tcp_share_free", "TCP / free capacity", "%"), ("tcp_mbps", "TCP Mbit/s", 1),
                ("rtp_throughput_mbps", "video Mbit/s", 1), ("rtp_loss", "RTP loss", "%")],
}


def table(name, rows):
    """Markdown tables of a figure's medians: one per column of TABLES[name], a row per series
    and mode, a column per x."""
    ok = [r for r in rows if r.get("status") == "ok"]
    xs = sorted({float(r["x"]) for r in ok})
    keys = sorted({(r["series"], r["mode"]) for r in ok}, key=lambda k: (_series_order(k[0]),
                                                                        k[1]))
    out = []
    for col, head, scale in TABLES.get(name, []):
        out += ["", "%s (%s, medians):" % (head, name), "",
                "| series | mode | " + " | ".join("%g" % x for x in xs) + " |",
                "|---|---|" + "---|" * len(xs)]
        for series, mode in keys:
            cells = []
            for x in xs:
                v = [_num(r.get(col)) for r in ok if r["series"] == series and
                     r["mode"] == mode and float(r["x"]) == x]
                v = [y for y in v if y is not None]
                m = statistics.median(v) if v else None
                cells.append("—" if m is None else ("%.1f %%" % (100 * m) if scale == "%"
                                                    else "%.3g" % m))
            out.append("| %s | %s | %s |" % (series, mode, " | ".join(cells)))
    return "\n".join(out)


def plot(name, a):
    path = os.path.join(a.out, name + ".csv")
    rows = read_figure(name, a)
    if not rows:
        print("%s: no rows in %s" % (name, path), file=sys.stderr)
        return
    ok = [r for r in rows if r.get("status") == "ok"]
    vals = lambda k: "/".join(sorted({r.get(k) or "?" for r in ok}))  # noqa: E731
    note = "%s: %d runs, %s s of video each; real Linux TCP (%s) and GStreamer in network " \
           "namespaces, router %s, measured RTT %s ms, kernel %s" % (
               name, len(ok), vals("duration_s"), vals("cc"), vals("router"),
               "/".join(sorted({"%.0f" % float(r["rtt_ms"]) for r in ok if r.get("rtt_ms")}))
               or "?", os.uname().release)
    if name == "seed001":
        dist_path = os.path.join(a.out, "seed001-dist.csv")
        dist = seed001_distributions(rows, a)
        if dist:  # from the kept logs; else the file an earlier run wrote
            with open(dist_path, "w", newline="") as f:
                w = csv.DictWriter(f, list(dist[0]))
                w.writeheader()
                w.writerows(dist)
        dist = read_rows(dist_path)
        plot_seed001(rows, os.path.join(a.out, name + ".png"), note, dist)
    else:
        PLOTS[name](rows, os.path.join(a.out, name + ".png"), note)
    print("wrote %s" % os.path.join(a.out, name + ".png"), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1],
                                 usage="%(prog)s FIGURE [options] [-- run.py arguments]")
    ap.add_argument("figure", choices=list(FIGS) + ["all"])
    ap.add_argument("--out", default=".", help="directory for <figure>.csv and <figure>.png")
    ap.add_argument("--quick", action="store_true", help="2-3 points per figure, 3 s each")
    ap.add_argument("--duration", type=float,
                    help="video seconds per point (8, seed001 and seed004 20; quick 3)")
    ap.add_argument("--warmup", type=float, help="TCP-only seconds before the video (2; quick 1)")
    ap.add_argument("--aqms", default="pfifo,red,red-ecn,fq_codel",
                    help="fig000's queue disciplines (run.py --aqm), comma-separated "
                         "(default: %(default)s)")
    ap.add_argument("--ccs", default="cubic",
                    help="seed004's TCPs (run.py --cc), comma-separated (default: %(default)s)")
    ap.add_argument("--logs", default=os.path.join(tempfile.gettempdir(),
                                                   "rtpburstpace-experiments"),
                    help="raw logs of the figures that keep them (seed001; default "
                         "%(default)s)")
    ap.add_argument("--plugin-path",
                    default=os.environ.get("GST_PLUGIN_PATH", "").split(os.pathsep)[0]
                    or run.BUILD_PLUGIN_PATH,
                    help="directory of libgstrtpburstpace.so (default: the first directory of "
                         "GST_PLUGIN_PATH, else build/gst of this checkout)")
    ap.add_argument("--fresh", action="store_true", help="remove the figure's CSV first")
    ap.add_argument("--plot-only", action="store_true")
    ap.add_argument("--table", action="store_true",
                    help="run nothing: print the figure's medians as Markdown tables")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.runargs = argv[cut + 1:]  # more run.py arguments for every point
    for aqm in a.aqms.split(","):
        if aqm not in run.AQMS:
            ap.error("unknown queue discipline %s (%s)" % (aqm, ", ".join(run.AQMS)))
    if a.warmup is None:
        a.warmup = 1.0 if a.quick else 2.0
    os.makedirs(a.out, exist_ok=True)
    names = list(FIGS) if a.figure == "all" else [a.figure]
    if a.table:
        for name in names:
            print(table(name, read_figure(name, a)))
        return 0
    if not a.plot_only:
        if os.geteuid() != 0:
            sys.exit("experiments.py: needs root (network namespaces)")
        signal.signal(signal.SIGTERM, run.on_term)
    total = 0.0
    for name in names:
        if not a.plot_only:
            dt = run_fig(name, a)
            total += dt
            print("%s: %.0f s" % (name, dt), file=sys.stderr, flush=True)
        plot(name, a)
    if not a.plot_only:
        print("total %.0f s" % total, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
