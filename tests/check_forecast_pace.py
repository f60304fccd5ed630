"""cli-forecast-pace: a forecast's steps left run at the observed pace (issue
32 item 4; job.pace, docs/guides/forecast-pace.md). Usage: check_forecast_pace.py
TRAINMC SOURCE_DIR.

The experiment is experiments/forecast-pace-5s.json, the issue's case, with
no jitter so that every step time is worked out by hand:
  compute mu = 1.6e16 FLOP / (8 x 1e15 FLOP/s x 0.5) = 4.0 s, plus 0.1 s
  exposed communication and 0.4 s input wait (F = 0.5 s): t_plan = 4.5 s;
  observed 5.0 s = F + 4.5 s of compute, which efficiency
  e' = 1.6e16 / (8e15 x 4.5) = 4 / 9 gives (= 0.5 x 4.0 / 4.5).
Checked:
  (a) the default forecast (observed 5.0 s) equals, replica for replica,
      `trainmc run` with job.pace = plan and job.efficiency = 4/9, same
      seed: P(deadline) and its interval equal, mean T and days left within
      1e-9 days (the two compute the same mu to the last bits or so; the
      replicas' draws are the same); and the deadline cannot be met at that
      pace: 199,000 steps x 5.0 s = 11.5162 days after day 3 > 11.5, P = 0;
  (b) job.pace = plan gives the old answer: exactly the forecast whose
      progress gives no step_s (where the observed step never acted);
  (c) the warning of a step off the plan's fires from 5 %: at 6 % (4.77 s)
      and not at 4 % (4.68 s), text and JSON; the steps-a-day line warns at
      6 % slower than the plan's 19,094.3 a day (250,000 steps over
      250,000 x 4.5 + 625 saves x 10 s = 1,131,250 s) and not at 4 %;
  (d) the JSON's forecast.pace states the pace used and both step times;
  (e) the observed mean's standard error sd / sqrt(n) by hand, stated and
      not simulated; without progress.step_sd_s the report says it is not
      known;
  (f) a what-if on job.cards runs the steps left at the efficiency seen on
      the cards held (progress.cards), on the new cards;
  (g) at job.pace = plan a step no efficiency of job.efficiency's row
      (0, 1] gives is accepted but its efficiency is not named: 0.3 s (below
      F = 0.5 s), 0.5 s (at F) and 0.51 s (e' = 0.5 x 4.0 / 0.01 = 200, above
      1; the step at efficiency 1 is 0.5 + 2.0 = 2.5 s) say "no efficiency
      in job.efficiency's range gives it" and give null in the JSON; 3.0 s
      (e' = 0.5 x 4.0 / 2.5 = 0.8) names 0.8 (at the observed pace such steps
      are refused: tests/invalid/progress-step-efficiency-above-one);
  (h) a spread too wide for a two-sided interval: sd 2000 s over 100 steps,
      se 200 s, step_s - 1.96 se < F: the lower end is F = 0.5 s, flagged
      and warned of, and the work left there is 199,000 x 0.5 s, so its
      change is 199000 x (0.5 - 5.0) / 86400 days, never below -the work;
  (i) on this forecast at the observed pace job.efficiency, job.peak_flops
      and job.flop_per_step do nothing, so `sweep --vary` (grid and
      --target) of each is refused, exit 2, no output, the message naming
      job.pace=plan; with --set job.pace=plan the efficiency sweep runs and
      its settings differ; `sensitivity` lists job.efficiency as not varied
      with why."""
import json
import os
import subprocess
import sys
import tempfile

BIN, SRC = sys.argv[1], sys.argv[2]
X = os.path.join(SRC, "experiments", "forecast-pace-5s.json")
COMMON = ["--quiet", "-n", "2000", "--threads", "2", "--detail"]  # the full report
E_OBS = 1.6e16 / (8e15 * 4.5)  # 4/9, by hand above
failures = []


