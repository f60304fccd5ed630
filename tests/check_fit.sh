#!/bin/sh
# cli-fit: `trainmc fit` end to end on the shipped public fault log
# (distributions/infinitehbd-fault-trace/).
# - its figures (counts, node MTBF and its Garwood interval, the up-time
#   rate, the Weibull shape and scale, the lognormal repair law, the zero-
#   length repairs, the per-node dispersion, the simultaneous pairs) agree
#   with tests/check_fit.py's independent recomputation, with and without
#   excluded causes;
# - --write makes a failures file that an experiment loads and runs;
# - bad input stops with exit 2, the exact message, and no output file
#   (--cards-per-node takes failures.cards_per_node's [1, 1e6], docs/reference/keys.md).
set -u
bin=$1
src=$2
log=$src/distributions/infinitehbd-fault-trace/fault_trace.json
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0

"$bin" fit "$log" --nodes 400 --cards-per-node 8 --json "$dir/all.json" >"$dir/all.txt" &&
python3 "$src/tests/check_fit.py" "$log" "$dir/all.json" || {
  echo "fit of the whole log: figures differ (above)" >&2
  status=1
}
"$bin" fit "$log" --nodes 400 --cards-per-node 8 --exclude-cause "stress test failure" \
  --exclude-cause Test --json "$dir/ex.json" --write "$dir/failures.json" >"$dir/ex.txt" &&
python3 "$src/tests/check_fit.py" "$log" "$dir/ex.json" "stress test failure" Test || {
  echo "fit with causes left out: figures differ (above)" >&2
  status=1
}
# the answer first (issue 32): the MTBFs as the JSON has them, the written keys
python3 "$src/tests/check_fit_answer.py" "$dir/all.txt" "$dir/all.json" || status=1
python3 "$src/tests/check_fit_answer.py" "$dir/ex.txt" "$dir/ex.json" "$dir/failures.json" ||
  status=1
grep -q "^faults     584 read, 99 left out (stress test failure 97, Test 2), 485 fitted" \
  "$dir/ex.txt" || { echo "exclusion line missing" >&2; status=1; }

# two rates fit the faults per node better than one (bootstrap p 0.005):
# the written file holds the good and bad nodes of the fit, in place of one
# per-card MTBF (docs/model.md 3.19)
python3 - "$dir/failures.json" "$dir/ex.json" <<'PY' || { echo "written bad nodes differ" >&2; status=1; }
import json, sys
w, fit = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
b = fit["dispersion"]["bad_nodes"]
want = {"per_node_mtbf_days": b["per_node_mtbf_days"], "cards_per_node": 8,
        "bad_node_share": b["share"], "bad_node_mtbf_days": b["bad_node_mtbf_days"]}
bad = [k for k, v in want.items() if abs(w.get(k, -1) - v) > 1e-9 * v]
if bad or "per_card_mtbf_days" in w or abs(w["bad_node_share"] - 0.304) > 0.0005:
    sys.exit(f"written {w}; from the fit {want}")
PY
# the written file is a failures section an experiment can name
sed -e "s|\"failures\": \"[^\"]*\"|\"failures\": \"$dir/failures.json\"|" \
  -e "s|\"models/|\"$src/experiments/models/|" \
  "$src/experiments/design-48-fitted.json" >"$dir/x.json"
"$bin" run "$dir/x.json" --replicas 200 >"$dir/run.txt" 2>&1 || {
  echo "an experiment naming the written file does not run:" >&2
  cat "$dir/run.txt" >&2
  status=1
}
"$bin" run "$src/experiments/design-48-fitted.json" --replicas 200 >/dev/null 2>&1 || {
  echo "experiments/design-48-fitted.json does not run" >&2
  status=1
}

. "$src/tests/fit_refuse.sh"
refuse "trainmc: fit needs --nodes N and --cards-per-node N: the exposure a log cannot show" "$log"
refuse "trainmc: --nodes: '0' is not an integer in [1, 1e8]" "$log" --nodes 0 --cards-per-node 8
refuse "trainmc: --cards-per-node: '1000001' is not an integer in [1, 1e6]" "$log" --nodes 400 \
  --cards-per-node 1000001
refuse "trainmc: --nodes 100: the log names 231 nodes; give at least 231" "$log" --nodes 100 \
  --cards-per-node 8
refuse "trainmc: --span-days 348: the log has a fault starting at 348.793 days; the span must be at least that (default: the last event, 348.98 days)" \
  "$log" --nodes 400 --cards-per-node 8 --span-days 348
refuse "trainmc: --time-unit: 'weeks' is not one of: days, hours" "$log" --time-unit weeks
printf 'node,start,end\na,1,2\nb,x,4\n' >"$dir/bad.csv"
refuse "trainmc: $dir/bad.csv:3: column 'start': 'x' is not a number of days >= 0" \
  "$dir/bad.csv" --nodes 2 --cards-per-node 1
