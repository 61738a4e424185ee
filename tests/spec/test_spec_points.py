"""Points per question: the courses' own by default, and a course's own through ``with_points``, which
every place a point shows then reads (handout, student case files, text/JSON/JUnit reports, Gradescope
results, gradebook, class report)."""

from __future__ import annotations

import csv
import json
from dataclasses import replace

import pytest

from grader import project
from grader.classroom import batch
from grader.publishing import build, handout
from grader.errors import UsageError
from grader.grading.grade import grade
from grader.reference.hog_source import solution_source
from grader.report import classroom, gradescope, junit, text
from grader.spec import load_variant, with_points

# The courses' ok configurations (the table in the project's VARIANTS.md); final_strategy apart.
COURSES = {
    "sp19": [2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2],
    "fa18": [2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2],
    "fa19": [2, 1, 2, 2, 2, 1, 2, 3, 2, 2, 1, 2],   # 5a (play) 2, 5b (Feral Hogs) 1
    "nju24": [200, 200, 200, 100, 500, 200, 200, 200, 200, 200, 200],
    "nju21": [300, 300, 200, 100, 400, 100, 400, 200, 200, 100, 100],
}


@pytest.mark.parametrize("variant_id", sorted(COURSES))
def test_each_variant_gives_the_points_its_course_gave(variant_id):
    variant = load_variant(variant_id)
    graded = [q for q in variant.questions if q.role != "final_strategy"]
    assert [q.points for q in graded] == COURSES[variant_id]
    final = variant.question("12")
    assert final.role == "final_strategy" and final.points == 3 and final.thresholds[-1].points == 3


def test_sp19_totals_20_points_before_the_final_strategy_and_fa19_splits_play():
    sp19 = load_variant("sp19")
    assert sp19.points - sp19.question("12").points == 20
    fa19 = load_variant("fa19")
    assert [(q.label, q.role, q.function, q.points) for q in fa19.questions if q.function == "play"][:2] == \
        [("5a", "play", "play", 2.0), ("5b", "feral_hogs", "play", 1.0)]


def test_with_points_changes_the_questions_named_and_nothing_else():
    sp19 = load_variant("sp19")
    changed = with_points(sp19, {"05": 4, "q2": 0.5, "1": 3})
    assert [q.points for q in changed.questions][:5] == [3, 0.5, 2, 1, 4]
    assert [q.points for q in sp19.questions][:5] == [2, 1, 2, 1, 2]   # the Variant given is unchanged
    assert changed.points == sp19.points + 1 - 0.5 + 2
    assert [replace(q, points=0) for q in changed.questions] == [replace(q, points=0) for q in sp19.questions]
    fa19 = with_points(load_variant("fa19"), {"5b": 2, "05a": 1})
    assert (fa19.question("5a").points, fa19.question("5b").points) == (1, 2)


def test_the_final_strategys_thresholds_follow_its_points_or_are_given_anew():
    sp19 = load_variant("sp19")
    doubled = with_points(sp19, {"12": 6}).question("12")
    assert [t.points for t in doubled.thresholds] == [2 * t.points for t in sp19.question("12").thresholds]
    assert [t.win_rate for t in doubled.thresholds] == [t.win_rate for t in sp19.question("12").thresholds]
    given = with_points(sp19, {"12": 10}, thresholds=[(0.5, 4), (0.6, 10)]).question("12")
    assert [(t.win_rate, t.points) for t in given.thresholds] == [(0.5, 4), (0.6, 10)]


@pytest.mark.parametrize("points, thresholds, message", [
    ({"5": 2}, None, "course.toml:3: no question 5 in fa19 (its questions: 1, 2, 3, 4, 5a, 5b, 6, 7, 8, 9, 10, "
                     "11, 12)"),
    ({"5a": -1}, None, "course.toml:3: question 5a: -1 points is negative (points are 0 or more)"),
    ({"5a": "two"}, None, "course.toml:3: question 5a: 'two' is not a number of points (write a number, e.g. 2)"),
    ({"5a": True}, None, "course.toml:3: question 5a: True is not a number of points (write a number, e.g. 2)"),
    ({}, [(0.5, 4)], "course.toml:3: the threshold at 0.5 gives 4 points, but the final strategy is worth 3 "
                     "(keep each threshold within the question's points)"),
    ({}, [(0.6, 1), (0.5, 2)], "course.toml:3: thresholds must rise (list them from the lowest win rate to "
                               "the highest)"),
    ({}, [(1.5, 1)], "course.toml:3: threshold win rate 1.5 is not a probability (write a number from 0 to 1, "
                     "e.g. 0.55)"),
])
def test_a_points_override_that_does_not_fit_is_a_usage_error_naming_the_fix(points, thresholds, message):
    with pytest.raises(UsageError) as error:
        with_points(load_variant("fa19"), points, thresholds=thresholds, source="course.toml:3")
    assert str(error.value) == message


def test_a_changed_point_shows_in_the_handout_and_the_students_case_file():
    variant = with_points(load_variant("sp19"), {"4": 7})
    markdown = handout.render(variant, "md", solution_source(variant))
    assert "| 4. Swine Swap | 7 points | all or nothing |" in markdown
    assert f"**{variant.points:g} points**" in markdown and variant.points == 29
    page = handout.render(variant, "html", solution_source(variant))
    assert "<li>7 points</li>" in page
    header = build.case_files(variant)["tests/q04.md"].splitlines()[0]
    assert header == "# Question 4: Swine Swap (`is_swap`), 7 points"


@pytest.fixture(scope="module")
def graded_with_changed_points():
    variant = with_points(load_variant("sp19"), {"4": 7, "12": 6})
    return variant, grade(project.SOLUTION / "sp19", variant, minimum="process")


def test_a_changed_point_shows_in_the_text_json_and_junit_reports(graded_with_changed_points):
    variant, result = graded_with_changed_points
    assert result.score == result.max_score == 20 - 1 + 7 + 6
    report = text.render(result)
    assert "7/7" in report and f"Score: {result.score:g}/{result.max_score:g}" in report
    data = gradescope.results(result)
    swap = next(test for test in data["tests"] if test["number"] == "4")
    assert (swap["score"], swap["max_score"]) == (7, 7) and data["score"] == 32
    final = next(test for test in data["tests"] if test["number"] == "12")
    assert final["max_score"] == 6
    xml = junit.render(result)
    assert '<property name="max_score" value="7" />' in xml


@pytest.mark.slow
def test_a_changed_point_shows_in_the_gradebook_and_the_class_report(tmp_path):
    """The batch's workers grade with the Variant they are given, not the spec's defaults."""
    variant = with_points(load_variant("sp19"), {"4": 7})
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ada.py").write_text((project.SOLUTION / "sp19" / "hog.py").read_text())
    out = tmp_path / "out"
    summary = batch.grade_batch(folder, variant, out, jobs=1, isolation="process", seed=1)
    assert summary.graded == 1 and summary.failed == 0
    row = next(csv.DictReader((out / "gradebook.csv").open()))
    assert (row["q4"], row["max_score"], row["score"]) == ("7.0", "29.0", "29.0")
    result = json.loads((out / "ada.json").read_text())
    assert result["max_score"] == 29
    figures = classroom.figures(out, with_points(variant, {"12": 6}))
    assert figures["score"]["max_score"] == 29   # the scores the results hold
    assert [t["points"] for t in figures["final_strategy"]["thresholds"]] == [2.0, 4.0, 6.0]
