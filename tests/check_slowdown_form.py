#!/usr/bin/env python3
"""The closed form of a run that slows down (docs/model.md 3.22) against
trainmc's simulation (tests/CMakeLists.txt: cli-slowdown-form). Usage:
check_slowdown_form.py TRAINMC.

The case: 20,000 steps of about 11 s on 8 cards (mu 10 s, jitter cv 0.05,
1 s fixed), a save of 30 s every 60 steps, a restore of 300 s, per-card
MTBF 8 days (a failure a day), a linear drift of 0.1 an hour; 2,000
replicas, seed 5, the same replicas at every refresh period (common random
numbers: each setting's sd of T is 0.01 days, se 0.0002).

1. The form's T beside the simulation, refresh every 1, 1.5, 2, 3 and 4 h:
   Daly's T within 0.5 % of the simulated mean (a model tolerance: the
   form is first order in the interruptions and takes the cut step as half
   a step; measured 0.1-0.3 %), Young's within 0.5 % too.
2. The form's best period (closed_form slowdown.best_refresh_hours, 1.52 h)
   is a true minimum of the simulated T: T at the best period, at half and
   at twice it, each a paired difference of the same replicas; both
   differences above 0 by more than 4 standard errors of the difference.
3. The first-order period sqrt(2 C b / (y a)) within 5 % of the best (the
   drift over a period is small: 15 %).
4. `cheapest --lever slowdown.refresh_hours=1,1.5,3 --lever job.cards=8:12`
   (300 replicas) chooses 8 cards and 1.5 h, the period of least T in 2.
5. Without failures (per-card MTBF removed, no jitter), a 200-step case of
   100 s steps and 10 s fixed, a save of 30 s every 10 steps, refresh every
   2 h at 120 s, drift 0.5 an hour: the form's refresh count equals the
   simulated one, and its T is within 0.5 % of the simulated (exact) wall.
   Again with a long save (2,000 steps of 10 s, a save of 300 s every 100
   steps, a refresh every hour at 60 s, drift 0.2 an hour): the refresh's
   save takes 8 % of a period, and the form's count, 8, is the simulated
   one (computing through that save would give 7); T within 1.5 % (1.06 %:
   the saves are taken as a flow, though they fall on multiples of K).
"""
import json
import os
import subprocess
import sys
import tempfile

from cli_checks import check, finish, run_json

BIN = sys.argv[1]
CASE = {
    "name": "slowdown-form",
    "source": "hand-derived (tests/check_slowdown_form.py)",
    "job": {"steps": 20000, "cards": 8, "flop_per_step": 80e15, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 1},
    "jitter": {"distribution": "normal", "cv": 0.05},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": 8},
    "checkpoint": {"interval_steps": 60, "save_s": 30, "restore_s": 300},
    "slowdown": {"per_hour": 0.1, "refresh_hours": 3},
    "deadline": {"days": 5},
    "monte_carlo": {"replicas": 2000, "seed": 5},
}
QUIET = {
    "name": "slowdown-form-quiet",
    "source": "hand-derived (tests/check_slowdown_form.py)",
    "job": {"steps": 200, "cards": 1, "flop_per_step": 100e15, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 10},
    "jitter": {"distribution": "normal", "cv": 0},
    "checkpoint": {"interval_steps": 10, "save_s": 30, "restore_s": 120},
    "slowdown": {"per_hour": 0.5, "refresh_hours": 2},
    "deadline": {"days": 2},
    "monte_carlo": {"replicas": 10, "seed": 1},
}


def with_refresh(x, hours):
    y = json.loads(json.dumps(x))
    y["slowdown"]["refresh_hours"] = hours
    return y


def samples_of(tmp, x):
    """Each replica's completion days (--samples), in replica order."""
    path = os.path.join(tmp, "s.csv")
    p, doc = run_json(BIN, tmp, x, "--samples", path)
    with open(path) as f:
        rows = f.read().splitlines()
    col = rows[0].split(",").index("completion_days")
    return doc, [float(r.split(",")[col]) for r in rows[1:]]


