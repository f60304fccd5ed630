#!/usr/bin/env python3
"""An experiment built on another, "base" (issue 37 part 4; tests/CMakeLists.txt:
cli-base). Usage: check_base.py TRAINMC.

1. A child of experiments/design-48.json that overrides two keys (job.cards,
   checkpoint.interval_s) gives the same completion_days and deadline, to
   the last byte of their JSON, as design-48 run with the same two keys by
   --set; base_chain names the child, then design-48. A child giving
   checkpoint.interval_steps equals --set checkpoint.interval_steps=40 (the
   base's interval_s, its alternative, removed).
2. A chain of three files: the middle one sets two keys, the top two more
   (one inside a section the middle one also set: merged key by key, so
   the middle one's key there stays); equal to design-48 with the four
   keys by --set. --set after the merge: a key both the top file and --set
   give takes --set's value.
3. A base in another folder naming a distribution file and a failure trace
   relative to its own folder, beside a decoy of the same names in the
   child's folder (another MTBF, another trace): the child runs and equals
   the base run directly, so the names resolved against the base's folder.
4. null in a child switches off a base's process (outages): equal to the
   base with --set outages=null, and unlike the base (which has outages).
5. Refusals, each with exit status 2, no --json file written, a message
   naming the file that says "base" and the base file: a cycle (the chain
   in order), a missing base, a base that is not a string, a base with bad
   JSON (its line:column), a value out of range that came from a base
   (the chain, and which base gave it).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import cli_checks
from cli_checks import check

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DESIGN = os.path.join(REPO, "experiments", "design-48.json")
FAST = ["--set", "monte_carlo.replicas=400"]


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))


def run(binary, tmp, path, *args):
    """`trainmc run PATH --json`: the process and the document (None: none)."""
    return cli_checks.run_path(binary, tmp, path, *FAST, *args)


def numbers(doc):
    """completion_days and deadline as their JSON text: compared byte for byte."""
    return json.dumps([doc["completion_days"], doc["deadline"]], sort_keys=True)


def same(binary, tmp, what, a, b):
    """The runs a and b ((path, args...) each) both ran and gave the same numbers."""
    (pa, da), (pb, db) = run(binary, tmp, *a), run(binary, tmp, *b)
    check(da is not None, f"{what}: {a[0]} wrote no result: {pa.stderr.strip()}")
    check(db is not None, f"{what}: {b[0]} wrote no result: {pb.stderr.strip()}")
    if da is not None and db is not None:
        check(numbers(da) == numbers(db),
              f"{what}: {a[0]} gives T {da['completion_days']['mean']}, "
              f"{b[0]} {db['completion_days']['mean']}")
    return da, db


def two_keys(binary, tmp):
    child = os.path.join(tmp, "two", "child.json")
    write(child, {"base": DESIGN, "name": "child", "job": {"cards": 64},
                  "checkpoint": {"interval_s": 1200}})
    da, _ = same(binary, tmp, "two keys", (child,),
                 (DESIGN, "--set", "job.cards=64", "--set", "checkpoint.interval_s=1200"))
    if da is not None:
        check(da["base_chain"] == [child, DESIGN], f"two keys: base_chain {da['base_chain']}")
        check(da["inputs"]["job"]["cards"] == 64 and
              da["inputs"]["job"]["steps"] == 31790 and
              da["inputs"]["checkpoint"]["save_s"] == 16.38,
              f"two keys: inputs {da['inputs']['job']}, {da['inputs']['checkpoint']}")
    # an alternative key (interval_steps) removes the base's (interval_s), as --set does
    alt = os.path.join(tmp, "two", "steps.json")
    write(alt, {"base": DESIGN, "checkpoint": {"interval_steps": 40}})
    same(binary, tmp, "alternative key", (alt,), (DESIGN, "--set", "checkpoint.interval_steps=40"))
    _, plain = run(binary, tmp, DESIGN)
    if da is not None and plain is not None:  # else the comparison above says nothing
        check(numbers(da) != numbers(plain), "two keys: the child equals design-48 unchanged")


def chain_of_three(binary, tmp):
    # the middle file names design-48 relatively, from its own folder
    mid = os.path.join(tmp, "three", "lib", "mid.json")
    top = os.path.join(tmp, "three", "top.json")
    write(mid, {"base": os.path.relpath(DESIGN, os.path.dirname(mid)),
                "job": {"cards": 64}, "checkpoint": {"interval_s": 1200}})
    write(top, {"base": "lib/mid.json", "name": "top",
                "checkpoint": {"save_s": 30}, "deadline": {"days": 25}})
    sets = ["--set", "job.cards=64", "--set", "checkpoint.interval_s=1200",
            "--set", "checkpoint.save_s=30", "--set", "deadline.days=25"]
    da, _ = same(binary, tmp, "chain of three", (top,), (DESIGN, *sets))
    if da is not None:
        check(len(da["base_chain"]) == 3 and da["base_chain"][1].endswith("lib/mid.json"),
              f"chain of three: base_chain {da['base_chain']}")
        check(da["inputs"]["checkpoint"]["interval_s"] == 1200,
              f"chain of three: interval_s {da['inputs']['checkpoint']['interval_s']}")
    same(binary, tmp, "--set after the merge", (top, "--set", "deadline.days=20"),
         (DESIGN, *sets, "--set", "deadline.days=20"))


TRACE = "time_days\n{}\n"


def relative_files(binary, tmp):
    base_dir = os.path.join(tmp, "rel", "lib", "bases")
    base, child = os.path.join(base_dir, "b.json"), os.path.join(tmp, "rel", "c.json")
    os.makedirs(base_dir)
    shutil.copy(os.path.join(REPO, "distributions", "failures", "exponential-337d.json"),
                os.path.join(base_dir, "f.json"))
    write(os.path.join(base_dir, "spikes.csv"), "time_days\n2\n7.5\n11\n")
    # decoys where the names would land if read from the child's folder
    write(os.path.join(tmp, "rel", "f.json"),
          {"source": "decoy", "distribution": "exponential", "per_card_mtbf_days": 30})
    write(os.path.join(tmp, "rel", "spikes.csv"), "time_days\n1\n")
    with open(DESIGN) as f:
        doc = json.load(f)
    for plan in ("model", "memory", "interconnect", "storage", "input_pipeline", "batch",
                 "critical_batch", "scale_up"):
        doc.pop(plan, None)  # the plan's sections: model names a file of experiments/
    doc["failures"] = "f.json"
    doc["loss_spikes"] = {"trace": "spikes.csv"}
    write(base, doc)
    write(child, {"base": "lib/bases/b.json", "name": "child"})
    da, db = same(binary, tmp, "relative files", (child,), (base,))
    if da is not None:
        # the base's trace has 3 times (one may strike a save and pass by), the decoy 1
        check(da["events"]["loss_spikes"] > 1,
              f"relative files: {da['events']['loss_spikes']} loss spikes a run, the "
              "decoy's count")


def null_switches_off(binary, tmp):
    outages = os.path.join(REPO, "experiments", "design-48-outages.json")
    child = os.path.join(tmp, "null", "c.json")
    write(child, {"base": outages, "outages": None})
    da, _ = same(binary, tmp, "null", (child,), (outages, "--set", "outages=null"))
    _, on = run(binary, tmp, outages)
    if da is not None and on is not None:
        check(on["events"]["outages"] > 0 and da["events"]["outages"] == 0,
              f"null: outages {on['events']['outages']} in the base, "
              f"{da['events']['outages']} in the child")
        check(da["inputs"]["outages"] is None, f"null: inputs {da['inputs']['outages']}")


def refused(binary, tmp, what, path, patterns):
    p, doc = run(binary, tmp, path)
    check(p.returncode == 2, f"{what}: exit {p.returncode}, expected 2")
    check(doc is None and not os.path.exists(os.path.join(tmp, "out.json")),
          f"{what}: a result was written")
    for pat in patterns:
        check(re.search(pat, p.stderr), f"{what}: {pat!r} not in {p.stderr.strip()!r}")


def refusals(binary, tmp):
    d = os.path.join(tmp, "bad")
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    write(a, {"base": "b.json", "name": "a"})
    write(b, {"base": "./a.json", "name": "b"})
    q = re.escape
    refused(binary, tmp, "cycle", a,
            [rf"^trainmc: {q(b)}: base: cycle {q(a)} -> {q(b)} -> {q(d)}/\./a\.json$"])
    m = os.path.join(d, "m.json")
    write(m, {"base": "missing.json", "name": "m"})
    refused(binary, tmp, "missing", m, [rf"^trainmc: {q(m)}: base: {q(d)}/missing\.json: "
                                        "cannot open"])
    n = os.path.join(d, "n.json")
    write(n, {"base": ["b.json"], "name": "n"})
    refused(binary, tmp, "not a string", n, [rf"^trainmc: {q(n)}: base: expected a string"
                                             ".*got an array"])
    j, bad = os.path.join(d, "j.json"), os.path.join(d, "broken.json")
    write(bad, '{"name": "x",\n  "job": {"cards": 48,}\n}\n')
    write(j, {"base": "broken.json", "name": "j"})
    refused(binary, tmp, "bad JSON", j, [rf"^trainmc: {q(j)}: base: {q(bad)}:2:\d+: invalid JSON"])
    v, mid = os.path.join(d, "v.json"), os.path.join(d, "mid.json")
    write(mid, {"base": DESIGN, "job": {"cards": 0}})
    write(v, {"base": "mid.json", "name": "v"})
    refused(binary, tmp, "from a base", v,
            [rf"^trainmc: {q(v)} \(base {q(mid)}, {q(DESIGN)}\): job\.cards \(from {q(mid)}\): "
             r"0 is out of range"])


def main():
    binary = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="check_base.")
    try:
        two_keys(binary, tmp)
        chain_of_three(binary, tmp)
        relative_files(binary, tmp)
        null_switches_off(binary, tmp)
        refusals(binary, tmp)
    finally:
        shutil.rmtree(tmp)
    return cli_checks.finish("check_base")


if __name__ == "__main__":
    sys.exit(main())
