#!/usr/bin/python3
"""The plugin's documentation cache, docs/plugins/gst_plugins_cache.json.

GStreamer documents its plugins from a `gst_plugins_cache.json` made by
`gst-hotdoc-plugins-scanner` (GStreamer's docs/ directory), which loads the
built plugin and writes what the registry and the GObject type system say:
elements, rank, metadata, type hierarchy, properties (flags, blurb,
default, range), signals, pad templates and the enum and flags types marked
as plugin API.  Debian 12 does not ship that scanner, so this script writes
the same fields, in the same format, with PyGObject (Debian's python3-gi):
the cache hotdoc's GStreamer extension reads, and a record of the element's
interface that a test keeps current.

    /usr/bin/python3 scripts/plugins-cache.py build/gst/libgstrtpburstpace.so
        # writes docs/plugins/gst_plugins_cache.json
    /usr/bin/python3 scripts/plugins-cache.py --check build/gst/libgstrtpburstpace.so OUT
        # writes OUT, exit 1 if it differs from the committed cache

Exit 77 without PyGObject.
"""
import argparse
import difflib
import json
import os
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CACHE = os.path.join(ROOT, "docs", "plugins", "gst_plugins_cache.json")

# GParamFlags and GstParamFlags bits (G_PARAM_USER_SHIFT is 8).
READABLE, WRITABLE, CONSTRUCT, CONSTRUCT_ONLY = 1, 2, 4, 8
CONTROLLABLE = 1 << 9
MUTABLE_READY, MUTABLE_PAUSED, MUTABLE_PLAYING = 1 << 10, 1 << 11, 1 << 12
DOC_SHOW_DEFAULT = 1 << 13
CONDITIONALLY_AVAILABLE = 1 << 14


def esc(s):
    """What the scanner's json_strescape does beyond JSON: it doubles '%'
    (and writes NULL for a NULL string)."""
    return "NULL" if s is None else s.replace("%", "%%")


def i32(v):
    """The scanner prints guint values with %d."""
    return v - (1 << 32) if v >= 1 << 31 else v


def rank_name(rank):
    ranks = [(0, "none"), (64, "marginal"), (128, "secondary"), (256, "primary")]
    best = ranks[0]
    for value, name in ranks:
        if rank == value:
            return name
        if abs(rank - value) < abs(rank - best[0]):
            best = (value, name)
    return "%s %c %d" % (best[1], "+" if rank - best[0] > 0 else "-",
                         abs(best[0] - rank))


