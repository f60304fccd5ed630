#!/usr/bin/env python3
"""checkpoint.interval_s by name, "young" or "daly" (issue 34 part 5;
tests/CMakeLists.txt: cli-interval-name). Usage: check_interval_name.py TRAINMC.

1. The optimum written apart: on exponential card failures alone M is
   MTBF x 86400 / N s, and with c the save time
       Young: sqrt(2 c M);
       Daly (2006, eq. 20, c < 2M): sqrt(2 c M) [1 + sqrt(c / 2M) / 3 + (c / 2M) / 9] - c.
   The interval in steps must be round(tau / t_s), t_s the step time `run
   --json` reports, at 24, 48 and 96 cards (so the interval follows M), and
   every setting of a sweep over the cards must show those K.
2. The same run as the number: "daly" gives the completion times of
   interval_steps = K exactly (one replica stream, one seed).
3. Nothing interrupts: one save at the end (K = the steps), and the
   interval rescue moves from is the run's length, not infinite.
4. cheapest over the cards: each plan's K is that of its own card count.
5. JSON `inputs` keep the name; an override with a number replaces it;
   another string, and the name beside interval_steps in a file, are
   refused (exit 2)."""
import json
import math
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
MTBF, SAVE = 30.0, 600.0                 # Young and Daly differ by some steps
EXPERIMENT = {
    "name": "interval-by-name",
    "job": {"steps": 31790, "cards": 48, "flop_per_step": 1.655e17, "peak_flops": 165.2e12,
            "efficiency": 0.4, "exposed_comm_s": 0.08, "input_wait_s": 0.5},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": MTBF},
    "checkpoint": {"interval_s": "daly", "save_s": SAVE, "restore_s": 120},
    "deadline": {"days": 60, "reserve_days": 5},
    "monte_carlo": {"replicas": 200, "seed": 3},
}
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def young(m):
    return math.sqrt(2 * SAVE * m)


def daly(m):
    r = SAVE / (2 * m)
    return math.sqrt(2 * SAVE * m) * (1 + math.sqrt(r) / 3 + r / 9) - SAVE


def run(tmp, x, *args, cmd="run"):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, cmd, x, "--quiet", "--json", out, *args], capture_output=True,
                       text=True)
    return p, json.load(open(out)) if os.path.exists(out) else None


def main():
    with tempfile.TemporaryDirectory() as tmp:
        x = os.path.join(tmp, "x.json")
        with open(x, "w") as f:
            json.dump(EXPERIMENT, f)
        expected_k = {}
        for name, law in (("young", young), ("daly", daly)):
            for cards in (24, 48, 96):
                p, doc = run(tmp, x, "--set", f"job.cards={cards}",
                             "--set", f"checkpoint.interval_s={name}")
                cf = doc["closed_form"]
                k = round(law(MTBF * 86400 / cards) / cf["step_s"])
                check(cf["interval_steps"] == k, f"{name} at {cards} cards: K "
                                                 f"{cf['interval_steps']}, by hand {k}")
                check(doc["inputs"]["checkpoint"]["interval_s"] == name,
                      f"{name}: inputs keep {doc['inputs']['checkpoint']['interval_s']}")
                if name == "daly":
                    expected_k[cards] = k
        p, doc = run(tmp, x, "--vary", "job.cards=24,48,96", cmd="sweep")
        got = {s["inputs"]["job"]["cards"]: s["closed_form"]["interval_steps"]
               for s in doc["settings"]} if doc else {}
        check(got == expected_k,
              f"sweep over the cards: K {got}, by hand {expected_k}")
        p, named = run(tmp, x)
        p, given = run(tmp, x, "--set", f"checkpoint.interval_steps={expected_k[48]}")
        check(named["completion_days"] == given["completion_days"],
              "daly and the same K as a number differ")
        p, doc = run(tmp, x, "--set", "failures=null")
        check(doc["closed_form"]["interval_steps"] == 31790,
              f"nothing interrupts: K {doc['closed_form']['interval_steps']}, not the run")
        run_s = 31790 * doc["closed_form"]["step_s"]
        p, doc = run(tmp, x, "--set", "failures=null", "--set", "deadline.days=10",
                     "--levers", "checkpoint.interval_s", cmd="rescue")
        current = doc["levers"][0]["current"] if doc else None
        check(current is not None and abs(current - run_s) < 1e-6 * run_s,
              f"nothing interrupts: the interval is {current} s, not the run's {run_s} s")
        # cheapest varies the cards: each plan has the K of its own M (it was
        # pinned at the base's 48 cards)
        p, doc = run(tmp, x, "--lever", "job.cards=24:96", "--target", "0.5", cmd="cheapest")
        plans = [(q["cards"], q["interval_steps"],
                  round(daly(MTBF * 86400 / q["cards"]) / q["step_s"]))
                 for q in (doc["plans"] if doc else []) if q.get("interval_steps")]
        check(len({k for _, k, _ in plans}) > 1 and all(k == w for _, k, w in plans),
              f"cheapest: (cards, K, Daly's K by hand) per plan {plans}")
        p, doc = run(tmp, x, "--set", "checkpoint.interval_s=1800")
        check(doc["inputs"]["checkpoint"]["interval_s"] == 1800,
              f"a number replaces the name: {doc['inputs']['checkpoint']['interval_s']}")
        both = json.loads(json.dumps(EXPERIMENT))
        both["checkpoint"]["interval_steps"] = 10
        y = os.path.join(tmp, "both.json")
        with open(y, "w") as f:
            json.dump(both, f)
        for path, args, message in ((x, ["--set", "checkpoint.interval_s=dali"],
                                     '"dali" is not a name'),
                                    (y, [], "give exactly one")):
            p, doc = run(tmp, path, *args)
            check(p.returncode == 2 and message in p.stderr and doc is None,
                  f"{args}: exit {p.returncode}, {p.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"check_interval_name: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


main()
