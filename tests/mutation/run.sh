#!/usr/bin/env bash
# tests/mutation/run.sh - mutation testing of trainmc (README.md here).
#
# Copies the source tree once into a temporary folder, builds it there
# (Release), checks that the unmutated suite passes, then for each mutant of
# mutants.txt: applies it, rebuilds incrementally, runs the selected tests,
# records killed / survived / stale / build-failed, and restores the file.
# The source tree given by --source is only read, never changed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

usage() {
  cat <<'EOF'
usage: tests/mutation/run.sh [--all | --sample N [--seed S] | --only ID...]
                             [--source DIR] [--tests REGEX] [--exclude REGEX]
                             [--jobs J] [--timeout SECS] [--report FILE]
                             [--mutants FILE] [--fail-fast] [--run-equivalent]
                             [--no-baseline] [--check] [--keep]

  --all             every mutant of the list (the default)
  --sample N        N mutants spread evenly over the list (every k-th);
                    with --seed S, a fixed seeded shuffle instead
  --only ID...      these mutants (ids as in mutants.txt)
  --source DIR      the tree to copy and mutate (default: this checkout);
                    it is read only, the mutants are applied to a copy
  --tests REGEX     ctest -R: run only the matching tests (default: all tests
                    but those matching --exclude)
  --exclude REGEX   ctest -E (default '^valgrind-run$' when --tests is not
                    given: memcheck of the CLI kills no semantic mutant)
  --jobs J          parallel build and ctest jobs (default 2)
  --timeout SECS    per-test timeout; a test that hangs fails, so the mutant
                    is killed by timeout (default: 3x the slowest test of the
                    baseline run, at least 60 s)
  --report FILE     also write the table and the score to FILE
  --mutants FILE    the mutant list (default: tests/mutation/mutants.txt)
  --fail-fast       ctest --stop-on-failure, the tiers but `slow` first and the
                    slow tier only if they pass (faster; fewer killing tests
                    shown)
  --no-baseline     do not run the unmutated suite first (needs --timeout): for
                    CI, whose other stages run that suite on the same tree, so
                    that a test failing unmutated fails CI there (it would
                    otherwise seem to kill every mutant)
  --run-equivalent  also run the mutants marked equivalent (to confirm that no
                    test kills them); by default only their anchors are checked
  --check           only check that every selected search text occurs exactly
                    once in --source (no build); lists the stale mutants
  --keep            keep the temporary folder (copy, build, logs)
Exit status: 0 when every non-equivalent mutant was killed and none is stale
or failed to build; 1 otherwise; 2 on a usage error or a failing baseline.
EOF
}

die() { echo "run.sh: $*" >&2; exit 2; }

select_args=(--all)
seed=""
source_dir=$top
tests_regex=""
exclude_regex=""
exclude_given=0
jobs=2
timeout=""
report=""
mutants=$here/mutants.txt
fail_fast=0
baseline=1
run_equivalent=0
check_only=0
keep=0

while [ $# -gt 0 ]; do
  case $1 in
    --all) select_args=(--all); shift ;;
    --sample) [ $# -ge 2 ] || die "--sample needs N"; select_args=(--sample "$2"); shift 2 ;;
    --seed) [ $# -ge 2 ] || die "--seed needs S"; seed=$2; shift 2 ;;
    --only)
      shift
      select_args=(--only)
      while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do select_args+=("$1"); shift; done
      [ ${#select_args[@]} -gt 1 ] || die "--only needs at least one id" ;;
    --source) [ $# -ge 2 ] || die "--source needs DIR"; source_dir=$2; shift 2 ;;
    --tests) [ $# -ge 2 ] || die "--tests needs REGEX"; tests_regex=$2; shift 2 ;;
    --exclude) [ $# -ge 2 ] || die "--exclude needs REGEX"; exclude_regex=$2; exclude_given=1; shift 2 ;;
    --jobs) [ $# -ge 2 ] || die "--jobs needs J"; jobs=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || die "--timeout needs SECS"; timeout=$2; shift 2 ;;
    --report) [ $# -ge 2 ] || die "--report needs FILE"; report=$2; shift 2 ;;
    --mutants) [ $# -ge 2 ] || die "--mutants needs FILE"; mutants=$2; shift 2 ;;
    --fail-fast) fail_fast=1; shift ;;
    --no-baseline) baseline=0; shift ;;
    --run-equivalent) run_equivalent=1; shift ;;
    --check) check_only=1; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

