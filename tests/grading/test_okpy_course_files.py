"""Grading with an okpy suite whose tests need the course's files, as okpy runs them in the assignment's
folder: the tests/ package's helpers and data, the course's modules beside hog.py (hog_gui.py, dice.py), setup
lines whose values okpy does not compare (importlib.reload(hog)). The course's files win over the kit's and
over a submission's; under kit+NAME the kit's own cases run with the kit's files."""

import shutil
from pathlib import Path

import pytest

from grader import project
from grader.grading import okpy_grade
from grader.report import FORMATS
from grader.sandbox import Limits
from grader.spec import load_variant, okpy_folder
from tests import TESTS

FA18 = TESTS / "data" / "okpy" / "fa18"
NJU24 = TESTS / "data" / "okpy" / "nju24"
LIMITS = Limits(case_seconds=10.0, total_seconds=120.0)


def suite_of(folder: Path, name: str = "course"):
    return okpy_folder.suite(okpy_folder.read(folder), name, {}, {})


def scores(submission: Path, variant_id: str, suite, kit: bool = False) -> dict[str, float]:
    result = okpy_grade.grade_with(submission, load_variant(variant_id), suite, kit, limits=LIMITS)
    assert result.import_error is None, result.import_error
    return {question.question.name: question.score for question in result.questions}


def reference(variant_id: str) -> Path:
    return project.SOLUTION / variant_id / "hog.py"


@pytest.mark.slow
def test_the_reference_earns_every_point_with_the_course_s_helpers_data_and_gui_module():
    """q01 imports tests.construct_check, q05 reloads hog and replays tests/play.sol through
    tests.play_utils, q05b imports hog_gui (and the course's gui_files package), q08 runs tests.check_strategy."""
    assert scores(reference("fa18"), "fa18", suite_of(FA18)) == {
        "Question 1": 2.0, "Question 5": 3.0, "Question 5b": 1.0, "Question 8": 2.0}


@pytest.mark.slow
def test_nju_s_problem_2_imports_tests_construct_check_in_its_setup():
    assert scores(reference("nju24"), "nju24", suite_of(NJU24)) == {"Problem 1": 200.0, "Problem 2": 300.0}


@pytest.mark.slow
def test_a_helper_finds_what_the_submission_gets_wrong(tmp_path):
    """The course's check_strategy and construct_check fail a strategy that returns 11 dice and a free_bacon
    written with a loop: their suites' points are lost, the others kept."""
    text = reference("fa18").read_text()
    old_bacon = "    tens, ones = score // 10 % 10, score % 10\n    return max(2 * tens - ones, 1)\n"
    assert old_bacon in text
    looped = "    for tens, ones in [(score // 10 % 10, score % 10)]:\n" \
             "        return max(2 * tens - ones, 1)\n"
    (tmp_path / "hog.py").write_text(text.replace(old_bacon, looped).replace(
        "def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):\n",
        "def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):\n"
        "    if score == 99:\n        return 11\n"))
    result = okpy_grade.grade_with(tmp_path / "hog.py", load_variant("fa18"), suite_of(FA18), False, limits=LIMITS)
    got = {question.question.name: question.score for question in result.questions}
    assert got == {"Question 1": 1.0, "Question 5": 3.0, "Question 5b": 1.0, "Question 8": 0.0}
    report = FORMATS["text"](result)
    assert "free_bacon should not use For (line " in report
    assert "AssertionError: strategy(99, 0) returned 11 (invalid number of rolls)" in report


def course_copy(tmp_path: Path, folder: Path = FA18) -> Path:
    copy = tmp_path / "okpy"
    shutil.copytree(folder, copy)
    return copy


def with_case(folder: Path, test: str, setup: str, code: str, want: str) -> None:
    """Add to ``test`` a scored suite of one case."""
    path = folder / "tests" / f"{test}.py"
    text = path.read_text()
    suite = (f"    {{\n      'cases': [{{'code': {('>>> ' + code + chr(10) + want)!r}, 'hidden': False, "
             f"'locked': False}}],\n      'scored': True,\n      'setup': {setup!r},\n      'teardown': '',\n"
             f"      'type': 'doctest'\n    }}\n  ]\n}}\n")
    assert text.endswith("    }\n  ]\n}\n")
    path.write_text(text[:-len("  ]\n}\n")].rstrip("\n") + ",\n" + suite)


