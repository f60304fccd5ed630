#!/usr/bin/env python3
"""check_tree.py - docs/contributing.md's tree names every source file of src/.

The tree (the fenced block under "## The tree") lists one line per file or
per source/header pair (`name.[ch]`) under its folder. This test fails when a
file of src/ is missing from it, or when it names a file that does not exist,
so the page that tells a contributor where things are cannot go stale.

usage: check_tree.py [ROOT]   (default: the folder above tests/)
exit 0 when the two agree, 1 with one line per difference.
"""
import os
import re
import sys


def listed(page):
    """{folder: set(file names)} from the tree block of the page."""
    text = open(page, encoding="utf-8").read()
    block = text.split("## The tree", 1)[1].split("```", 2)[1]
    files, folder = {}, None
    for line in block.splitlines():
        m = re.match(r"^(src/[a-z]+)/\s", line)
        if m:
            folder = m.group(1)
            files.setdefault(folder, set())
            continue
        if not line.startswith("  ") or folder is None:
            if line and not line.startswith(" "):
                folder = None
            continue
        name = line.split()[0]
        stem = name[:-len(".[ch]")] if name.endswith(".[ch]") else None
        files[folder].update([stem + ".c", stem + ".h"] if stem else [name])
    return files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..")
    named = listed(os.path.join(root, "docs", "contributing.md"))
    errors = []
    src = os.path.join(root, "src")
    for folder in sorted(os.listdir(src)):
        key = "src/" + folder
        have = {f for f in os.listdir(os.path.join(src, folder))
                if not f.startswith(".")}
        said = named.get(key, set())
        for f in sorted(have - said):
            errors.append(f"{key}/{f}: in the tree of src/ but not in docs/contributing.md")
        for f in sorted(said - have):
            errors.append(f"{key}/{f}: named in docs/contributing.md but not in src/")
    for key in sorted(set(named) - {"src/" + f for f in os.listdir(src)}):
        errors.append(f"{key}/: a folder docs/contributing.md names that src/ lacks")
    for e in errors:
        print(e)
    print(f"check_tree: {len(errors)} differences")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
