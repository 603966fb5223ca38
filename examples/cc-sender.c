/* cc-sender HOST PORT SECONDS: H.264 over RTP to HOST:PORT (RTCP to PORT+1,
 * back on PORT+5) for SECONDS, rtpburstpace's congestion control reading
 * the receiver's transport-wide congestion control (TWCC) feedback, the
 * encoder following its estimate.  Prints each bit rate it sets.  The caps
 * after the payloader make it send the TWCC header extension; the
 * receiver's caps need the same extmap-1 for its rtpbin to send feedback. */
#include <stdlib.h>
#include <gst/gst.h>

#define LAUNCH "rtpbin name=rb  videotestsrc is-live=true ! video/x-raw," \
  "width=640,height=360,framerate=25/1 ! x264enc name=enc tune=zerolatency " \
  "bitrate=4000 ! rtph264pay pt=96 mtu=1200 ! application/x-rtp,extmap-1=" \
  "(string)http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-" \
  "extensions-01 ! rtpburstpace name=pace congestion-control=gcc ! " \
  "rb.send_rtp_sink_0  rb.send_rtp_src_0 ! udpsink host=%s port=%d  " \
  "rb.send_rtcp_src_0 ! udpsink host=%s port=%d sync=false async=false  " \
  "udpsrc port=%d ! rb.recv_rtcp_sink_0"

/* In the thread that brought the feedback; x264enc takes the new rate at
 * its next frame.  85 % of the estimate: room for retransmissions and for
 * x264's overshoot above its target, which would run into the element's
 * cap (the estimate); never above the 4000 kbit/s configured. */
static void
on_estimate (GObject * pace, GParamSpec * pspec, GstElement * encoder)
{
  guint64 estimate;
  guint kbps;

  g_object_get (pace, "estimated-bitrate", &estimate, NULL);
  kbps = CLAMP (estimate * 85 / 100 / 1000, 1, 4000);
  g_object_set (encoder, "bitrate", kbps, NULL);
  g_print ("estimate %" G_GUINT64_FORMAT " bit/s: bitrate %u kbit/s\n",
      estimate, kbps);
}

int
main (int argc, char **argv)
{
  GstElement *pipeline, *pace, *encoder;
  GstMessage *msg;
  gchar *line;

  gst_init (&argc, &argv);
  if (argc != 4)
    g_error ("usage: cc-sender HOST PORT SECONDS");
  line = g_strdup_printf (LAUNCH, argv[1], atoi (argv[2]), argv[1],
      atoi (argv[2]) + 1, atoi (argv[2]) + 5);
  pipeline = gst_parse_launch (line, NULL);
  g_free (line);
  if (pipeline == NULL)
    g_error ("cannot build the pipeline (is rtpburstpace installed?)");
  pace = gst_bin_get_by_name (GST_BIN (pipeline), "pace");
  encoder = gst_bin_get_by_name (GST_BIN (pipeline), "enc");
  g_signal_connect (pace, "notify::estimated-bitrate",
      G_CALLBACK (on_estimate), encoder);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      atoi (argv[3]) * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (encoder);
  gst_object_unref (pace);
  gst_object_unref (pipeline);
  if (msg == NULL)
    return 0;
  gst_message_unref (msg);
  return 1;
}
