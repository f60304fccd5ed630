"""Shared pieces of the report writers (reports/tools/*.py).

Each writer is called by reports/make_reports.sh as
    python3 reports/tools/NAME.py WORK OUT
where WORK holds the trainmc JSON files of that report and commands.txt (the
trainmc commands that made them), and OUT is the folder the report goes to.
A writer reads the JSON, writes data files and a gnuplot variables file into
WORK for the plots, and the Markdown into OUT. Every number in a report comes
from a trainmc JSON file; nothing is typed in by hand.
"""
import json
import math
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


# ---- numbers --------------------------------------------------------------

def num(x, digits=3):
    """A fixed-point number with thousands separators: 12,345.678."""
    return f"{x:,.{digits}f}"


def count(n):
    return f"{int(n):,}"


def pct(x, digits=3):
    """A fraction as a percentage: 0.01081 -> '1.081 %'."""
    return f"{100 * x:.{digits}f} %"


def pm(mean, se, digits=3, scale=1.0, unit=""):
    """mean ± se; up to two more digits when the se would round to 0."""
    d = digits
    while d < digits + 2 and 0 < abs(se * scale) < 0.5 * 10 ** -d:
        d += 1
    return f"{mean * scale:.{d}f} ± {se * scale:.{d}f}{unit}"


def wilson(deadline, digits=4):
    lo, hi = deadline["ci95"]
    return f"{deadline['probability']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def z(value, reference, se):
    """(value - reference) / se, or None when se is 0."""
    return (value - reference) / se if se > 0 else None


def zs(value, reference, se):
    d = z(value, reference, se)
    return "-" if d is None else f"{d:+.1f}"


# ---- files ----------------------------------------------------------------

def write_data(path, columns, rows):
    """A whitespace-separated data file for gnuplot, columns named in a comment."""
    with open(path, "w") as f:
        f.write("# " + " ".join(columns) + "\n")
        for row in rows:
            f.write(" ".join(repr(float(v)) for v in row) + "\n")


def write_vars(path, **variables):
    """A gnuplot file of variable assignments (numbers and strings)."""
    with open(path, "w") as f:
        for key, value in variables.items():
            if isinstance(value, str):
                value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            elif isinstance(value, bool):
                value = int(value)
            else:
                value = repr(float(value))
            f.write(f"{key} = {value}\n")


def histogram_cdf(run, work, prefix, title):
    """Data and variables for histogram_cdf.gp from one `trainmc run --json`:
    the 20-bin histogram of T, the empirical CDF at the bin edges (the share
    of replicas with T below the edge) and GSL's quantiles."""
    t = run["completion_days"]
    edges, counts = t["histogram"]["edges"], t["histogram"]["counts"]
    n = sum(counts)
    write_data(f"{work}/{prefix}.hist.dat", ["left", "right", "count", "share"],
               [(edges[i], edges[i + 1], c, c / n) for i, c in enumerate(counts)])
    below, cdf = 0, []
    for i, c in enumerate(counts):
        cdf.append((edges[i], below / n))
        below += c
    cdf.append((edges[-1], below / n))
    write_data(f"{work}/{prefix}.cdf.dat", ["days", "share_below"], cdf)
    q = t["quantiles"]
    write_data(f"{work}/{prefix}.quantiles.dat", ["days", "level"],
               [(q[k], int(k[1:]) / 100) for k in ("p01", "p05", "p50", "p95", "p99")])
    deadline = run["deadline"]["days"]
    lo, hi = t["min"], t["max"]
    width = max(hi - lo, 1e-9)
    inside = lo - 0.25 * width <= deadline <= hi + 0.25 * width
    if inside:
        hist_lo, hist_hi = min(lo, deadline) - 0.05 * width, max(hi, deadline) + 0.05 * width
        note = f"deadline {deadline:g} d"
    else:
        hist_lo, hist_hi = lo - 0.05 * width, hi + 0.05 * width
        side = "right" if deadline > hi else "left"
        gap = deadline - hi if deadline > hi else lo - deadline
        sd = f", {gap / t['sd']:.0f} sd" if t["sd"] > 0 else ""
        note = f"deadline {deadline:g} d: {gap:.2f} d off the {side} edge{sd}"
    span = max(hi, deadline) - min(lo, deadline)
    write_vars(f"{work}/{prefix}.vars.gp",
               hist=f"{work}/{prefix}.hist.dat", cdf=f"{work}/{prefix}.cdf.dat",
               quantiles=f"{work}/{prefix}.quantiles.dat", title=title,
               deadline=deadline, deadline_in_hist=inside, deadline_note=note,
               hist_xlo=hist_lo, hist_xhi=hist_hi,
               cdf_xlo=min(lo, deadline) - 0.05 * span, cdf_xhi=max(hi, deadline) + 0.05 * span,
               replicas=run["replicas"],
               probability=f"P(T <= {deadline:g} d) = {wilson(run['deadline'])}")


# ---- the report -----------------------------------------------------------

