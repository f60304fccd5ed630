#!/bin/sh
# cli-emax: `trainmc emax` end to end.
# - the same seed with 1 and 2 threads writes byte-identical JSON, and another
#   seed changes it (else the comparison proves nothing);
# - docs/model.md 2's example (48 cards, mu 52.2 s, cv 5 %, + 0.58 s) gives a
#   step time of 58.608 s by quadrature;
# - bad flags stop with exit code 2, the exact message, and no output file
#   (--cards takes job.cards' [1, 1e7], docs/reference/keys.md);
# - --csv: a header and a row per N, identical for 1 and 2 threads; each
#   row's sampler mean is the text table's (5 decimals), brute force empty
#   past 64 cards; --csv and --json naming one file fail with nothing written.
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0

"$bin" emax --cards 8,48,1024 --replicas 20000 --seed 7 --threads 1 --json "$dir/t1.json" --csv "$dir/t1.csv" >"$dir/t1.txt" &&
"$bin" emax --cards 8,48,1024 --replicas 20000 --seed 7 --threads 2 --json "$dir/t2.json" --csv "$dir/t2.csv" >/dev/null &&
"$bin" emax --cards 8,48,1024 --replicas 20000 --seed 8 --threads 2 --json "$dir/s8.json" >/dev/null || {
  echo "emax failed" >&2
  exit 1
}
if ! cmp "$dir/t1.json" "$dir/t2.json"; then
  echo "1 and 2 threads gave different JSON" >&2
  status=1
fi
if cmp -s "$dir/t2.json" "$dir/s8.json"; then
  echo "seed 7 and seed 8 gave identical JSON" >&2
  status=1
fi

"$bin" emax --cards 48 --replicas 1000 --mu 52.2 --cv 0.05 --fixed-s 0.58 --json "$dir/step.json" \
  >"$dir/step.txt" || status=1
if ! grep -q '"quadrature":[[:space:]]*58\.608' "$dir/step.json"; then
  echo "step time: expected 58.608 s by quadrature in" >&2
  cat "$dir/step.json" >&2
  status=1
fi

# refuse EXPECTED-MESSAGE ARGS...: exit 2, stderr's first line exact, no file.
refuse() {
  expected=$1
  shift
  "$bin" emax --json "$dir/bad.json" "$@" >/dev/null 2>"$dir/stderr"
  rc=$?
  got=$(head -n 1 "$dir/stderr")
  if [ "$rc" -ne 2 ] || [ "$got" != "$expected" ] || [ -e "$dir/bad.json" ]; then
    echo "emax $*: exit $rc, '$got'; expected exit 2, '$expected', no file" >&2
    status=1
  fi
}
refuse "trainmc: --cards: '' is not an integer in [1, 1e7]" --cards 8,,48
refuse "trainmc: --cards: '0' is not an integer in [1, 1e7]" --cards 0
refuse "trainmc: --cards: '10000001' is not an integer in [1, 1e7]" --cards 10000001
refuse "trainmc: --cards: 'x' is not an integer in [1, 1e7]" --cards 8,x
refuse "trainmc: --replicas: '1' is not an integer in [2, 1e9]" --replicas 1
refuse "trainmc: --seed: '-1' is not an integer in [0, 2^53-1]" --seed -1
refuse "trainmc: --threads: '0' is not an integer in [1, 1024]" --threads 0
refuse "trainmc: --mu: '0' is not a number in (0, 1e7]" --mu 0 --cv 0.05
refuse "trainmc: --cv: '1.5' is not a number in [0, 1]" --mu 52.2 --cv 1.5
refuse "trainmc: --sigma: 'nan' is not a number in [0, 1e7]" --mu 52.2 --sigma nan
refuse "trainmc: --mu needs --sigma SECONDS or --cv CV" --mu 52.2
refuse "trainmc: --sigma, --cv and --fixed-s need --mu" --cv 0.05
refuse "trainmc: give --sigma or --cv, not both" --mu 52.2 --sigma 2.61 --cv 0.05
refuse "trainmc: unknown option '--bogus'" --bogus 8
refuse "trainmc: option --cards needs a value" --cards
refuse "trainmc: emax takes no arguments ('48')" 48

# SIGINT stops a long emax: exit 130, "no results written", and neither the
# JSON nor its temporary file is left (the signal used to kill it outright,
# leaving the temporary file)
"$bin" emax --cards 48 --replicas 1000000000 --json "$dir/stop.json" >/dev/null 2>"$dir/err" &
pid=$!
sleep 1
kill -INT $pid
for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; echo "emax: still running 5 s after SIGINT" >&2; status=1; }
wait $pid; rc=$?
[ $rc -eq 130 ] || { echo "emax SIGINT: exit $rc, expected 130" >&2; status=1; }
grep -q "interrupted after [0-9]* of 1000000000 replicas; no results written" "$dir/err" ||
  { echo "emax SIGINT: $(cat "$dir/err")" >&2; status=1; }
ls "$dir" | grep -q "^stop.json" && { echo "emax SIGINT: an output file was left" >&2; status=1; }
# --csv
cmp -s "$dir/t1.csv" "$dir/t2.csv" || { echo "--csv: 1 and 2 threads differ" >&2; status=1; }
case $(head -n 1 "$dir/t1.csv") in
  n,quadrature_mean,quadrature_sd,sampler_mean,sampler_se,*,reference) ;;
  *) echo "--csv: unexpected header: $(head -n 1 "$dir/t1.csv")" >&2; status=1 ;;
esac
[ "$(wc -l <"$dir/t1.csv")" -eq 4 ] || { echo "--csv: expected 4 lines" >&2; status=1; }
awk -F, 'NR > 1 { printf "%s %.5f %s\n", $1, $4, $8 }' "$dir/t1.csv" >"$dir/csv-rows"
while read -r n mean brute; do
  grep -Eq "^ +$n +[0-9.]+ +[0-9.]+ +$mean \+-" "$dir/t1.txt" ||
    { echo "--csv: N=$n: sampler mean $mean is not the text's" >&2; status=1; }
  if [ "$n" -gt 64 ] && [ -n "$brute" ]; then
    echo "--csv: N=$n has a brute-force mean" >&2
    status=1
  fi
done <"$dir/csv-rows"
"$bin" emax --cards 8 --replicas 100 --json "$dir/same" --csv "$dir/same" >/dev/null 2>&1
rc=$?
if [ $rc -ne 2 ] || [ -e "$dir/same" ]; then
  echo "--csv and --json on one file: exit $rc, expected 2 and no file" >&2
  status=1
fi
exit $status
