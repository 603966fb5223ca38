# Shell functions shared by the scripts that make Debian chroots with
# debootstrap (scripts/run-tests-trixie.sh, scripts/test-install.sh).
# Sourced, not run; bash.

# "URI SUITE" of every deb source of the host's apt configuration (one-line
# and deb822 formats).
host_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++;
                       if ($2 ~ /^\[/) i++; print $i, $(i + 1) }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'function flush() { if (deb && uris != "") { n = split(uris, u, " ");
                              m = split(suites, s, " ");
                              for (a = 1; a <= n; a++) for (b = 1; b <= m; b++)
                                print u[a], s[b] }
                            deb = 0; uris = ""; suites = "" }
         /^[ \t]*$/ { flush(); next }
         tolower($1) == "types:" { deb = ($0 ~ /[ \t]deb([ \t]|$)/) }
         tolower($1) == "uris:" { $1 = ""; uris = $0 }
         tolower($1) == "suites:" { $1 = ""; suites = $0 }
         END { flush() }' "$f"
  done
}

# The host's Debian mirror: the first deb source of a release that is not a
# -security suite (a local mirror or proxy the host's apt sources name is
# then what the chroot uses too); "" if there is none.
host_mirror() {
  host_sources | awk '$2 !~ /-security$/ { print $1; exit }'
}

# The host's source of security updates: its first -security deb source, or
# "".
host_security() {
  host_sources | awk '$2 ~ /-security$/ { print $1; exit }'
}

# copy_source_tree ROOT DEST [SKIP]: copies the source tree ROOT into the
# existing directory DEST without .git, as a release tarball would have it:
# the files git knows and the new ones it does not ignore, as they are now
# (committed or not), or, without git, the tree less its build directories.
# SKIP, a directory (a chroot kept in the tree), is left out with its SKIP.*
# siblings.  Sets $how to a description of what it copied.
copy_source_tree() {
  local root=$1 dest=$2 skip=${3:-} rel top exclude
  rel=""
  if [ -n "$skip" ]; then
    rel=${skip#"$root"/}
    if [ "$rel" = "$skip" ]; then rel=""; fi   # SKIP is outside the tree
  fi
  top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)
  if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$root" ]; then
    how="the work tree of $(git -C "$root" describe --always --dirty)"
    exclude=()
    [ -z "$rel" ] || exclude=(":(exclude)$rel" ":(exclude,glob)$rel.*")
    git -C "$root" ls-files -z --cached --others --exclude-standard -- . \
        "${exclude[@]}" |
      while IFS= read -r -d '' f; do
        # not the files deleted but not committed
        [ -e "$root/$f" ] || [ -L "$root/$f" ] || continue
        printf '%s\0' "$f"
      done |
      tar -C "$root" --null --no-recursion -T - -cf - | tar -C "$dest" -xf - ||
      return 1
  else
    how="a tree without git (build directories left out)"
    exclude=(--exclude=./.git --exclude=./build --exclude='./build-*'
             --exclude=./builddir)
    [ -z "$rel" ] || exclude+=(--exclude="./$rel" --exclude="./$rel.*")
    tar -C "$root" "${exclude[@]}" -cf - . | tar -C "$dest" -xf - || return 1
  fi
}
