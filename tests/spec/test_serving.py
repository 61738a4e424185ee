"""The course server's tables of the course config: what an instructor writes and the errors they read."""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta, timezone

import pytest

from grader import project
from grader.cli import main
from grader.spec import course, load_variant, serving


@pytest.fixture(autouse=True)
def back_in_the_checkout():
    yield
    project.use()


GOOD = """
[server]
url = "https://hog.example.edu/"

[assignments.hog]
variant = "sp19"
opens = 2026-09-01T09:00:00-07:00
due = "2026-09-15T23:59:00-07:00"
late_days = 2
penalty_per_day = 0.1
submissions_per_hour = 5
score = "best"
"""


def write(tmp_path, text: str):
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "hog-course.toml").write_text(f'name = "x"\nvariants = ["sp19"]\n{text}')
    return folder


def test_server_and_assignment_tables_are_read_with_their_times_and_rules(tmp_path):
    folder = write(tmp_path, GOOD)
    found = course.read(folder / "hog-course.toml").server
    assert found.url == "https://hog.example.edu" and found.secure
    hog = found.assignment("hog")
    assert hog.variant == "sp19" and hog.manifest is None and hog.score == "best"
    assert hog.due == datetime(2026, 9, 15, 23, 59, tzinfo=timezone(timedelta(hours=-7)))
    assert hog.opens.tzinfo is not None and (hog.late_days, hog.penalty_per_day, hog.submissions_per_hour) == (2, 0.1, 5)


def test_groups_hidden_cases_the_checkpoint_and_the_early_bonus_are_read_with_their_defaults(tmp_path):
    plain = course.read(write(tmp_path, GOOD) / "hog-course.toml").server.assignment("hog")
    assert (plain.group_size, plain.hidden_cases, plain.checkpoint, plain.early, plain.bonus_max) == (
        1, "counted", None, None, 0.0)
    (tmp_path / "b").mkdir()
    text = (GOOD + 'group_size = 2\nhidden_cases = "after_due"\nearly = 2026-09-14T23:59:00-07:00\n'
            "[assignments.hog.checkpoint]\ndue = 2026-09-08T23:59:00-07:00\nquestions = [1, \"02\"]\n")
    hog = course.read(write(tmp_path / "b", text) / "hog-course.toml").server.assignment("hog")
    assert (hog.group_size, hog.hidden_cases, hog.early_points) == (2, "after_due", 1.0)
    assert hog.checkpoint == serving.Checkpoint(datetime(2026, 9, 8, 23, 59, tzinfo=timezone(timedelta(hours=-7))),
                                                ("1", "2"), 1.0)
    assert hog.bonus_max == 2.0


def test_an_assignment_may_name_the_okpy_suite_it_is_graded_with(tmp_path):
    hog = course.read(write(tmp_path, GOOD + 'suite = "kit+hog-sp24"\n') / "hog-course.toml").server.assignment("hog")
    assert hog.suite == "kit+hog-sp24"
    (tmp_path / "b").mkdir()
    assert course.read(write(tmp_path / "b", GOOD) / "hog-course.toml").server.assignment("hog").suite is None


def test_a_course_without_a_server_table_serves_on_this_machine_with_no_assignment(tmp_path):
    found = course.read(write(tmp_path, "") / "hog-course.toml").server
    assert found.url == serving.DEFAULT_URL and found.assignments == () and not found.secure


def test_the_example_hog_init_writes_is_commented_out_and_reads_back_when_uncommented():
    text = course.config_text("x", [load_variant("sp19")])
    assert "# [assignments.hog]" in text and "\n[assignments" not in text
    example = "\n".join(line[2:] for line in serving.example_text().splitlines())
    parsed = serving.read(tomllib.loads(example), "x", {}, project.variant_ids())
    assert parsed.assignment("hog").due.utcoffset() == timedelta(hours=-7)


