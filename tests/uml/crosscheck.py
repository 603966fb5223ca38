#!/usr/bin/python3
"""One testbed cell on a real Linux stack (the User-Mode Linux guest's
kernel qdiscs) and through the host's ns-3 real-time router: does ns-3 tell
the same story, paced against bursty?

    sudo /usr/bin/python3 tests/uml/crosscheck.py [--runs 3]
        [--sides uml,ns3[,uml-ns3]] [--csv rows.csv] [--lock FILE]

The cell (the options below; these are the defaults): a 5 Mbit/s bottleneck
with fq_codel (limit 10240), 40 ms of round trip (20 ms each way), one
iperf3 TCP flow with cubic (set per socket, iperf3 -C), and a raw video of
2.4 Mbit/s in 10 packets of 1200 B payload a frame at 25 fps, 15 s after a
2 s TCP warm-up, once paced (mode paced: rtpburstpace, duty 0.9, burst-size
1) and once bursty (mode bursty: the payloader straight into udpsink).
About 250 video and 250-400 TCP packets a second: the guest's timers and
syscalls are slow, it carries ~1,000 packets/s.

Both sides run the testbed's own run.py (tests/testbed: netbed.sh's
namespaces sv, st -> r -> rx, rtpsend.py, rtprecv.py, metrics.py), so they
measure the same way and only the router differs:

  uml  run.py --router kernel in run-uml.sh's guest (Debian's
       user-mode-linux, kernel 6.1): on r's egress towards rx netem delay
       20 ms as the root, htb at the bottleneck rate below it, fq_codel as
       htb's leaf; netem 20 ms on r's egress back (netbed.sh).  The guest
       also loads ipv6 (netbed.sh turns it off in its namespaces).
  ns3  run.py --router ns3 on the host: the ns-3 router's point-to-point
       link at the rate, 20 ms each way, FqCoDelQueueDisc on its egresses.
       The TCP and the namespaces are the host's kernel's, not 6.1's.
  uml-ns3  run.py --router ns3 in the guest (the guest loads tun too): the
       ns-3 router beside the guest's own TCP, to separate what the router
       changes from what the kernel does.  Not usable as it is: ns-3 shares
       the guest's one CPU with everything else, the paced sender falls
       behind (~70 % of its slots late, frames ~350 ms late).

Runs alternate paced and bursty and the sides (one guest boot per run);
with --lock FILE each run holds an flock on FILE (other users of the
testbed serialise on it).  Prints a line per run and a table of the medians
a side and mode: rtp_loss (video packets lost), frame_loss (frames missing
a packet), loss_dl100 (packets lost or later than 100 ms after the
earliest possible arrival), queue_ms (the video's median one-way delay less
half the idle round trip ping measured: its queueing delay), frame_delay
p50 (frame ready at the sender to its last packet, pacing included),
tcp_mbps, tcp_retrans, bottleneck_drops, rtt_ms (the idle ping) and
late_slots (the element's slots pushed late, a share).  --csv appends
every run's row (run.py's columns, label crosscheck-SIDE); --from-csv FILE
prints the table of such rows and runs nothing.

The guest's clock: its timers wake a median ~180 us late (p99 ~1.2 ms) and
follow the host's load, and netem and htb run on them; paced gaps of
~3.6 ms and the 5 ms codel target are a few of those ticks.  The element
pushes ~5 % of its slots late there (late_slots), against ~0.1 % on the
host.  Its CPU is slow too: the bursty payloader's 10 packets of a frame
leave over a median ~6.6 ms (~1.2 ms on the host), so "bursty" is less of
a burst in the guest.  A comparison of directions and magnitudes, not of
sub-millisecond figures.

Needs root, Debian's user-mode-linux (uml side) and the ns-3 router built
(ns3 side); exits 77 (skipped, with a message) without them.  Not in the
meson suites: a run takes ~1 min, 3 runs a mode and side ~12 min, and
there is nothing robust to assert (through fq_codel both sides lose well
under 1 % of the video, and in the guest paced loses as much as bursty).

Role `guest RUN.PY-ARGS...` (in the guest, by run-uml.sh): loads ipv6, runs
run.py with those arguments and prints its row as a line
"crosscheck-row JSON".
"""
import argparse
import contextlib
import csv
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTBED = os.path.normpath(os.path.join(HERE, "..", "testbed"))
RUN_PY = os.path.join(TESTBED, "run.py")
RUN_UML = os.path.join(HERE, "run-uml.sh")
PY = "/usr/bin/python3"
ROW_TAG = "crosscheck-row "
# what netbed.sh needs of the guest beyond guest-init.sh's modules (in the
# order of modules.dep)
GUEST_MODULES = ["lib/crc-ccitt", "net/ipv6/ipv6", "drivers/net/tun"]
FIGURES = [("rtp_loss", "%.4f"), ("frame_loss", "%.4f"), ("loss_dl100", "%.4f"),
           ("queue_ms", "%.1f"), ("frame_delay_p50_ms", "%.1f"), ("tcp_mbps", "%.2f"),
           ("tcp_retrans", "%.0f"), ("bottleneck_drops", "%.0f"), ("rtt_ms", "%.1f"),
           ("late_slots", "%.3f")]


