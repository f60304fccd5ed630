#!/usr/bin/env python3
"""Run a command whose standard output is a pipe with no reader.

Usage: closed_pipe.py COMMAND [ARG...]; exits with the command's status
(128 + the signal number if a signal ended it).

Why not `cmd | true`: the shell starts both ends at once, and a command that
finishes before `true` has exited writes into a pipe that still has a reader,
so the write succeeds and the test sees exit 0. Here the read end is closed
before the command starts, so every write to standard output fails (EPIPE).
"""
import os
import signal
import subprocess
import sys

read_end, write_end = os.pipe()
os.close(read_end)
# restore_signals (the default) gives the command SIGPIPE's default action,
# as a shell would; the command must deal with it itself.
status = subprocess.call(sys.argv[1:], stdout=write_end)
sys.exit(128 - status if status < 0 else status)
