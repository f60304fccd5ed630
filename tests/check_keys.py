#!/usr/bin/env python3
"""check_keys.py - the keys reference and the rows it is printed from.

usage: check_keys.py reference TRAINMC REPO
           docs/reference/keys.md is exactly `TRAINMC help-keys` (CTest
           keys-reference): regenerate it with
           `trainmc help-keys > docs/reference/keys.md` after changing a row
           of src/input/config_fields.c.
       check_keys.py rows TRAINMC REPO
           every row of `TRAINMC help-keys` has a type, a help and, when
           numeric, a unit; a numeric default lies within the row's range; a
           choice has choices and its default is one of them; and a few rows
           read as their keys are documented apart (CTest keys-rows).
exit 0 when all holds, 1 with one line per fault.
"""
import difflib
import os
import re
import subprocess
import sys

COLUMNS = ["key", "type", "unit", "range", "default", "choices", "required", "help"]
NUMERIC = {"number", "integer"}

# Rows as stated apart from the table: failures.shape's range and default
# are issue 31's example row; job.cards's range is reports/scale-up.md's
# ([1, 10,000,000]); monte_carlo.seed's bound is 2^53 - 1, JSON's exact
# integers; checkpoint.mode's choices are docs/reference/keys.md's.
KNOWN = {
    "failures.shape": {"type": "number", "range": "[0.05, 20]", "default": "1"},
    "job.cards": {"type": "integer", "range": "[1, 10000000]", "required": "yes"},
    "monte_carlo.seed": {"range": "[0, %d]" % (2**53 - 1), "default": "1"},
    "checkpoint.mode": {"choices": "`sync`, `async`", "default": "`sync`"},
}


def help_keys(trainmc):
    run = subprocess.run([trainmc, "help-keys"], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"check_keys: `{trainmc} help-keys` exited {run.returncode}: {run.stderr}")
    return run.stdout


def rows(page):
    """Each table row of the page as a dict of COLUMNS."""
    for line in page.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != len(COLUMNS):
            yield {"key": line, "bad": f"{len(cells)} cells, expected {len(COLUMNS)}"}
            continue
        row = dict(zip(COLUMNS, cells))
        row["key"] = row["key"].strip("`")
        yield row


def within(rng, value):
    m = re.fullmatch(r"([\[(])(-?[0-9.e+]+), (-?[0-9.e+]+)\]", rng)
    if not m:
        return False
    lo, hi, x = float(m.group(2)), float(m.group(3)), float(value)
    return (x > lo if m.group(1) == "(" else x >= lo) and x <= hi


def row_faults(row):
    key = row["key"]
    if "bad" in row:
        return [f"{key}: {row['bad']}"]
    faults = []
    if "(null)" in " ".join(row.values()):
        faults.append(f"{key}: a cell is (null): a field of its row is missing")
    if not row["type"]:
        faults.append(f"{key}: no type")
    if not row["help"]:
        faults.append(f"{key}: no help")
    if row["type"] in NUMERIC:
        if not row["unit"]:
            faults.append(f"{key}: no unit")
        if not re.fullmatch(r"[\[(]\S+, \S+\]", row["range"]):
            faults.append(f"{key}: range '{row['range']}' is not [lo, hi] or (lo, hi]")
        default = row["default"]
        if default not in ("", "not given") and not within(row["range"], default):
            faults.append(f"{key}: default {default} outside {row['range']}")
        if (default == "") != (row["required"] == "yes"):
            faults.append(f"{key}: a default is given exactly when the key is optional")
    if row["type"] == "choice":
        choices = [c.strip("`") for c in row["choices"].split(", ") if c]
        if not choices:
            faults.append(f"{key}: a choice without choices")
        elif row["required"] != "yes" and row["default"].strip("`") not in choices:
            faults.append(f"{key}: default {row['default']} is not one of its choices")
    for column, want in KNOWN.get(key, {}).items():
        if row[column] != want:
            faults.append(f"{key}: {column} '{row[column]}', documented as '{want}'")
    return faults


# A message that takes a key's bounds or choices from its row names the row
# by its section and key: a name with no row prints nothing in its place.
ROW_LOOKUPS = re.compile(r'tmc_cfg_(?:range_of|find_field)\("([a-z_]+)", "([a-z_]+)"\)'
                         r'|tmc_config_(?:key_bounds|choice_name)\("([a-z_]+)\.([a-z_]+)"')


def named_rows(repo):
    """Every (file, dotted key) that src/ looks up in the key table by name."""
    for folder, _, files in os.walk(os.path.join(repo, "src")):
        for name in files:
            if name.endswith(".c"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    for m in ROW_LOOKUPS.finditer(f.read()):
                        section, key = (m.group(1), m.group(2)) if m.group(1) \
                            else (m.group(3), m.group(4))
                        yield name, f"{section}.{key}"


def check_rows(page, repo):
    table = list(rows(page))
    faults = [f for row in table for f in row_faults(row)]
    seen = {row["key"] for row in table}
    faults += [f"{key}: not in the reference" for key in KNOWN if key not in seen]
    faults += [f"{name}: looks up {key}, which no row holds" for name, key in named_rows(repo)
               if key not in seen]
    if len(table) < 100:
        faults.append(f"only {len(table)} rows: the tables were not read")
    return faults


def check_reference(page, repo):
    path = os.path.join(repo, "docs", "reference", "keys.md")
    with open(path, encoding="utf-8") as f:
        committed = f.read()
    if committed == page:
        return []
    diff = difflib.unified_diff(committed.splitlines(), page.splitlines(),
                                "docs/reference/keys.md", "trainmc help-keys", lineterm="")
    return ["docs/reference/keys.md differs from `trainmc help-keys` (regenerate it):"] + \
        list(diff)[:40]


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("reference", "rows"):
        sys.exit(__doc__)
    page = help_keys(sys.argv[2])
    faults = check_reference(page, sys.argv[3]) if sys.argv[1] == "reference" \
        else check_rows(page, sys.argv[3])
    for fault in faults:
        print(fault)
    if not faults:
        print(f"check_keys {sys.argv[1]}: all holds")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
