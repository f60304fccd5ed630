#!/bin/sh
# mpi-*: trainmc built with -DTRAINMC_MPI=ON under Open MPI's mpirun (issue 6).
# usage: check_mpi.sh MPIEXEC TRAINMC EXPERIMENT identical|failures
# - identical: `mpirun -np K trainmc run|emax|sweep` (also with the
#   interval "optimal", searched first; with --importance and the plain
#   replicas run in place of its estimate) writes byte-identical
#   JSON to one process's, whatever K and the threads per rank (replica k
#   uses stream k; chunk sums are added in chunk order), including uneven
#   blocks and ranks with no chunk at all; the report is printed once.
# - failures: a failure that one rank alone sees (a file it cannot read, too
#   little memory) fails every rank with that rank's message on rank 0, one
#   exit code, and no output file; SIGTERM to mpirun stops every rank with
#   one message and no output file.
set -u
mpiexec=$1
bin=$2
experiment=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "mpi: $*" >&2; exit 1; }
# mpi K ARGS...: ARGS on K ranks (as root in CI; more ranks than cores is fine)
mpi() { np=$1; shift; "$mpiexec" --allow-run-as-root --oversubscribe -np "$np" "$@"; }
# same A B: the files A and B are identical
same() { cmp "$dir/$1" "$dir/$2" || fail "$1 and $2 differ"; }

identical() {
  run="run $experiment --seed 7 --quiet"
  "$bin" $run --replicas 300 --threads 1 --json "$dir/one.json" >"$dir/one.txt" ||
    fail "one process failed"
  mpi 2 "$bin" $run --replicas 300 --threads 2 --json "$dir/np2.json" >"$dir/np2.txt" ||
    fail "2 ranks failed"
  same one.json np2.json
  [ "$(grep -c '^trainmc run:' "$dir/np2.txt")" -eq 1 ] || fail "2 ranks: not one report"
  # 19 chunks of 16 over 3 ranks: blocks of 6, 6 and 7
  mpi 3 "$bin" $run --replicas 300 --threads 1 --json "$dir/np3.json" >/dev/null ||
    fail "3 ranks failed"
  same one.json np3.json
  # 2 chunks over 3 ranks: rank 0 has none
  "$bin" $run --replicas 20 --threads 1 --json "$dir/one20.json" >/dev/null &&
    mpi 3 "$bin" $run --replicas 20 --threads 1 --json "$dir/np3-20.json" >/dev/null ||
    fail "20 replicas failed"
  same one20.json np3-20.json

  # emax: 5 chunks of 4096 over 2 and 3 ranks
  emax="emax --cards 8,48,1024 --replicas 20000 --seed 7"
  "$bin" $emax --threads 1 --json "$dir/emax1.json" >/dev/null &&
    mpi 2 "$bin" $emax --threads 1 --json "$dir/emax2.json" >/dev/null &&
    mpi 3 "$bin" $emax --threads 2 --json "$dir/emax3.json" >/dev/null || fail "emax failed"
  same emax1.json emax2.json
  same emax1.json emax3.json

  # sweep: 4 settings, each through the runner on 3 ranks
  sweep="sweep $experiment --vary checkpoint.interval_s=900,1800 --vary job.cards=48,64"
  sweep="$sweep --replicas 200 --seed 7 --quiet"
  "$bin" $sweep --threads 1 --json "$dir/sweep1.json" >/dev/null &&
    mpi 3 "$bin" $sweep --threads 1 --json "$dir/sweep3.json" >/dev/null || fail "sweep failed"
  same sweep1.json sweep3.json

  # checkpoint.interval_s "optimal": the search's runs are collective too,
  # in run and in each setting of a sweep
  opt="--set checkpoint.interval_s=\"optimal\" --replicas 200 --seed 7 --quiet"
  "$bin" run $experiment $opt --threads 1 --json "$dir/opt1.json" >/dev/null &&
    mpi 3 "$bin" run $experiment $opt --threads 2 --json "$dir/opt3.json" >/dev/null ||
    fail "optimal failed"
  same opt1.json opt3.json
  "$bin" sweep $experiment --vary job.cards=48,64 $opt --threads 1 --json "$dir/os1.json" \
    >/dev/null && mpi 2 "$bin" sweep $experiment --vary job.cards=48,64 $opt --threads 1 \
    --json "$dir/os2.json" >/dev/null || fail "optimal sweep failed"
  same os1.json os2.json

  # importance sampling, its pilots and the plain replicas run in place of
  # an untrusted estimate (k-hat 0.69 > 0.5 here: about 23,000 of them)
  rare="$(dirname "$experiment")/design-48-rare-misses.json"
  imp="--set deadline.days=30 --replicas 20000 --seed 1000 --quiet --importance auto"
  "$bin" run "$rare" $imp --threads 1 --json "$dir/is1.json" >/dev/null &&
    mpi 3 "$bin" run "$rare" $imp --threads 1 --json "$dir/is3.json" >/dev/null ||
    fail "importance failed"
  grep -q '"plain":[[:space:]]*{' "$dir/is1.json" || fail "importance: no plain replicas ran"
  same is1.json is3.json
}

