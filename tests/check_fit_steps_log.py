"""cli-fit-steps-log: `trainmc fit --steps LOG --cards N` on a training
log (docs/fit.md 12, docs/commands/fit.md "A training log").

Standard library only. Usage: check_fit_steps_log.py TRAINMC SOURCE_DIR

The logs are drawn here by an independent simulation (random.gauss, a fixed
seed): each step takes mu (1 + cv max of N standard normals), and a printed
value is the mean of the L steps since the line before, written as
Megatron-LM prints it (megatron/training/training.py training_log:
' [%Y-%m-%d %H:%M:%S] iteration %8d/%8d | consumed samples: %12d | elapsed
time per iteration (ms): %.1f | learning rate: %.3E |').

1. c_N and s_N: the mean and sd of the maximum of N standard normals by
   Simpson's rule on N phi(x) Phi(x)^(N-1) here, against --json's c_n, s_n
   (to 1e-6).
2. Recovery: mu 1.2 s, cv 0.05, N 8, L 10, 400 printed lines, a restart in
   the middle (a load line, the iteration number back to the last save,
   and that start's first line 30 s slower: its start-up, to be left out).
   Estimator (docs/fit.md 12): m = sum L Y / W, sigma^2 = sum L (Y - m)^2
   / (k - 1), mu = m - c_N sigma / s_N, cv = sigma / (s_N mu). Standard
   error: the delta method on (m, sigma^2) with the true moments of one
   step, worked out here: with a = mu cv and kappa3, kappa4 the central
   third and fourth moments of the maximum (Simpson again),
   var(m) = a^2 s^2 / (k L), var(sigma^2) = ((mu4 - 3 v^2) / L + 2 v^2) / k,
   cov = mu3 / (k L), v = a^2 s^2, mu3 = a^3 kappa3, mu4 = a^4 kappa4.
   Tolerance: mu and cv within 4 of these SEs of the truth; the reported
   SEs within a factor 0.7 to 1.4 of them; the restart counted, its line
   named, the steps fitted = the steps written after each start's first
   line.
3. Coverage: 40 logs (seeds 1..40, 100 lines, L 10), the reported 95 %
   intervals of mu and of cv each cover the truth in at least 33 of 40
   (P(Binomial(40, 0.95) <= 32) = 0.0007).
4. The same log through --step-regex (a generic form) gives the same mu
   and cv as Megatron's form.
5. Malformed logs refused with exit 2, FILE:LINE:COLUMN, the field, and no
   --json, --write or --html file left; --cards missing on a training log,
   and --cards on a CSV, refused.
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
TMP = tempfile.mkdtemp(prefix="check_fit_steps_log.")
MU, CV, N, L = 1.2, 0.05, 8, 10


def max_moments(n):
    """Mean, sd, third and fourth central moments of the maximum of n
    standard normals: Simpson's rule on [-10, 10], 20000 panels."""
    def dens(x):
        phi = math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        return n * phi * (0.5 * (1 + math.erf(x / math.sqrt(2)))) ** (n - 1)
    a, b, m = -10.0, 10.0, 20000
    h = (b - a) / m
    raw = [0.0] * 5
    for i in range(m + 1):
        x = a + i * h
        w = 1 if i in (0, m) else (4 if i % 2 else 2)
        d = dens(x) * w
        for p in range(5):
            raw[p] += d * x ** p
    raw = [r * h / 3 for r in raw]
    c = raw[1]
    var = raw[2] - c * c
    k3 = raw[3] - 3 * c * raw[2] + 2 * c ** 3
    k4 = raw[4] - 4 * c * raw[3] + 6 * c * c * raw[2] - 3 * c ** 4
    return c, math.sqrt(var), k3, k4


C_N, S_N, K3, K4 = max_moments(N)


