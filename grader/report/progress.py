"""How far a verb's long work has got, on standard error (standard output stays the verb's).

On a terminal, a Rich bar per stage: what it is, the bar, done/total, time elapsed and left.
Elsewhere (a file, a pipe, CI), plain lines: none for a stage done within PLAIN_SECONDS, else a
line when another tenth is done (at most one every PLAIN_SECONDS) and one at its end. Functions
doing long work take a ``Progress`` (SILENT unless a verb shows it) and open a task per stage:
``with progress.task("grading submissions", len(todo)) as advance: ...``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Callable, Iterator, TextIO

PLAIN_SECONDS = 5.0      # plain lines: none for a shorter stage, at most one this often
REDRAW_SECONDS = 0.1     # a bar takes in what was done at most this often, however often work advances


class Progress:
    """Shows nothing: what the functions doing long work get unless a verb shows their progress."""

    def __init__(self, stream: TextIO | None = None, now: Callable[[], float] = time.monotonic):
        self.stream, self.now = stream, now

    @contextlib.contextmanager
    def task(self, description: str, total: int | None = None) -> Iterator[Callable[..., None]]:
        """``advance(count=1)`` for each step of a stage of ``total`` steps (None: not known)."""
        yield lambda count=1: None


SILENT = Progress()


def shown(stream: TextIO, *, terminal: bool | None = None) -> Progress:
    """A bar on ``stream`` where it is a terminal (or ``terminal`` says to draw one), else plain lines."""
    if terminal is None:
        with contextlib.suppress(AttributeError, ValueError, OSError):   # no isatty, or closed: not a terminal
            terminal = stream.isatty()
    return Bar(stream) if terminal else Lines(stream)


def clock(seconds: float) -> str:
    return f"{int(seconds) // 3600}:{int(seconds) // 60 % 60:02d}:{int(seconds) % 60:02d}"


class Lines(Progress):
    """Plain lines, few enough for a CI log."""

    @contextlib.contextmanager
    def task(self, description: str, total: int | None = None) -> Iterator[Callable[..., None]]:
        started = self.now()
        state = {"done": 0, "tenth": 0, "line": started}

        def advance(count: int = 1) -> None:
            done = state["done"] = state["done"] + count
            tenth = done * 10 // total if total else 0
            if tenth > state["tenth"] and done < total and self.now() - state["line"] >= PLAIN_SECONDS:
                state.update(tenth=tenth, line=self.now())
                print(f"{description}: {done}/{total} ({done * 100 // total}%), "
                      f"{clock(state['line'] - started)} elapsed", file=self.stream, flush=True)
        yield advance
        if (seconds := self.now() - started) >= PLAIN_SECONDS:
            counted = f"{state['done']}/{total}" if total is not None else state["done"] or "done"
            print(f"{description}: {counted} in {clock(seconds)}", file=self.stream, flush=True)


class Bar(Progress):
    """A Rich bar on a terminal per task (none for a task of 0 steps), left on screen at its end."""

    @contextlib.contextmanager
    def task(self, description: str, total: int | None = None) -> Iterator[Callable[..., None]]:
        if total == 0:
            yield lambda count=1: None
            return
        # Imported only once a bar is drawn: importing Rich takes longer than all of hog --help.
        from rich import progress as rich
        from rich.console import Console
        # sys.stdout and sys.stderr are left alone: a forked worker must never write through Rich's lock.
        counted = (rich.MofNCompleteColumn(), rich.TimeElapsedColumn(), rich.TimeRemainingColumn()) \
            if total is not None else (rich.TimeElapsedColumn(),)   # a stage of unknown length: its time only
        bar = rich.Progress(rich.TextColumn("{task.description}"), rich.BarColumn(), *counted,
                            console=Console(file=self.stream, force_terminal=True),
                            redirect_stdout=False, redirect_stderr=False, refresh_per_second=5)
        state = {"done": 0, "next": 0.0}

        def advance(count: int = 1) -> None:
            state["done"] += count
            if self.now() >= state["next"]:
                state["next"] = self.now() + REDRAW_SECONDS
                bar.update(line, completed=state["done"])
        with _cursor_shown_on_sigterm(self.stream), bar:
            line = bar.add_task(description, total=total)
            try:
                yield advance
            finally:
                bar.update(line, completed=state["done"])


@contextlib.contextmanager
def _cursor_shown_on_sigterm(stream: TextIO) -> Iterator[None]:
    """A bar hides the cursor, and SIGTERM (where nothing handles it) ends the process at once:
    the cursor is shown again first, then SIGTERM ends the process (or a forked worker) as before."""
    try:
        descriptor, owner = stream.fileno(), os.getpid()
    except (AttributeError, ValueError, OSError):   # not a file (a StringIO): nothing to show again
        descriptor = -1
    if descriptor < 0 or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def end(signum, _frame) -> None:
        if os.getpid() == owner:
            with contextlib.suppress(OSError):
                os.write(descriptor, b"\n\x1b[?25h")
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    signal.signal(signal.SIGTERM, end)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
