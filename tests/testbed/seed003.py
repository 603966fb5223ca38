#!/usr/bin/python3
"""Seed 003 on real TCP: the element's tfrc beside one TCP flow, and a VoIP stream through it.

    sudo /usr/bin/python3 tests/testbed/seed003.py tcp --out DIR [--bottlenecks 2,10]
         [--ccs cubic,reno] [--reps 3] [--duration 30] [-- run.py options]
    sudo /usr/bin/python3 tests/testbed/seed003.py voip --out DIR [--bottlenecks 0.1,1]
         [--cases tfrc,tfrc-marker,tfrc-drop,none] [--competitor tcp|udp|none] [--reps 3]
         [--duration 30]
    sudo /usr/bin/python3 tests/testbed/seed003.py pair --out DIR [--bottlenecks 2,10]
         [--ccs cubic,reno] [--reps 3] [--duration 30]
    /usr/bin/python3 tests/testbed/seed003.py table DIR     # the tables again, from DIR's runs

The seed (S. Vishnu Vardhan, P. Chenna Reddy, "Congestion Control in Real Time Applications",
ns-2) claims that TFRC (RFC 5348) shares a 2 Mbit/s bottleneck fairly with TCP and is smoother
than TCP (its Table 2), and that a 64 kbit/s G.711 stream of 160-byte packets through TFRC
loses nothing where the same stream as plain UDP loses (its Table 3, 100 kbit/s bottleneck).

tcp: recipes.py's case capped-rtx-tfrc (examples/send-video -> examples/receive-video, x264
  with retransmission, rtpburstpace congestion-control=tfrc, the encoder following the
  element's estimate) beside ONE iperf3 flow of each --ccs, at each --bottlenecks Mbit/s
  (13-packet drop-tail on the testbed's router, RTT < 1 ms unless -- --rtt ...), the cases
  interleaved per repetition.  The encoder's configured rate is the whole bottleneck (at most
  8 Mbit/s, the recipe's 6 Mbit/s cap above it), so that the stream is not limited by its
  source below its fair share.  From per-second samples over the steady part (the video's
  seconds STEADY_FROM to its end less one; TCP's one-second intervals of the same span, as
  its receiver counted them: iperf3 --get-server-output):
    tfrc_mbps    the video's media (RTP packets, no retransmissions) that reached the
                 receiver, mean of its 1 s windows (receive-video's media_bytes_per_s)
    tcp_mbps     TCP's received rate, mean of its 1 s intervals
    ratio        tfrc_mbps / tcp_mbps (1 = fair)
    cov_tfrc, cov_tcp  the coefficient of variation (population standard deviation / mean)
                 of each flow's 1 s rates
    estimate_mbps  the element's estimated-bitrate, time-weighted mean over the same span
                 (from send-video's rate_control history)
    intact       frames intact / frames sent
  On a saturated link the two rates sum to about the link's, so their 1 s standard
  deviations are about equal and the CoVs about inversely proportional to the means: the
  baseline is TCP's CoV beside another TCP flow.
pair: that baseline, two TCP flows of each --ccs (iperf3 -P 2, no video) for the same span:
  each flow's mean and CoV of its 1 s received rates, the smaller mean over the larger.
voip: a G.711 stream (audiotestsrc ! alawenc ! rtppcmapay, 20 ms = 160-byte payloads,
  64 kbit/s; 50 packets/s of 214 bytes on the wire) with the transport-wide-cc header
  extension through rtpburstpace and rtpbin in sv, to an rtpsession in rx that sends the
  feedback (this script's voip-send / voip-recv), beside one TCP flow (--competitor tcp), a
  UDP flood of twice the bottleneck (--competitor udp, iperf3 -u, 1000-byte datagrams) or
  alone (--competitor none), at each --bottlenecks Mbit/s.  Cases:
    tfrc         congestion-control=tfrc (min-bitrate 10 kbit/s), the receiver sending
                 feedback every FEEDBACK_MS ms (its session's twcc-feedback-interval)
    tfrc-marker  the same with GStreamer 1.22's default receiver: feedback only on packets
                 with the RTP marker bit (rtppcmapay sets it on the first packet only)
    tfrc-drop    tfrc with overload=drop (whole frames dropped where the cap cannot be
                 kept within max-delay; the default, compress, blocks upstream instead when
                 the frames are single packets)
    none         the same stream through the element without congestion control
  Per run: packets the payloader made, the element sent and dropped, the receiver got (and
  lost by sequence number), the estimate (min, median over the steady part, last), feedback
  reports, the bottleneck's drops, and TCP's (or the flood's) rate.
The steady-part arithmetic is steady_figures / cov (test_seed003.py checks it on fixed input).
Results: DIR/{tcp,pair,voip}.csv (a row per run), DIR/runs.jsonl (the per-second series),
DIR/table.md.  Runs append: several invocations into one DIR make one table.  Needs root;
Debian's /usr/bin/python3.  About 45 s a run (tcp) and 40 s (voip).
"""
import argparse
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree

