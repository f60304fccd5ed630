#!/usr/bin/env python3
"""Bad nodes that move (failures.bad_node_placement "fleet", issue 36 part
3; tests/CMakeLists.txt: cli-bad-fleet). Usage: check_bad_fleet.py TRAINMC.

1. An independent simulation of the fleet, written here, in twelve cases
   (CASES: a small pool; pools as large as the job and twice as large,
   whose bad nodes fail twice and ten times a day, so that the job's rate
   moves with each swap and which node it takes matters; the last with
   repairs that cure a bad node with probability 0.6 and a wrong node sent
   to repair with probability 0.3; bursts of K = 3 nodes; two of aging;
   four of retirement, one_run_named: a small pool that runs short, one
   with cures, misdiagnoses and fast aging together, a fleet of good
   nodes hit by bursts, bad nodes made by aging in a large pool; a pool handed out first in, first out). A job of n nodes and a pool of P whole nodes, each node bad
   with probability b (known bad nodes: the job takes good ones first;
   unknown: at random); over a calendar window of W days the job fails at
   rate n / M_node + (bad nodes held) / M_bad + n / M_burst + 1 / M_job
   while it is up; a job failure takes nothing; a node failure strikes a
   bad node with probability (bad held / M_bad + bad held / (n M_node)) /
   (node part's rate), and with probability m (misdiagnosis) another of
   the job's n - 1 nodes, uniformly, goes to repair in its place; a burst
   K nodes drawn without replacement from the job's; each node goes to a repair of exponential time of mean R from
   the failure, which a bad node leaves good with probability c (the
   cure share) (no detection delay, no restore), and the job takes as many
   nodes from the pool (a known fleet's good ones first, else drawn at
   random; fifo: the front of a queue the repaired nodes join in the order
   their repairs end, shuffled at the start), or when the pool is empty the earliest repairs in progress
   (its own included); it is down (no failure) until the last is ready,
   and a wait that ends past W is not counted (trainmc's split stops at
   the last boundary at or before W, the rest being "under way at window
   end": docs/reference/simulation-semantics.md). Per run: node failures,
   job failures, bad nodes sent to repair, bad nodes held at the start,
   the days spent waiting for spares (a fleet short of the job: to W),
   the bursts, the bad nodes cured, the misdiagnoses, the nodes retired
   and whether the fleet fell short. trainmc's means over
   10 seeds of 500 replicas (estimator: the mean of the 10 batch means;
   standard error: their standard deviation / sqrt 10) against the
   simulation's over 4,000 runs (standard error: sd / sqrt 4000); each
   within 4 standard errors of the difference, for the known and the
   unknown fleet.
2. By hand: with every node bad (b = 1) the job always holds n bad nodes
   and every node failure sends a bad one to repair, every burst its K:
   bad nodes sent to repair = node failures + K bursts, exactly, in every
   batch (without bursts and with bursts of K = 3). A one-node job beside
   a one-node pool, first in, first out, retired at the second failure,
   whose repairs end before the job takes its spare (instant; 0.1 h
   against an hour's detection): 4 node failures, 2 retired and the fleet
   short in every run (fifo_instant).
3. The closed form (trainmc run --json closed_form.mtbf_s): 1 / (n /
   M_node + h / M_bad + 1 / M_job) with h the bad nodes held at the start,
   n b (unknown) or E[max(0, B - P)], B ~ Binomial(n + P, b) (known),
   summed here, to 1e-9 relative; and the share of failures that find the
   pool empty (closed_form.spare_wait_p) is Erlang's loss formula B(P, l R)
   with l = n / M_node + h / M_bad, the bad nodes' faults taking spares
   too (no detection delay: docs/model.md 3.21), to 1e-4 (trainmc averages
   the chain's start from a full pool over the run, here 1e9 steps long, a
   difference of 2e-5 from the stationary law).
   With retirement at the first failure (k = 1) every node that fails
   leaves the fleet: nodes retired = node failures + K bursts, exactly. A
   reserve fetched one node after another: reserve_by_hand. The report of
   a fleet that runs short: fleet_short_report.
4. Refusals: a pool that is not whole nodes, unlimited spares, the job
   placement's retirement with the fleet, the fleet's retirement with the
   job placement, and a retirement window without its count, each naming
   its key; no output file."""
