#!/usr/bin/python3
"""The doc test: runs every launch line of README.md and docs/*.md.

    /usr/bin/python3 tests/docs/launch_lines.py [--list] [--seconds S] [FILE...]

What it runs.  The code blocks of each Markdown file (fenced with ``` or
~~~, or indented by four spaces or more after a blank line).  A command is
a line with its backslash continuations.  A block is a *launch block* when
one of its commands is a launch line: `gst-launch-1.0 ...` or a program of
examples/ (`examples/send-video ...`, `/usr/bin/python3
examples/rtsp-server.py ...`), after any NAME=value prefixes.  Blocks
without one (install commands, the two commands, pipeline fragments) are
not run.  In a launch block:

- the commands run together, started in the order written: a sender and
  its receiver are one block, and run as a pair.  A command with an
  rtsp:// address starts once that port takes connections (the server
  before it in the block);
- lines that only assign a variable (HOST=192.0.2.10) are run before each
  command; HOST, SERVER, SENDER and RECEIVER are then set to 127.0.0.1.
  Any other variable a command uses must be assigned in the block;
- every port number (port=N, --port N, rtsp://H:N/) becomes a free port,
  the same one for the same number within the block, and N+1 ... N+9 with
  it (send-video and receive-video use P ... P+9).  The examples that
  have a port by default and are given none get --port with the port that
  stands for their default;
- display sinks (autovideosink, xvimagesink, glimagesink, ...) are
  swapped for `fakesink sync=true`, so that the test needs no display;
  the examples' scripts that take their sink from SINK
  (examples/twcc-receive.sh) get the same in the environment;
- an element the test machine lacks must be named in a comment the reader
  sees, `# needs: ELEMENT (why)`, e.g. `# needs: v4l2src (two cameras)`:
  the test runs the block with a stand-in for it (v4l2src ->
  videotestsrc is-live=true) and says so.  An element with a stand-in used
  without that comment, or a `needs:` without a stand-in, fails the test:
  nothing is skipped silently;
- gst-launch-1.0 runs with -m (its bus messages; -q removed), its output
  line-buffered (stdbuf -oL -eL).

What passes.  Each command runs from a scratch directory where examples/
and build/ are the tree's (so `GST_PLUGIN_PATH=build/gst` in a line finds
the built plugin, and files a line writes land there).  A gst-launch-1.0
line passes when its pipeline reaches PLAYING (for a sender that means a
buffer reached its sink, for a receiver that its sinks got data from the
sender: a live pipeline reaches PLAYING once its sinks have prerolled),
it prints no ERROR and no WARNING from an rtpburstpace element, and it
does not exit with an error.  Any other command passes when it is still
running at the end, or has exited with 0.  A block runs until every
gst-launch-1.0 line of it has reached PLAYING and --seconds (default 6)
have passed, at most --max-seconds (default 30); then its commands get
SIGINT (gst-launch-1.0 -e sends EOS), the last started first, each killed
when it still runs 5 s later.

Exit status 0 when every launch line passed, 1 otherwise, 77 (skipped)
without gst-launch-1.0.  GST_PLUGIN_PATH says where rtpburstpace is (meson
passes the build's gst/); without it, build/gst of this tree.
"""
import argparse
import glob
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
SKIP = 77

# The variables a launch line may use for the other host's address.
ADDRESS_VARS = ("HOST", "SERVER", "SENDER", "RECEIVER")
# Variables bash sets itself.
SHELL_VARS = ("PWD", "HOME")

DISPLAY_SINKS = ("autovideosink", "xvimagesink", "ximagesink", "glimagesink",
                 "waylandsink", "kmssink", "fbdevsink", "fpsdisplaysink",
                 "autoaudiosink", "alsasink", "pulsesink")
DISPLAY_STAND_IN = "fakesink sync=true"

# Elements a doc may need that a test machine lacks: what runs in their
# place when the block says `# needs: ELEMENT`.
STAND_INS = {
    "v4l2src": "videotestsrc is-live=true",
}

