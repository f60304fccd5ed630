#!/usr/bin/env python3
"""Bursts: failures that take k nodes at once (failures.burst_*; issue 36
part 1; tests/CMakeLists.txt: cli-bursts). Usage: check_bursts.py TRAINMC.

1. By hand, per replica: bursts of exactly 3 nodes of 8 cards, no spare
   pool, repairs of exactly R = 1,800 s, no other failure: each burst waits
   R (its own nodes' repairs, which all end R after it), so a replica's
   spare wait is R times its bursts, to 1e-6 s, and its nodes taken 3 per
   burst.
2. The size law and the parts, over 20,000 replicas: the mean size of a
   table's bursts against the table's mean (sum k w_k / sum w_k), and the
   share of failures that are bursts against burst rate / (burst + node
   rate), each within 4 standard errors (the replicas' ratio estimator with
   its delta-method standard error).
3. An independent simulation of the pool (here, in Python): failures at
   rate l per second the job is up (node failures, one node; bursts,
   geometric sizes of mean 3.5), each node to a repair of exponential time
   of mean R; the job takes whole nodes from a pool of U, else the earliest
   repairs in progress (its own included), and is down (no failure) while
   it waits. Each of the engine's replicas is replayed over the same time
   up (its completion time, no reserve, less its spare wait), from a full
   pool. The mean wait
   per failure of the engine (ratio estimator) and of the simulation agree
   within 4 standard errors of their difference.
4. The closed form (trainmc plan --json, spares.wait_p): the share of
   failures that wait, from the batch chain (closed_form_bursts.c), equals
   the stationary law of the same chain solved here from its generator
   matrix (Gaussian elimination, another method than the level crossings)
   to 1e-9, and
   lies within 4 standard errors of the simulation's share of failures
   that wait (its replicas' ratio estimator; the simulation starts from a
   full pool: a start-up bias of about 3 R over 30 days); the closed form's
   M (trainmc run --json, closed_form.mtbf_s) is 1 / (node rate + burst
   rate), to 1e-9.
5. `trainmc fit --bursts` on a log written here (10 nodes, 60 days; three
   groups of faults on 2, 3 (a chain 50 s apart: 100 s in all) and 2
   nodes within the default 60 s, one pair 61 s
   apart, which is no group, and 5 more single faults; every repair 0.5
   days): 3 bursts of sizes [0, 2, 1], 7 grouped faults, 7 single ones; the
   file --write writes: burst_per_node_mtbf_days = node-days up / 3 and
   per_card_mtbf_days = card-days up / 7 (up: 10 x 60 less 14 repairs of
   0.5 days), burst_weights [0, 2, 1], mtbf_events 10.
6. The report: a finite pool of nodes without bursts lists "no bursts"
   (failures.burst_per_node_mtbf_days) among the optimistic defaults; with
   bursts, or with unlimited spares, it does not."""
import heapq
import json
import math
import os
import random
import subprocess
import sys
import tempfile

from cli_checks import check, finish, run_json, samples as cli_samples

BIN = sys.argv[1]
G, R_S = 8, 1800.0
BASE = {
    "name": "bursts",
    "source": "hand-derived (tests/check_bursts.py)",
    "job": {"steps": 2000, "cards": 64, "flop_per_step": 6.4e17, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "exponential", "cards_per_node": G, "spares": 0,
                 "repair_mean_hours": R_S / 3600, "repair_distribution": "fixed",
                 "burst_per_node_mtbf_days": 8 * 20000 / 86400, "burst_size": "fixed",
                 "burst_nodes": 3},
    "checkpoint": {"interval_steps": 50, "save_s": 10, "restore_s": 120},
    "deadline": {"days": 5},
    "monte_carlo": {"replicas": 2000, "seed": 5},
}


def experiment(**failures):
    """BASE with failures' keys replaced (None: left out)."""
    x = json.loads(json.dumps(BASE))
    x["failures"].update(failures)
    x["failures"] = {k: v for k, v in x["failures"].items() if v is not None}
    return x


def ratio(y, n):
    est = sum(y) / sum(n)
    se = math.sqrt(sum((a - est * b) ** 2 for a, b in zip(y, n))) / sum(n)
    return est, se


def exact(tmp):
    _, rows = cli_samples(BIN, tmp, experiment())
    worst = max((abs(r["spare_wait_days"] * 86400 - R_S * r["bursts"]) +
                 abs(r["burst_nodes"] - 3 * r["bursts"]) for r in rows), default=math.inf)
    bursts = sum(r["bursts"] for r in rows)
    check(worst < 1e-6 and bursts > 1000,
          f"1: a burst's wait is not R ({worst} s off over {bursts} bursts)")


