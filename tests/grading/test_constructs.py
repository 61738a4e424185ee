"""A function the course restricts (NJU's picky_piggy: nothing that can make digits without arithmetic:
text, indexing, slicing, lists, comprehensions, for loops) fails its question when it uses one, in the
grader and in the student's pytest, with the construct, the line and what to use instead named; a
docstring or an assert's message is not such a construct."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import project
from grader.grading.grade import grade
from grader.sandbox import Limits
from grader.shipped.student.constructs import CONSTRUCTS, explain, violations
from grader.spec import load_variant
from tests import TESTS

@pytest.mark.parametrize("variant_id", ["nju24", "nju21"])
def test_the_reference_picky_piggy_obeys_the_course_restriction(variant_id):
    question = load_variant(variant_id).question("02")
    assert set(question.forbidden) == set(CONSTRUCTS)
    source = (project.SOLUTION / variant_id / "hog.py").read_text(encoding="utf-8")
    assert violations(source, question.function, question.forbidden) == []


STUDENT = TESTS / "submissions" / "allowed" / "nju24_picky_piggy_assert_message.py"
# picky_piggy written in ways that get the digits without arithmetic: each loses question 2.
BY_TEXT = {   # construct named first: (body, which line of it)
    "a str() call": ("    tens = int(str(opponent_score // 10 % 10)[0])\n"
                     "    return 2 * abs(tens - opponent_score % 10) + 1\n", 0),
    "an f-string": ("    tens, ones = divmod(int(f\"{opponent_score % 100}\"), 10)\n"
                    "    return 2 * abs(tens - ones) + 1\n", 0),
    "a for loop": ("    tens, ones = 0, 0\n"
                   "    for _ in range(2):\n"
                   "        tens, ones, opponent_score = ones, opponent_score % 10, opponent_score // 10\n"
                   "    return 2 * abs(tens - ones) + 1\n", 1),
}


def _picky(folder: Path, body: str) -> int:
    """nju24's reference with picky_piggy's body replaced; returns the body's first line."""
    hog = (project.SOLUTION / "nju24" / "hog.py").read_text(encoding="utf-8")
    start = hog.index("    # BEGIN PROBLEM 2\n") + len("    # BEGIN PROBLEM 2\n")
    end = hog.index("    # END PROBLEM 2", start)
    (folder / "hog.py").write_text(hog[:start] + body + hog[end:], encoding="utf-8")
    return hog[:start].count("\n") + 1


def test_each_construct_that_can_make_digits_is_named_with_its_line():
    source = '''def f(n):
    """A docstring is fine."""
    "*** YOUR CODE HERE ***"
    a = str(n)
    b = a[1:]
    c = [1, 2]
    d = [x for x in c]
    e = c[0]
    for x in c:
        pass
    g = f"{n}"
    h = "12"
    i = max(d for d in range(3))
    j = n.__format__("")
'''
    assert violations(source, "f", CONSTRUCTS) == [
        ("strings", 4, "a str() call"), ("slicing", 5, "slicing (x[a:b])"), ("lists", 6, "a list"),
        ("list comprehensions", 7, "a list comprehension"), ("indexing", 8, "indexing (x[i])"),
        ("for loops", 9, "a for loop"), ("strings", 11, "an f-string"),
        ("strings", 12, "a string literal used as a value"),
        ("for loops", 13, "a generator expression (its for is a loop)"),
        ("strings", 14, "a __format__() call")]
    assert violations(source, "f", ("for loops",))[0] == ("for loops", 9, "a for loop")
    assert violations("def f(:", "f", CONSTRUCTS) == [] and violations(source, "g", CONSTRUCTS) == []


def test_docstrings_and_plain_assert_and_raise_messages_are_allowed_but_not_digits_in_them():
    source = '''def f(n):
    """Docstring."""
    assert n >= 0, "Opponent's score must be non-negative."
    if n > 99:
        raise ValueError("at most " "two digits")
    assert n < 100, f"{n} has too many digits"
    raise ValueError(str(n))
'''
    assert violations(source, "f", CONSTRUCTS) == [("strings", 6, "an f-string"), ("strings", 7, "a str() call")]


def test_the_message_names_the_construct_the_line_and_what_to_use_instead():
    found = violations("def picky_piggy(n):\n    return int(str(n)[0])\n", "picky_piggy", CONSTRUCTS)
    assert explain("picky_piggy", CONSTRUCTS, found) == (
        "picky_piggy may not use a str() call: hog.py line 2 (and 1 more). Instead, take the digits with "
        "arithmetic: n % 10 is the last digit, n // 10 the number without it. Not allowed in picky_piggy: "
        "strings, slicing, lists, list comprehensions, indexing, for loops (docstrings and the messages of "
        "assert and raise are fine).")


def _graded_piggy(submission: Path):
    variant = load_variant("nju24")
    result = grade(submission, variant, questions=[variant.question("02"), variant.question("03")],
                   limits=Limits(case_seconds=10.0, total_seconds=60.0))
    return result.questions


@pytest.mark.slow
def test_the_grader_gives_question_2_to_the_nju_student_whose_assert_has_a_message():
    piggy, turn = _graded_piggy(STUDENT)
    assert piggy.passed and not piggy.message and turn.passed


@pytest.mark.slow
@pytest.mark.parametrize("construct", sorted(BY_TEXT))
def test_the_grader_fails_a_picky_piggy_that_gets_digits_from_text_or_a_loop(tmp_path, construct):
    body, offset = BY_TEXT[construct]
    line = _picky(tmp_path, body) + offset
    piggy, turn = _graded_piggy(tmp_path)
    assert all(verdict.passed for verdict in piggy.verdicts)  # right answers, forbidden means
    assert piggy.score == 0 and turn.passed
    assert piggy.message.startswith(f"picky_piggy may not use {construct}: hog.py line {line}"), piggy.message
    assert "Not allowed in picky_piggy: strings, slicing, lists" in piggy.message


def _student_pytest(folder: Path):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-k", "q02", "-p", "no:cacheprovider"],
                          cwd=folder, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_the_students_pytest_says_the_same_for_each_way(tmp_path):
    folder = tmp_path / "student"
    shutil.copytree(project.SKELETON / "nju24", folder)
    shutil.copy(STUDENT, folder / "hog.py")
    result = _student_pytest(folder)
    assert result.returncode == 0 and "may not use" not in result.stdout, result.stdout
    for construct, (body, _line) in BY_TEXT.items():
        _picky(folder, body)
        result = _student_pytest(folder)
        assert result.returncode == 1 and f"picky_piggy may not use {construct}: hog.py line" in result.stdout, \
            result.stdout