def beside(tmp):
    for hours in (1, 1.5, 2, 3, 4):
        p, doc = run_json(BIN, tmp, with_refresh(CASE, hours))
        if doc is None:
            check(False, f"refresh {hours} h: exit {p.returncode}, {p.stderr!r}")
            continue
        sim = doc["completion_days"]["mean"]
        cf = doc["closed_form"]
        for name, key in (("Daly", "completion_days_daly"), ("Young", "completion_days")):
            check(abs(cf[key] / sim - 1) < 0.005,
                  f"refresh {hours} h: {name} {cf[key]:.4f} d against {sim:.4f} simulated")
        print(f"refresh {hours} h: simulated {sim:.4f} d, Young {cf['completion_days']:.4f}, "
              f"Daly {cf['completion_days_daly']:.4f}")


def best_is_minimum(tmp):
    p, doc = run_json(BIN, tmp, CASE)
    best = doc["slowdown"]["best_refresh_hours"]
    first = doc["slowdown"]["first_order_refresh_hours"]
    check(abs(first / best - 1) < 0.05, f"first order {first:.4f} h against best {best:.4f} h")
    _, at = samples_of(tmp, with_refresh(CASE, best))
    for factor in (0.5, 2):
        _, other = samples_of(tmp, with_refresh(CASE, best * factor))
        d = [o - a for o, a in zip(other, at)]
        n = len(d)
        mean = sum(d) / n
        se = (sum((v - mean) ** 2 for v in d) / (n - 1) / n) ** 0.5
        check(mean > 4 * se, f"T at {factor} x the best ({best * factor:.3f} h) minus T at the "
              f"best: {mean:.5f} +- {se:.5f} d, not above 4 se")
        print(f"best {best:.3f} h (first order {first:.3f} h): T at {factor} x it is "
              f"{mean:+.5f} +- {se:.5f} d longer")


def cheapest(tmp):
    x = os.path.join(tmp, "c.json")
    with open(x, "w") as f:
        json.dump(CASE, f)
    out = os.path.join(tmp, "c-out.json")
    p = subprocess.run([BIN, "cheapest", x, "--quiet", "--json", out, "-n", "300",
                        "--lever", "slowdown.refresh_hours=1,1.5,3", "--lever",
                        "job.cards=8:12"], capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"cheapest: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as f:
        doc = json.load(f)
    label = doc["chosen"]["plan"] if doc.get("chosen") else None
    check(label == "job.cards=8, slowdown.refresh_hours=1.5", f"cheapest chose {label!r}")
    print(f"cheapest: {label}")


def quiet(tmp):
    long_save = json.loads(json.dumps(QUIET))
    long_save["job"].update(steps=2000, flop_per_step=10e15, exposed_comm_s=0)
    long_save["checkpoint"].update(interval_steps=100, save_s=300, restore_s=60)
    long_save["slowdown"].update(per_hour=0.2, refresh_hours=1)
    for what, x, tol in (("without failures", QUIET, 0.005),
                         ("a long save", long_save, 0.015)):
        p, doc = run_json(BIN, tmp, x)
        sim, cf = doc["completion_days"]["mean"], doc["closed_form"]["completion_days_daly"]
        refreshes, form = doc["events"]["refreshes"], doc["slowdown"]["refreshes"]
        check(refreshes == form, f"{what}: {refreshes} refreshes, the form {form}")
        check(abs(cf / sim - 1) < tol, f"{what}: Daly {cf:.5f} d, exact {sim:.5f}")
        print(f"{what}: wall {sim:.5f} d, Daly {cf:.5f}; refreshes {refreshes:g}, "
              f"form {form:g}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        beside(tmp)
        best_is_minimum(tmp)
        cheapest(tmp)
        quiet(tmp)
    return finish("check_slowdown_form")


sys.exit(main())
