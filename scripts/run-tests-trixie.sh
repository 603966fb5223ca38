#!/usr/bin/env bash
# Builds and tests rtpburstpace against a newer GStreamer than the Debian 12
# host has: in a Debian 13 (trixie, GStreamer 1.26) chroot made with
# debootstrap.  Run as root on a Debian host:
#
#   bash scripts/run-tests-trixie.sh [--chroot DIR] [--suite NAME]
#                                    [--mirror URL] [--fresh] [-- TEST...]
#
#   --chroot DIR   where the chroot is kept (default: build-trixie/chroot in
#                  the source tree, which git ignores; its logs and lock file
#                  go beside it, DIR.*).  A complete one is reused and brought
#                  up to date with apt; an unfinished one (an interrupted
#                  debootstrap) is made anew.
#   --suite NAME   the Debian release (default: trixie)
#   --mirror URL   the Debian mirror (default: the host's own, from its apt
#                  sources: the first deb source of a release that is not a
#                  -security suite; its security updates likewise from the
#                  host's -security source, if it has one (none with
#                  --mirror).  A local mirror or proxy the host's apt sources
#                  name is then what the chroot uses too)
#   --fresh        make the chroot anew even if a complete one is there
#   -- TEST...     only these meson tests (both meson test runs)
#
# What it does: installs debootstrap on the host if missing; makes or updates
# the chroot; mounts /proc, /sys, /dev, /dev/pts and a /run tmpfs in it and
# bind-mounts the chroot on itself (`ip netns exec`, which the testbed test
# uses, makes / a slave mount: "mount --make-rslave /" fails with EINVAL
# unless the chroot's root is a mount point); copies the source tree into
# it without .git (the files git knows, committed or not, or, without git,
# the tree less its build directories), as a release tarball would have it;
# and inside it runs scripts/setup.sh (the Debian packages; the build, with
# -Dwerror=true), then the suites below.  It runs in mount and PID
# namespaces of its own (unshare): on exit, also on failure or Ctrl-C, it
# ends the processes it started and unmounts everything, and should it be
# killed outright, the kernel does both when the namespaces go.  Prints the
# GStreamer version it tested and PASS or FAIL; exits non-zero on failure.
# Logs: the chroot's build (DIR/srv/rtpburstpace/build/meson-logs) and
# DIR.*.log.
#
# Which of scripts/run-tests.sh's runs belong in this check, and why:
# - plain `meson test`, all suites (Check suites, benchmark smoke runs, the
#   senders on loopback: udpsink, RTSP server, rtpbin, webrtcbin; the
#   testbed in network namespaces) but 'source': yes.  The suite 'source'
#   checks the source tree with Debian 12's tools (GNU indent 2.2.12,
#   GStreamer 1.22's plugin docs cache format), the same on any GStreamer;
#   scripts/run-tests.sh runs it on the host.  This is the element against the
#   newer GStreamer's core and base libraries and, in real pipelines, its
#   plugins.  A skipped test fails the check (see step below).
#   Nor the suite 'uml': its guest kernel (user-mode-linux, tests/uml) tests
#   the kernel's pacing of the packets the sink hands it, which does not
#   change with the GStreamer version, and it has not been tried in the
#   chroot; scripts/run-tests.sh runs it on the host.
# - `meson test --setup valgrind` (Check suites): yes.  Ownership and
#   reference counting across the GStreamer API are where versions differ
#   (ed97e8e's leak depended on 1.22's gst_pad_start_task ()); ~15 s.
# - the libFuzzer targets: no.  They search the input space of the element's
#   own code (schedule, buffer and event handling), which is the same on
#   every GStreamer; they take two of scripts/run-tests.sh's 3.5 minutes,
#   and it runs them on the host.
# - the ThreadSanitizer build: no.  It sees only the instrumented code, not
#   GStreamer's threads and locks (uninstrumented libraries), so what it
#   checks, the element's own locking, does not change with the GStreamer
#   version; scripts/run-tests.sh runs it on the host.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd -P)
self="$root/scripts/run-tests-trixie.sh"
name=run-tests-trixie

chroot_dir=$root/build-trixie/chroot
suite=trixie
mirror=""
security=""
fresh=0

