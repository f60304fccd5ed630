#!/usr/bin/env python3
"""cli-samples: `trainmc run --samples FILE`, every replica as CSV.

- 1 and 2 threads write byte-identical samples;
- a header and one row per replica, every row as long as the header;
- independent of the run's own statistics: the rows' mean completion time,
  share meeting the deadline and mean event counts equal the JSON's
  (mean within 1e-9 relative: only the order of the sums differs; the share
  and the counts exactly), and each uncensored row's split adds up to its
  completion time less the reserve (1e-9 days);
- with a precision target (replicas in batches), as many rows as replicas
  used, and their mean is the JSON's;
- --samples into a missing folder, or naming the --json file (also through
  a symbolic link), fails with
  exit 2 before any simulation and writes nothing; SIGINT leaves no file.
Usage: check_samples.py TRAINMC EXPERIMENTS_DIR
"""
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

BIN, EXPERIMENTS = sys.argv[1], sys.argv[2]
STRESS = os.path.join(EXPERIMENTS, "design-48-stress.json")
failures = []


def run(*args):
    return subprocess.run([BIN, "run", STRESS, "--quiet", "--force", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def check(ok, what):
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory() as d:
    p = lambda name: os.path.join(d, name)
    # a deadline near the median, so that both outcomes occur
    base = ["--replicas", "600", "--seed", "5", "--set", "deadline.days=27.05"]
    for t in (1, 2):
        r = run(*base, "--threads", str(t), "--samples", p(f"s{t}.csv"), "--json", p(f"s{t}.json"))
        check(r.returncode == 0, f"--threads {t}: exit {r.returncode}: {r.stderr}")
    check(open(p("s1.csv"), "rb").read() == open(p("s2.csv"), "rb").read(),
          "1 and 2 threads wrote different samples")
    with open(p("s1.csv")) as f:
        lines = list(csv.reader(f))
    header, rows = lines[0], lines[1:]
    check(len(rows) == 600, f"{len(rows)} rows, expected 600")
    check(all(len(r) == len(header) for r in rows), "a row's length differs from the header's")
    col = {k: i for i, k in enumerate(header)}
    doc = json.load(open(p("s1.json")))
    n = len(rows)
    days = [float(r[col["completion_days"]]) for r in rows]
    mean = sum(days) / n
    want = doc["completion_days"]["mean"]
    check(abs(mean - want) <= 1e-9 * want, f"mean of rows {mean!r}, JSON {want!r}")
    met = sum(int(r[col["met_deadline"]]) for r in rows)
    check(0 < met < n, f"{met} of {n} met: the deadline does not split the replicas")
    check(met / n == doc["deadline"]["probability"],
          f"share met {met / n}, JSON {doc['deadline']['probability']}")
    for key, value in doc["events"].items():
        got = sum(float(r[col[key]]) for r in rows) / n
        check(abs(got - value) <= 1e-9 * max(1, abs(value)), f"events.{key}: rows {got}, JSON {value}")
    split = [k for k in header if k.endswith("_days") and k != "completion_days"]
    check(len(split) == len(doc["split_days"]) - 1, f"split columns {split}")
    reserve = 5.0
    worst = max(abs(sum(float(r[col[k]]) for k in split) - (float(r[col["completion_days"]]) - reserve))
                for r in rows if r[col["censored"]] == "0")
    check(worst <= 1e-9, f"a row's split misses its completion time by {worst} days")
    # a precision target: rows = replicas used
    r = run("--replicas", "20000", "--precision", "completion_days.mean:abs=0.002",
            "--samples", p("prec.csv"), "--json", p("prec.json"))
    check(r.returncode == 0, f"--precision: exit {r.returncode}: {r.stderr}")
    doc = json.load(open(p("prec.json")))
    used = doc["replicas"]
    with open(p("prec.csv")) as f:
        days = [float(r["completion_days"]) for r in csv.DictReader(f)]
    check(len(days) == used and 1000 < used < 20000, f"--precision: {len(days)} rows for {used} replicas used")
    want = doc["completion_days"]["mean"]
    check(abs(sum(days) / len(days) - want) <= 1e-9 * want,
          f"--precision: mean of rows {sum(days) / len(days)!r}, JSON {want!r} (batches misplaced?)")
    # bad outputs: exit 2, nothing written
    r = run("--replicas", "10", "--samples", p("missing/s.csv"))
    check(r.returncode == 2 and not os.path.exists(p("missing")), f"missing folder: exit {r.returncode}")
    r = run("--replicas", "10", "--samples", p("same"), "--json", p("./same"))
    check(r.returncode == 2 and not os.path.exists(p("same")) and "same file" in r.stderr,
          f"--samples and --json on one file: exit {r.returncode}: {r.stderr}")
    # the same file through a symbolic link: refused, the file untouched
    with open(p("target"), "w") as f:
        f.write("old\n")
    os.symlink("target", p("link"))
    r = run("--replicas", "10", "--json", p("link"), "--samples", p("target"))
    check(r.returncode == 2 and open(p("target")).read() == "old\n",
          f"--json through a link to the --samples file: exit {r.returncode}: {r.stderr}")
    # SIGINT: no samples file, no temporary file
    proc = subprocess.Popen([BIN, "run", STRESS, "--quiet", "--force", "--replicas", "2000000",
                             "--samples", p("long.csv")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    rc = proc.wait(timeout=30)
    left = [f for f in os.listdir(d) if f.startswith("long.csv")]
    check(rc == 130 and not left, f"SIGINT: exit {rc}, left {left}")

for f in failures:
    print("cli-samples:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
