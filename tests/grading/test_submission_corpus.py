"""Real students' choices and real students' bugs: a submission that makes a choice the rules leave
open gets full marks; one with a real bug loses exactly the question the bug is in.

Each file in tests/submissions/allowed/ and tests/submissions/buggy/ is the reference solution of the
variant its name starts with, edited the way students' code was; its first lines say what it does."""

import random
import shutil
from pathlib import Path

import pytest

from grader import cases, project
from grader.grading.grade import grade
from grader.sandbox import Limits
from grader.spec import load_variant
from tests import TESTS
from tests.sessions import load_folder, run_case

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
    "fa18_announces_eleven_at_eleven.py": ["07"],
    "sp19_bacon_strategy_recites_77.py": ["10"],
    "nju24_is_always_roll_true_at_goal_99.py": ["07"],
}
HARD_CODED = ("fa18_announces_eleven_at_eleven.py", "sp19_bacon_strategy_recites_77.py",
              "nju24_is_always_roll_true_at_goal_99.py")
"""Bugs that recite what a public case shows: each passes every public case."""
SEEDS = random.Random("seeds of grading runs").sample(range(10**9), 100)


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


def _fails(variant, cases_of_question, modules) -> bool:
    return any(run_case(variant, case, modules) for case in cases_of_question)


@pytest.mark.slow
@pytest.mark.parametrize("name", HARD_CODED)
def test_a_bug_that_recites_a_public_case_loses_its_question_on_every_seed(tmp_path, name):
    """Run in this process on the cases of 100 grading runs (the kit's own test: the grader never
    imports a submission). The drawn cases alone miss it on some seeds; the probes of the public cases,
    in every run, do not."""
    shutil.copy(SUBMISSIONS / "buggy" / name, tmp_path / "hog.py")
    shutil.copy(project.SOLUTION / name.split("_")[0] / "dice.py", tmp_path / "dice.py")
    modules = load_folder(tmp_path)
    variant = load_variant(name.split("_")[0])
    (number,) = BUGS[name]
    assert not _fails(variant, [case for case in variant.question(number).cases if not case.hidden], modules)
    drawn_alone = probed = 0
    for seed in SEEDS:
        hidden = cases.question_hidden_cases(variant, number, seed)
        drawn = [case for case in hidden if case.origin == cases.GENERATED]
        if _fails(variant, drawn, modules):
            drawn_alone += 1
            probed += 1
        elif _fails(variant, [case for case in hidden if case not in drawn], modules):
            probed += 1
    print(f"{name}: question {number} fails on {probed} of {len(SEEDS)} seeds "
          f"({drawn_alone} of {len(SEEDS)} with the drawn cases alone)")
    assert probed == len(SEEDS)


@pytest.mark.slow
def test_a_bug_that_recites_a_public_case_loses_exactly_its_question_through_the_grader():
    for name in HARD_CODED:
        for seed in SEEDS[:3]:
            path = SUBMISSIONS / "buggy" / name
            result = grade(path, load_variant(name.split("_")[0]), limits=LIMITS, seed=seed)
            assert result.import_error is None and result.grader_error is None, (name, seed)
            assert [q.question.number for q in result.questions if not q.passed] == BUGS[name], (name, seed)