# host_sources, host_mirror, host_security, copy_source_tree
. "$root/scripts/chroot-common.sh" || exit 1

tests=()
while [ $# -gt 0 ]; do
  case "$1" in
    --chroot) chroot_dir=${2:?--chroot needs a directory}; shift 2 ;;
    --chroot=*) chroot_dir=${1#*=}; shift ;;
    --suite) suite=${2:?--suite needs a name}; shift 2 ;;
    --suite=*) suite=${1#*=}; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
    --mirror=*) mirror=${1#*=}; shift ;;
    --security) security=$2; shift 2 ;;   # passed on into the namespaces
    --fresh) fresh=1; shift ;;
    --) shift; tests=("$@"); break ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$name: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done

say() { echo "$name: $*"; }

if [ -z "$mirror" ]; then
  mirror=$(host_mirror)
  security=$(host_security)
  if [ -z "$mirror" ]; then
    say "no Debian package source in the host's apt configuration: give --mirror URL" >&2
    exit 2
  fi
fi

if [ "$(id -u)" -ne 0 ]; then
  say "needs root (debootstrap, chroot, mounts)" >&2
  exit 2
fi
mkdir -p "$chroot_dir" || exit 1
chroot_dir=$(cd "$chroot_dir" && pwd -P)
case "$chroot_dir" in
  /|*[[:space:]]*) say "refusing chroot directory '$chroot_dir'" >&2; exit 2 ;;
esac

# --- on the host: debootstrap, then the rest in namespaces of its own --------
if [ -z "${RTPBURSTPACE_TRIXIE_NS:-}" ]; then
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends debootstrap || exit 1
  fi
  # The rest as PID 1 of a new PID namespace with a mount namespace of its
  # own: mounts made there are not seen by the host, and all the processes
  # and mounts of the run go with the namespaces, even if the script is
  # killed before its trap has run.
  RTPBURSTPACE_TRIXIE_START=$(date +%s)
  export RTPBURSTPACE_TRIXIE_NS=1 RTPBURSTPACE_TRIXIE_START
  args=(--chroot "$chroot_dir" --suite "$suite" --mirror "$mirror"
        --security "$security")
  [ $fresh -eq 0 ] || args+=(--fresh)
  exec unshare --mount --propagation private --pid --fork --mount-proc \
    --kill-child -- bash "$self" "${args[@]}" -- "${tests[@]}"
fi

# --- in the namespaces -----------------------------------------------------
start=${RTPBURSTPACE_TRIXIE_START:-$(date +%s)}
C=$chroot_dir
# Not under /root (mode 700): test_realtime_priority_denied runs the Check
# suite again as nobody, which must be able to read the built plugin.
SRC=/srv/rtpburstpace
complete=$C/.rtpburstpace-chroot

# The trap may run while a step's output goes to its log: it writes here.
exec 7>&1 8>&2

# One run at a time per chroot.
exec 9>"$C.lock" || exit 1
if ! flock -n 9; then
  say "another run is using $C" >&2
  exit 1
fi

