#!/bin/bash
# netbed.sh - dumbbell testbed of network namespaces for TCP-tolerance experiments.
#
#   sv (video sender) 10.0.1.2 --\                       /-- 10.0.3.2 rx (receiver)
#                                 r (router, ip_forward) -
#   st (TCP sender)   10.0.2.2 --/   bottleneck between r and rx
#
# All links are veth pairs with offloads off.  Access links are shaped to 100 Mbit/s (htb) in both
# directions.  The bottleneck is deliberately NOT on a sender's own egress: a sender-local drop is
# reported to the TCP socket (TSQ/local congestion) and TCP would back off without retransmitting,
# which invalidates the experiment (see ../shared/TESTBED.md).  It is one of two routers:
#
#   kernel  htb at --rate with the --aqm qdisc (pfifo, red, red-ecn, codel, fq_codel, pie) on r's
#           egress towards rx (a veth r-rx); --rtt as netem delay, half on each of r's egresses
#   ns3     the ns-3 program tests/testbed/ns3/router.cc as a real-time router: r reaches rx
#           through a tap (ns3-r, 10.0.4.1), two ns-3 nodes joined by a point-to-point link of
#           --rate and --rtt/2 each way with the --aqm queue disc on both egresses, and a tap in
#           rx (ns3-rx, 10.0.3.2); for delay and queues this kernel's qdiscs cannot give
#
# --router auto (default) takes the kernel where it has what the options ask for (netem for
# --rtt, the qdisc of --aqm), else ns-3 where it is built, else the kernel with the missing parts
# left out and reported (SKIPPED=... on stdout, a note on stderr): never an error.  After set-up
# it measures the round trip sv -> rx with ping (NB_RTT_MS, the mean of 10 pings).
#
# Usage:
#   netbed.sh probe                      print HAVE_<PART>=0|1 for the optional parts
#   netbed.sh up   [options]             create the testbed, print KEY=VALUE facts on stdout
#   netbed.sh down --prefix P            kill processes inside P-* namespaces and delete them
#   netbed.sh run  [options] -- CMD...   up, run CMD (env NB_SV NB_ST NB_R NB_RX NB_RX_ADDR set),
#                                        down on exit, error, SIGINT or SIGTERM
# Options:
#   --prefix P       namespace prefix (default tb<pid>); namespaces are P-sv P-st P-r P-rx
#   --rate R         bottleneck rate, tc units (default 10mbit)
#   --rate-low R     the ns-3 router switches the bottleneck between --rate and R on SIGUSR2
#                    (NB_NS3_PID; the kernel router cannot: auto takes ns-3, kernel refuses)
#   --queue N        bottleneck queue limit in packets (default 13)
#   --aqm A          pfifo (default) | red | red-ecn | codel | fq_codel | pie
#   --rtt MS         round-trip propagation delay, half each way, 0 = none (default)
#   --router R       auto (default) | kernel | ns3
#   --ns3-router F   the ns-3 router program (default $NETBED_NS3_ROUTER, else
#                    build/tests/testbed/ns3-router of this checkout)
#   --access R       access link rate (default 100mbit)
#   --mtu N          MTU of every link (default 1500)
#   --cc ALG         TCP congestion control in all namespaces (default cubic; see below)
#   --sender-tbf R   replace sv's 100mbit access shaper by tbf at rate R (sender-side shaper)
#   --tbf-burst B    tbf bucket size in bytes (default MTU+100, i.e. one packet)
# A namespace may only default to an "allowed" congestion control (on some kernels only reno and
# bbr): when --cc is refused there, TCP senders must ask for it per socket (iperf3 -C).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ACCESS=100mbit RATE=10mbit RATE_LOW="" QUEUE=13 AQM=pfifo RTT=0 MTU=1500 CC=cubic ROUTER=auto
NS3_ROUTER=${NETBED_NS3_ROUTER:-$HERE/../../build/tests/testbed/ns3-router}
SENDER_TBF="" TBF_BURST="" PREFIX="tb$$"
SKIPPED=()

die() { echo "netbed: $*" >&2; exit 1; }
note() { echo "netbed: $*" >&2; }

