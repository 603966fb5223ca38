#!/usr/bin/python3
# rtpburstpace: writes the seed corpora (tests/fuzz/corpus/<target>/) and the
# reproducers of the bugs the fuzzers found (tests/fuzz/crashes/), encoded in
# the byte format the targets decode (see the OP_* lists in fuzz_schedule.c,
# fuzz_element.c and the other targets; integers are little-endian).  Deterministic: run it
# again after changing an encoding and commit the result.
#
#   /usr/bin/python3 tests/fuzz/make-corpus.py
#
# Licence: LGPL-2.1-or-later.

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def u8(v): return struct.pack('<B', v & 0xff)
def u16(v): return struct.pack('<H', v & 0xffff)
def u32(v): return struct.pack('<I', v & 0xffffffff)
def u64(v): return struct.pack('<Q', v & 0xffffffffffffffff)


# fuzz_time (): selector & 7
def t_zero(): return u8(0)
def t_ms(ms): return u8(1) + u16(ms)
def t_ns32(ns): return u8(2) + u32(ns)
def t_none(minus=0): return u8(3) + u8(minus)
def t_raw(v): return u8(6) + u64(v)


# --- fuzz_element ----------------------------------------------------------

(E_RTP, E_RTP2, E_RTP_FRAME, E_MUTATED, E_RAW, E_LIST, E_CAPS, E_SEGMENT,
 E_PROPERTY, E_FLUSH, E_EOS, E_STREAM_START, E_STATE, E_LATENCY, E_CRANK,
 E_ADVANCE, E_DRAIN, E_SYNC) = range(18)


def element_header(seq=1000, rtptime=90000, fuzzed_caps=False,
                   fuzzed_segment=False):
    """seq, rtptime, start flags (bit 0: fuzzed caps op follows,
    bit 1: fuzzed segment follows)"""
    return u16(seq) + u32(rtptime) + u8((1 if fuzzed_caps else 0) |
                                        (2 if fuzzed_segment else 0))


def e_frame(n):
    """n packets of 1000 B, one new RTP timestamp (+3600), PTS +40 ms,
    marker on the last"""
    return u8(E_RTP_FRAME) + u8(n - 1)


def e_rtp(marker=False, payload=1000, rtptime_same=True, pts_same=True,
          op=E_RTP):
    f = 0x01 if marker else 0x00
    # pick_payload: sel 2 = u16 follows
    body = u8(f) + u8(2) + u16(payload)
    # pick_rtptime: 0 = same as last, 2 = +3600
    body += u8(0 if rtptime_same else 2)
    # pts: 1 = same as last, 3 = +40 ms ; dts: 1 = NONE
    body += u8(1 if pts_same else 3) + u8(1)
    return u8(op) + body


def e_raw(data):
    # len: selector bit 0 set = u8 length
    return u8(E_RAW) + u8(1) + u8(len(data)) + data + u8(0)  # pts NONE


def e_mutated():
    # make_garbage (TRUE): n, then the packet, then n (pos, where, value),
    # then cut?  One mutation: version byte to 0
    return (u8(E_MUTATED) + u8(0) + e_rtp(marker=True)[1:] +
            u8(0) + u8(0) + u8(0x00) + u8(0))


def e_caps(clock_rate_mode, framerate_mode, clock_rate=None, framerate=b''):
    """clock_rate_mode: 0 none, 1 90000, 2 u32 follows, 3 wrong type;
    framerate_mode: 0 none, 1 "25", 2 "30000/1001", 3 int, 4 fraction,
    5 bytes follow"""
    b = u8(E_CAPS) + u8(clock_rate_mode | (framerate_mode << 2))
    if clock_rate_mode == 2:
        b += u32(clock_rate)
    if framerate_mode >= 5:
        b += u8(len(framerate)) + framerate
    return b


def e_property(which, sel, raw=b''):
    """which: 0 burst-size, 1 duty, 2 slot-jitter, 3 seed, 4 frame-period,
    5 payload-size; sel < 200 picks from the target's table"""
    return u8(E_PROPERTY) + u8(which) + u8(sel) + raw


def e_flush(mode='both', fuzzed_segment=False):
    f = {'both': 0, 'start': 1, 'stop': 2}[mode]
    if fuzzed_segment:
        f |= 16
    return u8(E_FLUSH) + u8(f)


def e_crank(n): return u8(E_CRANK) + u8(n - 1)
def e_advance_ms(ms): return u8(E_ADVANCE) + u8(0) + u16(ms)


