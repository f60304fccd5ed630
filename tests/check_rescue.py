#!/usr/bin/env python3
"""`trainmc rescue` against a case solved by hand (tests/CMakeLists.txt:
cli-rescue). Usage: check_rescue.py TRAINMC.

No failures and no jitter: every replica takes exactly
    wall = S t + ceil(S / K) c
seconds (S steps of t = flop / (cards peak efficiency) s, a save of c s
ending each of the ceil(S / K) segments), so P(deadline) is 0 or 1 and each
lever's threshold follows from the arithmetic below, not from trainmc. The
value found must meet it and its neighbour miss it: integers exactly,
the other levers within the bisection's tolerance (1e-4 of the current
value). Then the refusals: an unknown lever, the other interval key, a
lever twice; a plan that already meets its target; levers that cannot
reach it within their brackets (the best reached is reported). Last, a
forecast (a progress section): job.steps cannot go below the steps done."""
import json
import math
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
S, CARDS, PEAK, EFF, K, SAVE = 1000, 8, 1e12, 0.5, 100, 100.0
FLOP = 2.4e14                       # 60 s a step on 8 cards at 0.5
DEADLINE = 0.7001                   # days; no reserve
TOL = 1e-4                          # rescue.h: TMC_RESCUE_TOLERANCE
BUDGET = DEADLINE * 86400


def step_s(cards=CARDS, eff=EFF):
    return FLOP / (cards * PEAK * eff)


def wall(steps=S, t=None, k=K):
    return steps * (step_s() if t is None else t) + math.ceil(steps / k) * SAVE


# the thresholds, by hand
STEPS = max(s for s in range(100, S + 1) if wall(steps=s) <= BUDGET)
DEADLINE_MIN = wall() / 86400
STEP_NEEDED = (BUDGET - math.ceil(S / K) * SAVE) / S      # the slowest step that meets
EFF_MIN = FLOP / (CARDS * PEAK * STEP_NEEDED)
CARDS_MIN = math.ceil(FLOP / (PEAK * EFF * STEP_NEEDED))
INTERVAL = min(k for k in range(K, S + 1) if wall(k=k) <= BUDGET)

EXPERIMENT = {
    "name": "rescue-by-hand",
    "job": {"steps": S, "cards": CARDS, "flop_per_step": FLOP, "peak_flops": PEAK,
            "efficiency": EFF, "exposed_comm_s": 0, "input_wait_s": 0},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": None,
    "checkpoint": {"interval_steps": K, "save_s": SAVE, "restore_s": 100},
    "deadline": {"days": DEADLINE, "reserve_days": 0},
    # 50: a Wilson interval of 0 or 50 of 50 excludes 0.9, so nothing is uncertain
    "monte_carlo": {"replicas": 50, "seed": 1},
}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def rescue(tmp, *args):
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, "rescue", os.path.join(tmp, "x.json"), "--quiet", "--threads", "2",
                        "--json", out, *args], capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


def levers(doc):
    return {l["key"]: l for l in doc["levers"]}


def assumed_lines(lines, doc, what):
    """The "Default, optimistic:" lines that follow: one per doc["assumed"]
    entry, in order, each ending "(set KEY, now VALUE)"."""
    got = [l for l in lines if l.startswith(("Default, optimistic: ", "Stated, optimistic: "))]
    want = [f"{'Stated' if a['stated'] else 'Default'}, optimistic: {a['why']} (set {a['key']}, now {a['value']})"
            for a in doc["assumed"]]
    check(got == want, f"{what}: assumptions {got} != JSON {want}")


