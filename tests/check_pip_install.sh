#!/bin/sh
# python-pip-install: the package installs the ecosystem's way, offline
# (python/pyproject.toml; Debian's python3-pip and python3-setuptools, no
# registry: --no-build-isolation --no-index), into a temporary prefix, from
# a copy of python/ (the build leaves trainmc.egg-info beside the sources);
# in an empty environment with only that prefix on the path and this build's
# library, `import trainmc` is the installed copy, its metadata version is
# the package's __version__, a run gives the numbers of `trainmc run`, and a
# sensitivity of the experiment given as a dict gives `trainmc
# sensitivity`'s document and its HTML page.
# Usage: check_pip_install.sh PYTHON PYTHON_DIR LIBRARY TRAINMC EXPERIMENT
set -eu
py=$1
src=$2
lib=$3
cli=$4
exp=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "pip-install: $*" >&2; exit 1; }
cp -r "$src" "$tmp/src"
rm -rf "$tmp/src/tests" "$tmp/src/trainmc/__pycache__"
"$py" -m pip install --quiet --no-build-isolation --no-index --no-deps \
  --prefix "$tmp/prefix" "$tmp/src" 2>"$tmp/pip.err" || { cat "$tmp/pip.err" >&2; fail "pip failed"; }
init=$(find "$tmp/prefix" -path '*/trainmc/__init__.py' | head -n 1)
[ -n "$init" ] || fail "no trainmc/__init__.py under the prefix"
site=$(dirname "$(dirname "$init")")
"$cli" run "$exp" --replicas 300 --seed 5 --threads 1 --quiet --json "$tmp/cli.json" >/dev/null ||
  fail "trainmc run failed"
"$cli" sensitivity "$exp" --replicas 20 --seed 7 --threads 1 --quiet \
  --json "$tmp/sens.json" >/dev/null || fail "trainmc sensitivity failed"
mkdir "$tmp/home"
out=$(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp/home" PYTHONNOUSERSITE=1 \
  PYTHONPATH="$site" TRAINMC_LIBRARY="$lib" "$py" -c '
import json, os, sys, trainmc
from importlib import metadata
print(os.path.dirname(os.path.abspath(trainmc.__file__)))
print(metadata.version("trainmc") == trainmc.__version__)
r = trainmc.run(sys.argv[1], replicas=300, seed=5, threads=1)
cli = json.load(open(sys.argv[2]))
print(r["completion_days"] == cli["completion_days"] and r["deadline"] == cli["deadline"])
x = json.load(open(sys.argv[1]))
s = trainmc.sensitivity(x, base_dir=os.path.dirname(sys.argv[1]), replicas=20, seed=7,
                        threads=1)
want = json.load(open(sys.argv[3]))
named = ("experiment_path", "base_chain")
print(all(s[k] == want[k] for k in want if k not in named) and
      s.html.endswith("</html>\n"))
' "$exp" "$tmp/cli.json" "$tmp/sens.json") || fail "the installed package failed: $out"
expected=$(printf '%s\n%s\n%s\n%s' "$site/trainmc" True True True)
[ "$out" = "$expected" ] || fail "expected:
$expected
got:
$out"
echo "pip-install: installed into $site; the run equals trainmc run's, the sensitivity trainmc sensitivity's"
