"""The API's whole flow on SQLite and on PostgreSQL: upload, queued, graded by a grader with the verdict
``hog grade`` gives the same file under the same seed; the job table's claims, one result per submission."""

from __future__ import annotations

import json
import socket
from datetime import datetime

import pytest
from sqlalchemy import select

from grader.cli import main
from grader.server.grading import graders, queue
from grader.server.store.models import GRADED, GRADING, QUEUED, Grader, Submission
from tests.server.conftest import SOLUTION, bearer, issue, make_app, signed_in, upload

SKELETON = SOLUTION.parents[2] / "skeleton" / "sp19" / "hog.py"


def without_time(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "execution_time"}


@pytest.mark.slow
def test_an_upload_is_graded_as_hog_grade_grades_the_same_file_under_the_same_seed(course, any_database, capsys):
    app = make_app(course, any_database)
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    client = app.test_client()
    sent = [upload(client, tokens["s1"], path.read_bytes()).get_json() for path in (SKELETON, SOLUTION)]
    assert [answer["status"] for answer in sent] == [QUEUED, QUEUED]
    assert graders.drain(app.config["hog.settings"].engine, jobs=2, isolation="files") == 2
    for answer, path in zip(sent, (SKELETON, SOLUTION)):
        got = client.get(f"/api/submissions/{answer['id']}", headers=bearer(tokens["s1"])).get_json()
        assert set(got) == {"id", "assignment", "status", "submitted_at", "late_days", "sent_as", "submitted_by",
                            "result"}
        assert (got["id"], got["assignment"], got["status"], got["late_days"]) == (answer["id"], "hog", GRADED, 0)
        assert datetime.fromisoformat(got["submitted_at"]).utcoffset().total_seconds() == 0
        kept = course / "server" / "uploads" / "hog" / str(answer["id"]) / "hog.py"
        assert kept.read_bytes() == path.read_bytes()
        assert main(["--course", str(course), "grade", str(kept), "--format", "json", "--isolation", "files",
                     "--seed", str(got["result"]["seed"])]) == 0
        assert without_time(got["result"]) == without_time(json.loads(capsys.readouterr().out))
    scores = [client.get(f"/api/submissions/{a['id']}", headers=bearer(tokens["s1"])).get_json()["result"]["score"]
              for a in sent]
    assert scores[0] < scores[1] == 23.0
    gradebook = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
    row = gradebook.splitlines()[1].split(",")
    assert row[:3] == ["s1", "s1@example.edu", str(sent[1]["id"])] and row[4:8] == ["23.0", "23.0", "graded", "0"]
    staff = signed_in(app, tokens["t1"])
    report = staff.get("/staff/assignments/hog/report")
    assert report.status_code == 200 and "<h2>Skipped files</h2>" in report.get_data(as_text=True)
    figures = json.loads((course / "server" / "reports" / "hog" / "class" / "report.json").read_text())
    assert figures["submissions"] == 1 and figures["final_strategy"]   # the counted one, with its instructor record
    assert staff.get("/staff/assignments/hog/similarity").status_code == 200
    instructor = staff.get(f"/staff/submissions/{sent[0]['id']}").get_data(as_text=True)
    assert "Instructor record" in instructor and "hidden&#34;: true" in instructor   # failed hidden cases by id


def test_claims_never_overlap_and_only_the_current_claim_records_a_result(course, any_database):
    app = make_app(course, any_database)
    token = issue(app, "s1")["s1"]
    for _ in range(3):
        assert upload(app.test_client(), token, SOLUTION.read_bytes()).status_code == 202
    engine = app.config["hog.settings"].engine
    alive = queue.grader_name()   # this process: a grader that is alive
    queue.beat(engine, alive)
    first, second = queue.claim(engine, alive, 2), queue.claim(engine, alive, 2)
    assert [job for job, _ in first] == [1, 2] and [job for job, _ in second] == [3]
    assert queue.claim(engine, alive, 2) == []
    # The grader of the first claim dies; its jobs are claimed again; the late result of the dead one is dropped.
    dead = f"{socket.gethostname()}:{2 ** 22 + 7}"   # above any pid this machine gives
    with app.config["hog.settings"].sessions() as session, session.begin():
        session.add(Grader(id=dead, heartbeat=queue.db.now()))
        for submission in session.scalars(select(Submission).where(Submission.id.in_([1, 2]))):
            submission.grader = dead
    assert queue.requeue_dead(engine) == 2
    again = queue.claim(engine, alive, 5)
    assert again == [(1, 2), (2, 2)]
    result = {"score": 1.0, "max_score": 23.0, "tests": []}
    assert queue.finish(engine, first[0], result, None, False) is False
    assert queue.finish(engine, again[0], result, None, False) is True
    assert queue.finish(engine, again[0], result, None, False) is False
    with app.config["hog.settings"].sessions() as session:
        statuses = dict(session.execute(select(Submission.id, Submission.status)).all())
    assert statuses == {1: GRADED, 2: GRADING, 3: GRADING}


@pytest.mark.slow
def test_a_regrade_after_a_fix_of_the_course_grades_with_the_fix(course, database):
    app = make_app(course, database)
    token = issue(app, "s1")["s1"]
    engine = app.config["hog.settings"].engine
    sent = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()
    assert graders.drain(engine, jobs=1, isolation="files") == 1
    read = lambda: app.test_client().get(f"/api/submissions/{sent['id']}", headers=bearer(token)).get_json()  # noqa: E731
    assert read()["result"]["max_score"] == 23.0
    config = course / "hog-course.toml"
    config.write_text(config.read_text() + "\n[points.sp19]\nq01 = 4\n")
    assert queue.regrade(engine, "hog") == 1 and read()["status"] == QUEUED
    assert graders.drain(engine, jobs=1, isolation="files") == 1
    assert (read()["status"], read()["result"]["max_score"], read()["result"]["score"]) == (GRADED, 25.0, 25.0)
