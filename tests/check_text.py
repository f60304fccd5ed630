#!/usr/bin/env python3
"""Text and numbers every reader takes (tests/CMakeLists.txt: cli-text;
issue 33 items 7 and 13). Usage: check_text.py TRAINMC.

Each refused input must exit 2 with a message that names the file, the
place (JSON path or line:column) and what was found (the code point or the
byte), must print no raw control byte (ESC, BEL, a C1 control, a
bidirectional override, a byte that is not UTF-8) and must leave no output
file. The inputs are written here byte by byte, from the classes of
src/core/text.h (RFC 3629 and CVE-2021-42574): nothing is taken from
trainmc's own output. Then what is accepted must read back with Python's
json.load, and --dedupe's count must be the one put in the log here."""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
failures = []

EXPERIMENT = {
    "name": "text-case", "source": "tests/check_text.py",
    "job": {"steps": 2000, "cards": 48, "flop_per_step": 1.655e17, "peak_flops": 165.2e12,
            "efficiency": 0.40, "exposed_comm_s": 0.08, "input_wait_s": 0.5},
    "jitter": {"distribution": "normal", "cv": 0.0},
    "failures": {"distribution": "exponential", "per_card_mtbf_days": 337},
    "checkpoint": {"interval_s": 1800, "save_s": 16.38, "restore_s": 120},
    "outages": None, "loss_spikes": None,
    "deadline": {"days": 30, "reserve_days": 5},
    "monte_carlo": {"replicas": 20, "seed": 1}}

# raw bytes a terminal obeys, or that Python's utf-8 codec refuses
RAW = [b"\x1b", b"\x07", b"\x00"] + [bytes([0xC2, c]) for c in range(0x80, 0xA0)] + \
      [b"\xe2\x80" + bytes([c]) for c in range(0xAA, 0xAF)] + \
      [b"\xe2\x81" + bytes([c]) for c in range(0xA6, 0xAA)]


def raw_controls(data):
    """What of RAW, or of invalid UTF-8, data holds; '' when none."""
    for r in RAW:
        if r in data:
            return repr(r)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"invalid UTF-8 at {e.start}"
    return ""


def run(args, cwd):
    p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def refused(name, args, cwd, *expect):
    """args must exit 2, print every text of expect on stderr, nothing raw,
    and leave no out.json."""
    out = os.path.join(cwd, "out.json")
    if os.path.exists(out):
        os.remove(out)
    rc, so, se = run(args + ["--json", out] if "--json" not in args else args, cwd)
    text = se.decode("utf-8", "replace")
    if rc != 2:
        failures.append(f"{name}: exit {rc}, expected 2 ({text.strip()[:200]})")
    for e in expect:
        if e not in text:
            failures.append(f"{name}: '{e}' not in the message: {text.strip()[:300]}")
    raw = raw_controls(so + se)
    if raw:
        failures.append(f"{name}: the output holds {raw} raw: {text.strip()[:200]!r}")
    if os.path.exists(out):
        failures.append(f"{name}: an output file was left behind")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def fault_args(path, *more):
    return ["fit", path, "--nodes", "4", "--cards-per-node", "8"] + list(more)


