"""A course whose ``hog`` assignment is done in groups, and results given to its jobs as a grader gives them."""

from __future__ import annotations

from grader import project
from grader.server.grading import queue
from grader.server.store.models import Submission
from tests.server.conftest import csrf, make_app

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'


def configured(course, migrated, extra: str = "group_size = 2\n", tables: str = "", url: str | None = None):
    """The course's ``hog`` given ``extra`` keys (and ``tables`` after it), and an app over its SQLite (a copy of
    ``migrated``, the ``migrated_sqlite`` fixture's), or over ``url``."""
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("[assignments.hog]\n", f"[assignments.hog]\n{extra}")
                      .replace("[assignments.past]", f"{tables}\n[assignments.past]"))
    return make_app(course, url or f"sqlite:///{course / 'server' / 'hog.sqlite3'}", migrated)


def grade_all(app, score: float = 20.0, *, max_score: float = 23.0, tests: list | None = None,
              instructor: dict | None = None) -> list[int]:
    """Every queued job claimed and given this result; their ids."""
    engine = app.config["hog.settings"].engine
    done = []
    while jobs := queue.claim(engine, queue.grader_name(), 10):
        for job in jobs:
            result = {"score": score, "max_score": max_score, "tests": tests or [], "seed": 1, "output": ""}
            assert queue.finish(engine, job, result, instructor, False)
            done.append(job[0])
    return done


def form(client, page: str, **fields) -> dict:
    return {"csrf_token": csrf(client, page), **fields}


def page_action(client, action: str, **fields):
    """A form of the assignment page posted (invite, accept, decline, withdraw, leave)."""
    return client.post(f"/assignments/hog/group/{action}", data=form(client, "/assignments/hog", **fields))


def submissions(app) -> list[Submission]:
    with app.config["hog.settings"].sessions() as session:
        found = list(session.query(Submission).order_by(Submission.id))
        session.expunge_all()
        return found
