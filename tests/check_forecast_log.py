"""cli-forecast-log: `trainmc forecast EXPERIMENT --log LOG` (issue 37,
docs/commands/forecast.md "A training log").

Standard library only. Usage: check_forecast_log.py TRAINMC SOURCE_DIR

1. A Megatron-LM log generated here with a known pace (53.2 s a step, sd
   0.8 s a step, so an interval of n steps has sd 0.8 / sqrt(n); n = 10, 20,
   5, 10, 10 in the five launches; a launch's first interval 24 s a step
   slower, its warm-up), a save every 100 iterations, and 4 restarts: two
   with Megatron's load line (the job goes back to its last save), one
   without (the iteration number only goes back), and one just after a save
   (only the load line tells: the numbers go on). The line formats are Megatron-LM's
   (megatron/training/training.py training_log: ' [%Y-%m-%d %H:%M:%S]
   iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration
   (ms): %.1f | learning rate: %.3E | ...'; megatron/training/checkpointing.py:
   '  successfully saved checkpoint from iteration %7d to PATH', '
   successfully loaded checkpoint from PATH [ t 1/8, p 1/4 ] at iteration N').
   The progress object is computed here from what was written, by the rules
   of the docs; `forecast --log` must give, in --json, exactly what `run
   --progress` gives for that object written by hand (every key but the
   overrides, which name the source), and --write-progress must hold it.
   The pace found must lie within 4 standard errors of the truth (se = 0.8 /
   sqrt(steps averaged)), the sd within 4 of its own (sd / sqrt(2 (k - 1))).
2. The same log through --step-regex (named groups) gives the same object.
3. Without stamps: --elapsed-days is required, and given, used.
4. Malformed logs, each refused with exit 2, FILE:LINE:COLUMN and the field,
   and no --json or --write-progress file left.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import check, finish  # noqa: E402

BIN, SRC = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="check_forecast_log.")
EXP = os.path.join(SRC, "experiments", "forecast-design-48-day9.json")
REPLICAS = "400"

STEP_S, STEP_SD_S = 53.2, 0.8
# Megatron's --log-interval of each launch: intervals of unequal weight
INTERVALS, SAVE_EVERY, TRAIN_ITERS = (10, 20, 5, 10, 10), 100, 31790
T0 = 1772359200  # 2026-03-01 10:00:00


def stamp(t):
    """Seconds from 1970 as Megatron's '%Y-%m-%d %H:%M:%S' (UTC, no zone)."""
    d, s = divmod(int(t), 86400)
    z = d + 719468  # civil_from_days (Howard Hinnant)
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    return "%04d-%02d-%02d %02d:%02d:%02d" % (year, month, day, s // 3600, s // 60 % 60, s % 60)


def generate(seed, stamps=True):
    """A log and what it says: (text, expected progress, truth)."""
    rng = random.Random(seed)
    lines = ["using world size: 48, data-parallel size: 12", "> building GPT model ..."]
    # the iterations where the job crashes, and whether it prints a load line
    # (9000: a crash just after a save, resumed from it: only the load line
    # tells, as the iteration numbers go on)
    crashes = {3150: True, 7340: False, 9000: True, 10570: True}
    t = float(T0)
    it, saved, restarts = 0, 0, 0
    intervals = []  # (steps, seconds a step) after a start's first interval
    first = None  # (stamp, steps, seconds) of the log's first iteration line
    last_stamp = None
    start = True
    start_from = 0
    interval = iter(INTERVALS)
    n = next(interval)
    while it < 11990:
        ms = round(rng.gauss(STEP_S, STEP_SD_S / math.sqrt(n)) * 1000, 1)
        if start:  # a start's first interval holds the warm-up: 24 s more a step
            ms += 24000.0
        t += n * ms / 1000
        it += n
        pre = " [%s]" % stamp(t) if stamps else ""
        lines.append("%s iteration %8d/%8d | consumed samples: %12d | elapsed time per "
                     "iteration (ms): %.1f | learning rate: 1.500E-04 | global batch size:  "
                     "1536 | lm loss: 2.345678E+00 | loss scale: 1.0 | grad norm: 0.321 | "
                     "number of skipped iterations:   0 | number of nan iterations:   0 |"
                     % (pre, it, TRAIN_ITERS, it * 1536, ms))
        s = float("%.1f" % ms) / 1000
        if first is None:
            first = (math.floor(t), it - start_from, s)
        elif not start:
            intervals.append((n, s))
        last_stamp = math.floor(t)
        start = False
        if it % SAVE_EVERY == 0:
            t += 16.4
            saved = it
            lines.append("  successfully saved checkpoint from iteration %7d to /ckpt/gpt "
                         "[ t 1/8, p 1/4 ]" % it)
        load = crashes.pop(it, None)  # each crash once: the job passes it next time
        if load is not None:
            restarts += 1
            lines.append("[rank12]: RuntimeError: NCCL communicator was aborted on rank 12")
            t += 1800.0  # down half an hour
            if load:
                lines.append(" loading distributed checkpoint from /ckpt/gpt at iteration %d"
                             % saved)
                lines.append("  successfully loaded checkpoint from /ckpt/gpt [ t 1/8, p 1/4 ]"
                             " at iteration %d" % saved)
            it = saved
            start, start_from = True, saved
            n = next(interval)  # relaunched with another --log-interval
    # plain sums in file order, as the docs state them (Python's sum() of
    # floats is compensated since 3.12, so it is not used)
    w, total, ss = 0, 0.0, 0.0
    for n, s in intervals:
        w += n
        total += n * s
    mean = total / w
    for n, s in intervals:
        ss += n * (s - mean) * (s - mean)
    sd = math.sqrt(ss / (len(intervals) - 1))
    elapsed = (last_stamp - first[0] + first[1] * first[2]) / 86400
    progress = {"elapsed_days": elapsed, "steps_done": it, "committed_step": saved,
                "failures": restarts, "step_s": mean, "step_sd_s": sd,
                "step_count": min(w, it)}
    return "\n".join(lines) + "\n", progress, {"k": len(intervals), "w": w}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def trainmc(*args):
    return subprocess.run([BIN, *args, "--quiet"], capture_output=True, text=True)


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def same_run(a, b, what):
    """Two runs' JSON equal but for the overrides (the source's name)."""
    if not (a and b):
        return check(False, f"{what}: no --json written")
    a, b = dict(a), dict(b)
    oa, ob = a.pop("overrides"), b.pop("overrides")
    check(json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True),
          f"{what}: the forecast differs from run --progress")
    check(len(oa) == len(ob), f"{what}: overrides {oa} against {ob}")