def sizes(tmp):
    w = [0, 20, 8, 4, 2, 0, 1]
    node_mtbf = 8 * 30000 / 86400
    x = experiment(burst_size="table", burst_weights=w, per_node_mtbf_days=node_mtbf,
                   spares=-1)
    x["monte_carlo"]["replicas"] = 20000
    _, rows = cli_samples(BIN, tmp, x)
    want = sum((i + 1) * v for i, v in enumerate(w)) / sum(w)
    est, se = ratio([r["burst_nodes"] for r in rows], [r["bursts"] for r in rows])
    print(f"2: mean size {est:.4f} +- {se:.4f}, the table's {want:.4f}")
    check(abs(est - want) < 4 * se, f"2: mean size {est} +- {se}, table {want}")
    share = (1 / 20000) / (1 / 20000 + 1 / 30000)
    est, se = ratio([r["bursts"] for r in rows], [r["card_failures"] for r in rows])
    print(f"2: bursts' share {est:.4f} +- {se:.4f}, by rate {share:.4f}")
    check(abs(est - share) < 4 * se, f"2: bursts' share {est} +- {se}, by rate {share}")


# ---- 3 and 4: the pool, simulated here and solved here -------------------
U, MEAN_K, L_NODE, L_BURST, R_EXP = 3, 3.5, 1 / 7200, 1 / 7200, 3600.0
POOL = {"spares": U * G, "repair_mean_hours": R_EXP / 3600,
        "repair_distribution": "exponential", "burst_size": "geometric",
        "burst_nodes": MEAN_K, "burst_per_node_mtbf_days": 8 / L_BURST / 86400,
        "per_node_mtbf_days": 8 / L_NODE / 86400}


def pool_experiment():
    x = experiment(**POOL)
    x["job"]["steps"] = 2_000_000  # 2,000,000 s of work: 23 days
    x["job"]["flop_per_step"] = 6.4e16  # 1 s a step on 64 cards
    x["checkpoint"] = {"interval_steps": 600, "save_s": 1, "restore_s": 10}
    x["deadline"]["days"] = 60
    x["monte_carlo"]["replicas"] = 200
    return x


def size(rng):
    """Sizes 2, 3, ...: 1 + a geometric on 1, 2, ... of mean MEAN_K - 1."""
    p, k = 1 / (MEAN_K - 1), 2
    while rng.random() >= p:
        k += 1
    return min(k, 8)


def replay(up_s, rng):
    """One replica over up_s seconds up: (failures, waits, total wait, s)."""
    t, up, pool, repairs = 0.0, 0.0, U, []
    n = waited = 0
    wait_sum = 0.0
    rate = L_NODE + L_BURST
    while True:
        gap = rng.expovariate(rate)
        if up + gap > up_s:
            return n, waited, wait_sum
        up += gap
        t += gap
        k = size(rng) if rng.random() < L_BURST / rate else 1
        for _ in range(k):
            heapq.heappush(repairs, t + rng.expovariate(1 / R_EXP))
        while repairs and repairs[0] <= t:  # back to the pool
            heapq.heappop(repairs)
            pool += 1
        take = min(pool, k)
        pool -= take
        ready = t
        for _ in range(k - take):  # the earliest repairs, its own included
            ready = max(ready, heapq.heappop(repairs))
        n += 1
        waited += ready > t
        wait_sum += ready - t
        t = ready  # down meanwhile: no failure strikes


def stationary(Q):
    """pi Q = 0, sum pi = 1: the transposed system with its last equation
    replaced by the sum, by Gaussian elimination with partial pivoting."""
    n = len(Q)
    a = [[Q[j][i] for j in range(n)] + [0.0] for i in range(n)]
    a[-1] = [1.0] * n + [1.0]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def chain_wait_p():
    """P(wait) of the batch chain from its generator (numpy), sizes capped
    at the job's 8 nodes as the engine caps them."""
    p = 1 / (MEAN_K - 1)
    q = {k: p * (1 - p) ** (k - 2) for k in range(2, 8)}
    q[8] = 1 - sum(q.values())
    jumps = {1: L_NODE}
    for k, v in q.items():
        jumps[k] = jumps.get(k, 0) + L_BURST * v
    top = U + 8
    Q = [[0.0] * (top + 1) for _ in range(top + 1)]
    for m in range(top + 1):
        if m <= U:
            for k, lam in jumps.items():
                Q[m][m + k] += lam
        if m > 0:
            Q[m][m - 1] += m / R_EXP
        Q[m][m] = -sum(Q[m])
    pi = stationary(Q)
    lam = L_NODE + L_BURST
    wait = sum(pi[m] * sum(v for k, v in jumps.items() if m + k > U) for m in range(U + 1))
    return wait / (lam * sum(pi[: U + 1]))


