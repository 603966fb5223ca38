#!/bin/sh
# H.264 paced at the rate the receiver's feedback allows: rtpburstpace
# congestion-control=gcc before rtpbin, on the transport-wide congestion
# control (TWCC) feedback that examples/twcc-receive.sh sends.
#
#   x264enc bitrate=$BITRATE ! rtph264pay
#     ! caps with extmap-1 = the TWCC header extension (GStreamer 1.22's
#       payloader adds rtphdrexttwcc for it; rtpbin numbers the packets)
#     ! rtprtxsend ! rtpburstpace congestion-control=gcc ! rtpbin ! udpsink
#
# RTP goes to HOST:PORT, RTCP to HOST:PORT+1; the receiver's RTCP (its TWCC
# reports, receiver reports, retransmission requests) comes back on local
# port PORT+5.  rtpbin turns each TWCC report into an upstream event for
# the element, whose estimate (stats: estimated-bitrate, cc-rtt, cc-*)
# becomes its rate cap: frames that would leave faster are spread within
# max-latency (overload=drop drops whole frames beyond instead).  The
# encoder keeps its bitrate: gst-launch-1.0 cannot wire the estimate to
# it (an application connects notify::estimated-bitrate to the encoder's
# bitrate property).
#
# Retransmission: rtprtxsend before the element answers the receiver's
# NACKs (RTX, payload type 97, paced between the media's slots), and
# examples/twcc-receive.sh restores them (it says how); with a receiver that
# sends no NACKs it only keeps a second of packets.  max-size-packets=0: its
# default of 100 packets would keep 0.2 s at 4 Mbit/s.  rtpbin's session
# passes the receiver's keyframe requests (PLI) up to x264enc, which sends
# a keyframe at once.
#
# No -e: with rtpbin's RTCP, gst-launch-1.0 -e sometimes waited for EOS
# indefinitely after Ctrl-C (examples/rtpbin-send.sh).
#
# BITRATE: the encoder's, kbit/s (default 4000).
#
# Usage: examples/twcc-send.sh [HOST] [PORT] [extra rtpburstpace properties,
#        e.g. congestion-control=tfrc or max-bitrate=6000000]
HOST=${1:-127.0.0.1}
PORT=${2:-5004}
BITRATE=${BITRATE:-4000}
# (dash exits on a shift past the last argument)
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
TWCC=http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
exec gst-launch-1.0 rtpbin name=rb \
  videotestsrc is-live=true pattern=smpte ! \
  video/x-raw,width=1280,height=720,framerate=25/1 ! \
  x264enc tune=zerolatency speed-preset=ultrafast bitrate="$BITRATE" key-int-max=50 ! \
  rtph264pay mtu=1200 config-interval=-1 pt=96 ! \
  "application/x-rtp,extmap-1=(string)$TWCC" ! \
  rtprtxsend payload-type-map="application/x-rtp-pt-map,96=(uint)97" \
    max-size-time=1000 max-size-packets=0 ! \
  rtpburstpace congestion-control=gcc "$@" ! rb.send_rtp_sink_0 \
  rb.send_rtp_src_0 ! udpsink host="$HOST" port="$PORT" \
  rb.send_rtcp_src_0 ! udpsink host="$HOST" port=$((PORT + 1)) sync=false async=false \
  udpsrc port=$((PORT + 5)) ! rb.recv_rtcp_sink_0
