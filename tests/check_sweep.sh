#!/bin/sh
# cli-sweep: `trainmc sweep` end to end.
# - a grid (interval x cards) with 1 and 2 threads writes byte-identical
#   JSON, and another seed changes it (else the comparison proves nothing);
# - the JSON holds one run-like object per setting with its values and its
#   CRN difference from the reference, and the optimum interval;
# - --target on the deterministic 48-card case (no failures, no jitter)
#   finds 38 cards, the smallest count whose T = 5 + (S t_s + saves c) / 86400
#   meets 30 days (test_sweep checks the same against closed_form.h), with 1
#   and 2 threads alike.
# - --csv: the same table with every column, identical for 1 and 2 threads,
#   a header and one row per setting with as many fields; its mean T and
#   P(deadline) are the text table's, rounded; --csv and --json naming one
#   file, or a missing folder, fail before any simulation and write nothing;
#   --csv with --target is refused; the one-key text table fits 100 columns;
#   SIGTERM during a sweep, or a closed stdout, leaves neither output nor a
#   temporary file.
# - the text lists each setting's card-hours per run as in the JSON.
set -u
bin=$1
experiments=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
grid="--vary checkpoint.interval_s=900,1800 --vary job.cards=48,64 --replicas 200 --quiet"

# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48-stress.json" $grid --seed 7 --threads 1 --json "$dir/t1.json" --csv "$dir/t1.csv" >"$dir/t1.txt" &&
"$bin" sweep "$experiments/design-48-stress.json" $grid --seed 7 --threads 2 --json "$dir/t2.json" --csv "$dir/t2.csv" >/dev/null &&
"$bin" sweep "$experiments/design-48-stress.json" $grid --seed 8 --threads 2 --json "$dir/s8.json" >/dev/null || {
  echo "sweep failed" >&2
  exit 1
}
if ! cmp "$dir/t1.json" "$dir/t2.json"; then
  echo "1 and 2 threads gave different JSON" >&2
  status=1
fi
if cmp -s "$dir/t2.json" "$dir/s8.json"; then
  echo "seed 7 and seed 8 gave identical JSON" >&2
  status=1
fi
# the text's card-hours per setting are the JSON's cost objects (issue 20)
if ! python3 - "$dir/t1.txt" "$dir/t1.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read().split("Cost per run, mean (Young): card-hours\n")[1]
rows = [l for l in text.splitlines()[:4]]
doc = json.load(open(sys.argv[2]))
for row, s in zip(rows, doc["settings"]):
    c = s["cost"]["card_hours"]
    want = "%.6g (%.6g), %d cards held" % (c["mean"], c["closed_form"], s["cost"]["cards_held"])
    if not row.endswith(want):
        sys.exit("cost line %r, JSON %r" % (row, want))
PY
then
  echo "the text's cost lines differ from the JSON" >&2
  status=1
fi
# 4 settings, each with values, a difference and the run's keys
for key in '"command":[[:space:]]*"sweep"' '"values":' '"difference_days":' '"variance_reduction":' \
           '"optimum":' '"within_2se":' '"closed_form":'; do
  if ! grep -q "$key" "$dir/t1.json"; then
    echo "JSON lacks $key" >&2
    status=1
  fi
done
if [ "$(grep -c '"difference_days":' "$dir/t1.json")" -ne 4 ]; then
  echo "expected 4 settings in the JSON" >&2
  status=1
fi
if ! grep -q '^Optimum interval' "$dir/t1.txt"; then
  echo "no optimum interval in the text" >&2
  status=1
fi

target="--vary job.cards=32:64 --target deadline.probability>=0.95 --set failures=null --replicas 4 --quiet"
for t in 1 2; do
  # shellcheck disable=SC2086
  "$bin" sweep "$experiments/design-48.json" $target --threads $t --json "$dir/target$t.json" \
    >"$dir/target$t.txt" || status=1
done
if ! cmp "$dir/target1.json" "$dir/target2.json"; then
  echo "--target: 1 and 2 threads gave different JSON" >&2
  status=1
