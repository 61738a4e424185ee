"""Two graders saving the same review at the same moment, on SQLite and PostgreSQL: one save is taken, the
other refused with 409, whichever comes second; nothing is merged or lost."""

from __future__ import annotations

import threading

import pytest

from tests.server.conftest import issue
from tests.server.reviewing import graded, put, review, rubric_app, rubric_course


@pytest.fixture
def course(tmp_path):
    return rubric_course(tmp_path)


@pytest.fixture
def app(course, any_database, migrated_sqlite):
    return rubric_app(course, any_database, migrated_sqlite)


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
