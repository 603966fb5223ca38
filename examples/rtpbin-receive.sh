#!/bin/sh
# Receives what rtpbin-send.sh sends: RTP on PORT, the sender's RTCP on
# PORT+1, receiver reports back to SENDER:PORT+5; rtpbin's jitterbuffer
# synchronises on the sender reports' NTP <-> RTP mapping.
# Set SINK=fakesink to run without a display.
# Usage: examples/rtpbin-receive.sh [SENDER] [PORT]
SENDER=${1:-127.0.0.1}
PORT=${2:-5004}
SINK=${SINK:-autovideosink}
# shellcheck disable=SC2086  # SINK may carry properties
exec gst-launch-1.0 -e rtpbin name=rb latency=100 \
  udpsrc port="$PORT" \
    caps="application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96" ! \
    rb.recv_rtp_sink_0 \
  rb. ! rtph264depay ! avdec_h264 ! videoconvert ! $SINK \
  udpsrc port=$((PORT + 1)) ! rb.recv_rtcp_sink_0 \
  rb.send_rtcp_src_0 ! udpsink host="$SENDER" port=$((PORT + 5)) sync=false async=false
