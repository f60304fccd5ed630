#!/usr/bin/env python3
"""The `inputs` of `trainmc run --json` run again (tests/CMakeLists.txt:
cli-inputs-echo). Usage: check_inputs_echo.py TRAINMC SOURCE_DIR.

docs/reference/json-output.md: `inputs` is the validated experiment as it
ran. Written to a file and run again with the same seed and replicas, it
must be accepted and give the same events and wall-time split, exactly
(the same draws). The experiments chosen leave keys unset whose stand-ins
validation refuses: causes without per-part shares or a restore of their
own (-1), a fleet without aging or a retirement window (0, a mean that must
be > 0 when given), and a base chain. A replayed trace is left out: its
times are echoed as trace_days, which a run does not read (give the file)."""
import json
import os
import sys
import tempfile

from cli_checks import check, finish, run_path

BIN, SRC = sys.argv[1], sys.argv[2]
EXPERIMENTS = ["experiments/causes-per-part.json",
               "experiments/design-48-llama3-causes.json",
               "experiments/peer-goodput/06-firmware-regression.json",
               "experiments/airesim/07-pool-96-retire-2-in-4-days.json",
               "experiments/standbys-1024.json"]
ARGS = ("-n", "20", "--seed", "7")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for rel in EXPERIMENTS:
            p, doc = run_path(BIN, tmp, os.path.join(SRC, rel), *ARGS)
            if doc is None:
                check(False, f"{rel}: exit {p.returncode}, {p.stderr!r}")
                continue
            echo = os.path.join(tmp, "echo.json")
            with open(echo, "w") as f:
                json.dump(doc["inputs"], f)
            q, again = run_path(BIN, tmp, echo, *ARGS)
            check(again is not None, f"{rel}: its inputs refused: exit {q.returncode}, "
                                     f"{q.stderr.strip()!r}")
            if again is None:
                continue
            for part in ("events", "split_days"):
                check(again[part] == doc[part], f"{rel}: {part} differs when its inputs run "
                                                f"again: {doc[part]} vs {again[part]}")
            print(f"{rel}: inputs run again, same events and split")
    return finish("check_inputs_echo")


if __name__ == "__main__":
    sys.exit(main())
