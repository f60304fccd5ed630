#!/usr/bin/env python3
"""Bad nodes that move (failures.bad_node_placement "fleet", issue 36 part
3; tests/CMakeLists.txt: cli-bad-fleet). Usage: check_bad_fleet.py TRAINMC.

1. An independent simulation of the fleet, written here, in three cases
   (CASES: a small pool; pools as large as the job and twice as large,
   whose bad nodes fail twice and ten times a day, so that the job's rate
   moves with each swap and which node it takes matters): a job of n
   nodes and a pool of P whole nodes, each node bad with probability b
   (known bad nodes: the job takes good ones first; unknown: at random);
   over a calendar window of W days the job fails at rate n / M_node +
   (bad nodes held) / M_bad + 1 / M_job while it is up; a job failure
   takes nothing; a node failure strikes a bad node with probability
   (bad held / M_bad + bad held / (n M_node)) / (node part's rate), sends
   its node to a repair of exponential time of mean R from the failure
   (no detection delay, no restore), and the job takes a node from the
   pool (a known fleet's good ones first, else drawn at random), or when
   the pool is empty waits for the earliest repair in progress (its own
   included) and takes that node; it is down (no failure) while it
   waits, and a wait that ends past W is not counted (trainmc's split
   stops at the last boundary at or before W, the rest being "under way
   at window end": docs/reference/simulation-semantics.md). Per run: node failures, job
   failures, bad nodes sent to repair, bad nodes held at the start and
   the days spent waiting for spares. trainmc's means over 8 seeds of 500
   replicas (estimator: the mean of the 8 batch means; standard error:
   their standard deviation / sqrt 8) against the simulation's over 4,000
   runs (standard error: sd / sqrt 4000); each within 4 standard errors of
   the difference, for the known and the unknown fleet.
2. By hand: with every node bad (b = 1) the job always holds n bad nodes
   and every node failure sends a bad one to repair: bad nodes sent to
   repair = node failures, exactly, in every batch.
3. The closed form (trainmc run --json closed_form.mtbf_s): 1 / (n /
   M_node + h / M_bad + 1 / M_job) with h the bad nodes held at the start,
   n b (unknown) or E[max(0, B - P)], B ~ Binomial(n + P, b) (known),
   summed here, to 1e-9 relative.
4. Refusals: a pool that is not whole nodes, unlimited spares, and
   retirement with the fleet placement, each naming its key; no output
   file."""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

from cli_checks import check, finish, run_json

BIN = sys.argv[1]
G, W = 8, 28.0               # cards a node; the window, days
# job nodes, pool nodes, the share of bad nodes, per-node, bad-node extra
# and per-job MTBF (days), the repair mean (hours): a job with a small pool;
# a small job beside a pool as large, whose bad nodes fail twice a day; and
# one beside a pool twice as large whose bad nodes fail ten times a day and
# stay ten days in repair, so that which node the job takes decides its rate
CASES = [dict(N=16, P=2, B=0.25, M_NODE=20.0, M_BAD=5.0, M_JOB=10.0, R_H=48.0),
         dict(N=4, P=4, B=0.5, M_NODE=50.0, M_BAD=0.5, M_JOB=1000.0, R_H=24.0),
         dict(N=4, P=8, B=0.5, M_NODE=10.0, M_BAD=0.1, M_JOB=1000.0, R_H=240.0)]
N = P = B = M_NODE = M_BAD = M_JOB = R_H = None   # the case under test (use_case)


def use_case(case):
    globals().update(case)
BATCHES, PER_BATCH, RUNS = 8, 500, 4000


def experiment(known, share=None, **failures):
    share = B if share is None else share
    f = {"distribution": "exponential", "cards_per_node": G, "spares": P * G,
         "repair_mean_hours": R_H, "per_node_mtbf_days": M_NODE, "per_job_mtbf_days": M_JOB,
         "bad_node_share": share, "bad_node_mtbf_days": M_BAD,
         "bad_node_placement": "fleet", "bad_node_known": known}
    f.update(failures)
    return {"name": "bad-fleet", "source": "tests/check_bad_fleet.py",
            "job": {"steps": 1000000000, "cards": N * G, "flop_per_step": 6.4e17,
                    "peak_flops": 1e15, "efficiency": 1, "exposed_comm_s": 0},
            "jitter": {"distribution": "normal", "cv": 0},
            "failures": f,
            "checkpoint": {"interval_s": 3600, "save_s": 0, "restore_s": 0},
            "outages": None, "loss_spikes": None,
            "deadline": {"days": 30}, "window": {"days": W},
            "monte_carlo": {"replicas": PER_BATCH, "seed": 1}}


KEYS = ("node_failures", "job_failures", "bad_node_repairs", "bad_nodes_at_start")