printf '[{"node_id": "a", "event_time": -1, "event_type": "fault_start"}]' >"$dir/bad-log.json"
refuse "trainmc: $dir/bad-log.json: [0].event_time: -1 is out of range: days, 0 to 1e+07" \
  "$dir/bad-log.json" --nodes 2 --cards-per-node 1
# event times past 1e7 days (as --span-days) are refused, not fitted to inf
# node-days and NaN rates
printf '[{"node_id":"a","event_time":1e308,"event_type":"fault_start"}]' >"$dir/huge.json"
refuse "trainmc: $dir/huge.json: [0].event_time: 1e+308 is out of range: days, 0 to 1e+07" \
  "$dir/huge.json" --nodes 10 --cards-per-node 8
printf 'node,start,end\na,1,2\nb,3,1e300\n' >"$dir/huge.csv"
refuse "trainmc: $dir/huge.csv:3: column 'end': 1e300 days is out of range: 0 to 1e+07 days" \
  "$dir/huge.csv" --nodes 10 --cards-per-node 8
refuse "trainmc: $dir/huge.csv:3: column 'end': 1e300 hours is out of range: 0 to 2.4e+08 hours" \
  "$dir/huge.csv" --nodes 10 --cards-per-node 8 --time-unit hours
# more windows than the cap: the real reason, not "fewer than 2 windows"
refuse "trainmc: --window-days 1e-05: 34897980 windows of 1e-05 days in the span of 348.98 days; at most 1e7 (a window of at least 3.49e-05 days)" \
  "$log" --nodes 400 --cards-per-node 8 --window-days 1e-5

# --write with no law to write fails before --json is written: no file at all
# no up time at all: no exposure, no rate (issue 33: the exposure is the up time)
printf 'node,start,end\na,0,\nb,0,\n' >"$dir/down.csv"
refuse "trainmc: $dir/down.csv: the 2 nodes are up 0 node-days of the 10-day span (each down from day 0, never repaired): a failure rate needs up time > 0" \
  "$dir/down.csv" --nodes 2 --cards-per-node 8 --span-days 10
printf 'node,start,end\nn1,1,2\n' >"$dir/one.csv"
"$bin" fit "$dir/one.csv" --nodes 10 --cards-per-node 8 --json "$dir/x1.json" \
  --write "$dir/x2.json" --law weibull >/dev/null 2>"$dir/stderr"
rc=$?
if [ "$rc" -ne 1 ] || [ -e "$dir/x1.json" ] || [ -e "$dir/x2.json" ] ||
  ! grep -q "nothing written" "$dir/stderr"; then
  echo "fit --write with no weibull law: exit $rc, files left: $(ls "$dir"/x1.json "$dir"/x2.json 2>/dev/null)" >&2
  status=1
fi

# small logs: no nan in the text, the written file or the JSON (null there)
# dup.csv: two equal repairs (on two nodes: an exact repeat of a row is refused)
printf 'node,start,end,cause\nn1,1,2,GPU\nn2,1,2,GPU\n' >"$dir/dup.csv"
printf 'node,start,end,cause\nn1,1,2,GPU\nn1,3,4,GPU\nn1,5,5.5,NIC\n' >"$dir/onenode.csv"
for f in dup onenode; do
  "$bin" fit "$dir/$f.csv" --nodes 10 --cards-per-node 8 --json "$dir/$f.json" \
    --write "$dir/$f-w.json" >"$dir/$f.txt" 2>&1 || { echo "fit $f.csv failed" >&2; status=1; }
  if grep -qiw "nan\|-nan\|inf" "$dir/$f.txt" "$dir/$f.json" "$dir/$f-w.json"; then
    echo "fit $f.csv: nan or inf in the output:" >&2
    grep -iw "nan\|-nan\|inf" "$dir/$f.txt" "$dir/$f.json" "$dir/$f-w.json" >&2
    status=1
  fi
done
grep -q "mean 1 days \[-, -\] (no interval" "$dir/dup.txt" ||
  { echo "dup.csv: the repair mean's undefined interval is not '[-, -]'" >&2; status=1; }
grep -q "ratio not defined" "$dir/onenode.txt" ||
  { echo "onenode.csv: the undefined simultaneous ratio is not 'not defined'" >&2; status=1; }

# a leading UTF-8 byte-order mark is ignored (CSV with CRLF, JSON, JSON lines)
printf '\357\273\277node,start,end\r\nn1,1,2\r\nn2,3,4\r\n' >"$dir/bom.csv"
printf '\357\273\277[{"node_id":"a","event_time":1,"event_type":"fault_start"}]' >"$dir/bom.json"
printf '\357\273\277{"node_id":"a","event_time":1,"event_type":"fault_start"}\n' >"$dir/bom-lines.json"
for f in bom.csv bom.json bom-lines.json; do
  "$bin" fit "$dir/$f" --nodes 4 --cards-per-node 8 >"$dir/bom.txt" 2>&1 || {
    echo "fit of $f with a byte-order mark failed:" >&2
    cat "$dir/bom.txt" >&2
    status=1
  }
done
exit $status
