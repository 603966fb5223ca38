#!/bin/sh
# Receives what send-raw.sh (raw) or send-h264.sh (h264) sends and shows it.
# Set SINK=fakesink to run without a display.
# Usage: examples/receive.sh raw|h264 [PORT]
SINK=${SINK:-autovideosink}
case "$1" in
  raw)
    PORT=${2:-5000}
    exec gst-launch-1.0 \
      udpsrc port="$PORT" caps="application/x-rtp,media=video,clock-rate=90000,encoding-name=RAW,sampling=YCbCr-4:2:2,depth=(string)8,width=(string)160,height=(string)96,colorimetry=BT601-5,payload=96" ! \
      rtpjitterbuffer latency=100 ! rtpvrawdepay ! videoconvert ! "$SINK"
    ;;
  h264)
    PORT=${2:-5002}
    exec gst-launch-1.0 \
      udpsrc port="$PORT" caps="application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96" ! \
      rtpjitterbuffer latency=100 ! rtph264depay ! avdec_h264 ! videoconvert ! "$SINK"
    ;;
  *)
    echo "usage: $0 raw|h264 [PORT]" >&2
    exit 2
    ;;
esac