parse_opts() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --prefix) PREFIX=$2; shift 2 ;;
            --rate) RATE=$2; shift 2 ;;
            --rate-low) RATE_LOW=$2; shift 2 ;;
            --queue) QUEUE=$2; shift 2 ;;
            --aqm) AQM=$2; shift 2 ;;
            --rtt) RTT=$2; shift 2 ;;
            --router) ROUTER=$2; shift 2 ;;
            --ns3-router) NS3_ROUTER=$2; shift 2 ;;
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
    for q in netem red codel fq_codel pie; do
        case $q in
            netem) set -- netem delay 1ms ;;
            red) set -- red limit 50000 min 5000 max 15000 avpkt 1000 burst 50 \
                    probability 0.1 bandwidth 10mbit ;;
            *) set -- "$q" ;;
        esac
        if have_qdisc "$@"; then echo "HAVE_${q^^}=1"; else echo "HAVE_${q^^}=0"; fi
    done
    if [ -x "$NS3_ROUTER" ] && [ -c /dev/net/tun ]; then
        echo "HAVE_NS3=1"
    else
        echo "HAVE_NS3=0"
    fi
}

nsx() { local ns=$1; shift; ip netns exec "${PREFIX}-$ns" "$@"; }

# Offloads off on device $2 of namespace $1 (else TCP hands the qdisc 64 kB super-packets).
no_offloads() {
    nsx "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 \
        || nsx "$1" ethtool -K "$2" tso off gso off gro off
}

# veth pair $1:$2 <-> $3:$4 with addresses $5 (on side 1) and $6 (on side 2), /24.
link() {
    ip link add "$2" netns "${PREFIX}-$1" mtu "$MTU" type veth \
        peer name "$4" netns "${PREFIX}-$3" mtu "$MTU"
    nsx "$1" ip addr add "$5/24" dev "$2"
    nsx "$3" ip addr add "$6/24" dev "$4"
    local side
    for side in "$1 $2" "$3 $4"; do
        set -- $side
        no_offloads "$1" "$2"
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

# Half the round trip, ms.
half_rtt() { awk -v r="$RTT" 'BEGIN { printf "%g", r / 2 }'; }

# Router egress device $1 at rate $2 (kernel router): netem delay of half the round trip (when
# asked) as the root delay line, htb below it (the documented netem+shaper nesting of
# tc-netem(8)), then leaf "$3...".
router_egress() {
    local dev=$1 rate=$2; shift 2
    if [ "$RTT" != 0 ]; then
        nsx r tc qdisc add dev "$dev" root handle 1: netem delay "$(half_rtt)ms" limit 100000
        nsx r tc qdisc add dev "$dev" parent 1:1 handle 2: htb default 1
        nsx r tc class add dev "$dev" parent 2: classid 2:1 htb rate "$rate" ceil "$rate" quantum 1514
        nsx r tc qdisc add dev "$dev" parent 2:1 handle 10: "$@"
    else
        shaper r "$dev" "$rate" "$@"
    fi
}

# The kernel router's bottleneck leaf for --aqm: the 000 paper's RED (thresh 5, maxthresh 15
# packets of 1000 B, linterm 10, q_weight 0.002: burst 50 -> Wlog 9), the others as Linux
# defaults them, with --queue as their limit.
bottleneck_leaf() {
    local bytes=$(( (QUEUE > 16 ? QUEUE : 16) * 1000 ))
    case $AQM in
        pfifo) echo pfifo limit "$QUEUE" ;;
        red) echo red limit $bytes min 5000 max 15000 avpkt 1000 burst 50 probability 0.1 \
                bandwidth "$RATE" ;;
        red-ecn) echo red limit $bytes min 5000 max 15000 avpkt 1000 burst 50 probability 0.1 \
                bandwidth "$RATE" ecn ;;
        codel|fq_codel|pie) echo "$AQM" limit "$QUEUE" ;;
    esac
}

# Bits per second of a tc rate (10mbit, 2.5mbit, 800kbit, 10000000).
rate_bps() {
    awk -v r="$1" 'BEGIN { n = r + 0; u = tolower(substr(r, length(n "") + 1));
        m = (u ~ /^g/) ? 1e9 : (u ~ /^m/) ? 1e6 : (u ~ /^k/) ? 1e3 : 1;
        if (u ~ /bps$/) m *= 8; printf "%.0f", n * m }'
}

