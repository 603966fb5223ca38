"""A loopback H.264 receiver that sends transport-wide congestion control feedback.

For the tests of senders whose encoder follows rtpburstpace's estimate: an rtpbin receiving on
port P (RTP) and P+1 (RTCP), sending its RTCP to 127.0.0.1:P+5 (examples/videorecipes.py's
ports), whose caps carry the transport-wide-cc header extension (extmap-1, as the senders'
payloaders send it: ratecontrol.twcc_caps), so that its rtpsession sends TWCC feedback; it
decodes what it gets (avdec_h264 output-corrupt=false) and counts the frames.  Its RTCP
interval is short (RTCP_MIN_INTERVAL_MS): rtpsession sends the first feedback with its first
RTCP packet, by default about 2.5 s into the stream.
"""
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
import ratecontrol  # noqa: E402
import videorecipes  # noqa: E402

from gstbindings import Gst  # noqa: E402

RTCP_MIN_INTERVAL_MS = 100


class TwccReceiver:
    def __init__(self, port):
        caps = "%s,extmap-%d=(string)%s" % (videorecipes.MEDIA_CAPS, ratecontrol.TWCC_EXT_ID,
                                              ratecontrol.TWCC_URI)
        self.pipeline = Gst.parse_launch(
            "rtpbin name=rb latency=200  "
            "udpsrc name=rtpsrc port=%d caps=\"%s\" ! rb.recv_rtp_sink_0  "
            "udpsrc port=%d ! rb.recv_rtcp_sink_0  "
            "rb.send_rtcp_src_0 ! udpsink host=127.0.0.1 port=%d sync=false async=false"
            % (port + videorecipes.PORT_RTP, caps, port + videorecipes.PORT_RTCP,
               port + videorecipes.PORT_RTCP_BACK))
        self.lock = threading.Lock()
        self.frames = 0
        self.packets = 0
        #: while above 0, every drop_every-th RTP packet is dropped before rtpbin
        self.drop_every = 0
        self.dropped = 0
        self.pipeline.get_by_name("rtpsrc").get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self._on_packet)
        rtpbin = self.pipeline.get_by_name("rb")
        rtpbin.connect("pad-added", self._on_pad)
        rtpbin.emit("get-internal-session", 0).set_property(
            "rtcp-min-interval", RTCP_MIN_INTERVAL_MS * Gst.MSECOND)

    def _on_pad(self, _rtpbin, pad):
        if not pad.get_name().startswith("recv_rtp_src_"):
            return
        dec = Gst.parse_bin_from_description(
            "rtph264depay ! h264parse ! avdec_h264 output-corrupt=false ! "
            "fakesink name=out sync=false", True)
        self.pipeline.add(dec)
        dec.sync_state_with_parent()
        pad.link(dec.get_static_pad("sink"))
        dec.get_by_name("out").get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, self._on_frame)

    def _on_packet(self, _pad, _info):
        with self.lock:
            self.packets += 1
            if self.drop_every > 0 and self.packets % self.drop_every == 0:
                self.dropped += 1
                return Gst.PadProbeReturn.DROP
        return Gst.PadProbeReturn.OK

    def _on_frame(self, _pad, _info):
        with self.lock:
            self.frames += 1
        return Gst.PadProbeReturn.OK

    def start(self):
        if self.pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            raise RuntimeError("the TWCC receiver does not start")

    def stop(self):
        self.pipeline.set_state(Gst.State.NULL)
        with self.lock:
            return self.frames
