#!/usr/bin/env python3
"""Importance sampling's interval, or plain Monte Carlo's in its place
(issue 35; tests/CMakeLists.txt: cli-importance-plain). Usage:
check_importance_plain.py TRAINMC SOURCE_DIR.

Above a Pareto k-hat of 0.5 the weights' variance is infinite in effect and
a normal interval has no basis; trainmc then runs plain replicas 0 .. N - 1
with N = ceil(100 / P_is) (a 10 % relative error) and states their Wilson
interval. On design-48-rare-misses with a 30-day deadline and 20,000
replicas, seed 1000's estimate has k-hat 0.69 and seed 1001's 0.38.

1. seed 1000: not trusted; plain.replicas = ceil(100 / p_miss), by hand;
   plain.misses equals the misses of a plain `run -n N` of the same seed
   (its deadline.probability); the Wilson interval computed here (Wilson
   1927, z = 1.959964) equals ci95 to 1e-12; the answer line states the
   plain interval first.
2. seed 1001: trusted; no plain replicas; the answer line is p +- 1.96 se.
3. seed 1000 with --importance-plain-max below N: no plain replicas,
   plain_needed N, "NO INTERVAL" in the answer, and the option it names,
   pasted, runs them.
4. sweep: a one-setting sweep states the same plain replicas as run.
5. --importance-plain-max 0 is refused with its range.
6. No tilted replica missed (an untilted "tilt" at 34 days, 200
   replicas): no estimate, nothing run, said so (not a heavy tail).
7. A tilt the experiment cannot take (Weibull lifetimes) exits 2 in
   sweep as in run."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from cli_checks import check, finish

BIN, SRC = sys.argv[1], sys.argv[2]
EXP = os.path.join(SRC, "experiments", "design-48-rare-misses.json")
COMMON = ["--set", "deadline.days=30", "-n", "20000", "-t", "2", "-q"]


def run(tmp, *args):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, "run", EXP, *COMMON, "-j", out, *args], capture_output=True,
                       text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


def answer_line(text):
    return next((l for l in text.splitlines() if l.startswith("P(T > 30 days)")), "")


def wilson(k, n, z=1.959963984540054):
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return c - h, c + h


with tempfile.TemporaryDirectory() as tmp:
    # 1. not trusted: plain Monte Carlo in its place
    p, doc = run(tmp, "-s", "1000", "--importance", "auto")
    check(p.returncode == 0 and doc, f"1: run failed: {p.stderr}")
    im = doc["importance"]
    check(im["pareto_k"] > 0.5 and not im["trusted"],
          f"1: k-hat {im['pareto_k']} with trusted {im['trusted']}")
    n = math.ceil(100 / im["p_miss"])
    check(im["plain_needed"] == n and im["plain"] and im["plain"]["replicas"] == n,
          f"1: plain replicas {im['plain']} needed {im['plain_needed']}, by hand {n}")
    q, plain = run(tmp, "-s", "1000", "-n", str(n))
    misses = round((1 - plain["deadline"]["probability"]) * n)
    check(im["plain"]["misses"] == misses,
          f"1: {im['plain']['misses']} plain misses, a plain run of {n}: {misses}")
    lo, hi = wilson(misses, n)
    check(abs(im["plain"]["ci95"][0] - lo) < 1e-12 and abs(im["plain"]["ci95"][1] - hi) < 1e-12
          and abs(im["plain"]["p_miss"] - misses / n) < 1e-15,
          f"1: plain {im['plain']} against Wilson [{lo}, {hi}]")
    line = answer_line(p.stdout)
    check(f"{misses / n:.4g} [{lo:.4g}, {hi:.4g}]" in line and "plain Monte Carlo" in line,
          f"1: the answer line: {line!r}")

    # 2. trusted: importance sampling's own interval
    p, doc = run(tmp, "-s", "1001", "--importance", "auto")
    im = doc["importance"]
    check(im["pareto_k"] <= 0.5 and im["trusted"] and im["plain"] is None
          and im["plain_needed"] == 0, f"2: {im}")
    lo, hi = im["p_miss"] - 1.96 * im["se"], im["p_miss"] + 1.96 * im["se"]
    line = answer_line(p.stdout)
    check(f"{im['p_miss']:.4g} [{lo:.4g}, {hi:.4g}]" in line and "importance sampling" in line,
          f"2: the answer line: {line!r}")

    # 3. plain Monte Carlo above the limit: no interval
    p, doc = run(tmp, "-s", "1000", "--importance", "auto", "--importance-plain-max", "1000")
    im = doc["importance"]
    check(p.returncode == 0 and im["plain"] is None and not im["trusted"]
          and im["plain_needed"] == n, f"3: {im}")
    check("NO INTERVAL" in answer_line(p.stdout), f"3: {answer_line(p.stdout)!r}")
    # the option the message gives runs them, as printed
    hint = re.search(r"--importance-plain-max (\S+)", p.stdout)
    q, doc = run(tmp, "-s", "1000", "--importance", "auto", "--importance-plain-max",
                 hint.group(1) if hint else "?")
    check(hint and doc and doc["importance"]["plain"]
          and doc["importance"]["plain"]["replicas"] == n,
          f"3: the message's --importance-plain-max {hint and hint.group(1)}: {q.stderr!r}")

    # 6. no tilted miss: nothing to size plain Monte Carlo from, said so
    p, doc = run(tmp, "-s", "1000", "-n", "200", "--importance", "1,1,1", "--set",
                 "deadline.days=34")
    im = doc and doc["importance"]
    check(im and im["misses"] == 0 and im["plain"] is None and im["plain_needed"] == 0
          and "NO ESTIMATE" in answer_line(p.stdout.replace("34 days", "30 days"))
          and "too heavy" not in p.stdout, f"6: {im}: {p.stdout[:600]!r}")

    # 4. sweep: the same plain replicas for the same setting
    out = os.path.join(tmp, "sweep.json")
    s = subprocess.run([BIN, "sweep", EXP, "--vary", "deadline.days=30", "-n", "20000", "-s",
                        "1000", "-t", "2", "-q", "--importance", "auto", "-j", out],
                       capture_output=True, text=True)
    check(s.returncode == 0, f"4: sweep failed: {s.stderr}")
    if s.returncode == 0:
        doc = json.load(open(out))
        sim = doc["settings"][0]["importance"] if "settings" in doc else None
        check(sim and sim["plain"] and sim["plain"]["misses"] == misses
              and sim["plain"]["replicas"] == n, f"4: sweep's importance {sim}")
        check("not used; plain Monte Carlo" in s.stdout, "4: the sweep's line")

    # 5. a bad limit
    p, _ = run(tmp, "-s", "1000", "--importance", "auto", "--importance-plain-max", "0")
    check(p.returncode != 0 and "--importance-plain-max: '0'" in p.stderr
          and "[1, 1e9]" in p.stderr, f"5: {p.returncode} {p.stderr!r}")

    # 7. a tilt the experiment cannot take: exit 2 in sweep as in run
    weibull = os.path.join(SRC, "experiments", "design-48-weibull.json")
    codes = [subprocess.run([BIN, cmd, weibull, *extra, "-n", "100", "-q", "--importance",
                             "2,1,1"], capture_output=True, text=True).returncode
             for cmd, extra in (("run", []), ("sweep", ["--vary", "deadline.days=30,31"]))]
    check(codes == [2, 2], f"7: a tilt refused: exit codes {codes} (run, sweep)")

sys.exit(finish("check_importance_plain"))
