"""Sender and receiver recipes shared by examples/send-video and examples/receive-video.

A recipe is one row of the recommendation table: how the sender protects and
paces the H.264 stream, and what the receiver needs to undo it.  Both
applications build their pipelines from the recipe of the same name, so a
sender and a receiver given the same --recipe always match.  `send-video
--list-recipes` prints the table of the recipes a user chooses from
(USER_RECIPES); with --lab, of every recipe, the experiment variants too.

Ports (base port P; a recipe uses only some of them):

    P      RTP: the media, and the ULPFEC or RTX packets of the recipes that
           have them (same socket, told apart by payload type)
    P+1    RTCP from the sender (sender reports)            rtpbin recipes
    P+2    ST 2022-1 column FEC (rtpbin send_fec_src_0_0)   fec recipes
    P+3    ST 2022-1 row FEC    (rtpbin send_fec_src_0_1)   fec recipes
    P+5    RTCP from the receiver to the sender (receiver reports, NACKs):
           to receive-video --sender, else to the host the RTP comes from

Where rtpburstpace sits.  With FEC: directly after the payloader, before
rtpbin's send_rtp_sink_0 (and before rtpulpfecenc).  The FEC encoders then
run in the element's thread, so their packets leave with the paced media:
rtpst2022-1-fecenc (inside rtpbin, before the session) pushes each FEC packet
on its own pad just before the media packet that completes its row (or that
its column packet is scheduled with), and rtpulpfecenc pushes a frame's FEC
packets right after the frame's last packet.  With retransmission too: the
retransmissions of rtprtxsend (rtpbin's aux sender) then leave when a NACK
asks for them, several at once for a NACK of several packets.  The
`-rtx-behind` recipes put the element behind rtpbin instead
(send_rtp_src_0 ! rtpburstpace ! udpsink), where it sees the retransmissions
beside the media, tells them apart by payload type and spreads them between
the media's slots (`-rtx-behind-pass`: passes them on as they come); its
udpsink does not synchronise (sync=false), the element is what times the
packets.  On the
testbed that placement had fewer frames intact than the element before
rtpbin (docs/results.md, section 7), so `recommended` keeps it before.

Keyframe requests: in the recipes with rtpbin (RTCP both ways) the receiver's
rtph264depay has request-keyframe=true: a loss that FEC or retransmission
did not repair in time (the jitterbuffer's packet-lost event) makes it ask
for a keyframe, which rtpbin sends to the sender as an RTCP PLI (the media
caps allow it: MEDIA_CAPS) and the sender's rtpbin passes upstream to the
encoder (through rtpburstpace) as a force-key-unit event.  Without it, no
frame after an unrepaired loss in a reference frame is intact until the
next regular keyframe, up to key-int-max frames later.  send-video drops
the requests that its last keyframe already answers (KeyframeHoldoff).

Rate (the `-adapt` recipes): the element runs congestion control
(`congestion-control=gcc`) on the transport-wide congestion control feedback
the receiver sends (the payloader sends the transport-wide-cc header
extension: ratecontrol.twcc_caps after it), caps the stream at its estimate
(the lower of it and `max-rate`), and send-video sets the encoder's
`bitrate` to ratecontrol.ENCODER_SHARE of the estimate each time it changes
(ratecontrol.EncoderFollower), never above the configured bitrate nor below
ADAPT_MIN_SHARE of it (the element's `min-bitrate`).  It starts from the
element's `start-bitrate` (send-video --rate-start: a share of the
configured rate).  The receiver must know the extension (extmap-1 in its
caps) and send the feedback; without it the element warns once and the
encoder keeps its configured rate.  Until the element did this, send-video
followed the loss in the receiver's RTCP reports with GCC's loss-based rule
alone (docs/results.md, sections 10 and 17, measured that rule): against a
TCP that does not slow down for losses (BBR) a stream at its full rate lost
13-18 % of its packets and most retransmissions, and joining the link, or
raising its rate, overloaded it for as long as the competitor kept the rate
it measured.  Behind rtpbin the element sees no feedback (rtpbin passes it
upstream, to what is before it), so there is no `-rtx-behind-adapt` recipe.

Latency (receiver jitterbuffer, rtpbin latency): 100 ms covers the element's
spread of a frame (0.9 frame period, 36 ms at 25 fps) and loopback or LAN
jitter; ST 2022-1 adds the time until the column FEC packet that repairs a
loss has come (st2022_wait_packets at NOMINAL_PACKET_RATE); RTX doubles the
base for the NACK round trip and a retry.  receive-video --latency overrides
it (a source at a lower bit rate needs more for the same FEC matrix).
"""

import collections
import math

import ratecontrol

MEDIA_PT = 96
RTX_PT = 97
ST2022_FEC_PT = 100
ULPFEC_PT = 122
CLOCK_RATE = 90000
MTU = 1200

#: The recipe that "recommended" stands for, from the testbed sessions in
#: docs/results.md section 7 (tests/testbed/recipes.py: 10 Mbit/s, 13-packet
#: drop-tail, one cubic TCP flow, medians of 3 x 20 s): capped-rtx (the cap
#: below, retransmission, the receiver's retry timeout following the round
#: trip) had the most frames intact; paced-rtx, without the cap, 93-98 %
#: depending on the session; paced-rtx-behind ~81 %; every FEC recipe and
#: pacing alone ~0 %.  It needs the return channel for its NACKs, and the
#: testbed's round trip was under 1 ms plus its queue: see docs/results.md
#: for the round-trip times it holds to.  Since section 10, capped-rtx-adapt:
#: the same with the encoder's rate following the reported loss (a rule in
#: send-video then; the element's congestion control now), which kept
#: about as many frames intact as capped-rtx beside cubic, without TCP and at
#: 40 and 100 ms round trips, and more against BBR on every path measured (85
#: against 65 % on the 13-packet queue, 38 against 25 % at 100 ms) and against
#: web-like short flows (84 against 79 %).
RECOMMENDED = "capped-rtx-adapt"

#: Port offsets from the base port P.
PORT_RTP = 0
PORT_RTCP = 1
PORT_FEC_COLUMNS = 2
PORT_FEC_ROWS = 3
PORT_RTCP_BACK = 5

#: A moving, detailed test pattern (an animated zone plate), x264 at 4 Mbit/s
#: with B-frames: 1280x720 at 25 fps, a keyframe every 2 s.  About 3.6 Mbit/s
#: come out (the encoder's rate control stays a little under the target on
#: this pattern): P-frames of ~30 kB, B-frames of 2-10 kB, keyframes of
#: 40-70 kB, i.e. ~25, ~5 and 35-60 packets of 1200 bytes.
DEFAULT_SOURCE = (
    "videotestsrc is-live=true pattern=zone-plate kx2=20 ky2=20 kt2=1 ! "
    "video/x-raw,width=1280,height=720,framerate=25/1 ! "
    "x264enc bitrate=4000 speed-preset=superfast bframes=2 key-int-max=50")