case $jobs in ''|*[!0-9]*|0) die "--jobs: expected a positive integer, got '$jobs'" ;; esac
if [ -n "$timeout" ]; then
  case $timeout in *[!0-9]*|0) die "--timeout: expected a positive integer of seconds" ;; esac
fi
[ -d "$source_dir" ] || die "--source: no folder $source_dir"
source_dir=$(cd "$source_dir" && pwd)
[ -f "$source_dir/CMakeLists.txt" ] || die "--source: $source_dir has no CMakeLists.txt"
[ -f "$mutants" ] || die "no mutant list $mutants"
mutants=$(cd "$(dirname "$mutants")" && pwd)/$(basename "$mutants")
if [ -n "$report" ]; then
  touch "$report" 2>/dev/null || die "--report: cannot write $report"
  report=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
fi
if [ -n "$seed" ]; then
  [ "${select_args[0]}" = --sample ] || die "--seed goes with --sample"
  select_args+=(--seed "$seed")
fi
[ -z "$tests_regex" ] && [ $exclude_given -eq 0 ] && exclude_regex='^valgrind-run$'

py() { python3 "$here/mutate.py" "$@"; }

mapfile -t ids < <(py select "$mutants" "${select_args[@]}")
[ ${#ids[@]} -gt 0 ] || die "no mutant selected"
declare -A mfile mequiv
while IFS=$'\t' read -r id file eq; do
  mfile[$id]=$file
  mequiv[$id]=$eq
done < <(py list "$mutants")

if [ $check_only -eq 1 ]; then
  py check "$mutants" "$source_dir" "${ids[@]}"
  exit $?
fi

start_all=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/trainmc-mutation.XXXXXX")
cleanup() {
  if [ $keep -eq 1 ]; then
    echo "run.sh: kept $work (src/, build/, logs/)" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
src=$work/src
build=$work/build
logs=$work/logs
mkdir -p "$src" "$logs"

# ---- copy the tree once: tracked + untracked files, no .git, no build*/ folders
list=$work/files
if git -C "$source_dir" rev-parse --show-toplevel >/dev/null 2>&1 &&
   [ "$(git -C "$source_dir" rev-parse --show-toplevel)" = "$source_dir" ]; then
  # read-only git query; --others --exclude-standard: untracked but not ignored
  git -C "$source_dir" ls-files -z --cached --others --exclude-standard |
    python3 -c '
import os, sys
root = sys.argv[1]
for p in sys.stdin.buffer.read().split(b"\0"):
    if not p:
        continue
    parts = p.split(b"/")
    if any(c.startswith(b"build") for c in parts[:-1]) or parts[0] == b".git":
        continue
    if os.path.lexists(os.path.join(root.encode(), p)):
        sys.stdout.buffer.write(p + b"\0")
' "$source_dir" >"$list"
else
  (cd "$source_dir" &&
   find . -path ./.git -prune -o -type d -name 'build*' -prune -o \( -type f -o -type l \) -print0) >"$list"
fi
tar -C "$source_dir" --null -T "$list" -cf - | tar -C "$src" -xf -
echo "run.sh: copied $(tr -cd '\0' <"$list" | wc -c) files of $source_dir to $src" >&2

# ---- baseline: configure and build once, the unmutated suite must pass
echo "run.sh: configuring and building the baseline (Release) ..." >&2
# no link-time optimisation: the semantics are the same, and every mutant
# relinks every test program
if ! cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTRAINMC_IPO=OFF \
     >"$logs/configure.log" 2>&1; then
  tail -n 30 "$logs/configure.log" >&2
  die "configure failed (log above)"
fi
if ! cmake --build "$build" -j "$jobs" >"$logs/baseline-build.log" 2>&1; then
  tail -n 30 "$logs/baseline-build.log" >&2
  die "the unmutated tree does not build"
fi

ctest_sel=()
[ -n "$tests_regex" ] && ctest_sel+=(-R "$tests_regex")
[ -n "$exclude_regex" ] && ctest_sel+=(-E "$exclude_regex")
n_tests=$(cd "$build" && ctest -N "${ctest_sel[@]}" | sed -n 's/^Total Tests: *//p')
[ "${n_tests:-0}" -gt 0 ] || die "no test matches the selection (${ctest_sel[*]})"

# tests that failed in a ctest log: "NAME (Failed)" lines, in test order
failed_tests() {
  sed -n '/The following tests FAILED:/,$p' "$1" |
    sed -n 's/^[[:space:]]*[0-9][0-9]* - \(.*\) (\([^)]*\))[[:space:]]*$/\1 (\2)/p'
}

base_s=0
if [ "$baseline" = 0 ]; then
  [ -n "$timeout" ] || die "--no-baseline needs --timeout SECS"
  echo "run.sh: no baseline run (--no-baseline): $n_tests tests (${ctest_sel[*]:-all}); per-test timeout ${timeout} s" >&2
else
  echo "run.sh: baseline: $n_tests tests (${ctest_sel[*]:-all}) ..." >&2
  base_start=$(date +%s)
  if ! (cd "$build" && ctest -j "$jobs" --timeout "${timeout:-1800}" "${ctest_sel[@]}") \
       >"$logs/baseline-ctest.log" 2>&1; then
    failed_tests "$logs/baseline-ctest.log" >&2
    die "the unmutated suite fails: fix it first (log: $logs/baseline-ctest.log; use --keep)"
  fi
  base_s=$(( $(date +%s) - base_start ))
  slowest=$(awk '/ sec$/ && !/Total Test time/ { t = $(NF-1) + 0; if (t > m) m = t } END { printf "%d", m + 1 }' \
            "$logs/baseline-ctest.log")
  if [ -z "$timeout" ]; then
    timeout=$(( 3 * slowest ))
    [ "$timeout" -lt 60 ] && timeout=60
  fi
  echo "run.sh: baseline passed in ${base_s} s (slowest test ${slowest} s); per-test timeout ${timeout} s" >&2
fi

# ---- the mutants
declare -A result first
count_killed=0; count_survived=0; count_stale=0; count_build=0; count_equiv=0; count_error=0
equiv_killed=0
i=0
for id in "${ids[@]}"; do
  i=$((i + 1))
  file=${mfile[$id]}
  t0=$(date +%s)
  log=$logs/$id.log
  first[$id]=""
  if [ "${mequiv[$id]}" = E ] && [ $run_equivalent -eq 0 ]; then
    if py check "$mutants" "$src" "$id" >"$log" 2>&1; then
      result[$id]=equivalent; count_equiv=$((count_equiv + 1))
    else
      result[$id]=stale; count_stale=$((count_stale + 1)); first[$id]=$(cut -f3 "$log")
    fi
    printf 'run.sh: [%d/%d] %-40s %s\n' "$i" "${#ids[@]}" "$id" "${result[$id]}" >&2
    continue
  fi
  cp -p "$src/$file" "$work/original"
  rc=0
  py apply "$mutants" "$id" "$src" >"$log" 2>&1 || rc=$?
  if [ $rc -eq 3 ]; then
    result[$id]=stale; count_stale=$((count_stale + 1))
    first[$id]="search text not found exactly once"
    echo "run.sh: STALE mutant $id: $(cat "$log")" >&2
    continue
  elif [ $rc -ne 0 ]; then
    cat "$log" >&2
    die "could not apply mutant $id"
  fi
  touch "$src/$file"
  if ! cmake --build "$build" -j "$jobs" >>"$log" 2>&1; then
    result[$id]="build-failed"; count_build=$((count_build + 1))
    first[$id]=$(grep -m1 'error:' "$log" | sed 's/^.*error: //' | cut -c1-60 || true)
  else
    crc=0
    if [ $fail_fast -eq 1 ]; then
      # the fast tiers first: ctest starts its costliest tests first, so a
      # mutant a unit test kills would otherwise wait for the slow tier
      (cd "$build" && ctest -j "$jobs" --timeout "$timeout" --stop-on-failure -LE slow \
         "${ctest_sel[@]}") >>"$log" 2>&1 || crc=$?
      [ $crc -eq 0 ] && { (cd "$build" && ctest -j "$jobs" --timeout "$timeout" \
         --stop-on-failure -L slow "${ctest_sel[@]}") >>"$log" 2>&1 || crc=$?; }
    else
      (cd "$build" && ctest -j "$jobs" --timeout "$timeout" "${ctest_sel[@]}") \
        >>"$log" 2>&1 || crc=$?
    fi
    mapfile -t failing < <(failed_tests "$log")
    if [ $crc -eq 0 ]; then
      r=survived
    elif [ ${#failing[@]} -eq 0 ]; then
      r=error; first[$id]="ctest exit $crc, no failing test listed"
    else
      r=killed-timeout
      for f in "${failing[@]}"; do
        case $f in *"(Timeout)") ;; *) r=killed ;; esac
      done
      first[$id]=${failing[0]}
      [ ${#failing[@]} -gt 1 ] && first[$id]="${failing[0]} +$(( ${#failing[@]} - 1 )) more"
    fi
    if [ "${mequiv[$id]}" = E ]; then
      case $r in
        killed*) r=equivalent-killed; equiv_killed=$((equiv_killed + 1)) ;;
        survived) r=equivalent ;;
      esac
    fi
    result[$id]=$r
    case $r in
      killed|killed-timeout) count_killed=$((count_killed + 1)) ;;
      survived) count_survived=$((count_survived + 1)) ;;
      equivalent|equivalent-killed) count_equiv=$((count_equiv + 1)) ;;
      error) count_error=$((count_error + 1)) ;;
    esac
  fi
  cp -p "$work/original" "$src/$file"
  touch "$src/$file" # newer than the mutant's objects: the next build recompiles it
  printf 'run.sh: [%d/%d] %-40s %-15s %s (%d s)\n' "$i" "${#ids[@]}" "$id" "${result[$id]}" \
    "${first[$id]}" $(( $(date +%s) - t0 )) >&2
