#!/bin/sh
# cli-files: output files and streams are never corrupted (issue 7;
# docs/reference/limits-and-errors.md). Each check names what it expects; the first failure stops.
set -u
bin=$1
experiment=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "cli-files: $*" >&2; exit 1; }
run() { "$bin" run "$experiment" --replicas 20 --quiet "$@"; }

# 1. a device is refused before any simulation, and stays a device
run --json /dev/null >"$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "--json /dev/null: exit $rc, expected 2"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
grep -q "not a regular file" "$dir/err" || fail "--json /dev/null: $(cat "$dir/err")"
grep -q "trainmc run:" "$dir/out" && fail "--json /dev/null: the simulation ran first"

# 2. a folder is refused before any simulation
mkdir "$dir/folder"
run --json "$dir/folder" >"$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "--json FOLDER: exit $rc, expected 2"
grep -q "trainmc run:" "$dir/out" && fail "--json FOLDER: the simulation ran first"

# 3. the experiment file itself is refused and left as it was
cp "$experiment" "$dir/self.json"
sed -i "s|\"\\.\\./distributions/|\"$(dirname "$experiment")/../distributions/|; s|\"models/|\"$(dirname "$experiment")/models/|" "$dir/self.json"
cp "$dir/self.json" "$dir/self.orig"
"$bin" run "$dir/self.json" --replicas 20 --quiet --json "$dir/self.json" >/dev/null 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "--json EXPERIMENT: exit $rc, expected 2 ($(cat "$dir/err"))"
cmp -s "$dir/self.json" "$dir/self.orig" || fail "--json EXPERIMENT changed the experiment"

# 3b. no other input either (issue 13): a distribution file and a failure
# trace the run reads, reached through a hard link, a symbolic link and ".."
mkdir "$dir/in"
cat >"$dir/in/trace.csv" <<'CSV'
time_days
0.01
CSV
printf '{"source": "test", "distribution": "trace", "trace": "trace.csv"}\n' >"$dir/in/fail.json"
cat >"$dir/in/exp.json" <<'JSON'
{"name": "inputs", "job": {"steps": 100, "cards": 8, "flop_per_step": 80, "peak_flops": 1,
 "efficiency": 1}, "jitter": {"distribution": "normal", "cv": 0.05}, "failures": "fail.json",
 "checkpoint": {"interval_steps": 10, "save_s": 1, "restore_s": 5}, "deadline": {"days": 1},
 "monte_carlo": {"replicas": 20, "seed": 1}}
JSON
ln "$dir/in/trace.csv" "$dir/hard.csv"
ln -s "$dir/in/fail.json" "$dir/soft.json"
for target in "$dir/in/fail.json" "$dir/hard.csv" "$dir/soft.json" "$dir/in/../in/trace.csv"; do
  cp "$target" "$dir/before"
  "$bin" run "$dir/in/exp.json" --quiet --json "$target" >/dev/null 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] || fail "--json $target (an input): exit $rc, expected 2 ($(cat "$dir/err"))"
  grep -q "is an input of the run" "$dir/err" || fail "--json $target: $(cat "$dir/err")"
  cmp -s "$target" "$dir/before" || fail "--json $target changed an input"
done

# 3c. a long distribution path is read whole (it was cut at 1,023 bytes, so
# another file loaded), and one too long for any path is refused (issue 13)
long=$(printf './%.0s' $(seq 700))fail.json
sed "s|\"fail.json\"|\"$long\"|" "$dir/in/exp.json" >"$dir/in/long.json"
"$bin" run "$dir/in/long.json" --quiet >/dev/null 2>"$dir/err" ||
  fail "a 1,409-byte distribution path: $(cat "$dir/err")"
long=$(printf './%.0s' $(seq 2100))fail.json
sed "s|\"fail.json\"|\"$long\"|" "$dir/in/exp.json" >"$dir/in/long.json"
"$bin" run "$dir/in/long.json" --quiet >/dev/null 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "is too long once resolved" "$dir/err" ||
  fail "a 4,209-byte distribution path: exit $rc ($(cat "$dir/err"))"

