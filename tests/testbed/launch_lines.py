#!/usr/bin/python3
"""The README's two gst-launch-1.0 scripts through the testbed, beside one cubic flow.

examples/twcc-receive.sh (SINK=fakesink, LATENCY --latency) in the receiver namespace rx and
examples/twcc-send.sh (x264enc bitrate=4000, rtprtxsend, rtpburstpace congestion-control=gcc;
GST_DEBUG=rtpburstpace:5,x264enc:4, which logs the element's estimates and the keyframes the
receiver asked for; GST_PLUGIN_PATH: this checkout's build/gst, or run.py's --plugin-path) in
the video sender namespace sv, exactly as users run them, through run.Testbed's default path
(10 Mbit/s bottleneck, 13-packet drop-tail on the router r, round trip < 1 ms; other paths
with run.py's options after --), one iperf3 flow (cubic, or --cc after --) from st from 2 s
before the video, --duration s of video.  capture.py records every RTP packet to the
receiver's port as it leaves sv and as it reaches rx (kernel timestamps).  --element
PROP=VALUE adds an rtpburstpace property to twcc-send.sh's command line (its extra arguments);
--bitrate KBITS sets its encoder's rate (BITRATE).

Per run, from the captures and the sender's log, over the video's seconds FROM_S to
--duration (counted from the first media packet at rx; in the sender's log from the element's
first frame):
  delivered_mbps   the media (payload type 96; no retransmissions) that reached rx, Mbit/s of
                   RTP packets (UDP payloads)
  estimate_mbps    the element's estimate: it logs a value when it moves by more than 5 %, so
                   the median over time of the value in force (estimate_log_median_mbps: the
                   plain median of the values logged in those seconds, if any)
  ratio            estimate_mbps / delivered_mbps
  rtx_mbps, video_mbps  the retransmissions that reached rx (RTP packets), and media and
                   retransmissions together
  intact           frames intact / frames sent, over the frames whose first packet left sv
                   up to 1 s before the sender's last (the end of the run left out): frames
                   decoded intact by examples/receive-video's Chain (group_rtsp.video_figures)
                   over the packets that count: a media packet counts if it, or a
                   retransmission of it (payload type 97, the original sequence number in its
                   first 2 payload bytes), reached rx before its frame's deadline: the
                   frame's expected arrival (its RTP time at 90 kHz from the smallest
                   arrival - RTP time offset of the media packets) plus the receiver's
                   latency
  also media_loss (media packets that left sv and never reached rx), residual_loss (those
  that counted for nothing: lost and not retransmitted in time, or too late),
  residual_early (the share of those that left sv in the video's first EARLY_S = 2 s; none
  when there are none), rtx_wait_early_ms and rtx_wait_ms (the median time from a media
  packet's departure from sv to its first retransmission's, for the packets retransmitted
  that left in the first EARLY_S and after), rtx_packets
  (retransmissions that reached rx), keyframes_requested (x264enc's "Forcing key frame"),
  tcp_mbps, bottleneck_drops, the measured round trip, CPU busy and capture drops.
Checks, on the medians over --reps runs: the estimate within 20 % of the delivered media rate
(reported, not checked, with --estimate-not-checked), and at least 90 % of the frames intact.  Prints a line per run and PASS/FAIL per check; writes
into --out DIR runs.jsonl (a JSON line of figures per run), summary.jsonl (a JSON line of the
medians and the verdict, appended), and per run the two captures, both scripts' output and
the iperf3 report; --reanalyse DIR computes the figures again from those files (into
DIR/runs-reanalysed.jsonl; runs.jsonl stays as the runs wrote it).  Exit 0 when
both checks pass, 1 when one fails or a run fails, 77 when not root or a tool or element is
missing.  Run it alone on the machine, under the testbed lock:
  flock /tmp/testbed.lock /usr/bin/python3 tests/testbed/launch_lines.py --out /tmp/ll
  ... launch_lines.py --reps 3 --out DIR -- --cc bbr
  /usr/bin/python3 tests/testbed/launch_lines.py --reanalyse DIR
"""
import argparse
import gzip
import json
import os
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
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import capture  # noqa: E402
import group_rtsp  # noqa: E402  (exits 77 without PyGObject)
import run  # noqa: E402

