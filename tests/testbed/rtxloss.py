#!/usr/bin/python3
"""Where retransmissions are lost: the captures of `recipes.py --capture`, matched packet by packet.

For each run, the RTP that left the video sender (sv) and what reached the receiver (rx),
both with the kernel's timestamps on the machine's one clock (capture.py), matched by
(SSRC, sequence number).  The media stream is the SSRC with the most packets; a
retransmission is a packet of another SSRC whose payload begins with the sequence number of
a media packet that did not arrive (RFC 4588's OSN).  Per run:

  media loss      media packets sent that never reached rx
  rtx loss        retransmissions sent that never reached rx
  rtx loss, media around   the loss of the media packets that left sv within +-W ms of each
                  retransmission (--window, default 10): what a packet sent then met at the
                  bottleneck; a retransmission lost far more often than its neighbours is lost
                  for being a retransmission (where or how it is sent), one lost as often is
                  lost for being sent when the queue was full
  by burst position   retransmissions that left sv less than --gap ms (default 2) after the
                  previous one form a burst; loss by the position in it (1st, 2nd-4th, 5th-
                  10th, later)
  by delay since the original   time from the original's departure to its retransmission's
  by queue delay  the one-way delay of the last media packet that left sv before the
                  retransmission and arrived (sv -> rx, minus the smallest of the run): how full
                  the bottleneck queue was
Prints a table of all runs pooled per case (runs of the same case added), then one line per run;
with --series MS, per run and MS-wide bin of the sender's time: the media's rate as it left
sv, the media lost, the retransmissions sent and lost, and the median one-way delay above the
run's smallest (the bottleneck queue); with --lost, per run, each media packet that never
arrived, with when each of its retransmissions left sv and whether and when it arrived.

  /usr/bin/python3 tests/testbed/rtxloss.py OUT [OUT ...]       # recipes.py --out dirs
  /usr/bin/python3 tests/testbed/rtxloss.py --json OUT          # the figures as JSON
  /usr/bin/python3 tests/testbed/rtxloss.py --series 500 OUT    # and each run over time
  /usr/bin/python3 tests/testbed/rtxloss.py --lost OUT           # and each packet lost
"""
import argparse
import bisect
import collections
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import capture  # noqa: E402

POSITIONS = [(0, 1, "1st"), (1, 4, "2nd-4th"), (4, 10, "5th-10th"), (10, 10 ** 9, "later")]
SINCE_MS = [(0, 150), (150, 200), (200, 250), (250, 300), (300, 400), (400, 10 ** 9)]
QUEUE_MS = [(0, 25), (25, 75), (75, 125), (125, 10 ** 9)]


def ratio(lost, n):
    return {"n": n, "lost": lost, "loss": lost / n if n else None}


def binned(items, bins, key):
    """{label: ratio} of (value, lost) items by bins [(lo, hi[, label])], lo <= key < hi."""
    out = {}
    for b in bins:
        lo, hi = b[0], b[1]
        label = b[2] if len(b) > 2 else ("%d-%d" % (lo, hi) if hi < 10 ** 9 else ">%d" % lo)
        sel = [lost for v, lost in items if lo <= key(v) < hi]
        out[label] = ratio(sum(sel), len(sel))
    return out


def match(sv_rows, rx_rows):
    """(media SSRC: the one with the most packets sent, {(ssrc, seq): first arrival at rx})
    of one run's captures, or None when nothing was sent."""
    count = collections.Counter(r[5] for r in sv_rows)
    if not count:
        return None
    arrived = {}
    for r in rx_rows:
        arrived.setdefault((r[5], r[3]), r[0])
    return count.most_common(1)[0][0], arrived


def other_ssrc_rows(sv_rows, media_ssrc):
    """(row, the sequence number its payload begins with: a retransmission's OSN) of each
    packet sv sent on another SSRC than the media's (FEC too: the callers keep those whose
    number is of a media packet lost)."""
    for r in sv_rows:
        if r[5] != media_ssrc and len(r[8]) >= 2:
            yield r, (r[8][0] << 8) | r[8][1]


