#!/bin/sh
# Ten seconds of two H.264 cameras paced as one group under a 4 Mbit/s
# group-max-rate, the second also under max-rate with overload=drop, with
# the element's log at GST_DEBUG=rtpburstpace:6: every decision of the
# pacing thread and why (docs/reading-the-log.md reads one).
# Usage: examples/log-decisions.sh [LOG-FILE] [HOST] [SECONDS]
LOG=${1:-rtpburstpace.log}
HOST=${2:-127.0.0.1}
FRAMES=$(( ${3:-10} * 25 ))
CAM="video/x-raw,width=640,height=360,framerate=25/1 ! \
  x264enc tune=zerolatency speed-preset=ultrafast bitrate=3000 key-int-max=50 ! \
  rtph264pay mtu=1200 config-interval=-1"
GST_DEBUG=rtpburstpace:6 GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE="$LOG" \
exec gst-launch-1.0 -q \
  videotestsrc is-live=true num-buffers=$FRAMES pattern=ball ! $CAM ! \
  rtpburstpace name=cam1 group=cams group-max-rate=4000000 ! \
  udpsink host="$HOST" port=5004 \
  videotestsrc is-live=true num-buffers=$FRAMES pattern=smpte ! $CAM ! \
  rtpburstpace name=cam2 group=cams group-max-rate=4000000 \
    max-rate=3000000 max-delay=40000000 overload=drop ! \
  udpsink host="$HOST" port=5006
