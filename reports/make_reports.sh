#!/usr/bin/env bash
# Regenerate the reports under reports/ from trainmc runs: Markdown with
# tables and SVG plots (gnuplot). Every figure in a report comes from a
# trainmc run made here, with fixed seeds, so a rerun with the same trainmc
# writes the same files. reports/performance.md is not made here (it comes
# from the benchmark: build/tests/trainmc_bench --out reports/performance.md),
# nor reports/scale-up.md (bash reports/make_scale_up.sh, about 6 minutes).
#
#   bash reports/make_reports.sh [--quick] [--out DIR] [--trainmc PATH] [--seed S] [REPORT ...]
#
# --quick     few replicas, for checking the pipeline (seconds, not minutes);
#             written to build/reports-quick/ unless --out says otherwise, so
#             the committed full reports are never replaced by quick ones
# --out DIR   where to write (default reports/, or build/reports-quick/)
# --trainmc   the binary (default build/trainmc)
# --seed S    the seed of every run (default 1)
# --work DIR  keep trainmc's JSON and the plot data in DIR (default: a
#             temporary folder, removed at the end)
# REPORT      completion-time, checkpoint-interval, straggler-coefficient,
#             deadline-probability, sensitivity or large-scale (default: all)
#
# Runs from any folder; the paths in the reports are relative to the
# repository's top folder. Needs bash, python3 and gnuplot (Debian:
# gnuplot-nox). The helpers are in reports/tools/: one Python script per
# report turns trainmc's JSON into the Markdown and the data files, and the
# gnuplot scripts draw them.
set -euo pipefail

all_reports=(completion-time checkpoint-interval straggler-coefficient
             deadline-probability sensitivity large-scale)

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/reports/tools
quick=0
out=""
trainmc=$root/build/trainmc
seed=1
work=""
wanted=()
invocation="bash reports/make_reports.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; invocation+=" --quick" ;;
    --out) out=${2:?--out needs a folder}; shift; invocation+=" --out DIR" ;;
    --trainmc) trainmc=${2:?--trainmc needs a path}; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift; invocation+=" --seed $seed" ;;
    --work) work=${2:?--work needs a folder}; shift ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "make_reports: unknown option $1 (try --help)" >&2; exit 2 ;;
    *)
      case " ${all_reports[*]} " in
        *" $1 "*) wanted+=("$1"); invocation+=" $1" ;;
        *) echo "make_reports: unknown report '$1'; reports: ${all_reports[*]}" >&2; exit 2 ;;
      esac ;;
  esac
  shift
done
[ ${#wanted[@]} -gt 0 ] || wanted=("${all_reports[@]}")
if [ -z "$out" ]; then
  if [ $quick -eq 1 ]; then out=$root/build/reports-quick; else out=$root/reports; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
trainmc=$(cd "$(dirname "$trainmc")" && pwd)/$(basename "$trainmc")

for tool in python3 gnuplot; do
  command -v $tool >/dev/null || {
    echo "make_reports: $tool not found (Debian: apt-get install ${tool/gnuplot/gnuplot-nox})" >&2
    exit 1
  }
done
[ -x "$trainmc" ] || { echo "make_reports: $trainmc not found; build first (cmake --build build)" >&2; exit 1; }

# Replicas. Runs without jitter cost microseconds per replica, runs with 5 %
# jitter draw every step (about 0.5 ms per replica on one core).
if [ $quick -eq 1 ]; then
  R_RUN=200 R_SWEEP=500 R_JITTER=100 R_FINE=2000 R_EMAX=10000
else
  R_RUN=10000 R_SWEEP=10000 R_JITTER=5000 R_FINE=100000 R_EMAX=1000000
fi
R_CURVE=2 # closed-form curves: the simulation is not used, 2 is the least a sweep takes

if [ -n "$work" ]; then
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
export REPORT_VERSION REPORT_QUICK=$quick REPORT_INVOCATION=$invocation REPORT_SEED=$seed
REPORT_VERSION=$("$trainmc" --version)

# tmc REPORT ARGS...: run trainmc from the top folder, logging the command
# (with the temporary folder written as WORK) for the report to quote.
tmc() {
  local report=$1
  shift
  case $1 in run|sweep) set -- "$@" --quiet ;; esac
  local shown="build/trainmc" a
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,+-]+$ ]]; then shown+=" $a"; else shown+=" '$a'"; fi
  done
  echo "${shown//"$work/$report"/WORK}" >>"$work/$report/commands.txt"
  (cd "$root" && "$trainmc" "$@" >/dev/null)
}
# plot SCRIPT VARS OUTPUT: draw reports/tools/SCRIPT.gp with the variables
# file the report's Python script wrote.
plot() {
  gnuplot -e "load '$2'; out = '$3'" "$tools/$1.gp"
}
py() {
  python3 "$tools/$1.py" "$work/$2" "$out"
}

