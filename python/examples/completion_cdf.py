#!/usr/bin/env python3
"""The empirical CDF of a training run's completion time, with its deadline.

Runs an experiment (by default experiments/design-48.json, the reference
design on 48 cards) for a few thousand replicas with trainmc and plots
P(T <= t) against t in days, the deadline marked with P(T <= deadline) and
its Wilson 95 % interval.

    . build/env.sh && "$TRAINMC_PYTHON" python/examples/completion_cdf.py --out cdf.png
    /usr/bin/python3 python/examples/completion_cdf.py --help

Needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib, which
.ci/setup installs for Debian's /usr/bin/python3; another python3 in PATH,
e.g. pyenv's, may lack them); --help needs neither.
Written as notebook cells (# %%): run them one by one in an editor that
knows them (the options then take their defaults), or the whole file as a
script.
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


def options(argv):
    p = argparse.ArgumentParser(
        description="Plot the empirical CDF of a trainmc experiment's completion time T, "
                    "with its deadline and P(T <= deadline).")
    p.add_argument("--out", default="completion_cdf.png", metavar="FILE.png",
                   help="the picture to write (default: %(default)s)")
    p.add_argument("--experiment", metavar="FILE.json",
                   default=os.path.join(HERE, os.pardir, os.pardir, "experiments",
                                        "design-48.json"),
                   help="the experiment to run (default: experiments/design-48.json)")
    p.add_argument("--replicas", type=integer_in(1, 10**9), default=4000,
                   help="replicas to run (default: %(default)s)")
    p.add_argument("--seed", type=integer_in(0, 2**53 - 1), default=1,
                   help="the run's seed (default: %(default)s)")
    # in a notebook the kernel's own arguments are not this script's
    return p.parse_args([] if "ipykernel" in sys.modules else argv)


args = options(sys.argv[1:])

import matplotlib  # noqa: E402 (after the options: --help needs no matplotlib)

if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")  # no screen: write the file only
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

import trainmc  # noqa: E402

out_path = args.out
experiment = args.experiment

# %% Run the replicas (a few seconds at most)
result = trainmc.run(experiment, replicas=args.replicas, seed=args.seed)
days = np.sort(result.completion_days)           # T per replica, days (reserve included)
deadline = result["deadline"]["days"]
p = result["deadline"]["probability"]           # P(T <= deadline)
low, high = result["deadline"]["ci95"]          # Wilson 95 % interval
young = result["closed_form"]["completion_days"]  # reserve + S t_s (1 + Young's L)
# with a restart budget (deadline.max_restarts), a run over it misses whatever
# its T: the probability is then below the CDF's height at the deadline
budget = result.get("restarts", {}).get("max_restarts")
met = "T ≤ deadline" if budget is None else f"T ≤ deadline and ≤ {budget} restarts"
print(f"{result['experiment']}: {result.replicas} replicas, mean T "
      f"{result['completion_days']['mean']:.3f} days, P(T <= {deadline:g} d"
      f"{'' if budget is None else f', <= {budget} restarts'}) = {p:.4f} "
      f"[{low:.4f}, {high:.4f}]")

# %% The empirical CDF: the share of replicas done by t
cdf = np.arange(1, days.size + 1) / days.size


def draw_cdf(ax, lw=1.8):
    ax.step(days, cdf, where="post", color="tab:blue", lw=lw,
            label=f"simulated T ({result.replicas:,} replicas)")
    ax.axvline(young, color="tab:gray", ls=":", lw=1.5,
               label=f"closed form (Young): {young:.2f} d")


# %% Plot: the deadline on the main axes; a zoom when T lies far from it
fig, ax = plt.subplots(figsize=(8, 6.2), constrained_layout=True)
draw_cdf(ax)
ax.axvline(deadline, color="tab:red", lw=2,
           label=f"deadline {deadline:g} d: P({met}) = {p:.3f}\n"
                 f"95 % interval [{low:.3f}, {high:.3f}]")
spread = max(days[-1] - days[0], 1e-3)
lo_x = min(days[0], deadline) - 0.05 * max(spread, abs(deadline - days[0]))
hi_x = max(days[-1], deadline) + 0.05 * max(spread, abs(deadline - days[0]))
ax.set_xlim(lo_x, hi_x)
ax.set_ylim(-0.02, 1.02)
ax.set_xlabel("completion time T (days, deadline reserve included)")
ax.set_ylabel("P(T ≤ t), share of replicas finished")
ax.set_title(f"{result['experiment']}: completion time CDF\n"
             f"P({met.replace('deadline', f'{deadline:g} d')}) = {p:.3f}, "
             f"95 % interval [{low:.3f}, {high:.3f}]")
ax.grid(alpha=0.3)
# below the axes: nothing drawn is hidden, wherever T and the deadline fall
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9, frameon=False)

far = (hi_x - lo_x) > 8 * spread  # the distribution is a near-vertical step here
if far:
    # inset: the distribution itself, away from the legend
    left = (days[0] - lo_x) / (hi_x - lo_x) > 0.5
    box = [0.06, 0.12, 0.4, 0.42] if left else [0.53, 0.12, 0.4, 0.42]
    inset = ax.inset_axes(box)
    draw_cdf(inset, lw=1.4)
    pad = 0.05 * spread
    inset.set_xlim(days[0] - pad, days[-1] + pad)
    inset.set_ylim(-0.02, 1.02)
    inset.set_title("zoom on T (the shaded band)", fontsize=9)
    inset.set_xlabel("T (days)", fontsize=8)
    inset.tick_params(labelsize=8)
    inset.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
    inset.grid(alpha=0.3)
    # where the zoom lies: a light band on the main axes, no connector lines
    # (they would cross the whole plot to reach the inset)
    ax.add_patch(matplotlib.patches.Rectangle(
        (days[0] - pad, -0.02), days[-1] - days[0] + 2 * pad, 1.04,
        facecolor="0.5", alpha=0.12, edgecolor="none", zorder=0))

# %% Save
fig.savefig(out_path, dpi=120)
print(f"wrote {out_path}")
