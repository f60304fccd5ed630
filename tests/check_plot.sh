#!/bin/sh
# cli-plot: `--plot FILE.svg` of run and sweep, drawn by gnuplot.
# - run: an SVG whose title carries the run's P(T <= deadline), equal to the
#   JSON's to 4 decimals, and the deadline and closed-form markers' labels;
# - sweep: an SVG with the swept key, one legend entry per value of the
#   second key and the closed form's;
# - without gnuplot on the PATH: exit 2 before any simulation, with the
#   package to install, and no file; --plot naming the --json file, or
#   --plot with --target, or to a file not named .svg: exit 2, no file.
set -u
bin=$1
experiments=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
fail() { echo "cli-plot: $*" >&2; status=1; }
run="run $experiments/design-48-stress.json --quiet --force --replicas 400 --set deadline.days=27.05"

# shellcheck disable=SC2086
"$bin" $run --plot "$dir/run.svg" --json "$dir/run.json" >/dev/null || fail "run --plot failed"
grep -q '<svg' "$dir/run.svg" || fail "run: not an SVG"
p=$(sed -n 's/.*"probability":[[:space:]]*\([0-9.e+-]*\).*/\1/p' "$dir/run.json" | head -n 1)
want=$(awk -v p="$p" 'BEGIN { printf "%.4f", p }')
grep -q "P(T &lt;= 27.05 days) = $want \[" "$dir/run.svg" ||
  fail "run: the title does not carry P = $want (the JSON's $p)"
for label in 'deadline 27.05 days' 'closed form (Daly)' 'completion time T (days)'; do
  grep -q "$label" "$dir/run.svg" || fail "run: no '$label' in the picture"
done

"$bin" sweep "$experiments/design-48.json" --vary checkpoint.interval_s=900,1800,3600 \
  --vary job.cards=48,64 --replicas 50 --quiet --set failures=null --plot "$dir/sweep.svg" \
  >/dev/null || fail "sweep --plot failed"
for label in 'checkpoint.interval_s' 'job.cards = 48' 'job.cards = 64' 'closed form (Daly), dashed' \
             'deadline 30 days (outside the range)'; do
  grep -q "$label" "$dir/sweep.svg" || fail "sweep: no '$label' in the picture"
done

# no gnuplot: refused before the simulation, with exit 2 (found only when
# drawing, it would be exit 1 after the run)
# shellcheck disable=SC2086
PATH=/nonexistent "$bin" $run --plot "$dir/none.svg" >/dev/null 2>"$dir/err"
rc=$?
[ $rc -eq 2 ] || fail "without gnuplot: exit $rc, expected 2"
grep -q "needs gnuplot.*apt-get install gnuplot-nox" "$dir/err" || fail "without gnuplot: $(cat "$dir/err")"
[ -e "$dir/none.svg" ] && fail "without gnuplot: a file was written"
# shellcheck disable=SC2086
"$bin" $run --plot "$dir/same" --json "$dir/./same" >/dev/null 2>&1
rc=$?
{ [ $rc -eq 2 ] && [ ! -e "$dir/same" ]; } || fail "--plot and --json on one file: exit $rc"
"$bin" sweep "$experiments/design-48.json" --vary job.cards=32:64 \
  --target 'deadline.probability>=0.95' --plot "$dir/t.svg" >/dev/null 2>&1
rc=$?
{ [ $rc -eq 2 ] && [ ! -e "$dir/t.svg" ]; } || fail "--plot with --target: exit $rc"
# shellcheck disable=SC2086
"$bin" $run --plot "$dir/run.png" >/dev/null 2>"$dir/err"
rc=$?
{ [ $rc -eq 2 ] && [ ! -e "$dir/run.png" ] && grep -q 'must end in .svg' "$dir/err"; } ||
  fail "--plot run.png: exit $rc, expected 2 (SVG only): $(cat "$dir/err")"
ls "$dir" | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls "$dir")"
exit $status
