#!/usr/bin/python3
"""One RTSP media's group (video, audio, FEC under one group-max-rate) on the testbed.

The server is examples/rtsp-server.py's (a real GstRTSPServer) in the video sender namespace
sv, listening on 10.0.1.2: --streams 2 H.264 streams (x264enc at --video-kbps, 640x360, 25 fps,
keyframe every 50 frames, rtph264pay mtu=1200), each paced by `rtpburstpace name=payK
group=rtsp group-max-rate=R`; Opus audio through `rtpburstpace pace=false` in the group; and
with --fec RxC (default 5x5) SMPTE ST 2022-1 FEC of each video stream (rtpst2022-1-fecenc
between payloader and element), its column and row packets two more streams of the media, each
through `rtpburstpace pace=false` in the group: every byte the media sends is counted in R.
The client is rtsp_group.Client of tests/senders (rtspsrc protocols=udp latency=200, UDP
client ports 5000-5019; avdec_h264 output-corrupt=false per video stream, opusdec for the
audio) in the receiver namespace rx.  One iperf3 TCP flow (-C cubic unless --cc says otherwise
after --) from st to rx shares the bottleneck (run.Testbed: 10 Mbit/s, 13-packet drop-tail on
the router r), or none.

Per run (--reps of each case in --cases, interleaved, --duration s of media each):
  audio_p99_ok    the element's own count for the audio (pay of the audio stream):
                  unpaced-late-pushes * 100 <= unpaced-pushes, i.e. at most 1 % of its pushes
                  left more than 1 ms after the packet reached the element (p99 <= 1 ms), as
                  tests/senders/rtsp_group_rate.py judges it; also unpaced-max-delay and the
                  same counts of the FEC members
  rx_peak_10ms    the most RTP bytes (UDP payloads: the RTP packets the elements count) of
                  all the media's streams together that reached rx in any 10 ms (sliding
                  window), after the first --skip s of the capture (the first frame of a stream
                  is paced by the server's synchronising sink, not by the rate:
                  docs/algorithm.md, "A shared rate"); against R x 10 ms (rx_peak_ratio); also
                  over the whole run (rx_peak_all_10ms), the share of fixed 10 ms bins above
                  R x 10 ms (rx_bins_over), and the peak of the video and audio streams alone,
                  without the FEC streams (rx_peak_nofec_10ms).  Arrival times: the kernel's receive timestamps
                  (SO_TIMESTAMPNS) of an AF_PACKET socket in rx with a BPF filter (UDP from
                  the server), taken as each IP packet comes in on rx's interface, after the
                  bottleneck and before the UDP socket; independent of the client's threads.
                  The client's own times (rtsp_group.Client, taken in Python as packets leave
                  its sockets, bunched by the interpreter) give rx_peak_python_10ms.  With
                  --probes also what the elements released in any 10 ms (each paced push at
                  the running time of its DTS plus the element's sink-latency, each
                  pass-through push when pushed: rtsp_group_rate.Releases),
                  released_peak_10ms.  With --capture-sv also what left sv (an outgoing
                  capture in sv, before the router): sv_peak_10ms, the same peak of the
                  packets as they left the server's namespace, and path_spread_p99_ms, how much
                  longer than the fastest packet of the run the 99th percentile took from sv
                  to rx (queueing and the namespaces' packet processing); and the video
                  elements' own lateness (video_late_slots: late-slots over slots of both,
                  video_max_lateness_ms; a slot whose time went by while the group's rate
                  held the push before it counts as late too)
  intact          per video stream, frames decoded intact by examples/receive-video's Chain
                  (every packet of the frame and of each reference frame back to the keyframe
                  arrived) over the packets the capture saw, among the frames whose first
                  packet arrived before the client stopped, over the element's frame count
                  read then (stats "frames"); intact_fec: the same if an ideal ST 2022-1
                  decoder (no time limit) had repaired every packet that the FEC packets that
                  arrived can repair, row and column, repeatedly -- the client has no FEC
                  decoder (rtspsrc does not join the FEC streams to the media); decoded: what
                  the client's avdec_h264 output-corrupt=false put out, which conceals lost
                  slices without marking the frame (an upper bound, not intact frames)
  loss            per stream (video, audio, each FEC stream), from the RTP sequence numbers
                  the capture saw (extended, from the first to the last); loss_video_after_fec
                  with that ideal decoder
  tcp_mbps        iperf3's received rate over the media's run (the first 1.5 s after the
                  warm-up left out), tcp_retrans; bottleneck_drops from the router's qdisc
Writes --out DIR/runs.csv (a row per run), runs.jsonl (element stats and client counts per
run), capture-<case>-<rep>.csv.gz (every packet the capture saw: arrival ns, port, payload
type, seq, RTP timestamp, SSRC, bytes, marker, the first 16 bytes of the payload),
server-/client-<case>-<rep>.json.gz (the server's element stats and launch line, the client's
counts and Python arrival times), tools.log (what the tools printed) and table.md (medians per
case); --reanalyse computes runs.csv and table.md again from those files.  Needs root and Debian's /usr/bin/python3; run it under the
testbed lock, alone on the machine:
  flock /tmp/testbed.lock /usr/bin/python3 tests/testbed/group_rtsp.py --out DIR
  ... group_rtsp.py --fec none --cases tcp1 --reps 1 --duration 8 --out /tmp/g   # quick
  ... group_rtsp.py --out DIR -- --cc bbr         # run.py's network options after --
  /usr/bin/python3 tests/testbed/group_rtsp.py --reanalyse --out DIR
The subcommands serve and client, and capture.py, are what it starts in the namespaces.
"""
import argparse
import csv
import gzip
import json
import os
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SENDERS = os.path.join(ROOT, "tests", "senders")
sys.path.insert(0, HERE)
sys.path.append(SENDERS)
import capture  # noqa: E402
# exit 77 without PyGObject, as the senders' tests do
from rtsp_group_rate import peak_window  # noqa: E402
from rtsp_loopback import load_example  # noqa: E402

