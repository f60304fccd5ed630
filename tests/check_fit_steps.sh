#!/bin/sh
# cli-fit-steps: `trainmc fit --steps` end to end (docs/fit.md 9).
# - tests/fit/steps-hand.csv (4 steps x 3 ranks, long form, rows out of
#   order) gives the figures worked out by hand below; its wide form
#   (steps-hand-wide.csv) gives the same;
# - --write makes a jitter file that an experiment loads and runs;
# - the shipped example log (distributions/steps/) finds its slow rank;
# - bad input stops with exit 2, the message naming file and line, and no
#   output file.
#
# By hand, steps {10, 11, 12}, {13, 11, 12}, {11, 9, 10}, {12, 14, 10}:
#   step means r = 11, 12, 10, 12; G = 11.25
#   MSB = 3 (0.25^2 + 0.75^2 + 1.25^2 + 0.75^2) / 3 = 2.75
#   MSW = (2 + 2 + 2 + 8) / (4 x 2) = 1.75
#   sigma_b^2 = (2.75 - 1.75) / 3 = 1/3, sigma_w^2 = 1.75
#   correlation = (1/3) / (1/3 + 1.75) = 0.16; cv = sqrt(2.083333) / 11.25
#   = 0.128300; F = 2.75 / 1.75 = 1.571429 on (3, 8) dof
#   correlation's 95 % interval: F / F_0.975(3, 8) = 1.5714 / 5.4160 =
#   0.29015 -> (0.29015 - 1) / (0.29015 + 2) < 0 -> 0; F / F_0.025(3, 8) =
#   1.5714 / 0.068769 = 22.851 -> 21.851 / 24.851 = 0.87927 (F quantiles
#   from the tables)
#   cv's SE: var(s^2) = 2 x 2.75^2 / (3 x 9) + 2 (2/3)^2 1.75^2 / 8 =
#   0.900463; cv sqrt(0.900463 / (4 x 2.083333^2) + 2.75 / (4 x 3 x
#   11.25^2)) = 0.128300 x 0.231685 = 0.029725
#   slowest card per step 12, 13, 11, 14: c_3 = mean(1, 1, 1, 2) /
#   sqrt(1.75) = 0.944911
#   rank means 11.5, 11.25, 11; residual MSE = 13.5 / 6 = 2.25; rank 0's z
#   = (11.5 - 11.125) / sqrt(2.25 x 3 / 8) = 0.408248: none slow
set -u
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0

for form in steps-hand steps-hand-wide; do
  "$bin" fit --steps "$src/tests/fit/$form.csv" --json "$dir/$form.json" \
    --write "$dir/$form-jitter.json" >"$dir/$form.txt" || {
    echo "fit --steps $form.csv failed" >&2
    status=1
    continue
  }
  python3 - "$dir/$form.json" "$dir/$form-jitter.json" <<'EOF' || status=1
import json, sys
r = json.load(open(sys.argv[1]))
w = json.load(open(sys.argv[2]))
j = r["jitter"]
want = [
    ("mean_s", r["mean_s"], 11.25, 1e-12),
    ("msb", j["msb"], 2.75, 1e-12),
    ("msw", j["msw"], 1.75, 1e-12),
    ("sigma_between2", j["sigma_between2"], 1 / 3, 1e-12),
    ("correlation", j["correlation"]["value"], 0.16, 1e-12),
    ("correlation lo", j["correlation"]["lo"], 0, 0),
    ("correlation hi", j["correlation"]["hi"], 0.87927, 2e-4),
    ("cv", j["cv"]["value"], 0.128300, 1e-6),
    ("cv se", j["cv_se"], 0.029725, 1e-6),
    ("F", j["f"], 1.571429, 1e-6),
    ("c_3", r["c_n"]["empirical"], 0.944911, 1e-6),
    ("z of rank 0", r["slow_ranks"]["z"][0], 0.408248, 1e-6),
    ("slow ranks", len(r["slow_ranks"]["slow"]), 0, 0),
    ("written cv", w["cv"], 0.128300, 1e-6),
    ("written correlation", w["correlation"], 0.16, 1e-12),
]
bad = [f"{k}: got {g}, expected {e} +- {t}" for k, g, e, t in want if not abs(g - e) <= t]
if w["distribution"] != j["best"]:
    bad.append(f"written law {w['distribution']}, best {j['best']}")
