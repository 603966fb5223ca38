#!/bin/sh
# H.264 at ~4 Mbit/s with a keyframe every 50 frames; the frame period comes
# from the a-framerate that rtph264pay puts in the caps.
# Usage: examples/send-h264.sh [HOST] [PORT] [extra rtpburstpace properties]
HOST=${1:-127.0.0.1}
PORT=${2:-5002}
# the rest are rtpburstpace properties (dash exits on a shift past the
# last argument)
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
exec gst-launch-1.0 -e \
  videotestsrc is-live=true pattern=smpte ! \
  video/x-raw,width=1280,height=720,framerate=25/1 ! \
  x264enc tune=zerolatency speed-preset=ultrafast bitrate=4000 key-int-max=50 ! \
  rtph264pay mtu=1200 config-interval=-1 ! \
  rtpburstpace "$@" ! \
  udpsink host="$HOST" port="$PORT" sync=false