def trainmc_batches(tmp, x):
    """The batch means of the KEYS and of the spare wait (days)."""
    out = []
    for seed in range(1, BATCHES + 1):
        x["monte_carlo"]["seed"] = seed
        p, doc = run_json(BIN, tmp, x)
        if doc is None:
            check(False, f"run: exit {p.returncode}, {p.stderr!r}")
            return []
        row = [doc["events"][k] for k in KEYS] + [doc["split_days"]["spare_wait"]]
        out.append(row)
    return out


def fleet_start(rng, known):
    """Bad nodes held by the job and by the pool at the start."""
    if not known:
        return (sum(rng.random() < B for _ in range(N)), sum(rng.random() < B for _ in range(P)))
    bad = sum(rng.random() < B for _ in range(N + P))
    held = max(0, bad - P)
    return held, bad - held


def one_run(rng, known):
    held, pool_bad = fleet_start(rng, known)
    start, pool, repairs = held, P, []   # repairs: [end day, bad]
    node_f = job_f = bad_rep = 0
    wait = t = 0.0
    while True:
        node_rate = N / M_NODE + held / M_BAD
        t += rng.expovariate(node_rate + 1 / M_JOB)
        if t >= W:
            break
        u = rng.random() * (node_rate + 1 / M_JOB)
        if u >= node_rate:
            job_f += 1
            continue
        node_f += 1
        bad = u < held / M_BAD or rng.random() < held / N
        held -= bad
        bad_rep += bad
        repairs.append([t + rng.expovariate(1 / (R_H / 24)), bad])
        for r in [r for r in repairs if r[0] <= t]:   # back in the pool
            repairs.remove(r)
            pool, pool_bad = pool + 1, pool_bad + r[1]
        if pool > 0:
            good = pool - pool_bad
            take_bad = good == 0 if known else rng.random() < pool_bad / pool
            pool, pool_bad, held = pool - 1, pool_bad - take_bad, held + take_bad
        else:
            first = min(repairs, key=lambda r: r[0])
            repairs.remove(first)
            wait += first[0] - t if first[0] <= W else 0
            t, held = first[0], held + first[1]
    return [node_f, job_f, bad_rep, start, wait]


def mean_se(rows):
    n = len(rows)
    cols = list(zip(*rows))
    means = [sum(c) / n for c in cols]
    ses = [math.sqrt(sum((v - m) ** 2 for v in c) / (n - 1) / n) for c, m in zip(cols, means)]
    return means, ses


def compare(tmp, known):
    rng = random.Random(36 + known + 2 * N)
    sim, sim_se = mean_se([one_run(rng, known) for _ in range(RUNS)])
    got, got_se = mean_se(trainmc_batches(tmp, experiment(known)))
    for name, a, sa, e, se in zip(KEYS + ("spare_wait_days",), got, got_se, sim, sim_se):
        z = (a - e) / math.hypot(sa, se)
        print(f"1: N {N}, known {known}: {name}: trainmc {a:.4f} +- {sa:.4f}, "
              f"simulation {e:.4f} +- {se:.4f} ({z:+.2f} se)")
        check(abs(z) < 4, f"1: N {N}, known {known}: {name} {a} +- {sa} against {e} +- {se}")


def all_bad(tmp):
    for row in trainmc_batches(tmp, experiment(False, share=1)):
        check(row[0] == row[2] and row[3] == N,
              f"2: every node bad: node failures {row[0]}, sent to repair {row[2]}, "
              f"held {row[3]}")


def binom_pmf(k, n, p):
    return math.comb(n, k) * p ** k * (1 - p) ** (n - k)


def closed_form(tmp):
    for known in (False, True):
        _, doc = run_json(BIN, tmp, experiment(known))
        if doc is None:
            check(False, f"3: known {known}: no run")
            continue
        held = (sum((k - P) * binom_pmf(k, N + P, B) for k in range(P + 1, N + P + 1))
                if known else N * B)
        want = 86400 / (N / M_NODE + held / M_BAD + 1 / M_JOB)
        got = doc["closed_form"]["mtbf_s"]
        check(abs(got / want - 1) < 1e-9, f"3: known {known}: M {got} s, want {want} s")


def refusals(tmp):
    cases = [({"spares": 12}, "failures.spares: 12"),
             ({"spares": -1}, "failures.spares: -1"),
             ({"bad_node_retire_after": 2}, "failures.bad_node_retire_after")]
    for keys, what in cases:
        p, doc = run_json(BIN, tmp, experiment(False, **keys))
        check(p.returncode != 0 and doc is None and what in p.stderr,
              f"4: {keys}: exit {p.returncode}, {p.stderr!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            use_case(case)
            for known in (False, True):
                compare(tmp, known)
        use_case(CASES[0])
        all_bad(tmp)
        closed_form(tmp)
        refusals(tmp)
    return finish("check_bad_fleet")


if __name__ == "__main__":
    sys.exit(main())