#: rtpburstpace's rate cap in the "capped" recipes: 6 Mbit/s of RTP, 1.5 x
#: the default source's encoder target.  Paced frame by frame, that source
#: is uneven: with two B-frames every P-frame of ~30 packets leaves within
#: 0.9 frame period (~8 Mbit/s) and the two B-frames after it carry a few
#: packets.  Capped, a P-frame runs on into the B-frames' periods (~50 ms)
#: and a keyframe of 35-60 packets over 56-96 ms, within the element's
#: default max-delay (100 ms).  A source at another bit rate wants its own
#: cap (or max-rate-factor, which measures the stream but starts only after
#: 32 frames, i.e. not for the first keyframe).
CAP_PROPS = "max-rate=6000000"
#: the -grouped FEC recipes: the media and the FEC streams in one group, whose
#: rate is the cap
FEC_GROUP = "group=send-video-fec group-max-rate=6000000"

#: The "-adapt" recipes: the lowest encoder rate the estimate may bring the stream to, as a
#: share of the encoder's configured bitrate (the element's min-bitrate is set to match), and
#: what the element runs besides the recipe's cap.
ADAPT_MIN_SHARE = 0.25
ADAPT_PROPS = "congestion-control=gcc"
#: capped-rtx-tfrc: the same with TFRC
TFRC_PROPS = "congestion-control=tfrc"
#: gccbwe-rtx: rtpgccbwe's bounds, the cap above as its maximum
GCCBWE_PROPS = "max-bitrate=6000000"

#: The receiver's base jitterbuffer latency (ms), see the module docstring.
BASE_LATENCY_MS = 100
#: Packets per second at which the FEC latencies below are computed: the
#: default source's 3.6-4 Mbit/s in 1200-byte packets.
NOMINAL_PACKET_RATE = 380

#: The receiver's RTCP interval in the RTX recipes (rtpsession's
#: rtcp-min-interval, ms): an early RTCP packet with NACKs is allowed once per
#: interval (RFC 4585), so this bounds how long a NACK waits.
RTX_RTCP_INTERVAL_MS = 50
#: The receiver jitterbuffer's shortest time between two requests for the
#: same packet in the RTX recipes (rtx-min-retry-timeout, ms).  By default
#: it is the packet spacing, which for video is the frame period (all
#: packets of a frame share a timestamp): 40 ms at 25 fps, so a packet
#: whose frame was spread over 36 ms had 3-4 requests within a 200 ms
#: latency.  With 10 ms as the floor the retry timeout follows the measured
#: retransmission round trip (plus twice the jitter), as rtpjitterbuffer
#: computes it: about twice as many requests in the same time.  receive-video
#: raises it to the round trip it measures (rtx_min_retry_ms).
RTX_MIN_RETRY_TIMEOUT_MS = 10
#: Whether the receiver's jitterbuffer asks for the packet after the last one
#: received when it is later than the packet spacing predicts
#: (rtx-next-seqnum, TRUE by default).  Off in the RTX recipes: a frame held
#: to a rate cap (max-rate) leaves later than that prediction by design, and
#: with it on the receiver asked for packets that were only late: 3.4-3.7 %
#: retransmissions without TCP where at most 0.1 % of the packets were lost,
#: unpaced beside the media
#: (docs/results.md, section 7).  A loss is still seen when the next packet
#: after it comes in.
RTX_NEXT_SEQNUM = False
#: The properties the RTX recipes set on the receiver's jitterbuffer (as
#: gst-launch would write them: rtx-min-retry-timeout is in ms).
RTX_JITTERBUFFER_PROPS = {"rtx-min-retry-timeout": RTX_MIN_RETRY_TIMEOUT_MS,
                          "rtx-next-seqnum": RTX_NEXT_SEQNUM}
#: The session bandwidth (bit/s) the receiver's rtpsession is told in the RTX
#: recipes, so that 5 % of it allows RTCP packets that often.
RTX_SESSION_BANDWIDTH = 4000000

#: The sender's history of packets for retransmission in the RTX recipes
#: (rtprtxsend max-size-time, ms, and max-size-packets; a packet leaves the
#: history when either limit is reached, 0 packets: only the time).  The
#: time covers the longest receiver latency (RTX_LATENCY_MAX_MS) with room;
#: rtprtxsend's default of 100 packets is 250 ms of the default source, less
#: during a keyframe, and at a 100 ms round trip through a 125-packet queue
#: most requests came for packets it had let go: 80-87 % of the frames intact
#: with it, 96-100 % with the time alone (docs/results.md, section 14).
RTX_HISTORY_MS = 1000
RTX_HISTORY_PACKETS = 0
#: rtprtxsend's properties in the RTX recipes (gst-launch syntax)
RTX_SENDER_PROPS = ("payload-type-map=\"application/x-rtp-pt-map,%d=(uint)%d\" "
                    "max-size-time=%d max-size-packets=%d"
                    % (MEDIA_PT, RTX_PT, RTX_HISTORY_MS, RTX_HISTORY_PACKETS))
#: rtprtxsend in the chain before the element (the -rtx-first recipes), as the
#: README's launch lines have it; send-video sets max-size-packets as for the
#: aux sender
RTX_FIRST_SENDER = "rtprtxsend name=rtxsend " + RTX_SENDER_PROPS
#: The sender's RTCP interval in the RTX recipes (rtpsession's
#: rtcp-min-interval, ms; 5 s by default): the round trip that RtxHoldoff
#: needs is measured from the receiver's reports about the sender's last
#: sender report, so the first comes this long after the stream's start.
RTX_SENDER_RTCP_INTERVAL_MS = 200

