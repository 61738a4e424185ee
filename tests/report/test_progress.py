"""What a user sees of a verb's progress: a bar with done/total on a terminal; piped to a file or a CI
log, plain lines (none for a short stage), never a bar; the terminal left as it was when the work stops."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader import cli, project
from grader.classroom import batch
from grader.report import progress

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SHOW_CURSOR = "\x1b[?25h"


def seen(text: str) -> str:
    """What a terminal shows of ``text``: its escape sequences left out, the last state of each line."""
    return "\n".join(line.split("\r")[-1] for line in ESCAPES.sub("", text).split("\n"))


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_on_a_terminal_the_bar_shows_what_is_done_and_done_of_total():
    screen = io.StringIO()
    with progress.shown(screen, terminal=True).task("grading submissions", 8) as advance:
        for _ in range(3):
            advance()
    shown = seen(screen.getvalue())
    assert "grading submissions" in shown and "3/8" in shown
    assert screen.getvalue().endswith(SHOW_CURSOR)


def test_on_a_terminal_a_stage_of_unknown_length_shows_its_time_and_no_count():
    screen = io.StringIO()
    with progress.shown(screen, terminal=True).task("draw 1 of at most 40: solving the game exactly"):
        pass
    shown = seen(screen.getvalue())
    assert "draw 1 of at most 40: solving the game exactly" in shown and "0:00:00" in shown and "?" not in shown


def test_on_a_terminal_a_stage_with_nothing_to_do_draws_nothing():
    screen = io.StringIO()
    with progress.shown(screen, terminal=True).task("grading submissions", 0):
        pass
    assert screen.getvalue() == ""


def test_on_a_terminal_ctrl_c_ends_the_bar_and_shows_the_cursor_again():
    screen = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        with progress.shown(screen, terminal=True).task("playing pairs", 10) as advance:
            advance(4)
            raise KeyboardInterrupt
    assert "4/10" in seen(screen.getvalue()) and screen.getvalue().endswith(SHOW_CURSOR)


def test_piped_a_short_stage_prints_nothing():
    clock, log = Clock(), io.StringIO()
    with progress.Lines(log, now=clock).task("comparing pairs", 1000) as advance:
        for _ in range(1000):
            clock.now += progress.PLAIN_SECONDS / 2000
            advance()
    assert log.getvalue() == ""


def test_piped_a_long_stage_prints_a_plain_line_per_tenth_at_most_every_few_seconds_and_one_at_the_end():
    clock, log = Clock(), io.StringIO()
    with progress.Lines(log, now=clock).task("grading submissions", 200) as advance:
        for _ in range(200):
            clock.now += 0.5   # 100 s in all: a tenth every 10 s
            advance()
    lines = log.getvalue().splitlines()
    assert lines[0] == "grading submissions: 20/200 (10%), 0:00:10 elapsed"
    assert lines[-1] == "grading submissions: 200/200 in 0:01:40"
    assert len(lines) == 10 and "\r" not in log.getvalue() and "\x1b" not in log.getvalue()


def test_piped_lines_come_no_more_often_than_every_few_seconds_however_fast_the_tenths():
    clock, log = Clock(), io.StringIO()
    with progress.Lines(log, now=clock).task("fingerprinting submissions", 100) as advance:
        for _ in range(100):
            clock.now += 0.3   # a tenth every 3 s
            advance()
    lines = log.getvalue().splitlines()
    assert len(lines) == 5 + 1   # 30 s: at 5, 10, 15, 20 and 25 s (each at the next tenth), then the end
    assert lines[-1] == "fingerprinting submissions: 100/100 in 0:00:30"


def test_piped_a_stage_of_unknown_length_says_only_when_it_ended():
    clock, log = Clock(), io.StringIO()
    with progress.Lines(log, now=clock).task("draw 1: solving the rules exactly"):
        clock.now += 12
    assert log.getvalue() == "draw 1: solving the rules exactly: done in 0:00:12\n"


def test_piped_a_stage_stopped_by_ctrl_c_or_an_error_prints_no_end_line():
    clock, log = Clock(), io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        with progress.Lines(log, now=clock).task("grading submissions", 10) as advance:
            clock.now += 60
            advance()
            raise KeyboardInterrupt
    assert log.getvalue() == "grading submissions: 1/10 (10%), 0:01:00 elapsed\n"


def test_a_bar_is_drawn_on_a_terminal_only():
    assert type(progress.shown(io.StringIO())) is progress.Lines
    closed = io.StringIO()
    closed.close()
    assert type(progress.shown(closed)) is progress.Lines
    parent, child = os.openpty()
    try:
        with open(child, "w", closefd=False) as terminal:
            assert type(progress.shown(terminal)) is progress.Bar
    finally:
        os.close(parent)
        os.close(child)


def test_without_a_terminal_rich_is_never_imported():
    """hog --help and a piped run do not pay Rich's import."""
    code = ("import io, sys; import grader.cli, grader.commands.batch, grader.report.progress as p; "
            "assert 'rich' not in sys.modules; "
            "task = p.shown(io.StringIO()).task('x', 3); advance = task.__enter__(); advance(); "
            "task.__exit__(None, None, None); print('rich' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=project.ROOT,
                          env={**os.environ, "PYTHONPATH": str(project.PACKAGE.parent)}, timeout=60)
    assert done.returncode == 0 and done.stdout == "False\n", done.stderr


def test_sigterm_during_a_bar_shows_the_cursor_again_and_still_ends_the_process():
    code = ("import sys, time; from grader.report import progress; "
            "task = progress.shown(sys.stderr).task('grading submissions', 5); advance = task.__enter__(); "
            "advance(); print('drawn', flush=True); time.sleep(60)")
    parent, child = os.openpty()
    run = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=child, text=True,
                           cwd=project.ROOT, env={**os.environ, "PYTHONPATH": str(project.PACKAGE.parent)})
    os.close(child)
    try:
        assert run.stdout.readline() == "drawn\n"
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=30) == -signal.SIGTERM
        shown = b""
        while select.select([parent], [], [], 0.5)[0]:
            try:
                shown += os.read(parent, 4096)
            except OSError:   # the terminal's other end is closed: all is read
                break
    finally:
        os.close(parent)
    assert b"\x1b[?25l" in shown and shown.endswith(SHOW_CURSOR.encode())


def test_grade_batch_piped_to_a_file_prints_no_bar_only_plain_lines(tmp_path, monkeypatch, capsys):
    subs = tmp_path / "in"
    subs.mkdir()
    for name in ("ada", "bob", "cy"):
        (subs / f"{name}.py").write_text("x = 1\n")
    monkeypatch.setattr(batch, "grade_one", graded)
    monkeypatch.setattr(progress, "PLAIN_SECONDS", 0.0)   # every stage long enough to be reported
    assert cli.main(["grade-batch", str(subs), "--variant", "sp19", "--jobs", "1",
                     "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    assert "\r" not in captured.err and "\x1b" not in captured.err
    assert re.fullmatch(r"(grading submissions: \d/3 \(\d+%\), \d+:\d\d:\d\d elapsed\n)*"   # a busy machine
                        r"grading submissions: 3/3 in \d+:\d\d:\d\d\n", captured.err)           # takes seconds
    assert captured.out.startswith("graded 3, skipped 0 already graded, 0 grader faults;")


def graded(variant, submission: Path, **options) -> tuple[dict, bool]:
    """A stand-in for grading: full marks at once."""
    time.sleep(0.01)
    return {"score": 26.0, "max_score": 26.0, "execution_time": 0.0, "output": "", "tests": [],
            "isolation": "test", "seed": options["seed"], "grader_failed": False}, False
