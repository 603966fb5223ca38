#!/usr/bin/python3
"""examples/send-video and examples/receive-video as a user runs them.

Help: `--help` of each application lists its options, and every option it
lists (in the usage line and under "options") has a description; the
options a user needs are there (--recipe, --port, --seconds, --json,
--lab, --list-recipes; send-video --host, receive-video --display).
`--list-recipes` lists the user's recipes and not the experiment variants,
`--list-recipes --lab` lists these too, and an experiment variant without
--lab is refused (exit 2).

Ctrl-C: receive-video and send-video (the recommended recipe) start on free
loopback ports without --seconds, so they run until they are stopped;
after a few status lines ("t=..." lines a second, stdout being a pipe) each
gets SIGINT, must exit with 0 within 15 s and print its summary (send-video
with --json: a JSON object as its last line with frames sent; receive-video
without: its summary line with frames decoded intact, and no JSON).

Exit codes: 0 pass, 1 fail, 77 skipped (no PyGObject / GStreamer bindings or
a GStreamer plugin the recipes need is missing).  About 20 s.

    /usr/bin/python3 tests/senders/app_cli.py
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import gstbindings  # noqa: E402  (exits SKIP without the bindings)
import video_recipes  # noqa: E402

ROOT = gstbindings.ROOT
SEND = os.path.join(ROOT, "examples", "send-video")
RECEIVE = os.path.join(ROOT, "examples", "receive-video")
WANTED = {
    "send-video": ("--recipe", "--port", "--seconds", "--json", "--lab", "--list-recipes",
                   "--host", "--source"),
    "receive-video": ("--recipe", "--port", "--seconds", "--json", "--lab",
                      "--list-recipes", "--display", "--sender", "--latency"),
}
RUN_SECONDS = 4.0

failures = []


def check(ok, text):
    print("%s  %s" % ("ok  " if ok else "FAIL", text))
    if not ok:
        failures.append(text)


def help_options(text):
    """{option: description} of an argparse --help (every section of
    options), and the options of the usage line."""
    usage, _, rest = text.partition("\n\n")
    in_usage = set(re.findall(r"\[(--?[\w-]+)", usage))
    opts, current = {}, None
    for line in rest.splitlines():
        arg = r"(?:[ =](?:\{[^}]*\}|[^,\s]+))?"     # METAVAR or {choice,...}
        m = re.match(r"^  (-[\w-]+%s(?:, -[\w-]+%s)*)(?:\s{2,}(.*))?$" % (arg, arg), line)
        if m:
            names = re.findall(r"(?:^|, )(--?[\w-]+)", m.group(1))
            current = names
            for n in names:
                opts[n] = (m.group(2) or "").strip()
        elif current and line.startswith(" " * 10):
            for n in current:
                opts[n] = (opts[n] + " " + line.strip()).strip()
        else:                       # a section's title or text, a blank line
            current = None
    return opts, in_usage


def check_help(app, path):
    out = subprocess.run([path, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=60)
    check(out.returncode == 0, "%s --help exits 0 (%d)" % (app, out.returncode))
    opts, in_usage = help_options(out.stdout)
    undescribed = sorted(n for n, text in opts.items() if len(text) < 10)
    check(not undescribed, "%s --help: every option has a description (none for %s)"
          % (app, ", ".join(undescribed) or "none"))
    unlisted = sorted(in_usage - set(opts))
    check(not unlisted, "%s --help: every option of the usage line is described (missing: %s)"
          % (app, ", ".join(unlisted) or "none"))
    missing = [o for o in WANTED[app] if o not in opts]
    check(not missing, "%s --help lists %s (missing: %s)"
          % (app, ", ".join(WANTED[app]), ", ".join(missing) or "none"))
    for opt in ("--seconds", "--port"):
        check("default" in opts.get(opt, ""), "%s --help: %s says its default" % (app, opt))


def check_recipes(app, path):
    user = subprocess.run([path, "--list-recipes"], stdout=subprocess.PIPE,
                          universal_newlines=True, timeout=60).stdout
    lab = subprocess.run([path, "--list-recipes", "--lab"], stdout=subprocess.PIPE,
                         universal_newlines=True, timeout=60).stdout
    check("`recommended`" in user and "`paced`" in user and "`paced-fec5x5`" not in user,
          "%s --list-recipes: the user's recipes, no experiment variant" % app)
    check("`paced-fec5x5`" in lab and "`capped-rtx-behind`" in lab,
          "%s --list-recipes --lab: the experiment variants too" % app)
    refused = subprocess.run([path, "--recipe", "paced-fec5x5", "--seconds", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=60)
    check(refused.returncode == 2 and "--lab" in refused.stderr,
          "%s --recipe paced-fec5x5 without --lab: refused, pointing to --lab (exit %d)"
          % (app, refused.returncode))


class Reader(threading.Thread):
    """Collects a process's stdout lines."""

    def __init__(self, proc):
        super().__init__(daemon=True)
        self.proc = proc
        self.lines = []

    def run(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def ticks(self):
        return [l for l in self.lines if l.startswith("t=")]


def stop(app, proc, reader):
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        check(False, "%s stopped within 15 s of SIGINT" % app)
        return None
    reader.join(5)
    err = proc.stderr.read()
    check(proc.returncode == 0, "%s exits 0 on SIGINT (%d)%s" % (
        app, proc.returncode, (": " + err.strip()[-500:]) if proc.returncode else ""))
    check(len(reader.ticks()) >= 2, "%s printed status lines (%d)" % (app, len(reader.ticks())))
    return reader.lines


def check_ctrl_c():
    port = video_recipes.free_base_port()
    rx = subprocess.Popen([RECEIVE, "--port", str(port), "--sender", "127.0.0.1"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    rx_reader = Reader(rx)
    rx_reader.start()
    time.sleep(1.0)
    tx = subprocess.Popen([SEND, "--port", str(port), "--json"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    tx_reader = Reader(tx)
    tx_reader.start()
    deadline = time.monotonic() + RUN_SECONDS + 20
    while time.monotonic() < deadline and len(tx_reader.ticks()) < RUN_SECONDS:
        if tx.poll() is not None or rx.poll() is not None:
            break
        time.sleep(0.2)
    check(tx.poll() is None and rx.poll() is None,
          "both run without --seconds until stopped (%s, %s)" % (tx.poll(), rx.poll()))
    tx_lines = stop("send-video", tx, tx_reader) or []
    time.sleep(1.0)
    rx_lines = stop("receive-video", rx, rx_reader) or []

    try:
        txj = json.loads(tx_lines[-1])
    except (IndexError, ValueError):
        txj = None
    check(isinstance(txj, dict) and txj.get("frames_sent", 0) > 0,
          "send-video --json: the last line is a JSON object with frames_sent > 0 (%r)"
          % (tx_lines[-1:] if txj is None else txj.get("frames_sent")))
    check(any(l.startswith("send-video: ") and " frames " in l for l in tx_lines[1:]),
          "send-video printed its summary")
    summary = [l for l in rx_lines if l.startswith("receive-video: ") and "intact" in l]
    intact = int(re.search(r"(\d+) frames decoded intact", summary[-1]).group(1)) \
        if summary else 0
    check(intact > 0, "receive-video printed its summary with frames intact (%s)"
          % (summary[-1:] or "none"))
    check(not rx_lines or not rx_lines[-1].startswith("{"),
          "receive-video without --json prints no JSON")


def main():
    code = gstbindings.unavailable(video_recipes.NEEDED)
    if code is not None:
        return code
    for app, path in (("send-video", SEND), ("receive-video", RECEIVE)):
        check_help(app, path)
        check_recipes(app, path)
    check_ctrl_c()
    if failures:
        print("FAIL: %d check(s) failed" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
