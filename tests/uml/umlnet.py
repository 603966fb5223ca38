"""What the tests in run-uml.sh's guest share: the checks that they run in
the guest with the plugin, a receiver that timestamps arrivals in its
kernel, running a role of a test's script in one of the guest's network
namespaces, tc in the sender's, the mqprio + etf set-up, and waiting for
a pipeline's EOS.

A test's script imports it from its own directory (sys.path[0]).
"""
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time

SO_TIMESTAMPNS = 35
SCM_TIMESTAMPNS = SO_TIMESTAMPNS
SO_RCVBUFFORCE = 33
GUEST_ENV = ("UML_NS_TX", "UML_NS_RX", "UML_TX_DEV", "UML_RX_ADDR")


def guest_ready(script, factories):
    """None where the script can run: in the guest (run-uml.sh's
    variables), with PyGObject and each element of factories; else the exit
    code (77: skipped, 2: not in the guest), the reason printed."""
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
        Gst.init(None)
    except (ImportError, ValueError) as e:
        print("skipped: no PyGObject with GStreamer (%s)" % e)
        return 77
    for f in factories:
        if Gst.ElementFactory.find(f) is None:
            print("skipped: no %s (GST_PLUGIN_PATH=%s)" %
                  (f, os.environ.get("GST_PLUGIN_PATH")))
            return 77
    for v in GUEST_ENV:
        if v not in os.environ:
            print("%s runs in run-uml.sh's guest (no %s)" % (os.path.basename(script), v))
            return 2
    return None


def receive(port, done=lambda n: False):
    """Prints "ready", then yields (datagram, kernel arrival time in ns or
    None) until done(packets so far), 3 s without a packet after the first,
    30 s before it, or 60 s in all.  The socket's buffer is forced past
    net.core.rmem_max (root): an unpaced burst must not overflow it."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 4 * 1024 * 1024)
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.bind(("0.0.0.0", port))
    print("ready", flush=True)
    n = 0
    deadline = time.monotonic() + 60
    while not done(n) and time.monotonic() < deadline:
        r, _, _ = select.select([s], [], [], 3.0 if n else 30.0)
        if not r:
            break
        data, anc, _, _ = s.recvmsg(2048, socket.CMSG_SPACE(16))
        t = None
        for level, kind, value in anc:
            if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", value[:16])
                t = sec * 1000000000 + nsec
        n += 1
        yield data, t


def role(script, ns, *args):
    """The command that runs script's role ARGS in the namespace ns."""
    return ["ip", "netns", "exec", ns, sys.executable, os.path.abspath(script)] + list(args)


def run_pair(script, recv_args, send_args, timeout=120):
    """Starts script's receiver role (recv RECV_ARGS) in $UML_NS_RX, waits
    for its "ready", runs the sender role (send $UML_RX_ADDR SEND_ARGS) in
    $UML_NS_TX, and returns what each printed last, as JSON."""
    rx = subprocess.Popen(role(script, os.environ["UML_NS_RX"], "recv", *recv_args),
                          stdout=subprocess.PIPE, text=True)
    if rx.stdout.readline().strip() != "ready":
        sys.exit("the receiver did not start")
    tx = subprocess.run(role(script, os.environ["UML_NS_TX"], "send",
                             os.environ["UML_RX_ADDR"], *send_args),
                        stdout=subprocess.PIPE, text=True, timeout=timeout)
    got = json.loads(rx.communicate(timeout=90)[0])
    if tx.returncode != 0:
        sys.exit("the sender failed (%d)" % tx.returncode)
    return got, json.loads(tx.stdout.strip().splitlines()[-1])


def tc(*args):
    """tc ARGS in the sender's namespace."""
    subprocess.run(["ip", "netns", "exec", os.environ["UML_NS_TX"], "tc"] + list(args),
                   check=True)


def etf_setup(dev, delta_ns):
    """tc's arguments for mqprio with one traffic class on the first queue
    (every priority) and etf on it, CLOCK_TAI, delta delta_ns: the veth's
    other queue keeps pfifo_fast."""
    return [["qdisc", "replace", "dev", dev, "parent", "root", "handle", "100",
             "mqprio", "num_tc", "1", "map"] + ["0"] * 16 + ["queues", "1@0", "hw", "0"],
            ["qdisc", "add", "dev", dev, "parent", "100:1", "etf",
             "clockid", "CLOCK_TAI", "delta", str(delta_ns)]]


def wait_eos(bus, seconds):
    """Pops bus's messages until EOS and returns the warnings' texts;
    exits on an error, or with no EOS after seconds."""
    from gi.repository import Gst
    warnings = []
    while True:
        msg = bus.timed_pop_filtered(seconds * Gst.SECOND, Gst.MessageType.EOS |
                                     Gst.MessageType.ERROR | Gst.MessageType.WARNING)
        if msg is None:
            sys.exit("send: no EOS after %d s" % seconds)
        if msg.type == Gst.MessageType.WARNING:
            warnings.append(msg.parse_warning()[0].message)
        elif msg.type == Gst.MessageType.ERROR:
            sys.exit("send: %s" % msg.parse_error()[0].message)
        else:
            return warnings


def structure_dict(s):
    """A GstStructure's fields as a dict."""
    return {s.nth_field_name(i): s.get_value(s.nth_field_name(i))
            for i in range(s.n_fields())}
