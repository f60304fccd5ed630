#!/usr/bin/env python3
"""trainmc against the public goodput simulator
inigogonzalezgarcia/12-gpu-goodput-mtbi on its seven scenarios (issue 36,
"Done when"; tests/CMakeLists.txt: cli-peer-goodput). Usage:
check_peer_goodput.py TRAINMC SOURCE_DIR.

The peer is not run here (it is not in the repository). Its figures, per-run
means over 10,000 seeds with their standard errors, are stored in
tests/peers/goodput-mtbi.csv, whose header says how they were produced. Each
scenario is written in trainmc's keys without folding in
experiments/peer-goodput/NN-name.json: node failures and the job's own
failures as two parts with their own cause mixes (node_share, job_share),
repairs from detection, restores immune, a 28-day calendar window.

For each experiment trainmc runs B = 10 batches of R = 2,000 replicas (seeds
1 to 10, one thread: the figures do not depend on it). Estimator: the mean
of the batch means; its standard error the batch means' sd / sqrt(B). Each
quantity must lie within 4 combined standard errors, sqrt(se_peer^2 +
se_trainmc^2), of the peer's. The quantities, per run of 28 days:
interruptions (all, node-level, job-level), node replacements (spares taken
/ 8 cards), hours waiting for spares, for detection and restarting (the
split, as trainmc's window counts it: iterations ended by the window's end),
hours under way at the window's end, and the goodput (steps committed by
the window's end times the 1 s step, over 28 days).

Rows marked compare = no would be printed, not checked (none now: scenario
06's two node cohorts, which move between the job, the spares and repair,
are bad nodes placed in the fleet and known)."""
import os
import sys
import tempfile

from cli_checks import batch_means, check, finish, peer_rows, read_peer_table

BIN, SRC = sys.argv[1], sys.argv[2]
TABLE = os.path.join(SRC, "tests", "peers", "goodput-mtbi.csv")
BATCHES, REPLICAS, TOL = 10, 2000, 4.0


def quantities(doc):
    """The peer's quantities from one `trainmc run --json` of a window."""
    ev, split, w = doc["events"], doc["split_days"], doc["window"]
    return {
        "interruptions": ev["card_failures"],
        "node_interruptions": ev["node_failures"],
        "job_interruptions": ev["job_failures"],
        "node_replacements": ev["spares_taken"] / 8,
        "spare_wait_h": split["spare_wait"] * 24,
        "detect_h": split["failure_detection"] * 24,
        "restart_h": split["restores"] * 24,
        "under_way_h": w["under_way_days"] * 24,
        "goodput": w["goodput"]["mean"],
    }


def trainmc(experiment, tmp):
    """Mean and batch-mean standard error of each quantity."""
    return batch_means(BIN, tmp, experiment, BATCHES, REPLICAS, quantities)


def main():
    rows = read_peer_table(TABLE)
    check(len({r["scenario"] for r in rows}) == 7, f"{TABLE}: not seven scenarios")
    with tempfile.TemporaryDirectory() as tmp:
        peer_rows(rows, SRC, "scenario", lambda exp: trainmc(exp, tmp), TOL, 5, "closest form")
    return finish("peer-goodput")


if __name__ == "__main__":
    sys.exit(main())