fi
if ! grep -q '"found":[[:space:]]*38,' "$dir/target1.json" ||
   ! grep -q '^Found: job.cards=38, the smallest value' "$dir/target1.txt"; then
  echo "--target: expected 38 cards" >&2
  cat "$dir/target1.txt" >&2
  status=1
fi
# --csv
if ! cmp "$dir/t1.csv" "$dir/t2.csv"; then
  echo "--csv: 1 and 2 threads gave different CSV" >&2
  status=1
fi
header=$(head -n 1 "$dir/t1.csv")
case $header in
  setting,checkpoint.interval_s,job.cards,interval_steps,step_s,*,mean_days,*,p_deadline,*) ;;
  *) echo "--csv: unexpected header: $header" >&2; status=1 ;;
esac
if [ "$(wc -l <"$dir/t1.csv")" -ne 5 ] ||
   ! awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$dir/t1.csv"; then
  echo "--csv: expected a header and 4 rows of equal length" >&2
  status=1
fi
# each CSV row's mean T (4 decimals) and P(deadline) (3) on the text's row of its values
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { printf "%.10g %.10g %.4f %.3f\n", $2, $3, $col["mean_days"], $col["p_deadline"] }' \
  "$dir/t1.csv" >"$dir/csv-rows"
while read -r interval cards mean p; do
  if ! grep -Eq "^ *$interval +$cards +[0-9]+ .* $mean \+- .* $p \[" "$dir/t1.txt"; then
    echo "--csv: no text row with $interval $cards, mean T $mean and P $p" >&2
    status=1
  fi
done <"$dir/csv-rows"
one="--vary checkpoint.interval_s=900,1800 --replicas 50 --quiet --set failures=null"
# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48.json" $one >"$dir/one.txt" || status=1
# the table: from its heading line to the blank line after it
if awk '/^ *interval_s +K / { t = 1 } t && /^$/ { t = 0 } t && length($0) > 100 { bad = 1 }
        END { exit !bad }' "$dir/one.txt" || ! grep -Eq '^ *interval_s +K ' "$dir/one.txt"; then
  echo "the one-key sweep's table has lines over 100 columns (or no table)" >&2
  status=1
fi
# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48.json" $one --json "$dir/same.out" --csv "$dir/./same.out" \
  >/dev/null 2>"$dir/same.err"
rc=$?
if [ $rc -ne 2 ] || [ -e "$dir/same.out" ] || ! grep -q "name the same file" "$dir/same.err"; then
  echo "--csv and --json on one file: exit $rc, expected 2 and no file" >&2
  status=1
fi
# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48.json" $one --csv "$dir/missing/t.csv" >/dev/null 2>&1
rc=$?
if [ $rc -ne 2 ] || [ -e "$dir/missing" ]; then
  echo "--csv into a missing folder: exit $rc, expected 2" >&2
  status=1
fi
# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48.json" $target --csv "$dir/target.csv" >/dev/null 2>&1
rc=$?
if [ $rc -ne 2 ] || [ -e "$dir/target.csv" ]; then
  echo "--csv with --target: exit $rc, expected 2 (a usage error) and no file" >&2
  status=1
fi
# shellcheck disable=SC2086
python3 "$(dirname "$0")/closed_pipe.py" "$bin" sweep "$experiments/design-48.json" $one \
  --json "$dir/pipe.json" --csv "$dir/pipe.csv" 2>/dev/null; echo $? >"$dir/pipe.rc"
if [ "$(cat "$dir/pipe.rc")" -ne 1 ] || ls "$dir" | grep -q '^pipe\.[jc]'; then
  echo "closed stdout: exit $(cat "$dir/pipe.rc") (expected 1), left: $(ls "$dir" | grep '^pipe\.[jc]')" >&2
  status=1
fi
"$bin" sweep "$experiments/design-48-stress.json" --vary checkpoint.interval_s=900,1800 \
  --replicas 20000000 --quiet --json "$dir/long.json" --csv "$dir/long.csv" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -ne 130 ] || ls "$dir" | grep -q '^long\.'; then
  echo "SIGTERM during a sweep: exit $rc (expected 130), left: $(ls "$dir" | grep '^long\.')" >&2
  status=1
fi
exit $status
