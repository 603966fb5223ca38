"""GStreamer's Python bindings for the senders tests, or exit 77 (skipped) without them.

Importing this module takes rtpburstpace from build/gst of this checkout when GST_PLUGIN_PATH
is not set (meson test sets it), and imports Gst and GLib; without PyGObject or the GStreamer
typelibs it prints why and exits with SKIP.  Run the tests with Debian's /usr/bin/python3.
"""
import os
import sys

SKIP = 77
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

if not os.environ.get("GST_PLUGIN_PATH"):
    os.environ["GST_PLUGIN_PATH"] = os.path.join(ROOT, "build", "gst")

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, Gst  # noqa: F401
except (ImportError, ValueError) as e:
    print("SKIP: no GStreamer Python bindings (%s); run with Debian's "
          "/usr/bin/python3 and python3-gi, python3-gst-1.0" % e)
    sys.exit(SKIP)


def unavailable(needed):
    """Gst.init()s and checks the elements a test needs: SKIP (with a line
    naming them) when one of NEEDED is missing, 1 (FAIL) when rtpburstpace
    itself is, None when the test can run."""
    Gst.init(None)
    missing = [n for n in needed if Gst.ElementFactory.find(n) is None]
    if missing:
        print("SKIP: GStreamer elements missing: %s" % ", ".join(missing))
        return SKIP
    if Gst.ElementFactory.find("rtpburstpace") is None:
        print("FAIL: rtpburstpace not found (GST_PLUGIN_PATH=%s)"
              % os.environ.get("GST_PLUGIN_PATH"))
        return 1
    return None