#: the steady part starts at this second of the video
STEADY_FROM = 5
#: TCP's measured intervals start this many seconds after the video's first second
#: (recipes.py: iperf3 omits the warm-up and the sender's 1.5 s start-up; send-video's
#: first frame leaves about 0.5 s after it starts)
TCP_LAG = 1
#: the voip receiver's feedback interval (rtpsession's twcc-feedback-interval), ms
FEEDBACK_MS = 50
TWCC_URI = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
VOIP_PORT = 5000
SENDER_ADDR = "10.0.1.2"
#: the encoder's configured rate: the bottleneck, at most this (kbit/s)
MAX_SOURCE_KBPS = 8000
TCP_CASE = "capped-rtx-tfrc"

TCP_COLUMNS = ["time", "bottleneck", "cc", "rep", "status", "router", "rtt_ms", "queue",
               "tfrc_mbps", "tcp_mbps", "ratio", "cov_tfrc", "cov_tcp", "estimate_mbps",
               "cov_estimate", "intact", "frames_sent", "net_loss", "tcp_retrans", "source_kbps",
               "bottleneck_drops", "cpu_busy", "waited_idle_s"]
PAIR_COLUMNS = ["time", "bottleneck", "cc", "rep", "status", "router", "rtt_ms", "queue",
                "tcp1_mbps", "tcp2_mbps", "ratio", "cov_tcp1", "cov_tcp2", "tcp_retrans",
                "waited_idle_s"]
VOIP_COLUMNS = ["time", "bottleneck", "case", "competitor", "rep", "status", "router",
                "rtt_ms", "queue", "produced", "sent", "element_dropped", "received",
                "net_lost", "seq_lost", "estimate_min_kbps", "estimate_median_kbps",
                "estimate_last_kbps", "feedback_reports", "rate_kbps", "competitor_mbps",
                "bottleneck_drops", "owd_p50_ms", "owd_p99_ms", "delay_p50_ms", "delay_p99_ms",
                "max_backlog_ms", "cpu_busy", "waited_idle_s"]


def cov(xs):
    """Coefficient of variation of xs: population standard deviation / mean (None for
    fewer than two values or a zero mean)."""
    if len(xs) < 2:
        return None
    mean = sum(xs) / len(xs)
    if mean == 0:
        return None
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs)) / mean


def steady_figures(video, tcp, duration, steady_from=STEADY_FROM, tcp_lag=TCP_LAG):
    """The tcp mode's figures from per-second rates (Mbit/s): video[k] the video's k-th
    second, tcp[k] TCP's k-th measured interval (starting tcp_lag s after the video's
    first second).  The steady part: the video's seconds steady_from .. duration - 2 and
    TCP's intervals over the same span.  {tfrc_mbps, tcp_mbps, ratio, cov_tfrc, cov_tcp,
    n}."""
    end = int(duration) - 1
    v = video[steady_from:end]
    t = tcp[steady_from - tcp_lag:end - tcp_lag]
    out = {"n": min(len(v), len(t))}
    out["tfrc_mbps"] = sum(v) / len(v) if v else None
    out["tcp_mbps"] = sum(t) / len(t) if t else None
    out["ratio"] = (out["tfrc_mbps"] / out["tcp_mbps"]
                    if v and t and out["tcp_mbps"] else None)
    out["cov_tfrc"], out["cov_tcp"] = cov(v), cov(t)
    return out


UNITS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9}
LINE = re.compile(r"^\[\s*(\d+|SUM)\]\s+([\d.]+)-([\d.]+)\s+sec\s+[\d.]+\s+\w?Bytes\s+"
                  r"([\d.]+)\s+(\w?)bits/sec(.*)$")


def iperf_server_rates(text):
    """TCP's per-second received rates (Mbit/s) from iperf3's server_output_text (the
    receiver's report): the 1 s intervals that were not omitted, summed over parallel
    streams (the [SUM] lines where there are several)."""
    per = {}
    have_sum = False
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if not m:
            continue
        sid, a, b, val, unit, rest = m.groups()
        if "omitted" in rest or "receiver" in rest or "sender" in rest:
            continue
        if float(b) - float(a) > 1.5:
            continue
        if sid == "SUM" and not have_sum:
            have_sum, per = True, {}
        if have_sum and sid != "SUM":
            continue
        key = round(float(a))
        per[key] = per.get(key, 0.0) + float(val) * UNITS[unit] / 1e6
    return [per[k] for k in sorted(per)]


def iperf_stream_rates(text):
    """Each stream's per-second received rates (Mbit/s) from iperf3's server_output_text:
    {stream id: [rate, ...]} of the 1 s intervals that were not omitted."""
    per = {}
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if not m:
            continue
        sid, a, b, val, unit, rest = m.groups()
        if sid == "SUM" or "omitted" in rest or "receiver" in rest or "sender" in rest or \
                float(b) - float(a) > 1.5:
            continue
        per.setdefault(int(sid), []).append(float(val) * UNITS[unit] / 1e6)
    return per


