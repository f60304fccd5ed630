#!/usr/bin/env python3
"""cli-output-paths: every output flag of every command against every file it
reads (issue 33, items 8-10). Usage: check_output_paths.py TRAINMC.

The commands and their file options come from the option table itself
(`trainmc help-paths`), not from a list written here, so an option added to
the table is tested without touching this file.

1. No output names an input: for every command x input (the operand and each
   input option) x output option, the output given as the input's own name,
   as "./NAME", through a hard link and through a symbolic link is refused
   with exit 2 and a message naming both flags; the input is left byte for
   byte, and no file appears. Two outputs on one file ("NAME" and "./NAME",
   not yet written) are refused the same way.
2. Nor a file the experiment reads (a distribution file, a trace): every
   output flag of every command with an experiment, onto each of them.
3. Every output keeps the mode and owner of the file it replaces: for every
   command and every output flag, a target made 0600 (0640 with another
   owner when run as root) is rewritten with that mode and owner; a new
   file gets the umask's mode (027: 0640).
4. An output name of 255 bytes (NAME_MAX) is written: every output flag of
   every command (the temporary name beside it stays within NAME_MAX).
"""
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
FAILED = []

EXPERIMENT = """{"name": "paths", "job": {"steps": 100, "cards": 8, "flop_per_step": 80,
 "peak_flops": 1, "efficiency": 1}, "jitter": {"distribution": "normal", "cv": 0.05},
 "failures": "fail.json",
 "checkpoint": {"interval_steps": 10, "save_s": 1, "restore_s": 5}, "deadline": {"days": 1},
 "monte_carlo": {"replicas": 20, "seed": 1}}
"""
FILES = {
    "exp.json": EXPERIMENT,
    "fail.json": '{"source": "test", "distribution": "trace", "trace": "trace.csv"}\n',
    "trace.csv": "time_days\n0.001\n",
    "progress.json": '{"elapsed_days": 0, "steps_done": 0, "committed_step": 0}\n',
    "history.jsonl": '{"elapsed_days": 0, "steps_done": 0, "committed_step": 0}\n'
                     '{"elapsed_days": 0.0005, "steps_done": 40, "committed_step": 40}\n',
    "inputs.json": '{"job.efficiency": [0.8, 1]}\n',
    "train.log": " [2026-01-01 00:00:10] iteration 10/ 100 | elapsed time per iteration (ms): "
                 "50.0 |\n  successfully saved checkpoint from iteration 10 to /c\n",
    "log.csv": "node,start,end\nn1,1,1.5\nn2,3,3.2\nn3,5,\n",
}
# what each command needs besides its files, so that without the checks it
# would run and write (the outputs are refused before that)
ARGS = {
    "run": ["--quiet"],
    "plan": [],
    "emax": ["--cards", "2", "--replicas", "1000", "--threads", "1"],
    "sweep": ["--vary", "checkpoint.interval_steps=10,20", "--quiet"],
    "rescue": ["--quiet", "--levers", "job.efficiency"],
    "sensitivity": ["--quiet"],
    "cheapest": ["--quiet", "--lever", "job.cards=8:16"],
    "forecast": ["--quiet"],
    "fit": ["--nodes", "10", "--cards-per-node", "8"],
}
OPERAND = {"EXPERIMENT.json": "exp.json", "LOG": "log.csv"}
INPUT_FILE = {"progress": "progress.json", "history": "history.jsonl", "inputs": "inputs.json",
              "log": "train.log"}
REQUIRED = {"history"}  # forecast cannot run without it
# a command whose inputs select a mode with its own outputs: forecast --log
# (a training log, not a history) writes --write-progress and draws no --plot
MODES = {"forecast": ("forecast --log", {"history"}, {"log"}, {"plot"}, {"write-progress"})}


def fail(what):
    FAILED.append(what)
    print("FAIL: " + what, file=sys.stderr)


def split_modes(cmds):
    """Each MODES command as two: its first mode without the second's
    outputs, and the second (named "COMMAND --FLAG") with its own inputs."""
    for cmd, (name, drop_in, add_in, drop_out, only_out) in MODES.items():
        c = cmds[cmd]
        second = {"operand": c["operand"], "argv": cmd,
                  "in": [f for f in c["in"] if f not in drop_in],
                  "out": [o for o in c["out"] if o[0] not in drop_out]}
        c["in"] = [f for f in c["in"] if f not in add_in]
        c["out"] = [o for o in c["out"] if o[0] not in only_out]
        second["required"] = add_in
        cmds[name] = second
    return cmds


