"""trainmc.run against the `trainmc run` program: same numbers for the same
seed, every replica's figures, experiments from dicts and handles."""
import json
import math

import pytest

import trainmc
from conftest import EXPERIMENTS, experiment

DESIGN = experiment("design-48.json")
TRACE = experiment("design-48-trace.json")  # names ../distributions/failures/trace-example.json
STRESS = experiment("design-48-stress.json")
QUICK = experiment("quickstart-64.json")

# keys that describe how the run went, not its numbers
VOLATILE = {"elapsed_s", "threads"}


def strip(doc):
    """The document without VOLATILE keys, its "overrides" sorted: the
    program lists -n and --seed where the command line gives them, the
    library lists replicas= and seed= options after the experiment's
    overrides."""
    out = {k: v for k, v in doc.items() if k not in VOLATILE}
    if "overrides" in out:
        out["overrides"] = sorted(out["overrides"])
    return out


@pytest.mark.parametrize("path,replicas,seed", [(DESIGN, 1000, 7), (STRESS, 400, 11)])
def test_same_numbers_as_cli(cli_json, path, replicas, seed):
    want = cli_json("run", path, "-n", str(replicas), "--seed", str(seed))
    got = trainmc.run(path, replicas=replicas, seed=seed)
    assert got["replicas"] == replicas and got["seed"] == seed
    assert got["deadline"]["probability"] == want["deadline"]["probability"]
    assert got["deadline"]["ci95"] == want["deadline"]["ci95"]
    assert got["completion_days"]["mean"] == want["completion_days"]["mean"]
    assert got["completion_days"]["quantiles"] == want["completion_days"]["quantiles"]
    # the whole document, not just the figures above
    assert strip(got) == strip(want)


def test_overrides_as_cli_set(cli_json):
    want = cli_json("run", STRESS, "-n", "300", "--seed", "4", "--set", "deadline.days=27.14",
                    "--set", "checkpoint.interval_s=900")
    got = trainmc.run(STRESS, replicas=300, seed=4,
                      overrides={"deadline.days": 27.14, "checkpoint.interval_s": 900})
    assert strip(got) == strip(want)
    assert 0 < got["deadline"]["probability"] < 1


def test_result_is_the_document():
    r = trainmc.run(DESIGN, replicas=200, seed=1)
    assert isinstance(r, dict)
    assert json.loads(r.json) == dict(r)
    assert r.replicas == 200 == r["replicas"]
    assert 0 <= r["deadline"]["probability"] <= 1


def test_threads_do_not_change_numbers():
    a = trainmc.run(STRESS, replicas=200, seed=3, threads=1)
    b = trainmc.run(STRESS, replicas=200, seed=3, threads=2)
    assert strip(a) == strip(b)
    assert list(a.completion_days) == list(b.completion_days)


def test_per_replica_arrays_match_cli_samples(cli_samples):
    args = dict(replicas=600, seed=5, overrides={"deadline.days": 27.05})
    header, rows = cli_samples(STRESS, "-n", "600", "--seed", "5", "--set", "deadline.days=27.05")
    col = {k: i for i, k in enumerate(header)}
    r = trainmc.run(STRESS, **args)
    n = 600
    assert len(r.completion_days) == n == len(rows)
    cli_days = [float(row[col["completion_days"]]) for row in rows]
    # exactly (the CSV has 17 digits), in replica order and sorted
    assert list(r.completion_days) == cli_days
    assert sorted(r.completion_days) == sorted(cli_days)
    for name, values in r.counts.items():
        assert len(values) == n
        assert list(values) == [float(row[col[name]]) for row in rows], name
    for name, values in r.split_days.items():
        assert list(values) == [float(row[col[name + "_days"]]) for row in rows], name
    assert [bool(c) for c in r.censored] == [row[col["censored"]] == "1" for row in rows]
    assert len(r.weight) == n and all(w == 1 for w in r.weight)


def test_per_replica_figures_against_the_summary():
    r = trainmc.run(STRESS, replicas=500, seed=9)
    np = pytest.importorskip("numpy")
    n = r.replicas
    days = r.completion_days
    assert isinstance(days, np.ndarray) and days.dtype == np.float64 and days.shape == (n,)
    assert r.censored.dtype == np.bool_
    assert set(r.counts) == set(r["events"])
    assert set(r.split_days) | {"wall"} == set(r["split_days"])
    # the document's means are the arrays' means
    assert math.isclose(days.mean(), r["completion_days"]["mean"], rel_tol=1e-12)
    for name, values in r.counts.items():
        assert math.isclose(values.mean(), r["events"][name], rel_tol=1e-12, abs_tol=1e-12), name
    met = np.mean(days <= r["deadline"]["days"])
    assert met == r["deadline"]["probability"]
    # each replica's split adds up to its T less the deadline's reserve
    reserve = r["inputs"]["deadline"]["reserve_days"]
    total = sum(r.split_days.values())
    ok = ~r.censored
    assert ok.any()
    np.testing.assert_allclose(total[ok], days[ok] - reserve, rtol=1e-9, atol=0)
    assert r["censored"]["replicas"] == int(r.censored.sum())