def pair_figures(per, steady_from=STEADY_FROM - TCP_LAG):
    """Two TCP flows' figures over their intervals from steady_from on (the last left out):
    each flow's mean and CoV, and the smaller mean over the larger."""
    flows = [per[k][steady_from:-1] for k in sorted(per)][:2]
    means = [sum(f) / len(f) for f in flows if f]
    if len(means) < 2:
        return {}
    return {"tcp1_mbps": means[0], "tcp2_mbps": means[1],
            "ratio": min(means) / max(means) if max(means) else None,
            "cov_tcp1": cov(flows[0]), "cov_tcp2": cov(flows[1])}


def video_rates(rx, tx, duration):
    """The video's media rate that reached the receiver per wall-clock second from its first
    frame (Mbit/s), receive-video's media_bytes_per_s and send-video's frame_sent."""
    sent = dict(tx.get("frame_sent") or [])
    per_s = dict(rx.get("media_bytes_per_s") or [])
    if not sent:
        return []
    start = int(min(sent.values()))
    return [per_s.get(start + k, 0) * 8 / 1e6 for k in range(int(duration))]


def time_weighted(history, start, end):
    """Time-weighted mean of a step function [(t, value), ...] over [start, end] (the value
    before the first step: the first value)."""
    if not history:
        return None
    total, t_prev, v_prev = 0.0, start, history[0][1]
    for t, v in history:
        if t <= start:
            v_prev = v
            continue
        if t >= end:
            break
        total += (t - t_prev) * v_prev
        t_prev, v_prev = t, v
    total += (end - t_prev) * v_prev
    return total / (end - start)


def estimate_cov(rate_control, duration, steady_from=STEADY_FROM):
    """The CoV of the element's estimate over the steady part: its time-weighted mean in
    each 1 s window from steady_from to duration - 1, from send-video's rate_control
    ([seconds, estimate, encoder rate] per change)."""
    hist = [(t, est / 1e6) for t, est, _r in rate_control or []]
    if not hist:
        return None
    return cov([time_weighted(hist, k, k + 1) for k in range(steady_from, int(duration) - 1)])


def median(rows, key):
    xs = [float(r[key]) for r in rows if r.get(key) not in (None, "")]
    return statistics.median(xs) if xs else None


# ---------------------------------------------------------------------------------------
# tcp mode

def tcp_run(bottleneck, cc, rep, a, tools, work):
    import recipes
    import run
    import videorecipes
    kbps = int(min(MAX_SOURCE_KBPS, bottleneck * 1000))
    source = videorecipes.DEFAULT_SOURCE.replace("bitrate=4000", "bitrate=%d" % kbps)
    ra = argparse.Namespace(
        runargs=["--bottleneck", "%g" % bottleneck, "--cc", cc, "--tcp-server-output",
                 "--wait-idle", "%g" % a.wait_idle] + a.runargs,
        tbf_factor=1.25, duration=a.duration, source=source, latency=None,
        no_keyframe_requests=False, capture=False, out=None, web_flows=0, peer_path=None)
    row, raw = recipes.one_run(TCP_CASE, 1, rep, ra, tools, work)
    with open(os.path.join(work, "iperf3.json")) as f:
        report = json.load(f)
    tcp = iperf_server_rates(report.get("server_output_text", ""))
    video = video_rates(raw["receiver"], raw["sender"], a.duration)
    fig = steady_figures(video, tcp, a.duration)
    hist = [(t, est / 1e6) for t, est, _r in raw["sender"].get("rate_control") or []]
    out = {"time": row["time"], "bottleneck": bottleneck, "cc": cc, "rep": rep,
           "status": "ok", "router": row.get("router"), "rtt_ms": row.get("rtt_ms"),
           "queue": row.get("queue"), "tcp_retrans": row.get("tcp_retrans"),
           "intact": row["intact"], "frames_sent": row["frames_sent"],
           "net_loss": row["net_loss"], "source_kbps": kbps,
           "bottleneck_drops": row.get("bottleneck_drops"), "cpu_busy": row.get("cpu_busy"),
           "waited_idle_s": row.get("waited_idle_s"),
           "estimate_mbps": time_weighted(hist, STEADY_FROM, a.duration),
           "cov_estimate": estimate_cov(raw["sender"].get("rate_control"), a.duration)}
    out.update({k: fig[k] for k in ("tfrc_mbps", "tcp_mbps", "ratio", "cov_tfrc", "cov_tcp")})
    series = {"mode": "tcp", "bottleneck": bottleneck, "cc": cc, "rep": rep,
              "video_mbps_per_s": video, "tcp_mbps_per_s": tcp,
              "tcp_sender_mbps_per_s": [i["sum"]["bits_per_second"] / 1e6
                                        for i in report.get("intervals", [])
                                        if not i["sum"].get("omitted")],
              "rate_control": raw["sender"].get("rate_control"),
              "rtpburstpace": raw["sender"].get("rtpburstpace")}
    return out, series


