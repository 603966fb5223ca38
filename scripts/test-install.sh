#!/usr/bin/env bash
# Installs rtpburstpace into a fresh Debian 12 (bookworm) root the two ways
# docs/install.md gives, and checks each time that GStreamer finds the
# element with no GST_PLUGIN_PATH.  Run as root on a Debian host:
#
#   bash scripts/test-install.sh [--dir DIR] [--mirror URL] [--fresh]
#                                [--jobs N]
#
#   --dir DIR     where the roots are kept (default: build-install in the
#                 source tree, which git ignores): DIR/base, a debootstrap
#                 --variant=minbase root, reused when complete and brought
#                 up to date with apt; DIR/archives, the packages apt
#                 downloaded; DIR/deb and DIR/install, this run's roots;
#                 DIR/*.log, the logs of its steps.
#   --mirror URL  the Debian mirror (default: the host's own, from its apt
#                 sources, as scripts/run-tests-trixie.sh takes it; its
#                 security updates likewise)
#   --fresh       make the base root anew even if a complete one is there
#   --jobs N      ninja -jN and dpkg-buildpackage's parallel=N (default:
#                 their own)
#
# DIR/deb and DIR/install start as the base root is, with no package added:
# overlays on it (copies of it where overlayfs cannot be mounted), made
# anew on each run.
#  1. In DIR/deb, in a copy of the source tree without .git (as
#     run-tests-trixie.sh copies it): `apt-get build-dep ./` (debian/control's
#     build dependencies and build-essential), then
#     `dpkg-buildpackage -b -us -uc`.
#  2. In DIR/install: gstreamer1.0-tools (gst-inspect-1.0), which then does
#     not find rtpburstpace; `apt-get install ./gstreamer1.0-rtpburstpace_*.deb`;
#     gst-inspect-1.0 rtpburstpace finds it where GStreamer's own plugins
#     are (/usr/lib/<triplet>/gstreamer-1.0), as the Debian package, with
#     the project's version and an origin that is not "Unknown package
#     origin".
#  3. There, the package purged with what it pulled in (gst-inspect-1.0 no
#     longer finds the element); only the build dependencies of
#     docs/install.md's apt-get line (without recommended packages); a copy
#     of the source tree; docs/install.md's commands, `meson setup build
#     --prefix=/usr -Dtests=disabled`, `ninja -C build`, `ninja -C build
#     install`; gst-inspect-1.0 finds it again, as a source release.
# gst-inspect-1.0 always runs with a clean environment: no GST_PLUGIN_PATH.
#
# It runs in mount and PID namespaces of its own (unshare), as
# run-tests-trixie.sh does: on exit, also on failure or Ctrl-C, its processes
# end and its mounts go.  Prints PASS or FAIL and the time taken (about 4
# minutes from nothing, 1.5 with a complete base root) and exits 0 or 1;
# prints SKIP and exits 77 when it cannot run here: not root, no Debian
# mirror in the host's apt sources, no debootstrap, no namespaces, or
# debootstrap could not make the root (no network?).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd -P)
self="$root/scripts/test-install.sh"
name=test-install

# host_mirror, host_security, copy_source_tree
. "$root/scripts/chroot-common.sh" || exit 1

suite=bookworm
dir=$root/build-install
mirror=""
security=""
fresh=0
jobs=""

while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    --dir=*) dir=${1#*=}; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift 2 ;;
    --mirror=*) mirror=${1#*=}; shift ;;
    --security) security=$2; shift 2 ;;   # passed on into the namespaces
    --fresh) fresh=1; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$name: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
case "$jobs" in
  ''|[1-9]|[1-9][0-9]) ;;
  *) echo "$name: --jobs needs a number" >&2; exit 2 ;;
esac

say() { echo "$name: $*"; }
skip() { say "SKIP: $*"; exit 77; }

# --- on the host: what it needs, then the rest in namespaces of its own ----
if [ -z "${RTPBURSTPACE_INSTALL_NS:-}" ]; then
  start=$(date +%s)
  [ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, mounts)"
  if [ -z "$mirror" ]; then
    mirror=$(host_mirror)
    security=$(host_security)
    [ -n "$mirror" ] ||
      skip "no Debian package source in the host's apt configuration (give --mirror URL)"
  fi
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    { apt-get update -q &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
          --no-install-recommends debootstrap; } >/dev/null 2>&1 ||
      skip "no debootstrap, and apt-get could not install it"
  fi
  unshare --mount --pid --fork true 2>/dev/null ||
    skip "cannot make mount and PID namespaces (unshare)"
  mkdir -p "$dir" || exit 1
  dir=$(cd "$dir" && pwd -P)
  case "$dir" in
    /|*[[:space:]]*) say "refusing directory '$dir'" >&2; exit 2 ;;
  esac
  RTPBURSTPACE_INSTALL_START=$start
  export RTPBURSTPACE_INSTALL_NS=1 RTPBURSTPACE_INSTALL_START
  args=(--dir "$dir" --mirror "$mirror" --security "$security")
  [ $fresh -eq 0 ] || args+=(--fresh)
  [ -z "$jobs" ] || args+=(--jobs "$jobs")
  exec unshare --mount --propagation private --pid --fork --mount-proc \
    --kill-child -- bash "$self" "${args[@]}"
