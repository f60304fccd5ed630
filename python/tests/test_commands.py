"""forecast, fit, cheapest, sensitivity and rescue from Python: each
document equals the program's --json on the same experiment, options,
replicas and seed (every number: the same replicas run), but for
experiment_path, which the package gives absolute; the arrays are the
document's columns; refusals name the library's parameters; a rescue
stops on request."""
import json
import math
import os
import re
import threading
import time

import pytest

import trainmc
from conftest import REPO, experiment, run_cli

DESIGN = experiment("design-48.json")
STRESS = experiment("design-48-stress.json")
DAY9 = experiment("forecast-design-48-day9.json")
HISTORY = experiment("forecast-history-design-48.jsonl")
FAULTS = os.path.join(REPO, "distributions", "infinitehbd-fault-trace", "fault_trace.json")
LOG = os.path.join(REPO, "tests", "fit", "train-megatron.log")


def same(got, want):
    """got (the package's document) equals want (the program's), but for
    experiment_path: absolute in the package, as given to the program."""
    assert got["experiment_path"] == os.path.abspath(want["experiment_path"])
    a = {k: v for k, v in got.items() if k != "experiment_path"}
    b = {k: v for k, v in want.items() if k != "experiment_path"}
    assert a.keys() == b.keys()
    assert [k for k in a if a[k] != b[k]] == []


def test_forecast_equals_the_program(cli_json, tmp_path):
    page = tmp_path / "f.html"
    want = cli_json("forecast", DAY9, "--history", HISTORY, "-n", "200", "--seed", "4",
                    "--html", str(page))
    got = trainmc.forecast(DAY9, HISTORY, replicas=200, seed=4)
    same(got, want)
    same_page(got.html.replace(os.path.abspath(DAY9), DAY9), page.read_text())
    assert got.doc == dict(got)
    rows = want["snapshots"]
    assert list(got.probability) == [r["deadline"]["probability"] for r in rows]
    assert list(got.elapsed_days) == [r["progress"]["elapsed_days"] for r in rows]
    assert list(got.probability_lo) == [r["deadline"]["ci95"][0] for r in rows]
    frame = got.to_frame()
    assert len(frame) == len(rows) == 6
    assert list(frame["deadline.probability"]) == [r["deadline"]["probability"] for r in rows]
    assert "P(T <= deadline)" in got.text or "P(" in got.text
    assert got._repr_html_().startswith("<pre>")


def test_forecast_log_equals_the_program(cli, tmp_path):
    """forecast(log=) is `trainmc forecast --log`: the run's document, every
    number the same; the text is the reading the program prints, then the
    run's report; to_frame() one row; the progress the log gave."""
    out = tmp_path / "log.json"
    text = run_cli(cli, "forecast", DAY9, "--log", LOG, "-n", "200", "--seed", "4", "--quiet",
                   "--json", str(out))
    want = json.loads(out.read_text())
    got = trainmc.forecast(DAY9, log=LOG, replicas=200, seed=4)
    assert isinstance(got, trainmc.ForecastLogResult)
    same(got, want)
    reading = text.split("\n\n")[0]
    assert got.text.startswith(reading + "\n\n") and "P(T <= 27 days)" in got.text
    assert got.progress == want["inputs"]["progress"]
    assert got.progress["steps_done"] == 90 and got.progress["failures"] == 1
    assert got.probability == want["deadline"]["probability"]
    frame = got.to_frame()
    assert len(frame) == 1
    assert frame["deadline.probability"][0] == want["deadline"]["probability"]
    assert frame["progress.committed_step"][0] == 80
    assert got._repr_html_().startswith("<pre>") and "Megatron-LM" in got._repr_html_()
    assert got.html is None  # the run's page needs gnuplot: the program's --html alone
    with pytest.raises(ValueError, match="no HTML page"):
        got.save_html(tmp_path / "none.html")


