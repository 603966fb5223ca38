#!/bin/sh
# Receives what examples/twcc-send.sh sends and sends the transport-wide
# congestion control (TWCC) feedback its rtpburstpace congestion-control
# needs: RTP on PORT, the sender's RTCP on PORT+1, RTCP back to
# SENDER:PORT+5.
#
# The udpsrc caps carry extmap-1 = the TWCC header extension, as the
# sender's do: rtpbin's rtpsession then reports every packet's arrival.
# rtp-profile=avpf lets it send a report with each frame (with the default
# avp the first came 1.3 to 3 s after the start, and later ones several
# frames' worth at a time, with its RTCP).  LATENCY (ms, default 200) is
# the jitterbuffer's.  Set SINK=fakesink to run without a display.
#
# No retransmission: a gst-launch-1.0 receiver cannot use it.  rtpbin
# takes rtprtxreceive only from its request-aux-receiver signal, which
# needs an application (examples/receive-video, RTX recipes); placed
# before rtpbin, rtprtxreceive never sees the retransmission requests
# (rtpbin turns them into NACKs and does not pass them on), so it cannot
# restore the retransmitted packets, rtpbin drops them as of an unknown
# payload type, and its TWCC reports count them lost: measured on
# loopback, every retransmission counted lost drove gcc to its minimum.
#
# Usage: examples/twcc-receive.sh [SENDER] [PORT]
SENDER=${1:-127.0.0.1}
PORT=${2:-5004}
LATENCY=${LATENCY:-200}
SINK=${SINK:-autovideosink}
TWCC=http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
# shellcheck disable=SC2086  # SINK may carry properties
exec gst-launch-1.0 -e rtpbin name=rb latency="$LATENCY" rtp-profile=avpf \
  udpsrc port="$PORT" \
    caps="application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96,extmap-1=(string)$TWCC" ! \
    rb.recv_rtp_sink_0 \
  rb. ! rtph264depay ! avdec_h264 ! videoconvert ! $SINK \
  udpsrc port=$((PORT + 1)) ! rb.recv_rtcp_sink_0 \
  rb.send_rtcp_src_0 ! udpsink host="$SENDER" port=$((PORT + 5)) sync=false async=false
