#!/usr/bin/env python3
"""`trainmc run --progress` and `trainmc forecast --history` (issue 18)
(tests/CMakeLists.txt: cli-forecast-history). Usage: check_forecast.py TRAINMC
[REPO].

The experiment is the reference design on 48 cards with failures.mtbf_events
20 and 2 spares (docs/model.md 1), few replicas. Checked:
  (a) every snapshot of a history is forecast exactly as `trainmc run
      --progress LINEFILE` forecasts it alone (the same engine, replicas and
      seed): P(deadline), its interval, mean T and its se are equal, not
      close; the change column is the difference of successive P; the SVG
      has a point per snapshot;
  (b) bad input - a line with an unknown key, committed_step > steps_done, a
      line that is not an object, a missing file - exits 2 with "FILE:LINE"
      (the file alone when it is missing) and writes neither --json nor
      --plot;
  (c) `run --progress FILE` equals the same object inside the experiment
      (every figure, the forecast block, the inputs written back), and the
      result names the file among its overrides;
  (d) the example history experiments/forecast-history-design-48.jsonl is
      accepted, and its day-9 line forecasts exactly as the experiment
      experiments/forecast-design-48-day9.json, whose progress it is."""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = sys.argv[1]
REPO = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..")
REPLICAS = "300"

EXPERIMENT = {
    "name": "forecast-check",
    "source": "tests/check_forecast.py: docs/model.md 1, the reference design",
    "job": {"steps": 31790, "cards": 48, "flop_per_step": 1.655e17, "peak_flops": 165.2e12,
            "efficiency": 0.40, "exposed_comm_s": 0.08, "input_wait_s": 0.5},
    "jitter": {"distribution": "normal", "cv": 0.05},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": 337,
                 "mtbf_events": 20, "spares": 2, "repair_mean_hours": 48},
    "checkpoint": {"interval_s": 1800, "save_s": 16.38, "restore_s": 120},
    "deadline": {"days": 28, "reserve_days": 5},
    "monte_carlo": {"replicas": 1000, "seed": 7},
}
HISTORY = [
    {"elapsed_days": 0, "steps_done": 0, "committed_step": 0},
    {"elapsed_days": 4, "steps_done": 5200, "committed_step": 5177, "failures": 2,
     "step_s": 58.6},
    {"elapsed_days": 9, "steps_done": 11700, "committed_step": 11687, "failures": 3,
     "cards_in_repair": 1},
    {"elapsed_days": 12.5, "steps_done": 16000, "committed_step": 15996, "failures": 6},
]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def trainmc(*args):
    return subprocess.run([BIN, *args, "--quiet", "--threads", "2"], capture_output=True,
                          text=True)


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def answer_first(out, doc, run, what):
    """Issue 32: after the heading (up to its first blank line) the answer at
    the latest snapshot, from the JSON's last snapshot (P, its interval, its
    change since the one before, mean T, days left), then the assumptions:
    those of `trainmc run --progress` at that snapshot (run: its JSON)."""
    lines = out.split("\n")
    body = lines[lines.index("") + 1:]
    last, snaps = doc["snapshots"][-1], doc["snapshots"]
    pr, d = last["progress"], last["deadline"]
    want = (f"Answer: at the latest snapshot (line {last['line']}, day {pr['elapsed_days']:.3f}, "
            f"step {pr['steps_done']}): P(T <= {doc['deadline']['days']:g} days) "
            f"{d['probability']:.4f} [{d['ci95'][0]:.4f}, {d['ci95'][1]:.4f}], ")
    if len(snaps) > 1:
        want += (f"{last['change']['probability']:+.4f} +- {last['change']['se']:.4f} since line "
                 f"{snaps[-2]['line']}")
    else:
        want += "the only snapshot"
    want += (f"; mean T {last['completion_days']['mean']:.4f} +- "
             f"{last['completion_days']['se']:.4f} days, {last['days_left']['mean']:.4f} left")
    check(body[0] == want, f"{what}: answer {body[0]!r}, from the JSON {want!r}")
    exp = [f"{'Stated' if a['stated'] else 'Default'}, optimistic: {a['why']} (set {a['key']}, now {a['value']})"
           for a in run["assumed"]]
    n = len(exp)
    check(body[1:1 + n] == exp and body[1 + n] == "" and doc["assumed"] == run["assumed"],
          f"{what}: assumptions {body[1:1 + n]} != run's {exp}")
    check(out.count(", optimistic:") == n, f"{what}: the assumptions more than once")


