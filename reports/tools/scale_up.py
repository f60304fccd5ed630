"""Report (g): the 6ND scale-up table (issue 20, item 4), closed form against
simulated recovery. Unlike the other writers this one also drives trainmc:
each case's card count and checkpoint interval come from an earlier trainmc
answer (the closed-form card count from `plan`, Daly's optimum from `run`),
so the experiments are written from a template into WORK and run from here.

    python3 reports/tools/scale_up.py WORK OUT

called by reports/make_scale_up.sh, which sets REPORT_TRAINMC (the binary),
REPORT_ROOT (the repository), REPORT_SEED, REPORT_QUICK, REPORT_VERSION and
REPORT_INVOCATION. Every number in the report comes from a trainmc JSON or
samples file written here; the Python only does arithmetic on them (sums,
ratios, the 0.9 quantile of the samples)."""
import csv
import json
import math
import os
import subprocess
import sys
import time

from common import Report, count, load, num, pct, pm, wilson, write_data, write_vars

TRAINMC = os.environ["REPORT_TRAINMC"]
ROOT = os.environ["REPORT_ROOT"]
SEED = int(os.environ.get("REPORT_SEED", "1"))
QUICK = os.environ.get("REPORT_QUICK") == "1"
R_RUN = 100 if QUICK else 1000      # the run at the closed-form card count
R_SEARCH = 50 if QUICK else 300     # each evaluation of a card search
TARGET = 0.9                        # P(deadline) the searches must reach