# 3d. a failure trace is judged by itself (issue 13): a burst of 10 failures
# in the first 0.01 days of a 1.4-day run finishes, so it is not refused as
# "3.05e+08 times" the uninterrupted time (nor with "-nan" for tiny times)
printf 'time_days\n0.001\n0.002\n0.003\n0.004\n0.005\n0.006\n0.007\n0.008\n0.009\n0.010\n' \
  >"$dir/in/burst.csv"
sed 's|"failures": "fail.json"|"failures": {"distribution": "trace", "trace": "burst.csv"}|; s|"steps": 100,|"steps": 2000,|; s|"flop_per_step": 80|"flop_per_step": 480|' \
  "$dir/in/exp.json" >"$dir/in/burst.json"
"$bin" run "$dir/in/burst.json" --quiet >/dev/null 2>"$dir/err" ||
  fail "a burst of 10 traced failures was refused: $(cat "$dir/err")"
printf 'time_days\n1e-300\n2e-300\n' >"$dir/in/burst.csv"
"$bin" run "$dir/in/burst.json" --quiet >/dev/null 2>"$dir/err" ||
  fail "two traced failures at 1e-300 days were refused: $(cat "$dir/err")"

# 3e. a FIFO named as a trace is refused at once, never waited on
mkfifo "$dir/in/fifo.csv"
timeout 20 "$bin" run "$dir/in/exp.json" --quiet --set outages.trace=fifo.csv >/dev/null \
  2>"$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "not a regular file" "$dir/err" ||
  fail "a FIFO as a trace: exit $rc ($(cat "$dir/err"))"

# 4. a symbolic link: the file it points to is replaced, the link stays
echo old >"$dir/target.json"
ln -s "$dir/target.json" "$dir/link.json"
run --json "$dir/link.json" >/dev/null 2>&1 || fail "--json LINK failed"
[ -L "$dir/link.json" ] || fail "--json LINK replaced the link"
grep -q '"deadline"' "$dir/target.json" || fail "--json LINK did not write the target"
# 4b. a link to a file that does not exist yet is followed too (it was
# replaced by a regular file); a relative link is read from its own folder;
# a loop of links is refused
mkdir -p "$dir/links"
ln -s ../new-target.json "$dir/links/dangling.json"
run --json "$dir/links/dangling.json" >/dev/null 2>&1 || fail "--json DANGLING failed"
[ -L "$dir/links/dangling.json" ] || fail "--json DANGLING replaced the link"
grep -q '"deadline"' "$dir/new-target.json" || fail "--json DANGLING did not write its target"
ln -s loop-b.json "$dir/loop-a.json"
ln -s loop-a.json "$dir/loop-b.json"
run --json "$dir/loop-a.json" >/dev/null 2>"$dir/err" && fail "--json LOOP succeeded"
grep -q "loop-a.json: output path is a loop of symbolic links" "$dir/err" || fail "--json LOOP: $(cat "$dir/err")"
[ -L "$dir/loop-a.json" ] || fail "--json LOOP replaced the link"

# 5. a full standard output is an error, not a silent success
if [ -c /dev/full ]; then
  run >/dev/full 2>"$dir/err"; rc=$?
  [ $rc -eq 1 ] || fail "stdout on /dev/full: exit $rc, expected 1"
fi

# 5b. every command, its help and the version: a report that cannot be
# written is exit 1 (issue 13: they exited 0 on /dev/full)
if [ -c /dev/full ]; then
  for args in "plan $experiment" "emax --cards 8" "--help" "--version" "run --help" \
              "plan --help" "emax --help" "sweep --help"; do
    # shellcheck disable=SC2086
    "$bin" $args >/dev/full 2>/dev/null; rc=$?
    [ $rc -eq 1 ] || fail "trainmc $args >/dev/full: exit $rc, expected 1"
  done
fi
# 5c. a closed stdout: exit 1, and the JSON file does not receive the report
# (the first file opened took descriptor 1); no temporary file is left
rm -f "$dir/closed.json"
run --json "$dir/closed.json" >&- 2>"$dir/err"; rc=$?
[ $rc -eq 1 ] || fail "closed stdout: exit $rc, expected 1"
[ -e "$dir/closed.json" ] && fail "closed stdout: the JSON file was written ($(head -c 80 "$dir/closed.json"))"
ls "$dir" | grep -q "closed.json.tmp" && fail "closed stdout: a temporary file was left"
# 5d. plan and emax the same: a report lost on standard output leaves no JSON
# of it (they wrote their JSON and exited 1)
for args in "plan $experiment" "emax --cards 8 --replicas 100"; do
  rm -f "$dir/lost.json"
  # shellcheck disable=SC2086
  "$bin" $args --json "$dir/lost.json" >&- 2>"$dir/err"; rc=$?
  [ $rc -eq 1 ] || fail "trainmc $args, closed stdout: exit $rc, expected 1"
  ls "$dir" | grep -q "^lost.json" && fail "trainmc $args, closed stdout: its JSON was written"
