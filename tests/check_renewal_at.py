#!/usr/bin/env python3
"""failures.renewal_at: job renewal timed at the restore or at the failure
(issue 34 part 5; tests/CMakeLists.txt: cli-renewal-at). Usage:
check_renewal_at.py TRAINMC.

1. By hand, one card whose lifetime is almost fixed (lognormal, mean 550 s,
   cv 0.01: sd 5.5 s, every margin below at least 9 sd), 150 steps of 9.5 s,
   a save of 5 s every 10 steps (a segment is 100 s), a restore of 100 s,
   each failure detected D s after it strikes. The first lifetime runs
   from 0: 5 segments commit by 500 s, the failure strikes at L1 (~550 s).
   - restore, D = 100: new clocks at the restore's start, so each later
     attempt has L - r = 450 s: 4 segments; 5 + 4 + 4 + 2 = 15. Failures 3,
     detection 300 s, restores 300 s; E[wall] = 3 x 550 + 2 x 100 + (100 +
     100 + 200) = 2,250 s; lost work = sum L - 1,500, so wall - lost = 2,100
     s (1,500 s of steps and saves, 300 + 300 s) in every replica.
   - failure, D = 100: the clocks start at the failure, so the time down
     ages them: L - D - r = 350 s, 3 segments; 5 + 3 + 3 + 3 + 1 = 15.
     Failures 4, detection 400 s, restores 400 s, E[wall] = 4 x 550 + 300 =
     2,500 s, wall - lost = 2,300 s.
   - failure, D = 650: the next failure falls inside the time down (550 s
     after the one that struck) and is dropped; it renews the clocks again,
     so the next strikes L' + L'' (~1,100 s) after the last: 1,100 - 650 -
     100 = 350 s, 3 segments. Failures 4 (those dropped do not count),
     detection 2,600 s, restores 400 s, E[wall] = 550 + 3 x 1,100 + 850 =
     4,700 s, wall - lost = 4,500 s.
   - restore, D = 650: 4 segments a cycle as in the first case; failures 3,
     detection 1,950 s, E[wall] = 1,650 + 2 x 650 + 950 = 3,900 s, wall -
     lost = 3,750 s.
   The counts and rows are exact; wall - lost to 1e-6 s; the mean wall
   within 4 standard errors (sd / sqrt(n) of the replicas' walls).
2. With no time down (D = 0, hang-8-job-renewal), the two readings draw the
   same numbers in the same order: equal T mean, sd and failures, exactly.
3. Against a simulation written in this file (8 cards of Weibull shape 5,
   the job's mean 7,200 s between failures, 3,000 steps of 10 s, a save of
   20 s every 60 steps, a restore of 300 s; D = 1,800 s and D = 6,500 s,
   where a quarter of the failures fall while the job is down): the mean T
   of 4,000 replicas of each within 4 combined standard errors, both
   readings, restores struck and immune; the failure reading longer than
   the restore reading by more than 4 combined SE.
4. The closed form's M (closed_form.mtbf_s) with renewal at the failure is
   the mean time from the restart to the next failure, mu (1 + m(D')) -
   D' for D' the time down (D, plus r when restores are immune): within 4
   SE of that mean simulated here (200,000 renewal sequences); with renewal
   at the restore, mu itself (the minimum of 8 lifetimes), or mu - r with
   immune restores (which age the clocks in either timing), to 0.01 s. With an
   exponential detection delay of mean 6,500 s, M is the forward time's
   mean over that law (simulated likewise: 4,426 s, against 3,031 s at the
   fixed mean).
5. An immune restore ages the clocks in both timings (they start at its
   start): with D = 0 and restores of 3,000 s both draw the same runs and
   give the same M, the forward time at 3,000 s (simulated, 4 SE). A time
   limit's requeue (3,600 s every 3 h) ages them in the failure timing
   only: M at least 10 % below mu there, mu itself at the restore.
6. The report lists the restore reading as optimistic when the job is down
   after failures (failures.renewal_at in the JSON's assumed list: stated
   false when left to its default, true when given), not with D = 0 nor
   with the failure reading; "failure" with renewal "card" is refused
   (exit 2, the key named)."""
import json
import math
import os
import random
import sys
import tempfile