def pair_run(bottleneck, cc, rep, a, tools, work):
    """The baseline: two TCP flows of cc (iperf3 -P 2), no video, for the warm-up and
    a.duration - 2 s as the tcp mode's TCP flow."""
    import run
    args = run.parse_args(["--bottleneck", "%g" % bottleneck, "--cc", cc, "--tcp", "2",
                           "--tcp-server-output", "--wait-idle", "%g" % a.wait_idle]
                          + a.runargs)
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "bottleneck": bottleneck, "cc": cc,
           "rep": rep}
    if args.wait_idle > 0:
        row["waited_idle_s"] = round(run.wait_idle(timeout=args.wait_idle), 1)
    path = os.path.join(work, "pair.json")
    with run.Testbed(args, tools) as bed:
        row.update({k: bed.path[k] for k in ("router", "rtt_ms", "queue")})
        bed.start_tcp_server()
        client = bed.start_tcp_client(path, a.duration - 2, args.warmup + 1.5)
        client.wait(timeout=a.duration + 60)
    with open(path) as f:
        report = json.load(f)
    per = iperf_stream_rates(report.get("server_output_text", ""))
    row.update(pair_figures(per))
    row["tcp_retrans"] = report.get("end", {}).get("sum_sent", {}).get("retransmits")
    row["status"] = "ok" if "ratio" in row else "error: not two flows in iperf3's report"
    return row, {"mode": "pair", "bottleneck": bottleneck, "cc": cc, "rep": rep,
                 "tcp_mbps_per_s": {str(k): v for k, v in per.items()}}


# ---------------------------------------------------------------------------------------
# voip mode: the sender and the receiver (run in sv and rx)

def gst():
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, Gst
    Gst.init(None)
    return GLib, Gst


def rtp_seq(buf):
    """The sequence number of the RTP packet in buf."""
    return int.from_bytes(buf.extract_dup(2, 2), "big")


def run_loop(GLib, pipelines, seconds, tick=None):
    loop = GLib.MainLoop()
    for p in pipelines:
        bus = p.get_bus()
        bus.add_signal_watch()
        bus.connect("message::error", lambda _b, m: (sys.stderr.write(
            "error: %s\n" % (m.parse_error(),)), loop.quit()))
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    for signum in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: (loop.quit(), False)[1])
    if tick:
        GLib.timeout_add(1000, tick)
    loop.run()


def voip_send(a):
    """The G.711 sender: packets and bytes the payloader made and udpsink sent, the element's
    estimate each second, its stats at the end; one JSON line."""
    GLib, Gst = gst()
    cc = ("congestion-control=tfrc min-bitrate=10000" if a.cc == "tfrc" else "") + \
        " " + " ".join(a.prop or [])
    p = Gst.parse_launch(
        "rtpbin name=rb audiotestsrc is-live=true samplesperbuffer=160 ! "
        "audio/x-raw,rate=8000,channels=1 ! alawenc ! rtppcmapay name=pay pt=8 "
        "min-ptime=20000000 max-ptime=20000000 ! application/x-rtp,extmap-1=(string)%s ! "
        "rtpburstpace name=pace %s ! rb.send_rtp_sink_0 "
        "rb.send_rtp_src_0 ! udpsink name=sink host=%s port=%d "
        "rb.send_rtcp_src_0 ! udpsink host=%s port=%d sync=false async=false "
        "udpsrc port=%d ! rb.recv_rtcp_sink_0" % (
            TWCC_URI, cc, a.host, a.port, a.host, a.port + 1, a.port + 5))
    n = {"produced": 0, "sent": 0, "bytes": 0}
    sends, pays = [], []

    def probe(key):
        def f(_pad, info):
            n[key] += 1
            if key == "produced":
                pays.append([rtp_seq(info.get_buffer()), round(time.time(), 4)])
            if key == "sent":
                buf = info.get_buffer()
                n["bytes"] += buf.get_size()
                sends.append([rtp_seq(buf), round(time.time(), 4)])
            return Gst.PadProbeReturn.OK
        return f
    p.get_by_name("pay").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER,
                                                          probe("produced"))
    p.get_by_name("sink").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER,
                                                            probe("sent"))
    pace = p.get_by_name("pace")
    estimates = []
    t0 = time.time()

    def tick():
        estimates.append([round(time.time() - t0, 2), pace.get_property("estimated-bitrate")])
        return True
    p.set_state(Gst.State.PLAYING)
    print("ready", flush=True)
    run_loop(GLib, [p], a.seconds, tick)
    st = pace.get_property("stats")
    stats = {k: st.get_value(k) for k in (
        "dropped-frames", "dropped-packets", "cc-feedback-reports", "cc-feedback-packets",
        "cc-lost-packets", "cc-rtt", "estimated-bitrate", "max-backlog", "frame-period")}
    p.set_state(Gst.State.NULL)
    print(json.dumps({"start": t0, "produced": n["produced"], "sent": n["sent"],
                      "bytes": n["bytes"], "estimates": estimates, "stats": stats,
                      "send_times": sends, "pay_times": pays}), flush=True)
    return 0


