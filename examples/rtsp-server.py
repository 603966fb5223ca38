#!/usr/bin/python3
"""An RTSP server (gst-rtsp-server) whose video stream is paced by rtpburstpace.

gst-rtsp-server builds a media from a launch line in parentheses and takes
the element named pay0 as the stream's payloader: it links pay0's src pad to
its rtpbin and reads properties such as `pt` from it.  Naming rtpburstpace
pay0, right after the real payloader, paces the stream to every client:

    ( videotestsrc is-live=true ! ... ! x264enc tune=zerolatency
      ! rtph264pay pt=96 ! rtpburstpace name=pay0 )

With --streams N the media has N video streams (N live sources on the
media's clock: frames at the same instants, like cameras locked to one
clock), each paced by its own element, pay0 ... payN-1, all with
group=rtsp: one schedule, their slots between each other's rather than at
the same times (docs/algorithm.md, "Several streams, one link"):

    ( SOURCE ! rtph264pay pt=96 ! rtpburstpace name=pay0 group=rtsp
      SOURCE ! rtph264pay pt=97 ! rtpburstpace name=pay1 group=rtsp )

With --audio the media also has an Opus audio stream, payN, in the group
with pace=false: its packets leave as they come, and with
--group-max-rate (bit/s) what all the streams send together stays under
that rate, the audio's bytes counted in it:

    ( ... rtpburstpace name=pay0 group=rtsp group-max-rate=R
      ... rtpburstpace name=pay1 group=rtsp group-max-rate=R
      audiotestsrc is-live=true ! opusenc ! rtpopuspay pt=98
          ! rtpburstpace name=pay2 group=rtsp group-max-rate=R pace=false )

With --fec RxC (e.g. 5x5) each video stream is protected by SMPTE ST
2022-1 FEC (rtpst2022-1-fecenc, R rows x C columns) between its payloader
and its element, and the FEC packets are further streams of the media: the
encoder's column (fec_0) and row (fec_1) pads, each through capssetter
(gst-rtsp-server writes the SDP from a stream's caps and refuses the
encoder's bare application/x-rtp: "ignoring stream without media type") and
an rtpburstpace with pace=false in the group, so that their bytes count in
the group's rate.  The payloaders send SSRC 0, as the encoder requires:

    ( SOURCE ! rtph264pay pt=96 ssrc=0 ! rtpst2022-1-fecenc name=fec0 rows=5
          columns=5 pt=99 ! rtpburstpace name=pay0 group=rtsp ...
      ...
      fec0.fec_0 ! capssetter caps="application/x-rtp,media=application,
          clock-rate=90000,encoding-name=2DPARITYFEC,payload=99"
          ! rtpburstpace name=pay3 group=rtsp ... pace=false
      fec0.fec_1 ! capssetter ... ! rtpburstpace name=pay4 ... pace=false ... )

With --congestion-control gcc (or tfrc) each video stream's element runs
that congestion control on the client's transport-wide congestion control
feedback and caps the stream at its estimate, and the stream's encoder
follows the estimate.  The payloader sends the transport-wide-cc header
extension (caps with extmap-1 after it: the payloader's auto-header-extension
enables it, and gst-rtsp-server puts it in the SDP as a=extmap, from which a
client such as rtspsrc knows to send the feedback); the server's rtpbin
passes the feedback upstream to the element, its pay0.  The element does not
set the encoder's rate itself: in the factory's media-configure signal,
when the media's bin is made, the application finds each element's encoder
upstream of it and connects to the element's notify::estimated-bitrate
(ratecontrol.EncoderFollower: the encoder's bitrate at 85 % of the
estimate, never above its configured rate):

    ( SOURCE ! rtph264pay pt=96 ! application/x-rtp,extmap-1=(string)URI
      ! rtpburstpace name=pay0 congestion-control=gcc )
    factory "media-configure": pay0 notify::estimated-bitrate -> x264enc bitrate

The media is shared: with several clients, each one's feedback reaches the
same element, which counts a packet once, from the first report about it;
so the estimate is that of whichever client answers first.  For one
estimate and one encoder per client, do not share the media.

With --fec-paced the FEC streams' elements pace them instead (pace=true,
and the capssetter adds the video's a-framerate): the FEC packets carry the
RTP timestamp of the frame they protect, so each frame's FEC packets are
spread over the frame period on the group's schedule and wait for its rate
like the video's, rather than leaving at once.

Streams: pay0 ... payN-1 video (pt 96 ...), then the audio, then per video
stream its column and row FEC (one payload type per video stream, after
the audio's).

The server's own sinks synchronise (a multiudpsink behind a queue per
stream); the element gives each packet a DTS that says when it leaves, so
they keep the spacing.  Watch it with any RTSP client, e.g.

    gst-launch-1.0 rtspsrc location=rtsp://127.0.0.1:8554/video ! \\
        rtph264depay ! h264parse ! avdec_h264 ! autovideosink

Needs gir1.2-gst-rtsp-server-1.0 (Debian); run from the repository root
after scripts/setup.sh:

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/rtsp-server.py
    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/rtsp-server.py \
        --streams 2 --audio --fec 5x5 --group-max-rate 6000000
    GST_PLUGIN_PATH=build/gst /usr/bin/python3 examples/rtsp-server.py \
        --congestion-control gcc
"""
import argparse
import os
import sys

