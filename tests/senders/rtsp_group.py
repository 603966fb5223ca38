#!/usr/bin/python3
"""Two streams of one RTSP media paced as one group, to a real rtspsrc client.

Starts examples/rtsp-server.py's server with --streams 2 semantics (a real
GstRTSPServer; the media's launch line has two live H.264 streams, each
`rtph264pay pt=9x ! rtpburstpace name=payK group=rtsp`) and, in the same
process, an rtspsrc client (UDP) that decodes each stream with avdec_h264
output-corrupt=false.  Passes when both streams reached the client without a
lost packet and were decoded, and the server's two elements were one group:
two members, every frame placed on the group's timeline, no slot shared
with the other stream's.

Run with G_DEBUG=fatal-warnings (tests/meson.build does).  Exit 0 pass,
1 fail, 77 when a needed plugin or binding is missing.
"""
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rtsp_loopback  # noqa: E402  (exits 77 without the bindings)
from rtsp_loopback import Gst  # noqa: E402

SECONDS = 6.0
STREAMS = 2


H264_DECODER = "rtph264depay ! h264parse ! avdec_h264 output-corrupt=false"


class Client:
    """rtspsrc -> per stream depayloader and decoder (@decoders by payload
    type, H.264 for the others); RTP packets per payload type as they reach
    the client's sockets (with @with_size also (ns, bytes) of each, in
    arrivals), buffers decoded per payload type."""

    def __init__(self, url, pts=None, decoders=None, with_size=False):
        self.pipeline = Gst.Pipeline.new("client")
        src = Gst.ElementFactory.make("rtspsrc", "src")
        src.set_property("location", url)
        Gst.util_set_object_arg(src, "protocols", "udp")
        src.set_property("latency", 200)
        self.pipeline.add(src)
        self.lock = threading.Lock()
        self.seqs = {pt: [] for pt in (pts or [96 + k for k in range(STREAMS)])}
        self.decoders = decoders or {}
        self.arrivals = []
        self.frames = {}
        src.connect("pad-added", self.on_pad)
        rtsp_loopback.watch_rtp(self.pipeline, self.on_rtp, with_size=with_size)

    def on_pad(self, _src, pad):
        # recv_rtp_src_<stream>_<ssrc>_<payload type>
        pt = int(pad.get_name().rsplit("_", 1)[1])
        dec = Gst.parse_bin_from_description(
            self.decoders.get(pt, H264_DECODER) +
            " ! fakesink sync=false signal-handoffs=true name=sink", True)
        self.frames[pt] = 0
        dec.get_by_name("sink").connect("handoff", self.on_frame, pt)
        self.pipeline.add(dec)
        dec.sync_state_with_parent()
        pad.link(dec.get_static_pad("sink"))

    def on_frame(self, _sink, _buf, _pad, pt):
        self.frames[pt] += 1

    def on_rtp(self, now, pt, seq, _rtptime, size=None):
        with self.lock:
            if pt in self.seqs:
                self.seqs[pt].append(seq)
                if size is not None:
                    self.arrivals.append((now, size))


def stat(element, field):
    # get_value: GStreamer 1.26's Python structures have no get_uint64 ()
    return element.get_property("stats").get_value(field)


def main():
    started = rtsp_loopback.start_server(STREAMS)
    if started is None:
        return 77
    _server, factory, url = started
    pacers = []
    factory.connect("media-configure", lambda _f, media: pacers.extend(
        media.get_element().get_by_name("pay%d" % k) for k in range(STREAMS)))

    client = Client(url)
    stats = []
    errors = rtsp_loopback.run_client(client.pipeline, SECONDS, lambda: stats.extend(
        {f: stat(p, f) for f in ("group-members", "frames", "group-frames",
                                 "group-shared-slots")} for p in pacers))
    if errors:
        print("FAIL: client error: %s" % errors[0])
        return 1

    checks = [("the media has %d paced streams (%d)" % (STREAMS, len(pacers)),
               len(pacers) == STREAMS)]
    for pt, seqs in sorted(client.seqs.items()):
        lost = sum((b - a - 1) % 65536 for a, b in zip(seqs, seqs[1:]))
        frames = client.frames.get(pt, 0)
        print("stream pt %d: %d packets, %d lost, %d frames decoded intact"
              % (pt, len(seqs), lost, frames))
        checks += [("pt %d: packets %d > 100" % (pt, len(seqs)), len(seqs) > 100),
                   ("pt %d: lost %d == 0" % (pt, lost), lost == 0),
                   ("pt %d: frames decoded %d > 0" % (pt, frames), frames > 0)]
    for k, s in enumerate(stats):
        print("pay%d: %s" % (k, s))
        checks += [("pay%d: group-members %d == %d" % (k, s["group-members"], STREAMS),
                    s["group-members"] == STREAMS),
                   ("pay%d: every paced frame placed (%d of %d)"
                    % (k, s["group-frames"], s["frames"]),
                    s["frames"] > 50 and s["group-frames"] >= s["frames"]),
                   ("pay%d: group-shared-slots %d == 0" % (k, s["group-shared-slots"]),
                    s["group-shared-slots"] == 0)]
    for text, ok in checks:
        print("%s %s" % ("PASS" if ok else "FAIL", text))
    return 0 if all(ok for _t, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
