"""Report (f): where Young's first-order overhead fails. 16,384 cards (M about
30 minutes): Young against Daly against the simulation; 1,024 cards: docs/model.md
3.4's first-order 300 / 900 / 1,800 s figures beside the simulation, with a
generated explanation of the difference."""
import re

from common import (Report, experiment, interval_plot, interval_table, optimum_text, count, num, pct, pm)

r = Report("large-scale", "Thousands of cards: where Young's first-order overhead fails")
big, curve, k1 = r.json("cards-16384.sweep.json"), r.json("cards-16384.curve.json"), r.json("cards-1024.sweep.json")
r.header([experiment(big), experiment(k1)],
         f"{count(big['replicas'])} per interval; the closed-form curves come from a sweep of "
         f"{count(curve['replicas'])} replicas whose simulated part is not used.")


def z(s):
    o = s["overhead"]
    return (o["mean"] - s["closed_form"]["overhead_daly"]) / o["se"]


# ---- 16,384 cards -------------------------------------------------------------
cf = big["settings"][0]["closed_form"]
M = cf["mtbf_s"]
r.p("## 16,384 cards")
r.p()
r.p(f"`{big['experiment_path']}`: {big['source']}. A step takes {num(cf['step_s'])} s and the run "
    f"{num(big['settings'][0]['inputs']['job']['steps'] * cf['step_s'] / 3600, 1)} hours without "
    f"interruptions; M = {num(M, 0)} s ({num(M / 60, 1)} minutes) between failures.")
r.p()
interval_plot(big, curve, r.work, "cards-16384", f"{big['experiment']}: overhead against the checkpoint interval")
r.image("large-scale-16384.svg", "overhead against interval at 16,384 cards")
interval_table(r, big)
design = max(big["settings"], key=lambda s: s["values"]["checkpoint.interval_s"])
dc, do = design["closed_form"], design["overhead"]
zs_ = [z(s) for s in big["settings"]]
r.p(f"At the longest interval, the design's {design['values']['checkpoint.interval_s']:g} s "
    f"(tau / M = {dc['interval_s'] / M:.2f}), Young's L is {pct(dc['overhead_young'], 1)}, Daly's "
    f"{pct(dc['overhead_daly'], 1)} and the simulation {pm(do['mean'], do['se'], 1, 100, ' %')}: the first-order "
    f"formula misses {100 * (do['mean'] - dc['overhead_young']):.0f} percentage points, "
    f"{24 * (dc['completion_days_daly'] - dc['completion_days']):.2f} hours of a "
    f"{24 * (design['completion_days']['mean'] - design['inputs']['deadline']['reserve_days']):.2f}-hour run. "
    + optimum_text(big) +
    f" Every simulated overhead lies within {max(abs(v) for v in zs_):.1f} standard errors of Daly's "
    "(failures are exponential and there is no jitter, so Daly's T_wall is exact for the engine's "
    "semantics).")
r.p()
if all(v < 0 for v in zs_) or all(v > 0 for v in zs_):
    r.p("The simulated values all fall on the same side of Daly's. That need not be a bias: under "
        "common random numbers every interval runs the same replicas, which meet the same failures, "
        f"so their errors move together, and the {len(zs_)} deviations are close to one fluctuation, "
        f"not {len(zs_)} independent ones.")
    r.p()

# ---- 1,024 cards ----------------------------------------------------------------
m = re.search(r"([\d.]+) / ([\d.]+) / ([\d.]+) % at ([\d,]+) / ([\d,]+) / ([\d,]+) s", k1["source"])
model = {}
if m:
    for i in range(3):
        model[float(m.group(4 + i).replace(",", ""))] = m.group(1 + i)