SEND = os.path.join(ROOT, "examples", "twcc-send.sh")
RECEIVE = os.path.join(ROOT, "examples", "twcc-receive.sh")
SENDER_ADDR = "10.0.1.2"    # sv's address (netbed.sh)
PORT = 5000
MEDIA_PT, RTX_PT = 96, 97   # twcc-send.sh's rtph264pay pt and rtprtxsend map
CLOCK_RATE = 90000
#: the figures' window starts this many seconds into the video (as recipes.py's
#: media_mbps_tail)
FROM_S = 5.0
#: residual_early and rtx_wait_early_ms: the packets that left sv in the video's first
#: this many seconds (rtx_wait_ms: those after)
EARLY_S = 2.0
#: frames sent in the last second before the sender stopped are left out
END_MARGIN_S = 1.0
#: the sender's start: seconds from its start to its first frames (the video runs
#: --duration s after that)
SENDER_STARTUP_S = 1.5
#: what the sender logs: the estimates (DEBUG) and the keyframes the receiver asked for
SENDER_DEBUG = "rtpburstpace:5,x264enc:4"
MAX_RATIO_ERROR = 0.2
MIN_INTACT = 0.9
ELEMENTS = ["rtpbin", "x264enc", "rtph264pay", "rtprtxsend", "rtphdrexttwcc", "videotestsrc",
            "udpsink", "udpsrc", "rtpsession", "rtprtxreceive", "rtpssrcdemux",
            "rtpjitterbuffer", "rtpptdemux", "rtph264depay", "avdec_h264", "videoconvert",
            "fakesink"]
ESTIMATE = "announce:<rtpburstpace"
FRAME = "log_started:<rtpburstpace"
KEYFRAME = "Forcing key frame"
SHOW = ["intact", "delivered_mbps", "video_mbps", "estimate_mbps", "ratio", "media_loss",
        "residual_loss", "rtx_packets", "keyframes_requested", "tcp_mbps"]


def log_time(line):
    """Seconds of a GStreamer debug line's time stamp (H:MM:SS.nnnnnnnnn), else None."""
    head = line.split(" ", 1)[0]
    try:
        h, m, s = head.split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)
    except ValueError:
        return None


def sender_log(text):
    """(time of the element's first frame, [(time, estimate bit/s)], keyframes requested)
    from twcc-send.sh's output with GST_DEBUG=rtpburstpace:5,x264enc:4."""
    first, estimates, forced = None, [], 0
    for line in text.splitlines():
        if FRAME in line and first is None:
            first = log_time(line)
        elif ESTIMATE in line and " estimate " in line:
            t = log_time(line)
            value = line.rsplit(" estimate ", 1)[1].split()[0]
            if t is not None and value.isdigit():
                estimates.append((t, int(value)))
        elif KEYFRAME in line:
            forced += 1
    return first, estimates, forced


def time_median(steps, start, end):
    """The median over [start, end) of the step function that takes each value of steps
    [(time, value)] (sorted) from its time on; None before the first step."""
    spans = {}
    for i, (t, v) in enumerate(steps):
        t_next = steps[i + 1][0] if i + 1 < len(steps) else end
        a, b = max(t, start), min(t_next, end)
        if b > a:
            spans[v] = spans.get(v, 0.0) + b - a
    total = sum(spans.values())
    if not total:
        return None
    acc = 0.0
    for v in sorted(spans):
        acc += spans[v]
        if acc >= total / 2:
            return v
    return None


