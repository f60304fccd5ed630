#!/usr/bin/env python3
"""cli-fit: figures of `trainmc fit` on the shipped fault log, recomputed here
independently with the standard library only (no number copied from
trainmc's output): pairing of the events, counts, the Garwood interval (by
bisection on the Poisson CDF, not the chi-square quantile), the exponential
up-time rate, the Weibull shape (bisection on the profile equation), the
lognormal repair law, the dispersion index per node, the simultaneous pairs.

usage: check_fit.py LOG.json REPORT.json [EXCLUDED CAUSE ...]
REPORT.json: `trainmc fit LOG --nodes 400 --cards-per-node 8 --json` output
with the same --exclude-cause list. Exit 1 on any mismatch."""
import collections
import json
import math
import sys

NODES, CARDS, CONF = 400, 8, 0.95


def pairs_from_events(events):
    """Faults as [node, start, end, fault_type]: an end closes the open fault
    of its node with the same fault_type, else that node's oldest."""
    open_by_node = collections.defaultdict(list)
    faults = []
    for e in events:
        n = e["node_id"]
        if e["event_type"] == "fault_start":
            f = [n, e["event_time"], None, e["fault_type"]]
            open_by_node[n].append(f)
            faults.append(f)
        else:
            opened = open_by_node[n]
            same = [f for f in opened if f[3] == e["fault_type"]]
            f = same[0] if same else opened[0]
            opened.remove(f)
            f[2] = e["event_time"]
    return faults


def poisson_cdf(k, mu):
    term = total = math.exp(-mu)
    for i in range(1, k + 1):
        term *= mu / i
        total += term
    return total


def bisect(f, lo, hi):
    """root of increasing f on [lo, hi]"""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def garwood(n, conf=CONF):
    a = 1 - conf
    # upper: P(X <= n; mu) = a/2; lower: P(X >= n; mu) = a/2
    hi = bisect(lambda mu: a / 2 - poisson_cdf(n, mu), 0, 10 * n + 50)
    lo = 0.0 if n == 0 else bisect(lambda mu: (1 - poisson_cdf(n - 1, mu)) - a / 2, 0, 10 * n + 50)
    return lo, hi


