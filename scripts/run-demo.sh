#!/usr/bin/env bash
# Sets up (Debian 12), builds and runs the demo:
#  1. a live 6 Mbit/s stream on loopback into a udpsink with its defaults
#     (it synchronises), without and with rtpburstpace, and with
#     rtpburstpace and sync=false, measured at the receiver (how the packets
#     of each frame arrive);
#  2. as root, where network namespaces work: the same stream against a real
#     TCP flow (iperf3) through a 10 Mbit/s bottleneck with a 13-packet
#     drop-tail queue, bursty vs rtpburstpace vs a sender token bucket, as a
#     table (tests/testbed/demo_table.py; about 5 minutes; skipped otherwise).
#     It prints a line per run as it goes; what the tools print (iperf3,
#     netbed.sh, the GStreamer sender) goes to a log file that it names.
#  3. as root, what the viewer gets on the same bottleneck: 720p H.264 with
#     B-frames from examples/send-video to examples/receive-video (a real
#     decoder), frames decoded intact beside packet loss, for the payloader's
#     bursts, pacing alone, bursts + retransmission and the recommended
#     recipe (pacing with a rate cap + retransmission), with one TCP flow and the
#     recommended one without, 3 runs of 20 s each (tests/testbed/recipes.py;
#     about 8 minutes).
# Arguments go to examples/demo.py.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
/usr/bin/python3 examples/demo.py "$@"
echo
status=0
/usr/bin/python3 tests/testbed/demo_table.py --plugin-path "$PWD/build/gst" || status=$?
# 77: the machine cannot run the testbed (the reason was printed)
[ "$status" -eq 0 ] || [ "$status" -eq 77 ] || exit "$status"
[ "$status" -eq 77 ] && exit 0
echo
echo "What the viewer gets: 720p H.264 (x264, B-frames, ~3.7 Mbit/s) decoded by avdec_h264 at"
echo "the receiver, same bottleneck; frames intact = every packet of the frame and of the"
echo "frames it references arrived (after repair) in time:"
/usr/bin/python3 tests/testbed/recipes.py --cases bursty,paced,bursty-rtx,recommended \
  --cases-no-tcp recommended --reps 3 --duration 20 -- --plugin-path "$PWD/build/gst"