def analyse(sv_rows, rx_rows, window_ms=10.0, gap_ms=2.0):
    """The figures of one run from the two captures' rows."""
    matched = match(sv_rows, rx_rows)
    if matched is None:
        return None
    media_ssrc, arrived = matched
    media = [(r[0], r[3]) for r in sv_rows if r[5] == media_ssrc]      # (sent, seq)
    media_lost = [(t, (media_ssrc, seq) not in arrived) for t, seq in media]
    media_sent_at = {}
    for t, seq in media:
        media_sent_at.setdefault(seq, t)
    lost_seqs = {seq for (t, seq), (_t, lost) in zip(media, media_lost) if lost}
    rtx = []
    for r, osn in other_ssrc_rows(sv_rows, media_ssrc):
        if osn not in lost_seqs:
            continue        # FEC, or a retransmission of a packet that arrived (none expected)
        rtx.append((r[0], osn, (r[5], r[3]) not in arrived))
    rtx.sort()
    times = [t for t, _l in media_lost]
    # one-way delay of the media that arrived, for the queue's fill
    owd = [(t, arrived[(media_ssrc, seq)] - t) for t, seq in media
           if (media_ssrc, seq) in arrived]
    base = min((d for _t, d in owd), default=0)
    owd_t = [t for t, _d in owd]
    w = int(window_ms * 1e6)
    items, pos, prev = [], 0, None
    for t, osn, lost in rtx:
        pos = pos + 1 if prev is not None and t - prev < gap_ms * 1e6 else 0
        prev = t
        lo, hi = bisect.bisect_left(times, t - w), bisect.bisect_right(times, t + w)
        around = [l for _t, l in media_lost[lo:hi]]
        i = bisect.bisect_right(owd_t, t) - 1
        queue_ms = (owd[i][1] - base) / 1e6 if i >= 0 else None
        since_ms = (t - media_sent_at[osn]) / 1e6 if osn in media_sent_at else None
        items.append({"lost": lost, "pos": pos, "around_n": len(around),
                      "around_lost": sum(around), "queue_ms": queue_ms, "since_ms": since_ms})
    return {"media": ratio(sum(l for _t, l in media_lost), len(media_lost)),
            "rtx": ratio(sum(i["lost"] for i in items), len(items)),
            "items": items}


def lost_packets(sv_rows, rx_rows):
    """[(sequence number, sent s, [(retransmission sent s, arrived s or None)])] for each
    media packet that never reached rx, in the order they were sent; times from the run's
    first media packet at sv (None when nothing was sent)."""
    matched = match(sv_rows, rx_rows)
    if matched is None:
        return None
    media_ssrc, arrived = matched
    media = [r for r in sv_rows if r[5] == media_ssrc]
    t0 = media[0][0]
    out, index = [], {}
    for r in media:
        if (media_ssrc, r[3]) not in arrived and r[3] not in index:
            index[r[3]] = len(out)
            out.append((r[3], (r[0] - t0) / 1e9, []))
    for r, osn in other_ssrc_rows(sv_rows, media_ssrc):
        i = index.get(osn)
        if i is not None:
            at = arrived.get((r[5], r[3]))
            out[i][2].append(((r[0] - t0) / 1e9, None if at is None else (at - t0) / 1e9))
    return out