def check_equivalent():
    """1 and 2: --log equals run --progress of the object by hand."""
    text, want, truth = generate(1)
    log = os.path.join(TMP, "train.log")
    write(log, text)
    pfile, wfile = os.path.join(TMP, "progress.json"), os.path.join(TMP, "written.json")
    write(pfile, json.dumps(want))
    a_out, b_out = os.path.join(TMP, "a.json"), os.path.join(TMP, "b.json")
    a = trainmc("forecast", EXP, "--log", log, "--json", a_out, "--write-progress", wfile,
                "--replicas", REPLICAS)
    b = trainmc("run", EXP, "--progress", pfile, "--json", b_out, "--replicas", REPLICAS)
    check(a.returncode == 0 and b.returncode == 0, f"exit {a.returncode} {b.returncode}: "
          f"{a.stderr} {b.stderr}")
    ra, rb = load(a_out), load(b_out)
    same_run(ra, rb, "Megatron log")
    if ra:
        check(f"progress=@{log}" in ra["overrides"], f"overrides {ra['overrides']}")
    check(load(wfile) == want, f"--write-progress {load(wfile)} against {want}")
    check("4 restarts" in a.stdout and "Answer" in a.stdout or "P(T" in a.stdout,
          "the text names the restarts and gives the answer")
    # the known pace, within 4 standard errors
    se = STEP_SD_S / math.sqrt(truth["w"])
    check(abs(want["step_s"] - STEP_S) < 4 * se,
          f"step_s {want['step_s']} against {STEP_S} (se {se:.3g})")
    se_sd = STEP_SD_S / math.sqrt(2 * (truth["k"] - 1))
    check(abs(want["step_sd_s"] - STEP_SD_S) < 4 * se_sd,
          f"step_sd_s {want['step_sd_s']} against {STEP_SD_S} (se {se_sd:.3g})")
    check(want["failures"] == 4 and want["committed_step"] == 11900 and
          want["steps_done"] == 11990,
          f"restarts and commit: {want}")
    # 2: the generic form, Megatron's line as named groups
    regex = (r"\[(?P<time>[0-9-]+ [0-9:]+)\] iteration +(?P<step>\d+)/ *\d+ \|.*"
             r"elapsed time per iteration \(ms\): (?P<ms>[0-9.]+)")
    rfile = os.path.join(TMP, "regex.json")
    r = trainmc("forecast", EXP, "--log", log, "--step-regex", regex, "--write-progress",
                rfile, "--replicas", "20")
    check(r.returncode == 0 and load(rfile) == want, f"--step-regex: {r.stderr} {load(rfile)}")


def check_no_stamps():
    """3: without stamps, --elapsed-days."""
    text, want, _ = generate(2, stamps=False)
    log = os.path.join(TMP, "plain.log")
    write(log, text)
    p = trainmc("forecast", EXP, "--log", log, "--replicas", "20")
    check(p.returncode == 2 and "--elapsed-days" in p.stderr, f"no stamps: {p.stderr}")
    wfile = os.path.join(TMP, "plain.json")
    p = trainmc("forecast", EXP, "--log", log, "--elapsed-days", "9.5", "--write-progress",
                wfile, "--replicas", "20")
    got = load(wfile)
    want["elapsed_days"] = 9.5
    check(p.returncode == 0 and got == want, f"--elapsed-days: {p.stderr} {got}")