# Which router gives what was asked: sets ROUTER to kernel or ns3; with the kernel, the parts it
# lacks are left out (RTT 0, AQM pfifo) and named in SKIPPED.
choose_router() {
    local kernel_ok=1 aqm_have
    case $AQM in
        pfifo) aqm_have=1 ;;
        red|red-ecn) aqm_have=$HAVE_RED ;;
        codel) aqm_have=$HAVE_CODEL ;;
        fq_codel) aqm_have=$HAVE_FQ_CODEL ;;
        pie) aqm_have=$HAVE_PIE ;;
        *) die "unknown --aqm $AQM" ;;
    esac
    [ "$aqm_have" = 1 ] || kernel_ok=0
    [ "$RTT" != 0 ] && [ "$HAVE_NETEM" = 0 ] && kernel_ok=0
    [ -n "$RATE_LOW" ] && kernel_ok=0
    case $ROUTER in
        kernel) [ -z "$RATE_LOW" ] || die "--rate-low needs the ns-3 router" ;;
        ns3) [ "$HAVE_NS3" = 1 ] || die "--router ns3: no ns-3 router program at $NS3_ROUTER" \
                 "(scripts/setup.sh installs libns3-dev, then the build makes it)" ;;
        auto) if [ $kernel_ok = 1 ]; then ROUTER=kernel
              elif [ "$HAVE_NS3" = 1 ]; then ROUTER=ns3
              elif [ -n "$RATE_LOW" ]; then die "--rate-low needs the ns-3 router" \
                  "(scripts/setup.sh installs libns3-dev, then the build makes it)"
              else ROUTER=kernel; fi ;;
        *) die "unknown --router $ROUTER" ;;
    esac
    if [ "$ROUTER" = kernel ]; then
        if [ "$RTT" != 0 ] && [ "$HAVE_NETEM" = 0 ]; then SKIPPED+=(netem); RTT=0; fi
        if [ "$aqm_have" != 1 ]; then SKIPPED+=("$AQM"); AQM=pfifo; fi
    fi
    return 0
}

ns3_files() {
    NS3_STATS="${TMPDIR:-/tmp}/netbed-${PREFIX}-ns3.json"
    NS3_LOG="${TMPDIR:-/tmp}/netbed-${PREFIX}-ns3.log"
}

# The ns-3 router between r and rx (see the header): started inside r, so that `down` ends it
# with the namespace's other processes; its taps vanish with it.
ns3_up() {
    ns3_files
    rm -f "$NS3_STATS" "$NS3_LOG"
    # Real-time priority where allowed: the router stands for a machine of its own, and the
    # hosts' processes on these cores must not delay its scheduler (routercheck.py measures it).
    local rt=(chrt -f 10)
    chrt -f 10 true 2>/dev/null || rt=()
    ip netns exec "${PREFIX}-r" "${rt[@]}" setsid "$NS3_ROUTER" --ns-a="/var/run/netns/${PREFIX}-r" \
        --ns-b="/var/run/netns/${PREFIX}-rx" --rate="$(rate_bps "$RATE")" \
        --rate-low="$(rate_bps "${RATE_LOW:-0}")" \
        --delay="$(half_rtt)" --aqm="$AQM" --queue="$QUEUE" --mtu="$MTU" \
        --stats="$NS3_STATS" </dev/null >"$NS3_LOG" 2>&1 &
    NS3_PID=$!
    local i
    for i in $(seq 100); do
        grep -q '^ready' "$NS3_LOG" 2>/dev/null && break
        kill -0 "$NS3_PID" 2>/dev/null || die "ns-3 router failed: $(cat "$NS3_LOG")"
        sleep 0.1
    done
    grep -q '^ready' "$NS3_LOG" || die "ns-3 router not ready after 10 s: $(cat "$NS3_LOG")"
    nsx r ip addr add 10.0.4.1/24 dev ns3-r
    nsx rx ip addr add 10.0.3.2/24 dev ns3-rx
    local side
    for side in "r ns3-r" "rx ns3-rx"; do
        set -- $side
        nsx "$1" ip link set "$2" mtu "$MTU"
        no_offloads "$1" "$2"
        nsx "$1" ip link set "$2" up
    done
    nsx r ip route add 10.0.3.0/24 via 10.0.4.2
}

