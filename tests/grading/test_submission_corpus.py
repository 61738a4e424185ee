"""Real students' choices and real students' bugs: a submission that makes a choice the rules leave
open gets full marks; one with a real bug loses exactly the question the bug is in.

Each file in tests/submissions/allowed/ and tests/submissions/buggy/ is the reference solution of the
variant its name starts with, edited the way students' code was; its first lines say what it does."""

from pathlib import Path

import pytest

from grader.grading.grade import grade
from grader.sandbox import Limits
from grader.spec import load_variant
from tests import TESTS

SUBMISSIONS = TESTS / "submissions"
LIMITS = Limits(case_seconds=10.0, total_seconds=120.0)

BUGS = {
    "fa19_commentary_before_swap.py": ["06"],
    "fa19_turn_at_goal.py": ["05a"],
    "fa19_play_ignores_feral_hogs.py": ["05b"],
    "sp19_is_swap_function_object.py": ["11"],
    "sp19_record_stores_score.py": ["07"],
    "nju24_is_always_roll_ignores_goal.py": ["07"],
    "fa18_more_than_margin.py": ["10"],
}


def _lost(path: Path) -> list[str]:
    result = grade(path, load_variant(path.name.split("_")[0]), limits=LIMITS)
    assert result.import_error is None and result.grader_error is None, path.name
    return [question.question.number for question in result.questions if not question.passed]


@pytest.mark.slow
def test_every_choice_the_rules_leave_open_gets_full_marks():
    """Both orders of max_scoring trials, both readings of equal-score swaps and of nju21's swap gain,
    a file written on the course's skeleton (importing ucb), a final strategy that samples dice."""
    allowed = sorted((SUBMISSIONS / "allowed").glob("*.py"))
    assert len(allowed) >= 8
    assert {path.name: _lost(path) for path in allowed} == {path.name: [] for path in allowed}


@pytest.mark.slow
def test_each_real_bug_loses_exactly_its_question():
    buggy = {path.name: path for path in (SUBMISSIONS / "buggy").glob("*.py")}
    assert set(buggy) == set(BUGS)
    assert {name: _lost(path) for name, path in sorted(buggy.items())} == BUGS


def test_each_corpus_file_says_what_it_does_and_what_it_earns():
    for path in sorted((SUBMISSIONS / "allowed").glob("*.py")) + sorted((SUBMISSIONS / "buggy").glob("*.py")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"# {path.name.split('_')[0]}, "), path.name
        assert ("full marks" in first) == (path.parent.name == "allowed"), path.name
