#!/bin/sh
# cli-plug-in: `trainmc run` with rates drawn per replica (failures.mtbf_events,
# outages.mtbf_events, failures.repair_events; docs/model.md 3.11) reports the
# plug-in figures beside the predictive ones (issue 15):
# - the plug-in figures ("plug_in" in the JSON) are exactly those of a
#   separate run with the keys at 0 (the same seed and replicas: common random
#   numbers), its whole completion_days summary and deadline object;
# - the predictive figures (the top level) are exactly those of `trainmc
#   sweep`'s setting with the key (the sweep runs each setting through its own
#   code path), and the sweep's setting at 0 those of the separate run;
# - a run without drawn rates has no "plug_in" object and no plug-in lines;
# - outage rates and repair means drawn too; with a precision target the
#   plug-in runs the replicas the predictive run took;
# - the text prints both, as the JSON has them;
# - sweep refuses --importance with drawn rates (importance.c).
set -u
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
x="$src/experiments/cards-1024.json"
common="--quiet -n 4000 --set deadline.days=6.2"

run() { # OUT.json TEXT-OUT ARGS...
  out=$1 text=$2
  shift 2
  # shellcheck disable=SC2086
  "$bin" run "$@" --json "$dir/$out" >"$dir/$text" 2>"$dir/stderr" || {
    echo "trainmc run $* failed:" >&2
    cat "$dir/stderr" >&2
    status=1
  }
}
# shellcheck disable=SC2086
run pred.json pred.txt "$x" $common --detail --set failures.mtbf_events=5
# shellcheck disable=SC2086
run plain.json plain.txt "$x" $common --detail --set failures.mtbf_events=0
# shellcheck disable=SC2086
"$bin" sweep "$x" $common --vary failures.mtbf_events=0,5 --json "$dir/sweep.json" \
  >/dev/null 2>"$dir/stderr" || { cat "$dir/stderr" >&2; status=1; }

o="$src/experiments/design-48-outages.json"
drawn="--set outages.mtbf_events=4 --set failures.spares=2 --set failures.repair_events=6"
fixed="--set outages.mtbf_events=0 --set failures.spares=2 --set failures.repair_events=0"
# shellcheck disable=SC2086
run out-pred.json out-pred.txt "$o" --quiet -n 3000 $drawn --set failures.mtbf_events=20
# shellcheck disable=SC2086
run out-plain.json out-plain.txt "$o" --quiet -n 3000 --detail $fixed --set failures.mtbf_events=0
# shellcheck disable=SC2086
run prec.json prec.txt "$x" $common --set failures.mtbf_events=5 -n 50000 \
  --precision deadline.probability:abs=0.02
n=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["replicas"]))' \
  "$dir/prec.json" 2>/dev/null || echo 1)
# shellcheck disable=SC2086
run prec-plain.json prec-plain.txt "$x" $common --set failures.mtbf_events=0 -n "$n"

# sweep refuses importance sampling with drawn rates, as run does (result.c)
# shellcheck disable=SC2086
"$bin" sweep "$x" $common --set failures.mtbf_events=5 --vary failures.repair_events=0,6 \
  --set failures.spares=4 --importance auto >/dev/null 2>"$dir/stderr"
rc=$?
if [ "$rc" -eq 0 ] || ! grep -q "^trainmc: --importance: this experiment draws a rate" "$dir/stderr"; then
  echo "cli-plug-in: sweep --importance with drawn rates: exit $rc, stderr:" >&2
  cat "$dir/stderr" >&2
  status=1
fi

python3 - "$dir" <<'PY' || status=1
import json, os, sys
d = sys.argv[1]
def load(name):
    return json.load(open(os.path.join(d, name)))
bad = []
def same(what, a, b):
    if a != b:
        bad.append(f"{what}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}")
pred, plain, sweep = load("pred.json"), load("plain.json"), load("sweep.json")
same("plug-in completion_days = the run at mtbf_events 0",
     pred["plug_in"]["completion_days"], plain["completion_days"])
same("plug-in deadline = the run at mtbf_events 0", pred["plug_in"]["deadline"], plain["deadline"])
same("plug-in draws", pred["plug_in"]["drawn"], "failures.mtbf_events 5")
s0, s5 = sweep["settings"]
same("predictive completion_days = sweep's mtbf_events 5", pred["completion_days"],
     s5["completion_days"])
same("predictive deadline = sweep's mtbf_events 5", pred["deadline"], s5["deadline"])
same("plain = sweep's mtbf_events 0", plain["completion_days"], s0["completion_days"])
if "plug_in" in plain:
    bad.append("a run without drawn rates has a plug_in object")
op, of = load("out-pred.json"), load("out-plain.json")
same("outages and repairs: plug-in = the run with the keys at 0",
     [op["plug_in"]["completion_days"], op["plug_in"]["deadline"]],
     [of["completion_days"], of["deadline"]])
same("outages and repairs: draws", op["plug_in"]["drawn"],
     "failures.mtbf_events 20, outages.mtbf_events 4, failures.repair_events 6")
if op["completion_days"]["sd"] <= of["completion_days"]["sd"]:
    bad.append("drawn outage rates and repair means do not widen T")
prec, pp = load("prec.json"), load("prec-plain.json")
if not 1000 <= prec["replicas"] < 50000:
    bad.append(f"the precision target took {prec['replicas']} replicas")
same("precision: plug-in = the run of as many replicas at 0",
     prec["plug_in"]["completion_days"], pp["completion_days"])
text = open(os.path.join(d, "pred.txt")).read()
p, q = pred["deadline"], pred["plug_in"]["deadline"]
row = "P(T <= 6.2 days)       %.4f [%.4f, %.4f]  %.4f [%.4f, %.4f]" % (
    p["probability"], *p["ci95"], q["probability"], *q["ci95"])
if row not in text:
    bad.append(f"the text has no row '{row}'")
for f in ("plain.txt", "out-plain.txt"):
    if "plug-in" in open(os.path.join(d, f)).read():
        bad.append(f"{f}: plug-in lines without drawn rates")
for b in bad:
    print("cli-plug-in:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
exit $status
