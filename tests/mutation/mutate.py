#!/usr/bin/env python3
"""mutate.py - read tests/mutation/mutants.txt and apply one mutant exactly.

The helper of tests/mutation/run.sh (README.md there). Subcommands:
  list    MUTANTS                      one line per mutant: id, file, E if equivalent
  select  MUTANTS (--all | --sample N [--seed S] | --only ID...)
                                       the chosen ids, one a line, in file order
  check   MUTANTS ROOT [ID...]         how often each search text occurs in ROOT
                                       (exit 1 if any is not exactly once)
  apply   MUTANTS ID ROOT              replace the search text by the replacement
                                       in ROOT/FILE; exit 3 if it does not occur
                                       exactly once (a stale mutant)
  show    MUTANTS ID                   the mutant's fields (for reports)
Plain Python 3 standard library; exact byte-for-byte text replacement (no
regular expressions), so any C text can be an anchor.
"""
import random
import sys

KEYS = {"file", "search", "search+", "replace", "replace+", "breaks", "equivalent"}


class Mutant:
    def __init__(self, ident, line):
        self.id = ident
        self.line = line
        self.file = None
        self.search = None
        self.replace = None
        self.breaks = ""
        self.equivalent = None


def fail(msg):
    sys.stderr.write("mutate.py: %s\n" % msg)
    sys.exit(2)


def parse(path):
    mutants, ids, cur = [], set(), None
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("[") and line.rstrip().endswith("]"):
            ident = line.strip()[1:-1].strip()
            if not ident or any(c.isspace() for c in ident):
                fail("%s:%d: bad mutant id %r" % (path, no, ident))
            if ident in ids:
                fail("%s:%d: mutant id %s given twice" % (path, no, ident))
            ids.add(ident)
            cur = Mutant(ident, no)
            mutants.append(cur)
            continue
        key, sep, value = line.partition(":")
        if not sep or key not in KEYS:
            fail("%s:%d: expected [id] or one of %s followed by ':'"
                 % (path, no, ", ".join(sorted(KEYS))))
        if cur is None:
            fail("%s:%d: field before the first [id]" % (path, no))
        if value.startswith(" "):
            value = value[1:]
        if key in ("search+", "replace+"):
            base = key[:-1]
            if getattr(cur, base) is None:
                fail("%s:%d: %s without a %s line before it" % (path, no, key, base))
            setattr(cur, base, getattr(cur, base) + "\n" + value)
        elif key in ("search", "replace") and getattr(cur, key) is not None:
            fail("%s:%d: %s given twice (use %s+ for more lines)" % (path, no, key, key))
        else:
            setattr(cur, key, value)
    for m in mutants:
        for need in ("file", "search", "replace"):
            if getattr(m, need) is None:
                fail("%s:%d: mutant %s has no %s" % (path, m.line, m.id, need))
        if not m.search:
            fail("%s:%d: mutant %s has an empty search text" % (path, m.line, m.id))
        if m.search == m.replace:
            fail("%s:%d: mutant %s replaces its text by itself" % (path, m.line, m.id))
        if not m.breaks:
            fail("%s:%d: mutant %s has no 'breaks' line" % (path, m.line, m.id))
    return mutants


def find(mutants, ident):
    for m in mutants:
        if m.id == ident:
            return m
    fail("no mutant with id %s" % ident)


def occurrences(root, m):
    try:
        with open("%s/%s" % (root, m.file), encoding="utf-8", newline="") as fh:
            text = fh.read()
    except OSError as e:
        return None, str(e)
    return text, text.count(m.search)


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    cmd, path, rest = argv[1], argv[2], argv[3:]
    mutants = parse(path)
    if cmd == "list":
        for m in mutants:
            print("%s\t%s\t%s" % (m.id, m.file, "E" if m.equivalent else "-"))
    elif cmd == "select":
        if not rest or rest[0] == "--all":
            chosen = mutants
        elif rest[0] == "--only":
            want = rest[1:]
            if not want:
                fail("--only needs at least one id")
            for ident in want:
                find(mutants, ident)
            chosen = [m for m in mutants if m.id in want]
        elif rest[0] == "--sample":
            try:
                n = int(rest[1])
            except (IndexError, ValueError):
                fail("--sample needs a count")
            n = max(0, min(n, len(mutants)))
            if len(rest) >= 4 and rest[2] == "--seed":
                # a fixed seeded shuffle: the same seed picks the same mutants
                idx = sorted(random.Random(int(rest[3])).sample(range(len(mutants)), n))
            else:
                # every k-th mutant, spread over the whole list (and every area)
                idx = sorted({(i * len(mutants)) // n for i in range(n)}) if n else []
            chosen = [mutants[i] for i in idx]
        else:
            fail("select: expected --all, --sample N [--seed S] or --only ID...")
        for m in chosen:
            print(m.id)
    elif cmd == "check":
        if not rest:
            fail("check: expected ROOT")
        root, want = rest[0], rest[1:]
        bad = 0
        for m in mutants:
            if want and m.id not in want:
                continue
            _, count = occurrences(root, m)
            if count != 1:
                bad += 1
                what = count if isinstance(count, str) else "found %d times" % count
                print("STALE\t%s\t%s: search text %s" % (m.id, m.file, what))
            else:
                print("ok\t%s\t%s" % (m.id, m.file))
        sys.exit(1 if bad else 0)
    elif cmd == "apply":
        if len(rest) != 2:
            fail("apply: expected ID ROOT")
        m = find(mutants, rest[0])
        text, count = occurrences(rest[1], m)
        if count != 1:
            what = count if isinstance(count, str) else "found %d times, expected once" % count
            sys.stderr.write("stale mutant %s: %s: search text %s\n" % (m.id, m.file, what))
            sys.exit(3)
        with open("%s/%s" % (rest[1], m.file), "w", encoding="utf-8", newline="") as fh:
            fh.write(text.replace(m.search, m.replace, 1))
    elif cmd == "show":
        m = find(mutants, rest[0]) if rest else fail("show: expected ID")
        print("id: %s\nfile: %s\nbreaks: %s" % (m.id, m.file, m.breaks))
        if m.equivalent:
            print("equivalent: %s" % m.equivalent)
    else:
        fail("unknown subcommand %s" % cmd)


if __name__ == "__main__":
    main(sys.argv)
