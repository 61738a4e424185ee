"""A broken spec is reported as 'specs/<id>.yaml:LINE: what (how to fix)', never a traceback."""

import subprocess
import sys
import textwrap

import pytest

from grader import spec
from grader.spec import SpecError

GOOD = textwrap.dedent("""\
    id: demo
    title: Demo rules
    course: A course
    seed: 000_ceee3136f82db69d.txt
    phases:
      - number: 1
        title: Simulator
    rules:
      - name: Free Bacon
        summary: Rolling zero dice scores something.
    questions:
      - number: "02"
        role: zero_dice
        function: free_bacon
        title: Free Bacon
        phase: 1
        points: 1
        cases:
          - origin: "000_ceee3136f82db69d.txt: Free Bacon, example 1"
            session: |
              >>> free_bacon(10)
              1
    """)


def broken(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


def message(text: str) -> str:
    with pytest.raises(SpecError) as caught:
        spec.parse(text, "specs/demo.yaml")
    return str(caught.value)


def test_a_good_spec_loads_into_typed_models():
    variant = spec.parse(GOOD, "specs/demo.yaml")
    case, = variant.cases
    assert (variant.id, variant.goal, variant.baseline) == ("demo", 100, 4)
    assert case.id == "demo-q02-1" and case.where == "specs/demo.yaml:19"
    assert (case.rule, case.example) == ("Free Bacon", 1)
    assert case.steps[0].source == "free_bacon(10)\n" and case.steps[0].want == "1\n"


@pytest.mark.parametrize("old, new, expected", [
    ("    phase: 1\n", "    phase: 1\n    pionts: 2\n",
     "specs/demo.yaml:17: unknown key 'pionts' in a question (did you mean 'points'?)"),
    ("title: Demo rules\n", "",
     "specs/demo.yaml:1: the spec is missing 'title' (add 'title:' (text))"),
    ("    points: 1\n", "    points: one\n",
     "specs/demo.yaml:17: 'points' in a question must be a number, not text ('one')"),
    ('  - number: "02"\n', "  - number: 2\n",
     "specs/demo.yaml:12: 'number' in a question must be text, not a whole number (2)"
     " (quote numbers that are names, e.g. number: \"05\")"),
    ("    role: zero_dice\n", "    role: zero_die\n",
     "specs/demo.yaml:13: unknown role 'zero_die' (did you mean 'zero_dice'?)"),
    ("    phase: 1\n    points", "    phase: 4\n    points",
     "specs/demo.yaml:16: phase 4 is not listed under 'phases' (use one of [1])"),
    ("Free Bacon, example 1", "Free Bacon example 1",
     "specs/demo.yaml:19: origin '000_ceee3136f82db69d.txt: Free Bacon example 1' is not understood"
     " (write '000_ceee3136f82db69d.txt: <rule>, example <n>' or 'added')"),
    ("Free Bacon, example 1", "Swine Swap, example 1",
     "specs/demo.yaml:19: origin names rule 'Swine Swap', which is not under 'rules' (use one of: Free Bacon)"),
    ('"000_ceee3136f82db69d.txt: Free', '"001_9244f782b1706e3a.txt: Free',
     "specs/demo.yaml:19: origin names seed '001_9244f782b1706e3a.txt', but this variant's seed is"
     " '000_ceee3136f82db69d.txt' (a variant's examples come from its own seed)"),
    ("          >>> free_bacon(10)\n", "          free_bacon(10)\n",
     "specs/demo.yaml:20: the session has no '>>> ' line (add at least one '>>> call' line)"),
    ("    function: free_bacon\n", "    function: free bacon\n",
     "specs/demo.yaml:14: 'free bacon' is not a Python function name"),
    ("          >>> free_bacon(10)\n", "          >>> free_bacon(10\n",
     "specs/demo.yaml:21: 'free_bacon(10' is not valid Python: '(' was never closed"
     " (fix the call; every '>>> ' line must run as typed)"),
])
def test_each_mistake_names_file_line_and_fix(old, new, expected):
    assert message(broken(old, new)) == expected


def test_a_rule_names_the_feature_it_adds_and_a_misspelt_one_is_caught():
    assert spec.parse(GOOD, "specs/demo.yaml").features == frozenset()
    with_feature = broken("    summary: Rolling zero dice scores something.\n",
                          "    summary: Rolling zero dice scores something.\n    feature: parity_bonus\n")
    assert spec.parse(with_feature, "specs/demo.yaml").features == {"parity_bonus"}
    assert message(with_feature.replace("parity_bonus", "parity_bonsu")) == (
        "specs/demo.yaml:11: unknown feature 'parity_bonsu' (did you mean 'parity_bonus'?)")


def test_the_two_feral_hogs_rules_are_two_features():
    assert spec.load_variant("nju21").features == {"parity_bonus"}
    assert spec.load_variant("fa19").features == {"dice_count_bonus"}
    assert all(not spec.load_variant(v).features for v in ("sp19", "nju24", "fa18"))


def test_a_second_question_on_the_same_function_says_what_it_adds():
    second = GOOD[GOOD.index('  - number: "02"'):].replace('"02"', '"03"').replace("zero_dice", "take_turn")
    assert message(GOOD + second) == ("specs/demo.yaml:25: question 03 grades 'free_bacon' like question 02 "
                                      "(give it a 'task' saying what this question adds)")
    with_task = second.replace("    title: Free Bacon\n", "    title: Free Bacon\n    task: Do more.\n")
    assert spec.parse(GOOD + with_task, "specs/demo.yaml").question("03").task == "Do more."


def test_yaml_syntax_errors_name_the_line():
    text = broken("    title: Free Bacon\n", "    title: [Free Bacon\n")
    assert message(text).startswith("specs/demo.yaml:16: YAML syntax error:")


def test_duplicate_keys_and_questions_are_rejected():
    assert message(broken("    points: 1\n", "    points: 1\n    points: 2\n")) == \
        "specs/demo.yaml:18: duplicate key 'points' (keep one of them)"
    question = GOOD[GOOD.index('  - number: "02"'):]
    assert "question 02 appears twice" in message(GOOD + question)


def test_an_empty_spec_and_a_wrong_file_name_are_explained(tmp_path):
    assert message("") == "specs/demo.yaml:1: the spec is empty (start from an existing spec in specs/)"
    path = tmp_path / "other.yaml"
    path.write_text(GOOD)
    with pytest.raises(SpecError, match="id 'demo' does not match the file name"):
        spec.load(path)


def test_unknown_variant_suggests_the_closest():
    with pytest.raises(SpecError, match=r"no variant 'sp91' \(did you mean 'sp19'\?\)"):
        spec.load_variant("sp91")


@pytest.mark.slow
def test_the_command_line_reports_a_broken_spec_without_traceback(tmp_path):
    (tmp_path / "specs").mkdir()
    (tmp_path / "hog-course.toml").write_text("")
    (tmp_path / "specs" / "demo.yaml").write_text(broken("    points: 1\n", "    points: [1\n"))
    result = subprocess.run([sys.executable, "-m", "grader.cli", "cases", "demo"], capture_output=True,
                            text=True, env={"HOG_COURSE": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2
    assert result.stderr.startswith("Error: specs/demo.yaml:18: YAML syntax error")
    assert "Traceback" not in result.stderr


def test_every_shipped_spec_is_valid():
    assert spec.variant_ids() == ["fa18", "fa19", "nju21", "nju24", "sp19"]
    for variant in spec.all_variants():
        assert variant.questions and all(question.cases for question in variant.questions)


FINAL = GOOD.replace("    role: zero_dice\n", "    role: final_strategy\n").replace(
    "    points: 1\n", "    points: 3\n    thresholds:\n      - win_rate: 0.55\n        points: 1\n"
    "      - win_rate: 0.6\n        points: 3\n")


@pytest.mark.parametrize("old, new, expected", [
    ("win_rate: 0.55", "win_rate: 55", "specs/demo.yaml:19: win_rate 55 is not a probability"
                                        " (write it as a number from 0 to 1, e.g. 0.55)"),
    ("        points: 3\n", "        points: 4\n", "specs/demo.yaml:22: a threshold gives 4 points, but the "
                                                   "question is worth 3"),
    ("win_rate: 0.6", "win_rate: 0.5", "specs/demo.yaml:21: thresholds must rise"),
    ("role: final_strategy", "role: zero_strategy", "specs/demo.yaml:19: only the final strategy is graded by "
                                                    "win rate, not 'zero_strategy'"),
])
def test_thresholds_are_checked(old, new, expected):
    assert spec.parse(FINAL, "specs/demo.yaml").questions[0].thresholds[1].points == 3
    assert message(FINAL.replace(old, new, 1)).startswith(expected)


@pytest.mark.parametrize("setup, expected", [
    ('setup: ">>> from hog import *("\n', "specs/demo.yaml:5: 'from hog import *(' is not valid Python: "
                                          "invalid syntax (fix the call; every '>>> ' line must run as typed)"),
    ("setup: |\n  >>> import hog\n  >>> from hog import (\n",
     "specs/demo.yaml:7: 'from hog import (' is not valid Python"),
    ('setup: "from hog import *"\n', "specs/demo.yaml:5: the session has no '>>> ' line"),
])
def test_a_setup_that_cannot_run_is_located_like_a_case(setup, expected):
    assert message(broken("phases:\n", setup + "phases:\n")).startswith(expected)