def experiment_cases(d):
    exp = os.path.join(d, "e.json")
    write(exp, json.dumps(EXPERIMENT).encode())
    base = ["run", "e.json", "--quiet"]
    # a name or source as raw bytes in the file: each class of text.h
    for label, raw, found in [
            ("surrogate", b"\xed\xa0\x80", "byte 0xED, not valid UTF-8"),
            ("lead F5", b"\xf5\x80\x80\x80", "byte 0xF5"),
            ("lead F7", b"\xf7\xbf\xbf\xbf", "byte 0xF7"),
            ("overlong 3-byte", b"\xe0\x80\xaf", "byte 0xE0"),
            ("overlong 4-byte", b"\xf0\x80\x80\xaf", "byte 0xF0"),
            ("above U+10FFFF", b"\xf4\x90\x80\x80", "byte 0xF4"),
            ("C1 NEL", b"\xc2\x85", "U+0085, a C1 control"),
            ("C1 CSI", b"\xc2\x9b", "U+009B, a C1 control"),
            ("RLO", b"\xe2\x80\xae", "U+202E, a bidirectional control"),
            ("LRI", b"\xe2\x81\xa6", "U+2066, a bidirectional control"),
            ("ESC", b"\x1b", "U+001B, a control character"),
            ("tab", b"\t", "U+0009, a control character")]:
        for key in ("name", "source"):
            text = json.dumps(EXPERIMENT).encode().replace(
                b'"%s": "' % key.encode(), b'"%s": "ab' % key.encode() + raw, 1)
            write(os.path.join(d, "bad.json"), text)
            refused(f"experiment {key} {label}", ["run", "bad.json", "--quiet"], d,
                    f"bad.json: {key}: at byte offset 2 (column 3): {found}")
    # escapes in JSON that decode to a control, and \u0000 (cJSON would cut there)
    refused("--set \\u001b", base + ["--set", 'name="a\\u001b]0;x\\u0007"'], d,
            "e.json: name: at byte offset 1 (column 2): U+001B")
    refused("--set \\u202e", base + ["--set", 'failures.causes=[{"name":"a\\u202eb","share":1}]'],
            d, "failures.causes[0].name: at byte offset 1 (column 2): U+202E")
    refused("--set \\u0000", base + ["--set", 'name="x\\u0000y"'], d,
            "--set name=\"x\\u0000y\": byte 2 of the value: a \\u0000 escape (NUL)")
    write(os.path.join(d, "nul.json"),
          json.dumps(EXPERIMENT).encode().replace(b'"text-case"', b'"text\\u0000case"'))
    refused("file \\u0000", ["run", "nul.json", "--quiet"], d,
            "nul.json:1:15: name: a NUL character (\\u0000) in a string")
    # echoes of user text: escaped, not raw
    refused("unknown key echo", base + ["--set", "job.ca\x1b[2Jrds=3"], d,
            "job.ca\\x1B[2Jrds")
    refused("unknown command echo", ["r\x1b]0;pwn\x07un"], d, "r\\x1B]0;pwn\\x07un")
    refused("--vary echo", ["sweep", "e.json", "--quiet", "--vary",
                            "job.cards=4\xc2\x9b" + "31m"], d, "\\u{9B}31m")
    # trace paths and section files are written back into --json
    refused("trace path", base + ["--set", "outages.trace=o\x1b.csv"], d,
            "outages.trace: at byte offset 1 (column 2): U+001B")
    # file names are printed and written to --json (experiment_path, the log's)
    write(os.path.join(d, "e\x1b]0;x\x07.json"), json.dumps(EXPERIMENT).encode())
    refused("experiment file name", ["run", "e\x1b]0;x\x07.json", "--quiet"], d,
            "e\\x1B]0;x\\x07.json: the experiment's file name: at byte offset 1 (column 2): "
            "U+001B")
    write(os.path.join(d, "l\u202e.csv"), b"node,start,end\nn1,1,2\n")
    refused("log file name", fault_args("l\u202e.csv"), d,
            "l\\u{202E}.csv: the log's file name: at byte offset 1 (column 2): U+202E")
    refused("step log file name", ["fit", "--steps", "l\u202e.csv"], d,
            "the log's file name: at byte offset 1 (column 2): U+202E")
    # numbers outside JSON: decimal only
    refused("--vary hex", ["sweep", "e.json", "--quiet", "--vary", "job.cards=0x10,32"], d,
            "'0x10' is not a number")
    refused("--vary inf", ["sweep", "e.json", "--quiet", "--vary", "job.cards=inf"], d,
            "'inf' is not a finite number")
    refused("--confidence hex", ["fit", "x.csv", "--nodes", "4", "--cards-per-node", "8",
                                 "--confidence", "0x0.f"], d, "'0x0.f' is not a number")
    write(os.path.join(d, "trace.csv"), b"time_days\n1.5\n0x10\n")
    refused("trace hex", base + ["--set", "outages.trace=trace.csv"], d,
            "trace.csv:3: '0x10' is not a number of days")
    refused("--precision hex", base + ["--precision", "deadline.probability:abs=0x1p-4"], d,
            "--precision")
    # accepted text reaches --json intact and Python reads it
    good = "caf\u00e9 \u65e5\u672c \U0001F600 \u200f"
    out = os.path.join(d, "good.json")
    rc, _, se = run(base + ["--set", f'name="{good}"', "--json", out], d)
    if rc != 0:
        failures.append(f"accepted name: exit {rc}: {se.decode(errors='replace')[:200]}")
    else:
        with open(out, encoding="utf-8") as f:
            got = json.load(f)["experiment"]
        if got != good:
            failures.append(f"accepted name: {got!r} in --json, expected {good!r}")


