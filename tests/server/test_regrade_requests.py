"""Regrade requests through the API: asked after release about one rubric item or the autograder's part,
one open per item, refused past the window (or where the assignment takes none), listed for their student
(all for staff), answered by staff, and kept in the grade's history."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from grader.server.store import db
from grader.server.store.models import Release
from tests.server.conftest import bearer, issue
from tests.server.reviewing import graded, put, review, rubric_app, rubric_course


def served_with(tmp_path, migrated, extra: str = ""):
    course = rubric_course(tmp_path, extra)
    app = rubric_app(course, migrated=migrated)
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    number = graded(app, "s1", 20.0)
    client = app.test_client()
    assert put(client, tokens["t1"], number, 0, rubric={"names": True}).status_code == 200
    return app, tokens, number, client


def ask(client, token, number, item="names", message="my names say what they hold"):
    return client.post(f"/api/submissions/{number}/regrade-requests", headers=bearer(token),
                       json={"item": item, "message": message})


def release(client, tokens):
    assert client.post("/api/assignments/hog/release", headers=bearer(tokens["t1"])).status_code == 200


def test_a_student_asks_after_release_once_per_item_and_reads_staff_s_answer(tmp_path, migrated_sqlite):
    app, tokens, number, client = served_with(tmp_path, migrated_sqlite)
    early = ask(client, tokens["s1"], number)
    assert early.status_code == 409 and "not released yet" in early.get_json()["error"]
    release(client, tokens)
    made = ask(client, tokens["s1"], number)
    assert made.status_code == 201 and made.get_json()["item_title"] == "Names say what they hold"
    again = ask(client, tokens["s1"], number, message="please")
    assert again.status_code == 409 and "still open" in again.get_json()["error"]
    assert ask(client, tokens["s1"], number, item="autograder", message="question 1 is right").status_code == 201
    assert ask(client, tokens["s1"], number, item="nmaes").status_code == 400
    assert ask(client, tokens["s1"], number, message=" ").status_code == 400
    request_id = made.get_json()["id"]
    staff_list = client.get("/api/regrade-requests", headers=bearer(tokens["t1"])).get_json()
    assert [each["item"] for each in staff_list] == ["names", "autograder"]
    refused = client.post(f"/api/regrade-requests/{request_id}/answer", headers=bearer(tokens["s1"]),
                          json={"message": "yes", "changed": True})
    assert refused.status_code == 403
    answered = client.post(f"/api/regrade-requests/{request_id}/answer", headers=bearer(tokens["t1"]),
                           json={"message": "you are right: names removed", "changed": True})
    assert answered.status_code == 200
    assert client.post(f"/api/regrade-requests/{request_id}/answer", headers=bearer(tokens["t1"]),
                       json={"message": "again", "changed": False}).status_code == 409
    mine = client.get("/api/regrade-requests", headers=bearer(tokens["s1"])).get_json()
    assert mine[0]["answer"] == "you are right: names removed" and mine[0]["changed"] is True
    assert ask(client, tokens["s1"], number, message="one more look").status_code == 201   # the first is answered
    said = [change["what"] for change in review(client, tokens["t1"], number)["history"]]
    assert any("regrade request" in what and "Names" in what for what in said)
    assert any(f"answered regrade request {request_id}" in what and "changed" in what for what in said)


def test_another_student_s_submission_and_requests_are_not_found_to_them(tmp_path, migrated_sqlite):
    app, tokens, number, client = served_with(tmp_path, migrated_sqlite)
    release(client, tokens)
    assert ask(client, tokens["s2"], number).status_code == 404
    assert ask(client, tokens["s1"], number).status_code == 201
    assert client.get("/api/regrade-requests", headers=bearer(tokens["s2"])).get_json() == []
    assert client.post("/api/regrade-requests/999/answer", headers=bearer(tokens["t1"]),
                       json={"message": "x", "changed": False}).status_code == 404


def test_a_request_past_the_window_is_refused_with_when_it_closed(tmp_path, migrated_sqlite):
    app, tokens, number, client = served_with(tmp_path, migrated_sqlite)
    release(client, tokens)
    with app.config["hog.settings"].engine.begin() as connection:
        connection.execute(update(Release).values(released_at=db.now() - timedelta(days=7, minutes=1)))
    late = ask(client, tokens["s1"], number)
    assert late.status_code == 409 and "closed at" in late.get_json()["error"] and "7 days" in late.get_json()["error"]


def test_an_assignment_with_no_regrade_days_takes_no_request(tmp_path, migrated_sqlite):
    app, tokens, number, client = served_with(tmp_path, migrated_sqlite, "regrade_requests_days = 0\n")
    release(client, tokens)
    refused = ask(client, tokens["s1"], number)
    assert refused.status_code == 409 and "takes no regrade requests" in refused.get_json()["error"]
