"""cli-numbers: every printed number right or refused (issue 33 item 4).
Usage: check_numbers.py TRAINMC SOURCE_DIR.

Each figure below is worked out by hand, not read from trainmc:
  (a) a forecast of 31,789 steps in 1e-300 days: its pace is
      31,789 / 1e-300 = 3.1789e304 steps a day, printed "3.179e+304" (it
      printed 305 digits with "%.0f");
  (b) `plan` at 6ND = 6 x 1e18 x 1e18 = 6e36 FLOP, efficiency 1e-9 on
      16,384 cards: an A100 (312 TFLOP/s) takes 6e36 / (16,384 x 312e12 x
      1e-9) / 86,400 = 1.3585e22 days and needs 6e36 / (312e12 x 1e-9 x
      86,400 x 1e-6) = 2.2258e32 cards for 1e-6 days: printed "1.359e+22
      days" and "2.226e+32 cards" (the card count was cut at 31 digits with
      thousands separators that overran its 40-byte buffer; the days printed
      as 23 digits), the efficiency "0.000000100 %" (it printed 0.0 %);
  (c) no line of either output holds a run of 17 or more digits (a double
      has 17 significant digits: any more are noise).
"""
import re
import subprocess
import sys


def run(args, cwd):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    trainmc, src = sys.argv[1], sys.argv[2]
    exp = src + "/experiments"
    failures = []

    def check(ok, what):
        print(("ok  " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    rc, out, err = run([trainmc, "run", "forecast-design-48-day9.json", "--quiet", "--detail",
                        "--replicas", "100",
                        "--set", "progress.elapsed_days=1e-300",
                        "--set", "progress.steps_done=31789",
                        "--set", "progress.committed_step=31000",
                        "--set", "progress.step_s=null",
                        "--set", "progress.failures=0"], exp)
    check(rc == 0, "(a) the forecast runs: exit %d %s" % (rc, err.strip()[:200]))
    pace = re.search(r"pace: (\S+) steps a day so far", out)
    check(pace is not None and abs(float(pace.group(1)) / 3.1789e304 - 1) < 5e-4
          and pace.group(1) == "3.179e+304",
          "(a) pace 31789 / 1e-300 = 3.179e+304 a day: %s" % (pace.group(1) if pace else None))
    long_digits = [l for l in (out + err).splitlines() if re.search(r"\d{17}", l)]
    check(not long_digits, "(c) no run of 17 digits in the forecast: %s" % long_digits[:1])

    rc, out, err = run([trainmc, "plan", "design-48.json",
                        "--set", "scale_up.parameters=1e18", "--set", "scale_up.tokens=1e18",
                        "--set", "scale_up.efficiency=1e-9",
                        "--set", "scale_up.deadline_days=1e-6"], exp)
    check(rc == 0, "(b) plan runs: exit %d" % rc)
    a100 = re.search(r"A100 +312 TFLOP/s +(\S+) days misses +(\S+) cards", out)
    check(a100 is not None, "(b) the A100 line: %s" % (a100.group(0) if a100 else out[-300:]))
    if a100:
        days, cards = float(a100.group(1)), float(a100.group(2).replace(",", ""))
        want_days = 6e36 / (16384 * 312e12 * 1e-9) / 86400
        want_cards = 6e36 / (312e12 * 1e-9 * 86400 * 1e-6)
        check(abs(days / want_days - 1) < 5e-4, "(b) days %g, by hand %g" % (days, want_days))
        check(abs(cards / want_cards - 1) < 5e-4,
              "(b) cards %g, by hand %g" % (cards, want_cards))
    check("at 0.000000100 %" in out, "(b) the efficiency 1e-9 as 0.000000100 %")
    long_digits = [l for l in (out + err).splitlines() if re.search(r"\d{17}", l)]
    check(not long_digits, "(c) no run of 17 digits in plan: %s" % long_digits[:1])

    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