def series(sv_rows, rx_rows, bin_ms):
    """[(start s, media Mbit/s, media sent, media lost, rtx sent, rtx lost, queue ms)] per
    bin_ms of the sender's time from its first packet; queue: the median one-way delay of the
    bin's media that arrived, above the run's smallest (None: none arrived)."""
    matched = match(sv_rows, rx_rows)
    if matched is None:
        return []
    media_ssrc, arrived = matched
    t0, width = sv_rows[0][0], int(bin_ms * 1e6)
    bins = collections.defaultdict(lambda: [0, 0, 0, 0, 0, []])
    for r in sv_rows:
        b = bins[(r[0] - t0) // width]
        got = arrived.get((r[5], r[3]))
        if r[5] == media_ssrc:
            b[0] += r[6]
            b[1] += 1
            b[2] += got is None
            if got is not None:
                b[5].append(got - r[0])
        else:
            b[3] += 1
            b[4] += got is None
    base = min((min(b[5]) for b in bins.values() if b[5]), default=0)
    out = []
    for k in range(max(bins) + 1 if bins else 0):
        b = bins.get(k, [0, 0, 0, 0, 0, []])
        d = sorted(b[5])
        out.append((k * bin_ms / 1000.0, b[0] * 8 / (bin_ms / 1000.0) / 1e6, b[1], b[2],
                    b[3], b[4], (d[len(d) // 2] - base) / 1e6 if d else None))
    return out


def summary(items, media):
    around_n = sum(i["around_n"] for i in items)
    around_lost = sum(i["around_lost"] for i in items)
    pairs = [(i, i["lost"]) for i in items]
    return {
        "media": media,
        "rtx": ratio(sum(i["lost"] for i in items), len(items)),
        "media_around": ratio(around_lost, around_n),
        # media around the retransmissions that were lost / that arrived
        "media_around_rtx_lost": ratio(sum(i["around_lost"] for i in items if i["lost"]),
                                       sum(i["around_n"] for i in items if i["lost"])),
        "media_around_rtx_arrived": ratio(
            sum(i["around_lost"] for i in items if not i["lost"]),
            sum(i["around_n"] for i in items if not i["lost"])),
        "by_position": binned(pairs, POSITIONS, lambda i: i["pos"]),
        "by_since_ms": binned([p for p in pairs if p[0]["since_ms"] is not None], SINCE_MS,
                              lambda i: i["since_ms"]),
        "by_queue_ms": binned([p for p in pairs if p[0]["queue_ms"] is not None], QUEUE_MS,
                              lambda i: i["queue_ms"]),
    }


def runs_of(out):
    """[(case, tcp, rep, sv path, rx path)] of a recipes.py --out directory."""
    found = []
    for sv in sorted(glob.glob(os.path.join(out, "captures", "*-sv.csv.gz"))):
        m = re.match(r"(.*)-tcp(\d+)-rep(\d+)-sv\.csv\.gz$", os.path.basename(sv))
        rx = sv[:-len("-sv.csv.gz")] + "-rx.csv.gz"
        if m and os.path.exists(rx):
            found.append((m.group(1), int(m.group(2)), int(m.group(3)), sv, rx))
    return found


def pct(r):
    return "—" if r["loss"] is None else "%.1f %% (%d)" % (100 * r["loss"], r["n"])


def table(pooled):
    head = ["case", "runs", "media loss", "rtx loss", "media around rtx",
            "around lost rtx / arrived rtx"] + \
        ["pos %s" % p[2] for p in POSITIONS] + \
        ["since %s ms" % (("%d-%d" % (lo, hi)) if hi < 10 ** 9 else ">%d" % lo)
         for lo, hi in SINCE_MS] + \
        ["queue %s ms" % (("%d-%d" % (lo, hi)) if hi < 10 ** 9 else ">%d" % lo)
         for lo, hi in QUEUE_MS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (key, nruns), s in pooled:
        cells = [key, str(nruns), pct(s["media"]), pct(s["rtx"]), pct(s["media_around"]),
                 "%s / %s" % (pct(s["media_around_rtx_lost"]),
                              pct(s["media_around_rtx_arrived"]))]
        cells += [pct(v) for v in s["by_position"].values()]
        cells += [pct(v) for v in s["by_since_ms"].values()]
        cells += [pct(v) for v in s["by_queue_ms"].values()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("outs", nargs="+", help="recipes.py --out directories run with --capture")
    p.add_argument("--window", type=float, default=10.0, help="ms either side (default 10)")
    p.add_argument("--gap", type=float, default=2.0, help="ms between a burst's packets")
    p.add_argument("--json", action="store_true")
    p.add_argument("--series", type=float, metavar="MS",
                   help="also each run over time, in bins of MS")
    p.add_argument("--lost", action="store_true",
                   help="also each run's media packets that never arrived, each with the "
                        "retransmissions sent for it and when they arrived")
    a = p.parse_args(argv)
    per_case, per_run = collections.OrderedDict(), []
    for out in a.outs:
        for case, tcp, rep, sv, rx in runs_of(out):
            (sv_rows, sv_drops), (rx_rows, rx_drops) = capture.read(sv), capture.read(rx)
            r = analyse(sv_rows, rx_rows, a.window, a.gap)
            if r is None:
                continue
            key = "%s %s tcp%d" % (os.path.basename(os.path.normpath(out)), case, tcp)
            per_run.append((key, rep, r, sv_drops + rx_drops,
                            series(sv_rows, rx_rows, a.series) if a.series else None,
                            lost_packets(sv_rows, rx_rows) if a.lost else None))
            c = per_case.setdefault(key, {"items": [], "media": [0, 0], "runs": 0})
            c["items"] += r["items"]
            c["media"][0] += r["media"]["lost"]
            c["media"][1] += r["media"]["n"]
            c["runs"] += 1
    if not per_run:
        print("rtxloss.py: no captures (recipes.py --capture --out DIR)", file=sys.stderr)
        return 1
    pooled = [((k, c["runs"]), summary(c["items"], ratio(*c["media"])))
              for k, c in per_case.items()]
    if a.json:
        print(json.dumps([dict(case=k, runs=n, **s) for (k, n), s in pooled], indent=1))
        return 0
    print(table(pooled))
    print()
    for key, rep, r, drops, ser, lost in per_run:
        s = summary(r["items"], r["media"])
        print("%s rep %d: media loss %s, rtx loss %s, media around rtx %s%s" % (
            key, rep, pct(s["media"]), pct(s["rtx"]), pct(s["media_around"]),
            ", CAPTURE DROPS %d" % drops if drops else ""))
        for t, mbps, n, lost, rtx, rtx_lost, queue in ser or []:
            print("  %6.2f s  media %5.2f Mbit/s  %4d sent, %5.1f %% lost  rtx %3d sent, "
                  "%3d lost  queue %s ms" % (t, mbps, n, 100.0 * lost / n if n else 0.0, rtx,
                                            rtx_lost, "—" if queue is None else "%.0f" % queue))
        for seq, sent, rtx in lost or []:
            print("  #%d sent %.3f s, lost; %s" % (seq, sent, ", ".join(
                "retransmitted %.3f s, %s" % (t, "lost" if at is None else "arrived %.3f s" % at)
                for t, at in rtx) or "not retransmitted"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