SERVER_ADDR = "10.0.1.2"
RTSP_PORT = 8554
CLIENT_PORTS = "5000-5019"
WINDOW_NS = 10000000
DEFAULT_SOURCE = ("videotestsrc is-live=true pattern=smpte horizontal-speed=4 ! "
                  "video/x-raw,width=640,height=360,framerate=25/1 ! "
                  "x264enc tune=zerolatency speed-preset=ultrafast bitrate=%d key-int-max=50")
SETUP_S = 1.5       # RTSP set-up and the first frames: left out of the TCP figures


def structure_dict(s):
    out = {}
    for i in range(s.n_fields()):
        name = s.nth_field_name(i)
        v = s.get_value(name)
        out[name] = v if isinstance(v, (int, float, str, bool)) or v is None else str(v)
    return out


def layout(streams, audio, fec):
    """[(pay index, kind, payload type)] of the media: video, audio, FEC (column, row)."""
    ex = load_example()
    out = [(k, "video%d" % k, 96 + k) for k in range(streams)]
    if audio:
        out.append((streams, "audio", 96 + streams))
    if fec:
        n = len(out)
        for k in range(streams):
            for kind in ("col", "row"):
                out.append((n, "fec%d-%s" % (k, kind), ex.fec_pt(streams, audio, k)))
                n += 1
    return out


# ---------------------------------------------------------------- serve (in sv)

def serve(a):
    sys.path.insert(0, SENDERS)
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import GLib, Gst
    Gst.init(None)
    from rtsp_group_rate import Releases
    ex = load_example()
    fec = ex.parse_fec(a.fec)
    lay = layout(a.streams, True, fec)
    source = DEFAULT_SOURCE % a.video_kbps
    server, factory = ex.make_server(a.port, "/video", source, a.pace, a.streams, True,
                                     a.group_max_rate, a.address, fec, a.fec_paced)
    launch = ex.launch_line(source, a.pace, a.streams, True, a.group_max_rate, fec,
                            a.fec_paced)
    elements, releases, frames = {}, Releases(), {}

    def watch_frames(element, k):
        last = [None]

        def on_push(_pad, info):
            if info.type & Gst.PadProbeType.BUFFER_LIST:
                buf = info.get_buffer_list().get(0)
            else:
                buf = info.get_buffer()
            if buf.pts != last[0] and buf.get_size() >= 12:
                last[0] = buf.pts
                rtptime = struct.unpack("!I", buf.extract_dup(4, 4))[0]
                frames[k].append((time.monotonic_ns(), rtptime))
            return Gst.PadProbeReturn.OK
        frames[k] = []
        element.get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, on_push)

    def on_configure(_f, media):
        bin_ = media.get_element()
        for k, kind, _pt in lay:
            e = bin_.get_by_name("pay%d" % k)
            elements[k] = e
            if a.probes:
                paced = kind.startswith("video") or (kind.startswith("fec") and
                                                     a.fec_paced)
                releases.watch(e, k, not paced)
                if kind.startswith("video"):
                    watch_frames(e, k)
    factory.connect("media-configure", on_configure)

    def dump():
        with releases.lock:
            pushes = list(releases.pushes)
        out = {"launch": launch, "layout": lay, "group_max_rate": a.group_max_rate,
               "fec": a.fec, "fec_paced": a.fec_paced,
               "stats": {k: structure_dict(e.get_property("stats"))
                         for k, e in elements.items()},
               "frames_pushed_ns": {k: list(v) for k, v in frames.items()},
               "releases": pushes}
        with open(a.out, "w") as f:
            json.dump(out, f)

    loop = GLib.MainLoop()

    def on_stdin(_fd, _cond):
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            loop.quit()
            return False
        if line.strip() == "stats":
            dump()
            print("stats-done", flush=True)
        return True
    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_stdin)
    print("ready rtsp://%s:%d/video %s" % (a.address, server.get_bound_port(), launch),
          flush=True)
    loop.run()
    return 0


# ---------------------------------------------------------------- client (in rx)