class Report:
    """Markdown lines, with the header and the footer every report carries."""

    def __init__(self, name, title):
        self.work, self.out = sys.argv[1], sys.argv[2]
        self.name = name
        self.lines = [f"# {title}", ""]
        self.quick = os.environ.get("REPORT_QUICK") == "1"
        self.version = os.environ.get("REPORT_VERSION", "unknown")
        self.invocation = os.environ.get("REPORT_INVOCATION", "bash reports/make_reports.sh")

    def json(self, name):
        return load(f"{self.work}/{name}")

    def p(self, text=""):
        self.lines.append(text)

    def table(self, head, rows, align=None):
        align = align or ["r"] * len(head)
        self.p("| " + " | ".join(head) + " |")
        self.p("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
        for row in rows:
            self.p("| " + " | ".join(str(c) for c in row) + " |")
        self.p()

    def image(self, file, alt):
        self.p(f"![{alt}]({file})")
        self.p()

    def header(self, experiments, replicas):
        """experiments: (path, source) pairs; replicas: a sentence."""
        if self.quick:
            self.p("> **Quick version** (`--quick`): few replicas, made to check the pipeline; "
                   "its numbers are not for conclusions.")
            self.p()
        self.p(f"Generated by `{self.invocation}` with {self.version} "
               f"(`trainmc --version`), seed {os.environ.get('REPORT_SEED', '1')}; "
               "do not edit by hand. The trainmc commands it ran are listed at the end.")
        self.p()
        self.p(f"Replicas: {replicas}")
        self.p()
        seen = []
        for path, source in experiments:
            if (path, source) not in seen:
                seen.append((path, source))
        self.table(["experiment", "source"], [(f"`{p}`", s) for p, s in seen], ["l", "l"])

    def write(self):
        self.p("## How this report was made")
        self.p()
        self.p(f"`{self.invocation}` ran, from the repository's top folder "
               "(`WORK` is a temporary folder):")
        self.p()
        self.p("```sh")
        with open(f"{self.work}/commands.txt") as f:
            self.lines.extend(line.rstrip("\n") for line in f)
        self.p("```")
        path = f"{self.out}/{self.name}.md"
        with open(path + ".tmp", "w") as f:
            f.write("\n".join(self.lines).rstrip("\n") + "\n")
        os.replace(path + ".tmp", path)


def experiment(d):
    """(path, source) of a run or sweep JSON."""
    return d["experiment_path"], d["source"]


def isfinite(x):
    return x is not None and math.isfinite(x)


# ---- checkpoint-interval sweeps ---------------------------------------------

def setting_tau(s):
    """The interval a sweep setting ran: K steps x t_s, seconds."""
    return s["closed_form"]["interval_s"]


def interval_plot(sweep, curve, work, prefix, title):
    """Data and variables for interval.gp: `sweep` is a `trainmc sweep --json`
    over checkpoint.interval_s (the simulated points), `curve` one over
    checkpoint.interval_steps with 2 replicas (only its closed forms are used)."""
    taus = [setting_tau(s) for s in sweep["settings"]]
    xlo, xhi = min(taus) / 1.25, max(taus) * 1.25
    rows = []
    for s in curve["settings"]:
        c = s["closed_form"]
        if xlo <= c["interval_s"] <= xhi:
            rows.append((c["interval_s"], 100 * c["overhead_young"], 100 * c["overhead_daly"],
                         100 * (c["overhead_daly"] - c["overhead_young"])))
    write_data(f"{work}/{prefix}.curve.dat", ["tau_s", "young_pct", "daly_pct", "daly_minus_young"], rows)
    write_data(f"{work}/{prefix}.points.dat", ["tau_s", "simulated_pct", "se_pct", "minus_young"],
               [(setting_tau(s), 100 * s["overhead"]["mean"], 100 * s["overhead"]["se"],
                 100 * (s["overhead"]["mean"] - s["closed_form"]["overhead_young"]))
                for s in sweep["settings"]])
    best = best_setting(sweep)
    cf = sweep["settings"][0]["closed_form"]
    write_vars(f"{work}/{prefix}.vars.gp", curve=f"{work}/{prefix}.curve.dat",
               points=f"{work}/{prefix}.points.dat", title=title,
               young_tau=cf["young_interval_s"], daly_tau=cf["daly_interval_s"],
               best_tau=setting_tau(best), xlo=xlo, xhi=xhi)


def best_setting(sweep):
    """The setting with the lowest simulated mean overhead."""
    return min(sweep["settings"], key=lambda s: s["overhead"]["mean"])


def interval_table(report, sweep, key="checkpoint.interval_s"):
    """One row per setting: closed forms beside the simulation and the CRN difference."""
    rows = []
    for s in sweep["settings"]:
        c, o, d = s["closed_form"], s["overhead"], s["difference_days"]
        if d is None or d.get("variance_reduction") is None:
            diff, vrf = "best", "-"
        else:
            diff, vrf = f"{d['mean']:+.5f} ± {d['se']:.5f}", f"{d['variance_reduction']:.1f}"
        rows.append((f"{s['values'][key]:g}", c["interval_steps"], num(c["interval_s"], 1),
                     pct(c["overhead_young"]), pct(c["overhead_daly"]), pm(o["mean"], o["se"], 3, 100, " %"),
                     zs(o["mean"], c["overhead_daly"], o["se"]), diff, vrf))
    report.table([f"`{key}`", "K", "tau = K t_s (s)", "Young L", "Daly", "simulated overhead",
                  "(sim - Daly) / se", "T - T(best) (days, CRN)", "VRF"], rows)


def optimum_text(sweep, unit_of_value="s"):
    """Young's and Daly's optimum beside the simulated best and its 2-se set."""
    opt = sweep["optimum"][0]
    best = best_setting(sweep)
    within = [v for v in opt["within_2se"] if v != opt["best"]]
    return (f"Young's tau* = {num(opt['young_interval_s'], 0)} s, Daly's tau_opt = "
            f"{num(opt['daly_interval_s'], 0)} s; simulated, the lowest mean overhead is at "
            f"`{opt['key']}={opt['best']:g}` (tau = {num(setting_tau(best), 0)} s), and "
            + ("no other setting is within 2 standard errors (CRN) of it."
               if not within else
               "within 2 standard errors (CRN) of it: " + ", ".join(f"{v:g}" for v in within) + "."))