def table():
    """{command: {"operand": NAME or None, "in": [flag], "out": [(flag, arg)]}}."""
    text = subprocess.run([BIN, "help-paths"], capture_output=True, text=True, check=True)
    cmds = {}
    for line in text.stdout.splitlines():
        words = line.split()
        c = cmds.setdefault(words[0], {"operand": None, "in": [], "out": []})
        if words[1] == "input" and not words[2].startswith("--"):
            c["operand"] = words[2]
        elif words[1] == "input":
            c["in"].append(words[2][2:])
        else:
            c["out"].append((words[2][2:], words[3]))
    return split_modes(cmds)


def fixtures(d):
    for name, text in FILES.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def command_line(cmd, spec, extra_inputs=()):
    """argv for cmd with its operand and required inputs (and extra_inputs)."""
    argv = [BIN, spec.get("argv", cmd)]
    if spec["operand"]:
        argv.append(OPERAND[spec["operand"]])
    for flag in spec["in"]:
        if flag in spec.get("required", REQUIRED) or flag in extra_inputs:
            argv += ["--" + flag, INPUT_FILE[flag]]
    return argv + ARGS[spec.get("argv", cmd)]


def snapshot(d):
    """Every file of d and its bytes."""
    out = {}
    for name in os.listdir(d):
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


def refused(d, argv, what, words):
    before = snapshot(d)
    p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=60)
    if p.returncode != 2:
        fail("%s: exit %d, expected 2 (%s)" % (what, p.returncode, p.stderr.strip()))
    missing = [w for w in words if w not in p.stderr]
    if missing:
        fail("%s: the message does not name %s: %s" % (what, missing, p.stderr.strip()))
    after = snapshot(d)
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        fail("%s: files changed or appeared: %s" % (what, changed))


def forms(d, name):
    """The names one file goes by: itself, ./itself, a hard and a symbolic link."""
    os.link(os.path.join(d, name), os.path.join(d, "hard-" + name))
    os.symlink(name, os.path.join(d, "soft-" + name))
    return [name, "./" + name, "hard-" + name, "soft-" + name]


def check_inputs(cmds):
    """Part 1: every command x input x output, and output x output."""
    cases = 0
    for cmd, spec in sorted(cmds.items()):
        inputs = ([("operand", spec["operand"])] if spec["operand"] else []) + \
                 [("option", f) for f in spec["in"]]
        for kind, flag in inputs:
            name = OPERAND[flag] if kind == "operand" else INPUT_FILE[flag]
            label = flag if kind == "operand" else "--" + flag
            for out, _ in spec["out"]:
                with tempfile.TemporaryDirectory() as d:
                    fixtures(d)
                    for path in forms(d, name):
                        argv = command_line(cmd, spec, [flag]) + ["--" + out, path]
                        refused(d, argv, "%s %s onto %s as %s" % (cmd, "--" + out, label, path),
                                ["--" + out, label, "is an input"])
                        cases += 1
        for i, (a, _) in enumerate(spec["out"]):
            for b, _ in spec["out"][i + 1:]:
                with tempfile.TemporaryDirectory() as d:
                    fixtures(d)
                    argv = command_line(cmd, spec) + ["--" + a, "x.out", "--" + b, "./x.out"]
                    refused(d, argv, "%s --%s and --%s on one file" % (cmd, a, b),
                            ["--" + a, "--" + b, "name the same file"])
                    cases += 1
    return cases


def check_experiment_files(cmds):
    """Part 2: outputs onto the files the experiment reads."""
    cases = 0
    for cmd, spec in sorted(cmds.items()):
        if spec["operand"] != "EXPERIMENT.json":
            continue
        for out, arg in spec["out"]:
            for name in ("fail.json", "trace.csv"):
                with tempfile.TemporaryDirectory() as d:
                    fixtures(d)
                    if arg.endswith(".svg"):  # a picture must be named .svg: the input too
                        for f in ("fail.json", "exp.json"):
                            p = os.path.join(d, f)
                            with open(p) as fh:
                                t = fh.read().replace('"%s"' % name, '"%s.svg"' % name)
                            with open(p, "w") as fh:
                                fh.write(t)
                        os.rename(os.path.join(d, name), os.path.join(d, name + ".svg"))
                        name += ".svg"
                    argv = command_line(cmd, spec) + ["--" + out, "./" + name]
                    refused(d, argv, "%s --%s onto the experiment's %s" % (cmd, out, name),
                            ["is an input of the run", name])
                    cases += 1
    return cases


