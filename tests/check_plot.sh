#!/bin/sh
# cli-plot: `--plot FILE.svg` of run and sweep, drawn by gnuplot.
# - run: an SVG whose title carries the run's P(T <= deadline), equal to the
#   JSON's to 4 decimals, and the deadline and closed-form markers' labels;
# - sweep: an SVG with the swept key, one legend entry per value of the
#   second key and the closed form's;
# - without gnuplot on the PATH: exit 2 before any simulation, with the
#   package to install, and no file; --plot naming the --json file, or
#   --plot with --target, or to a file not named .svg: exit 2, no file;
# - user text cannot reach gnuplot as a command: an experiment name with a
#   backquoted command and quotes draws, and the command does not run; a
#   file named '|touch X.svg' is a file, not a pipe;
# - a gnuplot that exits 0 without drawing (or a full disk): exit 1, no file.
set -u
bin=$1
experiments=$(cd "$2" && pwd)
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
# shellcheck disable=SC2016
"$bin" $run --set 'name="a`touch '"$dir"'/ran`b\"c"' --plot "$dir/name.svg" >/dev/null 2>&1 ||
  fail "a name with quotes and a backquote: the plot failed"
[ -e "$dir/ran" ] && fail "a backquoted command in the experiment's name ran"
grep -q 'a?touch' "$dir/name.svg" || fail "the name's unsafe characters are not shown as ?"
(cd "$dir" && "$bin" $run --plot '|touch piped.svg' >/dev/null 2>&1) || fail "--plot '|touch piped.svg' failed"
{ [ -s "$dir/|touch piped.svg" ] && [ ! -e "$dir/piped.svg" ]; } ||
  fail "--plot '|touch piped.svg' was taken as a command"
mkdir "$dir/fake"
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' >"$dir/fake/gnuplot"
chmod +x "$dir/fake/gnuplot"
# shellcheck disable=SC2086
PATH="$dir/fake:$PATH" "$bin" $run --plot "$dir/empty.svg" >/dev/null 2>"$dir/err"
rc=$?
{ [ $rc -eq 1 ] && [ ! -e "$dir/empty.svg" ] && grep -q 'incomplete' "$dir/err"; } ||
  fail "a gnuplot that draws nothing: exit $rc, expected 1 and no file: $(cat "$dir/err")"
ls "$dir" | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls "$dir")"
exit $status
