"""The handout: what it shows, that its sessions hold against the solution, and `hog handout`."""

import dataclasses
import functools
import os
import re
import subprocess
import sys

import jinja2
import markupsafe
import pytest

from grader import project
from grader.publishing import build, handout
from grader.reference import rendering
from grader.report import style
from grader.cli import main
from grader.spec import SpecError, all_variants, load_variant

VARIANTS = all_variants()
IDS = [variant.id for variant in VARIANTS]
def escape(text):
    """Text as the HTML handout shows it (Jinja's autoescape)."""
    return str(markupsafe.escape(text))


FENCE = re.compile(r"^```pycon\n(?P<body>.*?)^```$", re.S | re.M)


@functools.cache
def rendered(variant, fmt):
    """The students' edition, as docs/ and the student folder hold it."""
    return handout.render(variant, fmt, build.solution_source(variant))


@functools.cache
def instructors(variant, fmt):
    """The instructor's edition: with the picture of the optimal strategy."""
    return handout.render(variant, fmt, build.solution_source(variant), build.optimal_heatmap(variant))


def seed_examples(variant):
    return [case for case in variant.cases if case.rule and not case.hidden]


def run_doctests(folder, solution):
    """pytest-doctestplus on folder/handout.md, with the solution importable as `hog`."""
    env = {**os.environ, "PYTHONPATH": str(solution), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", os.devnull,
         "--rootdir", str(folder), "--doctest-plus", "--doctest-glob=*.md", str(folder / "handout.md")],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def solution_folder(variant, tmp_path):
    folder = tmp_path / "solution"
    folder.mkdir()
    (folder / "hog.py").write_text(build.solution_source(variant))
    (folder / "dice.py").write_text(project.DICE.read_text())
    return folder


# ------------------------------------------------- sessions are doctests


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_every_session_of_the_markdown_handout_passes_against_the_solution(variant, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "handout.md").write_text(rendered(variant, "md"))
    result = run_doctests(folder, solution_folder(variant, tmp_path))
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout + result.stderr


@pytest.mark.slow
def test_a_wrong_number_in_the_handout_fails_the_doctest_run(tmp_path):
    variant = load_variant("sp19")
    text = rendered(variant, "md")
    assert ">>> free_bacon(39)\n4\n" in text
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "handout.md").write_text(text.replace(">>> free_bacon(39)\n4\n", ">>> free_bacon(39)\n5\n"))
    result = run_doctests(folder, solution_folder(variant, tmp_path))
    assert result.returncode == 1 and "1 failed" in result.stdout
    assert "free_bacon(39)\nExpected:\n    5\nGot:\n    4" in result.stdout


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_each_markdown_session_starts_with_the_import_and_ends_with_a_blank_line(variant):
    sessions = FENCE.findall(rendered(variant, "md"))
    assert len(sessions) == len([case for case in seed_examples(variant) if not case.locked]) > 0
    for body in sessions:
        assert body.startswith(">>> from hog import *\n>>> ")
        assert body.endswith("\n\n")


# ---------------------------------------------------------- the content


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_rules_are_told_in_our_own_words_with_every_seed_example(variant):
    page, markdown = rendered(variant, "html"), rendered(variant, "md")
    for rule in variant.rules:
        assert f"<h3>{escape(rule.name)}</h3>" in page
        assert f"### {rule.name}\n" in markdown
        assert escape(rule.summary) in page
        for choice in rule.choices:
            assert escape(choice) in page
    for case in seed_examples(variant):
        # labelled in words a student can use ("rules, Pig Out, example 1"), not the seed file
        assert escape(case.label) in page and case.label in markdown
        assert case.origin not in markdown
        if case.locked:
            continue   # shown with '?' for its answers: see the test of locked examples
        assert case.session in markdown
        for line in case.session.splitlines():
            assert escape(line) in page
        if case.note:
            assert escape(case.note) in page


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_locked_example_shows_its_calls_and_a_question_mark_never_its_answers(variant):
    page, markdown = rendered(variant, "html"), rendered(variant, "md")
    locked = [case for case in seed_examples(variant) if case.locked]
    assert locked
    for case in locked:
        for step in case.steps:
            assert step.source.rstrip("\n") in markdown and escape(step.source.rstrip("\n")) in page
            for text in (markdown, page):
                after = text[text.index(step.source.rstrip("\n").split("\n")[-1]):]
                assert ">?<" in after.split("\n", 2)[1] or after.split("\n", 2)[1] == "?"   # then a "?"
                assert (step.source + step.want) not in text
        if case.note:
            assert case.note not in markdown and escape(case.note) not in page
    assert "python3 unlock.py -q 01" in markdown and "### Unlocking" in markdown