fi

# --- in the namespaces -----------------------------------------------------
start=${RTPBURSTPACE_INSTALL_START:-$(date +%s)}
D=$dir
B=$D/base
complete=$B/.rtpburstpace-chroot
SRC=/srv/rtpburstpace
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build" |
  head -n 1)

# The trap may run while a step's output goes to its log: it writes here.
exec 7>&1 8>&2

# One run at a time per directory.
exec 9>"$D/lock" || exit 1
flock -n 9 || { say "another run is using $D" >&2; exit 1; }

mounted_under() {  # mount points at or under $1, deepest first
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
    /proc/self/mountinfo | sort -r
}

unmount_under() {  # unmounts everything at or under $1
  local m
  for m in $(mounted_under "$1"); do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
      say "could not unmount $m" >&2
  done
  [ -z "$(mounted_under "$1")" ]
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  exec 1>&7 2>&8
  # as PID 1 of our PID namespace, kill -1 reaches exactly the processes
  # this run started
  if [ $$ -eq 1 ]; then
    exec 2>/dev/null   # not bash's notice of the step it killed
    kill -KILL -1 && sleep 1
    wait
    exec 2>&8
  fi
  if ! unmount_under "$D"; then
    say "mounts left under $D" >&2
    [ "$rc" -ne 0 ] || rc=1
  fi
  if [ "$rc" -gt 128 ]; then
    say "stopped by signal $((rc - 128)); its processes ended, mounts undone"
  fi
  case "$rc" in
    0) say "PASS ($(( $(date +%s) - start )) s)" ;;
    77) ;;
    *) say "FAIL ($(( $(date +%s) - start )) s; logs: $D/*.log)" ;;
  esac
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

in_root() {  # in_root ROOT CMD...: CMD in ROOT with a clean environment
  local r=$1
  shift
  chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive "$@" 7>&- 8>&- 9>&-
}

mount_root() {  # /proc, /dev, /dev/pts, a /run tmpfs and apt's archives
  local r=$1
  mount -t proc proc "$r/proc" &&
    mount --bind /dev "$r/dev" &&
    mount --bind /dev/pts "$r/dev/pts" &&
    mount -t tmpfs -o mode=755 tmpfs "$r/run" &&
    mount --bind "$D/archives" "$r/var/cache/apt/archives"
}

# new_root NAME: DIR/NAME/root, a root as the base is, mounted
new_root() {
  local d=$D/$1
  rm -rf --one-file-system "$d" && mkdir -p "$d/upper" "$d/work" "$d/root" ||
    return 1
  if mount -t overlay overlay \
       -o "lowerdir=$B,upperdir=$d/upper,workdir=$d/work" "$d/root"; then
    echo "$d/root: an overlay on $B"
  else
    echo "$d/root: a copy of $B"
    cp -a "$B/." "$d/root/" || return 1
  fi
  mount_root "$d/root"
}

n=0
step() {  # step LABEL CMD...: CMD (a shell function or command) with its
          # output in a log, shown when it fails, and the time it took
  local label=$1 t0=$(date +%s) rc log
  shift
  n=$((n + 1))
  log=$D/$(printf '%02d' $n)-$(echo "$label" | tr -c 'a-zA-Z0-9\n' - |
    tr -s - | sed 's/-$//' | cut -c1-40).log
  # in the background: a signal runs its trap (cleanup) at once, not once a
  # command that ignores it (apt-get, dpkg) has finished; as a subshell, so
  # CMD sets no variable here
  "$@" >"$log" 2>&1 &
  wait $!
  rc=$?
  if [ $rc -eq 0 ]; then
    say "ok   $label ($(( $(date +%s) - t0 )) s)"
  elif [ $rc -eq 77 ]; then
    say "not done: $label ($(( $(date +%s) - t0 )) s; last lines of $log:)"
    tail -n 10 "$log" | sed 's/^/    /'
  else
    say "FAIL $label ($(( $(date +%s) - t0 )) s; exit $rc; last lines of $log:)"
    tail -n 25 "$log" | sed 's/^/    /'
  fi
  return $rc
}

# --- the build dependencies ----------------------------------------------
# the build dependencies: docs/install.md's apt-get line
deps=$(sed -n 's/^ *\(sudo \)\{0,1\}apt-get install \(.*libgstreamer1\.0-dev.*\)$/\2/p' \
  "$root/docs/install.md" | head -n 1)
