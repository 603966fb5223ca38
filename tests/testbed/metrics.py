"""Metrics for one testbed run, from the sender's and receiver's per-packet logs.

Sender log rows: stream, seq, ts, marker, size, ready_ns, send_ns (CLOCK_MONOTONIC; "ready" is
when the payloader pushed the packet, "send" when it reached udpsink).  Receiver log rows: port,
seq, ts, marker, size, arrival_ns.  Stream k is received on port base_port + k.

Definitions (per run, summed over streams):
  rtp_loss        RFC 3550 style: (expected - received) / expected, expected from the extended
                  sequence numbers of the first and last packet received
  rtp_loss_sent   1 - received / sent, against the sender's log (also counts lost tails)
  throughput      received IP bytes (RTP + 8 UDP + 20 IP) * 8 / stream duration
  goodput         received RTP payload bytes (without the 12-byte RTP header) * 8 / duration
  jitter          RFC 3550 interarrival jitter (90 kHz clock), mean of the running estimate
  owd             arrival - send, percentiles and standard deviation over received packets
                  (network only; RFC 3550 jitter instead sees the spread of a paced frame,
                  whose packets share one RTP timestamp)
  loss_dlX        share of sent packets not received by (frame ready + base + X ms), where "frame
                  ready" is when the payloader pushed the frame's first packet, so pacing delay
                  counts, and base is the path's one-way propagation delay (half the round trip
                  ping measured before the run): a playout deadline X ms after the earliest
                  possible arrival, as the jitter filter of Jarvinen et al. (PAM 2013)
  loss_periods_dlX, loss_period_max_dlX
                  loss periods (RFC 3357: runs of consecutive packets of a stream lost or later
                  than the deadline): how many, and the longest in packets
  frame_loss      share of frames (= packets with one RTP timestamp) missing >= 1 packet
  frame_loss_whole share of frames of which no packet arrived
  frame_loss_dlX  share of frames not complete by frame ready + X ms
  frame_delay     for each frame that arrived complete: arrival of its last packet - frame
                  ready; p50 / p99 / max over those frames (damaged frames count in frame_loss)
"""
import csv

import numpy as np

RTP_CLOCK = 90000
IP_UDP = 28
RTP_HDR = 12


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    if len(rows) <= 1:
        return {h: np.zeros(0, dtype=np.int64) for h in rows[0]} if rows else {}
    cols = np.array(rows[1:], dtype=np.int64).T
    return dict(zip(rows[0], cols))


def unwrap(seq, start):
    """Extend 16-bit sequence numbers (in the order given) relative to extended number start."""
    seq = np.asarray(seq, dtype=np.int64)
    if len(seq) == 0:
        return seq
    prev = np.concatenate(([start], seq[:-1]))
    d = (seq - prev + 32768) % 65536 - 32768
    d[0] = (seq[0] - start + 32768) % 65536 - 32768
    return start + np.cumsum(d)


def rfc3550_jitter(ts, arrival_ns, clock=RTP_CLOCK):
    """Running RFC 3550 jitter estimate (seconds) over packets in arrival order."""
    if len(ts) < 2:
        return np.zeros(len(ts))
    r = arrival_ns.astype(np.float64) / 1e9
    s = unwrap_ts(ts).astype(np.float64) / clock
    dev = np.abs(np.diff(r) - np.diff(s))
    j = np.zeros(len(ts))
    for i, d in enumerate(dev, 1):
        j[i] = j[i - 1] + (d - j[i - 1]) / 16.0
    return j


def unwrap_ts(ts):
    ts = np.asarray(ts, dtype=np.int64)
    d = (np.diff(ts) + 2**31) % 2**32 - 2**31
    return np.concatenate(([ts[0]], ts[0] + np.cumsum(d))) if len(ts) else ts


def loss_periods(lost):
    """Lengths of the runs of True in a boolean array (RFC 3357 loss periods)."""
    x = np.concatenate(([0], np.asarray(lost, dtype=np.int8), [0]))
    d = np.diff(x)
    return np.flatnonzero(d == -1) - np.flatnonzero(d == 1)


def stream_metrics(snd, rcv, deadlines_ms=(40, 100), base_ms=0.0):
    """Raw counts and samples of one stream.  snd/rcv: dict of numpy columns (send order /
    arrival order)."""
    ext_s = unwrap(snd["seq"], int(snd["seq"][0]))
    order = np.argsort(rcv["arrival_ns"], kind="stable")
    rcv = {k: v[order] for k, v in rcv.items()}
    ext_r = unwrap(rcv["seq"], int(snd["seq"][0]))
    # first arrival of each sent packet (duplicates ignored, strays not in the log dropped)
    uniq, first = np.unique(ext_r, return_index=True)
    idx = np.searchsorted(ext_s, uniq)
    ok = (idx < len(ext_s)) & (ext_s[np.minimum(idx, len(ext_s) - 1)] == uniq)
    idx, arr = idx[ok], rcv["arrival_ns"][first[ok]]
    arrival = np.full(len(ext_s), -1, dtype=np.int64)
    arrival[idx] = arr
    got = arrival >= 0

    # frames: consecutive packets with the same RTP timestamp
    fstart = np.concatenate(([True], np.diff(snd["ts"]) != 0))
    fid = np.cumsum(fstart) - 1
    nframes = int(fid[-1]) + 1
    fready = np.minimum.reduceat(snd["ready_ns"], np.flatnonzero(fstart))[fid]

    m = {
        "sent": len(ext_s),
        "received": int(got.sum()),
        "expected": int(uniq[-1] - uniq[0] + 1) if len(uniq) else 0,
        "frames": nframes,
        "ip_bytes": int((snd["size"][got] + IP_UDP).sum()),
        "payload_bytes": int((snd["size"][got] - RTP_HDR).sum()),
        "owd_ns": arrival[got] - snd["send_ns"][got],
        "jitter_s": rfc3550_jitter(rcv["ts"], rcv["arrival_ns"]),
        "frame_incomplete": int((np.bincount(fid, weights=~got, minlength=nframes) > 0).sum()),
        "frame_none": int((np.bincount(fid, weights=got, minlength=nframes) == 0).sum()),
    }
    # delay of each complete frame: its last packet's arrival - the frame's ready time
    complete = np.bincount(fid, weights=~got, minlength=nframes) == 0
    last = np.maximum.reduceat(np.where(got, arrival, -1), np.flatnonzero(fstart))
    m["frame_delay_ns"] = (last - fready[np.flatnonzero(fstart)])[complete]
    for dl in deadlines_ms:
        late = ~got | (arrival > fready + int((base_ms + dl) * 1_000_000))
        m["late%d" % dl] = int(late.sum())
        m["periods%d" % dl] = loss_periods(late)
        m["frame_late%d" % dl] = int((np.bincount(fid, weights=late, minlength=nframes) > 0).sum())
    return m