from cli_checks import check, finish, run_json

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
LIFE_S = 550.0
HAND = {
    "name": "renewal-at-hand",
    "source": "hand-derived (tests/check_renewal_at.py)",
    "job": {"steps": 150, "cards": 1, "flop_per_step": 9.5e15, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "lognormal", "lifetime_cv": 0.01,
                 "per_card_mtbf_days": LIFE_S / 86400, "renewal": "job",
                 "causes": [{"name": "hang", "share": 1, "detection_s": 100}]},
    "checkpoint": {"interval_steps": 10, "save_s": 5, "restore_s": 100},
    "deadline": {"days": 1},
    "monte_carlo": {"replicas": 400, "seed": 3},
}
CARDS, SHAPE, JOB_MTBF_S = 8, 5.0, 7200.0
STEPS, STEP_S, K, SAVE_S, RESTORE_S = 3000, 10.0, 60, 20.0, 300.0
GAMMA_1_2 = math.gamma(1 + 1 / SHAPE)
CARD_MEAN_S = JOB_MTBF_S * CARDS ** (1 / SHAPE)  # the earliest of 8 has mean JOB_MTBF_S
RANDOM = {
    "name": "renewal-at-random",
    "source": "hand-derived (tests/check_renewal_at.py)",
    "job": {"steps": STEPS, "cards": CARDS, "flop_per_step": STEP_S * 1e15 * CARDS,
            "peak_flops": 1e15, "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "weibull", "shape": SHAPE,
                 "per_card_mtbf_days": CARD_MEAN_S / 86400, "renewal": "job",
                 "causes": [{"name": "hang", "share": 1, "detection_s": 1800}]},
    "checkpoint": {"interval_steps": K, "save_s": SAVE_S, "restore_s": RESTORE_S},
    "deadline": {"days": 10},
    "monte_carlo": {"replicas": 4000, "seed": 17},
}


def run(tmp, experiment, *args):
    return run_json(BIN, tmp, experiment, *args)


def by_hand(tmp):
    cases = (("restore", 100, 3, 2250, 2100), ("failure", 100, 4, 2500, 2300),
             ("failure", 650, 4, 4700, 4500), ("restore", 650, 3, 3900, 3750))
    for at, d, n, wall, wall_less_lost in cases:
        p, doc = run(tmp, HAND, "--set", f"failures.renewal_at={at}",
                     "--set", f"failures.causes[0].detection_s={d}")
        if doc is None:
            check(False, f"{at}, D {d}: exit {p.returncode}, {p.stderr!r}")
            continue
        split = {k: v * 86400 for k, v in doc["split_days"].items()}
        c = doc["completion_days"]
        mean, se = c["mean"] * 86400, c["se"] * 86400
        got = (doc["events"]["card_failures"], split["failure_detection"], split["restores"],
               split["wall"] - split["lost_work"])
        want = (n, n * d, n * 100, wall_less_lost)
        check(all(abs(g - w) < 1e-6 for g, w in zip(got, want)),
              f"{at}, D {d}: (failures, detection, restores, wall - lost) {got}, by hand {want}")
        check(abs(mean - wall) < 4 * se,
              f"{at}, D {d}: mean wall {mean:.2f} +- {se:.2f} s, by hand {wall} s")
        print(f"by hand: {at}, D {d}: mean wall {mean:.2f} +- {se:.2f} s (by hand {wall}), "
              f"{got[0]:g} failures")


def same_without_downtime(tmp):
    x = json.load(open(os.path.join(HERE, "..", "experiments", "hang-8-job-renewal.json")))
    docs = []
    for at in ("restore", "failure"):
        p, doc = run(tmp, x, "-n", "2000", "--set", f"failures.renewal_at={at}")
        docs.append(doc)
    if None in docs:
        check(False, "hang-8 at D = 0: a run failed")
        return
    a, b = (((d["completion_days"]["mean"], d["completion_days"]["sd"],
              d["events"]["card_failures"])) for d in docs)
    check(a == b, f"D = 0: restore {a}, failure {b}: not the same numbers")


def min8(rng):
    scale = CARD_MEAN_S / GAMMA_1_2
    return min(rng.weibullvariate(scale, SHAPE) for _ in range(CARDS))