ELEMENT_SEEDS = {
    # three 25 fps frames of 30 packets, paced, drained
    'frames-25fps': element_header() + e_frame(30) + e_frame(30) +
    e_frame(30) + u8(E_DRAIN),
    # RTP-timestamp estimate: no a-framerate, clock-rate 90000
    'rtptime-estimate': element_header(fuzzed_caps=True) +
    e_caps(1, 0)[1:] + e_frame(10) + e_frame(10) + e_frame(10) + e_frame(5) +
    u8(E_DRAIN),
    # arrival estimate: no clock-rate, no a-framerate, time passes
    'arrival-estimate': element_header(fuzzed_caps=True) + e_caps(0, 0)[1:] +
    e_frame(4) + e_advance_ms(40) + e_frame(4) + e_advance_ms(40) +
    e_frame(4) + e_advance_ms(40) + e_frame(4) + e_advance_ms(40) +
    e_frame(4) + u8(E_DRAIN),
    # a seek mid-frame: flush while a slot wait is pending
    'flush-mid-frame': element_header() + e_frame(20) + u8(E_SYNC) +
    e_crank(3) + e_flush('both') + e_frame(5) + u8(E_DRAIN),
    # a frame as one buffer list, then packets without marker (timeout)
    'list-and-timeout': element_header() + u8(E_LIST) + u8(7) +
    b''.join(u8(1) + e_rtp(marker=(i == 7))[1:] for i in range(8)) +
    e_rtp(rtptime_same=False, pts_same=False) + e_rtp() + e_rtp() +
    u8(E_DRAIN),
    # EOS after two frames
    'eos': element_header() + e_frame(8) + e_frame(8) + u8(E_EOS) +
    u8(E_DRAIN),
    # property limits: b = 7, duty 1, duty 0, jitter 0.5, payload-size 1
    'properties': element_header() + e_property(0, 2) + e_property(1, 1) +
    e_frame(30) + e_property(2, 1) + e_property(5, 1) + e_frame(30) +
    e_property(1, 0) + e_frame(30) + e_property(4, 1) + e_frame(3) +
    u8(E_DRAIN),
    # garbage and a broken header among valid packets
    'garbage': element_header() + e_raw(b'\x80') + e_raw(b'\x00' * 12) +
    e_raw(b'\x80\x60\x00\x01' + b'\x00' * 8 + b'\x01') + e_mutated() +
    e_frame(3) + u8(E_DRAIN),
    # PAUSED with frames queued, then PLAYING again
    'pause-play': element_header() + e_frame(10) + u8(E_SYNC) +
    u8(E_STATE) + e_frame(10) + e_frame(10) + u8(E_STATE) + u8(E_DRAIN),
    # absurd caps: clock-rate -1, a-framerate "1e-300/0"
    'absurd-caps': element_header(fuzzed_caps=True) +
    e_caps(2, 5, clock_rate=0xffffffff, framerate=b'1e-300/0')[1:] +
    e_frame(4) + e_caps(3, 4) + e_frame(4) + u8(E_DRAIN),
}

ELEMENT_CRASHES = {
    # FLUSH_STOP without FLUSH_START while the task waits for a slot: the
    # frame is freed under the task (heap-use-after-free)
    'element-flush-stop-uaf': element_header() + e_frame(30) + u8(E_SYNC) +
    e_crank(1) + u8(E_SYNC) + e_flush('stop') + e_crank(1),
    # EOS, STREAM_START, a packet: accepted with OK, never leaves
    'element-eos-restart-stuck': element_header() + e_frame(5) +
    u8(E_SYNC) + u8(E_EOS) + u8(E_STREAM_START) + e_rtp(marker=True) +
    u8(E_DRAIN),
    # new caps queued behind a frame, then a flush (seek): the caps event is
    # dropped and the next packets leave with the old caps
    'element-flush-drops-caps': element_header() + e_frame(5) + u8(E_SYNC) +
    e_caps(1, 2) + e_flush('both') + e_frame(3) + u8(E_DRAIN),
}


# --- fuzz_schedule ---------------------------------------------------------

(S_PACKET, S_PACKETS, S_CLOSE, S_CAPS, S_PROPERTY, S_TIME, S_PLAN_START,
 S_PLAN, S_SLOT_COUNT, S_FRAMERATE, S_RESET_HISTORY, S_ESTIMATOR_FRAME,
 S_LATENCY) = range(13)


def s_packets(count, rtptime_sel=0, marker=True, payload_sel=3,
              payload=1000):
    """rtptime_sel: 0 same, 3 + 3600*k (u8 k follows); payload_sel 3 =
    u16 follows"""
    b = u8(S_PACKETS) + u16(count)
    b += u8(rtptime_sel)
    if rtptime_sel == 3:
        b += u8(1)
    b += u8(1 if marker else 0) + u8(payload_sel)
    if payload_sel == 3:
        b += u16(payload)
    return b