done
# 5d. a closed pipe: exit 1 with the output cleaned up, not a silent death
# by SIGPIPE that leaves a temporary file
python3 "$(dirname "$0")/closed_pipe.py" "$bin" run "$experiment" --replicas 3000 --quiet \
  --json "$dir/pipe.json" 2>"$dir/err"; echo $? >"$dir/pipe.rc"
[ "$(cat "$dir/pipe.rc")" -eq 1 ] || fail "closed pipe: exit $(cat "$dir/pipe.rc"), expected 1"
ls "$dir" | grep -q "pipe.json.tmp" && fail "closed pipe: a temporary file was left"

# 6. SIGINT stops a long run within a second, says how far it got, leaves the
#    existing output untouched and no temporary file behind
echo old >"$dir/result.json"
"$bin" run "$experiment" --replicas 100000000 --quiet --json "$dir/result.json" \
  >/dev/null 2>"$dir/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, expected 130"
grep -q "interrupted after [0-9]* of 100000000 replicas" "$dir/err" || fail "SIGINT: $(cat "$dir/err")"
[ "$(cat "$dir/result.json")" = old ] || fail "SIGINT: the existing output changed"
ls "$dir" | grep -q "result.json.tmp" && fail "SIGINT: a temporary file was left"
# 6b. SIGHUP (a closed terminal) and SIGTERM do the same
for sig in HUP TERM; do
  echo old >"$dir/result.json"
  "$bin" run "$experiment" --replicas 100000000 --quiet --json "$dir/result.json" \
    >/dev/null 2>"$dir/err" &
  pid=$!
  sleep 1
  kill -$sig $pid
  wait $pid; rc=$?
  [ $rc -eq 130 ] || fail "SIG$sig: exit $rc, expected 130"
  [ "$(cat "$dir/result.json")" = old ] || fail "SIG$sig: the existing output changed"
  ls "$dir" | grep -q "result.json.tmp" && fail "SIG$sig: a temporary file was left"
done
# 6b'. SIGINT while importance sampling's pilots choose the tilt (before any
# plain replica): the same exit 130 (it was 1)
"$bin" run "$experiment" --replicas 1000 --quiet --importance auto \
  --importance-pilot 100000000 --json "$dir/pilot.json" >/dev/null 2>"$dir/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "SIGINT in an importance pilot: exit $rc, expected 130: $(cat "$dir/err")"
grep -q "no results written" "$dir/err" || fail "SIGINT in an importance pilot: $(cat "$dir/err")"
[ -e "$dir/pilot.json" ] && fail "SIGINT in an importance pilot: a JSON was written"
# 6c. one segment of 1e9 steps in exact mode: the stop flag is read inside
# the segment too (it took 28 s to stop and then exited 0 with results). The
# flag is read every 65,536 steps (under a millisecond); the segment itself
# takes 2.5 s or more (about 4 ns a step), so a 1.5 s bound, polled, tells
# the two apart even on a loaded machine
cat >"$dir/long.json" <<'JSON'
{"name": "long", "job": {"steps": 1000000000, "cards": 8, "flop_per_step": 8, "peak_flops": 1,
 "efficiency": 1}, "jitter": {"distribution": "normal", "cv": 0.05},
 "checkpoint": {"interval_steps": 1000000000, "save_s": 1, "restore_s": 1},
 "deadline": {"days": 100000}, "monte_carlo": {"replicas": 4, "seed": 1, "mode": "steps"}}
