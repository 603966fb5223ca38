#!/usr/bin/python3
"""Run one experiment point on the namespace testbed and append one CSV row.

  netbed.sh up  ->  rtprecv.py in rx, iperf3 -s in rx, iperf3 -c (N flows) in st,
                    rtpsend.py (GStreamer) in sv  ->  metrics  ->  netbed.sh down

The path: a --bottleneck Mbit/s link with the --aqm queue of --queue packets and --rtt ms of
round trip, through the kernel's qdiscs where it has them, else through the ns-3 router
(netbed.sh; --router); every row records the router, the queue and the round trip ping measured.
The TCP flows (--tcp iperf3 flows and --web-flows users of short downloads, all with --cc) start
first; the video starts after --warmup seconds (iperf3 --omit excludes the warm-up from its
statistics) and runs --duration seconds; with --tcp-start S they arrive S s into the video
instead.  Modes:
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
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import metrics  # noqa: E402

PY = "/usr/bin/python3"
NETBED = os.path.join(HERE, "netbed.sh")
WEBFLOWS = os.path.join(HERE, "webflows.py")
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


def udp_errors(ns):
    """UDP datagrams namespace ns received but dropped: socket buffer full, bad checksum
    (/proc/net/snmp: RcvbufErrors + InCsumErrors + MemErrors)."""
    out = subprocess.run(["ip", "netns", "exec", ns, "cat", "/proc/net/snmp"],
                         capture_output=True, text=True, timeout=10, check=True).stdout
    head, vals = [l.split()[1:] for l in out.splitlines() if l.startswith("Udp:")][:2]
    d = dict(zip(head, map(int, vals)))
    return sum(d.get(k, 0) for k in ("RcvbufErrors", "InCsumErrors", "MemErrors"))


def link_stats(ns, dev):
    """The kernel's counters of dev in namespace ns (ip -s link: rx/tx packets, dropped...)."""
    out = subprocess.run(["ip", "-n", ns, "-s", "-j", "link", "show", "dev", dev],
                         capture_output=True, text=True, timeout=10, check=True).stdout
    return json.loads(out)[0]["stats64"]


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
    address as .rx_addr; the path it made as .path (router, measured round trip, queue, ...)
    and what it had to leave out as .skipped; processes started in the namespaces with
    start(); on exit (also on errors and signals) every such process ended and `netbed.sh
    down`.  tools: a file for what the tools print (None: stderr); sender_tbf_bps: a tbf on
    the video sender's egress."""

    def __init__(self, a, tools=None, sender_tbf_bps=None):
        self.a, self.tools, self.sender_tbf_bps = a, tools, sender_tbf_bps
        self.procs, self.up = [], False

    def __enter__(self):
        a = self.a
        nb = [NETBED, "up", "--prefix", a.prefix, "--rate", "%gmbit" % a.bottleneck,
              "--queue", str(a.queue), "--aqm", a.aqm, "--rtt", "%g" % a.rtt,
              "--router", a.router, "--ns3-router", ns3_router_path(a.plugin_path),
              "--mtu", str(a.link_mtu), "--cc", a.cc, "--access", "%gmbit" % a.access]
        if self.sender_tbf_bps:
            nb += ["--sender-tbf", "%dbit" % self.sender_tbf_bps]
        if getattr(a, "bottleneck_low", None):
            nb += ["--rate-low", "%gmbit" % a.bottleneck_low]
        self.up = True
        try:
            out = subprocess.run(nb, capture_output=True, text=True, timeout=60)
            if self.tools and out.stderr:
                self.tools.write(out.stderr)
            if out.returncode:
                raise RuntimeError("netbed up failed: " + out.stderr)
            env = dict(l.split("=", 1) for l in out.stdout.split("\n") if "=" in l)
            self.sv, self.st, self.r, self.rx, self.rx_addr = (
                env[k] for k in ("NB_SV", "NB_ST", "NB_R", "NB_RX", "NB_RX_ADDR"))
            self.router_dev, self.ns3_stats = env["NB_ROUTER_DEV"], env.get("NB_NS3_STATS")
            self.ns3_pid = int(env["NB_NS3_PID"]) if env.get("NB_NS3_PID") else None
            self.skipped = [x for x in env.get("SKIPPED", "").split(",") if x]
            self.path = {"router": env["NB_ROUTER"], "rtt_ms": float(env["NB_RTT_MS"]),
                         "rtt_mdev_ms": float(env["NB_RTT_MDEV_MS"]),
                         "rtt_configured_ms": float(env["NB_RTT_CONFIGURED_MS"]),
                         "aqm": env["NB_AQM"], "queue": int(env["NB_QUEUE"]), "cc": a.cc}
            if a.web_iw:
                # the TCP sender's initial window (Linux: 10 segments) on its route to rx
                subprocess.run(["ip", "-n", self.st, "route", "replace", "default", "via",
                                "10.0.2.1", "initcwnd", str(a.web_iw)], check=True,
                               timeout=10)
        except BaseException:
            self.__exit__(None, None, None)
            raise
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
        if not self.a.tcp:
            return None
        self.start_tcp_server()
        client = self.start_tcp_client(out_path, duration, omit)
        time.sleep(self.a.warmup)
        return client

    def start_tcp_server(self):
        server = self.start(self.rx, ["iperf3", "-s", "-B", self.rx_addr, "--forceflush"],
                            stdout=subprocess.PIPE, stderr=self.tools)
        if not wait_line(server, "listening", 10):
            raise RuntimeError("iperf3 server did not start")

    def start_tcp_client(self, out_path, duration, omit):
        a = self.a
        icmd = ["iperf3", "-c", self.rx_addr, "-P", str(a.tcp), "-t", "%g" % duration,
                "-O", "%g" % omit, "-C", a.cc, "-J"]
        if a.mss:
            icmd += ["-M", str(a.mss)]
        if getattr(a, "tcp_server_output", False):
            icmd += ["--get-server-output"]
        return self.start(self.st, icmd, stdout=open(out_path, "w"), stderr=self.tools)

    def cross_traffic(self, work, measure_s, omit_s):
        """The competitors of the run (a.tcp iperf3 flows, a.web_flows users of short
        downloads), measured over `measure_s` seconds of the video after `omit_s` seconds
        (TCP warm-up and what the caller leaves out of the video's start).  See CrossTraffic."""
        return CrossTraffic(self, work, measure_s, omit_s)

    def qdisc_stats(self):
        """Counters of the bottleneck and of the senders' egress (sv-r, st-r): tc statistics,
        and with the ns-3 router its queue discs' counters and real-time lateness."""
        out = {"bottleneck": tc_stats(self.r, self.router_dev),
               "sv": tc_stats(self.sv, "sv-r"), "st": tc_stats(self.st, "st-r"),
               "rx_udp": udp_errors(self.rx)}
        if self.ns3_pid:
            out["ns3"] = self.ns3_snapshot()
            # what the taps' devices dropped: r's towards ns-3, rx's from it
            out["taps"] = (link_stats(self.r, self.router_dev)["tx"]["dropped"] +
                           link_stats(self.rx, "ns3-rx")["rx"]["dropped"])
        return out

    def switch_rate(self):
        """The ns-3 router's bottleneck to --bottleneck-low, or back (SIGUSR2)."""
        if not self.ns3_pid:
            raise RuntimeError("switching the bottleneck's rate needs the ns-3 router")
        os.kill(self.ns3_pid, signal.SIGUSR2)

    def ns3_snapshot(self, timeout=5.0):
        """The ns-3 router's counters (SIGUSR1; it rewrites its stats file with seq + 1)."""
        def read():
            try:
                with open(self.ns3_stats) as f:
                    return json.load(f)
            except (OSError, ValueError):
                return None
        prev = read()
        seq = prev["seq"] if prev else 0
        os.kill(self.ns3_pid, signal.SIGUSR1)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            cur = read()
            if cur and cur["seq"] > seq:
                return cur
            time.sleep(0.01)
        raise RuntimeError("the ns-3 router did not write its counters")

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


