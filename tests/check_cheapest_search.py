#!/usr/bin/env python3
"""`trainmc cheapest` refines before it says no (issue 33, item 3;
tests/CMakeLists.txt: cli-cheapest-search). Usage: check_cheapest_search.py
TRAINMC TOPDIR.

1. The issue's case: design-48-cost over job.cards=24:1000000. The coarse
   grid is 24 (P = 0) and four counts of 250,018 cards and more that cannot
   finish (refused): before the fix the search stopped there and said "none
   in [24, 1000000] meets". It must find a plan. Checked apart from the
   search with `trainmc run` on the same seed and replicas (common random
   numbers: the same replicas give the same P exactly, so the comparison is
   an equality, no tolerance): the combination's plan at N cards meets P >=
   0.9 and N - 1 cards misses, so N is the fewest that meet.
2. A truly infeasible case says "No plan meets", decided: no failures, no
   jitter, so every replica takes wall(N) = S (F / (N peak eff) + comm) + c
   seconds, which falls with N; the deadline needs N >= 97 (by hand below)
   and the range is [8, 64], so no count meets, and the best count is 64.
   The search must have examined its neighbour 63 (the grid is 8, 22, 36,
   50, 64: before the fix it stopped there), and the JSON's `undecided` is
   null.
3. A constructed undecided case: design-48-cost over 300000:1000000, where
   every count cannot finish (an interruption every 97 s or less against
   1817-s segments), so every probe is refused and the gaps between them
   cannot be ruled out: the text says "Undecided" (not "No plan meets"),
   the JSON carries `undecided` with the reason and the card ranges not
   examined, none of which was probed."""
import json
import math
import os
import subprocess
import sys
import tempfile

BIN, TOP = sys.argv[1], sys.argv[2]
DESIGN = os.path.join(TOP, "experiments", "design-48-cost.json")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def cheapest(tmp, exp, *args):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, "cheapest", exp, "--quiet", "--threads", "2", "--json", out,
                        *args], capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


def run_p(tmp, cards, n, seed):
    out = os.path.join(tmp, "run.json")
    p = subprocess.run([BIN, "run", DESIGN, "--quiet", "--threads", "2", "--json", out,
                        "-n", str(n), "--seed", str(seed), "--set", f"job.cards={cards}"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"run at {cards} cards: exit {p.returncode}, {p.stderr}")
        return None
    return json.load(open(out))["deadline"]["probability"]


def issue_case(tmp):
    p, doc = cheapest(tmp, DESIGN, "--lever", "job.cards=24:1000000", "-n", "30")
    check(p.returncode == 0 and doc is not None, f"1: exit {p.returncode}, {p.stderr}")
    if not doc:
        return
    check(doc["met"] and doc["chosen"] is not None and "No plan meets" not in p.stdout,
          f"1: no plan found: {p.stdout}")
    best = doc["combinations"][0]["cheapest"]
    check(best is not None, "1: the combination has no cheapest plan")
    if not best:
        return
    n = best["cards"]
    at_n, below = run_p(tmp, n, 30, 1), run_p(tmp, n - 1, 30, 1)
    check(at_n == best["p_deadline"]["value"] and at_n is not None and at_n >= 0.9,
          f"1: run at {n} cards gives P {at_n}; the search {best['p_deadline']['value']}")
    check(below is not None and below < 0.9, f"1: run at {n - 1} cards gives P {below}: "
          f"{n} is not the fewest that meet")


# case 2 by hand: S steps of F flop at peak x eff per card, comm s a step
S, FLOP, PEAK, EFF, COMM, SAVE = 1000, 1.2e15, 1e12, 0.5, 1.0, 10.0
DEADLINE_S = 25920.0  # 0.3 days: 2.4e6 / N <= 25920 - 1000 - 10 needs N >= 96.4
HAND = {
    "name": "cheapest-infeasible-by-hand",
    "job": {"steps": S, "cards": 32, "flop_per_step": FLOP, "peak_flops": PEAK,
            "efficiency": EFF, "exposed_comm_s": COMM, "input_wait_s": 0},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": None,
    "checkpoint": {"interval_steps": 1000, "save_s": SAVE, "restore_s": 100},
    "deadline": {"days": DEADLINE_S / 86400, "reserve_days": 0},
    "monte_carlo": {"replicas": 20, "seed": 1},
}


def wall(n):
    return S * (FLOP / (n * PEAK * EFF) + COMM) + SAVE


def infeasible_case(tmp):
    need = math.ceil(S * FLOP / (PEAK * EFF) / (DEADLINE_S - S * COMM - SAVE))
    check(need == 97 and wall(64) > DEADLINE_S, f"2: by hand {need} cards")
    exp = os.path.join(tmp, "hand.json")
    with open(exp, "w") as f:
        json.dump(HAND, f)
    p, doc = cheapest(tmp, exp, "--lever", "job.cards=8:64")
    check(p.returncode == 0 and doc is not None, f"2: exit {p.returncode}, {p.stderr}")
    if not doc:
        return
    cards = sorted(pl["cards"] for pl in doc["plans"])
    check("No plan meets" in p.stdout and "Undecided" not in p.stdout and not doc["met"],
          f"2: {p.stdout}")
    check(doc.get("undecided", "absent") is None
          and doc["combinations"][0].get("undecided", "absent") is None,
          f"2: undecided {doc.get('undecided', 'absent')}")
    check(63 in cards and 64 in cards, f"2: the best count's neighbour not examined: {cards}")
    for pl in doc["plans"]:
        check(not pl["meets"] and pl["mean_days"] * 86400 > DEADLINE_S,
              f"2: {pl['plan']} meets or ends by the deadline")


def undecided_case(tmp):
    p, doc = cheapest(tmp, DESIGN, "--lever", "job.cards=300000:1000000", "-n", "30")
    check(p.returncode == 0 and doc is not None, f"3: exit {p.returncode}, {p.stderr}")
    if not doc:
        return
    check("Undecided" in p.stdout and "No plan meets" not in p.stdout, f"3: {p.stdout}")
    top, cb = doc.get("undecided"), doc["combinations"][0].get("undecided")
    check(not doc["met"] and isinstance(top, dict) and top.get("combinations") == 1,
          f"3: undecided {top}")
    check(isinstance(cb, dict) and "refused" in cb.get("reason", "")
          and cb.get("unexamined_cards") and cb.get("unexamined_counts", 0) > 0,
          f"3: the combination's undecided {cb}")
    if not isinstance(cb, dict):
        return
    probed = {pl["cards"] for pl in doc["plans"]}
    check(all(pl["refused"] for pl in doc["plans"]), "3: a plan ran")
    for lo, hi in cb.get("unexamined_cards", []):
        check(300000 < lo <= hi < 1000000 and not any(lo <= c <= hi for c in probed),
              f"3: the range {lo}-{hi} not examined holds a probed count, or leaves [LO, HI]")
        check(f"{int(lo)}-{int(hi)}" in p.stdout, f"3: text lacks the range {lo}-{hi}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        issue_case(tmp)
        infeasible_case(tmp)
        undecided_case(tmp)
    for f in failures:
        print("FAIL:", f)
    print("check_cheapest_search:", "FAIL" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
