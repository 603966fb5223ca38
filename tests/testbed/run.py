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
# the plugin as scripts/setup.sh builds it: build/gst of the checkout this file is in
BUILD_PLUGIN_PATH = os.path.normpath(os.path.join(HERE, "..", "..", "build", "gst"))
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


_GEOMETRY = {}


def raw_geometry(rate_mbps, payload, fps=25):
    """(width, height) of UYVY frames that rtpvrawpay with mtu = payload + 12 cuts into packets of
    exactly `payload` bytes (the last of a frame may be shorter) carrying rate_mbps of RTP payload,
    as the papers' CBR source: e.g. 6 Mbit/s, 1000 B -> 196x75, 30 packets of 1000 B per frame
    at 25 fps.  Searched once per (rate, payload, fps); prefers widths near 196."""
    key = (rate_mbps, payload, fps)
    if key not in _GEOMETRY:
        target, mtu, best = rate_mbps * 1e6 / 8 / fps, payload + 12, None
        for w in range(16, 1282, 2):
            h0 = target / (2 * w * (1 + 8.0 / payload) + 6)
            for h in range(max(1, int(h0) - 2), int(h0) + 3):
                pay = [x - 12 for x in vraw_packets(w, h, mtu)]
                score = (round(abs(sum(pay) - target) / target, 3),
                         sum(1 for x in pay[:-1] if x != payload), abs(w - 196))
                if best is None or score < best[0]:
                    best = (score, w, h)
        _GEOMETRY[key] = best[1:]
    return _GEOMETRY[key]


def stream_wire_bps(a):
    """Bit rate of one video stream as a qdisc on veth counts it (Ethernet frames)."""
    if a.codec == "raw":
        sizes = vraw_packets(a.width, a.height, a.mtu)
        return (sum(sizes) + ETH_IP_UDP * len(sizes)) * 8 * a.fps
    return a.rate * 1e6 * (1 + ETH_IP_UDP / a.mtu)


