"""A submitted hog.py is parsed outside the sandbox only within bounds, and what it costs is the submission's.

The construct check (nju24, nju21 ``picky_piggy``) reads no hog.py over 1 MiB and parses the rest in an
interpreter of its own under the sandbox's memory and CPU limits; a hog.py it cannot check earns nothing for
the question, with why, never a "grader failed". The progress file and the variant's title line are read
with bounds too, and a batch digests a submission in pieces.
"""

from __future__ import annotations

import os
import resource
import shutil
import time
from pathlib import Path

import pytest

from grader.cases import unlocking
from grader.classroom import submissions
from grader.grading import construct_check, construct_checker
from grader.commands.grading import declared_variant
from grader.errors import UsageError
from grader.grading.grade import grade
from grader.sandbox import Limits
from grader.shipped.student import unlock
from grader.spec import load_variant
from tests import ROOT

REFERENCE = ROOT / "solution" / "nju24" / "hog.py"
PIGGY = next(q for q in load_variant("nju24").questions if q.forbidden)
SMALL = Limits(case_seconds=2.0, total_seconds=60.0)


def check(hog: Path, limits: Limits = SMALL) -> construct_check.Checked:
    return construct_check.check(hog, PIGGY.function, PIGGY.forbidden, limits)


def padded(path: Path, assignments: int) -> Path:
    """The reference with many short assignments after it: cheap to write, costly to parse."""
    path.write_text(REFERENCE.read_text() + "".join(f"a{n} = {n}\n" for n in range(assignments)))
    return path


def test_the_reference_passes_and_a_for_loop_is_found_with_its_line(tmp_path):
    assert check(REFERENCE) == construct_check.Checked()
    hog = tmp_path / "hog.py"
    hog.write_text(REFERENCE.read_text() + f"\n\ndef {PIGGY.function}(score):\n    for x in score:\n"
                   "        pass\n    return 0\n")
    line = hog.read_text().splitlines().index("    for x in score:") + 1
    assert [(found.kind, found.line) for found in check(hog).found] == [("for loops", line)]


def started_checks(monkeypatch) -> list:
    """The checks asked of the check's interpreter from now on (each recorded, then asked)."""
    started, ask = [], construct_checker.Checker.ask
    monkeypatch.setattr(construct_checker.Checker, "ask", lambda self, *a: started.append(a) or ask(self, *a))
    return started


def test_a_hog_py_checked_before_is_not_parsed_again_and_a_changed_one_is(tmp_path, monkeypatch):
    monkeypatch.setattr(construct_check.project, "CACHE", tmp_path / "cache")
    hog = tmp_path / "hog.py"
    hog.write_text(REFERENCE.read_text() + f"\n\ndef {PIGGY.function}(score):\n    return str(score)[0]\n")
    started = started_checks(monkeypatch)
    first = check(hog)
    assert [found.kind for found in first.found] == ["strings", "indexing"] and len(started) == 1
    assert check(hog) == first and len(started) == 1            # the same bytes: the kept answer
    assert check(hog, Limits(case_seconds=3.0)) == first and len(started) == 2   # other limits: checked again
    hog.write_text(hog.read_text().replace("str(score)[0]", "score % 10"))
    assert check(hog) == construct_check.Checked() and len(started) == 3


@pytest.mark.slow
def test_a_check_that_ran_out_of_a_limit_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(construct_check.project, "CACHE", tmp_path / "cache")
    hog = tmp_path / "hog.py"
    hog.write_text(REFERENCE.read_text() + "\nx = 1" + "+1" * 20_000 + "\n")
    started = started_checks(monkeypatch)
    assert check(hog).problem is not None and check(hog).problem is not None and len(started) == 2


