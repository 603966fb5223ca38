#!/usr/bin/env bash
# Builds the peer the testbed compares congestion control with:
# gst-plugins-rs's rtpgccbwe (crate gst-plugin-rtp 0.15.4, MPL-2.0), with
# cargo, into a cache, once.  Not part of the README's two commands: the
# plugin itself needs no Rust.
#
#   bash tests/testbed/build-rtpgccbwe.sh        # prints the plugin directory
#   GST_PLUGIN_PATH=$(bash tests/testbed/build-rtpgccbwe.sh):build/gst ...
#
# The crate comes from cargo's own configuration (its default registry, or
# the mirror or proxy the machine's cargo config names).  The cache is
# $RTPGCCBWE_CACHE, default ~/.cache/rtpburstpace/rtpgccbwe-0.15.4; a
# complete one (libgstrsrtp.so that gst-inspect-1.0 loads) is reused.
# Exits 77 with a message when cargo is missing, 1 when the build fails.
# Takes about 3 minutes of two cores the first time.
set -euo pipefail

VERSION=0.15.4
CACHE=${RTPGCCBWE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rtpburstpace/rtpgccbwe-$VERSION}
LIB=$CACHE/libgstrsrtp.so

has_element () {
  GST_PLUGIN_PATH=$CACHE GST_REGISTRY=$CACHE/registry.bin \
    gst-inspect-1.0 rtpgccbwe >/dev/null 2>&1
}

if [ -f "$LIB" ] && has_element; then
  echo "$CACHE"
  exit 0
fi

PATH=$PATH:$HOME/.cargo/bin
if ! command -v cargo >/dev/null; then
  echo "build-rtpgccbwe: cargo not found: the comparison with rtpgccbwe" \
    "is skipped (install Rust's toolchain to run it)" >&2
  exit 77
fi

mkdir -p "$CACHE"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# a package that depends on the crate: cargo fetches and unpacks it
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<EOF
[package]
name = "fetch-rtpgccbwe"
version = "0.0.0"
edition = "2021"

[dependencies]
gst-plugin-rtp = "=$VERSION"
EOF
: > "$work/fetch/src/lib.rs"
(cd "$work/fetch" && cargo fetch --quiet) >&2
src=$(cd "$work/fetch" && cargo metadata --format-version 1 |
  /usr/bin/python3 -c '
import json, sys
m = json.load(sys.stdin)
print(next(p["manifest_path"] for p in m["packages"]
           if p["name"] == "gst-plugin-rtp"))')
src=$(dirname "$src")

# the crate's own build, as its README says (default features)
cp -r "$src" "$work/crate"
(cd "$work/crate" &&
  nice cargo build --release --quiet --target-dir "$CACHE/target") >&2
cp "$CACHE/target/release/libgstrsrtp.so" "$LIB"
rm -rf "$CACHE/target"

if ! has_element; then
  echo "build-rtpgccbwe: $LIB built but gst-inspect-1.0 finds no" \
    "rtpgccbwe in it" >&2
  exit 1
fi
echo "$CACHE"