class CrossTraffic:
    """What competes with the video: a.tcp iperf3 flows (-C a.cc) and a.web_flows users of
    web-like short downloads (webflows.py --cc a.cc), from st to rx.  By default they start
    before the video (before_video() returns after a.warmup s); with a.tcp_start S they
    arrive S s after it starts (video_started()).  finish() waits for them and returns their
    figures (metrics.iperf3_metrics, web_*)."""

    def __init__(self, bed, work, measure_s, omit_s):
        self.bed, self.a, self.work = bed, bed.a, work
        self.measure_s, self.omit_s = measure_s, omit_s
        self.client = self.web = self.timer = None
        self.iperf = os.path.join(work, "iperf3.json")
        self.late = self.a.tcp_start is not None

    def active(self):
        return bool(self.a.tcp or self.a.web_flows)

    def before_video(self):
        """Start the servers, and the flows that run from before the video; returns after
        their warm-up."""
        a, bed = self.a, self.bed
        if a.tcp:
            bed.start_tcp_server()
        if a.web_flows:
            srv = bed.start(bed.st, [PY, WEBFLOWS, "serve", "--bind", "10.0.2.2", "--cc",
                                     a.cc], stdout=subprocess.PIPE, stderr=bed.tools)
            if not wait_line(srv, "ready", 10):
                raise RuntimeError("webflows.py serve did not start")
        if self.active() and not self.late:
            self._start(self.measure_s, self.omit_s)
            time.sleep(a.warmup)

    def video_started(self):
        """The video has just started: flows that arrive later are started after a.tcp_start
        s (on a timer thread)."""
        if self.active() and self.late:
            left = max(1.0, self.measure_s + self.omit_s - self.a.tcp_start)
            self.timer = threading.Timer(self.a.tcp_start, self._start, (left, 0))
            self.timer.start()

    def _start(self, measure_s, omit_s):
        a, bed = self.a, self.bed
        if a.tcp:
            self.client = bed.start_tcp_client(self.iperf, measure_s, omit_s)
        if a.web_flows:
            self.web = bed.start(bed.rx, [
                PY, WEBFLOWS, "fetch", "--server", "10.0.2.2", "--users", str(a.web_flows),
                "--object-bytes", str(a.web_object_kb * 1000), "--mean-gap",
                "%g" % a.web_gap, "--duration", "%g" % (measure_s + omit_s), "--cc", a.cc,
                "--seed", str(a.seed)], stdout=subprocess.PIPE, stderr=bed.tools)

    def finish(self, timeout):
        """Wait for the flows; their figures as CSV columns."""
        out = {}
        if self.timer:
            self.timer.join()
        if self.client:
            self.client.wait(timeout=timeout)
            with open(self.iperf) as f:
                out.update(metrics.iperf3_metrics(json.load(f)))
        if self.web:
            text, _ = self.web.communicate(timeout=timeout)
            w = json.loads(text.strip().splitlines()[-1])
            out.update({"web_objects": w["objects"], "web_failed": w["failed"],
                        "web_mbps": w["mbps"], "web_fct_p50_ms": w["fct_p50_ms"],
                        "web_fct_p90_ms": w["fct_p90_ms"], "web_fct_max_ms": w["fct_max_ms"]})
        return out