def test_forecast_log_refusals_name_the_parameters(tmp_path):
    bare = tmp_path / "bare.log"
    bare.write_text(" [2026-03-01 10:00:00] iteration       10/     100 | elapsed time per "
                    "iteration (ms): 1000.0 |\n")
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.forecast(DAY9, log=str(bare), replicas=10)
    assert "give tmc_command_options.committed_step N" in e.value.message
    assert "--" not in e.value.message
    got = trainmc.forecast(DAY9, log=str(bare), replicas=10, committed_step=5)
    assert got.progress["committed_step"] == 5
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.forecast(DAY9, log=str(bare), replicas=10, elapsed_days=-1.0)
    assert "tmc_command_options.elapsed_days = -1" in e.value.message
    with pytest.raises(TypeError, match="one of them"):
        trainmc.forecast(DAY9, HISTORY, log=str(bare))


def test_fit_equals_the_program(cli, tmp_path):
    out = tmp_path / "fit.json"
    text = run_cli(cli, "fit", FAULTS, "--nodes", "400", "--cards-per-node", "8",
                   "--exclude-cause", "GPU", "--json", str(out))
    got = trainmc.fit(FAULTS, nodes=400, cards_per_node=8, exclude_causes=["GPU"])
    assert got.doc == json.loads(out.read_text())
    assert got.text == text  # fit prints nothing before its report
    assert got["faults"]["excluded"] and got.rows == got["causes"]
    frame = got.to_frame()
    assert list(frame["name"]) == [c["name"] for c in got["causes"]]


@pytest.mark.parametrize("kind, log, flags, kwargs", [
    ("steps", "steps-hand.csv", ["--steps", "--confidence", "0.9"], {"confidence": 0.9}),
    ("sacct", "sacct-hand.txt", ["--sacct", "--sacct-map", "TIMEOUT=node",
                                 "--cards-per-node", "4"],
     {"sacct_map": {"TIMEOUT": "node"}, "cards_per_node": 4}),
])
def test_fit_steps_and_sacct_equal_the_program(cli, tmp_path, kind, log, flags, kwargs):
    path = os.path.join(REPO, "tests", "fit", log)
    out = tmp_path / "fit.json"
    text = run_cli(cli, "fit", path, *flags, "--json", str(out))
    got = trainmc.fit(path, kind=kind, **kwargs)
    assert got.doc == json.loads(out.read_text())
    assert got.text == text


@pytest.mark.parametrize("log, flags, kwargs", [
    (FAULTS, ["--nodes", "400", "--cards-per-node", "8"], {"nodes": 400, "cards_per_node": 8}),
    (FAULTS, ["--nodes", "400", "--cards-per-node", "8", "--law", "weibull"],
     {"nodes": 400, "cards_per_node": 8, "law": "weibull"}),
    (FAULTS, ["--nodes", "400", "--cards-per-node", "8", "--bursts"],
     {"nodes": 400, "cards_per_node": 8, "bursts": True}),
    (os.path.join(REPO, "tests", "fit", "steps-hand.csv"), ["--steps"], {"kind": "steps"}),
    (os.path.join(REPO, "tests", "fit", "sacct-hand.txt"),
     ["--sacct", "--sacct-map", "TIMEOUT=node", "--cards-per-node", "4"],
     {"kind": "sacct", "sacct_map": {"TIMEOUT": "node"}, "cards_per_node": 4}),
])
def test_fit_fragment_is_the_programs_write(cli, tmp_path, log, flags, kwargs):
    """fit(...).fragment() is the file `trainmc fit --write` writes, for
    each kind of log and each law; the document with it equals --json."""
    frag, out = tmp_path / "frag.json", tmp_path / "fit.json"
    run_cli(cli, "fit", log, *flags, "--write", str(frag), "--json", str(out))
    got = trainmc.fit(log, **kwargs)
    assert got.fragment() == json.loads(frag.read_text())
    assert got.doc == json.loads(out.read_text())


def test_fit_fragment_refused_says_why():
    got = trainmc.fit(os.path.join(REPO, "tests", "fit", "sacct-hand.txt"), kind="sacct",
                      sacct_map={"TIMEOUT": "node"})
    with pytest.raises(trainmc.TrainmcError) as e:
        got.fragment()
    assert "give tmc_fit_log_options.cards_per_node N" in e.value.message
    assert "--" not in e.value.message
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.fit(FAULTS, nodes=400, cards_per_node=8, law="weibull", bursts=True)
    assert "tmc_fit_log_options.bursts" in e.value.message