def test_summary_only():
    r = trainmc.run(DESIGN, replicas=300, seed=2, per_replica=False)
    full = trainmc.run(DESIGN, replicas=300, seed=2)
    assert list(r.completion_days) == list(full.completion_days)
    assert r.counts is None and r.split_days is None and r.censored is None and r.weight is None
    assert strip(r) == strip(full)


def test_dict_experiment_equals_its_file():
    with open(QUICK) as f:
        d = json.load(f)
    a = trainmc.run(d, replicas=300, seed=8)
    b = trainmc.run(QUICK, replicas=300, seed=8)
    assert a["completion_days"] == b["completion_days"]
    assert a["deadline"] == b["deadline"]
    assert a["inputs"] == b["inputs"]
    assert list(a.completion_days) == list(b.completion_days)


def test_dict_experiment_resolves_files_against_cwd(monkeypatch):
    with open(QUICK) as f:
        d = json.load(f)
    monkeypatch.chdir(experiment(""))
    assert trainmc.run(d, replicas=50, seed=1)["replicas"] == 50


def test_dict_experiment_base_dir(tmp_path, monkeypatch):
    """A dict's relative file names resolve against base_dir (default: the
    current folder), in run, load and closed_form."""
    with open(TRACE) as f:
        d = json.load(f)
    assert d["failures"] == "../distributions/failures/trace-example.json"
    want = trainmc.run(TRACE, replicas=40, seed=3)
    got = trainmc.run(d, replicas=40, seed=3, base_dir=EXPERIMENTS)
    assert got["completion_days"] == want["completion_days"]
    assert got["inputs"] == want["inputs"]
    assert list(got.completion_days) == list(want.completion_days)
    with trainmc.load(d, base_dir=EXPERIMENTS) as x:
        assert x.base_dir == EXPERIMENTS and x.path is None
        assert "base_dir" in repr(x)
        assert x.to_dict() == trainmc.load(TRACE).to_dict()
    assert trainmc.closed_form(d, base_dir=EXPERIMENTS) == want["closed_form"]
    import pathlib
    assert trainmc.closed_form(d, base_dir=pathlib.Path(EXPERIMENTS)) == want["closed_form"]
    # elsewhere: a clear error naming the file and base_dir
    monkeypatch.chdir(tmp_path)
    for call in (lambda: trainmc.run(d, replicas=10), lambda: trainmc.load(d),
                 lambda: trainmc.closed_form(d),
                 lambda: trainmc.run(d, replicas=10, base_dir=str(tmp_path))):
        with pytest.raises(trainmc.TrainmcError) as e:
            call()
        assert e.value.code == trainmc.ERR_INPUT
        msg = e.value.message
        assert "<dict>" in msg and "failures" in msg and "trace-example.json" in msg, msg
        assert "base_dir" in msg and str(tmp_path) in msg, msg


def test_dict_with_base(tmp_path):
    """A dict's "base" resolves against base_dir, as its other file names,
    and its keys override the base's: the numbers of the base file with the
    same key by override; a path loads its base the same way."""
    d = {"base": "design-48.json", "job": {"cards": 64}}
    want = trainmc.run(DESIGN, replicas=60, seed=5, overrides={"job.cards": 64})
    got = trainmc.run(d, replicas=60, seed=5, base_dir=EXPERIMENTS)
    assert got["completion_days"] == want["completion_days"]
    assert got["base_chain"][1].endswith("design-48.json")
    child = tmp_path / "child.json"
    child.write_text(json.dumps({"base": DESIGN, "job": {"cards": 64}}))
    by_path = trainmc.run(str(child), replicas=60, seed=5)
    assert by_path["completion_days"] == want["completion_days"]
    assert by_path["base_chain"] == [str(child), DESIGN]
    with pytest.raises(trainmc.TrainmcError) as e:  # base_dir elsewhere: not found
        trainmc.run(d, replicas=10, base_dir=str(tmp_path))
    assert "<dict>: base: " in e.value.message and "design-48.json" in e.value.message


