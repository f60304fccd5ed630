#!/usr/bin/env python3
"""check_block_identity.py - blocks of whole segments against one segment at a time, replica by replica.

usage: check_block_identity.py TRAINMC ROOT [--replicas N] [--seed S] [--min-compared M]

Segments mode draws a run of whole segments that nothing can interrupt as
one block (docs/reference/simulation-semantics.md 2). With no jitter a
block's sum is exact arithmetic and draws nothing, and every interruption
comes from its own stream, so a run with blocks must be the same run,
replica by replica, as one drawn a segment at a time: steps mode, where a
segment without jitter is n x mu in one addition. This is an exact check,
not a statistical one: for every ROOT/experiments/*.json that both modes
accept, `trainmc run EXP -n N --seed S --samples F` in mode "steps" and in
mode "segments"; where the steps run has no straggler wait in any replica
(no jitter), every column of every replica must agree to 1e-9 relative
(1e-9 absolute near 0). Experiments with jitter are listed and skipped
(segments-equality compares them in law). Fails when any compared
experiment differs, or fewer than M (default 20) were compared.
"""
import argparse
import csv
import glob
import os
import subprocess
import sys
import tempfile


def run(trainmc, exp, mode, n, seed, out):
    cmd = [trainmc, "run", exp, "-n", str(n), "--seed", str(seed), "--threads", "2",
           "--set", 'monte_carlo.mode="%s"' % mode, "--samples", out, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 2:
        return None  # refused in this mode (elastic groups, a window): exit 2
    if p.returncode != 0:
        sys.exit("check_block_identity: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                              p.stderr.strip()))
    with open(out, newline="") as f:
        return list(csv.DictReader(f))


def differ(a, b):
    x, y = float(a), float(b)
    return abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trainmc")
    ap.add_argument("root")
    ap.add_argument("--replicas", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--min-compared", type=int, default=20)
    a = ap.parse_args()
    compared, bad = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for exp in sorted(glob.glob(os.path.join(a.root, "experiments", "*.json"))):
            name = os.path.basename(exp)[:-5]
            steps = run(a.trainmc, exp, "steps", a.replicas, a.seed, os.path.join(tmp, "a.csv"))
            blocks = run(a.trainmc, exp, "segments", a.replicas, a.seed,
                         os.path.join(tmp, "b.csv"))
            if steps is None or blocks is None:
                print("%-32s skipped: refused in a mode" % name)
                continue
            if any(float(r["straggler_wait_days"]) != 0 for r in steps):
                print("%-32s skipped: jitter (compared in law by segment-equality)" % name)
                continue
            compared += 1
            diffs = [(i, k, r[k], blocks[i][k]) for i, r in enumerate(steps)
                     for k in r if differ(r[k], blocks[i][k])]
            if len(steps) != len(blocks) or diffs:
                bad += 1
                print("%-32s DIFFERS in %d value(s), first: replica %s %s steps %s blocks %s"
                      % (name, len(diffs), *(diffs[0] if diffs else ("?", "rows", "", ""))))
            else:
                print("%-32s identical (%d replicas)" % (name, len(steps)))
    print("%d compared, %d differ" % (compared, bad))
    if compared < a.min_compared:
        print("too few experiments compared: %d < %d" % (compared, a.min_compared))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