def guest(args):
    """In the guest: run.py ARGS with --csv in the guest's tmpfs; prints
    the row."""
    sys.path.insert(0, HERE)
    import umlmod
    modules = os.environ.get("UML_MODULES") or sorted(
        os.path.join("/usr/lib/uml/modules", d) for d in os.listdir("/usr/lib/uml/modules"))[-1]
    umlmod.load(modules, GUEST_MODULES)
    out = os.path.join(os.environ.get("TMPDIR", "/run/tmp"), "crosscheck.csv")
    rc = subprocess.call([PY, RUN_PY, "--csv", out] + args)
    if rc:
        return rc
    with open(out, newline="") as f:
        row = list(csv.DictReader(f))[-1]
    print(ROW_TAG + json.dumps(row), flush=True)
    return 0


def runpy_args(a, mode):
    return ["--mode", mode, "--codec", "raw", "--rate", str(a.rate), "--mtu", str(a.mtu),
            "--fps", "25", "--bottleneck", str(a.bottleneck), "--rtt", str(a.rtt),
            "--aqm", a.aqm, "--tcp", str(a.tcp), "--cc", a.cc, "--duration", str(a.duration),
            "--warmup", str(a.warmup), "--quiet"]


@contextlib.contextmanager
def locked(path):
    if not path:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def run_uml(a, mode, router="kernel"):
    """One run in a fresh guest through the kernel's qdiscs (or the ns-3
    router); the row, or None (the reason printed)."""
    cmd = ["bash", RUN_UML, "--qdisc", "none", "--mem", "1G",
           "--timeout", str(int(a.warmup + a.duration + 150)), "--",
           PY, os.path.abspath(__file__), "guest"] + runpy_args(a, mode) + \
        ["--router", router, "--wait-idle", "0",
         "--label", "crosscheck-uml" if router == "kernel" else "crosscheck-uml-ns3"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 77:
        print(p.stdout.strip())
        sys.exit(77)
    rows = [json.loads(x[len(ROW_TAG):]) for x in p.stdout.splitlines()
            if x.startswith(ROW_TAG)]
    if p.returncode or not rows:
        print("uml %s: failed (%d):\n%s" % (mode, p.returncode, p.stdout[-3000:]))
        return None
    return rows[-1]


def run_ns3(a, mode):
    """One run through the host's ns-3 router; the row, or None."""
    work = tempfile.mkdtemp(prefix="crosscheck-")
    try:
        out = os.path.join(work, "row.csv")
        p = subprocess.run([PY, RUN_PY, "--csv", out] + runpy_args(a, mode) +
                           ["--router", "ns3", "--wait-idle", str(a.wait_idle),
                            "--label", "crosscheck-ns3"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode or not os.path.exists(out):
            print("ns3 %s: failed (%d):\n%s" % (mode, p.returncode, p.stdout[-3000:]))
            return None
        with open(out, newline="") as f:
            row = list(csv.DictReader(f))[-1]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if row["status"].startswith("skipped"):
        print("ns3: %s" % row["status"])
        sys.exit(77)
    return row


def figures(row):
    """The table's figures of a row (floats; None where run.py left one
    empty)."""
    out = {}
    for k, _ in FIGURES:
        if k == "late_slots":
            # the element's slots pushed late, a share of its slots (paced)
            st = row.get("element_stats") or ""
            late = re.search(r"late-slots=\(guint64\)(\d+)", st)
            slots = re.search(r"\bslots=\(guint64\)(\d+)", st)
            v = int(late.group(1)) / int(slots.group(1)) \
                if late and slots and int(slots.group(1)) else None
        elif k == "queue_ms":
            v = float(row["owd_p50_ms"]) - float(row["rtt_ms"]) / 2 \
                if row.get("owd_p50_ms") and row.get("rtt_ms") else None
        else:
            v = float(row[k]) if row.get(k) not in (None, "") else None
        out[k] = v
    return out


def main(argv=None):
    if len(sys.argv) > 1 and sys.argv[1] == "guest":
        return guest(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sides", default="uml,ns3",
                    help="of uml, ns3 and uml-ns3 (the ns-3 router in the guest)")
    ap.add_argument("--modes", default="paced,bursty")
    ap.add_argument("--runs", type=int, default=3, help="runs a mode and side")
    ap.add_argument("--rate", type=float, default=2.4, help="video Mbit/s of RTP payload")
    ap.add_argument("--mtu", type=int, default=1212, help="RTP packet size")
    ap.add_argument("--bottleneck", type=float, default=5.0, help="Mbit/s")
    ap.add_argument("--rtt", type=float, default=40.0, help="ms, half each way")
    ap.add_argument("--aqm", default="fq_codel")
    ap.add_argument("--tcp", type=int, default=1)
    ap.add_argument("--cc", default="cubic")
    ap.add_argument("--duration", type=float, default=15.0)
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--wait-idle", type=float, default=30.0,
                    help="run.py --wait-idle on the host (ns3 side)")
    ap.add_argument("--csv", help="append every run's row here")
    ap.add_argument("--lock", metavar="FILE", help="hold an flock on FILE during each run")
    ap.add_argument("--from-csv", metavar="FILE",
                    help="run nothing: the table of the rows of an earlier --csv")
    a = ap.parse_args(argv)
    if a.from_csv:
        rows, title = {}, ""
        with open(a.from_csv, newline="") as f:
            for row in csv.DictReader(f):
                if row["status"] == "ok" and row["label"].startswith("crosscheck-"):
                    rows.setdefault((row["label"][len("crosscheck-"):], row["mode"]),
                                    []).append(figures(row))
                    title = cell(float(row["rate_mbps"]), float(row["bottleneck_mbps"]),
                                 row["aqm"], float(row["rtt_configured_ms"]),
                                 int(row["tcp_flows"]), row["cc"])
        table(title, rows)
        return 0 if rows else 1
    if os.geteuid() != 0:
        print("crosscheck: skipped: needs root (network namespaces)")
        return 77
    sides = a.sides.split(",")
    if set(sides) - {"uml", "ns3", "uml-ns3"}:
        ap.error("--sides: uml, ns3 or uml-ns3")
    if sides != ["ns3"] and not shutil.which("linux.uml"):
        print("crosscheck: skipped: needs Debian's user-mode-linux")
        return 77
    sys.path.insert(0, TESTBED)
    import run as testbed

    rows = {}
    for k in range(a.runs):
        for mode in a.modes.split(","):
            for side in sides:
                with locked(a.lock):
                    if side == "ns3":
                        row = run_ns3(a, mode)
                    else:
                        # the guest's timing follows the host's load
                        testbed.wait_idle(timeout=a.wait_idle, log=None)
                        row = run_uml(a, mode, "kernel" if side == "uml" else "ns3")
                if row is None:
                    continue
                if a.csv:
                    testbed.append_csv(a.csv, row)
                f = figures(row)
                rows.setdefault((side, mode), []).append(f)
                print("run %d %-3s %-6s %s" % (k + 1, side, mode, " ".join(
                    "%s=%s" % (n, "-" if f[n] is None else fmt % f[n]) for n, fmt in FIGURES)),
                    flush=True)

    table(cell(a.rate, a.bottleneck, a.aqm, a.rtt, a.tcp, a.cc), rows)
    return 0 if rows else 1


def cell(rate, bottleneck, aqm, rtt, tcp, cc):
    return "%g Mbit/s video, %g Mbit/s %s, RTT %g ms, %d x %s" % (
        rate, bottleneck, aqm, rtt, tcp, cc)


def table(title, rows):
    """Prints the medians of rows ({(side, mode): [figures, ...]})."""
    print("\nmedians (runs): " + title)
    print("%-14s %2s " % ("side/mode", "n") + " ".join("%10s" % n[:10] for n, _ in FIGURES))
    for (side, mode), fs in sorted(rows.items()):
        cells = []
        for n, fmt in FIGURES:
            vs = [f[n] for f in fs if f[n] is not None]
            cells.append("%10s" % (fmt % statistics.median(vs) if vs else "-"))
        print("%-14s %2d " % (side + "/" + mode, len(fs)) + " ".join(cells))


if __name__ == "__main__":
    sys.exit(main())