JSON
"$bin" run "$dir/long.json" --quiet --json "$dir/long-out.json" >/dev/null 2>"$dir/err" &
pid=$!
sleep 1
kill -INT $pid
for _ in 1 2 3; do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "1e9 steps in one segment: still running 1.5 s after SIGINT"; }
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "1e9 steps in one segment: exit $rc after SIGINT, expected 130"
[ -e "$dir/long-out.json" ] && fail "1e9 steps in one segment: a stopped run wrote its JSON"
# 7. a 100 MB experiment is refused by its size, at once
truncate -s 100M "$dir/big.json"
"$bin" run "$dir/big.json" >/dev/null 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "100 MB experiment: exit $rc, expected 2"
grep -q "big.json: file is larger than 1048576 bytes" "$dir/err" || fail "100 MB: $(cat "$dir/err")"
# 8. plan refuses a calendar window (it plans a fixed amount of work) and
# writes no JSON
"$bin" plan "$(dirname "$experiment")/goodput-window-28d.json" --json "$dir/plan-window.json" \
  >/dev/null 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "plan with a window: exit $rc, expected 2"
grep -q "window: \`trainmc plan\` plans a fixed amount of work" "$dir/err" ||
  fail "plan with a window: $(cat "$dir/err")"
[ -e "$dir/plan-window.json" ] && fail "plan with a window wrote its JSON"
# 9. a window shorter than one checkpoint interval (1,800 s of 0.01 days =
# 864 s) commits nothing: goodput 0, and a warning says why; a window of
# 28 days (1,348 intervals) has none
"$bin" run "$(dirname "$experiment")/goodput-window-28d.json" --quiet --replicas 50 \
  --set window.days=0.01 >"$dir/out" 2>&1 || fail "a short window: exit $?"
grep -q "WARNING: one checkpoint interval is 2.076 of the window" "$dir/out" ||
  fail "a short window: no warning: $(grep -i window "$dir/out")"
"$bin" run "$(dirname "$experiment")/goodput-window-28d.json" --quiet --replicas 50 \
  >"$dir/out" 2>&1 || fail "a 28-day window: exit $?"
grep -q "WARNING: one checkpoint interval" "$dir/out" && fail "a 28-day window: warned"
# 10. --set inside a failures section given as a file keeps that file's trace,
# named relative to its own folder (distributions/failures/), not the
# experiment's: its 6 failures are replayed
"$bin" run "$(dirname "$experiment")/design-48-trace.json" --quiet --replicas 20 \
  --set failures.spares=2 >"$dir/out" 2>&1 || fail "--set into a trace file: $(cat "$dir/out")"
grep -q "card failures 6 (6 cards taken from the pool of 2 or, when empty, waited for from repair)" "$dir/out" || fail "--set into a trace file: $(grep Events "$dir/out")"
# ... and with no pool the cards come back from repair, none from a pool (fewer
# than 6: a failure while the job waits for a repair is swapped in the same recovery)
"$bin" run "$(dirname "$experiment")/design-48-trace.json" --quiet --replicas 20 \
  --set failures.spares=0 >"$dir/out" 2>&1 || fail "spares 0: $(cat "$dir/out")"
grep -q "card failures [0-9.]* ([0-9.]* cards waited for from repair: no spare pool)" "$dir/out" || fail "spares 0: $(grep Events "$dir/out")"
# 11. a file rewritten keeps its mode (its owner's permissions), a new one
# gets the umask's: --json over a 640 file stays 640, --samples over 600
# stays 600, a new --json file under umask 027 is 640
printf 'old\n' >"$dir/m.json"; chmod 640 "$dir/m.json"
printf 'old\n' >"$dir/m.csv"; chmod 600 "$dir/m.csv"
run --json "$dir/m.json" --samples "$dir/m.csv" >/dev/null 2>&1 || fail "modes: exit $?"
[ "$(stat -c %a "$dir/m.json")" = 640 ] || fail "--json over a 640 file: $(stat -c %a "$dir/m.json")"
[ "$(stat -c %a "$dir/m.csv")" = 600 ] || fail "--samples over a 600 file: $(stat -c %a "$dir/m.csv")"
grep -q '"experiment"' "$dir/m.json" || fail "--json over a 640 file: not rewritten"
(umask 027 && run --json "$dir/new.json" >/dev/null 2>&1) || fail "a new file: exit $?"
[ "$(stat -c %a "$dir/new.json")" = 640 ] || fail "a new --json under umask 027: $(stat -c %a "$dir/new.json")"
exit 0
