#!/usr/bin/env python3
"""check_numpy_reference.py - trainmc against the independent NumPy reference
(reports/tools/numpy_reference.py, issue 35).

usage: check_numpy_reference.py agree TRAINMC PYTHON SOURCE_DIR [MODE] [REPLICAS]
       check_numpy_reference.py refuse PYTHON SOURCE_DIR

agree (cli-numpy-reference, slow): experiments/design-48-stress.json run by
  `trainmc run -n REPLICAS --set monte_carlo.mode="MODE"` (seed 7) and by the
  NumPy reference (seed 11, PYTHON must have numpy), REPLICAS 2,000 and MODE
  segments unless given. Two estimators, each a mean over independent replicas:
  - the completion time T (days, reserve + wall): mean, its standard error
    sd / sqrt(n) from each side;
  - the restarts per run (card failures + outages + loss spikes): mean, and
    se = sd / sqrt(n).
  Each difference must lie within 4 combined standard errors,
  |m1 - m2| <= 4 sqrt(se1^2 + se2^2) (a false alarm about 6e-5 per estimator
  when both simulate the same law; the seeds are fixed, so the outcome is
  reproducible). Both must also derive the same K (closed_form.interval_steps).
refuse (cli-numpy-reference-refuse): the reference exits 2 with a message
  and no output on standard output for keys and values outside its subset
  (an unknown key, a section it does not simulate, a non-default value of a
  key it does not simulate, a distribution it does not draw, a missing
  required key), and accepts design-48-stress's own keys (checked with
  --replicas 1, a fast run).
Exit 0 when every check passes, 1 otherwise, 2 on a usage error.
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def run_reference(python, source, exp, replicas, seed, env=None):
    tool = os.path.join(source, "reports", "tools", "numpy_reference.py")
    out = subprocess.run([python, tool, exp, "--replicas", str(replicas), "--seed", str(seed),
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    return out


def agree(argv):
    if len(argv) < 3 or len(argv) > 5:
        print(__doc__, file=sys.stderr)
        return 2
    trainmc, python, source = argv[:3]
    mode = argv[3] if len(argv) > 3 else "segments"
    replicas = int(argv[4]) if len(argv) > 4 else 2000
    exp = os.path.join(source, "experiments", "design-48-stress.json")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        jpath = os.path.join(tmp, "trainmc.json")
        r = subprocess.run([trainmc, "run", exp, "-n", str(replicas), "-q", "--seed", "7",
                            "--json", jpath, "--set", f'monte_carlo.mode="{mode}"'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print(f"trainmc run failed ({r.returncode}): {r.stderr}", file=sys.stderr)
            return 1
        with open(jpath) as f:
            tm = json.load(f)
    ref = run_reference(python, source, exp, replicas, 11, env)
    if ref.returncode != 0:
        print(f"numpy_reference.py failed ({ref.returncode}): {ref.stderr}", file=sys.stderr)
        return 1
    np_ = json.loads(ref.stdout)
    status = 0
    k_tm, k_np = tm["closed_form"]["interval_steps"], np_["plan"]["interval_steps"]
    print(f"K: trainmc {k_tm}, numpy reference {k_np}")
    if k_tm != k_np:
        print("FAIL: the interval K differs", file=sys.stderr)
        status = 1
    n_tm, n_np = tm["replicas"], np_["replicas"]
    rows = [
        ("completion T (days)", tm["completion_days"]["mean"], tm["completion_days"]["se"],
         np_["completion_days"]["mean"], np_["completion_days"]["se"]),
        ("restarts per run", tm["restarts"]["mean"], tm["restarts"]["sd"] / math.sqrt(n_tm),
         np_["restarts"]["mean"], np_["restarts"]["sd"] / math.sqrt(n_np)),
    ]
    print(f"trainmc mode {tm['mode']} ({n_tm} replicas, seed 7) against the NumPy reference "
          f"({n_np} replicas, seed 11); tolerance 4 combined standard errors")
    for name, m1, s1, m2, s2 in rows:
        comb = math.sqrt(s1 * s1 + s2 * s2)
        z = (m1 - m2) / comb if comb > 0 else (0.0 if m1 == m2 else math.inf)
        ok = abs(z) <= 4.0
        print(f"  {name}: trainmc {m1:.5f} +- {s1:.5f}, numpy {m2:.5f} +- {s2:.5f}, "
              f"z = {z:+.2f} {'ok' if ok else 'FAIL'}")
        if not ok:
            status = 1
    return status


def refuse(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    python, source = argv
    exp_path = os.path.join(source, "experiments", "design-48-stress.json")
    with open(exp_path) as f:
        base = json.load(f)
    # design-48-stress names its distribution files relative to experiments/;
    # the edited copies in a temporary folder name them by absolute path.
    for key in ("jitter", "failures"):
        if isinstance(base.get(key), str):
            base[key] = os.path.normpath(os.path.join(source, "experiments", base[key]))

    def edited(change):
        doc = json.loads(json.dumps(base))
        change(doc)
        return doc

    def inline(key):
        def change(doc):
            with open(doc[key]) as f:
                doc[key] = json.load(f)
        return change

    def chain(*changes):
        def change(doc):
            for c in changes:
                c(doc)
        return change

    cases = [
        ("an unknown top-level key", lambda d: d.__setitem__("stragglers", {})),
        ("a typo in job", lambda d: d["job"].__setitem__("card", 48)),
        ("pauses, not simulated", lambda d: d.__setitem__(
            "pauses", {"every_steps": 100, "duration_s": 5, "cards": "all"})),
        ("slow cards, not simulated", lambda d: d.__setitem__(
            "slow_cards", {"fraction": 0.01, "factor": 1.2})),
        ("a pool of spares", chain(inline("failures"),
                                   lambda d: d["failures"].__setitem__("spares", 8))),
        ("correlated jitter", chain(inline("jitter"),
                                    lambda d: d["jitter"].__setitem__("correlation", 0.5))),
        ("lognormal jitter", chain(inline("jitter"),
                                   lambda d: d["jitter"].__setitem__("distribution", "lognormal"))),
        ("Weibull lifetimes", chain(inline("failures"),
                                    lambda d: d["failures"].__setitem__("distribution", "weibull"))),
        ("asynchronous saves", lambda d: d["checkpoint"].__setitem__("mode", "async")),
        ("a spike rollback of 2", lambda d: d["loss_spikes"].__setitem__("rollback_snapshots", 2)),
        ("outages with notice", lambda d: d["outages"].__setitem__("notice_s", 600)),
        ("a restart budget", lambda d: d["deadline"].__setitem__("max_restarts", 40)),
        ("a missing save_s", lambda d: d["checkpoint"].pop("save_s")),
        ("both intervals", lambda d: d["checkpoint"].__setitem__("interval_steps", 31)),
        ("a string for a number", lambda d: d["job"].__setitem__("steps", "31790")),
    ]
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, change in cases:
            path = os.path.join(tmp, "case.json")
            with open(path, "w") as f:
                json.dump(edited(change), f)
            r = run_reference(python, source, path, 1, 1)
            if r.returncode != 2 or r.stdout or "numpy_reference.py:" not in r.stderr:
                print(f"FAIL {name}: exit {r.returncode}, stdout {r.stdout[:80]!r}, "
                      f"stderr {r.stderr.strip()[:200]!r}", file=sys.stderr)
                status = 1
            else:
                print(f"refused, exit 2: {name}: {r.stderr.strip()}")
        # The file itself, with its plan-only sections and relative
        # distribution files, is accepted.
        r = run_reference(python, source, exp_path, 1, 1)
        if r.returncode != 0:
            print(f"FAIL design-48-stress itself: exit {r.returncode}: {r.stderr.strip()}",
                  file=sys.stderr)
            status = 1
        else:
            print("accepted: design-48-stress.json itself")
    return status


def main(argv):
    if len(argv) >= 2 and argv[1] == "agree":
        return agree(argv[2:])
    if len(argv) >= 2 and argv[1] == "refuse":
        return refuse(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
