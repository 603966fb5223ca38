#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the demo: a live 6 Mbit/s stream on
# loopback without and with rtpburstpace, measured at the receiver.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
exec /usr/bin/python3 examples/demo.py "$@"
