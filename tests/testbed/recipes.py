#!/usr/bin/python3
"""The video recipes on the testbed: examples/send-video in sv, examples/receive-video in rx.

Each run sets the testbed up (run.Testbed: 10 Mbit/s bottleneck, 13-packet drop-tail pfifo on
the router; other paths with run.py's options after --: --rtt, --aqm, --queue, --cc, --router),
starts receive-video in rx, then --tcp cubic iperf3 flows from st (or --web-flows users of short
downloads), and after their warm-up (or, with run.py's --tcp-start S, S s after the video
starts) send-video in sv for --duration seconds, both with the recipe of the case
(examples/videorecipes.py; the default source: x264 at 4 Mbit/s with B-frames).  The receiver
sends its RTCP (NACKs) back to where the RTP comes from.  Cases are recipe names, and "tbf":
the bursty recipe through a tc tbf on the video sender's own egress at --tbf-factor x 4 Mbit/s
on the wire (as run.py --mode tbf).  All cases run once per repetition, interleaved, with 1 TCP
flow (--cases) and without TCP (--cases-no-tcp, by default fewer).  A case "RECIPE@MS" is that
recipe with the receiver's jitterbuffer latency fixed at MS (receive-video --latency; the RTX
recipes' latency otherwise follows the measured round trip); "RECIPE/OPTION=VALUE/..." runs
send-video with --OPTION VALUE ... (e.g. "recommended/keyframe-holdoff=0"), receive-video with
those named rx-OPTION.

Per run it records what the applications print (their last-line JSON) and:
  intact        frames_intact / frames_sent (frames out of avdec_h264 output-corrupt=false at
                the receiver, frames out of the encoder at the sender)
  complete      frames_complete_by_deadline / frames_sent (all packets within the receiver's
                jitterbuffer latency)
  net_loss      media packets that did not arrive: 1 - packets_received / media_packets_sent
  residual_loss packets_lost / media_packets_sent (after FEC or retransmission)
  recovered     packets_recovered (media packets that reached the depayloader without having
                come in)
  overhead      repair packets sent (FEC, retransmissions) / media packets sent
  tcp_mbps      iperf3's received rate over the video (the first 1.5 s of video, the sender's
                start-up, and the last 0.5 s are left out), tcp_retrans
  bottleneck_drops, sv_qdisc_drops (the tbf), cpu_busy
  target_mbps   min (the source's nominal 4 Mbit/s, the fair share: the bottleneck over the
                video and the TCP flows; with web users, over two); where the bottleneck's
                rate changes (--switch-at), the mean of that minimum over the tail's seconds
  media_mbps_tail  the media (no retransmissions) that reached the receiver, Mbit/s, from the
                5th second of the video to its end (receive-video's media_bytes_per_s, by
                wall-clock seconds from the first frame send-video payloaded)
  t80_s         the first second from which 3 s of media reached 80 % of target_mbps (empty:
                never)
  frame_delay_p95_ms  the 95th percentile over frames of the time from the payloader's first
                packet of the frame (send-video) to the last of its packets, or their
                retransmissions, reaching the receiver (receive-video): the sender's pacing
                and buffering and the network, not the receiver's jitterbuffer
  keyframes_sent  keyframes out of the encoder (regular and requested)
Prints a line per run on stderr, then the medians as a Markdown table and issue 13's
criterion for --recommended; --out DIR writes recipes.csv (a row per run), runs.jsonl (both
applications' JSON per run) and table.md there.  What the tools print goes to --log FILE
(default: a new /tmp/rtpburstpace-recipes-*.log).  Needs root; run with Debian's
/usr/bin/python3.  About 33 s a run: the default ((12 + 6 cases) x 3 x 20 s) takes ~30 minutes.
  sudo /usr/bin/python3 tests/testbed/recipes.py --out docs/results/recipes
  sudo /usr/bin/python3 tests/testbed/recipes.py --quick --cases paced,paced-rtx
  sudo /usr/bin/python3 tests/testbed/recipes.py --source 'videotestsrc is-live=true ! ... ! x264enc'
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import capture  # noqa: E402
import compare  # noqa: E402
import metrics  # noqa: E402
import run  # noqa: E402
import videorecipes  # noqa: E402

SEND = os.path.join(ROOT, "examples", "send-video")
RECEIVE = os.path.join(ROOT, "examples", "receive-video")
PORT = 5000
SENDER_ADDR = "10.0.1.2"    # sv's address (netbed.sh)
CASES = ["bursty", "tbf", "paced", "capped", "bursty-fec5x5", "bursty-rtx", "paced-fec5x5",
         "capped-fec5x5",
         "paced-fec10x10", "paced-ulpfec", "paced-rtx", "capped-rtx", "capped-rtx-adapt"]
# without TCP: the senders alone, and one of each kind of repair
CASES_NO_TCP = ["bursty", "tbf", "paced", "capped", "paced-fec5x5", "capped-fec5x5", "paced-rtx"]
# the stream as run.py describes it (for stream_wire_bps and the tbf rate)
STREAM = ["--codec", "h264", "--rate", "4", "--mtu", str(videorecipes.MTU)]
SENDER_STARTUP_S = 1.5   # left out of the TCP figure at the start of the video
#: the source's nominal rate (send-video's default: x264 bitrate=4000), Mbit/s
SOURCE_MBPS = 4.0
#: media_mbps_tail: the media rate from this second of the video on
TAIL_FROM_S = 5
#: t80_s: the first second from which the media rate over this many seconds is 80 % of
#: the target
T80_WINDOW_S = 3
SHOW = ["intact", "complete", "frames_sent", "net_loss", "residual_loss", "recovered",
        "overhead", "latency_ms", "tcp_mbps"]
PERCENT = ["intact", "complete", "net_loss", "residual_loss", "overhead"]
HEADER = {"intact": "frames intact", "complete": "frames complete by deadline",
          "frames_sent": "frames sent", "net_loss": "packet loss",
          "residual_loss": "loss after repair", "recovered": "packets recovered",
          "overhead": "overhead (repair packets)", "latency_ms": "receiver latency ms",
          "tcp_mbps": "TCP Mbit/s"}
COLUMNS = ["time", "case", "recipe", "tcp_flows", "rep", "status", "router", "aqm", "queue",
           "rtt_configured_ms", "rtt_ms", "cc", "intact", "complete",
           "frames_sent", "frames_intact", "frames_complete_by_deadline", "media_packets_sent",
           "repair_packets_sent", "packets_received", "packets_recovered", "packets_lost", "net_loss", "residual_loss", "recovered",
           "overhead", "video_mbps", "latency_ms", "tcp_mbps", "tcp_retrans",
           "switch_at", "bottleneck_low", "target_mbps", "media_mbps_tail", "t80_s", "frame_delay_p95_ms", "keyframes_sent",
           "web_objects", "web_mbps", "web_fct_p50_ms", "web_fct_p90_ms",
           "bottleneck_drops", "bottleneck_marks", "sv_qdisc_drops", "st_qdisc_drops",
           "router_late_p99_ms", "router_late_max_ms", "cpu_busy", "cpu_steal",
           "waited_idle_s", "capture_drops"]


def split_case(case):
    """(recipe name, fixed receiver latency in ms or None) of a case
    "RECIPE[@MS][/OPTION=VALUE...]"."""
    name, _, ms = case.split("/")[0].partition("@")
    return name, (int(ms) if ms else None)


def app_options(case, receiver=False):
    """send-video's (receive-video's) extra arguments of a case
    "RECIPE[@MS]/OPTION=VALUE/...": ["--OPTION", "VALUE", ...] of the options
    without (with) the prefix "rx-"."""
    out = []
    for opt in case.split("/")[1:]:
        key, _, value = opt.partition("=")
        if key.startswith("rx-") == receiver:
            out += ["--" + key[3 if receiver else 0:], value]
    return out


def recipe_of(case):
    return videorecipes.get(split_case(case)[0])


def name_of(case, tbf_factor):
    if case == "tbf":
        return "`tbf`: bursty + sender tbf %g x" % tbf_factor
    latency = split_case(case)[1]
    return "`%s`: %s%s%s" % (case, recipe_of(case).summary,
                             "; receiver latency fixed at %d ms" % latency if latency else "",
                             "".join("; %s %s" % (app, " ".join(opts)) for app, opts in (
                                 ("send-video", app_options(case)),
                                 ("receive-video", app_options(case, receiver=True))) if opts))


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError:
                return None
            return obj if isinstance(obj, dict) else None
    return None


def rate_figures(tx, rx, duration, target_mbps):
    """media_mbps_tail, t80_s and frame_delay_p95_ms (see the docstring) from the two
    applications' JSON; {} from applications that do not record them."""
    sent = dict(tx.get("frame_sent") or [])
    per_s = dict(rx.get("media_bytes_per_s") or [])
    if not sent or not per_s:
        return {}
    start = int(min(sent.values()))
    rate = [per_s.get(start + k, 0) * 8 / 1e6 for k in range(int(duration))]
    tail = rate[TAIL_FROM_S:]
    out = {"media_mbps_tail": round(sum(tail) / len(tail), 3) if tail else None}
    out["t80_s"] = next((k for k in range(len(rate) - T80_WINDOW_S + 1)
                         if sum(rate[k:k + T80_WINDOW_S]) / T80_WINDOW_S >= 0.8 * target_mbps),
                        None)
    arrival = dict(rx.get("frame_arrival") or [])
    delays = sorted((arrival[ts] - t) * 1000 for ts, t in sent.items() if ts in arrival)
    out["frame_delay_p95_ms"] = (round(delays[min(len(delays) - 1, int(0.95 * len(delays)))], 1)
                                 if delays else None)
    return out


