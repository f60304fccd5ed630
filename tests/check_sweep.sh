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
set -u
bin=$1
experiments=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
grid="--vary checkpoint.interval_s=900,1800 --vary job.cards=48,64 --replicas 200 --quiet"

# shellcheck disable=SC2086
"$bin" sweep "$experiments/design-48-stress.json" $grid --seed 7 --threads 1 --json "$dir/t1.json" >"$dir/t1.txt" &&
"$bin" sweep "$experiments/design-48-stress.json" $grid --seed 7 --threads 2 --json "$dir/t2.json" >/dev/null &&
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
exit $status
