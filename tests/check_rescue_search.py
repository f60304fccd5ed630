#!/usr/bin/env python3
"""`trainmc rescue`'s job.cards lever probes inside its bracket before it
says "not reached" (issue 33, item 3; tests/CMakeLists.txt:
cli-rescue-search). Usage: check_rescue_search.py TRAINMC TOPDIR.

More cards compute faster but fail more often, so P(deadline) need not rise
over the bracket [N, 4N]; before the fix the lever ran its two ends only.

1. design-48-cost at 24 cards, a per-card MTBF of 0.5 days and a 70-day
   deadline (no reserve): 24 cards and the far end, 96, both miss (mean T
   about 72 and 175 days) while counts near 40 meet. The lever must find
   N; checked apart from the search with `trainmc run` on the same seed and
   replicas (common random numbers: the same replicas give the same P
   exactly, so the comparisons are equalities, no tolerance): N meets P >=
   0.9 and N - 1 misses.
2. Not reached, decided: no failures, no jitter, so every replica takes
   wall(N) = S (F / (N peak eff) + comm) + c seconds, falling with N; the
   deadline, 0.3 days, needs N >= 97 (by hand), the bracket is [8, 32]: no
   count meets and the best is 32. The search must have examined its
   neighbour 31 and report 32 as the best reached.
3. Undecided: the same case at 100,000 cards and a 0.01-day deadline (864 s,
   below the 1000 s of communication alone, so no count meets): the 16
   probes cannot bring the best count's neighbours to adjacent counts over
   [100000, 400000], so the lever says undecided, with the reason and a
   range not examined that holds no evaluated count."""
import json
import math
import os
import subprocess
import sys
import tempfile

BIN, TOP = sys.argv[1], sys.argv[2]
DESIGN = os.path.join(TOP, "experiments", "design-48-cost.json")
MTBF = ["--set", "failures.per_card_mtbf_days=0.5", "--set", "deadline.reserve_days=0",
        "--set", "deadline.days=70"]
S, FLOP, PEAK, EFF, COMM, SAVE = 1000, 1.2e15, 1e12, 0.5, 1.0, 10.0
HAND = {
    "name": "rescue-cards-by-hand",
    "job": {"steps": S, "cards": 8, "flop_per_step": FLOP, "peak_flops": PEAK,
            "efficiency": EFF, "exposed_comm_s": COMM, "input_wait_s": 0},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": None,
    "checkpoint": {"interval_steps": 1000, "save_s": SAVE, "restore_s": 100},
    "deadline": {"days": 0.3, "reserve_days": 0},
    "monte_carlo": {"replicas": 20, "seed": 1},
}
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def rescue(tmp, exp, *args):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, "rescue", exp, "--quiet", "--threads", "2", "--json", out,
                        "--levers", "job.cards", *args], capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    lever = doc["levers"][0] if doc and doc["levers"] else None
    check(p.returncode == 0 and lever, f"exit {p.returncode}, {p.stderr}")
    return p, lever


def run_p(tmp, cards):
    out = os.path.join(tmp, "run.json")
    p = subprocess.run([BIN, "run", DESIGN, "--quiet", "--threads", "2", "--json", out,
                        "-n", "20", "--seed", "1", *MTBF, "--set", f"job.cards={cards}"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"run at {cards} cards: exit {p.returncode}, {p.stderr}")
    return json.load(open(out))["deadline"]["probability"] if p.returncode == 0 else None


def wall(n):
    return S * (FLOP / (n * PEAK * EFF) + COMM) + SAVE


def main():
    with tempfile.TemporaryDirectory() as tmp:
        p, lever = rescue(tmp, DESIGN, *MTBF, "--set", "job.cards=24", "-n", "20")
        if lever:
            check(lever["outcome"] == "found" and lever["found"], f"1: {lever['outcome']}")
        if lever and lever["found"]:
            n = int(lever["found"]["value"])
            at_n, below = run_p(tmp, n), run_p(tmp, n - 1)
            check(at_n is not None and at_n >= 0.9
                  and at_n == lever["found"]["metric"]["value"],
                  f"1: run at {n} cards: P {at_n}, the search {lever['found']['metric']}")
            check(below is not None and below < 0.9, f"1: run at {n - 1} cards: P {below}")

        exp = os.path.join(tmp, "hand.json")
        with open(exp, "w") as f:
            json.dump(HAND, f)
        need = math.ceil(S * FLOP / (PEAK * EFF) / (0.3 * 86400 - S * COMM - SAVE))
        check(need == 97, f"2: by hand {need} cards")
        p, lever = rescue(tmp, exp)
        if lever:
            seen = sorted(e["value"] for e in lever["evaluations"])
            check(lever["outcome"] == "not_reached" and lever["best"]
                  and lever["best"]["value"] == 32, f"2: {lever['outcome']} {lever['best']}")
            check(31 in seen and 32 in seen, f"2: the best count's neighbour not run: {seen}")
            for e in lever["evaluations"]:
                check(not e["metric"]["meets"]
                      and abs(e["metric"]["mean_days"] * 86400 - wall(e["value"])) < 1e-6,
                      f"2: {e['value']} cards: {e['metric']}, by hand {wall(e['value'])} s")

        p, lever = rescue(tmp, exp, "--set", "job.cards=100000", "--set", "deadline.days=0.01")
        if lever:
            seen = [e["value"] for e in lever["evaluations"]]
            u = lever.get("unexamined")
            check(lever["outcome"] == "undecided" and lever["reason"]
                  and "undecided" in p.stdout and "not reached" not in p.stdout,
                  f"3: {lever['outcome']}: {p.stdout}")
            check(isinstance(u, dict) and u.get("counts", 0) > 0, f"3: unexamined {u}")
            if isinstance(u, dict) and u.get("widest"):
                lo, hi = u["widest"]
                check(100000 < lo <= hi < 400000 and not any(lo <= v <= hi for v in seen),
                      f"3: the range {lo}-{hi} not examined holds an evaluation or leaves "
                      f"the bracket")
    for f in failures:
        print("FAIL:", f)
    print("check_rescue_search:", "FAIL" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
