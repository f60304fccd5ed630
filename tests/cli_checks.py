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
    x, out = os.path.join(tmp, "x.json"), os.path.join(tmp, "out.json")
    with open(x, "w") as f:
        json.dump(experiment, f)
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([binary, "run", x, "--quiet", "--json", out, *args],
                       capture_output=True, text=True)
    doc = None
    if os.path.exists(out):
        with open(out) as f:
            doc = json.load(f)
    return p, doc


def finish(name):
    """Print the failures and a count; the exit status: 1 if any."""
    for f in failures:
        print("FAIL:", f)
    print(f"{name}: {len(failures)} failure(s)")
    return 1 if failures else 0