def test_cheapest_equals_the_program(cli_json):
    want = cli_json("cheapest", DESIGN, "--lever", "job.cards=32:96", "--target", "0.5",
                    "-n", "60", "--seed", "5")
    got = trainmc.cheapest(DESIGN, target=0.5, levers={"job.cards": "32:96"}, replicas=60,
                           seed=5)
    same(got, want)
    assert list(got.cards) == [p["cards"] for p in want["plans"]]
    assert list(got.probability) == [p["p_deadline"]["value"] for p in want["plans"]]
    assert got["chosen"]["cards"] in list(got.cards)


def same_page(got, want):
    """got (the library's page) is want (the program's --html) but for the
    command its footer names: the program's command line, the library's call."""
    cmd = re.compile(r'<pre class="command">[^<]*</pre>')
    assert "libtrainmc: tmc_experiment_" in got
    assert cmd.sub("", got) == cmd.sub("", want)


def test_sensitivity_equals_the_program(cli_json, tmp_path):
    page = tmp_path / "s.html"
    want = cli_json("sensitivity", DESIGN, "--compound", "job.efficiency=0.35,jitter.cv=0.08",
                    "-n", "60", "--seed", "7", "--html", str(page))
    got = trainmc.sensitivity(DESIGN, compound={"job.efficiency": 0.35, "jitter.cv": 0.08},
                              replicas=60, seed=7)
    same(got, want)
    same_page(got.html.replace(os.path.abspath(DESIGN), DESIGN), page.read_text())
    got.save_html(tmp_path / "mine.html")
    assert (tmp_path / "mine.html").read_text(encoding="utf-8") == got.html
    frame = got.to_frame()
    assert list(frame["name"]) == [i["name"] for i in want["inputs"]]
    assert got["compound"] is not None


def test_rescue_equals_the_program(cli_json):
    want = cli_json("rescue", STRESS, "--set", "deadline.days=24", "--levers",
                    "deadline.days,job.steps", "-n", "30", "--seed", "2")
    got = trainmc.rescue(STRESS, levers=["deadline.days", "job.steps"], replicas=30, seed=2,
                         overrides={"deadline.days": 24})
    same(got, want)
    assert want["change_needed"] and [r["key"] for r in got.rows] == ["deadline.days",
                                                                     "job.steps"]
    assert list(got.column("found.value")) == [r["found"]["value"] if r["found"] else math.nan
                                               for r in want["levers"]]


@pytest.mark.parametrize("call, code, words", [
    (lambda: trainmc.rescue(STRESS, levers=["job.cardz"]), 1,
     "tmc_command_options.levers job.cardz: not a lever"),
    (lambda: trainmc.cheapest(DESIGN, levers={"job.cards": "1:1"}), 1,
     "tmc_command_options.levers job.cards=1:1:"),
    (lambda: trainmc.cheapest(DESIGN, target=1.5), 1, "tmc_command_options.target 1.5"),
    (lambda: trainmc.sensitivity(DESIGN, compound="job.nope=1"), 1,
     "tmc_command_options.compound job.nope=1:"),
    (lambda: trainmc.sensitivity(DESIGN, overrides={"job.cards": -3}), 1, "job.cards"),
    (lambda: trainmc.forecast(DESIGN, "no/such/history.jsonl"), 1,
     "no/such/history.jsonl: cannot open"),
    # run and sweep too: the flags the layers below write, named as parameters
    (lambda: trainmc.sweep(DESIGN, ["job.cardz=1,2"]), 1, "vary job.cardz: not a key"),
    (lambda: trainmc.run(experiment("elastic-300.json"), replicas=10, importance="auto"), 1,
     "run without tmc_run_options.importance"),
    (lambda: trainmc.fit(os.path.join(REPO, "tests", "fit", "steps-hand.csv"), kind="steps",
                         nodes=3), 1,
     "tmc_fit_log_options.nodes is given: an option of a fault log, not of a step-time log"),
    (lambda: trainmc.fit(os.path.join(REPO, "tests", "fit", "sacct-hand.txt"), kind="sacct",
                         sacct_map=["NOPE=nodez"]), 1,
     "tmc_fit_log_options.sacct_map 'NOPE=nodez': the cause 'nodez' is not one of"),
    (lambda: trainmc.fit(FAULTS, nodes=1, cards_per_node=8), 1,
     "tmc_fit_log_options.nodes 1: the log names 231 nodes"),
])
def test_refusals_name_the_parameter(call, code, words, capfd):
    with pytest.raises(trainmc.TrainmcError) as e:
        call()
    assert e.value.code == code and words in e.value.message, e.value.message
    assert "--" not in e.value.message.replace("---", "")  # no command-line flag named
    out, err = capfd.readouterr()
    assert out == "" and err == "", "the library printed"