def fit_cases(d):
    # hexadecimal, inf, nan times (strtod took 0x10 as 16 days)
    for s in ("0x10", "inf", "nan", "1e999", "0x1p4"):
        write(os.path.join(d, "h.csv"), b"node,start,end\nn1,%s,20\n" % s.encode())
        refused(f"CSV start {s}", fault_args("h.csv"), d,
                f"h.csv:2: column 'start': '{s}' is not a number of days >= 0")
    write(os.path.join(d, "h.csv"), b"node,start,end\nn1,1,0X14\n")
    refused("CSV end hex", fault_args("h.csv"), d, "column 'end': '0X14' is not a number")
    # a column named twice
    write(os.path.join(d, "c.csv"), b"node,node,start,end\nn1,n2,1,2\n")
    refused("CSV node,node", fault_args("c.csv"), d,
            "c.csv:1: column 'node' is named twice in the header (columns 1 and 2)")
    write(os.path.join(d, "c.csv"), b"node,start,end,cause,start\nn1,1,2,GPU,3\n")
    refused("CSV start twice", fault_args("c.csv"), d, "(columns 2 and 5)")
    # control bytes, C1, bidi, invalid UTF-8 in a CSV log: line:column
    for label, raw, found in [("OSC title", b"\x1b]0;pwned\x07", "U+001B"),
                              ("clear screen", b"\x1b[2J", "U+001B"),
                              ("C1 CSI", b"\xc2\x9b" b"2J", "U+009B"),
                              ("RLO", b"\xe2\x80\xae", "U+202E"),
                              ("surrogate", b"\xed\xa0\x80", "byte 0xED"),
                              ("lead F6", b"\xf6\x80\x80\x80", "byte 0xF6")]:
        write(os.path.join(d, "t.csv"), b"node,start,end,cause\nn1,1,2,GPU\nab" + raw +
              b",3,4,GPU\n")
        refused(f"CSV node {label}", fault_args("t.csv"), d, f"t.csv:3:3: at byte offset 2: {found}")
        write(os.path.join(d, "t.csv"), b"node,start,end,cause\nn1,1,2,G" + raw + b"\n")
        refused(f"CSV cause {label}", fault_args("t.csv"), d, f"t.csv:2:9: at byte offset 8: {found}")
    write(os.path.join(d, "t.csv"), b'node,start,end\n"a\tb",1,2\n')
    refused("CSV node with a tab", fault_args("t.csv"), d,
            "t.csv:2: column 'node': at byte offset 1 (column 2): U+0009")
    # JSON logs: the JSON path
    ev = '{"node_id":%s,"event_time":1,"event_type":"fault_start"%s}'
    for label, node, found in [("\\u001b", '"a\\u001b[2J"', "[0].node_id: at byte offset 1 (column 2): U+001B"),
                               ("\\u009b", '"a\\u009b"', "[0].node_id: at byte offset 1 (column 2): U+009B"),
                               ("\\u2067", '"a\\u2067"', "[0].node_id: at byte offset 1 (column 2): U+2067")]:
        write(os.path.join(d, "j.json"), ("[" + ev % (node, "") + "]").encode())
        refused(f"JSON node_id {label}", fault_args("j.json"), d, found)
    write(os.path.join(d, "j.json"), ("[" + ev % ('"n1"', ',"fault_type":{"Desc":"x\\u0007"}') +
                                      "]").encode())
    refused("JSON Desc BEL", fault_args("j.json"), d, "[0].fault_type.Desc: at byte offset 1")
    write(os.path.join(d, "j.json"), b"[" + (ev % ('"n\xed\xa0\x80"', "")).encode("latin-1") +
          b"]")
    refused("JSON node_id surrogate", fault_args("j.json"), d, "[0].node_id: at byte offset 1 (column 2): byte 0xED")
    write(os.path.join(d, "j.json"), (ev % ('"n1"', "") + "\n" + ev % ('"a\\u202e"', "")).encode())
    refused("JSON lines node_id RLO", fault_args("j.json"), d, "line 2.node_id: at byte offset 1")
    write(os.path.join(d, "j.json"), ("[" + ev % ('"n\\u0000x"', "") + "]").encode())
    refused("JSON \\u0000", fault_args("j.json"), d, "j.json:1:15: a \\u0000 escape (NUL)")
    # truncated, over-nested and broken JSON: line:column
    write(os.path.join(d, "j.json"), ("[\n" + ev % ('"n1"', "") + ",\n" + (ev % ('"n2"', ""))[:20]).encode())
    refused("JSON truncated", fault_args("j.json"), d, "j.json:3:21: not valid JSON: the text ends early")
    write(os.path.join(d, "j.json"), b"[" * 1100 + b"]" * 1100)
    refused("JSON over-nested", fault_args("j.json"), d, "j.json:1:1001: not valid JSON", "deeper than 1000")
    write(os.path.join(d, "j.json"), b'[\n  {"node_id": "a",\n   "event_time": 1 x}]')
    refused("JSON syntax", fault_args("j.json"), d, "j.json:3:20: not valid JSON near 'x}]'")
    write(os.path.join(d, "j.json"), (ev % ('"n1"', "") + "\n" + '{"node_id": 3, x}').encode())
    refused("JSON lines syntax", fault_args("j.json"), d, "j.json:2:17: not valid JSON")
    # step-time logs: a rank's name, hex seconds, a column named twice
    write(os.path.join(d, "s.csv"), b"step,r0,r\x1b]0;x\x07\n1,1.0,1.1\n2,1.0,1.2\n")
    refused("steps rank name", ["fit", "--steps", "s.csv"], d, "s.csv:1:10: at byte offset 9: U+001B")
    write(os.path.join(d, "s.csv"), b"step,r0,r1\n1,1.0,0x1p0\n2,1.0,1.2\n")
    refused("steps hex seconds", ["fit", "--steps", "s.csv"], d, "'0x1p0' is not a number of seconds")
    write(os.path.join(d, "s.csv"), b"step,r0,R0\n1,1.0,1.1\n2,1.0,1.2\n")
    refused("steps r0,R0", ["fit", "--steps", "s.csv"], d,
            "s.csv:1: column 'R0' is named twice in the header (columns 2 and 3)")
    # --exclude-cause is printed in the report and its --json
    write(os.path.join(d, "ok.csv"), b"node,start,end,cause\nn1,1,2,GPU\nn2,3,4,NIC\n")
    refused("--exclude-cause ESC", fault_args("ok.csv", "--exclude-cause", "G\x1bPU"), d,
            "--exclude-cause: at byte offset 1 (column 2): U+001B")
    # exact duplicate rows: refused, or dropped with --dedupe and counted
    write(os.path.join(d, "dup.csv"),
          b"node,start,end,cause\nn1,1,2,GPU\nn2,3,4,NIC\nn1,1,2,GPU\nn3,5,,GPU\nn3,5,,GPU\n"
          b"n1,1,2,NIC\n")
    refused("duplicate rows", fault_args("dup.csv"), d,
            "dup.csv: 2 faults repeat an earlier one exactly", "the first: line 4 repeats line 2",
            "--dedupe")
    out = os.path.join(d, "dedupe.json")
    rc, so, se = run(fault_args("dup.csv", "--dedupe", "--json", out), d)
    if rc != 0:
        failures.append(f"--dedupe: exit {rc}: {se.decode(errors='replace')[:200]}")
    else:
        with open(out, encoding="utf-8") as f:
            faults = json.load(f)["faults"]
        # 6 rows; n1,1,2,GPU and n3,5,,GPU twice each; n1,1,2,NIC differs by cause
        if (faults["read"], faults["fitted"], faults["duplicates_dropped"]) != (6, 4, 2):
            failures.append(f"--dedupe: read/fitted/dropped {faults}, expected 6, 4, 2")
        if b"--dedupe dropped 2 exact duplicate faults" not in se:
            failures.append(f"--dedupe: no count on stderr: {se!r}")
    ev_end = '{"node_id":"a","event_time":%s,"event_type":"fault_%s"}'
    lines = [ev_end % (1, "start"), ev_end % (2, "end"), ev_end % (1, "start"),
             ev_end % (2, "end"), ev_end % (5, "start")]
    write(os.path.join(d, "dup.json"), ("\n".join(lines) + "\n").encode())
    refused("duplicate JSON events", fault_args("dup.json"), d,
            "1 fault repeats an earlier one exactly", "event 3 repeats event 1")
    # an accepted node id and cause read back by Python
    write(os.path.join(d, "u.csv"), "node,start,end,cause\nn\u00e9,1,2,\u65e5\n".encode())
    rc, _, se = run(fault_args("u.csv", "--json", out), d)
    if rc != 0:
        failures.append(f"UTF-8 log: exit {rc}: {se.decode(errors='replace')[:200]}")
    else:
        with open(out, encoding="utf-8") as f:
            json.load(f)


with tempfile.TemporaryDirectory() as d:
    experiment_cases(d)
    fit_cases(d)
for f in failures:
    print("FAIL", f)
print(f"check_text: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
