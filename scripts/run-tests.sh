#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
meson test -C build --print-errorlogs "$@"