def ns3_router_path(plugin_path):
    """The ns-3 router program of the build whose plugin is in plugin_path (meson builds both:
    build/gst and build/tests/testbed/ns3-router); $NETBED_NS3_ROUTER overrides."""
    return os.environ.get("NETBED_NS3_ROUTER") or os.path.normpath(
        os.path.join(plugin_path, "..", "tests", "testbed", "ns3-router"))


def qdisc_drops(before, after, mode):
    """Drops during a run from two Testbed.qdisc_stats() results: {bottleneck_drops,
    bottleneck_marks (ECN), sv_qdisc_drops, st_qdisc_drops}; the senders' own egress drops
    nothing unless a tbf is there (the trap in TESTBED.md); rx_udp_drops counts the UDP
    datagrams the receiver's namespace dropped (a socket buffer full: none expected).  With the
    ns-3 router the bottleneck's figures are its queue disc's towards rx, router_tap_drops
    what the kernel dropped on the way into and out of it (r's queue into its tap, the taps'
    devices), router_other_drops what ns-3 dropped outside its queue discs (devices, IP
    layer; none of these is expected), and router_late_* how late its real-time scheduler ran
    meanwhile (p50, p99, max of the probes, share over 1 ms)."""
    out = {"sv_qdisc_drops": leaf_drops(before["sv"], after["sv"],
                                        "1:" if mode == "tbf" else "10:"),
           "st_qdisc_drops": leaf_drops(before["st"], after["st"], "10:"),
           "rx_udp_drops": after["rx_udp"] - before["rx_udp"]}
    if "ns3" in after:
        down0, down1 = before["ns3"]["down"], after["ns3"]["down"]
        late = after["ns3"]["late"]
        out.update(bottleneck_drops=down1["drops"] - down0["drops"],
                   bottleneck_marks=down1["marks"] - down0["marks"],
                   router_tap_drops=leaf_drops(before["bottleneck"], after["bottleneck"], "10:")
                   + after["taps"] - before["taps"],
                   router_other_drops=sum(after["ns3"][k] - before["ns3"][k]
                                          for k in ("device_drops", "ip_drops")),
                   router_late_p50_ms=late["p50_ms"], router_late_p99_ms=late["p99_ms"],
                   router_late_max_ms=late["max_ms"],
                   router_late_over1ms=round(late["over_1ms"] / max(1, late["probes"]), 4))
    else:
        q0, q1 = before["bottleneck"].get("10:", {}), after["bottleneck"].get("10:", {})
        marks = lambda q: q.get("marked", q.get("ecn_mark", 0))  # noqa: E731
        out.update(bottleneck_drops=leaf_drops(before["bottleneck"], after["bottleneck"], "10:"),
                   bottleneck_marks=marks(q1) - marks(q0))
    return out


