#!/bin/sh
# Raw video, ~6 Mbit/s (30 packets of ~1000 B per 40 ms frame), paced by
# rtpburstpace: one packet every 1.2 ms instead of 30 at once.
# Usage: examples/send-raw.sh [HOST] [PORT] [extra rtpburstpace properties]
HOST=${1:-127.0.0.1}
PORT=${2:-5000}
# the rest are rtpburstpace properties (dash exits on a shift past the
# last argument)
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
exec gst-launch-1.0 -e \
  videotestsrc is-live=true pattern=ball ! \
  video/x-raw,format=UYVY,width=160,height=96,framerate=25/1 ! \
  rtpvrawpay mtu=1028 ! \
  rtpburstpace burst-size=1 duty=0.9 "$@" ! \
  udpsink host="$HOST" port="$PORT" sync=false