def figures(tx, rx):
    """The per-run figures (see the docstring) from the two applications' JSON."""
    media = tx["media_packets_sent"]
    sent = tx["frames_sent"]
    repair = tx["packets_sent"] - media
    return {
        "frames_sent": sent,
        "frames_intact": rx["frames_intact"],
        "frames_complete_by_deadline": rx["frames_complete_by_deadline"],
        "intact": rx["frames_intact"] / sent if sent else 0.0,
        "complete": rx["frames_complete_by_deadline"] / sent if sent else 0.0,
        "media_packets_sent": media,
        "repair_packets_sent": repair,
        "packets_received": rx["packets_received"],
        "packets_recovered": rx["packets_recovered"],
        "recovered": rx["packets_recovered"],
        "packets_lost": rx["packets_lost"],
        "net_loss": 1.0 - rx["packets_received"] / media if media else 0.0,
        "residual_loss": rx["packets_lost"] / media if media else 0.0,
        "overhead": repair / media if media else 0.0,
        "video_mbps": round(tx["bytes_sent"] * 8 / tx["seconds"] / 1e6, 3),
        # the latency in force at the end (the RTX recipes' follows the round trip)
        "latency_ms": rx.get("latency_ms_end", rx["latency_ms"]),
        "keyframes_sent": tx.get("keyframes_sent"),
    }


