#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs
# each one for a bounded number of executions.  Exits non-zero if a target
# crashed (the input is left in build-fuzz/fuzz-artifacts/).
#
#   tests/fuzz/run-fuzz.sh                 CI: -runs=20000, at most 60 s each
#   tests/fuzz/run-fuzz.sh 600             600 s per target, no run limit
#   tests/fuzz/run-fuzz.sh -runs=N         N executions per target
#   tests/fuzz/run-fuzz.sh ... TARGET...   only these (fuzz_schedule, fuzz_group,
#                                          fuzz_repair, fuzz_stream, fuzz_cc,
#                                          fuzz_element, fuzz_qdisc)
#   tests/fuzz/run-fuzz.sh --reproduce     replay tests/fuzz/crashes/*: which
#                                          of the known bugs still crash
#
# Environment: RTPBURSTPACE_FUZZ_AVOID=flush-stop-uaf,eos-restart,flush-sticky,plan-wrap
# keeps the fuzzers away from reported, unfixed bugs (tests/fuzz/README.md);
# FUZZ_BUILD_DIR (default build-fuzz); FUZZ_ARGS: more libFuzzer options.
# Installs clang and the build dependencies with apt-get if they are missing
# (tests/clang-deps.sh).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
BUILD=${FUZZ_BUILD_DIR:-$root/build-fuzz}
TARGETS=(fuzz_schedule fuzz_group fuzz_repair fuzz_stream fuzz_cc fuzz_element
  fuzz_qdisc)

mode=ci
limit=(-runs=20000 -max_total_time=60)
targets=()
for a in "$@"; do
  case "$a" in
    --reproduce) mode=reproduce ;;
    -runs=*) limit=("$a") ;;
    ''|*[!0-9]*) targets+=("$a") ;;
    *) limit=(-max_total_time="$a") ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${TARGETS[@]}")

# --- dependencies ------------------------------------------------------------
. "$root/tests/clang-deps.sh"
ensure_clang_deps run-fuzz fuzzer || exit 1

# --- build -------------------------------------------------------------------
# The top-level meson.build enters tests/fuzz with -Dfuzzing=true once it has
# the lines of tests/fuzz/INTEGRATION.txt.  Until then, build from a mirror of
# the tree that has them (only changed files are copied, so rebuilds are
# incremental).
src=$root
if ! grep -q "subdir('tests/fuzz')" "$root/meson.build"; then
  src=${TMPDIR:-/tmp}/rtpburstpace-fuzz-src-$(id -u)
  echo "run-fuzz: meson.build does not enter tests/fuzz yet" \
    "(tests/fuzz/INTEGRATION.txt); building from a mirror in $src"
  mkdir -p "$src"
  tar -C "$root" --exclude=./.git --exclude=./build --exclude=./meson.build \
    --exclude='./build-*' --exclude=./tests/fuzz/crashes -cf - . |
    tar -C "$src" -xf - || exit 1
  { cat "$root/meson.build"
    printf "\nif get_option('fuzzing')\n  subdir('tests/fuzz')\nendif\n"
  } > "$src/meson.build.new"
  if cmp -s "$src/meson.build.new" "$src/meson.build"; then
    rm -f "$src/meson.build.new"
  else
    mv "$src/meson.build.new" "$src/meson.build"
  fi
fi
if [ -f "$BUILD/.fuzz-source" ] && [ "$(cat "$BUILD/.fuzz-source")" != "$src" ]; then
  echo "run-fuzz: $BUILD was configured from another source tree, recreating it"
  rm -rf "$BUILD"
fi
if [ ! -f "$BUILD/build.ninja" ]; then
  (cd "$src" && CC=clang meson setup "$BUILD" -Dfuzzing=true -Dtests=disabled) ||
    exit 1
  echo "$src" > "$BUILD/.fuzz-source"
fi
ninja -C "$BUILD" tests/fuzz/fuzz_schedule tests/fuzz/fuzz_group tests/fuzz/fuzz_repair \
  tests/fuzz/fuzz_stream tests/fuzz/fuzz_cc tests/fuzz/fuzz_element \
  tests/fuzz/fuzz_qdisc ||
  exit 1

export G_SLICE=always-malloc
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# --- replay the known crashes ---------------------------------------------------
if [ $mode = reproduce ]; then
  still=0
  for f in "$root"/tests/fuzz/crashes/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    t=fuzz_${name%%-*}
    if "$BUILD/tests/fuzz/$t" "$f" >"$BUILD/reproduce-$name.log" 2>&1; then
      echo "fixed:   $name"
    else
      echo "CRASHES: $name  ($(grep -m1 -E 'invariant violated|ERROR: AddressSanitizer|runtime error' \
        "$BUILD/reproduce-$name.log" | sed 's/^.*tests\/fuzz\///'))"
      still=$((still + 1))
    fi
  done
  echo "run-fuzz: $still known crash(es) still reproduce (logs in $BUILD/reproduce-*.log)"
  [ $still -eq 0 ]
  exit
fi

# --- fuzz ----------------------------------------------------------------------
status=0
mkdir -p "$BUILD/fuzz-artifacts" "$BUILD/fuzz-logs"
for t in "${targets[@]}"; do
  work=$BUILD/fuzz-corpus/$t
  log=$BUILD/fuzz-logs/$t.log
  mkdir -p "$work"
  echo "run-fuzz: $t ${limit[*]} ${FUZZ_ARGS:-}"
  start=$(date +%s)
  # new inputs go to the first (work) directory; the seeds are only read
  # shellcheck disable=SC2086
  "$BUILD/tests/fuzz/$t" "$work" "$root/tests/fuzz/corpus/$t" \
    -artifact_prefix="$BUILD/fuzz-artifacts/$t-" -timeout=25 \
    -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
    "${limit[@]}" ${FUZZ_ARGS:-} >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  rate=$(grep -m1 '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
  if [ $rc -eq 0 ]; then
    echo "  ok: ${execs:-?} executions in ${secs} s (${rate:-?}/s), ${cov:-}"
  else
    status=1
    echo "  CRASH (exit $rc) after ${secs} s, log $log:"
    grep -m3 -E 'invariant violated|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' \
      "$log" | sed 's/^/    /'
    grep -m1 'Test unit written to' "$log" | sed 's/^/    /'
  fi
done
exit $status