def unwrap32(base, ts):
    """ts (32-bit RTP time) as a signed offset from base."""
    return ((ts - base + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def restored(row, ssrc):
    """A retransmission's capture row as the media packet it carries (the original sequence
    number in its first 2 payload bytes; the capture kept the first 16)."""
    arrival, port, _pt, _seq, ts, _ssrc, size, marker, head = row
    if len(head) < 2:
        return None
    return (arrival, port, MEDIA_PT, int.from_bytes(head[:2], "big"), ts, ssrc, size - 2,
            marker, head[2:])


def figures(rx_rows, sv_rows, sender_text, latency_ms, duration):
    """The run's figures (see the top) from the captures at rx and sv and the sender's
    output."""
    out = {}
    media = [r for r in rx_rows if r[2] == MEDIA_PT]
    sent = sorted(r for r in sv_rows if r[2] == MEDIA_PT)
    if not media or not sent:
        raise RuntimeError("no media captured (rx %d, sv %d packets)" % (len(media), len(sent)))
    ssrc = statistics.mode(r[5] for r in media)
    media = sorted(r for r in media if r[5] == ssrc)
    sent = [r for r in sent if r[5] == ssrc]
    rtx = sorted(filter(None, (restored(r, ssrc) for r in rx_rows if r[2] == RTX_PT)))
    # the window: from the first media packet at rx
    t0 = media[0][0]
    a, b = t0 + int(FROM_S * 1e9), t0 + int(duration * 1e9)
    window = [r for r in media if a <= r[0] < b]
    span = (min(b, media[-1][0]) - a) / 1e9
    out["delivered_mbps"] = round(sum(r[6] for r in window) * 8 / span / 1e6, 3) \
        if span > 0 else None
    out["rtx_mbps"] = round(sum(r[6] + 2 for r in rtx if a <= r[0] < b) * 8 / span / 1e6, 3) \
        if span > 0 else None
    out["rtx_packets"] = len(rtx)
    out["video_mbps"] = round(out["delivered_mbps"] + out["rtx_mbps"], 3) \
        if span > 0 else None
    # the estimate over the same seconds of the sender's log
    first, estimates, out["keyframes_requested"] = sender_log(sender_text)
    out["estimates_logged"] = len(estimates)
    if first is not None and estimates:
        est = time_median(estimates, first + FROM_S, first + duration)
        out["estimate_mbps"] = round(est / 1e6, 3) if est is not None else None
        logged = [v for t, v in estimates if first + FROM_S <= t < first + duration]
        out["estimate_log_median_mbps"] = round(statistics.median(logged) / 1e6, 3) \
            if logged else None
        out["estimate_first_s"] = round(estimates[0][0] - first, 3)
    else:
        out["estimate_mbps"] = out["estimate_log_median_mbps"] = None
    out["ratio"] = round(out["estimate_mbps"] / out["delivered_mbps"], 3) \
        if out["estimate_mbps"] and out["delivered_mbps"] else None
    # deadlines: expected arrival from the smallest arrival - RTP time offset, + latency
    base = media[0][4]
    offset = min(r[0] - unwrap32(base, r[4]) * 1e9 / CLOCK_RATE for r in media)

    def deadline(ts):
        return offset + unwrap32(base, ts) * 1e9 / CLOCK_RATE + latency_ms * 1e6
    counts = [r for r in media + rtx if r[0] <= deadline(r[4])]
    # the frames sent: first packet out of sv up to END_MARGIN_S before the last
    first_out = {}
    for r in sent:
        first_out.setdefault(r[4], r[0])
    end = sent[-1][0] - END_MARGIN_S * 1e9
    frames = {ts for ts, t in first_out.items() if t <= end}
    # Chain counts the frames whose first counting packet came before cut: not those after
    last = max(unwrap32(base, ts) for ts in frames)
    later = [r[0] for r in counts if unwrap32(base, r[4]) > last]
    cut = min(later) - 1 if later else max(r[0] for r in counts)
    rv = group_rtsp.load_receive_video()
    v = group_rtsp.video_figures(rv, counts, [], len(frames), cut)
    if v is None:
        raise RuntimeError("no media packet counted")
    _lost, _expected, _left, n, intact, _intact_fec = v
    out.update(frames_sent=n, frames_intact=intact, intact=round(intact / n, 4) if n else 0.0)
    # losses, by extended sequence number, among the packets that left sv
    # (fewer than 65536 packets a run: a 16-bit number names one of them)
    # and when each left (its first sending)
    ext_of, left_at, unwrap = {}, {}, rv.Unwrapper()
    for r in sent:
        q = ext_of.setdefault(r[3], unwrap(r[3]))
        left_at.setdefault(q, r[0])
    sent_seqs = set(ext_of.values())
    arrived = {ext_of.get(r[3]) for r in media} - {None}
    counted = {ext_of.get(r[3]) for r in counts} - {None}
    out["media_packets_sent"] = len(sent_seqs)
    out["media_loss"] = round(1 - len(arrived & sent_seqs) / len(sent_seqs), 4)
    out["residual_loss"] = round(1 - len(counted & sent_seqs) / len(sent_seqs), 4)
    # the share of the residual losses that left in the video's first seconds
    residual = sent_seqs - counted
    early = sent[0][0] + int(EARLY_S * 1e9)
    out["residual_early"] = round(sum(left_at[q] < early for q in residual) /
                                  len(residual), 3) if residual else None
    # how long a lost media packet's first retransmission took to leave sv after it
    rtx_out = {}
    for r in sv_rows:
        got = restored(r, ssrc) if r[2] == RTX_PT else None
        q = ext_of.get(got[3]) if got is not None else None
        if q is not None:
            rtx_out[q] = min(rtx_out.get(q, r[0]), r[0])
    for key, pick in (("rtx_wait_early_ms", lambda t: t < early),
                      ("rtx_wait_ms", lambda t: t >= early)):
        waits = [(rtx_out[q] - left_at[q]) / 1e6 for q in rtx_out
                 if q in left_at and pick(left_at[q])]
        out[key] = round(statistics.median(waits), 1) if waits else None
    out["latency_ms"] = latency_ms
    return out


def run_file(outdir, kind, rep):
    names = {"rx": "capture-rx-%d.csv.gz", "sv": "capture-sv-%d.csv.gz",
             "sender": "sender-%d.log.gz", "receiver": "receiver-%d.log.gz",
             "iperf3": "iperf3-%d.json"}
    return os.path.join(outdir, names[kind] % rep)


def wait_output(path, proc, word, timeout):
    """Wait until the file path (proc's output) holds word; False if proc ended or after
    timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open(path, errors="replace") as f:
            if word in f.read():
                return True
        if proc.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def stop(proc, timeout=15):
    """SIGINT (Ctrl-C) to proc, as a user stops gst-launch-1.0; killed after timeout s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def gzip_file(src, dst):
    with open(src, "rb") as f, gzip.open(dst, "wb") as g:
        shutil.copyfileobj(f, g)


def one_run(rep, a, tools):
    """One run: the testbed, the captures, receiver, TCP, sender; the row (figures and what
    the testbed measured)."""
    args = run.parse_args(["--tcp", "1", "--duration", str(a.duration)] + a.runargs)
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "rep": rep, "duration_s": a.duration,
           "latency_ms": a.latency, "tcp_flows": args.tcp, "element": " ".join(a.element),
           "bitrate_kbits": a.bitrate or 4000}
    if args.wait_idle > 0:
        row["waited_idle_s"] = round(run.wait_idle(timeout=args.wait_idle), 1)
    tools.write("==== %s launch_lines.py: rep %d, namespaces %s-*\n" % (
        row["time"], rep, args.prefix))
    work = tempfile.mkdtemp(prefix="launch-lines-")
    rx_log, tx_log = os.path.join(work, "receiver.log"), os.path.join(work, "sender.log")
    try:
        with run.Testbed(args, tools) as bed:
            row.update(bed.path)
            if bed.skipped:
                raise RuntimeError("this path needs what the machine lacks: " +
                                   ", ".join(bed.skipped))
            caps = []
            for ns, where, extra in ((bed.rx, "rx", []), (bed.sv, "sv", ["--outgoing"])):
                caps.append(bed.start(ns, [run.PY, capture.__file__, "--src", SENDER_ADDR,
                                           "--dport", str(PORT), "--out",
                                           run_file(a.out, where, rep)] + extra,
                                      stdout=subprocess.PIPE, stderr=tools))
                if not run.wait_line(caps[-1], "ready", 10):
                    raise RuntimeError("capture in %s did not start" % where)
            env = dict(os.environ, SINK="fakesink", LATENCY=str(a.latency),
                       GST_DEBUG_NO_COLOR="1")
            env.pop("GST_DEBUG", None)
            with open(rx_log, "w") as f:
                receiver = bed.start(bed.rx, [RECEIVE, SENDER_ADDR, str(PORT)], env=env,
                                     stdout=f, stderr=subprocess.STDOUT)
            if not wait_output(rx_log, receiver, "PLAYING", 30):
                raise RuntimeError("twcc-receive.sh did not start")
            cross = bed.cross_traffic(work, args.duration, args.warmup + SENDER_STARTUP_S)
            cross.before_video()
            q0, cpu0 = bed.qdisc_stats(), run.cpu_times()
            env = dict(os.environ, GST_PLUGIN_PATH=args.plugin_path,
                       GST_DEBUG=a.gst_debug, GST_DEBUG_NO_COLOR="1")
            if a.bitrate:
                env["BITRATE"] = str(a.bitrate)
            with open(tx_log, "w") as f:
                sender = bed.start(bed.sv, [SEND, bed.rx_addr, str(PORT)] + a.element, env=env,
                                   stdout=f, stderr=subprocess.STDOUT)
            cross.video_started()
            time.sleep(SENDER_STARTUP_S + args.duration)
            ended = [name for name, p in (("sender", sender), ("receiver", receiver))
                     if p.poll() is not None]
            stop(sender)
            row["cpu_busy"], row["cpu_steal"] = run.cpu_busy_since(cpu0)
            q1 = bed.qdisc_stats()
            time.sleep(a.latency / 1000 + 0.5)
            stop(receiver)
            for c in caps:
                c.send_signal(signal.SIGTERM)
            for c in caps:
                text = (c.communicate(timeout=60)[0] or "").strip()
                got = json.loads(text.splitlines()[-1]) if text else {}
                row["capture_drops"] = row.get("capture_drops", 0) + got.get("capture_drops", 0)
            row.update(cross.finish(timeout=args.warmup + args.duration + 30))
            row.update(run.qdisc_drops(q0, q1, "bursty"))
        gzip_file(tx_log, run_file(a.out, "sender", rep))
        gzip_file(rx_log, run_file(a.out, "receiver", rep))
        if os.path.exists(os.path.join(work, "iperf3.json")):
            shutil.copy(os.path.join(work, "iperf3.json"), run_file(a.out, "iperf3", rep))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if ended:
        raise RuntimeError("the %s ended before it was stopped (its output: %s)" % (
            " and the ".join(ended), run_file(a.out, ended[0], rep)))
    row.update(analyse(a.out, rep, a.latency, a.duration))
    row["status"] = "ok"
    return row


def analyse(outdir, rep, latency_ms, duration):
    """figures() of run rep from its files in outdir."""
    rx_rows, rx_drops = capture.read(run_file(outdir, "rx", rep))
    sv_rows, sv_drops = capture.read(run_file(outdir, "sv", rep))
    with gzip.open(run_file(outdir, "sender", rep), "rt", errors="replace") as f:
        text = f.read()
    out = figures(rx_rows, sv_rows, text, latency_ms, duration)
    out["capture_drops"] = rx_drops + sv_drops
    return out


def median(rows, key):
    v = [r[key] for r in rows if r.get("status") == "ok" and r.get(key) is not None]
    return statistics.median(v) if v else None


def checks(rows, estimate_checked=True):
    """[(passed, text)] on the medians of the runs that went through; passed None: a figure
    reported, not checked (the estimate's, unless estimate_checked)."""
    est, got, intact = (median(rows, k) for k in ("estimate_mbps", "delivered_mbps", "intact"))
    n = sum(1 for r in rows if r.get("status") == "ok")
    out = []
    if est is None or not got:
        out.append((False, "an estimate and a delivered media rate (estimate %s, delivered %s)"
                    % (est, got)))
    else:
        out.append((abs(est / got - 1) <= MAX_RATIO_ERROR if estimate_checked else None,
                    "estimate %.2f Mbit/s within %d %% of the media that reached the receiver, "
                    "%.2f Mbit/s (ratio %.2f; %g-%g s of the video, median of %d run%s)"
                    % (est, 100 * MAX_RATIO_ERROR, got, est / got, FROM_S,
                       rows[0].get("duration_s", 0), n, "s" if n != 1 else "")))
    if intact is None:
        out.append((False, "frames intact counted"))
    else:
        out.append((intact >= MIN_INTACT, "frames intact %.1f %% (>= %d %%)"
                    % (100 * intact, 100 * MIN_INTACT)))
    failed = [r for r in rows if r.get("status") != "ok"]
    if failed:
        out.append((False, "%d run(s) failed: %s" % (len(failed), failed[0].get("status"))))
    return out


def report(rows, outdir, estimate_checked=True):
    """PASS/FAIL (NOTE: not checked) lines, summary.jsonl; the exit status."""
    result = checks(rows, estimate_checked)
    for ok, text in result:
        print("%s  %s" % ("NOTE" if ok is None else "PASS" if ok else "FAIL", text), flush=True)
    summary = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "runs": len(rows),
               "runs_ok": sum(1 for r in rows if r.get("status") == "ok"),
               "passed": all(ok is not False for ok, _t in result)}
    for k in SHOW + ["rtt_ms", "bottleneck_drops", "cpu_busy"]:
        summary[k] = median(rows, k)
    summary["checks"] = [{"passed": ok, "text": t} for ok, t in result]
    with open(os.path.join(outdir, "summary.jsonl"), "a") as f:
        f.write(json.dumps(summary) + "\n")
    return 0 if summary["passed"] else 1


