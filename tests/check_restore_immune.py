#!/usr/bin/env python3
"""checkpoint.restore_immune (issue 34 part 5; tests/CMakeLists.txt:
cli-restore-immune). Usage: check_restore_immune.py TRAINMC.

1. A hand replay, nothing random: 100 steps of 2 s, a save of 1 s every 10
   steps (a segment is 21 s), a restore of 50 s, outages replayed at 100 s
   and 130 s with no downtime. The first outage loses the 16 s computed
   since the commit at 84 s; the restore runs from 100 s.
   - struck (false): the outage at 130 s starts the restore again, which
     ends at 180 s; the 6 segments left end the run at 180 + 126 = 306 s;
     restores 30 + 50 = 80 s, 2 outages.
   - immune (true): the outage at 130 s is dropped; 150 + 126 = 276 s;
     restores 50 s, 1 outage.
   - immune, with a time limit of 140 s that loses work: the limit still
     strikes the restore at 140 s (40 s of restore); the next allocation
     (140 s to 280 s) restores to 190 s and commits 4 segments by 274 s;
     the limit at 280 s loses 6 s; the restore ends at 330 s and 2 segments
     end the run at 372 s; restores 40 + 50 + 50 = 140 s, lost 16 + 6 = 22 s.
2. Daly's form with immune restores, derived apart: a segment of L = tau + c
   s meets e^(L/M) - 1 failures before it succeeds (geometric), each
   costing its mean time into the attempt and the restore r, nothing
   striking the restore: E = (M + r)(e^(L/M) - 1). The run's T must be that
   sum over the segments, to 1e-9; and the mean completion time of 20,000
   replicas of trainmc, and of an independent simulation of the same model
   in this file (exponential interruptions drawn per attempt), must both
   lie within 4 standard errors of it (estimator: the sample mean; its
   standard error: sd / sqrt(n)).
3. With the other features that touch restores, immune against struck: the
   mean T within 4 SE of the closed form (loss spikes: Daly's segment with
   spikes, exact; restores of random time, cv 0.5: the random-duration
   segment, exact), and importance sampling's P(miss) under a failure tilt
   of 2 within 4 combined SE of the plain estimate, its own SE below 0.005
   (0.0024 at this seed; the restore's time is out of the tilt's exposure:
   no failure can strike it).
4. The closed forms beside the run count immune restores as time down:
   - the Poisson restart count is W lambda / (1 + lambda (D + r)) over
     Daly's wall W (closed_form.completion_days_daly), against W lambda /
     (1 + lambda D) struck (D = 0 here), to 1e-9; the mean counts
     simulated within 4 SE of each (15.4 immune, where Young's wall
     gave 12.9);
   - outages with notice (every 0.05 days, 600 s down, 60 s notice) beside
     rare failures (a card MTBF of 2 days): Daly's first-order form within
     1 % of the simulated mean (4 % off before the failures' restores were
     counted as time down);
   - a pool of 1 spare with repairs of 1 h: Daly's loss-system form
     (approximate, docs/model.md 3.21) within 5 % of the simulated mean
     (it was 8.8 % off, 0.892 against 0.820 days, while failures were
     counted as arriving during the restores, where repairs go on);
   - two causes with their own detection and restore (600 s then 900 s, or
     none then 1,800 s): Daly's form is exact, linear in the mean D + r
     (daly_exact true), and the mean within 4 SE of it;
   - "Stated, optimistic" for immune restores only when Daly's form finds
     them shorter: listed at restore_cv 0, not at restore_cv 2, where struck
     restores, drawn again, are the shorter (0.62 days against 0.71).
5. Refused beside elastic groups (exit 2, the key named); the warning on
   long recoveries says "often strike restores" when they are struck and
   "none is struck" when immune (Young misses both)."""
import json
import math
import os
import random
import sys
import tempfile

from cli_checks import check, finish, run_json

