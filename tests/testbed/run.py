#!/usr/bin/python3
"""Run one experiment point on the namespace testbed and append one CSV row.

  netbed.sh up  ->  rtprecv.py in rx, iperf3 -s in rx, iperf3 -c (N flows) in st,
                    rtpsend.py (GStreamer) in sv  ->  metrics  ->  netbed.sh down

The TCP flows start first; the video starts after --warmup seconds (iperf3 --omit excludes the
warm-up from its statistics) and runs --duration seconds.  Modes:
  bursty  payloader straight into udpsink (a whole frame leaves as one burst)
  paced   payloader ! rtpburstpace ! udpsink (plugin from --plugin-path)
  tbf     bursty, shaped by tc tbf on the video sender's own egress at --tbf-factor x the
          stream's wire rate (a sender-side shaper, by design; the bottleneck stays in r)
Needs root; run with Debian's /usr/bin/python3 (python3-gi, python3-gst-1.0).  Example:
  sudo /usr/bin/python3 tests/testbed/run.py --mode bursty --rate 6 --tcp 1 --csv out.csv
"""
import argparse
import csv
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import metrics  # noqa: E402

PY = "/usr/bin/python3"
NETBED = os.path.join(HERE, "netbed.sh")
ETH_IP_UDP = 14 + 28  # bytes a tc qdisc on veth counts on top of the RTP packet


class Interrupted(Exception):
    pass


def on_term(*_):
    """SIGTERM handler: unwind through run()'s cleanup."""
    raise Interrupted()