def as_dict(path):
    with open(path) as f:
        return json.load(f)


@pytest.mark.parametrize("command, flags, call", [
    ("forecast", ["--history", HISTORY, "-n", "60", "--seed", "4"],
     lambda x, **k: trainmc.forecast(x, HISTORY, replicas=60, seed=4, **k)),
    ("forecast", ["--log", LOG, "-n", "60", "--seed", "4"],
     lambda x, **k: trainmc.forecast(x, log=LOG, replicas=60, seed=4, **k)),
    ("cheapest", ["--lever", "job.cards=32:96", "--target", "0.5", "-n", "40", "--seed", "5"],
     lambda x, **k: trainmc.cheapest(x, target=0.5, levers={"job.cards": "32:96"},
                                     replicas=40, seed=5, **k)),
    ("sensitivity", ["--compound", "job.efficiency=0.35", "-n", "40", "--seed", "7"],
     lambda x, **k: trainmc.sensitivity(x, compound="job.efficiency=0.35", replicas=40,
                                        seed=7, **k)),
    ("rescue", ["--set", "deadline.days=24", "--levers", "deadline.days", "-n", "30",
                "--seed", "2"],
     lambda x, **k: trainmc.rescue(x, levers=["deadline.days"], replicas=30, seed=2,
                                   overrides={"deadline.days": 24}, **k)),
])
def test_a_dict_experiment_equals_the_file(cli_json, command, flags, call):
    """Every command takes an experiment as a dict (JSON text to the
    library, its file names resolved against base_dir) or an Experiment
    loaded from one, and gives the program's document for the file, every
    number the same; only experiment_path and base_chain (the forecast from a
    log's run document) differ: they name the file, and a dict has none."""
    path = DAY9 if command == "forecast" else STRESS if command == "rescue" else DESIGN
    want = cli_json(command, path, *flags)
    for got in (call(as_dict(path), base_dir=os.path.dirname(path)),
                call(trainmc.load(as_dict(path), base_dir=os.path.dirname(path)))):
        assert got["experiment_path"] == "<dict>"
        named = ("experiment_path", "base_chain")  # the file, or "<dict>"
        a = {k: v for k, v in got.items() if k not in named}
        b = {k: v for k, v in want.items() if k not in named}
        assert [k for k in a.keys() | b.keys() if a.get(k) != b.get(k)] == []


def test_a_dict_without_base_dir_says_where_names_resolve(tmp_path):
    """design-48's failures section is a file of its own, named relative to
    the experiment: from a dict with another base_dir it cannot be opened,
    and the message says where names resolve (base_dir), as run's does."""
    x = as_dict(DESIGN)
    assert isinstance(x["failures"], str)
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.cheapest(x, base_dir=str(tmp_path), replicas=10)
    assert e.value.code == trainmc.ERR_INPUT
    assert "cannot open" in e.value.message and "base_dir" in e.value.message


def test_rescue_stops_on_request():
    """A long rescue (many replicas per evaluation) stopped by an Event
    from another thread: TrainmcError ERR_STOPPED within seconds."""
    stop = threading.Event()
    timer = threading.Timer(0.5, stop.set)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(trainmc.TrainmcError) as e:
            trainmc.rescue(STRESS, replicas=10**7, threads=2, overrides={"deadline.days": 24},
                           stop=stop)
    finally:
        timer.cancel()
    assert e.value.code == trainmc.ERR_STOPPED
    assert time.monotonic() - t0 < 15
