#!/bin/bash
# netbed.sh - dumbbell testbed of network namespaces for TCP-tolerance experiments.
#
#   sv (video sender) 10.0.1.2 --\                       /-- 10.0.3.2 rx (receiver)
#                                 r (router, ip_forward) -
#   st (TCP sender)   10.0.2.2 --/   bottleneck qdisc on r's egress towards rx
#
# All links are veth pairs with offloads off.  Access links are shaped to 100 Mbit/s (htb) in both
# directions; the bottleneck is htb at --rate with a drop-tail pfifo of --queue packets on the
# router's egress towards rx.  The bottleneck is deliberately NOT on a sender's own egress: a
# sender-local drop is reported to the TCP socket (TSQ/local congestion) and TCP would back off
# without retransmitting, which invalidates the experiment (see ../shared/TESTBED.md).
#
# Optional parts (netem delay, red, red-ecn, fq_codel) are used only when the kernel can load them;
# otherwise they are reported as skipped (SKIPPED=... on stdout, a note on stderr), never an error.
#
# Usage:
#   netbed.sh probe                      print HAVE_<QDISC>=0|1 for the optional qdiscs
#   netbed.sh up   [options]             create the testbed, print KEY=VALUE facts on stdout
#   netbed.sh down --prefix P            kill processes inside P-* namespaces and delete them
#   netbed.sh run  [options] -- CMD...   up, run CMD (env NB_SV NB_ST NB_R NB_RX NB_RX_ADDR set),
#                                        down on exit, error, SIGINT or SIGTERM
# Options:
#   --prefix P       namespace prefix (default tb<pid>); namespaces are P-sv P-st P-r P-rx
#   --rate R         bottleneck rate, tc units (default 10mbit)
#   --queue N        bottleneck queue length in packets (default 13)
#   --aqm A          pfifo (default) | red | red-ecn | fq_codel
#   --delay MS       one-way propagation delay on the router (netem), 0 = none (default)
#   --access R       access link rate (default 100mbit)
#   --mtu N          MTU of every veth (default 1500)
#   --cc ALG         TCP congestion control in all namespaces (default cubic)
#   --sender-tbf R   replace sv's 100mbit access shaper by tbf at rate R (sender-side shaper)
#   --tbf-burst B    tbf bucket size in bytes (default MTU+100, i.e. one packet)
set -euo pipefail

ACCESS=100mbit RATE=10mbit QUEUE=13 AQM=pfifo DELAY=0 MTU=1500 CC=cubic
SENDER_TBF="" TBF_BURST="" PREFIX="tb$$"
SKIPPED=()

die() { echo "netbed: $*" >&2; exit 1; }
note() { echo "netbed: $*" >&2; }

parse_opts() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --prefix) PREFIX=$2; shift 2 ;;
            --rate) RATE=$2; shift 2 ;;
            --queue) QUEUE=$2; shift 2 ;;
            --aqm) AQM=$2; shift 2 ;;
            --delay) DELAY=$2; shift 2 ;;
            --access) ACCESS=$2; shift 2 ;;
            --mtu) MTU=$2; shift 2 ;;
            --cc) CC=$2; shift 2 ;;
            --sender-tbf) SENDER_TBF=$2; shift 2 ;;
            --tbf-burst) TBF_BURST=$2; shift 2 ;;
            --) shift; CMD=("$@"); return ;;
            *) die "unknown option $1" ;;
        esac
    done
}

# Can the kernel load qdisc "$@"?  Tried on lo of a throwaway namespace.
have_qdisc() {
    local ns="${PREFIX}-probe" ok=1
    ip netns add "$ns" 2>/dev/null || true
    ip netns exec "$ns" tc qdisc add dev lo root "$@" 2>/dev/null || ok=0
    ip netns del "$ns" 2>/dev/null || true
    [ $ok = 1 ]
}

probe() {
    local q
    for q in netem red fq_codel; do
        case $q in
            netem) set -- netem delay 1ms ;;
            red) set -- red limit 50000 min 5000 max 15000 avpkt 1000 burst 50 \
                    probability 0.1 bandwidth 10mbit ;;
            fq_codel) set -- fq_codel ;;
        esac
        if have_qdisc "$@"; then echo "HAVE_${q^^}=1"; else echo "HAVE_${q^^}=0"; fi
    done
}

