#!/usr/bin/env python3
"""cli-brief (issue 32): `trainmc run`'s default report, its --detail, the
defaults it assumes and the closed form contradicted.

Expected values come from the experiments as written and the rules of
src/model/assumed.h, worked by hand here:
- design-48 (48 cards, 31,790 steps of 52.758 s = 19.4 days of work, per-card
  failures, spares -1, no causes, outages and spikes null, restore_cv 0, no
  jitter): assumes unlimited spares, no detection delay, no outages, no loss
  spikes (19.4 >= 7 days); not jitter (48 < 256 cards), not fixed restores
  (W / M = 1.68e6 / 6.07e5 = 2.77 restores x 120 s = 332 s < 0.1 % of
  1.68e6 s = 1,676 s).
- cards-1024 (1,024 cards, 1.11 days of work): spares, detection, outages,
  jitter (1,024 >= 256); not spikes (1.11 < 7 days); fixed restores
  (M = 2.84e4 s: 3.38 x 120 s = 406 s >= 96 s).
- A run with only job failures (per_job_mtbf_days) takes no card: every
  failure is a job failure, none a card or node failure; bad-nodes-1024 has
  only per-node and bad-node failures: every failure is a node failure.
- cards-1024 with two spares of 100 h repairs and an 8-day deadline: Young's
  T (with the spares' loss-system waits, docs/model.md 3.21) is 8.122 days
  (misses), while the long right tail of the waits keeps the simulated median
  below (p50 7.27 days): P(T <= 8) is 0.5935 at 2,000 replicas, seed 1, its
  95 % Wilson interval [0.57, 0.61] above 0.5: the report must say the closed
  form is contradicted and name the spares. (The earlier case, one spare and
  6.8 days, stopped contradicting once Young held the spares' waits: 7.159
  days, misses, beside P 0.46.)
- design-48 without failures, or of one step, has no spread: p01 = p99 =
  the simulated T, which Young's T matches to its rounding; no contradiction
  (assumed.h: 3 se + 1e-6 of T).
- elastic-300: the shown closed form is the elastic one, 2.123 days (meets
  2.5 days; the simulation 2.12 days, every run), not Young's 104 days; at a
  2-day deadline it misses and no run meets: no contradiction either way.
- design-48 without failures has no event at all (no outages, spikes or
  requeues either): the events row would be all zeros; one line says none.
- The other kinds of run (issue 32 item 5): a calendar window, two
  forecasts (one with failures.mtbf_events 10, so also rates drawn per
  replica), --importance and elastic groups each print a brief default
  report whose first result line carries the answer; its figures are
  recomputed from the run's --json (the goodput's interval, P's Wilson
  interval, the time left, the pace used, the posterior, the plug-in P, the
  importance P +- 1.96 se, the elastic closed form's T).
Usage: check_brief.py TRAINMC EXPERIMENTS_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

BIN, EXP = sys.argv[1], sys.argv[2]
SPLIT_ROWS = ["useful compute", "straggler wait", "periodic pauses", "communication + input",
              "saves (committed)", "lost work", "restores", "outage downtime",
              "failures not yet detected", "waiting for spares", "evicting slow cards",
              "time-limit requeues", "steps on fewer groups", "before the forecast"]
bad = []


def run(name, *args, n="2000"):
    """The text report and the JSON document of `trainmc run`."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.json")
        out = subprocess.run([BIN, "run", os.path.join(EXP, name), "-n", n, "--quiet",
                              "--json", path, *args], capture_output=True, text=True)
        if out.returncode:
            sys.exit(f"trainmc run {name} {args} failed: {out.stderr}")
        with open(path) as f:
            return out.stdout, json.load(f)


def check(what, ok):
    if not ok:
        bad.append(what)


def assumed_keys(doc):
    return [a["key"] for a in doc["assumed"]]


# design-48's default report: short, the answer first, no all-zero row
text, doc = run("design-48.json")
lines = text.splitlines()
check(f"design-48: {len(lines)} lines > 20", len(lines) <= 20)
check("design-48: a zero row or count", not any(" 0.000 %" in l or " 0.0000 days" in l or
                                                " 0 " in l.split(":")[-1] for l in lines))
