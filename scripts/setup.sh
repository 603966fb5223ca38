#!/usr/bin/env bash
# Installs what rtpburstpace needs on Debian 12 or 13 (if missing) and builds
# it into ./build.  Idempotent: a second run only rebuilds what changed.
# Arguments go to meson (e.g. -Dwerror=true): to `meson setup` for a new
# build directory, to `meson configure` for an existing one.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  meson ninja-build pkg-config gcc
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
  python3 python3-gi python3-gst-1.0 python3-matplotlib python3-numpy
  gir1.2-gst-rtsp-server-1.0 gir1.2-gst-plugins-bad-1.0 gstreamer1.0-nice
  iperf3 iproute2 ethtool iputils-ping valgrind indent xvfb gstreamer1.0-x
  g++ libns3-dev
)
# The User-Mode Linux guest of the suite 'uml' (tests/uml/run-uml.sh), a
# kernel with fq and etf: Debian builds it for amd64 only.
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then
  PACKAGES+=(user-mode-linux)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f build/build.ninja ]; then
  meson setup build "$@"
elif [ $# -gt 0 ]; then
  meson configure build "$@"
fi
# A build directory made before libns3-dev was installed has no ns-3 router
# (tests/testbed/meson.build): look for ns-3 again.
if [ -e /usr/include/ns3/fd-net-device-module.h ] &&
   ! grep -q 'ns3-router' build/build.ninja; then
  meson setup --reconfigure build
fi
ninja -C build
