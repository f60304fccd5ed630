#!/bin/sh
# bench_numpy_reference.sh - trainmc's CPU time against the NumPy reference
# that draws the exact maximum per step (issue 35). Not a test: speed is
# never asserted in CTest (cli-numpy-reference checks that both agree).
#
#   sh tests/bench_numpy_reference.sh TRAINMC [REPLICAS] [MODES...]
#
# On experiments/design-48-stress.json with REPLICAS replicas (default
# 10000), in ONE run, 3 repetitions, alternating within each: the NumPy
# reference (reports/tools/numpy_reference.py under $TRAINMC_PYTHON, else
# /usr/bin/python3, with OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1), then
# `trainmc run -t 1 -q --set monte_carlo.mode="MODE"` for each MODE (default:
# steps and segments). Repetition r uses seed r for every program. CPU seconds are user +
# system of the whole process, from /usr/bin/time (the Python start-up and
# numpy's import included). Prints the machine, then a markdown table: the
# CPU seconds of each program and the ratio numpy / trainmc per repetition,
# and the median ratio per mode; then the means of repetition 1 beside each
# other, so one sees the programs computed the same thing. The machine may be
# shared: a ratio is meaningful only between runs made side by side, as here.
set -eu
if [ $# -lt 1 ]; then
  echo "usage: sh tests/bench_numpy_reference.sh TRAINMC [REPLICAS] [MODES...]" >&2
  exit 2
fi
bin=$1
shift
replicas=${1:-10000}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- steps segments
modes=$*
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/../experiments/design-48-stress.json
tool=$here/../reports/tools/numpy_reference.py
py=${TRAINMC_PYTHON:-/usr/bin/python3}
if [ ! -x /usr/bin/time ]; then
  echo "bench_numpy_reference.sh: needs /usr/bin/time (GNU time)" >&2
  exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cpu() { # CPU seconds (user + system) of the command after it, into $dir/cpu
  /usr/bin/time -f "%U %S" -o "$dir/time" "$@"
  awk '{ printf "%.2f\n", $1 + $2 }' "$dir/time" > "$dir/cpu"
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), nproc $(nproc)," \
  "$(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "numpy $("$py" -c 'import numpy; print(numpy.__version__)') ($py)," \
  "trainmc $bin; design-48-stress, $replicas replicas, 1 thread each"
echo

for r in 1 2 3; do
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
    cpu "$py" "$tool" "$exp" --replicas "$replicas" --seed "$r" --json "$dir/np$r.json" > /dev/null
  cp "$dir/cpu" "$dir/np$r.cpu"
  for m in $modes; do
    cpu "$bin" run "$exp" -n "$replicas" -s "$r" -t 1 -q --json "$dir/$m$r.json" \
      --set "monte_carlo.mode=\"$m\"" > /dev/null
    cp "$dir/cpu" "$dir/$m$r.cpu"
  done
done

# The table, and the medians, by one Python program over the files.
"$py" - "$dir" "$replicas" $modes <<'EOF'
import json, os, statistics, sys
d, replicas, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
val = lambda name: float(open(os.path.join(d, name)).read())
head = "| rep | numpy CPU s |" + "".join(f" trainmc {m} CPU s | numpy / {m} |" for m in modes)
print(head)
print("|" + "---|" * (2 + 2 * len(modes)))
ratios = {m: [] for m in modes}
for r in (1, 2, 3):
    npc = val(f"np{r}.cpu")
    row = f"| {r} | {npc:.2f} |"
    for m in modes:
        tc = val(f"{m}{r}.cpu")
        if tc > 0:  # /usr/bin/time counts in hundredths of a second
            ratios[m].append(npc / tc)
            row += f" {tc:.2f} | {npc / tc:.0f} |"
        else:
            row += f" {tc:.2f} | n/a (below 0.01 s) |"
    print(row)
med = lambda v: f"{statistics.median(v):.0f}" if v else "n/a"
print("| median | |" + "".join(f" | {med(ratios[m])} |" for m in modes))
print()
ref = json.load(open(os.path.join(d, "np1.json")))
print("repetition 1 (seed 1), mean completion T (days) +- se:")
print(f"  numpy reference {ref['completion_days']['mean']:.4f} +- {ref['completion_days']['se']:.4f}"
      f" (K = {ref['plan']['interval_steps']})")
for m in modes:
    t = json.load(open(os.path.join(d, f"{m}1.json")))
    c = t["completion_days"]
    z = (c["mean"] - ref["completion_days"]["mean"]) / (c["se"] ** 2 + ref["completion_days"]["se"] ** 2) ** 0.5
    print(f"  trainmc {m} ({t['mode']}) {c['mean']:.4f} +- {c['se']:.4f}, z = {z:+.2f}")
EOF