def independent_walls(at_failure, d, immune, n, rng):
    """The model apart: the job's failures a renewal process (gaps the
    earliest of 8 fresh Weibull lifetimes) renewed at the failure (and at
    every failure dropped while down) or at the restore's start."""
    walls = []
    for _ in range(n):
        t, nxt, done = 0.0, min8(rng), 0
        while done < STEPS:
            steps = min(K, STEPS - done)
            length = steps * STEP_S + SAVE_S
            if nxt > t + length:
                t, done = t + length, done + steps
                continue
            x = nxt
            while True:  # an interruption at x: down d, then the restore
                up = x + d
                if at_failure:
                    nxt = x + min8(rng)
                    while nxt <= up:
                        nxt += min8(rng)
                else:
                    nxt = up + min8(rng)
                if immune:
                    while nxt <= up + RESTORE_S:
                        nxt += min8(rng)
                elif nxt < up + RESTORE_S:
                    x = nxt
                    continue
                t = up + RESTORE_S
                break
        walls.append(t)
    mean = sum(walls) / n
    sd = math.sqrt(sum((w - mean) ** 2 for w in walls) / (n - 1))
    return mean, sd / math.sqrt(n)


def forward_mean(d, n, rng, exponential=False):
    """The mean time from d to the first renewal after it, begun at 0 (d
    drawn exponential of that mean for each sequence when asked)."""
    total, total2 = 0.0, 0.0
    for _ in range(n):
        t, dd = 0.0, rng.expovariate(1 / d) if exponential else d
        while t <= dd:
            t += min8(rng)
        total += t - dd
        total2 += (t - dd) ** 2
    mean = total / n
    return mean, math.sqrt((total2 / n - mean * mean) / n)


def against_independent(tmp):
    rng = random.Random(34)
    for d in (1800, 6500):
        for immune in (False, True):
            means = {}
            for at in ("restore", "failure"):
                p, doc = run(tmp, RANDOM, "--set", f"failures.renewal_at={at}",
                             "--set", f"failures.causes[0].detection_s={d}",
                             "--set", f"checkpoint.restore_immune={str(immune).lower()}")
                if doc is None:
                    check(False, f"D {d} {at}: exit {p.returncode}, {p.stderr!r}")
                    continue
                c = doc["completion_days"]
                mean, se = c["mean"] * 86400, c["se"] * 86400
                ind, ind_se = independent_walls(at == "failure", d, immune, 4000, rng)
                both = math.hypot(se, ind_se)
                what = f"D {d}, {at}, immune {immune}"
                print(f"{what}: trainmc {mean:.1f} +- {se:.1f} s, independent {ind:.1f} +- "
                      f"{ind_se:.1f} s, Daly {doc['closed_form']['completion_days_daly'] * 86400:.1f} s")
                check(abs(mean - ind) < 4 * both, f"{what}: trainmc {mean:.1f} +- {se:.1f} s, "
                      f"independent {ind:.1f} +- {ind_se:.1f} s ({abs(mean - ind) / both:.1f} SE)")
                means[at] = (mean, se, doc["closed_form"]["mtbf_s"])
            if len(means) < 2:
                continue
            (mr, sr, m_restore), (mf, sf, m_failure) = means["restore"], means["failure"]
            check(mf - mr > 4 * math.hypot(sr, sf),
                  f"D {d}, immune {immune}: failure {mf:.1f} not longer than restore {mr:.1f}")
            # immune, the restore ages the clocks: mu - r, no failure falling
            # in the 300 s (P about 1e-7)
            want = JOB_MTBF_S - (RESTORE_S if immune else 0)
            check(abs(m_restore - want) < 0.01,
                  f"restore reading, immune {immune}: M {m_restore} s, by hand {want} s")
            down = d + (RESTORE_S if immune else 0)
            fwd, fwd_se = forward_mean(down, 200000, rng)
            check(abs(m_failure - fwd) < 4 * fwd_se,
                  f"D' {down}: M {m_failure:.1f} s, simulated forward time {fwd:.1f} +- "
                  f"{fwd_se:.1f} s")
            print(f"D' {down}: closed form M {m_failure:.1f} s, simulated {fwd:.1f} +- "
                  f"{fwd_se:.1f} s (M - D' = {JOB_MTBF_S - down:.0f} s)")


