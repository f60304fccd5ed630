#!/bin/sh
# cli-threads: the same experiment and seed with 1 and with 2 threads must
# write byte-identical JSON (replica k uses stream k; chunk sums in order).
set -eu
bin=$1
experiment=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" run "$experiment" --replicas 300 --seed 7 --threads 1 --quiet --json "$dir/t1.json" >/dev/null
"$bin" run "$experiment" --replicas 300 --seed 7 --threads 2 --quiet --json "$dir/t2.json" >/dev/null
cmp "$dir/t1.json" "$dir/t2.json"
# A different seed must change the numbers, or the comparison above proves nothing.
"$bin" run "$experiment" --replicas 300 --seed 8 --threads 2 --quiet --json "$dir/s8.json" >/dev/null
if cmp -s "$dir/t2.json" "$dir/s8.json"; then
  echo "seed 7 and seed 8 gave identical JSON" >&2
  exit 1
fi
# Importance sampling (cross-entropy pilots and the weighted estimate) too.
"$bin" run "$experiment" --replicas 300 --seed 7 --threads 1 --quiet --set deadline.days=27.3 \
  --importance auto --importance-pilot 200 --json "$dir/i1.json" >/dev/null
"$bin" run "$experiment" --replicas 300 --seed 7 --threads 2 --quiet --set deadline.days=27.3 \
  --importance auto --importance-pilot 200 --json "$dir/i2.json" >/dev/null
cmp "$dir/i1.json" "$dir/i2.json"
grep -q '"p_miss"' "$dir/i1.json"
# A precision target stops after whole batches of 1,000 replicas; the replicas
# it ran are the first ones of a plain run, so the completion times agree.
"$bin" run "$experiment" --replicas 20000 --seed 7 --quiet \
  --precision completion_days.mean:abs=0.005 --json "$dir/p.json" >/dev/null
used=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['replicas'])" "$dir/p.json")
# (one test a line: under set -e only the last command of an && chain stops
# the script, so a chain would leave the first two unchecked)
if [ "$used" -lt 1000 ] || [ "$used" -ge 20000 ] || [ $((used % 1000)) -ne 0 ]; then
  echo "precision run used $used replicas: expected a multiple of 1000 in [1000, 20000)" >&2
  exit 1
fi
"$bin" run "$experiment" --replicas "$used" --seed 7 --quiet --json "$dir/n.json" >/dev/null
python3 - "$dir/p.json" "$dir/n.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["precision"]["reached"] and a["precision"]["half_width"] <= 0.005, a["precision"]
assert a["completion_days"] == b["completion_days"], "batched and plain runs differ"
PY
# The same for a sweep: every setting stops after the same batches, and its
# completion times are those of a plain sweep with that many replicas.
"$bin" sweep "$experiment" --vary checkpoint.interval_s=900,1800 --replicas 20000 --seed 7 \
  --quiet --precision completion_days.mean:abs=0.01 --json "$dir/sp.json" >/dev/null
used=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['replicas'])" "$dir/sp.json")
"$bin" sweep "$experiment" --vary checkpoint.interval_s=900,1800 --replicas "$used" --seed 7 \
  --quiet --json "$dir/sn.json" >/dev/null
python3 - "$dir/sp.json" "$dir/sn.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["precision"]["reached"], a["precision"]
for x, y in zip(a["settings"], b["settings"]):
    assert x["completion_days"] == y["completion_days"], "batched and plain sweeps differ"
PY
