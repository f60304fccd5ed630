#!/bin/sh
# cli-install: `cmake --install` of a built tree (CMakeLists.txt's rules).
# - bin/trainmc, share/man/man1/trainmc.1 and
#   share/bash-completion/completions/trainmc land under a fresh prefix, and
#   the installed program runs (--version);
# - the page renders without a warning (man -l, else groff -man -Tutf8, else
#   that check is skipped with a message), and for every command that
#   `trainmc --help` lists, the page's "Options of trainmc CMD" has the same
#   long options as the options of `trainmc CMD --help`: both are printed
#   from the one table in src/cli/options.c, and none is missing;
# - the completion is valid bash; sourced, it completes `trainmc sw` to
#   sweep, `trainmc sweep --cs` to --csv, and `trainmc run` to *.json files.
# Usage: check_install.sh CMAKE BUILD_DIR
set -u
cmake=$1
build=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
fail() {
  echo "$*" >&2
  status=1
}

prefix=$dir/prefix
if ! "$cmake" --install "$build" --prefix "$prefix" >"$dir/install.log" 2>&1; then
  cat "$dir/install.log" >&2
  echo "cmake --install failed" >&2
  exit 1
fi
bin=$prefix/bin/trainmc
page=$prefix/share/man/man1/trainmc.1
completion=$prefix/share/bash-completion/completions/trainmc
for f in "$bin" "$page" "$completion"; do
  [ -f "$f" ] || fail "not installed: $f"
done
[ $status -eq 0 ] || exit 1
if ! "$bin" --version >"$dir/version" 2>&1 || ! grep -q '^trainmc [0-9]' "$dir/version"; then
  fail "the installed trainmc does not run: $(cat "$dir/version")"
fi

# ---- the man page ----
# The page as text in $dir/page.txt, the formatter's warnings in $dir/warnings.
if command -v man >/dev/null 2>&1; then
  MAN_KEEP_STDERR=1 MANWIDTH=100 MANPAGER=cat man --warnings=w -l "$page" \
    >"$dir/page.txt" 2>"$dir/warnings" || fail "man -l $page failed"
elif command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww -P-c -P-b -P-u "$page" >"$dir/page.txt" 2>"$dir/warnings" ||
    fail "groff -man $page failed"
else
  echo "neither man nor groff: the page's rendering is not checked" >&2
  # its options at least: text indented, section names at the left as man prints them
  sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e '/^\.SH /!s/^/   /' -e 's/^\.SH //' "$page" \
    >"$dir/page.txt"
  : >"$dir/warnings"
fi
if [ -s "$dir/warnings" ]; then
  fail "the man page renders with warnings:"
  cat "$dir/warnings" >&2
fi

# The --name tokens of standard input, one a line, sorted (a minus or hyphen
# sign that a formatter made of '-' counts as '-').
long_options() {
  sed -e 's/−/-/g' -e 's/‐/-/g' | grep -o -e '--[a-z][a-z0-9-]*' | LC_ALL=C sort -u
}

# The page's text under "Options of trainmc CMD", up to the next subsection
# or section (a line that starts with a capital).
man_section() {
  awk -v h="Options of trainmc $1" '
    { line = $0; sub(/^[ \t]*(\.SS[ \t]*)?"?/, "", line); sub(/"?[ \t]*$/, "", line) }
    line ~ /^Options of trainmc / { on = (line == h); next }
    /^[A-Z]/ { on = 0 }
    on' "$dir/page.txt"
}

# the commands: the first word of each line under "commands:" in trainmc --help
commands=$("$bin" --help |
  awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "no commands in trainmc --help"
for cmd in $commands; do
  "$bin" "$cmd" --help | sed '1,/^options:$/d' | long_options >"$dir/help-$cmd"
  man_section "$cmd" | long_options >"$dir/man-$cmd"
  if [ ! -s "$dir/help-$cmd" ]; then
    fail "trainmc $cmd --help lists no options"
  elif ! cmp -s "$dir/help-$cmd" "$dir/man-$cmd"; then
    fail "trainmc $cmd: the man page's options differ from --help's (<: --help only, >: man only):"
    diff "$dir/help-$cmd" "$dir/man-$cmd" | grep '^[<>]' >&2
  fi
done

# ---- the bash completion ----
bash -n "$completion" || fail "the completion is not valid bash"

# What the completion offers for the last of WORDS (in $dir/files), one a line.
complete_words() {
  (cd "$dir/files" && bash -c '. "$1" && shift && COMP_WORDS=("$@") &&
    COMP_CWORD=$(($# - 1)) && _trainmc && printf "%s\n" "${COMPREPLY[@]}"' sh "$completion" "$@")
}
# expect WANT WORDS...
expect() {
  want=$1
  shift
  got=$(complete_words "$@" | LC_ALL=C sort | tr '\n' ' ')
  [ "$got" = "$want " ] || fail "completing '$*' gave '$got', not '$want'"
}
mkdir -p "$dir/files/folder" && : >"$dir/files/a.json" && : >"$dir/files/b.csv"
expect sweep trainmc sw
expect --csv trainmc sweep --cs
expect "a.json folder" trainmc run ""
expect "a.json b.csv folder" trainmc run --json ""
expect "" trainmc sweep --vary ""

[ $status -eq 0 ] && echo "install: program, man page and completion under $prefix: ok"
exit $status
