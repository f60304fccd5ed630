#!/usr/bin/env python3
"""Two levels of snapshots, checkpoint.persistent_every (issue 34 part 1;
tests/CMakeLists.txt: cli-levels). Usage: check_levels.py TRAINMC.

1. A hand replay, nothing random: 20 steps of 10 s on one card (one node:
   no partner), a snapshot every 5 steps, every 2nd persistent (steps 10
   and 20): local saves 1 s, persistent 4 s, local restores 3 s, persistent
   30 s. Without interruptions: 50 + 1 + 50 + 4 + 50 + 1 + 50 + 4 = 210 s.
   - a hang (takes no spare: in place, local) at 130 s, in the third
     segment's compute (started 105 s): 25 s lost, restore 3 s, then the
     last two segments: 133 + 51 + 54 = 238 s.
   - an outage (no downtime) at 130 s: the newest snapshot is persistent
     (step 10); 25 s lost, restore 30 s: 160 + 51 + 54 = 265 s.
   - an outage at 180 s, in the fourth segment (started 156 s): back to
     step 10; lost 24 s and the third segment's committed 51 s; restore
     30 s: 210 + 51 + 54 = 315 s, one persistent restore.
   - a GPU failure (takes a spare) at 180 s: one node, so no partner holds
     its copy: as the outage, 315 s.
   - a hang at 180 s: back to step 15, lost 24 s, restore 3 s: 183 + 54 =
     237 s.
   - a hang at 180 s and an outage at 181 s, in the local restore: the
     restore (1 s so far) needs the persistent snapshot now: 30 s from
     181 s, back to step 10 (lost 75 s): 211 + 51 + 54 = 316 s, restores
     31 s.
   - 22 steps: the last save (steps 21 and 22) is persistent: 210 + 20 +
     4 = 234 s, saves 14 s.
   - a hang at 180 s whose local restore a time limit (requeue at once)
     cuts at 181.5 s: the new allocation restores from storage, 30 s, back
     to step 10: 211.5 + 51 + 54 = 316.5 s, restores 31.5 s.
   - an outage at 180 s with 10 s of notice: compute stops a save (4 s)
     before it, at 176 s, two steps of the fourth segment done; the
     emergency save is persistent and commits them, so the outage loses
     nothing: restore 30 s from 180 s, then steps 18 to 20 and their save:
     210 + 34 = 244 s, saves 1 + 4 + 1 + 4 + 4 = 14 s.
   With asynchronous saves (copies: local 1 s, persistent 4 s; writes of
   20 s, one after another): 50 + 1 + 50 + 4 + 50 + 1 + 50 + 4 = 210 s,
   then the last write: 230 s, saves 10 + 20 s.
   - an outage at 120 s, in the third segment (started 105 s) while step
     10 is written (105 to 125 s): nothing is on storage; back to step 0,
     lost 15 + 51 + 54 s, restore 30 s: 150 + 230 = 380 s.
   - an outage at 130 s, after that write: back to step 10, lost 25 s:
     160 + 51 + 54 + 20 = 285 s.
   - a hang at 212 s, while the last step is written (210 to 230 s):
     restored locally at step 20 (lost 2 s, restore 3 s), its write
     abandoned; the last step is copied and written again: 215 + 4 + 20 =
     239 s, saves 34 s.
   - a hang at 120 s: back to step 10 locally (lost 15 s, 3 s), the write
     of step 10 abandoned: 123 + 51 + 54 + 20 = 248 s.
   - that hang and an outage at 200 s: nothing was written, so back to
     step 0: lost 15 + 26 + 51 + 54 + 51 s, restores 33 s: 230 + 230 =
     460 s.
2. An independent simulation in this file of the two-level model (4
   nodes on a ring, each node's snapshot copied to the next; Poisson
   failures of three causes, a GPU fault that takes its node, a hang in
   place, a storage fault that needs a persistent snapshot; Poisson
   outages; every interruption strikes compute, saves and restores): the
   mean completion time and the mean count of persistent restores of
   20,000 replicas each, trainmc against it, within 4 combined standard
   errors (estimator: the sample mean; its standard error sd / sqrt(n)).
   Again with asynchronous saves, writes of 40 s (run_async here).
3. The closed form (docs/model.md 3.23): W(tau, m) computed here from its
   formula at the experiment's interval matches closed_form.two_level
   to 1e-9; the best pair found here by a golden-section search in tau
   for every m matches best_interval_s (1e-6 relative) and
   best_persistent_every; with rare failures (tau / M about 0.05) the
   first-order T lies within 0.5 % of the simulated mean. With one node (no
   partner) the GPU cause's failures count in l2; with m = 10^6 (past the
   run's snapshots, rare failures) and in a forecast from day 0.05 the form
   stays within
   10 % of the simulated mean (it grew without bound, and left the elapsed
   days out, before). With asynchronous writes w: W + w l2 (one level:
   w (l1 + l2)) and the last write, to 1e-9, its best m, and within 0.5 %
   of the simulated mean with rare failures.
4. persistent_every 1 draws the same numbers as an experiment without
   the key, and sweep varies it (--vary checkpoint.persistent_every=...):
   with local saves and restores as dear as persistent ones, rarer
   persistent snapshots only lengthen the run.
5. cheapest takes it as a lever: at a 0.125-day deadline two levels (m =
   3) meet P >= 0.8 on fewer card-hours than one level, and are chosen.
6. rescue moves the interval toward the two-level form's tau*(m), 6 steps
   here (Daly's would be 11), and brings the persistent restore down to the
   local one, not below (the loader would refuse it).
7. sensitivity varies the local save and restore too and keeps the
   persistent ones no lower than them (so no input is refused).
8. A sweep over interval_steps from an experiment giving interval_s keeps
   the rest of the checkpoint section (async writes, two levels): the
   numbers of `run` at that interval.
9. The report: the verdict's closed form and the plot's marker are the
   two-level one, and with no
   cause of level "persistent" the default is listed as optimistic (not
   stated)."""
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
HAND = {
    "name": "levels-hand",
    "source": "hand-derived (tests/check_levels.py)",
    "job": {"steps": 20, "cards": 1, "flop_per_step": 1e16, "peak_flops": 1e15,
            "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "checkpoint": {"interval_steps": 5, "save_s": 4, "restore_s": 30,
                   "persistent_every": 2, "local_save_s": 1, "local_restore_s": 3},
    "deadline": {"days": 1},
    "monte_carlo": {"replicas": 1, "seed": 1},
}


