#!/usr/bin/python3
"""The experiments of the burst-control papers on the namespace testbed, each a CSV and a PNG.

Subcommands (one per figure; `all` runs them in this order):
  fig4    002 Fig. 4: RTP payload length 100 ... 4000 B vs RTP goodput, RTP loss, delay
          variation and TCP throughput; 3 and 6 Mbit/s CBR; one TCP flow with a 13-packet or a
          1000-packet drop-tail queue, and no TCP with the 1000-packet queue
  fig7    002 Fig. 7: i TCP flows x j video streams of 1 Mbit/s on 10 Mbit/s (13 packets)
  fig8    002 Fig. 8: video bit rate 1 ... 9 Mbit/s vs one TCP flow on 10 Mbit/s (13 packets)
  fig000  000 Figs. 2-3: 0 ... 10 TCP flows vs 1 Mbit/s video on 2 Mbit/s, 50-packet drop-tail
          (the 000 paper's DT case; red/red-ecn with --aqm where the kernel has them)
  bduty   burst size b (1 ... 30) and duty (0.25 ... 1) sweeps, 6 Mbit/s vs one TCP flow,
          13 packets, with the bursty stream and the sender-side tbf as references
Every point runs both without the element ("bursty": the payloader's bursts go straight to
udpsink) and with it ("paced": payloader ! rtpburstpace ! udpsink), drawn on the same axes
(paced solid, bursty dashed).  The video is the papers' CBR source: raw UYVY through rtpvrawpay
with frame sizes chosen so that every packet carries exactly the payload length (run.py's
raw_geometry; 6 Mbit/s = 30 x 1000 B per 40 ms frame).

Each point is one run.py run (testbed up, TCP warm-up, video, metrics, testbed down): by default
1 repetition of 8 s video after 2 s of TCP warm-up, about 13.5 s per point with set-up and the
idle check; the full `all` sweep is 111 points, about 25 minutes on a 2-vCPU VM (plus any time
spent waiting for a quiet CPU, run.py --wait-idle).  --quick: 2-4 points per figure of 3 s
(CI smoke test, 18 points, about 2 minutes for `all`).  Points already in the CSV with status ok are not
run again (delete the CSV or pass --fresh to start over); --plot-only redraws from the CSV.
Needs root and Debian's /usr/bin/python3 (python3-gi, python3-gst-1.0, python3-numpy,
python3-matplotlib).  Example:
  sudo /usr/bin/python3 tests/testbed/experiments.py all --out docs/results
  sudo /usr/bin/python3 tests/testbed/experiments.py fig8 --quick --out /tmp/tb
"""
import argparse
import csv
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
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


def pts_fig000(q, aqm="pfifo"):
    """000 Figs. 2-3: N TCP flows vs 1 Mbit/s video on 2 Mbit/s, 50-packet queue."""
    flows = (0, 1, 2, 3, 4, 6, 8, 10) if not q else (0, 4)
    return [("%s" % aqm, n, ["--mode", mode, "--rate", "1", "--tcp", str(n),
                             "--bottleneck", "2", "--queue", "50", "--aqm", aqm])
            for n in flows for mode in MODES]


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


