"""What an operator's monitor reads: /healthz (200 when the database answers and a grader is alive and well,
503 otherwise, never a 500) and /metrics in Prometheus's format (to the loopback or the metrics token)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update

from grader.server.grading import queue
from grader.server.store import db
from grader.server.store.models import Grader, Submission
from grader.server.web import metrics
from tests.server.conftest import issue, make_app, signed_in, upload

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'
OUTSIDE = {"REMOTE_ADDR": "203.0.113.9"}


def told_all(app):
    """/healthz as the holder of the metrics token reads it."""
    token = (app.config["hog.settings"].course / "server" / metrics.TOKEN).read_text().strip()
    return app.test_client().get("/healthz", headers={"Authorization": f"Bearer {token}"})


def test_without_a_grader_alive_healthz_is_503_and_says_uploads_wait(app):
    answer = told_all(app)
    said = answer.get_json()
    assert answer.status_code == 503 and said["ok"] is False
    assert said["web"] == {"ok": True} and said["database"]["ok"] is True and said["database"]["latency_ms"] >= 0
    assert said["graders"]["alive"] == 0 and said["graders"]["error"].startswith("no grader has said it is alive")
    assert said["queue"] == {"ok": True, "length": 0, "queued": 0, "grading": 0, "oldest_queued_seconds": None,
                             "failures_last_hour": 0}


def test_with_a_grader_alive_healthz_is_200_with_the_queue_and_the_failures_of_the_hour(course, any_database):
    app = make_app(course, any_database)
    token = issue(app, "s1")["s1"]
    engine = app.config["hog.settings"].engine
    for _ in range(3):
        assert upload(app.test_client(), token, SOURCE).status_code == 202
    name = queue.grader_name()
    queue.beat(engine, name)
    failed, _ = queue.claim(engine, name, 2)
    assert queue.finish(engine, failed, {"score": 0, "max_score": 23.0, "grader_failed": True}, None, True)
    with engine.begin() as connection:   # the oldest queued one waited a minute
        connection.execute(update(Submission).where(Submission.id == 3).values(
            submitted_at=db.now() - timedelta(minutes=1)))
    answer = told_all(app)
    said = answer.get_json()
    assert answer.status_code == 200 and said["ok"] is True, said
    assert said["graders"]["alive"] == 1 and said["graders"]["problems"] == []
    assert said["graders"]["each"][0]["name"] == name and said["graders"]["last_heartbeat"].endswith("+00:00")
    assert (said["queue"]["length"], said["queue"]["queued"], said["queue"]["grading"]) == (2, 1, 1)
    assert 60 <= said["queue"]["oldest_queued_seconds"] < 90 and said["queue"]["failures_last_hour"] == 1


def test_a_grader_that_reports_a_problem_of_its_machine_makes_healthz_503_naming_it(app):
    engine = app.config["hog.settings"].engine
    queue.beat(engine, "elsewhere:1")
    with engine.begin() as connection:
        connection.execute(update(Grader).values(problem="the scratch folder /tmp/hog-sandbox-of-1 is gone"))
    said = told_all(app)
    assert said.status_code == 503
    assert said.get_json()["graders"]["problems"] == ["elsewhere:1: the scratch folder /tmp/hog-sandbox-of-1 is gone"]


def test_healthz_tells_a_stranger_its_status_and_ok_flags_alone_and_staff_everything(app):
    queue.beat(app.config["hog.settings"].engine, "grader-host:4242:ns")
    with app.config["hog.settings"].engine.begin() as connection:
        connection.execute(update(Grader).values(problem="the scratch folder /srv/hog/scratch is gone"))
    answer = app.test_client().get("/healthz", environ_base=OUTSIDE)
    assert answer.status_code == 503 and answer.get_json() == {
        "ok": False, "database": {"ok": True}, "graders": {"ok": False}, "queue": {"ok": True}}
    assert "grader-host" not in answer.get_data(as_text=True) and "/srv" not in answer.get_data(as_text=True)
    staff = signed_in(app, issue(app, "t1", role="staff")["t1"])
    assert "grader-host:4242:ns" in staff.get("/healthz").get_data(as_text=True)
    student = signed_in(app, issue(app, "s1")["s1"])
    assert "grader-host" not in student.get("/healthz").get_data(as_text=True)


def test_a_database_that_does_not_answer_is_a_503_saying_so_never_a_500(app, course):
    settings = app.config["hog.settings"]
    settings.engine.dispose()
    (course / "server" / db.FILE).unlink()   # a new, empty file: no table answers
    answer = told_all(app)
    said = answer.get_json()
    assert answer.status_code == 503 and said["ok"] is False and said["web"] == {"ok": True}
    assert said["database"]["ok"] is False and said["database"]["error"].startswith(
        "the database does not answer: OperationalError: (sqlite3.OperationalError) no such table")
    scraped = app.test_client().get("/metrics").get_data(as_text=True)
    assert "hog_database_up 0.0" in scraped and "hog_submissions" not in scraped


def values(text: str) -> dict:
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_metrics_count_submissions_by_status_the_queue_and_grading_time_in_prometheus_format(course, any_database):
    app = make_app(course, any_database)
    token = issue(app, "s1")["s1"]
    engine = app.config["hog.settings"].engine
    for _ in range(3):
        upload(app.test_client(), token, SOURCE)
    name = queue.grader_name()
    queue.beat(engine, name)
    first, second = queue.claim(engine, name, 2)
    assert queue.finish(engine, first, {"score": 23.0, "max_score": 23.0}, None, False)
    with app.config["hog.settings"].sessions() as session, session.begin():   # its grading took 3 s
        graded = session.get(Submission, 1)
        graded.graded_at = db.utc(graded.claimed_at) + timedelta(seconds=3)
    answer = app.test_client().get("/metrics")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    got = values(answer.get_data(as_text=True))
    assert got[("hog_submissions", (("status", "graded"),))] == 1
    assert got[("hog_submissions", (("status", "grading"),))] == 1
    assert got[("hog_submissions", (("status", "queued"),))] == 1
    assert got[("hog_submissions", (("status", "grader failed"),))] == 0
    assert got[("hog_queue_depth", ())] == 2 and got[("hog_graders_alive", ())] == 1
    assert got[("hog_grader_failures_last_hour", ())] == 0 and got[("hog_queue_oldest_seconds", ())] >= 0
    assert got[("hog_grading_seconds_bucket", (("le", "2.0"),))] == 0
    assert got[("hog_grading_seconds_bucket", (("le", "5.0"),))] == 1
    assert got[("hog_grading_seconds_count", ())] == 1
    assert got[("hog_grading_seconds_sum", ())] == pytest.approx(3.0, abs=0.01)


def test_metrics_are_refused_to_a_request_from_elsewhere_or_through_a_proxy_but_not_with_the_token(app, course):
    client = app.test_client()
    assert client.get("/metrics", environ_base=OUTSIDE).status_code == 403
    through = client.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert through.status_code == 403 and "server/metrics_token" in through.get_data(as_text=True)
    kept = course / "server" / metrics.TOKEN
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    assert client.get("/metrics", environ_base=OUTSIDE, headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get("/metrics", environ_base=OUTSIDE,
                      headers={"Authorization": f"Bearer {kept.read_text().strip()}"}).status_code == 200