nsx() { local ns=$1; shift; ip netns exec "${PREFIX}-$ns" "$@"; }

# veth pair $1:$2 <-> $3:$4 with addresses $5 (on side 1) and $6 (on side 2), /24.
link() {
    ip link add "$2" netns "${PREFIX}-$1" mtu "$MTU" type veth \
        peer name "$4" netns "${PREFIX}-$3" mtu "$MTU"
    nsx "$1" ip addr add "$5/24" dev "$2"
    nsx "$3" ip addr add "$6/24" dev "$4"
    local side
    for side in "$1 $2" "$3 $4"; do
        set -- $side
        nsx "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 \
            || nsx "$1" ethtool -K "$2" tso off gso off gro off
        nsx "$1" ip link set "$2" up
    done
}

# htb root with one class at rate $3 on namespace $1 device $2; the class's leaf is "$4..."
shaper() {
    local ns=$1 dev=$2 rate=$3; shift 3
    nsx "$ns" tc qdisc add dev "$dev" root handle 1: htb default 1
    nsx "$ns" tc class add dev "$dev" parent 1: classid 1:1 htb rate "$rate" ceil "$rate" quantum 1514
    nsx "$ns" tc qdisc add dev "$dev" parent 1:1 handle 10: "$@"
}

# Router egress device $1 at rate $2: netem delay (when asked and present) as the root delay
# line, htb below it (the documented netem+shaper nesting of tc-netem(8)), then leaf "$3...".
router_egress() {
    local dev=$1 rate=$2; shift 2
    if [ "$DELAY" != 0 ] && [ "$HAVE_NETEM" = 1 ]; then
        nsx r tc qdisc add dev "$dev" root handle 1: netem delay "${DELAY}ms" limit 100000
        nsx r tc qdisc add dev "$dev" parent 1:1 handle 2: htb default 1
        nsx r tc class add dev "$dev" parent 2: classid 2:1 htb rate "$rate" ceil "$rate" quantum 1514
        nsx r tc qdisc add dev "$dev" parent 2:1 handle 10: "$@"
    else
        shaper r "$dev" "$rate" "$@"
    fi
}

# Does namespace $1 reach rx?  A TCP connect to a closed port is refused (RST) if it does.
reachable() {
    local err
    err=$(nsx "$1" timeout 3 bash -c 'exec 3<>/dev/tcp/10.0.3.2/9' 2>&1) && return 0
    [[ $err == *refused* ]] || die "$1 cannot reach rx: $err"
}