def answer_first(out, doc, what):
    """Issue 32: after the heading (up to its blank line) the plan as it
    stands, then "Answer:" and one row per lever of doc["levers"] with the
    value found (or "-"), then the assumptions; the details after."""
    lines = out.split("\n")
    body = lines[lines.index("") + 1:]
    check(body[0].startswith("The plan as it stands: "), f"{what}: first line {body[0]!r}")
    if not doc["change_needed"]:
        check(body[1] == "No change is needed.", f"{what}: {body[1]!r}")
        assumed_lines(body[2:2 + len(doc["assumed"])], doc, what)
        return
    check(body[1] == "Answer: the smallest change of one lever alone that meets "
          + doc["target"]["text"], f"{what}: answer line {body[1]!r}")
    check(body[2].split()[0] == "lever", f"{what}: the table's heading {body[2]!r}")
    for k, l in enumerate(doc["levers"]):
        row = body[3 + k].split()
        check(row[0] == l["key"] and float(row[1]) == l["current"],
              f"{what}: row {k} {row} vs {l['key']}")
        if l["outcome"] == "found":
            check(abs(float(row[2]) - l["found"]["value"]) <= 1e-9 * abs(l["found"]["value"]),
                  f"{what}: {l['key']} found {row[2]} vs JSON {l['found']['value']}")
        else:
            check(row[2] == "-", f"{what}: {l['key']} {l['outcome']} shows {row[2]}")
    n = len(doc["levers"])
    assumed_lines(body[3 + n:3 + n + len(doc["assumed"])], doc, what)
    check(body[3 + n + len(doc["assumed"])] == "", f"{what}: the details follow a blank line")



def check_threshold(l, lo_ok, what):
    """found meets and its neighbour misses, on either side of lo_ok."""
    found, nb = l["found"]["value"], l["neighbour"]["value"]
    check(l["outcome"] == "found" and l["found"]["metric"]["meets"]
          and not l["neighbour"]["metric"]["meets"], f"{what}: outcome {l['outcome']}")
    check(nb < lo_ok <= found and found - nb <= TOL * l["current"] * (1 + 1e-9),
          f"{what}: found {found}, neighbour {nb}; by hand {lo_ok}")


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "x.json"), "w") as f:
        json.dump(EXPERIMENT, f)

    # 1. every lever against its hand value
    p, doc = rescue(tmp)
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    if doc:
        check(doc["change_needed"] and not doc["plan"]["meets"], "the plan should miss")
        lv = levers(doc)
        s = lv["job.steps"]
        check((s["found"]["value"], s["neighbour"]["value"]) == (STEPS, STEPS + 1),
              f"job.steps: {s['found']} / {s['neighbour']}, by hand {STEPS}")
        check(s["direction"] == "smaller" and s["bracket"][:2] == [100, S], "job.steps bracket")
        check_threshold(lv["deadline.days"], DEADLINE_MIN, "deadline.days")
        check(lv["deadline.days"]["doublings"] == 1, "deadline.days: doubled once")
        check_threshold(lv["job.efficiency"], EFF_MIN, "job.efficiency")
        c = lv["job.cards"]
        check((c["found"]["value"], c["neighbour"]["value"]) == (CARDS_MIN, CARDS_MIN - 1),
              f"job.cards: {c['found']['value']}, by hand {CARDS_MIN}")
        check(abs(c["found"]["change"] - (CARDS_MIN / CARDS - 1)) < 1e-12, "job.cards change")
        i = lv["checkpoint.interval_steps"]
        check((i["found"]["value"], i["neighbour"]["value"]) == (INTERVAL, INTERVAL - 1),
              f"interval: {i['found']['value']}, by hand {INTERVAL}")
        # no failures: Daly's optimum is one save at the end, a longer interval
        check(i["direction"] == "larger" and i["bracket"][1] == S, "interval bracket")
        check(not any(l["uncertain"] for l in doc["levers"]), "nothing is uncertain")
    check("The plan as it stands" in p.stdout and "Answer:" in p.stdout, "text report")
    if doc:
        answer_first(p.stdout, doc, "by hand")

    # 2. refusals: exit 2, a message naming the problem, no JSON left
    for args, message in [(["--levers", "job.foo"], "not a lever"),
                          (["--levers", "checkpoint.interval_s"],
                           "gives its interval as checkpoint.interval_steps"),
                          (["--levers", "job.cards,job.cards"], "named twice"),
                          (["--target", "deadline.probability>=2"], "--target")]:
        p, doc = rescue(tmp, *args)
        check(p.returncode == 2 and message in p.stderr and doc is None,
              f"{args}: exit {p.returncode}, {p.stderr!r}")

    # 3. a plan that meets its target: no change needed, no lever run
    p, doc = rescue(tmp, "--set", "deadline.days=1")
    check(p.returncode == 0 and "No change is needed" in p.stdout and doc
          and not doc["change_needed"] and doc["levers"] == [], f"met: {p.stdout}")
    if doc:
        answer_first(p.stdout, doc, "met")
    # one simulation: the count's noun agrees ("1 simulation of N replicas")
    check(" 1 simulation of " in p.stdout and "1 simulations" not in p.stdout,
          f"met: the simulation count's grammar: {p.stdout}")

    # 4. brackets where neither end meets: the best reached, the far end
    p, doc = rescue(tmp, "--set", "deadline.days=0.1", "--levers", "job.cards,job.efficiency")
    check(p.returncode == 0 and doc, f"unreached: exit {p.returncode}")
    if doc:
        lv = levers(doc)
        check(all(l["outcome"] == "not_reached" for l in doc["levers"]), "not reached")
        check(lv["job.cards"]["best"]["value"] == 4 * CARDS, "best at 4x the cards")
    check("not reached within its bracket" in p.stdout, "unreached text")
    if doc:
        answer_first(p.stdout, doc, "unreached")
    p, doc = rescue(tmp, "--target", "completion_days.mean<=0.1",
                    "--levers", "job.cards,deadline.days")
    if doc:
        lv = levers(doc)
        best = lv["job.cards"]["best"]
        check(best["value"] == 4 * CARDS and best["metric"]["mean_days"] ==
              min(e["metric"]["mean_days"] for e in lv["job.cards"]["evaluations"]),
              f"completion: best {best}")
        check(lv["deadline.days"]["outcome"] == "not_applicable", "deadline: not applicable")
        answer_first(p.stdout, doc, "completion")
    else:
        check(False, f"completion target: exit {p.returncode}: {p.stderr}")