def run(tmp, experiment, *args):
    return run_json(BIN, tmp, experiment, *args)


def write_trace(tmp, name, seconds):
    with open(os.path.join(tmp, name), "w") as f:
        f.write("time_days\n" + "".join(f"{s / 86400!r}\n" for s in seconds))


def hand_case(tmp, label, failures, cause, outages, want, **extra):
    x = json.loads(json.dumps(HAND))
    for key, value in extra.items():
        section, name = key.split("__")
        x.setdefault(section, {})[name] = value
    if failures:
        write_trace(tmp, "failures.csv", failures)
        x["failures"] = {"distribution": "trace", "trace": "failures.csv",
                         "cards_per_node": 1, "causes": [cause]}
    if outages:
        write_trace(tmp, "outages.csv", outages)
        x.setdefault("outages", {}).update({"trace": "outages.csv", "downtime_s": 0})
    p, doc = run(tmp, x)
    if doc is None:
        check(False, f"hand {label}: exit {p.returncode}, {p.stderr!r}")
        return
    split = {k: v * 86400 for k, v in doc["split_days"].items()}
    got = (split["wall"], split["lost_work"], split["restores"], split["saves"],
           doc["events"]["persistent_restores"])
    check(all(abs(g - w) < 1e-6 for g, w in zip(got, want)),
          f"hand {label}: (wall, lost, restores, saves, persistent restores) {got}, "
          f"by hand {want}")