def cpu_times():
    """(busy, total, steal) jiffies of all CPUs from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]  # idle + iowait
    return sum(v) - idle, sum(v), v[7] if len(v) > 7 else 0


def cpu_busy_since(t0):
    """Share of all CPUs busy (and stolen by the hypervisor) since cpu_times() gave t0."""
    t1 = cpu_times()
    total = max(1, t1[1] - t0[1])
    return round((t1[0] - t0[0]) / total, 3), round((t1[2] - t0[2]) / total, 3)


def wait_idle(threshold=0.2, timeout=900, probe=1.0, quiet_probes=2, log=sys.stderr,
              on_wait=None):
    """Wait until the machine is quiet (share of CPU busy below threshold over `quiet_probes`
    consecutive `probe`-second intervals) before a measurement: pacing precision and TCP both
    depend on free CPU, and on a 2-core VM another job (a build, a fuzzer) changes results.
    Notes on `log` that it waits and when it stops; on_wait, if given, is called instead with
    the busy share when the wait begins.  Returns the seconds waited (gives up after timeout
    and measures anyway)."""
    t_start, said, quiet = time.monotonic(), False, 0
    while True:
        t0 = cpu_times()
        time.sleep(probe)
        busy, _ = cpu_busy_since(t0)
        quiet = quiet + 1 if busy < threshold else 0
        waited = time.monotonic() - t_start
        if quiet >= quiet_probes or waited > timeout:
            if said and log and not on_wait:
                print("run.py: CPU %s after %.0f s (busy %.0f %%)" % (
                    "quiet" if quiet >= quiet_probes else "still busy, measuring anyway",
                    waited, 100 * busy), file=log, flush=True)
            return waited - quiet_probes * probe
        if not said and busy >= threshold:
            said = True
            if on_wait:
                on_wait(busy)
            elif log:
                print("run.py: CPU %.0f %% busy by other processes, waiting (up to %d s) before "
                      "measuring" % (100 * busy, timeout), file=log, flush=True)


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


def testbed_unavailable(plugin_path=None):
    """None if this machine can run the testbed, else why not (for a clean skip): root,
    ip/tc/ethtool/iperf3, network namespaces, PyGObject with GStreamer, and with plugin_path
    the rtpburstpace plugin there."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, tc)"
    for tool in ("ip", "tc", "ethtool", "iperf3"):
        if not shutil.which(tool):
            return "%s not found" % tool
    ns = "rbpprobe%d" % os.getpid()
    r = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True, timeout=20)
    if r.returncode:
        return "network namespaces unavailable: " + r.stderr.strip()
    subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20)
    r = subprocess.run([PY, "-c", "import gi; gi.require_version('Gst', '1.0'); "
                        "from gi.repository import Gst; Gst.init(None)"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        return "%s lacks PyGObject/GStreamer: %s" % (PY, r.stderr.strip()[-200:])
    if plugin_path and not os.path.exists(os.path.join(plugin_path, "libgstrtpburstpace.so")):
        return "no libgstrtpburstpace.so in %s" % plugin_path
    return None


class Testbed:
    """The testbed of one run as a context manager: `netbed.sh up` with the network options of
    a (run.py's arguments) on entry, the namespaces as .sv .st .r .rx and the receiver's
    address as .rx_addr; processes started in the namespaces with start(); on exit (also on
    errors and signals) every such process ended and `netbed.sh down`.  tools: a file for what
    the tools print (None: stderr); sender_tbf_bps: a tbf on the video sender's egress."""

    def __init__(self, a, tools=None, sender_tbf_bps=None):
        self.a, self.tools, self.sender_tbf_bps = a, tools, sender_tbf_bps
        self.procs, self.up = [], False

    def __enter__(self):
        a = self.a
        nb = [NETBED, "up", "--prefix", a.prefix, "--rate", "%gmbit" % a.bottleneck,
              "--queue", str(a.queue), "--aqm", a.aqm, "--delay", "%g" % a.delay,
              "--mtu", str(a.link_mtu), "--cc", a.cc, "--access", "%gmbit" % a.access]
        if self.sender_tbf_bps:
            nb += ["--sender-tbf", "%dbit" % self.sender_tbf_bps]
        self.up = True
        try:
            out = subprocess.run(nb, capture_output=True, text=True, timeout=60)
            if self.tools and out.stderr:
                self.tools.write(out.stderr)
            if out.returncode:
                raise RuntimeError("netbed up failed: " + out.stderr)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        env = dict(l.split("=", 1) for l in out.stdout.split("\n") if "=" in l)
        self.sv, self.st, self.r, self.rx, self.rx_addr = (
            env[k] for k in ("NB_SV", "NB_ST", "NB_R", "NB_RX", "NB_RX_ADDR"))
        return self

    def start(self, ns, cmd, **kw):
        """Popen of cmd in namespace ns (a new session), ended on exit."""
        p = subprocess.Popen(["ip", "netns", "exec", ns] + cmd, start_new_session=True,
                             text=True, **kw)
        self.procs.append(p)
        return p

    def start_tcp(self, out_path, duration, omit):
        """iperf3 server in rx and a.tcp flows (-C a.cc) from st writing JSON to out_path:
        `omit` seconds of warm-up left out of iperf3's figures, then `duration` measured.
        Returns the client after a.warmup seconds (None when a.tcp is 0)."""
        a = self.a
        if not a.tcp:
            return None
        server = self.start(self.rx, ["iperf3", "-s", "-B", self.rx_addr, "--forceflush"],
                            stdout=subprocess.PIPE, stderr=self.tools)
        if not wait_line(server, "listening", 10):
            raise RuntimeError("iperf3 server did not start")
        icmd = ["iperf3", "-c", self.rx_addr, "-P", str(a.tcp), "-t", "%g" % duration,
                "-O", "%g" % omit, "-C", a.cc, "-J"]
        if a.mss:
            icmd += ["-M", str(a.mss)]
        client = self.start(self.st, icmd, stdout=open(out_path, "w"), stderr=self.tools)
        time.sleep(a.warmup)
        return client

    def qdisc_stats(self):
        """tc statistics of the bottleneck (r-rx) and of the senders' egress (sv-r, st-r)."""
        return (tc_stats(self.r, "r-rx"), tc_stats(self.sv, "sv-r"),
                tc_stats(self.st, "st-r"))

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=3)
        self.procs = []
        if self.up:
            self.up = False
            subprocess.run([NETBED, "down", "--prefix", self.a.prefix], timeout=60,
                           stdout=self.tools, stderr=self.tools)
        return False


def qdisc_drops(before, after, mode):
    """Drops during a run: {bottleneck_drops, sv_qdisc_drops, st_qdisc_drops} from two
    Testbed.qdisc_stats() results; the senders' own egress drops nothing unless a tbf is
    there (the trap in TESTBED.md)."""
    return {"bottleneck_drops": leaf_drops(before[0], after[0], "10:"),
            "sv_qdisc_drops": leaf_drops(before[1], after[1], "1:" if mode == "tbf" else "10:"),
            "st_qdisc_drops": leaf_drops(before[2], after[2], "10:")}


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    g = ap.add_argument_group("video")
    g.add_argument("--mode", choices=["bursty", "paced", "tbf"], default="bursty")
    g.add_argument("--codec", choices=["raw", "h264"], default="raw")
    g.add_argument("--rate", type=float, default=6.0,
                   help="video Mbit/s of RTP payload: raw picks the frame size that gives "
                        "packets of exactly mtu-12 payload bytes (raw_geometry); h264 bitrate")
    g.add_argument("--width", type=int, help="default: raw_geometry (raw) / 640 (h264)")
    g.add_argument("--height", type=int, help="default: raw_geometry (raw) / 360 (h264)")
    g.add_argument("--fps", type=int, default=25)
    g.add_argument("--mtu", type=int, default=1012,
                   help="payloader mtu = RTP packet size (default 1012: 1000 B payloads, so "
                        "6 Mbit/s is 30 x 1000 B per 40 ms frame as in the papers)")
    g.add_argument("--keyint", type=int, default=50, help="h264 key-int-max")
    g.add_argument("--source", choices=["testsrc", "pan"], default="testsrc",
                   help="h264 source (rtpsend.py): videotestsrc, or a camera pan over a detailed "
                        "texture (VBR with large keyframes)")
    g.add_argument("--streams", type=int, default=1, help="video streams (ports 5000...)")
    g.add_argument("--burst-size", type=int, default=1)
    g.add_argument("--duty", type=float, default=0.9)
    g.add_argument("--duties", metavar="D0,D1,...",
                   help="paced: a duty per stream (overrides --duty; the paper's advice for "
                        "de-synchronising streams)")
    g.add_argument("--slot-jitter", type=float, default=0.01)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--element-prop", action="append", default=[], metavar="PROP=VAL",
                   help="extra rtpburstpace property (repeatable)")
    g.add_argument("--plugin-path", default=os.environ.get("RTPBURSTPACE_PLUGIN_PATH",
                                                           BUILD_PLUGIN_PATH),
                   help="GST_PLUGIN_PATH for paced mode: the directory of libgstrtpburstpace.so "
                        "(default: $RTPBURSTPACE_PLUGIN_PATH, else build/gst of this checkout)")
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
    g.add_argument("--log", metavar="FILE",
                   help="append what the tools print (netbed.sh, iperf3, the GStreamer sender "
                        "and receiver) to FILE instead of letting it through to stderr")
    g.add_argument("--wait-idle", type=float, default=600, metavar="S",
                   help="before measuring, wait up to S seconds until less than a quarter of "
                        "the CPU is busy (other jobs spoil pacing and TCP); 0 = do not wait")
    a = ap.parse_args(argv)
    a.plugin_path = os.path.abspath(a.plugin_path)
    if a.codec == "raw" and (a.width is None or a.height is None):
        w, h = raw_geometry(a.rate, a.mtu - 12, a.fps)
        a.width = w if a.width is None else a.width
        a.height = h if a.height is None else a.height
    if a.width is None:
        a.width = 640
    if a.height is None:
        a.height = 360
    return a


