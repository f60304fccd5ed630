# fit_refuse.sh - sourced by check_fit.sh and check_fit_steps.sh, which set
# bin (the trainmc program), dir (a scratch folder) and status.
# refuse EXPECTED-MESSAGE ARGS...: `trainmc fit ARGS` exits 2, stderr's first
# line is exactly EXPECTED-MESSAGE, and no output file is left.
refuse() {
  expected=$1
  shift
  "$bin" fit --json "$dir/bad.json" "$@" >/dev/null 2>"$dir/stderr"
  rc=$?
  got=$(head -n 1 "$dir/stderr")
  if [ "$rc" -ne 2 ] || [ "$got" != "$expected" ] || [ -e "$dir/bad.json" ]; then
    echo "fit $*: exit $rc, '$got'; expected exit 2, '$expected', no file" >&2
    status=1
  fi
}