@pytest.mark.slow
def test_the_course_s_dice_py_wins_over_the_kit_s_but_not_under_the_kit_s_own_cases(tmp_path):
    folder = course_copy(tmp_path)
    dice = folder / "dice.py"
    dice.write_text(dice.read_text() + "\nCOURSE = 'the course dice'\n")
    with_case(folder, "q05b", ">>> import dice", "dice.COURSE", "'the course dice'")
    suite = suite_of(folder)
    assert scores(reference("fa18"), "fa18", suite)["Question 5b"] == 1.0
    both = okpy_grade.grade_with(reference("fa18"), load_variant("fa18"), suite, True, limits=LIMITS)
    assert both.score == both.max_score   # the kit's own cases, with the kit's dice.py, all pass too


@pytest.mark.slow
def test_the_course_s_tests_package_wins_over_one_in_the_submission_and_the_submission_s_helper_is_seen(tmp_path):
    """A submission folder bringing a tests/check_strategy.py that checks nothing still has its invalid strategy
    found by the course's; its own helper module, imported by its hog.py, is there as okpy would see it."""
    submission = tmp_path / "submission"
    (submission / "tests").mkdir(parents=True)
    (submission / "tests" / "__init__.py").write_text("")
    (submission / "tests" / "check_strategy.py").write_text("def check_strategy(strategy, goal=100):\n    pass\n")
    (submission / "strategies.py").write_text("def eleven(score, opponent_score):\n    return 11\n")
    text = reference("fa18").read_text()
    (submission / "hog.py").write_text(text.replace(
        "def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):\n",
        "from strategies import eleven\n\n\ndef bacon_strategy(score, opponent_score, margin=8, num_rolls=4):\n"
        "    if score == 99:\n        return eleven(score, opponent_score)\n"))
    assert scores(submission, "fa18", suite_of(FA18))["Question 8"] == 0.0


@pytest.mark.slow
def test_a_setup_that_raises_fails_its_suite_and_one_whose_value_okpy_ignores_does_not(tmp_path):
    folder = course_copy(tmp_path)
    with_case(folder, "q08", ">>> from hog import *\n>>> import tests.no_such_helper", "1 + 1", "2")
    with_case(folder, "q01", ">>> import hog, importlib\n>>> importlib.reload(hog)\n>>> hog.GOAL_SCORE", "1 + 1", "2")
    result = okpy_grade.grade_with(reference("fa18"), load_variant("fa18"), suite_of(folder), False, limits=LIMITS)
    got = {question.question.name: question.score for question in result.questions}
    assert got["Question 1"] == 2.0 and got["Question 8"] == 1.0
    q08 = next(question for question in result.questions if question.question.name == "Question 8")
    assert "ModuleNotFoundError: No module named 'tests.no_such_helper'" in q08.first_failure.got


@pytest.mark.slow
def test_the_course_s_files_cannot_be_changed_by_the_submission(tmp_path):
    """A hog.py that empties tests/play.sol (the recorded games) and removes a helper as it is imported is
    refused both: the course's files are there as imported when the cases run."""
    folder = course_copy(tmp_path)
    with_case(folder, "q05b", "", "len(open('tests/play.sol').read().splitlines())", "7")
    tamper = ("import os\nfor attempt in (lambda: open('tests/play.sol', 'w').write(''),\n"
              "                lambda: os.remove('tests/check_strategy.py')):\n"
              "    try:\n        attempt()\n    except OSError:\n        pass\n")
    (tmp_path / "hog.py").write_text(tamper + reference("fa18").read_text())
    assert scores(tmp_path / "hog.py", "fa18", suite_of(folder)) == {
        "Question 1": 2.0, "Question 5": 3.0, "Question 5b": 1.0, "Question 8": 2.0}