[ -n "$deps" ] ||
  { say "no apt-get line with libgstreamer1.0-dev in docs/install.md" >&2; exit 1; }
# shellcheck disable=SC2206
deps=($deps)
# debian/control builds with the same packages (and debhelper)
for p in $(awk '/^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, "") }
                /^[^ \t]/ && !/^Build-Depends:/ { on = 0 }
                on' "$root/debian/control" |
           sed 's/([^)]*)//g' | tr ',' '\n' | awk 'NF { print $1 }'); do
  case " debhelper-compat ${deps[*]} " in
    *" $p "*) ;;
    *) say "debian/control builds with $p, which docs/install.md does not list" >&2
       exit 1 ;;
  esac
done

# --- the base root ---------------------------------------------------------
mkdir -p "$D/archives/partial" && rm -f "$D"/[0-9][0-9]-*.log || exit 1
[ -z "$(mounted_under "$D")" ] ||
  { say "$D has mounts (a run of another mount namespace?)" >&2; exit 1; }
if [ -f "$complete" ] && [ "$(cat "$complete")" != "$suite $mirror" ]; then
  say "$B was made for $(cat "$complete"), not $suite $mirror: making it anew"
  fresh=1
elif [ -f "$complete" ] && [ -f "$B/.rtpburstpace-updating" ]; then
  say "the last apt-get upgrade of $B did not finish: making it anew"
  fresh=1
fi
make_base() {
  # Only remove what this script made: an empty directory, or one with its
  # markers.
  mkdir -p "$B" || return 1
  if [ -n "$(ls -A "$B")" ] && [ ! -f "$complete" ] &&
     [ ! -f "$B/.rtpburstpace-incomplete" ]; then
    echo "$B is not empty and was not made by this script; not touching it"
    return 1
  fi
  rm -rf --one-file-system "$B" && mkdir "$B" || return 1
  touch "$B/.rtpburstpace-incomplete"
  debootstrap --variant=minbase "$suite" "$B" "$mirror" || return 77
  {
    echo "deb $mirror $suite main"
    echo "deb $mirror $suite-updates main"
    [ -z "$security" ] || echo "deb $security $suite-security main"
  } >"$B/etc/apt/sources.list"
  # no daemon of an installed package starts in the roots
  printf '#!/bin/sh\nexit 101\n' >"$B/usr/sbin/policy-rc.d"
  chmod 755 "$B/usr/sbin/policy-rc.d"
  echo "$suite $mirror" >"$complete"
  rm -f "$B/.rtpburstpace-incomplete"
}
if [ ! -f "$complete" ] || [ $fresh -eq 1 ]; then
  step "debootstrap --variant=minbase $suite ($mirror)" make_base
  case $? in
    0) ;;
    77) skip "debootstrap could not make a $suite root from $mirror (no network?)" ;;
    *) exit 1 ;;
  esac
fi
update_base() {  # (an update stopped half-way leaves its marker)
  touch "$B/.rtpburstpace-updating" &&
    cp /etc/resolv.conf "$B/etc/resolv.conf" 2>/dev/null
  mount_root "$B" &&
    in_root "$B" apt-get update -q &&
    in_root "$B" apt-get -y -q dist-upgrade &&
    in_root "$B" apt-get -q autoclean &&
    unmount_under "$B" &&
    rm "$B/.rtpburstpace-updating"
}
step "apt-get update and dist-upgrade in the base root" update_base || exit 1

# --- 1. the Debian package -------------------------------------------------
R=$D/deb/root
copy_tree() {  # copy_tree ROOT: the source tree into ROOT's $SRC
  rm -rf "${1:?}$SRC" && mkdir -p "$1$SRC" &&
    copy_source_tree "$root" "$1$SRC" "$D" && echo "copied $how"
}
build_deb() {
  local opts=""
  [ -z "$jobs" ] || opts="parallel=$jobs"
  in_root "$R" bash -c "cd $SRC && apt-get build-dep -y -q --no-install-recommends ./" &&
    in_root "$R" bash -c "cd $SRC && DEB_BUILD_OPTIONS='$opts' dpkg-buildpackage -b -us -uc"
}
find_deb() {  # the .deb (not its -dbgsym) into DIR
  local f deb=""
  for f in "$R/srv"/gstreamer1.0-rtpburstpace_*.deb; do
    [ -f "$f" ] && deb=$(basename "$f")
  done
  [ -n "$deb" ] || { echo "no gstreamer1.0-rtpburstpace .deb in $R/srv"; return 1; }
  rm -f "$D"/gstreamer1.0-rtpburstpace_*.deb
  cp "$R/srv/$deb" "$D/" && echo "$D/$deb"
  # the package's version is the project's
  case "$deb" in
    gstreamer1.0-rtpburstpace_"$version"_*.deb) ;;
    *) echo "$deb: not the version of meson.build ($version)"; return 1 ;;
  esac
}
step "new root deb" new_root deb &&
  step "copy of the source tree" copy_tree "$R" &&
  step "apt-get build-dep ./ && dpkg-buildpackage -b -us -uc" build_deb &&
  step "the .deb built" find_deb || exit 1