def pool(tmp):
    x = pool_experiment()
    _, rows = cli_samples(BIN, tmp, x)
    est, se = ratio([r["spare_wait_days"] * 86400 for r in rows],
                    [r["card_failures"] for r in rows])
    rng = random.Random(36)
    sims = [replay((r["completion_days"] - r["spare_wait_days"]) * 86400, rng) for r in rows]
    s_est, s_se = ratio([s[2] for s in sims], [s[0] for s in sims])
    z = (est - s_est) / math.hypot(se, s_se)
    print(f"3: wait per failure: engine {est:.1f} +- {se:.1f} s, simulated here "
          f"{s_est:.1f} +- {s_se:.1f} s (z {z:.2f})")
    check(abs(z) < 4, f"3: engine {est} +- {se}, simulation {s_est} +- {s_se}")
    path = os.path.join(tmp, "plan.json")
    with open(os.path.join(tmp, "x.json"), "w") as f:
        json.dump(x, f)
    subprocess.run([BIN, "plan", os.path.join(tmp, "x.json"), "--json", path],
                   capture_output=True, text=True)
    with open(path) as f:
        spares = json.load(f)["spares"]
    want = chain_wait_p()
    check(abs(spares["wait_p"] - want) < 1e-9 * want,
          f"4: closed form P(wait) {spares['wait_p']}, the generator's {want}")
    _, doc = run_json(BIN, tmp, x, "-n", "10")
    m = doc["closed_form"]["mtbf_s"]
    check(abs(m * (L_NODE + L_BURST) - 1) < 1e-9, f"4: M {m} s, by hand {1 / (L_NODE + L_BURST)}")
    p_est, p_se = ratio([s[1] for s in sims], [s[0] for s in sims])
    z = (spares["wait_p"] - p_est) / p_se
    print(f"4: P(wait) closed form {spares['wait_p']:.4f} (generator {want:.4f}), "
          f"simulated {p_est:.4f} +- {p_se:.4f} (z {z:.2f})")
    check(abs(z) < 4, f"4: P(wait) {spares['wait_p']} against {p_est} +- {p_se}")


def fit(tmp):
    faults = [(0, 5.0), (1, 5.0 + 30 / 86400),                   # a burst of 2
              (2, 20.0), (3, 20.0 + 50 / 86400), (4, 20.0 + 100 / 86400),  # 3: a chain
              (5, 33.0), (6, 33.0 + 61 / 86400),                   # 61 s: no group
              (7, 40.0), (8, 40.0),                                # a burst of 2
              (0, 10.0), (1, 12.0), (2, 45.0), (9, 50.0), (3, 55.0)]
    log = os.path.join(tmp, "faults.csv")
    with open(log, "w") as f:
        f.write("node,start,end,cause\n")
        for node, start in faults:
            f.write(f"n{node},{start!r},{start + 0.5!r},x\n")
    out = os.path.join(tmp, "bursts.json")
    p = subprocess.run([BIN, "fit", log, "--nodes", "10", "--cards-per-node", "8",
                        "--span-days", "60", "--bursts", "--write", out, "--json",
                        os.path.join(tmp, "fit.json")], capture_output=True, text=True)
    check(p.returncode == 0, f"5: fit exit {p.returncode}: {p.stderr}")
    if p.returncode:
        return
    with open(out) as f:
        d = json.load(f)
    with open(os.path.join(tmp, "fit.json")) as f:
        b = json.load(f)["dispersion"]["bursts"]
    up = 10 * 60 - len(faults) * 0.5
    check((b["groups"], b["grouped_faults"], b["single_faults"], b["sizes"]) ==
          (3, 7, 7, [0, 2, 1]), f"5: bursts found {b}")
    check(abs(d["burst_per_node_mtbf_days"] - up / 3) < 1e-9 * up and
          abs(d["per_card_mtbf_days"] - 8 * up / 7) < 1e-9 * up and
          d["burst_weights"] == [0, 2, 1] and d["mtbf_events"] == 10 and
          d["burst_size"] == "table" and d["cards_per_node"] == 8,
          f"5: written {d}, up {up} node-days")


def listed(doc):
    return any(a.get("key") == "failures.burst_per_node_mtbf_days"
               for a in doc.get("assumed", []))


def report(tmp):
    node = {"per_node_mtbf_days": 50, "burst_per_node_mtbf_days": None}
    _, d = run_json(BIN, tmp, experiment(**node, spares=16), "-n", "10")
    check(d and listed(d), f"6: no bursts not listed: {d and d.get('assumed')}")
    _, d = run_json(BIN, tmp, experiment(per_node_mtbf_days=50, spares=16), "-n", "10")
    check(d and not listed(d), "6: listed with bursts")
    _, d = run_json(BIN, tmp, experiment(**node, spares=-1), "-n", "10")
    check(d and not listed(d), "6: listed with unlimited spares")


with tempfile.TemporaryDirectory() as tmp:
    report(tmp)
    fit(tmp)
    exact(tmp)
    sizes(tmp)
    pool(tmp)
sys.exit(finish("check_bursts"))