import csv
import json
import math
import os
import random
import re
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
         dict(N=4, P=8, B=0.5, M_NODE=10.0, M_BAD=0.1, M_JOB=1000.0, R_H=240.0),
         dict(N=4, P=8, B=0.5, M_NODE=10.0, M_BAD=0.1, M_JOB=1000.0, R_H=240.0, CURE=0.6,
              MISDIAG=0.3),
         dict(N=16, P=4, B=0.25, M_NODE=40.0, M_BAD=5.0, M_JOB=10.0, R_H=48.0,
              M_BURST=100.0, K_BURST=3),
         dict(N=8, P=4, B=0.1, M_NODE=20.0, M_BAD=2.0, M_JOB=10.0, R_H=72.0, AGING=40.0),
         dict(N=8, P=2, B=0.1, M_NODE=20.0, M_BAD=0.5, M_JOB=10.0, R_H=120.0, AGING=10.0),
         # retirement at RETIRE = (k, w days; None: the whole run): bad nodes
         # that fail daily retire often and the fleet runs short; beside cures,
         # misdiagnoses and aging; a fleet of good nodes hit by bursts
         dict(N=8, P=2, B=0.25, M_NODE=20.0, M_BAD=1.0, M_JOB=10.0, R_H=24.0, RETIRE=(2, 7.0)),
         dict(N=4, P=4, B=0.5, M_NODE=10.0, M_BAD=0.5, M_JOB=1000.0, R_H=48.0, CURE=0.5,
              MISDIAG=0.3, AGING=5.0, RETIRE=(3, 10.0)),
         dict(N=16, P=4, B=0.0, M_NODE=10.0, M_BAD=1.0, M_JOB=10.0, R_H=72.0, M_BURST=100.0,
              K_BURST=3, RETIRE=(2, None)),
         # bad nodes made by aging alone, most of it in a pool twice the job,
         # whose nodes carry their failures there
         dict(N=4, P=8, B=0.0, M_NODE=20.0, M_BAD=1.0, M_JOB=10.0, R_H=24.0, AGING=20.0,
              RETIRE=(2, 5.0)),
         # the pool handed out in the order its nodes came back (not known): a
         # repaired node waits behind the idle ones, so fewer fail twice within
         # 3 days (2.8 retired a run against 4.8 when handed out at random)
         dict(N=8, P=6, B=0.25, M_NODE=20.0, M_BAD=2.0, M_JOB=10.0, R_H=12.0, AGING=40.0,
              RETIRE=(2, 3.0), FIFO=True),
         # a small pool and a reserve of 8 fetched at 2 h each, one after
         # another, when it is empty (bursts of 3 need three), with retirement
         # and aging (the reserve's nodes age while they wait)
         dict(N=8, P=2, B=0.25, M_NODE=10.0, M_BAD=1.0, M_JOB=10.0, R_H=48.0, AGING=30.0,
              RETIRE=(3, 7.0), RESERVE=(8, 2.0), M_BURST=40.0, K_BURST=3)]
N = P = B = M_NODE = M_BAD = M_JOB = R_H = None   # the case under test (use_case)
M_BURST = K_BURST = None    # bursts of K nodes, per-node MTBF in days (None: none)
CURE = 0                    # a bad node's repair cures it with this chance
MISDIAG = 0                 # a node failure sends another node to repair
AGING = 0                   # a good node turns bad after this mean, days (0: never)
RETIRE = None               # (k, w): retired at k failures within w days (None: never)
FIFO = False                # the pool hands out the node back longest (spare_order fifo)
RESERVE = None              # (R nodes, fetch hours): fetched one at a time when the pool is empty


def use_case(case):
    globals().update({"M_BURST": None, "K_BURST": None, "CURE": 0, "MISDIAG": 0, "AGING": 0,
                      "RETIRE": None, "FIFO": False, "RESERVE": None, **case})
BATCHES, PER_BATCH, RUNS = 10, 500, 4000