def switch_times(args):
    """run.py's --switch-at: the seconds after the video's start (floats), or []."""
    return [float(x) for x in args.switch_at.split(",")] if args.switch_at else []


def target_mbps(args):
    """min (the source's rate, the fair share): the bottleneck over the flows sharing it
    (the video and TCP flows; web users' share is what they carried, not known here: the
    bottleneck's half).  With --switch-at, the mean of that minimum from TAIL_FROM_S to the
    end of the video (the source cannot make up later for a share it could not use)."""
    flows = 1 + args.tcp + (1 if args.web_flows else 0)
    edges = [TAIL_FROM_S] + [t for t in switch_times(args)
                             if TAIL_FROM_S < t < args.duration] + [args.duration]
    low = sum(1 for t in switch_times(args) if t <= TAIL_FROM_S) % 2 == 1
    total = 0.0
    for a, b in zip(edges, edges[1:]):
        total += (b - a) * min(SOURCE_MBPS,
                               (args.bottleneck_low if low else args.bottleneck) / flows)
        low = not low
    return total / (args.duration - TAIL_FROM_S)


def capture_path(out, case, tcp, rep, where):
    """The --capture file of run (case, tcp, rep) in out: where "sv" (the RTP that left the
    sender) or "rx" (what reached the receiver)."""
    name = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in case)
    return os.path.join(out, "captures", "%s-tcp%d-rep%d-%s.csv.gz" % (name, tcp, rep, where))


