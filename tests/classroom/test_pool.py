"""Worker processes of a batch: a dead worker costs only its task, a signal stops them all."""

import os
import signal
import subprocess
import sys
import time

import pytest

from grader.classroom import pool
from tests.processes import living


def work(task: str) -> str:
    if task == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "slow":
        time.sleep(60)
    time.sleep(0.05)
    return task.upper()


def test_a_worker_that_dies_costs_only_its_task_and_is_replaced():
    done, lost = {}, {}
    with pool.Signals() as signals:
        pool.run_all(["a", "die", "b", "c", "d"], work, jobs=2, signals=signals,
                     done=done.__setitem__, lost=lost.__setitem__)
    assert done == {"a": "A", "b": "B", "c": "C", "d": "D"}
    assert lost == {"die": "the worker process ended (killed by SIGKILL)"}


def test_a_signal_stops_every_worker_and_keeps_what_was_done():
    done, lost, workers = {}, {}, []
    before = set(pool._descendants(os.getpid()))   # not the pool's (e.g. multiprocessing's resource tracker)

    def finished(task, value):
        done[task] = value
        workers.extend(set(pool._descendants(os.getpid())) - before)
        os.kill(os.getpid(), signal.SIGTERM)   # as an operator would, once something is graded
    with pool.Signals() as signals:
        pool.run_all(["a", "slow", "slow", "b"], work, jobs=3, signals=signals, done=finished,
                     lost=lost.__setitem__)
    assert signals.received == signal.SIGTERM
    assert done == {"a": "A"} and lost == {}
    assert workers and not living(workers)


def test_a_queue_that_fills_while_the_workers_run_is_graded_to_the_end():
    done, asked, given = {}, [], set()

    def more(idle: int) -> list:   # b and c arrive once a is graded, d once b is
        asked.append(idle)
        for after, arriving in (("a", ("b", "c")), ("b", ("d",))):
            if after in done and arriving[0] not in given:
                given.update(arriving)
                return list(arriving)
        return []
    with pool.Signals() as signals:
        pool.run_all(["a"], work, jobs=2, signals=signals, done=done.__setitem__, lost=lambda *_: None, more=more)
    assert done == {"a": "A", "b": "B", "c": "C", "d": "D"}
    assert all(0 < wanted <= 4 for wanted in asked)


def test_a_task_waits_for_each_busy_worker_so_that_it_goes_on_at_once():
    """With a queue that fills while it runs (the course server's), the next task is asked for while the
    worker still runs one, not once it has finished and its result is being written."""
    done, asked_while, arriving = {}, [], ["b", "c"]

    def more(wanted: int) -> list:
        asked_while.append(sorted(done))
        return [arriving.pop(0)] if arriving else []
    with pool.Signals() as signals:
        pool.run_all(["a"], work, jobs=1, signals=signals, done=done.__setitem__, lost=lambda *_: None, more=more)
    assert done == {"a": "A", "b": "B", "c": "C"}
    assert asked_while[:2] == [[], ["a"]]   # b while a ran, c while b ran


def pid_of(_task: str) -> int:
    return os.getpid()


def test_a_run_that_goes_on_keeps_its_workers_through_a_quiet_moment():
    """The course server's pool outlasts an empty queue: a submission after a quiet moment is graded by a worker
    that graded before (with what it made for the earlier ones), not by a new one."""
    done, arrivals, started = {}, [["a"], [], [], [], [], ["b"]], time.monotonic()

    def more(_wanted: int) -> list:
        return arrivals.pop(0) if arrivals and ("a" in done or arrivals[0] == ["a"]) else []
    with pool.Signals() as signals:
        pool.run_all([], pid_of, jobs=1, signals=signals, done=done.__setitem__, lost=lambda *_: None, more=more,
                     going=lambda: "b" not in done and time.monotonic() - started < 30)
    assert set(done) == {"a", "b"} and done["a"] == done["b"]
    without = {}
    with pool.Signals() as signals:   # a run that does not go on ends with its queue, and so does its worker
        pool.run_all(["a"], pid_of, jobs=1, signals=signals, done=without.__setitem__, lost=lambda *_: None,
                     more=lambda _wanted: [])
    assert set(without) == {"a"} and without["a"] != done["a"]


# A stop that lands while a weakref's callback runs, where Python drops what a handler raises.
STOP_IN_A_CALLBACK = """
import os, signal, sys, time, weakref
from grader.classroom import pool
signal.signal(signal.SIGTERM, lambda signum, _frame: pool.raise_stop(signum))
class Thing:
    pass
def callback(_ref):
    os.kill(os.getpid(), signal.SIGTERM)
    sum(range(1000))   # the handler runs here, inside the callback
thing = Thing()
ref = weakref.ref(thing, callback)
try:
    del thing          # the callback runs now
    time.sleep(10)
    print("went on")
except pool.Stopped as stopped:
    print("stopped by", stopped.signum)
"""


def test_a_stop_that_comes_while_python_drops_exceptions_still_stops_and_prints_no_traceback():
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STOP_IN_A_CALLBACK], capture_output=True, text=True, timeout=60)
    assert done.stdout == f"stopped by {int(signal.SIGTERM)}\n", done.stderr
    assert done.stderr == "" and time.monotonic() - began < 8


# A run that waits for more work (as the course server's grader does) with one idle worker and one busy
# for a second; it prints its workers' pids once both have started, then is killed from outside.
KILLED_RUN = """
import os, sys, time
from grader.classroom import pool

def work(task):
    time.sleep(task)
    return task

with pool.Signals() as signals:
    def more(count):
        if len(pool._descendants(os.getpid())) >= 2 and not more.told:
            print(*pool._descendants(os.getpid()), flush=True)
            more.told = True
        return []
    more.told = False
    pool.run_all([0, 1.0], work, jobs=2, signals=signals, done=lambda *_: None, lost=lambda *_: None,
                 more=more, going=lambda: True)
"""


def test_a_run_killed_with_sigkill_leaves_no_worker_behind_idle_or_busy():
    run = subprocess.Popen([sys.executable, "-c", KILLED_RUN], stdout=subprocess.PIPE, text=True)
    workers = [int(pid) for pid in run.stdout.readline().split()]
    assert len(workers) == 2
    run.kill()
    run.wait(10)
    assert not living(workers, within=20)   # the busy one ends its task (1 s) first


# The contest's ProcessPoolExecutor with end_with_parent as its initializer (its workers otherwise wait for
# ever once their run is killed; multiprocessing.Pool's end by themselves); the run prints its workers' pids
# once each has run a task, then is killed from outside.
KILLED_POOLS = """
import multiprocessing, os, time
from concurrent.futures import ProcessPoolExecutor
from grader.classroom import pool

def pid(_):
    time.sleep(0.2)
    return os.getpid()

context = multiprocessing.get_context("fork")
workers = ProcessPoolExecutor(2, mp_context=context, initializer=pool.end_with_parent)
print(*set(workers.map(pid, range(6))), flush=True)
time.sleep(60)
"""


@pytest.mark.slow   # waits for the killed run's workers to end
def test_the_workers_of_a_pool_that_ends_with_its_parent_end_when_their_run_is_killed():
    run = subprocess.Popen([sys.executable, "-c", KILLED_POOLS], stdout=subprocess.PIPE, text=True)
    workers = [int(pid) for pid in run.stdout.readline().split()]
    assert workers
    run.kill()
    run.wait(10)
    assert not living(workers, within=10)