def client(a):
    sys.path.insert(0, SENDERS)
    import rtsp_loopback
    from rtsp_loopback import Gst
    Gst.init(None)
    from rtsp_group import Client
    lay = [tuple(x) for x in json.loads(a.layout)]
    pts = sorted({pt for _k, _kind, pt in lay})
    decoders = {}
    for _k, kind, pt in lay:
        if kind == "audio":
            decoders[pt] = "rtpopusdepay ! opusdec"
        elif kind.startswith("fec"):
            decoders[pt] = "identity"
    video_pts = [pt for _k, kind, pt in lay if kind.startswith("video")]

    class TimedClient(Client):
        """rtsp_group.Client, and when each video frame came out of the decoder."""
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            self.frame_times = {pt: [] for pt in video_pts}

        def on_frame(self, sink, buf, pad, pt):
            super().on_frame(sink, buf, pad, pt)
            if pt in self.frame_times:
                self.frame_times[pt].append(time.monotonic_ns())

    c = TimedClient(a.url, pts=pts, decoders=decoders, with_size=True)
    c.pipeline.get_by_name("src").set_property("port-range", CLIENT_PORTS)
    out = {}

    def before_stop():
        out["stop_ns"] = time.monotonic_ns()
        out["stop_realtime_ns"] = time.time_ns()
        print("stopping", flush=True)
        sys.stdin.readline()      # the orchestrator reads the server's stats meanwhile
    print("ready", flush=True)
    errors = rtsp_loopback.run_client(c.pipeline, a.seconds, before_stop)
    with c.lock:
        arrivals = list(c.arrivals)
    out.update(errors=errors, frames_decoded={str(k): v for k, v in c.frames.items()},
               frame_times_ns={str(k): v for k, v in c.frame_times.items()},
               packets={str(k): len(v) for k, v in c.seqs.items()},
               python_arrivals=arrivals)
    with open(a.out, "w") as f:
        json.dump(out, f)
    return 1 if errors else 0


# ---------------------------------------------------------------- analysis