def voip_recv(a):
    """The G.711 receiver: an rtpsession that sends the transport-wide-cc feedback back to
    the sender (every --feedback-ms ms; 0: GStreamer's default, on marker bits); packets
    received, distinct sequence numbers and their span; one JSON line."""
    GLib, Gst = gst()
    p = Gst.parse_launch(
        "rtpsession name=s rtp-profile=avpf rtcp-min-interval=50000000 "
        "udpsrc port=%d caps=\"application/x-rtp,media=audio,clock-rate=8000,"
        "encoding-name=PCMA,payload=8,extmap-1=(string)%s\" ! s.recv_rtp_sink "
        "s.recv_rtp_src ! fakesink name=sink sync=false async=false "
        "udpsrc port=%d caps=application/x-rtcp ! s.recv_rtcp_sink "
        "s.send_rtcp_src ! udpsink host=%s port=%d sync=false async=false" % (
            a.port, TWCC_URI, a.port + 1, a.sender, a.port + 5))
    if a.feedback_ms:
        p.get_by_name("s").get_property("internal-session").set_property(
            "twcc-feedback-interval", a.feedback_ms * 1000000)
    seqs, arrivals = [], []

    def probe(_pad, info):
        seqs.append(rtp_seq(info.get_buffer()))
        arrivals.append(round(time.time(), 4))
        return Gst.PadProbeReturn.OK
    # at udpsrc: every datagram that reached the socket, before rtpsession's checks
    p.get_by_name("s").get_static_pad("recv_rtp_sink").add_probe(Gst.PadProbeType.BUFFER,
                                                                  probe)
    p.set_state(Gst.State.PLAYING)
    print("ready", flush=True)
    run_loop(GLib, [p], a.seconds)
    p.set_state(Gst.State.NULL)
    ext, prev = [], None
    for s in seqs:
        e = s if prev is None else prev + ((s - prev + 32768) % 65536 - 32768)
        ext.append(e)
        prev = e
    span = (max(ext) - min(ext) + 1) if ext else 0
    print(json.dumps({"received": len(seqs), "distinct": len(set(ext)), "span": span,
                      "first_seq": ext[0] if ext else None, "seqs": ext,
                      "arrivals": arrivals}), flush=True)
    return 0


def last_json(text):
    for line in reversed((text or "").strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            return None
    return None


def voip_run(bottleneck, case, rep, a, tools, work):
    import run
    args = run.parse_args(["--bottleneck", "%g" % bottleneck, "--cc", a.cc,
                           "--tcp", "1" if a.competitor == "tcp" else "0",
                           "--duration", "%g" % a.duration,
                           "--wait-idle", "%g" % a.wait_idle] + a.runargs)
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "bottleneck": bottleneck,
           "case": case, "competitor": a.competitor, "rep": rep}
    if args.wait_idle > 0:
        row["waited_idle_s"] = round(run.wait_idle(timeout=args.wait_idle), 1)
    tools.write("==== %s seed003.py voip: %s, %g Mbit/s, %s, rep %d\n" % (
        row["time"], case, bottleneck, a.competitor, rep))
    env = dict(os.environ, GST_PLUGIN_PATH=args.plugin_path)
    me = os.path.abspath(__file__)
    with run.Testbed(args, tools) as bed:
        row.update({k: bed.path[k] for k in ("router", "rtt_ms", "queue")})
        fb = 0 if case == "tfrc-marker" else FEEDBACK_MS
        receiver = bed.start(bed.rx, [run.PY, me, "voip-recv", "--port", str(VOIP_PORT),
                                      "--sender", SENDER_ADDR, "--feedback-ms", str(fb),
                                      "--seconds", "%g" % (args.warmup + a.duration + 4)],
                             stdout=subprocess.PIPE, stderr=tools, env=env)
        if not run.wait_line(receiver, "ready", 30):
            raise RuntimeError("voip-recv did not start")
        flood = None
        if a.competitor == "udp":
            # stdout to a pipe: 20 s of iperf3 -J is a few kB, under a pipe's buffer
            bed.start_tcp_server()
            flood = bed.start(bed.st, ["iperf3", "-c", bed.rx_addr, "-u", "-b",
                                       "%dk" % int(2000 * bottleneck), "-l", "1000",
                                       "-t", "%g" % (args.warmup + a.duration + 1), "-J"],
                              stdout=subprocess.PIPE, stderr=tools)
            time.sleep(args.warmup)
            cross = None
        elif a.competitor == "tcp":
            cross = bed.cross_traffic(work, a.duration - 1, args.warmup + 0.5)
            cross.before_video()
        else:
            cross = None
        q0, cpu0 = bed.qdisc_stats(), run.cpu_times()
        sender = bed.start(bed.sv, [run.PY, me, "voip-send", "--host", bed.rx_addr,
                                    "--port", str(VOIP_PORT), "--cc",
                                    "none" if case == "none" else "tfrc",
                                    "--seconds", "%g" % a.duration] + (
                                        ["--prop", "overload=drop"] if case == "tfrc-drop"
                                        else []),
                           stdout=subprocess.PIPE, stderr=tools, env=env)
        tx_out, _ = sender.communicate(timeout=a.duration + 60)
        row["cpu_busy"], _steal = run.cpu_busy_since(cpu0)
        q1 = bed.qdisc_stats()
        rx_out, _ = receiver.communicate(timeout=args.warmup + a.duration + 60)
        if cross:
            row.update(cross.finish(timeout=args.warmup + a.duration + 30))
            row["competitor_mbps"] = row.get("tcp_mbps")
        if flood:
            text = flood.communicate(timeout=args.warmup + a.duration + 30)[0]
            try:
                fl = json.loads(text)   # iperf3 -J: one JSON document over many lines
            except ValueError:
                fl = {}
            # what the flood's receiver got (iperf3 -u: the client's end.sum is the sender's)
            end = fl.get("end", {})
            row["competitor_mbps"] = round(end.get("sum_received", end.get("sum", {})).get(
                "bits_per_second", 0) / 1e6, 4)
        row.update(run.qdisc_drops(q0, q1, "bursty"))
    tx, rx = last_json(tx_out), last_json(rx_out)
    if sender.returncode or tx is None:
        raise RuntimeError("voip-send failed (exit %s)" % sender.returncode)
    if receiver.returncode or rx is None:
        raise RuntimeError("voip-recv failed (exit %s)" % receiver.returncode)
    row.update(voip_figures(tx, rx, a.duration))
    row["status"] = "ok"
    series = {"mode": "voip", "bottleneck": bottleneck, "case": case,
              "competitor": a.competitor, "rep": rep, "estimates": tx["estimates"],
              "stats": tx["stats"], "received_per_s": per_second(rx["arrivals"], tx["start"],
                                                                 a.duration)}
    return row, series