def s_close_operands(sync_sel=1):
    # model_close reads one selector: bit 0 sync NONE, bit 3 now = last slot
    return u8(sync_sel | 8)


SCHEDULE_SEEDS = {
    # 25 fps caps, three frames of 30 packets
    'frames-25fps': u32(1) + u8(S_CAPS) + u8(0) + u8(1) +
    b''.join(s_packets(30, rtptime_sel=3) + s_close_operands() +
             u8(S_TIME) + u8(0) + u32(40000) for _ in range(3)),
    # RTP timestamps with wrap-around, no a-framerate
    'rtptime-wrap': u32(2) + u8(S_CAPS) + u8(70) + u8(1) +
    u8(S_PACKET) + u8(4) + u8(255) + u8(1) + u8(3) + u16(1200) +
    b''.join(s_packets(10, rtptime_sel=3) + s_close_operands()
             for _ in range(4)),
    # properties at their limits, then a frame each
    'property-limits': u32(3) + u8(S_CAPS) + u8(0) + u8(1) +
    u8(S_PROPERTY) + u8(0) + u8(5) + s_packets(100, 3) + s_close_operands() +
    u8(S_PROPERTY) + u8(1) + u8(0) + u8(1) + s_packets(100, 3) +
    s_close_operands() +
    u8(S_PROPERTY) + u8(2) + u8(0) + u8(1) + s_packets(100, 3) +
    s_close_operands() +
    u8(S_PROPERTY) + u8(4) + u8(202) + u64(10000000000) +
    s_packets(100, 3) + s_close_operands(),
    # a plan with jitter and an explicit start near the top of the range
    'plan-jitter': u32(4) + u8(S_PLAN) + t_ms(1000) + t_ms(36) + t_ms(40) +
    u32(30) + u32(30) + u32(1) + u8(1) + u8(1) + u8(0) + u8(1),
    # first-slot computation with unknown times
    'plan-start': u32(5) + u8(S_PLAN_START) + t_none() + t_none() +
    t_ms(10) + t_ms(20) + t_ms(36) + u8(S_PLAN_START) + t_ms(50) +
    t_ms(5) + t_ms(10) + t_none() + t_ms(36),
    # a-framerate strings
    'framerates': u32(6) + u8(S_FRAMERATE) + u8(72) + u8(10) +
    b'30000/1001' + u8(S_FRAMERATE) + u8(72) + u8(7) + b'1e-3000' +
    u8(S_FRAMERATE) + u8(1) + u8(S_LATENCY) + t_ms(40) + u8(1) + u8(1),
}

SCHEDULE_CRASHES = {
    # a plan starting at 2^64 - 1: slot 1 wraps around to a time before
    # slot 0 (rtp_burst_plan_next: start + offset)
    'schedule-plan-wrap': u32(0) + u8(S_PLAN) + t_none() + t_ms(36) +
    t_ms(40) + u32(2) + u32(2) + u32(1) + u8(0) + u8(1) + u8(0) + u8(0),
}


# --- fuzz_group ------------------------------------------------------------

(G_ADD, G_REMOVE, G_FORGET, G_PLACE, G_JOIN, G_LEAVE, G_PLACE_NAMED) = range(7)


def g_frame(start_ms, n, span_ms=36, period_ms=40, b=1, jitter=0):
    """Operands of a place: start, n, k = n, b, jitter, span, period."""
    return (t_ms(start_ms) + u16(n) + u16(n) + u8(b - 1) + u8(jitter) +
            u8(1) + t_ms(span_ms) + u8(0) + t_ms(period_ms))


def g_place(member_sel, *frame, **kw):
    return u8(G_PLACE) + u8(member_sel) + g_frame(*frame, **kw)


GROUP_SEEDS = {
    # two members, three frames at the same instants
    'two-streams': u32(1) + u8(G_ADD) + u8(0) + u8(G_ADD) + u8(0) +
    b''.join(g_place(0, 40 * i, 10) + g_place(1, 40 * i, 10)
             for i in range(3)),
    # four members of other sizes, one with jitter
    'four-streams': u32(2) + (u8(G_ADD) + u8(0)) * 4 +
    g_place(0, 0, 10) + g_place(1, 0, 15) + g_place(2, 0, 30, jitter=1) +
    g_place(3, 0, 300, b=2),
    # a flush, a removal, a frame back in time
    'forget-remove': u32(3) + (u8(G_ADD) + u8(0)) * 2 + g_place(0, 400, 10) +
    u8(G_FORGET) + u8(0) + g_place(1, 400, 10) + u8(G_REMOVE) + u8(0) +
    g_place(0, 390, 1) + g_place(0, 400, 10),
    # named groups: two members of "a", one of "b", leaving
    'named': u32(4) + u8(G_JOIN) + u8(0) + u8(0) + u8(G_JOIN) + u8(1) + u8(0) +
    u8(G_JOIN) + u8(2) + u8(1) +
    b''.join(u8(G_PLACE_NAMED) + u8(m) + g_frame(0, 10) for m in range(3)) +
    u8(G_LEAVE) + u8(0) + u8(G_PLACE_NAMED) + u8(1) + g_frame(40, 10),
}


