#!/usr/bin/python3
"""docs/reference.md's table of stats fields, made from the element itself.

The fields of rtpburstpace's `stats` structure are defined once, in
gst/gstrtpburststats.c; the element describes them in its stats property
(what gst-inspect-1.0 prints): one line "name (type): meaning" per field.
This script turns that description into the Markdown table between the
`<!-- stats:begin -->` and `<!-- stats:end -->` lines of docs/reference.md.

    GST_PLUGIN_PATH=build/gst /usr/bin/python3 scripts/stats-doc.py          # print
    GST_PLUGIN_PATH=build/gst /usr/bin/python3 scripts/stats-doc.py --write  # update the doc
    GST_PLUGIN_PATH=build/gst /usr/bin/python3 scripts/stats-doc.py --check  # exit 1 if stale

Exit 77 without PyGObject or the plugin.
"""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = os.path.join(ROOT, "docs", "reference.md")
BEGIN, END = "<!-- stats:begin -->", "<!-- stats:end -->"


def table():
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    element = Gst.ElementFactory.make("rtpburstpace", None)
    if element is None:
        return None
    blurb = element.find_property("stats").blurb
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for line in blurb.split("\n")[1:]:
        m = re.match(r"(\S+) \((\w+)\): (.*)$", line)
        if not m:
            raise SystemExit("cannot read the stats description line %r" % line)
        rows.append("| `%s` | %s | %s |" % m.groups())
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        t = table()
    except (ImportError, ValueError) as e:
        print("skipped: %s" % e)
        return 77
    if t is None:
        print("skipped: rtpburstpace not found (GST_PLUGIN_PATH)")
        return 77
    if not (a.write or a.check):
        sys.stdout.write(t)
        return 0
    doc = open(DOC, encoding="utf-8").read()
    i, j = doc.find(BEGIN), doc.find(END)
    if i < 0 or j < i:
        print("%s has no %s ... %s section" % (DOC, BEGIN, END))
        return 1
    new = doc[:i + len(BEGIN)] + "\n" + t + doc[j:]
    if a.check:
        if new != doc:
            print("docs/reference.md's stats table differs from the element's "
                  "description: run scripts/stats-doc.py --write")
            return 1
        print("docs/reference.md's stats table matches the element")
        return 0
    open(DOC, "w", encoding="utf-8").write(new)
    print("wrote", DOC)
    return 0


if __name__ == "__main__":
    sys.exit(main())
