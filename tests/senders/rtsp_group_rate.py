#!/usr/bin/python3
"""Two video streams and an Opus audio stream of one RTSP media, one group
with a shared rate, to a real rtspsrc client.

Starts examples/rtsp-server.py's server with --streams 2 --audio
--group-max-rate semantics (a real GstRTSPServer: two live H.264 streams,
`rtpburstpace name=pay0|pay1 group=rtsp group-max-rate=R`, and Opus,
`rtpburstpace name=pay2 group=rtsp group-max-rate=R pace=false`) and, in the
same process, an rtspsrc client (UDP) that decodes the video with
avdec_h264 output-corrupt=false and the audio with opusdec.  Passes when:

- every stream reached the client without a lost packet, video frames and
  audio were decoded;
- the audio left as it came: at most 1 % of its pushes more than 1 ms after
  its packets reached the element (the element's unpaced-late-pushes, so
  p99 <= 1 ms), and it never waited for the group's rate;
- the group kept its rate: over any 10 ms window after the first
  SKIP_FIRST_S, what the three elements released (each video packet at the
  running time of its DTS plus the element's sink-latency, which says when
  it leaves; each audio packet when it was pushed) is at most
  group-max-rate x 10 ms plus one push of each stream.  The server's sinks synchronise in the elements' threads: until an
  element has seen that (its first frame), the sink paces the stream and the
  group's rate does not apply to it (docs/algorithm.md, "A shared rate");
- at the client, after the first SKIP_FIRST_S, the 10 ms peak of all
  streams together is within 2 x the rate.  The arrival times are taken in Python as the packets leave the
  client's sockets, so threads waiting for the interpreter bunch them
  (1.4-1.5 x in the runs so far); the bound catches what an uncapped group
  does when two keyframes meet (about twice the rate), not the exact cap,
  which the check before it holds the elements to.

The audio's delay is a time measured on a shared 2-vCPU machine: a run whose
only failures are timed checks (the audio's delay, the 10 ms peaks) is run
again, up to TRIES in all, when the machine did not keep up during it (the
hypervisor took more than MAX_STEAL of the CPU, or a video element fell more
than MAX_BACKLOG_S behind: its encoder was starved); an element that delays
the audio by itself does so in every try and fails.  Each try is a child
process (--once).

Run with G_DEBUG=fatal-warnings (tests/meson.build does).  Exit 0 pass,
1 fail, 77 when a needed plugin or binding is missing.
"""
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rtsp_loopback  # noqa: E402  (exits 77 without the bindings)
from rtsp_loopback import Gst  # noqa: E402
from rtsp_group import Client, stat  # noqa: E402

SECONDS = 6.0
STREAMS = 2
AUDIO_PT = 96 + STREAMS
# two 4 Mbit/s H.264 streams (examples/rtsp-server.py's source) and 64 kbit/s
# of Opus: a cap above their sum that their keyframes still run into
GROUP_MAX_RATE = 12000000
WINDOW_NS = 10000000
SKIP_FIRST_S = 0.5
TRIES = 3
MAX_STEAL = 0.05
MAX_BACKLOG_S = 1.0
#: the checks that measure time, which a starved machine fails by itself
TIMED = ("audio: ", "released: ", "client: ")