# --- fuzz_repair -----------------------------------------------------------

(R_PUSH, R_TURN, R_REFUSE, R_FLUSH, R_RESET) = range(5)


def r_push(size, arrival):
    return u8(R_PUSH) + u8(0) + u16(size) + arrival


def r_turn(rate_sel, last=None, last_bytes=1212, nxt=None, spacing_ms=1,
           bound=t_ms(40), pop=True):
    """A turn: the rate (selector < 200: the table in fuzz_repair.c), the
    media's last and next slots (None: unknown), then a pop at the due time."""
    flags = (1 if last is not None else 0) | (4 if nxt is not None else 0) | \
        (8 if bound is None else 0)
    return (u8(R_TURN) + u8(rate_sel) + u8(flags) + (last or b'') +
            u16(last_bytes) + (nxt or b'') + t_ms(spacing_ms) + (bound or b'') +
            (u8(1) + u8(1) if pop else u8(0)))


REPAIR_SEEDS = {
    # three retransmissions between uncapped media slots 2 ms apart
    'between-slots': b''.join(r_push(1214, t_ms(10)) for _ in range(3)) +
    b''.join(r_turn(0, t_ms(10 + 2 * i), 1212, t_ms(12 + 2 * i), 2)
             for i in range(3)),
    # a cap (6 Mbit/s, selector 3) with the media's slots back to back
    'capped': r_push(1214, t_ms(1)) + r_push(1214, t_ms(1)) +
    r_turn(3, t_ms(0), 1212, t_ms(2), 2) + r_turn(3, t_ms(0), 1212, t_ms(4), 2) +
    u8(R_REFUSE) + u8(R_FLUSH),
    # no bound, no media, a backlog, a stats reset
    'backlog': b''.join(r_push(1000, t_ms(5)) for _ in range(30)) +
    b''.join(r_turn(0, None, 0, None, 2, None if i % 2 else t_ms(40))
             for i in range(30)) + u8(R_RESET),
}


# --- fuzz_stream -----------------------------------------------------------

(T_FRAME, T_PACKET, T_REPAIR, T_EVENT, T_CLOSE_OPEN, T_CONFIG, T_CAPS,
 T_LATENCY, T_FLUSH, T_RESTART, T_PLAYING, T_TASK, T_ADVANCE, T_CLOCK,
 T_OTHER, T_PUSH_DONE, T_NOTICES) = range(17)


def stream_header(seed=1, start=0, group=False, caps=False, paused=False):
    """seed, then bits 0-1 the start time (0, 1 s, 2^62, 2^64 - 2^34),
    bit 2 a group, bit 3 caps of 25 fps and payload 96, bit 4 PAUSED"""
    return u32(seed) + u8(start | (4 if group else 0) | (8 if caps else 0) |
                          (16 if paused else 0))


def t_frame(n, marker=True, repair=False, spacing=False, advance=True,
            size=1200, rtptime='next'):
    """n packets of one RTP timestamp (+3600 or the same as the last),
    sync time = arrival, 100 us apart (spacing), then 40 ms pass"""
    f = (1 if marker else 0) | ({'next': 0, 'same': 2}[rtptime]) | \
        (0x20 if spacing else 0) | (0x40 if repair else 0) | \
        (0x80 if advance else 0)
    return u8(T_FRAME) + u8(n - 1) + u8(f) + u16(size)


def t_event(barrier=True):
    """a serialized event: a barrier (caps, segment) that repair packets
    queued after it wait for, or not (a tag, a notification)"""
    return u8(T_EVENT) + u8(1 if barrier else 0)


def t_task(steps=64, policy=0, answers=b''):
    """policy (fuzz_stream.c, answer_how): bits 0-1 waits (1 late, 2 cut
    short), bits 2-3 downstream holds pushes, bit 4 refused, bit 5 pending,
    bit 7 each answer reads its own byte (answers)"""
    return u8(T_TASK) + u8(steps - 1) + u8(policy) + answers