def hand_replay(tmp):
    hang = {"name": "hang", "share": 1, "takes_spare": False}
    gpu = {"name": "gpu", "share": 1}
    hand_case(tmp, "none", [], None, [], (210, 0, 0, 10, 0))
    hand_case(tmp, "hang 130", [130], hang, [], (238, 25, 3, 10, 0))
    hand_case(tmp, "outage 130", [], None, [130], (265, 25, 30, 10, 1))
    hand_case(tmp, "outage 180", [], None, [180], (315, 75, 30, 10, 1))
    hand_case(tmp, "gpu 180", [180], gpu, [], (315, 75, 30, 10, 1))
    hand_case(tmp, "hang 180", [180], hang, [], (237, 24, 3, 10, 0))
    hand_case(tmp, "hang 180, outage 181", [180], hang, [181], (316, 75, 31, 10, 1))
    hand_case(tmp, "22 steps", [], None, [], (234, 0, 0, 14, 0), job__steps=22)
    hand_case(tmp, "hang 180, requeue 181.5", [180], hang, [], (316.5, 75, 31.5, 10, 1),
              time_limit__wall_hours=181.5 / 3600, time_limit__at_limit="lose",
              time_limit__requeue_s=0)
    hand_case(tmp, "outage 180 with notice", [], None, [180], (244, 0, 30, 14, 1),
              outages__notice_s=10)
    write = {"checkpoint__mode": "async", "checkpoint__write_s": 20}
    hand_case(tmp, "async none", [], None, [], (230, 0, 0, 30, 0), **write)
    hand_case(tmp, "async outage 120", [], None, [120], (380, 120, 30, 30, 1), **write)
    hand_case(tmp, "async outage 130", [], None, [130], (285, 25, 30, 30, 1), **write)
    hand_case(tmp, "async hang 212", [212], hang, [], (239, 2, 3, 34, 0), **write)
    hand_case(tmp, "async hang 120", [120], hang, [], (248, 15, 3, 30, 0), **write)
    hand_case(tmp, "async hang 120, outage 200", [120], hang, [200], (460, 197, 33, 30, 1),
              **write)


# The random case: 4 cards of one node each, 10 s steps, a snapshot every
# 10 steps, every 3rd persistent; failures every 300 s on average (the
# job's), outages every 5,000 s.
STEP_S, K, M, STEPS, NODES = 10.0, 10, 3, 600, 4
C1, C2, R1, R2 = 2.0, 20.0, 5.0, 60.0
FAIL_S, OUTAGE_S = 300.0, 5000.0
CAUSES = [("gpu", 0.5), ("hang", 0.3), ("storage", 0.2)]
RANDOM = {
    "name": "levels-random",
    "source": "hand-derived (tests/check_levels.py)",
    "job": {"steps": STEPS, "cards": NODES, "flop_per_step": STEP_S * 1e15 * NODES,
            "peak_flops": 1e15, "efficiency": 1, "exposed_comm_s": 0},
    "jitter": {"distribution": "normal", "cv": 0},
    "failures": {"distribution": "exponential",
                 "per_card_mtbf_days": FAIL_S * NODES / 86400, "cards_per_node": 1,
                 "causes": [{"name": "gpu", "share": 0.5},
                            {"name": "hang", "share": 0.3, "takes_spare": False},
                            {"name": "storage", "share": 0.2, "level": "persistent"}]},
    "outages": {"mean_interval_days": OUTAGE_S / 86400, "downtime_s": 0},
    "checkpoint": {"interval_steps": K, "save_s": C2, "restore_s": R2,
                   "persistent_every": M, "local_save_s": C1, "local_restore_s": R1},
    "deadline": {"days": 1},
    "monte_carlo": {"replicas": 20000, "seed": 3},
}


def segment(done, k):
    """The segment after step `done` at k steps a segment: its last step,
    whether its snapshot is persistent, and its work and save, s."""
    end = min(done + k, STEPS)
    persistent = end % (M * k) == 0 or end == STEPS
    return end, persistent, (end - done) * STEP_S + (C2 if persistent else C1)


