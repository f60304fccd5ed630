#!/usr/bin/env python3
"""`trainmc rescue`'s recovery levers and the goodput target (issue 34 part
4; tests/CMakeLists.txt: cli-rescue-recovery). Usage:
check_rescue_recovery.py TRAINMC EXPERIMENTS_DIR.

1. A case solved by hand. No jitter, one job failure replayed from a trace
   at F = 0.3 days, one cause with a fixed detection delay d, restore r:
       wall = S t + ceil(S / K) c + lost + d + r,
   lost = F - (committed segments before F) x (K t + c): the work since the
   last commit. Nothing strikes after the one failure, so wall is linear in
   d and r and each threshold is arithmetic (below), not trainmc's. The
   value found must meet the target and its neighbour miss it, both within
   the bisection's tolerance (1e-4 of the current value) of the threshold:
   checkpoint.restore_s for goodput.mean (S t / wall) and for
   deadline.probability, failures.causes[0].detection_s for
   completion_days.mean. `run --json`'s goodput is S t / wall exactly.
2. Which recovery levers apply: the default list holds the restore and the
   cause's detection, not the repair (unlimited spares), the heal (no
   elastic groups) or the provisioning (0); named, those say why not; a
   cause with its own restore leaves checkpoint.restore_s nothing to do, a
   cause that takes no spare leaves provisioning and repair nothing. A cause
   index the experiment lacks is refused (exit 2).
3. The closed form beside a recovery lever: Brent's root in rescue against
   `run --json`'s own closed form at that value (Daly's overhead gives
   goodput 1 / (1 + L) = the target to 1e-6).
4. The repair lever on a finite pool: its value found and neighbour run
   again with `trainmc run` (same replicas and seed) meet and miss.
5. `sweep --target goodput.mean>=G` on the hand case finds the same
   restore threshold.
6. A cause's key in `sensitivity --inputs`: on the hand case the swings of
   failures.causes[0].detection_s over [100, 900] are (100 - 600) s and
   (900 - 600) s exactly; cause 1 (share 0) has its own base, 5 s."""
import json
import math
import os
import subprocess
import sys
import tempfile

BIN, EXPERIMENTS = sys.argv[1], sys.argv[2]
S, K, SAVE, T = 1000, 100, 100.0, 60.0      # 60 s a step: 2.4e14 / (8 x 1e12 x 0.5)
F = 0.3 * 86400                             # the failure, s from the start
DETECT, RESTORE = 600.0, 300.0
TOL = 1e-4                                  # rescue.h: TMC_RESCUE_TOLERANCE


def base_wall():
    """The wall time without d and r: compute, saves, the lost work."""
    segment = K * T + SAVE
    lost = F - math.floor(F / segment) * segment
    return S * T + math.ceil(S / K) * SAVE + lost


def wall(d=DETECT, r=RESTORE):
    return base_wall() + d + r


# the thresholds, by hand
R_GOODPUT = 123.4                            # the restore at which goodput meets G
G = S * T / wall(r=R_GOODPUT)
D_COMPLETION = 250.0                          # the detection at which T meets D
D_DAYS = wall(d=D_COMPLETION) / 86400
R_DEADLINE = 77.0                             # the restore at which T meets the deadline
DEADLINE = wall(r=R_DEADLINE) / 86400

EXPERIMENT = {
    "name": "rescue-recovery-by-hand",
    "job": {"steps": S, "cards": 8, "flop_per_step": 2.4e14, "peak_flops": 1e12,
            "efficiency": 0.5, "exposed_comm_s": 0, "input_wait_s": 0},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": {"distribution": "trace", "trace": "trace.csv",
                 "causes": [{"name": "hang", "share": 1, "detection_s": DETECT}]},
    "checkpoint": {"interval_steps": K, "save_s": SAVE, "restore_s": RESTORE},
    "deadline": {"days": 2, "reserve_days": 0},
    "monte_carlo": {"replicas": 20, "seed": 1},
}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def run_json(tmp, cmd, path, *args):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, cmd, path, "--quiet", "--threads", "2", "--json", out, *args],
                       capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


def lever(doc, key):
    return next((l for l in doc["levers"] if l["key"] == key), None)


