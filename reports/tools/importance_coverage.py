#!/usr/bin/python3
"""Coverage of `run --importance auto`'s stated 95 % interval against a plain
Monte Carlo reference (issue 35). Usage:
  importance_coverage.py TRAINMC REF.json SEEDS REPLICAS OUT.json [--set K=V ...]
REF.json is `trainmc run -j` of the plain run (its deadline.probability and
replicas, with the same --set); runs `run --importance auto` at seeds 1000 ..
1000+SEEDS-1 (from $FIRST_SEED to resume) on one thread and writes every
seed's figures and the summary to OUT.json.

The stated interval is the one the report gives first: the importance
estimate +- 1.96 se when trusted (k-hat <= 0.5), else the Wilson interval of
the plain replicas run in its place (`importance.plain`); a run that states
none (plain Monte Carlo above --importance-plain-max) is counted apart."""
import json, math, subprocess, sys, tempfile, os
from scipy import stats

trainmc, ref_path, seeds, replicas, out_path = sys.argv[1:6]
extra = sys.argv[6:] or ["--set", "deadline.days=34"]
exp = "experiments/design-48-rare-misses.json"
ref = json.load(open(ref_path))
p_ref = 1 - ref["deadline"]["probability"]
n_ref = ref["replicas"]
se_ref = math.sqrt(p_ref * (1 - p_ref) / n_ref)


def stated(i):
    """(lo, hi, how) of the interval the report states first, or None."""
    if i["trusted"]:
        return i["p_miss"] - 1.96 * i["se"], i["p_miss"] + 1.96 * i["se"], "importance"
    if i["plain"]:
        return (*i["plain"]["ci95"], "plain")
    return None


rows = []
with tempfile.TemporaryDirectory() as d:
    first = int(os.environ.get("FIRST_SEED", 1000))
    for s in range(first, 1000 + int(seeds)):
        j = os.path.join(d, "is.json")
        subprocess.run([trainmc, "run", exp, *extra, "-n", replicas, "-s", str(s), "-t", "1",
                        "-q", "--importance", "auto", "-j", j],
                       check=True, stdout=subprocess.DEVNULL)
        i = json.load(open(j))["importance"]
        iv = stated(i)
        lo, hi, how = iv if iv else (math.nan, math.nan, "none")
        # "covers allowing the reference's SE": the interval widened by the
        # reference's own 1.96 SE in quadrature
        half = (hi - lo) / 2
        wide = math.sqrt(half ** 2 + (1.96 * se_ref) ** 2)
        rows.append(dict(seed=s, p=i["p_miss"], se=i["se"], ess=i["effective_sample_size"],
                         k=i["pareto_k"], misses=i["misses"], tilt=i["tilt"], how=how,
                         lo=lo, hi=hi, plain=i["plain"],
                         covers=bool(iv) and lo <= p_ref <= hi,
                         covers_wide=bool(iv) and abs((lo + hi) / 2 - p_ref) <= wide))
        print(s, how, lo, hi, rows[-1]["k"], rows[-1]["covers"], flush=True)
n = len(rows)
with_interval = [r for r in rows if r["how"] != "none"]
c = sum(r["covers"] for r in rows)
cw = sum(r["covers_wide"] for r in rows)
summary = dict(p_ref=p_ref, se_ref=se_ref, n_ref=n_ref, seeds=n, replicas=int(replicas),
               extra=extra, stated=len(with_interval),
               by_importance=sum(r["how"] == "importance" for r in rows),
               by_plain=sum(r["how"] == "plain" for r in rows),
               covered=c, covered_allowing_ref_se=cw,
               covered_by_importance=sum(r["covers"] for r in rows if r["how"] == "importance"),
               binom_p=stats.binomtest(c, max(len(with_interval), 1), 0.95).pvalue,
               below=sum(r["hi"] < p_ref for r in with_interval),
               above=sum(r["lo"] > p_ref for r in with_interval),
               plain_replicas_median=sorted(r["plain"]["replicas"] for r in rows
                                            if r["plain"])[len([r for r in rows if r["plain"]]) // 2]
               if any(r["plain"] for r in rows) else 0)
json.dump(dict(summary=summary, rows=rows), open(out_path, "w"), indent=1)
print(json.dumps(summary, indent=1))