def experiment(known, share=None, **failures):
    share = B if share is None else share
    f = {"distribution": "exponential", "cards_per_node": G, "spares": P * G,
         "repair_mean_hours": R_H, "per_node_mtbf_days": M_NODE, "per_job_mtbf_days": M_JOB,
         "bad_node_share": share, "bad_node_mtbf_days": M_BAD,
         "bad_node_placement": "fleet", "bad_node_known": known}
    if M_BURST:
        f.update(burst_per_node_mtbf_days=M_BURST, burst_size="fixed", burst_nodes=K_BURST)
    if CURE:
        f.update(bad_node_cure_share=CURE)
    if MISDIAG:
        f.update(misdiagnosis_share=MISDIAG)
    if AGING:
        f.update(node_aging_days=AGING)
    if RETIRE:
        f.update(retire_after_failures=RETIRE[0])
        if RETIRE[1]:
            f.update(retire_window_days=RETIRE[1])
    if FIFO:
        f.update(spare_order="fifo")
    if RESERVE:
        f.update(reserve_nodes=RESERVE[0], reserve_fetch_s=RESERVE[1] * 3600)
    if share == 0 and not AGING:   # a fleet of good nodes
        del f["bad_node_mtbf_days"]
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
ALL_KEYS = KEYS + ("spare_wait_days", "bursts", "bad_node_cures", "misdiagnoses",
                   "nodes_retired", "fleet_depleted", "reserve_fetched")


def trainmc_batches(tmp, x):
    """The batch means of the KEYS and of the spare wait (days)."""
    out = []
    for seed in range(1, BATCHES + 1):
        x["monte_carlo"]["seed"] = seed
        p, doc = run_json(BIN, tmp, x)
        if doc is None:
            check(False, f"run: exit {p.returncode}, {p.stderr!r}")
            return []
        row = ([doc["events"][k] for k in KEYS] + [doc["split_days"]["spare_wait"]] +
               [doc["events"].get("bursts", 0), doc["events"]["bad_node_cures"],
                doc["events"]["misdiagnoses"], doc["events"]["nodes_retired"],
                doc["events"]["fleet_depleted"], doc["events"]["reserve_fetched"]])
        out.append(row)
    return out


def fleet_start(rng, known):
    """Bad nodes held by the job and by the pool at the start."""
    if not known:
        return (sum(rng.random() < B for _ in range(N)), sum(rng.random() < B for _ in range(P)))
    bad = sum(rng.random() < B for _ in range(N + P))
    held = max(0, bad - P)
    return held, bad - held


def take_nodes(rng, known, st, t, k):
    """The job takes k nodes at t: from the pool (repairs ended by t back
    first), then the earliest repairs in progress; the wait until the last
    is ready, days. st: [held, pool, pool_bad, repairs]."""
    for r in [r for r in st[3] if r[0] <= t]:   # back in the pool
        st[3].remove(r)
        st[1], st[2] = st[1] + 1, st[2] + r[1]
    ready = t
    for _ in range(k):
        if st[1] > 0:
            good = st[1] - st[2]
            take_bad = good == 0 if known else rng.random() < st[2] / st[1]
            st[1], st[2], st[0] = st[1] - 1, st[2] - take_bad, st[0] + take_bad
        else:
            first = min(st[3], key=lambda r: r[0])
            st[3].remove(first)
            ready, st[0] = max(ready, first[0]), st[0] + first[1]
    return ready - t


def one_run(rng, known):
    held, pool_bad = fleet_start(rng, known)
    st = [held, P, pool_bad, []]   # held, pool, pool's bad, repairs: [end day, bad]
    node_f = job_f = bad_rep = bursts = cures = misdiagnoses = 0
    wait = t = 0.0
    burst_rate = N / M_BURST if M_BURST else 0
    while True:
        node_rate = N / M_NODE + st[0] / M_BAD
        total = node_rate + burst_rate + 1 / M_JOB
        t += rng.expovariate(total)
        if t >= W:
            break
        u = rng.random() * total
        if u >= node_rate + burst_rate:
            job_f += 1
            continue
        if u < node_rate:
            node_f += 1
            k, bad = 1, int(u < st[0] / M_BAD or rng.random() < st[0] / N)
            if MISDIAG and rng.random() < MISDIAG:   # another node goes, the faulty stays
                misdiagnoses += 1
                bad = int(rng.randrange(N - 1) < st[0] - bad)
        else:   # a burst's K nodes, drawn from the job's
            bursts += 1
            k = min(K_BURST, N)
            bad = sum(i < st[0] for i in rng.sample(range(N), k))
        st[0] -= bad
        bad_rep += bad
        for i in range(k):   # a bad node's repair may cure it
            kind = int(i < bad and not (CURE and rng.random() < CURE))
            cures += i < bad and not kind
            st[3].append([t + rng.expovariate(1 / (R_H / 24)), kind])
        w = take_nodes(rng, known, st, t, k)
        wait += w if t + w <= W else 0
        t += w
    return [node_f, job_f, bad_rep, held, wait, bursts, cures, misdiagnoses, 0, 0, 0]  # held: at start