@pytest.mark.parametrize("text, message", [
    ("[server]\nport = 1", "hog-course.toml:4: [server] has an unknown key 'port' (the keys are url, frame_ancestors, proxies)"),
    ('[server]\nurl = "hog.example.edu"', "hog-course.toml:4: server.url is 'hog.example.edu' (write the address"),
    ("[assignments.hog]\nvariant = \"sp19\"", "hog-course.toml:3: [assignments.hog] has no due date (write due ="),
    ("[assignments.hog]\ndue = 2026-09-15T23:59:00", "hog-course.toml:3: [assignments.hog] needs either variant or"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00',
     "hog-course.toml:5: assignments.hog.due 2026-09-15T23:59:00 has no time zone (write an ISO 8601 date-time"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = "next friday"',
     "hog-course.toml:5: assignments.hog.due 'next friday' is not a date-time"),
    ('[assignments.hog]\nvariant = "sp91"\ndue = 2026-09-15T23:59:00Z',
     "hog-course.toml:4: assignments.hog.variant names 'sp91', which is neither built in"),
    ('[assignments.hog]\nvariant = "sp19"\nmanifest = "m.csv"\ndue = 2026-09-15T23:59:00Z',
     "hog-course.toml:3: [assignments.hog] needs either variant or manifest"),
    ('[assignments.hog]\nmanifest = "../m.csv"\ndue = 2026-09-15T23:59:00Z',
     "hog-course.toml:4: assignments.hog.manifest is '../m.csv'"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nscore = "first"',
     "hog-course.toml:6: assignments.hog.score is 'first' (write score = \"last\""),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nlate_days = -1',
     "hog-course.toml:6: assignments.hog.late_days is -1 (write a whole number, 0 or more)"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\npenalty_per_day = 2',
     "hog-course.toml:6: assignments.hog.penalty_per_day is 2 (write the share"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nsubmissions_per_hour = 0',
     "hog-course.toml:6: assignments.hog.submissions_per_hour is 0 (write a whole number, 1 or more)"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nopens = 2026-09-16T00:00:00Z',
     "hog-course.toml:6: assignments.hog opens after it is due (make opens earlier than due)"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nlate = 2',
     "hog-course.toml:6: [assignments.hog] has an unknown key 'late' (the keys are variant, manifest,"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nsuite = "Hog SP24"',
     "hog-course.toml:6: assignments.hog.suite is 'Hog SP24' (write the name an okpy suite was imported under"),
    ('[assignments."hog 1"]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z',
     "hog-course.toml:3: [assignments.hog 1]: an assignment's name is letters, digits, - and _"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\ngroup_size = 0', "hog-course.toml:6: assignments.hog.group_size is 0 (write a whole number, 1 or more)"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nhidden_cases = "later"', "hog-course.toml:6: assignments.hog.hidden_cases is 'later' (write "
     'hidden_cases = "counted"'),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nearly = 2026-09-16T00:00:00Z', "hog-course.toml:6: assignments.hog.early is after its due date"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\nearly_points = 1', "hog-course.toml:6: assignments.hog.early_points without an early date (write early ="),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\n[assignments.hog.checkpoint]\npoints = 1',
     "hog-course.toml:6: [assignments.hog.checkpoint] has no due date (write due ="),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\n[assignments.hog.checkpoint]\ndue = 2026-09-16T00:00:00Z',
     "hog-course.toml:7: assignments.hog.checkpoint is due after assignments.hog (make the checkpoint's"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\n[assignments.hog.checkpoint]\ndue = 2026-09-08T00:00:00Z\nquestions = "1-5"',
     "hog-course.toml:8: assignments.hog.checkpoint.questions is '1-5' (write the questions' numbers"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\n[assignments.hog.checkpoint]\ndue = 2026-09-08T00:00:00Z\npoint = 1',
     "hog-course.toml:8: [assignments.hog.checkpoint] has an unknown key 'point' (the keys are due, questions, points)"),
    ('[assignments.hog]\nvariant = "sp19"\ndue = 2026-09-15T23:59:00Z\n[assignments.hog.checkpoint]\ndue = 2026-09-08T00:00:00Z\nquestions = ["1", "99"]',
     "hog-course.toml:8: assignments.hog.checkpoint.questions names 99, not a question of sp19 (its questions are"),
])
def test_a_server_config_error_names_the_file_the_line_and_the_fix(tmp_path, capsys, text, message):
    folder = write(tmp_path, text)
    assert main(["--course", str(folder), "serve", "regrade", "hog"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: " + message), err
    assert err.count("\n") == 1 and "Traceback" not in err
