#!/bin/sh
# invalid-NAME: trainmc must refuse tests/invalid/NAME/experiment.json with
# exit code 2 and exactly the message in tests/invalid/NAME/expected, and
# must leave no output file behind. Paths in messages are relative to the
# case folder, so the test runs there. An optional file `command` names the
# subcommand (default: run).
set -u
bin=$1
dir=$2
cd "$dir" || exit 1
args=""
[ -f args ] && args=$(cat args)
command=run
[ -f command ] && command=$(cat command)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086
"$bin" "$command" experiment.json --quiet --json "$out/result.json" $args >"$out/stdout" 2>"$out/stderr"
rc=$?
status=0
if [ "$rc" -ne 2 ]; then
  echo "exit code $rc, expected 2" >&2
  status=1
fi
if ! diff -u expected "$out/stderr" >&2; then
  status=1
fi
if [ -n "$(ls -A "$out" | grep -v -e '^stdout$' -e '^stderr$')" ]; then
  echo "an output file was left behind: $(ls "$out")" >&2
  status=1
fi
exit $status