def one_run_named(rng, known):
    """Every feature at once with named nodes (the aging, retirement and
    reserve cases): each node is
    [bad, when it turns bad (aging; INF for a bad one or without aging),
    its failure times, its name]. The node that failed records the time (the faulty
    one, even when misdiagnosis sends another; a burst's K each); a node
    whose repair ends with RETIRE[0] failures of its own in the RETIRE[1]
    days before leaves the fleet (known when the repair starts: a node in
    repair does not fail); a bad node not retired is cured with probability
    CURE, as if at the repair's start, its aging clock drawn afresh from
    there; when the job needs a node and the pool and the repairs hold none,
    the fleet is short: the job waits past W and the run ends."""
    held, pool_bad = fleet_start(rng, known)
    clock = lambda at: at + rng.expovariate(1 / AGING) if AGING else math.inf
    names = iter(range(N + P))   # so that list.remove finds the node, not its equal
    fresh = lambda bad: [bad, math.inf if bad else clock(0.0), [], next(names)]
    job = [fresh(i < held) for i in range(N)]
    pool = [fresh(i < pool_bad) for i in range(P)]
    rng.shuffle(pool)   # in no order of kind (fifo hands out the front)
    names = iter(range(N + P, N + P + (RESERVE[0] if RESERVE else 0)))
    reserve = [fresh(rng.random() < B) for _ in range(RESERVE[0])] if RESERVE else []
    repairs = []   # [end day, node]
    is_bad = lambda node, at: node[0] or node[1] <= at
    k_ret, w_ret = RETIRE if RETIRE else (math.inf, None)
    w_ret = math.inf if w_ret is None else w_ret
    c = dict(node=0, job=0, bad_rep=0, bursts=0, cures=0, mis=0, retired=0, short=0, fetched=0)
    wait = t = 0.0
    burst_rate = N / M_BURST if M_BURST else 0
    while True:
        bad_now = sum(is_bad(x, t) for x in job)
        node_rate = N / M_NODE + bad_now / M_BAD
        total = node_rate + burst_rate + 1 / M_JOB
        t_fail = t + rng.expovariate(total)
        t_age = min((x[1] for x in job if not is_bad(x, t)), default=math.inf)
        if t_age < t_fail:   # a job node turns bad first: the rate moves
            t = t_age
            if t >= W:
                break
            continue
        t = t_fail
        if t >= W:
            break
        u = rng.random() * total
        if u >= node_rate + burst_rate:
            c["job"] += 1
            continue
        if u < node_rate:
            c["node"] += 1
            bads = [x for x in job if is_bad(x, t)]
            if u < bad_now / M_BAD or rng.random() < bad_now / N:
                faulty = rng.choice(bads)
            else:
                faulty = rng.choice([x for x in job if not is_bad(x, t)])
            faulty[2].append(t)
            leaving = [faulty]
            if MISDIAG and rng.random() < MISDIAG:   # another goes, the faulty stays
                c["mis"] += 1
                leaving = [rng.choice([x for x in job if x is not faulty])]
        else:
            c["bursts"] += 1
            leaving = rng.sample(job, min(K_BURST, N))
            for x in leaving:
                x[2].append(t)
        for x in leaving:
            job.remove(x)
            bad = is_bad(x, t)
            c["bad_rep"] += bad
            end = t + rng.expovariate(1 / (R_H / 24))
            if sum(f >= end - w_ret for f in x[2]) >= k_ret:
                c["retired"] += 1
                continue
            if bad and CURE and rng.random() < CURE:
                x[0], x[1] = False, clock(t)
                c["cures"] += 1
            repairs.append([end, x])
        for r in sorted([r for r in repairs if r[0] <= t], key=lambda r: r[0]):   # in order
            repairs.remove(r)
            pool.append(r[1])
        ready = fetch = t
        for _ in leaving:
            if not pool and reserve:   # fetched one after another, at random
                take = reserve.pop(rng.randrange(len(reserve)))
                c["fetched"] += 1
                fetch += RESERVE[1] / 24
                ready = max(ready, fetch)
            elif pool:
                good = [x for x in pool if not is_bad(x, t)]
                take = pool[0] if FIFO else rng.choice(good if known and good else pool)
                pool.remove(take)
            elif repairs:
                first = min(repairs, key=lambda r: r[0])
                repairs.remove(first)
                ready, take = max(ready, first[0]), first[1]
            else:   # the fleet is short of the job: it waits past W
                c["short"], ready = 1, math.inf
                break
            job.append(take)
        wait += ready - t if ready <= W else W - t if c["short"] else 0
        t = ready
        if t >= W:
            break
    return [c["node"], c["job"], c["bad_rep"], held, wait, c["bursts"], c["cures"], c["mis"],
            c["retired"], c["short"], c["fetched"]]


