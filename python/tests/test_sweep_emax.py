"""trainmc.sweep against `trainmc sweep --json`, from a file, a dict or an
Experiment; trainmc.emax against an independent quadrature of E[max of N
standard normals], the closed form c_2 = 1/sqrt(pi), and `trainmc emax`'s
text and CSV."""
import json
import math
import threading

import pytest

import trainmc
from conftest import EXPERIMENTS, experiment, run_cli

DESIGN = experiment("design-48.json")
STRESS = experiment("design-48-stress.json")


def _not_in_library(name):
    try:
        return name in trainmc._lib.library().missing
    except trainmc.LibraryNotFoundError:
        return False


needs_sweep = pytest.mark.skipif(_not_in_library("tmc_experiment_sweep"),
                                 reason="this libtrainmc has no tmc_experiment_sweep yet")
needs_sweep_text = pytest.mark.skipif(_not_in_library("tmc_experiment_sweep_text"),
                                      reason="this libtrainmc has no tmc_experiment_sweep_text")


def without_volatile(doc):
    out = {k: v for k, v in doc.items() if k not in ("elapsed_s", "threads")}
    out["settings"] = [{k: v for k, v in s.items() if k not in ("elapsed_s", "threads",
                                                                 "overrides")}
                       for s in doc["settings"]]
    return out


@needs_sweep
def test_sweep_two_values_as_cli(cli_json):
    want = cli_json("sweep", STRESS, "--vary", "checkpoint.interval_s=600,1800",
                    "-n", "200", "--seed", "3")
    got = trainmc.sweep(STRESS, vary={"checkpoint.interval_s": [600, 1800]}, replicas=200,
                        seed=3)
    assert isinstance(got, dict) and got["command"] == "sweep"
    assert len(got.rows) == 2 and got.rows is got["settings"]
    assert [row["values"]["checkpoint.interval_s"] for row in got.rows] == [600, 1800]
    for mine, theirs in zip(got.rows, want["settings"]):
        assert mine["deadline"]["probability"] == theirs["deadline"]["probability"]
        assert mine["completion_days"]["mean"] == theirs["completion_days"]["mean"]
        assert mine["completion_days"]["quantiles"] == theirs["completion_days"]["quantiles"]
        assert mine["difference_days"] == theirs["difference_days"]
    assert got["optimum"] == want["optimum"]
    assert without_volatile(got) == without_volatile(want)


@needs_sweep
def test_sweep_vary_forms_agree():
    a = trainmc.sweep(DESIGN, vary={"checkpoint.interval_s": [600, 1800]}, replicas=50, seed=1)
    b = trainmc.sweep(DESIGN, vary=["checkpoint.interval_s=600,1800"], replicas=50, seed=1)
    c = trainmc.sweep(DESIGN, vary={"checkpoint.interval_s": "600:1800:1200"}, replicas=50,
                      seed=1)
    assert [r["completion_days"] for r in a.rows] == [r["completion_days"] for r in b.rows] \
        == [r["completion_days"] for r in c.rows]


@needs_sweep
def test_sweep_grid_and_overrides():
    s = trainmc.sweep(DESIGN, vary={"checkpoint.interval_s": [600, 1800], "job.cards": [40, 48]},
                      replicas=20, seed=1, overrides={"deadline.days": 26})
    assert len(s.rows) == 4
    assert all(r["inputs"]["deadline"]["days"] == 26 for r in s.rows)


@needs_sweep
def test_sweep_errors():
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.sweep(DESIGN, vary={"job.cardz": [1, 2]}, replicas=10)
    assert e.value.code == 1 and "job.cardz" in e.value.message
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.sweep(DESIGN, vary={"job.cards": [48, -3]}, replicas=10)
    assert e.value.code == 1 and "job.cards" in e.value.message


