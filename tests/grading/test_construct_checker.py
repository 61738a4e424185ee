"""The construct check's kept interpreter: one per grading process, a child forked per check.

What a grader sees: the same answers as ever, one interpreter started however many submissions a worker
checks, a new one whenever the kept one is gone, none left behind when the grading process ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from grader.grading import construct_check, construct_checker
from grader.shipped.student import constructs
from grader.sandbox import Limits
from grader.spec import load_variant
from tests.processes import gone

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "solution" / "nju24" / "hog.py"
PIGGY = next(q for q in load_variant("nju24").questions if q.forbidden)
LIMITS = Limits(case_seconds=2.0, total_seconds=60.0)


@pytest.fixture(autouse=True)
def no_kept_answers(tmp_path, monkeypatch):
    """Every check parsed anew (the signed cache of answers in a folder of this test's own)."""
    monkeypatch.setattr(construct_check.project, "CACHE", tmp_path / "cache")


def with_piggy(tmp_path: Path, name: str, body: str) -> Path:
    """The reference with picky_piggy redefined as ``body`` (a distinct file, so never a kept answer)."""
    hog = tmp_path / name / "hog.py"
    hog.parent.mkdir()
    hog.write_text(REFERENCE.read_text() + f"\n\ndef {PIGGY.function}(score):\n{body}")
    return hog


def check(hog: Path) -> construct_check.Checked:
    return construct_check.check(hog, PIGGY.function, PIGGY.forbidden, LIMITS)


def kept_pid() -> int:
    return construct_checker._KEPT.process.pid


def test_a_workers_checks_share_one_interpreter_and_answer_as_before(tmp_path):
    clean = with_piggy(tmp_path, "clean", "    return score % 10\n")
    looped = with_piggy(tmp_path, "looped", "    total = 0\n    for digit in [1, 2]:\n        total += digit\n"
                                            "    return total\n")
    assert check(clean) == construct_check.Checked()
    pid = kept_pid()
    found = check(looped).found
    lines = looped.read_text().splitlines()
    assert [(each.kind, each.line) for each in found] == [
        ("for loops", lines.index("    for digit in [1, 2]:") + 1),
        ("lists", lines.index("    for digit in [1, 2]:") + 1)]
    assert check(REFERENCE) == construct_check.Checked()
    assert kept_pid() == pid            # three checks, one interpreter


def test_an_interpreter_that_died_between_checks_is_replaced(tmp_path):
    check(with_piggy(tmp_path, "first", "    return score % 10\n"))
    pid = kept_pid()
    os.kill(pid, signal.SIGKILL)
    assert gone([pid], within=10)
    assert check(with_piggy(tmp_path, "second", "    return str(score)\n")).found[0].kind == "strings"
    assert kept_pid() != pid


def test_a_check_whose_interpreter_died_before_it_answered_is_asked_again(tmp_path):
    pending = construct_check.start(with_piggy(tmp_path, "asked", "    return str(score)[0]\n"),
                                    PIGGY.function, PIGGY.forbidden, LIMITS)
    pid = kept_pid()
    os.killpg(pid, signal.SIGKILL)      # the interpreter and any child it forked
    assert [found.kind for found in pending.result().found] == ["strings", "indexing"]
    assert kept_pid() != pid


def test_a_check_cancelled_under_way_leaves_no_answer_for_the_next_check(tmp_path):
    slow = tmp_path / "slow" / "hog.py"
    slow.parent.mkdir()
    slow.write_text(REFERENCE.read_text() + "".join(f"a{n} = [{n}]\n" for n in range(40_000)))
    pending = construct_check.start(slow, PIGGY.function, PIGGY.forbidden, LIMITS)
    pending.cancel()                    # grading ended another way: the interpreter is dropped
    assert check(with_piggy(tmp_path, "next", "    return str(score)\n")).found[0].kind == "strings"


def test_a_forked_process_starts_its_own_interpreter_and_leaves_its_parents_alone(tmp_path):
    check(with_piggy(tmp_path, "parent", "    return score % 10\n"))
    pid = kept_pid()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:   # as a pool worker forked from a process that had checked a submission
        try:
            answer = check(with_piggy(tmp_path, "child", "    return str(score)\n"))
            os.write(write, f"{answer.found[0].kind} {kept_pid() != pid}".encode())
        finally:
            os._exit(0)
    os.close(write)
    said = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(child, 0)
    assert said == "strings True"
    assert check(with_piggy(tmp_path, "again", "    return [score]\n")).found[0].kind == "lists"
    assert kept_pid() == pid            # the parent's interpreter still answers it


@pytest.mark.parametrize("ending", ["exit", "SIGKILL"])
def test_the_interpreter_ends_with_its_grading_process(tmp_path, ending):
    hog = with_piggy(tmp_path, "ends", "    return score % 10\n")
    code = ("import os, sys, signal\n"
            "from grader.grading import construct_check, construct_checker\n"
            "from grader.sandbox import Limits\n"
            f"construct_check.check({str(hog)!r}, 'picky_piggy', ('strings',), Limits())\n"
            "print(construct_checker._KEPT.process.pid, flush=True)\n"
            + ("os.kill(os.getpid(), signal.SIGKILL)\n" if ending == "SIGKILL" else ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "HOG_CACHE": str(tmp_path / "cache")})
    assert gone([int(done.stdout.split()[0])], within=10)


def test_a_file_of_countless_findings_lists_the_first_twenty_and_counts_the_rest(tmp_path):
    """A hog.py of 1 MiB with a forbidden list on each of its lines had 340,950 findings: the grader decoded
    them all (175 MB) and kept a 14 MB answer per file in its cache. The answer lists the first 20; the
    student reads the same count of the others."""
    hog = with_piggy(tmp_path, "lists", "    " + "[0]\n    " * 5000 + "return score % 10\n")
    checked = check(hog)
    assert len(checked.found) == 20 and checked.unlisted == 4980
    assert all(each.kind == "lists" for each in checked.found)
    again = check(hog)   # from the grader's cache this time
    assert again == checked
    told = constructs.explain(PIGGY.function, PIGGY.forbidden, list(checked.found), unlisted=checked.unlisted)
    assert "(and 4999 more)" in told
    kept = list((tmp_path / "cache" / construct_check.CACHE).glob("check-*.json"))
    assert len(kept) == 1 and kept[0].stat().st_size < 4096