def t_config(which, v, extra=b''):
    """which: 0 burst-size (v % 8 + 1), 1 duty (v / 249), 2 slot-jitter,
    3 seed (u32), 4 frame-period (0 none, 1 40 ms, v > 3: v % 100 + 1 ms),
    5 payload-size, 6 min-slot, 7 sync-upstream-latency, 8 max-rate (v < 200:
    0, 1, 1M, 6M, 8.08M, 100M, 100G), 9 max-rate-factor, 10 max-delay
    (v + 1 ms), 11 overload (1 drop), 12 auto-margin, 13 pace-other-payloads,
    18 release-ahead ((v & 3) x 10 ms, x 2 with v & 4; v & 8: a
    controller, which turns it off)"""
    return u8(T_CONFIG) + u8(which) + u8(v) + extra


def t_caps(period_sel=1, rate_sel=1, no_pt=False):
    """period_sel: 0 none, 1 40 ms, 2 29.97 fps, 3 20 ms, 4 0.1 ms, 5 10 s,
    6 1 ms; rate_sel: 0 none, 1 90000, 2 48000, 3 8000, 4 1"""
    return u8(T_CAPS) + u8(period_sel | (rate_sel << 3) |
                           (0x40 if no_pt else 0))


def t_latency(which, sel):
    """which: 0 sink (LATENCY event), 1 sink (query), 2 upstream; sel < 200:
    0, 1 ms, 20 ms, 100 ms, 200 ms, 1 s"""
    return u8(T_LATENCY) + u8(which) + u8(sel)


def t_advance_ms(ms): return u8(T_ADVANCE) + u8(ms)


STREAM_SEEDS = {
    # caps of 25 fps: three frames of 10 packets paced, one after the other
    'paced-25fps': stream_header(caps=True) +
    b''.join(t_frame(10) + t_task() for _ in range(3)),
    # the period from the property; b = 3, duty 0.5, no jitter; a frame
    # without its marker closed by its timeout
    'property-period': stream_header(seed=2) + t_config(4, 1) +
    t_config(0, 2) + t_config(1, 124) + t_config(2, 0) + t_frame(12) +
    t_task() + t_frame(12, marker=False, advance=False) + t_task() +
    t_advance_ms(50) + t_task(),
    # repair packets (payload 97) between the media's slots, capped or not
    'repair-between-slots': stream_header(seed=3, caps=True) + t_frame(4) +
    t_frame(2, repair=True, advance=False) + t_task() +
    t_config(8, 3) + t_frame(8) + t_frame(3, repair=True, advance=False) +
    t_task() + t_config(13, 0) + t_frame(3, repair=True) + t_task(),
    # PAUSED: events leave, packets wait; then PLAYING
    'events-paused': stream_header(seed=4, caps=True, paused=True) +
    t_event() + t_frame(5) + t_event() + t_frame(2, repair=True) +
    t_event() + t_task() + u8(T_PLAYING) + t_task(),
    # repair packets past a tag behind a frame, then behind a barrier
    'repair-past-tag': stream_header(seed=9, caps=True) + t_frame(10) +
    t_task(steps=3) + t_event(barrier=False) +
    t_frame(2, repair=True, advance=False) + t_event() +
    t_frame(2, repair=True, advance=False) + t_task(),
    # a flush (events kept) while a frame is half sent, then more
    'flush-mid-frame': stream_header(seed=5, caps=True) + t_frame(20) +
    t_task(steps=9) + t_event() + u8(T_FLUSH) + u8(0) + t_frame(5) +
    t_task(),
    # a 1 Mbit/s cap, a 1 ms budget, overload=drop: frames dropped
    'rate-cap-drop': stream_header(seed=6, caps=True) + t_config(8, 2) +
    t_config(10, 0) + t_config(11, 1) +
    b''.join(t_frame(30, advance=False) for _ in range(3)) + t_task() +
    u8(T_NOTICES) + t_config(11, 0) + t_frame(30) + t_task(),
    # a group with another member that places first; a restart in it
    'group-restart': stream_header(seed=7, caps=True, group=True) +
    u8(T_OTHER) + u8(0) + u8(T_OTHER) + u8(2) + u8(10) + u16(0) +
    t_frame(10) + t_task() + u8(T_RESTART) + u8(4) + t_frame(10) +
    t_task() + u8(T_OTHER) + u8(1),
    # a synchronising sink downstream (LATENCY 20 ms) holds the pushes
    'sink-hold': stream_header(seed=8, caps=True) + t_latency(0, 2) +
    b''.join(t_frame(6) + t_task(policy=0x08) for _ in range(4)),
    # no period at all: frames leave unpaced, then the estimate from the
    # RTP timestamps (clock-rate 90000, no a-framerate)
    'unpaced-estimate': stream_header(seed=9) + t_caps(0, 1) +
    b''.join(t_frame(3, spacing=True) + t_task() for _ in range(6)),
    # pushes left pending while packets, caps and latencies come in
    'pending-push': stream_header(seed=10, caps=True) + t_frame(8) +
    t_task(policy=0x20) + t_frame(4) + t_caps(3, 1) + t_latency(2, 3) +
    u8(T_PUSH_DONE) + u8(20) + t_task(policy=0x20) + u8(T_CLOSE_OPEN) +
    u8(T_PUSH_DONE) + u8(1) + t_task(),
    # no clock for a while, then another clock and a base time
    'clock-changes': stream_header(seed=11, start=1, caps=True) +
    u8(T_CLOCK) + u8(1) + t_frame(6) + t_task() + u8(T_CLOCK) + u8(6) +
    t_frame(6) + t_task(),
    # waits woken late, cut short, pushes held and refused, one by one
    'per-answer': stream_header(seed=12, caps=True) + t_frame(6) +
    t_task(policy=0x80, answers=u8(1) + u16(300) + u8(0x04) + u16(500) +
           u8(2) + u8(0) + u8(0x10) + u8(1) + u16(100)) + t_task(),
    # times near the end of the range
    'late-times': stream_header(seed=13, start=3, caps=True) +
    b''.join(t_frame(5) + t_task() for _ in range(3)),
    # slots handed over ahead: 40 ms (a frame), then 10 ms chunks with
    # repair packets and a flush mid-frame, then turned off by a controller
    'release-ahead': stream_header(seed=14, caps=True) + t_config(18, 6) +
    b''.join(t_frame(10) + t_task() for _ in range(2)) + t_config(18, 1) +
    t_frame(10) + t_frame(2, repair=True, advance=False) + t_task(steps=6) +
    u8(T_FLUSH) + u8(0) + t_frame(5) + t_task() + t_config(18, 14) +
    t_frame(6) + t_task(),
}