def out_name(arg, stem):
    return stem + (".svg" if arg.endswith(".svg") else ".out")


def written(d, cmd, spec, names, what, umask=None):
    argv = command_line(cmd, spec)
    for (flag, _), name in zip(spec["out"], names):
        argv += ["--" + flag, name]
    old = os.umask(umask) if umask is not None else None
    try:
        p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=120)
    finally:
        if old is not None:
            os.umask(old)
    if p.returncode != 0:
        fail("%s: %s exit %d: %s" % (what, cmd, p.returncode, p.stderr.strip()))
        return False
    return True


def check_modes(cmds):
    """Part 3: modes and owners kept; a new file's mode from the umask."""
    cases = 0
    root = os.geteuid() == 0
    for cmd, spec in sorted(cmds.items()):
        with tempfile.TemporaryDirectory() as d:
            fixtures(d)
            names = [out_name(arg, "old-" + flag) for flag, arg in spec["out"]]
            for name in names:
                p = os.path.join(d, name)
                with open(p, "w") as f:
                    f.write("old\n")
                os.chmod(p, 0o640 if root else 0o600)
                if root:  # another owner and group, which only root may give
                    os.chown(p, 4321, 4322)
            if written(d, cmd, spec, names, "existing outputs"):
                for (flag, _), name in zip(spec["out"], names):
                    st = os.stat(os.path.join(d, name))
                    want = 0o640 if root else 0o600
                    if st.st_mode & 0o7777 != want:
                        fail("%s --%s over a %o file: mode %o" % (cmd, flag, want,
                                                                  st.st_mode & 0o7777))
                    if root and (st.st_uid, st.st_gid) != (4321, 4322):
                        fail("%s --%s: owner %d:%d, expected 4321:4322" % (
                            cmd, flag, st.st_uid, st.st_gid))
                    if open(os.path.join(d, name), "rb").read() == b"old\n":
                        fail("%s --%s: the file was not rewritten" % (cmd, flag))
                    cases += 1
            names = [out_name(arg, "new-" + flag) for flag, arg in spec["out"]]
            if written(d, cmd, spec, names, "new outputs", umask=0o027):
                for (flag, _), name in zip(spec["out"], names):
                    mode = os.stat(os.path.join(d, name)).st_mode & 0o7777
                    if mode != 0o640:
                        fail("%s --%s, a new file under umask 027: mode %o" % (cmd, flag, mode))
                    cases += 1
    return cases


def check_long_names(cmds):
    """Part 4: 255-byte output names, every flag of every command."""
    cases = 0
    for cmd, spec in sorted(cmds.items()):
        with tempfile.TemporaryDirectory() as d:
            fixtures(d)
            names = []
            for flag, arg in spec["out"]:
                tail = out_name(arg, "-" + flag)
                names.append("n" * (255 - len(tail)) + tail)
            if written(d, cmd, spec, names, "255-byte names"):
                for (flag, _), name in zip(spec["out"], names):
                    if len(name) != 255 or not os.path.getsize(os.path.join(d, name)):
                        fail("%s --%s: no 255-byte file" % (cmd, flag))
                    cases += 1
                left = [n for n in os.listdir(d) if ".tmp." in n]
                if left:
                    fail("%s: temporary files left: %s" % (cmd, left))
    return cases


def main():
    cmds = table()
    if len(cmds) < 9 or not all(c["out"] for c in cmds.values()):
        fail("help-paths lists %d commands, some without outputs: %s" % (len(cmds), cmds))
    counts = [check_inputs(cmds), check_experiment_files(cmds), check_modes(cmds),
              check_long_names(cmds)]
    print("cases: inputs %d, experiment files %d, modes %d, 255-byte names %d; %d failed"
          % (*counts, len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