def vraw_packets(width, height, mtu, pgroup=4, xinc=2):
    """RTP packet sizes rtpvrawpay (RFC 4175) makes of one UYVY frame."""
    line, sizes, y, off = width // xinc * pgroup, [], 0, 0
    while y < height:
        left, size = mtu - 12 - 2, 14
        while y < height and left >= 6 + pgroup:
            left -= 6
            n = min(line - off, left // pgroup * pgroup)
            left, size, off = left - n, size + 6 + n, off + n
            if off == line:
                y, off = y + 1, 0
        sizes.append(size)
    return sizes


def stream_wire_bps(a):
    """Bit rate of one video stream as a qdisc on veth counts it (Ethernet frames)."""
    if a.codec == "raw":
        sizes = vraw_packets(a.width, a.height, a.mtu)
        return (sum(sizes) + ETH_IP_UDP * len(sizes)) * 8 * a.fps
    return a.rate * 1e6 * (1 + ETH_IP_UDP / a.mtu)


def wait_line(proc, word, timeout):
    """Read proc's stdout (unbuffered) until it contains word; False on timeout or EOF."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    end, seen = time.monotonic() + timeout, b""
    while time.monotonic() < end:
        if sel.select(timeout=max(0.0, end - time.monotonic())):
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                return False
            seen += chunk
            if word.encode() in seen:
                return True
    return False


def tc_stats(ns, dev):
    """{handle: qdisc stats} of dev in namespace ns."""
    out = subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show", "dev", dev],
                         capture_output=True, text=True, timeout=10).stdout
    return {q["handle"]: q for q in json.loads(out or "[]")}


def leaf_drops(before, after, handle):
    return after.get(handle, {}).get("drops", 0) - before.get(handle, {}).get("drops", 0)


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    g = ap.add_argument_group("video")
    g.add_argument("--mode", choices=["bursty", "paced", "tbf"], default="bursty")
    g.add_argument("--codec", choices=["raw", "h264"], default="raw")
    g.add_argument("--rate", type=float, default=6.0,
                   help="video Mbit/s: raw sets height=16*rate at 160 px wide; h264 the bitrate")
    g.add_argument("--width", type=int, help="default 160 (raw) / 640 (h264)")
    g.add_argument("--height", type=int, help="default 16*rate (raw) / 360 (h264)")
    g.add_argument("--fps", type=int, default=25)
    g.add_argument("--mtu", type=int, default=1028, help="payloader mtu = RTP packet size")
    g.add_argument("--keyint", type=int, default=50, help="h264 key-int-max")
    g.add_argument("--streams", type=int, default=1, help="video streams (ports 5000...)")
    g.add_argument("--burst-size", type=int, default=1)
    g.add_argument("--duty", type=float, default=0.9)
    g.add_argument("--slot-jitter", type=float, default=0.01)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--element-prop", action="append", default=[], metavar="PROP=VAL",
                   help="extra rtpburstpace property (repeatable)")
    g.add_argument("--plugin-path", default=os.environ.get("RTPBURSTPACE_PLUGIN_PATH",
                                                           "/work/main/build/gst"),
                   help="GST_PLUGIN_PATH for paced mode (meson build dir of the plugin)")
    g.add_argument("--tbf-factor", type=float, default=1.1)
    g = ap.add_argument_group("network")
    g.add_argument("--tcp", type=int, default=1, help="parallel iperf3 flows (0 = none)")
    g.add_argument("--cc", default="cubic", help="TCP congestion control (iperf3 -C)")
    g.add_argument("--mss", type=int, help="iperf3 -M")
    g.add_argument("--bottleneck", type=float, default=10.0, help="Mbit/s")
    g.add_argument("--queue", type=int, default=13, help="bottleneck queue, packets")
    g.add_argument("--aqm", choices=["pfifo", "red", "red-ecn", "fq_codel"], default="pfifo")
    g.add_argument("--delay", type=float, default=0, help="propagation delay ms (netem)")
    g.add_argument("--access", type=float, default=100.0, help="access links, Mbit/s")
    g.add_argument("--link-mtu", type=int, default=1500)
    g = ap.add_argument_group("run")
    g.add_argument("--duration", type=float, default=15.0, help="video seconds")
    g.add_argument("--warmup", type=float, default=2.0, help="TCP-only seconds before video")
    g.add_argument("--csv", help="append the result row here")
    g.add_argument("--label", default="")
    g.add_argument("--keep", metavar="DIR", help="keep the raw logs in DIR")
    g.add_argument("--prefix", default="tb%d" % os.getpid(), help="namespace prefix")
    g.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.width is None:
        a.width = 160 if a.codec == "raw" else 640
    if a.height is None:
        a.height = max(1, round(16 * a.rate)) if a.codec == "raw" else 360
    return a


def run(a):
    """One experiment point; returns the CSV row (dict)."""
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "label": a.label, "mode": a.mode,
           "codec": a.codec, "rate_mbps": a.rate, "width": a.width, "height": a.height,
           "mtu": a.mtu, "streams": a.streams, "tcp_flows": a.tcp, "cc": a.cc,
           "bottleneck_mbps": a.bottleneck, "queue": a.queue, "aqm": a.aqm, "delay_ms": a.delay,
           "duration_s": a.duration, "burst_size": a.burst_size if a.mode == "paced" else "",
           "duty": a.duty if a.mode == "paced" else "",
           "slot_jitter": a.slot_jitter if a.mode == "paced" else "",
           "tbf_factor": a.tbf_factor if a.mode == "tbf" else "",
           "stream_wire_mbps": round(stream_wire_bps(a) * a.streams / 1e6, 4)}

    # Optional qdiscs: a point that needs a missing one is reported as skipped, not run.
    have = dict(l.split("=") for l in subprocess.run(
        [NETBED, "probe", "--prefix", a.prefix], capture_output=True, text=True,
        timeout=30, check=True).stdout.split())
    need = {"red": "HAVE_RED", "red-ecn": "HAVE_RED", "fq_codel": "HAVE_FQ_CODEL"}
    missing = [a.aqm] if a.aqm in need and have[need[a.aqm]] != "1" else []
    if a.delay and have["HAVE_NETEM"] != "1":
        missing.append("netem")
    if a.mode == "paced" and not os.path.exists(os.path.join(a.plugin_path,
                                                             "libgstrtpburstpace.so")):
        missing.append("rtpburstpace (no libgstrtpburstpace.so in %s)" % a.plugin_path)
    if missing:
        row["status"] = "skipped: " + ", ".join(missing)
        return row

    work = tempfile.mkdtemp(prefix="rtpburstpace-testbed-")
    procs = []
    up = False

    def start(ns, cmd, **kw):
        p = subprocess.Popen(["ip", "netns", "exec", ns] + cmd, start_new_session=True,
                             text=True, **kw)
        procs.append(p)
        return p

    try:
        nb = [NETBED, "up", "--prefix", a.prefix, "--rate", "%gmbit" % a.bottleneck,
              "--queue", str(a.queue), "--aqm", a.aqm, "--delay", "%g" % a.delay,
              "--mtu", str(a.link_mtu), "--cc", a.cc, "--access", "%gmbit" % a.access]
        if a.mode == "tbf":
            nb += ["--sender-tbf", "%dbit" % (a.tbf_factor * stream_wire_bps(a) * a.streams)]
        up = True
        out = subprocess.run(nb, capture_output=True, text=True, timeout=60)
        if out.returncode:
            raise RuntimeError("netbed up failed: " + out.stderr)
        env = dict(l.split("=", 1) for l in out.stdout.split("\n") if "=" in l)
        sv, st, r, rx, rx_addr = (env[k] for k in ("NB_SV", "NB_ST", "NB_R", "NB_RX",
                                                   "NB_RX_ADDR"))
        run_for = a.warmup + a.duration + 30

        recv_log, send_log = os.path.join(work, "recv.csv"), os.path.join(work, "send.csv")
        receiver = start(rx, [PY, os.path.join(HERE, "rtprecv.py"), "--out", recv_log,
                              "--duration", str(run_for),
                              "--ports", ",".join(str(5000 + k) for k in range(a.streams))],
                         stdout=subprocess.PIPE)
        if not wait_line(receiver, "ready", 10):
            raise RuntimeError("receiver did not start")

        genv = dict(os.environ)
        if a.mode == "paced":
            genv["GST_PLUGIN_PATH"] = a.plugin_path
        scmd = [PY, os.path.join(HERE, "rtpsend.py"), "--host", rx_addr, "--log", send_log,
                "--stats", os.path.join(work, "stats.json"),
                "--streams", str(a.streams), "--codec", a.codec,
                "--mode", "paced" if a.mode == "paced" else "bursty",
                "--width", str(a.width), "--height", str(a.height), "--fps", str(a.fps),
                "--mtu", str(a.mtu), "--kbps", str(int(a.rate * 1000)), "--keyint", str(a.keyint),
                "--burst-size", str(a.burst_size), "--duty", str(a.duty),
                "--slot-jitter", str(a.slot_jitter), "--seed", str(a.seed),
                "--duration", str(a.duration)]
        for p in a.element_prop:
            scmd += ["--element-prop", p]
        sender = start(sv, scmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       stderr=open(os.path.join(work, "sender.err"), "w"), env=genv)
        if not wait_line(sender, "ready", 60):
            raise RuntimeError("sender did not start: " +
                               open(os.path.join(work, "sender.err")).read()[-2000:])

        client = None
        if a.tcp:
            server = start(rx, ["iperf3", "-s", "-B", rx_addr, "--forceflush"],
                           stdout=subprocess.PIPE)
            if not wait_line(server, "listening", 10):
                raise RuntimeError("iperf3 server did not start")
            icmd = ["iperf3", "-c", rx_addr, "-P", str(a.tcp), "-t", "%g" % a.duration,
                    "-O", "%g" % a.warmup, "-C", a.cc, "-J"]
            if a.mss:
                icmd += ["-M", str(a.mss)]
            client = start(st, icmd, stdout=open(os.path.join(work, "iperf3.json"), "w"))
            time.sleep(a.warmup)

        bneck0, sv0, st0 = tc_stats(r, "r-rx"), tc_stats(sv, "sv-r"), tc_stats(st, "st-r")
        sender.stdin.write("go\n")
        sender.stdin.flush()
        rc = sender.wait(timeout=a.duration + 30)
        bneck1, sv1, st1 = tc_stats(r, "r-rx"), tc_stats(sv, "sv-r"), tc_stats(st, "st-r")
        if rc:
            raise RuntimeError("sender failed: " +
                               open(os.path.join(work, "sender.err")).read()[-2000:])
        time.sleep(0.5)  # let the bottleneck queue drain
        receiver.send_signal(signal.SIGTERM)
        receiver.wait(timeout=30)
        if client:
            client.wait(timeout=a.warmup + a.duration + 30)

        row.update(metrics.run_metrics(send_log, recv_log, fps=a.fps))
        if client:
            with open(os.path.join(work, "iperf3.json")) as f:
                row.update(metrics.iperf3_metrics(json.load(f)))
        row["bottleneck_drops"] = leaf_drops(bneck0, bneck1, "10:")
        # drops on the senders' own egress: 0 unless tbf mode (the trap in TESTBED.md)
        row["sv_qdisc_drops"] = leaf_drops(sv0, sv1, "1:" if a.mode == "tbf" else "10:")
        row["st_qdisc_drops"] = leaf_drops(st0, st1, "10:")
        row["status"] = "ok"
        if os.path.exists(os.path.join(work, "stats.json")):
            with open(os.path.join(work, "stats.json")) as f:
                row["element_stats"] = json.dumps(json.load(f))
        return row
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=3)
        if up:
            subprocess.run([NETBED, "down", "--prefix", a.prefix], timeout=60)
        if a.keep:
            shutil.copytree(work, a.keep, dirs_exist_ok=True)
        shutil.rmtree(work, ignore_errors=True)


COLUMNS = ["time", "label", "status", "mode", "codec", "rate_mbps", "width", "height", "mtu",
           "streams", "tcp_flows", "cc", "bottleneck_mbps", "queue", "aqm", "delay_ms",
           "duration_s", "burst_size", "duty", "slot_jitter", "tbf_factor", "stream_wire_mbps",
           "rtp_sent", "rtp_received", "rtp_loss", "rtp_loss_sent", "rtp_throughput_mbps",
           "rtp_goodput_mbps", "jitter_ms", "owd_p50_ms", "owd_p99_ms", "owd_max_ms",
           "owd_std_ms",
           "loss_dl40", "loss_dl100", "frames", "frame_loss", "frame_loss_whole",
           "frame_loss_dl40", "frame_loss_dl100", "tcp_mbps", "tcp_sent_mbps", "tcp_retrans",
           "bottleneck_drops", "sv_qdisc_drops", "st_qdisc_drops", "element_stats"]


def append_csv(path, row):
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow(row)


def main(argv=None):
    a = parse_args(argv)
    if os.geteuid() != 0:
        sys.exit("run.py: needs root (network namespaces)")

    signal.signal(signal.SIGTERM, on_term)
    try:
        row = run(a)
    except (Interrupted, KeyboardInterrupt):
        sys.exit("run.py: interrupted, testbed removed")
    if a.csv:
        append_csv(a.csv, row)
    if not a.quiet:
        keys = ["status", "mode", "rate_mbps", "tcp_flows", "rtp_loss", "rtp_goodput_mbps",
                "jitter_ms", "owd_p50_ms", "owd_p99_ms", "loss_dl40", "loss_dl100",
                "frame_loss", "tcp_mbps", "tcp_retrans", "bottleneck_drops",
                "sv_qdisc_drops", "st_qdisc_drops"]
        print(" ".join("%s=%s" % (k, row.get(k, "")) for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
