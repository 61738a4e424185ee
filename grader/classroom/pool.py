"""Worker processes that stop when told; a run's scratch folder (``grader.sandbox.scratch_space``).

``run_all`` grades in forked worker processes, each fed one task at a time over
its own pipe. SIGINT or SIGTERM to the main process stops it within about a
second: the workers are sent SIGTERM (each then kills its sandbox and removes
its scratch folder), and whatever is still alive after ``GRACE_SECONDS`` is
killed with everything it started. Results already delivered are kept.

``scratch_folder`` (from ``grader.sandbox.scratch_space``, where it is
described) gives a run its own temporary folder, held by a lock, in which every
sandbox of the run is made; a later run removes the ones no process holds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from typing import Callable, Iterator

# A run's scratch folder: the classroom's verbs and the course server's grader hold it through this module.
from grader.sandbox.scratch_space import SCRATCH_PREFIX, remove_abandoned, scratch_folder  # noqa: F401

GRACE_SECONDS = 0.5                   # a stopped worker's time to kill its sandbox and clean up
STOPPING = (signal.SIGINT, signal.SIGTERM)
PARENT_SECONDS = 0.5                  # between a pool worker's looks at whether its parent lives (``end_with_parent``)
ASK_SECONDS = 0.02                    # between asks for more tasks while a worker is idle (``run_all``'s more)


class Stopped(KeyboardInterrupt):
    """The process was told to stop by a signal (SIGINT or SIGTERM)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


AGAIN_SECONDS = 0.001   # after a stop that Python dropped, until it is raised again


def raise_stop(signum: int):
    """Raise Stopped, from a signal handler. A handler runs wherever the process is when the signal comes, and
    Python drops what is raised in some places (a weakref's callback, a ``__del__``), printing "Exception
    ignored" and going on: a stop dropped there is raised again a moment later, where it ends what runs."""
    if sys.unraisablehook is not _raise_again:
        _earlier_hook[0] = sys.unraisablehook
        sys.unraisablehook = _raise_again
    raise Stopped(signum)


_earlier_hook = [sys.unraisablehook]


def _raise_again(unraisable) -> None:
    """``sys.unraisablehook`` while stops are raised: a dropped Stopped comes back by SIGALRM (a handler runs
    in the main thread, where it was dropped); anything else goes to the hook there was before."""
    stopped = unraisable.exc_value
    if not isinstance(stopped, Stopped) or threading.current_thread() is not threading.main_thread():
        _earlier_hook[0](unraisable)
        return
    signal.signal(signal.SIGALRM, lambda _signum, _frame: raise_stop(stopped.signum))
    signal.setitimer(signal.ITIMER_REAL, AGAIN_SECONDS)


# ------------------------------------------------------------------ signals


def signal_name(number: int) -> str:
    return signal.Signals(number).name


class Signals:
    """While open, SIGINT and SIGTERM only record that they came (``received``: the first one)."""

    def __init__(self):
        self.received: int | None = None
        self._previous: dict[int, object] = {}

    def _handle(self, signum, _frame) -> None:
        if self.received is None:
            self.received = signum

    def __enter__(self) -> "Signals":
        if threading.current_thread() is threading.main_thread():
            for number in STOPPING:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *_exc) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While open, SIGINT and SIGTERM raise Stopped, so every ``finally`` on the way runs."""
    def stop(signum, _frame):
        raise_stop(signum)
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {number: signal.signal(number, stop) for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


# ------------------------------------------------------------------ workers


def _serve(pipe, work: Callable, inherited: list) -> None:
    """A worker: run ``work`` on each task received until told None; a stop signal ends it at once. The
    main process's ends of the workers' pipes, its own among them (``inherited``: a forked child holds them
    all), are closed first, so that the main process's death reaches the worker as the end of its pipe
    rather than leaving it waiting for ever (holding whatever else it inherited, such as a database
    connection whose transaction then never ends)."""
    for connection in inherited:
        connection.close()
    sending = [False]
    pending: list[int] = []

    def stop(signum, _frame):
        if sending[0]:
            pending.append(signum)  # finish the message first: half a message would be lost anyway
        else:
            raise_stop(signum)
    for number in STOPPING:
        signal.signal(number, stop)
    try:
        while (task := pipe.recv()) is not None:
            try:
                reply = ("done", work(task))
            except Exception as error:  # the kit broke on this task: the main process reports it
                reply = ("error", f"{type(error).__name__}: {error}")
            sending[0] = True
            pipe.send(reply)
            sending[0] = False
            if pending:
                raise Stopped(pending[0])
    except Stopped as stopped:
        os._exit(128 + stopped.signum)
    except (EOFError, OSError):
        os._exit(1)


def end_with_parent() -> None:
    """A ``ProcessPoolExecutor``'s ``initializer``: the worker ends once the process that started it is gone.
    Its workers wait on a queue whose other end each holds itself, so a run killed with SIGKILL would leave
    them waiting for ever, each holding its memory."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_SECONDS)
        os._exit(1)
    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class _Worker:
    def __init__(self, context, work: Callable, others: list[_Worker]):
        """A worker process started beside ``others`` (the run's workers so far)."""
        self.pipe, theirs = context.Pipe()
        inherited = [self.pipe, *(other.pipe for other in others if not other.pipe.closed)]
        self.process = context.Process(target=_serve, args=(theirs, work, inherited), daemon=True)
        self.process.start()
        theirs.close()
        self.task = None