class Releases:
    """What the group's elements release: each paced packet at the running
    time of its DTS plus the element's sink-latency R (a synchronising sink
    in its thread releases it then: at its slot), each pass-through push at
    the running time it was pushed."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pushes = []        # (running time ns, bytes, stream)

    def watch(self, element, k, audio):
        pad = element.get_static_pad("src")

        def running_time(ts):
            seg = pad.get_sticky_event(Gst.EventType.SEGMENT, 0)
            if seg is None or ts == Gst.CLOCK_TIME_NONE:
                return None
            rt = seg.parse_segment().to_running_time(Gst.Format.TIME, ts)
            return None if rt == Gst.CLOCK_TIME_NONE else rt

        offset = [0, 0]         # the element's sink-latency, pushes since read

        def sink_latency():
            # R: a paced packet's DTS is its slot minus R (the latency of a
            # synchronising sink in the element's thread, which releases it
            # at DTS + R); read at every push until it is known, then every
            # 50 pushes
            if offset[0] == 0 or offset[1] % 50 == 0:
                offset[0] = element.get_property("stats").get_value("sink-latency")
            offset[1] += 1
            return offset[0]

        def on_push(_pad, info):
            if info.type & Gst.PadProbeType.BUFFER_LIST:
                lst = info.get_buffer_list()
                bufs = [lst.get(i) for i in range(lst.length())]
            else:
                bufs = [info.get_buffer()]
            size = sum(b.get_size() for b in bufs)
            if audio:
                clock = element.get_clock()
                t = (clock.get_time() - element.get_base_time()) if clock else None
            else:
                t = running_time(bufs[0].dts)
                if t is not None:
                    t += sink_latency()
            if t is not None:
                with self.lock:
                    self.pushes.append((t, size, k))
            return Gst.PadProbeReturn.OK
        pad.add_probe(Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, on_push)


def peak_window(events, window=WINDOW_NS):
    """Largest sum of bytes over any @window ns of (time, bytes) events."""
    events = sorted(events)
    best = total = lo = 0
    for t, size in events:
        total += size
        while events[lo][0] <= t - window:
            total -= events[lo][1]
            lo += 1
        best = max(best, total)
    return best


def cpu_ticks():
    """(steal, total) jiffies of the machine (/proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (fields[7] if len(fields) > 7 else 0), sum(fields)


def once():
    """One try; prints the checks and INTERFERENCE lines.  Exit code as main's."""
    steal0, total0 = cpu_ticks()
    started = rtsp_loopback.start_server(STREAMS, audio=True,
                                         group_max_rate=GROUP_MAX_RATE)
    if started is None:
        return 77
    _server, factory, url = started
    pacers = []
    releases = Releases()

    def on_configure(_f, media):
        for k in range(STREAMS + 1):
            e = media.get_element().get_by_name("pay%d" % k)
            pacers.append(e)
            releases.watch(e, k, k == STREAMS)
    factory.connect("media-configure", on_configure)

    client = Client(url, pts=[96 + k for k in range(STREAMS + 1)],
                    decoders={AUDIO_PT: "rtpopusdepay ! opusdec"}, with_size=True)
    stats = []
    fields = ("group-members", "group-max-rate", "packets", "group-rate-waits",
              "group-rate-max-delay", "unpaced-pushes", "unpaced-late-pushes",
              "unpaced-max-delay", "max-backlog")
    errors = rtsp_loopback.run_client(client.pipeline, SECONDS, lambda: stats.extend(
        {f: stat(p, f) for f in fields} for p in pacers))
    if errors:
        print("FAIL: client error: %s" % errors[0])
        return 1

    checks = [("the media has %d paced streams and one audio stream (%d elements)"
               % (STREAMS, len(pacers)), len(pacers) == STREAMS + 1)]
    for pt, seqs in sorted(client.seqs.items()):
        lost = sum((b - a - 1) % 65536 for a, b in zip(seqs, seqs[1:]))
        decoded = client.frames.get(pt, 0)
        print("stream pt %d: %d packets, %d lost, %d decoded" % (pt, len(seqs), lost,
                                                                  decoded))
        checks += [("pt %d: packets %d > 100" % (pt, len(seqs)), len(seqs) > 100),
                   ("pt %d: lost %d == 0" % (pt, lost), lost == 0),
                   ("pt %d: decoded %d > 0" % (pt, decoded), decoded > 0)]
    for k, s in enumerate(stats):
        print("pay%d: %s" % (k, s))
        checks += [("pay%d: group-members %d == %d" % (k, s["group-members"], STREAMS + 1),
                    s["group-members"] == STREAMS + 1),
                   ("pay%d: group-max-rate %d == %d" % (k, s["group-max-rate"],
                                                        GROUP_MAX_RATE),
                    s["group-max-rate"] == GROUP_MAX_RATE)]
    if len(stats) == STREAMS + 1:
        a = stats[STREAMS]
        checks += [("audio: %d pushes, %d over 1 ms (<= 1 %%), longest %.3f ms"
                    % (a["unpaced-pushes"], a["unpaced-late-pushes"],
                       a["unpaced-max-delay"] / 1e6),
                    a["unpaced-pushes"] > 100 and
                    a["unpaced-late-pushes"] * 100 <= a["unpaced-pushes"]),
                   ("audio: never waited for the group's rate (%d)" % a["group-rate-waits"],
                    a["group-rate-waits"] == 0)]

    with releases.lock:
        pushes = list(releases.pushes)
    # after each stream's first frame (see the top): the first SKIP_FIRST_S
    if pushes:
        t0 = min(t for t, _s, _k in pushes) + int(SKIP_FIRST_S * 1e9)
        pushes = [p for p in pushes if p[0] >= t0]
    with client.lock:
        arrivals = list(client.arrivals)
    if arrivals:
        a0 = min(t for t, _s in arrivals) + int(SKIP_FIRST_S * 1e9)
        arrivals = [a for a in arrivals if a[0] >= a0]
    budget = GROUP_MAX_RATE * WINDOW_NS // 8 // 1000000000
    largest = {}
    for _t, size, k in pushes:
        largest[k] = max(largest.get(k, 0), size)
    sent_peak = peak_window([(t, size) for t, size, _k in pushes])
    recv_peak = peak_window(arrivals)
    print("released: %d pushes; 10 ms peak %d bytes = %.2f Mbit/s (rate %.2f)"
          % (len(pushes), sent_peak, sent_peak * 8 / WINDOW_NS * 1e3, GROUP_MAX_RATE / 1e6))
    print("client: %d packets; 10 ms peak %d bytes = %.2f Mbit/s"
          % (len(arrivals), recv_peak, recv_peak * 8 / WINDOW_NS * 1e3))
    checks += [("released: 10 ms peak %d <= rate x 10 ms %d + one push per stream %d"
                % (sent_peak, budget, sum(largest.values())),
                len(pushes) > 100 and sent_peak <= budget + sum(largest.values())),
               ("client: 10 ms peak %d <= 2 x rate x 10 ms %d"
                % (recv_peak, budget * 2), recv_peak <= budget * 2)]
    for text, ok in checks:
        print("%s %s" % ("PASS" if ok else "FAIL", text))
    steal1, total1 = cpu_ticks()
    steal = (steal1 - steal0) / max(1, total1 - total0)
    if steal > MAX_STEAL:
        print("INTERFERENCE the hypervisor took %.0f %% of the CPU" % (100 * steal))
    for k, s in enumerate(stats[:STREAMS]):
        if s["max-backlog"] > MAX_BACKLOG_S * 1e9:
            print("INTERFERENCE pay%d fell %.1f s behind (its encoder was starved)"
                  % (k, s["max-backlog"] / 1e9))
    return 0 if all(ok for _t, ok in checks) else 1


def main():
    """Up to TRIES tries, each in a child process; another only after a try
    that failed timed checks alone while the machine did not keep up."""
    for attempt in range(1, TRIES + 1):
        child = subprocess.run([sys.executable, os.path.abspath(__file__), "--once"],
                               stdout=subprocess.PIPE, universal_newlines=True)
        sys.stdout.write(child.stdout)
        if child.returncode != 1:
            return child.returncode
        lines = child.stdout.splitlines()
        failed = [ln[5:] for ln in lines if ln.startswith("FAIL ")]
        interference = [ln[13:] for ln in lines if ln.startswith("INTERFERENCE ")]
        timed_only = failed and all(f.startswith(TIMED) for f in failed)
        if not (timed_only and interference) or attempt == TRIES:
            return 1
        print("try %d of %d failed its timed checks while %s: again"
              % (attempt, TRIES, "; ".join(interference)), flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(once() if sys.argv[1:] == ["--once"] else main())
