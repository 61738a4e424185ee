"""Grading with an imported okpy suite: okpy's scoring (points spread over scored suites, a suite lost by any
failing case), its comparison (printed lines and values, expected errors, a bare exception name), setup and
teardown around each case, a failing case shown as okpy shows it, and every result format naming the okpy
tests by their names. The submissions are the sp19 reference, with one function edited in each."""

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from grader import project
from grader.grading import okpy_grade
from grader.report import FORMATS
from grader.sandbox import Limits
from grader.spec import load_variant, okpy_folder
from tests import TESTS

REFERENCE = project.PACKAGE.parent / "solution" / "sp19" / "hog.py"
LIMITS = Limits(case_seconds=10.0, total_seconds=120.0)


@pytest.fixture(scope="module")
def suite():
    return okpy_folder.suite(okpy_folder.read(TESTS / "data" / "okpy" / "sp19"), "sp19-okpy", {}, {})


def edited(tmp_path: Path, old: str, new: str) -> Path:
    """The reference with one edit, as a student's hog.py."""
    text = REFERENCE.read_text()
    assert old in text
    path = tmp_path / "hog.py"
    path.write_text(text.replace(old, new))
    return path


def graded(path, suite, kit=False):
    return okpy_grade.grade_with(path, load_variant("sp19"), suite, kit, limits=LIMITS)


def scores(result) -> dict[str, float]:
    return {question.question.heading: question.score for question in result.questions}


def test_the_reference_earns_every_point_of_every_okpy_test(suite):
    result = graded(REFERENCE, suite)
    assert scores(result) == {f"Question {n}": points for n, points in zip(range(1, 8), (2, 1, 2, 1, 3, 2, 3))}
    assert result.score == result.max_score == 14 and result.seed is None


def test_a_test_s_points_are_spread_over_its_scored_suites_as_okpy_does(suite, tmp_path):
    """swap_strategy tests the function, not its result: Question 7's suites 2 and 3 fail, suite 1 passes."""
    result = graded(TESTS / "submissions" / "buggy" / "sp19_is_swap_function_object.py", suite)
    assert scores(result)["Question 7"] == 1.0 and result.score == 12


def test_an_expected_error_that_is_not_raised_fails_its_case_and_the_case_goes_on_after_one_that_is(suite, tmp_path):
    """take_turn(11, 0) must raise mid-case, and the prompt after it still runs; a bare ``TypeError`` expected
    matches the TypeError free_bacon('no score') raises."""
    result = graded(REFERENCE, suite)
    q03 = next(q for q in result.questions if q.question.name == "Question 3")
    assert q03.counts == (3, 3)
    path = edited(tmp_path, "    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'\n", "")
    result = graded(path, suite)
    q03 = next(q for q in result.questions if q.question.name == "Question 3")
    assert q03.score == 0 and q03.counts == (2, 3)
    text = FORMATS["text"](result)
    assert "Question 3 > Suite 1 > Case 3\n" in text
    assert "# Error: expected\n#     Traceback (most recent call last):\n#       ...\n" \
           "#     AssertionError: Cannot roll more than 10 dice.\n# but got\n" in text
    assert "Run only this question:  python3 ok -q q03 --suite 1 --case 3" in text


def test_a_failing_case_is_shown_as_okpy_shows_it_with_its_setup_and_a_hidden_one_only_counted(suite, tmp_path):
    path = edited(tmp_path, "        if outcome == 1:\n            pig_out = True\n", "")   # Pig Out never happens
    result = graded(path, suite)
    assert scores(result)["Question 1"] == 1.0   # suite 1 lost; suite 2's cases show no Pig Out
    text = FORMATS["text"](result)
    assert "Question 1 > Suite 1 > Case 1\n(tests/q01.py)\n\n>>> from hog import *\n" \
           ">>> roll_dice(2, make_test_dice(4, 6, 1))\n10\n>>> roll_dice(3, make_test_dice(4, 6, 1))\n\n" \
           "# Error: expected\n#     1\n# but got\n#     11\n" in text
    hidden = graded(edited(tmp_path, "    points = 1 if pig_out else total", "    points = 1 if pig_out else total\n"
                                                                           "    if num_rolls == 5: points += 1"),
                    suite)
    q01 = next(q for q in hidden.questions if q.question.name == "Question 1")
    assert q01.score == 1.0   # suite 2 (hidden) lost, suite 1 kept
    assert "Question 1: a hidden case failed" in FORMATS["text"](hidden)
    assert "roll_dice(5, make_test_dice(2, 3, 4))" not in FORMATS["json"](hidden)


def test_printed_lines_are_compared_and_a_prompt_that_should_show_nothing_must_not(suite, tmp_path):
    path = edited(tmp_path, 'print("Player 0 now has", score0, "and Player 1 now has", score1)',
                  'print("Player 0 has", score0, "and Player 1 now has", score1)')
    result = graded(path, suite)
    assert scores(result)["Question 6"] == 1.0
    assert "#     Player 0 now has 3 and Player 1 now has 5\n# but got\n#     Player 0 has 3 and Player 1 now " \
           "has 5\n" in FORMATS["text"](result)


def test_a_setup_that_fails_fails_every_case_of_its_suite(suite, tmp_path):
    path = edited(tmp_path, "from dice import six_sided, four_sided, make_test_dice",
                  "from dice import six_sided, four_sided\nmake_test_dice = None")
    result = graded(path, suite)
    assert scores(result)["Question 3"] == 0
    q03 = next(q for q in result.questions if q.question.name == "Question 3")
    assert q03.first_failure.got == "the setup `dice = make_test_dice(2, 4, 1)` failed: TypeError: 'NoneType' " \
                                    "object is not callable"


def test_every_result_format_names_the_okpy_tests_by_their_names(suite):
    result = graded(REFERENCE, suite)
    names = [f"Question {n}" for n in range(1, 8)]
    assert [test["name"] for test in json.loads(FORMATS["json"](result))["tests"]] == names
    assert [test["name"] for test in json.loads(FORMATS["prairielearn"](result))["tests"]] == names
    assert [case.get("name") for case in ElementTree.fromstring(FORMATS["junit"](result)).iter("testcase")] == names
    assert [line.split("  ")[0] for line in FORMATS["text"](result).splitlines()
            if line.startswith("Question ")] == names


def test_kit_and_suite_together_grade_both_in_one_result(suite):
    variant = load_variant("sp19")
    result = graded(REFERENCE, suite, kit=True)
    assert len(result.questions) == len(variant.questions) + 7
    assert result.max_score == variant.points + 14 + sum(u.question.unlock.points for u in result.unlocks)
    assert [q.question.heading for q in result.questions][-7:] == [f"Question {n}" for n in range(1, 8)]
    assert result.seed is not None
