"""cli-forecast-run: `trainmc run` on a forecast (a progress section;
docs/model.md 3.15) reports, on the same replicas (common random numbers):

- "forecast.prior": the run with nothing observed (progress.failures = 0 over
  an exposure of 0) - exactly a separate run with those keys;
- "plug_in": the failure rate taken as exact at its posterior mean - exactly a
  separate run with per_card_mtbf_days divided by the posterior mean and
  failures.mtbf_events = 0;
- "forecast.days_left": the completion quantiles less the reserve and the
  elapsed time; the posterior Gamma(n + k, n + lambda E) by hand;
- the text prints the same figures as the JSON;
- the restart budget counts the failures seen before the forecast;
- card-hours bill the elapsed days at progress.cards (+ spares);
- M and Young's optimum for the rest of the run at the posterior mean rate.

Usage: check_forecast_run.py TRAINMC SOURCE_DIR"""
import json
import os
import subprocess
import sys
import tempfile

BIN, SRC = sys.argv[1], sys.argv[2]
X = os.path.join(SRC, "experiments", "forecast-design-48-day9.json")
COMMON = ["--quiet", "-n", "3000", "--detail"]  # the full report: its forecast block
failures = []


def run(tmp, name, *args):
    out = os.path.join(tmp, name + ".json")
    proc = subprocess.run([BIN, "run", X, *COMMON, *args, "--json", out],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"trainmc run {' '.join(args)} failed: {proc.stderr}")
    with open(out, encoding="utf-8") as f:
        return json.load(f), proc.stdout


def expect(what, got, want, tol=0.0):
    if not abs(got - want) <= tol:
        failures.append(f"{what}: got {got!r}, want {want!r}")


with tempfile.TemporaryDirectory() as tmp:
    main, text = run(tmp, "main")
    fc = main["forecast"]
    # the posterior by hand: n = 10, k = 3, 48 cards of 337 days over 9 days
    n, k, lam_e = 10, 3, 48 * 9 / 337
    expect("posterior shape", fc["failure_rate"]["posterior_gamma"][0], n + k)
    expect("posterior rate", fc["failure_rate"]["posterior_gamma"][1], n + lam_e, 1e-12)
    mean = (n + k) / (n + lam_e)
    expect("posterior mean", fc["failure_rate"]["posterior_mean"], mean, 1e-12)

    prior, _ = run(tmp, "prior", "--set", "progress.failures=0",
                   "--set", "progress.exposure_days=0")
    expect("prior P", fc["prior"]["probability"], prior["deadline"]["probability"])
    expect("prior mean T", fc["prior"]["completion_days_mean"],
           prior["completion_days"]["mean"])
    if "prior" in (prior.get("forecast") or {}):
        failures.append("a forecast with nothing observed has no prior run")

    plug, _ = run(tmp, "plug", "--set", f"failures.per_card_mtbf_days={337 / mean!r}",
                  "--set", "failures.mtbf_events=0")
    expect("plug-in P", main["plug_in"]["deadline"]["probability"],
           plug["deadline"]["probability"])
    expect("plug-in mean T", main["plug_in"]["completion_days"]["mean"],
           plug["completion_days"]["mean"], 1e-9)

    # the rest of the run's M and optimum at the posterior mean rate (only
    # card failures here): M / mean and Young's sqrt(2 c M) with it
    cf = main["closed_form"]
    expect("M from the forecast on", cf["left_mtbf_s"], cf["mtbf_s"] / mean,
           1e-9 * cf["mtbf_s"])
    expect("Young's optimum from the forecast on", cf["left_young_interval_s"],
           (2 * 16.38 * cf["mtbf_s"] / mean) ** 0.5, 1e-6)
    if "from the forecast on, at the posterior mean rates: M = " \
            f"{cf['left_mtbf_s']:.4g} s" not in text:
        failures.append("text lacks the forecast's M")

    spent = 5 + 9  # reserve + elapsed
    left = fc["days_left"]
    expect("days left mean", left["mean"], main["completion_days"]["mean"] - spent, 1e-9)
    # text against JSON
    line = f"{fc['prior']['probability']:.4f} [{fc['prior']['ci95'][0]:.4f}, " \
           f"{fc['prior']['ci95'][1]:.4f}] -> {main['deadline']['probability']:.4f}"
    if line not in text:
        failures.append(f"text lacks the moved line {line!r}")
    if f"time left (days): mean {left['mean']:.4f}" not in text:
        failures.append("text lacks the time left")

    # card-hours bill the past at the cards held so far: with 56 cards from
    # now on, 48 + 2 spares over the 9 elapsed days and 56 + 2 over the rest
    # (T less the unbilled 5-day reserve and the 9 days), by hand
    more, _ = run(tmp, "cards56", "--set", "job.cards=56")
    t = more["completion_days"]["mean"]
    expect("card-hours past at 50 held, future at 58", more["cost"]["card_hours"]["mean"],
           24 * (50 * 9 + 58 * (t - 14)), 1e-6 * t * 24 * 58)
    expect("cards held before the forecast", more["cost"]["cards_held_before_forecast"], 50)

    # the restart budget counts the failures and outages seen before the
    # forecast: 3 seen with a budget of 3 and (nearly) no failure left meets
    # it; a budget of 2 is already spent, so no replica can
    rare = ["--set", "failures.per_card_mtbf_days=1e9", "--set", "failures.mtbf_events=0",
            "--set", "deadline.days=40"]
    ok, _ = run(tmp, "budget3", *rare, "--set", "deadline.max_restarts=3")
    spent, _ = run(tmp, "budget2", *rare, "--set", "deadline.max_restarts=2")
    expect("budget 3 of 3 used: P", ok["deadline"]["probability"], 1.0)
    expect("budget spent before the forecast: P", spent["deadline"]["probability"], 0.0)
    expect("restarts before the forecast", ok["events"]["restarts_before_forecast"], 3)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