# --- fuzz_cc ---------------------------------------------------------------

(C_REPORT, C_EMPTY_REPORT, C_SENT, C_TICK, C_ADVANCE) = range(5)


def c_packet(send_us=5000, lost=False, owd_us=0, seq_step=0):
    """One packet: seq +1 (seq_step 0) or +1 + seq_step (a gap), or
    - (-seq_step) (repeat, reorder); sent send_us after the previous;
    the one-way delay changed by owd_us; 1200 bytes."""
    f = 4 if lost else 0
    if seq_step > 0:
        f |= 1
    elif seq_step < 0:
        f |= 2
    if owd_us > 0:
        f |= 1 << 5
    elif owd_us < 0:
        f |= 2 << 5
    b = u8(f)
    if seq_step > 0:
        b += u8(seq_step - 1)
    elif seq_step < 0:
        b += u8(-seq_step)
    b += u16(send_us)
    if owd_us:
        b += u16(abs(owd_us))
    return b


def c_report(packets, after_ms=50, rtt_ms=100):
    """A report of the packets, at after_ms after the newest send, with the
    round trip rtt_ms (None: unknown)."""
    rtt = u8(0) if rtt_ms is None else u8(2) + u16(rtt_ms * 10)
    return (u8(C_REPORT) + u8(len(packets)) + b''.join(packets) + u8(0) +
            u16(after_ms * 100) + rtt)


def c_steady(n=20, **kw):
    return c_report([c_packet() for _ in range(n)], **kw)


def c_sent(nbytes, after_ms=0):
    return u8(C_SENT) + u8(0) + u16(nbytes) + u8(0) + u16(after_ms * 100)


def c_tick(at_ms):
    """tick () at an absolute time (the sender's clock starts at 1 s)"""
    return u8(C_TICK) + u8(2) + t_ms(at_ms)


def c_advance(ms): return u8(C_ADVANCE) + u16(ms)


# GCC: unit byte even, then the start, min and max rates (selector < 200:
# the table in fuzz_cc.c: 0, 1, 100k, 1M, 6M, 1G, the limit, G_MAXUINT64)
def gcc_header(start=3, lo=0, hi=0):
    return u8(0) + u8(start) + u8(lo) + u8(hi)


# TFRC: unit byte odd, segment size (selector 3: 1200), min, max, start
def tfrc_header(size=3, lo=0, hi=0, start=0):
    return u8(1) + u8(size) + u8(lo) + u8(hi) + u8(start)