def run(a, on_wait=None):
    """One experiment point; returns the CSV row (dict).  on_wait goes to wait_idle().  With
    a.log, the tools' output, the sender's stderr and the reason of a failure are appended to
    that file under a header naming the run; else the tools print to stderr."""
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "label": a.label, "mode": a.mode,
           "codec": a.codec,
           "source": a.source if a.codec == "h264" else "",
           "keyint": a.keyint if a.codec == "h264" else "",
           "rate_mbps": a.rate, "width": a.width, "height": a.height,
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

    if a.wait_idle > 0:
        row["waited_idle_s"] = round(wait_idle(timeout=a.wait_idle, on_wait=on_wait), 1)
    work = tempfile.mkdtemp(prefix="rtpburstpace-testbed-")
    tools = None  # where the tools' stdout/stderr go (None: inherited)
    if a.log:
        tools = open(a.log, "a", buffering=1)  # line-buffered: in order with the tools' writes
        tools.write("==== %s run %s: mode %s, tcp %d, duration %g s, namespaces %s-*\n" % (
            row["time"], a.label or "-", a.mode, a.tcp, a.duration, a.prefix))

    try:
        tbf = a.tbf_factor * stream_wire_bps(a) * a.streams if a.mode == "tbf" else None
        with Testbed(a, tools, tbf) as bed:
            run_for = a.warmup + a.duration + 30
            recv_log, send_log = os.path.join(work, "recv.csv"), os.path.join(work, "send.csv")
            receiver = bed.start(bed.rx, [PY, os.path.join(HERE, "rtprecv.py"), "--out",
                                          recv_log, "--duration", str(run_for), "--ports",
                                          ",".join(str(5000 + k) for k in range(a.streams))],
                                 stdout=subprocess.PIPE, stderr=tools)
            if not wait_line(receiver, "ready", 10):
                raise RuntimeError("receiver did not start")

            genv = dict(os.environ)
            if a.mode == "paced":
                genv["GST_PLUGIN_PATH"] = a.plugin_path
            scmd = [PY, os.path.join(HERE, "rtpsend.py"), "--host", bed.rx_addr, "--log",
                    send_log, "--stats", os.path.join(work, "stats.json"),
                    "--streams", str(a.streams), "--codec", a.codec,
                    "--mode", "paced" if a.mode == "paced" else "bursty",
                    "--width", str(a.width), "--height", str(a.height), "--fps", str(a.fps),
                    "--mtu", str(a.mtu), "--kbps", str(int(a.rate * 1000)),
                    "--keyint", str(a.keyint), "--source", a.source,
                    "--burst-size", str(a.burst_size), "--duty", str(a.duty),
                    "--slot-jitter", str(a.slot_jitter), "--seed", str(a.seed),
                    "--duration", str(a.duration)]
            if a.duties:
                scmd += ["--duties", a.duties]
            for p in a.element_prop:
                scmd += ["--element-prop", p]
            sender = bed.start(bed.sv, scmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=open(os.path.join(work, "sender.err"), "w"), env=genv)
            if not wait_line(sender, "ready", 60):
                raise RuntimeError("sender did not start: " +
                                   open(os.path.join(work, "sender.err")).read()[-2000:])

            client = bed.start_tcp(os.path.join(work, "iperf3.json"), a.duration, a.warmup)

            q0 = bed.qdisc_stats()
            cpu0 = cpu_times()
            sender.stdin.write("go\n")
            sender.stdin.flush()
            rc = sender.wait(timeout=a.duration + 30)
            row["cpu_busy"], row["cpu_steal"] = cpu_busy_since(cpu0)
            q1 = bed.qdisc_stats()
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
        row.update(qdisc_drops(q0, q1, a.mode))
        row["status"] = "ok"
        if os.path.exists(os.path.join(work, "stats.json")):
            with open(os.path.join(work, "stats.json")) as f:
                row["element_stats"] = json.dumps(json.load(f))
        return row
    except BaseException as e:
        if tools:
            tools.write("run %s\n" % ("interrupted" if isinstance(e, (Interrupted,
                                                                      KeyboardInterrupt))
                                      else "failed: %s" % e))
        raise
    finally:
        if tools and os.path.exists(os.path.join(work, "sender.err")):
            with open(os.path.join(work, "sender.err")) as f:
                tools.write("---- sender (rtpsend.py) stderr:\n" + f.read())
        if tools:
            tools.close()
        if a.keep:
            shutil.copytree(work, a.keep, dirs_exist_ok=True)
        shutil.rmtree(work, ignore_errors=True)