done

# ---- the table and the score
total=${#ids[@]}
denominator=$((total - count_equiv - count_stale - count_build - count_error))
elapsed=$(( $(date +%s) - start_all ))
{
  echo "trainmc mutation testing: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "source: $source_dir"
  echo "tests: ${ctest_sel[*]:-all} ($n_tests tests, ctest -j$jobs, timeout ${timeout} s per test)"
  echo
  printf '%-40s %-17s %s\n' "mutant" "result" "first failing test"
  printf '%-40s %-17s %s\n' "------" "------" "------------------"
  for id in "${ids[@]}"; do
    printf '%-40s %-17s %s\n' "$id" "${result[$id]}" "${first[$id]:--}"
  done
  echo
  echo "total $total: killed $count_killed, survived $count_survived, equivalent $count_equiv," \
       "stale $count_stale, build-failed $count_build, error $count_error"
  if [ $denominator -gt 0 ]; then
    echo "score: $count_killed / $denominator = $(awk -v k=$count_killed -v d=$denominator \
         'BEGIN { printf "%.1f %%", 100 * k / d }')" \
         "(killed / (total - equivalent - stale - build-failed - error))"
  else
    echo "score: no mutant left to score"
  fi
  if [ $count_survived -gt 0 ]; then
    echo
    echo "survivors (the semantic no test checks):"
    for id in "${ids[@]}"; do
      [ "${result[$id]}" = survived ] || continue
      printf '  %-38s %s\n' "$id" "$(py show "$mutants" "$id" | sed -n 's/^breaks: //p')"
    done
  fi
  if [ $equiv_killed -gt 0 ]; then
    echo "warning: $equiv_killed mutant(s) marked equivalent were killed: they are not equivalent"
  fi
  echo "elapsed: $((elapsed / 60)) min $((elapsed % 60)) s (baseline suite ${base_s} s)"
} | tee "${report:-/dev/null}"

[ $count_survived -eq 0 ] && [ $count_stale -eq 0 ] && [ $count_build -eq 0 ] &&
  [ $count_error -eq 0 ] && [ $equiv_killed -eq 0 ]
