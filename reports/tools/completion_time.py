"""Report (a): the distribution of the completion time T, deadline marked:
design-48-stress, then design-32 against design-48."""
from common import Report, experiment, histogram_cdf, num, pm, wilson, count, write_vars

r = Report("completion-time", "Completion time: histogram and CDF against the deadline")
runs = {e: r.json(f"{e}.json") for e in ("design-48-stress", "design-48", "design-32")}
stress = runs["design-48-stress"]
r.header([experiment(d) for d in runs.values()],
         ", ".join(f"{count(d['replicas'])} for {e}" for e, d in runs.items()) + ".")

t = stress["completion_days"]
cf = stress["closed_form"]
deadline = stress["deadline"]["days"]
r.p("## The 48-card design under stress")
r.p()
r.p(f"`{stress['experiment_path']}`: {stress['source']}. "
    f"Each of the {count(stress['replicas'])} replicas is one whole run of "
    f"{count(stress['inputs']['job']['steps'])} steps; T = reserve + wall time.")
r.p()
r.image("completion-time-stress.svg", "histogram and CDF of T, design-48-stress")
histogram_cdf(stress, r.work, "stress", f"{stress['experiment']}: completion time T")
gap = deadline - t["max"]
r.p(f"The mean is {pm(t['mean'], t['se'], 3)} days (Young's closed form {num(cf['completion_days'])}, "
    f"Daly's {num(cf['completion_days_daly'])}), the spread small: sd {num(t['sd'])} days, "
    f"p01 {num(t['quantiles']['p01'])} to p99 {num(t['quantiles']['p99'])}. "
    + (f"Even the slowest replica ({num(t['max'])} days) ends {num(gap, 2)} days "
       f"({gap / t['sd']:.0f} sd) before the {deadline:g}-day deadline: "
       if gap > 0 else f"The slowest replica ends at {num(t['max'])} days: ")
    + f"P(T <= {deadline:g} d) = {wilson(stress['deadline'])} (Wilson 95 %). "
    "The orange circles are GSL's interpolated quantiles, computed from every replica; "
    "they fall on the CDF drawn from the histogram's counts.")
r.p()

ev, split = stress["events"], stress["split_days"]
r.p("Where the wall time goes (mean per run; parts that are zero in every replica left out):")
r.p()
label = {"comm_input": "communication + input", "saves": "saves (committed)", "lost_work": "lost work (redone)"}
rows = [(label.get(k, k.replace("_", " ")), num(v, 4), f"{100 * v / split['wall']:.3f} %")
        for k, v in split.items() if k != "wall" and v != 0]
rows.append(("**wall**", f"**{num(split['wall'], 4)}**", "100 %"))
r.table(["part", "days", "share"], rows, ["l", "r", "r"])
r.p(f"Events per run (mean): {ev['card_failures']:.3f} card failures, {ev['outages']:.3f} outages, "
    f"{ev['loss_spikes']:.3f} loss spikes, {ev['saves']:.1f} committed saves.")
r.p()

r.p("## 32 against 48 cards")
r.p()
r.p("The same job on 32 and 48 cards (no jitter, card failures only), with the stress case "
    "beside them:")
r.p()
r.image("completion-time-32-vs-48.svg", "CDFs of T for 32 and 48 cards")
for e in ("design-48", "design-32"):
    histogram_cdf(runs[e], r.work, e, f"{e}: completion time T")
order = ("design-48", "design-48-stress", "design-32")
lo = min(min(runs[e]["completion_days"]["min"] for e in order), deadline)
hi = max(max(runs[e]["completion_days"]["max"] for e in order), deadline)
cdfs = {f"file{i + 1}": f"{r.work}/{e if e != 'design-48-stress' else 'stress'}.cdf.dat"
        for i, e in enumerate(order)}
titles = {f"title{i + 1}": f"{e}: P = {runs[e]['deadline']['probability']:.4f}" for i, e in enumerate(order)}
write_vars(f"{r.work}/compare.vars.gp", n=len(order), deadline=deadline,
           xlo=lo - 0.05 * (hi - lo), xhi=hi + 0.05 * (hi - lo),
           title="completion time T: 48 cards, 48 cards under stress, 32 cards", **cdfs, **titles)
rows = []
for e in order:
    d = runs[e]
    t, cf = d["completion_days"], d["closed_form"]
    rows.append((f"`{e}`", d["inputs"]["job"]["cards"], num(cf["step_s"]), num(cf["completion_days"]),
                 num(cf["completion_days_daly"]), pm(t["mean"], t["se"], 4), num(t["sd"], 4),
                 f"{num(t['quantiles']['p05'])} – {num(t['quantiles']['p95'])}", wilson(d["deadline"])))
r.table(["experiment", "cards", "step t_s (s)", "Young T (d)", "Daly T (d)", "simulated T (d)",
         "sd (d)", "p05 – p95 (d)", f"P(T <= {deadline:g} d) [Wilson 95 %]"], rows,
        ["l", "r", "r", "r", "r", "r", "r", "r", "r"])
d32, d48 = runs["design-32"], runs["design-48"]


def met(d):
    """How many replicas met the deadline, in words."""
    p = d["deadline"]["probability"]
    if p == 0:
        return "no replica meets the deadline"
    if p == 1:
        return "every replica meets the deadline"
    return f"{p:.2%} of the replicas meet the deadline"


r.p(f"On 32 cards a step takes {num(d32['closed_form']['step_s'])} s against a budget of "
    f"{num(d32['closed_form']['budget_step_s'])} s per step, the run "
    f"{num(d32['completion_days']['mean'])} days: {met(d32)}. On 48 cards "
    f"({num(d48['closed_form']['step_s'])} s per step) {met(d48)}; the slowest replica ends "
    f"{num(deadline - d48['completion_days']['max'], 2)} days before the deadline. With no jitter "
    "the spread of T comes only from card failures: how many strike and where each falls in its "
    "checkpoint interval.")
r.p()
r.p("Each case's own histogram and CDF:")
r.p()
r.image("completion-time-design-48.svg", "histogram and CDF of T, design-48")
r.image("completion-time-design-32.svg", "histogram and CDF of T, design-32")
r.write()