# Programs of examples/ with a port of their own when given none.
EXAMPLE_PORTS = {
    "rtsp-server.py": 8554,
    "send-video": 5000,
    "receive-video": 5000,
    "stats.py": 5000,
}

PORT_RES = (re.compile(r"(?<![\w-])port=(\d+)"),
            re.compile(r"--port(?:=|\s+)(\d+)"),
            re.compile(r"rtsp://[^\s/:'\"]+:(\d+)"))
VAR_RE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
ASSIGN_RE = re.compile(r"^(?:export\s+)?([A-Za-z_]\w*)=(?:\"[^\"]*\"|'[^']*'|\S*)\s*(?:#.*)?$")
PREFIX_RE = re.compile(r"^(?:[A-Za-z_]\w*=(?:\"[^\"]*\"|'[^']*'|\S*)\s+)*")
NEEDS_RE = re.compile(r"^#\s*needs:\s*([\w-]+)")
# an element with its properties in a launch description
PROPS = r"(?:\s+[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s!'\"]+))*"


def code_blocks(path):
    """[(first line number, [lines])] of the code blocks of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    i = 0
    prev_blank = True
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)(```|~~~)", line)
        if m:
            indent, fence = len(m.group(1)), m.group(2)
            i += 1
            start, body = i + 1, []
            while i < len(lines) and not lines[i].strip().startswith(fence):
                text = lines[i]
                body.append(text[indent:] if text[:indent].strip() == "" else text.lstrip())
                i += 1
            blocks.append((start, body))
            i += 1
            prev_blank = False
            continue
        m = re.match(r"^( {4,})\S", line)
        if prev_blank and m:
            indent = len(m.group(1))
            start, body = i + 1, []
            while i < len(lines) and (lines[i].strip() == "" or
                                      lines[i].startswith(" " * indent)):
                body.append(lines[i][indent:])
                i += 1
            while body and body[-1].strip() == "":
                body.pop()
            blocks.append((start, body))
            prev_blank = True
            continue
        prev_blank = line.strip() == ""
        i += 1
    return blocks


def split_commands(start, body):
    """The block's lines as (line number, kind, text): kind is 'comment' or
    'command'; continuation lines are joined."""
    out = []
    i = 0
    while i < len(body):
        text = body[i].strip()
        number = start + i
        i += 1
        if not text:
            continue
        if text.startswith("#"):
            out.append((number, "comment", text))
            continue
        parts = [text]
        while parts[-1].endswith("\\") and i < len(body):
            parts[-1] = parts[-1][:-1].rstrip()
            parts.append(body[i].strip())
            i += 1
        out.append((number, "command", " ".join(p for p in parts if p)))
    return out


def program_of(command):
    """'gst-launch-1.0', the examples/ program's file name, or None."""
    rest = command[PREFIX_RE.match(command).end():]
    words = rest.split()
    if words and words[0] in ("/usr/bin/python3", "python3"):
        words = words[1:]
    if not words:
        return None
    if words[0] == "gst-launch-1.0":
        return "gst-launch-1.0"
    if words[0].startswith("examples/"):
        return words[0][len("examples/"):]
    return None


class Command:
    def __init__(self, path, number, text, program):
        self.where = "%s:%d" % (path, number)
        self.text = text
        self.program = program
        self.run_text = text
        self.proc = None
        self.lines = []
        self.playing = None         # seconds after its start, once PLAYING
        self.errors = []            # lines that fail it
        self.started = None
        self.exit = None            # exit status before the block's end
        self.notes = []

    @property
    def is_launch(self):
        return self.program == "gst-launch-1.0"