# A binary without a command the report needs would refuse every row with
# exit code 2, like an experiment it cannot finish: stop before that.
for needed in ("plan", "run", "rescue"):
    if subprocess.run([TRAINMC, needed, "--help"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode != 0:
        sys.exit(f"scale_up: {TRAINMC} has no `{needed}` command: build the current "
                 "tree first (README, 'Two commands') or pass --trainmc")

# ---- the stated model ---------------------------------------------------------
GPUS = [  # dense BF16 peak: the datasheets' "with sparsity" figures halved
    ("A100", 312e12, "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
                     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
     "BFLOAT16 Tensor Core 312 TFLOPS (624 with sparsity)"),
    ("H100", 989e12, "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
     "H100 SXM BFLOAT16 Tensor Core 1,979 TFLOPS with sparsity, half of it dense"),
    ("B200", 2250e12, "https://www.nvidia.com/en-us/data-center/hgx/",
     "HGX B200, 8 GPUs: FP16/BF16 Tensor Core 36 PFLOPS with sparsity, i.e. 4.5 per GPU, 2.25 dense"),
]
MODELS = [1e12, 5e12, 10e12]        # N, dense parameters
TOKEN_RULES = [("20T", lambda n: 20e12), ("20N", lambda n: 20 * n)]
MFUS = [0.40, 0.50]
DEADLINES = [90, 180]
BATCH_TOKENS = 2 ** 24              # Llama 3 405B's final global batch, 16M tokens
LLAMA3_CARDS, LLAMA3_DAYS, LLAMA3_INTERRUPTIONS = 16384, 54, 419
MTBF_DAYS = LLAMA3_DAYS * LLAMA3_CARDS / LLAMA3_INTERRUPTIONS  # 2,111.5 days per card
CKPT_BYTES_PER_PARAM = 14           # docs/model.md 3.2: BF16 weights 2 + FP32 master 4 + Adam 8
STORAGE_BYTES_PER_S = 2e12          # Llama 3's Tectonic: 2 TB/s sustained
RESTART_S = 600                     # fixed relaunch cost of a restore (assumed; see the report)
# Simulated events (segments attempted and failures) per trainmc run: rows whose
# expected wall time is years get fewer replicas (at least R_MIN), so that the
# whole report stays within minutes; each row states its replicas.
EVENT_BUDGET = 2e6 if QUICK else 3e7
R_MIN = 20
# Rows whose card search is repeated with each recovery parameter halved and doubled.
SENSITIVITY_ROWS = [(1e12, "20T", "H100", 0.40, 90), (1e12, "20T", "B200", 0.50, 180),
                    (5e12, "20T", "B200", 0.40, 180), (10e12, "20T", "B200", 0.50, 180)]
if QUICK:
    SENSITIVITY_ROWS = SENSITIVITY_ROWS[:1]

WORK, OUT = sys.argv[1], sys.argv[2]
COMMANDS = []
START = time.time()
REFUSALS = []  # (row, command, message)


def short(x):
    """1e12 -> 1T, 2e13 -> 20T, 2e14 -> 200T."""
    return f"{x / 1e12:g}T"


def tmc(args, tag):
    """Run trainmc from the repository's top folder; log the command. Returns
    (exit code, stderr's last line)."""
    shown = "build/trainmc " + " ".join(a if all(ch.isalnum() or ch in "_./:=,+-" for ch in a) else f"'{a}'"
                                        for a in args)
    shown = shown.replace(WORK, "WORK")
    t0 = time.time()
    p = subprocess.run([TRAINMC] + args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    COMMANDS.append((tag, shown, time.time() - t0))
    err = [l for l in p.stderr.splitlines() if l.strip()]
    msg = err[-1].replace(WORK, "WORK") if err else ""
    if p.returncode != 0:
        REFUSALS.append((tag, shown, msg))
    return p.returncode, msg


def brief(msg):
    """A refusal in a table cell: its kind, not the whole message."""
    if "cannot finish in practice" in msg:
        return "refused: cannot finish (Daly's wall > 1000 x)"
    if "out of range" in msg:
        return "refused: cards above 10,000,000"
    return "refused"


class Case:
    def __init__(self, n, rule, gpu, mfu, days):
        self.n, self.rule, self.mfu, self.days = n, rule, mfu, days
        self.d = dict(TOKEN_RULES)[rule](n)
        self.gpu, self.peak, _, _ = next(g for g in GPUS if g[0] == gpu)
        self.tag = f"{short(n)}-{rule}-{gpu}-{int(100 * mfu)}-{days}d".lower()
        self.flop = 6 * self.n * self.d
        self.steps = round(self.d / BATCH_TOKENS)
        self.save_s = CKPT_BYTES_PER_PARAM * n / STORAGE_BYTES_PER_S
        self.restore_s = RESTART_S + self.save_s
        self.mtbf_days = MTBF_DAYS

    def experiment(self, cards, interval_s, path, save_s=None, restore_s=None, mtbf=None):
        x = {
            "name": f"scale-up-{self.tag}",
            "source": (f"reports/scale-up.md template: 6ND (Kaplan 2020), N {short(self.n)}, D {short(self.d)} "
                       f"tokens, {self.gpu} {self.peak / 1e12:g} TFLOP/s dense BF16 (datasheet), "
                       f"MTBF {MTBF_DAYS} d per card (Llama 3: 419 in 54 d on 16,384)"),
            "job": {"steps": self.steps, "cards": cards, "flop_per_step": self.flop / self.steps,
                    "peak_flops": self.peak, "efficiency": self.mfu, "exposed_comm_s": 0, "input_wait_s": 0},
            "failures": {"distribution": "exponential", "per_card_mtbf_days": mtbf or self.mtbf_days},
            "checkpoint": {"interval_s": interval_s, "save_s": save_s or self.save_s,
                           "restore_s": restore_s or self.restore_s},
            "outages": None, "loss_spikes": None,
            "deadline": {"days": self.days, "reserve_days": 0},
            "scale_up": {"parameters": self.n, "tokens": self.d, "cards": cards, "efficiency": self.mfu,
                         "deadline_days": self.days},
            "monte_carlo": {"replicas": R_RUN, "seed": SEED},
        }
        with open(path, "w") as f:
            json.dump(x, f, indent=1)
        return path


def closed_form(path, tag, cards=None):
    """trainmc's closed forms at a card count: `run --replicas 1` (the
    simulated part is not used). None and the message when refused."""
    args = ["run", path, "--replicas", "1", "--quiet", "--json", f"{WORK}/cf.json"]
    if cards is not None:
        args += ["--set", f"job.cards={cards}"]
    rc, msg = tmc(args, tag)
    return (load(f"{WORK}/cf.json")["closed_form"], None) if rc == 0 else (None, msg)


def closed_form_cards(path, tag, n0, days, which):
    """The smallest card count whose closed-form T (Young's or Daly's, at the
    experiment's fixed interval) meets the deadline: n <- ceil(n T(n) / deadline)
    from n0 upward. T n grows with n (the overhead does), so the iterates rise
    monotonically to the smallest fixed point, or past 4 n0 when there is none.
    Young's T comes from `plan`, Daly's from `run --replicas 1`."""
    n = n0
    for _ in range(60):
        if which == "young":
            rc, msg = tmc(["plan", path, "--set", f"job.cards={n}", "--json", f"{WORK}/plan.json"], tag)
            t = load(f"{WORK}/plan.json")["deadline"]["completion_days"] if rc == 0 else None
        else:
            cf, msg = closed_form(path, tag, n)
            t = cf["completion_days_daly"] if cf else None
        if t is None:
            return None, f"none ({brief(msg)} at {count(n)})"
        if t <= days:
            return n, None
        nxt = max(n + 1, math.ceil(n * t / days))
        if nxt > 4 * n0:
            return None, f"none up to 4x (T = {t:,.1f} d at {count(n)}, the last tried)"
        n = nxt
    return None, "did not converge"


def card_search(path, tag, extra=()):
    """`trainmc rescue --levers job.cards`: the smallest card count with
    P(deadline) >= 0.9 (bracket up to 4x the experiment's cards)."""
    js = f"{WORK}/{tag}.rescue.json"
    rc, msg = tmc(["rescue", path, "--levers", "job.cards", "--replicas", str(R_SEARCH), "--seed", str(SEED),
                   "--quiet", "--json", js, *extra], tag)
    if rc != 0:
        return None, msg
    return load(js), None


def found(res):
    """The rescue's job.cards lever when it found a count, else None."""
    lever = res["levers"][0]
    return lever if lever["outcome"] == "found" else None


def quantile_90(samples):
    """The smallest deadline met by >= 90 % of the replicas (the 0.9 empirical
    quantile) with a distribution-free 95 % interval from the order statistics."""
    with open(samples) as f:
        t = sorted(float(r["completion_days"]) for r in csv.DictReader(f))
    n = len(t)
    k = math.ceil(TARGET * n)            # the k-th smallest meets k / n >= 0.9
    half = 1.96 * math.sqrt(n * TARGET * (1 - TARGET))
    lo, hi = max(1, math.floor(k - half)), min(n, math.ceil(k + half))
    return t[k - 1], t[lo - 1], t[hi - 1]


def prepare(case, tag, cards, save_s=None, restore_s=None, mtbf=None):
    """Write the experiment with Daly's optimum interval at `cards`: Young's
    optimum from `plan`, then Daly's from the closed forms of `run`."""
    path = f"{WORK}/{tag}.json"
    case.experiment(cards, 600, path, save_s, restore_s, mtbf)
    rc, msg = tmc(["plan", path, "--json", f"{WORK}/plan.json"], tag)
    if rc != 0:
        return path, None, msg
    young = load(f"{WORK}/plan.json")["deadline"]["young_interval_s"]
    case.experiment(cards, round(young, 1), path, save_s, restore_s, mtbf)
    cf, msg = closed_form(path, tag)
    if cf is None:
        return path, None, msg
    case.experiment(cards, round(cf["daly_interval_s"], 1), path, save_s, restore_s, mtbf)
    return path, cf, None


# ---- run every case -------------------------------------------------------------
cases = [Case(n, rule, g[0], mfu, days) for n in MODELS for rule, _ in TOKEN_RULES for g in GPUS
         for mfu in MFUS for days in DEADLINES]
if QUICK:
    cases = [c for c in cases if c.days == 90 and c.mfu == 0.4]
seen, unique = set(), []
for c in cases:  # 1T at 20N tokens is 1T at 20T tokens: run once
    key = (c.n, c.d, c.gpu, c.mfu, c.days)
    if key not in seen:
        seen.add(key)
        unique.append(c)

rows = []
for c in unique:
    print(f"scale_up: {c.tag} ({time.time() - START:.0f} s)", file=sys.stderr)
    row = {"case": c}
    rows.append(row)
    # closed form: the card count from `plan`'s scale_up section
    path = c.experiment(1, 600, f"{WORK}/{c.tag}.json")
    rc, msg = tmc(["plan", path, "--json", f"{WORK}/plan.json"], c.tag)
    if rc != 0:
        row["refused"] = msg
        continue
    acc = next(a for a in load(f"{WORK}/plan.json")["scale_up"]["accelerators"] if a["name"] == c.gpu)
    n0 = acc["cards_needed"]
    row["n0"], row["gpu_hours"] = n0, c.flop / (c.peak * c.mfu) / 3600
    row["node_hours_n0"] = n0 * c.days * 24
    path, cf, msg = prepare(c, c.tag, n0)
    row["path"] = path
    if cf is None:
        row["refused"] = msg
        continue
    # the simulation at the closed-form card count
    js, samples = f"{WORK}/{c.tag}.run.json", f"{WORK}/{c.tag}.samples.csv"
    events = cf["completion_days_daly"] * 86400 * (1 / cf["interval_s"] + 1 / cf["mtbf_s"])
    row["replicas"] = min(R_RUN, int(EVENT_BUDGET / events))
    row["cf"] = cf
    if row["replicas"] < R_MIN:
        row["not_simulated"] = (f"not simulated: Daly's mean T is {cf['completion_days_daly']:,.0f} days, "
                                f"{events:.1e} events a replica")
        continue
    rc, msg = tmc(["run", path, "--replicas", str(row["replicas"]), "--seed", str(SEED), "--quiet", "--json", js,
                   "--samples", samples], c.tag)
    if rc != 0:
        row["refused"] = msg
        continue
    row["run"] = load(js)
    row["q90"] = quantile_90(samples)
    row["young_cards"], row["young_msg"] = closed_form_cards(path, c.tag, n0, c.days, "young")
    row["daly_cards"], row["daly_msg"] = closed_form_cards(path, c.tag, n0, c.days, "daly")
    if row["daly_cards"] is not None:  # else the search could only confirm that nothing within 4x meets
        res, msg = card_search(path, c.tag)
        row["rescue"], row["rescue_msg"] = res, msg
        if res and not found(res):  # the simulation at Daly's count, for the text
            js = f"{WORK}/{c.tag}.at-daly.json"
            if tmc(["run", path, "--set", f"job.cards={row['daly_cards']}", "--replicas", str(R_SEARCH),
                    "--seed", str(SEED), "--quiet", "--json", js], c.tag)[0] == 0:
                row["at_daly"] = load(js)
    else:
        row["rescue"], row["rescue_msg"] = None, "not searched: Daly's T meets at no count up to 4x"

# ---- which recovery parameter moves the answer --------------------------------------
sens = []
for (n, rule, gpu, mfu, days) in SENSITIVITY_ROWS:
    base = next((r for r in rows if (r["case"].n, r["case"].rule, r["case"].gpu, r["case"].mfu, r["case"].days)
                 == (n, rule, gpu, mfu, days)), None)
    if base is None or "rescue" not in base or base["rescue"] is None:
        continue
    c = base["case"]
    entry = {"row": base, "variants": []}
    for name, factor in (("MTBF", 0.5), ("MTBF", 2), ("save", 0.5), ("save", 2), ("restore", 0.5), ("restore", 2)):
        kw = {"mtbf": c.mtbf_days * factor} if name == "MTBF" else \
             {"save_s": c.save_s * factor} if name == "save" else {"restore_s": c.restore_s * factor}
        tag = f"{c.tag}.{name.lower()}-x{factor:g}"
        path, cf, msg = prepare(c, tag, base["n0"], **kw)
        res, msg = (None, msg) if cf is None else card_search(path, tag)
        entry["variants"].append({"name": name, "factor": factor, "cf": cf, "rescue": res, "msg": msg,
                                  "kw": kw})
    sens.append(entry)


# ---- the report -----------------------------------------------------------------------


r = Report("scale-up", "At scale, the simulation changes the answer: 1T to 10T dense models in 90 or 180 days")
example = next((row for row in rows if row["case"].tag == "1t-20t-h100-40-90d" and "run" in row),
               next(row for row in rows if "run" in row))
committed = f"{ROOT}/experiments/scale-up-1t-h100.json"
r.header([("experiments/scale-up-1t-h100.json",
           load(committed)["source"] if os.path.exists(committed) else "(missing)"),
          ("WORK/*.json (generated)", "one experiment per row, written by reports/tools/scale_up.py from the "
           "template below; `experiments/scale-up-1t-h100.json` is the row 1T, 20T tokens, H100, 40 %, 90 days")],
         f"up to {count(R_RUN)} per run at the closed-form card count (fewer where a replica runs for years: "
         f"at most {EVENT_BUDGET:.0e} simulated events a run, table 2's replicas); {count(R_SEARCH)} per evaluation of each "
         f"card search (`trainmc rescue --levers job.cards`, common random numbers, target "
         f"P(deadline) >= {TARGET}).")

r.p("## The question and the model")
r.p()
r.p("How many cards does a dense model of N parameters trained on D tokens need to finish within a deadline? "
    "The closed form divides the work by the throughput: F = 6 N D FLOP (Kaplan et al. 2020, "
    "arXiv:2001.08361), D = 20 N tokens being the compute-optimal ratio of Hoffmann et al. 2022 "
    "(arXiv:2203.15556), and **cards = ceil(F / (peak x MFU x deadline))**, the `cards_needed` of "
    "`trainmc plan`'s `scale_up` section. GPU-hours = F / (peak x MFU) / 3600, whatever the card count. That "
    "answer assumes nothing ever fails. This report then simulates failures, saves and restores at that card "
    "count with `trainmc run`, and searches the card count that meets the deadline with probability "
    f"{TARGET} with `trainmc rescue --levers job.cards`.")
r.p()
r.table(["card", "dense BF16 peak", "datasheet"],
        [(g, f"{p / 1e12:,.0f} TFLOP/s", f"[{what}]({url})") for g, p, url, what in GPUS], ["l", "r", "l"])
r.p("**Template** (one experiment per row, `reports/tools/scale_up.py`):")
r.p()
r.p(f"- **Work**: `job.steps` = D / 2^24 tokens (Llama 3 405B's final global batch of 16M tokens; the "
    "step only sets how finely the checkpoint interval is cut), `job.flop_per_step` = 6 N D / steps, "
    "`job.peak_flops` and `job.efficiency` = MFU as in the row. No exposed communication, input wait or "
    "jitter: the MFU is taken to include them, so without failures the run takes exactly the 6ND time "
    "and the closed-form card count meets the deadline exactly.")
r.p(f"- **Failures**: exponential, per-card MTBF {count(MTBF_DAYS)} days, from Meta's Llama 3 405B run: "
    f"{LLAMA3_INTERRUPTIONS} unexpected interruptions in {LLAMA3_DAYS} days on {count(LLAMA3_CARDS)} H100 "
    f"GPUs (Grattafiori, Dubey et al., \"The Llama 3 Herd of Models\", 2024, arXiv:2407.21783, section "
    f"3.3.4 and table 5): {LLAMA3_DAYS} x {count(LLAMA3_CARDS)} / {LLAMA3_INTERRUPTIONS} = "
    f"{count(MTBF_DAYS)} card-days, so the job's M = {count(MTBF_DAYS)} d / cards (4.6 h at 16,384 cards, "
    "78 minutes at 39,010). Every interruption counts, not only the GPU's own faults, and the same "
    "per-card rate is used for A100 and B200, for which no comparable public figure exists.")
r.p(f"- **Saves**: synchronous, c = {CKPT_BYTES_PER_PARAM} bytes/param (BF16 weights 2, FP32 master 4, "
    f"Adam moments 8; docs/model.md 3.2) over {STORAGE_BYTES_PER_S / 1e12:g} TB/s of aggregate storage "
    "bandwidth, the sustained throughput of the Tectonic file system Llama 3 trained on (Llama 3 paper, "
    f"section 3.3.1), whatever the card count: c = {num(CKPT_BYTES_PER_PARAM * 1e12 / STORAGE_BYTES_PER_S, 0)} "
    f"s at 1T, {num(CKPT_BYTES_PER_PARAM * 5e12 / STORAGE_BYTES_PER_S, 0)} s at 5T, "
    f"{num(CKPT_BYTES_PER_PARAM * 10e12 / STORAGE_BYTES_PER_S, 0)} s at 10T.")
r.p(f"- **Restores**: r = {RESTART_S} s + c: a fixed relaunch cost (rescheduling, process start, "
    "communicator set-up; **assumed, not from a source**) plus reading the checkpoint back at the same "
    "bandwidth. The Llama 3 paper reports more than 90 % effective training time with an interruption every "
    f"{LLAMA3_DAYS * 24 / LLAMA3_INTERRUPTIONS:.1f} hours, i.e. at most about "
    f"{0.1 * LLAMA3_DAYS * 24 * 60 / LLAMA3_INTERRUPTIONS:.0f} minutes lost per interruption in all, which a "
    f"{RESTART_S // 60}-minute restart plus half an interval fits. The last section halves and doubles it.")
r.p("- **Interval**: Daly's optimum tau_opt at the closed-form card count (`trainmc run` prints it; the "
    "script takes Young's sqrt(2cM) from `plan`, runs trainmc's closed forms there, and sets "
    "`checkpoint.interval_s` to Daly's), held in seconds while the search adds cards.")
r.p("- **Deadline**: 90 or 180 days, no reserve; P(deadline) = P(T <= deadline).")
r.p()

# ---- table 1: closed form
r.p("## 1. The closed form: cards and GPU-hours when nothing fails")
r.p()
r.p("GPU-hours do not depend on the card count or the deadline (F / (peak x MFU)); M is the job's mean time "
    f"between interruptions at that card count under the failure model above ({count(MTBF_DAYS)} d / cards). "
    "1T trained on 20N tokens is 1T on 20T tokens, so those rows serve both token rules.")
r.p()
t1 = []
for row in rows:
    c = row["case"]
    if "n0" not in row:
        t1.append((short(c.n), short(c.d), c.gpu, f"{100 * c.mfu:.0f} %", c.days, "-", "-", "-",
                   brief(row["refused"])))
        continue
    m = MTBF_DAYS * 86400 / row["n0"]
    t1.append((short(c.n), short(c.d), c.gpu, f"{100 * c.mfu:.0f} %", c.days, count(row["n0"]),
               f"{row['gpu_hours'] / 1e6:,.1f} M", f"{m / 60:,.1f} min", ""))
r.table(["N", "D", "card", "MFU", "days", "cards (closed form)", "GPU-hours", "M at those cards", "note"],
        t1, ["l", "l", "l", "r", "r", "r", "r", "r", "l"])

# ---- table 2: at the closed-form cards
r.p("## 2. The same card count with failures, saves and restores")
r.p()
r.p(f"`trainmc run` at the closed-form card count, {count(R_RUN)} replicas (± one standard error). "
    "Young's first-order overhead L = c/tau + (tau/2 + r)/M and Daly's higher-order expectation "
    "(T_wall = M e^(r/M) (e^((tau+c)/M) - 1) per segment) are printed beside the simulated overhead. "
    "**Days needed** is the smallest deadline that P >= 0.9 meets at this card count: the 0.9 quantile of "
    "the simulated T, with a distribution-free 95 % interval from the order statistics.")
r.p()
t2 = []
for row in rows:
    c = row["case"]
    lead = (short(c.n), short(c.d), c.gpu, f"{100 * c.mfu:.0f} %", c.days)
    if "not_simulated" in row:
        cf = row["cf"]
        t2.append(lead + (count(row["n0"]), "-", f"{cf['mtbf_s'] / 60:,.1f} min", num(cf["interval_s"], 0),
                          pct(cf["overhead_young"], 1), pct(cf["overhead_daly"], 1), "-",
                          f"Daly {cf['completion_days_daly']:,.0f}", "-", "-", row["not_simulated"]))
        continue
    if "run" not in row:
        if "n0" in row:
            t2.append(lead + (count(row["n0"]), "-", "-", "-", "-", "-", "-", "-", "-", "-",
                              brief(row["refused"])))
        continue
    run, cf = row["run"], row["run"]["closed_form"]
    o, t = run["overhead"], run["completion_days"]
    q, lo, hi = row["q90"]
    t2.append(lead + (count(row["n0"]), count(row["replicas"]), f"{cf['mtbf_s'] / 60:,.1f} min",
                      num(cf["interval_s"], 0),
                      pct(cf["overhead_young"], 1), pct(cf["overhead_daly"], 1),
                      pm(o["mean"], o["se"], 1, 100, " %"), f"{t['mean']:,.2f} ± {t['se']:,.2f}",
                      f"{run['deadline']['probability']:.3f}", f"{q:,.2f} [{lo:,.2f}, {hi:,.2f}]", ""))
r.table(["N", "D", "card", "MFU", "days", "cards", "replicas", "M", "tau (s)", "Young L", "Daly", "simulated overhead",
         "mean T (d)", "P(deadline)", "days needed (P >= 0.9)", "note"], t2,
        ["l", "l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "l"])

# ---- table 3: cards needed
r.p("## 3. How many more cards")
r.p()
r.p("The smallest card count meeting the deadline: by Young's first-order T and by Daly's T (both at the "
    "same fixed interval; each the smallest n with closed-form T(n) <= deadline, found by iterating "
    "n <- ceil(n T(n) / deadline) on trainmc's closed forms), and simulated (`trainmc rescue --levers "
    f"job.cards`: the smallest n with P(deadline) >= {TARGET}, bisected to adjacent integers under common "
    "random numbers, its bracket up to 4x the closed-form count). Young and Daly aim at the mean T and the "
    "simulation at its 0.9 quantile, which here lies a fraction of a percent above the mean, so the "
    "simulated count is a few cards above Daly's whenever Daly's formula holds. Card-hours are the found "
    "count times its simulated mean T (the cards held for the wall time, `trainmc run`'s card-hours).")
r.p()
t3, plot_rows = [], []
for row in rows:
    c = row["case"]
    lead = (short(c.n), short(c.d), c.gpu, f"{100 * c.mfu:.0f} %", c.days)
    if "run" not in row:
        continue
    n0 = row["n0"]

    def cell(n, msg):
        return count(n) if n is not None else (msg or "-")

    res = row["rescue"]
    lever = found(res) if res else None
    if lever:
        n = lever["found"]["value"]
        m = lever["found"]["metric"]
        sim = f"{count(n)}" + (" (uncertain)" if lever["uncertain"] else "")
        extra = f"+{100 * (n / n0 - 1):.1f} %"
        ch = n * m["mean_days"] * 24
        hours = f"{ch / 1e6:,.1f} M (+{100 * (ch / row['gpu_hours'] - 1):.1f} %)"
        plot_rows.append((c, row, n))
    elif res:
        lv = res["levers"][0]
        best = lv.get("best") or {}
        sim = (f"none up to {count(4 * n0)} (best P {best['metric']['value']:.3f} at {count(best['value'])})"
               if best else lv["outcome"])
        extra, hours = "-", "-"
    else:
        sim, extra, hours = row["rescue_msg"], "-", "-"
    t3.append(lead + (count(n0), cell(row["young_cards"], row["young_msg"]),
                      cell(row["daly_cards"], row["daly_msg"]), sim, extra,
                      f"{row['gpu_hours'] / 1e6:,.1f} M", hours))
r.table(["N", "D", "card", "MFU", "days", "closed form (no failures)", "Young", "Daly",
         f"simulated, P >= {TARGET}", "more cards", "GPU-hours (closed form)", "card-hours (simulated)"], t3,
        ["l", "l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r"])

# plot: extra cards against M
data = []
sim_cards = {id(row): n for c, row, n in plot_rows}
for row in rows:
    if "run" not in row:
        continue
    c, cf = row["case"], row["run"]["closed_form"]
    y, dl, n = row["young_cards"], row["daly_cards"], sim_cards.get(id(row))
    nan = float("nan")
    data.append((cf["mtbf_s"] / 60, 100 * (n / row["n0"] - 1) if n else nan,
                 100 * (y / row["n0"] - 1) if y else nan, 100 * (dl / row["n0"] - 1) if dl else nan,
                 MODELS.index(c.n), 1 if dl is None else 0, 1 if y is None else 0))
write_data(f"{WORK}/extra.dat", ["mtbf_min", "sim_pct", "young_pct", "daly_pct", "model", "daly_none",
                                 "young_none"], data)
write_vars(f"{WORK}/scale-up.vars.gp", data=f"{WORK}/extra.dat",
           title=f"more cards needed than 6ND's count, against the job MTBF there ({count(R_SEARCH)} replicas)")

# ---- table 4: sensitivity
r.p("## 4. Which recovery parameter moves the answer most")
r.p()
r.p("For a few rows, the card search is repeated with each recovery parameter halved and doubled alone "
    "(the interval re-set to Daly's optimum for each), from the same closed-form count and seed. "
    "The cards needed, and the change against the row's own answer:")
r.p()
t4, ranking = [], []
for e in sens:
    row = e["row"]
    c = row["case"]
    base_n = found(row["rescue"])["found"]["value"]
    label = f"{short(c.n)}, {short(c.d)}, {c.gpu}, {100 * c.mfu:.0f} %, {c.days} d"
    cells = {}
    for v in e["variants"]:
        lv = found(v["rescue"]) if v["rescue"] else None
        if lv:
            n = lv["found"]["value"]
            cells[(v["name"], v["factor"])] = (n, f"{count(n)} ({100 * (n / base_n - 1):+.1f} %)")
        else:
            cells[(v["name"], v["factor"])] = (None, "not found" if v["rescue"] else brief(v["msg"]))
    big = 4 * row["n0"] + 1  # "not found": beyond the bracket
    better = {"MTBF": cells[("MTBF", 2)][0], "save": cells[("save", 0.5)][0],
              "restore": cells[("restore", 0.5)][0]}
    worse = {"MTBF": cells[("MTBF", 0.5)][0], "save": cells[("save", 2)][0],
             "restore": cells[("restore", 2)][0]}
    better = {k: (v if v is not None else big) for k, v in better.items()}
    worse = {k: (v if v is not None else big) for k, v in worse.items()}
    top = min(better, key=better.get)
    ranking.append((label, base_n, better, worse, big))
    cf = row["run"]["closed_form"]
    t4.append((label, f"{cf['mtbf_s'] / 60:,.0f} min", f"{num(c.save_s, 0)} / {num(c.restore_s, 0)}",
               count(row["n0"]), count(base_n),
               cells[("MTBF", 0.5)][1], cells[("MTBF", 2)][1], cells[("save", 0.5)][1], cells[("save", 2)][1],
               cells[("restore", 0.5)][1], cells[("restore", 2)][1], f"{top} x{2 if top == 'MTBF' else 0.5:g}"))
r.table(["row", "M", "c / r (s)", "closed form", "simulated", "MTBF x0.5", "MTBF x2", "save x0.5", "save x2",
         "restore x0.5", "restore x2", "best single fix"], t4, ["l"] + ["r"] * 11)
r.p("\"not found\": no count up to 4x the closed-form one meets P >= 0.9 (the search's bracket).")
r.p()

# ---- headline text
r.p("## What it says")
r.p()
feasible = [row for row in rows if "run" in row]
found_rows = [(row, found(row["rescue"])) for row in feasible if row.get("rescue") and found(row["rescue"])]
unreached = [row for row in feasible if row.get("rescue") and not found(row["rescue"])]
refused = [row for row in rows if "refused" in row]
if found_rows:
    ex = [100 * (lv["found"]["value"] / row["n0"] - 1) for row, lv in found_rows]
    r.p(f"- Of {len(rows)} distinct rows, {len(found_rows)} meet the deadline with P >= {TARGET} with more "
        f"cards: {min(ex):.1f} % to {max(ex):.1f} % more than 6ND's count. At the closed-form count itself "
        "P(deadline) is 0 in every row: any failure at all makes the run late, since that count leaves no "
        "slack.")
young_only = [row for row in feasible if row["young_cards"] is not None and row["daly_cards"] is None]
no_cards = [row for row in feasible if row["daly_cards"] is None]
if no_cards:
    r.p(f"- In {len(no_cards)} simulated rows Daly's T meets the deadline at no card count up to 4x the "
        "closed-form one, and the simulation at the closed-form count agrees with Daly (below): past a "
        "point, more cards shorten M as fast as they shorten the work, and the restarts eat the gain. "
        f"In {len(young_only)} of them Young's first order still names a card count (e.g. "
        + ", ".join(f"{short(x['case'].n)}, {short(x['case'].d)}, {x['case'].gpu}, {100 * x['case'].mfu:.0f} %, "
                    f"{x['case'].days} d: {count(x['young_cards'])} cards"
                    for x in young_only[:2])
        + "): that is where the simulation changes the answer from \"this many cards\" to \"no card "
        "count\". These rows need more days (table 2's days needed), or better recovery (section 4).")
for row in unreached:
    c, lv = row["case"], row["rescue"]["levers"][0]
    best = lv.get("best") or {}
    at = row.get("at_daly")
    r.p(f"- {short(c.n)}, {short(c.d)}, {c.gpu}, {100 * c.mfu:.0f} %, {c.days} d: Daly's mean T meets the "
        f"deadline at {count(row['daly_cards'])} cards, but the search finds no count up to 4x with "
        f"P >= {TARGET}"
        + (f" (P = {best['metric']['value']:.3f} at {count(best['value'])})" if best else "")
        + (f"; simulated at Daly's count, P = {wilson(at['deadline'], 3)} and mean T "
           f"{at['completion_days']['mean']:.2f} d" if at else "")
        + ". Here T(n) has a shallow minimum near the deadline: the mean can just reach it, the 0.9 quantile "
        "cannot, and a bisection between n0 and 4 n0 (which needs the far end to meet) cannot look inside "
        "the bracket.")
if refused:
    r.p(f"- {len(refused)} rows are refused by trainmc before simulating: their messages are in tables 1 "
        "and 2 (a card count above trainmc's limit of 10,000,000, or an expected wall time more than "
        "1,000 times the failure-free time, i.e. a run that practically never finishes).")
worst = [row for row in feasible
         if row["run"]["closed_form"]["overhead_daly"] > 1.5 * row["run"]["closed_form"]["overhead_young"]]
if feasible:
    gaps = [(row["run"]["closed_form"]["overhead_daly"] - row["run"]["closed_form"]["overhead_young"],
             row) for row in feasible]
    g, grow = max(gaps, key=lambda x: x[0])
    gc = grow["case"]
    zs_ = [abs(row["run"]["overhead"]["mean"] - row["run"]["closed_form"]["overhead_daly"]) /
           max(row["run"]["overhead"]["se"], 1e-12) for row in feasible]
    r.p(f"- Young's first order fails where M is tens of minutes: the largest gap is {short(gc.n)}, "
        f"{short(gc.d)}, {gc.gpu}, {100 * gc.mfu:.0f} %, {gc.days} d (M = "
        f"{grow['run']['closed_form']['mtbf_s'] / 60:.1f} min), where Young's L is "
        f"{pct(grow['run']['closed_form']['overhead_young'], 1)} and Daly's "
        f"{pct(grow['run']['closed_form']['overhead_daly'], 1)}; the simulation gives "
        f"{pct(grow['run']['overhead']['mean'], 1)}. Over the {len(feasible)} simulated rows the simulated "
        f"overhead lies within {max(zs_):.1f} standard errors of Daly's (exponential failures, no jitter: "
        "Daly's T_wall is exact for the engine), and Daly's card count is the simulated one to within the "
        "0.9-quantile margin.")
def change(v, base, big):
    return "not found (> 4x)" if v == big else f"{100 * (v / base - 1):+.1f} %"


for label, base_n, better, worse, big in ranking:
    b = sorted(better, key=better.get)
    w = sorted(worse, key=worse.get, reverse=True)
    r.p(f"- {label}: the best single improvement is **{b[0]}** ("
        + ", ".join(f"{k} {change(better[k], base_n, big)}" for k in b)
        + " cards, for MTBF x2, save x0.5, restore x0.5); the worst degradation "
        + ", ".join(f"{k} {change(worse[k], base_n, big)}" for k in w) + ".")
r.p()
r.image("scale-up-extra-cards.svg", "extra cards needed against the job MTBF at the closed-form card count")
r.p("One column of marks per simulated row, at its job MTBF M: filled dots, the simulated search (P >= 0.9); "
    "open circles, Daly's closed form; crosses, Young's; colour, the model size (blue 1T, orange 5T, green "
    "10T). Rows where Daly's T meets the deadline at no count up to 4x the closed-form one are drawn as grey "
    "triangles at 300 % (4x), and Young's cross at that height when it, too, finds none. Below about "
    "50 minutes Young still names a card count while Daly and the simulation find none.")
r.p()

# ---- refusals, verbatim
if REFUSALS:
    r.p("## Refusals")
    r.p()
    r.p("trainmc refused these commands (exit code 2) before simulating; each is by design, not a bug: a "
        "card count above `job.cards`'s range of [1, 10,000,000] (docs/reference/experiment-keys.md), or a run whose "
        "expected wall time by Daly's formula exceeds 1,000 times its failure-free time (README, \"The "
        "command\"). The first of each row's refusals, command and message as printed:")
    r.p()
    shown_rows = set()
    for tag, cmd, msg in REFUSALS:
        if tag in shown_rows:
            continue
        shown_rows.add(tag)
        r.p(f"- `{cmd}`")
        r.p(f"  `{msg}`")
    r.p()

# ---- how made: commands of one row in full, the rest counted
r.p("## How this report was made")
r.p()
r.p(f"`{r.invocation}` ran `reports/tools/scale_up.py`, which wrote one experiment per row into a temporary "
    f"folder (`WORK`) and ran {count(len(COMMANDS))} trainmc commands from the repository's top folder "
    f"in {sum(t for _, _, t in COMMANDS) / 60:.1f} minutes. Those of the row `{example['case'].tag}`, in "
    "order (`run --replicas 1` gives trainmc's closed forms, its simulated part is not used):")
r.p()
r.p("```sh")
for tag, cmd, _ in COMMANDS:
    if tag == example["case"].tag:
        r.p(cmd)
r.p("```")
r.p()
r.p("Every other row runs the same commands with its own experiment; the sensitivity rows add, per "
    "variant, `plan`, `run --replicas 1` and `rescue` on `WORK/ROW.PARAM-xFACTOR.json`.")
with open(f"{WORK}/commands.txt", "w") as f:  # every command with its seconds, for --work
    f.writelines(f"{t:8.2f}  {cmd}\n" for _, cmd, t in COMMANDS)
path = f"{OUT}/scale-up.md"
with open(path + ".tmp", "w") as f:
    f.write("\n".join(r.lines).rstrip("\n") + "\n")
os.replace(path + ".tmp", path)
