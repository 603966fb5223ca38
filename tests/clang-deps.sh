# Sourced by tests/fuzz/run-fuzz.sh and tests/tsan/run-tsan.sh:
#   ensure_clang_deps NAME RUNTIME
# installs with apt-get (Debian 12 or 13) what a clang build of the plugin and
# its tests needs, if missing: clang with compiler-rt's RUNTIME library
# (libclang_rt.RUNTIME-x86_64.a, e.g. fuzzer or tsan; libclang-rt-dev is the
# release's default version, as clang is), meson, ninja,
# pkg-config and the GStreamer development packages.  NAME prefixes the
# message.  Returns non-zero if the installation failed.
ensure_clang_deps() {
  local name=$1 runtime=$2 missing=() sudo=""
  command -v clang >/dev/null 2>&1 &&
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt."$runtime"-x86_64.a \
      >/dev/null 2>&1 ||
    missing+=(clang libclang-rt-dev)
  command -v meson >/dev/null 2>&1 || missing+=(meson)
  command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
  pkg-config --exists gstreamer-check-1.0 gstreamer-rtp-1.0 2>/dev/null ||
    missing+=(libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev)
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "$name: installing ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
      --no-install-recommends "${missing[@]}"
}