def run(tmp, name, *args):
    out = os.path.join(tmp, name + ".json")
    p = subprocess.run([BIN, "run", X, *COMMON, *args, "--json", out],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"trainmc run {' '.join(args)} failed: {p.stderr}")
    with open(out, encoding="utf-8") as f:
        return json.load(f), p.stdout


def expect(what, got, want, tol=0.0):
    if not abs(got - want) <= tol:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def same_replicas(what, a, b, tol):
    expect(f"{what}: P", a["deadline"]["probability"], b["deadline"]["probability"])
    for i in (0, 1):
        expect(f"{what}: ci95[{i}]", a["deadline"]["ci95"][i], b["deadline"]["ci95"][i])
    expect(f"{what}: mean T", a["completion_days"]["mean"], b["completion_days"]["mean"], tol)
    expect(f"{what}: days left", a["forecast"]["days_left"]["mean"],
           b["forecast"]["days_left"]["mean"], tol)


with tempfile.TemporaryDirectory() as tmp:
    obs, obs_text = run(tmp, "observed")
    eff, _ = run(tmp, "efficiency", "--set", "job.pace=plan",
                 "--set", f"job.efficiency={E_OBS!r}")
    same_replicas("(a) observed 5.0 s against efficiency 4/9", obs, eff, 1e-9)
    expect("(a) P at the observed pace (cannot be met)", obs["deadline"]["probability"], 0.0)
    if "the deadline cannot be met: 11.516 days of steps left" not in obs_text:
        failures.append("(a) text lacks 'cannot be met: 11.516 days' (199000 x 5.0 s)")

    plan, plan_text = run(tmp, "plan", "--set", "job.pace=plan")
    none, _ = run(tmp, "none", "--set", "progress.step_s=0")
    same_replicas("(b) pace plan against no observed step", plan, none, 0.0)
    if not plan["deadline"]["probability"] > 0.5:
        failures.append(f"(b) P at the plan's pace {plan['deadline']['probability']} <= 0.5")

    # (d) the pace stated
    pace = obs["forecast"]["pace"]
    check = {"used": "observed", "step_s": 5.0, "observed_step_s": 5.0, "plan_step_s": 4.5,
             "plan_efficiency": 0.5, "warn_from": 0.05, "warning": True}
    for k, v in check.items():
        if pace.get(k) != v if isinstance(v, (str, bool)) else abs(pace.get(k) - v) > 1e-12:
            failures.append(f"(d) forecast.pace.{k} = {pace.get(k)!r}, want {v!r}")
    expect("(d) pace efficiency", pace["efficiency"], E_OBS, 1e-12)
    expect("(d) difference", pace["difference"], 5.0 / 4.5 - 1, 1e-12)
    p2 = plan["forecast"]["pace"]
    if (p2["used"], p2["observed_step_s"]) != ("plan", 5.0):
        failures.append(f"(d) pace plan: {p2}")
    expect("(d) pace plan: step_s", p2["step_s"], 4.5, 1e-12)
    expect("(d) plan: the observed step's efficiency", p2["observed_efficiency"], E_OBS, 1e-12)
    p3 = none["forecast"]["pace"]
    if p3["used"] != "plan" or p3["observed_step_s"] is not None or p3["warning"]:
        failures.append(f"(d) no observed step: {p3}")
    want = "step: the steps left run at 5.000 s, the observed pace (job.pace = observed): " \
           "5.000 s seen on 8 cards, the plan's 4.500 s there (+11.11 %)"
    if want not in obs_text:
        failures.append("(d) text lacks the pace used")
    if "step: the steps left run at the plan's 4.500 s (job.pace = plan)" not in plan_text:
        failures.append("(d) pace plan: text lacks the pace used")

    # (c) the 5 % warning: 4.5 x 1.06 and x 1.04
    for step, warned in ((4.5 * 1.06, True), (4.5 * 1.04, False), (4.5 * 0.94, True)):
        r, text = run(tmp, f"step{step}", "--set", f"progress.step_s={step!r}")
        got = "warning: the run steps" in text
        if got != warned or r["forecast"]["pace"]["warning"] != warned:
            failures.append(f"(c) step {step} s: warned {got} (JSON "
                            f"{r['forecast']['pace']['warning']}), want {warned}")
    plan_per_day = 250000 / (1131250 / 86400)
    for slower, warned in ((0.06, True), (0.04, False)):
        done = int(3 * plan_per_day * (1 - slower))
        _, text = run(tmp, f"pace{slower}", "--set", "progress.step_s=0",
                      "--set", f"progress.steps_done={done}",
                      "--set", f"progress.committed_step={done - 100}")
        got = "warning, the run is behind the plan" in text
        if got != warned:
            failures.append(f"(c) {done} steps in 3 days ({slower:.0%} slower): warned "
                            f"{got}, want {warned}")

    # (e) the observed mean's spread, by hand: sd 0.9 s over 20,000 steps,
    # se = 0.9 / sqrt(20000) = 0.0063640 s, 95 % step_s -+ 1.959964 se, the
    # work left (199,000 steps) at the ends -+ 199000 x 1.959964 se / 86400
    # days; not simulated: P and T are those without it, exactly
    sp, sp_text = run(tmp, "spread", "--set", "progress.step_sd_s=0.9",
                      "--set", "progress.step_count=20000")
    u = sp["forecast"]["pace"]["uncertainty"]
    se, z = 0.9 / 20000 ** 0.5, 1.959963984540054
    expect("(e) se", u["se_s"], se, 1e-15)
    expect("(e) ci lo", u["ci95_s"][0], 5.0 - z * se, 1e-12)
    expect("(e) ci hi", u["ci95_s"][1], 5.0 + z * se, 1e-12)
    expect("(e) work left at hi", u["work_left_days_at_ci"][1], 199000 * z * se / 86400, 1e-12)
    if u["simulated"] or not u["known"]:
        failures.append(f"(e) uncertainty flags {u}")
    same_replicas("(e) the spread is not simulated", sp, obs, 0.0)
    if "se 0.006364 s (steps taken as independent)" not in sp_text:
        failures.append("(e) text lacks the se")
    # without step_count, n = steps_done (51,000)
    sp2, _ = run(tmp, "spread2", "--set", "progress.step_sd_s=0.9")
    expect("(e) n = steps_done", sp2["forecast"]["pace"]["uncertainty"]["se_s"],
           0.9 / 51000 ** 0.5, 1e-15)
    u0 = obs["forecast"]["pace"]["uncertainty"]
    if u0["known"] or u0["se_s"] is not None or "is not known" not in obs_text:
        failures.append(f"(e) without step_sd_s the report must say it is not known: {u0}")

    # (f) a what-if on job.cards keeps the pace seen on the 8 cards held:
    # e' = 4/9 as above, on 16 cards mu = 1.6e16 / (16e15 x 4/9) = 2.25 s,
    # t_s = 2.75 s; the plan's on 16 cards 2.0 + 0.5 = 2.5 s; the step is
    # compared with the plan's on the 8 cards it was seen on (4.5 s)
    wc, _ = run(tmp, "cards16", "--set", "job.cards=16", "--set", "progress.cards=8")
    pc = wc["forecast"]["pace"]
    expect("(f) step on 16 cards", pc["step_s"], 2.75, 1e-12)
    expect("(f) efficiency", pc["efficiency"], E_OBS, 1e-12)
    expect("(f) the plan's on 16 cards", pc["plan_step_s"], 2.5, 1e-12)
    expect("(f) the plan's on the 8 cards seen", pc["observed_plan_step_s"], 4.5, 1e-12)
    expect("(f) difference", pc["difference"], 5.0 / 4.5 - 1, 1e-12)

    # (g) the plan pace names only an efficiency in job.efficiency's range
    for step, want in ((0.3, None), (0.5, None), (0.51, None), (3.0, 0.8)):
        r, text = run(tmp, f"plan{step}", "--set", "job.pace=plan",
                      "--set", f"progress.step_s={step!r}")
        got = r["forecast"]["pace"]["observed_efficiency"]
        matching = r["forecast"]["step_s"]["matching_efficiency"]
        if want is None:
            if got is not None or matching is not None:
                failures.append(f"(g) plan pace, step {step} s: efficiency {got!r} / "
                                f"{matching!r}, want null")
            if "no efficiency in job.efficiency's range gives it" not in text:
                failures.append(f"(g) plan pace, step {step} s: text lacks 'no efficiency'")
        else:
            expect(f"(g) plan pace, step {step} s: efficiency", got, want, 1e-12)
            expect(f"(g) plan pace, step {step} s: matching", matching, want, 1e-12)
            if f"job.efficiency={want:.4g} gives it" not in text:
                failures.append(f"(g) plan pace, step {step} s: text lacks the efficiency")

    # (h) the interval's lower end clipped at F
    wide, wide_text = run(tmp, "wide", "--set", "progress.step_sd_s=2000",
                          "--set", "progress.step_count=100")
    u = wide["forecast"]["pace"]["uncertainty"]
    if not u["ci95_clipped_at_fixed"] or "lower end is clipped at 0.5000 s" not in wide_text:
        failures.append(f"(h) a wide spread: not clipped: {u}")
    expect("(h) lower end at F", u["ci95_s"][0], 0.5, 0.0)
    expect("(h) fixed_s", u["fixed_s"], 0.5, 1e-15)
    expect("(h) work left at the lower end", u["work_left_days_at_ci"][0],
           199000 * (0.5 - 5.0) / 86400, 1e-12)
    expect("(h) upper end", u["ci95_s"][1], 5.0 + z * 200, 1e-9)
    if u0.get("ci95_clipped_at_fixed") is not None or \
            sp["forecast"]["pace"]["uncertainty"]["ci95_clipped_at_fixed"]:
        failures.append("(h) a narrow spread must not be clipped")

    # (i) the keys the observed pace fixes cannot be varied there
    for key, values in (("job.efficiency", "0.3,0.9"), ("job.peak_flops", "1e15,2e15"),
                        ("job.flop_per_step", "1e16,2e16")):
        for how in (["--vary", f"{key}={values}"],
                    ["--vary", f"{key}={values.replace(',', ':')}",
                     "--target", "deadline.probability>=0.5"]):
            out = os.path.join(tmp, "sweep.json")
            p = subprocess.run([BIN, "sweep", X, "--quiet", "-n", "50", *how, "--json", out],
                               capture_output=True, text=True, check=False)
            want = f"--vary {key}: does nothing on a forecast at the observed pace"
            if p.returncode != 2 or want not in p.stderr or "job.pace=plan" not in p.stderr \
                    or p.stdout or os.path.exists(out):
                failures.append(f"(i) sweep {' '.join(how)}: exit {p.returncode} "
                                f"(want 2), stderr {p.stderr!r}, stdout {p.stdout[:80]!r}")
    out = os.path.join(tmp, "sweep-plan.json")
    p = subprocess.run([BIN, "sweep", X, "--quiet", "-n", "50", "--set", "job.pace=plan",
                        "--vary", "job.efficiency=0.3,0.9", "--json", out],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        failures.append(f"(i) sweep at job.pace=plan: exit {p.returncode}: {p.stderr}")
    else:
        with open(out, encoding="utf-8") as f:
            rows = json.load(f)["settings"]
        means = [r["completion_days"]["mean"] for r in rows]
        if not means[0] > means[1]:
            failures.append(f"(i) sweep at job.pace=plan: mean T {means}, want falling")
    p = subprocess.run([BIN, "sensitivity", X, "--quiet", "-n", "20"],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0 or "not varied: job.efficiency: does nothing on a forecast at " \
            "the observed pace" not in p.stdout:
        failures.append(f"(i) sensitivity: exit {p.returncode}, efficiency not skipped")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