deb=$(cd "$D" && echo gstreamer1.0-rtpburstpace_*.deb)
say "built $D/$deb"

# --- 2. the package installed ----------------------------------------------
R=$D/install/root
# check_absent: gst-inspect-1.0 does not find rtpburstpace
check_absent() {
  if in_root "$R" gst-inspect-1.0 rtpburstpace; then
    echo "gst-inspect-1.0 found rtpburstpace, which should not be installed"
    return 1
  fi
  echo "not found, as expected"
}
# check_found PACKAGE-NAME: gst-inspect-1.0 finds rtpburstpace in the
# system's plugin directory, as PACKAGE-NAME, with the project's version and
# a known origin
out=""
field() {  # a "Name   value" line of gst-inspect-1.0's output
  awk -v k="$1" '{ l = $0; sub(/^ +/, "", l)
                   if (index(l, k " ") == 1) { v = substr(l, length(k) + 1)
                     sub(/^ +/, "", v); print v; exit } }' <<<"$out"
}
check_found() {
  local want=$1 file core bin origin ver ok=0
  out=$(in_root "$R" gst-inspect-1.0 rtpburstpace 2>&1) ||
    { echo "$out"; echo "gst-inspect-1.0 rtpburstpace failed"; return 1; }
  echo "$out"
  file=$(field Filename)
  bin=$(field "Binary package")
  origin=$(field "Origin URL")
  ver=$(field Version)
  say "  Filename $file; Version $ver; Binary package $bin; Origin URL $origin" >&7
  # the directory of GStreamer's own plugins (/usr/lib/<triplet>/
  # gstreamer-1.0, which GStreamer may name through the /lib link)
  core=$(in_root "$R" gst-inspect-1.0 coreelements 2>/dev/null |
    awk '$1 == "Filename" { print $2; exit }')
  { [ -n "$core" ] && [ "${file%/*}" = "${core%/*}" ]; } ||
    { echo "$file: not in GStreamer's plugin directory (${core%/*})"; ok=1; }
  [ "${file##*/}" = libgstrtpburstpace.so ] ||
    { echo "$file: not libgstrtpburstpace.so"; ok=1; }
  [ "$bin" = "$want" ] || { echo "binary package '$bin', not '$want'"; ok=1; }
  [ "$ver" = "$version" ] || { echo "version '$ver', not '$version'"; ok=1; }
  { [ -n "$origin" ] && [[ $origin != *Unknown* ]]; } ||
    { echo "origin '$origin'"; ok=1; }
  return $ok
}
install_deb() {
  cp "$D/$deb" "$R/tmp/" &&
    in_root "$R" bash -c "cd /tmp && apt-get install -y -q ./$deb"
}
step "new root install" new_root install &&
  step "apt-get install gstreamer1.0-tools" \
    in_root "$R" apt-get install -y -q --no-install-recommends gstreamer1.0-tools &&
  step "gst-inspect-1.0 rtpburstpace: not found before" check_absent &&
  step "apt-get install ./$deb" install_deb &&
  step "gst-inspect-1.0 rtpburstpace: the package's" \
    check_found "rtpburstpace (Debian package)" || exit 1

# --- 3. from the source tree -----------------------------------------------
remove_deb() {
  in_root "$R" apt-get purge -y -q gstreamer1.0-rtpburstpace &&
    in_root "$R" apt-get autoremove -y -q --purge
}
ninja_j=""
[ -z "$jobs" ] || ninja_j=" -j$jobs"
build_install() {
  in_root "$R" bash -c "set -ex; cd $SRC
    meson setup build --prefix=/usr -Dtests=disabled
    ninja -C build$ninja_j
    ninja -C build$ninja_j install"
}
step "apt-get purge gstreamer1.0-rtpburstpace" remove_deb &&
  step "gst-inspect-1.0 rtpburstpace: not found after" check_absent &&
  step "apt-get install --no-install-recommends ${deps[*]}" \
    in_root "$R" apt-get install -y -q --no-install-recommends "${deps[@]}" &&
  step "copy of the source tree" copy_tree "$R" &&
  step "meson setup build --prefix=/usr -Dtests=disabled, ninja, ninja install" \
    build_install &&
  step "gst-inspect-1.0 rtpburstpace: the source build's" \
    check_found "rtpburstpace source release" || exit 1
exit 0
