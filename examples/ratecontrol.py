"""The encoder's bit rate following rtpburstpace's congestion control, for the examples.

With `congestion-control=gcc` (or `tfrc`) rtpburstpace reads the transport-wide congestion
control feedback that rtpbin's sending session passes upstream (`RTPTWCCPackets`) and estimates
the rate the path takes, `estimated-bitrate` (bit/s, notified on each change).  The element
paces at that rate, but by GStreamer convention it does not set another element's properties:
the application makes the encoder follow it.  `EncoderFollower` does so, for examples/send-video,
examples/rtsp-server.py and examples/webrtc-loopback.py (examples/cc-sender.c does the same in
C):

    pace.connect("notify::estimated-bitrate", ...)  ->  encoder "bitrate" (kbit/s for x264enc)

The encoder gets ENCODER_SHARE of the estimate, not all of it: the estimate is what the path
took of everything the element's stream sent through rtpbin's session, retransmissions included,
and the element caps the stream at it.  An encoder that aimed at the whole estimate would leave
no room for retransmissions, and its own overshoot (x264's rate control keeps the average over
about a second, so a keyframe or a busy scene runs above the target for a while) would run into
the cap, where the element spreads frames beyond their period and, past `max-latency`, drops
them.

Each example needs, besides: the payloader sending the transport-wide-cc header extension (the
payloader's `auto-header-extension` enables it from caps with `extmap-N=(string)TWCC_URI`
downstream of it: a capsfilter after it, or after rtpburstpace, which passes caps queries on),
rtpburstpace before rtpbin (or webrtcbin), and a receiver whose rtpbin knows the same
extension (its caps, or the SDP's a=extmap), so that it sends the feedback.
"""

import threading
import time

#: The transport-wide congestion control header extension (rtphdrexttwcc in GStreamer 1.22).
TWCC_URI = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
#: The extension's id in the examples' caps (extmap-1); the receiver's caps must use the same.
TWCC_EXT_ID = 1
#: The share of the estimate the encoder aims at (see above).
ENCODER_SHARE = 0.85

#: Encoders whose rate EncoderFollower sets: factory name -> (property, bit/s per unit).
ENCODERS = {
    "x264enc": ("bitrate", 1000),
    "x265enc": ("bitrate", 1000),
    "vp8enc": ("target-bitrate", 1),
    "vp9enc": ("target-bitrate", 1),
}


def twcc_caps(ext_id=TWCC_EXT_ID):
    """The caps (gst-launch syntax) that make a payloader before them send the extension."""
    return "application/x-rtp,extmap-%d=(string)%s" % (ext_id, TWCC_URI)


def encoder_rate(estimate, max_units, min_units=1, unit=1000):
    """The encoder's rate, in units of UNIT bit/s (kbit/s for x264enc), for an estimate of
    ESTIMATE bit/s: ENCODER_SHARE of it, rounded down, within [min_units, max_units]."""
    return max(min_units, min(max_units, int(estimate * ENCODER_SHARE) // unit))


def upstream_encoder(element):
    """The first element upstream of ELEMENT (through each element's first sink pad) that
    EncoderFollower knows how to set (ENCODERS), or None."""
    seen = set()
    while element is not None and element not in seen:
        seen.add(element)
        factory = element.get_factory()
        if factory is not None and factory.get_name() in ENCODERS:
            return element
        ok, pad = element.iterate_sink_pads().next()
        peer = pad.get_peer() if pad is not None and ok.value_nick == "ok" else None
        element = peer.get_parent_element() if peer is not None else None
    return None


class EncoderFollower:
    """Sets ENCODER's rate from PACE's estimated-bitrate each time it changes (encoder_rate,
    never above the rate the encoder had when this was made, nor below min_units).  The
    callback runs in the thread that brought the feedback (rtpbin's RTCP thread): setting an
    encoder's bitrate there is safe, it takes effect at its next frame.  `history` keeps
    (seconds since this was made, estimate bit/s, encoder rate) per change of the encoder's
    rate; `on_change(estimate, rate)`, if given, is called after each."""

    def __init__(self, pace, encoder, min_units=1, on_change=None):
        self.pace, self.encoder = pace, encoder
        self.prop, self.unit = ENCODERS[encoder.get_factory().get_name()]
        self.max_units = encoder.get_property(self.prop)
        self.min_units = min(min_units, self.max_units)
        self.on_change = on_change
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.history = []
        pace.connect("notify::estimated-bitrate", self._on_estimate)

    def _on_estimate(self, pace, _pspec):
        estimate = pace.get_property("estimated-bitrate")
        if estimate == 0:           # none yet (from READY to PAUSED again)
            return
        rate = encoder_rate(estimate, self.max_units, self.min_units, self.unit)
        with self.lock:
            if self.history and self.history[-1][2] == rate:
                return
            self.encoder.set_property(self.prop, rate)
            self.history.append((round(time.monotonic() - self.start, 3), estimate, rate))
        if self.on_change is not None:
            self.on_change(estimate, rate)
