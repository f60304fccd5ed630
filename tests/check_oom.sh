#!/bin/sh
# cli-out-of-memory (issue 12): memory that runs out inside a replica (here
# the per-card lifetime heap of 1e7 Weibull cards, 80 MB, under a 60 MB
# address-space limit) is exit 1 with its own message, not "interrupted"
# (exit 130), and no output file is written. Not run under sanitizers, whose
# shadow memory needs far more address space than any such limit.
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/oom.json" <<'JSON'
{"name": "oom", "job": {"steps": 10, "cards": 10000000, "flop_per_step": 1e8, "peak_flops": 1,
 "efficiency": 1}, "failures": {"distribution": "weibull", "shape": 2, "per_card_mtbf_days": 1e5},
 "checkpoint": {"interval_steps": 5, "save_s": 1, "restore_s": 1}, "deadline": {"days": 1000},
 "monte_carlo": {"replicas": 4, "seed": 1}}
JSON
(ulimit -v 60000 && exec "$bin" run "$dir/oom.json" --quiet --json "$dir/out.json") \
  >"$dir/stdout" 2>"$dir/stderr"
rc=$?
fail() { echo "cli-out-of-memory: $*" >&2; cat "$dir/stderr" >&2; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
grep -q "out of memory inside a replica" "$dir/stderr" || fail "no out-of-memory message"
grep -q "interrupted" "$dir/stderr" && fail "reported as interrupted"
[ -e "$dir/out.json" ] && fail "an output file was written"
ls "$dir" | grep -q tmp && fail "a temporary file was left"
exit 0