BIN = sys.argv[1]
HAND = {
    "name": "restore-immune-hand",
    "source": "hand-derived (tests/check_restore_immune.py)",
    "job": {"steps": 100, "cards": 8, "flop_per_step": 8e15, "peak_flops": 1e15,
            "efficiency": 0.5, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "outages": {"trace": "outages.csv", "downtime_s": 0},
    "checkpoint": {"interval_steps": 10, "save_s": 1, "restore_s": 50},
    "deadline": {"days": 1},
    "monte_carlo": {"replicas": 1, "seed": 1},
}
# exponential failures: M = 0.2 days / 8 cards = 2,160 s, tau + c = 1,230 s
STEP_S, K, SAVE_S, RESTORE_S, STEPS, CARDS, MTBF_DAYS = 6.0, 200, 30.0, 1800.0, 4000, 8, 0.2
RANDOM = {
    "name": "restore-immune-daly",
    "source": "hand-derived (tests/check_restore_immune.py)",
    "job": {"steps": STEPS, "cards": CARDS, "flop_per_step": STEP_S * 1e15 * CARDS,
            "peak_flops": 1e15, "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": MTBF_DAYS},
    "checkpoint": {"interval_steps": K, "save_s": SAVE_S, "restore_s": RESTORE_S,
                   "restore_immune": True},
    "deadline": {"days": 10},
    "monte_carlo": {"replicas": 20000, "seed": 11},
}


def run(tmp, experiment, *args):
    return run_json(BIN, tmp, experiment, *args)


def hand_replay(tmp):
    with open(os.path.join(tmp, "outages.csv"), "w") as f:
        f.write(f"time_days\n{100 / 86400!r}\n{130 / 86400!r}\n")
    cases = (("false", [], 306, 80, 16, 2),
             ("true", [], 276, 50, 16, 1),
             ("true", ["--set", 'time_limit={"wall_hours": %r, "at_limit": "lose"}'
                       % (140 / 3600)], 372, 140, 22, 1))
    for immune, extra, wall, restores, lost, outages in cases:
        p, doc = run(tmp, HAND, "--set", f"checkpoint.restore_immune={immune}", *extra)
        if doc is None:
            check(False, f"immune {immune} {extra}: exit {p.returncode}, {p.stderr!r}")
            continue
        split = {k: v * 86400 for k, v in doc["split_days"].items()}
        got = (split["wall"], split["restores"], split["lost_work"], doc["events"]["outages"])
        want = (wall, restores, lost, outages)
        check(all(abs(g - w) < 1e-6 for g, w in zip(got, want)),
              f"immune {immune} {extra}: (wall, restores, lost, outages) {got}, by hand {want}")


def daly_immune_s(m):
    seg = lambda steps: (m + RESTORE_S) * math.expm1((steps * STEP_S + SAVE_S) / m)
    return (STEPS // K) * seg(K) + (seg(STEPS % K) if STEPS % K else 0)


def independent_mean(m, n, rng):
    """The model apart: each attempt at a segment draws its interruption."""
    walls = []
    for _ in range(n):
        t = 0.0
        for s in [K] * (STEPS // K) + ([STEPS % K] if STEPS % K else []):
            length = s * STEP_S + SAVE_S
            while True:
                x = rng.expovariate(1 / m)
                if x >= length:
                    t += length
                    break
                t += x + RESTORE_S
        walls.append(t)
    mean = sum(walls) / n
    sd = math.sqrt(sum((w - mean) ** 2 for w in walls) / (n - 1))
    return mean, sd / math.sqrt(n)


def daly_and_simulations(tmp):
    m = MTBF_DAYS * 86400 / CARDS
    want = daly_immune_s(m)
    p, doc = run(tmp, RANDOM)
    if doc is None:
        check(False, f"immune run: exit {p.returncode}, {p.stderr!r}")
        return
    daly = doc["closed_form"]["completion_days_daly"] * 86400
    check(abs(daly / want - 1) < 1e-9, f"Daly's T {daly} s, by hand {want} s")
    c = doc["completion_days"]
    mean, se = c["mean"] * 86400, c["se"] * 86400
    check(abs(mean - want) < 4 * se,
          f"trainmc's mean {mean:.1f} +- {se:.1f} s is {abs(mean - want) / se:.1f} SE from "
          f"{want:.1f} s")
    ind, ind_se = independent_mean(m, 20000, random.Random(5))
    check(abs(ind - want) < 4 * ind_se,
          f"the independent mean {ind:.1f} +- {ind_se:.1f} s is "
          f"{abs(ind - want) / ind_se:.1f} SE from {want:.1f} s")
    p, struck = run(tmp, RANDOM, "--set", "checkpoint.restore_immune=false")
    gap = (struck["completion_days"]["mean"] - c["mean"]) * 86400 if struck else 0
    check(gap > 10 * se, f"struck restores add {gap:.1f} s, not more than 10 SE ({se:.1f} s)")
    print(f"immune: Daly {want:.1f} s, trainmc {mean:.1f} +- {se:.1f} s, independent "
          f"{ind:.1f} +- {ind_se:.1f} s; struck restores add {gap:.1f} s")


def with_other_features(tmp):
    cases = (("loss spikes", ["--set", 'loss_spikes={"mean_interval_days": 0.1}']),
             ("random restores", ["--set", "checkpoint.restore_cv=0.5"]))
    for name, extra in cases:
        dalys = {}
        for immune in ("true", "false"):
            p, doc = run(tmp, RANDOM, "--set", f"checkpoint.restore_immune={immune}", *extra)
            if doc is None:
                check(False, f"{name}, immune {immune}: exit {p.returncode}, {p.stderr!r}")
                continue
            c, daly = doc["completion_days"], doc["closed_form"]["completion_days_daly"]
            dalys[immune] = daly
            print(f"{name}, immune {immune}: mean {c['mean']:.5f} +- {c['se']:.5f} days, "
                  f"closed form {daly:.5f}")
            check(abs(c["mean"] - daly) < 4 * c["se"],
                  f"{name}, immune {immune}: mean {c['mean']:.5f} +- {c['se']:.5f} days, "
                  f"closed form {daly:.5f} ({abs(c['mean'] - daly) / c['se']:.1f} SE)")
        check(dalys.get("false", 0) > dalys.get("true", 1),
              f"{name}: the closed form does not see the immune restores {dalys}")
    p, doc = run(tmp, RANDOM, "--set", "deadline.days=0.95", "--importance", "2,1,1")
    if doc is None:
        check(False, f"importance: exit {p.returncode}, {p.stderr!r}")
        return
    n, p_plain = doc["replicas"], 1 - doc["deadline"]["probability"]
    im = doc["importance"]
    se = math.sqrt(im["se"] ** 2 + p_plain * (1 - p_plain) / n)
    print(f"importance P(miss) {im['p_miss']:.5f}, plain {p_plain:.5f} (combined SE {se:.5f})")
    check(im["se"] < 0.005, f"importance: its SE {im['se']:.3g} (0.0024 at this seed): "
                            f"the weights have gone wild")
    check(abs(im["p_miss"] - p_plain) < 4 * se,
          f"importance P(miss) {im['p_miss']:.5f}, plain {p_plain:.5f}, "
          f"{abs(im['p_miss'] - p_plain) / se:.1f} combined SE apart")


def closed_forms_beside(tmp):
    m = MTBF_DAYS * 86400 / CARDS
    p, imm = run(tmp, RANDOM, "-n", "4000")
    p, struck = run(tmp, RANDOM, "-n", "4000", "--set", "checkpoint.restore_immune=false")
    for doc, down in ((imm, RESTORE_S), (struck, 0)):
        wall = doc["closed_form"]["completion_days_daly"] * 86400
        want = wall / m / (1 + down / m)
        r = doc["restarts"]
        se = r["sd"] / math.sqrt(doc["replicas"])
        check(abs(r["poisson_mean"] / want - 1) < 1e-9 and abs(r["mean"] - want) < 4 * se,
              f"restarts, down {down} s: Poisson {r['poisson_mean']}, by hand {want}; "
              f"simulated {r['mean']:.3f} +- {se:.3f}")
        print(f"restarts, down {down} s: Poisson {want:.3f}, simulated {r['mean']:.3f} +- "
              f"{se:.3f}")
    x = json.loads(json.dumps(RANDOM))
    x["failures"]["per_card_mtbf_days"] = 2.0
    x["outages"] = {"mean_interval_days": 0.05, "downtime_s": 600, "notice_s": 60}
    p, doc = run(tmp, x)
    mean, daly = doc["completion_days"]["mean"], doc["closed_form"]["completion_days_daly"]
    check(abs(daly / mean - 1) < 0.01,
          f"outages with notice: Daly {daly:.5f} days, simulated {mean:.5f}")
    x = json.loads(json.dumps(RANDOM))
    x["failures"].update({"spares": 1, "repair_mean_hours": 1})
    p, doc = run(tmp, x)
    mean, daly = doc["completion_days"]["mean"], doc["closed_form"]["completion_days_daly"]
    check(abs(daly / mean - 1) < 0.05,
          f"a pool of 1 spare: Daly {daly:.5f} days, simulated {mean:.5f}")
    print(f"spare pool: Daly {daly:.4f}, simulated {mean:.4f} days")
    x = json.loads(json.dumps(RANDOM))
    x["failures"]["causes"] = [
        {"name": "hang", "share": 0.5, "detection_s": 600, "restore_s": 900},
        {"name": "crash", "share": 0.5, "detection_s": 0}]
    p, doc = run(tmp, x)
    c, daly = doc["completion_days"], doc["closed_form"]["completion_days_daly"]
    check(doc["closed_form"]["daly_exact"] and abs(c["mean"] - daly) < 4 * c["se"],
          f"two causes: exact {doc['closed_form']['daly_exact']}, Daly {daly:.5f} days, "
          f"simulated {c['mean']:.5f} +- {c['se']:.5f}")
    for cv, listed in ((0, True), (2, False)):
        p, doc = run(tmp, RANDOM, "-n", "200", "--set", f"checkpoint.restore_cv={cv}")
        keys = [a["key"] for a in doc["assumed"]]
        check(("checkpoint.restore_immune" in keys) == listed,
              f"restore_cv {cv}: assumed {keys}, immune listed: expected {listed}")


def refused_with_groups(tmp):
    x = json.loads(json.dumps(RANDOM))
    x["elastic"] = {"groups": 2}
    p, doc = run(tmp, x)
    check(p.returncode == 2 and "checkpoint.restore_immune" in p.stderr and doc is None,
          f"elastic groups: exit {p.returncode}, {p.stderr!r}")
    for immune, says in (("true", "none is struck"), ("false", "often strike restores")):
        p, doc = run(tmp, RANDOM, "-n", "100", "--set", f"checkpoint.restore_immune={immune}")
        said = [w["message"] for w in (doc or {}).get("closed_form_warnings", [])
                if w["assumption"] == "restore_vs_mtbf"]
        check(len(said) == 1 and says in said[0],
              f"immune {immune}: the restore_vs_mtbf warning {said}, expected one saying "
              f"{says!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        hand_replay(tmp)
        daly_and_simulations(tmp)
        with_other_features(tmp)
        closed_forms_beside(tmp)
        refused_with_groups(tmp)
    sys.exit(finish("check_restore_immune"))


main()