def test_examples_are_grouped_under_their_rule_in_example_order():
    markdown = rendered(load_variant("sp19"), "md")
    pig_out = markdown.index("### Pig Out")
    free_bacon = markdown.index("### Free Bacon")
    first = markdown.index("roll_dice(7, make_test_dice(2, 1, 1, 4, 1, 1, 1))")
    also_first = markdown.index("take_turn(7, 0, make_test_dice(1, 1, 3, 1, 1, 5, 1))")
    second = markdown.index("roll_dice(4, make_test_dice(3))")
    assert pig_out < first < also_first < second < free_bacon
    assert "<sub>case q03-2 · rules, Pig Out, example 1</sub>" in markdown


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_each_question_shows_the_signature_of_the_students_file_its_task_and_command(variant):
    page, markdown = rendered(variant, "html"), rendered(variant, "md")
    skeleton = build.skeleton_source(variant)
    functions = handout.functions(skeleton)
    for question in variant.questions:
        function = functions[question.function]
        assert function.signature.startswith(f"def {question.function}(")
        assert function.signature in skeleton
        assert f"```python\n{function.signature}\n```" in markdown
        assert f"<pre><code>{escape(function.signature)}</code></pre>" in page
        assert f"Question {question.label}: {escape(question.title)}" in page
        assert f"python -m pytest -k {question.key}" in page and f"python -m pytest -k {question.key}`" in markdown
        assert rendering.points(question.points) in page
        task = question.task or function.task
        assert task and escape(task) in page
    # Two questions on one function (play, then its commentary) each say what they ask.
    tasks = [section.task for section in handout.question_sections(variant, build.solution_source(variant))]
    assert len(set(tasks)) == len(tasks)


def test_a_signature_over_two_lines_is_shown_as_written():
    variant = load_variant("sp19")
    play = handout.functions(build.solution_source(variant))["play"]
    assert play.signature == ("def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,\n"
                              "         goal=GOAL_SCORE, say=silence):")
    assert play.task.startswith("Simulate a game and return the final scores of both players")


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_grading_explains_hidden_cases_and_the_final_strategys_exact_thresholds(variant):
    page, markdown = rendered(variant, "html"), rendered(variant, "md")
    for text in (page, markdown):
        assert "hidden cases" in text and "all or" in text
        assert f"always_roll({variant.baseline})" in text
    for question in variant.questions:
        for threshold in question.thresholds:
            row = f"at least {threshold.win_rate} ({threshold.win_rate * 100:g}%)"
            assert f"| {row} | {rendering.points(threshold.points)} |" in markdown
            assert f'<td>{row}</td><td class="points">{rendering.points(threshold.points)}</td>' in page
    assert f"<th>{rendering.points(variant.points)}</th>" in page


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_html_handout_is_one_page_for_phones_and_print_with_the_kits_sheets_beside_it(variant):
    page = rendered(variant, "html")
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "@media print" in page and "max-width" in page
    # Bootstrap's sheet and the kit's, by name from the page's own folder: nothing from elsewhere.
    links = re.findall(r"<link [^>]*>", page)
    assert links == ['<link rel="icon" href="data:,">', *(f'<link rel="stylesheet" href="{name}">'
                                                           for name in style.SHEETS)]
    assert set(handout.sheets()) == set(style.SHEETS)
    for external in ("http://", "https://", "<script", "src=", "@import", "url("):
        assert external not in page


def test_html_escapes_the_spec_and_markdown_keeps_it_literal():
    variant = load_variant("sp19")
    rule = dataclasses.replace(variant.rules[0], summary="A score < 10 & <b>bold</b> *stays* plain.")
    variant = dataclasses.replace(variant, rules=(rule, *variant.rules[1:]))
    assert "A score &lt; 10 &amp; &lt;b&gt;bold&lt;/b&gt; *stays* plain." in rendered(variant, "html")
    assert r"A score \< 10 & \<b>bold\</b> \*stays\* plain." in rendered(variant, "md")


def test_a_missing_template_value_is_an_error_not_an_empty_string():
    environment = rendering.environment("handout")
    with pytest.raises(jinja2.UndefinedError):
        environment.from_string("{{ variant.nickname }}").render(variant=load_variant("sp19"))


def test_a_question_whose_function_the_solution_lacks_points_at_the_spec():
    variant = load_variant("sp19")
    source = build.solution_source(variant).replace("def free_bacon(", "def free_bacon_points(")
    with pytest.raises(SpecError) as error:
        handout.render(variant, "md", source)
    line = variant.question("02").line
    assert str(error.value) == (f"specs/sp19.yaml:{line}: question 02 names function 'free_bacon', "
                                f"which the reference hog.py does not define (did you mean 'free_bacon_points'?)")


