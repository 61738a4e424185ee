"""What a graded submission's reports say of a failing case: its diagnosis, found by running the failing call
once more in the sandbox; a hidden case's redacted where a student reads it, whole in the instructor's record."""

import json

import pytest

from grader.grading import grade
from grader.report import FORMATS
from grader.report.instructor import record
from grader.spec import load_variant
from tests.grading.test_grade import FAST, submit

NEVER_SWAPS = ("if is_swap(score, opponent_score):", "if False:")


def graded(tmp_path, old, new, **options):
    return grade.grade(submit(tmp_path, "sp19", old, new), load_variant("sp19"), limits=FAST, **options)


def entry(results: dict, number: str) -> dict:
    return next(test for test in results["tests"] if test["number"] == number)


@pytest.mark.slow
def test_a_play_that_never_swaps_shows_its_first_wrong_turn_in_every_format(tmp_path):
    result = graded(tmp_path, *NEVER_SWAPS)
    shown = json.loads(FORMATS["json"](result))
    assert entry(shown, "5")["diagnosis"] == {
        "text": "turn 6: player 1 moves with the scores at 12 and 12 and rolls 1 dice (6); Pig Out: the dice show 6, "
                "no 1 among them, so the turn scores 6; Swine Swap: after the turn the player has 18 and the "
                "opponent 12, which share the 1 in the tens place, so the scores swap; so the scores after the turn "
                "are 18 and 12, but the submission's are 12 and 18",
        "rules": ["Swine Swap"], "turn": 6, "player": 1, "before": [12, 12], "rolled": 1, "outcomes": [6],
        "want": [18, 12], "got": [12, 18]}
    assert "Diagnosis: turn 6: player 1 moves" in FORMATS["text"](result)
    assert json.loads(FORMATS["prairielearn"](result))["tests"][4]["diagnosis"]["turn"] == 6
    assert "diagnosis" not in entry(shown, "1")   # a question that passed has none


@pytest.mark.slow
def test_a_hidden_case_reaches_the_student_redacted_and_the_instructor_whole(tmp_path):
    result = graded(tmp_path, "    return 1 + min(tens, ones)", "    return 1 + min(tens, ones) + (score == 73)")
    shown = entry(json.loads(FORMATS["json"](result)), "2")
    assert shown["diagnosis"] == {"text": "a hidden case of zero_dice: the first wrong call is one where Free Bacon "
                                          "applies", "rules": ["Free Bacon"]}
    assert "73" not in shown["output"]
    kept = [case for question in record(result)["questions"] if question["number"] == "2" for case in question["failed"]]
    assert kept[0]["diagnosis"]["text"].startswith("free_bacon(73): Free Bacon: the opponent has 73; the smaller "
                                                   "of 7 and 3 is 3, so rolling zero dice scores 4")


@pytest.mark.slow
def test_no_diagnoses_shows_the_failing_case_alone(tmp_path):
    result = graded(tmp_path, *NEVER_SWAPS, diagnoses=False)
    shown = json.loads(FORMATS["json"](result))
    assert not any("diagnosis" in test for test in shown["tests"])
    assert "Diagnosis:" not in FORMATS["text"](result)


@pytest.mark.slow
def test_a_play_that_never_ends_is_told_so_and_no_rule_is_blamed(tmp_path):
    result = graded(tmp_path, "    # BEGIN PROBLEM 5\n", "    # BEGIN PROBLEM 5\n    while True:\n        pass\n")
    found = result.questions[4].first_failure.diagnosis
    assert found.text.startswith("play did not finish: it ran out of time") and found.rules == ()
