"""Shared fixtures for the trainmc Python tests.

Environment (set by CTest's python-pytest; otherwise the repository's build/):
  TRAINMC_LIBRARY  libtrainmc.so (read by the package itself)
  TRAINMC_CLI      the `trainmc` program built from the same sources
"""
import csv
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
EXPERIMENTS = os.path.join(REPO, "experiments")
PYTHON_DIR = os.path.join(REPO, "python")

if PYTHON_DIR not in sys.path:  # run from anywhere without PYTHONPATH
    sys.path.insert(0, PYTHON_DIR)


def experiment(name):
    return os.path.join(EXPERIMENTS, name)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("TRAINMC_CLI") or os.path.join(REPO, "build", "trainmc")
    if not os.access(path, os.X_OK):
        pytest.skip(f"no trainmc program at {path} (set TRAINMC_CLI)")
    return path


def run_cli(cli, *args):
    """Run `trainmc ARGS`; returns its stdout, failing the test on a non-zero exit."""
    r = subprocess.run([cli, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, f"trainmc {' '.join(args)}: exit {r.returncode}: {r.stderr}"
    return r.stdout


@pytest.fixture
def cli_json(cli, tmp_path):
    """cli_json("run", EXPERIMENT, ...) -> the --json document as a dict."""
    counter = [0]

    def call(*args):
        counter[0] += 1
        out = tmp_path / f"cli{counter[0]}.json"
        quiet = ["--quiet"] if args[0] != "emax" else []  # emax has no progress bar
        run_cli(cli, *args, *quiet, "--json", str(out))
        with open(out) as f:
            return json.load(f)
    return call


@pytest.fixture
def cli_samples(cli, tmp_path):
    """cli_samples(EXPERIMENT, ...) -> (header, rows) of `trainmc run --samples`."""
    def call(*args):
        out = tmp_path / "samples.csv"
        run_cli(cli, "run", *args, "--quiet", "--samples", str(out))
        with open(out, newline="") as f:
            lines = list(csv.reader(f))
        return lines[0], lines[1:]
    return call


def subprocess_env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                      else "")
    env.update(extra)
    return env