@needs_sweep
def test_sweep_progress_and_stop():
    seen = []
    s = trainmc.sweep(STRESS, vary={"checkpoint.interval_s": [600, 1800]}, replicas=500,
                      seed=1, progress=lambda done, total: seen.append((done, total)))
    assert len(s.rows) == 2
    assert seen and seen[-1] == (1000, 1000)  # every setting's replicas
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        with pytest.raises(trainmc.TrainmcError) as e:
            trainmc.sweep(STRESS, vary={"checkpoint.interval_s": [600, 1800]}, replicas=10**7,
                          threads=2, stop=stop)
    finally:
        timer.cancel()
    assert e.value.code == trainmc.ERR_STOPPED
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.sweep(STRESS, vary={"checkpoint.interval_s": [600, 1800]}, replicas=10**7,
                      threads=2, progress=lambda done, total: done > 0)
    assert e.value.code == trainmc.ERR_STOPPED


def test_emax_step_text_csv_as_cli(cli, tmp_path):
    # c_2 = E[max of 2 standard normals] = E|X - Y| / 2 = 1/sqrt(pi) exactly; the
    # step time is mu + c_2 sigma + fixed (docs/model.md 2), worked by hand
    c2 = 1 / math.sqrt(math.pi)
    args = ["-c", "2,8", "-n", "3000", "--seed", "4", "--mu", "52.2", "--sigma", "2.61",
            "--fixed-s", "0.58"]
    csv_path = tmp_path / "emax.csv"
    text = run_cli(cli, "emax", *args, "--csv", str(csv_path))
    got = trainmc.emax(cards=[2, 8], replicas=3000, seed=4, mu_s=52.2, sigma_s=2.61,
                       fixed_s=0.58)
    assert isinstance(got, trainmc.EmaxResult) and got.rows is got["cards"]
    assert got.rows[0]["quadrature"]["mean"] == pytest.approx(c2, abs=1e-9)
    assert got.rows[0]["step_s"]["quadrature"] == pytest.approx(52.2 + 2.61 * c2 + 0.58,
                                                                abs=1e-9)
    assert got.csv == csv_path.read_text()
    # the second line holds the elapsed time: the rest is the program's, byte for byte
    mine, theirs = got.text.splitlines(), text.splitlines()
    assert mine[:1] + mine[2:] == theirs[:1] + theirs[2:]
    with pytest.raises(ValueError):
        trainmc.emax(cards=[8], replicas=10, mu_s=52.2)
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.emax(cards=[8], replicas=10, mu_s=0, sigma_s=1)
    assert e.value.code == 1 and "mu_s = 0" in e.value.message


@pytest.mark.parametrize("kwargs,error", [
    (dict(vary={}), ValueError), (dict(vary={"a": [1], "b": [2], "c": [3]}), ValueError),
    (dict(vary={"job.cards": []}), ValueError), (dict(vary={"job.cards": ["x"]}), TypeError),
    (dict(vary={"job.cards": [float("inf")]}), ValueError), (dict(vary=3), TypeError),
    (dict(vary=["job.cards"]), ValueError), (dict(vary={"job.cards": [True]}), TypeError),
    (dict(vary={"job.cards": [1]}, replicas=1), ValueError)])
def test_sweep_bad_arguments(kwargs, error):
    with pytest.raises(error):
        trainmc.sweep(DESIGN, **kwargs)


def test_sweep_experiment_argument():
    for bad in (3, None, ["design-48.json"]):
        with pytest.raises(TypeError, match="experiment"):
            trainmc.sweep(bad, vary={"job.cards": [1, 2]})
    with pytest.raises(ValueError, match="base_dir"):  # a file's names: its own folder
        trainmc.sweep(DESIGN, vary={"job.cards": [1, 2]}, base_dir=EXPERIMENTS)


def without_source(doc):
    """without_volatile, less the keys that name where the experiment came
    from (a file's path, and base_chain, which starts with it; "<dict>" for a
    dict)."""
    out = without_volatile(doc)
    out.pop("experiment_path", None)
    out["settings"] = [{k: v for k, v in s.items() if k not in ("experiment_path", "base_chain")}
                       for s in out["settings"]]
    return out