def per_second(times, start, duration):
    out = [0] * int(math.ceil(duration + 2))
    for t in times:
        k = int(t - start)
        if 0 <= k < len(out):
            out[k] += 1
    return out


def voip_figures(tx, rx, duration):
    """Table 3's figures of one run: produced (payloader), sent (udpsink), element_dropped,
    received, net_lost = sent - received, seq_lost (sequence numbers missing within what
    arrived), the estimate (kbit/s: min and median of the 1 s samples from STEADY_FROM on,
    the last), feedback reports, the receiver's rate, one-way delay (p50, p99: arrival -
    send, matched by sequence number; both namespaces share the clock), and the delay
    from the payloader to arrival (p50, p99: the element's queue included), the element's
    max-backlog (ms)."""
    est = [e for t, e in tx["estimates"] if t >= STEADY_FROM] or [0]
    sends = dict((seq, t) for seq, t in tx["send_times"])
    owd = sorted((t - sends[s & 0xffff]) * 1000 for s, t in zip(rx["seqs"], rx["arrivals"])
                 if (s & 0xffff) in sends)
    pays = dict((seq, t) for seq, t in tx.get("pay_times") or [])
    e2e = sorted((t - pays[s & 0xffff]) * 1000 for s, t in zip(rx["seqs"], rx["arrivals"])
                 if (s & 0xffff) in pays)

    def pct(xs, q):
        return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else None
    return {"produced": tx["produced"], "sent": tx["sent"],
            "element_dropped": tx["stats"]["dropped-packets"], "received": rx["received"],
            "net_lost": tx["sent"] - rx["received"], "seq_lost": rx["span"] - rx["distinct"],
            "estimate_min_kbps": round(min(est) / 1e3, 1),
            "estimate_median_kbps": round(statistics.median(est) / 1e3, 1),
            "estimate_last_kbps": round(tx["stats"]["estimated-bitrate"] / 1e3, 1),
            "feedback_reports": tx["stats"]["cc-feedback-reports"],
            "rate_kbps": round(tx["bytes"] * 8 / duration / 1e3, 1),
            "owd_p50_ms": pct(owd, 0.5), "owd_p99_ms": pct(owd, 0.99),
            "delay_p50_ms": pct(e2e, 0.5), "delay_p99_ms": pct(e2e, 0.99),
            "max_backlog_ms": round(tx["stats"].get("max-backlog", 0) / 1e6, 1)}


# ---------------------------------------------------------------------------------------
# driver and tables

def read_csv(path):
    import csv
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def fmt(v, spec="%.2f"):
    return "—" if v is None else spec % v


def fill_cov_estimate(rows, out):
    """cov_estimate of rows recorded without it, from the runs' series in out/runs.jsonl
    (the tcp runs' in the order of the ok rows of tcp.csv)."""
    path = os.path.join(out, "runs.jsonl")
    if not os.path.exists(path):
        return
    with open(path) as f:
        series = [d for d in map(json.loads, f) if d.get("mode") == "tcp"]
    for r, d in zip(rows, series):
        if r.get("cov_estimate") in (None, "") and d.get("rate_control"):
            dur = len(d["video_mbps_per_s"])
            r["cov_estimate"] = estimate_cov(d["rate_control"], dur)