class Block:
    def __init__(self, path, start, items):
        self.path = path
        self.start = start
        self.assignments = []
        self.needs = []
        self.commands = []
        self.problems = []
        for number, kind, text in items:
            if kind == "comment":
                m = NEEDS_RE.match(text)
                if m:
                    self.needs.append(m.group(1))
                continue
            if ASSIGN_RE.match(text):
                self.assignments.append(text)
                continue
            program = program_of(text)
            if program is None:
                self.problems.append("%s:%d: not a launch line, in a block with launch lines: %s"
                                     % (path, number, text))
                continue
            self.commands.append(Command(path, number, text, program))

    @property
    def where(self):
        return "%s:%d" % (self.path, self.start)


def launch_blocks(path, rel):
    blocks = []
    for start, body in code_blocks(path):
        items = split_commands(start, body)
        if not any(kind == "command" and program_of(text) for _, kind, text in items):
            continue
        blocks.append(Block(rel, start, items))
    return blocks


def port_free(port):
    for kind in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
        s = socket.socket(socket.AF_INET, kind)
        try:
            s.bind(("", port))
        except OSError:
            return False
        finally:
            s.close()
    return True


def free_base(taken):
    """A port P with P ... P+9 free (UDP and TCP) and not given out before."""
    for _ in range(1000):
        base = random.randrange(20000, 60000, 10)
        if base in taken:
            continue
        if all(port_free(base + k) for k in range(10)):
            taken.add(base)
            return base
    raise RuntimeError("no free ports")


def prepare(block, taken):
    """Rewrites the block's commands as the test runs them (module doc)."""
    assigned = set()
    for a in block.assignments:
        assigned.add(ASSIGN_RE.match(a).group(1))
    for name in block.needs:
        if name not in STAND_INS:
            block.problems.append("%s: '# needs: %s' but the test has no stand-in for %s "
                                  "(add one to STAND_INS)" % (block.where, name, name))
    ports = {}

    def mapped(n):
        n = int(n)
        if n not in ports:
            ports[n] = free_base(taken)
        return ports[n]

    for c in block.commands:
        for m in VAR_RE.finditer(c.text):
            name = m.group(1) or m.group(2)
            if name not in assigned and name not in ADDRESS_VARS and name not in SHELL_VARS:
                block.problems.append("%s: uses $%s, which the block does not set"
                                      % (c.where, name))
    for c in block.commands:
        t = c.text
        for name, stand_in in STAND_INS.items():
            pattern = re.compile(r"(?<![\w-])" + re.escape(name) + PROPS)
            if pattern.search(t):
                if name in block.needs:
                    t = pattern.sub(stand_in, t)
                    c.notes.append("%s replaced by %s ('# needs: %s')" % (name, stand_in, name))
                else:
                    block.problems.append("%s: uses %s: say so in the block with "
                                          "'# needs: %s (why)'" % (c.where, name, name))
        sinks = re.compile(r"(?<![\w-])(?:%s)%s" % ("|".join(DISPLAY_SINKS), PROPS))
        if sinks.search(t):
            t = sinks.sub(DISPLAY_STAND_IN, t)
            c.notes.append("display sink swapped for %s" % DISPLAY_STAND_IN)
        for r in PORT_RES:
            t = r.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + str(mapped(m.group(1))), t)
        if c.program in EXAMPLE_PORTS and not re.search(r"--port(?:=|\s)", t):
            t += " --port %d" % mapped(EXAMPLE_PORTS[c.program])
        if c.is_launch:
            m = re.search(r"gst-launch-1\.0((?:\s+-[\w-]+)*)", t)
            opts = [o for o in m.group(1).split() if o not in ("-q", "--quiet", "-m", "--messages")]
            # line-buffered, so that the test sees each message as it comes
            t = (t[:m.start()] + " ".join(["stdbuf", "-oL", "-eL", "gst-launch-1.0", "-m"] + opts)
                 + t[m.end():])
        c.run_text = t
    if ports:
        block.port_note = ", ".join("%d -> %d" % kv for kv in sorted(ports.items()))
    else:
        block.port_note = ""


