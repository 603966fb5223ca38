#!/bin/sh
# H.264 through rtpbin with RTCP, paced by rtpburstpace before or after rtpbin.
#
#   before: rtph264pay ! rtpburstpace ! rtpbin.send_rtp_sink_0
#   after:  rtpbin.send_rtp_src_0 ! rtpburstpace ! udpsink
#   none:   no element (for comparison)
#
# RTP goes to HOST:PORT, RTCP to HOST:PORT+1; the receiver's RTCP (receiver
# reports) comes back on local port PORT+5 (examples/rtpbin-receive.sh).
#
# The RTP udpsink keeps its default sync=true: rtpburstpace gives each
# packet a DTS that says when it leaves, and after the first frame the sink
# releases every packet at its slot (SYNC=false turns the sink's
# synchronisation off; the element then does the timing alone).
#
# rtpsession puts running-time(PTS) + the pipeline latency into the sender
# reports' NTP <-> RTP mapping.  rtpburstpace keeps the PTS and adds no
# latency, so the mapping is the same in all three placements
# (tests/senders/rtcp_mapping.py).
#
# No -e: with rtpbin's RTCP, gst-launch-1.0 -e sometimes waited for EOS
# indefinitely after Ctrl-C, with and without rtpburstpace.
#
# Usage: examples/rtpbin-send.sh before|after|none [HOST] [PORT] [extra rtpburstpace properties]
PLACEMENT=${1:-before}
HOST=${2:-127.0.0.1}
PORT=${3:-5004}
# (dash exits on a shift past the last argument)
if [ $# -ge 3 ]; then shift 3; else shift $#; fi
SYNC=${SYNC:-true}
case "$PLACEMENT" in
  before) PRE="rtpburstpace $* !"; POST="" ;;
  after)  PRE=""; POST="rtpburstpace $* !" ;;
  none)   PRE=""; POST="" ;;
  *) echo "usage: $0 before|after|none [HOST] [PORT] [rtpburstpace properties]" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086  # PRE and POST are pipeline fragments
exec gst-launch-1.0 rtpbin name=rb \
  videotestsrc is-live=true pattern=smpte ! \
  video/x-raw,width=1280,height=720,framerate=25/1 ! \
  x264enc tune=zerolatency speed-preset=ultrafast bitrate=4000 key-int-max=50 ! \
  rtph264pay mtu=1200 config-interval=-1 pt=96 ! $PRE rb.send_rtp_sink_0 \
  rb.send_rtp_src_0 ! $POST udpsink host="$HOST" port="$PORT" sync="$SYNC" \
  rb.send_rtcp_src_0 ! udpsink host="$HOST" port=$((PORT + 1)) sync=false async=false \
  udpsrc port=$((PORT + 5)) ! rb.recv_rtcp_sink_0
