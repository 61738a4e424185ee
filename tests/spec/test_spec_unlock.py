"""The spec's unlocking fields: a case's 'locked', a question's 'unlock' (concept questions, points).
A mistake is reported like every spec mistake: file:line, what, and the fix."""

import pytest

from grader import spec
from grader.spec import SpecError
from tests.spec.test_spec import GOOD

ORIGIN = '      - origin: "000_ceee3136f82db69d.txt: Free Bacon, example 1"\n'
LOCKED = GOOD.replace(ORIGIN, ORIGIN + "        locked: true\n").replace("    cases:\n", """\
    unlock:
      points: 0.5
      concepts:
        - prompt: Your opponent has 39 points. What does rolling zero dice score?
          choices: ["4", "10", "1"]
          answer: 1
    cases:
""")


def message(text: str) -> str:
    with pytest.raises(SpecError) as caught:
        spec.parse(text, "specs/demo.yaml")
    return str(caught.value)


def test_a_question_with_locked_cases_and_concept_questions_loads():
    question = spec.parse(LOCKED, "specs/demo.yaml").question("02")
    case, = question.cases
    concept, = question.unlock.concepts
    assert case.locked and question.locked and question.unlock.points == 0.5
    assert (concept.choices, concept.answer, concept.line) == (("4", "10", "1"), 1, 21)
    plain = spec.parse(GOOD, "specs/demo.yaml").question("02")
    assert not plain.locked and plain.unlock.points == 0 and not plain.cases[0].locked


@pytest.mark.parametrize("old, new, expected", [
    ("        locked: true\n", "        locked: true\n        hidden: true\n",
     "specs/demo.yaml:26: a hidden case cannot be locked (students never see hidden cases; remove 'locked' or "
     "'hidden')"),
    ("        locked: true\n", "        locked: yes please\n",
     "specs/demo.yaml:26: 'locked' in a case must be true or false, not text ('yes please')"),
    ("          1\n", "          Traceback (most recent call last):\n          ZeroDivisionError: no\n",
     "specs/demo.yaml:26: the answer of 'free_bacon(10)' cannot be typed at the unlock prompt (lock only cases "
     "whose answers are values or printed lines)"),
    ("          1\n", "          1.00\n",
     "specs/demo.yaml:26: '1.00' is not written the way Python shows it (it shows 1.0) (write the answer as the "
     "call shows it)"),
    ("          >>> free_bacon(10)\n          1\n", "          >>> x = free_bacon(10)\n",
     "specs/demo.yaml:26: a locked case has nothing to predict (lock a case whose session shows an answer, or "
     "remove 'locked')"),
    ("          answer: 1\n", "          answer: 4\n",
     "specs/demo.yaml:23: answer 4 is not one of the choices (give the number of the right choice, 1 to 3)"),
    ("          answer: 1\n", "          answer: \"4\"\n",
     "specs/demo.yaml:23: 'answer' in a concept question must be a whole number, not text ('4')"),
    ('          choices: ["4", "10", "1"]\n', '          choices: ["4"]\n',
     "specs/demo.yaml:22: a concept question needs at least two choices (list the right answer and at least one "
     "wrong one)"),
    ("        - prompt: Your", "        - promt: Your",
     "specs/demo.yaml:21: unknown key 'promt' in a concept question (did you mean 'prompt'?)"),
    ("      points: 0.5\n", "      points: -1\n",
     "specs/demo.yaml:19: unlock points cannot be negative"),
    ("      points: 0.5\n", "      pionts: 1\n",
     "specs/demo.yaml:19: unknown key 'pionts' in 'unlock' (did you mean 'points'?)"),
])
def test_each_unlocking_mistake_names_file_line_and_fix(old, new, expected):
    assert old in LOCKED
    assert message(LOCKED.replace(old, new)) == expected


def test_unlock_with_nothing_to_unlock_says_what_to_add():
    text = GOOD.replace("    cases:\n", "    unlock:\n      points: 1\n    cases:\n")
    assert message(text) == ("specs/demo.yaml:19: question 02 has 'unlock' but nothing to unlock "
                             "(add 'concepts' or mark a public case 'locked: true')")


def test_unlock_points_count_in_the_variant_total():
    assert spec.parse(LOCKED, "specs/demo.yaml").points == 1.5