def script_of(block, command):
    lines = list(block.assignments)
    lines += ["%s=127.0.0.1" % v for v in ADDRESS_VARS]
    # NAME=value prefixes go before exec, which passes them on
    prefix = PREFIX_RE.match(command.run_text).end()
    lines.append(command.run_text[:prefix] + "exec " + command.run_text[prefix:])
    return "\n".join(lines) + "\n"


def reader(c, lock):
    for raw in c.proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            c.lines.append(line)
            if not c.is_launch:
                continue
            if ('from element "pipeline0" (state-changed)' in line and
                    "new-state=(GstState)playing" in line and c.playing is None):
                c.playing = time.monotonic() - c.started
            if (line.startswith("ERROR") or "WARNING: erroneous pipeline" in line or
                    ("WARNING: from element" in line and "GstRtpBurstPace:" in line)):
                c.errors.append(line)


def rtsp_port(text):
    m = re.search(r"rtsp://[^\s/:'\"]+:(\d+)", text)
    return int(m.group(1)) if m else None


def wait_for_port(port, deadline, before):
    while time.monotonic() < deadline:
        if any(c.proc.poll() is not None for c in before):
            return False
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(0.5)
        try:
            s.connect(("127.0.0.1", port))
            return True
        except OSError:
            time.sleep(0.2)
        finally:
            s.close()
    return False


def stop(c):
    if c.proc is None or c.proc.poll() is not None:
        return
    try:
        os.killpg(c.proc.pid, signal.SIGINT)
    except ProcessLookupError:
        return