check("design-48: a histogram bar", not any("|#" in l for l in lines))
body = [l for l in lines if l.strip() and not l.startswith(("memory:", "trainmc run:", "  "))]
check("design-48: the answer is not first", body[0].startswith("P(T <= 30 days)"))
check("design-48: P's interval", "Wilson 95 %" in body[0] and "meets (Young)" in body[0])
check("design-48: T's p05/p50/p95", "p05" in body[1] and "p50" in body[1] and "p95" in body[1])
check("design-48: a contradiction where none is", "CONTRADICTED" not in text)
check("design-48: events by part", "card failures" in text and "node failures" not in text)
check("design-48: assumed keys " + str(assumed_keys(doc)),
      assumed_keys(doc) == ["failures.spares", "failures.causes", "outages", "loss_spikes"])
check("design-48: spares unlimited in text", "spares assumed unlimited" in text and
      "(set failures.spares, now -1)" in text)
check("design-48: verdict", doc["closed_form_verdict"]["meets"] and
      not doc["closed_form_verdict"]["contradicts"])
for key in ["card_failures", "node_failures", "job_failures", "outages", "spares_taken"]:
    check("design-48: JSON events." + key, key in doc["events"])

# stated or default: design-48's spares and causes come from its distribution
# file's defaults; it writes "outages": null and "loss_spikes": null
stated = {a["key"]: a["stated"] for a in doc["assumed"]}
check("design-48: stated " + str(stated), stated == {"failures.spares": False, "failures.causes":
      False, "outages": True, "loss_spikes": True})
check("design-48: Default spares", "Default, optimistic: spares assumed unlimited" in text)
check("design-48: Stated outages", "Stated, optimistic: no outages" in text and
      "Default, optimistic: no outages" not in text)

# --detail: the histogram and every wall-time row
text, _ = run("design-48.json", "--detail")
check("--detail: 20 histogram bins", sum(1 for l in text.splitlines() if " |" in l) == 20)
for row in SPLIT_ROWS:
    check("--detail: row " + row, any(l.strip().startswith(row + " ") for l in text.splitlines()))
check("--detail: assumed lines", "spares assumed unlimited" in text)
text_v, _ = run("design-48.json", "-v")
check("-v is --detail", text_v.count(" |") == text.count(" |"))

# cards-1024: the new user's case, then each assumption stated away
text, doc = run("cards-1024.json")
check("cards-1024: assumed keys " + str(assumed_keys(doc)),
      assumed_keys(doc) == ["failures.spares", "failures.causes", "outages", "jitter.cv",
                            "checkpoint.restore_cv"])
check("cards-1024: spares in text", "spares assumed unlimited" in text and "failures.spares" in text)
for setting, key in [("failures.spares=16", "failures.spares"), ("outages.mean_interval_days=30", "outages"),
                     ("jitter.cv=0.05", "jitter.cv"), ("checkpoint.restore_cv=0.5", "checkpoint.restore_cv")]:
    _, d = run("cards-1024.json", "--set", setting)
    check(f"cards-1024 --set {setting}: {key} still assumed", key not in assumed_keys(d))
# standbys-1024 gives one cause, "host", without detection_s: not "causes none"
text, d = run("standbys-1024.json", n="100")
items = {a["key"]: a for a in d["assumed"]}
check("standbys-1024: detection " + str(list(items)), "failures.causes" not in items and
      items.get("failures.causes[i].detection_s", {}).get("value") == "0" and
      not items["failures.causes[i].detection_s"]["stated"])
check("standbys-1024: detection in text", "now none" not in text and "no cause has a detection "
      "delay" in text and "(set failures.causes[i].detection_s, now 0)" in text)
check("standbys-1024: stated jitter.cv 0", items.get("jitter.cv", {}).get("stated") is True)
_, d = run("causes-hang-vs-hardware.json")
check("causes with detection delays: detection assumed", "failures.causes" not in assumed_keys(d))
text, d = run("design-48-spikes.json")
check("design-48-spikes: spikes assumed", "loss_spikes" not in assumed_keys(d))

# events by part, in their units
text, d = run("cards-1024.json", "--set", "failures.per_card_mtbf_days=1e9", "--set",
              "failures.per_job_mtbf_days=0.5")