def random_detection(tmp):
    p, doc = run(tmp, RANDOM, "-n", "100", "--set", "failures.renewal_at=failure",
                 "--set", "failures.causes[0].detection_s=6500",
                 "--set", "failures.causes[0].detection_distribution=exponential")
    if doc is None:
        check(False, f"exponential detection: exit {p.returncode}, {p.stderr!r}")
        return
    m = doc["closed_form"]["mtbf_s"]
    fwd, se = forward_mean(6500, 200000, random.Random(35), exponential=True)
    check(abs(m - fwd) < 4 * se, f"exponential D of mean 6500 s: M {m:.1f} s, simulated "
                                 f"{fwd:.1f} +- {se:.1f} s")
    print(f"exponential D of mean 6500 s: closed form M {m:.1f} s, simulated {fwd:.1f} +- "
          f"{se:.1f} s")


def immune_and_limits(tmp):
    """An immune restore ages the clocks in both timings (they start at its
    start); a time limit's requeue only in the failure timing."""
    docs = {}
    for at in ("restore", "failure"):
        p, docs[at] = run(tmp, RANDOM, "-n", "1000", "--set", f"failures.renewal_at={at}",
                          "--set", "failures.causes[0].detection_s=0",
                          "--set", "checkpoint.restore_immune=true",
                          "--set", "checkpoint.restore_s=3000")
        if docs[at] is None:
            check(False, f"immune, D 0, {at}: exit {p.returncode}, {p.stderr!r}")
            return
    (a, b) = (docs["restore"], docs["failure"])
    check(a["completion_days"] == b["completion_days"],
          "immune, D 0: the two timings drew different runs")
    m_r, m_f = a["closed_form"]["mtbf_s"], b["closed_form"]["mtbf_s"]
    fwd, se = forward_mean(3000, 200000, random.Random(36))
    check(m_r == m_f and abs(m_r - fwd) < 4 * se,
          f"immune restores of 3000 s, D 0: M {m_r:.1f} s (restore), {m_f:.1f} s (failure), "
          f"simulated forward time {fwd:.1f} +- {se:.1f} s")
    print(f"immune 3000 s, D 0: M {m_r:.1f} s in both timings, simulated {fwd:.1f} +- {se:.1f}")
    limit = 'time_limit={"wall_hours": 3, "requeue_s": 3600, "at_limit": "save"}'
    ms = {}
    for at in ("restore", "failure"):
        p, doc = run(tmp, RANDOM, "-n", "100", "--set", f"failures.renewal_at={at}",
                     "--set", "failures.causes[0].detection_s=0", "--set", limit)
        ms[at] = doc["closed_form"]["mtbf_s"] if doc else None
    check(ms["restore"] is not None and abs(ms["restore"] / JOB_MTBF_S - 1) < 1e-9 and
          ms["failure"] is not None and ms["failure"] < 0.9 * JOB_MTBF_S,
          f"requeues of 3600 s every 3 h: M {ms} (the failure timing's aged by them)")
    print(f"requeues of 3600 s every 3 h: M {ms}")


def assumed_and_refused(tmp):
    cases = (([], [False]), (["--set", "failures.renewal_at=restore"], [True]),
             (["--set", "failures.causes[0].detection_s=0"], []),
             (["--set", "failures.renewal_at=failure"], []))
    for extra, listed in cases:
        p, doc = run(tmp, RANDOM, "-n", "100", *extra)
        stated = [a["stated"] for a in (doc or {}).get("assumed", [])
                  if a["key"] == "failures.renewal_at"]
        check(stated == listed, f"{extra}: renewal_at in the assumed list, stated: {stated}, "
                                f"expected {listed}")
    p, doc = run(tmp, RANDOM, "--set", "failures.renewal=card",
                 "--set", "failures.renewal_at=failure")
    check(p.returncode == 2 and "failures.renewal_at" in p.stderr and doc is None,
          f"renewal card with renewal_at failure: exit {p.returncode}, {p.stderr!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        by_hand(tmp)
        same_without_downtime(tmp)
        against_independent(tmp)
        random_detection(tmp)
        immune_and_limits(tmp)
        assumed_and_refused(tmp)
    return finish("check_renewal_at")


if __name__ == "__main__":
    sys.exit(main())
