#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the whole test suite: once as it is,
# once under valgrind memcheck (no memory errors, no definite leaks), the
# libFuzzer targets for a bounded number of executions, and once more built
# with ThreadSanitizer (no data races).
# Extra arguments go to both `meson test` runs (e.g. a test name) and skip
# the fuzzing and the ThreadSanitizer run.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

status=0
meson test -C build --print-errorlogs "$@" || status=1
# (Not the suite 'uml': a kernel in a guest, no code of ours under valgrind.)
meson test -C build --setup valgrind --no-suite bench --no-suite testbed --no-suite senders --no-suite docs --no-suite source --no-suite uml --print-errorlogs "$@" || status=1

# The fuzz targets, a bounded run (tests/fuzz/README.md).  list-flush-count
# is the documented approximation of flushed-packets for a slot pushed as a
# list that a flush interrupts (docs/reference.md).
if [ $# -eq 0 ]; then
  RTPBURSTPACE_FUZZ_AVOID=list-flush-count bash tests/fuzz/run-fuzz.sh || status=1
fi

# The Check suites again, built with ThreadSanitizer: no data race reported
# (tests/tsan/run-tsan.sh).
if [ $# -eq 0 ]; then
  bash tests/tsan/run-tsan.sh || status=1
fi

# One closing line over all Check suites of both runs (each test binary
# logs "NN%: Checks: N, Failures: F, Errors: E").
cat build/meson-logs/testlog.txt build/meson-logs/testlog-valgrind.txt 2>/dev/null |
  grep -oE "Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+" |
  awk -F'[:,] *' '{ c += $2; f += $4 + $6 }
    END { printf "checks: %d passed, %d failed\n", c - f, f }'
exit $status