ev = d["events"]
check("job failures only: job = all failures", ev["job_failures"] == ev["card_failures"] > 0)
check("job failures only: text", "job failures" in text and "card failures" not in text
      and "cards replaced" not in text)
text, d = run("bad-nodes-1024.json")
ev = d["events"]
check("bad nodes: node = all failures", ev["node_failures"] == ev["card_failures"] > 0)
check("bad nodes: text", "node failures" in text and "card failures" not in text)

# the closed form contradicted, in words, with the assumption it leaves out
text, d = run("cards-1024.json", "--set", "failures.spares=2", "--set",
              "failures.repair_mean_hours=100", "--set", "deadline.days=8")
v = d["closed_form_verdict"]
check("two spares: P not above 0.5 " + str(d["deadline"]), d["deadline"]["ci95"][0] > 0.5)
check("two spares: verdict JSON " + str(v), not v["meets"] and v["contradicts"] and
      v["closed_form"] == "Young" and "spares" in v["left_out"])
check("two spares: text", "CLOSED FORM CONTRADICTED" in text and "spare" in text.split("CONTRADICTED")[2])
check("two spares: P in words", "the simulation meets it in %.4f of runs;" % d["deadline"]["probability"]
      in text)
check("two spares: the verdict in words", "closed form: misses (Young), CONTRADICTED" in text)
check("two spares: the broken assumption once", text.count("spare cards with repairs") == 1)
check("two spares: spare cards from the pool", "from the pool of 2" in text)

# no spread (no failures; one step): p01 = p99 = T, which Young's T matches to
# rounding (24.5890 days; 5.0008): no contradiction
for sets in [["failures=null"], ["job.steps=1"]]:
    args = [a for kv in sets for a in ("--set", kv)]
    text, d = run("design-48.json", *args, n="300")
    v = d["closed_form_verdict"]
    q = d["completion_days"]["quantiles"]
    check(f"{sets}: no spread", q["p01"] == q["p99"])
    check(f"{sets}: contradicted " + str(v), v["meets"] and not v["contradicts"] and
          "CONTRADICTED" not in text)

# no failures at all: no row of zero events, one line that says so
text, d = run("design-48.json", "--set", "failures=null", n="300")
check("no failures: a zero events row", "restarts 0" not in text and "max 0" not in text)
check("no failures: events in words",
      "Events per run: none (no failure, outage or restart in any run)" in text.splitlines())
check("no failures: JSON events kept", d["events"]["card_failures"] == 0)

# elastic: the verdict is the elastic closed form's (2.123 days, meets 2.5),
# not Young's (104 days)
text, d = run("elastic-300.json", n="100")
v = d["closed_form_verdict"]
check("elastic: verdict JSON " + str(v), v["meets"] and v["closed_form"] == "Elastic" and
      not v["contradicts"])
check("elastic: text", "meets (Elastic)" in text and "CONTRADICTED" not in text)
text, d = run("elastic-300.json", "--set", "deadline.days=2", n="100")
v = d["closed_form_verdict"]
check("elastic, 2 days: misses, no run meets " + str(v), not v["meets"] and not v["contradicts"]
      and d["deadline"]["probability"] == 0 and "misses (Elastic)" in text)

# the other kinds of run (issue 32 item 5): each a brief default report of
# at most 22 lines (the memory line included), no all-zero row, the answer
# on its first result line (its figures recomputed from --json), the
# warnings only when they fire, the source only when the report fits 20
# lines; --detail the full report
def body_of(text):
    return [l for l in text.splitlines()
            if l.strip() and not l.startswith(("memory:", "trainmc run:", "  "))]


