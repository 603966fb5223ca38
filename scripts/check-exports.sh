#!/usr/bin/env bash
# The plugin exports its two entry points and nothing else: its symbols are
# hidden (gst/meson.build), so the calls between its units stay direct.
#   bash scripts/check-exports.sh build/gst/libgstrtpburstpace.so
set -euo pipefail
so=$1
if ! command -v nm >/dev/null; then
  echo "skipped: no nm (binutils)"
  exit 77
fi
got=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort)
want=$'gst_plugin_rtpburstpace_get_desc\ngst_plugin_rtpburstpace_register'
if [ "$got" != "$want" ]; then
  echo "$so exports:"
  echo "$got"
  echo "expected only:"
  echo "$want"
  exit 1
fi
echo "$so exports $(echo $got)"
