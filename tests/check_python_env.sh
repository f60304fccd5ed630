#!/bin/sh
# python-env: build/env.sh alone makes `import trainmc` this checkout's
# package with this build's library, in an empty environment whose home
# has no user site-packages (no trainmc.pth of any checkout); sourcing it
# twice adds python/ once and keeps a PYTHONPATH already set.
# Usage: check_python_env.sh BUILD/env.sh LIBRARY PYTHON_DIR
set -eu
envsh=$1
lib=$2
pydir=$3
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
out=$(env -i PATH=/usr/bin:/bin HOME="$home" PYTHONPATH=/elsewhere sh -c '
  . "$1" && . "$1" && echo "$PYTHONPATH" &&
  "$TRAINMC_PYTHON" -c "import os, trainmc
print(os.path.dirname(os.path.abspath(trainmc.__file__)))
print(trainmc.library_path())
print(trainmc.version())"' sh "$envsh")
expected=$(printf '%s\n%s\n%s\n' "$pydir:/elsewhere" "$pydir/trainmc" "$lib")
got=$(printf '%s\n' "$out" | head -n 3)
if [ "$got" != "$expected" ]; then
  printf 'expected:\n%s\ngot:\n%s\n' "$expected" "$out" >&2
  exit 1
fi
# the version line: the library answered
printf '%s\n' "$out" | sed -n 4p | grep -q '^0\.'
