#!/bin/sh
# Receives what examples/twcc-send.sh sends, sends the transport-wide
# congestion control (TWCC) feedback its rtpburstpace congestion-control
# needs, and repairs losses: retransmission requests (NACK) and keyframe
# requests (PLI).  RTP on PORT, the sender's RTCP on PORT+1, RTCP back to
# SENDER:PORT+5.
#
# rtpbin takes an rtprtxreceive only from its request-aux-receiver signal
# (an application: examples/receive-video), so this line builds what rtpbin
# would hold from its parts, in rtpbin's order:
#
#   udpsrc ! rtpsession ! rtprtxreceive ! rtpssrcdemux ! rtpjitterbuffer
#     ! rtpptdemux ! rtph264depay ! avdec_h264 ...
#
# - The udpsrc caps carry extmap-1 = the TWCC header extension, as the
#   sender's do: the rtpsession then reports every packet's arrival, the
#   retransmissions' too.  rtp-profile=avpf lets it send a report with each
#   frame, and NACKs and PLIs at once (with the default avp the first report
#   came 1.3 to 3 s after the start, later ones several frames' worth at a
#   time).  rtcp-min-interval (ns) and bandwidth (bit/s; RTCP may use 5 % of
#   it) let it send an RTCP packet every 50 ms: the TWCC reports use the
#   early packets AVPF allows, and with the defaults a NACK waited for the
#   next regular one, after the jitterbuffer had given the packet up.
#   rtcp-fb-nack-pli in the caps lets the session turn a keyframe request
#   into a PLI.
# - rtprtxreceive turns the retransmissions (payload type 97, their own SSRC)
#   back into the packets they carry.  It learns which SSRC carries whose
#   retransmissions from the requests it sees pass upstream, so it sits
#   between the session and the jitterbuffer.
# - rtpssrcdemux and rtpptdemux pass the packets through (one sender, one
#   payload type); they are there because the session sends a NACK or a
#   PLI only for an upstream request that names the SSRC (the jitterbuffer's
#   requests do not) and the payload type (the depayloader's do not): the
#   demuxers add them, as they do in rtpbin.
# - rtpjitterbuffer do-retransmission=true asks for each missing packet
#   (LATENCY ms, default 200, is the time the repair has); asking again
#   after 10 ms at the soonest (rtx-min-retry-timeout; by default the frame
#   period, 40 ms, leaves fewer tries) and not for packets that are only
#   later than the packet spacing predicts (rtx-next-seqnum=false: the
#   element spreads a frame on purpose).
# - rtph264depay request-keyframe=true asks for a keyframe (PLI) when a loss
#   was not repaired, and once at the start; the encoder answers at once.
#
# Set SINK=fakesink to run without a display.
#
# Usage: examples/twcc-receive.sh [SENDER] [PORT]
SENDER=${1:-127.0.0.1}
PORT=${2:-5004}
LATENCY=${LATENCY:-200}
SINK=${SINK:-autovideosink}
TWCC=http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
# shellcheck disable=SC2086  # SINK may carry properties
exec gst-launch-1.0 -e \
  rtpsession name=s rtp-profile=avpf rtcp-min-interval=50000000 bandwidth=4000000 \
  udpsrc port="$PORT" \
    caps="application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96,rtcp-fb-nack-pli=(boolean)true,extmap-1=(string)$TWCC" ! \
    s.recv_rtp_sink \
  s.recv_rtp_src ! \
    rtprtxreceive payload-type-map="application/x-rtp-pt-map,96=(uint)97" ! \
    rtpssrcdemux ! \
    rtpjitterbuffer latency="$LATENCY" do-retransmission=true \
      rtx-min-retry-timeout=10 rtx-next-seqnum=false ! \
    rtpptdemux ! rtph264depay request-keyframe=true ! avdec_h264 ! videoconvert ! $SINK \
  udpsrc port=$((PORT + 1)) caps=application/x-rtcp ! s.recv_rtcp_sink \
  s.send_rtcp_src ! udpsink host="$SENDER" port=$((PORT + 5)) sync=false async=false