# ------------------------------------------------------------ generated


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_hog_build_makes_both_handouts_in_docs(variant):
    files = build.outputs(variant)
    for fmt in ("html", "md"):
        assert files[project.DOCS / variant.id / f"handout.{fmt}"] == rendered(variant, fmt)
    for name, text in handout.sheets().items():   # beside the HTML page, which links them
        assert files[project.DOCS / variant.id / name] == text
    assert project.DOCS / variant.id in build.generated_folders(variant)


# ------------------------------------------------------- hog handout


def test_hog_handout_prints_html_by_default(capsys):
    assert main(["handout", "sp19"]) == 0
    assert capsys.readouterr().out == rendered(load_variant("sp19"), "html")


@pytest.mark.slow
def test_hog_handout_writes_markdown_when_asked_or_when_the_file_says_md(tmp_path, capsys):
    variant = load_variant("sp19")
    assert main(["handout", "sp19", "--out", str(tmp_path / "hog.md")]) == 0
    assert (tmp_path / "hog.md").read_text() == rendered(variant, "md")
    assert main(["handout", "sp19", "--format", "md", "--out", str(tmp_path / "handout.txt")]) == 0
    assert (tmp_path / "handout.txt").read_text() == rendered(variant, "md")
    assert main(["handout", "sp19", "--out", str(tmp_path / "new" / "page.html")]) == 0
    assert (tmp_path / "new" / "page.html").read_text() == rendered(variant, "html")
    assert "wrote " in capsys.readouterr().out
    # The HTML page has the stylesheets it links beside it, the Markdown needs none.
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["bootstrap.min.css", "handout.txt", "hog.md",
                                                                 "kit.css", "new", "page.html"]
    for name, text in handout.sheets().items():
        assert (tmp_path / "new" / name).read_text() == text


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_students_edition_shows_no_picture_of_the_optimal_strategy(variant):
    """Its colours alone would be the answer to the final strategy question."""
    for fmt in ("html", "md"):
        text = rendered(variant, fmt)
        assert "<svg" not in text and handout.HEATMAP_FILE not in text
        assert "What optimal play looks like" not in text


@pytest.mark.slow
def test_the_instructors_edition_adds_the_picture(tmp_path, capsys):
    sp19, fa19 = load_variant("sp19"), load_variant("fa19")
    assert main(["handout", "sp19", "--with-strategy"]) == 0
    page = capsys.readouterr().out
    assert page == instructors(sp19, "html")
    assert '<svg role="img" aria-label="optimal strategy heatmap"' in page
    assert "<title>score" not in page   # no tooltip spelling out each cell
    assert "What optimal play looks like" in page and "previous turns" not in page
    # fa19's best play also depends on the previous dice counts: the caption says what the picture is.
    assert "dice counts of the previous turns" in instructors(fa19, "md")
    assert main(["handout", "fa19", "--with-strategy", "--out", str(tmp_path / "fa19.md")]) == 0
    assert capsys.readouterr().out == (f"wrote {tmp_path / 'fa19.md'}\n"
                                       f"wrote {tmp_path / handout.HEATMAP_FILE}\n")
    assert (tmp_path / "fa19.md").read_text() == instructors(fa19, "md")
    assert f"]({handout.HEATMAP_FILE})" in instructors(fa19, "md")
    assert (tmp_path / handout.HEATMAP_FILE).read_text() == build.optimal_heatmap(fa19)


def test_the_instructors_markdown_edition_needs_a_file_for_its_picture(capsys):
    assert main(["handout", "sp19", "--with-strategy", "--format", "md"]) == 2
    assert capsys.readouterr().err == ("Error: the Markdown handout links to its picture in a file of its own: "
                                       "add --out PATH (the picture is written beside it)\n")


def test_hog_handout_of_an_unknown_variant_names_the_known_ones(capsys):
    assert main(["handout", "sp91"]) == 2
    assert capsys.readouterr().err == "Error: specs: no variant 'sp91' (did you mean 'sp19'?)\n"


def test_hog_handout_into_a_path_that_cannot_be_written_says_how_to_fix_it(tmp_path, capsys):
    (tmp_path / "notes").write_text("a file")
    assert main(["handout", "sp19", "--out", str(tmp_path / "notes" / "handout.html")]) == 2
    error = capsys.readouterr().err
    assert error == (f"Error: {tmp_path / 'notes'} is a file, not a folder "
                     f"(choose an --out inside a folder you can write to)\n")
    assert main(["handout", "sp19", "--out", str(tmp_path)]) == 2
    assert "is a folder (give --out a file name" in capsys.readouterr().err


def test_hog_handout_with_an_unknown_format_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["handout", "sp19", "--format", "pdf"])
    assert stop.value.code == 2
    assert "invalid choice: 'pdf'" in capsys.readouterr().err
