#!/usr/bin/env bash
# Regenerate reports/scale-up.md and reports/scale-up-extra-cards.svg: the 6ND
# scale-up table (1T, 5T, 10T dense models; D = 20T and 20N tokens; 40 and
# 50 % MFU; 90 and 180 days; A100, H100, B200), first in closed form, then
# with failures, saves and restores simulated by trainmc at that card count,
# the card count that meets the deadline with probability 0.9, and which
# recovery parameter moves it most. About 7 minutes on the 2-core machine;
# not part of make_reports.sh's default set nor of CTest.
#
#   bash reports/make_scale_up.sh [--quick] [--out DIR] [--trainmc PATH] [--seed S] [--work DIR]
#
# --quick     H100/A100/B200 at 40 % and 90 days only, few replicas (about a
#             minute), written to build/reports-quick/ unless --out says otherwise
# --out DIR   where to write (default reports/, or build/reports-quick/)
# --trainmc   the binary (default build/trainmc)
# --seed S    the seed of every run (default 1)
# --work DIR  keep the generated experiments, trainmc's JSON and the plot data
#             in DIR (default: a temporary folder, removed at the end)
#
# The experiments are written from a template by reports/tools/scale_up.py
# (which also runs trainmc: each row's card count and checkpoint interval come
# from an earlier trainmc answer); the plot is drawn by
# reports/tools/scale_up.gp. Needs bash, python3 and gnuplot (gnuplot-nox).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/reports/tools
quick=0 out="" trainmc=$root/build/trainmc seed=1 work=""
invocation="bash reports/make_scale_up.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; invocation+=" --quick" ;;
    --out) out=${2:?--out needs a folder}; shift; invocation+=" --out DIR" ;;
    --trainmc) trainmc=${2:?--trainmc needs a path}; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift; invocation+=" --seed $seed" ;;
    --work) work=${2:?--work needs a folder}; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "make_scale_up: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$out" ]; then
  if [ $quick -eq 1 ]; then out=$root/build/reports-quick; else out=$root/reports; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
trainmc=$(cd "$(dirname "$trainmc")" && pwd)/$(basename "$trainmc")
for tool in python3 gnuplot; do
  command -v $tool >/dev/null || {
    echo "make_scale_up: $tool not found (Debian: apt-get install ${tool/gnuplot/gnuplot-nox})" >&2
    exit 1
  }
done
[ -x "$trainmc" ] || { echo "make_scale_up: $trainmc not found; build first (cmake --build build)" >&2; exit 1; }
if [ -n "$work" ]; then
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

start=$SECONDS
REPORT_VERSION=$("$trainmc" --version) REPORT_QUICK=$quick REPORT_INVOCATION=$invocation \
REPORT_SEED=$seed REPORT_TRAINMC=$trainmc REPORT_ROOT=$root \
  python3 "$tools/scale_up.py" "$work" "$out"
gnuplot -e "load '$work/scale-up.vars.gp'; out = '$out/scale-up-extra-cards.svg'" "$tools/scale_up.gp"
echo "make_scale_up: $out/scale-up.md ($((SECONDS - start)) s)" >&2
