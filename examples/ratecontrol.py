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
asks for more than the user configured).

One change to GCC's rule: **the rate goes up at most once per INCREASE_ROUNDS round trips**
(the round trip from the same reports; at every update where ten round trips are shorter
than PERIOD_S).  A competitor that keeps the rate it measured for several round trips (BBR's
bandwidth filter spans ten) only gives room back that long after the stream took it; a stream
that grows faster overruns the bottleneck for as long.  Beside BBR through a one-BDP drop-tail
queue at RTT 100 ms, after the first 5 s of a run, 7 s with more than 10 % of the media lost
in 3 runs with GCC's rule, 2-3 s with this one (docs/results.md, section 17).

And **a stream may start below its configured rate** (RateFollower's start_share; libwebrtc
starts at 300 kbit/s): joining a queue that a loss-blind competitor holds full costs the
stream, for as long as that competitor remembers the room it had (2-2.5 s in that cell), about
the share that its rate adds to the link's load, too deep a loss for retransmissions to
repair.  Where the round trip leaves room for several retransmission rounds within the
receiver's latency (full_rtt), such losses are repaired and the rate goes to the configured
one as soon as the first report gives the round trip; where it does not, the stream grows
from its start by the rule above.

`LossRateControl` is the arithmetic alone; `RateFollower` applies it once per PERIOD_S to an
encoder's `bitrate` (kbit/s, as x264enc has it) and the rate cap of rtpburstpace (`max-rate` =
cap_factor x the encoder's rate), from the report blocks about the stream in the RTCP that
rtpbin's session receives.
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
#: Round trips between two increases (see above); 0: GCC's rule, an increase per update.
INCREASE_ROUNDS = 10


class LossRateControl:
    """Loss-based rate control: update(loss[, now, rtt]) -> the new target in kbit/s."""

    def __init__(self, start_kbps, min_kbps, max_kbps=None, increase_rounds=INCREASE_ROUNDS,
                 full_rtt=None):
        if not 0 < min_kbps <= start_kbps:
            raise ValueError("need 0 < min_kbps <= start_kbps")
        self.max_kbps = max_kbps if max_kbps is not None else start_kbps
        if self.max_kbps < start_kbps:
            raise ValueError("need max_kbps >= start_kbps")
        if increase_rounds < 0:
            raise ValueError("need increase_rounds >= 0")
        self.min_kbps = min_kbps
        self.kbps = float(start_kbps)
        self.increase_rounds = increase_rounds
        self.full_rtt = full_rtt
        self.rtt_seen = False
        self.changed = None     # when the rate last went up or down (the caller's seconds)

    def update(self, loss, now=None, rtt=None):
        """Applies one report of `loss` (0..1, the fraction lost since the previous one) at
        `now` (seconds since the stream's start) with the round trip `rtt` (seconds) the
        reports give; without both, every low loss is an increase (GCC's rule).  With
        full_rtt, the first round trip of at most full_rtt seconds takes the rate to max_kbps
        first (see RateFollower)."""
        if not 0.0 <= loss <= 1.0:
            raise ValueError("loss %r is not a fraction" % (loss,))
        before = self.kbps
        if rtt is not None and not self.rtt_seen:
            self.rtt_seen = True
            if self.full_rtt is not None and rtt <= self.full_rtt:
                self.kbps = self.max_kbps
        if loss > LOSS_HIGH:
            self.kbps *= 1.0 - 0.5 * loss
        elif loss < LOSS_LOW and (now is None or rtt is None or
                                  now - (self.changed or 0.0) >= self.increase_rounds * rtt):
            self.kbps *= INCREASE
        self.kbps = min(self.max_kbps, max(self.min_kbps, self.kbps))
        if self.kbps != before or self.changed is None:
            self.changed = now
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


def report_round_trip(session):
    """The round trip (seconds) the receiver's last report gives an rtpbin session: the
    largest rb-round-trip (16.16 fixed point seconds) of the remote sources with a report
    block, or None before the first report."""
    rtts = []
    for source in session.get_property("sources") or []:
        st = source.get_property("stats")
        if st is None or st.get_value("internal") or not st.get_value("have-rb"):
            continue
        rtt = st.get_value("rb-round-trip") / 65536.0
        if rtt > 0:
            rtts.append(rtt)
    return max(rtts) if rtts else None


class RateFollower:
    """Applies LossRateControl to `encoder` (its `bitrate`, kbit/s) and `pacer` (its
    `max-rate`, bit/s, or None) from the receiver reports about the stream whose SSRC `ssrc()`
    returns, as they come into rtpbin's session `session` (its on-receiving-rtcp signal), with
    the round trip of the same reports (report_round_trip); call tick() once per PERIOD_S.
    It starts at start_share of the encoder's configured rate (at least min_kbps), goes to the
    configured rate at once when the first round trip is at most full_rtt seconds, and never
    asks for more than that rate.  `history` keeps (seconds, loss, kbps, round trip ms or
    None) per update."""

    def __init__(self, session, ssrc, encoder, pacer, min_kbps, cap_factor,
                 increase_rounds=INCREASE_ROUNDS, start_share=1.0, full_rtt=None):
        self.session, self.ssrc, self.encoder, self.pacer = session, ssrc, encoder, pacer
        self.cap_factor = cap_factor
        configured = encoder.get_property("bitrate")
        self.control = LossRateControl(max(min_kbps, min(configured, configured * start_share)),
                                       min_kbps, configured, increase_rounds, full_rtt)
        self._apply(self.control.kbps)
        self.lock = threading.Lock()
        self.latest = {}        # ssrc -> (lost, ext_seq) of the last block about it
        self.prev = None
        self.history = []
        session.connect("on-receiving-rtcp", self._on_rtcp)

    def _apply(self, kbps):
        self.encoder.set_property("bitrate", int(round(kbps)))
        if self.pacer is not None:
            self.pacer.set_property("max-rate", int(kbps * 1000 * self.cap_factor))

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
        rtt = report_round_trip(self.session)
        kbps = self.control.update(loss, seconds, rtt)
        self._apply(kbps)
        self.history.append((round(seconds, 1), round(loss, 4), int(round(kbps)),
                             None if rtt is None else round(rtt * 1000.0, 1)))