def one_run(case, tcp, rep, a, tools, work, on_wait=None):
    """One run of CASE with TCP flows; returns (row, {sender, receiver JSON})."""
    recipe, fixed_latency = ("bursty", None) if case == "tbf" else split_case(case)
    # with --web-flows N, the competitor of the runs with TCP is N web users, not iperf3
    competitor = ["--tcp", "0", "--web-flows", str(a.web_flows)] if tcp and a.web_flows else \
        ["--tcp", str(tcp), "--web-flows", "0"]
    args = run.parse_args(STREAM + ["--mode", "tbf" if case == "tbf" else "bursty",
                                    "--tbf-factor", str(a.tbf_factor),
                                    "--duration", str(a.duration)] + a.runargs + competitor)
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "case": case, "recipe": recipe,
           "tcp_flows": tcp, "rep": rep, "switch_at": args.switch_at or "",
           "bottleneck_low": args.bottleneck_low or ""}
    if args.wait_idle > 0:
        row["waited_idle_s"] = round(run.wait_idle(timeout=args.wait_idle, on_wait=on_wait), 1)
    tools.write("==== %s recipes.py: %s, tcp %d, rep %d, namespaces %s-*\n" % (
        row["time"], case, tcp, rep, args.prefix))
    env = dict(os.environ, GST_PLUGIN_PATH=args.plugin_path + (
        ":" + a.peer_path if getattr(a, "peer_path", None) else ""))
    tbf = args.tbf_factor * run.stream_wire_bps(args) if case == "tbf" else None
    with run.Testbed(args, tools, tbf) as bed:
        row.update(bed.path)
        if bed.skipped:
            raise RuntimeError("this path needs what the machine lacks: " +
                               ", ".join(bed.skipped))
        # --lab: the testbed runs the experiment variants too
        rx_cmd = [run.PY, RECEIVE, "--port", str(PORT), "--recipe", recipe, "--lab", "--json",
                  "--seconds", "%g" % (args.warmup + args.duration + 7)]
        if fixed_latency or a.latency:
            rx_cmd += ["--latency", str(fixed_latency or a.latency)]
        if a.no_keyframe_requests:
            rx_cmd += ["--no-keyframe-requests"]
        rx_cmd += app_options(case, receiver=True)
        receiver = bed.start(bed.rx, rx_cmd, stdout=subprocess.PIPE, stderr=tools, env=env)
        if not run.wait_line(receiver, "receive-video:", 30):
            raise RuntimeError("receive-video did not start")
        cross = bed.cross_traffic(work, args.duration - SENDER_STARTUP_S - 0.5,
                                  args.warmup + SENDER_STARTUP_S)
        cross.before_video()
        tx_cmd = [run.PY, SEND, "--host", bed.rx_addr, "--port", str(PORT), "--recipe", recipe,
                  "--lab", "--json", "--seconds", "%g" % args.duration]
        if a.source:
            tx_cmd += ["--source", a.source]
        tx_cmd += app_options(case)
        caps = []
        if a.capture:
            os.makedirs(os.path.join(a.out, "captures"), exist_ok=True)
            for ns, where, extra in ((bed.sv, "sv", ["--outgoing"]), (bed.rx, "rx", [])):
                caps.append(bed.start(ns, [run.PY, capture.__file__, "--src", SENDER_ADDR,
                                           "--dport", str(PORT), "--out",
                                           capture_path(a.out, case, tcp, rep, where)] + extra,
                                      stdout=subprocess.PIPE, stderr=tools))
                if not run.wait_line(caps[-1], "ready", 10):
                    raise RuntimeError("capture did not start")
        q0, cpu0 = bed.qdisc_stats(), run.cpu_times()
        sender = bed.start(bed.sv, tx_cmd, stdout=subprocess.PIPE, stderr=tools, env=env)
        cross.video_started()
        # --switch-at: counted from the video's first frames (the sender's start-up after
        # its start)
        switches = [threading.Timer(SENDER_STARTUP_S + t, bed.switch_rate)
                    for t in switch_times(args)]
        for timer in switches:
            timer.start()
        try:
            tx_out, _ = sender.communicate(timeout=args.duration + 60)
        finally:
            for timer in switches:
                timer.cancel()
        row["cpu_busy"], row["cpu_steal"] = run.cpu_busy_since(cpu0)
        q1 = bed.qdisc_stats()
        rx_out, _ = receiver.communicate(timeout=args.warmup + args.duration + 60)
        for cap in caps:
            cap.send_signal(signal.SIGTERM)
            got = last_json(cap.communicate(timeout=30)[0]) or {}
            row["capture_drops"] = row.get("capture_drops", 0) + got.get("capture_drops", 0)
        row.update(cross.finish(timeout=args.warmup + args.duration + 30))
    tx, rx = last_json(tx_out), last_json(rx_out)
    if sender.returncode or tx is None:
        raise RuntimeError("send-video failed (exit %s): %s" % (sender.returncode,
                                                                tx_out.strip()[-300:]))
    if receiver.returncode or rx is None:
        raise RuntimeError("receive-video failed (exit %s): %s" % (receiver.returncode,
                                                                   rx_out.strip()[-300:]))
    row.update(figures(tx, rx))
    row["target_mbps"] = target_mbps(args)
    row.update(rate_figures(tx, rx, args.duration, row["target_mbps"]))
    row.update(run.qdisc_drops(q0, q1, "tbf" if case == "tbf" else "bursty"))
    row["status"] = "ok"
    return row, {"sender": tx, "receiver": rx,
                 "receiver_lines": [l for l in rx_out.splitlines() if l.startswith("t=")]}