def mean_se(rows):
    n = len(rows)
    cols = list(zip(*rows))
    means = [sum(c) / n for c in cols]
    ses = [math.sqrt(sum((v - m) ** 2 for v in c) / (n - 1) / n) for c, m in zip(cols, means)]
    return means, ses


def compare(tmp, known):
    rng = random.Random(36 + known + 2 * N)
    run = one_run_named if RETIRE or RESERVE or AGING else one_run
    sim, sim_se = mean_se([run(rng, known) for _ in range(RUNS)])
    got, got_se = mean_se(trainmc_batches(tmp, experiment(known)))
    for name, a, sa, e, se in zip(ALL_KEYS, got, got_se, sim, sim_se):
        if sa == se == 0 and a == e:   # no bursts on either side
            continue
        z = (a - e) / math.hypot(sa, se)
        print(f"1: N {N}, known {known}: {name}: trainmc {a:.4f} +- {sa:.4f}, "
              f"simulation {e:.4f} +- {se:.4f} ({z:+.2f} se)")
        check(abs(z) < 4, f"1: N {N}, known {known}: {name} {a} +- {sa} against {e} +- {se}")


def all_bad(tmp):
    k = min(K_BURST, N) if M_BURST else 0
    for row in trainmc_batches(tmp, experiment(False, share=1)):
        check(abs(row[0] + k * row[5] - row[2]) < 1e-9 and row[3] == N,
              f"2: every node bad: node failures {row[0]}, bursts {row[5]} of {k}, "
              f"sent to repair {row[2]}, held {row[3]}")


def retire_first(tmp):
    """k = 1: every node that fails retires, so nodes retired = node
    failures + K bursts, exactly, in every batch; and none is ever back."""
    k = min(K_BURST, N) if M_BURST else 0
    for row in trainmc_batches(tmp, experiment(False, retire_after_failures=1)):
        check(abs(row[0] + k * row[5] - row[8]) < 1e-9,
              f"2: retired at the first failure: node failures {row[0]}, bursts {row[5]} of "
              f"{k}, retired {row[8]}")


def fifo_instant(tmp):
    """By hand: a job of one node A beside a pool of one, S, first in, first
    out, retired at the second failure; repairs end before the job takes
    its spare (instant, or 0.1 h against a detection of an hour), so the
    repaired node joins a full pool. A fails and queues behind S, the job
    takes S; S fails, the job takes A; A fails again and retires, the job
    takes S; S fails again and retires: the fleet is short. In every run 4
    node failures, 2 retired, short (a pool queue with room for the pool
    alone lost S at the first failure: 3 failures a run)."""
    for extra in ({"repair_mean_hours": 0},
                  {"repair_mean_hours": 0.1, "repair_distribution": "fixed",
                   "causes": [{"name": "node", "share": 1, "detection_s": 3600}]}):
        for row in trainmc_batches(tmp, experiment(False, **extra)):
            check(row[0] == 4 and row[8] == 2 and row[9] == 1,
                  f"2: fifo, repairs ending before the take ({extra}): node failures "
                  f"{row[0]}, retired {row[8]}, short {row[9]}; want 4, 2, 1")


