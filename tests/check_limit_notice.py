#!/usr/bin/env python3
"""cli-limit-notice: what a run reports about the warning before a time limit
(time_limit.notice_s; docs/reference/simulation-semantics.md 4). Usage:
check_limit_notice.py TRAINMC EXPERIMENTS_DIR.

On experiments/slurm-warning-30s.json (12 h allocations, a 120 s save):
  - a 30 s warning: JSON time_limit {allocation_s 43200, save_before_limit
    false, notice "too short"}, and its "Time limit:" line in the brief and
    the --detail report;
  - a 600 s warning: allocation_s 43200 - (600 - 120) = 42720 (by hand),
    saves, "holds the save", and the line that says each allocation ends
    480 s early;
  - none given: "not stated", and the assumed list names
    time_limit.notice_s;
  - at_limit "lose": "not read", not in the assumed list.
Exit 0 when all hold, 1 with each failure on stderr."""
import json
import os
import subprocess
import sys
import tempfile

BIN, EXP = sys.argv[1], os.path.join(sys.argv[2], "slurm-warning-30s.json")
LINE = "Time limit: the 30 s warning (time_limit.notice_s) cannot hold the 120 s save"
EARLY = "Time limit: the 600 s warning (time_limit.notice_s) ends each allocation 480 s early"
failures = []


def run(sets, *extra):
    """(JSON document, text) of a short run with these overrides."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        args = [BIN, "run", EXP, "-n", "200", "-j", path, *extra]
        for s in sets:
            args += ["--set", s]
        p = subprocess.run(args, capture_output=True, text=True, check=True)
        with open(path) as f:
            return json.load(f), p.stdout


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


cases = [([], 43200, False, "too short", True),
         (["time_limit.notice_s=600"], 42720, True, "holds the save", False)]
for sets, alloc, saves, notice, line in cases:
    doc, text = run(sets)
    tl = doc["time_limit"]
    expect(f"{sets} allocation_s", tl["allocation_s"], alloc)
    expect(f"{sets} save_before_limit", tl["save_before_limit"], saves)
    expect(f"{sets} notice", tl["notice"], notice)
    expect(f"{sets} short line in the brief", LINE in text, line)
    expect(f"{sets} early line in the brief", EARLY in text, not line)
    _, detail = run(sets, "--detail")
    expect(f"{sets} short line in --detail", LINE in detail, line)
    expect(f"{sets} early line in --detail", EARLY in detail, not line)

unset = "time_limit={\"wall_hours\": 12, \"requeue_s\": 3600, \"at_limit\": \"save\"}"
doc, _ = run([unset])
expect("unset notice", doc["time_limit"]["notice"], "not stated")
expect("unset: assumed lists time_limit.notice_s",
       any(a["key"] == "time_limit.notice_s" for a in doc["assumed"]), True)
doc, _ = run(["time_limit.at_limit=\"lose\""])
expect("at_limit lose: notice", doc["time_limit"]["notice"], "not read")
expect("at_limit lose: not assumed",
       any(a["key"] == "time_limit.notice_s" for a in doc["assumed"]), False)

p = subprocess.run([BIN, "run", EXP, "-n", "10", "--set", "time_limit.notice_s=-1"],
                   capture_output=True, text=True)
expect("notice_s -1: exit", p.returncode, 2)
expect("notice_s -1: message names the key and range",
       "time_limit.notice_s" in p.stderr and "[0, 10000000]" in p.stderr, True)

for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
