#!/usr/bin/env python3
"""`trainmc fit`'s answer first (issue 32 item 5; run by check_fit.sh).
Usage: check_fit_answer.py TEXT JSON [WRITTEN]

After the heading (up to its first blank line) the first line gives the
per-card and per-node MTBF per day up with their intervals, as the JSON
report has them (mtbf_days.card, .node), the confidence, the faults, the
card-days up and the calendar MTBFs (calendar_mtbf_days); the next, when
WRITTEN (the --write failures file) is given, its numeric keys, in its order,
with their values."""
import json
import sys


def g(v):
    return "inf" if v is None or v == float("inf") else f"{v:.4g}"


def interval(m):
    return f"{g(m['value'])} [{g(m['lo'])}, {g(m['hi'])}]"


lines = open(sys.argv[1]).read().split("\n")
rep = json.load(open(sys.argv[2]))
body = lines[lines.index("") + 1:]
m = rep["mtbf_days"]
c = rep["calendar_mtbf_days"]
want = (f"Answer: per-card MTBF {interval(m['card'])} days, per-node {interval(m['node'])} days "
        f"up ({100 * rep['confidence']:g} %; {rep['faults']['fitted']} faults over "
        f"{rep['exposure']['up_card_days']:.0f} card-days up; calendar, down time included: "
        f"{g(c['card'])} and {g(c['node'])} days)")
bad = []
if body[0] != want:
    bad.append(f"answer {body[0]!r}\n  from the JSON {want!r}")
if len(sys.argv) > 3:
    w = json.load(open(sys.argv[3]))
    keys = ", ".join(f"{k} {g(v)}" for k, v in w.items()
                     if isinstance(v, (int, float)) and not isinstance(v, bool))
    want = "  keys (--write's failures file): " + keys
    if not body[1].startswith(want) or body[2] != "":
        bad.append(f"keys {body[1]!r}\n  from the written file {want!r}")
    if ("bad_node_share" in w) != body[1].endswith("(good and bad nodes: the faults per node "
                                                   "reject one rate)"):
        bad.append(f"keys: good and bad nodes {'bad_node_share' in w}, {body[1]!r}")
for b in bad:
    print("check_fit_answer:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