GOOD = (" [2026-03-01 10:08:52] iteration       10/   31790 | consumed samples:        15360 |"
        " elapsed time per iteration (ms): 53200.0 | learning rate: 1.5E-04 |")
GOOD2 = GOOD.replace("10:08:52", "10:17:44").replace("      10/", "      20/")
SAVE = "  successfully saved checkpoint from iteration      20 to /ckpt"
BAD = [
    # (name, lines, extra args, what the message must hold)
    ("time-not-number", [GOOD, GOOD2.replace("53200.0", "5x3"), SAVE], [],
     ":2:", "'elapsed time per iteration (ms)'"),
    ("time-zero", [GOOD, GOOD2.replace("53200.0", "0.0"), SAVE], [], ":2:", "(0, 1e10]"),
    ("iteration-bad", [GOOD, GOOD2.replace("      20/", "      2a/"), SAVE], [], ":2:",
     "'iteration'"),
    ("stamp-bad", [GOOD, GOOD2.replace("2026-03-01 10:17:44", "2026-02-30 10:17:44"), SAVE],
     [], ":2:3:", "'timestamp'"),
    ("stamp-back", [GOOD, GOOD2.replace("10:17:44", "10:00:00"), SAVE], [], ":2:3:",
     "time order"),
    ("stamp-missing", [GOOD, GOOD2.replace(" [2026-03-01 10:17:44]", ""), SAVE], [], ":2:",
     "on every iteration line or on none"),
    ("save-bad", [GOOD, GOOD2, SAVE.replace("     20", "  x")], [], ":3:",
     "'saved checkpoint from iteration'"),
    ("load-bad", [GOOD, "  successfully loaded checkpoint from /ckpt at iteration -1", GOOD2],
     [], ":2:", "'loaded checkpoint ... at iteration'"),
    ("no-iteration", ["hello", "world"], [], "no iteration line", "Megatron-LM"),
    ("no-commit", [GOOD, GOOD2], [], "no checkpoint line", "--committed-step"),
    ("regex-no-step", [GOOD, GOOD2, SAVE], ["--step-regex", r"(?P<ms>\d+)"], "",
     "no (?P<step>...) group"),
    ("regex-other-group", [GOOD, GOOD2, SAVE], ["--step-regex", r"(?:a)(?P<step>\d)(?P<s>\d)"],
     "", "is not a named group"),
    ("regex-bad-name", [GOOD, GOOD2, SAVE], ["--step-regex", r"(?P<iter>\d)(?P<s>\d)"], "",
     "'iter' is not one of"),
    ("regex-bad-ms", [GOOD, GOOD2.replace("53200.0", "5x3"), SAVE],
     ["--step-regex", r"iteration +(?P<step>\d+)/.*\(ms\): (?P<ms>[0-9.a-z]+)"], "",
     "field 'ms'"),
    ("state-refused", [GOOD, GOOD2, SAVE], ["--committed-step", "30"], "train.log",
     "progress.committed_step"),
]


def check_bad():
    """4: malformed logs."""
    for name, lines, extra, where, what in BAD:
        log = os.path.join(TMP, "train.log")
        write(log, "\n".join(lines) + "\n")
        out, prog = os.path.join(TMP, "bad.json"), os.path.join(TMP, "bad-progress.json")
        p = trainmc("forecast", EXP, "--log", log, "--json", out, "--write-progress", prog,
                    "--replicas", "20", *extra)
        msg = p.stderr
        check(p.returncode == 2, f"{name}: exit {p.returncode}: {msg}")
        check(where in msg and what in msg, f"{name}: message lacks '{where}' or '{what}': "
              f"{msg.strip()}")
        check(not os.path.exists(out) and not os.path.exists(prog), f"{name}: a file was left")
    # the column of the bad field: 5x3's, as an editor counts
    log = os.path.join(TMP, "train.log")
    line = GOOD2.replace("53200.0", "5x3")
    write(log, GOOD + "\n" + line + "\n")
    p = trainmc("forecast", EXP, "--log", log, "--replicas", "20")
    col = line.index("5x3") + 1
    check(f"train.log:2:{col}: field 'elapsed time per iteration (ms)': '5x3'" in p.stderr,
          f"column {col}: {p.stderr}")
    p = trainmc("forecast", EXP, "--log", log, "--history", log)
    check(p.returncode == 2 and "give one" in p.stderr, f"--log and --history: {p.stderr}")
    p = trainmc("forecast", EXP, "--history", log, "--elapsed-days", "3")
    check(p.returncode == 2 and "needs --log" in p.stderr, f"--elapsed-days alone: {p.stderr}")


try:
    check_equivalent()
    check_no_stamps()
    check_bad()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(finish("cli-forecast-log"))
