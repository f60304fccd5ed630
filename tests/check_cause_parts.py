#!/usr/bin/env python3
"""A cause mix per part: failures.causes[i].card_share, node_share and
job_share (issue 36 part 2; tests/CMakeLists.txt: cli-cause-parts). Usage:
check_cause_parts.py TRAINMC.

The experiment: 16 cards on 2 nodes of 8, Poisson failures of the three
parts (cards one every 5,100 s, nodes and the job one every 20,400 s each),
restores immune (a failure due in a restore is dropped, so every failure
that counts has exactly its cause's restore), no detection delay, unlimited
spares. Causes: "gpu" 70 % and "gpu-slow" 30 % of card failures (restores
100 and 200 s), "psu" all node failures (300 s), "hang" all the job's (50
s, no spare); "gpu" and "hang" also give share 0, which their own part's
share overrides.

1. Per replica, exactly (by hand): restores = 100 a + 200 b + 300 n + 50 j,
   with n and j the node and job failures and a + b the card part's
   (card_failures - n - j): so restores - 300 n - 50 j - 100 (a + b) is 100
   b with 0 <= b <= a + b; and the cards taken = (a + b) + 8 n (the hang
   takes none). One mix for every part (the old reading) breaks both.
2. The share of "gpu-slow" in the card part: b summed over 20,000 replicas
   over the card part's failures, against 0.3 within 4 standard errors
   (binomial: sqrt(p (1 - p) / n)).
3. The closed form (docs/model.md 3.13): Young's overhead c / tau + (tau / 2
   + r) / M gives back r, the restore mean, which must be the parts' rates
   weighing their causes' restores, computed here: (l_c (0.7 x 100 + 0.3 x
   200) + l_n 300 + l_j 50) / (l_c + l_n + l_j), to 1e-9 relative.
4. The old reading is the new one: causes with `share` alone, and the same
   causes with card_share, node_share and job_share all equal to it, give
   the same numbers."""
import json
import math
import os
import sys
import tempfile

from cli_checks import check, finish, run_json, samples as cli_samples

BIN = sys.argv[1]
WALL_S = 20400.0
CARD_S, NODE_S, JOB_S = WALL_S / 4, WALL_S, WALL_S  # mean gaps of each part, s
X = {
    "name": "cause-parts",
    "source": "hand-derived (tests/check_cause_parts.py)",
    "job": {"steps": 2000, "cards": 16, "flop_per_step": 1.6e17, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "exponential",
                 "per_card_mtbf_days": CARD_S * 16 / 86400,
                 "per_node_mtbf_days": NODE_S * 2 / 86400,
                 "per_job_mtbf_days": JOB_S / 86400, "cards_per_node": 8,
                 "causes": [{"name": "gpu", "share": 0, "card_share": 0.7, "restore_s": 100},
                            {"name": "gpu-slow", "card_share": 0.3, "restore_s": 200},
                            {"name": "psu", "node_share": 1, "restore_s": 300},
                            {"name": "hang", "share": 0, "job_share": 1, "restore_s": 50,
                             "takes_spare": False}]},
    "checkpoint": {"interval_steps": 50, "save_s": 10, "restore_s": 120,
                   "restore_immune": True},
    "deadline": {"days": 1},
    "monte_carlo": {"replicas": 20000, "seed": 5},
}


def samples(tmp, x):
    return cli_samples(BIN, tmp, x)


def per_replica(rows):
    bad = slow = card_part = 0
    for r in rows:
        n, j = r["node_failures"], r["job_failures"]
        c = r["card_failures"] - n - j
        rem = r["restores_days"] * 86400 - 300 * n - 50 * j - 100 * c
        b = rem / 100
        ok = abs(b - round(b)) < 1e-6 and -1e-6 <= b <= c + 1e-6
        ok = ok and r["spares_taken"] == c + 8 * n
        bad += not ok
        slow += round(b)
        card_part += c
    check(bad == 0, f"per replica: {bad} of {len(rows)} replicas break the restores or cards "
                    f"taken of their parts' causes")
    p = slow / card_part
    se = math.sqrt(0.3 * 0.7 / card_part)
    check(abs(p - 0.3) < 4 * se, f"gpu-slow's share of card failures {p:.4f}, given 0.3 "
                                 f"(se {se:.4f})")
    print(f"card part: {card_part:.0f} failures, gpu-slow {p:.4f} (se {se:.4f})")


def closed_form(doc):
    cf = doc["closed_form"]
    tau, m = cf["interval_s"], cf["mtbf_s"]
    r = (cf["overhead_young"] - 10 / tau) * m - tau / 2
    lc, ln, lj = 1 / CARD_S, 1 / NODE_S, 1 / JOB_S
    want = (lc * (0.7 * 100 + 0.3 * 200) + ln * 300 + lj * 50) / (lc + ln + lj)
    check(abs(r / want - 1) < 1e-9, f"closed form: restore mean {r} s, by hand {want} s")


def old_reading(tmp):
    x = json.loads(json.dumps(X))
    x["failures"]["causes"] = [{"name": "gpu", "share": 0.6, "restore_s": 100},
                               {"name": "hang", "share": 0.4, "restore_s": 50,
                                "takes_spare": False}]
    x["monte_carlo"]["replicas"] = 2000
    p, one = run_json(BIN, tmp, x)
    for c in x["failures"]["causes"]:
        s = c.pop("share")
        c.update({"card_share": s, "node_share": s, "job_share": s})
    p, parts = run_json(BIN, tmp, x)
    same = one and parts and all(one[k] == parts[k] for k in
                                 ("completion_days", "events", "split_days"))
    check(same, "share alone and the same share given per part differ")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        doc, rows = samples(tmp, X)
        if doc:
            per_replica(rows)
            closed_form(doc)
        old_reading(tmp)
    return finish("check_cause_parts")


if __name__ == "__main__":
    sys.exit(main())