def brief_common(name, text, detail, histogram=True):
    lines = text.splitlines()
    check(f"{name}: {len(lines)} lines > 22", len(lines) <= 22)
    check(f"{name}: a zero row or count", not any(
        " 0.000 %" in l or " 0.0000 days" in l or " 0.000," in l or l.endswith(" 0.000")
        for l in lines))
    check(f"{name}: a histogram bar", not any("|#" in l for l in lines))
    src = [l for l in lines if l.startswith("  source: ")]
    check(f"{name}: the source line beside {len(lines)} lines",
          len(src) == (1 if len(lines) - len(src) + 1 <= 20 and "source: " in detail else 0))
    check(f"{name}: the source line over 110 characters", all(len(l) <= 110 for l in src))
    check(f"{name}: --detail is not the full report", "; source: " in detail and
          "\nJob         " in detail and "Events per run (mean): failures (all parts)" in detail)
    if histogram:
        check(f"{name}: --detail has no histogram", sum(1 for l in detail.splitlines()
                                                        if " |" in l) == 20)
    for row in SPLIT_ROWS:
        check(f"{name}: --detail row " + row,
              any(l.strip().startswith(row + " ") for l in detail.splitlines()))


def p_text(dl):
    return "%.4f [%.4f, %.4f] Wilson 95 %%" % (dl["probability"], *dl["ci95"])


# a calendar window: the goodput
text, doc = run("goodput-window-28d.json")
detail, _ = run("goodput-window-28d.json", "--detail")
brief_common("window", text, detail, histogram=False)
w = doc["window"]
first = body_of(text)[0]
check("window: the answer is not first: " + first, first.startswith("goodput, 28 days") and
      "%.5f [%.5f, %.5f] 95 %%" % (w["goodput"]["mean"], *w["goodput"]["ci95"]) in first and
      "Young %.5f, Daly %.5f" % (w["closed_form"]["young"], w["closed_form"]["daly"]) in first)
check("window: a warning that does not fire", "WARNING" not in text)
check("window: outages assumed over the window, not job.steps' 6e5 days",
      "in 28 days (set outages" in text)
text, doc = run("goodput-window-28d.json", "--set", "window.days=0.01", n="50")
check("short window: the edge warning", doc["window"]["edge"] >= 0.5 and
      "WARNING: one checkpoint interval is %.4g of the window" % doc["window"]["edge"] in text)

# a forecast: P from its day, the time left, the pace used, the posterior
for name in ["forecast-design-48-day9.json", "forecast-pace-5s.json"]:
    text, doc = run(name)
    detail, _ = run(name, "--detail")
    brief_common(name, text, detail)
    fc, prog = doc["forecast"], doc["inputs"]["progress"]
    body = body_of(text)
    check(f"{name}: the answer is not first: " + body[0], body[0].startswith(
        "P(T <= %g days)" % doc["deadline"]["days"]) and p_text(doc["deadline"]) in body[0] and
        "from day %.3f" % prog["elapsed_days"] in body[0])
    left = fc["days_left"]
    check(f"{name}: time left: " + body[1], body[1].startswith("time left (days)") and
          "mean %.4f +- %.4f, p05 %.4f, p50 %.4f, p95 %.4f" % (
              left["mean"], left["se"], *left["quantiles"][1:4]) in body[1])
    pace = fc["pace"]
    check(f"{name}: the pace used: " + body[2], body[2].startswith("pace") and
          "%.3f s" % pace["step_s"] in body[2] and
          ("the observed (job.pace = observed)" if pace["used"] == "observed"
           else "(job.pace = plan)") in body[2])
    fr = fc["failure_rate"]
    check(f"{name}: the posterior: " + body[3], body[3].startswith("rates") and (
        "x 1 (taken as exact" if fr["exact"] else "x %.4f [%.4f, %.4f]" % (
            fr["posterior_mean"], *fr["posterior_ci95"])) in body[3] and
        "%d seen in %.3f days" % (fr["observed"], fr["exposure_days"]) in body[3])
    check(f"{name}: the pace warning fires iff JSON says so",
          ("WARNING, " in body[2] and "than the plan" in body[2]) == pace["warning"])
    check(f"{name}: one warning line each", all(text.count(w) <= 1 for w in [
        "WARNING, ", "Warning: the run is behind", "Warning: the deadline"]))
    if "plug_in" in doc:  # rates drawn per replica: predictive beside plug-in in one line
        q = doc["plug_in"]
        line = [l for l in body if l.startswith("plug-in")]
        check(f"{name}: the plug-in line", len(line) == 1 and "P %.4f [%.4f, %.4f], T %.4f" % (
            q["deadline"]["probability"], *q["deadline"]["ci95"],
            q["completion_days"]["mean"]) in line[0] and q["drawn"] in line[0])
