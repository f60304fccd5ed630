"""Every example in python/examples answers --help at once: usage on stdout,
exit 0, no file written, nothing simulated; a bad argument is a usage error
(exit 2) that writes nothing either. (completion_cdf.py once took --help
for its output file, ran a whole simulation and wrote ./--help.png.)"""
import glob
import os
import subprocess
import sys

import pytest

from conftest import REPO, subprocess_env

EXAMPLES = sorted(glob.glob(os.path.join(REPO, "python", "examples", "*.py")))


def run_example(path, args, cwd):
    return subprocess.run([sys.executable, path, *args], cwd=cwd, capture_output=True,
                          text=True, env=subprocess_env(MPLBACKEND="Agg"), timeout=60)


def test_there_are_examples():
    assert EXAMPLES, "no python/examples/*.py found"


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_help(path, tmp_path):
    r = run_example(path, ["--help"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: " + os.path.basename(path))
    assert "--help" in r.stdout
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args", [["--no-such-option"], ["--help.png"], ["out.png"],
                                  ["--replicas", "0"], ["--seed", "-1"]])
@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_bad_argument(path, args, tmp_path):
    r = run_example(path, args, tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "usage: " in r.stderr and "error: " in r.stderr
    assert os.listdir(tmp_path) == []
