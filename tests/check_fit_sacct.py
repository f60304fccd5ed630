"""cli-fit-sacct: `trainmc fit --sacct` (issue 37 part 3, docs/fit.md 11).

Standard library only. Usage: check_fit_sacct.py TRAINMC SOURCE_DIR

1. Generated logs from known rates: a job of 64 nodes whose allocations end
   at the first of node failures (1 per 5,000 node-hours, so 64 / 5,000 per
   hour of the job), job failures (1 per 400 job-hours), preemptions (1 per
   1,000 job-hours) and a 24 h time limit (ended up to 120 s past it, as
   SLURM's KillWait does), each followed by an exponential
   requeue wait of mean 0.5 h, until 3,000 job-hours; every allocation with
   a .batch and an .extern step; the header's fields shuffled per file, with
   an extra field. Per file the counts, exposures, waits and intervals
   must equal what this script computes from what it wrote (Garwood by
   bisection on the Poisson CDF); over 50 files (seeds 1..50) the pooled
   rates must lie within 4 standard errors of the truth, and the stated 95 %
   intervals must cover the true rates at a rate consistent with 95 %.
2. tests/fit/sacct-hand.txt, derived by hand below.
3. Malformed files, each refused with exit 2, FILE:LINE:COLUMN and the field,
   and no --json or --write file left behind.
4. --write's fragment merged into experiments/design-48.json runs, and the
   run's experiment carries the rates found.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import check, finish  # noqa: E402

BIN, SRC = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="check_fit_sacct.")

NODES = 64
NODE_MTBF_H = 5000.0  # a node's mean hours between failures
JOB_MTBF_H = 400.0
OUTAGE_MTBF_H = 1000.0
WAIT_MEAN_H = 0.5
LIMIT_H = 24.0
HOURS_PER_LOG = 3000.0
LOGS = 50
T0 = 1767225600  # 2026-01-01T00:00:00 as sacct prints it (read as UTC)


def iso(t):
    """Seconds from 1970 as sacct's YYYY-MM-DDTHH:MM:SS (no zone)."""
    d, s = divmod(int(t), 86400)
    # civil_from_days (Howard Hinnant), the inverse of the reader's
    z = d + 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    return "%04d-%02d-%02dT%02d:%02d:%02d" % (year, month, day, s // 3600, s // 60 % 60, s % 60)


def elapsed(sec):
    """[D-]HH:MM:SS as sacct prints it."""
    sec = int(sec)
    d, rest = divmod(sec, 86400)
    hms = "%02d:%02d:%02d" % (rest // 3600, rest // 60 % 60, rest % 60)
    return "%d-%s" % (d, hms) if d else hms


def poisson_cdf(n, mu):
    """P(X <= n), X ~ Poisson(mu), summed term by term."""
    term, total = math.exp(-mu), 0.0
    for k in range(n + 1):
        if k:
            term *= mu / k
        total += term
    return total


def garwood(n, conf=0.95):
    """The exact interval of a Poisson mean by bisection on its CDF:
    P(X >= n; lo) = a/2 and P(X <= n; hi) = a/2."""
    a = 1 - conf

    def bisect(f, lo, hi):
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if f(mid):
                hi = mid
            else:
                lo = mid
        return 0.5 * (lo + hi)

    lo = 0.0 if n == 0 else bisect(lambda mu: 1 - poisson_cdf(n - 1, mu) >= a / 2, 0, 10 * n + 10)
    hi = bisect(lambda mu: poisson_cdf(n, mu) <= a / 2, 0, 10 * n + 50)
    return lo, hi


def quantile(xs, q):
    """Linear interpolation at (n - 1) q of the sorted sample (numpy's default)."""
    xs = sorted(xs)
    h = (len(xs) - 1) * q
    i = int(math.floor(h))
    return xs[i] if i + 1 >= len(xs) else xs[i] + (h - i) * (xs[i + 1] - xs[i])


def close(a, b, rel=1e-6, abs_=1e-9):
    return a is not None and b is not None and abs(a - b) <= max(abs_, rel * abs(b))


def run_fit(path, *args):
    out = os.path.join(TMP, "fit.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([BIN, "fit", "--sacct", path, "--json", out, *args],
                       capture_output=True, text=True)
    doc = json.load(open(out)) if os.path.exists(out) else None
    return p, doc


# ---------- 1. generated logs ----------

FIELDS = ["JobID", "JobName", "State", "Start", "End", "Elapsed", "NNodes", "NodeList",
          "ExitCode", "Partition"]


def generate(seed):
    """A log of one job drawn at the known rates: its text and the truth."""
    rng = random.Random(seed)
    fields = FIELDS[:]
    rng.shuffle(fields)
    rows = []
    t = T0 + 3600 * rng.randrange(0, 1000)
    hours = 0.0
    truth = {"node": 0, "job": 0, "outage": 0, "timeout": 0, "waits": [], "waits_after": {},
             "job_hours": 0.0, "node_hours": 0.0, "timeout_hours": []}
    node_rate, job_rate, out_rate = NODES / NODE_MTBF_H, 1 / JOB_MTBF_H, 1 / OUTAGE_MTBF_H
    job_id = 1000 * seed
    while hours < HOURS_PER_LOG:
        draws = [(rng.expovariate(node_rate), "NODE_FAIL", "node"),
                 (rng.expovariate(job_rate), "FAILED", "job"),
                 (rng.expovariate(out_rate), "PREEMPTED", "outage"),
                 (LIMIT_H, "TIMEOUT", "timeout"),
                 (HOURS_PER_LOG - hours, "COMPLETED", None)]
        length, state, cause = min(draws)
        if state == "TIMEOUT":  # SLURM ends it up to KillWait past the limit
            length += rng.randrange(0, 121) / 3600
        sec = max(1, round(length * 3600))
        start, end = t, t + sec
        job_id += 1
        values = {"JobID": str(job_id), "JobName": "train", "State": state,
                  "Start": iso(start), "End": iso(end), "Elapsed": elapsed(sec),
                  "NNodes": str(NODES), "NodeList": "gpu[%03d-%03d]" % (1, NODES),
                  "ExitCode": "1:0" if state == "FAILED" else "0:0", "Partition": "big"}
        rows.append("|".join(values[f] for f in fields))
        for step in ("batch", "extern"):
            sv = dict(values, JobID="%d.%s" % (job_id, step), JobName=step, NNodes="1",
                      State="CANCELLED" if state != "COMPLETED" else "COMPLETED")
            rows.append("|".join(sv[f] for f in fields))
        truth["job_hours"] += sec / 3600
        truth["node_hours"] += NODES * sec / 3600
        hours += sec / 3600
        if cause is None:
            break
        truth[cause] += 1
        if cause == "timeout":
            truth["timeout_hours"].append(sec / 3600)
        if hours >= HOURS_PER_LOG:
            break  # no allocation follows: no wait
        wait = max(1, round(rng.expovariate(1 / WAIT_MEAN_H) * 3600))
        truth["waits"].append(wait / 3600)
        truth["waits_after"].setdefault(cause, []).append(wait / 3600)
        t = end + wait
    return "|".join(fields) + "\n" + "\n".join(rows) + "\n", truth


RATES = {"node": (1 / NODE_MTBF_H, "node_hours"), "job": (1 / JOB_MTBF_H, "job_hours"),
         "outage": (1 / OUTAGE_MTBF_H, "job_hours")}
covered = {c: 0 for c in RATES}
pooled = {c: [0, 0.0] for c in RATES}
all_waits, exact_ok = [], 0
for seed in range(1, LOGS + 1):
    text, truth = generate(seed)
    path = os.path.join(TMP, "gen-%d.txt" % seed)
    with open(path, "w") as f:
        f.write(text)
    p, doc = run_fit(path)
    if p.returncode != 0 or doc is None:
        check(False, "seed %d: fit --sacct failed: %s" % (seed, p.stderr.strip()))
        continue
    ok = True
    ok &= close(doc["exposure"]["job_hours"], truth["job_hours"])
    ok &= close(doc["exposure"]["node_hours"], truth["node_hours"])
    for c, (rate, exposure) in RATES.items():
        d = doc["causes"][c]
        n, e = truth[c], truth[exposure]
        ok &= d["count"] == n and close(d["exposure_hours"], e)
        lo, hi = garwood(n)
        ok &= close(d["rate_per_hour"]["value"], n / e) and close(d["rate_per_hour"]["lo"], lo / e)
        ok &= close(d["rate_per_hour"]["hi"], hi / e)
        covered[c] += d["rate_per_hour"]["lo"] <= rate <= d["rate_per_hour"]["hi"]
        pooled[c][0] += n
        pooled[c][1] += e
    ok &= doc["causes"]["time_limit"]["count"] == truth["timeout"]
    w = doc["waits"]["all"]
    ok &= w["count"] == len(truth["waits"])
    if truth["waits"]:
        ok &= close(w["mean_hours"], sum(truth["waits"]) / len(truth["waits"]))
        ok &= close(w["median_hours"], quantile(truth["waits"], 0.5))
        ok &= close(w["q90_hours"], quantile(truth["waits"], 0.9))
    for c, ws in truth["waits_after"].items():
        key = "time_limit" if c == "timeout" else c
        ok &= close(doc["waits"]["after"][key]["mean_hours"], sum(ws) / len(ws))
    ok &= doc["allocations"]["steps_skipped"] == 2 * doc["allocations"]["read"]
    if truth["timeout_hours"]:
        ok &= close(doc["time_limit"]["median_hours"], quantile(truth["timeout_hours"], 0.5))
        ok &= close(doc["fragment"]["time_limit"]["wall_hours"],
                    quantile(truth["timeout_hours"], 0.5))
    for c, key, mtbf in (("node", "node_hours", "per_node_mtbf_days"),
                         ("job", "job_hours", "per_job_mtbf_days")):
        if truth[c]:
            ok &= close(doc["fragment"]["failures"][mtbf], truth[key] / truth[c] / 24)
    if truth["outage"]:
        ok &= close(doc["fragment"]["outages"]["mean_interval_days"],
                    truth["job_hours"] / truth["outage"] / 24)
    check(ok, "seed %d: the report differs from what was written (counts, exposures, "
          "Garwood intervals, waits or time limit)" % seed)
    exact_ok += ok
    all_waits += truth["waits"]

print("generated: %d of %d logs reported exactly what was written" % (exact_ok, LOGS))
for c, (rate, _) in RATES.items():
    n, e = pooled[c]
    se = math.sqrt(n) / e
    z = (n / e - rate) / se
    print("  %-6s pooled %d events over %.6g h: %.5g per hour (truth %.5g, z = %.2f)"
          % (c, n, e, n / e, rate, z))
    check(abs(z) < 4, "%s: the pooled rate %.5g is %.2f SE from the truth %.5g"
          % (c, n / e, z, rate))
mw = sum(all_waits) / len(all_waits)
zw = (mw - WAIT_MEAN_H) / (WAIT_MEAN_H / math.sqrt(len(all_waits)))
print("  waits  %d, mean %.4g h (truth %.4g, z = %.2f)" % (len(all_waits), mw, WAIT_MEAN_H, zw))
check(abs(zw) < 4, "the waits' mean %.4g is %.2f SE from %.4g" % (mw, zw, WAIT_MEAN_H))


def binom_cdf(k, n, p):
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


# Coverage: k of 50 intervals hold the true rate. Garwood's interval is exact
# and conservative (coverage >= 95 % at every mean), so the test is one-sided:
# refused when P(Binomial(50, 0.95) <= k) < 0.001, i.e. k <= 42 (a coverage
# below 0.84 would be flagged; over-coverage cannot be rejected with 50 logs:
# even 50 of 50 has P = 0.077). The three rates pooled (150 intervals) the
# same, k <= 133.
total = 0
for c in RATES:
    k = covered[c]
    total += k
    p_low = binom_cdf(k, LOGS, 0.95)
    print("  coverage %-6s %d of %d (%.0f %%), P(Binomial(%d, 0.95) <= %d) = %.3g"
          % (c, k, LOGS, 100 * k / LOGS, LOGS, k, p_low))
    check(p_low >= 0.001, "%s: the 95 %% intervals covered %d of %d" % (c, k, LOGS))
p_all = binom_cdf(total, 3 * LOGS, 0.95)
print("  coverage pooled %d of %d, P = %.3g" % (total, 3 * LOGS, p_all))
check(p_all >= 0.001, "pooled coverage %d of %d" % (total, 3 * LOGS))

# ---------- 2. the hand-derived file ----------
# tests/fit/sacct-hand.txt: job llm, 4 nodes an allocation, in Start order:
#   100 NODE_FAIL  00:00-10:00 day 1  10 h, 40 node-h; wait to 101: 10:30 - 10:00 = 0.5 h
#   101 PREEMPTED  10:30-20:30 day 1  10 h, 40 node-h; wait to 102: 21:30 - 20:30 = 1 h
#   102 TIMEOUT    21:30 day 1 - 21:30 day 2, 1-00:00:00 = 24 h, 96 node-h; wait 23:30 - 21:30 = 2 h
#   103 FAILED     23:30 day 2 - 01:30 day 3, 2 h, 8 node-h; wait 01:45 - 01:30 = 0.25 h
#   104 COMPLETED  01:45-09:45 day 3, 8 h, 32 node-h; the last: no wait
# job eval: 200 CANCELLED by 1000 with Start Unknown (never started: skipped);
#   201 TIMEOUT on 2 nodes, 24 h, 48 node-h, its job's last (no wait).
# Steps 100.batch and 201.0 skipped. So 6 allocations, 2 jobs; job-hours
# 10+10+24+2+8+24 = 78, node-hours 40+40+96+8+32+48 = 264. Node failures 1
# per 264 node-h, job failures 1 per 78 job-h, outages 1 per 78 job-h; n = 1
# gives Garwood [0.0253, 5.572]: 264 h between node failures in [264 /
# 5.572, 264 / 0.0253] = [47.38, 10430]. Waits 0.5, 1, 2, 0.25: mean 0.9375,
# median (0.5 + 1) / 2 = 0.75. TIMEOUT Elapsed 24, 24: wall_hours 24.
# Fragment: per_node_mtbf_days 264 / 24 = 11, per_job_mtbf_days 78 / 24 =
# 3.25, outages.mean_interval_days 3.25, mtbf_events 1, downtime_s 3600 (the
# wait after 101), time_limit.requeue_s 7200 (the wait after 102).
hand = os.path.join(SRC, "tests", "fit", "sacct-hand.txt")
frag_path = os.path.join(TMP, "fragment.json")
p = subprocess.run([BIN, "fit", "--sacct", hand, "--cards-per-node", "8", "--json",
                    os.path.join(TMP, "hand.json"), "--write", frag_path],
                   capture_output=True, text=True)
check(p.returncode == 0, "hand: exit %d: %s" % (p.returncode, p.stderr.strip()))
doc = json.load(open(os.path.join(TMP, "hand.json"))) if p.returncode == 0 else None
frag = json.load(open(frag_path)) if p.returncode == 0 else None
if doc:
    a = doc["allocations"]
    check((a["read"], a["steps_skipped"], a["never_started"], a["jobs"]) == (6, 2, 1, 2),
          "hand: allocations %s" % a)
    check(doc["exposure"] == {"job_hours": 78, "node_hours": 264}, "hand: exposure %s"
          % doc["exposure"])
    lo1, hi1 = garwood(1)
    check(abs(lo1 - 0.0253178) < 1e-6 and abs(hi1 - 5.571643) < 1e-5, "garwood(1) by bisection")
    for c, e in (("node", 264), ("job", 78), ("outage", 78)):
        d = doc["causes"][c]
        check(d["count"] == 1 and d["exposure_hours"] == e, "hand: %s %s" % (c, d))
        m = d["mean_hours_between"]
        check(close(m["value"], e) and close(m["lo"], e / hi1) and close(m["hi"], e / lo1),
              "hand: %s mean hours between %s, expected %g [%g, %g]" % (c, m, e, e / hi1, e / lo1))
    check(doc["causes"]["time_limit"]["count"] == 2 and doc["causes"]["completed"]["count"] == 1,
          "hand: time_limit and completed counts")
    w = doc["waits"]["all"]
    check((w["count"], w["mean_hours"], w["median_hours"], w["max_hours"]) == (4, 0.9375, 0.75, 2),
          "hand: waits %s" % w)
    after = {c: v["mean_hours"] for c, v in doc["waits"]["after"].items()}
    check(after == {"node": 0.5, "job": 0.25, "outage": 1, "time_limit": 2},
          "hand: waits by cause %s" % after)
    check(doc["time_limit"]["median_hours"] == 24, "hand: time limit %s" % doc["time_limit"])
    check(any(m == {"state": "NODE_FAIL", "cause": "node", "from": "table"}
              for m in doc["mapping"]), "hand: the mapping lists NODE_FAIL as node")
if frag:
    want = {"failures": {"distribution": "exponential", "per_node_mtbf_days": 11,
                         "cards_per_node": 8, "per_job_mtbf_days": 3.25},
            "outages": {"mean_interval_days": 3.25, "mtbf_events": 1, "downtime_s": 3600},
            "time_limit": {"wall_hours": 24, "requeue_s": 7200}}
    for s, keys in want.items():
        for k, v in keys.items():
            got = frag.get(s, {}).get(k)
            check(got == v if isinstance(v, str) else close(got, v),
                  "hand fragment: %s.%s %s, expected %s" % (s, k, got, v))

# --sacct-map: FAILED as an outage moves the job failure to the outages
p, doc = run_fit(hand, "--sacct-map", "FAILED=outage")
check(p.returncode == 0 and doc and doc["causes"]["outage"]["count"] == 2
      and doc["causes"]["job"]["count"] == 0
      and {"state": "FAILED", "cause": "outage", "from": "--sacct-map"} in doc["mapping"],
      "--sacct-map FAILED=outage: %s" % (p.stderr.strip() or doc and doc["causes"]))
# --write with node failures but no --cards-per-node: refused, nothing written
nothing = os.path.join(TMP, "nothing.json")
p = subprocess.run([BIN, "fit", "--sacct", hand, "--write", nothing], capture_output=True,
                   text=True)
check(p.returncode == 2 and "--cards-per-node" in p.stderr and not os.path.exists(nothing),
      "--write without --cards-per-node: exit %d, %s" % (p.returncode, p.stderr.strip()))
# --write never overwrites its input
copy = os.path.join(TMP, "input.txt")
shutil.copy(hand, copy)
before = open(copy).read()
p = subprocess.run([BIN, "fit", "--sacct", copy, "--cards-per-node", "8", "--write", copy],
                   capture_output=True, text=True)
check(p.returncode != 0 and open(copy).read() == before,
      "--write naming the input: exit %d, the input %s" % (p.returncode, "kept" if open(copy).read() == before else "changed"))

# ---------- 3. malformed files ----------
H = "JobID|JobName|State|Start|End|Elapsed|NNodes|NodeList\n"
GOOD = "1|a|COMPLETED|2026-01-01T00:00:00|2026-01-01T01:00:00|01:00:00|2|n[1-2]\n"
# each: (name, text, extra args, "LINE:COLUMN", field or what the message names)
# columns by hand: in GOOD, JobID at 1, JobName 3, State 5, Start 15, End 35,
# Elapsed 55, NNodes 64, NodeList 66 to 71, a trailing '|' at 72 opens a 9th
# field at 73; in H + "|State", the second State starts at 55.
bad = [
    ("empty", "", [], "1:1", "empty"),
    ("no NNodes", "JobID|JobName|State|Start|End|Elapsed|NodeList\n", [], "1:1", "'NNodes'"),
    ("twice", "JobID|JobName|State|Start|End|Elapsed|NNodes|NodeList|State\n" + GOOD, [],
     "1:55", "'State' is named twice"),
    ("bad date", H + GOOD.replace("2026-01-01T00:00:00", "2026-02-30T00:00:00"), [], "2:15",
     "field 'Start'"),
    ("bad time", H + GOOD.replace("T01:00:00", "T24:00:00"), [], "2:35", "field 'End'"),
    ("end before start", H + GOOD.replace("2026-01-01T01:00:00", "2025-12-31T23:00:00"), [],
     "2:35", "field 'End'"),
    ("elapsed off", H + GOOD.replace("|01:00:00|", "|01:02:00|"), [], "2:55",
     "field 'Elapsed'"),
    ("elapsed form", H + GOOD.replace("|01:00:00|", "|1:00:00|"), [], "2:55", "field 'Elapsed'"),
    ("nnodes zero", H + GOOD.replace("|2|", "|0|"), [], "2:64", "field 'NNodes'"),
    ("nnodes text", H + GOOD.replace("|2|", "|2.5|"), [], "2:64", "field 'NNodes'"),
    ("unknown state", H + GOOD + GOOD.replace("COMPLETED", "RUNNING"), [], "3:5",
     "field 'State'"),
    ("cancelled by text", H + GOOD.replace("COMPLETED", "CANCELLED by root"), [], "2:5",
     "field 'State'"),
    ("trailing bar", H + GOOD.replace("\n", "|\n"), [], "2:73", "9 fields, the header has 8"),
    ("only steps", H + GOOD.replace("1|a", "1.batch|a"), [], "2:1", "no allocation that ran"),
]
for name, text, args, where, what in bad:
    path = os.path.join(TMP, "bad.txt")
    with open(path, "w") as f:
        f.write(text)
    js, wr = os.path.join(TMP, "bad-out.json"), os.path.join(TMP, "bad-frag.json")
    for f in (js, wr):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([BIN, "fit", "--sacct", path, "--cards-per-node", "8", "--json", js,
                        "--write", wr, *args], capture_output=True, text=True)
    msg = p.stderr.strip()
    check(p.returncode == 2 and ("%s:%s:" % (path, where)) in msg and what in msg
          and not os.path.exists(js) and not os.path.exists(wr) and p.stdout == "",
          "malformed %s: exit %d, expected %s:%s: and %r: %s" % (name, p.returncode, path, where,
                                                                 what, msg))
# mapped, RUNNING (End Unknown) is ignored and never ran
path = os.path.join(TMP, "running.txt")
with open(path, "w") as f:
    f.write(H + GOOD + "2|a|RUNNING|2026-01-01T02:00:00|Unknown|00:10:00|2|n[1-2]\n")
p, doc = run_fit(path, "--sacct-map", "RUNNING=ignored")
check(p.returncode == 0 and doc and doc["allocations"]["never_started"] == 1,
      "--sacct-map RUNNING=ignored: %s" % p.stderr.strip())
p = subprocess.run([BIN, "fit", "--sacct", path, "--sacct-map", "RUNNING=busy"],
                   capture_output=True, text=True)
check(p.returncode == 2 and "'busy' is not one of node, job" in p.stderr,
      "--sacct-map RUNNING=busy: %s" % p.stderr.strip())

# ---------- 4. the fragment runs ----------
if frag:
    root = os.path.join(SRC, "experiments")
    x = json.load(open(os.path.join(root, "design-48.json")))
    for k, v in list(x.items()):
        if isinstance(v, str) and v.endswith(".json"):
            x[k] = os.path.abspath(os.path.join(root, v))
    for s in ("failures", "outages", "time_limit"):
        x[s] = frag[s]
    x["monte_carlo"]["replicas"] = 50
    xp, out = os.path.join(TMP, "merged.json"), os.path.join(TMP, "run.json")
    with open(xp, "w") as f:
        json.dump(x, f)
    p = subprocess.run([BIN, "run", xp, "--quiet", "--json", out], capture_output=True,
                       text=True)
    check(p.returncode == 0, "the merged experiment: exit %d: %s" % (p.returncode, p.stderr))
    if p.returncode == 0:
        doc = json.load(open(out))
        ran = doc["inputs"]  # the experiment as it ran
        for s in ("failures", "outages", "time_limit"):
            for k, v in frag[s].items():
                if isinstance(v, (int, float)):
                    check(close(ran[s].get(k), v), "run: %s.%s %s, the fragment %s"
                          % (s, k, ran[s].get(k), v))
        ev = doc["events"]
        print("  the merged design-48 ran: node failures %.3g, job failures %.3g, outages "
              "%.3g, requeues %.3g per run" % (ev["node_failures"], ev["job_failures"],
                                                ev["outages"], ev["requeues"]))
        check(min(ev["node_failures"], ev["job_failures"], ev["outages"], ev["requeues"]) > 0,
              "run: every part of the fragment strikes: %s" % ev)

shutil.rmtree(TMP)
sys.exit(finish("cli-fit-sacct"))
