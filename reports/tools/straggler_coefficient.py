"""Report (c): the straggler coefficient c_N against N (`trainmc emax`):
quadrature, simulation, the reference design's values, two approximations;
and the 48-card step time docs/model.md 2 derives from it."""
from common import Report, count, num, write_data, write_vars

NAN = float("nan")
STRESS = "experiments/design-48-stress.json"  # the plan make_reports.sh runs for mu

r = Report("straggler-coefficient", "The straggler coefficient c_N against the card count N")
emax, step, plan = r.json("emax.json"), r.json("step.json"), r.json("plan.json")
r.header([("trainmc emax", emax["source"] + ": c_N = E[max of N standard normals]"),
          (STRESS, plan["source"] + " (mu and the per-step time outside compute, from `trainmc plan`)")],
         f"{count(emax['replicas'])} draws per card count (the O(1) sampler and, for N <= "
         f"{emax['brute_force_max_cards']}, brute force).")


def val(x):
    return NAN if x is None else x


rows = []
for c in emax["cards"]:
    bf = c["brute_force"] or {}
    rows.append((c["n"], c["quadrature"]["mean"], c["quadrature"]["sd"], c["sampler"]["mean"], c["sampler"]["se"],
                 val(bf.get("mean")), val(bf.get("se")), c["blom"]["value"], val(c["gumbel"]["value"]),
                 val(c["reference"])))
write_data(f"{r.work}/emax.dat", ["n", "quad", "sd", "sampler", "sampler_se", "brute", "brute_se", "blom",
                                  "gumbel", "reference"], rows)
write_vars(f"{r.work}/emax.vars.gp", data=f"{r.work}/emax.dat", replicas=emax["replicas"])

r.p("Every step waits for the slowest of N cards, so with per-card compute times Normal(mu, sigma) "
    "the expected step is mu + c_N sigma + the time outside compute (docs/model.md 2). The plot shows c_N "
    "from GSL quadrature (the reference), the mean of simulated maxima drawn by the engine's own O(1) "
    "sampler, the reference design's rounded values, and Blom's and the Gumbel approximation; the lower "
    "panel subtracts the quadrature (error bars +- 1.96 se; the Gumbel expansion is left out there, "
    "its error is in the table).")
r.p()
r.image("straggler-coefficient.svg", "c_N against N")

table = []
for c in emax["cards"]:
    s, bf = c["sampler"], c["brute_force"]
    table.append((count(c["n"]), f"{c['quadrature']['mean']:.5f}", f"{c['quadrature']['sd']:.5f}",
                  "" if c["reference"] is None else f"{c['reference']:.2f}",
                  f"{s['mean']:.5f} ± {s['se']:.5f}", f"{s['mean_diff_se']:+.2f}", f"{s['sd_diff_se']:+.2f}",
                  "" if bf is None else f"{bf['mean']:.5f} ± {bf['se']:.5f}",
                  "" if bf is None else f"{bf['mean_diff_se']:+.2f}",
                  f"{c['blom']['error']:+.5f}",
                  "" if c["gumbel"]["error"] is None else f"{c['gumbel']['error']:+.5f}"))
r.table(["N", "c_N (quadrature)", "sd of the max", "ref.", "sampler mean ± se", "diff (se)", "sd diff (se)",
         "brute force ± se", "diff (se)", "Blom error", "Gumbel error"], table)

diffs = []
for c in emax["cards"]:
    for name, part in (("sampler", c["sampler"]), ("brute force", c["brute_force"])):
        if part:
            diffs += [(abs(part["mean_diff_se"]), f"{name} mean at N = {count(c['n'])}"),
                      (abs(part["sd_diff_se"]), f"{name} sd at N = {count(c['n'])}")]
worst = max(diffs)
refs = [c for c in emax["cards"] if c["reference"] is not None]
equal = [c for c in refs if round(c["quadrature"]["mean"], 2) == c["reference"]]
beyond = sum(1 for d, _ in diffs if d > 4)
r.p(f"**Check.** Of the {len(diffs)} simulated means and standard deviations, the largest distance from "
    f"quadrature is {worst[0]:.2f} standard errors ({worst[1]}); {beyond} lie beyond 4. The errors "
    "of different N are correlated (every N draws from the same streams), so one low fluctuation "
    "shows at several N. The reference design's values "
    + ", ".join(f"{c['reference']:.2f}" for c in refs) + " (at N = "
    + ", ".join(count(c["n"]) for c in refs) + f") equal c_N rounded to two decimals in {len(equal)} "
    f"of {len(refs)} cases. Blom's approximation stays within "
    f"{max(abs(c['blom']['error']) for c in emax['cards']):.3f} of c_N over N = "
    f"{count(emax['cards'][0]['n'])} to {count(emax['cards'][-1]['n'])}; the Gumbel expansion is "
    "always too high, by a margin that shrinks only slowly with N (normal maxima approach the "
    "Gumbel law at rate 1 / ln N).")
r.p()

st, s48 = step["step"], step["cards"][0]["step_s"]
r.p("## The step time it implies (docs/model.md 2)")
r.p()
r.p(f"For `{STRESS}` "
    f"`trainmc plan` gives mu = {num(st['mu_s'])} s of compute per card and "
    f"{num(st['fixed_s'])} s per step outside compute; its jitter file gives sigma = "
    f"{100 * st['sigma_s'] / st['mu_s']:.0f} % of mu = {num(st['sigma_s'])} s. At N = {step['cards'][0]['n']}:")
r.p()
r.table(["", "seconds"],
        [("mu + c_N sigma + fixed, quadrature", num(s48["quadrature"], 4)),
         (f"the same with the simulated mean of {count(step['replicas'])} maxima",
          f"{num(s48['simulated'], 4)} ± {num(s48['se'], 4)}"),
         ("`trainmc plan`'s step t_s for the experiment", num(plan["step"]["step_s"], 4))], ["l", "r"])
r.p("This is docs/model.md 2's example (48 cards, sigma = 5 % of mu); the plan's step, which "
    "`trainmc run` uses, is the quadrature line.")
r.p()
r.write()
