"""A rubric per assignment in the course config: its items and groups as an instructor writes them, and
the errors they read (file, line, fix) when one is wrong."""

from __future__ import annotations

import pytest

from grader import project
from grader.spec import course
from grader.spec.config_error import ConfigError


@pytest.fixture(autouse=True)
def back_in_the_checkout():
    yield
    project.use()


HEAD = """name = "x"
variants = ["sp19"]

[assignments.hog]
variant = "sp19"
due = 2026-09-15T23:59:00-07:00
"""

TABLES = """
[[assignments.hog.rubric_groups]]
id = "style"
title = "Style"
floor = -2
ceiling = 0

[[assignments.hog.rubric]]
id = "names"
title = "Names say what they hold"
points = -1
group = "style"

[[assignments.hog.rubric]]
id = "repeat"
title = "Repeated code"
points = -2
description = "the same lines in two functions"
group = "style"

[[assignments.hog.rubric]]
id = "docs"
title = "Docstrings"
points = 2
"""
RUBRIC = HEAD + "regrade_requests_days = 3\n" + TABLES


def read(tmp_path, text: str):
    path = tmp_path / "hog-course.toml"
    path.write_text(text)
    return course.read(path).server.assignment("hog")


def test_a_rubric_s_items_and_groups_are_read_in_order_with_the_regrade_window(tmp_path):
    hog = read(tmp_path, RUBRIC)
    assert [item.id for item in hog.rubric.items] == ["names", "repeat", "docs"]
    assert hog.rubric.item("repeat").description == "the same lines in two functions"
    assert hog.rubric.item("names").group == "style" and hog.rubric.item("docs").group is None
    [style] = hog.rubric.groups
    assert (style.id, style.title, style.floor, style.ceiling) == ("style", "Style", -2.0, 0.0)
    assert hog.regrade_requests_days == 3
    assert hog.rubric.positive == 2.0


def test_an_assignment_without_a_rubric_has_none_and_a_week_for_regrade_requests(tmp_path):
    hog = read(tmp_path, HEAD)
    assert hog.rubric.items == () and hog.rubric.positive == 0 and hog.regrade_requests_days == 7


def test_a_group_s_floor_and_ceiling_bound_the_points_of_its_items(tmp_path):
    rubric = read(tmp_path, RUBRIC).rubric
    assert rubric.points({"names", "repeat"}) == -2.0        # -3 held at the floor
    assert rubric.points({"names", "docs"}) == 1.0
    assert rubric.points({"gone", "docs"}) == 2.0             # an item no longer in the rubric counts nothing


@pytest.mark.parametrize("change, line, said, fix", [
    (lambda t: t.replace('id = "repeat"', 'id = "names"'), 22, "rubric item id 'names' is given twice",
     "give each item an id of its own"),
    (lambda t: t.replace("points = -2\n", 'points = "two"\n'), 24, "assignments.hog.rubric[2].points is 'two'",
     "write a number of points"),
    (lambda t: t.replace('points = 2\n', "points = 0\n"), 31, "assignments.hog.rubric[3].points is 0",
     "a positive item adds"),
    (lambda t: t.replace('group = "style"\n\n[[assignments.hog.rubric]]\nid = "repeat"',
                         'group = "styel"\n\n[[assignments.hog.rubric]]\nid = "repeat"'), 19,
     "names the group 'styel', which is not", "the groups are style"),
    (lambda t: t.replace("title = \"Docstrings\"\n", ""), 28, "assignments.hog.rubric[3] has no title",
     'write title = "'),
    (lambda t: t.replace("ceiling = 0", "ceiling = -3"), 13, "floor (-2) above its ceiling (-3)",
     "make floor at most ceiling"),
    (lambda t: t.replace('id = "docs"', 'id = "docs"\npionts = 1'), 30, "unknown key 'pionts'", "the keys are id,"),
    (lambda t: t.replace("regrade_requests_days = 3", "regrade_requests_days = -1"), 7,
     "assignments.hog.regrade_requests_days is -1", "0 or more"),
    (lambda t: t.replace('id = "names"', 'id = "autograder"'), 16, "'autograder' is the autograder's part",
     "choose another id"),
])
def test_a_wrong_rubric_is_refused_at_start_naming_the_file_the_line_and_the_fix(tmp_path, change, line, said, fix):
    with pytest.raises(ConfigError) as refused:
        read(tmp_path, change(RUBRIC))
    text = str(refused.value)
    assert f"hog-course.toml:{line}:" in text and said in text and fix in text, text