class Scanner:
    def __init__(self, Gst, GObject):
        self.Gst, self.GObject = Gst, GObject
        self.other_types = {}

    def enum_type(self, gtype, api_flags):
        GObject = self.GObject
        entry = {"kind": "enum"}
        if int(api_flags) & int(self.Gst.PluginAPIFlags.MEMBERS):
            entry["ignore-enum-members"] = True
        else:
            entry["values"] = [{"name": esc(nick), "value": "%d" % value,
                                "desc": esc(name)}
                               for value, nick, name in self.enum_values(gtype)]
        return entry

    @staticmethod
    def py_class(gtype, enum):
        if gtype.pytype is not None:
            return gtype.pytype
        from gi import _gi
        return _gi.enum_add(gtype) if enum else _gi.flags_add(gtype)

    def enum_values(self, gtype):
        """(value, nick, name) of every member, in declaration order."""
        cls = self.py_class(gtype, True)
        return [(value, m.value_nick, m.value_name)
                for value, m in cls.__enum_values__.items()]

    def flags_values(self, gtype):
        cls = self.py_class(gtype, False)
        return [(value, m.first_value_nick, m.first_value_name)
                for value, m in cls.__flags_values__.items()]

    def flags_type(self, gtype):
        return {"kind": "flags",
                "values": [{"name": esc(nick), "value": "0x%08x" % value,
                            "desc": esc(name)}
                           for value, nick, name in self.flags_values(gtype)]}

    def note_type(self, gtype):
        name = gtype.name
        if name in self.other_types:
            return
        ok, flags = self.Gst.type_is_plugin_api(gtype)
        if not ok:
            return
        if gtype.is_a(self.GObject.TYPE_ENUM):
            self.other_types[name] = self.enum_type(gtype, flags)
        elif gtype.is_a(self.GObject.TYPE_FLAGS):
            self.other_types[name] = self.flags_type(gtype)
        else:
            raise SystemExit("plugin API type %s: only enums and flags are "
                             "written" % name)

    def default(self, spec, element):
        """The scanner's "default" (and "min"/"max") of a property: its
        value on a new element when readable, else the spec's default."""
        Gst, GObject = self.Gst, self.GObject
        flags = int(spec.flags)
        if flags & READABLE and not flags & DOC_SHOW_DEFAULT:
            value = element.get_property(spec.name)
        else:
            value = spec.get_default_value()
        t = spec.value_type
        if t == GObject.TYPE_STRING:
            return {"default": esc(value)}
        if t == GObject.TYPE_BOOLEAN:
            return {"default": "true" if value else "false"}
        if t in (GObject.TYPE_UINT, GObject.TYPE_INT):
            f = i32 if t == GObject.TYPE_UINT else int
            return {"default": "%d" % f(value), "min": "%d" % f(spec.minimum),
                    "max": "%d" % f(spec.maximum)}
        if t in (GObject.TYPE_UINT64, GObject.TYPE_INT64):
            return {"default": "%d" % (value % (1 << 64)),
                    "min": "%d" % spec.minimum, "max": "%d" % spec.maximum}
        if t in (GObject.TYPE_DOUBLE, GObject.TYPE_FLOAT):
            return {"default": "%g" % value, "min": "%g" % spec.minimum,
                    "max": "%g" % spec.maximum}
        if t == Gst.Structure.__gtype__:
            return {"default": esc(value.to_string())} if value else {}
        if t == Gst.Caps.__gtype__:
            return {"default": esc(value.to_string())} if value else {}
        if t.is_a(GObject.TYPE_ENUM):
            v = int(value)
            nick = ""
            for num, n, _ in self.enum_values(t):
                if num == v:
                    nick = esc(n)
                    break
            return {"default": "%s (%d)" % (nick, v)}
        if t.is_a(GObject.TYPE_FLAGS):
            v = int(value)
            members = self.flags_values(t)
            for num, n, _ in members:
                if num == v:
                    return {"default": n}
            parts, left = [], v
            for num, n, _ in reversed(members):
                if num and left & num == num:
                    parts.append(n)
                    left -= num
                    if not left:
                        break
            return {"default": "+".join(parts) or "(none)"}
        raise SystemExit("property %s: type %s not handled" % (spec.name, t.name))

    def properties(self, element, gtype):
        out = {}
        for spec in element.list_properties():
            if spec.owner_type != gtype:
                continue
            flags = int(spec.flags)
            if flags & MUTABLE_PLAYING:
                mutable = "playing"
            elif flags & MUTABLE_PAUSED:
                mutable = "paused"
            elif flags & MUTABLE_READY:
                mutable = "ready"
            else:
                mutable = "null"
            p = {
                "construct-only": bool(flags & CONSTRUCT_ONLY),
                "construct": bool(flags & CONSTRUCT),
                "readable": bool(flags & READABLE),
                "writable": bool(flags & WRITABLE),
                "blurb": esc(spec.blurb),
                "controllable": bool(flags & CONTROLLABLE),
                "conditionally-available": bool(flags & CONDITIONALLY_AVAILABLE),
                "mutable": mutable,
                "type": spec.value_type.name,
            }
            self.note_type(spec.value_type)
            p.update(self.default(spec, element))
            out[spec.name] = p
        return out

    def signals(self, gtype):
        GObject = self.GObject
        out = {}
        for sid in GObject.signal_list_ids(gtype):
            q = GObject.signal_query(sid)
            for t in list(q.param_types) + [q.return_type]:
                self.note_type(t)
            s = {"args": [{"name": "arg%u" % j, "type": t.name}
                          for j, t in enumerate(q.param_types)],
                 "return-type": q.return_type.name}
            f = int(q.signal_flags)
            SF = GObject.SignalFlags
            if f & int(SF.RUN_FIRST):
                s["when"] = "first"
            elif f & int(SF.RUN_LAST):
                s["when"] = "last"
            elif f & int(SF.RUN_CLEANUP):
                s["when"] = "cleanup"
            for flag, key in ((SF.NO_RECURSE, "no-recurse"),
                              (SF.DETAILED, "detailed"), (SF.ACTION, "action"),
                              (SF.NO_HOOKS, "no-hooks")):
                if f & int(flag):
                    s[key] = True
            out[q.signal_name] = s
        return out

    def caps(self, caps):
        if caps.is_any():
            return "ANY"
        if caps.is_empty():
            return "EMPTY"
        text = ""
        for i in range(caps.get_size()):
            s = caps.get_structure(i)
            f = caps.get_features(i)
            sysmem = self.Gst.CapsFeatures.from_string(
                self.Gst.CAPS_FEATURE_MEMORY_SYSTEM_MEMORY)
            if f and (f.is_any() or not f.is_equal(sysmem)):
                text += "%s%s(%s):\n" % ("\n" if i else "", s.get_name(),
                                          f.to_string())
            else:
                text += "%s:\n" % s.get_name()
            if s.n_fields():
                # the scanner prints each field with gst_value_serialize;
                # the element's templates have none, so none is written
                raise SystemExit("caps fields are not written: %s" % s.to_string())
        return esc(text)

    def pad_templates(self, element, factory):
        out = {}
        for st in factory.get_static_pad_templates():
            tmpl = element.get_pad_template(st.name_template)
            d = {"caps": self.caps(tmpl.get_documentation_caps()),
                 "direction": {self.Gst.PadDirection.SRC: "src",
                               self.Gst.PadDirection.SINK: "sink"}.get(
                                   st.direction, "unknown"),
                 "presence": {self.Gst.PadPresence.ALWAYS: "always",
                              self.Gst.PadPresence.SOMETIMES: "sometimes",
                              self.Gst.PadPresence.REQUEST: "request"}.get(
                                  st.presence, "unknown")}
            pad_type = tmpl.props.gtype
            if pad_type not in (self.GObject.TYPE_NONE, self.Gst.Pad.__gtype__):
                d["type"] = pad_type.name
            out[st.name_template.replace("%", "%%")] = d
        return out

    def element(self, factory):
        GObject = self.GObject
        element = factory.create(None)
        if element is None:
            raise SystemExit("could not make %s" % factory.get_name())
        gtype = element.__gtype__
        e = {"rank": rank_name(factory.get_rank())}
        for key in factory.get_metadata_keys():
            # the scanner leaves out long-name, which may vary
            if key != "long-name":
                e[key] = esc(factory.get_metadata(key))
        hierarchy, t = [], gtype
        while True:
            hierarchy.append(t.name)
            if t in (GObject.TYPE_OBJECT, GObject.TYPE_INTERFACE):
                break
            t = t.parent
        e["hierarchy"] = hierarchy
        interfaces = [i.name for i in gtype.interfaces]
        if interfaces:
            e["interfaces"] = interfaces
        props = self.properties(element, gtype)
        if props:
            e["properties"] = props
        sigs = self.signals(gtype)
        if sigs:
            e["signals"] = sigs
        pads = self.pad_templates(element, factory)
        if pads:
            e["pad-templates"] = pads
        return e


