"""The sender's bit rate following the loss its receiver reports, for examples/send-video.

A stream that keeps its rate where a competitor keeps the bottleneck's queue full (a TCP that
does not slow down for losses, such as BBR) loses packets in clusters, and each unrepaired loss
costs frames up to the next keyframe.  The loss-based controller of Google Congestion Control
(draft-ietf-rmcat-gcc-02, section 6) adapts the encoder's target to the fraction of packets
lost on the way, as the receiver reports it in RTCP (before any retransmission: the media's
own sequence numbers):

    loss > 10 %      rate = rate x (1 - 0.5 x loss)
    loss < 2 %       rate = rate x 1.05
    otherwise        rate unchanged

bounded by [min_kbps, max_kbps] (max_kbps: the encoder's configured target; the controller never
asks for more than the user configured).  `LossRateControl` is the arithmetic alone;
`RateFollower` applies it once per PERIOD_S to an encoder's `bitrate` (kbit/s, as x264enc
has it) and the rate cap of rtpburstpace (`max-rate` = cap_factor x the encoder's rate), from
the report blocks about the stream in the RTCP that rtpbin's session receives.
"""

import threading

#: Loss above which the rate goes down, and below which it goes up (draft-ietf-rmcat-gcc-02).
LOSS_HIGH = 0.10
LOSS_LOW = 0.02
#: How much the rate grows per update while the loss is low.
INCREASE = 1.05
#: How often RateFollower updates (s).  The receiver of the RTX recipes may send a report
#: every 50 ms (its rtcp-min-interval); in the testbed's runs every update had a new one.  GCC
#: updates on every report.
PERIOD_S = 0.5


class LossRateControl:
    """Loss-based rate control: update(loss) -> the new target in kbit/s."""

    def __init__(self, start_kbps, min_kbps, max_kbps=None):
        if not 0 < min_kbps <= start_kbps:
            raise ValueError("need 0 < min_kbps <= start_kbps")
        self.max_kbps = max_kbps if max_kbps is not None else start_kbps
        if self.max_kbps < start_kbps:
            raise ValueError("need max_kbps >= start_kbps")
        self.min_kbps = min_kbps
        self.kbps = float(start_kbps)

    def update(self, loss):
        """Applies one report of `loss` (0..1, the fraction lost since the previous one)."""
        if not 0.0 <= loss <= 1.0:
            raise ValueError("loss %r is not a fraction" % (loss,))
        if loss > LOSS_HIGH:
            self.kbps *= 1.0 - 0.5 * loss
        elif loss < LOSS_LOW:
            self.kbps *= INCREASE
        self.kbps = min(self.max_kbps, max(self.min_kbps, self.kbps))
        return self.kbps


def interval_loss(prev, cur):
    """Fraction lost between two receiver reports about one stream, from their cumulative
    counts (packets lost, extended highest sequence number received), or None when the
    receiver reported nothing new.  A negative count (duplicates outnumbering losses) is 0."""
    expected = cur[1] - prev[1]
    if expected <= 0:
        return None
    return min(1.0, max(0.0, (cur[0] - prev[0]) / float(expected)))


RTCP_SR = 200
RTCP_RR = 201


def report_blocks(data):
    """The report blocks of an RTCP compound packet (bytes): (ssrc the block is about,
    cumulative packets lost, extended highest sequence number received) for each block of
    each SR and RR in it (RFC 3550, 6.4).  A truncated or malformed packet ends the list."""
    out, pos = [], 0
    while pos + 4 <= len(data):
        first, pt, words = data[pos], data[pos + 1], int.from_bytes(data[pos + 2:pos + 4], "big")
        end = pos + 4 * (words + 1)
        if first >> 6 != 2 or end > len(data):
            break
        count = first & 0x1f
        if pt in (RTCP_SR, RTCP_RR):
            block = pos + 8 + (20 if pt == RTCP_SR else 0)
            for _ in range(count):
                if block + 24 > end:
                    break
                ssrc = int.from_bytes(data[block:block + 4], "big")
                lost = int.from_bytes(data[block + 5:block + 8], "big")
                if lost & 0x800000:             # signed 24 bits
                    lost -= 1 << 24
                ext_seq = int.from_bytes(data[block + 8:block + 12], "big")
                out.append((ssrc, lost, ext_seq))
                block += 24
        pos = end
    return out


class RateFollower:
    """Applies LossRateControl to `encoder` (its `bitrate`, kbit/s) and `pacer` (its
    `max-rate`, bit/s, or None) from the receiver reports about the stream whose SSRC `ssrc()`
    returns, as they come into rtpbin's session `session` (its on-receiving-rtcp signal); call
    tick() once per PERIOD_S.  `history` keeps (seconds, loss, kbps) per update."""

    def __init__(self, session, ssrc, encoder, pacer, min_kbps, cap_factor):
        self.ssrc, self.encoder, self.pacer = ssrc, encoder, pacer
        self.cap_factor = cap_factor
        self.control = LossRateControl(encoder.get_property("bitrate"), min_kbps)
        self.lock = threading.Lock()
        self.latest = {}        # ssrc -> (lost, ext_seq) of the last block about it
        self.prev = None
        self.history = []
        session.connect("on-receiving-rtcp", self._on_rtcp)

    def _on_rtcp(self, _session, buf):
        # in the RTCP receiving thread
        blocks = report_blocks(buf.extract_dup(0, buf.get_size()))
        with self.lock:
            for ssrc, lost, ext_seq in blocks:
                self.latest[ssrc] = (lost, ext_seq)

    def tick(self, seconds):
        with self.lock:
            cur = self.latest.get(self.ssrc())
        if cur is None:
            return
        loss = interval_loss(self.prev, cur) if self.prev else None
        if loss is None:
            self.prev = self.prev or cur
            return
        self.prev = cur
        kbps = self.control.update(loss)
        self.encoder.set_property("bitrate", int(round(kbps)))
        if self.pacer is not None:
            self.pacer.set_property("max-rate", int(kbps * 1000 * self.cap_factor))
        self.history.append((round(seconds, 1), round(loss, 4), int(round(kbps))))
