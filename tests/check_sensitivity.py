#!/usr/bin/env python3
"""`trainmc sensitivity` against a case solved by hand (tests/CMakeLists.txt:
cli-sensitivity). Usage: check_sensitivity.py TRAINMC.

No failures and no jitter: every replica takes exactly
    T = S (mu + e + w) + ceil(S / K) c    seconds,
mu = flop / (cards peak efficiency), e the exposed communication, w the
input wait, c the save, K the interval in steps (given in steps, so it does
not move with the step). The link bandwidth b enters through e alone:
e = e0 b0 / b with prefetch working; with prefetch failed the whole ZeRO-3
link time instead (the part that never hides is part of its traffic),
V / b = m (d-1)/d (2 w_b + g_b) P / b. So every end's
T, its difference from the base, the swings and the rankings follow from
the arithmetic below, not from trainmc; the differences are exact, so their
common-random-number standard errors are 0. Then the compound case (the
gain from fixing each degradation alone), the refusals, and the SVG: well
formed, one low and one high bar per input in each of its two panels."""
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = sys.argv[1]
S, CARDS, PEAK, EFF, K = 1000, 8, 1e12, 0.5, 100
FLOP = 2.4e14                      # mu = 60 s on 8 cards at 0.5
SAVE, WAIT, E0, B0 = 100.0, 1.0, 0.1, 10.0
PARAMS, BATCH = 1e9, 8             # m = ceil(8 / 8) = 1 micro-batch per card
V = 1 * (CARDS - 1) / CARDS * (2 * 2 + 2) * PARAMS   # bytes per step: 5.25e9
DEADLINE = 0.75                    # days (64,800 s); no reserve
DAY = 86400.0


def days(eff=EFF, wait=WAIT, save=SAVE, exposed=E0):
    mu = FLOP / (CARDS * PEAK * eff)
    return (S * (mu + exposed + wait) + math.ceil(S / K) * save) / DAY


def link(b, failed):
    # prefetch failed: the whole link exposed, the part that never hides
    # being part of its traffic
    return V / (b * 1e9) if failed else E0 * B0 / b


BASE = days()
# input: (low, high, T(low), T(high)), all by hand
INPUTS = {
    "job.efficiency": (0.4, 0.6, days(eff=0.4), days(eff=0.6)),
    "job.input_wait_s": (0, 5, days(wait=0), days(wait=5)),
    "checkpoint.save_s": (50, 400, days(save=50), days(save=400)),
    "checkpoint.restore_s": (50, 200, BASE, BASE),      # nothing to restore from
    "interconnect.link_gb_per_s": (5, 10, days(exposed=link(5, 0)), BASE),
    "interconnect.link_gb_per_s:prefetch_failed":
        (5, 10, days(exposed=link(5, 1)), days(exposed=link(10, 1))),
}


def met(t):
    return 1.0 if t <= DEADLINE else 0.0


def swing(values):
    return max(values) - min(values)


SWING_T = {k: swing([BASE, lo, hi]) for k, (_, _, lo, hi) in INPUTS.items()}
SWING_P = {k: swing([met(BASE), met(lo), met(hi)]) for k, (_, _, lo, hi) in INPUTS.items()}
BY_T = sorted(INPUTS, key=lambda k: (-SWING_T[k], -SWING_P[k], list(INPUTS).index(k)))
BY_P = sorted(INPUTS, key=lambda k: (-SWING_P[k], -SWING_T[k], list(INPUTS).index(k)))
# the by-hand order must not hinge on ties the arithmetic cannot see
assert BY_T == ["job.efficiency", "job.input_wait_s", "checkpoint.save_s",
                "interconnect.link_gb_per_s:prefetch_failed", "interconnect.link_gb_per_s",
                "checkpoint.restore_s"]

# the compound: efficiency 0.4, input wait 3 s, link halved (prefetch working)
COMPOUND = "job.efficiency=0.4,job.input_wait_s=3,interconnect.link_gb_per_s=5"
C_T = days(eff=0.4, wait=3, exposed=link(5, 0))
FIXED = {"job.efficiency": days(wait=3, exposed=link(5, 0)),
         "job.input_wait_s": days(eff=0.4, exposed=link(5, 0)),
         "interconnect.link_gb_per_s": days(eff=0.4, wait=3)}
ALONE = {"job.efficiency": days(eff=0.4), "job.input_wait_s": days(wait=3),
         "interconnect.link_gb_per_s": days(exposed=link(5, 0))}

