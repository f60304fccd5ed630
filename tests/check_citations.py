#!/usr/bin/env python3
"""citations: no text file of the repository may cite a document that is not in it.

Usage: check_citations.py [ROOT]   (ROOT: the repository, default: this file's ../)

The files checked are those git lists in ROOT (tracked ones, plus new ones
not ignored yet: `git ls-files --cached --others --exclude-standard`); outside
a git checkout, every file under ROOT, skipping .git and build* folders.
Binary files (a NUL byte) are skipped.

In every line, each path-like token ending in `.md` (letters, digits, `_`,
`-`, `.` and `/`, not part of a URL or of a template such as `${name}.md`) is
resolved against ROOT and against the citing file's folder; a bare file name
may also name a file of that name anywhere in the repository (the README's
and the CI script's lists of reports do that). A token that resolves to none
of these, and any mention of the team's former private model note at all
(see PRIVATE_NOTE), fails with

    FILE:LINE: cites TOKEN, which is not in the repository

and the script exits 1. Exit 0: every citation resolves. Exit 2: usage.
Python 3 standard library only.
"""

import os
import re
import subprocess
import sys

# The private note the sources used to cite; docs/model.md replaced it. Spelt
# in two parts so that this file does not mention it itself.
PRIVATE_NOTE = "MODEL" + ".md"

# Metavariables in usage strings, not documents (e.g. `--out FILE.md`).
PLACEHOLDERS = {"FILE.md", "NAME.md", "PATH.md", "OUT.md"}

URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+")
TOKEN = re.compile(r"(?<![\w$.{}/%@-])((?:[\w.-]+/)*[\w.-]+\.md)(?![\w-]|\.\w)")


def listed_files(root):
    """Paths relative to root, '/'-separated, of the files to check."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
        inside = subprocess.run(
            ["git", "-C", root, "rev-parse", "--show-prefix"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
        if inside.strip():  # root is a folder inside some other checkout
            raise OSError
        paths = [p for p in out.decode("utf-8", "replace").split("\0") if p]
        return [p for p in paths if os.path.isfile(os.path.join(root, p))]
    except (OSError, subprocess.CalledProcessError):
        pass
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git" and not d.startswith("build"))
        for name in sorted(files):
            full = os.path.join(folder, name)
            paths.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return paths


def resolves(token, citing, files, basenames):
    if "/" not in token and token in basenames:
        return True
    for base in ("", os.path.dirname(citing)):
        path = os.path.normpath(os.path.join(base, token)).replace(os.sep, "/")
        if not path.startswith("../") and path in files:
            return True
    return False


def main(argv):
    if len(argv) > 2:
        print("usage: check_citations.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "..")
    if not os.path.isdir(root):
        print(f"check_citations: {root}: not a folder", file=sys.stderr)
        return 2
    paths = listed_files(root)
    files = set(paths)
    basenames = {p.rsplit("/", 1)[-1] for p in paths}
    problems = 0
    cited = 0
    for rel in paths:
        try:
            with open(os.path.join(root, rel), "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"check_citations: {rel}: {e.strerror}", file=sys.stderr)
            problems += 1
            continue
        if b"\0" in data:
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            bad = []
            if PRIVATE_NOTE in line:
                bad.append(PRIVATE_NOTE)
            for token in TOKEN.findall(URL.sub(" ", line)):
                if not re.search(r"\w", token[:-3].rsplit("/", 1)[-1]):
                    continue  # ".md" or "-.md": no name
                cited += 1
                if token in PLACEHOLDERS or PRIVATE_NOTE in token:
                    continue
                if not resolves(token, rel, files, basenames):
                    bad.append(token)
            for token in bad:
                print(f"{rel}:{number}: cites {token}, which is not in the repository")
                problems += 1
    if problems:
        print(f"check_citations: {problems} citation(s) of missing documents "
              f"in {len(paths)} files", file=sys.stderr)
        return 1
    print(f"check_citations: {len(paths)} files, {cited} citations of .md files, "
          f"all in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
