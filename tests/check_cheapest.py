#!/usr/bin/env python3
"""`trainmc cheapest` against a case whose optimum is known by hand
(tests/CMakeLists.txt: cli-cheapest). Usage: check_cheapest.py TRAINMC.

No failures and no jitter: every replica takes exactly
    wall(N, K) = S (F / (N peak eff) + comm) + ceil(S / K) c
seconds, so P(deadline) is 0 or 1 and the cost is a closed form:
    card-hours(N, K) = N wall(N, K) / 3600,  money = fixed + price card-hours.
With S = 1000 steps, F / (peak eff) = 2400 card-seconds a step, comm = 1 s a
step (no card shares it, so the cost rises with the cards), c = 10 s a save:
    wall(N, K) = 2.4e6 / N + 1000 + 10 ceil(1000 / K).
The deadline is 81,050 s (no reserve). K = 1000 (one save): 2.4e6 / N <=
80,040 needs N >= 29.985, so 30 cards; K = 100 (ten saves): 2.4e6 / N <=
79,950 needs N >= 30.019, so 31 cards. Their costs in card-hours:
    30 x 81,010 / 3600 = 675.083,  31 x (77,419.35 + 1,100) / 3600 = 676.14,
so the cheapest plan is 30 cards saving every 1000 steps: money 100 + 2 x
675.083 = 1450.17. Below 30 cards every plan misses, so the frontier is the
cheapest plan run (8 cards, K = 1000, P = 0) and the chosen one. Then bad
input: exit 2, a clear message, no output file; then the standbys lever
against plain runs; whole nodes on a node experiment (6: by hand and by
brute force over `trainmc run`); the plot's cost axes (7)."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = sys.argv[1]
S, FLOP, PEAK, EFF, COMM, SAVE = 1000, 1.2e15, 1e12, 0.5, 1.0, 10.0
DEADLINE_S, PRICE, FIXED = 81050.0, 2.0, 100.0

EXPERIMENT = {
    "name": "cheapest-by-hand",
    "job": {"steps": S, "cards": 32, "flop_per_step": FLOP, "peak_flops": PEAK,
            "efficiency": EFF, "exposed_comm_s": COMM, "input_wait_s": 0},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": None,
    "checkpoint": {"interval_steps": 1000, "save_s": SAVE, "restore_s": 100},
    "deadline": {"days": DEADLINE_S / 86400, "reserve_days": 0},
    "cost": {"card_hour_price": PRICE, "fixed": FIXED},
    "monte_carlo": {"replicas": 20, "seed": 1},
}
LEVERS = ["--lever", "job.cards=8:64", "--lever", "checkpoint.interval_steps=100,1000"]


def wall(n, k):
    return S * (FLOP / (n * PEAK * EFF) + COMM) + math.ceil(S / k) * SAVE


def card_hours(n, k):
    return n * wall(n, k) / 3600


# the optimum, by hand (the docstring's arithmetic)
BEST_N, BEST_K = 30, 1000
BEST_COST = FIXED + PRICE * card_hours(BEST_N, BEST_K)

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(1.0, abs(b))


def cheapest(tmp, *args, exp="x.json"):
    out, svg = os.path.join(tmp, "out.json"), os.path.join(tmp, "out.svg")
    for f in (out, svg):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([BIN, "cheapest", os.path.join(tmp, exp), "--quiet", "--threads",
                        "2", "--json", out, "--plot", svg, *args], capture_output=True,
                       text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc, svg


def interval_of(plan):
    return int(next(o for o in plan["overrides"]
                    if o.startswith("checkpoint.interval_steps=")).split("=")[1])


def answer_first(out, doc, exp, what):
    """Issue 32: after the heading (up to its first blank line) the chosen
    plan with its cost and P as the JSON has them (or "No plan meets"), then
    the "Default, optimistic:" lines: those `trainmc run` gives for the
    chosen plan (exp with its overrides), else for exp as given; the search
    after them."""
    lines = out.split("\n")
    body = lines[lines.index("") + 1:]
    ch = doc["chosen"]
    if ch:
        c, pd = ch["cost"], ch["p_deadline"]
        check(body[0] == f"Chosen plan: {ch['plan']}", f"{what}: first line {body[0]!r}")
        check(body[1].startswith(f"  expected {doc['cost_unit']} {c['mean']:.2f} "
                                 f"[{c['mean'] - 1.96 * c['se']:.2f}, "
                                 f"{c['mean'] + 1.96 * c['se']:.2f}] (95 %)"),
              f"{what}: cost line {body[1]!r} vs {c}")
        check(body[2].startswith(f"  P(T <= ") and f" {pd['value']:.4f} [{pd['ci95'][0]:.4f}, "
              f"{pd['ci95'][1]:.4f}] (Wilson 95 %), mean T {ch['mean_days']:.4f} days" in body[2],
              f"{what}: P line {body[2]!r} vs {pd}")
        sets = [f"job.cards={ch['cards']}", *ch["overrides"]]
    else:
        check(body[0].startswith("No plan meets") or body[0].startswith("No finalist meets"),
              f"{what}: first line {body[0]!r}")
        sets = []
    with tempfile.TemporaryDirectory() as t:
        out_run = os.path.join(t, "run.json")
        args = [BIN, "run", exp, "--quiet", "--replicas", "2", "--json", out_run]
        for a in sets:
            args += ["--set", a]
        r = subprocess.run(args, capture_output=True, text=True)
        run = json.load(open(out_run)) if r.returncode == 0 else None
    check(run is not None, f"{what}: run of the chosen plan: {r.stderr}")
    if not run:
        return
    exp_lines = [f"{'Stated' if a['stated'] else 'Default'}, optimistic: {a['why']} (set {a['key']}, now {a['value']})"
                 for a in run["assumed"]]
    got = [l for l in body if l.startswith(("Default, optimistic:", "Stated, optimistic:"))]
    k = body.index(next(l for l in body if l.startswith("Search (seed")))
    first = body.index(got[0]) if got else k - 1
    check(got == exp_lines and doc["assumed"] == run["assumed"] and
          first + len(got) + 1 == k, f"{what}: assumptions {got} != run's {exp_lines}")


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "x.json"), "w") as f:
        json.dump(EXPERIMENT, f)

    # 1. the search against the hand optimum
    p, doc, svg = cheapest(tmp, *LEVERS)
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    if doc:
        ch = doc["chosen"]
        check(doc["met"] and ch and ch["cards"] == BEST_N and interval_of(ch) == BEST_K,
              f"chosen {ch and ch['plan']}; by hand {BEST_N} cards, K {BEST_K}")
        check(ch and close(ch["cost"]["mean"], BEST_COST, 1e-6),
              f"chosen cost {ch and ch['cost']['mean']}, by hand {BEST_COST}")
        check(ch and ch["p_deadline"]["value"] == 1 and ch["replicas_stream"] == "fresh",
              "the chosen plan's P comes from the fresh replicas")
        fewest = {interval_of(c["cheapest"]): c["cheapest"]["cards"]
                  for c in doc["combinations"]}
        check(fewest == {1000: 30, 100: 31}, f"per interval {fewest}; by hand 30 and 31")
        for pl in doc["plans"]:  # every plan's cost and P against the closed form
            n, k = pl["cards"], interval_of(pl)
            check(close(pl["card_hours"], card_hours(n, k), 1e-6),
                  f"{pl['plan']}: {pl['card_hours']} card-hours, by hand {card_hours(n, k)}")
            check(pl["meets"] == (wall(n, k) <= DEADLINE_S), f"{pl['plan']}: meets")
        front = sorted((pl["cards"], interval_of(pl)) for pl in doc["plans"] if pl["frontier"])
        check(front == [(8, 1000), (30, 1000)], f"frontier {front}")
        check(doc["seed"] != doc["fresh_seed"], "fresh replicas use another seed")
    check("Chosen plan: job.cards=30, checkpoint.interval_steps=1000" in p.stdout,
          f"text: {p.stdout}")
    if doc:
        answer_first(p.stdout, doc, os.path.join(tmp, "x.json"), "by hand")
    try:
        root = ET.parse(svg).getroot()
        classes = [e.get("class") for e in root.iter()]
        check(classes.count("chosen") == 1 and classes.count("frontier") == 2,
              f"svg marks: {classes.count('chosen')} chosen, {classes.count('frontier')} frontier")
    except (OSError, ET.ParseError) as e:
        check(False, f"svg: {e}")

    # 2. no plan meets: said clearly, the closest shown, exit 0
    p, doc, _ = cheapest(tmp, *LEVERS, "--set", "deadline.days=0.3")
    check(p.returncode == 0 and "No plan meets" in p.stdout and doc and not doc["met"]
          and doc["chosen"] is None and len(doc["closest"]) == 3,
          f"unmet: exit {p.returncode}, {p.stdout}")
    if doc:
        answer_first(p.stdout, doc, os.path.join(tmp, "x.json"), "unmet")

    # 2b. refused plans (10-hour allocations cannot hold a 1000-step segment,
    # about 80,000 s): every key a plan has, figures null, meets false
    p, doc, _ = cheapest(tmp, *LEVERS, "--set",
                         'time_limit={"wall_hours": 10, "at_limit": "lose"}')
    refused = [pl for pl in (doc["plans"] if doc else []) if pl["refused"]]
    check(p.returncode == 0 and refused, f"refusals: exit {p.returncode}, {p.stderr!r}")
    keys = {"plan", "cards", "overrides", "replicas_stream", "refused", "step_s",
            "interval_steps", "mean_days", "p_deadline", "meets", "cards_held", "card_hours",
            "cost", "frontier"}
    for pl in refused:
        check(set(pl) == keys and pl["meets"] is False and pl["cost"] is None
              and pl["frontier"] is False, f"refused plan {pl}")

    # 3. bad input: exit 2, the problem named, no output file
    for args, message in [(["--bogus"], "--bogus"),
                          (["--lever", "job.cards=64:8"], "1 <= LO < HI"),
                          (["--lever", "job.cards=8"], "job.cards=LO:HI"),
                          (["--lever", "checkpoint.interval_steps=5:1:1"], "--lever"),
                          (["--target", "1.5"], "not a probability in (0, 1)"),
                          (["--target", "0"], "not a probability in (0, 1)"),
                          (["--target", "completion_days.mean<=3"], "deadline.probability>=P"),
                          (["--lever", "job.foo=1,2"], "not a lever"),
                          (["--lever", "checkpoint.interval_s=60"], "name that key"),
                          (["--lever", "failures.spares=0,1"], "no failures"),
                          (["--lever", "checkpoint.mode=sync,async"], "--async-copy-s"),
                          (["--lever", "job.cards=8:9", "--lever", "job.cards=8:9"],
                           "named twice")]:
        p, doc, svg = cheapest(tmp, *args)
        check(p.returncode == 2 and message in p.stderr and doc is None
              and not os.path.exists(svg), f"{args}: exit {p.returncode}, {p.stderr!r}")

    # 4. the standbys lever (docs/model.md 3.20): with failures (a 3-day
    # card MTBF, provisioning 2 h, a standby's swap 60 s), every plan the
    # search ran is the plain run of its card count and standby count (same
    # seed: the same replicas), and holds N + W cards
    with open(os.path.join(tmp, "x.json"), "w") as f:
        json.dump({**EXPERIMENT, "cost": None, "deadline": {"days": 3, "reserve_days": 0},
                   "checkpoint": {"interval_steps": 100, "save_s": SAVE, "restore_s": 100},
                   "failures": {"distribution": "exponential", "per_card_mtbf_days": 3,
                                "standby_swap_s": 60, "spare_provision_s": 7200},
                   "monte_carlo": {"replicas": 100, "seed": 1}}, f)
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=8:64", "--lever", "failures.standbys=0,2,4")
    check(p.returncode == 0 and doc and doc["levers"]["failures.standbys"] == [0, 2, 4],
          f"standbys lever: exit {p.returncode}, {p.stderr!r}")
    ran = [pl for pl in (doc["plans"] if doc else []) if pl["replicas_stream"] == "search"]
    check(len(ran) >= 10, f"standbys lever: {len(ran)} plans run")
    levels = {o for pl in ran for o in pl["overrides"] if o.startswith("failures.standbys=")}
    check(levels == {f"failures.standbys={w}" for w in (0, 2, 4)}, f"standbys run: {levels}")
    checked = []
    for pl in ran[::3]:
        w = next(o for o in pl["overrides"] if o.startswith("failures.standbys="))
        out = os.path.join(tmp, "run.json")
        r = subprocess.run([BIN, "run", os.path.join(tmp, "x.json"), "--quiet", "--set",
                            f"job.cards={pl['cards']}", "--set", w, "--json", out],
                           capture_output=True, text=True)
        run = json.load(open(out)) if r.returncode == 0 else None
        checked.append(pl["plan"])
        check(run and close(run["completion_days"]["mean"], pl["mean_days"], 1e-12)
              and close(run["cost"]["card_hours"]["mean"], pl["card_hours"], 1e-12)
              and pl["cards_held"] == pl["cards"] + int(w.split("=")[1]),
              f"{pl['plan']}: as a run {run and run['completion_days']['mean']} days, "
              f"{run and run['cost']['card_hours']['mean']} card-hours; the search "
              f"{pl['mean_days']}, {pl['card_hours']}, {pl['cards_held']} cards held")
    print("check_cheapest: standbys lever:", len(ran), "plans; as runs:", ", ".join(checked))
    p, doc, _ = cheapest(tmp, "--lever", "failures.standbys=1,-1")
    check(p.returncode == 2 and "not a count of standbys" in p.stderr and doc is None,
          f"standbys -1: exit {p.returncode}, {p.stderr!r}")

    # 5. the gaps of the review (tests/check_cheapest.py items 5a-5g), on the
    # by-hand experiment of 1 again (x.json), written as its own file
    with open(os.path.join(tmp, "hand.json"), "w") as f:
        json.dump(EXPERIMENT, f)

    # 5a. --async-copy-s matters only when a mode lever switches a sync
    # experiment to async: refused otherwise (exit 2, the option, its value)
    with open(os.path.join(tmp, "async.json"), "w") as f:
        json.dump({**EXPERIMENT, "checkpoint": {"interval_steps": 1000, "mode": "async",
                                                "save_s": 1, "write_s": SAVE,
                                                "restore_s": 100}}, f)
    for exp, args, message in [
            ("hand.json", ["--async-copy-s", "1"], "no --lever checkpoint.mode names async"),
            ("hand.json", ["--async-copy-s", "1", "--lever", "checkpoint.mode=sync"],
             "no --lever checkpoint.mode names async"),
            ("async.json", ["--async-copy-s", "1", "--lever", "checkpoint.mode=sync,async"],
             "asynchronous already")]:
        p, doc, svg = cheapest(tmp, *args, exp=exp)
        check(p.returncode == 2 and "--async-copy-s 1:" in p.stderr and message in p.stderr
              and "checkpoint.mode=async" in p.stderr and doc is None
              and not os.path.exists(svg), f"{exp} {args}: exit {p.returncode}, {p.stderr!r}")
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=28:34", "--lever",
                         "checkpoint.mode=sync,async", "--async-copy-s", "1", exp="hand.json")
    check(p.returncode == 0 and doc and doc["levers"]["checkpoint.mode"] == ["sync", "async"],
          f"--async-copy-s with its lever: exit {p.returncode}, {p.stderr!r}")

    # 5b. a list lever's value given twice is refused, the value named
    with open(os.path.join(tmp, "spares.json"), "w") as f:  # failures, so spares are levers
        json.dump({**EXPERIMENT, "failures": {"distribution": "exponential",
                                              "per_card_mtbf_days": 1e9}}, f)
    for exp, lever, value in [("hand.json", "checkpoint.interval_steps=100,1000,100", "100"),
                              ("spares.json", "failures.spares=1,1", "1"),
                              ("spares.json", "failures.standbys=0,2,0", "0")]:
        p, doc, _ = cheapest(tmp, "--lever", lever, exp=exp)
        check(p.returncode == 2 and f"--lever {lever}: the value {value} is repeated"
              in p.stderr and doc is None, f"{lever}: exit {p.returncode}, {p.stderr!r}")

    # 5c. job.cards=LO:HI takes the key's own range, 1 <= LO < HI <= 1e7
    # (src/input/config_fields.c: job.cards in [1, 1e7]); "1e7" is an integer.
    # No failures: the optimum is still 30 cards at K = 1000 (by hand, 1)
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=8:1e7", exp="hand.json")
    check(p.returncode == 0 and doc and doc["levers"]["job.cards"] == [8, 1e7]
          and doc["chosen"] and doc["chosen"]["cards"] == BEST_N,
          f"job.cards=8:1e7: exit {p.returncode}, {p.stderr!r}")
    for lever in ["job.cards=8:10000001", "job.cards=8:1.1e7", "job.cards=8.5:64",
                  "job.cards=0:64"]:
        p, doc, _ = cheapest(tmp, "--lever", lever, exp="hand.json")
        check(p.returncode == 2 and f"--lever {lever}: expected job.cards=LO:HI" in p.stderr
              and "1 <= LO < HI <= 1e7" in p.stderr and doc is None,
              f"{lever}: exit {p.returncode}, {p.stderr!r}")

    # 5c'. the count levers take their key's range from its row
    # (src/input/config_fields.c: failures.spares in [-1, 1e6], -1 unlimited;
    # failures.standbys in [0, 1e6]), so the message states the row's bounds
    for lever, what, rng in [("failures.spares=0,1000001", "1000001 is not a count of spares",
                              "[-1, 1e6]"),
                             ("failures.spares=-2", "-2 is not a count of spares", "[-1, 1e6]"),
                             ("failures.standbys=0,1000001", "1000001 is not a count of standbys",
                              "[0, 1e6]")]:
        p, doc, _ = cheapest(tmp, "--lever", lever, exp="spares.json")
        check(p.returncode == 2 and f"--lever {lever}: {what} (an integer in {rng})"
              in p.stderr and doc is None, f"{lever}: exit {p.returncode}, {p.stderr!r}")

    # 5d. a chosen plan at the range's least cards: flagged (text and JSON).
    # With LO = 30 the optimum of 1 (30 cards) is LO itself; with LO = 8 not
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=30:64", exp="hand.json")
    check(p.returncode == 0 and doc and doc["chosen"]["cards"] == 30
          and doc["chosen"]["at_lower_edge"] is True and "At the lower edge" in p.stdout
          and "--lever job.cards=LO:64" in p.stdout, f"lower edge 30: {p.stdout}")
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=8:64", exp="hand.json")
    check(p.returncode == 0 and doc and doc["chosen"]["cards"] == 30
          and doc["chosen"]["at_lower_edge"] is False and "At the lower edge" not in p.stdout,
          f"lower edge 8: {p.stdout}")

    # 5e. a combination whose every plan is refused says why in the search
    # table. A 10-hour allocation (36,000 s) cannot hold a 1000-step segment
    # at any count in [8, 64] (at 64 cards 2.4e6 / 64 + 1000 = 38,500 s);
    # at K = 100 the segments (at most 3,100 s) fit
    p, doc, _ = cheapest(tmp, *LEVERS, "--set",
                         'time_limit={"wall_hours": 10, "at_limit": "lose"}', exp="hand.json")
    rows = {ln.split()[0]: ln for ln in p.stdout.splitlines()
            if ln.startswith("checkpoint.interval_steps=")}
    k1000 = [pl for pl in (doc["plans"] if doc else []) if interval_of(pl) == 1000]
    check(p.returncode == 0 and k1000 and all(pl["refused"] for pl in k1000),
          f"time limit: exit {p.returncode}, K = 1000 plans {len(k1000)} all refused")
    line = rows.get("checkpoint.interval_steps=1000", "")
    check(f"all {len(k1000)} plans refused; the first (job.cards=8): time_limit.wall_hours"
          in line and k1000 and k1000[0]["refused"] in line, f"all refused: {line!r}")
    check("refused" not in rows.get("checkpoint.interval_steps=100", "refused"),
          f"K = 100 row: {rows.get('checkpoint.interval_steps=100')!r}")

    # 5f. the ternary cost step. The experiment of 1 with failures on that
    # never strike (per-card MTBF 1e9 days: 16 to 200 cards for under two
    # days, a chance near 1e-5 over all the replicas) and 8 spares held, so
    # billed: cards held N + 8, and
    #     card-hours(N) = (N + 8) (2.4e6 / N + 1010) / 3600
    #                   = (2.4e6 + 8080 + 1010 N + 19.2e6 / N) / 3600,
    # falling to N* = sqrt(19.2e6 / 1010) = 137.87 then rising: at integers
    # 1010 N + 19.2e6 / N is 278,515.99 at 137, 278,510.43 at 138, 278,519.50
    # at 139, so 138 cards; money 100 + 2 x 146 x 18,401.30 / 3600 = 1592.55.
    # The fewest that meet are 30 (1), costing 100 + 2 x 38 x 81,010 / 3600 =
    # 1810.21. Over [16, 200] the grid is 16, 62, 108, 154, 200: the cheapest
    # of them (154) and the finalists' one card more miss 138, which only the
    # ternary search between 108 and 200 reaches.
    SP, LO, HI = 8, 16, 200
    with open(os.path.join(tmp, "ternary.json"), "w") as f:
        json.dump({**EXPERIMENT, "failures": {"distribution": "exponential",
                                              "per_card_mtbf_days": 1e9, "spares": SP}}, f)

    def money_sp(n):
        return FIXED + PRICE * (n + SP) * wall(n, 1000) / 3600

    feasible = [n for n in range(LO, HI + 1) if wall(n, 1000) <= DEADLINE_S]
    hand_n = min(feasible, key=money_sp)
    grid = [LO + round(g * (HI - LO) / 4) for g in range(5)]
    check(hand_n == 138 and feasible[0] == 30 and grid == [16, 62, 108, 154, 200]
          and close(money_sp(138), 1592.55, 1e-5) and close(money_sp(30), 1810.21, 1e-5),
          f"ternary by hand: {hand_n}, {feasible[0]}, {grid}, {money_sp(138)}")
    check(all(abs(hand_n - m) > 1 for m in grid + [feasible[0]]),
          "the hand optimum is away from the grid and the fewest cards")
    p, doc, _ = cheapest(tmp, "--lever", f"job.cards={LO}:{HI}", exp="ternary.json")
    ch = doc and doc["chosen"]
    check(p.returncode == 0 and ch and ch["cards"] == hand_n and ch["cards_held"] == hand_n + SP
          and close(ch["cost"]["mean"], money_sp(hand_n), 1e-9),
          f"ternary: chosen {ch and ch['plan']} {ch and ch['cost']}; by hand {hand_n} cards, "
          f"{money_sp(hand_n)}")
    check(doc and doc["combinations"][0]["cheapest"]["cards"] == hand_n,
          "ternary: the combination's cheapest plan is the hand optimum")
    for pl in (doc["plans"] if doc else []):
        n = pl["cards"]
        check(close(pl["cost"]["mean"], money_sp(n), 1e-9) and pl["cards_held"] == n + SP
              and pl["meets"] == (n >= 30), f"ternary {pl['plan']}: {pl['cost']}")
    ran = {pl["cards"] for pl in (doc["plans"] if doc else [])}
    check({30, hand_n} <= ran, f"ternary: plans run {sorted(ran)}")

    # 5g. a finalist refused on the fresh replicas. Per-card MTBF M1 =
    # 1020 / 5.5 s, steps of 1e10 / (N x 1e12 x 0.5) + 1 s, one segment of
    # 1000 steps and a 10 s save: 1030 s at 1 card, 1020 s at 2. Daly's
    # attempts per segment e^(w / M): e^(1030 / 185.45) = e^5.55, about 260, at
    # 1 card (an expected wall time about 80 times the uninterrupted: runs);
    # e^(1020 / 92.73) = e^11, about 6e4, at 2 cards (over 1000 times:
    # refused, cannot finish). With a 100-day deadline 1 card meets; its
    # finalist at one card more, 2, is refused on the fresh replicas.
    with open(os.path.join(tmp, "refuse.json"), "w") as f:
        json.dump({**EXPERIMENT, "job": {**EXPERIMENT["job"], "cards": 1,
                                         "flop_per_step": 1e10},
                   "deadline": {"days": 100, "reserve_days": 0},
                   "failures": {"distribution": "exponential",
                                "per_card_mtbf_days": 1020 / 5.5 / 86400}}, f)
    p, doc, _ = cheapest(tmp, "--lever", "job.cards=1:2", exp="refuse.json")
    fin = {pl["cards"]: pl for pl in (doc["finalists"] if doc else [])}
    check(p.returncode == 0 and set(fin) == {1, 2}, f"refused finalist: exit {p.returncode}, "
          f"finalists {sorted(fin)}, {p.stderr!r}")
    two = fin.get(2, {})
    check(two.get("replicas_stream") == "fresh" and two.get("refused")
          and "cannot finish in practice" in two.get("refused", "")
          and "an interruption every 92.7" in two.get("refused", "")
          and two.get("meets") is False and two.get("cost") is None
          and two.get("p_deadline") is None, f"refused finalist: {two}")
    check(doc and doc["chosen"] and doc["chosen"]["cards"] == 1
          and doc["chosen"]["refused"] is None and doc["chosen"]["meets"]
          and doc["runner_up"] is None and doc["runner_up_cost_difference"] is None
          and doc["chosen"]["at_lower_edge"] is False,  # LO = 1: nothing lies below
          f"refused finalist: chosen {doc and doc['chosen']}")
    check(any(ln.startswith("job.cards=2 ") and "refused: the run cannot finish" in ln
              and ln.rstrip().endswith("no") for ln in p.stdout.splitlines()),
          f"refused finalist text: {p.stdout}")

    # 6. whole nodes (issue 32, item 7). Node failures (g = 8 cards a node,
    # a node MTBF of 1e9 days: they never strike, as in 5f) and 8 spares
    # held: the cost of 5f, (N + 8)(2.4e6 / N + 1010) / 3600 card-hours, now
    # at N a multiple of 8 only. 1010 N + 19.2e6 / N is 279,280.00 at 128,
    # 278,536.47 at 136 and 278,773.33 at 144, so the cheapest whole-node plan
    # is 136 cards (17 nodes), not 5f's 138; the fewest whole nodes that meet
    # are 32 (30 cards meet, 24 do not: 2.4e6 / 24 + 1010 = 101,010 s).
    # Money at 136: 100 + 2 x 144 x (17,647.06 + 1010) / 3600 = 1592.5647.
    # job.cards=17:203 is searched as 24:200 (LO up, HI down to whole nodes).
    G = 8
    with open(os.path.join(tmp, "nodes.json"), "w") as f:
        json.dump({**EXPERIMENT, "failures": {"distribution": "exponential", "spares": SP,
                                              "per_node_mtbf_days": 1e9, "cards_per_node": G}}, f)
    whole = [n for n in range(24, 201, G) if wall(n, 1000) <= DEADLINE_S]
    node_n = min(whole, key=money_sp)
    check(node_n == 136 and whole[0] == 32 and close(money_sp(136), 1592.5647, 1e-7),
          f"nodes by hand: {node_n}, {whole[0]}, {money_sp(136)}")
    p, doc, svg = cheapest(tmp, "--lever", "job.cards=17:203", exp="nodes.json")
    ch = doc and doc["chosen"]
    check(p.returncode == 0 and ch and ch["cards"] == node_n
          and close(ch["cost"]["mean"], money_sp(node_n), 1e-9),
          f"nodes: exit {p.returncode}, chosen {ch and ch['plan']} {ch and ch['cost']}; by "
          f"hand {node_n} cards, {money_sp(node_n)}; {p.stderr!r}")
    check(doc and doc["levers"]["job.cards"] == [24, 200] and doc["card_step"] == G
          and "cards move in whole nodes of 8" in p.stdout
          and "job.cards=17:203 is searched as 24:200" in p.stdout
          and "with one node more" in p.stdout, f"nodes: levers and text {p.stdout}")
    planned = [pl["cards"] for pl in (doc["plans"] + doc["finalists"] if doc else [])]
    check(planned and all(n % G == 0 and 24 <= n <= 200 for n in planned),
          f"nodes: plans of {sorted(set(planned))} cards; all whole nodes in [24, 200]")
    # brute force apart from the search: `trainmc run` at every whole-node count
    runs = {}
    for n in range(24, 201, G):
        out = os.path.join(tmp, "run.json")
        subprocess.run([BIN, "run", os.path.join(tmp, "nodes.json"), "--quiet", "--set",
                        f"job.cards={n}", "--json", out], capture_output=True, check=True)
        run = json.load(open(out))
        if run["deadline"]["probability"] >= 0.9:
            runs[n] = run["cost"]["money"]["mean"]
    brute = min(runs, key=runs.get)
    check(brute == node_n and ch and close(ch["cost"]["mean"], runs[brute], 1e-9),
          f"nodes: brute force {brute} at {runs.get(brute)}, chosen {ch and ch['cards']}")
    print(f"check_cheapest: nodes: chosen {ch and ch['cards']} cards, brute force {brute} of "
          f"{len(runs)} meeting counts")
    # the default range: N = 36 is n = 5 nodes, so [3, 10] nodes = [24, 80]
    # (cards one by one it would be [18, 72]); spares and standbys in nodes
    p, doc, _ = cheapest(tmp, "--set", "job.cards=36", exp="nodes.json")
    check(p.returncode == 0 and doc and doc["levers"]["job.cards"] == [24, 80],
          f"nodes default range: {doc and doc['levers']}, {p.stderr!r}")
    for lever, message in [("failures.spares=-1,8,12", "12 spares are not whole nodes: every failure that takes hardware takes a node's 8 cards"),
                           ("failures.standbys=0,4", "4 standbys are not whole nodes: every failure that takes hardware takes a node's 8 cards"),
                           ("job.cards=9:16", "[9, 16] holds fewer than two")]:
        p, doc, _ = cheapest(tmp, "--lever", lever, exp="nodes.json")
        check(p.returncode == 2 and f"--lever {lever}: " in p.stderr and message in p.stderr
              and doc is None, f"nodes {lever}: exit {p.returncode}, {p.stderr!r}")
    # beside card failures a pool's remainder serves them: the loader takes
    # 12 spares on nodes of 8, and so does the lever (one rule,
    # tmc_pool_unit_cards); the cards still move in whole nodes
    with open(os.path.join(tmp, "mixed.json"), "w") as f:
        json.dump({**EXPERIMENT, "failures": {"distribution": "exponential", "spares": 12,
                                              "per_card_mtbf_days": 1e9,
                                              "per_node_mtbf_days": 1e9, "cards_per_node": G}},
                  f)
    p, doc, _ = cheapest(tmp, "--lever", "failures.spares=4,12", "--lever", "job.cards=24:40",
                         exp="mixed.json")
    check(p.returncode == 0 and doc and doc["levers"]["failures.spares"] == [4, 12],
          f"mixed card and node failures, spares 4 and 12: exit {p.returncode}, {p.stderr!r}")

    # 7. the plot's cost axes (issue 32). The left panel spans the frontier,
    # the chosen plan and every plan that meets; a dearer plan is an
    # arrowhead at its right edge. Ticks share one format (digits and a k or
    # M suffix, never an exponent) and sit on a log scale: between ticks a,
    # b, c, (x_b - x_a) / (x_c - x_a) = log(b / a) / log(c / a). The right
    # panel spans the frontier from its last plan that misses: on the plan
    # of 1, 8 cards (1437.84) and 30 (1450.17), so they lie 1 / 1.1 of its
    # width apart (5 % padding each side): at least 80 % of 290 px.
    TICK = re.compile(r"^\d+(\.\d+)?[kMGT]?$")

    def tick_value(label):
        return float(label.rstrip("kMGT")) * {"k": 1e3, "M": 1e6, "G": 1e9,
                                              "T": 1e12}.get(label[-1], 1)

    def svg_axes(svg, prefix):
        root = ET.parse(svg).getroot()
        ticks = [(float(e.get("x")), e.text) for e in root.iter()
                 if e.get("class") == prefix + "cost-tick"]
        marks = {k: [e for e in root.iter() if e.get("class") == prefix + k]
                 for k in ("plan", "frontier", "chosen", "beyond")}
        return ticks, marks

    def check_ticks(ticks, what):
        check(len(ticks) >= 2 and all(TICK.match(t) for _, t in ticks),
              f"{what}: tick labels {[t for _, t in ticks]}")
        xs, vs = [x for x, _ in ticks], [tick_value(t) for _, t in ticks]
        check(xs == sorted(xs) and vs == sorted(vs), f"{what}: ticks out of order {ticks}")
        if len(ticks) >= 3 and all(TICK.match(t) for _, t in ticks):
            a, b, c = 0, len(ticks) // 2, len(ticks) - 1
            want = math.log(vs[b] / vs[a]) / math.log(vs[c] / vs[a])
            check(abs((xs[b] - xs[a]) / (xs[c] - xs[a]) - want) < 0.01,
                  f"{what}: ticks not on a log scale {ticks}")

    labels = {}
    for exp, args, what in [("hand.json", LEVERS, "hand"),
                            ("hand.json", ["--lever", "job.cards=8:6400", "--set",
                                           "cost.card_hour_price=2000"], "wide"),
                            ("nodes.json", ["--lever", "job.cards=17:203"], "nodes")]:
        p, doc, svg = cheapest(tmp, *args, exp=exp)
        ticks, marks = svg_axes(svg, "")
        check_ticks(ticks, what)
        labels[what] = [t for _, t in ticks]
        # the axis's end: the dearest cost shown, padded 5 % of its log span
        ran = [pl for pl in (doc["plans"] if doc else []) if pl["refused"] is None]
        costs = [pl["cost"]["mean"] for pl in ran if pl["meets"] or pl["frontier"]]
        costs.append(doc["chosen"]["cost"]["mean"])
        end = max(costs) * (max(costs) / min(costs)) ** 0.05
        dearer = sum(pl["cost"]["mean"] > end for pl in ran)
        check(len(marks["beyond"]) == dearer and len(marks["plan"]) + dearer == len(ran)
              and all(80 <= float(e.get("cx")) <= 860 for e in marks["frontier"]),
              f"{what}: {len(marks['plan'])} plans drawn, {len(marks['beyond'])} beyond; by "
              f"the JSON {len(ran)} run, {dearer} dearer than {end}")
        zticks, zoom = svg_axes(svg, "zoom-")
        check(all(TICK.match(t) for _, t in zticks) and len(zoom["chosen"]) == 1,
              f"{what}: zoom ticks {zticks}")
    # 2.4e6 / N + 1010 s at 2000 a card-hour: 1.35M at 30 cards to 4.92M at 6400
    check(any(t.endswith("M") for t in labels["wide"]), f"wide: {labels['wide']}")
    p, doc, svg = cheapest(tmp, *LEVERS, exp="hand.json")
    zx = [float(e.get("cx")) for e in svg_axes(svg, "zoom-")[1]["frontier"]]
    check(len(zx) == 2 and all(960 <= x <= 1250 for x in zx) and zx[1] - zx[0] >= 0.8 * 290,
          f"hand: the frontier spans {zx} of the zoom panel [960, 1250]")

# the cost design with 2 spares: the chosen plan's defaults, not the
# experiment's (its unlimited spares are gone; its run is shorter)
with tempfile.TemporaryDirectory() as tmp:
    cost = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "experiments", "design-48-cost.json")
    p, doc, _ = cheapest(tmp, "--replicas", "200", "--lever", "failures.spares=2", exp=cost)
    check(p.returncode == 0 and doc and doc["met"], f"cost design: {p.stderr}")
    if doc:
        check(not any(a["key"] == "failures.spares" for a in doc["assumed"]),
              f"cost design: {doc['assumed']}")
        answer_first(p.stdout, doc, cost, "cost design")

for f in failures:
    print("check_cheapest:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