def tables(out):
    """Markdown tables of medians from out/tcp.csv and out/voip.csv."""
    text = []
    rows = [r for r in read_csv(os.path.join(out, "tcp.csv")) if r["status"] == "ok"]
    fill_cov_estimate(rows, out)
    for r in rows:
        r["estimate_ratio"] = (float(r["estimate_mbps"]) / float(r["tcp_mbps"])
                               if r.get("estimate_mbps") and float(r["tcp_mbps"] or 0)
                               else None)
    if rows:
        text += ["| bottleneck | TCP | runs | tfrc Mbit/s | TCP Mbit/s | ratio tfrc/TCP "
                 "(runs) | CoV tfrc | CoV TCP | estimate Mbit/s | estimate / TCP | "
                 "CoV estimate | frames intact | video loss | TCP retrans |",
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        keys = []
        for r in rows:
            if (r["bottleneck"], r["cc"]) not in keys:
                keys.append((r["bottleneck"], r["cc"]))
        for b, cc in keys:
            rs = [r for r in rows if (r["bottleneck"], r["cc"]) == (b, cc)]
            runs = ", ".join("%.2f" % float(r["ratio"]) for r in rs if r["ratio"])
            text.append("| %s Mbit/s | %s | %d | %s | %s | **%s** (%s) | %s | %s | %s | %s | "
                        "%s | %s | %s | %s |" % (
                            b, cc, len(rs), fmt(median(rs, "tfrc_mbps")),
                            fmt(median(rs, "tcp_mbps")), fmt(median(rs, "ratio")),
                            runs, fmt(median(rs, "cov_tfrc"), "%.3f"),
                            fmt(median(rs, "cov_tcp"), "%.3f"),
                            fmt(median(rs, "estimate_mbps")),
                            fmt(median(rs, "estimate_ratio")),
                            fmt(median(rs, "cov_estimate"), "%.3f"),
                            fmt(100 * (median(rs, "intact") or 0), "%.1f %%"),
                            fmt(100 * (median(rs, "net_loss") or 0), "%.1f %%"),
                            fmt(median(rs, "tcp_retrans"), "%.0f")))
        text.append("")
    rows = [r for r in read_csv(os.path.join(out, "pair.csv")) if r["status"] == "ok"]
    if rows:
        text += ["| bottleneck | TCP | runs | flow 1 Mbit/s | flow 2 Mbit/s | ratio smaller/"
                 "larger (runs) | CoV of a flow (runs, both flows) | TCP retrans |",
                 "|---|---|---|---|---|---|---|---|"]
        keys = []
        for r in rows:
            if (r["bottleneck"], r["cc"]) not in keys:
                keys.append((r["bottleneck"], r["cc"]))
        for b, cc in keys:
            rs = [r for r in rows if (r["bottleneck"], r["cc"]) == (b, cc)]
            covs = sorted(float(r[k]) for r in rs for k in ("cov_tcp1", "cov_tcp2") if r[k])
            text.append("| %s Mbit/s | %s | %d | %s | %s | **%s** (%s) | **%s** (%s) | %s |" % (
                b, cc, len(rs), fmt(median(rs, "tcp1_mbps")), fmt(median(rs, "tcp2_mbps")),
                fmt(median(rs, "ratio")), ", ".join("%.2f" % float(r["ratio"]) for r in rs),
                fmt(statistics.median(covs) if covs else None, "%.3f"),
                ", ".join("%.3f" % c for c in covs), fmt(median(rs, "tcp_retrans"), "%.0f")))
        text.append("")
    rows = [r for r in read_csv(os.path.join(out, "voip.csv")) if r["status"] == "ok"]
    if rows:
        cols = [("produced", "%.0f"), ("sent", "%.0f"), ("element_dropped", "%.0f"),
                ("received", "%.0f"), ("net_lost", "%.0f"), ("rate_kbps", "%.1f"),
                ("estimate_min_kbps", "%.0f"), ("estimate_median_kbps", "%.0f"),
                ("feedback_reports", "%.0f"), ("owd_p50_ms", "%.0f"), ("owd_p99_ms", "%.0f"),
                ("delay_p99_ms", "%.0f"), ("max_backlog_ms", "%.0f"),
                ("competitor_mbps", "%.3f"), ("bottleneck_drops", "%.0f")]
        text += ["| bottleneck | competitor | case | runs | " + " | ".join(
            c.replace("_", " ") for c, _f in cols) + " |",
            "|---|---|---|---|" + "---|" * len(cols)]
        keys = []
        for r in rows:
            if (r["bottleneck"], r["competitor"], r["case"]) not in keys:
                keys.append((r["bottleneck"], r["competitor"], r["case"]))
        for b, comp, case in keys:
            rs = [r for r in rows if (r["bottleneck"], r["competitor"], r["case"]) ==
                  (b, comp, case)]
            text.append("| %s Mbit/s | %s | `%s` | %d | %s |" % (
                b, comp, case, len(rs), " | ".join(fmt(median(rs, c), f) for c, f in cols)))
        text.append("")
    return "\n".join(text)


def append_csv(path, row, columns):
    """Append row to the CSV at path; where the file's header lacks some of columns, the
    file is rewritten with them (left empty in its rows)."""
    import csv
    rows = read_csv(path)
    have = list(rows[0].keys()) if rows else None
    if have is None and os.path.exists(path) and os.path.getsize(path):
        with open(path, newline="") as f:
            have = next(csv.reader(f), None)
    if have and set(columns) - set(have):
        have = columns + [c for c in have if c not in columns]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, have, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, have or columns, extrasaction="ignore")
        if not have and os.path.getsize(path) == 0:
            w.writeheader()
        w.writerow(row)