M1 = k1["settings"][0]["closed_form"]["mtbf_s"]
r.p("## 1,024 cards: docs/model.md 3.4's first-order figures beside the simulation")
r.p()
r.p(f"`{k1['experiment_path']}`: {k1['source']}. M = {num(M1, 0)} s ({num(M1 / 3600, 2)} h).")
r.p()
rows = []
for s in k1["settings"]:
    c, o = s["closed_form"], s["overhead"]
    v = s["values"]["checkpoint.interval_s"]
    rows.append((f"{v:g}", num(c["interval_s"], 1), f"{c['interval_s'] / M1:.3f}",
                 (model.get(v, "") + " %") if model.get(v) else "", pct(c["overhead_young"], 1),
                 pct(c["overhead_young"]), pct(c["overhead_daly"]), pm(o["mean"], o["se"], 3, 100, " %"),
                 f"{100 * (o['mean'] - c['overhead_young']):+.3f}", f"{z(s):+.1f}"))
r.table(["`checkpoint.interval_s`", "tau = K t_s (s)", "tau / M", "docs/model.md 3.4 (first order)",
         "Young L, rounded", "Young L", "Daly", "simulated", "simulated - Young (points)", "(sim - Daly) / se"], rows)

def share(s):
    """The part of Daly's overhead that Young's first order leaves out."""
    c = s["closed_form"]
    return (c["overhead_daly"] - c["overhead_young"]) / c["overhead_daly"]


young_ok = all(f"{100 * s['closed_form']['overhead_young']:.1f}" == model.get(s["values"]["checkpoint.interval_s"])
               for s in k1["settings"]) if model else False
gaps = [100 * (s["overhead"]["mean"] - s["closed_form"]["overhead_young"]) for s in k1["settings"]]
gse = [g / (100 * s["overhead"]["se"]) for g, s in zip(gaps, k1["settings"])]
ratios = [s["closed_form"]["interval_s"] / M1 for s in k1["settings"]]
c = k1["settings"][0]["inputs"]["checkpoint"]
r.p("**Why they differ.** " +
    ("trainmc's Young L, rounded to one decimal, is docs/model.md's figure at each interval: docs/model.md 3.4 "
     "reports the first-order formula. " if young_ok else
     "trainmc's Young L, rounded to one decimal, differs from docs/model.md's figure at some interval (see the "
     "table). ") +
    ("The simulation is higher by " if all(g > 0 for g in gaps) else "The simulation differs by ")
    + ", ".join(f"{g:.2f}" for g in gaps) + " percentage points ("
    + ", ".join(f"{v:.0f}" for v in gse) + " standard errors), and equals Daly's higher-order "
    f"expectation within {max(abs(z(s)) for s in k1['settings']):.1f} standard errors. Young's "
    "L = c/tau + (tau/2 + r)/M keeps only the first order in tau/M (here "
    + ", ".join(f"{v:.3f}" for v in ratios) + f") and in c/M and r/M (c = {c['save_s']:g} s, "
    f"r = {c['restore_s']:g} s: {c['save_s'] / M1:.4f} and {c['restore_s'] / M1:.4f}). What it drops: "
    "failures strike saves and restores too (a struck save is lost with its segment, a struck "
    "restore starts again), and the failure rate applies to the whole wall time, saves included; "
    "these cross terms are of order c/M and (c/tau)(r/M) and weigh most at short intervals. A "
    "segment can also fail more than once before it commits, and a failed segment loses its "
    "save-lengthened length tau + c: terms of order (tau/M)^2, which grow with the interval. "
    "Daly's T_wall = M e^(r/M) (e^((tau+c)/M) - 1) per segment keeps every order, and with "
    "exponential failures and no jitter the engine's semantics are exactly its assumptions, so "
    "the simulation must agree with Daly, not with Young. At 1,024 cards the terms Young drops are "
    + ", ".join(f"{100 * share(s):.1f} %" for s in k1["settings"]) + " of Daly's overhead at these "
    f"intervals; at 16,384 cards (above) they are {100 * share(design):.0f} % of it at "
    f"{design['values']['checkpoint.interval_s']:g} s, "
    f"where tau / M = {dc['interval_s'] / M:.2f}.")
r.p()
r.write()