def case_keys(cases, a):
    """[(case, tcp flows)] in the order they run: a.cases_no_tcp without TCP."""
    return [(c, t) for t in a.tcp for c in (cases if t else a.cases_no_tcp)]


def run_all(cases, a, tools, work, out=None):
    """Every case with every --tcp count, a.reps times, interleaved; {(case, tcp): [row]}.
    A run that fails is recorded with its error and the others go on."""
    keys = case_keys(cases, a)
    rows = {k: [] for k in keys}
    total, n = a.reps * len(keys), 0
    width = max(len(c) for c, _t in keys) + 10
    for rep in range(a.reps):
        for case, tcp in keys:
            n += 1
            p = compare.Progress(sys.stderr, True)
            p.say("[%*d/%d] %-*s rep %d/%d ... " % (len(str(total)), n, total, width,
                                                   "%s, %d TCP" % (case, tcp), rep + 1, a.reps))
            t0 = time.monotonic()
            try:
                row, raw = one_run(case, tcp, rep, a, tools, work,
                                   on_wait=lambda busy, p=p: p.say(
                                       "CPU busy (%.0f %%), waiting ... " % (100 * busy)))
            except (KeyboardInterrupt, run.Interrupted):
                p.end("interrupted")
                raise
            except Exception as e:  # one failed run must not lose the others
                msg = " ".join(str(e).split())[:300]
                tools.write("run failed: %s\n" % e)
                row, raw = {"case": case, "tcp_flows": tcp, "rep": rep,
                            "status": "error: " + msg}, None
                p.end("FAILED: " + msg)
            else:
                p.end("intact %d/%d, loss %.1f %% -> %.1f %%, recovered %d, overhead %.1f %%%s "
                      "(%.0f s)" % (row["frames_intact"], row["frames_sent"],
                                    100 * row["net_loss"], 100 * row["residual_loss"],
                                    row["recovered"], 100 * row["overhead"],
                                    competitor_text(row) if tcp else "",
                                    time.monotonic() - t0))
            rows[(case, tcp)].append(row)
            if out:
                run.append_csv(os.path.join(out, "recipes.csv"), row, COLUMNS)
                with open(os.path.join(out, "runs.jsonl"), "a") as f:
                    f.write(json.dumps(dict(case=case, tcp_flows=tcp, rep=rep,
                                            status=row["status"], **(raw or {}))) + "\n")
    return rows


EXTRA = [("video Mbit/s", lambda tx, rx: round(tx["bytes_sent"] * 8 / tx["seconds"] / 1e6, 2)),
         ("frames decoded", lambda tx, rx: "%.1f %%" % (100.0 * rx["frames_decoded"]
                                                       / max(1, tx["frames_sent"]))),
         ("keyframes sent", lambda tx, rx: tx["keyframes_sent"]),
         ("keyframe requests", lambda tx, rx: rx["keyframe_requests"]),
         ("retransmission round trip ms", lambda tx, rx: round(
             (rx["jitterbuffer"] or {}).get("rtx-rtt", 0) / 1e6, 1)),
         ("requests per retransmitted packet", lambda tx, rx: round(
             (rx["jitterbuffer"] or {}).get("rtx-per-packet", 0), 2)),
         ("media packets per frame", lambda tx, rx: rx.get("packets_per_frame_p50")),
         ("largest burst at the receiver", lambda tx, rx: rx.get("burst_all_max"))]