def test_base_dir_is_for_dicts():
    with pytest.raises(ValueError, match="base_dir"):
        trainmc.run(DESIGN, replicas=10, base_dir=EXPERIMENTS)
    with trainmc.load(DESIGN) as x:
        with pytest.raises(ValueError, match="base_dir"):
            trainmc.run(x, replicas=10, base_dir=EXPERIMENTS)
    with pytest.raises(TypeError, match="base_dir"):
        trainmc.load({"job": {}}, base_dir=3)


def test_arrays_are_floats_the_document_as_parsed():
    """Whole numbers (a count, a weight of 1, a probability of 1) are ints in
    the parsed document but floats in every array."""
    r = trainmc.run(TRACE, replicas=20, seed=1)
    assert r["deadline"]["probability"] == 1 and isinstance(r["deadline"]["probability"], int)
    assert isinstance(r["restarts"]["max"], int)  # as json.loads gives it
    arrays = [r.completion_days, r.weight, *r.counts.values(), *r.split_days.values()]
    np = pytest.importorskip("numpy")
    for a in arrays:
        assert isinstance(a, np.ndarray) and a.dtype == np.float64
        assert isinstance(a[0], float)
    assert r.censored.dtype == np.bool_


def test_restarts_in_the_document():
    r = trainmc.run(experiment("restart-budget-64.json"), replicas=200, seed=1)
    restarts = r["restarts"]
    assert restarts["max_restarts"] == r["inputs"]["deadline"]["max_restarts"] == 3
    assert 0 < restarts["p_over_budget"] <= 1
    # restarts per run: card failures, outages and loss spikes
    per_run = [sum(v) for v in zip(*(r.counts[k] for k in ("card_failures", "outages",
                                                            "loss_spikes")))]
    assert math.isclose(sum(per_run) / len(per_run), restarts["mean"], rel_tol=1e-12)
    assert max(per_run) == restarts["max"]
    none = trainmc.run(DESIGN, replicas=20, seed=1)["restarts"]
    assert none["max_restarts"] is None and none.get("p_over_budget") is None


def test_experiment_handle():
    x = trainmc.load(STRESS, {"deadline.days": 27.05})
    try:
        d = x.to_dict()
        assert d["deadline"]["days"] == 27.05
        assert x.path == STRESS and x.overrides == ["deadline.days=27.05"]
        a = trainmc.run(x, replicas=100, seed=1)
        b = x.run(replicas=100, seed=1)
        assert list(a.completion_days) == list(b.completion_days)
        c = trainmc.run(STRESS, replicas=100, seed=1, overrides={"deadline.days": 27.05})
        assert a["deadline"] == c["deadline"]
        # more overrides on a handle: loaded again with both
        e = trainmc.run(x, replicas=100, seed=1, overrides={"checkpoint.interval_s": 900})
        assert e["inputs"]["checkpoint"]["interval_s"] == 900
        assert e["inputs"]["deadline"]["days"] == 27.05
        assert trainmc.load(x) is x
    finally:
        x.close()
    with pytest.raises(ValueError, match="closed"):
        x.to_dict()
    with trainmc.load(DESIGN) as y:
        assert y.to_dict()["job"]["cards"] == 48
    with pytest.raises(ValueError):
        trainmc.run(y)


def test_closed_form_is_the_documents():
    r = trainmc.run(DESIGN, replicas=50, seed=1)
    assert trainmc.closed_form(DESIGN) == r["closed_form"]
    cf = trainmc.closed_form(DESIGN, {"checkpoint.interval_s": 900})
    assert cf["young_interval_s"] == r["closed_form"]["young_interval_s"]
    assert cf["interval_s"] != r["closed_form"]["interval_s"]


def test_precision_target(cli_json):
    target = "completion_days.mean:abs=0.01"
    want = cli_json("run", STRESS, "-n", "20000", "--seed", "2", "--precision", target)
    got = trainmc.run(STRESS, replicas=20000, seed=2, precision=target)
    assert got.replicas < 20000
    assert len(got.completion_days) == got.replicas == got["replicas"]
    assert strip(got) == strip(want)


def test_version():
    assert trainmc.version() == "0.1.0"
    assert trainmc.__version__.split(".")[0] == trainmc.version().split(".")[0]


def test_importance_as_cli(cli_json):
    path = experiment("design-48-rare-misses.json")
    want = cli_json("run", path, "-n", "2000", "--seed", "1", "--importance", "auto")
    got = trainmc.run(path, replicas=2000, seed=1, importance="auto")
    assert got["importance"] == want["importance"]
    assert 0 < got["importance"]["p_miss"] < 0.01
    assert strip(got) == strip(want)
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(path, replicas=20, importance="bogus")
    assert e.value.code == trainmc.ERR_INPUT