class Replica:
    """One run of the two-level model, written apart from trainmc's engine:
    an event loop over segments with the next failure and outage as
    absolute times (exponential gaps, memoryless)."""

    def __init__(self, rng):
        self.rng = rng
        self.t = 0.0
        self.next_f = rng.expovariate(1 / FAIL_S)
        self.next_o = rng.expovariate(1 / OUTAGE_S)
        self.lost_local = False  # the newest snapshot is gone until the next commit
        self.failed_nodes = set()
        self.persistent_restores = 0

    def strike(self):
        """The earliest arrival strikes at self.t: mark what it loses."""
        if self.next_o <= self.next_f:
            self.next_o = self.t + self.rng.expovariate(1 / OUTAGE_S)
            self.lost_local = True
        else:
            self.next_f = self.t + self.rng.expovariate(1 / FAIL_S)
            u, cause = self.rng.random(), None
            for name, share in CAUSES:
                if u < share:
                    cause = name
                    break
                u -= share
            cause = cause or CAUSES[-1][0]
            if cause == "storage":
                self.lost_local = True
            elif cause == "gpu":
                node = self.rng.randrange(NODES)
                if {(node + 1) % NODES, (node - 1) % NODES} & self.failed_nodes:
                    self.lost_local = True
                self.failed_nodes.add(node)
        self.persistent_restores += self.lost_local

    def recover(self):
        self.strike()
        while True:
            d = R2 if self.lost_local else R1
            nxt = min(self.next_f, self.next_o)
            if self.t + d <= nxt:
                self.t += d
                return
            self.t = nxt
            self.strike()

    def committed(self):
        """A snapshot committed: every node holds it and its partner's copy."""
        self.lost_local = False
        self.failed_nodes.clear()

    def run(self, k=K):
        done = done_p = 0
        while done < STEPS:
            end, persistent, length = segment(done, k)
            nxt = min(self.next_f, self.next_o)
            if self.t + length <= nxt:
                self.t += length
                done = end
                self.committed()
                if persistent:
                    done_p = done
                continue
            self.t = nxt
            self.recover()
            if self.lost_local:
                done = done_p
        return self.t

    def run_async(self, write):
        """Asynchronous saves: every copy (C1, or C2 for a persistent
        snapshot) is a local snapshot at once; a persistent one is then
        written in `write` seconds, one write after another, and only a
        written one survives a persistent restore; a strike abandons the
        writes under way; the run ends when the last step is written."""
        done = written = 0
        writes = []  # (step, when written), oldest first
        while True:
            while writes and writes[0][1] <= self.t:
                written = writes.pop(0)[0]
            if written == STEPS:
                return self.t
            nxt = min(self.next_f, self.next_o)
            if done == STEPS and writes:  # wait for the last write
                if writes[-1][1] <= nxt:
                    self.t = writes[-1][1]
                    continue
            else:  # a segment (none left but its copy after a local restore)
                end, persistent, length = segment(done, K)
                if self.t + length <= nxt:
                    self.t += length
                    done = end
                    self.committed()
                    if persistent:
                        start = max([self.t] + [w for _, w in writes[-1:]])
                        writes.append((end, start + write))
                    continue
            self.t = nxt
            while writes and writes[0][1] <= self.t:
                written = writes.pop(0)[0]
            writes.clear()
            self.recover()
            if self.lost_local:
                done = written


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def independent_simulation(tmp, write=None):
    x = json.loads(json.dumps(RANDOM))
    label = "random case"
    if write is not None:
        x["checkpoint"].update({"mode": "async", "write_s": write})
        label = f"random case, async writes of {write:g} s"
    p, doc = run(tmp, x, "--samples", os.path.join(tmp, "samples.csv"))
    if doc is None:
        check(False, f"{label}: exit {p.returncode}, {p.stderr!r}")
        return
    rng = random.Random(20261205)
    walls, restores = [], []
    for _ in range(RANDOM["monte_carlo"]["replicas"]):
        r = Replica(rng)
        walls.append(r.run() if write is None else r.run_async(write))
        restores.append(r.persistent_restores)
    sim_t, sim_se = mean_se(walls)
    t = doc["completion_days"]["mean"] * 86400
    t_se = doc["completion_days"]["se"] * 86400
    z = (t - sim_t) / math.hypot(t_se, sim_se)
    check(abs(z) < 4, f"{label}: mean T {t:.1f} +- {t_se:.1f} s, independent "
                      f"{sim_t:.1f} +- {sim_se:.1f} s (z {z:.2f})")
    with open(os.path.join(tmp, "samples.csv")) as f:
        header = f.readline().strip().split(",")
        col = header.index("persistent_restores")
        counts = [float(line.split(",")[col]) for line in f]
    c, c_se = mean_se(counts)
    s, s_se = mean_se(restores)
    z = (c - s) / math.hypot(c_se, s_se)
    check(abs(z) < 4 and s > 1, f"{label}: persistent restores {c:.3f} +- {c_se:.3f}, "
                                f"independent {s:.3f} +- {s_se:.3f} (z {z:.2f})")
    print(f"{label}: T {t:.1f} +- {t_se:.1f} s against {sim_t:.1f} +- {sim_se:.1f}; "
          f"persistent restores {c:.3f} against {s:.3f}")