FIGS = {"fig4": pts_fig4, "fig7": pts_fig7, "fig8": pts_fig8, "fig000": pts_fig000,
        "bduty": pts_bduty}


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
    pts = FIGS[name](a.quick, a.aqm) if name == "fig000" else FIGS[name](a.quick)
    done = {r["point"] for r in read_rows(path) if r.get("status", "").startswith(("ok", "skip"))}
    common = ["--duration", str(a.duration), "--warmup", str(a.warmup),
              "--plugin-path", a.plugin_path, "--quiet"]
    t0 = time.monotonic()
    todo = [p for p in pts if " ".join(p[2]) not in done]
    for i, (series, x, args) in enumerate(todo):
        key = " ".join(args)
        ra = run.parse_args(args + common + ["--label", name])
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
    fig, ax = plt.subplots(1, 2, figsize=(11, 5))
    for s in sorted({r["series"] for r in rows}):
        for m in MODES:
            xs, ys = _series(rows, s, m, "rtp_throughput_mbps")
            ax[0].plot(xs, ys, color="C0", marker="o", ls=STYLE[m]["ls"],
                       label="RTP, %s (%s)" % (LABEL[m], s))
            xs, ys = _series(rows, s, m, "tcp_mbps")
            ax[0].plot(xs, ys, color="C3", marker="x", ls=STYLE[m]["ls"],
                       label="TCP, all flows, %s (%s)" % (LABEL[m], s))
            xs, ys = _series(rows, s, m, "rtp_loss")
            ax[1].plot(xs, [100 * y for y in ys], color="C0", marker="o", ls=STYLE[m]["ls"],
                       label="RTP loss, %s" % LABEL[m])
            xs, ys = _series(rows, s, m, "tcp_retrans_rate")
            ax[1].plot(xs, [100 * y for y in ys], color="C3", marker="x", ls=STYLE[m]["ls"],
                       label="TCP retransmitted segments, %s" % LABEL[m])
    ax[1].axhline(5, color="0.5", ls=":", lw=1)
    ax[0].set_ylabel("throughput [Mbit/s]")
    ax[1].set_ylabel("packet error rate [%]\n(TCP: retransmitted / sent segments)")
    for a in ax:
        a.set_xlabel("TCP flows N")
        a.grid(True, alpha=0.3)
    fig.tight_layout(rect=(0, 0.12, 1, 0.94))
    _finish(fig, ax, path, "000 Figs. 2-3 on Linux: N TCP flows vs 1 Mbit/s video on 2 Mbit/s, "
            "50-packet drop-tail; solid: burstless (rtpburstpace), dashed: bursty", note)


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
         "bduty": plot_bduty}


def plot(name, a):
    path = os.path.join(a.out, name + ".csv")
    rows = read_rows(path)
    for r in rows:  # TCP retransmitted share of segments (MSS 1448 B), for 000 Fig. 3
        if name == "fig000" and r.get("tcp_flows") == "0" and r.get("status") == "ok":
            r["tcp_mbps"], r["tcp_retrans"], r["tcp_sent_mbps"] = 0, 0, 0
        sent, rt, d = _num(r.get("tcp_sent_mbps")), _num(r.get("tcp_retrans")), \
            _num(r.get("duration_s"))
        r["tcp_retrans_rate"] = rt / (sent * 1e6 * d / 8 / 1448) if sent and rt is not None \
            and d else ""
    if not rows:
        print("%s: no rows in %s" % (name, path), file=sys.stderr)
        return
    n = sum(r.get("status") == "ok" for r in rows)
    durs = sorted({r.get("duration_s") for r in rows})
    note = "%s: %d runs, %s s of video each after TCP warm-up; real Linux TCP (cubic) and " \
           "GStreamer in network namespaces, %s" % (name, n, "/".join(durs), os.uname().release)
    PLOTS[name](rows, os.path.join(a.out, name + ".png"), note)
    print("wrote %s" % os.path.join(a.out, name + ".png"), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("figure", choices=list(FIGS) + ["all"])
    ap.add_argument("--out", default=".", help="directory for <figure>.csv and <figure>.png")
    ap.add_argument("--quick", action="store_true", help="2-3 points per figure, 3 s each")
    ap.add_argument("--duration", type=float, help="video seconds per point (8; quick 3)")
    ap.add_argument("--warmup", type=float, help="TCP-only seconds before the video (2; quick 1)")
    ap.add_argument("--aqm", default="pfifo", choices=["pfifo", "red", "red-ecn"],
                    help="fig000 queue (red variants need the red qdisc)")
    ap.add_argument("--plugin-path",
                    default=os.environ.get("GST_PLUGIN_PATH", "").split(os.pathsep)[0]
                    or run.BUILD_PLUGIN_PATH,
                    help="directory of libgstrtpburstpace.so (default: the first directory of "
                         "GST_PLUGIN_PATH, else build/gst of this checkout)")
    ap.add_argument("--fresh", action="store_true", help="remove the figure's CSV first")
    ap.add_argument("--plot-only", action="store_true")
    a = ap.parse_args()
    if a.duration is None:
        a.duration = 3.0 if a.quick else 8.0
    if a.warmup is None:
        a.warmup = 1.0 if a.quick else 2.0
    os.makedirs(a.out, exist_ok=True)
    names = list(FIGS) if a.figure == "all" else [a.figure]
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