up() {
    local ns cc_note=0
    while IFS== read -r k v; do declare -g "$k=$v"; done < <(probe)
    [ "$DELAY" != 0 ] && [ "$HAVE_NETEM" = 0 ] && SKIPPED+=(netem)
    case $AQM in
        pfifo) ;;
        red|red-ecn) [ "$HAVE_RED" = 1 ] || { SKIPPED+=("$AQM"); AQM=pfifo; } ;;
        fq_codel) [ "$HAVE_FQ_CODEL" = 1 ] || { SKIPPED+=(fq_codel); AQM=pfifo; } ;;
        *) die "unknown --aqm $AQM" ;;
    esac
    for ns in sv st r rx; do
        ip netns add "${PREFIX}-$ns"
        nsx $ns ip link set lo up
        nsx $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
        # A non-initial namespace may only default to an "allowed" algorithm; when $CC is not
        # allowed, TCP senders must ask for it per socket (iperf3 -C, needs CAP_NET_ADMIN).
        nsx $ns sysctl -qw net.ipv4.tcp_congestion_control="$CC" 2>/dev/null || cc_note=1
        [ "$AQM" = red-ecn ] && nsx $ns sysctl -qw net.ipv4.tcp_ecn=1
    done
    nsx r sysctl -qw net.ipv4.ip_forward=1
    link sv sv-r r r-sv 10.0.1.2 10.0.1.1
    link st st-r r r-st 10.0.2.2 10.0.2.1
    link rx rx-r r r-rx 10.0.3.2 10.0.3.1
    nsx sv ip route add default via 10.0.1.1
    nsx st ip route add default via 10.0.2.1
    nsx rx ip route add default via 10.0.3.1

    # Access links, 100 Mbit/s both ways; hosts keep a large (1000 packet) queue.
    if [ -n "$SENDER_TBF" ]; then
        nsx sv tc qdisc add dev sv-r root handle 1: tbf rate "$SENDER_TBF" \
            burst "${TBF_BURST:-$((MTU + 100))}" limit 1000000
    else
        shaper sv sv-r "$ACCESS" pfifo limit 1000
    fi
    shaper st st-r "$ACCESS" pfifo limit 1000
    shaper rx rx-r "$ACCESS" pfifo limit 1000
    router_egress r-sv "$ACCESS" pfifo limit 1000
    router_egress r-st "$ACCESS" pfifo limit 1000

    # The bottleneck.
    local bytes=$(( (QUEUE > 16 ? QUEUE : 16) * 1000 ))
    case $AQM in
        pfifo) router_egress r-rx "$RATE" pfifo limit "$QUEUE" ;;
        # 000 paper: thresh 5, maxthresh 15 packets, linterm 10, q_weight 0.002 (burst 50 -> Wlog 9)
        red) router_egress r-rx "$RATE" red limit $bytes min 5000 max 15000 avpkt 1000 \
                burst 50 probability 0.1 bandwidth "$RATE" ;;
        red-ecn) router_egress r-rx "$RATE" red limit $bytes min 5000 max 15000 avpkt 1000 \
                burst 50 probability 0.1 bandwidth "$RATE" ecn ;;
        fq_codel) router_egress r-rx "$RATE" fq_codel limit "$QUEUE" ;;
    esac

    [ $cc_note = 1 ] && note "default TCP congestion control stays" \
        "$(nsx st sysctl -n net.ipv4.tcp_congestion_control); use per-socket $CC (iperf3 -C $CC)"
    reachable sv; reachable st
    local s="${SKIPPED[*]:-}"
    [ -n "$s" ] && note "skipped (qdisc not available in this kernel): ${s// /,}"
    cat <<EOF
PREFIX=$PREFIX
NB_SV=${PREFIX}-sv
NB_ST=${PREFIX}-st
NB_R=${PREFIX}-r
NB_RX=${PREFIX}-rx
NB_RX_ADDR=10.0.3.2
NB_BOTTLENECK_DEV=r-rx
NB_AQM=$AQM
HAVE_NETEM=$HAVE_NETEM
HAVE_RED=$HAVE_RED
HAVE_FQ_CODEL=$HAVE_FQ_CODEL
SKIPPED=${s// /,}
EOF
}

down() {
    local ns pids
    for ns in sv st r rx probe; do
        ip netns list | grep -qw "${PREFIX}-$ns" || continue
        pids=$(ip netns pids "${PREFIX}-$ns" 2>/dev/null || true)
        [ -n "$pids" ] && kill $pids 2>/dev/null || true
    done
    sleep 0.2
    for ns in sv st r rx probe; do
        ip netns list | grep -qw "${PREFIX}-$ns" || continue
        pids=$(ip netns pids "${PREFIX}-$ns" 2>/dev/null || true)
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
        ip netns del "${PREFIX}-$ns"
    done
}

[ $# -ge 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
sub=$1; shift
CMD=()
parse_opts "$@"
case $sub in
    probe) probe ;;
    up)
        trap 'rc=$?; [ $rc = 0 ] || down; exit $rc' EXIT
        trap 'exit 130' INT; trap 'exit 143' TERM
        up ;;
    down) down ;;
    run)
        [ ${#CMD[@]} -gt 0 ] || die "run needs -- CMD"
        child=""
        trap 'rc=$?; [ -n "$child" ] && { kill $child 2>/dev/null || true; }; down; exit $rc' EXIT
        trap 'exit 130' INT; trap 'exit 143' TERM
        eval "$(up | sed 's/^/export /')"
        # In the background so that a signal to this script is handled at once (wait returns).
        "${CMD[@]}" <&0 & child=$!
        wait $child ;;
    *) die "unknown subcommand $sub" ;;
esac
