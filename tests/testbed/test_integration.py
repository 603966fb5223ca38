#!/usr/bin/python3
"""Integration test: rtpburstpace on the namespace testbed, real Linux TCP beside it.

6 Mbit/s CBR raw video (30 x 1000 B payloads per 40 ms frame) into a 10 Mbit/s bottleneck with
a 13-packet drop-tail queue (tests/testbed/run.py).  Asserts:
  1. without the element and without TCP most bursts overflow the queue: RTP loss > 20 %;
  2. with the element and without TCP nothing is lost: 0 %;
  3. against one cubic iperf3 flow the element cuts RTP loss at least five-fold,
  4. while TCP keeps most of the rest of the link: >= 3 Mbit/s of the ~3.7 the video leaves.
Four runs (6 s without TCP, 10 s with, after 2 s of TCP warm-up), about 45 s; before each run it
waits up to 30 s for a quiet CPU, and a run during which the hypervisor took more than 10 % of
the CPU (cpu_steal: this VM shares its host), or a paced run without TCP that lost packets
while the element reports catch-up frames or a lateness over 10 ms (its thread was held up) or
the hypervisor took more than 5 %, is run again, up to twice: an element that loses packets
by itself loses them in every try and still fails.

Exit codes (meson's convention): 0 pass, 1 fail, 77 skipped (not root, no network namespaces,
no iperf3 / PyGObject).  The plugin is taken from the first directory of GST_PLUGIN_PATH (meson
sets it to the build's gst/ directory), else from ../../build/gst relative to this file; a
missing plugin is a failure, not a skip.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

SKIP = 77


def plugin_dir():
    env = os.environ.get("GST_PLUGIN_PATH", "").split(os.pathsep)[0]
    return env or run.BUILD_PLUGIN_PATH


def checker(failures):
    """check(ok, text): prints PASS or FAIL and the text; a failed one is added to failures."""
    def check(ok, text):
        print("%s  %s" % ("PASS" if ok else "FAIL", text), flush=True)
        if not ok:
            failures.append(text)
    return check


#: A run during which the hypervisor took more than this share of the CPU measured the host,
#: not the element (docs/results.md, section 9: paced loss doubles at 15-30 % steal): it is
#: run again, at most MAX_STEAL_RETRIES times, and every try is printed.  So is a paced run
#: without TCP that lost packets while the element reports it had to catch up (a frame it
#: could only start late: its thread was held up, and the slots that came due meanwhile left
#: together); an element that is late by itself is late in every try and still fails.  Four
#: tries again, not two: a CI run had all three tries held up (steal 6-15 %, catch-up frames).
MAX_STEAL = 0.10
MAX_STEAL_RETRIES = 4

#: Through the ns-3 router, a run without TCP that lost packets while the router's real-time
#: scheduler ran more than this late (router_late_max_ms; codel's target is 5 ms, and a
#: scheduler that stalls longer makes every packet queued meanwhile look that old) measured
#: the emulator, not the path: it is run again the same way.  TESTBED.md: 3-6 ms at worst on
#: a quiet machine.
MAX_ROUTER_LATE_MS = 8.0

#: A paced run without TCP that lost packets while the element's thread was woken more than
#: this late (its max-lateness: the slots due meanwhile leave together, and the 13-packet
#: queue drains 13 packets in about 11 ms), or while the hypervisor took more than
#: MAX_STEAL_LOSS of the CPU (a stalled router namespace bunches packets the same way), is
#: run again the same way.
MAX_LATENESS_MS = 10.0
MAX_STEAL_LOSS = 0.05


def stat_values(row, name):
    """The element's guint64 stat NAME of each of the run's streams."""
    return [int(n) for n in re.findall(r"%s=\(guint64\)(\d+)" % re.escape(name),
                                       row.get("element_stats") or "")]


def catch_up_frames(row):
    """The element's catch-up-frames over the run's streams (0 without stats)."""
    return sum(stat_values(row, "catch-up-frames"))


def max_lateness_ms(row):
    """The element's max-lateness over the run's streams, ms (0 without stats)."""
    return max(stat_values(row, "max-lateness") or [0]) / 1e6


def host_interfered(mode, tcp, row):
    if float(row.get("cpu_steal") or 0) > MAX_STEAL:
        return "the hypervisor took %.0f %% of the CPU" % (100 * float(row["cpu_steal"]))
    if mode == "paced" and tcp == 0 and float(row.get("rtp_loss") or 0) > 0:
        n = catch_up_frames(row)
        if n > 0:
            return "the element had to catch up %d frames" % n
        late = max_lateness_ms(row)
        if late > MAX_LATENESS_MS:
            return "the element's thread woke up to %.1f ms late" % late
        if float(row.get("cpu_steal") or 0) > MAX_STEAL_LOSS:
            return "packets lost while the hypervisor took %.0f %% of the CPU" % (
                100 * float(row["cpu_steal"]))
        late = float(row.get("router_late_max_ms") or 0)
        if late > MAX_ROUTER_LATE_MS:
            return "the ns-3 router ran up to %.1f ms late" % late
    return None


def point(mode, tcp, duration, plugin, extra=(), label="integration"):
    """Runs one testbed point, again (up to MAX_STEAL_RETRIES times) while host_interfered."""
    a = run.parse_args(["--mode", mode, "--tcp", str(tcp), "--duration", str(duration),
                        "--warmup", "2", "--plugin-path", plugin, "--wait-idle", "30",
                        "--label", label, "--quiet"] + list(extra))
    for attempt in range(MAX_STEAL_RETRIES + 1):
        row = run.run(a)
        print("  %-6s tcp=%d: status=%s rtp_loss=%s tcp_mbps=%s cpu_busy=%s cpu_steal=%s%s" % (
            mode, tcp, row.get("status"), row.get("rtp_loss"), row.get("tcp_mbps"),
            row.get("cpu_busy"), row.get("cpu_steal"),
            "" if row.get("router_late_max_ms") is None
            else " router_late_max_ms=%s" % row["router_late_max_ms"]), flush=True)
        if row.get("status") != "ok":
            raise AssertionError("%s tcp=%d did not run: %s" % (mode, tcp, row.get("status")))
        why = host_interfered(mode, tcp, row)
        if why is None or attempt == MAX_STEAL_RETRIES:
            return row
        print("  (%s during that run: once more)" % why, flush=True)
    return row


def main():
    plugin = plugin_dir()
    why = run.testbed_unavailable()
    if why:
        print("SKIP: testbed integration test: %s" % why)
        return SKIP
    if not os.path.exists(os.path.join(plugin, "libgstrtpburstpace.so")):
        print("FAIL: no libgstrtpburstpace.so in %s (set GST_PLUGIN_PATH to the build's gst/)"
              % plugin)
        return 1
    print("testbed integration test, plugin from %s" % plugin, flush=True)
    failures = []
    check = checker(failures)

    try:
        b0 = point("bursty", 0, 6, plugin)
        p0 = point("paced", 0, 6, plugin)
        b1 = point("bursty", 1, 10, plugin)
        p1 = point("paced", 1, 10, plugin)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    except (KeyboardInterrupt, run.Interrupted):
        print("FAIL: interrupted (testbed removed)")
        return 1
    bl0, pl0 = float(b0["rtp_loss"]), float(p0["rtp_loss"])
    bl1, pl1, ptcp = float(b1["rtp_loss"]), float(p1["rtp_loss"]), float(p1["tcp_mbps"])
    check(bl0 > 0.20, "bursty, no TCP: most bursts overflow the 13-packet queue "
          "(loss %.1f %% > 20 %%)" % (100 * bl0))
    check(pl0 == 0, "rtpburstpace, no TCP: nothing lost (loss %.2f %%; max-lateness %.1f ms, "
          "steal %.0f %%; element stats: %s)"
          % (100 * pl0, max_lateness_ms(p0), 100 * float(p0.get("cpu_steal") or 0),
             p0.get("element_stats", "") if pl0 else "-"))
    check(pl1 * 5 <= bl1, "one TCP flow: the element cuts RTP loss at least five-fold "
          "(%.1f %% vs %.1f %% bursty)" % (100 * pl1, 100 * bl1))
    check(ptcp >= 3.0, "one TCP flow: TCP keeps most of the rest of the link "
          "(%.2f Mbit/s >= 3)" % ptcp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