CC_SEEDS = {
    # 4 s of 1200-byte packets every 5 ms (1.92 Mbit/s), 100 ms reports
    'gcc-steady': gcc_header() + b''.join(c_steady() for _ in range(40)),
    # a queue builds (1 ms more per packet), then drains
    'gcc-overuse': gcc_header(start=4) +
    b''.join(c_steady() for _ in range(10)) +
    b''.join(c_report([c_packet(owd_us=1000) for _ in range(20)])
             for _ in range(10)) +
    b''.join(c_report([c_packet(owd_us=-2000) for _ in range(10)] +
                      [c_packet() for _ in range(10)]) for _ in range(5)) +
    b''.join(c_steady() for _ in range(20)),
    # 20 % lost, then none; repeats and reordering; rtt unknown
    'gcc-loss': gcc_header(start=4, lo=2, hi=4) +
    b''.join(c_report([c_packet(lost=(i % 5 == 4)) for i in range(20)])
             for _ in range(10)) +
    b''.join(c_report([c_packet(seq_step=-3), c_packet(seq_step=4)] +
                      [c_packet() for _ in range(18)], rtt_ms=None)
             for _ in range(10)) +
    u8(C_EMPTY_REPORT) + u8(0) + u16(100) + u8(1),
    # TFRC: sending, feedback every 100 ms, slow start, then losses
    'tfrc-slow-start': tfrc_header() +
    b''.join(c_sent(24000) + c_steady() for _ in range(10)) +
    b''.join(c_sent(24000) +
             c_report([c_packet(lost=(i == 7)) for i in range(20)])
             for _ in range(10)),
    # TFRC: the nofeedback timer, before any feedback and after
    'tfrc-nofeedback': tfrc_header(lo=2, hi=5) + c_sent(1200) +
    c_tick(2000) + c_tick(3100) + c_advance(3000) + c_sent(1200) +
    c_steady() + c_tick(4200) + c_tick(4600) + c_tick(5100) + c_tick(9000),
    # TFRC: data-limited (little sent), losses, no round trip given
    'tfrc-data-limited': tfrc_header(start=3) +
    b''.join(c_sent(100) + c_report([c_packet(lost=(i == 3))
                                     for i in range(10)], rtt_ms=None)
             for _ in range(10)) + c_tick(3000),
}

CC_CRASHES = {
    # TFRC at its ceiling (start rate G_MAXUINT64, no max_rate), feedback
    # with R = 0: the nofeedback deadline was that same instant (2s/X
    # truncated to 0 ns), so a tick () then halved X at once
    'cc-tfrc-nofeedback-now': tfrc_header(start=7) + u8(C_EMPTY_REPORT) +
    u8(3) + u8(1) + u8(C_TICK) + u8(3),
}


# --- fuzz_qdisc: rtnetlink replies (a mode byte: bit 0 dump, bits 1.. the
# sequence number mod 3; a device byte; parts of u16 length + bytes) --------

NLMSG_ERROR, NLMSG_DONE = 2, 3
RTM_NEWROUTE, RTM_NEWQDISC = 24, 36
RTA_DST, RTA_OIF, RTA_TABLE = 1, 4, 15
TCA_KIND, TCA_OPTIONS = 1, 2
TCA_ETF_PARMS, TCA_TAPRIO_ATTR_PRIOMAP = 1, 1
TC_H_ROOT, TC_H_INGRESS = 0xffffffff, 0xfffffff1


def pad4(b): return b + bytes(-len(b) % 4)
def rtattr(t, payload): return pad4(u16(4 + len(payload)) + u16(t) + payload)


def nlmsg(t, seq, payload):
    return pad4(u32(16 + len(payload)) + u16(t) + u16(2) + u32(seq) + u32(0)
                + payload)


def n_route(seq, oif):
    rtm = u8(2) + u8(32) + bytes(10)            # struct rtmsg, AF_INET /32
    return nlmsg(RTM_NEWROUTE, seq, rtm + rtattr(RTA_DST, u32(0x010200c0)) +
                 rtattr(RTA_TABLE, u32(254)) + rtattr(RTA_OIF, u32(oif)))


def n_qdisc(seq, ifindex, handle, parent, kind, options=bytes(12)):
    tcm = u8(0) + bytes(3) + struct.pack('<i', ifindex) + u32(handle) + \
        u32(parent) + u32(1)                    # struct tcmsg
    return nlmsg(RTM_NEWQDISC, seq, tcm + rtattr(TCA_KIND, kind + b'\0') +
                 rtattr(TCA_OPTIONS, options))


