#!/bin/sh
# cli-fit: `trainmc fit` end to end on the shipped public fault log
# (distributions/infinitehbd-fault-trace/).
# - its figures (counts, node MTBF and its Garwood interval, the up-time
#   rate, the Weibull shape and scale, the lognormal repair law, the zero-
#   length repairs, the per-node dispersion, the simultaneous pairs) agree
#   with tests/check_fit.py's independent recomputation, with and without
#   excluded causes;
# - --write makes a failures file that an experiment loads and runs;
# - bad input stops with exit 2, the exact message, and no output file.
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
grep -q "^faults     584 read, 99 left out (stress test failure 97, Test 2), 485 fitted" \
  "$dir/ex.txt" || { echo "exclusion line missing" >&2; status=1; }

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

# refuse EXPECTED-MESSAGE ARGS...: exit 2, stderr's first line exact, no file.
refuse() {
  expected=$1
  shift
  "$bin" fit --json "$dir/bad.json" "$@" >/dev/null 2>"$dir/stderr"
  rc=$?
  got=$(head -n 1 "$dir/stderr")
  if [ "$rc" -ne 2 ] || [ "$got" != "$expected" ] || [ -e "$dir/bad.json" ]; then
    echo "fit $*: exit $rc, '$got'; expected exit 2, '$expected', no file" >&2
    status=1
  fi
}
refuse "trainmc: fit needs --nodes N and --cards-per-node N: the exposure a log cannot show" "$log"
refuse "trainmc: --nodes: '0' is not an integer in [1, 1e8]" "$log" --nodes 0 --cards-per-node 8
refuse "trainmc: --nodes 100: the log names 231 nodes; give at least 231" "$log" --nodes 100 \
  --cards-per-node 8
refuse "trainmc: --span-days 348: the log has a fault starting at 348.793 days; the span must be at least that (default: the last event, 348.98 days)" \
  "$log" --nodes 400 --cards-per-node 8 --span-days 348
refuse "trainmc: --time-unit: 'weeks' is not one of: days, hours" "$log" --time-unit weeks
printf 'node,start,end\na,1,2\nb,x,4\n' >"$dir/bad.csv"
refuse "trainmc: $dir/bad.csv:3: column 'start': 'x' is not a number of days >= 0" \
  "$dir/bad.csv" --nodes 2 --cards-per-node 1
printf '[{"node_id": "a", "event_time": -1, "event_type": "fault_start"}]' >"$dir/bad-log.json"
refuse "trainmc: $dir/bad-log.json: [0].event_time: -1 is out of range: days, finite, >= 0" \
  "$dir/bad-log.json" --nodes 2 --cards-per-node 1
exit $status