def true_se(k):
    """The delta-method SEs of mu and cv for k printed values of L steps,
    from the true moments (the docstring's formulas)."""
    a = MU * CV
    v = a * a * S_N * S_N
    mu3, mu4 = a ** 3 * K3, a ** 4 * K4
    vm, vv, cmv = v / (k * L), ((mu4 - 3 * v * v) / L + 2 * v * v) / k, mu3 / (k * L)
    sigma, m = math.sqrt(v), MU * (1 + C_N * CV)
    g_mu = (1, -C_N / (2 * S_N * sigma))
    den = S_N * m - C_N * sigma
    g_cv = (-sigma * S_N / den ** 2, S_N * m / den ** 2 / (2 * sigma))
    se = lambda g: math.sqrt(g[0] ** 2 * vm + g[1] ** 2 * vv + 2 * g[0] * g[1] * cmv)
    return se(g_mu), se(g_cv)


def megatron(it, ms):
    return (f" [2026-03-01 10:00:00] iteration {it:8d}/  500000 | consumed samples: "
            f"{it * 64:12d} | elapsed time per iteration (ms): {ms:.1f} | learning rate: "
            f"1.000E-04 |")


def draw(rng, n_lines, restart_at=None):
    """The log's lines, the printed values fitted (after each start's first)
    and the steps they hold; a restart after line restart_at: a load line
    back to the last multiple of 100, then a start-up line 30 s slower."""
    lines, fitted, it, first = ["training ..."], 0, 0, True
    for j in range(n_lines):
        if restart_at is not None and j == restart_at:
            it = it // 100 * 100
            lines.append(f" successfully loaded checkpoint from /ckpt [ t 1/1, p 1/1 ] at "
                         f"iteration {it}")
            first = True
        s = sum(MU * (1 + CV * max(rng.gauss(0, 1) for _ in range(N))) for _ in range(L))
        it += L
        ms = 1000 * s / L + (30000 if first and j else 0)
        lines.append(megatron(it, ms))
        fitted += 0 if first else L
        first = False
    return lines, fitted


def fit(path, *args):
    j = os.path.join(TMP, "out.json")
    if os.path.exists(j):
        os.remove(j)
    p = subprocess.run([BIN, "fit", "--steps", path, *args, "--json", j], capture_output=True,
                       text=True)
    doc = json.load(open(j)) if os.path.exists(j) else None
    check(p.returncode == 0 and doc, f"fit --steps {path} {args}: exit {p.returncode} "
                                     f"{p.stderr.strip()}")
    return doc


def write(name, lines):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def recovery():
    lines, fitted = draw(random.Random(2026), 400, restart_at=200)
    path = write("train.log", lines)
    doc = fit(path, "--cards", str(N))
    if not doc:
        return
    check(abs(doc["c_n"] - C_N) < 1e-6 and abs(doc["s_n"] - S_N) < 1e-6,
          f"c_N, s_N {doc['c_n']}, {doc['s_n']} against Simpson's {C_N}, {S_N}")
    se_mu, se_cv = true_se(doc["intervals"])
    for key, truth, se in (("mu_s", MU, se_mu), ("cv", CV, se_cv)):
        got = doc[key]
        check(abs(got["value"] - truth) <= 4 * se,
              f"{key} {got['value']} is {abs(got['value'] - truth) / se:.1f} SE from {truth}")
        check(0.7 * se <= got["se"] <= 1.4 * se, f"{key}'s se {got['se']} against {se}")
    restart_line = 1 + 200 + 2  # the preamble, 200 lines, the load line, the start-up
    check(doc["restarts"] == 1 and doc["restart_lines"] == [restart_line],
          f"restarts {doc['restarts']} at {doc['restart_lines']}, want 1 at {restart_line}")
    check(doc["steps"] == fitted and doc["intervals"] == fitted // L,
          f"steps fitted {doc['steps']}, want {fitted} (start-up lines left out)")
    check(doc["log_interval"] == {"min": L, "max": L}, f"log interval {doc['log_interval']}")
    return lines