def line(row):
    if row.get("status") != "ok":
        return row.get("status")
    return ("intact %.1f %% (%d/%d), delivered %.2f Mbit/s, estimate %s Mbit/s (ratio %s), "
            "media loss %.1f %% -> %.2f %% after repair (%s of it in the first %g s), "
            "%d retransmissions, %d keyframes requested, TCP %s Mbit/s" % (
                100 * row["intact"], row["frames_intact"], row["frames_sent"],
                row["delivered_mbps"] or 0, row["estimate_mbps"], row["ratio"],
                100 * row["media_loss"], 100 * row["residual_loss"],
                "-" if row.get("residual_early") is None else
                "%.0f %%" % (100 * row["residual_early"]), EARLY_S, row["rtx_packets"],
                row["keyframes_requested"], row.get("tcp_mbps")))


def unavailable(plugin_path):
    """None if the machine can run it, else why not."""
    why = run.testbed_unavailable(plugin_path)
    if why:
        return why
    if not shutil.which("gst-inspect-1.0"):
        return "gst-inspect-1.0 not found"
    missing = [e for e in ELEMENTS if subprocess.run(
        ["gst-inspect-1.0", "--exists", e], capture_output=True).returncode != 0]
    return "GStreamer elements missing: " + ", ".join(missing) if missing else None


