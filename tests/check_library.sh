#!/bin/sh
# library-install: libtrainmc as a user meets it (issue 16). `cmake
# --install` of the build under a fresh prefix must give lib/libtrainmc.so
# and .a, include/trainmc.h, a pkg-config file and a CMake package; then
# tests/library/example.c is built against the installed copy
# - with `pkg-config --cflags --libs trainmc` (shared) and
#   `pkg-config --static` (the static library),
# - with find_package(trainmc) (tests/library/consumer: the targets
#   trainmc::trainmc and trainmc::trainmc_static),
# and each build runs a few replicas: its checks pass, and its P(deadline)
# and mean completion time equal, digit for digit, those of the installed
# `trainmc run` for the same experiment, replicas and seed. The shared
# library exports only what trainmc.h declares. tests/library/commands.c
# runs forecast, fit, cheapest, sensitivity and rescue through the library:
# their documents equal the installed program's --json, their refusals
# name the library's parameters, and nothing is printed.
# Usage: check_library.sh CMAKE BUILD_DIR SOURCE_DIR [CFLAGS]
# (CFLAGS: compiler flags every example build needs, e.g. the sanitizers of a
# sanitized library.)
set -u
cmake=$1
build=$2
src=$3
flags=${4:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
fail() {
  echo "$*" >&2
  status=1
}

prefix=$dir/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$dir/install.log" 2>&1 ||
  { cat "$dir/install.log" >&2; echo "cmake --install failed" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libtrainmc.so' | head -n 1)")
for f in "$libdir/libtrainmc.so" "$libdir/libtrainmc.a" "$prefix/include/trainmc.h" \
    "$libdir/pkgconfig/trainmc.pc" "$libdir/cmake/trainmc/trainmcConfig.cmake"; do
  [ -f "$f" ] || fail "not installed: $f"
done
[ $status -eq 0 ] || exit 1

# the exported symbols are the functions trainmc.h declares, and all of them
nm -D --defined-only "$libdir/libtrainmc.so" | awk '$2 == "T" { print $3 }' | sort >"$dir/exported"
grep -o '^TMC_API [^(]*(' "$prefix/include/trainmc.h" | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/' |
  sort >"$dir/declared"
cmp -s "$dir/exported" "$dir/declared" ||
  { fail "libtrainmc.so exports (<) other than trainmc.h declares (>):"; diff "$dir/exported" "$dir/declared" >&2; }

experiment=$src/experiments/quickstart-64.json
replicas=40
seed=11
# the installed program's figures for the same run
"$prefix/bin/trainmc" run "$experiment" -n $replicas --seed $seed --set deadline.days=30 \
  --json "$dir/cli.json" >/dev/null || fail "trainmc run failed"
want=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("probability %.15g mean %.15g replicas %d" % (d["deadline"]["probability"],
      d["completion_days"]["mean"], d["replicas"]))' "$dir/cli.json")

# run_example NAME BINARY: its output equals the program's
run_example() {
  got=$(LD_LIBRARY_PATH=$libdir "$2" "$experiment" $replicas $seed) ||
    fail "$1: the example failed"
  [ "$got" = "$want" ] || fail "$1: '$got', but trainmc run gave '$want'"
}

export PKG_CONFIG_PATH=$libdir/pkgconfig
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -std=c11 $flags -o "$dir/pc-shared" "$src/tests/library/example.c" \
  $(pkg-config --cflags --libs trainmc) -lm 2>"$dir/cc.log" ||
  { cat "$dir/cc.log" >&2; fail "pkg-config: building against libtrainmc.so failed"; }
# shellcheck disable=SC2046
$cc -std=c11 $flags -o "$dir/pc-static" "$src/tests/library/example.c" \
  $(pkg-config --cflags trainmc) "$libdir/libtrainmc.a" \
  $(pkg-config --static --libs-only-l trainmc | sed 's/-ltrainmc//') 2>"$dir/cc.log" ||
  { cat "$dir/cc.log" >&2; fail "pkg-config --static: building against libtrainmc.a failed"; }
[ -x "$dir/pc-shared" ] && run_example "pkg-config, shared" "$dir/pc-shared"
[ -x "$dir/pc-static" ] && run_example "pkg-config, static" "$dir/pc-static"
ldd "$dir/pc-static" 2>/dev/null | grep -q libtrainmc && fail "the static build loads libtrainmc.so"

"$cmake" -S "$src/tests/library/consumer" -B "$dir/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  >"$dir/cmake.log" 2>&1 && "$cmake" --build "$dir/consumer" >>"$dir/cmake.log" 2>&1 ||
  { cat "$dir/cmake.log" >&2; fail "find_package(trainmc): configuring or building failed"; }
for kind in shared static; do
  [ -x "$dir/consumer/example_$kind" ] &&
    run_example "find_package, $kind" "$dir/consumer/example_$kind"
done

# the other commands (tests/library/commands.c): each document equals the
# installed program's --json for the same inputs, and nothing is printed
mkdir -p "$dir/docs"
# shellcheck disable=SC2046
$cc -std=c11 $flags -o "$dir/commands" "$src/tests/library/commands.c" \
  $(pkg-config --cflags --libs trainmc) -lm 2>"$dir/cc.log" ||
  { cat "$dir/cc.log" >&2; fail "pkg-config: building commands.c failed"; }
if [ -x "$dir/commands" ]; then
  LD_LIBRARY_PATH=$libdir "$dir/commands" "$src" "$dir/docs" >"$dir/commands.out" 2>&1 ||
    fail "commands: a promise broken"
  [ -s "$dir/commands.out" ] && { cat "$dir/commands.out" >&2; fail "commands printed"; }
  t="$prefix/bin/trainmc"
  e=$src/experiments
  "$t" forecast "$e/forecast-design-48-day9.json" --history "$e/forecast-history-design-48.jsonl" \
    -n 60 --seed 3 -t 2 --quiet --json "$dir/docs/forecast.cli" \
    --html "$dir/docs/forecast.cli.html" >/dev/null
  "$t" forecast "$e/forecast-design-48-day9.json" --log "$src/tests/fit/train-megatron.log" \
    -n 60 --seed 3 -t 2 --quiet --json "$dir/docs/forecast-log.cli" >/dev/null
  "$t" fit "$src/distributions/infinitehbd-fault-trace/fault_trace.json" --nodes 400 \
    --cards-per-node 8 --json "$dir/docs/fit.cli" >/dev/null
  f=$src/distributions/infinitehbd-fault-trace/fault_trace.json
  "$t" fit "$f" --nodes 400 --cards-per-node 8 --write "$dir/docs/fit-write.cli" >/dev/null
  "$t" fit "$f" --nodes 400 --cards-per-node 8 --law weibull \
    --write "$dir/docs/fit-write-weibull.cli" >/dev/null
  "$t" fit "$f" --nodes 400 --cards-per-node 8 --bursts --json "$dir/docs/fit-bursts.cli" \
    --write "$dir/docs/fit-write-bursts.cli" >/dev/null
  "$t" fit "$src/tests/fit/steps-hand.csv" --steps --json "$dir/docs/fit-steps.cli" \
    --write "$dir/docs/fit-steps-write.cli" >/dev/null
  "$t" fit "$src/tests/fit/sacct-hand.txt" --sacct --sacct-map TIMEOUT=node \
    --json "$dir/docs/fit-sacct.cli" >/dev/null
  "$t" fit "$src/tests/fit/sacct-hand.txt" --sacct --sacct-map TIMEOUT=node \
    --cards-per-node 4 --write "$dir/docs/fit-sacct-write.cli" >/dev/null
  "$t" cheapest "$e/design-48.json" --lever job.cards=32:96 --target 0.5 -n 40 --seed 5 -t 2 \
    --quiet --json "$dir/docs/cheapest.cli" >/dev/null
  "$t" sensitivity "$e/design-48.json" --compound job.efficiency=0.35,jitter.cv=0.08 -n 40 \
    --seed 7 -t 2 --quiet --json "$dir/docs/sensitivity.cli" \
    --html "$dir/docs/sensitivity.cli.html" >/dev/null
  "$t" rescue "$e/design-48-stress.json" --set deadline.days=24 \
    --levers deadline.days,job.steps -n 30 --seed 2 -t 2 --quiet \
    --json "$dir/docs/rescue.cli" >/dev/null
  # NAME-text: the same command on the experiment's text, the same document
  # fit*-write: tmc_document_fragment against --write's file
  for c in forecast forecast-log fit fit-steps fit-sacct cheapest sensitivity rescue \
    fit-bursts fit-write fit-write-weibull fit-write-bursts fit-steps-write fit-sacct-write \
    forecast-text:forecast forecast-log-text:forecast-log cheapest-text:cheapest \
    sensitivity-text:sensitivity rescue-text:rescue; do
    cli=${c#*:}
    c=${c%%:*}
    python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a == b else "%s: the library and the program differ at %s" % (
    sys.argv[1], [k for k in set(a) | set(b) if a.get(k) != b.get(k)]))' \
      "$dir/docs/$c.json" "$dir/docs/$cli.cli" || fail "$c: the library's document is not the program's"
  done
fi

# tmc_document_html: the program's --html page byte for byte, but for the
# command its footer names (the program's command line, the library's call)
if [ -x "$dir/commands" ]; then
  for c in forecast sensitivity forecast-text sensitivity-text; do
    python3 -c 'import re, sys
a, b = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
cmd = re.compile(r"<pre class=\"command\">[^<]*</pre>")
assert "libtrainmc: tmc_experiment_" in a, "the library page names no call"
sys.exit(0 if cmd.sub("", a) == cmd.sub("", b) else sys.argv[1] + ": the pages differ")' \
      "$dir/docs/$c.html" "$dir/docs/${c%-text}.cli.html" || fail "$c: the library's page is not the program's"
  done
fi

[ $status -eq 0 ] && echo "library: installed, built with pkg-config and find_package, shared and static: $want"
exit $status