# The stress conditions of design-48-stress (docs/model.md 2, 3.4, 3.6) as --set
# overrides, for experiments that are otherwise design-48.
stress=(--set 'jitter="../distributions/jitter/normal-cv5.json"'
        --set 'outages={"mean_interval_days":1,"downtime_s":0}'
        --set 'loss_spikes={"mean_interval_days":7}')

report_completion-time() {
  local r=completion-time w=$work/completion-time
  for e in design-48-stress design-48 design-32; do
    tmc "$r" run "experiments/$e.json" --seed "$seed" --replicas "$R_RUN" --json "$w/$e.json"
  done
  py completion_time $r
  plot histogram_cdf "$w/stress.vars.gp" "$out/completion-time-stress.svg"
  plot cdf_compare "$w/compare.vars.gp" "$out/completion-time-32-vs-48.svg"
  plot histogram_cdf "$w/design-48.vars.gp" "$out/completion-time-design-48.svg"
  plot histogram_cdf "$w/design-32.vars.gp" "$out/completion-time-design-32.svg"
}

report_checkpoint-interval() {
  local r=checkpoint-interval w=$work/checkpoint-interval
  local cases=(
    "design-48 300,600,900,1200,1800,2400,3600,4800,7200,9600,14400 2:300:1"
    "cards-1024 150,300,450,600,900,1200,1800,2400,3600,4800 40:2400:10"
    "design-48-outages 300,600,900,1200,1500,1800,2400,3000,3600,4800 5:100:1"
    "design-48-spikes 300,600,900,1200,1800,2400,3000,3600,4800,7200 5:150:1")
  local c e values curve
  for c in "${cases[@]}"; do
    read -r e values curve <<<"$c"
    tmc "$r" sweep "experiments/$e.json" --vary checkpoint.interval_s="$values" \
      --seed "$seed" --replicas "$R_SWEEP" --json "$w/$e.sweep.json"
    tmc "$r" sweep "experiments/$e.json" --vary checkpoint.interval_steps="$curve" \
      --seed "$seed" --replicas "$R_CURVE" --json "$w/$e.curve.json"
  done
  # The optimum with an outage a day, step by step around Young's tau*.
  tmc "$r" sweep experiments/design-48-outages.json --vary checkpoint.interval_steps=22:38:1 \
    --seed "$seed" --replicas "$R_FINE" --json "$w/design-48-outages.fine.json"
  for e in design-48 design-48-spikes design-48-spikes-600 design-48-outages; do
    tmc "$r" run "experiments/$e.json" --seed "$seed" --replicas "$R_RUN" --json "$w/$e.run.json"
  done
  py checkpoint_interval $r
  for e in design-48 cards-1024 design-48-outages design-48-spikes; do
    plot interval "$w/$e.vars.gp" "$out/checkpoint-interval-$e.svg"
  done
}