def from_runs(path):
    """Markdown table of more per-run figures (medians over the repetitions) from the
    runs.jsonl of an earlier --out: decoded frames (what avdec_h264 output-corrupt=false
    passed, intact or not), the sender's bit rate (RTP, repair included), keyframes, keyframe requests, the jitterbuffer's retransmission
    round trip and requests per retransmitted packet, packets per frame, bursts."""
    runs = {}
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            if d.get("status") == "ok":
                runs.setdefault((d["case"], d["tcp_flows"]), []).append(d)
    out = ["| case | TCP flows | runs | " + " | ".join(n for n, _f in EXTRA) + " |",
           "|---|---|---|" + "---|" * len(EXTRA)]
    for (case, tcp), ds in runs.items():
        cells = []
        for _name, f in EXTRA:
            v = [f(d["sender"], d["receiver"]) for d in ds]
            num = [float(str(x).rstrip(" %")) for x in v if x is not None]
            med = statistics.median(num) if num else None
            cells.append("—" if med is None else ("%.1f %%" % med if "%" in str(v[0])
                                                  else "%g" % med))
        out.append("| `%s` | %d | %d | %s |" % (case, tcp, len(ds), " | ".join(cells)))
    return "\n".join(out)


#: What issue 13's criterion is defined on: medians of 3 runs of 20 s.  Shorter
#: runs weigh the stream's start (its first keyframe, sent into a queue TCP
#: already fills) more.
CRITERION_REPS, CRITERION_DURATION = 3, 20.0


def criterion(rows, recommended):
    """[(text, passed)] for issue 13's criterion, or None if a case did not run."""
    intact = compare.median(rows, (recommended, 1), "intact")
    tcp = compare.median(rows, (recommended, 1), "tcp_mbps")
    if intact is None or tcp is None:
        return None
    out = [("%s, 1 TCP flow: frames intact %.1f %% (>= 97 %%)" % (recommended, 100 * intact),
            intact >= 0.97),
           ("%s, 1 TCP flow: TCP %.2f Mbit/s (>= 3)" % (recommended, tcp), tcp >= 3.0)]
    for case, tcp_flows in rows:
        loss = compare.median(rows, (case, tcp_flows), "residual_loss")
        if tcp_flows == 0 and case != "tbf" and recipe_of(case).paced \
                and loss is not None:
            out.append(("%s, no TCP: loss after repair %.2f %% (0)" % (case, 100 * loss),
                        loss == 0))
    return out


def competitor_text(row):
    """The run's competitor for the progress line: iperf3's rate, or the web-like flows'."""
    if row.get("tcp_mbps") not in (None, ""):
        return ", TCP %.2f Mbit/s" % row["tcp_mbps"]
    if row.get("web_mbps") not in (None, ""):
        return ", web %.2f Mbit/s (%s objects, completion p50 %s ms)" % (
            row["web_mbps"], row.get("web_objects"), row.get("web_fct_p50_ms"))
    return ""


