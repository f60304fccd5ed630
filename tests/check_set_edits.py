#!/usr/bin/env python3
"""cli-set-edits: `--set` against an edited copy of the experiment file.

Each case runs `trainmc run BASE --set ...` and `trainmc run EDITED`, where
EDITED is BASE changed by hand here (json, not trainmc) the way the overrides
say: one entry of a list (failures.causes[i]), a key removed (null), a list
entry removed, a key of an exclusive pair switched (the other removed), a
key the file does not have removed (nothing changes, nothing is made). The
same seed must give the same --json document but for the file's path and the
overrides list; the validated experiment written back ("inputs") is part of
what must agree, and must differ from BASE's, so a --set that did nothing
fails. The switch cases must also list the removal they implied.

Usage: check_set_edits.py TRAINMC EXPERIMENTS_DIR
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

RUN = ["--replicas", "200", "--seed", "11", "--quiet"]


def run(bin_, path, sets, out):
    args = [bin_, "run", path, *RUN, "--json", out]
    for s in sets:
        args += ["--set", s]
    r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {r.returncode}: {r.stderr}")
    with open(out) as f:
        return json.load(f)


def without_path(doc):
    return {k: v for k, v in doc.items()
            if k not in ("experiment_path", "base_chain", "overrides")}


def edit_causes(x):
    x["failures"]["causes"][1]["detection_s"] = 600


def drop_cause_and_reshare(x):
    causes = x["failures"]["causes"]
    del causes[1]  # the software hang's share 0.129 goes to the next, now [1]
    causes[1]["share"] = 0.205


def replace_first_cause(x):
    x["failures"]["causes"][0] = {"name": "GPU", "share": 0.559, "detection_s": 90}


def drop_takes_spare(x):
    del x["failures"]["causes"][1]["takes_spare"]  # default: true


def interval_steps(x):
    del x["checkpoint"]["interval_s"]
    x["checkpoint"]["interval_steps"] = 40


def spikes_trace(x):
    del x["loss_spikes"]["mean_interval_days"]
    x["loss_spikes"]["trace"] = "spikes.csv"


def outage_mean(x):
    del x["outages"]["trace"]
    x["outages"]["mean_interval_days"] = 3


def nothing(x):
    pass


# (name, base edits, overrides, hand edit, overrides the run must list)
CASES = [
    ("cause field", nothing, ["failures.causes[1].detection_s=600"], edit_causes, None),
    ("cause removed", nothing, ["failures.causes[1]=null", "failures.causes[1].share=0.205"],
     drop_cause_and_reshare, None),
    ("cause replaced", nothing,
     ['failures.causes[0]={"name":"GPU","share":0.559,"detection_s":90}'],
     replace_first_cause, None),
    ("key removed", nothing, ["failures.causes[1].takes_spare=null"], drop_takes_spare, None),
    ("interval switched", nothing, ["checkpoint.interval_steps=40"], interval_steps,
     ["checkpoint.interval_steps=40", "checkpoint.interval_s=null"]),
    ("spikes to a trace", lambda x: x.update(loss_spikes={"mean_interval_days": 2}),
     ["loss_spikes.trace=spikes.csv"], spikes_trace,
     ["loss_spikes.trace=spikes.csv", "loss_spikes.mean_interval_days=null"]),
    ("outages to a mean", lambda x: x.update(outages={"trace": "spikes.csv",
                                                      "downtime_s": 3600}),
     ["outages.mean_interval_days=3"], outage_mean,
     ["outages.mean_interval_days=3", "outages.trace=null"]),
    ("absent key removed", nothing, ["pauses.every_steps=null", "checkpoint.write_s=null"],
     nothing, None),
]


def check_case(bin_, dir_, source, case):
    name, base_edit, sets, edit, listed = case
    base = copy.deepcopy(source)
    base_edit(base)
    edited = copy.deepcopy(base)
    edit(edited)
    paths = {}
    for tag, doc in (("base", base), ("edited", edited)):
        paths[tag] = os.path.join(dir_, f"{tag}.json")
        with open(paths[tag], "w") as f:
            json.dump(doc, f, indent=1)
    via_set = run(bin_, paths["base"], sets, os.path.join(dir_, "set.json"))
    by_hand = run(bin_, paths["edited"], [], os.path.join(dir_, "hand.json"))
    plain = run(bin_, paths["base"], [], os.path.join(dir_, "plain.json"))
    errors = []
    if without_path(via_set) != without_path(by_hand):
        diff = [k for k in via_set if via_set.get(k) != by_hand.get(k)]
        errors.append(f"{name}: --set {sets} and the edited file differ in {diff}")
    if edit is not nothing and plain["inputs"] == by_hand["inputs"]:
        errors.append(f"{name}: the edit changed nothing; the case proves nothing")
    expected = (listed or sets) + ["monte_carlo.replicas=200", "monte_carlo.seed=11"]
    if via_set["overrides"] != expected:
        errors.append(f"{name}: overrides listed {via_set['overrides']}, expected {expected}")
    return errors


def main():
    bin_, experiments = sys.argv[1], sys.argv[2]
    with open(os.path.join(experiments, "causes-hang-vs-hardware.json")) as f:
        source = json.load(f)
    errors = []
    with tempfile.TemporaryDirectory() as dir_:
        with open(os.path.join(dir_, "spikes.csv"), "w") as f:
            f.write("time_days\n1.5\n4\n9.25\n")
        for case in CASES:
            errors += check_case(bin_, dir_, source, case)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(CASES) - len({e.split(':')[0] for e in errors})} of {len(CASES)} cases agree")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