for b in bad:
    print(f"{sys.argv[1]}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
done

# the written file is a jitter section an experiment can name
sed -e "s|\"jitter\": \"[^\"]*\"|\"jitter\": \"$dir/steps-hand-jitter.json\"|" \
  -e "s|\"\.\./distributions/|\"$src/distributions/|" \
  -e "s|\"models/|\"$src/experiments/models/|" \
  "$src/experiments/design-48-correlated-jitter.json" >"$dir/x.json"
"$bin" run "$dir/x.json" --replicas 200 >"$dir/run.txt" 2>&1 || {
  echo "an experiment naming the written jitter file does not run:" >&2
  cat "$dir/run.txt" >&2
  status=1
}

# the shipped example: 200 steps x 16 ranks, rank 11 slow (x 1.1)
"$bin" fit --steps "$src/distributions/steps/example-16-ranks.csv" --json "$dir/ex.json" \
  >"$dir/ex.txt" || status=1
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
slow = [s["rank"] for s in r["slow_ranks"]["slow"]]
assert slow == ["r11"], slow
assert r["jitter"]["best"] == "normal", r["jitter"]["best"]
' "$dir/ex.json" || { echo "example log: slow rank or law not found" >&2; status=1; }

. "$src/tests/fit_refuse.sh"
printf 'step,rank,secs\n0,0,1\n' >"$dir/nocol.csv"
refuse "trainmc: $dir/nocol.csv:1: no column 'seconds' in the header (long form: step, rank, seconds)" \
  --steps "$dir/nocol.csv"
printf 'rank,seconds\n0,1\n' >"$dir/nostep.csv"
refuse "trainmc: $dir/nostep.csv:1: no column 'step' in the header (long form: step, rank, seconds; wide form: step and one column per rank)" \
  --steps "$dir/nostep.csv"
printf 'step,rank,seconds\n0,0,1\n0,1,-1\n' >"$dir/neg.csv"
refuse "trainmc: $dir/neg.csv:3: column 'seconds': '-1' is not a number of seconds > 0" \
  --steps "$dir/neg.csv"
printf '# a comment\nstep,rank,seconds\n0,0,1\n0,1,1.1\n1,0,1.2\n2,0,1\n2,1,1.3\n' >"$dir/ragged.csv"
refuse "trainmc: $dir/ragged.csv:5: ragged steps: step 1 has no time for rank 1, which other steps have (every step needs every rank once)" \
  --steps "$dir/ragged.csv"
printf 'step,rank,seconds\n0,0,1\n0,1,1.1\n1,0,1.2\n1,1,1\n1,1,1.3\n' >"$dir/twice.csv"
refuse "trainmc: $dir/twice.csv:6: step 1, rank 1 a second time (first at line 5)" \
  --steps "$dir/twice.csv"
printf 'step,a,b\n0,1,1.1\n1,1.2\n' >"$dir/ragged-wide.csv"
refuse "trainmc: $dir/ragged-wide.csv:3: ragged steps: 2 fields, the header has 3" \
  --steps "$dir/ragged-wide.csv"
# times whose squares overflow or underflow: refused with file and line, not
# a fit printing inf or NaN
printf 'step,rank,seconds\n0,0,1e200\n0,1,1.1e200\n1,0,1.2e200\n1,1,1.05e200\n2,0,1e200\n2,1,1.3e200\n' >"$dir/huge.csv"
refuse "trainmc: $dir/huge.csv:2: column 'seconds': 1e200 seconds is out of range: expected 1e-09 to 1e+09 seconds" \
  --steps "$dir/huge.csv"
printf 'step,rank,seconds\n0,0,1e-308\n0,1,2e-308\n1,0,3e-308\n1,1,1e-308\n' >"$dir/tiny.csv"
refuse "trainmc: $dir/tiny.csv:2: column 'seconds': 1e-308 seconds is out of range: expected 1e-09 to 1e+09 seconds" \
  --steps "$dir/tiny.csv"
printf 'step,a,b\n0,1,1e308\n1,2,1\n' >"$dir/huge-wide.csv"
refuse "trainmc: $dir/huge-wide.csv:2: column 'b': 1e308 seconds is out of range: expected 1e-09 to 1e+09 seconds" \
  --steps "$dir/huge-wide.csv"
printf 'step,rank,seconds\n0,0,1\n0,1,1\n1,0,2\n1,1,2\n' >"$dir/same.csv"
refuse "trainmc: $dir/same.csv: every rank's time is the same within each step: no per-card spread to fit" \
  --steps "$dir/same.csv"
# a leading UTF-8 byte-order mark is ignored, as in an experiment file
printf '\357\273\277step,rank,seconds\r\n' >"$dir/bom.csv"
grep -v '^#' "$src/tests/fit/steps-hand.csv" | tail -n +2 >>"$dir/bom.csv"
"$bin" fit --steps "$dir/bom.csv" >"$dir/bom.txt" 2>&1 || {
  echo "fit --steps of a CSV with a byte-order mark failed:" >&2
  cat "$dir/bom.txt" >&2
  status=1
}
# --write that cannot be written (a normal law's cv past 0.2) fails before
# --json is written: a failed command leaves no file
python3 -c '
import random
random.seed(3)
print("step,rank,seconds")
for s in range(40):
    for r in range(10):
        print(f"{s},{r},{max(0.5, random.gauss(10, 3)):.4f}")' >"$dir/wide-cv.csv"
"$bin" fit --steps "$dir/wide-cv.csv" --json "$dir/a.json" --write "$dir/b.json" \
  >/dev/null 2>"$dir/stderr"
rc=$?
if [ "$rc" -ne 1 ] || [ -e "$dir/a.json" ] || [ -e "$dir/b.json" ] ||
  ! grep -q "nothing written" "$dir/stderr"; then
  echo "fit --steps with a --write that fails: exit $rc, files: $(ls "$dir"/a.json "$dir"/b.json 2>/dev/null)" >&2
  status=1
fi
refuse "trainmc: --nodes is an option of a fault log, not of a step-time log (--steps)" \
  --steps "$src/tests/fit/steps-hand.csv" --nodes 4
refuse "trainmc: $dir/none.csv: cannot open: No such file or directory" --steps "$dir/none.csv"

# completion: fit's LOG operand completes any file, not only *.json
"$bin" help-bash-completion >"$dir/completion"
mkdir -p "$dir/files" && : >"$dir/files/a.json" && : >"$dir/files/b.csv"
got=$(cd "$dir/files" && bash -c '. "$1" && COMP_WORDS=(trainmc fit "") COMP_CWORD=2 &&
  _trainmc && printf "%s\n" "${COMPREPLY[@]}"' sh "$dir/completion" | LC_ALL=C sort | tr '\n' ' ')
[ "$got" = "a.json b.csv " ] || { echo "completing 'trainmc fit ': '$got'" >&2; status=1; }
exit $status
