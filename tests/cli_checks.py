"""What the CLI checks (tests/check_*.py) share: the failures they collect,
one `trainmc run` of an experiment written into a temporary folder and read
back from its --json, and the summary that ends a check."""
import json
import os
import subprocess

failures = []


def check(ok, what):
    """Record `what` as a failure when `ok` is false."""
    if not ok:
        failures.append(what)


def run_json(binary, tmp, experiment, *args):
    """`trainmc run` of the dict `experiment` (as tmp/x.json) with `args`:
    the completed process and the --json document, or None when the run
    wrote none (a refusal)."""
    x = os.path.join(tmp, "x.json")
    with open(x, "w") as f:
        json.dump(experiment, f)
    return run_path(binary, tmp, x, *args)


def run_path(binary, tmp, path, *args):
    """`trainmc run` of the experiment file `path` with `args`, as run_json."""
    out = os.path.join(tmp, "out.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([binary, "run", path, "--quiet", "--json", out, *args],
                       capture_output=True, text=True)
    doc = None
    if os.path.exists(out):
        with open(out) as f:
            doc = json.load(f)
    return p, doc


def samples(binary, tmp, experiment, *args):
    """run_json with --samples: the document (None on a refusal, recorded as
    a failure) and the replicas' rows as dicts of floats."""
    path = os.path.join(tmp, "samples.csv")
    p, doc = run_json(binary, tmp, experiment, "--samples", path, *args)
    if doc is None:
        check(False, f"run: exit {p.returncode}, {p.stderr!r}")
        return None, []
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [dict(zip(header, map(float, line.split(",")))) for line in f]
    return doc, rows


def finish(name):
    """Print the failures and a count; the exit status: 1 if any."""
    for f in failures:
        print("FAIL:", f)
    print(f"{name}: {len(failures)} failure(s)")
    return 1 if failures else 0