def drive(a, jobs, columns, csv_name, fn, show):
    import run
    os.makedirs(a.out, exist_ok=True)
    log = a.log or os.path.join(tempfile.gettempdir(), time.strftime(
        "rtpburstpace-seed003-%Y%m%d-%H%M%S.log"))
    work = tempfile.mkdtemp(prefix="rtpburstpace-seed003-")
    signal.signal(signal.SIGTERM, run.on_term)
    failed = 0
    print("seed003.py: %d runs; the tools' output in %s" % (len(jobs) * a.reps, log),
          file=sys.stderr, flush=True)
    try:
        with open(log, "a", buffering=1) as tools:
            for rep in range(a.reps):
                for job in jobs:
                    t0 = time.monotonic()
                    sys.stderr.write("%s rep %d ... " % (job, rep))
                    sys.stderr.flush()
                    try:
                        row, series = fn(*job, rep, a, tools, work)
                    except (KeyboardInterrupt, run.Interrupted):
                        raise
                    except Exception as e:  # one failed run must not lose the others
                        failed += 1
                        tools.write("run failed: %s\n" % e)
                        row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "rep": rep,
                               "status": "error: " + " ".join(str(e).split())[:300]}
                        series = None
                        sys.stderr.write("FAILED: %s\n" % row["status"])
                    else:
                        sys.stderr.write("%s (%.0f s)\n" % (", ".join(
                            "%s %s" % (k, round(row[k], 3) if isinstance(row[k], float)
                                       else row[k]) for k in show
                            if row.get(k) is not None), time.monotonic() - t0))
                    append_csv(os.path.join(a.out, csv_name), row, columns)
                    if series:
                        with open(os.path.join(a.out, "runs.jsonl"), "a") as f:
                            f.write(json.dumps(series) + "\n")
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("seed003.py: interrupted, testbed removed")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = tables(a.out)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(text)
    print(text)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("tcp", "voip", "pair"):
        p = sub.add_parser(name)
        p.add_argument("--out", required=True)
        p.add_argument("--reps", type=int, default=3)
        p.add_argument("--duration", type=float, default=30.0)
        p.add_argument("--wait-idle", type=float, default=90.0,
                       help="run.py --wait-idle (default: %(default)s s)")
        p.add_argument("--log", metavar="FILE")
        p.add_argument("runargs", nargs="*", help="after --: more run.py arguments")
    sub.choices["tcp"].add_argument("--bottlenecks", default="2,10")
    sub.choices["tcp"].add_argument("--ccs", default="cubic,reno")
    sub.choices["voip"].add_argument("--bottlenecks", default="0.1,1")
    sub.choices["pair"].add_argument("--bottlenecks", default="2,10")
    sub.choices["pair"].add_argument("--ccs", default="cubic,reno")
    sub.choices["voip"].add_argument("--cases", default="tfrc,tfrc-marker,none")
    sub.choices["voip"].add_argument("--competitor", choices=("tcp", "udp", "none"),
                                     default="tcp")
    sub.choices["voip"].add_argument("--cc", default="cubic", help="the TCP flow's")
    p = sub.add_parser("table")
    p.add_argument("dir")
    p = sub.add_parser("voip-send")
    p.add_argument("--host", required=True)
    p.add_argument("--port", type=int, default=VOIP_PORT)
    p.add_argument("--cc", choices=("tfrc", "none"), default="tfrc")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--prop", action="append", metavar="PROP=VALUE",
                   help="another rtpburstpace property (repeatable)")
    p = sub.add_parser("voip-recv")
    p.add_argument("--port", type=int, default=VOIP_PORT)
    p.add_argument("--sender", required=True)
    p.add_argument("--feedback-ms", type=int, default=FEEDBACK_MS)
    p.add_argument("--seconds", type=float, default=40.0)
    a = ap.parse_args()
    if a.cmd == "table":
        print(tables(a.dir))
        return 0
    if a.cmd == "voip-send":
        return voip_send(a)
    if a.cmd == "voip-recv":
        return voip_recv(a)
    import run
    why = run.testbed_unavailable(run.parse_args([]).plugin_path)
    if why:
        print("seed003.py: skipped: %s" % why)
        return 77
    bottlenecks = [float(x) for x in a.bottlenecks.split(",")]
    if a.cmd == "tcp":
        jobs = [(b, cc) for b in bottlenecks for cc in a.ccs.split(",")]
        return drive(a, jobs, TCP_COLUMNS, "tcp.csv", tcp_run,
                     ["tfrc_mbps", "tcp_mbps", "ratio", "cov_tfrc", "cov_tcp", "intact"])
    if a.cmd == "pair":
        jobs = [(b, cc) for b in bottlenecks for cc in a.ccs.split(",")]
        return drive(a, jobs, PAIR_COLUMNS, "pair.csv", pair_run,
                     ["tcp1_mbps", "tcp2_mbps", "ratio", "cov_tcp1", "cov_tcp2"])
    jobs = [(b, c) for b in bottlenecks for c in a.cases.split(",")]
    return drive(a, jobs, VOIP_COLUMNS, "voip.csv", voip_run,
                 ["sent", "element_dropped", "received", "net_lost", "estimate_min_kbps",
                  "feedback_reports", "competitor_mbps"])


if __name__ == "__main__":
    sys.exit(main())