# rank1 CODE ARGS...: `trainmc ARGS` on 2 ranks, rank 1 alone running the
# shell command CODE first (rank numbers: Open MPI's environment).
rank1() {
  code=$1
  shift
  mpi 2 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then eval "$1"; fi; shift; exec "$@"' \
    sh "$code" "$bin" "$@"
}

# expect_failure CODE MESSAGE: the last run exited CODE, rank 0 printed
# MESSAGE once, and no output file or temporary file is left.
expect_failure() {
  [ "$rc" -eq "$1" ] || fail "exit $rc, expected $1: $(cat "$dir/err")"
  [ "$(grep -c "^$2" "$dir/err")" -eq 1 ] || fail "expected '$2' once in: $(cat "$dir/err")"
  [ -z "$(ls "$dir" | grep out.json)" ] || fail "an output file was left: $(ls "$dir")"
}

failures() {
  # the experiment, a relative path, is missing where rank 1 looks
  mkdir "$dir/empty"
  (cd "$(dirname "$experiment")" &&
    rank1 "cd '$dir/empty'" run "$(basename "$experiment")" --replicas 300 --quiet \
      --json "$dir/out.json") >/dev/null 2>"$dir/err"
  rc=$?
  expect_failure 2 "trainmc: rank 1 of 2: $(basename "$experiment"): cannot open"
  # rank 1 reads another file of the same name (issue 13: 1 card there, 48
  # on rank 0, mixed silently with exit 0): refused by the digest check
  mkdir "$dir/other"
  sed 's/"cards": 48/"cards": 1/' "$experiment" >"$dir/other/$(basename "$experiment")"
  sed -i "s|\"\\.\\./distributions/|\"$(dirname "$experiment")/../distributions/|; s|\"models/|\"$(dirname "$experiment")/models/|" \
    "$dir/other/$(basename "$experiment")"
  (cd "$(dirname "$experiment")" &&
    rank1 "cd '$dir/other'" run "$(basename "$experiment")" --replicas 300 --quiet \
      --json "$dir/out.json") >/dev/null 2>"$dir/err"
  rc=$?
  expect_failure 2 "trainmc: rank 1 of 2: $(basename "$experiment"): this rank read another experiment"
  # rank 1 killed (SIGKILL) in the middle of a long run: MPI ends rank 0 too
  # (SIGTERM, then SIGKILL), and rank 0's temporary file must not be left
  # (issue 13): the signal handler removes it at once
  rank1 "(sleep 2; kill -KILL \$\$) &" run "$experiment" --replicas 100000000 --quiet \
    --json "$dir/out.json" >/dev/null 2>"$dir/err"
  rc=$?
  [ $rc -ne 0 ] || fail "a killed rank: exit 0"
  [ -z "$(ls "$dir" | grep out.json)" ] || fail "a killed rank: a file was left: $(ls "$dir")"
  # 1.6 GB of completion times against 1 GB of address space on rank 1
  rank1 "ulimit -v 1000000" run "$experiment" --replicas 200000000 --quiet \
    --json "$dir/out.json" >/dev/null 2>"$dir/err"
  rc=$?
  expect_failure 1 "trainmc: rank 1 of 2: out of memory for 200000000 replicas"
  # mpirun passes SIGTERM to every rank (and then exits with 1 itself);
  # SIGINT would do the same, but a background job here ignores it. Not
  # through mpi(): $! would be a subshell's.
  "$mpiexec" --allow-run-as-root --oversubscribe -np 2 "$bin" run "$experiment" \
    --replicas 100000000 --quiet --json "$dir/out.json" >/dev/null 2>"$dir/err" &
  pid=$!
  sleep 3
  kill -TERM $pid
  wait $pid
  rc=$?
  [ $rc -ne 0 ] || fail "SIGTERM: exit 0"
  rc=1
  expect_failure 1 "trainmc: interrupted after [0-9]* of 100000000 replicas; no results written"
}

$4
