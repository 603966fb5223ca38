#!/usr/bin/env bash
# The C style check: every gst/*.c and examples/*.c file is unchanged by
# scripts/gst-indent, and no line of them or of gst/*.h is longer than 80
# columns.  Lists what
# differs; exit 1 then.  Files may be named instead (paths from the top).
#
# Exit 77 (skipped) without GNU indent 2.2.12, the version GStreamer formats
# with (Debian 12's `indent`; scripts/setup.sh installs it): another version
# formats some constructs differently and would report files it did not
# write.
set -uo pipefail
cd "$(dirname "$0")/.."

version=$(indent --version 2>/dev/null)
if [ "$version" != "GNU indent 2.2.12" ]; then
  echo "skipped: needs GNU indent 2.2.12, found '${version:-none}'"
  exit 77
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  files=(gst/*.c gst/*.h examples/*.c)
fi

tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"' EXIT
status=0
for f in "${files[@]}"; do
  case "$f" in
    *.c)
      cp "$f" "$tmpdir/file.c"
      scripts/gst-indent "$tmpdir/file.c" || exit 1
      if ! diff -u --label "$f" --label "$f (gst-indent)" \
          "$f" "$tmpdir/file.c" >"$tmpdir/diff"; then
        echo "$f: not as gst-indent formats it (scripts/gst-indent $f):"
        head -n 40 "$tmpdir/diff"
        status=1
      fi
      ;;
  esac
  # columns, not bytes: the doc comments have non-ASCII characters
  long=$(expand "$f" | LC_ALL=C.UTF-8 grep -n '.\{81\}' | cut -d: -f1 |
    tr '\n' ' ')
  if [ -n "$long" ]; then
    echo "$f: lines over 80 columns: $long"
    status=1
  fi
done
[ $status -eq 0 ] && echo "style: ${#files[@]} files as gst-indent formats them, within 80 columns"
exit $status