def reanalyse(a):
    with open(os.path.join(a.out, "runs.jsonl")) as f:
        old = [json.loads(x) for x in f if x.strip()]
    rows = []
    for r in old:
        if r.get("status") == "ok":
            r.update(analyse(a.out, r["rep"], r["latency_ms"], r["duration_s"]))
        print("rep %d: %s" % (r["rep"], line(r)), file=sys.stderr, flush=True)
        rows.append(r)
    with open(os.path.join(a.out, "runs-reanalysed.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return report(rows, a.out, not a.estimate_not_checked)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    runargs = []
    if "--" in argv:
        runargs, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--reps", type=int, default=1, help="runs; the checks take the medians "
                    "(default %(default)s)")
    ap.add_argument("--duration", type=float, default=20.0,
                    help="seconds of video (default %(default)s)")
    ap.add_argument("--latency", type=int, default=200,
                    help="the receiver's LATENCY, ms (default: the script's 200)")
    ap.add_argument("--element", action="append", default=[], metavar="PROP=VALUE",
                    help="an rtpburstpace property twcc-send.sh passes on (its extra "
                         "arguments, e.g. max-bitrate=4400000; repeatable)")
    ap.add_argument("--bitrate", type=int, default=None, metavar="KBITS",
                    help="the sender's encoder rate (twcc-send.sh's BITRATE; default: its "
                         "4000)")
    ap.add_argument("--gst-debug", default=SENDER_DEBUG, metavar="SPEC",
                    help="the sender's GST_DEBUG (default %(default)s; rtpburstpace:6 adds "
                         "each congestion-control decision, the 'gcc:' lines)")
    ap.add_argument("--estimate-not-checked", action="store_true",
                    help="report the estimate against the delivered rate (NOTE), do not "
                         "check it: with the encoder's rate fixed under the path's share, "
                         "the estimate reads the path, not the video (docs/results.md "
                         "section 21); the test suite's run")
    ap.add_argument("--out", default=None,
                    help="directory for runs.jsonl, summary.jsonl and the runs' files "
                         "(default: a new /tmp/launch-lines-*)")
    ap.add_argument("--reanalyse", metavar="DIR",
                    help="run nothing: the figures again from DIR's files")
    a = ap.parse_args(argv)
    a.runargs = runargs
    if a.reanalyse:
        a.out = a.reanalyse
        return reanalyse(a)
    if a.duration <= FROM_S + 1:
        ap.error("--duration must be more than %g s" % (FROM_S + 1))
    ra = run.parse_args(runargs)
    why = unavailable(ra.plugin_path)
    if why:
        print("launch_lines.py: skipped: %s" % why)
        return 77
    a.out = a.out or tempfile.mkdtemp(prefix="launch-lines-")
    os.makedirs(a.out, exist_ok=True)
    if os.path.exists(os.path.join(a.out, "runs.jsonl")):
        os.remove(os.path.join(a.out, "runs.jsonl"))
    signal.signal(signal.SIGTERM, run.on_term)
    rows = []
    print("launch_lines.py: %d run(s) of %g s into %s" % (a.reps, a.duration, a.out),
          file=sys.stderr, flush=True)
    with open(os.path.join(a.out, "tools.log"), "a", buffering=1) as tools:
        for rep in range(a.reps):
            t0 = time.monotonic()
            try:
                row = one_run(rep, a, tools)
            except (KeyboardInterrupt, run.Interrupted):
                print("launch_lines.py: interrupted, testbed removed", file=sys.stderr)
                return 1
            except Exception as e:  # noqa: BLE001  (recorded; the next run goes on)
                msg = " ".join(str(e).split())[:300]
                tools.write("run failed: %s\n" % e)
                row = {"rep": rep, "status": "error: " + msg, "latency_ms": a.latency,
                       "duration_s": a.duration}
            rows.append(row)
            with open(os.path.join(a.out, "runs.jsonl"), "a") as f:
                f.write(json.dumps(row) + "\n")
            print("rep %d: %s (%.0f s)" % (rep, line(row), time.monotonic() - t0),
                  file=sys.stderr, flush=True)
    return report(rows, a.out, not a.estimate_not_checked)


if __name__ == "__main__":
    sys.exit(main())
