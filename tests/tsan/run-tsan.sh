#!/usr/bin/env bash
# Builds the plugin and the Check suites with ThreadSanitizer (clang,
# meson -Db_sanitize=thread) in build-tsan/ and runs them; a suite fails on
# any data race, lock-order inversion or other ThreadSanitizer report.
#
#   tests/tsan/run-tsan.sh                 all Check suites, TSAN_REPEAT times
#   tests/tsan/run-tsan.sh TEST...         only these meson tests
#
# Races are found from the order of events a run happened to have, so each
# suite runs TSAN_REPEAT (default 3) times; it takes seconds.
#
# Only the instrumented code is checked: the element, the schedule unit and
# the tests.  GLib and GStreamer are Debian's uninstrumented libraries; their
# GMutex is a futex that ThreadSanitizer cannot see, so the element
# annotates its own lock (gst/gstrtpburstlock.h, TSAN_* macros).
# tests/tsan/tsan.supp is for synchronisation inside GStreamer that the tool
# cannot see, each entry with its reason; none is needed so far (empty).
# Environment: TSAN_BUILD_DIR (default build-tsan), TSAN_REPEAT (default 3).
# Installs clang and the build dependencies with apt-get if they are missing
# (tests/clang-deps.sh).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
BUILD=${TSAN_BUILD_DIR:-$root/build-tsan}

. "$root/tests/clang-deps.sh"
ensure_clang_deps run-tsan tsan || exit 1

if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang meson setup "$BUILD" -Db_sanitize=thread -Db_lundef=false \
    -Dtests=enabled -Dfuzzing=false || exit 1
fi
ninja -C "$BUILD" || exit 1

# halt_on_error=0: every report of a run is printed, and the exit code (66)
# fails the suite.  ignore_noninstrumented_modules: memory accesses that
# GLib/GStreamer make through libc (memcpy...) are not checked, like the rest
# of their code.  GST_REGISTRY_FORK=no: the plugin scanner is not built with
# ThreadSanitizer and cannot load the instrumented plugin.  CK_FORK=no: one
# process per suite.  G_SLICE=always-malloc: GSlice hands out memory it
# recycles itself, which ThreadSanitizer would take for one object shared
# by unrelated threads.
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 \
ignore_noninstrumented_modules=1 report_signal_unsafe=0 \
suppressions=$root/tests/tsan/tsan.supp ${TSAN_OPTIONS:-}"
export GST_REGISTRY_FORK=no CK_FORK=no G_SLICE=always-malloc

# ThreadSanitizer of LLVM 14 cannot map its shadow memory with the address
# randomisation of recent kernels ("unexpected memory mapping"): run without.
wrap=()
if command -v setarch >/dev/null 2>&1; then
  wrap=(setarch "$(uname -m)" -R)
fi
"${wrap[@]}" meson test -C "$BUILD" --print-errorlogs --no-suite bench \
  --no-suite testbed --no-suite senders --no-suite docs --no-suite source \
  --no-suite uml --timeout-multiplier 4 --repeat "${TSAN_REPEAT:-3}" "$@"
status=$?
reports=$(cat "$BUILD"/meson-logs/testlog.txt 2>/dev/null |
  grep -c "^WARNING: ThreadSanitizer" || true)
echo "run-tsan: $reports ThreadSanitizer report(s)"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
