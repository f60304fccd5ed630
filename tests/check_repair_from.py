#!/usr/bin/env python3
"""failures.repair_from: a repair starts at the failure's instant (the
default) or once the failure is detected (issue 36 part 3; tests/CMakeLists.txt:
cli-repair-from). Usage: check_repair_from.py TRAINMC.

The experiment: 8 cards, Poisson card failures one every 5,000 s for the
job, one cause with a fixed detection delay d = 600 s that takes a spare,
no spare pool (the job waits for its own card), repairs of R = 1,800 s,
restores immune (a failure due in a restore is dropped, and arrivals are
dropped while the job is down), no jitter.

1. Fixed repairs, per replica, exactly (by hand): the wait for the card is
   n (R - d) = 1,200 n s from the failure and n R = 1,800 n s from the
   detection, n the replica's failures; the detection n d in both.
2. Exponential repairs of mean R: the mean wait per failure, ratio
   estimator sum(wait) / sum(n) over 20,000 replicas with its delta-method
   standard error, within 4 standard errors of R e^(-d/R) = 1,289.8 s (from
   the failure: what is left of a memoryless repair after d) and of R (from
   the detection).
3. The closed form: Young's overhead c / tau + (tau / 2 + r + D) / M moves
   by the delay's change over M, (E[R] - E[(R - d)+]) / M: 600 / 5,000 for
   fixed repairs, to 1e-9.
4. The report: from the failure (the default) with a delay and a pool of
   none, `failures.repair_from` is listed among the optimistic defaults;
   given "detection", it is not; with unlimited spares it is not.
5. Without a detection delay both readings give the same numbers."""
import json
import math
import os
import sys
import tempfile

from cli_checks import check, finish, run_json, samples as cli_samples

BIN = sys.argv[1]
D_S, R_S, GAP_S = 600.0, 1800.0, 5000.0
X = {
    "name": "repair-from",
    "source": "hand-derived (tests/check_repair_from.py)",
    "job": {"steps": 2000, "cards": 8, "flop_per_step": 1e16, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": GAP_S * 8 / 86400,
                 "causes": [{"name": "gpu", "share": 1, "detection_s": D_S}],
                 "spares": 0, "repair_mean_hours": R_S / 3600,
                 "repair_distribution": "fixed"},
    "checkpoint": {"interval_steps": 50, "save_s": 10, "restore_s": 120,
                   "restore_immune": True},
    "deadline": {"days": 2},
    "monte_carlo": {"replicas": 20000, "seed": 9},
}


def variant(repair_from=None, law="fixed", spares=0, detection=D_S):
    x = json.loads(json.dumps(X))
    f = x["failures"]
    if repair_from:
        f["repair_from"] = repair_from
    f["repair_distribution"] = law
    f["spares"] = spares
    f["causes"][0]["detection_s"] = detection
    return x


def samples(tmp, x):
    return cli_samples(BIN, tmp, x)


def exact(tmp):
    for mode, per in ((None, R_S - D_S), ("failure", R_S - D_S), ("detection", R_S)):
        doc, rows = samples(tmp, variant(mode))
        worst = max((abs(r["spare_wait_days"] * 86400 - per * r["card_failures"]) +
                     abs(r["failure_detection_days"] * 86400 - D_S * r["card_failures"])
                     for r in rows), default=math.inf)
        failures = sum(r["card_failures"] for r in rows)
        check(worst < 1e-6 and failures > 10000,
              f"1: from {mode}: wait {per} s a failure off by {worst} s ({failures} failures)")


def ratio(rows):
    y = [r["spare_wait_days"] * 86400 for r in rows]
    n = [r["card_failures"] for r in rows]
    est = sum(y) / sum(n)
    se = math.sqrt(sum((a - est * b) ** 2 for a, b in zip(y, n))) / sum(n)
    return est, se


def exponential(tmp):
    for mode, want in (("failure", R_S * math.exp(-D_S / R_S)), ("detection", R_S)):
        _, rows = samples(tmp, variant(mode, law="exponential"))
        est, se = ratio(rows)
        print(f"2: from {mode}: {est:.1f} +- {se:.1f} s a failure, expected {want:.1f}")
        check(abs(est - want) < 4 * se, f"2: from {mode}: {est} +- {se}, expected {want}")


def closed_form(tmp):
    _, a = run_json(BIN, tmp, variant("failure"), "-n", "10")
    _, b = run_json(BIN, tmp, variant("detection"), "-n", "10")
    m = a["closed_form"]["mtbf_s"]
    got = b["closed_form"]["overhead_young"] - a["closed_form"]["overhead_young"]
    want = (R_S - (R_S - D_S)) / m
    check(abs(m - GAP_S) < 1e-6 * GAP_S and abs(got - want) < 1e-9 * want,
          f"3: Young moves by {got}, by hand {want} (M {m})")


def listed(doc):
    return any(a.get("key") == "failures.repair_from" for a in doc.get("assumed", []))


def report(tmp):
    _, d = run_json(BIN, tmp, variant(), "-n", "10")
    check(d and listed(d), "4: the default repair_from is not listed as optimistic: "
          f"{d and d.get('assumed')}")
    _, d = run_json(BIN, tmp, variant("detection"), "-n", "10")
    check(d and not listed(d), "4: listed although repairs start at the detection")
    _, d = run_json(BIN, tmp, variant(spares=-1), "-n", "10")
    check(d and not listed(d), "4: listed with unlimited spares")


def no_delay(tmp):
    _, a = run_json(BIN, tmp, variant("failure", law="exponential", detection=0), "-n", "2000")
    _, b = run_json(BIN, tmp, variant("detection", law="exponential", detection=0), "-n", "2000")
    check(a and b and a["completion_days"] == b["completion_days"],
          "5: without a delay the readings differ")


with tempfile.TemporaryDirectory() as tmp:
    exact(tmp)
    exponential(tmp)
    closed_form(tmp)
    report(tmp)
    no_delay(tmp)
sys.exit(finish("check_repair_from"))
