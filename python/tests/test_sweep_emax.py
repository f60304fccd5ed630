"""trainmc.sweep against `trainmc sweep --json`; trainmc.emax against an
independent quadrature of E[max of N standard normals]."""
import math
import threading

import pytest

import trainmc
from conftest import experiment

DESIGN = experiment("design-48.json")
STRESS = experiment("design-48-stress.json")


def _no_sweep_in_library():
    try:
        return "tmc_experiment_sweep" in trainmc._lib.library().missing
    except trainmc.LibraryNotFoundError:
        return False


needs_sweep = pytest.mark.skipif(_no_sweep_in_library(),
                                 reason="this libtrainmc has no tmc_experiment_sweep yet")


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


@pytest.mark.parametrize("kwargs,error", [
    (dict(vary={}), ValueError), (dict(vary={"a": [1], "b": [2], "c": [3]}), ValueError),
    (dict(vary={"job.cards": []}), ValueError), (dict(vary={"job.cards": ["x"]}), TypeError),
    (dict(vary={"job.cards": [float("inf")]}), ValueError), (dict(vary=3), TypeError),
    (dict(vary=["job.cards"]), ValueError), (dict(vary={"job.cards": [True]}), TypeError),
    (dict(vary={"job.cards": [1]}, replicas=1), ValueError)])
def test_sweep_bad_arguments(kwargs, error):
    with pytest.raises(error):
        trainmc.sweep(DESIGN, **kwargs)


def test_sweep_needs_a_file():
    with pytest.raises(TypeError):
        trainmc.sweep({"job": {}}, vary={"job.cards": [1, 2]})


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
