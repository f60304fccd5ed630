#!/bin/sh
# bench_fit.sh - how long `trainmc fit` takes on a long CSV fault log
# (issue 33, item 11). Not a test: speed is never asserted in CTest.
#
#   sh tests/bench_fit.sh TRAINMC ROWS [NODES]
#
# writes a CSV of ROWS faults (awk, seed 1: exponential up times of mean
# 3 days per node, lognormal repairs of median 0.5 day (times to 1e-3 day,
# about 24 bytes a row), renewed per node
# so that no two faults of a node overlap) over NODES nodes (default
# ROWS / 10) into a temporary folder, then times `trainmc fit` on it with
# --json (wall and CPU seconds and the peak memory from /usr/bin/time when it
# is there). The log is removed at the end.
set -eu
bin=$1
rows=$2
nodes=${3:-$((rows / 10))}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
log=$dir/faults.csv
start=$(date +%s.%N)
awk -v rows="$rows" -v nodes="$nodes" 'BEGIN {
    srand(1); print "node,start,end,cause"
    per = int(rows / nodes); extra = rows - per * nodes
    span = 0
    for (i = 0; i < nodes; i++) {
        k = per + (i < extra); t = 0
        for (j = 0; j < k; j++) {
            t += -log(1 - rand()) * 3
            u1 = rand(); u2 = rand()
            r = exp(log(0.5) + 0.8 * sqrt(-2 * log(1 - u1)) * cos(6.283185307 * u2))
            printf "n%d,%.3f,%.3f,%s\n", i, t, t + r, (j % 7 ? "hw" : "sw")
            t += r
        }
        if (t > span) span = t
    }
}' > "$log"
gen=$(echo "$(date +%s.%N) - $start" | bc)
size=$(wc -c < "$log")
echo "rows $rows nodes $nodes bytes $size (written in ${gen} s)"
start=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e s wall, %U s user, %S s sys (CPU: the machine may be shared), peak %M KiB" "$bin" fit "$log" --nodes "$nodes" --cards-per-node 8 \
        --json "$dir/out.json" > "$dir/out.txt"
else
    "$bin" fit "$log" --nodes "$nodes" --cards-per-node 8 --json "$dir/out.json" > "$dir/out.txt"
fi
secs=$(echo "$(date +%s.%N) - $start" | bc)
echo "fit: $secs s"
grep -E "^Answer|fitted: mean" "$dir/out.txt" || true