#: The RTX recipes' receiver chooses its jitterbuffer latency from the round
#: trip it measures (rtx_latency_ms): a packet's retransmission must be able
#: to arrive within it.  What a loss costs before its first request:
#: RTX_LATENCY_SENDER_MS, the latest a packet held to the sender's rate cap
#: leaves after its frame's time (rtpburstpace's default max-delay), and
#: RTX_LATENCY_DETECT_MS, rtpjitterbuffer's automatic rtx-delay (half the
#: packet spacing, which for video is the frame period: 20 ms at 25 fps);
#: then RTX_LATENCY_ROUNDS retransmission round trips as rtpjitterbuffer
#: measures them (rtx-rtt: from its request to the packet, so the NACK's wait
#: for its RTCP packet and the queue are in it): the first request and two
#: more, or more where retransmissions are lost (rtx_rounds).  Until
#: rtpjitterbuffer has a round trip (it has none while no retransmission
#: comes in time), the one RtxRoundTrip measures stands in.  Never below the
#: recipe's latency, never above RTX_LATENCY_MAX_MS (an interactive budget:
#: a longer one is --latency's).  It starts at RTX_LATENCY_MAX_MS, since
#: before the first retransmission nothing says how long the path is, and a
#: stream's first second is where it loses most (it joins a queue that a
#: competitor holds full); it comes down once, to what the path asks, when
#: it has a round trip and the share of failed requests
#: (RTX_LATENCY_MIN_REQUESTS), or RTX_LATENCY_SETTLE_S after the stream's
#: first packet (to the recipe's latency where nothing was asked for), and
#: from then on only grows, by at least RTX_LATENCY_STEP_MS at a time
#: (RtxLatency.follow).  Measured (docs/results.md, section 13): beside
#: cubic at RTT 40 ms through fq_codel, 200 ms kept 89-93 % of the frames
#: intact (most losses repaired after the deadline), the latency chosen so
#: (330-340 ms) 100 %; at 100 ms 73-88 % and (400 ms) 100 %.  The start
#: (section 15): at RTT 100 ms through a 125-packet drop-tail queue beside
#: cubic, most packets lost for good were lost in the stream's first second,
#: while the latency still was 200 ms; starting at 400 kept 96.8 % of the
#: frames intact against 92.4 % from 200, beside BBR on the 13-packet queue
#: 97.2 against 93.8 %.
RTX_LATENCY_SENDER_MS = 100
RTX_LATENCY_DETECT_MS = 20
RTX_LATENCY_ROUNDS = 3
RTX_LATENCY_MAX_MS = 400
RTX_LATENCY_STEP_MS = 10
RTX_LATENCY_SETTLE_S = 5.0
#: Where retransmissions are lost too, more rounds: as many as it takes for
#: a packet to stay lost in at most this share of the cases when each
#: request fails with the share of requests that failed (RtxFailures:
#: rtpjitterbuffer's rtx-count against its rtx-success-count since it first
#: knew the round trip, once RTX_LATENCY_MIN_REQUESTS were made).  Beside
#: BBR on the 13-packet queue 53-68 % of the requests failed (the
#: retransmission lost in the same full queue) and the round trip was 15-21
#: ms: 3 rounds keep the recipe's 200 ms, which left 0.8-2.1 % of the packets
#: lost and 73-89 % of the frames intact; fixed at 300 and 400 ms, 0.0-0.3 %
#: and 92-99 %; chosen so, 97-98 % (docs/results.md, section 14).
RTX_LATENCY_RESIDUAL = 0.001
RTX_LATENCY_MIN_REQUESTS = 50


def rtx_rounds(failed):
    """Retransmission rounds for a share FAILED (0-1) of the requests failing."""
    if failed <= 0:
        return RTX_LATENCY_ROUNDS
    if failed >= 1:
        return float("inf")
    return max(RTX_LATENCY_ROUNDS,
               math.ceil(math.log(RTX_LATENCY_RESIDUAL) / math.log(failed) - 1e-9))


def rtx_min_retry_ms(rtt_ms):
    """The receiver jitterbuffer's rtx-min-retry-timeout (ms) in the RTX
    recipes: never sooner than the retransmission round trip the receiver
    measured itself (RtxRoundTrip, ms; 0: none yet), RTX_MIN_RETRY_TIMEOUT_MS
    at least.
    rtpjitterbuffer asks again after its own round trip plus twice the
    jitter, but until it has one it asks every 40 ms, and it measures the
    round trip from the last request for a packet, not the first: a path
    longer than its retry timeout looks as short as the time since the last
    retry, and the timeout stays short.  Beside BBR at RTT 100 ms through a
    125-packet queue, with 10 ms as the floor, the receiver asked for each
    packet it missed 6.4-7.1 times in 5 runs of 6 (up to 4700 requests in
    20 s), every request answered into the same full queue; following the
    round trip, 1.03-1.21 times in every run (docs/results.md, section 16).
    Until the first retransmission has come, the floor stays where it is and
    the jitterbuffer asks every 40 ms: at the start a stream joins a queue
    that a competitor holds full and nothing says how long the path is; a
    retransmission lost there is asked for again soon (section 16)."""
    if rtt_ms and rtt_ms > 0:
        return max(RTX_MIN_RETRY_TIMEOUT_MS, int(math.ceil(rtt_ms)))
    return RTX_MIN_RETRY_TIMEOUT_MS