# Does namespace $1 reach rx?  A TCP connect to a closed port is refused (RST) if it does.
reachable() {
    local err
    err=$(nsx "$1" timeout 3 bash -c 'exec 3<>/dev/tcp/10.0.3.2/9' 2>&1) && return 0
    [[ $err == *refused* ]] || die "$1 cannot reach rx: $err"
}

# "mean mdev" round trip sv -> rx of 10 pings, ms (after 3 that warm up ARP and the path).
# A round trip longer than the interval makes ping add ", pipe N" to its summary.
rtt_ms() {
    nsx sv ping -q -c 3 -i 0.05 -W 2 10.0.3.2 >/dev/null 2>&1 || true
    nsx sv ping -q -c 10 -i 0.05 -W 2 10.0.3.2 2>/dev/null \
        | sed -n 's|^rtt [^=]*= [0-9.]*/\([0-9.]*\)/[0-9.]*/\([0-9.]*\) ms\(, pipe [0-9]*\)\{0,1\}$|\1 \2|p'
}

up() {
    local ns cc_note=0
    while IFS== read -r k v; do declare -g "$k=$v"; done < <(probe)
    choose_router
    for ns in sv st r rx; do
        ip netns add "${PREFIX}-$ns"
        nsx $ns ip link set lo up
        nsx $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
        nsx $ns sysctl -qw net.ipv4.tcp_congestion_control="$CC" 2>/dev/null || cc_note=1
        [ "$AQM" = red-ecn ] && nsx $ns sysctl -qw net.ipv4.tcp_ecn=1
    done
    nsx r sysctl -qw net.ipv4.ip_forward=1
    link sv sv-r r r-sv 10.0.1.2 10.0.1.1
    link st st-r r r-st 10.0.2.2 10.0.2.1
    local rxdev=rx-r rdev=r-rx
    if [ "$ROUTER" = ns3 ]; then
        ns3_up
        rxdev=ns3-rx rdev=ns3-r
    else
        link rx rx-r r r-rx 10.0.3.2 10.0.3.1
    fi
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
    shaper rx "$rxdev" "$ACCESS" pfifo limit 1000
    if [ "$ROUTER" = ns3 ]; then
        # delay and bottleneck are in ns-3; r hands it the packets at the access rate
        shaper r r-sv "$ACCESS" pfifo limit 1000
        shaper r r-st "$ACCESS" pfifo limit 1000
        shaper r "$rdev" "$ACCESS" pfifo limit 1000
    else
        router_egress r-sv "$ACCESS" pfifo limit 1000
        router_egress r-st "$ACCESS" pfifo limit 1000
        # shellcheck disable=SC2046
        router_egress "$rdev" "$RATE" $(bottleneck_leaf)
    fi

    [ $cc_note = 1 ] && note "default TCP congestion control stays" \
        "$(nsx st sysctl -n net.ipv4.tcp_congestion_control); use per-socket $CC (iperf3 -C $CC)"
    reachable sv; reachable st
    local s="${SKIPPED[*]:-}" rtt
    [ -n "$s" ] && note "skipped (not in this kernel, no ns-3 router): ${s// /,}"
    rtt=$(rtt_ms)
    [ -n "$rtt" ] || die "no ping reply from rx"
    cat <<EOF
PREFIX=$PREFIX
NB_SV=${PREFIX}-sv
NB_ST=${PREFIX}-st
NB_R=${PREFIX}-r
NB_RX=${PREFIX}-rx
NB_RX_ADDR=10.0.3.2
NB_ROUTER=$ROUTER
NB_ROUTER_DEV=$rdev
NB_AQM=$AQM
NB_QUEUE=$QUEUE
NB_RTT_CONFIGURED_MS=$RTT
NB_RTT_MS=${rtt% *}
NB_RTT_MDEV_MS=${rtt#* }
NB_NS3_PID=${NS3_PID:-}
NB_NS3_STATS=${NS3_STATS:-}
HAVE_NETEM=$HAVE_NETEM
HAVE_RED=$HAVE_RED
HAVE_CODEL=$HAVE_CODEL
HAVE_FQ_CODEL=$HAVE_FQ_CODEL
HAVE_PIE=$HAVE_PIE
HAVE_NS3=$HAVE_NS3
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
    ns3_files
    rm -f "$NS3_STATS" "$NS3_STATS.tmp" "$NS3_LOG"
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