def check_history(tmp, exp):
    """(a): the history against one `run --progress` per snapshot."""
    hist, out, svg = (os.path.join(tmp, n) for n in ("h.jsonl", "h.json", "h.svg"))
    # blank lines are skipped, CRLF accepted: line numbers still count them
    write(hist, "\n".join(json.dumps(s) for s in HISTORY[:2]) + "\n\n" +
          "\r\n".join(json.dumps(s) for s in HISTORY[2:]) + "\n")
    p = trainmc("forecast", exp, "--history", hist, "--json", out, "--plot", svg,
                "--replicas", REPLICAS)
    check(p.returncode == 0, f"forecast: exit {p.returncode}: {p.stderr}")
    doc = load(out)
    if not doc:
        return check(False, "forecast: no --json written")
    snaps = doc["snapshots"]
    check([s["line"] for s in snaps] == [1, 2, 4, 5], f"lines {[s['line'] for s in snaps]}")
    check(doc["seed"] == 7 and doc["replicas"] == int(REPLICAS), "replicas and seed")
    for i, (s, given) in enumerate(zip(snaps, HISTORY)):
        line = os.path.join(tmp, f"line{i}.json")
        write(line, json.dumps(given))
        single = os.path.join(tmp, f"line{i}.out.json")
        q = trainmc("run", exp, "--progress", line, "--json", single, "--replicas", REPLICAS)
        r = load(single)
        check(q.returncode == 0 and r, f"run --progress line {s['line']}: {q.stderr}")
        if not r:
            continue
        check(s["deadline"]["probability"] == r["deadline"]["probability"] and
              s["deadline"]["ci95"] == r["deadline"]["ci95"],
              f"line {s['line']}: P {s['deadline']} != run's {r['deadline']}")
        check(s["completion_days"]["mean"] == r["completion_days"]["mean"] and
              s["completion_days"]["se"] == r["completion_days"]["se"],
              f"line {s['line']}: mean T {s['completion_days']} != run's "
              f"{r['completion_days']['mean']}")
        check(s["days_left"]["mean"] == r["forecast"]["days_left"]["mean"],
              f"line {s['line']}: days left {s['days_left']} != run's "
              f"{r['forecast']['days_left']}")
        check(all(s["progress"][k] == v for k, v in given.items()), f"line {s['line']}: state")
        # the pace each row ran at is the run's (issue 32 item 4): the
        # observed step where the snapshot gives one, the plan's elsewhere
        want_pace = "observed" if given.get("step_s") else "plan"
        check(s["pace"]["used"] == r["forecast"]["pace"]["used"] == want_pace and
              s["pace"]["step_s"] == r["forecast"]["pace"]["step_s"],
              f"line {s['line']}: pace {s['pace']} != run's {r['forecast']['pace']}")
        prev = snaps[i - 1]["deadline"]["probability"] if i else None
        want = None if prev is None else s["deadline"]["probability"] - prev
        got = s["change"] and s["change"]["probability"]
        check(got == want, f"line {s['line']}: change {got}, expected {want}")
    try:
        points = [e for e in ET.parse(svg).getroot().iter() if e.get("class") == "snapshot"]
        check(len(points) == len(HISTORY), f"svg: {len(points)} snapshots")
    except (OSError, ET.ParseError) as e:
        check(False, f"svg: {e}")
    check("change in P" in p.stdout and p.stdout.count("\n") >= len(HISTORY) + 4,
          f"text: {p.stdout}")
    if r:
        answer_first(p.stdout, doc, r, "history")


BAD = {  # name: (lines, the line the message must name)
    "bad-key": ([HISTORY[0], {**HISTORY[1], "failurs": 1}], 2),
    "commit-after-step": ([HISTORY[0], HISTORY[1], {**HISTORY[2], "committed_step": 11701}],
                          3),
    "not-object": ([HISTORY[0], [4, 5200, 5177]], 2),
}


def check_bad(tmp, exp):
    """(b): each bad history exits 2 naming FILE:LINE, writing nothing."""
    out, svg = os.path.join(tmp, "bad.json"), os.path.join(tmp, "bad.svg")
    cases = {name: (os.path.join(tmp, name + ".jsonl"), line)
             for name, (lines, line) in BAD.items()}
    for name, (lines, _) in BAD.items():
        write(cases[name][0], "".join(json.dumps(x) + "\n" for x in lines))
    cases["missing"] = (os.path.join(tmp, "no-such-history.jsonl"), None)
    for name, (hist, line) in cases.items():
        p = trainmc("forecast", exp, "--history", hist, "--json", out, "--plot", svg)
        where = f"{hist}:{line}: " if line else f"{hist}: "
        check(p.returncode == 2, f"{name}: exit {p.returncode}, expected 2")
        check(where in p.stderr, f"{name}: '{where}' not in: {p.stderr}")
        left = [f for f in os.listdir(tmp) if f.startswith("bad.") or ".tmp" in f]
        check(not left, f"{name}: output files left: {left}")