def bins(events, window=WINDOW_NS):
    """Bytes per fixed window from the first event to the last."""
    if not events:
        return []
    t0 = events[0][0]
    out = [0] * ((events[-1][0] - t0) // window + 1)
    for t, size in events:
        out[(t - t0) // window] += size
    return out


def load_receive_video():
    """examples/receive-video as a module (its Chain, Unwrapper, h264_nals)."""
    from importlib.machinery import SourceFileLoader
    import importlib.util
    path = os.path.join(ROOT, "examples", "receive-video")
    loader = SourceFileLoader("receive_video", path)
    spec = importlib.util.spec_from_loader("receive_video", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class _Packet:
    """What receive-video's h264_nals reads of a buffer: an RTP header and the
    first bytes of the payload the capture kept."""

    def __init__(self, head):
        self.b = b"\x80" + bytes(11) + head

    def get_size(self):
        return len(self.b)

    def extract_dup(self, off, size):
        return self.b[off:off + size]


def fec_groups(fec_rows, ref_of):
    """[(set of extended media seqs)] each ST 2022-1 FEC packet protects: SNBase +
    j * Offset for j < NA (FEC header after the RTP header: SNBase low 16 bits at 0,
    Offset at 13, NA at 14); ref_of(arrival) is an extended media seq near it, to
    place SNBase among the extended numbers."""
    out = []
    for r in fec_rows:
        head = r[8]
        if len(head) < 16:
            continue
        snbase, offset, na = struct.unpack_from("!H", head, 0)[0], head[13], head[14]
        ref = ref_of(r[0])
        if ref is None or not offset or not na:
            continue
        base = ref + ((snbase - (ref & 0xFFFF) + 0x8000) & 0xFFFF) - 0x8000
        out.append({base + j * offset for j in range(na)})
    return out


def video_figures(rv, media_rows, fec_rows, frames_sent, cut_ns):
    """Per video stream: (lost, expected, lost after an ideal FEC decoder, frames sent,
    of them intact as received, intact after that decoder).  Frames intact:
    receive-video's Chain (whole, and every reference frame back to the keyframe whole)
    over the packets the capture saw, in sequence order, counted among the frames whose
    first packet arrived before cut_ns (CLOCK_REALTIME: when the client stopped, and the
    element's frame count was read); frames sent: that count (at least the frames that
    arrived)."""
    unwrap = rv.Unwrapper()
    pk = {}
    arrivals = []
    for r in sorted(media_rows):
        ext = unwrap(r[3])
        pk.setdefault(ext, r)
        arrivals.append((r[0], ext))
    if not pk:
        return None
    lo, hi = min(pk), max(pk)
    missing = set(range(lo, hi + 1)) - set(pk)
    import bisect
    times = [t for t, _e in arrivals]

    def ref_of(t):
        i = bisect.bisect_right(times, t) - 1
        return arrivals[max(i, 0)][1]
    groups = fec_groups(fec_rows, ref_of)
    recovered = set()
    changed = True
    while changed:
        changed = False
        for g in groups:
            miss = [x for x in g if x in missing and x not in recovered]
            if len(miss) == 1 and all(lo <= x <= hi for x in g):
                recovered.add(miss[0])
                changed = True

    def verdicts(with_fec):
        """{RTP timestamp: intact} by Chain (given the RTP timestamp as the frame's
        PTS, which Chain only records)."""
        chain = rv.Chain(set())
        prev = None
        for ext in range(lo, hi + 1):
            if ext in pk:
                r = pk[ext]
                ts, marker, nals = r[4], r[7], rv.h264_nals(_Packet(r[8]))
            elif with_fec and ext in recovered:
                # a repaired packet: the frame of the packet before it, or of the
                # next one when that one ended its frame (marker)
                nxt = next((pk[e] for e in range(ext + 1, hi + 1) if e in pk), None)
                ts = nxt[4] if prev is None or prev[1] else prev[0]
                marker, nals = 0, []
            else:
                continue
            chain.packet(ext, ts, ts, nals)
            prev = (ts, marker)
        if chain.cur is not None:
            chain.finish()
        return dict(zip(chain.pts, chain.ok))
    first = {}
    for r in media_rows:
        first[r[4]] = min(first.get(r[4], r[0]), r[0])
    frames = [ts for ts, t in first.items() if t <= cut_ns]
    v0, v1 = verdicts(False), verdicts(True)
    intact0 = sum(1 for ts in frames if v0.get(ts))
    intact1 = sum(1 for ts in frames if v1.get(ts))
    return (len(missing), hi - lo + 1, len(missing - recovered),
            max(frames_sent, len(frames)), intact0, intact1)


def media_rows(cap_rows):
    """The RTP packets of a capture: to the client's even ports, not RTCP (payload types
    72-76)."""
    return [r for r in cap_rows if r[1] % 2 == 0 and not 72 <= r[2] <= 76]


def path_figures(sv_rows, rx_rows, skip_s):
    """sv_peak_10ms and path_spread_p99_ms (see the top) from the packets as they left sv
    and as they reached rx; the first skip_s s of sv's capture left out of both, as
    analyse() leaves them out of the receiver's peak."""
    sv = media_rows(sv_rows)
    if not sv:
        return {}
    t_skip = min(r[0] for r in sv) + int(skip_s * 1e9)
    late = [(r[0], r[6]) for r in sv if r[0] >= t_skip]
    row = {"sv_peak_10ms": peak_window(late)}
    left = {(r[1], r[3]): r[0] for r in sv if r[0] >= t_skip}
    delays = sorted(r[0] - left[(r[1], r[3])] for r in media_rows(rx_rows)
                    if (r[1], r[3]) in left)
    if delays:
        row["path_spread_p99_ms"] = round(
            (delays[int(0.99 * (len(delays) - 1))] - delays[0]) / 1e6, 3)
    return row


def analyse(server, cli, cap_rows, cap_drops, rate, skip_s, fec, sv_rows=None):
    """The run's figures (see the top) from the server's dump, the client's and the
    capture's rows (and the rows of sv's capture, if there is one)."""
    rv = load_receive_video()
    lay = [tuple(x) for x in server["layout"]]
    stats = {int(k): v for k, v in server["stats"].items()}
    budget = rate * WINDOW_NS // 8 // 1000000000
    row = {"budget_10ms": budget}
    # the client's ports: stream i of the SDP on 5000 + 2 i (RTP), + 1 (RTCP)
    rtp = media_rows(cap_rows)
    row["rtcp_packets"] = len(cap_rows) - len(rtp)
    by_port = {}
    for r in rtp:
        by_port.setdefault(r[1], []).append(r)
    for k, kind, pt in lay:
        port = 5000 + 2 * k
        pk = by_port.get(port, [])
        if pk and any(r[2] != pt for r in pk):
            row["status_note"] = "port %d carried payload types other than %d" % (port, pt)
        # extended sequence numbers in arrival order (the capture may see two packets
        # of a stream in the other order): expected from the first to the last
        unwrap, exts = rv.Unwrapper(), set()
        for r in sorted(pk):
            exts.add(unwrap(r[3]))
        expected = max(exts) - min(exts) + 1 if exts else 0
        row["pkts_" + kind] = len(pk)
        row["loss_" + kind] = round(1 - len(exts) / expected, 4) if expected else ""
    media = sorted((r[0], r[6]) for r in rtp)
    if media:
        t_skip = media[0][0] + int(skip_s * 1e9)
        late = [e for e in media if e[0] >= t_skip]
        row["rx_peak_10ms"] = peak_window(late)
        row["rx_peak_all_10ms"] = peak_window(media)
        b = bins(late)
        row["rx_bins_over"] = round(sum(1 for x in b if x > budget) / len(b), 4) if b else ""
        row["rx_bin_p99"] = sorted(b)[int(0.99 * (len(b) - 1))] if b else ""
        span = (media[-1][0] - media[0][0]) / 1e9
        row["rtp_mbps"] = round(sum(s for _t, s in media) * 8 / span / 1e6, 3) if span else ""
        row["rx_peak_ratio"] = round(row["rx_peak_10ms"] / budget, 3)
        # the same without the FEC streams: the paced video and the audio only
        fec_ports = {5000 + 2 * k for k, kind, _pt in lay if kind.startswith("fec")}
        if fec_ports:
            nofec = sorted((r[0], r[6]) for r in rtp if r[1] not in fec_ports
                           and r[0] >= t_skip)
            row["rx_peak_nofec_10ms"] = peak_window(nofec)
    row["capture_drops"] = cap_drops
    if sv_rows is not None:
        row.update(path_figures(sv_rows, cap_rows, skip_s))
        if "sv_peak_10ms" in row:
            row["sv_peak_ratio"] = round(row["sv_peak_10ms"] / budget, 3)
    py = sorted((t, s) for t, s in cli.get("python_arrivals", []))
    if py:
        py = [e for e in py if e[0] >= py[0][0] + int(skip_s * 1e9)]
        row["rx_peak_python_10ms"] = peak_window(py)
    rel = sorted((t, s) for t, s, _k in server["releases"])
    if rel:
        rel = [e for e in rel if e[0] >= rel[0][0] + int(skip_s * 1e9)]
        row["released_peak_10ms"] = peak_window(rel)
    # the pass-through members: audio, FEC
    for k, kind, _pt in lay:
        s = stats.get(k, {})
        if kind == "audio" or kind.startswith("fec"):
            pushes, late_p = s.get("unpaced-pushes", 0), s.get("unpaced-late-pushes", 0)
            row["%s_pushes" % kind] = pushes
            row["%s_late_pushes" % kind] = late_p
            row["%s_max_delay_ms" % kind] = round(s.get("unpaced-max-delay", 0) / 1e6, 3)
            if kind == "audio":
                row["audio_p99_ok"] = bool(pushes > 100 and late_p * 100 <= pushes)
                row["audio_rate_waits"] = s.get("group-rate-waits", 0)
        else:
            row["%s_rate_waits" % kind] = s.get("group-rate-waits", 0)
            row["%s_rate_max_delay_ms" % kind] = round(s.get("group-rate-max-delay", 0) / 1e6, 3)
        row["group_members"] = s.get("group-members", row.get("group_members"))
    # the video elements' lateness as they count it (a slot the group's rate held back counts)
    videos = [stats.get(k, {}) for k, kind, _pt in lay if kind.startswith("video")]
    slots = sum(v.get("slots", 0) for v in videos)
    if slots:
        row["video_late_slots"] = round(sum(v.get("late-slots", 0) for v in videos) / slots, 4)
        row["video_max_lateness_ms"] = round(max(v.get("max-lateness", 0)
                                                 for v in videos) / 1e6, 3)
    # frames intact: by Chain over what reached rx, of the frames each video element
    # had when the client stopped; and what the client's decoder put out (it conceals
    # damage without marking it: an upper bound)
    tot = {"sent": 0, "ok": 0, "ok_fec": 0, "dec": 0, "lost": 0, "exp": 0, "left": 0}
    for k, kind, pt in lay:
        if not kind.startswith("video"):
            continue
        fec_rows = []
        for k2, kind2, _pt2 in lay:
            if kind2.startswith("fec%s-" % kind[len("video"):]):
                fec_rows += by_port.get(5000 + 2 * k2, [])
        v = video_figures(rv, by_port.get(5000 + 2 * k, []), sorted(fec_rows),
                          stats.get(k, {}).get("frames", 0), cli["stop_realtime_ns"])
        if v is None:
            continue
        lost, exp, left, sent, ok, ok_fec = v
        dec = min(cli["frames_decoded"].get(str(pt), 0), sent)
        row["frames_sent_" + kind] = sent
        row["intact_" + kind] = round(ok / sent, 4) if sent else ""
        row["decoded_" + kind] = round(dec / sent, 4) if sent else ""
        if fec:
            row["loss_after_fec_" + kind] = round(left / exp, 4) if exp else ""
            row["intact_fec_" + kind] = round(ok_fec / sent, 4) if sent else ""
        for key, val in (("sent", sent), ("ok", ok), ("ok_fec", ok_fec), ("dec", dec),
                         ("lost", lost), ("exp", exp), ("left", left)):
            tot[key] += val
    if tot["sent"]:
        row["intact"] = round(tot["ok"] / tot["sent"], 4)
        row["decoded"] = round(tot["dec"] / tot["sent"], 4)
        row["loss_video"] = round(tot["lost"] / tot["exp"], 4) if tot["exp"] else ""
        if fec:
            row["intact_fec"] = round(tot["ok_fec"] / tot["sent"], 4)
            row["loss_video_after_fec"] = round(tot["left"] / tot["exp"], 4) \
                if tot["exp"] else ""
    return row


# ---------------------------------------------------------------- one run, the experiment

def split_case(case):
    """(TCP flows, the video elements' extra properties) of a case
    "tcpN[/PROPERTY=VALUE...]", e.g. "tcp0/realtime-priority=10"."""
    name, *props = case.split("/")
    if name not in ("tcp0", "tcp1") or not all("=" in p for p in props):
        raise ValueError("case %r: expected tcp0 or tcp1, then /PROPERTY=VALUE ..." % case)
    return int(name[3:]), " ".join(props)


def run_file(outdir, kind, case, rep):
    """The raw file of run (case, rep) in outdir: kind "capture" (at rx) or "capture-sv"
    (.csv.gz), "server" or "client" (.json.gz); a "/" of the case is "+" in the name."""
    ext = "csv.gz" if kind.startswith("capture") else "json.gz"
    return os.path.join(outdir, "%s-%s-%d.%s" % (kind, case.replace("/", "+"), rep, ext))


def one_run(case, rep, a, tools, outdir, on_wait=None):
    import run
    tcp, pace = split_case(case)
    args = run.parse_args(["--tcp", str(tcp), "--duration", str(a.duration)] + a.runargs)
    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "case": case, "rep": rep,
           "tcp_flows": tcp, "cc": args.cc if tcp else "", "fec": a.fec, "fec_paced": a.fec_paced,
           "video_kbps": a.video_kbps, "streams": a.streams,
           "group_max_rate": a.group_max_rate, "duration_s": a.duration}
    if args.wait_idle > 0:
        row["waited_idle_s"] = round(run.wait_idle(timeout=args.wait_idle, on_wait=on_wait), 1)
    tools.write("==== %s group_rtsp.py: %s, rep %d, namespaces %s-*\n" % (
        row["time"], case, rep, args.prefix))
    work = tempfile.mkdtemp(prefix="group-rtsp-")
    env = dict(os.environ, GST_PLUGIN_PATH=args.plugin_path)
    me = os.path.abspath(__file__)
    srv_json, cli_json = os.path.join(work, "server.json"), os.path.join(work, "client.json")
    cap_path = run_file(outdir, "capture", case, rep)
    lay = layout(a.streams, True, load_example().parse_fec(a.fec))
    with run.Testbed(args, tools) as bed:
        row.update(bed.path)
        if bed.skipped:
            raise RuntimeError("this path needs what the machine lacks: " +
                               ", ".join(bed.skipped))
        cap = bed.start(bed.rx, [run.PY, capture.__file__, "--src", SERVER_ADDR, "--out",
                                 cap_path], stdout=subprocess.PIPE, stderr=tools)
        if not run.wait_line(cap, "ready", 10):
            raise RuntimeError("capture did not start")
        caps = [cap]
        if a.capture_sv:
            caps.append(bed.start(bed.sv, [run.PY, capture.__file__, "--src", SERVER_ADDR,
                                           "--outgoing", "--out",
                                           run_file(outdir, "capture-sv", case, rep)],
                                  stdout=subprocess.PIPE, stderr=tools))
            if not run.wait_line(caps[-1], "ready", 10):
                raise RuntimeError("capture in sv did not start")
        srv = bed.start(bed.sv, [run.PY, me, "serve", "--address", SERVER_ADDR, "--port",
                                 str(RTSP_PORT), "--out", srv_json, "--streams",
                                 str(a.streams), "--video-kbps", str(a.video_kbps),
                                 "--group-max-rate", str(a.group_max_rate), "--fec",
                                 a.fec or "none", "--pace", pace] +
                                (["--probes"] if a.probes else []) +
                                (["--fec-paced"] if a.fec_paced else []),
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=tools, env=env)
        if not run.wait_line(srv, "ready", 30):
            raise RuntimeError("server did not start")
        cross = bed.cross_traffic(work, a.duration - SETUP_S - 0.5, args.warmup + SETUP_S)
        cross.before_video()
        q0, cpu0 = bed.qdisc_stats(), run.cpu_times()
        cli = bed.start(bed.rx, [run.PY, me, "client", "--url", "rtsp://%s:%d/video" % (
            SERVER_ADDR, RTSP_PORT), "--seconds", str(a.duration), "--out", cli_json,
            "--layout", json.dumps(lay)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=tools, env=env)
        cross.video_started()
        if not run.wait_line(cli, "stopping", a.duration + 60):
            raise RuntimeError("client did not finish (see tools.log)")
        srv.stdin.write("stats\n")
        srv.stdin.flush()
        if not run.wait_line(srv, "stats-done", 30):
            raise RuntimeError("server did not write its stats")
        cli.stdin.write("go\n")
        cli.stdin.flush()
        cli.wait(timeout=60)
        row["cpu_busy"], row["cpu_steal"] = run.cpu_busy_since(cpu0)
        q1 = bed.qdisc_stats()
        time.sleep(0.5)
        srv.stdin.write("quit\n")
        srv.stdin.flush()
        srv.wait(timeout=30)
        for c in caps:
            c.send_signal(signal.SIGTERM)
        for c in caps:
            c.wait(timeout=60)
        row.update(cross.finish(timeout=args.warmup + a.duration + 30))
    with open(srv_json) as f:
        server = json.load(f)
    with open(cli_json) as f:
        client_out = json.load(f)
    for name, obj in (("server", server), ("client", client_out)):
        with gzip.open(run_file(outdir, name, case, rep), "wt") as f:
            json.dump(obj, f)
    if client_out.get("errors"):
        raise RuntimeError("client error: %s" % client_out["errors"][0])
    row.update(run.qdisc_drops(q0, q1, "bursty"))
    row["status"] = "ok"
    row.update(analyse_files(outdir, case, rep, a))
    detail = {"row": row, "launch": server["launch"], "layout": server["layout"],
              "stats": server["stats"], "client_frames_decoded": client_out["frames_decoded"],
              "client_packets": client_out["packets"]}
    import shutil
    shutil.rmtree(work, ignore_errors=True)
    return row, detail


TABLE = [("case", "case"), ("tcp_mbps", "TCP Mbit/s"), ("rtp_mbps", "RTP Mbit/s at rx"),
         ("audio_p99_ok", "audio p99 <= 1 ms"), ("audio_late_pushes", "audio pushes > 1 ms"),
         ("audio_pushes", "audio pushes"), ("audio_max_delay_ms", "audio max delay ms"),
         ("rx_peak_10ms", "rx 10 ms peak B"), ("rx_peak_ratio", "peak / (rate x 10 ms)"),
         ("sv_peak_10ms", "sv 10 ms peak B"), ("sv_peak_ratio", "sv peak / (rate x 10 ms)"),
         ("path_spread_p99_ms", "sv to rx p99 - min ms"),
         ("video_late_slots", "video late slots"),
         ("video_max_lateness_ms", "video max lateness ms"),
         ("rx_bins_over", "10 ms bins over"),
         ("rx_peak_nofec_10ms", "rx 10 ms peak B without FEC"), ("released_peak_10ms", "released 10 ms peak B"),
         ("intact", "frames intact"), ("intact_fec", "intact, ideal FEC"),
         ("decoded", "frames out of decoder"),
         ("loss_video0", "loss video0"), ("loss_video1", "loss video1"),
         ("loss_audio", "loss audio"), ("loss_fec0-col", "loss fec0 col"),
         ("loss_fec0-row", "loss fec0 row"), ("loss_fec1-col", "loss fec1 col"),
         ("loss_fec1-row", "loss fec1 row"), ("loss_video_after_fec", "video loss, ideal FEC"),
         ("bottleneck_drops", "bottleneck drops")]


def median_table(rows, cases, ranges=False):
    """Medians per case of the TABLE columns the rows have; with @ranges each cell also
    gives the smallest and the largest value."""
    cols = [(k, t) for k, t in TABLE if any(k in r for r in rows) or k == "case"]
    lines = ["| " + " | ".join(t for _k, t in cols) + " |",
             "|" + "---|" * len(cols)]
    for case in cases:
        rs = [r for r in rows if r["case"] == case and r.get("status") == "ok"]
        if not rs:
            continue
        cells = []
        for k, _t in cols:
            if k == "case":
                cells.append("%s (%d runs)" % (case, len(rs)))
            elif k == "audio_p99_ok":
                cells.append("%d of %d" % (sum(1 for r in rs if r.get(k)), len(rs)))
            else:
                v = [r[k] for r in rs if r.get(k) not in (None, "")]
                if not v:
                    cells.append("—")
                    continue
                share = k.startswith(("loss", "intact", "decoded", "rx_bins", "video_late"))

                def cell(x, share=share):
                    return ("%.1f %%" % (100 * x)) if share else ("%g" % round(x, 3))
                text = cell(statistics.median(v))
                if ranges and len(v) > 1:
                    text += " (%s–%s)" % (cell(min(v)), cell(max(v)))
                cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def analyse_files(outdir, case, rep, a):
    """The figures of run (case, rep) from its raw files in outdir."""
    with gzip.open(run_file(outdir, "server", case, rep), "rt") as f:
        server = json.load(f)
    with gzip.open(run_file(outdir, "client", case, rep), "rt") as f:
        client_out = json.load(f)
    cap_rows, cap_drops = capture.read(run_file(outdir, "capture", case, rep))
    sv_rows, sv_path = None, run_file(outdir, "capture-sv", case, rep)
    if os.path.exists(sv_path):
        sv_rows, sv_drops = capture.read(sv_path)
        cap_drops += sv_drops
    return analyse(server, client_out, cap_rows, cap_drops, server["group_max_rate"],
                   a.skip, bool(server.get("fec")), sv_rows)


def reanalyse(a):
    """runs.csv and table.md again from the raw files of --out (runs.csv's rows give the
    runs and what the testbed measured: TCP, qdisc drops)."""
    with open(os.path.join(a.out, "runs.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
        if r.get("status") != "ok":
            continue
        fig = analyse_files(a.out, r["case"], int(r["rep"]), a)
        r.update({k: ("" if v is None else v) for k, v in fig.items()})
    for r in rows:
        numeric(r)
    write_results(a.out, rows, cases)
    return 0


def numeric(row):
    """A runs.csv row's numbers and booleans back from their text."""
    for k, v in list(row.items()):
        try:
            row[k] = int(v) if str(v).lstrip("-").isdigit() else float(v)
        except (TypeError, ValueError):
            row[k] = {"True": True, "False": False}.get(v, v)
    return row


def tables(dirs):
    """One table of medians (smallest-largest) over the runs of several --out directories:
    the runs of a directory named NAME-N (or NAME) are the cases NAME/CASE, so that blocks
    made one after another (e.g. the element before and after a change, interleaved) are
    counted together."""
    rows, cases = [], []
    for d in dirs:
        name = os.path.basename(os.path.normpath(d))
        head, _sep, tail = name.rpartition("-")
        name = head if tail.isdigit() and head else name
        with open(os.path.join(d, "runs.csv"), newline="") as f:
            for r in csv.DictReader(f):
                r = numeric(r)
                r["case"] = "%s/%s" % (name, r["case"])
                if r["case"] not in cases:
                    cases.append(r["case"])
                rows.append(r)
    print(median_table(rows, sorted(cases, key=lambda c: (c.split("/", 1)[1], c)), True))
    return 0


def write_results(outdir, rows, cases):
    cols = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    with open(os.path.join(outdir, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        w.writerows(rows)
    table = median_table(rows, cases)
    with open(os.path.join(outdir, "table.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def experiment(a):
    import run
    if os.geteuid() != 0:
        print("group_rtsp.py: needs root (network namespaces)", file=sys.stderr)
        return 77
    why = run.testbed_unavailable(run.parse_args(a.runargs).plugin_path)
    if why:
        print("group_rtsp.py: skipped: " + why, file=sys.stderr)
        return 77
    os.makedirs(a.out, exist_ok=True)
    signal.signal(signal.SIGTERM, run.on_term)
    cases = a.cases.split(",")
    for case in cases:
        try:
            split_case(case)
        except ValueError as e:
            print("group_rtsp.py: %s" % e, file=sys.stderr)
            return 2
    rows = []
    with open(os.path.join(a.out, "tools.log"), "a", buffering=1) as tools:
        for rep in range(a.reps):
            for case in cases:
                try:
                    row, detail = one_run(case, rep, a, tools, a.out)
                except (run.Interrupted, KeyboardInterrupt):
                    print("group_rtsp.py: interrupted, testbed removed", file=sys.stderr)
                    return 1
                except Exception as e:      # noqa: BLE001  (recorded, next run)
                    row = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "case": case,
                           "rep": rep, "status": "error: %s" % e}
                    detail = {"row": row}
                    tools.write("run failed: %s\n" % e)
                rows.append(row)
                with open(os.path.join(a.out, "runs.jsonl"), "a") as f:
                    f.write(json.dumps(detail) + "\n")
                print("%s rep %d: %s" % (case, rep, " ".join(
                    "%s=%s" % (k, row.get(k, "")) for k in (
                        "status", "tcp_mbps", "audio_p99_ok", "audio_late_pushes",
                        "audio_pushes", "rx_peak_10ms", "budget_10ms", "released_peak_10ms",
                        "intact", "loss_video0", "loss_video1", "loss_audio", "rtp_mbps",
                        "bottleneck_drops", "capture_drops"))), file=sys.stderr, flush=True)
    write_results(a.out, rows, cases)
    return 0 if all(r.get("status") == "ok" for r in rows) else 1


def media_options(p):
    p.add_argument("--streams", type=int, default=2, help="video streams (default 2)")
    p.add_argument("--video-kbps", type=int, default=1500,
                   help="x264enc bitrate of each video stream (default 1500)")
    p.add_argument("--group-max-rate", type=int, default=6000000,
                   help="the group's rate, bit/s of RTP packets (default 6000000)")
    p.add_argument("--fec", default="5x5",
                   help="ST 2022-1 FEC rows x columns of each video stream, or none")
    p.add_argument("--fec-paced", action="store_true",
                   help="the FEC streams' elements pace them (default: pass-through)")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    runargs = []
    if "--" in argv:
        runargs, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    if argv and argv[0] in ("serve", "client"):
        p = argparse.ArgumentParser(prog="group_rtsp.py " + argv[0])
        p.add_argument("--out", required=True)
        if argv[0] == "serve":
            media_options(p)
            p.add_argument("--address", default=SERVER_ADDR)
            p.add_argument("--port", type=int, default=RTSP_PORT)
            p.add_argument("--probes", action="store_true")
            p.add_argument("--pace", default="",
                           help="more properties of the video streams' elements")
        elif argv[0] == "client":
            p.add_argument("--url", required=True)
            p.add_argument("--seconds", type=float, default=20.0)
            p.add_argument("--layout", required=True)
        a = p.parse_args(argv[1:])
        if argv[0] == "serve":
            a.fec = "" if a.fec == "none" else a.fec
        return {"serve": serve, "client": client}[argv[0]](a)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    media_options(ap)
    ap.add_argument("--cases", default="tcp1,tcp0",
                    help="tcp1 (one iperf3 flow), tcp0 (none), each optionally followed by "
                         "/PROPERTY=VALUE ... of the video streams' elements (e.g. "
                         "tcp0/realtime-priority=10); default %(default)s")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--probes", action="store_true",
                    help="Python pad probes on the server's elements: what they released "
                         "in any 10 ms (released_peak_10ms); they run in the elements' "
                         "threads and take the interpreter's lock, so they are off by "
                         "default")
    ap.add_argument("--capture-sv", action="store_true",
                    help="capture the packets as they leave sv too (capture-sv-*.csv.gz): "
                         "sv_peak_10ms, path_spread_p99_ms")
    ap.add_argument("--duration", type=float, default=20.0, help="media seconds per run")
    ap.add_argument("--skip", type=float, default=0.5,
                    help="seconds after the first RTP packet left out of the 10 ms peak")
    ap.add_argument("--out", default="/tmp/group-rtsp")
    ap.add_argument("--reanalyse", action="store_true",
                    help="no runs: the figures again from the raw files in --out")
    ap.add_argument("--table", nargs="+", metavar="DIR",
                    help="no runs: one table of medians (smallest-largest) of the runs.csv of "
                         "these --out directories, a directory NAME-N adding cases NAME/CASE")
    a = ap.parse_args(argv)
    a.runargs = runargs
    a.fec = "" if a.fec == "none" else a.fec
    if a.table:
        return tables(a.table)
    return reanalyse(a) if a.reanalyse else experiment(a)


if __name__ == "__main__":
    sys.exit(main())