report_straggler-coefficient() {
  local r=straggler-coefficient w=$work/straggler-coefficient
  local cards=1,2,3,4,6,8,12,16,24,32,48,64,96,128,192,256,384,512,768,1024,1536,2048,3072,4096
  cards+=,6144,8192,12288,16384,32768,65536,131072,262144,1048576,10000000
  tmc "$r" emax --cards "$cards" \
    --seed "$seed" --replicas "$R_EMAX" --json "$w/emax.json"
  # The step time docs/model.md 2 derives (48 cards, sigma = 5 % of mu): mu and
  # the per-step time outside compute from the plan of design-48-stress.
  tmc "$r" plan experiments/design-48-stress.json --json "$w/plan.json"
  local mu fixed cv
  read -r mu fixed < <(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["step"]
print(repr(s["compute_s"]), repr(s["exposed_comm_s"] + s["input_wait_s"]))' "$w/plan.json")
  cv=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cv"])' \
       "$root/distributions/jitter/normal-cv5.json")
  tmc "$r" emax --cards 48 --mu "$mu" --cv "$cv" --fixed-s "$fixed" \
    --seed "$seed" --replicas "$R_EMAX" --json "$w/step.json"
  py straggler_coefficient $r
  plot emax "$w/emax.vars.gp" "$out/straggler-coefficient.svg"
}

report_deadline-probability() {
  local r=deadline-probability w=$work/deadline-probability
  tmc "$r" sweep experiments/design-48.json --vary job.efficiency=0.300:0.325:0.001 \
    --seed "$seed" --replicas "$R_SWEEP" --json "$w/design-48.efficiency.json"
  tmc "$r" sweep experiments/design-48-stress.json --vary job.efficiency=0.345:0.365:0.001 \
    --seed "$seed" --replicas "$R_JITTER" --json "$w/design-48-stress.efficiency.json"
  tmc "$r" sweep experiments/design-48.json --vary job.cards=32:48:1 \
    --seed "$seed" --replicas "$R_SWEEP" --json "$w/design-48.cards.json"
  tmc "$r" sweep experiments/design-48-stress.json --vary job.cards=32:48:1 \
    --seed "$seed" --replicas "$R_JITTER" --json "$w/design-48-stress.cards.json"
  tmc "$r" plan experiments/design-48.json --json "$w/design-48.plan.json"
  tmc "$r" plan experiments/design-48-stress.json --json "$w/design-48-stress.plan.json"
  # The lowest efficiency that meets the deadline with probability 0.95,
  # then the distribution of T there.
  tmc "$r" sweep experiments/design-48-stress.json --vary job.efficiency=0.34:0.37:0.0005 \
    --target 'deadline.probability>=0.95' --seed "$seed" --replicas "$R_JITTER" --json "$w/target.json"
  local found
  found=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["target"]["found"])' "$w/target.json")
  tmc "$r" run experiments/design-48-stress.json --set job.efficiency="$found" \
    --seed "$seed" --replicas "$R_RUN" --json "$w/at-target.json"
  py deadline_probability $r
  plot deadline "$w/efficiency.vars.gp" "$out/deadline-probability-efficiency.svg"
  plot deadline "$w/cards.vars.gp" "$out/deadline-probability-cards.svg"
  plot histogram_cdf "$w/at-target.vars.gp" "$out/deadline-probability-at-target.svg"
}

report_sensitivity() {
  local r=sensitivity w=$work/sensitivity
  for e in design-48 sensitivity-pcie-half sensitivity-prefetch-failed sensitivity-shared-nic \
           sensitivity-efficiency-30 sensitivity-input-5s design-32; do
    tmc "$r" plan "experiments/$e.json" --json "$w/$e.plan.json"
    tmc "$r" run "experiments/$e.json" --seed "$seed" --replicas "$R_RUN" --json "$w/$e.run.json"
    tmc "$r" run "experiments/$e.json" "${stress[@]}" --seed "$seed" --replicas "$R_JITTER" --json "$w/$e.stress.json"
  done
  # The exposed step the plan derives from a 25 GB/s link (design-48's plan gives the 32 GB/s one).
  tmc "$r" plan experiments/sensitivity-shared-nic.json --set job.exposed_comm_s=0.08 --json "$w/nic-link.plan.json"
  py sensitivity $r
}

report_large-scale() {
  local r=large-scale w=$work/large-scale
  tmc "$r" sweep experiments/cards-16384.json --vary checkpoint.interval_s=60,120,180,240,300,450,600,900,1200,1800 \
    --seed "$seed" --replicas "$R_SWEEP" --json "$w/cards-16384.sweep.json"
  tmc "$r" sweep experiments/cards-16384.json --vary checkpoint.interval_steps=40:3000:10 \
    --seed "$seed" --replicas "$R_CURVE" --json "$w/cards-16384.curve.json"
  tmc "$r" sweep experiments/cards-1024.json --vary checkpoint.interval_s=300,900,1800 \
    --seed "$seed" --replicas "$R_SWEEP" --json "$w/cards-1024.sweep.json"
  py large_scale $r
  plot interval "$w/cards-16384.vars.gp" "$out/large-scale-16384.svg"
}

start=$SECONDS
for r in "${wanted[@]}"; do
  t0=$SECONDS
  rm -rf "${work:?}/$r"
  mkdir -p "$work/$r"
  "report_$r"
  echo "make_reports: $out/$r.md ($((SECONDS - t0)) s)" >&2
done
kind=full
[ $quick -eq 0 ] || kind=quick
echo "make_reports: ${#wanted[@]} $kind report(s) in $((SECONDS - start)) s" >&2
