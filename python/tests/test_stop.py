"""Stopping a run: the stop flag (tmc_run_options.stop) set from a progress
callback, from another thread, and by Ctrl-C; progress reports."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import trainmc
from conftest import experiment, subprocess_env

STRESS = experiment("design-48-stress.json")
MANY = 10**7  # far more replicas than any test waits for


def test_progress_reports_in_the_calling_thread():
    seen = []
    caller = threading.get_ident()
    r = trainmc.run(STRESS, replicas=3000, seed=1, threads=2,
                    progress=lambda done, total: seen.append((done, total,
                                                              threading.get_ident())))
    assert seen, "no progress report"
    assert seen[-1][:2] == (3000, 3000)
    assert all(t == 3000 and 0 <= d <= 3000 and ident == caller for d, t, ident in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)
    assert r.replicas == 3000


def test_progress_returning_true_stops():
    t0 = time.monotonic()
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(STRESS, replicas=MANY, threads=2, per_replica=False,
                    progress=lambda done, total: done > 0)
    assert e.value.code == trainmc.ERR_STOPPED == 3
    assert time.monotonic() - t0 < 10


def test_stop_event_from_another_thread():
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(trainmc.TrainmcError) as e:
            trainmc.run(STRESS, replicas=MANY, threads=2, per_replica=False, stop=stop)
    finally:
        timer.cancel()
    assert e.value.code == trainmc.ERR_STOPPED
    assert "interrupt" in e.value.message or "stop" in e.value.message
    assert time.monotonic() - t0 < 10


def test_exception_in_progress_stops_and_propagates():
    class Enough(Exception):
        pass

    def progress(done, total):
        if done > 0:
            raise Enough()
    t0 = time.monotonic()
    with pytest.raises(Enough):
        trainmc.run(STRESS, replicas=MANY, threads=2, per_replica=False, progress=progress)
    assert time.monotonic() - t0 < 10


def test_a_set_event_before_the_run_stops_it():
    ev = threading.Event()
    ev.set()
    t0 = time.monotonic()
    with pytest.raises(trainmc.TrainmcError) as e:
        trainmc.run(STRESS, replicas=MANY, seed=1, per_replica=False, stop=ev)
    assert e.value.code == trainmc.ERR_STOPPED
    # the flag is set before the library starts: not a replica's worth of waiting
    assert time.monotonic() - t0 < 0.5
    assert "interrupted after 0 of" in e.value.message


def test_runs_in_parallel_threads():
    out = {}

    def work(seed):
        out[seed] = trainmc.run(STRESS, replicas=200, seed=seed, threads=1)
    threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in (1, 2):
        alone = trainmc.run(STRESS, replicas=200, seed=s, threads=1)
        assert list(out[s].completion_days) == list(alone.completion_days)


def test_keyboard_interrupt_stops_the_run():
    """SIGINT to a process inside trainmc.run: KeyboardInterrupt soon after,
    then the process carries on (the library stopped, nothing left running)."""
    code = (
        "import sys, time, trainmc\n"
        "print('start', flush=True)\n"
        "t0 = time.monotonic()\n"
        "try:\n"
        f"    trainmc.run({STRESS!r}, replicas={MANY}, threads=2, per_replica=False)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted after %.1f s' % (time.monotonic() - t0), flush=True)\n"
        f"r = trainmc.run({STRESS!r}, replicas=20, seed=1)\n"
        "print('then', r.replicas, flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=subprocess_env())
    try:
        assert p.stdout.readline().strip() == "start"
        time.sleep(0.5)
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, err
    assert "interrupted after" in out and "then 20" in out, out + err
