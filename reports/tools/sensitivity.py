"""Report (e): docs/model.md 5's sensitivity cases: the closed-form step time
(`trainmc plan`) and the simulated P(deadline) of each, under the design's
conditions and under the stress conditions of design-48-stress."""
from common import Report, experiment, count, num, pct, pm, wilson

CASES = ("design-48", "sensitivity-pcie-half", "sensitivity-prefetch-failed", "sensitivity-shared-nic",
         "sensitivity-efficiency-30", "sensitivity-input-5s", "design-32")

r = Report("sensitivity", "Sensitivity of the 48-card design (docs/model.md 5)")
plan = {e: r.json(f"{e}.plan.json") for e in CASES}
run = {e: r.json(f"{e}.run.json") for e in CASES}
stress = {e: r.json(f"{e}.stress.json") for e in CASES}
nic = r.json("nic-link.plan.json")
r.header([experiment(run[e]) for e in CASES],
         f"{count(run['design-48']['replicas'])} per case under the design's conditions, "
         f"{count(stress['design-48']['replicas'])} per case under stress (every step drawn).")
deadline = run["design-48"]["deadline"]["days"]


def says(e):
    """What the experiment's source quotes from docs/model.md."""
    return run[e]["source"].split(": ", 1)[1] if ": " in run[e]["source"] else run[e]["source"]


def verdict(p):
    return "meets" if p["probability"] >= 0.95 and p["ci95"][0] >= 0.95 else \
        "misses" if p["probability"] <= 0.05 and p["ci95"][1] <= 0.05 else "uncertain"


r.p("Each case changes one thing in `design-48` (docs/model.md 1: 48 RTX 4090 cards, 40 % MFU, 0.08 s of "
    "exposed communication, 0.5 s of input wait, no jitter, card failures every 337 days per card). "
    "The step time is `trainmc plan`'s closed form (docs/model.md 1): compute + exposed communication + "
    "input wait; the deadline leaves a step budget, and after Young's recovery overhead a ceiling.")
r.p()
r.p("## Closed form")
r.p()
rows = []
for e in CASES:
    p = plan[e]
    st, dl = p["step"], p["deadline"]
    rows.append((f"`{e}`", says(e) if e.startswith("sensitivity") else "",
                 run[e]["inputs"]["job"]["cards"], num(st["compute_s"]), num(st["exposed_comm_s"]),
                 num(st["input_wait_s"]), f"**{num(st['step_s'])}**", num(dl["ceiling_step_s"]),
                 num(dl["completion_days"]), "meets" if dl["meets"] else "misses", pct(dl["efficiency_needed"], 1)))
r.table(["experiment", "what it changes (the experiment's source)", "cards", "compute (s)", "exposed comm (s)",
         "input (s)", "step t_s (s)", "ceiling (s)", "Young T (d)", f"{deadline:g} d", "efficiency needed"],
        rows, ["l", "l", "r", "r", "r", "r", "r", "r", "r", "l", "r"])

base = plan["design-48"]
mu = base["step"]["compute_s"]
pf, sn = run["sensitivity-prefetch-failed"], run["sensitivity-shared-nic"]
r.p("**Checks against `trainmc plan`.**")
r.p()
worst = max(abs(plan[e]["step"]["step_s"] - run[e]["closed_form"]["step_s"]) for e in CASES)
r.p(f"- `trainmc run` uses the plan's step time in every case (largest difference {worst:.3g} s).")
r.p(f"- Failed prefetch: the plan of `design-48` exposes its {num(base['link']['link_s'])} s link "
    f"({base['link']['bytes'] / 1e9:.2f} GB at {base['link']['bytes'] / base['link']['link_s'] / 1e9:g} GB/s) "
    f"for a step of {num(base['link']['exposed_step_s'])} s; `sensitivity-prefetch-failed` steps "
    f"{num(pf['closed_form']['step_s'])} s.")
r.p(f"- Shared NIC: the plan at {nic['link']['bytes'] / nic['link']['link_s'] / 1e9:g} GB/s gives a "
    f"{num(nic['link']['link_s'])} s link and a step of {num(nic['link']['exposed_step_s'])} s when it is "
    f"exposed; `sensitivity-shared-nic` steps {num(sn['closed_form']['step_s'])} s, above the "
    f"{num(base['deadline']['ceiling_step_s'])} s ceiling.")
hp = plan["sensitivity-pcie-half"]
r.p(f"- Halved PCIe: the link takes {num(hp['link']['link_s'])} s per step at "
    f"{hp['link']['bytes'] / hp['link']['link_s'] / 1e9:g} GB/s, still shorter than the "
    f"{num(hp['step']['compute_s'])} s of compute, so it hides; only the exposed part grows.")
r.p(f"- docs/model.md's figures add rounded parts (mu = {mu:.1f} s, link times to 0.1 s); trainmc adds the "
    f"unrounded ones (mu = {num(mu)} s), so its step times can differ from docs/model.md's in the first "
    "decimal.")
r.p()

r.p("## Simulated P(deadline)")
r.p()
r.p(f"Each case simulated as it is (no jitter, card failures only), and again under the stress "
    f"conditions of `design-48-stress` (5 % normal jitter, a loss spike every 7 days, a common "
    f"outage every day, given as `--set` overrides), which add the straggler term c_N sigma to the "
    f"step and more interruptions.")
r.p()
rows = []
for e in CASES:
    d, s = run[e], stress[e]
    rows.append((f"`{e}`", num(d["closed_form"]["completion_days"]),
                 pm(d["completion_days"]["mean"], d["completion_days"]["se"], 3), wilson(d["deadline"]),
                 num(s["closed_form"]["step_s"]), num(s["closed_form"]["completion_days"]),
                 pm(s["completion_days"]["mean"], s["completion_days"]["se"], 3), wilson(s["deadline"])))
r.table(["experiment", "Young T (d)", "simulated T (d)", "P [Wilson 95 %]", "stress: step (s)", "Young T (d)",
         "simulated T (d)", "P [Wilson 95 %]"], rows, ["l"] + ["r"] * 7)
for e in CASES:
    cf = "meets" if plan[e]["deadline"]["meets"] else "misses"
    sim, st = verdict(run[e]["deadline"]), verdict(stress[e]["deadline"])
    agree = "as the closed form says" if sim == cf else f"while the closed form says it {cf}"
    r.p(f"- `{e}`: {sim} the deadline ({agree}); under stress it {st} it "
        f"(P = {stress[e]['deadline']['probability']:.4f}).")
r.p()
r.p("\"meets\" means P(deadline) >= 0.95 with the whole Wilson interval above 0.95, \"misses\" P <= 0.05 "
    "with the whole interval below; anything else is \"uncertain\".")
r.p()
undecided = [e for e in CASES if verdict(run[e]["deadline"]) == "uncertain"]
turned = [e for e in CASES if verdict(run[e]["deadline"]) != verdict(stress[e]["deadline"])]
sd = max(run[e]["completion_days"]["sd"] for e in CASES)
r.p(f"Without jitter T varies only through the card failures (sd at most {num(sd, 4)} days over these "
    "cases), " + ("so every case is decided one way. " if not undecided else
                  "yet " + ", ".join(f"`{e}`" for e in undecided) + " lies near the deadline. ") +
    ("Under stress the straggler wait and the extra interruptions turn " +
     ", ".join(f"`{e}`" for e in turned) + " around." if turned else
     "The stress conditions change no verdict."))
r.p()
r.write()
