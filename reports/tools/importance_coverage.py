#!/usr/bin/python3
"""Coverage of --importance auto's stated 95 % interval against a plain Monte
Carlo reference (issue 35). Usage:
  importance_coverage.py TRAINMC REF.json SEEDS REPLICAS OUT.json [--set K=V ...]
REF.json is `trainmc run -j` of the plain run (its deadline.probability);
runs `run --importance auto` at seeds 1000 .. 1000+SEEDS-1 (from $FIRST_SEED
to resume) on one thread and
writes every seed's figures and the summary to OUT.json."""
import json, math, subprocess, sys, tempfile, os
from scipy import stats

trainmc, ref_path, seeds, replicas, out_path = sys.argv[1:6]
extra = sys.argv[6:]
exp = "experiments/design-48-rare-misses.json"
ref = json.load(open(ref_path))
p_ref = 1 - ref["deadline"]["probability"]
n_ref = ref["replicas"]
se_ref = math.sqrt(p_ref * (1 - p_ref) / n_ref)
rows = []
with tempfile.TemporaryDirectory() as d:
    first = int(os.environ.get("FIRST_SEED", 1000))
    for s in range(first, 1000 + int(seeds)):
        j = os.path.join(d, "is.json")
        subprocess.run([trainmc, "run", exp, "--set", "deadline.days=34", *extra, "-n", replicas,
                        "-s", str(s), "-t", "1", "-q", "--importance", "auto", "-j", j],
                       check=True, stdout=subprocess.DEVNULL)
        i = json.load(open(j))["importance"]
        lo, hi = i["p_miss"] - 1.96 * i["se"], i["p_miss"] + 1.96 * i["se"]
        # covers the reference; "covers allowing the reference's SE": the
        # interval widened by the reference's own 1.96 SE in quadrature
        w = 1.96 * math.sqrt(i["se"] ** 2 + se_ref ** 2)
        rows.append(dict(seed=s, p=i["p_miss"], se=i["se"], ess=i["effective_sample_size"],
                         k=i["pareto_k"], k_w=i["pareto_k_weights"], misses=i["misses"],
                         tilt=i["tilt"], covers=lo <= p_ref <= hi,
                         covers_wide=abs(i["p_miss"] - p_ref) <= w))
        print(s, rows[-1]["p"], rows[-1]["se"], rows[-1]["k"], rows[-1]["covers"], flush=True)
n = len(rows)
c = sum(r["covers"] for r in rows)
cw = sum(r["covers_wide"] for r in rows)
summary = dict(p_ref=p_ref, se_ref=se_ref, n_ref=n_ref, seeds=n, replicas=int(replicas),
               covered=c, covered_allowing_ref_se=cw,
               binom_p=stats.binomtest(c, n, 0.95).pvalue,
               binom_p_wide=stats.binomtest(cw, n, 0.95).pvalue,
               mean_p=sum(r["p"] for r in rows) / n,
               sd_p=(sum((r["p"] - sum(q["p"] for q in rows) / n) ** 2 for r in rows) / (n - 1)) ** 0.5,
               mean_se=sum(r["se"] for r in rows) / n)
json.dump(dict(summary=summary, rows=rows), open(out_path, "w"), indent=1)
print(json.dumps(summary, indent=1))