def stream_loss(p):
    """Share of one stream's packets that did not arrive."""
    return 1 - p["received"] / p["expected"] if p["expected"] else 1.0


def per_stream(send_log, recv_log, base_port=5000, deadlines_ms=(40, 100), base_ms=0.0):
    """stream_metrics() of every stream of a run's logs: raw counts and samples (one-way
    delays, frame delays, loss periods per deadline)."""
    snd_all, rcv_all = read_csv(send_log), read_csv(recv_log)
    per = []
    for k in np.unique(snd_all["stream"]):
        s = {c: v[snd_all["stream"] == k] for c, v in snd_all.items()}
        r = {c: v[rcv_all["port"] == base_port + k] for c, v in rcv_all.items()} if rcv_all else \
            {c: np.zeros(0, dtype=np.int64) for c in ("seq", "ts", "arrival_ns", "size")}
        per.append(stream_metrics(s, r, deadlines_ms, base_ms))
    return per


def run_metrics(send_log, recv_log, base_port=5000, fps=25, deadlines_ms=(40, 100), base_ms=0.0):
    """Aggregate metrics over all streams of a run, as a flat dict for the CSV row; base_ms:
    the path's one-way propagation delay, for the deadlines."""
    per = per_stream(send_log, recv_log, base_port, deadlines_ms, base_ms)
    tot = lambda key: sum(p[key] for p in per)  # noqa: E731
    sent, recvd, frames = tot("sent"), tot("received"), tot("frames")
    dur = max(p["frames"] for p in per) / fps
    owd = np.concatenate([p["owd_ns"] for p in per]) / 1e6
    jit = np.concatenate([p["jitter_s"] for p in per]) * 1e3
    fdel = np.concatenate([p["frame_delay_ns"] for p in per]) / 1e6
    pct = lambda a, q: round(float(np.percentile(a, q)), 3) if len(a) else ""  # noqa: E731
    out = {
        "rtp_sent": sent,
        "rtp_received": recvd,
        "rtp_loss": round(1 - recvd / tot("expected"), 5) if tot("expected") else 1.0,
        "rtp_loss_sent": round(1 - recvd / sent, 5) if sent else "",
        "rtp_throughput_mbps": round(tot("ip_bytes") * 8 / dur / 1e6, 4),
        "rtp_goodput_mbps": round(tot("payload_bytes") * 8 / dur / 1e6, 4),
        "jitter_ms": round(float(jit.mean()), 4) if len(jit) else "",
        "owd_p50_ms": pct(owd, 50),
        "owd_p99_ms": pct(owd, 99),
        "owd_max_ms": round(float(owd.max()), 3) if len(owd) else "",
        "owd_std_ms": round(float(owd.std()), 3) if len(owd) else "",
        "frames": frames,
        "frame_loss": round(tot("frame_incomplete") / frames, 5),
        # several streams: each one's loss, and the worst of them
        "rtp_loss_streams": "/".join("%.5f" % stream_loss(p) for p in per),
        "rtp_loss_max_stream": round(max(stream_loss(p) for p in per), 5),
        "frame_loss_whole": round(tot("frame_none") / frames, 5),
        "frame_delay_p50_ms": pct(fdel, 50),
        "frame_delay_p99_ms": pct(fdel, 99),
        "frame_delay_max_ms": round(float(fdel.max()), 3) if len(fdel) else "",
    }
    for dl in deadlines_ms:
        out["loss_dl%d" % dl] = round(tot("late%d" % dl) / sent, 5)
        out["frame_loss_dl%d" % dl] = round(tot("frame_late%d" % dl) / frames, 5)
        periods = np.concatenate([p["periods%d" % dl] for p in per])
        out["loss_periods_dl%d" % dl] = len(periods)
        out["loss_period_max_dl%d" % dl] = int(periods.max()) if len(periods) else 0
    return out


def iperf3_metrics(report):
    """TCP throughput (receiver side, Mbit/s) and retransmissions from iperf3 --json output
    (client side; statistics of --omit seconds are excluded by iperf3)."""
    end = report.get("end", {})
    rcv, snd = end.get("sum_received", {}), end.get("sum_sent", {})
    return {
        "tcp_mbps": round(rcv.get("bits_per_second", 0) / 1e6, 4),
        "tcp_sent_mbps": round(snd.get("bits_per_second", 0) / 1e6, 4),
        "tcp_retrans": snd.get("retransmits", ""),
    }