def rtx_latency_ms(rtx_rtt_ms, floor_ms, failed=0.0):
    """The jitterbuffer latency (ms) for a measured retransmission round trip
    (ms) and share of failed requests."""
    rounds = rtx_rounds(failed)
    if rounds == float("inf"):
        return max(floor_ms, RTX_LATENCY_MAX_MS)
    want = RTX_LATENCY_SENDER_MS + RTX_LATENCY_DETECT_MS + rounds * rtx_rtt_ms
    step = RTX_LATENCY_STEP_MS
    want = int(-(-want // step) * step)         # up to the step
    return max(floor_ms, min(RTX_LATENCY_MAX_MS, want))


class RtxRoundTrip:
    """The retransmission round trip as the receiving application sees it:
    from the jitterbuffer's first request for a packet to the retransmission's
    arrival, whether or not it came in time.  rtpjitterbuffer's own rtx-rtt
    counts only retransmissions that came before it gave the packet up, so on
    a path whose round trip the latency does not cover it never has one.
    request() and arrival() take sequence numbers and times in seconds;
    ms() is the shortest of the last SAMPLES round trips (0: none yet): an
    answer to a second request comes later than the first one's would have,
    so the shortest is the one that was answered at the first request."""

    SAMPLES = 16
    #: requests older than this (s) are forgotten
    KEEP_S = 2.0

    def __init__(self):
        self.asked = collections.OrderedDict()
        self.samples = collections.deque(maxlen=self.SAMPLES)

    def request(self, seq, when):
        while self.asked and next(iter(self.asked.values())) < when - self.KEEP_S:
            self.asked.popitem(last=False)
        self.asked.setdefault(seq & 0xffff, when)

    def arrival(self, seq, when):
        asked = self.asked.pop(seq & 0xffff, None)
        if asked is not None and when >= asked:
            self.samples.append(when - asked)

    def ms(self):
        return 1000.0 * min(self.samples) if self.samples else 0.0


class RtxLatency:
    """The RTX recipes' receiver latency as it follows the path: starts at
    start_ms (RTX_LATENCY_MAX_MS in receive-video; the floor, floor_ms,
    when not given), comes down once to what the path measured asks
    (settle), and from then on only grows (update).  follow() takes each
    look at the path and does what is due; each returns the new latency
    when it changes, else None.  changes: [when, ms, round trip ms, whose
    measurement, failed share] per change; settled: the same for the
    decision to come down (also when it kept the latency), None before."""

    def __init__(self, floor_ms, start_ms=None):
        self.floor = floor_ms
        self.ms = self.start = floor_ms if start_ms is None else max(floor_ms, start_ms)
        self.changes = []
        self.settled = None if self.ms > floor_ms else []

    def _record(self, when, ms, rtx_rtt_ms, source, failed):
        return [round(when, 3), ms, round(rtx_rtt_ms or 0.0, 1), source, round(failed, 3)]

    def follow(self, rtx_rtt_ms, when, source="rtpjitterbuffer", failed=0.0,
               failed_known=False, stream_s=0.0):
        """rtx_rtt_ms: the round trip (0: none yet); failed, failed_known: the
        failed share and whether it was counted (RtxFailures.known);
        stream_s: seconds since the stream's first packet."""
        if self.settled is None:
            if (rtx_rtt_ms and rtx_rtt_ms > 0 and failed_known) or \
                    stream_s >= RTX_LATENCY_SETTLE_S:
                return self.settle(rtx_rtt_ms, when, source, failed)
            return None
        return self.update(rtx_rtt_ms, when, source, failed)

    def settle(self, rtx_rtt_ms, when, source="rtpjitterbuffer", failed=0.0):
        """Comes down from the start to what the round trip and failed share
        ask (the floor without a round trip); only the first call counts."""
        if self.settled is not None:
            return None
        if rtx_rtt_ms and rtx_rtt_ms > 0:
            want = rtx_latency_ms(rtx_rtt_ms, self.floor, failed)
        else:
            want = self.floor
        want = min(want, self.ms)
        self.settled = self._record(when, want, rtx_rtt_ms, source, failed)
        if want == self.ms:
            return None
        self.ms = want
        self.changes.append(self.settled)
        return want

    def update(self, rtx_rtt_ms, when, source="rtpjitterbuffer", failed=0.0):
        """Raises the latency when the round trip and failed share ask for
        at least RTX_LATENCY_STEP_MS more."""
        if not rtx_rtt_ms or rtx_rtt_ms <= 0:
            return None
        want = rtx_latency_ms(rtx_rtt_ms, self.floor, failed)
        if want < self.ms + RTX_LATENCY_STEP_MS:
            return None
        self.ms = want
        self.changes.append(self._record(when, want, rtx_rtt_ms, source, failed))
        return want


class RtxFailures:
    """The share of rtpjitterbuffer's retransmission requests that failed,
    from its stats' rtx-count and rtx-success-count, counted from the first
    time it knows the round trip (rtx-rtt): before that it asks again after
    a default timeout, often before the first answer could have come, and
    those requests fail for that reason (on the testbed 58-79 % of the
    first 50 failed where 35 % of all did).  update() takes the stats and
    returns the share, 0 until RTX_LATENCY_MIN_REQUESTS were counted (known
    says whether they were)."""

    def __init__(self):
        self.base = None
        self.known = False

    def update(self, jb_stats):
        count = jb_stats.get("rtx-count") or 0
        success = jb_stats.get("rtx-success-count") or 0
        if self.base is None:
            if not jb_stats.get("rtx-rtt"):
                return 0.0
            self.base = (count, success)
        asked, answered = count - self.base[0], success - self.base[1]
        if asked < RTX_LATENCY_MIN_REQUESTS:
            return 0.0
        self.known = True
        return max(0.0, 1.0 - answered / asked)


class KeyframeHoldoff:
    """The sender's filter of keyframe requests that a keyframe already sent
    answers.  The receiver asks for a keyframe when its jitterbuffer gives a
    packet up, at the packet's expected arrival plus its latency L at the
    earliest; a request that reaches the sender less than L after a keyframe
    left the encoder is therefore about a packet sent before that keyframe,
    which the keyframe repairs (it resets every reference).  Each burst of
    losses makes the receiver ask once per damaged frame, within a frame
    period or two; rtpsession drops a request only within two round trips
    of the last one, which on a short path is nothing, so without this each
    request of a burst became a keyframe of its own into the same full
    queue.  hold_s is L or less (the recipe's latency, below which
    receive-video never goes): a shorter one lets through more requests,
    never drops one that a keyframe still has to answer; a receiver that
    asks sooner after a loss than receive-video (a shorter latency, or a
    request before the jitterbuffer gives the packet up) needs a hold no
    longer than that.
    keyframe() and request() take times in seconds; request() returns
    whether to pass the request on."""

    def __init__(self, hold_s):
        self.hold = hold_s
        self.last_keyframe = None
        self.passed = 0
        self.dropped = 0

    def keyframe(self, when):
        self.last_keyframe = when

    def request(self, when):
        held = (self.hold > 0 and self.last_keyframe is not None
                and 0 <= when - self.last_keyframe < self.hold)
        if held:
            self.dropped += 1
        else:
            self.passed += 1
        return not held


class RtxHoldoff:
    """The sender's filter of retransmission requests that a retransmission
    already on its way answers.  A retransmission sent at t cannot be known
    lost by the receiver, nor its new request reach the sender, before t
    plus the round trip; a request for the same packet that comes sooner
    was sent by a receiver that asks again on a timer shorter than the path
    (rtpjitterbuffer does until it has measured the round trip, and may
    measure it too short: rtx_min_retry_ms), and answering it sends the
    packet again into the queue the first one is still in.  Beside BBR at
    RTT 100 ms through a 125-packet queue such a receiver asked for each
    packet it missed 6.4-7.1 times in 5 runs of 6; this filter dropped
    547-3680 requests a run, 77-82 % of them (docs/results.md, section
    16).  The round trip is the sender's RTCP measurement (rtpsession's
    rb-round-trip, from the receiver's reports): by default the shortest
    of them, the path's own round trip, which no answer can beat; with
    latest=True the last report's.  The last report's holds the queue the
    path had then, and a request the receiver sends sooner is not always
    early: rtpjitterbuffer spaces its requests by the round trip it
    measures for retransmissions and stops asking when the next request
    would leave too little of its latency.  When the capacity halved beside
    CUBIC, the last report's round trip, the queue in it, dropped second
    requests that came 97 ms after the first and were the receiver's last,
    and the packets they asked for were lost for good; with the shortest,
    4 times fewer packets stayed lost there (docs/results.md, section 29).
    Until there is a round trip, every request passes (what rtprtxsend does
    alone).  round_trip() takes seconds; request() takes a sequence number
    and a time in seconds and returns whether to pass the request on."""

    #: requests older than this (s) are forgotten: rtprtxsend keeps packets
    #: for RTX_HISTORY_MS
    KEEP_S = 2.0

    def __init__(self, latest=False):
        self.latest = latest
        self.rtt = 0.0
        self.sent = collections.OrderedDict()   # seq -> when it was last passed
        self.passed = 0
        self.dropped = 0

    def round_trip(self, seconds):
        if seconds > 0 and (self.latest or self.rtt == 0 or seconds < self.rtt):
            self.rtt = seconds

    def request(self, seq, when):
        seq &= 0xffff
        while self.sent and next(iter(self.sent.values())) < when - self.KEEP_S:
            self.sent.popitem(last=False)
        last = self.sent.get(seq)
        if last is not None and 0 <= when - last < self.rtt:
            self.dropped += 1
            return False
        self.sent.pop(seq, None)
        self.sent[seq] = when
        self.passed += 1
        return True


def report_round_trip(session):
    """The round trip (seconds) the receiver's last report gives an rtpbin session: the
    largest rb-round-trip (16.16 fixed point seconds) of the remote sources with a report
    block, or None before the first report (RtxHoldoff.round_trip's)."""
    rtts = []
    for source in session.get_property("sources") or []:
        st = source.get_property("stats")
        if st is None or st.get_value("internal") or not st.get_value("have-rb"):
            continue
        rtt = st.get_value("rb-round-trip") / 65536.0
        if rtt > 0:
            rtts.append(rtt)
    return max(rtts) if rtts else None


#: rtpstorage (ULPFEC receivers) keeps packets this much longer than the
#: jitterbuffer latency, ms.  With latency + 50 ms (as in rtpstorage's
#: documentation) none of the losses of the stream's first second were
#: repaired on loopback: the FEC packets had left the storage when the
#: jitterbuffer's packet-lost events came.
ULPFEC_STORAGE_EXTRA_MS = 500

#: The receiver's caps.  rtpbin sends a PLI for a keyframe request only when
#: the payload type's caps allow it (rtcp-fb-nack-pli, SDP a=rtcp-fb:96 nack
#: pli); rtpsession takes them from the udpsrc's caps.
MEDIA_CAPS = ("application/x-rtp,media=video,clock-rate=%d,encoding-name=H264,"
              "payload=%d,rtcp-fb-nack-pli=(boolean)true" % (CLOCK_RATE, MEDIA_PT))

Recipe = collections.namedtuple("Recipe", [
    "name",        # as given to --recipe
    "paced",       # rtpburstpace after the payloader
    "pace_after_rtpbin",  # ... or behind rtpbin, on send_rtp_src_0
    "pace_props",  # its properties (gst-launch syntax), "" for the defaults
    "protection",  # None, "st2022", "ulpfec" or "rtx"
    "rows",        # ST 2022-1 matrix (rows D, columns L), else 0
    "columns",
    "ulpfec_percentage",
    "latency_ms",  # receiver jitterbuffer latency
    "summary",
    "adapt",       # the element's congestion control, the encoder following (ratecontrol.py)
    "pacer",       # the element after the payloader: rtpburstpace, or a peer to compare
    "rtx_first",   # rtprtxsend before the element, not as rtpbin's aux sender
], defaults=(False, "rtpburstpace", False))


def st2022_wait_packets(rows, columns):
    """Packets after a lost one until the column FEC packet that repairs it
    has been sent, at worst.

    rtpst2022-1-fecenc (1.22) sends column c's FEC packet with the media
    packet at offset L + (D - 1) c after the column's last packet, which
    comes at matrix position (D - 1) L + c; for the column's first packet
    (position c) that is D L + (D - 1) c packets later, the most for the
    last column.  A row FEC packet leaves with the row's last packet, so a
    single loss per row is repaired within L packets."""
    return rows * columns + (rows - 1) * (columns - 1)


def st2022_latency_ms(rows, columns):
    wait = st2022_wait_packets(rows, columns) * 1000.0 / NOMINAL_PACKET_RATE
    # round up to 50 ms
    return BASE_LATENCY_MS + int((wait + 49.999) // 50) * 50


def _recipes():
    table = collections.OrderedDict()

    def add(r):
        if r.protection:
            r = r._replace(summary=r.summary + "; keyframe request (PLI) on a loss left")
        table[r.name] = r

    modes = [("bursty", None, "the payloader's bursts"),
             ("paced", "", "rtpburstpace after the payloader"),
             ("capped", CAP_PROPS, "rtpburstpace %s after the payloader" % CAP_PROPS)]
    for mode, props, how in modes:
        paced = props is not None
        add(Recipe(mode, paced, False, props, None, 0, 0, 0, BASE_LATENCY_MS,
                   "%s, no rtpbin, no repair" % how))
        for d in (5, 10):
            add(Recipe("%s-fec%dx%d" % (mode, d, d), paced, False, props, "st2022", d, d, 0,
                       st2022_latency_ms(d, d),
                       "%s; ST 2022-1 FEC %d rows x %d columns (rtpbin "
                       "fec-encoders), +%d %% packets"
                       % (how, d, d, round(100.0 * 2 / d))))
        add(Recipe("%s-ulpfec" % mode, paced, False, props, "ulpfec", 0, 0, 20,
                   BASE_LATENCY_MS + 50,
                   "%s; ULPFEC (rtpulpfecenc percentage=20%s, rtpulpfecdec with "
                   "rtpbin's storage), +20 %% packets"
                   % (how, " after the element" if paced else "")))
        rtx = ("retransmission (rtprtxsend / rtprtxreceive as rtpbin aux elements, "
               "NACKs in RTCP back to the sender)")
        add(Recipe("%s-rtx" % mode, paced, False, props, "rtx", 0, 0, 0,
                   2 * BASE_LATENCY_MS, "%s; %s" % (how, rtx)))
        if mode in ("paced", "capped"):
            # the element behind rtpbin, where it sees the retransmissions
            # (under the cap they count against it: rtpburstrepair.h)
            behind = how.replace("after the payloader", "behind rtpbin (send_rtp_src_0)")
            add(Recipe("%s-rtx-behind" % mode, paced, True, props, "rtx", 0, 0, 0,
                       2 * BASE_LATENCY_MS, "%s; %s, spread between the media's slots%s"
                       % (behind, rtx, ", within the cap" if props else "")))
        if mode == "capped":
            # the FEC packets (made inside rtpbin, after the element) counted in the
            # cap: the media's element and one pass-through element per FEC stream
            # share a group whose rate is the cap (docs/algorithm.md, "A shared rate")
            for d in (5,):
                r = table["capped-fec%dx%d" % (d, d)]
                add(r._replace(name=r.name + "-grouped", pace_props=props + " " + FEC_GROUP,
                               summary=r.summary.split("; keyframe request")[0].replace(
                                   "fec-encoders)", "fec-encoders), FEC packets counted in "
                                   "the cap (%s on the media, rtpburstpace pace=false "
                                   "in the group on each FEC stream; measured worse than "
                                   "without, docs/results.md section 11)" % FEC_GROUP)))
            # the same, the element's congestion control capping the rate at its
            # estimate and the encoder's rate following it
            r = table["capped-rtx"]
            add(r._replace(name="capped-rtx-adapt", adapt=True,
                           pace_props=props + " " + ADAPT_PROPS, summary=(
                               r.summary.split("; keyframe request")[0].replace(
                                   props, props + " " + ADAPT_PROPS, 1)
                               + ", the payloader sending the transport-wide-cc header "
                               "extension; the encoder's bit rate follows the element's "
                               "estimated-bitrate (ratecontrol.py)")))
            # the same with rtprtxsend before the element (as the README's launch
            # lines have it): the element sees the retransmissions and spreads them
            # between the media's slots (rtpburstrepair.h), and they pass rtpbin's
            # session, which gives them transport-wide sequence numbers of their own
            r = table["capped-rtx-adapt"]
            add(r._replace(name="capped-rtx-first-adapt", rtx_first=True, summary=(
                r.summary.split("; keyframe request")[0].replace(
                    "rtprtxsend / rtprtxreceive as rtpbin aux elements",
                    "rtprtxsend before rtpburstpace, which spreads the retransmissions "
                    "between the media's slots; rtprtxreceive as rtpbin's aux receiver"))))
            # ... and the retransmissions passed on as they come (pace-other-payloads=false)
            r = table["capped-rtx-first-adapt"]
            add(r._replace(name="capped-rtx-first-pass-adapt",
                           pace_props=r.pace_props + " pace-other-payloads=false",
                           summary=r.summary.replace(
                               "rtpburstpace %s" % r.pace_props,
                               "rtpburstpace %s pace-other-payloads=false" % r.pace_props, 1)
                           .replace("which spreads the retransmissions between the media's "
                                    "slots", "which passes the retransmissions on as they "
                                    "come").split("; keyframe request")[0]))
            # the same with TFRC (RFC 5348) as the element's congestion control
            add(r._replace(name="capped-rtx-tfrc", pace_props=r.pace_props.replace(
                ADAPT_PROPS, TFRC_PROPS), summary=r.summary.replace(ADAPT_PROPS, TFRC_PROPS)))
            # the peer a GStreamer user would pick instead: gst-plugins-rs's rtpgccbwe
            # (tests/testbed/build-rtpgccbwe.sh) where the element is, its estimate
            # driving the encoder the same way; it paces with its own leaky bucket
            add(r._replace(name="gccbwe-rtx", pacer="rtpgccbwe", pace_props=GCCBWE_PROPS,
                           summary=(
                               "gst-plugins-rs's rtpgccbwe %s (Google Congestion Control, "
                               "its own pacing) after the payloader instead of "
                               "rtpburstpace; retransmission as capped-rtx, the payloader "
                               "sending the transport-wide-cc header extension; the "
                               "encoder's bit rate follows its estimated-bitrate "
                               "(ratecontrol.py)" % GCCBWE_PROPS)))
        if mode == "paced":
            add(Recipe("%s-rtx-behind-pass" % mode, paced, True,
                       ((props + " ") if props else "") + "pace-other-payloads=false", "rtx",
                       0, 0, 0, 2 * BASE_LATENCY_MS, "%s; %s, passed on as they come"
                       % (behind.replace("rtpburstpace", "rtpburstpace pace-other-payloads=false"),
                          rtx)))
    return table


RECIPES = _recipes()

#: The recipes a user chooses from (send-video / receive-video --recipe):
#: the recommendation, the same without the encoder following the estimate
#: (an encoder ratecontrol.py does not know), retransmission with pacing
#: alone, pacing alone (no return channel) and the payloader's bursts as the
#: baseline.  The others are experiment variants (FEC, the element behind
#: rtpbin, ...), measured worse in docs/results.md; the applications take
#: them with --lab, and tests/testbed runs them.
USER_RECIPES = ("recommended", RECOMMENDED, "capped-rtx", "paced-rtx", "paced", "bursty")


def names(lab=True):
    """The recipe names: with LAB every one, else USER_RECIPES."""
    if not lab:
        return list(USER_RECIPES)
    return list(RECIPES) + ["recommended"]


def is_lab(name):
    """Whether the recipe NAME is an experiment variant (only with --lab)."""
    return name not in USER_RECIPES


def get(name, lab=True):
    """The recipe called NAME ("recommended" is an alias); without LAB only
    one of USER_RECIPES."""
    if name == "recommended":
        name = RECOMMENDED
    if name not in RECIPES:
        raise KeyError("unknown recipe %r; known: %s" % (name, ", ".join(names(lab))))
    if not lab and is_lab(name):
        raise KeyError("recipe %r is an experiment variant: give --lab too (--list-recipes "
                       "--lab lists them); a user's recipes: %s"
                       % (name, ", ".join(names(False))))
    return RECIPES[name]


def uses_rtpbin(recipe):
    return recipe.protection is not None


def needs_sender(recipe):
    """Whether the receiver must send RTCP back (RTX needs the NACKs)."""
    return recipe.protection == "rtx"


# ---------------------------------------------------------------------------
# Pipelines.  Each side is described by a Plan: gst-launch fragments (without
# rtpbin), the rtpbin's properties, and the links to and from rtpbin's
# request and sometimes pads, which the applications make after they have
# created rtpbin and connected its signals (rtpbin asks for aux and FEC
# elements when the pads are requested, so the signals must come first).

Plan = collections.namedtuple("Plan", [
    "fragments",     # list of gst-launch fragments, parsed into one pipeline
    "rtpbin",        # dict of rtpbin properties (as strings), or None
    "to_rtpbin",     # list of (element name, rtpbin sink pad name)
    "from_rtpbin",   # list of (rtpbin src pad name or prefix, element name)
    "hooks",         # list of words describing signal handlers, for the printout
])


def _st2022_fec_encoders(recipe):
    return ('fec,0="rtpst2022-1-fecenc\\ rows\\=%d\\ columns\\=%d\\ pt\\=%d";'
            % (recipe.rows, recipe.columns, ST2022_FEC_PT))


def _st2022_fec_decoders(recipe, latency_ms):
    # the decoder keeps media and FEC packets this long (by arrival time)
    size_ns = (latency_ms + 500) * 1000000
    return 'fec,0="rtpst2022-1-fecdec\\ size-time\\=%d";' % size_ns


def sender_plan(recipe, host, port, source=None):
    source = source or DEFAULT_SOURCE
    pay = ("h264parse name=parse ! video/x-h264,alignment=au ! "
           "rtph264pay name=pay pt=%d mtu=%d config-interval=-1" % (MEDIA_PT, MTU))
    if recipe.protection == "st2022":
        pay += " ssrc=0"          # rtpst2022-1-fecenc refuses other SSRCs
    if recipe.adapt:
        # the payloader's auto-header-extension enables the extension from these caps
        pay += " ! " + ratecontrol.twcc_caps()
    chain = "%s ! %s" % (source, pay)
    pace = "%s name=pace" % recipe.pacer + (" " + recipe.pace_props if recipe.pace_props else "")
    if recipe.rtx_first:
        chain += " ! " + RTX_FIRST_SENDER
    if recipe.paced and not recipe.pace_after_rtpbin:
        chain += " ! " + pace
    if not uses_rtpbin(recipe):
        chain += " ! udpsink name=rtpsink host=%s port=%d" % (host, port + PORT_RTP)
        return Plan([chain], None, [], [], [])

    if recipe.protection == "ulpfec":
        chain += (" ! rtpulpfecenc name=ulpfecenc pt=%d percentage=%d"
                  % (ULPFEC_PT, recipe.ulpfec_percentage))
    chain += " ! identity name=to_rtpbin silent=true"
    fragments = [
        chain,
        ("%s ! " % pace if recipe.pace_after_rtpbin else "")
        # behind rtpbin the element releases every packet itself: a synchronising sink
        # would only hold the media by the pipeline latency, which the element then has to
        # run ahead of, and retransmissions waited behind that (docs/results.md, section 10);
        # nor does it after a peer in the element's place (gccbwe-rtx), which releases the
        # packets at its own times: a synchronising sink would bunch them again at the
        # frames' timestamps
        + "udpsink name=rtpsink host=%s port=%d%s" % (
            host, port + PORT_RTP,
            " sync=false" if recipe.pace_after_rtpbin or recipe.pacer != "rtpburstpace"
            else ""),
        "udpsink name=rtcpsink host=%s port=%d sync=false async=false"
        % (host, port + PORT_RTCP),
        "udpsrc name=rtcpsrc port=%d ! identity name=rtcp_in silent=true"
        % (port + PORT_RTCP_BACK),
    ]
    props = {"rtp-profile": "avpf"}
    to_rtpbin = [("to_rtpbin", "send_rtp_sink_0"), ("rtcp_in", "recv_rtcp_sink_0")]
    from_rtpbin = [("send_rtp_src_0", "pace" if recipe.pace_after_rtpbin else "rtpsink"),
                   ("send_rtcp_src_0", "rtcpsink")]
    hooks = []
    if recipe.protection == "st2022":
        props["fec-encoders"] = _st2022_fec_encoders(recipe)
        grouped = FEC_GROUP in (recipe.pace_props or "")
        for k, port_fec in ((0, PORT_FEC_COLUMNS), (1, PORT_FEC_ROWS)):
            # FEC packets carry no timestamps: a synchronising sink sends them
            # at once, when the encoder pushes them; in a -grouped recipe they
            # pass an element of the media's group first, which counts them in
            # its rate and passes them on at once
            fragments.append("%sudpsink name=fecsink%d host=%s port=%d async=false" % (
                "rtpburstpace name=fecpace%d pace=false %s ! " % (k, FEC_GROUP)
                if grouped else "", k, host, port + port_fec))
            from_rtpbin.append(("send_fec_src_0_%d" % k,
                                "fecpace%d" % k if grouped else "fecsink%d" % k))
    elif recipe.protection == "rtx":
        if not recipe.rtx_first:
            hooks.append("request-aux-sender: rtprtxsend " + RTX_SENDER_PROPS)
        hooks.append("get-internal-session 0: rtcp-min-interval=%d ms"
                     % RTX_SENDER_RTCP_INTERVAL_MS)
        hooks.append("retransmission requests into rtprtxsend: RtxHoldoff")
    return Plan(fragments, props, to_rtpbin, from_rtpbin, hooks)


def receiver_plan(recipe, port, sender=None, latency_ms=None, keyframe_requests=True):
    latency_ms = latency_ms or recipe.latency_ms
    client = ("rtph264depay name=depay%s ! h264parse ! "
              "avdec_h264 name=dec output-corrupt=false ! fakesink name=sink sync=false"
              % (" request-keyframe=true" if uses_rtpbin(recipe) and keyframe_requests
                 else ""))
    src = 'udpsrc name=rtpsrc port=%d caps="%s"' % (port + PORT_RTP, MEDIA_CAPS)
    if not uses_rtpbin(recipe):
        chain = "%s ! rtpjitterbuffer name=jb latency=%d do-lost=true ! %s" % (
            src, latency_ms, client)
        return Plan([chain], None, [], [], [])

    fragments = [
        src,
        "udpsrc name=rtcpsrc port=%d" % (port + PORT_RTCP),
        client,
    ]
    props = {"latency": str(latency_ms), "do-lost": "true", "rtp-profile": "avpf"}
    to_rtpbin = [("rtpsrc", "recv_rtp_sink_0"), ("rtcpsrc", "recv_rtcp_sink_0")]
    from_rtpbin = [("recv_rtp_src_0_", "depay")]
    hooks = ["request-pt-map: H264 %d, RTX %d, ULPFEC %d (is-fec)" % (
        MEDIA_PT, RTX_PT, ULPFEC_PT)]
    if sender:
        fragments.append("udpsink name=rtcpsink host=%s port=%d sync=false async=false"
                         % (sender, port + PORT_RTCP_BACK))
    else:
        # no --sender: the receiver adds the address the RTP packets come
        # from (receive-video does, on the first packet)
        fragments.append("multiudpsink name=rtcpsink sync=false async=false")
    from_rtpbin.append(("send_rtcp_src_0", "rtcpsink"))
    if recipe.protection == "st2022":
        props["fec-decoders"] = _st2022_fec_decoders(recipe, latency_ms)
        fragments += [
            'udpsrc name=fecsrc0 port=%d caps="application/x-rtp,payload=%d"'
            % (port + PORT_FEC_COLUMNS, ST2022_FEC_PT),
            'udpsrc name=fecsrc1 port=%d caps="application/x-rtp,payload=%d"'
            % (port + PORT_FEC_ROWS, ST2022_FEC_PT),
        ]
        to_rtpbin += [("fecsrc0", "recv_fec_sink_0_0"), ("fecsrc1", "recv_fec_sink_0_1")]
    elif recipe.protection == "ulpfec":
        hooks += ["new-storage: size-time=%d ms" % (latency_ms + ULPFEC_STORAGE_EXTRA_MS),
                  "request-fec-decoder-full: rtpulpfecdec pt=%d storage=<rtpbin's>, "
                  "the packet after an unrepaired loss marked DISCONT" % ULPFEC_PT]
    elif recipe.protection == "rtx":
        props["do-retransmission"] = "true"
        hooks.append("request-aux-receiver: rtprtxreceive payload-type-map="
                     "\"application/x-rtp-pt-map,%d=(uint)%d\"" % (MEDIA_PT, RTX_PT))
        hooks.append("get-internal-session 0: bandwidth=%d rtcp-min-interval=%d ms"
                     % (RTX_SESSION_BANDWIDTH, RTX_RTCP_INTERVAL_MS))
        hooks.append("new-jitterbuffer: " + " ".join(
            "%s=%s" % (k, str(v).lower()) for k, v in RTX_JITTERBUFFER_PROPS.items()))
    return Plan(fragments, props, to_rtpbin, from_rtpbin, hooks)


#: receive-video's video sink: none by default (receiver_plan), the picture
#: with --display (with_display; the sink synchronises: frames are shown at
#: their time)
NO_DISPLAY_SINK = "fakesink name=sink sync=false"
DISPLAY_SINK = "videoconvert ! autovideosink name=sink"


def with_display(plan):
    """The receiver's PLAN with DISPLAY_SINK in place of NO_DISPLAY_SINK."""
    return plan._replace(fragments=[f.replace(NO_DISPLAY_SINK, DISPLAY_SINK)
                                    for f in plan.fragments])


def structure_numbers(s, keys):
    """The numeric fields KEYS of the GstStructure S that it has, as a dict;
    None for no structure."""
    if s is None:
        return None
    out = {}
    for k in keys:
        if s.has_field(k):
            v = s.get_value(k)
            if isinstance(v, (int, float)):
                out[k] = v
    return out


def event_fields(ev, name, fields):
    """structure_numbers of EV's structure if EV is called NAME; else None.
    (PyGObject gives the structure itself with GStreamer 1.22 and, since
    1.26, a wrapper to open in a with block.)"""
    if not ev.has_name(name):
        return None
    st = ev.get_structure()
    if hasattr(st, "has_field"):
        return structure_numbers(st, fields)
    with st as opened:
        return structure_numbers(opened, fields)


def describe(plan):
    """The plan as one gst-launch-like line (rtpbin's links written out as
    rb.PAD references; signal handlers in brackets at the end)."""
    parts = []
    if plan.rtpbin is not None:
        props = " ".join('%s="%s"' % (k, v.replace('"', '\\"')) if " " in v or '"' in v
                         or "=" in v else "%s=%s" % (k, v)
                         for k, v in plan.rtpbin.items())
        parts.append("rtpbin name=rb " + props)
    parts += plan.fragments
    line = "  ".join(parts)
    for elem, pad in plan.to_rtpbin:
        line += "  %s. ! rb.%s" % (elem, pad)
    for pad, elem in plan.from_rtpbin:
        line += "  rb.%s%s ! %s." % (pad, "*" if pad.endswith("_") else "", elem)
    if plan.hooks:
        line += "  [rtpbin signals: %s]" % "; ".join(plan.hooks)
    return line


def table_markdown(lab=True):
    """The recipe table (Markdown); without LAB only USER_RECIPES."""
    rows = ["| recipe | what | receiver latency | ports |",
            "|---|---|---|---|"]
    for name in names(lab):
        r = get(name)
        ports = ["P RTP"]
        if uses_rtpbin(r):
            ports.append("P+1 RTCP")
        if r.protection == "st2022":
            ports += ["P+2 column FEC", "P+3 row FEC"]
        if uses_rtpbin(r):
            ports.append("P+5 RTCP back%s" % (" (NACKs)" if needs_sender(r) else ""))
        what = r.summary if name != "recommended" else "alias of `%s`" % r.name
        latency = ("%d-%d ms, follows the round trip" % (r.latency_ms, RTX_LATENCY_MAX_MS)
                   if r.protection == "rtx" else "%d ms" % r.latency_ms)
        rows.append("| `%s` | %s | %s | %s |" % (name, what, latency, ", ".join(ports)))
    return "\n".join(rows)


def build(plan, Gst, setup_rtpbin=None):
    """Makes the pipeline of PLAN: parses the fragments, then (if the plan
    has one) creates rtpbin, sets its properties, calls SETUP_RTPBIN(rtpbin)
    to connect signal handlers, and links it.  Returns (pipeline, rtpbin)."""
    pipeline = Gst.parse_launch("  ".join(plan.fragments))
    if plan.rtpbin is None:
        return pipeline, None
    rtpbin = Gst.ElementFactory.make("rtpbin", "rb")
    if rtpbin is None:
        raise RuntimeError("no rtpbin")
    for key, value in plan.rtpbin.items():
        Gst.util_set_object_arg(rtpbin, key, value)
    if setup_rtpbin is not None:
        setup_rtpbin(rtpbin)
    pipeline.add(rtpbin)
    for elem, pad in plan.to_rtpbin:
        if not pipeline.get_by_name(elem).link_pads("src", rtpbin, pad):
            raise RuntimeError("cannot link %s to rtpbin.%s" % (elem, pad))

    pending = []
    for pad, elem in plan.from_rtpbin:
        sink = pipeline.get_by_name(elem)
        srcpad = rtpbin.get_static_pad(pad)
        if srcpad is None and rtpbin.get_pad_template(pad.rstrip("0123456789") + "%u") \
                is not None and rtpbin.get_pad_template(
                    pad.rstrip("0123456789") + "%u").presence == Gst.PadPresence.REQUEST:
            srcpad = rtpbin.request_pad_simple(pad)
        if srcpad is not None:
            if srcpad.link(sink.get_static_pad("sink")) != Gst.PadLinkReturn.OK:
                raise RuntimeError("cannot link rtpbin.%s to %s" % (pad, elem))
        else:
            pending.append((pad, sink))

    def on_pad_added(_rtpbin, newpad):
        name = newpad.get_name()
        for prefix, sink in pending:
            sinkpad = sink.get_static_pad("sink")
            if name.startswith(prefix) and not sinkpad.is_linked():
                newpad.link(sinkpad)
                return

    if pending:
        rtpbin.connect("pad-added", on_pad_added)
    return pipeline, rtpbin


class StatusLine:
    """send-video's and receive-video's live status: one line a second,
    overwritten in place on a terminal, plain lines ("t=...") otherwise (a
    pipe, a log file).  end() finishes the line on a terminal, so that what
    is printed next starts on a line of its own."""

    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()
        self.open = False

    def show(self, line):
        if self.tty:
            self.stream.write("\r\033[K" + line)
            self.open = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def end(self):
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False
