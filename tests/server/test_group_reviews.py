"""Partners graded by hand: staff review the group's submission once, and it is each member's: both read it
once released, and each one's total is their autograder's score, the rubric's points and their bonus."""

from __future__ import annotations

from tests.server.conftest import bearer, issue, signed_in, upload
from tests.server.groups_helpers import configured, grade_all, page_action
from tests.server.reviewing import put, review
from tests.spec.test_rubric import TABLES

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'


def rows(app, token: str) -> dict[str, dict]:
    """The staff's gradebook CSV, a row a student."""
    text = app.test_client().get("/api/assignments/hog/gradebook.csv", headers=bearer(token)).get_data(as_text=True)
    head, *lines = [line.split(",") for line in text.splitlines()]
    return {line[0]: dict(zip(head, line)) for line in lines}


def test_a_groups_submission_reviewed_once_counts_for_both_partners_once_released(course, migrated_sqlite):
    app = configured(course, migrated_sqlite, tables=TABLES)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    one, two = signed_in(app, tokens["s1"]), signed_in(app, tokens["s2"])
    assert page_action(one, "invite", student="s2").status_code == 303
    assert page_action(two, "accept", **{"from": "s1"}).status_code == 303
    sent = upload(app.test_client(), tokens["s1"], SOURCE).get_json()["id"]
    grade_all(app, 20.0)
    client = app.test_client()
    assert put(client, tokens["t1"], sent, review(client, tokens["t1"], sent)["version"],
               rubric={"docs": True}).status_code == 200
    before = rows(app, tokens["t1"])
    assert [before[s]["total"] for s in ("s1", "s2", "s3")] == ["20.0", "20.0", ""]   # not released yet
    assert "review" not in client.get(f"/api/submissions/{sent}", headers=bearer(tokens["s2"])).get_json()
    assert client.post("/api/assignments/hog/release", headers=bearer(tokens["t1"])).status_code == 200
    after = rows(app, tokens["t1"])
    assert [(after[s]["rubric:docs"], after[s]["total"], after[s]["total_max"]) for s in ("s1", "s2")] == [
        ("2.0", "22.0", "25.0"), ("2.0", "22.0", "25.0")]
    seen = client.get(f"/api/submissions/{sent}", headers=bearer(tokens["s2"])).get_json()["review"]
    assert ([item["id"] for item in seen["items"]], seen["total"]) == (["docs"], 22.0)   # the partner reads it
    assert "22 / 25 with the staff's grading" in two.get("/").get_data(as_text=True)   # the partner's home