def check_threshold(doc, key, threshold, what):
    l = lever(doc, key)
    if not l or l["outcome"] != "found":
        check(False, f"{what}: {key} not found: {l and l['outcome']}")
        return
    check(l["direction"] == "smaller" and l["bracket"][:2] == [0, l["current"]],
          f"{what}: {key} goes {l['direction']} over {l['bracket']}, not down to 0")
    found, neighbour = l["found"]["value"], l["neighbour"]["value"]
    slack = TOL * l["current"]
    check(found <= threshold + 1e-9 and neighbour > threshold - 1e-9,
          f"{what}: found {found} must meet (<= {threshold}), neighbour {neighbour} miss")
    check(abs(found - threshold) <= slack + 1e-9,
          f"{what}: found {found}, by hand {threshold} (tolerance {slack})")


def hand_case(tmp, x):
    p, doc = run_json(tmp, "run", x)
    check(p.returncode == 0 and doc and abs(doc["goodput"]["mean"] - S * T / wall()) < 1e-12,
          f"run: goodput {doc and doc['goodput']} != S t / wall {S * T / wall()}")
    p, doc = run_json(tmp, "rescue", x, "--target", f"goodput.mean>={G!r}",
                      "--levers", "checkpoint.restore_s")
    check(p.returncode == 0, f"rescue goodput: exit {p.returncode}: {p.stderr}")
    if doc:
        check_threshold(doc, "checkpoint.restore_s", R_GOODPUT, "goodput")
    p, doc = run_json(tmp, "rescue", x, "--target", f"completion_days.mean<={D_DAYS!r}",
                      "--levers", "failures.causes[0].detection_s")
    check(p.returncode == 0, f"rescue detection: exit {p.returncode}: {p.stderr}")
    if doc:
        check_threshold(doc, "failures.causes[0].detection_s", D_COMPLETION, "detection")
    p, doc = run_json(tmp, "rescue", x, "--set", f"deadline.days={DEADLINE!r}",
                      "--levers", "checkpoint.restore_s")
    check(p.returncode == 0, f"rescue deadline: exit {p.returncode}: {p.stderr}")
    if doc:
        check_threshold(doc, "checkpoint.restore_s", R_DEADLINE, "deadline")
    p, doc = run_json(tmp, "sweep", x, "--vary", "checkpoint.restore_s=0:300:0.01",
                      "--target", f"goodput.mean>={G!r}")
    check(p.returncode == 0 and doc is not None, f"sweep --target: exit {p.returncode}: "
                                                 f"{p.stderr}")
    if doc:
        t = doc["target"]
        check(t["found"] <= R_GOODPUT + 1e-9 and abs(t["found"] - R_GOODPUT) <= 0.01 + 1e-9,
              f"sweep --target goodput: found {t['found']}, by hand {R_GOODPUT}")


def sensitivity(tmp, x):
    inputs = os.path.join(tmp, "inputs.json")
    with open(inputs, "w") as f:
        json.dump({"failures.causes[0].detection_s": [100, 900]}, f)
    p, doc = run_json(tmp, "sensitivity", x, "--inputs", inputs)
    if p.returncode or not doc:
        check(False, f"sensitivity: exit {p.returncode}: {p.stderr}")
        return
    row = doc["inputs"][0]
    low = row["low_end"]["difference_days"]["mean"]
    high = row["high_end"]["difference_days"]["mean"]
    check(abs(low * 86400 + 500) < 1e-6 and abs(high * 86400 - 300) < 1e-6,
          f"sensitivity: swings {low * 86400} s and {high * 86400} s, by hand -500 and 300")
    two = json.loads(json.dumps(EXPERIMENT))   # a second cause, its own detection
    two["failures"]["causes"] = [{"name": "hang", "share": 0.5, "detection_s": DETECT},
                                 {"name": "crash", "share": 0.5, "detection_s": 5}]
    with open(os.path.join(tmp, "two.json"), "w") as f:
        json.dump(two, f)
    with open(inputs, "w") as f:
        json.dump({"failures.causes[1].detection_s": [1, 10]}, f)
    p, doc = run_json(tmp, "sensitivity", os.path.join(tmp, "two.json"), "--inputs", inputs)
    base = doc["inputs"][0]["base"] if doc else None
    check(base == 5, f"sensitivity: cause 1's detection read as {base}, not 5")


