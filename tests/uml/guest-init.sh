#!/bin/bash
# guest-init.sh - PID 1 of run-uml.sh's User-Mode Linux guest (not for the
# host: run-uml.sh passes it as init=).
#
# The root file system is the host's, read-only.  RUN_UML_DIR (from the
# kernel command line) is run-uml.sh's exchange directory on the host: its
# file `command` is the command with its environment; out/output and
# out/status take the command's output and exit status, out/init.log this
# script's own messages.  Powers the guest off at the end: returning from
# PID 1 would panic the kernel.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The AVX-512 registers are not switched between the threads of a guest
# process (run-uml.sh's uml-xstate.c): glibc is not to use them.
GUEST_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD
GLIBC_TUNABLES=$GUEST_TUNABLES
export PATH GLIBC_TUNABLES GUEST_TUNABLES
umask 022

power_off() {
  sync
  # reboot (RB_POWER_OFF); the root has no writable place for a program of
  # our own, and the host's `poweroff` needs systemd
  /usr/bin/python3 -c 'import ctypes; ctypes.CDLL(None).reboot(0x4321fedc)'
  echo o >/proc/sysrq-trigger
  sleep 5
  exit 1
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs -o mode=755 tmpfs /run
# The kernel's devtmpfs on /dev has no /dev/fd (bash's process
# substitution), and the host's, through hostfs, would resolve it on the host.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
mkdir -p /run/host /run/tmp /run/home
if ! mount -t hostfs -o "${RUN_UML_DIR:?}" hostfs /run/host; then
  echo "guest-init: cannot mount the host directory $RUN_UML_DIR"
  power_off
fi
exec </dev/null >/run/host/out/init.log 2>&1
export TMPDIR=/run/tmp HOME=/run/home

fail() {
  echo "guest-init: $*"
  power_off
}

# shellcheck disable=SC1091
UML_MODULES=$(. /run/host/command >/dev/null 2>&1; echo "$UML_MODULES")
UML_QDISC=$(. /run/host/command >/dev/null 2>&1; echo "$UML_QDISC")

# The qdisc modules depend on nothing but the kernel (umlmod.py: the host
# has no insmod).
/usr/bin/python3 "$(dirname "$0")/umlmod.py" "$UML_MODULES" drivers/net/veth \
  net/sched/sch_fq net/sched/sch_etf net/sched/sch_mqprio net/sched/sch_netem \
  net/sched/sch_fq_codel net/sched/sch_htb net/sched/sch_tbf ||
  fail "loading the modules failed"

# Two namespaces over a veth; two transmit queues on the sender's side, so
# that mqprio can hold an etf per queue.
export UML_NS_TX=tx UML_NS_RX=rx UML_TX_DEV=vtx UML_RX_DEV=vrx
export UML_TX_ADDR=10.77.0.1 UML_RX_ADDR=10.77.0.2
{
  ip link set lo up &&
  ip netns add $UML_NS_TX && ip netns add $UML_NS_RX &&
  ip link add $UML_TX_DEV numtxqueues 2 netns $UML_NS_TX type veth \
    peer name $UML_RX_DEV netns $UML_NS_RX &&
  ip -n $UML_NS_TX addr add $UML_TX_ADDR/24 dev $UML_TX_DEV &&
  ip -n $UML_NS_RX addr add $UML_RX_ADDR/24 dev $UML_RX_DEV &&
  ip -n $UML_NS_TX link set lo up && ip -n $UML_NS_RX link set lo up &&
  ip -n $UML_NS_TX link set $UML_TX_DEV up &&
  ip -n $UML_NS_RX link set $UML_RX_DEV up
} || fail "setting up the namespaces failed"
if [ "$UML_QDISC" != none ]; then
  # shellcheck disable=SC2086
  tc -n $UML_NS_TX qdisc replace dev $UML_TX_DEV root $UML_QDISC ||
    fail "tc qdisc replace dev $UML_TX_DEV root $UML_QDISC failed"
fi
tc -n $UML_NS_TX qdisc show dev $UML_TX_DEV

# The command, with the host's environment, in the guest's writable places.
bash -c 'unset GLIBC_TUNABLES; . /run/host/command || exit 2
  export TMPDIR=/run/tmp HOME=/run/home PYTHONDONTWRITEBYTECODE=1 \
    GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$GUEST_TUNABLES \
    GST_REGISTRY=/run/tmp/gst-registry.bin UML_NS_TX UML_NS_RX UML_TX_DEV \
    UML_RX_DEV UML_TX_ADDR UML_RX_ADDR
  exec "$@"' >/run/host/out/output 2>&1
echo $? >/run/host/out/status
power_off
