"""CS 61A's three dates: a checkpoint (its questions, by default the spec's phase 1, passing by its date earns
its points), the due date, and an early date (the whole project passing by then earns early_points). An
extension moves the checkpoint and the due date, never the early date. The gradebook and its CSV carry the
total and total_max; the student's page shows each date and whether it was met."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from grader.server.store.models import Extension, Person
from grader.spec import load_variant
from tests.server.conftest import bearer, issue, signed_in, upload
from tests.server.groups_helpers import SOURCE, configured, grade_all

LABELS = [q.label for q in load_variant("sp19").questions]
PHASE_ONE = [q.label for q in load_variant("sp19").questions if q.phase == 1]


def passing(labels) -> list[dict]:
    return [{"number": label, "status": "passed" if label in labels else "failed"} for label in LABELS]


def dated(course, migrated, *, checkpoint: timedelta, early: timedelta):
    """hog with a checkpoint and an early date this far from now, in groups of two; s1 and s2 one group, s2
    given two days."""
    now = datetime.now(timezone.utc)
    app = configured(course, migrated, extra=f"group_size = 2\nearly = {(now + early).isoformat(timespec='seconds')}\n",
                     tables=f"[assignments.hog.checkpoint]\ndue = {(now + checkpoint).isoformat(timespec='seconds')}"
                            "\npoints = 2\n")
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    client = app.test_client()
    client.post("/api/assignments/hog/group/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    client.post("/api/assignments/hog/group/accept", json={"from": "s1"}, headers=bearer(tokens["s2"]))
    with app.config["hog.settings"].sessions() as session, session.begin():
        s2 = session.query(Person).filter_by(student_id="s2").one()
        session.add(Extension(person_id=s2.id, assignment="hog", days=2))
    return app, tokens


def gradebook(app, token: str) -> dict[str, dict]:
    text = app.test_client().get("/api/assignments/hog/gradebook.csv", headers=bearer(token)).get_data(as_text=True)
    head, *lines = [line.split(",") for line in text.splitlines()]
    return {line[0]: dict(zip(head, line)) for line in lines}


def test_an_extension_moves_the_checkpoint_for_its_student_and_the_early_date_for_no_one(course, migrated_sqlite):
    app, tokens = dated(course, migrated_sqlite, checkpoint=timedelta(days=-1), early=timedelta(days=-1))
    upload(app.test_client(), tokens["s1"], SOURCE)
    grade_all(app, 23.0, tests=passing(LABELS))
    rows = gradebook(app, tokens["t1"])
    assert (rows["s1"]["score"], rows["s1"]["total"], rows["s1"]["total_max"]) == ("23.0", "23.0", "26.0")
    assert (rows["s2"]["score"], rows["s2"]["total"], rows["s2"]["total_max"]) == ("23.0", "25.0", "26.0")
    mine = signed_in(app, tokens["s2"]).get("/assignments/hog").get_data(as_text=True)
    assert ": met</li>" in mine.split('id="checkpoint"')[1].split("\n")[0]
    assert ": not met</li>" in mine.split('id="early"')[1].split("\n")[0]
    assert '<li id="total">Total: 25 / 26</li>' in mine
    theirs = signed_in(app, tokens["s1"]).get("/assignments/hog").get_data(as_text=True)
    assert ": not met</li>" in theirs.split('id="checkpoint"')[1].split("\n")[0]


def test_the_checkpoint_needs_each_of_its_questions_passed_and_the_early_bonus_the_whole_project(
        course, migrated_sqlite):
    app, tokens = dated(course, migrated_sqlite, checkpoint=timedelta(days=1), early=timedelta(days=1))
    upload(app.test_client(), tokens["s1"], SOURCE)
    grade_all(app, 10.0, tests=passing(PHASE_ONE[:-1]))
    assert gradebook(app, tokens["t1"])["s1"]["total"] == "10.0"
    upload(app.test_client(), tokens["s2"], SOURCE)
    grade_all(app, 12.0, tests=passing(PHASE_ONE))
    assert gradebook(app, tokens["t1"])["s1"]["total"] == "14.0"       # the checkpoint's 2 points
    upload(app.test_client(), tokens["s2"], SOURCE)
    grade_all(app, 23.0, tests=passing(LABELS))
    rows = gradebook(app, tokens["t1"])
    assert [rows[s]["total"] for s in ("s1", "s2")] == ["26.0", "26.0"]   # and the early point