mounted_under() {  # mount points at or under $1, deepest first
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
    /proc/self/mountinfo | sort -r
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  exec 1>&7 2>&8
  # Processes still running (a test's iperf3 server, say, in a network
  # namespace): as PID 1 of our PID namespace, kill -1 reaches exactly the
  # processes this run started.
  if [ $$ -eq 1 ]; then
    kill -KILL -1 2>/dev/null && sleep 1
  fi
  for m in $(mounted_under "$C"); do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
      say "could not unmount $m" >&2
  done
  if [ -n "$(mounted_under "$C")" ]; then
    say "mounts left under $C" >&2
    rc=1
  fi
  if [ "$rc" -gt 128 ]; then
    say "stopped by signal $((rc - 128)); its processes ended, mounts undone"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

in_chroot() {  # runs "$@" in the chroot with a clean environment
  chroot "$C" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive "$@" 7>&- 8>&- 9>&-
}

do_mounts() {
  mount --bind "$C" "$C" &&
    mount -t proc proc "$C/proc" &&
    mount -t sysfs sysfs "$C/sys" &&
    mount --bind /dev "$C/dev" &&
    mount --bind /dev/pts "$C/dev/pts" &&
    mount -t tmpfs -o mode=755 tmpfs "$C/run"
}

# --- the chroot ------------------------------------------------------------
if [ -n "$(mounted_under "$C")" ]; then
  say "$C has mounts (a run of another mount namespace?); not touching it" >&2
  exit 1
fi
if [ -f "$complete" ] && [ "$(cat "$complete")" != "$suite $mirror" ]; then
  say "$C was made for $(cat "$complete"), not $suite $mirror: making it anew"
  fresh=1
fi
if [ ! -f "$complete" ] || [ $fresh -eq 1 ]; then
  # Only remove what this script made: an empty directory, or one with its
  # markers.
  if [ -n "$(ls -A "$C")" ] && [ ! -f "$complete" ] &&
     [ ! -f "$C/.rtpburstpace-incomplete" ]; then
    say "$C is not empty and was not made by this script; not touching it" >&2
    exit 1
  fi
  if [ -n "$(ls -A "$C")" ]; then
    say "removing the old chroot in $C"
    rm -rf --one-file-system "$C" && mkdir "$C" || exit 1
  fi
  touch "$C/.rtpburstpace-incomplete"
  say "debootstrap $suite into $C ($mirror)"
  debootstrap --variant=minbase "$suite" "$C" "$mirror" \
    >"$C.debootstrap.log" 2>&1 || {
      say "debootstrap failed (last lines of $C.debootstrap.log):" >&2
      tail -n 20 "$C.debootstrap.log" >&2
      exit 1
    }
  # with the release's updates and security updates (GStreamer has many)
  echo "deb $mirror $suite main" >"$C/etc/apt/sources.list"
  case "$suite" in
    sid|unstable|experimental) ;;
    *) echo "deb $mirror $suite-updates main" >>"$C/etc/apt/sources.list"
       [ -z "$security" ] ||
         echo "deb $security $suite-security main" >>"$C/etc/apt/sources.list" ;;
  esac
  # no daemon of an installed package starts in the chroot
  printf '#!/bin/sh\nexit 101\n' >"$C/usr/sbin/policy-rc.d"
  chmod 755 "$C/usr/sbin/policy-rc.d"
  echo "$suite $mirror" >"$complete"
  rm -f "$C/.rtpburstpace-incomplete"
fi

cp /etc/resolv.conf "$C/etc/resolv.conf" 2>/dev/null
do_mounts || { say "mounting in $C failed" >&2; exit 1; }

say "apt-get update and upgrade in the chroot"
in_chroot apt-get update -q >"$C.apt.log" 2>&1 &&
  in_chroot apt-get -y -q dist-upgrade >>"$C.apt.log" 2>&1 || {
    say "apt-get failed (last lines of $C.apt.log):" >&2
    tail -n 20 "$C.apt.log" >&2
    exit 1
  }

# --- the source tree, without .git -----------------------------------------
rm -rf "${C:?}$SRC" && mkdir -p "$C$SRC" || exit 1
copy_source_tree "$root" "$C$SRC" "$C" || exit 1
say "copied $how into $C$SRC"

