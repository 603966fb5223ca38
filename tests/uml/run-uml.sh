#!/bin/bash
# run-uml.sh - runs a command in a User-Mode Linux guest that has the kernel
# qdiscs this host lacks (fq, etf, netem, fq_codel), between two network
# namespaces.
#
#   run-uml.sh [options] -- COMMAND [ARG...]
#
# Boots Debian's user-mode-linux (linux.uml, kernel 6.1) with the host's root
# as a read-only hostfs, so the guest runs the host's own programs and
# libraries (GStreamer, Python, the build directory).  In the guest
# (tests/uml/guest-init.sh) it loads the qdisc and veth modules of the
# user-mode-linux package, makes two network namespaces joined by a veth
#
#   $UML_NS_TX: $UML_TX_DEV $UML_TX_ADDR  <-- veth -->  $UML_RX_DEV $UML_RX_ADDR :$UML_NS_RX
#
# with the --qdisc on the sender's egress ($UML_TX_DEV), and runs COMMAND in
# the guest's initial namespace (it enters the others with `ip netns exec`),
# in the current directory, with the environment of this script (plus the
# UML_* names above).  The guest's root file system is read-only: /run and
# $TMPDIR (/run/tmp) are writable, and GST_REGISTRY is set to a file there.
#
# COMMAND's output is printed here and its exit status is this script's:
# linux.uml itself exits 0 whatever the guest did, so both come back through
# a writable host directory mounted in the guest.  Exits 77 (skipped, with a
# message) when not root or without user-mode-linux; 99 when the guest did
# not report a status (it did not boot, a module would not load, or the
# --timeout ran out).
#
# Options:
#   --qdisc SPEC    the sender's egress qdisc, as `tc qdisc replace dev
#                   $UML_TX_DEV root SPEC` takes it (default "fq flow_limit
#                   1000": fq's default flow_limit of 100 drops packets queued
#                   ahead); "none" leaves the veth's default (noqueue)
#   --mem SIZE      the guest's memory (default 512M)
#   --timeout S     stop the guest after S seconds (default 240)
#   --keep          keep the exchange directory (its path is printed)
#
# Its timers are coarse (a 1 ms sleep wakes a median ~180 us late, p99
# ~1.2 ms; a syscall costs ~20 us) and follow the host's load: it is for
# functional checks at up to ~1,000 packets/s, not for precision figures.
# Debian's build has no time-travel mode.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
name=run-uml
qdisc="fq flow_limit 1000"
mem=512M
timeout_s=240
keep=0

while [ $# -gt 0 ]; do
  case "$1" in
    --qdisc) qdisc=${2:?--qdisc needs a value}; shift 2 ;;
    --mem) mem=${2:?--mem needs a size}; shift 2 ;;
    --timeout) timeout_s=${2:?--timeout needs seconds}; shift 2 ;;
    --keep) keep=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$name: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
if [ $# -eq 0 ]; then
  echo "$name: no command (run-uml.sh [options] -- COMMAND...)" >&2
  exit 2
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "$name: skipped: needs root (the guest's namespaces and qdiscs)"
  exit 77
fi
uml=$(command -v linux.uml || true)
modules=$(ls -d /usr/lib/uml/modules/*/ 2>/dev/null | sort -V | tail -n 1)
if [ -z "$uml" ] || [ -z "$modules" ]; then
  echo "$name: skipped: needs Debian's user-mode-linux (linux.uml and" \
    "/usr/lib/uml/modules; scripts/setup.sh installs it)"
  exit 77
fi

# The exchange directory: the command and its environment in, the output
# and the status out.  Its path is passed on the kernel command line, which
# splits at spaces.
dir=$(mktemp -d "${TMPDIR:-/tmp}/run-uml.XXXXXX") || exit 1
case "$dir" in
  *[[:space:]]*) echo "$name: the temporary directory $dir has a space" >&2
                 rm -rf "$dir"; exit 1 ;;
esac
sid=""
cleanup() {
  # linux.uml calls setsid () and runs helper processes of its own: what is
  # left of its session goes (its session id is its process id).
  if [ -n "$sid" ]; then
    pkill -KILL -s "$sid" 2>/dev/null
  fi
  if [ $keep -eq 0 ]; then rm -rf "$dir"; else echo "$name: kept $dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir "$dir/out" "$dir/uml" || exit 1
{
  # The environment, but what the guest sets itself.
  export -p | grep -vE '^declare -x (HOME|PWD|OLDPWD|SHLVL|TMPDIR|GST_REGISTRY|_)='
  printf 'cd %q || exit 2\n' "$PWD"
  printf 'UML_QDISC=%q\n' "$qdisc"
  printf 'UML_MODULES=%q\n' "$modules"
  printf 'set --'
  printf ' %q' "$@"
  printf '\n'
} >"$dir/command"

# Debian 12's linux.uml cannot restore its guest's registers on a host with
# a larger XSAVE area than its build knew (AVX-512, AMX): uml-xstate.c,
# preloaded, makes up the difference (its comment says what it costs).
# RUN_UML_PRELOAD names a built copy (meson's); else it is built here.
preload=${RUN_UML_PRELOAD:-}
if [ -z "$preload" ]; then
  preload=$dir/uml-xstate.so
  if ! "${CC:-cc}" -O2 -shared -fPIC -o "$preload" "$here/uml-xstate.c" -ldl; then
    echo "$name: building $here/uml-xstate.c failed; running without it" >&2
    preload=""
  fi
fi

# hostfs root read-only; the console on this script's output (init's
# messages); the guest's files (mconsole socket, memory) in $dir/uml.
# Unknown NAME=VALUE parameters reach init as its environment.
TMPDIR=$dir/uml LD_PRELOAD=$preload "$uml" mem="$mem" root=/dev/root rootfstype=hostfs \
  rootflags=/ ro quiet con=null ssl=null con0=null,fd:2 \
  umid="run-uml-$$" uml_dir="$dir/uml" \
  init="$here/guest-init.sh" RUN_UML_DIR="$dir" </dev/null >"$dir/console" 2>&1 &
pid=$!
sid=$pid

waited=0
while kill -0 "$pid" 2>/dev/null; do
  if [ "$waited" -ge $((timeout_s * 10)) ]; then
    echo "$name: the guest ran longer than ${timeout_s} s: stopped" >&2
    pkill -KILL -s "$sid" 2>/dev/null
    break
  fi
  sleep 0.1
  waited=$((waited + 1))
done
wait "$pid" 2>/dev/null
# its processes, killed, may take a moment to go
for _ in $(seq 50); do
  pkill -KILL -s "$sid" 2>/dev/null || break
  sleep 0.1
done
sid=""

cat "$dir/out/output" 2>/dev/null
if [ ! -s "$dir/out/status" ]; then
  echo "$name: the guest reported no status; its console:" >&2
  tail -n 40 "$dir/console" >&2
  cat "$dir/out/init.log" >&2 2>/dev/null
  exit 99
fi
status=$(cat "$dir/out/status")
case "$status" in
  ''|*[!0-9]*) echo "$name: bad status '$status'" >&2; exit 99 ;;
esac
exit "$status"
