#!/bin/sh
# cli-closed-figures: a closed form far past a million days (Daly's wall time
# of experiments/elastic-300.json's cluster run as checkpoint-restart, 3.467e54
# days) prints in 4 significant digits, never as a 50-digit number cut at the
# end of its buffer; the elastic line beside it stays in days.
set -u
out=$("$1" run "$2/elastic-300.json" --replicas 20 --detail 2>/dev/null) || { echo "run failed" >&2; exit 1; }
status=0
echo "$out" | grep -q "Daly  3.467e+54" || { echo "no 4-digit Daly line" >&2; status=1; }
echo "$out" | grep -q "Daly  2.297e+56 %" || { echo "no 4-digit Daly overhead" >&2; status=1; }
if echo "$out" | grep -Eq "[0-9]{20}"; then
  echo "a figure of 20 digits or more" >&2
  status=1
fi
[ $status -eq 0 ] || echo "$out" >&2
exit $status