text, doc = run("forecast-pace-5s.json")
check("pace-5s: the deadline cannot be met", "Warning: the deadline cannot be met" in text)
check("pace-5s: behind the plan", "Warning: the run is behind the plan" in text)
text, doc = run("forecast-pace-5s.json", "--set", "progress.steps_done=57000", "--set",
                "progress.committed_step=57000", "--set", "progress.step_s=4.5")
check("pace-5s on plan: a warning that does not fire " + str(doc["forecast"]["pace"]["warning"]),
      "Warning" not in text and not doc["forecast"]["pace"]["warning"])

# importance sampling: the rare miss's P and its interval first
args = ["--importance", "auto"]
text, doc = run("design-48-rare-misses.json", *args)
detail, _ = run("design-48-rare-misses.json", *args, "--detail")
brief_common("importance", text, detail)
im = doc["importance"]
lo, hi = max(0, im["p_miss"] - 1.96 * im["se"]), im["p_miss"] + 1.96 * im["se"]
first = body_of(text)[0]
check("importance: the answer is not first: " + first, first.startswith("P(T > 32 days)") and
      "%.4g [%.4g, %.4g] 95 %%" % (im["p_miss"], lo, hi) in first)
check("importance: --detail's block", "Rare misses, importance sampling" in detail)

# elastic groups: T and P beside the elastic closed form
text, doc = run("elastic-300.json", n="40")
detail, _ = run("elastic-300.json", "--detail", n="40")
brief_common("elastic", text, detail)
ef = doc["elastic_closed_form"]
body = body_of(text)
meets = ef["completion_days"] <= doc["deadline"]["days"]
check("elastic: the answer is not first: " + body[0], body[0].startswith("P(T <= 2.5 days)") and
      p_text(doc["deadline"]) in body[0] and
      ("meets (Elastic)" if meets else "misses (Elastic)") in body[0])
check("elastic: T beside Elastic's: " + body[1], body[1].startswith("completion T (days)") and
      "mean %.4f" % doc["completion_days"]["mean"] in body[1] and
      "Elastic %.3f" % ef["completion_days"] in body[1])
check("elastic: no Young contradiction in the brief report", "CONTRADICTED" not in text)
check("elastic: group failures", "group failures %.3g" % doc["events"]["group_failures"] in text)

# sweep: the answer first (the lowest mean T, the highest P), then the table
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "s.json")
    out = subprocess.run([BIN, "sweep", os.path.join(EXP, "cards-1024.json"), "--vary",
                          "failures.spares=1,4,16", "--set", "deadline.days=6.8", "-n", "500",
                          "--quiet", "--json", path], capture_output=True, text=True)
    check("sweep ran: " + out.stderr, out.returncode == 0)
    with open(path) as f:
        sw = json.load(f)
lines = [l for l in out.stdout.splitlines() if l.strip()]
first = next(i for i, l in enumerate(lines) if not l.startswith(("memory:", "trainmc", "  ")))
check("sweep: the answer is not first", lines[first].startswith(
    "Answer: the lowest mean T at " + sw["reference"] + ":"))
settings = sw["settings"]
by_p = max(settings, key=lambda s: (s["deadline"]["probability"], -s["completion_days"]["mean"]))
label = ", ".join(f"{k}={v:.10g}" for k, v in by_p["values"].items())
check("sweep: highest_probability " + sw["highest_probability"] + " not " + label,
      sw["highest_probability"] == label)
check("sweep: assumed of the best setting", "failures.spares" not in [a["key"] for a in sw["assumed"]]
      and "failures.causes" in [a["key"] for a in sw["assumed"]])
check("sweep: assumed in text", "no detection delay" in out.stdout)

# plan: the same list, text and JSON
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.json")
    out = subprocess.run([BIN, "plan", os.path.join(EXP, "cards-1024.json"), "--json", path],
                         capture_output=True, text=True)
    with open(path) as f:
        plan = json.load(f)
check("plan: assumed keys " + str(assumed_keys(plan)), assumed_keys(plan) ==
      ["failures.spares", "failures.causes", "outages", "jitter.cv", "checkpoint.restore_cv"])
check("plan: spares in text", "spares assumed unlimited" in out.stdout)

for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
