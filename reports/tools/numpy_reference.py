#!/usr/bin/env python3
"""numpy_reference.py - an independent NumPy simulator of trainmc's semantics
for a small subset of keys, as the yardstick of issue 35.

usage: numpy_reference.py EXPERIMENT [--replicas R] [--seed S] [--json [PATH]]

It was written from docs/reference/simulation-semantics.md (sections 1-5 and
7), docs/reference/keys.md and docs/model.md 2 only, without reading the C
sources. It simulates the keys that experiments/design-48-stress.json uses
and REFUSES (exit 2, a message on stderr) every other key or value, so it is
never silently wrong:

- job: steps, cards, flop_per_step, peak_flops, efficiency, exposed_comm_s,
  input_wait_s;
- jitter: normal, cv, correlation 0 (or no jitter);
- failures: exponential per-card lifetimes (per_card_mtbf_days), unlimited
  spares, no causes (no detection delay; restores of checkpoint.restore_s);
- outages: Poisson (mean_interval_days), fixed downtime_s;
- loss_spikes: Poisson (mean_interval_days), rollback to the last commit;
- checkpoint: synchronous, interval_s or interval_steps, fixed save_s and
  restore_s;
- deadline: days, reserve_days; monte_carlo: replicas, seed, horizon_days
  (mode is accepted and ignored: this program always draws every step).
The plan-only sections (model, memory, interconnect, storage,
input_pipeline, batch, critical_batch, scale_up), which `trainmc run`
ignores (docs/reference/experiment-keys.md), are ignored here too. A key
given at its documented default value (e.g. "spares": -1) is accepted.

THE CHOICE OF SAMPLER. Each step draws the exact slowest card the way a user
would write it: every card's standard normal for every replica at once,
    rng.standard_normal((R, N)).max(axis=1)
(N = job.cards), then X_max = mu (1 + cv Z_max). It is the obvious, exact,
vectorised program (no order-statistics tables, no approximation of the
maximum's law), so it is both a check of trainmc's results and the "NumPy
reference program that draws the exact maximum per step" whose CPU time
issue 35 compares trainmc against. Its cost is R x N normals per step.

VECTORISATION. All replicas advance together: each pass of the main loop
draws one step for every replica still running (arrays of shape (R,) and
(R, N)); a replica whose step completes a segment saves in the same pass,
and one that is struck recovers in the same pass (restores struck again are
redrawn in a short loop), so every running replica is at the start of a
step at the top of the loop. The Poisson processes are memoryless, so the
time to the next arrival that can strike is drawn afresh at the start of
each phase (compute: failures, outages and spikes; save and restore:
failures and outages), which is exact for Poisson processes (arrivals in a
phase where they cannot strike are discarded, semantics 4).

Output: the mean completion T (days) with its standard error, P(T <=
deadline) and the CPU seconds (time.process_time) of the whole program;
--json prints them as JSON (to PATH, or to standard output with no PATH).
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

DAY = 86400.0


class Refused(Exception):
    pass


# ---- reading and refusing -------------------------------------------------

PLAN_ONLY = ("model", "memory", "interconnect", "storage", "input_pipeline",
             "batch", "critical_batch", "scale_up")
# Sections outside the subset: accepted only when off (null).
OFF_ONLY = ("time_limit", "elastic", "pauses", "slow_cards", "progress", "window", "cost")

# Per section: key -> ("req" | ("default", value) | "opt", check). A key that
# this program does not simulate is accepted only at its documented default
# (docs/reference/keys.md), where it changes nothing.
def _num(lo, hi, lo_open=False):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return "must be a number"
        if not math.isfinite(v) or v > hi or v < lo or (lo_open and v == lo):
            return f"must be in {'(' if lo_open else '['}{lo}, {hi}]"
        return None
    return check


def _int(lo, hi):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, int):
            return "must be an integer"
        if v < lo or v > hi:
            return f"must be in [{lo}, {hi}]"
        return None
    return check


def _str(v):
    return None if isinstance(v, str) else "must be a string"


def _only(*values):
    def check(v):
        if isinstance(v, bool) or v not in values:
            shown = []
            for x in values:  # 0 and 0.0 are one value
                if not any(x == y for y in shown):
                    shown.append(x)
            return ("is outside this program's subset (it simulates only "
                    + ", ".join(json.dumps(x) for x in shown) + ")")
        return None
    return check


SCHEMA = {
    "job": {
        "steps": ("req", _int(1, 1000000000)),
        "cards": ("req", _int(1, 10000000)),
        "flop_per_step": ("req", _num(0, 1e30, True)),
        "peak_flops": ("req", _num(0, 1e20, True)),
        "efficiency": ("req", _num(0, 1, True)),
        "exposed_comm_s": (("default", 0), _num(0, 86400)),
        "input_wait_s": (("default", 0), _num(0, 86400)),
        "pace": (("default", "observed"), _only("observed")),
    },
    "jitter": {
        "distribution": ("req", _only("normal")),
        "cv": ("req", _num(0, 2)),
        "correlation": (("default", 0), _only(0, 0.0)),
        "source": ("opt", _str),
        "description": ("opt", _str),
    },
    "failures": {
        "distribution": (("default", "exponential"), _only("exponential")),
        "per_card_mtbf_days": ("req", _num(0, 1000000000, True)),
        "spares": (("default", -1), _only(-1)),
        "renewal": (("default", "card"), _only("card")),
        "mtbf_events": (("default", 0), _only(0, 0.0)),
        "standbys": (("default", 0), _only(0)),
        "spare_provision_s": (("default", 0), _only(0, 0.0)),
        "bad_node_share": (("default", 0), _only(0, 0.0)),
        "measured_cards": ("opt", _int(1, 10000000)),  # a closed-form warning only
        "source": ("opt", _str),
        "description": ("opt", _str),
    },
    "checkpoint": {
        "interval_s": ("opt", _num(0, 1000000000, True)),
        "interval_steps": ("opt", _int(1, 1000000000)),
        "save_s": ("req", _num(0, 10000000)),
        "restore_s": ("req", _num(0, 10000000)),
        "mode": (("default", "sync"), _only("sync")),
        "write_s": (("default", 0), _only(0, 0.0)),
        "duration_law": (("default", "lognormal"), _only("lognormal")),
        "save_cv": (("default", 0), _only(0, 0.0)),
        "restore_cv": (("default", 0), _only(0, 0.0)),
        "save_timeout_s": (("default", 0), _only(0, 0.0)),
    },
    "outages": {
        "mean_interval_days": ("req", _num(0, 1000000000, True)),
        "downtime_s": (("default", 0), _num(0, 10000000)),
        "downtime_cv": (("default", 0), _only(0, 0.0)),
        "notice_s": (("default", 0), _only(0, 0.0)),
        "mtbf_events": (("default", 0), _only(0, 0.0)),
    },
    "loss_spikes": {
        "mean_interval_days": ("req", _num(0, 1000000000, True)),
        "rollback_snapshots": (("default", 1), _only(1)),
    },
    "deadline": {
        "days": ("req", _num(0, 1000000, True)),
        "reserve_days": (("default", 0), _num(0, 1000000)),
        "max_restarts": (("default", -1), _only(-1)),
    },
    "monte_carlo": {
        "replicas": (("default", 10000), _int(1, 1000000000)),
        "seed": (("default", 1), _int(0, 9007199254740991)),
        "mode": (("default", "auto"), _only("auto", "exact", "steps", "aggregated")),
        "horizon_days": (("default", 0), _num(0, 1000000000)),
    },
}
REQUIRED_SECTIONS = ("job", "checkpoint", "deadline")
FILE_SECTIONS = ("jitter", "failures")  # may name a distribution file


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise Refused(f"duplicate key \"{k}\"")
    return dict(pairs)


def _load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, object_pairs_hook=_no_duplicates)
    except OSError as e:
        raise Refused(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        raise Refused(f"{path}: not valid JSON: {e}")


def _section(name, value, base):
    if name in FILE_SECTIONS and isinstance(value, str):
        # A distribution file, relative to the file that names it.
        path = os.path.normpath(os.path.join(base, value))
        value = _load_json(path)
        if not isinstance(value, dict):
            raise Refused(f"{path}: a distribution file must be an object")
    if not isinstance(value, dict):
        raise Refused(f"{name} must be an object")
    out = {}
    schema = SCHEMA[name]
    for key, v in value.items():
        if key not in schema:
            raise Refused(f"{name}.{key} is outside this program's subset")
        need, check = schema[key]
        problem = check(v)
        if problem:
            raise Refused(f"{name}.{key} = {json.dumps(v)} {problem}")
        out[key] = v
    for key, (need, _) in schema.items():
        if key in out:
            continue
        if need == "req":
            raise Refused(f"{name}.{key} is required")
        if isinstance(need, tuple):
            out[key] = need[1]
    return out


def load_experiment(path):
    doc = _load_json(path)
    if not isinstance(doc, dict):
        raise Refused(f"{path}: an experiment must be a JSON object")
    base = os.path.dirname(os.path.abspath(path))
    exp = {}
    for key, value in doc.items():
        if key in ("name", "source"):
            if not isinstance(value, str):
                raise Refused(f"{key} must be a string")
            exp[key] = value
        elif key in PLAN_ONLY:
            continue  # read by `trainmc plan` only; `run` ignores it
        elif key in OFF_ONLY:
            if value is not None:
                raise Refused(f"{key} is outside this program's subset (only null is accepted)")
        elif key in SCHEMA:
            if value is None:
                if key in REQUIRED_SECTIONS:
                    raise Refused(f"{key} is required")
                continue  # an optional process turned off
            exp[key] = _section(key, value, base)
        else:
            raise Refused(f"{key} is outside this program's subset")
    if "name" not in exp:
        raise Refused("name is required")
    for key in REQUIRED_SECTIONS:
        if key not in exp:
            raise Refused(f"{key} is required")
    if "monte_carlo" not in exp:
        exp["monte_carlo"] = _section("monte_carlo", {}, base)
    ck = exp["checkpoint"]
    if ("interval_s" in ck) == ("interval_steps" in ck):
        raise Refused("give exactly one of checkpoint.interval_s and checkpoint.interval_steps")
    dl = exp["deadline"]
    if not dl["reserve_days"] < dl["days"]:
        raise Refused("deadline.reserve_days must be below deadline.days")
    return exp


# ---- the plan -------------------------------------------------------------

def expected_max_normal(n):
    """c_N = E[max of n standard normals], by the trapezoid rule on a fine
    grid of E[M] = int x n phi(x) Phi(x)^(n-1) dx (docs/model.md 2)."""
    if n == 1:
        return 0.0
    x = np.linspace(-12.0, 12.0, 480001)
    phi = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    erf = np.vectorize(math.erf, otypes=[float])
    cdf = 0.5 * (1.0 + erf(x / math.sqrt(2.0)))
    f = x * n * phi * cdf ** (n - 1)
    return float(np.sum((f[1:] + f[:-1]) * 0.5) * (x[1] - x[0]))


def plan(exp):
    job = exp["job"]
    S, N = job["steps"], job["cards"]
    mu = job["flop_per_step"] / (N * job["peak_flops"] * job["efficiency"])
    fixed = job["exposed_comm_s"] + job["input_wait_s"]
    cv = exp["jitter"]["cv"] if "jitter" in exp else 0.0
    c_n = expected_max_normal(N) if cv > 0 else 0.0
    # Semantics 1 says "t_s the expected step time"; semantics 11 and
    # docs/model.md 2 spell it out: mu + c_N sigma + comm + input (the fixed
    # part included), which is what `trainmc run -v` prints ("step 58.584 s"
    # on design-48-stress) and uses for K.
    t_s = mu * (1.0 + cv * c_n) + fixed
    ck = exp["checkpoint"]
    if "interval_steps" in ck:
        K = ck["interval_steps"]
    else:
        # round(): the doc does not say how a half rounds; half away from
        # zero (C's round) is taken. On design-48-stress 1800 / 58.584 =
        # 30.72, K = 31, as trainmc -v prints ("every 31 steps").
        K = max(1, int(math.floor(ck["interval_s"] / t_s + 0.5)))
    K = min(K, S)
    lam_f = N / (exp["failures"]["per_card_mtbf_days"] * DAY) if "failures" in exp else 0.0
    lam_o = 1.0 / (exp["outages"]["mean_interval_days"] * DAY) if "outages" in exp else 0.0
    lam_s = 1.0 / (exp["loss_spikes"]["mean_interval_days"] * DAY) if "loss_spikes" in exp else 0.0
    downtime = exp["outages"]["downtime_s"] if "outages" in exp else 0.0
    dl = exp["deadline"]
    # Semantics 7: the horizon is monte_carlo.horizon_days, or 1000 x the
    # uninterrupted wall time and at least twice the deadline's budget. "The
    # uninterrupted wall time" is read as S t_s + ceil(S / K) save_s, which
    # gives trainmc's censored.horizon_days on design-48-stress (21749.86).
    budget = dl["days"] - dl["reserve_days"]
    h = exp["monte_carlo"]["horizon_days"]
    if h > 0:
        horizon = h * DAY
    else:
        horizon = max(1000.0 * (S * t_s + math.ceil(S / K) * ck["save_s"]), 2.0 * budget * DAY)
    return dict(S=S, N=N, mu=mu, fixed=fixed, cv=cv, c_n=c_n, t_s=t_s, K=K,
                save=ck["save_s"], restore=ck["restore_s"], downtime=downtime,
                lam_f=lam_f, lam_o=lam_o, lam_s=lam_s, horizon=horizon,
                reserve=dl["reserve_days"], deadline=dl["days"])


# ---- the simulation -------------------------------------------------------

def simulate(p, R, seed):
    rng = np.random.default_rng(seed)
    S, N, K = p["S"], p["N"], p["K"]
    mu, cv, fixed = p["mu"], p["cv"], p["fixed"]
    save_s, restore_s, down_s = p["save"], p["restore"], p["downtime"]
    lam_f, lam_o, lam_s = p["lam_f"], p["lam_o"], p["lam_s"]
    lam_fo = lam_f + lam_o          # may strike compute, saves and restores
    lam_all = lam_fo + lam_s        # spikes strike compute only
    horizon = p["horizon"]

    def wait(rate, n):
        if rate <= 0.0:
            return np.full(n, np.inf)
        return rng.exponential(1.0 / rate, n)

    t = np.zeros(R)                      # time now
    c = np.zeros(R, dtype=np.int64)      # committed steps
    j = np.zeros(R, dtype=np.int64)      # steps done in the segment under way
    n = np.zeros(R, dtype=np.int64)      # the segment's length
    A = np.zeros(R)                      # the next arrival that strikes compute
    T = np.zeros(R)                      # wall time at the end
    running = np.ones(R, dtype=bool)
    censored = np.zeros(R, dtype=bool)
    failures = np.zeros(R, dtype=np.int64)
    outages = np.zeros(R, dtype=np.int64)
    spikes = np.zeros(R, dtype=np.int64)
    drawn = np.zeros(R, dtype=np.int64)  # steps drawn (steps_simulated)

    def finish(ids, censor):
        T[ids] = np.minimum(t[ids], horizon) if censor else t[ids]
        censored[ids] = censor
        running[ids] = False

    def new_segment(ids):
        # Semantics 3: a segment runs from the last commit to the next
        # multiple of K (or the last step).
        j[ids] = 0
        n[ids] = np.minimum((c[ids] // K + 1) * K, S) - c[ids]
        A[ids] = t[ids] + wait(lam_all, ids.size)

    def fo_kind(ids):
        # A failure or an outage struck ids; count it; an outage keeps the
        # job down for its downtime (nothing strikes then, semantics 4).
        if ids.size == 0:
            return
        is_f = rng.random(ids.size) < lam_f / lam_fo
        failures[ids[is_f]] += 1
        out = ids[~is_f]
        outages[out] += 1
        t[out] += down_s

    def recover(ids):
        # Semantics 5: restore for restore_s; a failure or outage striking
        # the restore starts the recovery again for the new arrival.
        while ids.size:
            over = t[ids] > horizon
            if over.any():
                finish(ids[over], True)
                ids = ids[~over]
            a = wait(lam_fo, ids.size)
            hit = a < restore_s
            ok = ids[~hit]
            t[ok] += restore_s
            new_segment(ok)
            ids = ids[hit]
            t[ids] += a[hit]
            fo_kind(ids)

    def save(ids):
        # Semantics 3 (sync): a save of save_s after the segment; the
        # snapshot commits when it ends; failures and outages may strike it.
        a = wait(lam_fo, ids.size)
        hit = a < save_s
        struck = ids[hit]
        t[struck] += a[hit]
        fo_kind(struck)
        ok = ids[~hit]
        t[ok] += save_s
        c[ok] += n[ok]
        done = c[ok] >= S
        finish(ok[done], False)
        rest = ok[~done]
        over = t[rest] > horizon
        finish(rest[over], True)
        new_segment(rest[~over])
        recover(struck)

    new_segment(np.arange(R))
    act = np.arange(R)
    while act.size:
        # One step for every running replica: the exact slowest card.
        z = rng.standard_normal((act.size, N)).max(axis=1)
        d = np.maximum(0.0, mu * (1.0 + cv * z)) + fixed
        end = t[act] + d
        drawn[act] += 1
        # Semantics 2: an arrival at time a cuts the first step that would
        # end after a (an arrival exactly at a step's end belongs to what
        # follows it).
        cut = end > A[act]
        ok = act[~cut]
        t[ok] = end[~cut]
        j[ok] += 1
        struck = act[cut]
        if struck.size:
            t[struck] = A[struck]
            is_spike = rng.random(struck.size) < lam_s / lam_all
            spikes[struck[is_spike]] += 1
            fo_kind(struck[~is_spike])
            recover(struck)
        seg_end = ok[j[ok] == n[ok]]
        if seg_end.size:
            save(seg_end)
        over = act[running[act] & (t[act] > horizon)]
        if over.size:
            finish(over, True)
        if seg_end.size or struck.size or over.size:
            act = np.flatnonzero(running)
    return dict(T=T, censored=censored, failures=failures, outages=outages,
                spikes=spikes, drawn=drawn)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("experiment")
    ap.add_argument("--replicas", type=int, default=None)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                    help="print the results as JSON (to PATH, or to standard output)")
    args = ap.parse_args(argv)
    try:
        exp = load_experiment(args.experiment)
        if args.replicas is not None and args.replicas < 1:
            raise Refused("--replicas must be at least 1")
        if args.seed is not None and args.seed < 0:
            raise Refused("--seed must be at least 0")
    except Refused as e:
        print(f"numpy_reference.py: {args.experiment}: {e}", file=sys.stderr)
        return 2
    R = args.replicas if args.replicas is not None else exp["monte_carlo"]["replicas"]
    seed = args.seed if args.seed is not None else exp["monte_carlo"]["seed"]
    p = plan(exp)
    r = simulate(p, R, seed)
    # trainmc reports the completion time T = reserve + wall time and
    # compares it with deadline.days (docs/reference/json-output.md), which
    # is the wall time against days - reserve_days.
    wall_days = r["T"] / DAY
    T = p["reserve"] + wall_days
    mean = float(T.mean())
    sd = float(T.std(ddof=1)) if R > 1 else 0.0
    se = sd / math.sqrt(R)
    prob = float(np.mean((T <= p["deadline"]) & ~r["censored"]))
    restarts = r["failures"] + r["outages"] + r["spikes"]
    cpu = time.process_time()
    out = {
        "experiment": exp["name"], "replicas": R, "seed": seed,
        "sampler": "rng.standard_normal((R, N)).max(axis=1) per step",
        "numpy": np.__version__,
        "plan": {"compute_s": p["mu"], "emax_coefficient": p["c_n"], "step_s": p["t_s"],
                 "interval_steps": p["K"], "horizon_days": p["horizon"] / DAY},
        "completion_days": {"mean": mean, "sd": sd, "se": se,
                            "min": float(T.min()), "max": float(T.max())},
        "deadline": {"days": p["deadline"], "budget_days": p["deadline"] - p["reserve"],
                     "probability": prob},
        "events": {"card_failures": float(r["failures"].mean()),
                   "outages": float(r["outages"].mean()),
                   "loss_spikes": float(r["spikes"].mean()),
                   "steps_simulated": float(r["drawn"].mean())},
        "restarts": {"mean": float(restarts.mean()),
                     "sd": float(restarts.std(ddof=1)) if R > 1 else 0.0},
        "censored": int(r["censored"].sum()),
        "cpu_s": cpu,
    }
    if args.json is not None:
        text = json.dumps(out, indent=2) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w") as f:
                f.write(text)
    if args.json != "-":
        print(f"numpy_reference: {exp['name']}, {R} replicas, seed {seed}, numpy {np.__version__}")
        print(f"  mu {p['mu']:.3f} s, c_N {p['c_n']:.4f}, t_s {p['t_s']:.3f} s, K = {p['K']} steps")
        print(f"  completion T (days, reserve + wall): mean {mean:.4f} +- {se:.4f} (se), sd {sd:.4f}")
        print(f"  P(T <= {p['deadline']:g} days) = {prob:.4f}   (wall time <= {p['deadline'] - p['reserve']:g} days)")
        ev = out["events"]
        print(f"  per run: card failures {ev['card_failures']:.3f}, outages {ev['outages']:.3f}, "
              f"loss spikes {ev['loss_spikes']:.3f}, steps drawn {ev['steps_simulated']:.1f}; "
              f"censored {out['censored']}")
        print(f"  CPU {cpu:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
