#!/bin/bash
# The User-Mode Linux harness itself (run-uml.sh): the guest has both
# namespaces, the veth between them and fq on the sender's egress; the
# qdisc modules are loaded; a command's output and exit status come back;
# a command that runs too long is stopped and reported.  Exits 77 where
# run-uml.sh cannot run (not root, no user-mode-linux).  ~10 s.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
run=$here/run-uml.sh
fail=0
check() {  # check DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}

out=$(bash "$run" -- bash -c '
  set -e
  for m in sch_fq sch_etf sch_mqprio sch_netem sch_fq_codel sch_htb sch_tbf veth; do
    grep -q "^$m " /proc/modules || { echo "no module $m"; exit 1; }
  done
  cat <(echo "/dev/fd for process substitution") >/dev/null
  ip netns exec "$UML_NS_TX" tc qdisc show dev "$UML_TX_DEV"
  ip netns exec "$UML_NS_TX" ping -c 1 -W 2 "$UML_RX_ADDR" >/dev/null
  ip netns exec "$UML_NS_RX" ping -c 1 -W 2 "$UML_TX_ADDR" >/dev/null
  touch "$TMPDIR/writable"
  echo "registry $GST_REGISTRY"
  echo "guest $(uname -r)"')
status=$?
[ $status -ne 77 ] || { echo "$out"; exit 77; }
echo "$out"
check "the command succeeds in the guest" test $status -eq 0
check "fq on the sender's egress" grep -q "^qdisc fq .* root .*flow_limit 1000p" <<<"$out"
check "GST_REGISTRY in a writable place" grep -q "^registry /run/" <<<"$out"

bash "$run" --qdisc "pfifo_fast" -- bash -c '
  ip netns exec "$UML_NS_TX" tc qdisc show dev "$UML_TX_DEV" | grep -q "^qdisc pfifo_fast" || exit 1
  echo "to stdout"; echo "to stderr" >&2; exit 3' >"${TMPDIR:-/tmp}/uml-harness.$$" 2>&1
status=$?
out=$(cat "${TMPDIR:-/tmp}/uml-harness.$$")
rm -f "${TMPDIR:-/tmp}/uml-harness.$$"
check "the command's exit status comes back (3, with --qdisc pfifo_fast)" test $status -eq 3
check "its output comes back" grep -qx "to stdout" <<<"$out"
check "its error output comes back" grep -qx "to stderr" <<<"$out"

bash "$run" --timeout 5 -- sleep 60 >/dev/null 2>&1
status=$?
check "a command past --timeout is stopped and reported (99)" test $status -eq 99

exit $fail