# a forecast: 950 steps done, 900 committed (9 saves), no failure seen, so
# job.steps can only shrink to 951, and the rest takes (S - 950) t plus the
# last save from t0: by hand the largest S that meets
DONE, T0 = 950, wall(steps=900) + 50 * step_s()
FORECAST_STEPS = max(s for s in range(DONE + 1, S + 1)
                     if T0 + (s - DONE) * step_s() + SAVE <= BUDGET)
with tempfile.TemporaryDirectory() as tmp:
    x = dict(EXPERIMENT, progress={"elapsed_days": T0 / 86400, "steps_done": DONE,
                                   "committed_step": 900})
    with open(os.path.join(tmp, "x.json"), "w") as f:
        json.dump(x, f)
    p, doc = rescue(tmp, "--levers", "job.steps")
    if doc:
        s = levers(doc)["job.steps"]
        check(s["bracket"][0] == DONE + 1, f"forecast: job.steps bracket {s['bracket']}")
        check((s["found"]["value"], s["neighbour"]["value"]) ==
              (FORECAST_STEPS, FORECAST_STEPS + 1),
              f"forecast: job.steps found {s['found']['value']}, by hand {FORECAST_STEPS}")
    else:
        check(False, f"forecast: exit {p.returncode}: {p.stderr}")

# the reference design: its defaults flatter it (unlimited spares, no
# outages, ...): each one a line after the answer, as in the JSON
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.json")
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = subprocess.run([BIN, "rescue", os.path.join(top, "experiments", "design-32.json"),
                        "--quiet", "--replicas", "200", "--levers", "job.cards",
                        "--json", out], capture_output=True, text=True)
    if p.returncode == 0:
        doc = json.load(open(out))
        check(len(doc["assumed"]) >= 2, f"design-32: assumed {doc['assumed']}")
        answer_first(p.stdout, doc, "design-32")
    else:
        check(False, f"design-32: exit {p.returncode}: {p.stderr}")

for f in failures:
    print("check_rescue:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
