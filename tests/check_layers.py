#!/usr/bin/env python3
"""check_layers.py - the folders of src/ form one-way layers (docs/contributing.md).

Reads every `#include "..."` of every .c and .h file under src/, finds the
folder of the header it names (headers are included by bare name, so a name
must be unique across src/), and fails on an include that the table below
does not allow. The table is the architecture: a folder may include only
folders below it, so there is no cycle between folders and no upward include.
A folder that is not in the table fails too, so a new folder must be placed.

usage: check_layers.py [SRC_DIR]   (default: the src/ beside tests/)
exit 0 when every include is allowed, 1 with one line per offence.
"""
import os
import re
import sys

# Lowest first; each folder lists the folders it may include.
ALLOWED = {
    "core": set(),
    "model": {"core"},
    "input": {"core", "model"},
    "engine": {"core", "model"},
    "fit": {"core", "model"},
    "batch": {"core", "model", "input", "engine"},
    "report": {"core", "model", "input", "engine", "fit", "batch"},
    "api": {"core", "model", "input", "engine", "fit", "batch", "report"},
    "cli": {"core", "model", "input", "engine", "fit", "batch", "report", "api"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(src):
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith((".c", ".h")):
                yield folder, name, os.path.join(path, name)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    errors = []
    home = {}
    for folder, name, _ in sources(src):
        if folder not in ALLOWED:
            errors.append(f"src/{folder}/: a folder the layer table does not place")
        if name.endswith(".h"):
            if name in home:
                errors.append(f"{name}: in both src/{home[name]}/ and src/{folder}/")
            home[name] = folder
    for folder, name, path in sources(src):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                header = os.path.basename(m.group(1))
                target = home.get(header)
                if target is None or target == folder or folder not in ALLOWED:
                    continue
                if target not in ALLOWED[folder]:
                    errors.append(f"src/{folder}/{name}:{lineno}: includes {header} "
                                  f"from src/{target}/, which src/{folder}/ may not "
                                  f"(it may include: {', '.join(sorted(ALLOWED[folder])) or 'nothing from src/'})")
    for e in errors:
        print(e)
    print(f"check_layers: {len(errors)} offences in {sum(1 for _ in sources(src))} files")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
