#!/usr/bin/env bash
# Seed corpora of the libFuzzer targets (tests/fuzz_*.c): bash tests/fuzz/seed.sh OUT
# fills OUT/<target>/ for config set vary target precision importance trace engine text sacct
# trainlog.
#   config, engine: every experiment, model and distribution file in the tree, the
#     experiments of tests/fuzz/experiments (a censored run, every process at once,
#     segments mode), and every experiment of tests/invalid and tests/replays, their
#     file paths rewritten to be relative to experiments/ (the targets' base directory),
#     so their CSV traces and distribution files resolve;
#   trace: every CSV file in the tree (three times: see below), and a few edge cases;
#   set, vary, target, precision, importance, text: tests/fuzz/<target>.seeds (one seed a line,
#     "\n" a newline: the README's and the tests' examples) and the options of
#     tests/invalid/*/args.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
targets="config set vary target precision importance trace engine text sacct trainlog"
for t in $targets; do mkdir -p "${1:?usage: seed.sh OUT}/$t"; done
out=$(cd "$1" && pwd)
cd "$root"

# one seed file per line of $1 ("\n" is a newline) into $out/$2/
seeds() {
  local i=0 line
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%b' "$line" >"$out/$2/seed-$i"
    i=$((i + 1))
  done <"$1"
}

# experiments: copy, with relative file paths made relative to experiments/
for f in experiments/*.json experiments/models/*.json distributions/*/*.json \
  tests/fuzz/experiments/*.json; do
  for t in config engine; do cp "$f" "$out/$t/$(echo "$f" | tr / _)"; done
done
for f in tests/invalid/*/*.json tests/replays/*/*.json; do
  rel=../$(dirname "$f")
  for t in config engine; do
    sed -E "s#\"([^\"/][^\"]*\\.(json|csv))\"#\"$rel/\\1\"#g" "$f" >"$out/$t/$(echo "$f" | tr / _)"
  done
done

# traces
# (fuzz_trace picks the section by the length modulo 3: each file three times, with 0, 1
# and 2 more newlines, which the loader skips)
for f in $(find distributions tests/invalid tests/replays -name '*.csv'); do
  for pad in "" "\n" "\n\n"; do
    { cat "$f"; printf "$pad"; } >"$out/trace/$(echo "$f" | tr / _)${pad:+-${#pad}}"
  done
done
printf '' >"$out/trace/empty"
printf 'time_days\n' >"$out/trace/header-only"
printf 'time_days\r\n0.5\r\n1e-300\r\n' >"$out/trace/crlf-decreasing"
printf 'time_days # days\n\t0.25 \n1e308\n' >"$out/trace/huge"
printf 'time_days\n%s\n' $(seq 1 4097) >"$out/trace/too-many"

# sacct: the example and edge cases (odd lengths also read with --sacct-map, fuzz_sacct.c)
cp tests/fit/sacct-hand.txt "$out/sacct/hand"
{ cat tests/fit/sacct-hand.txt; printf '\n'; } >"$out/sacct/hand-mapped"
h='JobID|JobName|State|Start|End|Elapsed|NNodes|NodeList'
printf '%s\n' "$h" >"$out/sacct/header-only"
printf '%s\r\n1|a|RUNNING|2026-01-01T00:00:00|Unknown|00:01:00|1|n1\r\n' "$h" >"$out/sacct/running"
printf '%s\n1|a|TIMEOUT|2026-02-28T23:00:00|2026-03-01T00:00:30|01:00:30|2|n[1-2]\n' "$h" \
  >"$out/sacct/timeout"
printf 'NNodes|Elapsed|End|Start|State|JobName|JobID|NodeList|Reason\n3|1-00:00:00|2024-03-01T00:00:00|2024-02-29T00:00:00|NODE_FAIL|x|7_1|n[1-3]|None\n' \
  >"$out/sacct/leap-day"

# trainlog: Megatron-LM lines with stamps, a save, a restart by a load line and one by
# the iteration going back; odd lengths are read with fuzz_trainlog.c's --step-regex
it=' iteration %8d/   31790 | consumed samples: 15360 | elapsed time per iteration (ms): %s |'
{ printf " [2026-03-01 10:08:52]$it\n" 10 53200.0; printf " [2026-03-01 10:17:44]$it\n" 20 53150.3
  printf '  successfully saved checkpoint from iteration      20 to /ckpt\n'
  printf '  successfully loaded checkpoint from /ckpt [ t 1/8, p 1/4 ] at iteration 20\n'
  printf " [2026-03-01 11:00:00]$it\n" 30 53300.1; printf " [2026-03-01 11:09:00]$it\n" 25 53000.0
} >"$out/trainlog/megatron"
printf "$it\r\n$it\r\n" 10 53200.0 20 1e3 >"$out/trainlog/plain-crlf"
printf '2026-03-01 10:00:00 step 10 took 53200.5 ms\n2026-03-01 10:09:00 step 20 took 53100 ms\n' \
  >"$out/trainlog/regex"

# option seeds
for t in set vary target precision importance text; do seeds tests/fuzz/$t.seeds $t; done
i=0
for f in tests/invalid/*/args; do
  read -r -a words <"$f" # split on blanks, as tests/check_invalid.sh does
  sets="" vary="" target=""
  for ((k = 0; k + 1 < ${#words[@]}; k++)); do
    v=${words[k + 1]}
    case ${words[k]} in
      --set) sets+="${sets:+$'\n'}$v" ;;
      --vary) printf '%s' "$v" >"$out/vary/args-$i-$k"; [ -n "$vary" ] || vary=$v ;;
      --target) target=$v ;;
      --precision) printf '%s' "$v" >"$out/precision/args-$i-$k" ;;
      --importance) printf '%s' "$v" >"$out/importance/args-$i-$k" ;;
    esac
  done
  [ -z "$sets" ] || printf '%s' "$sets" >"$out/set/args-$i"
  [ -z "$target" ] || printf '%s\n%s' "$target" "$vary" >"$out/target/args-$i"
  i=$((i + 1))
done
