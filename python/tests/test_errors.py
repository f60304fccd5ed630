"""Errors: the library's as TrainmcError(code, message); bad Python
arguments as TypeError/ValueError before any C call."""
import os

import pytest

import trainmc
from conftest import experiment

DESIGN = experiment("design-48.json")


def test_error_class():
    e = trainmc.TrainmcError(1, "msg")
    assert isinstance(e, Exception)
    assert (e.code, e.message, str(e), e.code_name) == (1, "msg", "msg", "TMC_ERR_INPUT")
    assert (trainmc.OK, trainmc.ERR_INPUT, trainmc.ERR_MEMORY, trainmc.ERR_STOPPED,
            trainmc.ERR_RUNTIME) == (0, 1, 2, 3, 4)


@pytest.mark.parametrize("call", [trainmc.run, trainmc.load, trainmc.closed_form])
def test_missing_experiment_file(tmp_path, call):
    path = str(tmp_path / "no-such-experiment.json")
    with pytest.raises(trainmc.TrainmcError) as e:
        call(path)
    assert e.value.code == trainmc.ERR_INPUT == 1
    assert path in e.value.message


def test_path_like():
    import pathlib
    assert trainmc.load(pathlib.Path(DESIGN)).path == DESIGN


def test_bad_override_value_names_the_json_path():
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(DESIGN, replicas=10, overrides={"job.cards": -3})
    assert e.value.code == trainmc.ERR_INPUT
    assert "job.cards" in e.value.message and "-3" in e.value.message
    assert DESIGN in e.value.message


def test_unknown_override_key():
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.load(DESIGN, {"job.cardz": 3})
    assert e.value.code == 1 and "job.cardz" in e.value.message


def test_bad_dict_experiment():
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.load({"job": {"cards": "many"}})
    assert e.value.code == 1 and "<dict>" in e.value.message


def test_json_syntax_error(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"job": {"cards": 48,}}')
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.load(p)
    assert e.value.code == 1 and str(p) in e.value.message


@pytest.mark.parametrize("replicas,error", [
    (0, ValueError), (-1, ValueError), (10**9 + 1, ValueError),
    (1.5, TypeError), (100.0, TypeError), ("100", TypeError), (True, TypeError)])
def test_invalid_replicas(replicas, error):
    with pytest.raises(error, match="replicas"):
        trainmc.run(DESIGN, replicas=replicas)


@pytest.mark.parametrize("kwargs,error", [
    (dict(seed=-1), ValueError), (dict(seed=2**53), ValueError), (dict(seed="1"), TypeError),
    (dict(threads=-1), ValueError), (dict(threads=5000), ValueError),
    (dict(threads=None), TypeError),
    (dict(overrides="job.cards=3"), TypeError), (dict(overrides={"job.cards": float("nan")}),
                                                 ValueError),
    (dict(overrides={"": 3}), ValueError), (dict(overrides={"a=b": 3}), ValueError),
    (dict(overrides=["job.cards"]), ValueError), (dict(overrides={"job.cards": object()}),
                                                  TypeError),
    (dict(progress=3), TypeError), (dict(stop=True), TypeError),
    (dict(precision=0.01), TypeError), (dict(importance=3), TypeError),
    (dict(importance_pilot=0), ValueError), (dict(importance_plain_max=0), ValueError),
    (dict(per_replica=None), TypeError)])
def test_invalid_arguments(kwargs, error):
    with pytest.raises(error):
        trainmc.run(DESIGN, replicas=10, **kwargs)


@pytest.mark.parametrize("exp", [3, None, ["design-48.json"], b"\0x".decode()])
def test_invalid_experiment_argument(exp):
    with pytest.raises((TypeError, ValueError)):
        trainmc.run(exp)


def test_numpy_integers_accepted():
    np = pytest.importorskip("numpy")
    r = trainmc.run(DESIGN, replicas=np.int64(20), seed=np.uint32(3),
                    overrides={"job.cards": np.int64(48), "deadline.days": np.float64(30)})
    assert r.replicas == 20 and r["seed"] == 3


def test_bad_precision_is_the_librarys_input_error():
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(DESIGN, replicas=10, precision="nonsense")
    assert e.value.code == 1 and "precision" in e.value.message


def test_library_not_found(tmp_path):
    import subprocess
    import sys
    from conftest import subprocess_env
    missing = str(tmp_path / "libtrainmc.so")
    code = ("import trainmc\n"
            "try:\n    trainmc.version()\n"
            "except trainmc.LibraryNotFoundError as e:\n    print('ERR', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=subprocess_env(TRAINMC_LIBRARY=missing))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ERR") and missing in r.stdout
    assert isinstance(trainmc.LibraryNotFoundError("x"), OSError)


NOT_FOUND = (
    "import trainmc, trainmc._lib as l\n"
    "def refuse(path):\n"
    "    raise OSError(path + ': cannot open shared object file (refused by the test)')\n"
    "l._open = refuse  # whatever the machine has installed\n"
    "try:\n    trainmc.version()\n"
    "except trainmc.LibraryNotFoundError as e:\n    print(e)\n")


def not_found_message(package_parent):
    """LibraryNotFoundError's message for the package imported from
    package_parent, without TRAINMC_LIBRARY and with every load refused."""
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("TRAINMC_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = package_parent
    r = subprocess.run([sys.executable, "-c", NOT_FOUND], capture_output=True, text=True,
                       env=env, cwd=package_parent)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("libtrainmc.so not found"), r.stdout
    return r.stdout


def test_library_not_found_in_the_repository():
    from conftest import PYTHON_DIR, REPO
    msg = not_found_message(PYTHON_DIR)
    assert os.path.join(REPO, "build", "libtrainmc.so") in msg  # where the build puts it
    assert "TRAINMC_LIBRARY" in msg and "cmake --build build" in msg


def test_library_not_found_outside_a_checkout(tmp_path):
    """A copied (or installed) package guesses no build folder."""
    import shutil
    from conftest import PYTHON_DIR
    shutil.copytree(os.path.join(PYTHON_DIR, "trainmc"), tmp_path / "site" / "trainmc",
                    ignore=shutil.ignore_patterns("__pycache__"))
    msg = not_found_message(str(tmp_path / "site"))
    assert "set TRAINMC_LIBRARY to libtrainmc.so" in msg
    assert "cmake --install" in msg and "LD_LIBRARY_PATH" in msg
    assert "build/libtrainmc.so" not in msg and "the build tree" not in msg
    assert "refused by the test" in msg  # what was tried, and why it failed


def test_library_path():
    assert os.path.exists(trainmc.library_path())


def test_an_experiment_keeps_its_file_after_a_chdir(tmp_path, monkeypatch):
    """A relative path is resolved when loaded: after a chdir, overrides and
    sweeps re-read the same file, not one that has the same relative name."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    monkeypatch.chdir(here)
    x = trainmc.load("experiments/quickstart-64.json")
    impostor = tmp_path / "experiments"
    impostor.mkdir()
    (impostor / "quickstart-64.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    r = trainmc.run(x, replicas=20, seed=1, overrides={"deadline.days": 6})
    assert r["inputs"]["job"]["cards"] == 64 and r["inputs"]["deadline"]["days"] == 6


def test_force_runs_what_does_not_fit():
    small = {"memory.usable_gib": 10}
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(DESIGN, replicas=10, overrides=small)
    assert e.value.code == trainmc.ERR_INPUT and "does not fit in memory" in e.value.message
    assert trainmc.run(DESIGN, replicas=10, overrides=small, force=True).replicas == 10
    with pytest.raises(TypeError):
        trainmc.run(DESIGN, replicas=10, force=1)
