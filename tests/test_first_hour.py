"""A newcomer's first hour, each rough edge as what the user now sees."""

import subprocess
import sys

import pytest

from grader import project
from grader.publishing import build
from grader.commands import grading as commands
from grader.grading.grade import GradeResult, QuestionResult
from grader.report import text
from grader.spec import SpecError, load_variant, parse, variant_ids


def hog(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_grading_under_other_rules_than_hog_py_declares_is_refused_with_the_way_out():
    result = hog("grade", str(project.SOLUTION / "sp19"), "--variant", "fa19")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"Error: {project.SOLUTION / 'sp19' / 'hog.py'} declares the sp19 rules, not fa19: "
                             "graded under the wrong rules, correct code fails (drop --variant to grade it as "
                             "sp19, or add --force-variant to grade it as fa19 anyway)\n")


def test_the_variant_is_read_from_hog_py_when_not_given(tmp_path):
    assert commands.declared_variant(project.SOLUTION / "fa18" / "hog.py") == "fa18"
    assert commands._chosen_variant(project.SOLUTION / "fa18", None, False) == "fa18"
    assert commands._chosen_variant(project.SOLUTION / "fa18", "sp19", True) == "sp19"
    plain = tmp_path / "hog.py"
    plain.write_text('"""The Game of Hog."""\n')
    assert commands._chosen_variant(plain, "nju24", False) == "nju24"  # declares nothing: --variant decides


@pytest.mark.parametrize("verb", ["cases", "handout", "grade", "test", "grade-batch", "analyze", "assign", "build"])
def test_every_verbs_help_names_its_arguments_defaults_and_the_variant_ids(verb):
    result = hog(verb, "--help")
    assert result.returncode == 0
    assert ", ".join(variant_ids()) in " ".join(result.stdout.split())
    if verb == "grade":
        help_text = " ".join(result.stdout.split())
        assert "SUBMISSION a hog.py, or a folder holding one" in help_text
        assert "(default: the variant hog.py declares)" in help_text and "(default: text)" in help_text


def _spec_with(line_number: int, old: str, new: str) -> str:
    lines = (project.SPECS / "fa19.yaml").read_text().splitlines(True)
    assert old in lines[line_number - 1]
    lines[line_number - 1] = lines[line_number - 1].replace(old, new)
    return "".join(lines)


def _line_of(needle: str) -> int:
    return (project.SPECS / "fa19.yaml").read_text().split(needle)[0].count("\n") + 1


@pytest.mark.parametrize("mistake", ["a key without its colon", "an over-indented key"])
def test_a_yaml_syntax_error_is_reported_on_the_line_of_the_mistake(mistake):
    line = _line_of("        session: |\n          >>> roll_dice(7, make_test_dice(1, 1, 6")
    text_with_mistake = _spec_with(line, "session: |", "session |") if mistake == "a key without its colon" \
        else _spec_with(line, "session:", "  session:")
    with pytest.raises(SpecError) as error:
        parse(text_with_mistake, "specs/fa19.yaml")
    assert str(error.value).startswith(f"specs/fa19.yaml:{line}: YAML syntax error")


def test_a_spec_that_lost_a_question_the_reference_needs_is_a_located_spec_error():
    spec_text = (project.SPECS / "fa19.yaml").read_text()
    start, end = spec_text.index('  - number: "04"'), spec_text.index('  - number: "05a"')
    variant = parse(spec_text[:start] + spec_text[end:], "specs/fa19.yaml")
    with pytest.raises(SpecError) as error:
        build.solution_source(variant)
    first_question = spec_text[:spec_text.index('  - number: "01"')].count("\n") + 1
    assert str(error.value) == (f"specs/fa19.yaml:{first_question}: no question has role 'swap', which the "
                                "reference grader/templates/hog/fa19.py.j2 needs (add a question with 'role: swap' "
                                "and the function students write for it)")


def test_the_text_report_shows_the_final_strategy_line_once_and_names_hog_py():
    variant = load_variant("sp19")
    final = variant.questions[-1]
    message = "exact average win rate against always_roll(4): 0.500000 (0.55 earns 1 of 3 points)"
    result = GradeResult(variant, str(project.SKELETON / "sp19"), [QuestionResult(final, 0.0, [], message)],
                         "bubblewrap", 0.1)
    shown = text.render(result)
    assert shown.count(message) == 1
    assert shown.splitlines()[1] == f"Hog (CS 61A Spring 2019 rules): {project.SKELETON / 'sp19' / 'hog.py'}"


@pytest.mark.slow
def test_hog_test_in_the_student_folder_names_hog_py_and_the_rule_not_the_seed(tmp_path):
    result = hog("test", "-q", "2", cwd=project.SKELETON / "fa19")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[1] == "Hog (CS 61A Fall 2019 rules): hog.py"
    # example 1 is locked in the skeleton: the first case that runs is example 2
    assert "(rules, Free Bacon, example 2)" in lines and ".txt" not in result.stdout


def test_the_gradescope_output_shows_the_final_strategy_line_once():
    from grader.report import gradescope
    variant = load_variant("sp19")
    message = "exact average win rate against always_roll(4): 0.500000 (0.55 earns 1 of 3 points)"
    result = GradeResult(variant, "hog.py", [QuestionResult(variant.questions[-1], 0.0, [], message)],
                         "bubblewrap", 0.1)
    assert gradescope.results(result)["tests"][0]["output"].count(message) == 1
