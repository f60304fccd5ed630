"""Report (d): P(T <= deadline) against efficiency and against the card count,
for the design case and the stress case, beside the closed form; the lowest
efficiency that meets the deadline with probability 0.95 and T there."""
from common import (Report, experiment, histogram_cdf, count, num, pct, pm, wilson, write_data,
                    write_vars)

r = Report("deadline-probability", "Probability of meeting the deadline against efficiency and card count")
names = ("design-48", "design-48-stress")
eff = {e: r.json(f"{e}.efficiency.json") for e in names}
cards = {e: r.json(f"{e}.cards.json") for e in names}
plans = {e: r.json(f"{e}.plan.json") for e in names}
target, at = r.json("target.json"), r.json("at-target.json")
r.header([experiment(d) for d in eff.values()],
         f"{count(eff['design-48']['replicas'])} per setting for design-48 (no jitter: fast), "
         f"{count(eff['design-48-stress']['replicas'])} per setting for design-48-stress (5 % jitter: every "
         f"step drawn), {count(target['replicas'])} per bisection step, {count(at['replicas'])} for the run "
         "at the value found.")
deadline = at["deadline"]["days"]


def points(sweep, key, prefix):
    rows = [(s["values"][key], s["deadline"]["probability"], *s["deadline"]["ci95"]) for s in sweep["settings"]]
    write_data(f"{r.work}/{prefix}.dat", ["x", "p", "lo", "hi"], rows)
    return f"{r.work}/{prefix}.dat"


def crossing(sweep, key):
    """The last setting below P = 0.5 and the first at or above it (in sweep order)."""
    below = [s for s in sweep["settings"] if s["deadline"]["probability"] < 0.5]
    above = [s for s in sweep["settings"] if s["deadline"]["probability"] >= 0.5]
    return below, above


def table_one(sweep, key):
    r.table([f"`{key}`", "step (s)", "Young T (d)", "simulated T (d)", "P [Wilson 95 %]"],
            [(f"{s['values'][key]:g}", num(s["closed_form"]["step_s"]), num(s["closed_form"]["completion_days"]),
              pm(s["completion_days"]["mean"], s["completion_days"]["se"], 3), wilson(s["deadline"]))
             for s in sweep["settings"]])


def table(sweeps, key, fmt):
    rows = []
    for i, s in enumerate(sweeps[names[0]]["settings"]):
        row = [fmt(s["values"][key])]
        for e in names:
            t = sweeps[e]["settings"][i]
            row += [num(t["closed_form"]["step_s"]), num(t["closed_form"]["completion_days"]),
                    pm(t["completion_days"]["mean"], t["completion_days"]["se"], 3), wilson(t["deadline"])]
        rows.append(row)
    head = [f"`{key}`"]
    for e in names:
        head += [f"{e}: step (s)", "Young T (d)", "simulated T (d)", "P [Wilson 95 %]"]
    r.table(head, rows)


# ---- efficiency -------------------------------------------------------------
r.p("## Against efficiency (MFU)")
r.p()
r.p("The design case (`design-48`: no jitter, card failures only) and the stress case "
    "(`design-48-stress`: 5 % jitter, a loss spike a week, an outage a day), each swept over a range "
    "of efficiency around where it stops meeting the deadline. The dashed lines are `trainmc plan`'s "
    "closed-form efficiency needed: the lowest at which Young's T equals the deadline.")
r.p()
files = {e: points(eff[e], "job.efficiency", f"eff-{e}") for e in names}
lo = min(s["values"]["job.efficiency"] for e in names for s in eff[e]["settings"])
hi = max(s["values"]["job.efficiency"] for e in names for s in eff[e]["settings"])
write_vars(f"{r.work}/efficiency.vars.gp", file1=files[names[0]], file2=files[names[1]],
           title1=names[0], title2=names[1],
           threshold1=plans[names[0]]["deadline"]["efficiency_needed"],
           threshold2=plans[names[1]]["deadline"]["efficiency_needed"],
           xlabel="job.efficiency (MFU)", title=f"P(T <= {deadline:g} days) against efficiency",
           xlo=lo - 0.05 * (hi - lo), xhi=hi + 0.05 * (hi - lo))
r.image("deadline-probability-efficiency.svg", "P(deadline) against efficiency")
for e in names:
    below, above = crossing(eff[e], "job.efficiency")
    need = plans[e]["deadline"]["efficiency_needed"]
    text = f"`{e}`: the closed form needs {pct(need, 2)} efficiency"
    if below and above:
        text += (f"; simulated, P(deadline) is {wilson(below[-1]['deadline'], 3)} at "
                 f"{below[-1]['values']['job.efficiency']:g} and {wilson(above[0]['deadline'], 3)} at "
                 f"{above[0]['values']['job.efficiency']:g}")
        between = [s["values"]["job.efficiency"] for s in eff[e]["settings"]
                   if 0 < s["deadline"]["probability"] < 1]
        text += (f"; it lies strictly between 0 and 1 at {len(between)} of the "
                 f"{len(eff[e]['settings'])} settings" +
                 (f" ({', '.join(f'{v:g}' for v in between)})." if between else "."))
    else:
        text += "; the simulated P(deadline) does not cross 0.5 in the range swept."
    r.p(text)
    r.p()