# --- build and test --------------------------------------------------------
results=()
status=0
step() {  # step LABEL LOG OUT CMD...: runs CMD in the chroot's source tree,
          # its output to the file OUT (shown when it fails) or, if "", here
  local label=$1 log=$2 out=$3 rc
  shift 3
  if [ -n "$out" ]; then
    say "$label (output in $out)"
    in_chroot bash -c "cd $SRC && \"\$@\"" - "$@" >"$out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || tail -n 40 "$out"
  else
    say "$label"
    in_chroot bash -c "cd $SRC && \"\$@\"" - "$@"
    rc=$?
  fi
  if [ $rc -ne 0 ]; then status=1; fi
  if [ -n "$log" ] && [ -f "$C$SRC/build/meson-logs/$log" ]; then
    passed=$((passed + $(count Ok "$log")))
    failed=$((failed + $(count Fail "$log") + $(count Timeout "$log") +
      $(count 'Unexpected Pass' "$log")))
    # Every test can run here (root, network namespaces, all of setup.sh's
    # packages): a skip (exit 77) means something it needs is missing from
    # the newer release, which is what this check is for.
    skipped=$(grep '"result": "SKIP"' \
        "$C$SRC/build/meson-logs/${log%.txt}.json" |
      sed -E 's/^\{"name": "([^"]*)".*/\1/' | paste -sd, -)
    if [ -n "$skipped" ]; then
      status=1
      failed=$((failed + $(count Skipped "$log")))
      [ "$rc" != 0 ] || rc=skip
      say "skipped, which fails this check: $skipped" >&2
    fi
  fi
  results+=("$(printf '%-42s %s' "$label" "$(summary "$rc" "$log")")")
  [ "$rc" = 0 ]
}
passed=0
failed=0
summary() {  # "ok" / "FAILED", with meson test's counts from its log
  local rc=$1 log=$2 counts=""
  if [ -n "$log" ] && [ -f "$C$SRC/build/meson-logs/$log" ]; then
    # meson test's closing lines, e.g. "Ok:    6   " and "Fail:  0   "
    counts=$(grep -E '^(Ok|Fail|Skipped|Timeout|Unexpected Pass): +[0-9]+' \
      "$C$SRC/build/meson-logs/$log" | tr -s ' ' | sed 's/ *$//' |
      paste -sd, - | sed 's/,/, /g')
  fi
  case "$rc" in
    0) echo "ok${counts:+ ($counts)}" ;;
    skip) echo "FAILED (tests skipped)${counts:+ ($counts)}" ;;
    *) echo "FAILED (exit $rc)${counts:+ ($counts)}" ;;
  esac
}
count() {
  grep -E "^$1: +[0-9]+" "$C$SRC/build/meson-logs/$2" | grep -oE '[0-9]+' |
    head -n 1 || echo 0
}

if step "setup.sh -Dwerror=true (packages, build)" "" "$C.setup.log" \
     bash scripts/setup.sh -Dwerror=true; then
  step "meson test" testlog.txt "" \
    meson test -C build --print-errorlogs --no-suite source \
    --no-suite uml "${tests[@]}"
  vg=(meson test -C build --setup valgrind --no-suite bench
      --no-suite testbed --no-suite senders --no-suite docs --no-suite source
      --no-suite uml)
  # Named tests: only those of the valgrind run's suites (newer meson fails
  # on a name that its suite options exclude).
  vg_tests=()
  if [ ${#tests[@]} -gt 0 ]; then
    vg_list=$(in_chroot bash -c "cd $SRC && \"\$@\" --list" - "${vg[@]}" \
      2>/dev/null)
    for t in "${tests[@]}"; do
      if grep -qE "(^| / )$t\$" <<<"$vg_list"; then vg_tests+=("$t"); fi
    done
  fi
  if [ ${#tests[@]} -eq 0 ] || [ ${#vg_tests[@]} -gt 0 ]; then
    step "meson test --setup valgrind" testlog-valgrind.txt "" \
      "${vg[@]}" --print-errorlogs "${vg_tests[@]}"
  else
    results+=("$(printf '%-42s %s' "meson test --setup valgrind" \
      "not run (none of the named tests is in its suites)")")
  fi
fi

gst=$(in_chroot pkg-config --modversion gstreamer-1.0 2>/dev/null || echo "?")
gstdeb=$(in_chroot dpkg-query -W -f '${Version}' libgstreamer1.0-0 \
  2>/dev/null || echo "?")
debian=$(cat "$C/etc/debian_version" 2>/dev/null || echo "?")
cc=$(in_chroot gcc -dumpfullversion 2>/dev/null || echo "?")
meson=$(in_chroot meson --version 2>/dev/null || echo "?")
echo
echo "== $name: GStreamer $gst (package $gstdeb), Debian $suite ($debian)," \
  "gcc $cc, meson $meson"
echo "   source: $how; $(( $(date +%s) - start )) s"
for r in "${results[@]}"; do echo "   $r"; done
echo "   logs: $C$SRC/build/meson-logs/"
echo "trixie: $passed passed, $failed failed"
if [ $status -eq 0 ] && [ ${#results[@]} -eq 3 ]; then
  echo "$name: PASS with GStreamer $gst"
else
  echo "$name: FAIL with GStreamer $gst"
  status=1
fi
exit $status
