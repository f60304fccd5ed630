#!/usr/bin/env python3
"""checkpoint.interval_s "optimal": the simulated optimum interval (issue 34
part 5; tests/CMakeLists.txt: cli-interval-optimal). Usage:
check_interval_optimal.py TRAINMC.

1. Where the closed form is off: check_levels.py's random two-level case
   (a failure every 300 s, an outage every 5,000 s, steps of 10 s, local
   and persistent saves of 2 and 20 s, every 3rd snapshot persistent),
   where the first-order tau*(3) gives K0 = 6 steps. trainmc searches and
   picks K. The independent simulation of that model in check_levels.py
   (Replica), one generator per replica so that every K meets the same
   arrivals (common random numbers), estimates the mean T at K0 and at K
   and K +- 1 over 10,000 replicas. Estimator: the mean of the per-replica
   differences; standard error: their sd / sqrt(n). (a) T(K0) - T(K) > 4
   standard errors: the search beats the form; (b) T(K) - T(K +- 1) < 4
   standard errors: K is a local optimum within the noise; (c) trainmc's
   own paired T(K0) - T(K) on its search replicas agrees with (a) within 4
   combined standard errors.
2. The run after the search has the numbers of the same experiment with
   interval_steps K given as a number (the search draws replicas 2^40
   onward, none of the run's), on 1 and on 2 threads.
3. Nothing interrupts: K is the run's steps (one save at its end; every
   other save only costs), by hand.
4. sweep: each setting searches its own K (at a failure every 300 s and
   every 3,000 s they differ) and it is the K `run` finds at that setting.
5. rescue does not move a searched interval (toward the form's).
6. An unknown name is refused with "optimal" among the names; `plan`
   (closed forms only) says its interval is the form's, searched when run."""
import csv
import json
import math
import os
import random
import sys
import tempfile

from cli_checks import check, finish, run_json
import check_levels as levels

BIN = sys.argv[1]
N_INDEPENDENT = 10000


def optimal(x):
    y = json.loads(json.dumps(x))
    y["checkpoint"].pop("interval_steps", None)
    y["checkpoint"]["interval_s"] = "optimal"
    return y


def paired(k_a, k_b):
    """Mean and standard error of T(k_a) - T(k_b), seconds, in the
    independent simulation, replica i drawing from its own generator."""
    diffs = []
    for i in range(N_INDEPENDENT):
        a = levels.Replica(random.Random(7000 + i)).run(k_a)
        b = levels.Replica(random.Random(7000 + i)).run(k_b)
        diffs.append(a - b)
    return levels.mean_se(diffs)


def beats_the_form(tmp):
    p, doc = run_json(BIN, tmp, optimal(levels.RANDOM), "-n", "2000")
    if doc is None:
        check(False, f"search: exit {p.returncode}, {p.stderr!r}")
        return None
    s = doc["interval_search"]
    k, k0 = int(s["steps"]), int(s["closed_form_steps"])
    check(k0 == 6, f"the form's K0 {k0}, by check_levels' form 6")
    d, se = paired(k0, k)
    check(d > 4 * se, f"independent: T(K0 {k0}) - T(K {k}) = {d:.2f} +- {se:.2f} s, "
                      f"not above 4 se: the search did not beat the form")
    for other in (k - 1, k + 1):
        d2, se2 = paired(k, other)
        check(d2 < 4 * se2, f"independent: T(K {k}) - T({other}) = {d2:.2f} +- {se2:.2f} s: "
                            f"K is not a local optimum")
    own, own_se = (s["closed_form_minus_days"] * 86400, s["closed_form_minus_se_days"] * 86400)
    z = (own - d) / math.hypot(own_se, se)
    check(abs(z) < 4, f"trainmc's own T(K0) - T(K) {own:.2f} +- {own_se:.2f} s against the "
                      f"independent {d:.2f} +- {se:.2f} s (z {z:.2f})")
    print(f"search: K {k} (form {k0}); independent T(K0) - T(K) {d:.2f} +- {se:.2f} s; "
          f"trainmc's own {s['closed_form_minus_days'] * 86400:.2f} +- "
          f"{s['closed_form_minus_se_days'] * 86400:.2f} s")
    return doc