def reserve_by_hand(tmp):
    """A job of 4 nodes, no pool, a reserve of 3 fetched at 1 h each, and
    failures that are bursts of 3 alone, a day apart on average, repaired
    in a fixed 36 s: the first burst fetches the 3 one after another, a
    wait of exactly 3 h; every later one finds the repaired nodes in the
    pool, but one within 36 s of the burst before, which waits for the rest
    of those repairs (about 0.2 s a run). So every run (28 days: none
    without a burst but with probability e^-28) fetches 3 nodes and waits
    0.125 days, within 1e-4 (9 s); fetched side by side it would be 1 h."""
    x = experiment(False, share=0)
    f = x["failures"]
    for key in ("per_node_mtbf_days", "bad_node_mtbf_days"):
        f.pop(key, None)
    f.update(spares=0, per_job_mtbf_days=1e9, reserve_nodes=3, reserve_fetch_s=3600,
             repair_distribution="fixed", repair_mean_hours=0.01,
             burst_per_node_mtbf_days=4.0, burst_size="fixed", burst_nodes=3)
    x["job"]["cards"] = 4 * G
    p, doc = run_json(BIN, tmp, x)
    if doc is None:
        check(False, f"2: reserve by hand: exit {p.returncode}, {p.stderr!r}")
        return
    wait, fetched = doc["split_days"]["spare_wait"], doc["events"]["reserve_fetched"]
    check(abs(wait - 0.125) < 1e-4 and fetched == 3,
          f"2: reserve by hand: waited {wait} days (want 0.125), fetched {fetched} (want 3)")


def fleet_short_report(tmp):
    """The text report of a job (not a window) whose fleet runs short in
    some runs: T's mean over the runs that finished, as the report prints
    it, against the mean of --samples' uncensored rows, computed here; the
    'Fleet short' line's count against the censored rows."""
    x = experiment(False)
    del x["window"]
    x["job"]["steps"] = 86400   # 10 days of work
    path = os.path.join(tmp, "t.csv")
    p, doc = run_json(BIN, tmp, x, "--samples", path)
    if doc is None:
        check(False, f"2: fleet short report: exit {p.returncode}, {p.stderr!r}")
        return
    with open(path) as f:
        rows = list(csv.DictReader(f))
    done = [float(r["completion_days"]) for r in rows if r["censored"] == "0"]
    short = len(rows) - len(done)
    m = re.search(r"mean ([0-9.]+) over the ([0-9]+) runs that finished \(([0-9]+) never did\)",
                  p.stdout)
    want = f"Fleet short: in {short} of {len(rows)} runs"
    ok = (m is not None and 0 < short < len(rows) and int(m.group(3)) == short and
          abs(float(m.group(1)) - sum(done) / len(done)) < 1e-3 and want in p.stdout)
    check(ok, f"2: fleet short report: {short} of {len(rows)} censored, finished mean "
              f"{sum(done) / max(len(done), 1):.4f}; the report: {p.stdout[:600]!r}")


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
        # a fleet's bad nodes go to repair: every node failure takes a spare
        b_loss = erlang_b(P, (N / M_NODE + held / M_BAD) * R_H / 24)
        got = doc["closed_form"]["spare_wait_p"]
        check(abs(got / b_loss - 1) < 1e-4, f"3: known {known}: P(wait) {got}, want {b_loss}")


def erlang_b(units, a):
    """Erlang's loss formula by its recursion (docs/model.md 3.21)."""
    b = 1.0
    for j in range(1, units + 1):
        b = a * b / (j + a * b)
    return b


def refusals(tmp):
    cases = [({"spares": 12}, "failures.spares: 12"),
             ({"spares": -1}, "failures.spares: -1"),
             ({"bad_node_retire_after": 2}, "failures.bad_node_retire_after"),
             ({"bad_node_placement": "job", "retire_after_failures": 2},
              "failures.retire_after_failures: 2"),
             ({"retire_window_days": 7}, "failures.retire_window_days: 7")]
    for keys, what in cases:
        p, doc = run_json(BIN, tmp, experiment(False, **keys))
        check(p.returncode != 0 and doc is None and what in p.stderr,
              f"4: {keys}: exit {p.returncode}, {p.stderr!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            use_case(case)
            for known in (False,) if FIFO or RESERVE else (False, True):   # never known
                compare(tmp, known)
        for case in (CASES[0], CASES[4]):
            use_case(case)
            all_bad(tmp)
            retire_first(tmp)
        use_case(dict(N=1, P=1, B=0.0, M_NODE=1.0, M_BAD=1.0, M_JOB=1000.0, R_H=0.0,
                      RETIRE=(2, None), FIFO=True))
        fifo_instant(tmp)
        use_case(CASES[7])
        fleet_short_report(tmp)
        use_case(CASES[0])
        reserve_by_hand(tmp)
        closed_form(tmp)
        refusals(tmp)
    return finish("check_bad_fleet")


if __name__ == "__main__":
    sys.exit(main())