def check_progress_file(tmp, exp_path):
    """(c): --progress FILE against the same object inside the experiment."""
    state = HISTORY[2]
    inside = os.path.join(tmp, "inside.json")
    write(inside, json.dumps({**EXPERIMENT, "progress": state}))
    pfile = os.path.join(tmp, "progress.json")
    write(pfile, json.dumps(state, indent=1))
    a_out, b_out = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    a = trainmc("run", inside, "--json", a_out, "--replicas", REPLICAS)
    b = trainmc("run", exp_path, "--progress", pfile, "--json", b_out, "--replicas", REPLICAS)
    check(a.returncode == 0 and b.returncode == 0, f"run: {a.stderr} {b.stderr}")
    ra, rb = load(a_out), load(b_out)
    if not (ra and rb):
        return check(False, "run --progress: no --json written")
    for key in ("completion_days", "deadline", "forecast", "events", "inputs", "overhead"):
        check(ra.get(key) == rb.get(key), f"--progress: '{key}' differs from the section")
    check(f"progress=@{pfile}" in rb["overrides"], f"overrides {rb['overrides']}")
    # a progress file replaces the experiment's section, it does not merge
    c_out = os.path.join(tmp, "c.json")
    write(pfile, json.dumps(HISTORY[0]))
    c = trainmc("run", inside, "--progress", pfile, "--json", c_out, "--replicas", REPLICAS)
    rc = load(c_out)
    check(c.returncode == 0 and rc and rc["inputs"]["progress"]["failures"] == 0 and
          rc["inputs"]["progress"]["cards_in_repair"] == 0,
          f"--progress replaces the section: {c.stderr}")


def check_example(tmp, exp):
    """(d): the example history stays valid, and its day-9 line (line 4) is
    the progress section of experiments/forecast-design-48-day9.json: its row
    is that experiment's own `trainmc run` (docs/commands/forecast.md)."""
    hist = os.path.join(REPO, "experiments", "forecast-history-design-48.jsonl")
    p = trainmc("forecast", exp, "--history", hist, "--replicas", "50")
    check(p.returncode == 0, f"example history: exit {p.returncode}: {p.stderr}")
    day9 = os.path.join(REPO, "experiments", "forecast-design-48-day9.json")
    out, single = os.path.join(tmp, "example.json"), os.path.join(tmp, "day9.json")
    p = trainmc("forecast", day9, "--history", hist, "--json", out, "--replicas", REPLICAS)
    q = trainmc("run", day9, "--json", single, "--replicas", REPLICAS)
    doc, r = load(out), load(single)
    check(p.returncode == 0 and q.returncode == 0 and doc and r,
          f"example: {p.stderr} {q.stderr}")
    if doc and r:
        row = doc["snapshots"][3]
        check(row["line"] == 4 and row["deadline"]["probability"] ==
              r["deadline"]["probability"] and row["deadline"]["ci95"] == r["deadline"]["ci95"] and
              row["completion_days"]["mean"] == r["completion_days"]["mean"],
              f"example line 4 {row['deadline']} != the day-9 experiment's {r['deadline']}")
        # the answer at the last line (day 15): its run, the last line as progress
        lastp = os.path.join(tmp, "last.json")
        with open(hist) as f:
            write(lastp, [l for l in f if l.strip()][-1])
        lastout = os.path.join(tmp, "last.out.json")
        q = trainmc("run", day9, "--progress", lastp, "--json", lastout, "--replicas", REPLICAS)
        last = load(lastout)
        check(q.returncode == 0 and last and len(last["assumed"]) >= 2,
              f"example: the last line's run: {q.stderr}")
        if last:
            answer_first(p.stdout, doc, last, "example")


with tempfile.TemporaryDirectory() as tmp:
    exp = os.path.join(tmp, "x.json")
    write(exp, json.dumps(EXPERIMENT))
    check_history(tmp, exp)
    check_bad(tmp, exp)
    check_progress_file(tmp, exp)
    check_example(tmp, exp)

for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
