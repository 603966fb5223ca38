#!/usr/bin/python3
"""Web-like short TCP flows for the testbed, in the manner of Jarvinen et al. (PAM 2013).

  serve   in the TCP sender's namespace: for each connection, read "GET <bytes>\\n" and send that
          many bytes, then close.  Every object is a new connection, so every one starts in slow
          start with the initial window of the route (Linux: 10 segments; netbed's --web-iw sets
          another with `ip route ... initcwnd`), the burst that delays interactive media.
  fetch   in the receiver's namespace: --users users, each in a loop of: wait an exponential
          think time (mean --mean-gap s), download one object of --object-bytes, until
          --duration s.  Prints one JSON line: objects, bytes, Mbit/s, and the flow completion
          times (connect to last byte) of the objects, ms.

The congestion control is named per socket (--cc, TCP_CONGESTION), never the namespace's
default.  Example (run.py does this with --web-flows N):
  ip netns exec st webflows.py serve --bind 10.0.2.2 --cc cubic
  ip netns exec rx webflows.py fetch --server 10.0.2.2 --users 2 --duration 20
"""
import argparse
import json
import random
import signal
import socket
import socketserver
import sys
import threading
import time

PORT = 8080
CHUNK = 65536


def set_cc(sock, cc):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline(64).split()
        if len(line) != 2 or line[0] != b"GET" or not line[1].isdigit():
            return
        left = int(line[1])
        block = b"\0" * CHUNK
        while left > 0:
            n = min(left, CHUNK)
            self.wfile.write(block[:n])
            left -= n


def serve(a):
    class Server(socketserver.ThreadingTCPServer):
        allow_reuse_address = True
        daemon_threads = True
        request_queue_size = 128

        def server_bind(self):
            set_cc(self.socket, a.cc)  # accepted sockets inherit it
            super().server_bind()

        def get_request(self):
            conn, addr = super().get_request()
            set_cc(conn, a.cc)
            return conn, addr

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with Server((a.bind, a.port), Handler) as srv:
        print("ready", flush=True)
        srv.serve_forever()


def fetch_one(server, port, size, cc, timeout):
    """(start, end, bytes) of one download; end is None when it failed."""
    t0 = time.monotonic()
    got = 0
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            set_cc(s, cc)
            s.settimeout(timeout)
            s.connect((server, port))
            s.sendall(b"GET %d\n" % size)
            while True:
                b = s.recv(CHUNK)
                if not b:
                    break
                got += len(b)
    except OSError:
        return t0, None, got
    return t0, time.monotonic() if got == size else None, got


def fetch(a):
    rng = random.Random(a.seed)
    seeds = [rng.randrange(1 << 30) for _ in range(a.users)]
    end = time.monotonic() + a.duration
    done, lock = [], threading.Lock()

    def user(seed):
        r = random.Random(seed)
        while True:
            time.sleep(r.expovariate(1.0 / a.mean_gap) if a.mean_gap > 0 else 0)
            if time.monotonic() >= end:
                return
            rec = fetch_one(a.server, a.port, a.object_bytes, a.cc,
                            max(1.0, end - time.monotonic() + 5))
            with lock:
                done.append(rec)

    t0 = time.monotonic()
    threads = [threading.Thread(target=user, args=(s,), daemon=True) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join(a.duration + 30)
    secs = time.monotonic() - t0
    ok = sorted((e - s) * 1e3 for s, e, _ in done if e is not None)

    def pct(q):
        return round(ok[min(len(ok) - 1, int(q * len(ok)))], 1) if ok else None

    nbytes = sum(b for _, _, b in done)
    print(json.dumps({"users": a.users, "object_bytes": a.object_bytes, "cc": a.cc,
                      "objects": len(ok), "failed": len(done) - len(ok), "bytes": nbytes,
                      "mbps": round(nbytes * 8 / secs / 1e6, 3), "seconds": round(secs, 2),
                      "fct_p50_ms": pct(0.5), "fct_p90_ms": pct(0.9),
                      "fct_max_ms": ok[-1] if ok else None}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("role", choices=["serve", "fetch"])
    ap.add_argument("--bind", default="0.0.0.0", help="serve: address")
    ap.add_argument("--server", help="fetch: the server's address")
    ap.add_argument("--port", type=int, default=PORT)
    ap.add_argument("--cc", default="cubic", help="congestion control of every socket")
    ap.add_argument("--users", type=int, default=1, help="fetch: parallel users")
    ap.add_argument("--object-bytes", type=int, default=100000)
    ap.add_argument("--mean-gap", type=float, default=1.0,
                    help="fetch: mean think time between a user's downloads, s")
    ap.add_argument("--duration", type=float, default=20.0, help="fetch: seconds")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.role == "serve":
        serve(a)
    elif not a.server:
        ap.error("fetch needs --server")
    else:
        fetch(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