def run_all(tasks: list, work: Callable, *, jobs: int, signals: Signals,
            done: Callable[[object, object], None], lost: Callable[[object, str], None],
            more: Callable[[int], list] | None = None, going: Callable[[], bool] | None = None) -> None:
    """``work(task)`` for each task in up to ``jobs`` worker processes; here, ``done(task, value)`` as
    each returns, or ``lost(task, why)`` if it raised or its worker died. ``more(n)``, when given, is
    asked for up to n further tasks whenever fewer than ``jobs`` are waiting here (a queue that fills
    while it runs): one waits for each worker, so that a worker that finishes goes on at once instead of
    idling while ``more`` asks (a database's claim and commit). While ``going()`` says so, an empty queue
    does not end the run: its workers wait for what ``more`` gives next, with what they made for earlier
    tasks (a seed's hidden cases, their compiled form, the sandbox's level) rather than new workers making
    it again. Returns when all are done (and ``more`` gives none, and ``going`` is not given or says to
    stop), when ``signals`` received one (the workers then stopped; tasks still waiting were not started),
    or raises what ``done`` raised."""
    import multiprocessing   # only where workers run: a single grade needs just the scratch folder and signals
    from multiprocessing import connection
    context = multiprocessing.get_context("fork")
    queue = deque(tasks)
    workers: list[_Worker] = []
    finished = False
    try:
        for _ in range(min(jobs, len(tasks))):
            workers.append(_Worker(context, work, workers))
        while signals.received is None:
            idle = len([w for w in workers if w.task is None]) + jobs - len(workers)
            if more is not None and len(queue) < idle + jobs:   # a task for each idle worker, one waiting for each
                queue.extend(more(idle + jobs - len(queue)))
                for _ in range(min(jobs - len(workers), len(queue))):
                    workers.append(_Worker(context, work, workers))
            if not queue and all(w.task is None for w in workers) and (going is None or not going()):
                break
            for index, worker in enumerate(workers):
                if worker.task is None and queue:
                    try:
                        worker.pipe.send(queue[0])
                    except OSError:  # the worker died while idle: a new one takes the task
                        worker.pipe.close()
                        workers[index] = _Worker(context, work, workers)
                        continue
                    worker.task = queue.popleft()
            busy = [w for w in workers if w.task is not None]
            # A worker left idle by a queue that fills while it runs asks again soon.
            asking = more is not None and len(busy) < jobs
            ready = connection.wait([w.pipe for w in busy], timeout=ASK_SECONDS if asking else 0.1)
            for index, worker in enumerate(workers):
                if worker.task is None or worker.pipe not in ready:
                    continue
                task, worker.task = worker.task, None
                try:
                    kind, value = worker.pipe.recv()
                except Exception:  # the worker died (or its message broke) before it could report
                    if signals.received is not None:
                        break
                    worker.process.join(1)
                    lost(task, f"the worker process ended ({_ending(worker.process.exitcode)})")
                    worker.pipe.close()
                    workers[index] = _Worker(context, work, workers)
                    continue
                if queue and signals.received is None:
                    # Its next task first, so that it grades while the result is written (fsync and all).
                    with contextlib.suppress(OSError):   # it died: the dispatch above replaces it
                        worker.pipe.send(queue[0])
                        worker.task = queue.popleft()
                (done if kind == "done" else lost)(task, value)
        finished = signals.received is None
    finally:
        _stop(workers, gently=finished)


def _ending(code: int | None) -> str:
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


def _stop(workers: list[_Worker], *, gently: bool) -> None:
    """Idle workers are told to end; otherwise each is sent SIGTERM, then killed with all it started."""
    for worker in workers:
        if worker.process.exitcode is not None:
            continue
        if gently:
            with contextlib.suppress(OSError):
                worker.pipe.send(None)
        else:
            with contextlib.suppress(OSError):
                os.kill(worker.process.pid, signal.SIGTERM)
    deadline = _now() + (10.0 if gently else GRACE_SECONDS)
    for worker in workers:
        worker.process.join(max(0.0, deadline - _now()))
    for worker in workers:
        if worker.process.exitcode is None:
            for pid in [worker.process.pid] + _descendants(worker.process.pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            worker.process.join(1)
        worker.pipe.close()


def _now() -> float:
    return time.monotonic()


def _descendants(root: int) -> list[int]:
    """Every process started (directly or not) by ``root``, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found
