#!/usr/bin/python3
"""Plain-socket RTP receiver for the testbed.

Binds UDP ports, and for every datagram logs: port, RTP sequence number, RTP timestamp, marker
bit, datagram size and arrival time.  The arrival time is the kernel receive timestamp
(SO_TIMESTAMPNS, CLOCK_REALTIME) mapped onto CLOCK_MONOTONIC, which all network namespaces share
with the sender, so one-way delay is arrival minus the sender's monotonic send time.

Prints "ready" once bound; stops after --duration seconds or on SIGTERM/SIGINT and then writes
the log as CSV (port,seq,ts,marker,size,arrival_ns).
"""
import argparse
import selectors
import signal
import socket
import struct
import time

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
CMSG_TS = struct.Struct("@qq")  # struct timespec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bind", default="0.0.0.0")
    ap.add_argument("--ports", default="5000", help="comma-separated UDP ports")
    ap.add_argument("--duration", type=float, default=60.0, help="hard stop after this many s")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    stop = False

    def on_signal(*_):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    sel = selectors.DefaultSelector()
    for port in (int(p) for p in args.ports.split(",")):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        s.bind((args.bind, port))
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, port)

    rows = []
    cmsg_space = socket.CMSG_SPACE(CMSG_TS.size)
    end = time.monotonic() + args.duration
    print("ready", flush=True)
    while not stop and time.monotonic() < end:
        for key, _ in sel.select(timeout=0.2):
            while True:
                try:
                    data, anc, _, _ = key.fileobj.recvmsg(65536, cmsg_space)
                except BlockingIOError:
                    break
                mono = time.monotonic_ns()
                arrival = mono
                for level, typ, cdata in anc:
                    if level == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS:
                        sec, nsec = CMSG_TS.unpack(cdata[:CMSG_TS.size])
                        # realtime -> monotonic, offset sampled now (follows NTP slewing)
                        arrival = sec * 1_000_000_000 + nsec - (time.time_ns() - mono)
                if len(data) < 12 or data[0] >> 6 != 2:
                    continue
                seq, ts = struct.unpack_from("!HI", data, 2)
                rows.append((key.data, seq, ts, data[1] >> 7, len(data), arrival))

    with open(args.out, "w") as f:
        f.write("port,seq,ts,marker,size,arrival_ns\n")
        f.writelines("%d,%d,%d,%d,%d,%d\n" % r for r in rows)


if __name__ == "__main__":
    main()
