"""What the CLI checks (tests/check_*.py) share: the failures they collect,
one `trainmc run` of an experiment written into a temporary folder and read
back from its --json, and the summary that ends a check."""
import csv
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


def batch_means(binary, tmp, experiment, batches, replicas, quantities):
    """`trainmc run experiment` at seeds 1..batches of `replicas` replicas
    each (one thread): the mean of quantities(--json document)'s values
    over the batches and its standard error, the batch means' sd /
    sqrt(batches), as {name: (mean, se)}; None after recording a failure."""
    rows = []
    out = os.path.join(tmp, "out.json")
    for seed in range(1, batches + 1):
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.run([binary, "run", experiment, "--quiet", "--threads", "1",
                            "--replicas", str(replicas), "--seed", str(seed), "--json", out],
                           capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(out):
            check(False, f"{experiment}: exit {p.returncode}, {p.stderr!r}")
            return None
        with open(out) as f:
            rows.append(quantities(json.load(f)))
    res = {}
    for k in rows[0]:
        xs = [b[k] for b in rows]
        m = sum(xs) / batches
        sd = (sum((x - m) ** 2 for x in xs) / (batches - 1)) ** 0.5
        res[k] = (m, sd / batches ** 0.5)
    return res


def read_peer_table(path):
    """A stored peer's figures (tests/peers/*.csv): its rows as dicts, the
    comment lines (#) left out."""
    with open(path) as f:
        rows = [line for line in f if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(rows))


def peer_rows(rows, src, label, run, tol, digits, note=None):
    """Each stored peer row whose experiment trainmc runs (run(path): its
    {quantity: (mean, se)}, once per experiment, or None on a refusal)
    through peer_row; label: the row's column that names it; note: the
    line for a row not checked (default: the row's own note)."""
    done = {}
    for r in rows:
        exp = os.path.join(src, r["experiment"])
        if exp not in done:
            done[exp] = run(exp)
        t = done[exp]
        if t is None:
            continue
        q = r["quantity"]
        check(q in t, f"{r[label]}: unknown quantity {q}")
        if q in t:
            peer_row(r[label], q, (float(r["peer_mean"]), float(r["peer_se"])), t[q],
                     r["compare"] == "yes", note or r["note"], tol, digits)


def peer_row(label, quantity, peer, got, compare, note, tol, digits):
    """One stored peer figure (peer: mean, se) against trainmc's (got: mean,
    se): the line printed, and when compare a failure recorded beyond tol
    combined standard errors."""
    pm, pse = peer
    tm, tse = got
    se = (pse ** 2 + tse ** 2) ** 0.5
    z = (tm - pm) / se if se > 0 else (0.0 if tm == pm else float("inf"))
    flag = "" if compare else f"  (not checked: {note})"
    print(f"{label:24s} {quantity:20s} peer {pm:11.{digits}f} +- {pse:.{digits}f}  "
          f"trainmc {tm:11.{digits}f} +- {tse:.{digits}f}  z {z:+6.2f}{flag}")
    if compare:
        check(abs(z) <= tol, f"{label} {quantity}: trainmc {tm:.{digits}f} +- {tse:.{digits}f} "
              f"against the peer's {pm:.{digits}f} +- {pse:.{digits}f}: {z:+.2f} se")
