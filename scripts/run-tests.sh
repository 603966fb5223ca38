#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the whole test suite: once as it is,
# and once under valgrind memcheck (no memory errors, no definite leaks).
# Extra arguments go to both `meson test` runs (e.g. a test name).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

status=0
meson test -C build --print-errorlogs "$@" || status=1
meson test -C build --setup valgrind --no-suite bench --print-errorlogs "$@" || status=1

# One closing line over all Check suites of both runs (each test binary
# logs "NN%: Checks: N, Failures: F, Errors: E").
cat build/meson-logs/testlog.txt build/meson-logs/testlog-valgrind.txt 2>/dev/null |
  grep -oE "Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+" |
  awk -F'[:,] *' '{ c += $2; f += $4 + $6 }
    END { printf "checks: %d passed, %d failed\n", c - f, f }'
exit $status
