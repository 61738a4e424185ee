"""Grading by hand on SQLite and on PostgreSQL: the total sent back to the LMS once the manual grades are
released (the autograder's part alone before, then the total and its maximum, the rubric's positive points
added, once per change); two graders saving the same review at the same moment (one save taken, the other
refused with 409, nothing merged or lost). A deep-linked line item's maximum is the total's."""

from __future__ import annotations

import threading

import pytest

from grader.server.lti import ags, deep_linking, passback
from grader.spec import course as course_config
from tests.server.conftest import bearer, issue
from tests.server.reviewing import graded, put, review, rubric_app, rubric_course
from tests.server.test_lti import launched, platform   # noqa: F401  (the platform fixture)


@pytest.fixture
def course(tmp_path):
    return rubric_course(tmp_path)


@pytest.fixture
def app(course, any_database, migrated_sqlite):
    return rubric_app(course, any_database, migrated_sqlite)


def test_the_released_total_is_sent_once_and_nothing_of_the_manual_part_before(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    staff = issue(app, "t1", role="staff")["t1"]
    engine, client = app.config["hog.settings"].engine, ags.Client(course / "server")
    number = graded(app, "s1@example.edu", 20.0)
    assert passback.send_due(engine, client) == (1, 0)
    api = app.test_client()
    assert put(api, staff, number, 0, rubric={"docs": True}).status_code == 200
    assert passback.send_due(engine, client) == (0, 0)   # not released: the LMS still has the autograder's part
    assert api.post("/api/assignments/hog/release", headers=bearer(staff)).status_code == 200
    assert passback.send_due(engine, client) == (1, 0)
    assert passback.send_due(engine, client) == (0, 0)   # once
    assert api.post("/api/assignments/hog/release", headers=bearer(staff)).status_code == 200
    assert passback.send_due(engine, client) == (0, 0)   # released again: nothing new to send
    assert put(api, staff, number, review(api, staff, number)["version"],
               rubric={"docs": True, "names": True}).status_code == 200
    assert passback.send_due(engine, client) == (1, 0)
    sent = [(score["scoreGiven"], score["scoreMaximum"]) for _, score in platform.scores]
    assert sent == [(20.0, 23.0), (22.0, 25.0), (21.0, 25.0)]


def test_a_deep_linked_line_item_s_maximum_is_the_total_s(course):
    assert deep_linking.maximum(course_config.current().server.assignment("hog")) == 25.0   # 23 and docs' 2


def at_once(app, tokens, number: int, version: int) -> list[int]:
    """Both graders' saves of ``version``, sent together: their statuses."""
    start, answers = threading.Barrier(2), {}

    def save(grader: str) -> None:
        client = app.test_client()
        start.wait()
        answers[grader] = put(client, tokens[grader], number, version,
                              comments=[{"line": 1, "text": f"{grader}'s comment {version}"}]).status_code
    threads = [threading.Thread(target=save, args=(grader,)) for grader in ("t1", "t2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return sorted(answers.values())


def test_two_graders_saving_at_once_never_overwrite_each_other(app):
    tokens = issue(app, "s1") | issue(app, "t1", "t2", role="staff")
    number = graded(app, "s1", 20.0)
    for version in (0, 1):   # the review's first version, then a later one
        assert at_once(app, tokens, number, version) == [200, 409]
        saved = review(app.test_client(), tokens["t1"], number)
        assert saved["version"] == version + 1 and len(saved["comments"]) == 1   # one grader's, whole
        assert len(saved["history"]) == version + 1