import gi

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratecontrol  # noqa: E402

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

CONGESTION_CONTROLS = ("none", "gcc", "tfrc")

# A moving, detailed picture, so that frames are several packets each.
DEFAULT_SOURCE = ("videotestsrc is-live=true pattern=smpte horizontal-speed=4 ! "
                  "video/x-raw,width=640,height=360,framerate=25/1 ! "
                  "x264enc tune=zerolatency speed-preset=ultrafast bitrate=4000 "
                  "key-int-max=50")


AUDIO_SOURCE = "audiotestsrc is-live=true wave=ticks ! opusenc frame-size=10"


FEC_CAPS = ("application/x-rtp,media=(string)application,clock-rate=(int)90000,"
            "encoding-name=(string)2DPARITYFEC,payload=(int)%d")
# the frame rate of DEFAULT_SOURCE (and of the testbed's source): paced FEC
# streams take their frame period from it
FEC_FRAMERATE = "25"


def fec_pt(streams, audio, k):
    """Payload type of video stream @k's ST 2022-1 FEC packets (both pads)."""
    return 96 + streams + (1 if audio else 0) + k


def parse_fec(text):
    """"RxC" (rows x columns, e.g. "5x5") -> (rows, columns); "" -> None."""
    if not text:
        return None
    rows, columns = (int(x) for x in text.lower().split("x"))
    return rows, columns


def launch_line(source, pace, streams=1, audio=False, group_max_rate=0, fec=None,
                fec_paced=False, congestion_control="none"):
    """The media factory's launch line: per stream a payloader, then
    rtpburstpace as payK; several streams share the group "rtsp"; with
    @audio an Opus stream after the video ones, not paced (pace=false); with
    @fec (rows, columns) ST 2022-1 FEC of each video stream, its column and
    row packets two more streams in the group, not paced unless
    @fec_paced; with @congestion_control other than "none" the video
    payloaders send the transport-wide-cc header extension and their
    elements run that congestion control."""
    group = ""
    if streams > 1 or audio or fec:
        group = " group=rtsp"
        if group_max_rate:
            group += " group-max-rate=%d" % group_max_rate
    twcc = ""
    if congestion_control != "none":
        twcc = " ! " + ratecontrol.twcc_caps()
        pace = ("%s congestion-control=%s" % (pace, congestion_control)).strip()
    parts = []
    for k in range(streams):
        if fec:
            ssrc = " ssrc=0"
            fecenc = (" ! rtpst2022-1-fecenc name=fec%d rows=%d columns=%d pt=%d"
                      % (k, fec[0], fec[1], fec_pt(streams, audio, k)))
        else:
            ssrc = fecenc = ""
        parts.append("%s ! rtph264pay pt=%d mtu=1200 config-interval=-1%s%s%s ! "
                     "rtpburstpace name=pay%d%s %s" % (source, 96 + k, ssrc, twcc, fecenc, k,
                                                       group, pace))
    if audio:
        parts.append("%s ! rtpopuspay pt=%d ! rtpburstpace name=pay%d%s pace=false"
                     % (AUDIO_SOURCE, 96 + streams, streams, group))
    if fec:
        n = streams + (1 if audio else 0)
        for k in range(streams):
            for pad in (0, 1):      # fec_0: columns, fec_1: rows
                caps = FEC_CAPS % fec_pt(streams, audio, k)
                if fec_paced:
                    caps += ",a-framerate=(string)" + FEC_FRAMERATE
                parts.append('fec%d.fec_%d ! capssetter caps="%s" ! rtpburstpace name=pay%d%s '
                             'pace=%s' % (k, pad, caps, n, group,
                                          "true" if fec_paced else "false"))
                n += 1
    return "( %s )" % "  ".join(parts)