EXPERIMENT = {
    "name": "sensitivity-by-hand",
    "job": {"steps": S, "cards": CARDS, "flop_per_step": FLOP, "peak_flops": PEAK,
            "efficiency": EFF, "exposed_comm_s": E0, "input_wait_s": WAIT},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": None,
    "checkpoint": {"interval_steps": K, "save_s": SAVE, "restore_s": 100},
    "deadline": {"days": DEADLINE, "reserve_days": 0},
    "model": {"parameters": int(PARAMS), "flop_per_sequence": FLOP / BATCH,
              "sequence_tokens": 1000},
    "batch": {"sequences": BATCH, "train_tokens": 8e6},
    "interconnect": {"link_gb_per_s": B0},
    "monte_carlo": {"replicas": 20, "seed": 1},
}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def sensitivity(tmp, *args, experiment="x.json"):
    out, svg = os.path.join(tmp, "out.json"), os.path.join(tmp, "out.svg")
    for f in (out, svg):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([BIN, "sensitivity", os.path.join(tmp, experiment), "--quiet",
                        "--threads", "2", "--json", out, *args], capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


def answer_first(out, doc, what):
    """Issue 32: after the heading (up to its blank line) the answer, derived
    here from the JSON's rankings: the first of ranking_days and its swing,
    the first of ranking_p and its swing (or "does not move" when no input
    moves P); then one "Default, optimistic:" line per doc["assumed"]. The P
    table shows only the inputs that move P, the others in one line."""
    lines = out.split("\n")
    body = lines[lines.index("") + 1:]
    ins = {i["name"]: i for i in doc["inputs"]}
    t = ins[doc["ranking_days"][0]]
    dl = doc["deadline_days"]
    base_p = doc["base"]["p_deadline"]

    def still(i):
        return all(i[e]["p_deadline"] == base_p and i[e]["difference_p"]["mean"] == 0
                   for e in ("low_end", "high_end"))
    ranked = [ins[n] for n in doc["ranking_p"]]
    moving = [i["name"] for i in ranked if not still(i)]
    want = (f"Answer: the input that moves T most is {t['name']} (swing "
            f"{t['swing_days']['mean']:.4f} days); P(T <= {dl:g} days) ")
    if moving:
        p = ranked[0]
        ties = [i["name"] for i in ranked[1:]
                if i["swing_p"]["mean"] == p["swing_p"]["mean"]]
        want += (f"moves most with {p['name']} (swing {p['swing_p']['mean']:.4f}"
                 + (f"; as much: {', '.join(ties)}" if ties else "") + ")")
    else:
        want += f"does not move ({base_p:.4f} at both ends of every input)"
    check(body[0] == want, f"{what}: answer {body[0]!r}, from the JSON {want!r}")
    n = len(doc["assumed"])
    got = body[1:1 + n]
    exp = [f"{'Stated' if a['stated'] else 'Default'}, optimistic: {a['why']} (set {a['key']}, now {a['value']})"
           for a in doc["assumed"]]
    check(got == exp and body[1 + n] == "", f"{what}: assumptions {got} != {exp}")
    check(body[2 + n].startswith("Base (the experiment as it stands)"), f"{what}: {body[2 + n]!r}")
    # the P table: its rows are the inputs that move P, in ranking_p's order
    if moving:
        k = body.index(f"P(T <= {dl:g} days), ranked by its swing:")
        rows = [l.split()[0] for l in body[k + 2:k + 2 + len(moving)]]
        check(rows == moving, f"{what}: P rows {rows} != {moving}")
        rest = body[k + 2 + len(moving)]
        if len(moving) < len(ranked):
            check(rest == f"P(T <= {dl:g} days) is {base_p:.4f} at both ends of every other "
                  "input.", f"{what}: after the P rows {rest!r}")
        else:
            check(rest == "", f"{what}: after the P rows {rest!r}")
    else:
        check(f"P(T <= {dl:g} days) is {base_p:.4f} at both ends of every input." in body,
              f"{what}: no line for the still P")


def write(tmp, name, obj):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def check_inputs(doc):
    check(close(doc["base"]["mean_days"], BASE), f"base T {doc['base']['mean_days']} != {BASE}")
    got = {i["name"]: i for i in doc["inputs"]}
    for k, (lo, hi, t_lo, t_hi) in INPUTS.items():
        i = got[k]
        for end, v, t in (("low_end", lo, t_lo), ("high_end", hi, t_hi)):
            e = i[end]
            check(e["value"] == v and close(e["mean_days"], t), f"{k} {end}: {e['mean_days']}, "
                  f"by hand {t}")
            check(close(e["difference_days"]["mean"], t - BASE) and
                  e["difference_days"]["se"] < 1e-9, f"{k} {end}: difference {e['difference_days']}")
            check(e["p_deadline"] == met(t) and e["difference_p"]["mean"] == met(t) - met(BASE),
                  f"{k} {end}: P {e['p_deadline']}, by hand {met(t)}")
        check(close(i["swing_days"]["mean"], SWING_T[k]) and i["swing_p"]["mean"] == SWING_P[k],
              f"{k}: swing {i['swing_days']['mean']} / {i['swing_p']['mean']}, by hand "
              f"{SWING_T[k]} / {SWING_P[k]}")
    check(doc["ranking_days"] == BY_T, f"ranking by T {doc['ranking_days']}, by hand {BY_T}")
    check(doc["ranking_p"] == BY_P, f"ranking by P {doc['ranking_p']}, by hand {BY_P}")


def check_compound(doc):
    c = doc["compound"]
    check(close(c["mean_days"], C_T) and c["p_deadline"] == met(C_T), f"compound T {c}")
    for d in c["degradations"]:
        k = d["name"]
        check(close(d["alone"]["mean_days"], ALONE[k]) and
              close(d["alone"]["difference_days"]["mean"], ALONE[k] - BASE), f"{k} alone")
        check(close(d["fixed"]["mean_days"], FIXED[k]) and
              close(d["fixed"]["gain_days"]["mean"], C_T - FIXED[k]) and
              d["fixed"]["gain_days"]["se"] < 1e-9, f"{k} fixed: {d['fixed']}, by hand "
              f"{FIXED[k]}")
        check(d["fixed"]["gain_p"]["mean"] == met(FIXED[k]) - met(C_T), f"{k}: P gain")
    # only fixing the efficiency alone meets the deadline
    check([met(FIXED[k]) for k in FIXED] == [1, 0, 0], "the by-hand compound case changed")


def check_svg(path, names):
    root = ET.parse(path).getroot()   # well formed, or this raises
    ns = "{http://www.w3.org/2000/svg}"
    bars = [r for r in root.iter(ns + "rect") if r.get("class", "").startswith("bar ")]
    for k in names:
        mine = [r.get("class") for r in bars if r.get("data-input") == k]
        check(sorted(mine) == ["bar high", "bar high", "bar low", "bar low"],
              f"svg: {k} has bars {mine}, expected a low and a high in each panel")
    check(len(bars) == 4 * len(names), f"svg: {len(bars)} bars for {len(names)} inputs")


with tempfile.TemporaryDirectory() as tmp:
    write(tmp, "x.json", EXPERIMENT)
    inputs = write(tmp, "inputs.json", {k: [lo, hi] for k, (lo, hi, _, _) in INPUTS.items()})

    # 1. every input, the rankings, the compound and the picture against the hand values
    p, doc = sensitivity(tmp, "--inputs", inputs, "--compound", COMPOUND,
                         "--plot", os.path.join(tmp, "out.svg"))
    check(p.returncode == 0 and doc, f"exit {p.returncode}: {p.stderr}")
    if doc:
        check_inputs(doc)
        check_compound(doc)
        check_svg(os.path.join(tmp, "out.svg"), list(INPUTS))
        answer_first(p.stdout, doc, "by hand")
    check("ranked by the swing" in p.stdout and "Compound case" in p.stdout, "text report")

    # 2. the defaults: MTBF left out (failures are off), the others run
    p, doc = sensitivity(tmp, "--replicas", "2")
    if doc:
        skipped = {i["name"]: i["skipped"] for i in doc["inputs"]}
        check(skipped.get("failures.per_card_mtbf_days") and
              skipped.get("job.efficiency") is None and len(doc["ranking_days"]) == 7,
              f"defaults: {skipped}")
        answer_first(p.stdout, doc, "defaults")
    check(p.returncode == 0 and "not varied: failures.per_card_mtbf_days" in p.stdout,
          f"defaults: exit {p.returncode}, {p.stderr}")

    # 2b. a default range whose end cannot finish (a time limit too short for
    # the doubled restore) is listed as not varied with why; the same range
    # given with --inputs is refused
    write(tmp, "det.json", {
        "name": "det", "job": {"steps": 2000, "cards": 8, "flop_per_step": 1e16,
                               "peak_flops": 1e14, "efficiency": 0.5},
        "checkpoint": {"interval_s": 1800, "save_s": 20, "restore_s": 60},
        "time_limit": {"wall_hours": 0.53, "requeue_s": 300, "at_limit": "lose"},
        "deadline": {"days": 3}, "monte_carlo": {"replicas": 20, "seed": 1}})
    p, doc = sensitivity(tmp, experiment="det.json")
    check(p.returncode == 0 and doc is not None and
          "not varied: checkpoint.restore_s=120: time_limit.wall_hours" in p.stdout,
          f"det.json defaults: exit {p.returncode}, {p.stderr!r}")
    if doc:
        skipped = {i["name"]: i["skipped"] for i in doc["inputs"]}
        check((skipped.get("checkpoint.restore_s") or "").startswith("checkpoint.restore_s=120")
              and skipped.get("job.efficiency") is None and
              "checkpoint.restore_s" not in doc["ranking_days"],
              f"det.json defaults: {skipped}, ranked {doc['ranking_days']}")
    p, doc = sensitivity(tmp, "--inputs", write(tmp, "restore.json",
                                                {"checkpoint.restore_s": [30, 120]}),
                         experiment="det.json")
    check(p.returncode == 2 and "checkpoint.restore_s=120: time_limit.wall_hours" in p.stderr
          and doc is None, f"det.json --inputs restore: exit {p.returncode}, {p.stderr!r}")

    # 3. refusals: exit 2, a message naming the problem, no JSON left
    no_plan = write(tmp, "noplan.json", {k: v for k, v in EXPERIMENT.items()
                                         if k not in ("model", "batch", "interconnect")})
    for body, message in [({"job.foo": [1, 2]}, "job.foo: not a key of an experiment"),
                          ({"job.efficiency": [0.6, 0.4]}, "low 0.6 is above high 0.4"),
                          ({"job.efficiency": [0.4, 1.2]}, "job.efficiency: 1.2 is out of range"),
                          ({"job.efficiency": [0.4]}, "expected [LOW, HIGH]"),
                          ({"storage.write_gb_per_s": [1, 2]}, "a plan-only key"),
                          ({"monte_carlo.seed": [1, 2]}, "same replicas and seed"),
                          ({"failures.per_card_mtbf_days": [1, 2]}, "its section is off"),
                          ({"job.cards": [4.5, 8]}, "job.cards"),
                          ('{"job.efficiency": [0.4, 0.6], "job.efficiency": [0.3, 0.6]}',
                           "named twice"),
                          ({}, "no inputs"), ("[1, 2]", "expected a JSON object")]:
        p, doc = sensitivity(tmp, "--inputs", write(tmp, "bad.json", body))
        check(p.returncode == 2 and message in p.stderr and doc is None,
              f"{body}: exit {p.returncode}, {p.stderr!r}")
    for args, message, experiment in [
            (["--inputs", inputs], "interconnect.link_gb_per_s: the link time comes from",
             "noplan.json"),
            (["--compound", "job.efficiency"], "expected NAME=VALUE", "x.json"),
            (["--compound", "job.efficiency=x"], "'x' is not a number", "x.json"),
            (["--compound", "job.efficiency=1.5"], "out of range", "x.json"),
            (["--compound", "interconnect.link_gb_per_s=5,interconnect.link_gb_per_s:"
              "prefetch_failed=5"], "set the same key", "x.json"),
            (["--plot", os.path.join(tmp, "out.png")], "must end in .svg", "x.json"),
            (["--inputs", os.path.join(tmp, "missing.json")], "--inputs", "x.json")]:
        p, doc = sensitivity(tmp, *args, experiment=experiment)
        check(p.returncode == 2 and message in p.stderr and doc is None,
              f"{args}: exit {p.returncode}, {p.stderr!r}")

# the reference design: two inputs move P alike, the others not at all
with tempfile.TemporaryDirectory() as tmp:
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p, doc = sensitivity(tmp, "--replicas", "100",
                         experiment=os.path.join(top, "experiments", "design-48.json"))
    if doc:
        check(len(doc["assumed"]) >= 2, f"design-48: assumed {doc['assumed']}")
        answer_first(p.stdout, doc, "design-48")
    else:
        check(False, f"design-48: exit {p.returncode}: {p.stderr}")
    # a deadline nothing misses: P does not move, no P table
    p, doc = sensitivity(tmp, "--replicas", "50", "--set", "deadline.days=100",
                         experiment=os.path.join(top, "experiments", "design-48.json"))
    if doc:
        answer_first(p.stdout, doc, "still P")
        check("does not move" in p.stdout and "ranked by its swing:" not in p.stdout,
              "still P: a P table")
    else:
        check(False, f"still P: exit {p.returncode}: {p.stderr}")

for f in failures:
    print("check_sensitivity:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