def waste(tau, m, f):
    """W(tau, m) of docs/model.md 3.23, written here from the formula."""
    r1 = f["r1"] if m > 1 else f["r2"]
    return (((m - 1) * f["c1"] + f["c2"]) / (m * tau) + f["l1"] * (tau / 2 + r1)
            + f["l2"] * (m * tau / 2 + f["r2"]))


def golden_min(fn, lo, hi):
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(200):
        c, d = b - g * (b - a), a + g * (b - a)
        if fn(c) < fn(d):
            b = d
        else:
            a = c
    return (a + b) / 2


def rare_failures(tmp, base, label):
    """With rare failures (tau / M about 0.05) the first-order T lies within
    0.5 % of the simulated mean."""
    x = json.loads(json.dumps(base))
    x["job"]["steps"] = 6000
    x["failures"]["per_card_mtbf_days"] = 20000 * NODES / 86400
    x["outages"]["mean_interval_days"] = 100000 / 86400
    p, doc = run(tmp, x, "-n", "20000")
    t = doc["completion_days"]["mean"]
    cf_t = doc["closed_form"]["two_level"]["completion_days"]
    check(abs(cf_t / t - 1) < 0.005, f"{label}: first-order T {cf_t:.6f} days, "
                                     f"simulated {t:.6f}")
    print(f"{label}: first-order T {cf_t:.6f} days against {t:.6f} simulated")