def follow_estimates(media, followers):
    """media-configure: each video stream's encoder follows its element's
    estimated-bitrate (ratecontrol.EncoderFollower, appended to
    @followers); a line on stderr for a stream without an encoder that
    ratecontrol knows (a --source that ends in H.264)."""
    bin_ = media.get_element()
    for k in range(media.n_streams()):
        pace = bin_.get_by_name("pay%d" % k)
        if pace is None or pace.get_property("congestion-control").value_nick == "none":
            continue
        encoder = ratecontrol.upstream_encoder(pace)
        if encoder is None:
            sys.stderr.write("rtsp-server: no %s before pay%d: its rate stays as it is\n"
                             % (" or ".join(ratecontrol.ENCODERS), k))
            continue
        followers.append(ratecontrol.EncoderFollower(pace, encoder))


def make_server(port, path, source=DEFAULT_SOURCE, pace="", streams=1, audio=False,
                group_max_rate=0, address="127.0.0.1", fec=None, fec_paced=False,
                congestion_control="none", followers=None):
    """A GstRTSPServer on @address:@port (0 = any free port) serving @path.

    With @congestion_control other than "none", each media's encoders follow
    their elements' estimates (follow_estimates), their followers appended
    to @followers if given.  Returns (server, factory); the server is
    attached to the default main context, so a GLib main loop must run for
    it to answer."""
    server = GstRtspServer.RTSPServer()
    server.set_address(address)
    server.set_service(str(port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch_line(source, pace, streams, audio, group_max_rate, fec,
                                   fec_paced, congestion_control))
    if congestion_control != "none":
        followers = [] if followers is None else followers
        factory.connect("media-configure",
                        lambda _factory, media: follow_estimates(media, followers))
    factory.set_shared(True)
    server.get_mount_points().add_factory(path, factory)
    if server.attach(None) == 0:
        raise RuntimeError("cannot listen on %s:%s" % (address, port))
    return server, factory


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8554)
    ap.add_argument("--path", default="/video")
    ap.add_argument("--source", default=DEFAULT_SOURCE,
                    help="gst-launch fragment ending in raw video for x264enc, "
                         "or in H.264 (default: %(default)s)")
    ap.add_argument("--pace", default="",
                    help="rtpburstpace properties, e.g. 'max-rate=9000000'")
    ap.add_argument("--streams", type=int, default=1,
                    help="video streams in the media, paced as one group (default: 1)")
    ap.add_argument("--audio", action="store_true",
                    help="add an Opus audio stream, in the group, not paced")
    ap.add_argument("--group-max-rate", type=int, default=0,
                    help="cap on what the streams send together, bit/s (0: none)")
    ap.add_argument("--fec", default="", metavar="RxC",
                    help="ST 2022-1 FEC of each video stream, R rows x C columns (e.g. 5x5), "
                         "its packets two more streams of the media, in the group")
    ap.add_argument("--fec-paced", action="store_true",
                    help="pace the FEC streams too (default: pass-through)")
    ap.add_argument("--congestion-control", choices=CONGESTION_CONTROLS, default="none",
                    help="the video streams' elements run this congestion control on the "
                         "clients' TWCC feedback, the encoders following their estimates "
                         "(default: %(default)s)")
    ap.add_argument("--address", default="127.0.0.1",
                    help="address to listen on (default: %(default)s)")
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop after this long (default: run until Ctrl-C)")
    a = ap.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("rtpburstpace") is None:
        sys.exit("rtpburstpace not found: set GST_PLUGIN_PATH to the build "
                 "directory's gst/ (e.g. GST_PLUGIN_PATH=%s)" % os.path.normpath(
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                  "build", "gst")))
    fec = parse_fec(a.fec)
    if fec and Gst.ElementFactory.find("rtpst2022-1-fecenc") is None:
        sys.exit("--fec needs rtpst2022-1-fecenc (gst-plugins-good >= 1.20)")
    server, _factory = make_server(a.port, a.path, a.source, a.pace, a.streams,
                                   a.audio, a.group_max_rate, a.address, fec, a.fec_paced,
                                   a.congestion_control)
    print("serving rtsp://%s:%d%s  %s" % (
        a.address, server.get_bound_port(), a.path,
        launch_line(a.source, a.pace, a.streams, a.audio, a.group_max_rate, fec,
                    a.fec_paced, a.congestion_control)), flush=True)
    loop = GLib.MainLoop()
    if a.seconds > 0:
        GLib.timeout_add(int(a.seconds * 1000), loop.quit)
    try:
        loop.run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
