"""The package without numpy (Debian's python3 with only the standard
library, or the pyenv python3): import and run give the summary dict, and
per-replica arrays fall back to array.array."""
import subprocess
import sys

from conftest import experiment, subprocess_env

DESIGN = experiment("design-48.json")

NO_NUMPY = (
    "import sys\n"
    "sys.modules['numpy'] = None  # import numpy now raises ImportError\n"
    "import array, trainmc\n"
    f"r = trainmc.run({DESIGN!r}, replicas=300, seed=2)\n"
    "assert 'numpy' not in sys.modules or sys.modules['numpy'] is None\n"
    "assert isinstance(r.completion_days, array.array) and len(r.completion_days) == 300\n"
    "assert isinstance(r.censored, array.array) and r.censored.typecode == 'b'\n"
    "assert isinstance(r.counts['card_failures'], array.array)\n"
    "assert all(a.typecode == 'd' for a in [r.completion_days, r.weight, *r.counts.values(),\n"
    "                                       *r.split_days.values()])\n"
    "m = sum(r.completion_days) / 300\n"
    "assert abs(m - r['completion_days']['mean']) <= 1e-9 * m\n"
    "print(r['deadline']['probability'])\n")


def test_without_numpy():
    r = subprocess.run([sys.executable, "-c", NO_NUMPY], capture_output=True, text=True,
                       env=subprocess_env())
    assert r.returncode == 0, r.stderr
    assert 0 <= float(r.stdout) <= 1


def test_import_does_not_load_numpy_or_the_library():
    code = ("import sys, trainmc, trainmc._lib as l\n"
            "print('numpy' in sys.modules, l._library is None)\n"
            "trainmc.run(%r, replicas=10)\n"
            "print('numpy' in sys.modules)\n" % DESIGN)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=subprocess_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True", "False"]
