#!/usr/bin/env python3
"""check_labels.py - every CTest test of a build carries a tier label.

The tiers (unit, cli, slow, ...) are CTest labels given by name pattern at the
end of tests/CMakeLists.txt (docs/contributing.md lists them with their
times). A test added after that block, or named outside its patterns, would
have no label and run only when nobody selects a tier: this check lists such
tests, so such a test fails CI instead of dropping out of `ctest -L` silently.

usage: check_labels.py CTEST BUILD_DIR
Reads the build's tests from `CTEST --show-only=json-v1` run in BUILD_DIR.
Exit 0 when every test has a label (one line of counts per label), 1 with one
line per unlabelled test, 2 on a usage error or when ctest cannot list them.
"""
import collections
import json
import subprocess
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: check_labels.py CTEST BUILD_DIR", file=sys.stderr)
        return 2
    ctest, build = argv[1], argv[2]
    try:
        listing = subprocess.run([ctest, "--show-only=json-v1"], cwd=build, check=True,
                                 stdout=subprocess.PIPE).stdout
        tests = json.loads(listing)["tests"]
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError) as e:
        print(f"check_labels.py: cannot list the tests of {build}: {e}", file=sys.stderr)
        return 2
    counts = collections.Counter()
    missing = []
    for test in tests:
        labels = [label for p in test.get("properties", []) if p["name"] == "LABELS"
                  for label in p["value"]]
        if not labels:
            missing.append(test["name"])
        counts.update(labels)
    for name in missing:
        print(f"{name}: no label (add its name to a tier at the end of tests/CMakeLists.txt)")
    if missing:
        return 1
    print(f"{len(tests)} tests, each labelled: "
          + ", ".join(f"{label} {n}" for label, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