def scan(path, registry_dir):
    # only the plugin given, whatever the caller's environment: a registry
    # of its own and no other plugin
    os.environ["GST_REGISTRY"] = os.path.join(registry_dir, "registry.bin")
    os.environ["GST_PLUGIN_SYSTEM_PATH_1_0"] = ""
    os.environ["GST_PLUGIN_PATH_1_0"] = ""
    os.environ.pop("GST_PLUGIN_PATH", None)
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
    Gst.init(None)
    plugin = Gst.Plugin.load_file(os.path.abspath(path))
    base = os.path.basename(path).split(".", 1)[0]
    scanner = Scanner(Gst, GObject)
    elements, tracers = {}, {}
    features = Gst.Registry.get().get_feature_list_by_plugin(plugin.get_name())
    for feature in features:
        if isinstance(feature, Gst.ElementFactory):
            if not feature.get_skip_documentation():
                elements[feature.get_name()] = scanner.element(feature)
        elif isinstance(feature, Gst.TracerFactory):
            tracers[feature.get_name()] = {}
    return {plugin.get_name(): {
        "description": plugin.get_description(),
        "filename": base[3:] if base.startswith("lib") else base,
        "source": plugin.get_source(),
        "package": plugin.get_package(),
        "license": plugin.get_license(),
        "url": plugin.get_origin(),
        "elements": elements,
        "tracers": tracers,
        "other-types": scanner.other_types,
    }}


def dump(cache):
    # as gst-plugins-doc-cache-generator.py writes it
    return json.dumps(cache, indent=4, sort_keys=True, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write OUT and compare it with the committed cache")
    ap.add_argument("plugin", help="the built plugin (libgstrtpburstpace.so)")
    ap.add_argument("out", nargs="?", default=CACHE)
    a = ap.parse_args()
    try:
        with tempfile.TemporaryDirectory() as registry_dir:
            text = dump(scan(a.plugin, registry_dir))
    except (ImportError, ValueError) as e:
        print("skipped: %s" % e)
        return 77
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", newline="\n", encoding="utf-8") as f:
        f.write(text)
    if not a.check:
        print("wrote", a.out)
        return 0
    try:
        with open(CACHE, newline="\n", encoding="utf-8") as f:
            committed = f.read()
    except FileNotFoundError:
        committed = ""
    if committed == text:
        print("%s matches the built plugin" % os.path.relpath(CACHE, ROOT))
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        committed.splitlines(True), text.splitlines(True),
        "docs/plugins/gst_plugins_cache.json", a.out))
    print("\nThe plugin's interface differs from docs/plugins/"
          "gst_plugins_cache.json: if the change is meant, run\n"
          "  /usr/bin/python3 scripts/plugins-cache.py "
          "build/gst/libgstrtpburstpace.so\nand commit the cache.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