def closed_form(tmp):
    p, doc = run(tmp, RANDOM, "-n", "200")
    tl = doc["closed_form"]["two_level"]
    f = {"c1": C1, "c2": C2, "r1": R1, "r2": R2,
         "l1": 0.8 / FAIL_S, "l2": 0.2 / FAIL_S + 1 / OUTAGE_S}
    check(abs(tl["local_rate_per_day"] - f["l1"] * 86400) < 1e-9 and
          abs(tl["persistent_rate_per_day"] - f["l2"] * 86400) < 1e-9,
          f"closed form: rates {tl['local_rate_per_day']}, {tl['persistent_rate_per_day']} "
          f"per day, by hand {f['l1'] * 86400}, {f['l2'] * 86400}")
    w = waste(K * STEP_S, M, f)
    check(abs(tl["overhead"] - w) < 1e-9, f"closed form: W {tl['overhead']}, here {w}")
    best = min((waste(golden_min(lambda t: waste(t, m, f), 1, 1e6), m, f), m)
               for m in range(1, 1001))
    tau = golden_min(lambda t: waste(t, best[1], f), 1, 1e6)
    check(best[1] == tl["best_persistent_every"] and
          abs(tl["best_interval_s"] / tau - 1) < 1e-6,
          f"closed form: best pair ({tl['best_interval_s']} s, m {tl['best_persistent_every']})"
          f", here ({tau} s, m {best[1]})")
    # one node: no partner, so a failure that takes hardware (the GPU cause,
    # not the hang) needs the persistent snapshot
    p, doc = run(tmp, RANDOM, "-n", "200", "--set", "failures.cards_per_node=4")
    l2 = (0.2 + 0.5) / FAIL_S + 1 / OUTAGE_S
    got = doc["closed_form"]["two_level"]["persistent_rate_per_day"]
    check(abs(got - l2 * 86400) < 1e-9, f"one node: l2 {got} per day, by hand {l2 * 86400}")
    # m past the run's snapshots is the run's own count; a forecast adds the
    # days already gone
    rare = json.loads(json.dumps(RANDOM))
    rare["failures"]["per_card_mtbf_days"] = 20000 * NODES / 86400
    rare["outages"]["mean_interval_days"] = 100000 / 86400
    for x, extra, label in ((rare, ["--set", "checkpoint.persistent_every=1000000"], "m 1e6"),
                            (RANDOM, ["--set", 'progress={"elapsed_days": 0.05, "steps_done": '
                                      '300, "committed_step": 300}'], "forecast")):
        p, doc = run(tmp, x, "-n", "2000", *extra)
        t, cf_t = doc["completion_days"]["mean"], doc["closed_form"]["two_level"]["completion_days"]
        check(abs(cf_t / t - 1) < 0.1, f"{label}: first-order T {cf_t:.4f} days, simulated "
                                       f"{t:.4f}")
    rare_failures(tmp, RANDOM, "rare failures")
    # asynchronous writes of 40 s: a restore from storage also loses the
    # newest write (every one with one level), and the run ends with the
    # last write
    write = 40.0
    x = json.loads(json.dumps(RANDOM))
    x["checkpoint"].update({"mode": "async", "write_s": write})
    p, doc = run(tmp, x, "-n", "200")
    tl = doc["closed_form"]["two_level"]

    def waste_async(tau, m):
        return waste(tau, m, f) + write * (f["l2"] if m > 1 else f["l1"] + f["l2"])

    w = waste_async(K * STEP_S, M) + write / (STEPS * STEP_S)
    check(abs(tl["overhead"] - w) < 1e-9, f"async closed form: W {tl['overhead']}, here {w}")
    best = min((waste_async(golden_min(lambda t: waste_async(t, m), 1, 1e6), m), m)
               for m in range(1, 1001))
    check(best[1] == tl["best_persistent_every"],
          f"async closed form: best m {tl['best_persistent_every']}, here {best[1]}")
    rare_failures(tmp, x, "async, rare failures")


