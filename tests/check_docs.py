#!/usr/bin/env python3
"""check_docs.py - the documentation's links resolve and its commands run.

Usage: check_docs.py TRAINMC ROOT [--update] [--only FILE ...]

Reads README.md and every docs/**/*.md under ROOT (Python 3 standard
library only) and checks:

1. Links. Every relative link `[text](target)` outside code must name a file
   or folder that exists (resolved against the linking file's folder), and a
   `#anchor` (in the same file or another .md) must be the anchor GitHub gives
   one of that file's headings.

2. Commands. In every fenced shell block (```sh, ```bash, ```shell,
   ```console), each command that starts with `trainmc` or `build/trainmc`
   (also after `$ ` in a console block, or after `&&` or `;`) is run with
   TRAINMC in its place, from a temporary folder that links to the
   repository's top-level entries, so `experiments/...` resolves as from the
   top folder. The arguments of the output options (--json, --csv, --samples,
   --plot, --write, --out) are put in the temporary folder (by their base
   name), so no command writes into the repository. A command must exit 0,
   unless an HTML comment `<!-- doc-test: fails -->` stands before its block:
   then it must exit 1 or 2 (refused, not crashed). `<!-- doc-test: skip
   (reason) -->` before a block skips its commands (counted in the summary).

3. Sample outputs. A fenced block marked `<!-- doc-test: output -->` right
   before it is the output of the shell block before it (its commands'
   outputs one after the other, each its standard error, then its standard
   output) and must equal it,
   line by line; marked `<!-- doc-test: trimmed -->` instead, each of its
   lines must appear in that output, in order (a line `...` is skipped; a
   `...` inside a line stands for any text). In a console block, the lines
   after a `$ trainmc ...` line up to the next `$` are that command's output
   and are compared the same way (the block's marker says trimmed or not;
   a command shown without output is not compared).
   Timing lines (a thread count, seconds elapsed) are left out of both sides.

--update rewrites every non-trimmed sample output with the real output.
Exit 0: all good; 1: a check failed (each failure printed as FILE:LINE:
message); 2: usage.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

SHELL_INFO = {"sh", "bash", "shell", "console"}
MARK = re.compile(r"<!--\s*doc-test:\s*(fails|skip|trimmed|output)\b\s*(.*?)\s*-->")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
TIMING = re.compile(r"\b\d+ threads?\b|\belapsed\b|\b\d+(\.\d+)? s (elapsed|wall)\b")
SKIPPED = ("skipped",)
OUTPUT_OPTIONS = {"--json", "--csv", "--samples", "--plot", "--write", "--out"}


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"<[^>]+>", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def doc_files(root):
    files = [os.path.join(root, "README.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return files


def parse(path):
    """Blocks of a Markdown file: (kind, info, start_line, lines, marks) and the
    headings' anchors. kind is 'code' or 'text'; marks are the doc-test marks
    of the comments right before a code block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    anchors, seen = set(), {}
    blocks = []
    i, marks = 0, []
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)(```+|~~~+)\s*([\w+-]*)", line)
        if m:
            fence, info, start = m.group(2), m.group(3), i
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence):
                j += 1
            blocks.append(("code", info, start + 1, lines[i + 1:j], marks, (i + 1, j)))
            marks = []
            i = j + 1
            continue
        for mk in MARK.finditer(line):
            marks.append((mk.group(1), mk.group(2)))
        h = re.match(r"^#{1,6} (.*?)\s*#*\s*$", line)
        if h:
            base = slug(h.group(1))
            n = seen.get(base, 0)
            anchors.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
        if line.strip() and not MARK.search(line):
            marks = []
        blocks.append(("text", "", i + 1, [line], [], None))
        i += 1
    return lines, blocks, anchors


def check_links(files, root, parsed):
    errors = []
    for path in files:
        _, blocks, anchors = parsed[path]
        for kind, _, lineno, lines, _, _ in blocks:
            if kind != "text":
                continue
            text = re.sub(r"`[^`]*`", "", lines[0])
            for m in LINK.finditer(text):
                target = m.group(1)
                if re.match(r"^[a-zA-Z][\w+.-]*:", target):
                    continue  # a URL
                where = f"{os.path.relpath(path, root)}:{lineno}"
                file_part, _, frag = target.partition("#")
                dest = path if not file_part else os.path.normpath(
                    os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    errors.append(f"{where}: link to {target}: no such file")
                    continue
                if frag:
                    if not dest.endswith(".md") or os.path.isdir(dest):
                        continue
                    if dest not in parsed:
                        parsed[dest] = parse(dest)
                    if frag not in parsed[dest][2]:
                        errors.append(f"{where}: link to {target}: no heading with that anchor")
    return errors


def split_commands(line):
    """The trainmc commands of one shell line (after a `$ ` prompt, `&&`, `;`)."""
    line = re.sub(r"^\$\s+", "", line.strip())
    out = []
    for part in re.split(r"&&|;", line):
        part = part.strip()
        if re.match(r"^(build/)?trainmc(\s|$)", part):
            out.append(part)
    return out


def shell_commands(lines, console):
    """(first and last index in lines, command, output lines) of a shell block."""
    joined, idx, buf = [], None, ""
    for k, line in enumerate(lines):
        if idx is None:
            idx = k
        if line.rstrip().endswith("\\") and (not console or line.startswith("$") or buf):
            buf += line.rstrip()[:-1] + " "
            continue
        joined.append((idx, k, buf + line))
        buf, idx = "", None
    cmds = []
    for n, (k, end, line) in enumerate(joined):
        if console and not line.startswith("$"):
            continue
        text = line if console else re.sub(r"\s+#\s.*$", "", line)
        found = split_commands(text)
        if not found:
            continue
        output = None
        if console:
            output = []
            for _, _, nxt in joined[n + 1:]:
                if nxt.startswith("$"):
                    break
                output.append(nxt)
            while output and not output[-1].strip():
                output.pop()
        for c in found:
            cmds.append((k, end, c, output))
    return cmds


def run(cmd, trainmc, cwd):
    words = shlex.split(cmd)
    words[0] = trainmc
    for k in range(1, len(words)):
        w = words[k]
        if w in OUTPUT_OPTIONS and k + 1 < len(words) and words[k + 1] != "-":
            words[k + 1] = os.path.join(cwd, os.path.basename(words[k + 1]))
        elif "=" in w and w.split("=", 1)[0] in OUTPUT_OPTIONS:
            opt, val = w.split("=", 1)
            words[k] = opt + "=" + os.path.join(cwd, os.path.basename(val))
    start = time.monotonic()
    p = subprocess.run(words, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=300)
    took = time.monotonic() - start
    text = (p.stderr + p.stdout).decode("utf-8", "replace")
    return p.returncode, text.rstrip("\n").split("\n") if text.strip() else [], took


def significant(lines):
    return [l.rstrip() for l in lines if not TIMING.search(l)]


def line_matches(pattern, line):
    if "..." not in pattern:
        return pattern == line
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*?".join(parts), line) is not None


def compare(sample, actual, trimmed):
    """None when the sample fits the output, else a message."""
    want, got = significant(sample), significant(actual)
    if not trimmed:
        if want == got:
            return None
        for k in range(max(len(want), len(got))):
            w = want[k] if k < len(want) else "(nothing)"
            g = got[k] if k < len(got) else "(nothing)"
            if w != g:
                return f"sample output line {k + 1} differs:\n    doc:    {w}\n    output: {g}"
    pos = 0
    for w in want:
        if w.strip() == "..." or not w.strip():
            continue
        while pos < len(got) and not line_matches(w, got[pos]):
            pos += 1
        if pos == len(got):
            return f"trimmed sample line not in the output (in order): {w}"
        pos += 1
    return None


def main(argv):
    args = [a for a in argv[1:] if a != "--update"]
    update = "--update" in argv
    only = []
    if "--only" in args:
        k = args.index("--only")
        only, args = args[k + 1:], args[:k]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    trainmc, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    files = doc_files(root)
    parsed = {f: parse(f) for f in files}
    errors = check_links(files, root, parsed)
    nlinks = sum(len(LINK.findall(re.sub(r"`[^`]*`", "", b[3][0])))
                 for f in files for b in parsed[f][1] if b[0] == "text")
    if only:
        files = [f for f in files if os.path.relpath(f, root) in only]
    counts = {"run": 0, "fails": 0, "skipped": 0, "outputs": 0, "trimmed": 0}
    slowest = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trainmc-docs-") as tmp:
        for entry in os.listdir(root):
            if entry not in (".git",) and not entry.startswith("build"):
                os.symlink(os.path.join(root, entry), os.path.join(tmp, entry))
        for path in files:
            lines, blocks, _ = parsed[path]
            rel = os.path.relpath(path, root)
            replacements = []
            last = None  # (command, output) of the last shell block's last command
            for kind, info, lineno, body, marks, span in blocks:
                if kind != "code":
                    continue
                names = {m for m, _ in marks}
                if info in SHELL_INFO:
                    cmds = shell_commands(body, info == "console")
                    last = None
                    if not cmds:
                        continue
                    if "skip" in names:
                        counts["skipped"] += len(cmds)
                        last = SKIPPED  # its sample output is not compared either
                        continue
                    for k, end, cmd, sample in cmds:
                        where = f"{rel}:{lineno + 1 + k}"
                        try:
                            rc, out, took = run(cmd, trainmc, tmp)
                        except subprocess.TimeoutExpired:
                            errors.append(f"{where}: {cmd}: still running after 300 s")
                            continue
                        counts["run"] += 1
                        slowest.append((took, where, cmd))
                        if "fails" in names:
                            counts["fails"] += 1
                            if rc not in (1, 2):
                                errors.append(f"{where}: {cmd}: exit {rc}, expected a refusal (1 or 2)")
                        elif rc != 0:
                            errors.append(f"{where}: {cmd}: exit {rc}:\n    " + "\n    ".join(out[-5:]))
                        if sample is not None and sample:
                            trimmed = "trimmed" in names
                            counts["trimmed" if trimmed else "outputs"] += 1
                            msg = compare(sample, out, trimmed)
                            if msg and update and not trimmed:
                                replacements.append(((span[0] + 1 + end, span[0] + 1 + end + len(sample)),
                                                     out))
                            elif msg:
                                errors.append(f"{where}: {cmd}: {msg}")
                        block_out = out if last is None else last[2] + out
                        last = (where, cmd if last is None else last[1] + " (and the block's others)",
                                block_out)
                    continue
                if names & {"output", "trimmed"}:
                    if last is SKIPPED:
                        last = None
                        continue
                    if last is None:
                        errors.append(f"{rel}:{lineno}: a sample output after no trainmc command")
                        continue
                    where, cmd, out = last
                    trimmed = "trimmed" in names
                    counts["trimmed" if trimmed else "outputs"] += 1
                    msg = compare(body, out, trimmed)
                    if msg and update and not trimmed:
                        replacements.append((span, out))
                    elif msg:
                        errors.append(f"{rel}:{lineno}: sample output of {cmd}: {msg}")
                last = None if info else last
            if replacements:
                for (a, b), out in sorted(replacements, reverse=True):
                    lines[a:b] = out
                with open(path, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
                print(f"updated {len(replacements)} sample output(s) in {rel}")
    for e in errors:
        print(e)
    slowest.sort(reverse=True)
    for took, where, cmd in slowest[:int(os.environ.get("DOCS_SLOWEST", "3"))]:
        print(f"slowest: {took:.2f} s {where}: {cmd}")
    print(f"docs: {len(files)} files, {nlinks} links checked; {counts['run']} commands run "
          f"({counts['fails']} meant to fail), {counts['skipped']} skipped; "
          f"{counts['outputs']} sample outputs compared whole, {counts['trimmed']} trimmed; "
          f"{time.monotonic() - t0:.1f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
