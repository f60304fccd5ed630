#!/usr/bin/env python3
"""Plan a run: how many cards meet the deadline, at what cost.

Asks trainmc's `cheapest` search (trainmc.cheapest) for the plan of lowest
expected cost whose P(T <= deadline) meets a target, over a range of card
counts, then plots P(deadline) with its Wilson 95 % interval against the
card count of every plan the search ran (the same replicas and seed for
each: common random numbers) and, beside it, of every card count near the
chosen plan (trainmc.sweep), the target and the chosen plan marked; then
asks what moves the chosen plan's P(deadline) (trainmc.sensitivity: each
uncertain input at the ends of its range) and saves its HTML report, one
self-contained page to share (the tornado, the answer first, the
experiment), and the search's text report, beside the picture.

    . build/env.sh && "$TRAINMC_PYTHON" python/examples/plan_cards.py --out cards.png
    /usr/bin/python3 python/examples/plan_cards.py --help

Needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib);
--help needs neither. Written as notebook cells (# %%).
"""
# %% Options: parsed before anything heavy is imported, so --help is quick
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def integer_in(lo, hi):
    """An argparse type: an integer in [lo, hi], else a usage error naming the range."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text!r}: expected an integer in [{lo}, {hi}]")
        return value
    return parse


def probability(text):
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a probability in (0, 1)")
    return value


def options(argv):
    p = argparse.ArgumentParser(
        description="Plan a run with trainmc: the cheapest card count whose P(T <= deadline) "
                    "meets a target; plot P(deadline) against the cards and save the report.")
    p.add_argument("--out", default="plan_cards.png", metavar="FILE.png",
                   help="the picture to write (default: %(default)s); the search's report "
                        "goes beside it as FILE.txt, the chosen plan's HTML report as "
                        "FILE.html")
    p.add_argument("--experiment", metavar="FILE.json",
                   default=os.path.join(HERE, os.pardir, os.pardir, "experiments",
                                        "design-48-stress.json"),
                   help="the experiment to plan (default: experiments/design-48-stress.json, "
                        "the 48-card design with jitter, loss spikes and outages)")
    p.add_argument("--cards", default="24:96", metavar="LO:HI",
                   help="the card counts searched (default: %(default)s)")
    p.add_argument("--target", type=probability, default=0.9,
                   help="P(T <= deadline) to meet (default: %(default)s)")
    p.add_argument("--replicas", type=integer_in(2, 10**9), default=400,
                   help="replicas per plan (default: %(default)s)")
    p.add_argument("--seed", type=integer_in(0, 2**53 - 1), default=1,
                   help="the search's seed (default: %(default)s)")
    args = p.parse_args([] if "ipykernel" in sys.modules else argv)
    if not args.out.endswith(".png"):
        p.error(f"--out {args.out!r}: expected a FILE.png")
    return args


args = options(sys.argv[1:])

import matplotlib  # noqa: E402 (after the options: --help needs no matplotlib)

if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")  # no screen: write the file only
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import trainmc  # noqa: E402

# %% The search: every plan it ran, under common random numbers
plan = trainmc.cheapest(args.experiment, target=args.target,
                        levers={"job.cards": args.cards}, replicas=args.replicas,
                        seed=args.seed)
search = [p for p in plan.rows if p["replicas_stream"] == "search" and not p["refused"]]
search.sort(key=lambda p: p["cards"])
cards = np.array([p["cards"] for p in search])
prob = np.array([p["p_deadline"]["value"] for p in search])
low = np.array([p["p_deadline"]["ci95"][0] for p in search])
high = np.array([p["p_deadline"]["ci95"][1] for p in search])
chosen = plan["chosen"]
print(plan.text)

# %% Every card count near the chosen one (a sweep, the same replicas and seed)
near = None
if chosen:
    lo_c = max(1, chosen["cards"] - 6)
    near = trainmc.sweep(args.experiment, {"job.cards": list(range(lo_c, chosen["cards"] + 4))},
                         replicas=args.replicas, seed=args.seed)
    near_frame = near.to_frame()


# %% Plot P(deadline) against the cards: the search's plans, then the zoom
def draw(ax, x, p, lo, hi, **kw):
    ax.errorbar(x, p, yerr=[p - lo, hi - p], fmt="o-", capsize=3, **kw)
    ax.axhline(args.target, color="tab:red", ls="--", lw=1.5, label=f"target {args.target:g}")
    if chosen:
        ax.plot([chosen["cards"]], [chosen["p_deadline"]["value"]], "*", ms=16,
                color="tab:green", zorder=5,
                label=f"chosen: {chosen['cards']} cards, P {chosen['p_deadline']['value']:.3f} "
                      f"on fresh replicas,\n{chosen['cost']['mean']:,.0f} {plan['cost_unit']}")
    ax.set_xlabel("cards (job.cards)")
    ax.set_ylim(-0.03, 1.03)
    ax.grid(alpha=0.3)
    ax.legend(loc="center right", fontsize=8)


fig, axes = plt.subplots(1, 2 if near else 1, figsize=(12 if near else 7, 5.2),
                         constrained_layout=True, squeeze=False)
draw(axes[0][0], cards, prob, low, high, color="tab:blue",
     label=f"the search's plans ({args.replicas:,} replicas each)")
axes[0][0].set_ylabel("P(T ≤ deadline), 95 % interval")
axes[0][0].set_title(f"the search over job.cards={args.cards}")
if near:
    f = near_frame
    draw(axes[0][1], f["job.cards"].to_numpy(), f["probability"].to_numpy(),
         f["probability_lo"].to_numpy(), f["probability_hi"].to_numpy(), color="tab:purple",
         label="every card count (sweep, common random numbers)")
    axes[0][1].set_title("near the chosen plan")
fig.suptitle(f"{plan['experiment']}: P(deadline) against the cards; the cheapest plan with "
             f"P ≥ {args.target:g}: " + (f"{chosen['cards']} cards" if chosen else "none meets"))

# %% What moves the chosen plan's P(deadline): its sensitivity, a page to share
page = None
if chosen:
    plan_sets = [f"job.cards={chosen['cards']}"] + chosen["overrides"]  # the chosen plan
    what_if = trainmc.sensitivity(args.experiment, overrides=plan_sets,
                                  replicas=args.replicas, seed=args.seed)
    page = what_if.html  # the page `trainmc sensitivity --html` writes
    print(what_if.text)

# %% Save the picture, the search's report and the HTML report
fig.savefig(args.out, dpi=120)
report_path = args.out[:-4] + ".txt"
with open(report_path, "w", encoding="utf-8") as f:
    f.write(plan.text)
written = [args.out, report_path]
if page:
    html_path = args.out[:-4] + ".html"
    what_if.save_html(html_path)
    written.append(html_path)
print("wrote " + ", ".join(written))