def sweep_keeps_the_section(tmp):
    """A sweep of checkpoint.interval_steps over an experiment that gives
    interval_s removes that key only: its asynchronous writes and two levels
    stay (the whole section was replaced by a save and a restore before)."""
    x = json.loads(json.dumps(RANDOM))
    x["checkpoint"].pop("interval_steps")
    x["checkpoint"].update({"interval_s": K * STEP_S, "mode": "async", "write_s": 40})
    x["monte_carlo"]["replicas"] = 2000
    path, out = os.path.join(tmp, "seconds.json"), os.path.join(tmp, "sweep.json")
    with open(path, "w") as f:
        json.dump(x, f)
    p = subprocess.run([BIN, "sweep", path, "--vary", "checkpoint.interval_steps=8",
                        "--quiet", "--json", out], capture_output=True, text=True)
    x["checkpoint"].pop("interval_s")
    x["checkpoint"]["interval_steps"] = 8
    q, doc = run(tmp, x)
    if p.returncode != 0 or doc is None:
        check(False, f"sweep over interval_steps: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as f:
        swept = json.load(f)["settings"][0]["completion_days"]["mean"]
    got = doc["completion_days"]["mean"]
    check(swept == got, f"sweep over interval_steps from interval_s: mean T {swept} days, "
                        f"run at 8 steps {got}")


def one_level_and_sweep(tmp):
    x = json.loads(json.dumps(RANDOM))
    for k in ("persistent_every", "local_save_s", "local_restore_s"):
        del x["checkpoint"][k]
    del x["failures"]["causes"][2]["level"]
    del x["failures"]["cards_per_node"]
    p, plain = run(tmp, x, "-n", "2000")
    x["checkpoint"]["persistent_every"] = 1
    p, one = run(tmp, x, "-n", "2000")
    check(plain["completion_days"] == one["completion_days"],
          "persistent_every 1 draws other numbers than no key")
    path = os.path.join(tmp, "x.json")
    with open(path, "w") as fh:
        json.dump(RANDOM, fh)
    out = os.path.join(tmp, "sweep.json")
    p = subprocess.run([BIN, "sweep", path, "--vary", "checkpoint.persistent_every=1,3,6",
                        "--set", "checkpoint.local_save_s=20",
                        "--set", "checkpoint.local_restore_s=60", "-n", "2000",
                        "--quiet", "--json", out], capture_output=True, text=True)
    check(p.returncode == 0 and os.path.exists(out), f"sweep: exit {p.returncode}, "
                                                      f"{p.stderr!r}")
    if p.returncode == 0:
        with open(out) as fh:
            rows = json.load(fh)["settings"]
        means = [r["completion_days"]["mean"] for r in rows]
        # local saves and restores as dear as persistent ones: rarer persistent
        # snapshots only lose more work
        check(means[0] < means[1] < means[2], f"sweep: means {means} not increasing")


def cheapest_lever(tmp):
    """cheapest with persistent_every as a lever: at a deadline of 0.125
    days the two-level plan meets P >= 0.8 on fewer card-hours than one
    level (both run, each its own cheapest plan)."""
    x = json.loads(json.dumps(RANDOM))
    x["deadline"] = {"days": 0.125}
    path, out = os.path.join(tmp, "x.json"), os.path.join(tmp, "cheapest.json")
    with open(path, "w") as fh:
        json.dump(x, fh)
    p = subprocess.run([BIN, "cheapest", path, "--lever", "checkpoint.persistent_every=1,3",
                        "--lever", "job.cards=4:8", "--target", "0.8", "-n", "1000",
                        "--quiet", "--json", out], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        check(False, f"cheapest: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as fh:
        doc = json.load(fh)
    costs = {c["label"]: c["cheapest"]["cost"]["mean"] for c in doc["combinations"]
             if c["cheapest"]}
    check(doc["chosen"]["plan"].endswith("checkpoint.persistent_every=3") and
          costs.get("checkpoint.persistent_every=3", 1e300) <
          costs.get("checkpoint.persistent_every=1", 0),
          f"cheapest: chose {doc['chosen']['plan']!r}, costs {costs}")


def rescue_interval(tmp):
    """rescue's interval lever moves toward the two-level form's tau*(m) for
    the experiment's m, here sqrt(2 ((m - 1) c1 + c2) / (m (l1 + m l2)))
    = 55 s = 6 steps (Daly's would be 11): from 40 steps, bracket [6, 40]."""
    x = json.loads(json.dumps(RANDOM))
    x["checkpoint"]["interval_steps"] = 40
    x["deadline"] = {"days": 0.11}
    path, out = os.path.join(tmp, "x.json"), os.path.join(tmp, "rescue.json")
    with open(path, "w") as fh:
        json.dump(x, fh)
    p = subprocess.run([BIN, "rescue", path, "--levers", "checkpoint.interval_steps", "-n",
                        "200", "--quiet", "--json", out], capture_output=True, text=True)
    if not os.path.exists(out):
        check(False, f"rescue: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as fh:
        lever = json.load(fh)["levers"][0]
    l1, l2 = 0.8 / FAIL_S, 0.2 / FAIL_S + 1 / OUTAGE_S
    k = round(math.sqrt(2 * ((M - 1) * C1 + C2) / (M * (l1 + M * l2))) / STEP_S)
    check(lever["bracket"][:2] == [k, 40], f"rescue: bracket {lever['bracket']}, by hand "
                                           f"[{k}, 40]")
    # the restore lever stops at the local restore (a persistent one below it
    # is refused by the loader), so none of its runs is refused
    p = subprocess.run([BIN, "rescue", path, "--levers", "checkpoint.restore_s", "-n", "200",
                        "--quiet", "--json", out], capture_output=True, text=True)
    with open(out) as fh:
        lever = json.load(fh)["levers"][0]
    check(lever["bracket"][:2] == [R1, R2] and lever["outcome"] != "refused",
          f"rescue restore_s: bracket {lever['bracket']}, outcome {lever['outcome']}")


def sensitivity_inputs(tmp):
    """sensitivity varies the local costs too, and keeps the persistent ones
    no lower than them: with local costs at 0.75 of the persistent ones every
    input runs (none refused as 'not varied' by the loader's rule)."""
    x = json.loads(json.dumps(RANDOM))
    x["checkpoint"].update(local_save_s=0.75 * C2, local_restore_s=0.75 * R2)
    path, out = os.path.join(tmp, "x.json"), os.path.join(tmp, "sens.json")
    with open(path, "w") as fh:
        json.dump(x, fh)
    p = subprocess.run([BIN, "sensitivity", path, "-n", "200", "--quiet", "--json", out],
                       capture_output=True, text=True)
    if not os.path.exists(out):
        check(False, f"sensitivity: exit {p.returncode}, {p.stderr!r}")
        return
    with open(out) as fh:
        doc = json.load(fh)
    inputs = {i["name"]: i for i in doc["inputs"]}
    want = ("checkpoint.save_s", "checkpoint.restore_s", "checkpoint.local_save_s",
            "checkpoint.local_restore_s")
    skipped = {k: inputs[k]["skipped"] for k in want if k in inputs}
    check(len(skipped) == 4 and not any(skipped.values()) and
          inputs["checkpoint.restore_s"]["low"] == 0.75 * R2,
          f"sensitivity: inputs {skipped}, restore_s low "
          f"{inputs.get('checkpoint.restore_s', {}).get('low')} (want {0.75 * R2})")


def report_lines(tmp):
    """What the report says beside two levels: the two-level form is the
    verdict's closed form and the plot's marker (at its T); the default
    level of the causes is listed as optimistic until one cause says
    "persistent"."""
    x = json.loads(json.dumps(RANDOM))
    svg = os.path.join(tmp, "run.svg")
    p, doc = run(tmp, x, "-n", "200", "--plot", svg)
    with open(svg) as fh:
        drawn = fh.read()
    t = doc["closed_form"]["two_level"]["completion_days"]
    at = re.search(r"closed form \(two-level\) ([0-9.]+) days", drawn)
    check(at is not None and abs(float(at.group(1)) / t - 1) < 1e-3,
          f"plot: no two-level marker at {t:.5g} days")
    keys = [a["key"] for a in doc["assumed"]]
    check(doc["closed_form_verdict"]["closed_form"] == "Two-level" and
          "failures.causes[i].level" not in keys,
          f"report: verdict {doc['closed_form_verdict']}, assumed {keys}")
    del x["failures"]["causes"][2]["level"]
    p, doc = run(tmp, x, "-n", "200")
    item = [a for a in doc["assumed"] if a["key"] == "failures.causes[i].level"]
    check(len(item) == 1 and not item[0]["stated"],
          f"report: no cause of level persistent, assumed {doc['assumed']}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        hand_replay(tmp)
        independent_simulation(tmp)
        independent_simulation(tmp, write=40.0)
        closed_form(tmp)
        one_level_and_sweep(tmp)
        sweep_keeps_the_section(tmp)
        cheapest_lever(tmp)
        report_lines(tmp)
        rescue_interval(tmp)
        sensitivity_inputs(tmp)
    return finish("check_levels")


if __name__ == "__main__":
    sys.exit(main())
