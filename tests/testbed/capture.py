#!/usr/bin/python3
"""Every RTP packet from one address, with the kernel's timestamp, from a packet socket.

Run inside a testbed namespace (run.Testbed.start); it prints "ready" once the socket is open
and writes the CSV when it gets SIGTERM:

  capture.py --src 10.0.1.2 --out rx.csv.gz                  # what reaches rx (after the bottleneck)
  capture.py --src 10.0.1.2 --outgoing --out sv.csv.gz       # what leaves sv (before it)

An AF_PACKET socket with a classic BPF filter (UDP from --src, and to --dport if given: the
other traffic stays in the kernel) and SO_TIMESTAMPNS: the time each IP packet passes the
namespace's interface (CLOCK_REALTIME, ns; one clock for all namespaces of the machine), taken
by the kernel, independent of the applications' threads.  Without --outgoing only packets that
come in are kept, with it only those that go out.  The file: a comment line with the socket's
drop count (packets the capture could not keep up with; 0 in a valid capture), then CSV rows
arrival_ns (the timestamp), port (UDP destination), pt, seq, rtptime, ssrc, bytes (UDP
payload), marker and payload_head (the first 16 bytes of the RTP payload, hex).  read() gives
the rows back as tuples (payload_head as bytes) and the drop count.
"""
import argparse
import csv
import ctypes
import gzip
import json
import signal
import socket
import struct
import sys

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
SO_RCVBUFFORCE = 33
SO_ATTACH_FILTER = 26
SOL_PACKET, PACKET_STATISTICS = 263, 6
ETH_P_IP = 0x0800
ETH_P_ALL = 0x0003      # the packets a namespace sends reach only such sockets
PACKET_OUTGOING = 4
COLUMNS = ["arrival_ns", "port", "pt", "seq", "rtptime", "ssrc", "bytes", "marker",
           "payload_head"]


def attach_filter(sock, src, dport=None):
    """Classic BPF on the packet socket: only UDP from src (to dport) reaches Python.  The
    filter sees the IP header first (SOCK_DGRAM); the UDP header is assumed right
    after a 20-byte IP header, as the testbed's packets have it (capture() checks again)."""
    addr = struct.unpack("!I", socket.inet_aton(src))[0]
    prog = [(0x30, 0, 0, 9),            # ldb [9]        IP protocol
            (0x15, 0, 5 if dport else 3, 17),   # jeq #17 (UDP)  else drop
            (0x20, 0, 0, 12),           # ld [12]        source address
            (0x15, 0, 3 if dport else 1, addr)]  # jeq src  else drop
    if dport:
        prog += [(0x28, 0, 0, 22),      # ldh [22]       UDP destination port
                 (0x15, 0, 1, dport)]   # jeq dport      else drop
    prog += [(0x06, 0, 0, 0xFFFF),      # ret: accept
             (0x06, 0, 0, 0)]           # ret: drop
    buf = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *i) for i in prog))
    fprog = struct.pack("HL", len(prog), ctypes.addressof(buf))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)


def parse(data, src):
    """(port, pt, seq, rtptime, ssrc, bytes, marker, payload head) of an IP packet holding
    UDP from src with an RTP header, else None."""
    if len(data) < 40 or data[0] >> 4 != 4 or data[9] != 17 or data[12:16] != src:
        return None
    ihl = (data[0] & 15) * 4
    dport, ulen = struct.unpack_from("!2xHH", data, ihl)
    rtp = data[ihl + 8:]
    if len(rtp) < 12 or rtp[0] >> 6 != 2:
        return None
    pt, seq, ts, ssrc = rtp[1] & 0x7f, *struct.unpack_from("!HII", rtp, 2)
    off = 12 + 4 * (rtp[0] & 0x0F)
    if rtp[0] & 0x10 and len(rtp) >= off + 4:
        off += 4 + 4 * struct.unpack_from("!H", rtp, off + 2)[0]
    return (dport, pt, seq, ts, ssrc, ulen - 8, rtp[1] >> 7, rtp[off:off + 16].hex())


def capture(a):
    """Capture until SIGTERM, then write a.out; 0."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM,
                      socket.htons(ETH_P_ALL if a.outgoing else ETH_P_IP))
    attach_filter(s, a.src, a.dport)
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 20)
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.settimeout(0.2)
    src = socket.inet_aton(a.src)
    rows = []
    space = socket.CMSG_SPACE(16)
    print("ready", flush=True)
    while not stop:
        try:
            data, anc, _flags, addr = s.recvmsg(2048, space)
        except (socket.timeout, InterruptedError):
            continue
        if (addr[2] == PACKET_OUTGOING) != a.outgoing:
            continue
        fields = parse(data, src)
        if fields is None:
            continue
        t = None
        for level, kind, payload in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("@qq", payload[:16])
                t = sec * 1000000000 + nsec
        rows.append((t,) + fields)
    packets, drops = struct.unpack("II", s.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))
    with gzip.open(a.out, "wt") as f:
        f.write("# capture drops %d (socket statistics: %d packets since the last read)\n"
                % (drops, packets))
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(rows)
    print(json.dumps({"captured": len(rows), "capture_drops": drops}), flush=True)
    return 0


def read(path):
    """([(arrival_ns, port, pt, seq, rtptime, ssrc, bytes, marker, payload head)], drops)
    of a file capture() wrote."""
    with gzip.open(path, "rt") as f:
        first = f.readline()
        drops = int(first.split()[3]) if first.startswith("# capture drops") else 0
        rows = [tuple(int(x) for x in r[:8]) + (bytes.fromhex(r[8]),)
                for r in csv.reader(f) if r and r[0].isdigit()]
    return rows, drops


def add_arguments(p):
    p.add_argument("--src", required=True, help="the sender's address")
    p.add_argument("--dport", type=int, help="only UDP to this port")
    p.add_argument("--outgoing", action="store_true",
                   help="the packets that leave this namespace (default: those that come in)")
    p.add_argument("--out", required=True, help="the CSV (gzip) written at SIGTERM")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return capture(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