def run_block(block, workdir, env, seconds, max_seconds):
    lock = threading.Lock()
    threads = []
    t0 = time.monotonic()
    for i, c in enumerate(block.commands):
        if i > 0:
            time.sleep(0.5)
        port = rtsp_port(c.run_text)
        if port is not None and c.is_launch:
            if not wait_for_port(port, time.monotonic() + 20, block.commands[:i]):
                c.notes.append("nothing took connections on port %d" % port)
        c.started = time.monotonic()
        c.proc = subprocess.Popen(["bash", "-c", script_of(block, c)], cwd=workdir, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, start_new_session=True)
        th = threading.Thread(target=reader, args=(c, lock), daemon=True)
        th.start()
        threads.append(th)
    while True:
        time.sleep(0.2)
        now = time.monotonic()
        with lock:
            for c in block.commands:
                if c.exit is None and c.proc.poll() is not None:
                    c.exit = c.proc.returncode
            failed = any(c.errors or (c.exit not in (None, 0)) for c in block.commands)
            waiting = any(c.is_launch and c.playing is None and c.exit is None
                          for c in block.commands)
        if failed or now - t0 >= max_seconds or (now - t0 >= seconds and not waiting):
            break
    # the last started first, as a user stops a client before its server
    # (a server gone first makes rtspsrc's teardown fail)
    for c in reversed(block.commands):
        stop(c)
        try:
            c.proc.wait(5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(c.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            c.proc.wait()
            c.notes.append("killed: still running 5 s after SIGINT")
    for th in threads:
        th.join(5)
    return time.monotonic() - t0


def verdict(c):
    """None when the command passed, else why not."""
    if c.errors:
        return "printed: " + c.errors[0]
    if c.exit not in (None, 0):
        return "exited with status %d while the block ran" % c.exit
    if c.is_launch and c.playing is None:
        return "its pipeline did not reach PLAYING"
    return None


def plugin_check(env):
    """None when gst-inspect-1.0 finds rtpburstpace in GST_PLUGIN_PATH, else why not."""
    p = subprocess.run(["gst-inspect-1.0", "rtpburstpace"], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0:
        return "gst-inspect-1.0 rtpburstpace failed: %s" % (p.stderr.strip() or p.stdout.strip())
    m = re.search(r"^\s*Filename\s+(\S+)", p.stdout, re.M)
    want = [os.path.realpath(d) for d in env["GST_PLUGIN_PATH"].split(":") if d]
    if not m or not any(os.path.realpath(m.group(1)).startswith(d + os.sep) for d in want):
        return ("rtpburstpace comes from %s, not from GST_PLUGIN_PATH (%s)"
                % (m.group(1) if m else "?", env["GST_PLUGIN_PATH"]))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", metavar="FILE",
                    help="Markdown files (default: README.md and docs/*.md of the tree)")
    ap.add_argument("--list", action="store_true",
                    help="print the launch blocks as they would run, run nothing")
    ap.add_argument("--seconds", type=float, default=6.0,
                    help="how long a block runs at least (default 6)")
    ap.add_argument("--max-seconds", type=float, default=30.0,
                    help="how long a block may take to reach PLAYING (default 30)")
    args = ap.parse_args()

    files = args.files or ([os.path.join(SRC, "README.md")] +
                           sorted(glob.glob(os.path.join(SRC, "docs", "*.md"))))
    blocks = []
    for f in files:
        blocks += launch_blocks(f, os.path.relpath(f, SRC))
    taken = set()
    for b in blocks:
        prepare(b, taken)
    n_commands = sum(len(b.commands) for b in blocks)
    n_launch = sum(1 for b in blocks for c in b.commands if c.is_launch)
    print("%d launch blocks, %d commands (%d gst-launch-1.0 lines) in %d files"
          % (len(blocks), n_commands, n_launch, len(files)), flush=True)

    if args.list:
        for b in blocks:
            print("\n%s%s" % (b.where, " (ports %s)" % b.port_note if b.port_note else ""))
            for p in b.problems:
                print("  PROBLEM " + p)
            for c in b.commands:
                print("  %s: %s" % (c.where, c.run_text))
                for n in c.notes:
                    print("    (%s)" % n)
        return 0

    if shutil.which("gst-launch-1.0") is None:
        print("SKIP: gst-launch-1.0 missing (gstreamer1.0-tools)")
        return SKIP
    if n_launch == 0:
        print("FAIL: no gst-launch-1.0 line found")
        return 1

    env = dict(os.environ)
    if not env.get("GST_PLUGIN_PATH"):
        env["GST_PLUGIN_PATH"] = os.path.join(SRC, "build", "gst")
    plugin_dir = os.path.realpath(env["GST_PLUGIN_PATH"].split(":")[0])
    why = plugin_check(env)
    if why:
        print("FAIL: " + why)
        return 1
    env.setdefault("GST_DEBUG_NO_COLOR", "1")
    env["SINK"] = DISPLAY_STAND_IN

    failures = 0
    with tempfile.TemporaryDirectory(prefix="launch-lines-") as workdir:
        os.symlink(os.path.join(SRC, "examples"), os.path.join(workdir, "examples"))
        # build/gst is the plugin the test uses, wherever the build is
        os.makedirs(os.path.join(workdir, "build"))
        os.symlink(plugin_dir, os.path.join(workdir, "build", "gst"))
        for b in blocks:
            print("\n== %s%s" % (b.where, " (ports %s)" % b.port_note if b.port_note else ""),
                  flush=True)
            if b.problems:
                for p in b.problems:
                    print("FAIL " + p)
                failures += len(b.problems)
                continue
            took = run_block(b, workdir, env, args.seconds, args.max_seconds)
            for c in b.commands:
                why = verdict(c)
                status = "PASS" if why is None else "FAIL"
                extra = ""
                if c.playing is not None:
                    extra = " (PLAYING after %.1f s)" % c.playing
                print("%s %s: %s%s" % (status, c.where, c.text, extra))
                print("     ran: %s" % c.run_text)
                for n in c.notes:
                    print("     (%s)" % n)
                if why is not None:
                    failures += 1
                    print("     %s; its last lines:" % why)
                    for line in c.lines[-30:]:
                        print("       | " + line)
            print("   (%.1f s)" % took, flush=True)
    if failures:
        print("\nFAIL: %d failure(s) in %d launch blocks" % (failures, len(blocks)))
        return 1
    print("\nPASS: all %d commands of %d launch blocks" % (n_commands, len(blocks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
