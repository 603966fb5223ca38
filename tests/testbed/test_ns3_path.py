#!/usr/bin/python3
"""Smoke test of one path through the ns-3 router: 40 ms round trip and fq_codel.

6 Mbit/s CBR raw video (30 x 1000 B per 40 ms frame) through rtpburstpace, no TCP, 5 s, across
the testbed with the ns-3 router (run.py --router ns3 --rtt 40 --aqm fq_codel).  Asserts that
the run went through ns-3 with fq_codel, that ping measured the round trip within 5 ms of 40,
that the one-way delay of the video is about half of it, and that nothing was lost.  A run
during which the host interfered (the hypervisor took more than 10 % of the CPU, or packets
were lost while the ns-3 router's real-time scheduler ran more than 8 ms late) is run again, up
to twice, with test_integration.py's rule; every try is printed.  If the last try still lost
packets while the router ran late, up to 0.1 % is taken as the router's (ROUTER_LATE_LOSS);
a router that kept time may lose nothing.

Exit codes (meson's convention): 0 pass, 1 fail, 77 skipped: not root or no network namespaces
(as the other testbed test), or libns3-dev not installed (scripts/setup.sh installs it).  A
router that is missing where libns3-dev is installed is a failure: the build should have made
it.  The router is taken from NETBED_NS3_ROUTER (meson sets it), else from the build next to
the plugin (GST_PLUGIN_PATH's first directory).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402
import test_integration  # noqa: E402

SKIP = 77
#: The loss tolerated in a run whose ns-3 router ran more than
#: test_integration.MAX_ROUTER_LATE_MS late when every try had the host in the
#: way: a stalled real-time scheduler makes fq_codel see old packets and drop
#: one (CI: 1 of 3780 at 44 % CPU steal, the router 30 ms late).
ROUTER_LATE_LOSS = 0.001


def main():
    plugin = test_integration.plugin_dir()
    why = run.testbed_unavailable()
    if why:
        print("SKIP: ns-3 path smoke test: %s" % why)
        return SKIP
    router = run.ns3_router_path(plugin)
    if not os.path.exists(router):
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "libns3-dev"],
                                   capture_output=True, text=True).stdout
        if "install ok installed" not in installed:
            print("SKIP: ns-3 path smoke test: libns3-dev is not installed "
                  "(scripts/setup.sh installs it)")
            return SKIP
        print("FAIL: libns3-dev is installed but there is no ns-3 router at %s "
              "(meson setup --reconfigure build)" % router)
        return 1
    try:
        row = test_integration.point(
            "paced", 0, 5, plugin, label="ns3-smoke",
            extra=["--router", "ns3", "--rtt", "40", "--aqm", "fq_codel"])
    except (KeyboardInterrupt, run.Interrupted):
        print("FAIL: interrupted (testbed removed)")
        return 1
    except AssertionError as e:
        print("FAIL: the run did not complete: %s" % e)
        return 1
    print("  " + " ".join("%s=%s" % (k, row.get(k)) for k in (
        "status", "router", "aqm", "rtt_ms", "owd_p50_ms", "rtp_sent", "rtp_loss_sent",
        "bottleneck_drops", "router_tap_drops", "router_other_drops", "rx_udp_drops",
        "router_late_p99_ms", "router_late_max_ms", "cpu_busy", "cpu_steal")), flush=True)
    failures = []
    check = test_integration.checker(failures)

    check(row["router"] == "ns3" and row["aqm"] == "fq_codel",
          "the path went through the ns-3 router with fq_codel (%s, %s)"
          % (row["router"], row["aqm"]))
    check(abs(row["rtt_ms"] - 40) <= 5, "ping round trip %.2f ms within 5 ms of 40"
          % row["rtt_ms"])
    check(15 <= row["owd_p50_ms"] <= 30, "the video's one-way delay p50 %.2f ms is about half "
          "the round trip" % row["owd_p50_ms"])
    late = float(row.get("router_late_max_ms") or 0)
    if row["rtp_loss_sent"] > 0 and late > test_integration.MAX_ROUTER_LATE_MS:
        # every try had the host in the way (three tries are run first): what a
        # router that ran this late can lose is its own, up to ROUTER_LATE_LOSS
        check(row["rtp_sent"] > 100 and row["rtp_loss_sent"] <= ROUTER_LATE_LOSS,
              "nothing lost without TCP but what the router lost while it ran %.1f ms late "
              "(%d packets sent, loss %.3f %%, at most %.1f %%)"
              % (late, row["rtp_sent"], 100 * row["rtp_loss_sent"], 100 * ROUTER_LATE_LOSS))
    else:
        check(row["rtp_sent"] > 100 and row["rtp_loss_sent"] == 0,
              "nothing lost without TCP (%d packets sent, loss %.3f %%)"
              % (row["rtp_sent"], 100 * row["rtp_loss_sent"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
