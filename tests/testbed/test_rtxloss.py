#!/usr/bin/python3
"""rtxloss.py and capture.py's file format and parser on packets made here: exact counts.

A media stream of 300 packets 1 ms apart loses sequence numbers 10-19 and 200-209; ten
retransmissions of 10-19 leave 0.5 ms apart from 205 ms on (one burst), the last five lost;
one more packet of the retransmission SSRC repairs nothing (its OSN arrived) and must not
count.  Expected: media 20 of 300 lost, retransmissions 5 of 10; by position in the burst
1st 0/1, 2nd-4th 0/3, 5th-10th 5/6; media within 10 ms of the retransmissions 100 of 205
(the ten lost at 200-209 around each, 21 or 20 sent around each); the original left
190.5-195 ms before its retransmission; the queue (one-way delay above the smallest) 0; and
the same per 100 ms bin (--series); and each packet lost with its retransmissions (--lost).
Reads and writes a temporary directory only (< 1 s).
"""
import gzip
import csv
import os
import socket
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import capture  # noqa: E402
import rtxloss  # noqa: E402

MS = 1000000
MEDIA, RTX = 0x1111, 0x2222
failures = []


def check(ok, text):
    print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
    if not ok:
        failures.append(text)


def rows():
    sv, rx = [], []
    lost = set(range(10, 20)) | set(range(200, 210))
    for seq in range(300):
        row = (seq * MS, 5000, 96, seq, 0, MEDIA, 1000, 0, b"\x00" * 16)
        sv.append(row)
        if seq not in lost:
            rx.append((row[0] + 50 * MS,) + row[1:])
    for k in range(10):
        osn = 10 + k
        row = (205 * MS + k * MS // 2, 5000, 97, 7000 + k, 0, RTX, 1002, 0,
               struct.pack("!H", osn) + b"\x00" * 14)
        sv.append(row)
        if k < 5:
            rx.append((row[0] + 50 * MS,) + row[1:])
    extra = (250 * MS, 5000, 97, 7010, 0, RTX, 1002, 0, struct.pack("!H", 50) + b"\x00" * 14)
    sv.append(extra)
    rx.append((extra[0] + 50 * MS,) + extra[1:])
    return sorted(sv), sorted(rx)


def write(path, rows_):
    with gzip.open(path, "wt") as f:
        f.write("# capture drops 0 (socket statistics: %d packets since the last read)\n"
                % len(rows_))
        w = csv.writer(f)
        w.writerow(capture.COLUMNS)
        w.writerows(r[:8] + (r[8].hex(),) for r in rows_)


def main():
    sv, rx = rows()
    r = rtxloss.analyse(sv, rx)
    s = rtxloss.summary(r["items"], r["media"])
    check((s["media"]["lost"], s["media"]["n"]) == (20, 300), "media: 20 of 300 lost")
    check((s["rtx"]["lost"], s["rtx"]["n"]) == (5, 10),
          "retransmissions: 5 of 10 lost (the one for a packet that arrived not counted)")
    pos = {k: (v["lost"], v["n"]) for k, v in s["by_position"].items()}
    check(pos == {"1st": (0, 1), "2nd-4th": (0, 3), "5th-10th": (5, 6), "later": (0, 0)},
          "by position in the burst: %s" % pos)
    check((s["media_around"]["lost"], s["media_around"]["n"]) == (100, 205),
          "media within 10 ms: 100 of 205 lost (%s)" % s["media_around"])
    since = {k: v["n"] for k, v in s["by_since_ms"].items() if v["n"]}
    check(since == {"150-200": 10}, "the originals left 150-200 ms before: %s" % since)
    queue = {k: v["n"] for k, v in s["by_queue_ms"].items() if v["n"]}
    check(queue == {"0-25": 10}, "no queue: %s" % queue)

    ser = rtxloss.series(sv, rx, 100)
    got = [(round(t, 1), n, lost, rtx, rtx_lost) for t, _m, n, lost, rtx, rtx_lost, _q in ser]
    check(got == [(0.0, 100, 10, 0, 0), (0.1, 100, 0, 0, 0), (0.2, 100, 10, 11, 5)],
          "series per 100 ms: media sent and lost, packets of other SSRCs sent and lost: %s"
          % got)
    check(all(q == 0 for *_x, q in ser) and abs(ser[0][1] - 8.0) < 1e-9,
          "series: no queue; 100 packets of 1000 B in 100 ms = 8 Mbit/s")

    lost = rtxloss.lost_packets(sv, rx)
    check([seq for seq, _t, _r in lost] == list(range(10, 20)) + list(range(200, 210)),
          "lost_packets: the 20 media packets lost, in order")
    check(lost[0] == (10, 0.010, [(0.205, 0.255)]),
          "lost_packets: #10 sent at 10 ms, retransmitted at 205 ms, arrived at 255 ms: %s"
          % (lost[0],))
    check(lost[9] == (19, 0.019, [(0.2095, None)]),
          "lost_packets: #19's retransmission lost: %s" % (lost[9],))
    check(all(r == [] for _s, _t, r in lost[10:]), "lost_packets: 200-209 not retransmitted")

    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "captures"))
        base = os.path.join(d, "captures", "case_x-tcp1-rep0-")
        write(base + "sv.csv.gz", sv)
        write(base + "rx.csv.gz", rx)
        back, drops = capture.read(base + "sv.csv.gz")
        check(back == sv and drops == 0, "capture.read gives the rows back")
        check(rtxloss.runs_of(d) == [("case_x", 1, 0, base + "sv.csv.gz", base + "rx.csv.gz")],
              "runs_of finds the pair")
        check(rtxloss.main([d]) == 0, "rtxloss.py on the files")
        check(rtxloss.main(["--lost", d]) == 0, "rtxloss.py --lost on the files")

    src = socket.inet_aton("10.0.1.2")
    rtp = struct.pack("!BBHII", 0x80, 0x80 | 97, 4242, 90000, RTX) + struct.pack("!H", 17) + \
        b"\xab" * 30
    udp = struct.pack("!HHHH", 40000, 5000, 8 + len(rtp), 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + len(rtp), 0, 0, 64, 17, 0, src,
                     socket.inet_aton("10.0.3.2"))
    got = capture.parse(ip + udp + rtp, src)
    check(got == (5000, 97, 4242, 90000, RTX, len(rtp), 1, "0011" + "ab" * 14),
          "parse: port, pt, seq, timestamp, SSRC, bytes, marker, payload head: %s" % (got,))
    check(capture.parse(ip + udp + rtp, socket.inet_aton("10.0.1.3")) is None,
          "parse: another source is not kept")
    check(capture.parse(ip[:9] + b"\x06" + ip[10:] + udp + rtp, src) is None,
          "parse: not UDP is not kept")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