def applicability(tmp, x):
    p, doc = run_json(tmp, "rescue", x, "--set", f"deadline.days={DEADLINE!r}")
    keys = [l["key"] for l in doc["levers"]] if doc else []
    for k in ("checkpoint.restore_s", "failures.causes[0].detection_s"):
        check(k in keys, f"default levers: {k} missing from {keys}")
    for k in ("failures.repair_mean_hours", "elastic.heal_s", "failures.spare_provision_s"):
        check(k not in keys, f"default levers: {k} does not apply, yet listed")
    p, doc = run_json(tmp, "rescue", x, "--set", f"deadline.days={DEADLINE!r}", "--levers",
                      "failures.repair_mean_hours,elastic.heal_s,failures.spare_provision_s")
    why = {l["key"]: l["reason"] or "" for l in doc["levers"]} if doc else {}
    check("unlimited" in why.get("failures.repair_mean_hours", ""), f"repair: {why}")
    check("no elastic groups" in why.get("elastic.heal_s", ""), f"heal: {why}")
    check("already 0" in why.get("failures.spare_provision_s", ""), f"provision: {why}")
    # the cause's own restore and no spare taken: the restore, provisioning
    # and repair have nothing to act on
    own = json.loads(json.dumps(EXPERIMENT))
    own["failures"]["causes"][0].update({"restore_s": 50, "takes_spare": False})
    own["failures"].update({"spares": 4, "spare_provision_s": 600})
    y = os.path.join(tmp, "own.json")
    with open(y, "w") as f:
        json.dump(own, f)
    p, doc = run_json(tmp, "rescue", y, "--set", "deadline.days=0.5", "--levers",
                      "checkpoint.restore_s,failures.causes[0].restore_s,"
                      "failures.spare_provision_s,failures.repair_mean_hours")
    why = {l["key"]: (l["outcome"], l["reason"] or "") for l in doc["levers"]} if doc else {}
    check("its own restore_s" in why.get("checkpoint.restore_s", ("", ""))[1],
          f"own restore: {why.get('checkpoint.restore_s')}")
    check(why.get("failures.causes[0].restore_s", ("",))[0] != "not_applicable",
          f"the cause's restore: {why.get('failures.causes[0].restore_s')}")
    for k in ("failures.spare_provision_s", "failures.repair_mean_hours"):
        check("takes a spare" in why.get(k, ("", ""))[1], f"no spare taken: {k}: {why.get(k)}")
    p, doc = run_json(tmp, "rescue", x, "--levers", "failures.causes[3].detection_s")
    check(p.returncode == 2 and "has 1 failure cause" in p.stderr and doc is None,
          f"a missing cause: exit {p.returncode}, {p.stderr!r}")


def closed_form(tmp):
    x = os.path.join(EXPERIMENTS, "llama3-16k-recovery.json")
    p, doc = run_json(tmp, "rescue", x, "--replicas", "200", "--target", "goodput.mean>=0.88",
                      "--levers", "checkpoint.restore_s")
    c = lever(doc, "checkpoint.restore_s")["closed_form"] if doc else None
    if not c or c["outcome"] != "found":
        check(False, f"closed form: {c}")
        return
    p, run = run_json(tmp, "run", x, "--replicas", "2",
                      "--set", f"checkpoint.restore_s={c['value']!r}")
    daly = 1 / (1 + run["closed_form"]["overhead_daly"])
    check(abs(daly - 0.88) < 1e-6, f"closed form: restore {c['value']} gives Daly's goodput "
                                   f"{daly}, not 0.88")


def repair(tmp):
    x = os.path.join(EXPERIMENTS, "spares-1024.json")
    args = ["--replicas", "400", "--set", "failures.repair_distribution=fixed"]
    p, doc = run_json(tmp, "run", x, *args)
    target = doc["deadline"]["probability"] + 0.05
    if target > 0.99:
        check(False, f"repair: the plan's P {target - 0.05} leaves no room")
        return
    p, doc = run_json(tmp, "rescue", x, *args, "--target",
                      f"deadline.probability>={target!r}", "--levers",
                      "failures.repair_mean_hours")
    l = lever(doc, "failures.repair_mean_hours") if doc else None
    if not l or l["outcome"] != "found":
        check(False, f"repair: {l and (l['outcome'], l['reason'])}")
        return
    for point, meets in ((l["found"], True), (l["neighbour"], False)):
        p, run = run_json(tmp, "run", x, *args, "--set",
                          f"failures.repair_mean_hours={point['value']!r}")
        got = run["deadline"]["probability"]
        check((got >= target) == meets and got == point["metric"]["value"],
              f"repair at {point['value']}: run gives P {got}, rescue "
              f"{point['metric']['value']}, target {target}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "trace.csv"), "w") as f:
            f.write(f"time_days\n{F / 86400!r}\n")
        x = os.path.join(tmp, "x.json")
        with open(x, "w") as f:
            json.dump(EXPERIMENT, f)
        hand_case(tmp, x)
        applicability(tmp, x)
        sensitivity(tmp, x)
        closed_form(tmp)
        repair(tmp)
    for f in failures:
        print("FAIL:", f)
    print(f"check_rescue_recovery: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


main()