t = at["completion_days"]
r.p(f"The climb is steep because T's spread is small against its mean (at the stress case's boundary "
    f"below, sd {num(t['sd'], 3)} days against a mean of {num(t['mean'], 2)}): a run is the sum of "
    f"{count(at['inputs']['job']['steps'])} steps and many small interruptions, and a change of "
    "efficiency lengthens every one of those steps.")
r.p()
for e in names:
    r.p(f"`{eff[e]['experiment_path']}`:")
    r.p()
    table_one(eff[e], "job.efficiency")

# ---- the 0.95 target ---------------------------------------------------------
tg = target["target"]
r.p(f"## The lowest efficiency that meets the deadline with probability {tg['value']:g}")
r.p()
r.p(f"`trainmc sweep --target '{tg['text']}'` on `{target['experiment_path']}` bisects "
    f"{tg['key']} in [{tg['bracket'][0]:g}, {tg['bracket'][1]:g}] down to {tg['bracket'][2]:g}:")
r.p()
r.table([f"`{tg['key']}`", "K", "step (s)", "P [Wilson 95 %]", "meets"],
        [(f"{ev['values'][tg['key']]:.10g}", ev["closed_form"]["interval_steps"], num(ev["closed_form"]["step_s"]),
          wilson(ev["deadline"]), "yes" if ev["metric"]["meets"] else "no") for ev in target["evaluations"]])
fm, nm = tg["found_metric"], tg["neighbour_metric"]
r.p(f"Found {tg['key']} = {tg['found']:.10g} (P = {fm['value']:.4f} [{fm['ci95'][0]:.4f}, {fm['ci95'][1]:.4f}]); "
    f"{tg['neighbour']:.10g} gives {nm['value']:.4f} [{nm['ci95'][0]:.4f}, {nm['ci95'][1]:.4f}] and does not meet the "
    "target. " + ("The target lies inside one of the two Wilson intervals, so the boundary is not resolved "
                  "at this replica count." if tg["uncertain"] else
                  "Neither Wilson interval holds the target: the boundary is resolved at this replica count."))
r.p()
histogram_cdf(at, r.work, "at-target", f"{at['experiment']} at job.efficiency = {tg['found']:.10g}")
t = at["completion_days"]
r.p(f"The distribution of T at {tg['key']} = {tg['found']:.10g} ({count(at['replicas'])} replicas, a new run): "
    f"mean {pm(t['mean'], t['se'], 4)} days, sd {num(t['sd'], 4)}, p95 {num(t['quantiles']['p95'], 4)}; "
    f"P(T <= {deadline:g} d) = {wilson(at['deadline'])}.")
r.p()
r.image("deadline-probability-at-target.svg", "histogram and CDF of T at the efficiency found")

# ---- card count -------------------------------------------------------------
r.p("## Against the card count")
r.p()
key = "job.cards"
files = {e: points(cards[e], key, f"cards-{e}") for e in names}


def closed_form_threshold(sweep):
    """The smallest card count whose Young T meets the deadline."""
    ok = [s["values"][key] for s in sweep["settings"] if s["closed_form"]["completion_days"] <= deadline]
    return min(ok) if ok else float("nan")


lo = min(s["values"][key] for s in cards[names[0]]["settings"])
hi = max(s["values"][key] for s in cards[names[0]]["settings"])
write_vars(f"{r.work}/cards.vars.gp", file1=files[names[0]], file2=files[names[1]],
           title1=names[0], title2=names[1],
           threshold1=closed_form_threshold(cards[names[0]]), threshold2=closed_form_threshold(cards[names[1]]),
           xlabel="job.cards", title=f"P(T <= {deadline:g} days) against the card count",
           xlo=lo - 0.5, xhi=hi + 0.5)
r.p("The same two cases on 32 to 48 cards (the job is the same: fewer cards, longer steps). The dashed "
    "lines mark the smallest card count whose closed-form (Young) T meets the deadline.")
r.p()
r.image("deadline-probability-cards.svg", "P(deadline) against card count")
for e in names:
    meets = [s for s in cards[e]["settings"] if s["deadline"]["ci95"][0] >= 0.95]
    r.p(f"`{e}`: the closed form first meets the deadline at {closed_form_threshold(cards[e]):g} cards; "
        + (f"the simulation meets it with probability above 0.95 (the whole Wilson interval) from "
           f"{meets[0]['values'][key]:g} cards ({wilson(meets[0]['deadline'])})." if meets else
           "the simulation never meets it with probability above 0.95 in this range."))
    r.p()
table(cards, key, lambda v: f"{v:g}")
r.write()