#: The bottleneck queue's limit in packets when --queue is not given: the reference path's
#: 13-packet drop-tail, the 000 paper's 50 for RED, and Linux's defaults for the others.
DEFAULT_QUEUE = {"pfifo": 13, "red": 50, "red-ecn": 50, "codel": 1000, "fq_codel": 10240,
                 "pie": 1000}
AQMS = list(DEFAULT_QUEUE)


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
    g.add_argument("--cc", default="cubic", choices=["cubic", "bbr", "reno"],
                   help="congestion control of every TCP flow, set per socket (iperf3 -C, "
                        "TCP_CONGESTION); default %(default)s")
    g.add_argument("--tcp-start", type=float, metavar="S",
                   help="the TCP and web flows arrive S seconds after the video starts "
                        "(default: they start --warmup s before it)")
    g.add_argument("--web-flows", type=int, default=0, metavar="N",
                   help="N users of web-like short downloads from st to rx (webflows.py): "
                        "each repeatedly waits an exponential think time and fetches one "
                        "object over a new connection")
    g.add_argument("--web-object-kb", type=int, default=100, help="web object size, kB")
    g.add_argument("--web-gap", type=float, default=1.0, help="mean think time, s")
    g.add_argument("--web-iw", type=int, metavar="SEGMENTS",
                   help="initial window of the TCP sender's route (default: Linux's 10)")
    g.add_argument("--mss", type=int, help="iperf3 -M")
    g.add_argument("--tcp-server-output", action="store_true",
                   help="iperf3 --get-server-output: the JSON also holds the receiver's "
                        "report (server_output_text, a line per second)")
    g.add_argument("--bottleneck", type=float, default=10.0, help="Mbit/s")
    g.add_argument("--bottleneck-low", type=float, metavar="MBPS",
                   help="the rate the bottleneck switches to and back from at --switch-at "
                        "(the ns-3 router)")
    g.add_argument("--switch-at", metavar="S1,S2,...",
                   help="seconds after the video starts at which the bottleneck switches "
                        "to --bottleneck-low and back, in turn (recipes.py runs only)")
    g.add_argument("--aqm", choices=AQMS, default="pfifo", help="bottleneck queue discipline")
    g.add_argument("--queue", type=int,
                   help="bottleneck queue limit, packets (default: %s)" % ", ".join(
                       "%s %d" % kv for kv in DEFAULT_QUEUE.items()))
    g.add_argument("--rtt", type=float, default=0,
                   help="round-trip propagation delay ms, half each way (netem, else the "
                        "ns-3 router)")
    g.add_argument("--router", choices=["auto", "kernel", "ns3"], default="auto",
                   help="the bottleneck: the kernel's qdiscs, or the ns-3 router (auto: the "
                        "kernel where it has what --rtt and --aqm need)")
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
    if a.queue is None:
        a.queue = DEFAULT_QUEUE[a.aqm]
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
           "bottleneck_mbps": a.bottleneck, "queue": a.queue, "aqm": a.aqm,
           "rtt_configured_ms": a.rtt, "tcp_start_s": "" if a.tcp_start is None else a.tcp_start,
           "web_flows": a.web_flows,
           "duration_s": a.duration, "burst_size": a.burst_size if a.mode == "paced" else "",
           "duty": a.duty if a.mode == "paced" else "",
           "slot_jitter": a.slot_jitter if a.mode == "paced" else "",
           "tbf_factor": a.tbf_factor if a.mode == "tbf" else "",
           "stream_wire_mbps": round(stream_wire_bps(a) * a.streams / 1e6, 4)}

    if a.mode == "paced" and not os.path.exists(os.path.join(a.plugin_path,
                                                             "libgstrtpburstpace.so")):
        row["status"] = "skipped: rtpburstpace (no libgstrtpburstpace.so in %s)" % a.plugin_path
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
            row.update(bed.path)
            if bed.skipped:
                # neither the kernel nor an ns-3 router gives this path here
                row["status"] = "skipped: " + ", ".join(bed.skipped)
                return row
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

            cross = bed.cross_traffic(work, a.duration, a.warmup)
            cross.before_video()

            q0 = bed.qdisc_stats()
            cpu0 = cpu_times()
            sender.stdin.write("go\n")
            sender.stdin.flush()
            cross.video_started()
            rc = sender.wait(timeout=a.duration + 30)
            row["cpu_busy"], row["cpu_steal"] = cpu_busy_since(cpu0)
            q1 = bed.qdisc_stats()
            if rc:
                raise RuntimeError("sender failed: " +
                                   open(os.path.join(work, "sender.err")).read()[-2000:])
            time.sleep(0.5)  # let the bottleneck queue drain
            receiver.send_signal(signal.SIGTERM)
            receiver.wait(timeout=30)
            row.update(cross.finish(timeout=a.warmup + a.duration + 30))

        row.update(metrics.run_metrics(send_log, recv_log, fps=a.fps,
                                       base_ms=bed.path["rtt_ms"] / 2))
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
           "height", "mtu", "streams", "tcp_flows", "cc", "tcp_start_s", "web_flows",
           "bottleneck_mbps", "router", "aqm", "queue", "rtt_configured_ms", "rtt_ms",
           "rtt_mdev_ms",
           "duration_s", "burst_size", "duty", "slot_jitter", "tbf_factor", "stream_wire_mbps",
           "rtp_sent", "rtp_received", "rtp_loss", "rtp_loss_sent", "rtp_throughput_mbps",
           "rtp_goodput_mbps", "jitter_ms", "owd_p50_ms", "owd_p99_ms", "owd_max_ms",
           "owd_std_ms",
           "loss_dl40", "loss_dl100", "loss_periods_dl40", "loss_period_max_dl40",
           "loss_periods_dl100", "loss_period_max_dl100",
           "frames", "frame_loss", "frame_loss_whole", "rtp_loss_streams",
           "rtp_loss_max_stream",
           "frame_loss_dl40", "frame_loss_dl100", "frame_delay_p50_ms", "frame_delay_p99_ms",
           "frame_delay_max_ms", "tcp_mbps", "tcp_sent_mbps", "tcp_retrans",
           "web_objects", "web_failed", "web_mbps", "web_fct_p50_ms", "web_fct_p90_ms",
           "web_fct_max_ms",
           "bottleneck_drops", "bottleneck_marks", "sv_qdisc_drops", "st_qdisc_drops",
           "rx_udp_drops", "router_tap_drops", "router_other_drops", "router_late_p50_ms",
           "router_late_p99_ms", "router_late_max_ms", "router_late_over1ms", "cpu_busy",
           "cpu_steal",
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
        keys = ["status", "mode", "rate_mbps", "tcp_flows", "cc", "web_flows", "router", "aqm",
                "queue", "rtt_ms", "rtp_loss", "rtp_goodput_mbps", "jitter_ms", "owd_p50_ms",
                "owd_p99_ms", "loss_dl40", "loss_dl100", "frame_loss", "tcp_mbps",
                "tcp_retrans", "web_mbps", "web_fct_p50_ms", "bottleneck_drops",
                "bottleneck_marks", "sv_qdisc_drops", "st_qdisc_drops", "router_late_p99_ms"]
        print(" ".join("%s=%s" % (k, row.get(k, "")) for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