def test_a_hog_py_over_one_mib_is_not_read_and_the_student_is_told_its_size(tmp_path):
    hog = padded(tmp_path / "hog.py", 120_000)
    size = hog.stat().st_size
    assert size > construct_check.MAX_SOURCE_BYTES
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    checked = check(hog)
    assert time.perf_counter() - started < 0.5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 16 * 1024   # KiB: nothing parsed here
    assert checked.problem == (f"{PIGGY.function} earns nothing: hog.py is {size:,} bytes, and the grader checks "
                               f"{PIGGY.function} for forbidden constructs only in a hog.py of at most 1,048,576 "
                               "bytes (1 MiB); remove what the project does not need")


@pytest.mark.slow
def test_a_parse_that_needs_more_than_the_sandboxs_memory_is_the_submissions(tmp_path):
    hog = padded(tmp_path / "hog.py", 60_000)          # under 1 MiB, about 150 MiB to parse
    checked = check(hog, Limits(case_seconds=2.0, memory_bytes=96 << 20))
    assert checked.problem == (f"{PIGGY.function} earns nothing: checking hog.py for forbidden constructs took "
                               "more than 96 MiB of memory (the sandbox's limit); hog.py is too large or too "
                               "deeply nested")
    assert check(hog).problem is None                  # within the usual 1 GiB it is checked


def test_source_nested_past_the_parsers_depth_is_the_submissions_not_a_grader_fault(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text(REFERENCE.read_text() + "\nx = 1" + "+1" * 20_000 + "\n")
    assert "the parser's nesting depth" in check(hog).problem


def test_a_fifo_or_a_link_named_hog_py_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo" / "hog.py"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    assert "not a regular file" in check(fifo).problem
    link = tmp_path / "link" / "hog.py"
    link.parent.mkdir()
    link.symlink_to(REFERENCE)
    assert "a link" in check(link).problem
    with pytest.raises(UsageError, match="not a regular file"):
        declared_variant(fifo)


def test_the_title_line_is_found_without_reading_a_long_first_line_whole(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text(REFERENCE.read_text().splitlines()[0] + "\n" + "x" * (8 << 20) + "\n")
    assert declared_variant(hog) == "nju24"


@pytest.mark.parametrize("make", ["fifo", "device", "huge", "deep", "link"])
def test_a_progress_file_the_grader_cannot_read_boundedly_counts_as_none(tmp_path, make):
    path = tmp_path / unlock.PROGRESS
    if make == "fifo":
        os.mkfifo(path)
    elif make == "device":
        path.symlink_to("/dev/zero")
    elif make == "huge":
        path.write_text('{"answers": {"x": ["' + "1" * (unlock.MAX_PROGRESS_BYTES + 1) + '"]}}')
    elif make == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:
        (tmp_path / "elsewhere.json").write_text('{"answers": {}}')
        path.symlink_to(tmp_path / "elsewhere.json")
    assert unlock.load_progress(tmp_path) == {}
    shutil.copy(REFERENCE, tmp_path / "hog.py")
    assert all(not status.unlocked for status in unlocking.status(tmp_path, load_variant("nju24")))


@pytest.mark.slow
def test_a_28_mb_hog_py_graded_as_nju24_is_a_clear_verdict_not_a_grader_fault(tmp_path):
    hog = padded(tmp_path / "hog.py", 1_400_000)
    assert hog.stat().st_size > 20 << 20
    result = grade(tmp_path, load_variant("nju24"), limits=Limits(case_seconds=5.0, total_seconds=60.0))
    assert result.grader_error is None
    piggy = next(q for q in result.questions if q.question.forbidden)
    assert piggy.score == 0 and "earns nothing: hog.py is" in piggy.message


def test_a_batchs_digest_of_a_folder_holding_a_fifo_does_not_wait(tmp_path):
    shutil.copy(REFERENCE, tmp_path / "hog.py")
    os.mkfifo(tmp_path / "helper.py")
    first = submissions.digest(tmp_path)
    assert first == submissions.digest(tmp_path)
    (tmp_path / "hog.py").write_text(REFERENCE.read_text() + "\n# changed\n")
    assert submissions.digest(tmp_path) != first
