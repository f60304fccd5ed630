#!/usr/bin/env python3
"""trainmc against the public AI-cluster reliability simulator AIReSim
(karthikp-ubc/airesim) where their rules line up (issue 36, "Done when";
tests/CMakeLists.txt: cli-peer-airesim). Usage:
check_peer_airesim.py TRAINMC SOURCE_DIR.

The peer is not run here (it is not in the repository, and needs SimPy 4).
Its figures, per-run means over its seeds with their standard errors, are
stored in tests/peers/airesim.csv, whose header says how they were produced.
Each case is a cell of AIReSim's Table 1 sweep (examples/paper_table1_sweep.py's
BASE with a few overrides) written in trainmc's keys in
experiments/airesim/NN-name.json: servers as nodes of one card that fail
only while the job computes, no lost work (1-s steps, each committed at no
cost), AIReSim's 20-minute recovery, its working pool beyond the job as the
spare pool of whole nodes, its host selection as the spare's provisioning,
its two-stage repairs, and its bad servers as a fleet that repairs never
cure (docs/verification.md, "Against AIReSim").

For each experiment trainmc runs B = 10 batches of R = 100 replicas (seeds
1 to 10, one thread: the figures do not depend on it). Estimator: the mean
of the batch means; its standard error the batch means' sd / sqrt(B). Each
quantity must lie within 4 combined standard errors, sqrt(se_peer^2 +
se_trainmc^2), of the peer's. The quantities, per run:
  failures            the job's server failures (trainmc: node failures);
  systematic_failures those of a bad server's extra rate (bad_node_faults);
  training_time_h     AIReSim's total training time in hours; trainmc's
                      completion time less its lost work (AIReSim keeps all
                      compute done before a failure);
  compute_recovery_h  AIReSim's compute plus recovery time in hours (its
                      host selections and preemptions left out), against the
                      same trainmc figure, when trainmc has no pool;
  retired             servers retired by AIReSim's ThresholdRemoval (trainmc:
                      nodes_retired).
Rows marked compare = no are printed, not checked: AIReSim's Table 1 cells
whose rules trainmc lacks (a repair that cures a bad server)."""
import os
import sys
import tempfile

from cli_checks import batch_means, check, finish, peer_rows, read_peer_table

BIN, SRC = sys.argv[1], sys.argv[2]
TABLE = os.path.join(SRC, "tests", "peers", "airesim.csv")
BATCHES, REPLICAS, TOL = 10, 100, 4.0


def quantities(doc):
    """The peer's quantities from one `trainmc run --json`."""
    ev, split = doc["events"], doc["split_days"]
    hours = (split["wall"] - split["lost_work"]) * 24
    return {
        "failures": ev["node_failures"],
        "systematic_failures": ev["bad_node_faults"],
        "training_time_h": hours,
        "compute_recovery_h": hours - split["spare_wait"] * 24,
        "retired": ev["nodes_retired"],
    }


def trainmc(experiment, tmp):
    """Mean and batch-mean standard error of each quantity."""
    return batch_means(BIN, tmp, experiment, BATCHES, REPLICAS, quantities)


def main():
    rows = read_peer_table(TABLE)
    checked = [r for r in rows if r["compare"] == "yes"]
    check(len({r["experiment"] for r in checked}) >= 3, f"{TABLE}: fewer than 3 cases checked")
    for r in rows:
        if not r["experiment"]:
            print(f"{r['cell']:16s} {r['quantity']:20s} peer {float(r['peer_mean']):11.3f} "
                  f"+- {float(r['peer_se']):.3f}  (not lined up: {r['note']})")
    with tempfile.TemporaryDirectory() as tmp:
        peer_rows([r for r in rows if r["experiment"]], SRC, "cell",
                  lambda exp: trainmc(exp, tmp), TOL, 3)
    return finish("peer-airesim")


if __name__ == "__main__":
    sys.exit(main())