@needs_sweep_text
@pytest.mark.parametrize("name", ["design-48-stress.json", "design-48-trace.json"])
def test_sweep_dict_equals_its_file(name):
    """sweep(dict) and sweep(path) of the same content: the same numbers.
    The trace experiment names ../distributions/... relative to experiments/,
    where base_dir points."""
    path = experiment(name)
    with open(path) as f:
        d = json.load(f)
    kwargs = dict(vary={"checkpoint.interval_s": [600, 1800]}, replicas=60, seed=2,
                  overrides={"deadline.days": 27})
    want = trainmc.sweep(path, **kwargs)
    got = trainmc.sweep(d, base_dir=EXPERIMENTS, **kwargs)
    assert got.rows[0]["experiment_path"] == "<dict>"
    for mine, theirs in zip(got.rows, want.rows):
        assert mine["deadline"] == theirs["deadline"]
        assert mine["completion_days"] == theirs["completion_days"]
        assert mine["difference_days"] == theirs["difference_days"]
    assert without_source(got) == without_source(want)
    # an Experiment loaded from the dict keeps its text, base_dir and overrides
    with trainmc.load(d, {"deadline.days": 27}, base_dir=EXPERIMENTS) as x:
        assert x.path is None and x.base_dir == EXPERIMENTS
        again = trainmc.sweep(x, vary=kwargs["vary"], replicas=60, seed=2)
    assert without_source(again) == without_source(want)


@needs_sweep_text
def test_sweep_dict_resolves_files_against_base_dir(tmp_path, monkeypatch):
    with open(experiment("design-48-trace.json")) as f:
        d = json.load(f)
    monkeypatch.chdir(tmp_path)  # the default base_dir: nothing there
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.sweep(d, vary={"checkpoint.interval_s": [600, 1800]}, replicas=10)
    assert e.value.code == trainmc.ERR_INPUT
    assert "trace-example.json" in e.value.message and "base_dir" in e.value.message
    monkeypatch.chdir(EXPERIMENTS)
    s = trainmc.sweep(d, vary={"checkpoint.interval_s": [600, 1800]}, replicas=10, seed=1)
    assert len(s.rows) == 2


def expected_max(n, lo=-12.0, hi=12.0, steps=6000):
    """E[max of n standard normals] = integral of x n phi(x) Phi(x)^(n-1),
    by Simpson's rule (independent of the library)."""
    h = (hi - lo) / steps
    total = 0.0
    for i in range(steps + 1):
        x = lo + i * h
        f = x * n * math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi) \
            * (0.5 * (1 + math.erf(x / math.sqrt(2)))) ** (n - 1)
        total += f * (1 if i in (0, steps) else 4 if i % 2 else 2)
    return total * h / 3


def test_emax_quadrature():
    ours = expected_max(8)
    assert abs(ours - 1.4236003) < 1e-7  # the published value 1.42360030...
    doc = trainmc.emax(cards=[8, 48, 1024], replicas=2000, seed=1)
    by_n = {c["n"]: c for c in doc["cards"]}
    assert set(by_n) == {8, 48, 1024}
    assert by_n[8]["quadrature"]["mean"] == pytest.approx(ours, abs=1e-9)
    assert by_n[48]["quadrature"]["mean"] == pytest.approx(expected_max(48), abs=1e-9)
    # the simulated means within 5 standard errors of quadrature
    for c in doc["cards"]:
        assert abs(c["sampler"]["mean"] - c["quadrature"]["mean"]) < 5 * c["sampler"]["se"]
    assert "brute_force" in by_n[48] and by_n[1024].get("brute_force") is None


def test_emax_as_cli(cli_json):
    want = cli_json("emax", "-c", "8,48", "-n", "3000", "--seed", "4")
    got = trainmc.emax(cards=[8, 48], replicas=3000, seed=4)
    assert got["cards"] == want["cards"]


@pytest.mark.parametrize("kwargs,error", [
    (dict(cards=[]), ValueError), (dict(cards=[0]), ValueError), (dict(cards=["8"]), TypeError),
    (dict(cards="8"), TypeError), (dict(replicas=1), ValueError), (dict(seed=-1), ValueError),
    (dict(brute_max=-1), ValueError), (dict(threads=-2), ValueError)])
def test_emax_bad_arguments(kwargs, error):
    with pytest.raises(error):
        trainmc.emax(**{"cards": [8], "replicas": 10, **kwargs})
