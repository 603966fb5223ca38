#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the whole test suite.
# Extra arguments go to `meson test` (e.g. a test name, or --setup valgrind).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

meson test -C build --print-errorlogs "$@"
status=$?

# One closing line over all Check suites (each test binary logs
# "NN%: Checks: N, Failures: F, Errors: E").
log=build/meson-logs/testlog.txt
if [ -f "$log" ]; then
  grep -hoE "Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+" "$log" |
    awk -F'[:,] *' '{ c += $2; f += $4 + $6 }
      END { printf "checks: %d passed, %d failed\n", c - f, f }'
fi
exit $status