def same_as_number(tmp, doc):
    k = int(doc["interval_search"]["steps"])
    x = json.loads(json.dumps(levels.RANDOM))
    x["checkpoint"]["interval_steps"] = k
    for threads in ("1", "2"):
        p, fixed = run_json(BIN, tmp, x, "-n", "2000", "-t", threads)
        p, found = run_json(BIN, tmp, optimal(levels.RANDOM), "-n", "2000", "-t", threads)
        same = fixed and found and fixed["completion_days"] == found["completion_days"]
        check(same, f"{threads} thread(s): the run at the found K {k} differs from the same K "
                    f"given as a number")
        check(found and found["interval_search"]["steps"] == k,
              f"{threads} thread(s): another K found")


def nothing_interrupts(tmp):
    x = optimal(levels.RANDOM)
    x["failures"] = None
    x["outages"] = None
    x["checkpoint"]["persistent_every"] = 1
    p, doc = run_json(BIN, tmp, x, "-n", "200")
    got = doc and doc["interval_search"]["steps"]
    check(got == levels.STEPS, f"nothing interrupts: K {got}, by hand {levels.STEPS}")


def sweep_searches_each(tmp):
    path = os.path.join(tmp, "optimal.json")
    with open(path, "w") as f:
        json.dump(optimal(levels.RANDOM), f)
    days = [levels.FAIL_S * levels.NODES / 86400 * r for r in (1, 10)]
    spec = ",".join(repr(d) for d in days)
    out = os.path.join(tmp, "sweep.csv")
    p = levels.subprocess.run([BIN, "sweep", path, "--vary",
                               f"failures.per_card_mtbf_days={spec}", "-n", "2000",
                               "--csv", out], capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"sweep: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as f:
        swept = [int(row["interval_steps"]) for row in csv.DictReader(f)]
    ran = []
    for d in days:
        p, doc = run_json(BIN, tmp, optimal(levels.RANDOM), "-n", "2000", "--set",
                          f"failures.per_card_mtbf_days={d!r}")
        ran.append(doc and doc["interval_search"]["steps"])
    check(swept == ran and swept[0] != swept[1],
          f"sweep: K per setting {swept}, run's {ran} (they should match and differ)")


def rescue_keeps_it(tmp):
    """rescue leaves a searched interval alone (the closed form's optimum,
    which it would move toward, is the worse one here)."""
    path, out = os.path.join(tmp, "optimal.json"), os.path.join(tmp, "rescue.json")
    with open(path, "w") as f:
        json.dump(optimal(levels.RANDOM), f)
    p = levels.subprocess.run([BIN, "rescue", path, "--set", "deadline.days=0.1", "--levers",
                               "checkpoint.interval_s", "-n", "500", "--quiet", "--json",
                               out], capture_output=True, text=True)
    lever = json.load(open(out))["levers"][0] if os.path.exists(out) else {}
    check(lever.get("outcome") == "not_applicable" and
          "simulated optimum" in lever.get("reason", ""),
          f"rescue: interval lever {lever.get('outcome')}: {lever.get('reason')}")
    # its current value is in the key's unit, seconds: the run's K t_s
    q, doc = run_json(BIN, tmp, optimal(levels.RANDOM), "-n", "500")
    want = doc and doc["interval_search"]["interval_s"]
    check(want and abs(lever.get("current", 0) - want) < 1e-9 * want,
          f"rescue: the searched interval's current value {lever.get('current')}, "
          f"the run's interval_s {want}")


def refused_name(tmp):
    x = json.loads(json.dumps(levels.RANDOM))
    x["checkpoint"].pop("interval_steps")
    x["checkpoint"]["interval_s"] = "best"
    p, doc = run_json(BIN, tmp, x)
    check(p.returncode == 2 and '"optimal"' in p.stderr,
          f"unknown name: exit {p.returncode}, {p.stderr!r}")
    path = os.path.join(tmp, "optimal.json")
    with open(path, "w") as f:
        json.dump(optimal(levels.RANDOM), f)
    p = levels.subprocess.run([BIN, "plan", path], capture_output=True, text=True)
    check(p.returncode == 0 and '"optimal" is searched when run' in p.stdout,
          f"plan: exit {p.returncode}, {p.stdout!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        doc = beats_the_form(tmp)
        if doc:
            same_as_number(tmp, doc)
        nothing_interrupts(tmp)
        sweep_searches_each(tmp)
        rescue_keeps_it(tmp)
        refused_name(tmp)
    return finish("check_interval_optimal")


if __name__ == "__main__":
    sys.exit(main())