def coverage():
    hits = {"mu_s": 0, "cv": 0}
    for seed in range(1, 41):
        lines, _ = draw(random.Random(seed), 100)
        doc = fit(write("cov.log", lines), "--cards", str(N))
        for key, truth in (("mu_s", MU), ("cv", CV)):
            hits[key] += bool(doc and doc[key]["lo"] <= truth <= doc[key]["hi"])
    for key, n in hits.items():
        check(n >= 33, f"{key}'s 95 % interval covered the truth in {n} of 40 logs")


def regex_form(lines):
    """Megatron's lines as 'step N ... took X ms' through --step-regex."""
    generic = []
    for ln in lines:
        if "elapsed time per iteration" in ln:
            it = int(ln.split("iteration")[1].split("/")[0])
            ms = ln.split("(ms):")[1].split("|")[0].strip()
            generic.append(f"INFO step {it} took {ms} ms")
        else:
            generic.append(ln)
    a = fit(write("m.log", lines), "--cards", str(N))
    b = fit(write("g.log", generic), "--cards", str(N), "--step-regex",
            r"step (?P<step>\d+) took (?P<ms>[0-9.]+) ms")
    check(a and b and a["mu_s"] == b["mu_s"] and a["cv"] == b["cv"],
          "--step-regex's form gives another mu or cv than Megatron's")


def refused(name, lines, args, want):
    """fit --steps on lines is refused: exit 2, want in stderr, no file."""
    path = write(name, lines)
    outs = [os.path.join(TMP, name + ext) for ext in (".json", ".write.json", ".html")]
    p = subprocess.run([BIN, "fit", "--steps", path, *args, "--json", outs[0], "--write",
                        outs[1], "--html", outs[2]], capture_output=True, text=True)
    want = want.replace("PATH", path)
    check(p.returncode == 2 and want in p.stderr,
          f"{name}: exit {p.returncode}, stderr {p.stderr.strip()!r}, want {want!r}")
    check(not any(os.path.exists(o) for o in outs), f"{name}: an output file was left")


def malformed():
    good = [megatron(10 * (i + 1), 1234.5) for i in range(5)]
    bad = list(good)
    bad[3] = bad[3].replace("(ms): 1234.5", "(ms): 12x4")
    col = bad[3].index("12x4") + 1
    refused("bad-ms.log", bad, ["--cards", "8"],
            f"PATH:4:{col}: field 'elapsed time per iteration (ms)': '12x4'")
    bad = list(good)
    bad[2] = bad[2].replace("iteration       30/", "iteration      3a0/")
    col = bad[2].index("3a0") + 1
    refused("bad-iter.log", bad, ["--cards", "8"], f"PATH:3:{col}: field 'iteration': '3a0/'")
    bad = list(good)
    bad[1] = bad[1][:bad[1].index("(ms)") + 4]  # the line ends at the field's name
    refused("bad-end.log", bad, ["--cards", "8"],
            f"PATH:2:{len(bad[1]) + 1}: field 'elapsed time per iteration (ms)': ''")
    refused("few.log", good[:3], ["--cards", "8"], "PATH: 2 printed step times")
    refused("flat.log", good, ["--cards", "8"], "no spread")
    refused("nocards.log", good, [], "give --cards N")
    refused("none.log", ["no iteration here"], ["--cards", "8"], "PATH: no iteration line")
    csv = os.path.join(SRC, "tests", "fit", "steps-hand.csv")
    p = subprocess.run([BIN, "fit", "--steps", csv, "--cards", "8"], capture_output=True,
                       text=True)
    check(p.returncode == 2 and "--cards is for a training log" in p.stderr,
          f"--cards on a CSV: exit {p.returncode}, {p.stderr.strip()!r}")


def main():
    lines = recovery()
    coverage()
    if lines:
        regex_form(lines)
    malformed()
    shutil.rmtree(TMP, ignore_errors=True)
    return finish("cli-fit-steps-log")


sys.exit(main())
