"""The total sent back to the LMS once the manual grades are released: the autograder's part alone before,
then the total and its maximum (the rubric's positive points added), once per change; on SQLite and
PostgreSQL. A deep-linked line item's maximum is the total's."""

from __future__ import annotations

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