COLUMNS = ["time", "label", "status", "mode", "codec", "source", "keyint", "rate_mbps", "width",
           "height", "mtu", "streams", "tcp_flows", "cc", "bottleneck_mbps", "queue", "aqm",
           "delay_ms",
           "duration_s", "burst_size", "duty", "slot_jitter", "tbf_factor", "stream_wire_mbps",
           "rtp_sent", "rtp_received", "rtp_loss", "rtp_loss_sent", "rtp_throughput_mbps",
           "rtp_goodput_mbps", "jitter_ms", "owd_p50_ms", "owd_p99_ms", "owd_max_ms",
           "owd_std_ms",
           "loss_dl40", "loss_dl100", "frames", "frame_loss", "frame_loss_whole", "rtp_loss_streams",
           "rtp_loss_max_stream",
           "frame_loss_dl40", "frame_loss_dl100", "frame_delay_p50_ms", "frame_delay_p99_ms",
           "frame_delay_max_ms", "tcp_mbps", "tcp_sent_mbps", "tcp_retrans",
           "bottleneck_drops", "sv_qdisc_drops", "st_qdisc_drops", "cpu_busy", "cpu_steal",
           "waited_idle_s", "element_stats"]


def append_csv(path, row, columns=COLUMNS):
    """Append row to the CSV at path; a file that exists keeps its own header (columns it
    lacks are left out of the row)."""
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    if not new:
        with open(path, newline="") as f:
            columns = next(csv.reader(f), None) or columns
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, columns, extrasaction="ignore")
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