def main():
    ap = compare.case_parser(__doc__, "1 repetition of 8 s")
    ap.set_defaults(duration=20.0)
    ap.add_argument("--cases", default=",".join(CASES),
                    help="comma-separated recipe names and tbf (default: %(default)s)")
    ap.add_argument("--cases-no-tcp", default=",".join(CASES_NO_TCP),
                    help="the cases without TCP (default: %(default)s)")
    ap.add_argument("--tcp", default="1,0", help="TCP flow counts (default: 1,0)")
    ap.add_argument("--tbf-factor", type=float, default=1.25)
    ap.add_argument("--web-flows", type=int, default=0, metavar="N",
                    help="the competitor of the runs with TCP: N users of web-like short "
                         "downloads (run.py --web-flows) instead of the iperf3 flow")
    ap.add_argument("--source", help="send-video --source (default: its test pattern)")
    ap.add_argument("--latency", type=int, help="receive-video --latency (default: the recipe's)")
    ap.add_argument("--no-keyframe-requests", action="store_true",
                    help="receive-video --no-keyframe-requests (no RTCP PLI)")
    ap.add_argument("--recommended", default="recommended",
                    help="the case the criterion is checked for (default: the recipe "
                         "'recommended' stands for)")
    ap.add_argument("--out", help="directory for recipes.csv, runs.jsonl and table.md")
    ap.add_argument("--capture", action="store_true",
                    help="with --out: every RTP packet to the receiver's port as it left sv "
                         "and as it reached rx (capture.py, kernel timestamps), in "
                         "OUT/captures/CASE-tcpN-repR-{sv,rx}.csv.gz; rtxloss.py reads them")
    ap.add_argument("--log", metavar="FILE", help="the tools' output (default: a new "
                    "/tmp/rtpburstpace-recipes-<date>-<time>.log)")
    ap.add_argument("--from-runs", metavar="FILE",
                    help="run nothing: more figures per case from an earlier run's runs.jsonl")
    a = ap.parse_args()
    if a.from_runs:
        print(from_runs(a.from_runs))
        return 0
    if a.quick:
        a.reps, a.duration = 1, 8.0
    if a.capture and not a.out:
        ap.error("--capture needs --out")
    a.tcp = [int(x) for x in a.tcp.split(",")]
    # "recommended" runs as the recipe it stands for (KeyError on an unknown one)
    # ("RECIPE@MS": that recipe with the receiver's latency fixed at MS)
    def recipe_names(text):
        return [c if c == "tbf" else recipe_of(c).name + c[len(split_case(c)[0]):]
                for c in text.split(",")]
    cases = recipe_names(a.cases)
    a.cases_no_tcp = recipe_names(a.cases_no_tcp) if a.cases_no_tcp else cases
    recommended = videorecipes.get(a.recommended).name
    ra = run.parse_args(a.runargs)
    if bool(ra.switch_at) != bool(ra.bottleneck_low):
        sys.exit("recipes.py: --switch-at and --bottleneck-low go together")
    why = run.testbed_unavailable(ra.plugin_path)
    if why:
        print("recipes.py: skipped: %s" % why)
        return 77
    a.peer_path = None
    if any(c != "tbf" and recipe_of(c).pacer == "rtpgccbwe" for c in cases + a.cases_no_tcp):
        # gccbwe-rtx: gst-plugins-rs's rtpgccbwe, built with cargo into a cache
        out = subprocess.run(["bash", os.path.join(HERE, "build-rtpgccbwe.sh")],
                             stdout=subprocess.PIPE, universal_newlines=True)
        if out.returncode != 0:
            print("recipes.py: skipped: gccbwe-rtx needs rtpgccbwe, which "
                  "tests/testbed/build-rtpgccbwe.sh could not build (exit %d)" % out.returncode)
            return 77
        a.peer_path = out.stdout.strip().splitlines()[-1]
    log = a.log or os.path.join(tempfile.gettempdir(), time.strftime(
        "rtpburstpace-recipes-%Y%m%d-%H%M%S.log"))
    print("recipes.py: %d runs of %g s; the tools' output in %s" % (
        a.reps * len(case_keys(cases, a)), a.duration, log), file=sys.stderr, flush=True)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for f in ("recipes.csv", "runs.jsonl"):
            if os.path.exists(os.path.join(a.out, f)):
                os.remove(os.path.join(a.out, f))
    work = tempfile.mkdtemp(prefix="rtpburstpace-recipes-")
    signal.signal(signal.SIGTERM, run.on_term)
    try:
        with open(log, "a", buffering=1) as tools:
            rows = run_all(cases, a, tools, work, a.out)
    except (KeyboardInterrupt, run.Interrupted):
        sys.exit("recipes.py: interrupted, testbed removed")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    keys = case_keys(cases, a)
    text = [compare.table(rows, keys, nice=True, show=SHOW, header=HEADER,
                          mode_name={c: name_of(c, a.tbf_factor) for c, _t in keys},
                          percent=PERCENT), ""]
    checks = criterion(rows, recommended)
    if a.reps < CRITERION_REPS or a.duration < CRITERION_DURATION:
        text.append("criterion: not evaluated (%d run(s) of %g s a case; it is defined on %d "
                    "of %g s)" % (a.reps, a.duration, CRITERION_REPS, CRITERION_DURATION))
    elif checks is None:
        text.append("criterion: not evaluated (%s with 1 TCP flow did not run)" % recommended)
    else:
        text += ["%s  %s" % ("PASS" if ok else "FAIL", t) for t, ok in checks]
    print("\n".join(text))
    if a.out:
        with open(os.path.join(a.out, "table.md"), "w") as f:
            f.write("\n".join(text) + "\n")
    failed = sum(1 for rs in rows.values() for r in rs if r.get("status") != "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
