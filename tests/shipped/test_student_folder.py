"""What a student sees: `python -m pytest` in their folder, with okpy-style failures."""

import os
import shutil
import subprocess
import sys

import pytest

from grader import project
from grader.spec import all_variants

VARIANTS = all_variants()


def pytest_in(folder, *args):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def student_with(tmp_path, old: str, new: str):
    """An sp19 student folder whose hog.py is the solution with ``old`` replaced by ``new``."""
    folder = tmp_path / "student"
    shutil.copytree(project.SKELETON / "sp19", folder)
    hog = (project.SOLUTION / "sp19" / "hog.py").read_text()
    (folder / "hog.py").write_text(hog.replace(old, new))
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_every_question_passes_on_the_solution_and_fails_on_the_skeleton(variant):
    questions = len(variant.questions)
    checks = sum(bool(question.forbidden) for question in variant.questions)  # construct checks pass too
    solved = pytest_in(project.SOLUTION / variant.id)
    assert solved.returncode == 0 and f"{questions + checks} passed" in solved.stdout, solved.stdout
    started = pytest_in(project.SKELETON / variant.id)
    assert f"{questions} failed" in started.stdout, started.stdout


@pytest.mark.slow
def test_a_failure_reads_like_the_ok_client():
    """The case names the handout's rule and example (a student has neither the seed nor the spec),
    and pytest's summary line names the question, the case and the failing call."""
    result = pytest_in(project.SKELETON / "sp19", "-k", "q02")
    assert "1 failed" in result.stdout
    expected = """\
q02 > Case q02-2
(rules, Free Bacon, example 2)
"""
    assert expected in result.stdout
    assert "FAILED tests/q02.md::q02.md - q02 > Case q02-2: free_bacon(39)\n" in result.stdout
    assert ".txt" not in result.stdout and "specs/" not in result.stdout
    assert """\
>>> from hog import *
>>> free_bacon(39)

# Error: expected
#     4
# but got
#     Nothing: the line returned None and printed nothing

Diagnosis: free_bacon(39): Free Bacon: the opponent has 39; the smaller of 3 and 9 is 3, so rolling
  zero dice scores 4; the rules give 4, the submission returns None (the handout's rules: Free
  Bacon)

Run only this question:  python -m pytest -k q02""" in result.stdout


@pytest.mark.slow
def test_a_failing_game_names_its_first_wrong_turn_and_the_rule_deciding_it(tmp_path):
    """The folder carries no reference: its pytest replays the case on the student's own play and compares
    each turn with the rules' record of the same game, which tests/diagnoses.json carries."""
    folder = student_with(tmp_path, "if is_swap(score, opponent_score):", "if False:")
    result = pytest_in(folder, "-k", "q05")
    assert "1 failed" in result.stdout
    assert """Diagnosis: turn 1: player 0 moves with the scores at 90 and 10 and rolls 2 dice (5, 5); Pig Out: the
  dice show 5, 5, no 1 among them, so the turn scores 10; Swine Swap: after the turn the player has
  100 and the opponent 10, which share the 0 in the ones place, so the scores swap; so the scores
  after the turn are 10 and 100, but the submission's are 100 and 10 (the handout's rules: Swine
  Swap)

Run only this question:  python -m pytest -k q05""" in result.stdout
    assert "def play" not in (folder / "tests" / "diagnoses.json").read_text()


@pytest.mark.slow
def test_a_crash_shows_the_error_the_student_caused(tmp_path):
    folder = student_with(tmp_path, "total += outcome", "total += outcome / 0")
    result = pytest_in(folder, "-k", "q01")
    assert "1 failed" in result.stdout
    assert "# but got\n#     Traceback (most recent call last):\n#       ...\n#     ZeroDivisionError: " \
           "division by zero" in result.stdout