def main():
    log_path, report_path, excluded = sys.argv[1], sys.argv[2], [c.lower() for c in sys.argv[3:]]
    events = json.load(open(log_path))
    rep = json.load(open(report_path))
    faults = pairs_from_events(events)
    n_read = len(faults)
    faults = [f for f in faults
              if f[3]["Class"].lower() not in excluded and f[3]["Desc"].lower() not in excluded]
    faults.sort(key=lambda f: f[1])
    span = max(e["event_time"] for e in events)
    n = len(faults)
    bad = []

    def check(name, got, want, rel=1e-6):
        ok = (got is None and want is None) or abs(got - want) <= rel * max(abs(want), 1e-300)
        print(("ok  " if ok else "BAD ") + f"{name}: trainmc {got!r}, here {want!r}")
        if not ok:
            bad.append(name)

    check("faults read", rep["faults"]["read"], n_read, 0)
    check("faults fitted", rep["faults"]["fitted"], n, 0)
    check("nodes with faults", rep["faults"]["nodes_with_faults"],
          len({f[0] for f in faults}), 0)
    # up times: from 0 or the last repair to the next fault; censored to span
    up = {}
    obs, cens = [], []
    for node, start, end, _ in faults:
        u = up.get(node, 0.0)
        if start > u:
            obs.append(start - u)
        up[node] = max(u, end)
    cens = [span - u for u in up.values() if span - u > 0] + [span] * (NODES - len(up))
    total = sum(obs) + sum(cens)

    # rates and MTBF: every fault over the node-days up (issue 33: repair
    # days are no exposure); Garwood by bisection; the calendar beside
    node_days = NODES * span
    lo, hi = garwood(n)
    check("node MTBF", rep["mtbf_days"]["node"]["value"], total / n)
    check("node MTBF lower", rep["mtbf_days"]["node"]["lo"], total / hi, 1e-6)
    check("node MTBF upper", rep["mtbf_days"]["node"]["hi"], total / lo, 1e-6)
    check("card MTBF", rep["mtbf_days"]["card"]["value"], total * CARDS / n)
    check("calendar node MTBF", rep["calendar_mtbf_days"]["node"], node_days / n)
    check("calendar card MTBF", rep["calendar_mtbf_days"]["card"], node_days * CARDS / n)
    check("up node-days", rep["exposure"]["up_node_days"], total, 1e-9)

    check("up times observed", rep["lifetime"]["observed"], len(obs), 0)
    check("exponential rate", rep["lifetime"]["exponential"]["rate_per_day"]["value"],
          len(obs) / total, 1e-9)
    alls = obs + cens
    mean_log = sum(math.log(t) for t in obs) / len(obs)

    def profile(k):
        s0 = sum(t ** k for t in alls)
        s1 = sum(t ** k * math.log(t) for t in alls)
        return s1 / s0 - 1 / k - mean_log
    k = bisect(profile, 0.01, 20)
    check("Weibull shape", rep["lifetime"]["weibull"]["shape"], k, 1e-7)
    lam = (sum(t ** k for t in alls) / len(obs)) ** (1 / k)
    check("Weibull scale", rep["lifetime"]["weibull"]["scale_days"], lam, 1e-6)

    # repairs: zero-length counted and left out; lognormal ML
    d = [f[2] - f[1] for f in faults]
    pos = [x for x in d if x > 0]
    check("zero-length repairs", rep["repair"]["zero_length"], len(d) - len(pos), 0)
    mu = sum(math.log(x) for x in pos) / len(pos)
    sigma = math.sqrt(sum((math.log(x) - mu) ** 2 for x in pos) / len(pos))
    laws = rep["repair"]["laws"]
    check("lognormal mu", laws["lognormal"]["mu"], mu, 1e-9)
    check("lognormal sigma", laws["lognormal"]["sigma"], sigma, 1e-9)
    check("repair mean", rep["repair"]["mean_days"]["value"], sum(pos) / len(pos), 1e-9)

    # dispersion per node, the zeros of the never-failed nodes included
    counts = collections.Counter(f[0] for f in faults)
    c = list(counts.values()) + [0] * (NODES - len(counts))
    m = sum(c) / NODES
    var = sum((x - m) ** 2 for x in c) / (NODES - 1)
    check("dispersion index per node", rep["dispersion"]["per_node"]["index"], var / m, 1e-9)
    check("most faults on a node", rep["dispersion"]["per_node"]["max"], max(c), 0)

    # the cause mix by Class, most frequent first
    mix = collections.Counter(f[3]["Class"] for f in faults)
    top = sorted(mix.items(), key=lambda kv: (-kv[1], kv[0]))
    for i in range(3):
        check(f"cause {i + 1} ({top[i][0]})", rep["causes"][i]["count"], top[i][1], 0)
        if rep["causes"][i]["name"] != top[i][0]:
            bad.append(f"cause {i + 1} name")
    check("causes listed", len(rep["causes"]), len(mix), 0)

    # simultaneous: pairs of starts on different nodes within 60 s
    w = 60 / 86400
    pairs = sum(1 for i in range(n) for j in range(i + 1, n)
                if faults[j][1] - faults[i][1] <= w and faults[i][0] != faults[j][0])
    check("simultaneous pairs", rep["dispersion"]["simultaneous"]["pairs"], pairs, 0)
    q = w / span
    across = (n * n - sum(x * x for x in counts.values())) / 2
    check("pairs expected", rep["dispersion"]["simultaneous"]["expected"], (2 * q - q * q) * across,
          1e-9)
    if bad:
        print("mismatch: " + ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
