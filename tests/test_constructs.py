"""A function the course restricts (NJU's picky_piggy: no strings, slicing, lists, list comprehensions,
indexing or for loops) fails its question when it uses one, in the grader and in the student's pytest,
with the construct and the line named."""

import os
import shutil
import subprocess
import sys

import pytest

from grader import project
from grader.grade import grade
from grader.sandbox import Limits
from grader.shipped.student.constructs import CONSTRUCTS, violations
from grader.spec import load_variant

WITH_FOR = '''def picky_piggy(score):
    """Digits of 1/21, one by one."""
    if score == 0:
        return 1
    digit, remainder = 0, 1
    for _ in range(score):
        remainder = remainder * 10
        digit, remainder = remainder // 21, remainder % 21
    return digit
'''


def _with_for_loop(folder):
    """nju21's solution with picky_piggy written with a for loop; returns the line of the loop."""
    hog = (project.SOLUTION / "nju21" / "hog.py").read_text(encoding="utf-8")
    start = hog.index("def picky_piggy(score):")
    end = hog.index("# END PROBLEM 2", start) + len("# END PROBLEM 2\n")
    text = hog[:start] + WITH_FOR + hog[end:]
    (folder / "hog.py").write_text(text, encoding="utf-8")
    return text[:text.index("    for _ in range(score):")].count("\n") + 1


@pytest.mark.parametrize("variant_id", ["nju24", "nju21"])
def test_the_reference_picky_piggy_obeys_the_course_restriction(variant_id):
    question = load_variant(variant_id).question("02")
    assert set(question.forbidden) == set(CONSTRUCTS)
    source = (project.SOLUTION / variant_id / "hog.py").read_text(encoding="utf-8")
    assert violations(source, question.function, question.forbidden) == []


def test_each_construct_is_named_with_its_line_and_docstrings_are_allowed():
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
'''
    assert violations(source, "f", CONSTRUCTS) == [
        ("strings", 4), ("slicing", 5), ("lists", 6), ("list comprehensions", 7),
        ("indexing", 8), ("for loops", 9)]
    assert violations(source, "f", ("for loops",)) == [("for loops", 9)]
    assert violations("def f(:", "f", CONSTRUCTS) == [] and violations(source, "g", CONSTRUCTS) == []


@pytest.mark.slow
def test_the_grader_fails_a_picky_piggy_with_a_for_loop_naming_the_line(tmp_path):
    line = _with_for_loop(tmp_path)
    variant = load_variant("nju21")
    result = grade(tmp_path, variant, questions=[variant.question("02"), variant.question("03")],
                   limits=Limits(case_seconds=10.0, total_seconds=60.0))
    piggy, turn = result.questions
    assert all(verdict.passed for verdict in piggy.verdicts)  # right answers, forbidden means
    assert piggy.score == 0 and turn.passed
    assert piggy.message.startswith(f"picky_piggy may not use a for loop: hog.py line {line}. "
                                    "Not allowed in picky_piggy: strings, slicing, lists")


@pytest.mark.slow
def test_the_students_pytest_fails_a_picky_piggy_with_a_for_loop_naming_the_line(tmp_path):
    folder = tmp_path / "student"
    shutil.copytree(project.SKELETON / "nju21", folder)
    line = _with_for_loop(folder)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-k", "q02"], cwd=folder,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "1 failed, 1 passed" in result.stdout, result.stdout
    assert f"picky_piggy may not use a for loop: hog.py line {line}." in result.stdout