def etf_options(clockid=11):
    return rtattr(TCA_ETF_PARMS, struct.pack('<iiI', 2000000, clockid, 0))


def mqprio_map(tc=0):
    prio = bytes([tc]) + bytes(15)
    count = u16(1) + u16(2) + bytes(28)
    offset = u16(0) + u16(1) + bytes(28)
    return u8(2) + prio + u8(0) + count + offset


def n_done(seq, code=0): return nlmsg(NLMSG_DONE, seq, struct.pack('<i', code))
def n_error(seq, code): return nlmsg(NLMSG_ERROR, seq, struct.pack('<i', code) + bytes(16))
def q_part(data): return u16(len(data)) + data
def q_head(dump, seq=1, ifindex=2): return u8((seq << 1) | (1 if dump else 0)) + u8(ifindex)


H = lambda maj, mn: (maj << 16) | mn

QDISC_SEEDS = {
    'route': q_head(False) + q_part(n_route(1, 2)),
    'route-stale-ack': q_head(False) + q_part(n_route(2, 9) + n_error(1, 0) +
                                             n_route(1, 2)),
    'route-unreachable': q_head(False) + q_part(n_error(1, -101)),
    'fq-root': q_head(True) + q_part(n_qdisc(1, 1, 0, TC_H_ROOT, b'noqueue') +
                                     n_qdisc(1, 2, H(0x8001, 0), TC_H_ROOT, b'fq') +
                                     n_qdisc(1, 2, H(0xffff, 0), TC_H_INGRESS, b'ingress') +
                                     n_done(1)),
    'pfifo-fast': q_head(True) + q_part(n_qdisc(1, 2, 0, TC_H_ROOT, b'pfifo_fast') +
                                        n_done(1)),
    'mq-fq-two-parts': q_head(True) +
    q_part(n_qdisc(1, 2, 0, TC_H_ROOT, b'mq') + n_qdisc(1, 2, 0, H(0, 1), b'fq')) +
    q_part(n_qdisc(1, 2, 0, H(0, 2), b'pfifo_fast') + n_done(1)),
    'mqprio-etf': q_head(True) + q_part(
        n_qdisc(1, 2, H(0x100, 0), TC_H_ROOT, b'mqprio', mqprio_map(0)) +
        n_qdisc(1, 2, H(0x8001, 0), H(0x100, 1), b'etf', etf_options()) +
        n_qdisc(1, 2, 0, H(0x100, 2), b'pfifo_fast') + n_done(1)),
    'taprio-fq': q_head(True) + q_part(
        n_qdisc(1, 2, H(0x100, 0), TC_H_ROOT, b'taprio',
                rtattr(5, u32(11)) + rtattr(TCA_TAPRIO_ATTR_PRIOMAP, mqprio_map(1))) +
        n_qdisc(1, 2, H(0x8001, 0), H(0x100, 2), b'fq') +
        n_qdisc(1, 2, H(1, 0), H(0x100, 3), b'htb') +
        n_qdisc(1, 2, 0, H(1, 1), b'fq') + n_done(1)),
    'dump-error': q_head(True) + q_part(n_done(1, -22)),
}

# found by fuzz_qdisc: an error code of -2^31, negated (UBSan)
QDISC_CRASHES = {
    'qdisc-error-intmin': q_head(False) + q_part(n_error(1, -2 ** 31)),
}


def write(directory, files):
    os.makedirs(directory, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(directory, name), 'wb') as f:
            f.write(data)


def main():
    write(os.path.join(HERE, 'corpus', 'fuzz_element'), ELEMENT_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_schedule'), SCHEDULE_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_group'), GROUP_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_repair'), REPAIR_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_stream'), STREAM_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_cc'), CC_SEEDS)
    write(os.path.join(HERE, 'corpus', 'fuzz_qdisc'), QDISC_SEEDS)
    write(os.path.join(HERE, 'crashes'), ELEMENT_CRASHES)
    write(os.path.join(HERE, 'crashes'), SCHEDULE_CRASHES)
    write(os.path.join(HERE, 'crashes'), CC_CRASHES)
    write(os.path.join(HERE, 'crashes'), QDISC_CRASHES)
    n = sum(map(len, (ELEMENT_SEEDS, SCHEDULE_SEEDS, GROUP_SEEDS, REPAIR_SEEDS,
                      STREAM_SEEDS, CC_SEEDS, QDISC_SEEDS, ELEMENT_CRASHES,
                      SCHEDULE_CRASHES, CC_CRASHES, QDISC_CRASHES)))
    print('make-corpus: wrote %d files under %s' % (n, HERE))


if __name__ == '__main__':
    main()
