"""Grading by hand through the API: a review of a submission on the rubric, saved against the version it
read (a stale one refused, two graders never overwriting each other), carried over to a newer counted
submission, seen by the student after release only, with the total it makes."""

from __future__ import annotations

import csv

import pytest

from grader import project
from grader.cli import main
from tests.server.conftest import bearer, issue, signed_in
from tests.server.reviewing import graded, put, review, rubric_app, rubric_course


@pytest.fixture
def served(tmp_path, migrated_sqlite):
    course = rubric_course(tmp_path)
    app = rubric_app(course, migrated=migrated_sqlite)
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", "t2", role="staff")}
    return app, tokens


def test_staff_read_an_empty_review_save_it_and_read_back_what_they_saved(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    client = app.test_client()
    empty = review(client, tokens["t1"], number)
    assert empty["version"] == 0 and empty["rubric"] == {"names": False, "repeat": False, "docs": False}
    assert empty["submission"] == number and empty["outdated"] is False
    saved = put(client, tokens["t1"], number, 0, rubric={"names": True, "docs": True},
                adjustment={"points": 0.5, "reason": "a clear plan in the comments"},
                comments=[{"line": 3, "end_line": 4, "text": "total is never changed"}])
    assert saved.status_code == 200, saved.get_json()
    again = review(client, tokens["t2"], number)
    assert again["version"] == 1 and again["rubric"] == {"names": True, "repeat": False, "docs": True}
    assert again["adjustment"] == {"points": 0.5, "reason": "a clear plan in the comments"}
    assert again["comments"] == [{"line": 3, "end_line": 4, "text": "total is never changed"}]
    assert again["rubric_points"] == 1.5 and again["total"] == 21.5 and again["total_max"] == 25.0
    [change] = again["history"]
    assert change["who"] == "t1" and "applied names (-1), docs (+2)" in change["what"]
    assert change["why"] == "a clear plan in the comments" and change["when"]


def test_a_save_from_a_stale_page_is_refused_with_409_and_the_other_grader_s_work_is_kept(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    first, second = app.test_client(), app.test_client()
    assert review(first, tokens["t1"], number)["version"] == review(second, tokens["t2"], number)["version"] == 0
    assert put(first, tokens["t1"], number, 0, rubric={"names": True}).status_code == 200
    refused = put(second, tokens["t2"], number, 0, rubric={"docs": True})
    assert refused.status_code == 409
    assert "changed since you read it" in refused.get_json()["error"] and "version 1" in refused.get_json()["error"]
    kept = review(first, tokens["t1"], number)
    assert kept["rubric"]["names"] is True and kept["rubric"]["docs"] is False and kept["version"] == 1
    assert put(second, tokens["t2"], number, 1, rubric={"names": True, "docs": True}).status_code == 200
    assert put(first, tokens["t1"], number, 1, rubric={}).status_code == 409


REFUSED = [
    ({"rubric": {"nmaes": True}}, "no rubric item 'nmaes'"),
    ({"rubric": {"names": "yes"}}, "true or false"),
    ({"adjustment": {"points": 1, "reason": ""}}, "a reason"),
    ({"comments": [{"line": 0, "text": "x"}]}, "line"),
    ({"comments": [{"line": 5, "end_line": 3, "text": "x"}]}, "end_line"),
    ({"comments": [{"line": 2, "text": ""}]}, "text"),
    ({"version": "one"}, "version"),
    ({"grade": 3}, "unknown key 'grade'"),
]


def test_a_review_that_cannot_be_saved_is_refused_with_400_and_what_to_fix(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    client = app.test_client()
    for body, said in REFUSED:
        sent = {"rubric": {}, "adjustment": {"points": 0, "reason": ""}, "comments": [], "version": 0, **body}
        answer = client.put(f"/api/submissions/{number}/review", headers=bearer(tokens["t1"]), json=sent)
        assert answer.status_code == 400 and said in answer.get_json()["error"], (body, answer.get_json())
    not_json = client.put(f"/api/submissions/{number}/review", headers=bearer(tokens["t1"]), data="not json")
    assert not_json.status_code == 400
    assert review(client, tokens["t1"], number)["version"] == 0   # nothing saved


def test_students_reach_no_review_route_and_see_nothing_of_the_manual_part_before_release(served):
    app, tokens = served
    mine, theirs = graded(app, "s1", 20.0), graded(app, "s2", 10.0)
    client = app.test_client()
    assert put(client, tokens["t1"], mine, 0, rubric={"docs": True}).status_code == 200
    for number in (mine, theirs):
        assert client.get(f"/api/submissions/{number}/review", headers=bearer(tokens["s1"])).status_code == 403
        assert put(client, tokens["s1"], number, 1, rubric={"docs": True}).status_code == 403
    assert client.post("/api/assignments/hog/release", headers=bearer(tokens["s1"])).status_code == 403
    assert "review" not in client.get(f"/api/submissions/{mine}", headers=bearer(tokens["s1"])).get_json()
    assert client.get(f"/api/submissions/{theirs}", headers=bearer(tokens["s1"])).status_code == 404


def test_after_release_the_student_reads_the_items_the_comments_and_the_total_of_their_submission(served):
    app, tokens = served
    number = graded(app, "s1", 20.0, late_days=1)   # penalty_per_day 0.5: the autograder's part counts 10
    client = app.test_client()
    assert put(client, tokens["t1"], number, 0, rubric={"names": True, "docs": True},
               comments=[{"line": 1, "text": "a good name"}]).status_code == 200
    released = client.post("/api/assignments/hog/release", headers=bearer(tokens["t1"]))
    assert released.status_code == 200 and released.get_json()["released_at"]
    got = client.get(f"/api/submissions/{number}", headers=bearer(tokens["s1"])).get_json()["review"]
    assert got["items"] == [{"id": "names", "title": "Names say what they hold", "points": -1.0},
                            {"id": "docs", "title": "Docstrings", "points": 2.0}]
    assert got["comments"] == [{"line": 1, "end_line": 1, "text": "a good name"}]
    assert got["adjustment"] == {"points": 0.0, "reason": ""}
    assert (got["total"], got["total_max"]) == (11.0, 25.0)   # the penalty takes nothing of the rubric's points
    assert got["released_at"] == released.get_json()["released_at"]
    assert client.post("/api/assignments/nothing/release", headers=bearer(tokens["t1"])).status_code == 404


def test_a_newer_counted_submission_flags_the_review_which_staff_carry_over_with_one_save(served):
    app, tokens = served
    older = graded(app, "s1", 20.0)
    client = app.test_client()
    assert put(client, tokens["t1"], older, 0, rubric={"docs": True}).status_code == 200
    newer = graded(app, "s1", 22.0)
    flagged = review(client, tokens["t1"], newer)
    assert flagged["outdated"] is True and flagged["submission"] == older and flagged["counted"] == newer
    assert flagged["rubric"]["docs"] is True
    carried = put(client, tokens["t1"], newer, flagged["version"], rubric=flagged["rubric"])
    assert carried.status_code == 200
    now = review(client, tokens["t1"], newer)
    assert now["outdated"] is False and now["submission"] == newer and now["total"] == 24.0
    assert any(f"carried over from submission {older}" in change["what"] for change in now["history"])


def test_the_gradebook_and_its_csv_have_a_column_per_rubric_item_and_the_total_counting_it_once_released(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    client = app.test_client()
    assert put(client, tokens["t1"], number, 0, rubric={"names": True, "docs": True},
               adjustment={"points": 0.5, "reason": "clear plan"}).status_code == 200

    def table() -> dict[str, dict]:
        text = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
        return {row["student_id"]: row for row in csv.DictReader(text.splitlines())}

    before = table()
    assert [before["s1"][f"rubric:{item}"] for item in ("names", "repeat", "docs")] == ["-1.0", "0", "2.0"]
    assert before["s1"]["adjustment"] == "0.5"
    assert (before["s1"]["total"], before["s1"]["total_max"]) == ("20.0", "23.0")   # not released: the autograder's
    assert before["s2"]["rubric:names"] == before["s2"]["total"] == ""
    staff = signed_in(app, tokens["t1"])
    seen = staff.get("/staff/assignments/hog/state.json").get_json()["state"]
    assert client.post("/api/assignments/hog/release", headers=bearer(tokens["t1"])).status_code == 200
    assert staff.get("/staff/assignments/hog/state.json").get_json()["state"] != seen   # the live gradebook reloads
    after = table()
    assert (after["s1"]["total"], after["s1"]["total_max"]) == ("21.5", "25.0")
    assert '<th scope="col" data-key="rubric:docs">Rubric: docs</th>' in staff.get("/staff/assignments/hog").get_data(
        as_text=True)


def test_hog_serve_release_releases_the_grades_as_the_button_does(served, capsys):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    client = app.test_client()
    assert put(client, tokens["t1"], number, 0, rubric={"docs": True}).status_code == 200
    course = app.config["hog.settings"].course
    assert main(["--course", str(course), "serve", "release", "hog"]) == 0
    assert "hog's grades given by hand are released" in capsys.readouterr().out
    assert client.get(f"/api/submissions/{number}", headers=bearer(tokens["s1"])).get_json()["review"]["total"] == 22.0
    assert main(["--course", str(course), "serve", "release", "hgo"]) == 2
    assert "no [assignments.hgo]" in capsys.readouterr().err


def test_an_item_s_points_changed_in_the_config_apply_to_every_review_and_one_removed_keeps_its_history(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    assert put(app.test_client(), tokens["t1"], number, 0, rubric={"names": True, "docs": True}).status_code == 200
    course = app.config["hog.settings"].course
    config = course / project.CONFIG_NAME
    renamed = 'id = "named"\ntitle = "Named"\npoints = -1\n'   # names taken out, another item in its place
    config.write_text(config.read_text().replace("points = 2\n", "points = 3\n").replace(
        'id = "names"\ntitle = "Names say what they hold"\npoints = -1\ngroup = "style"\n', renamed))
    restarted = rubric_app(course)   # hog serve reads its config at start
    now = review(restarted.test_client(), tokens["t1"], number)
    assert now["rubric"] == {"named": False, "repeat": False, "docs": True}
    assert (now["rubric_points"], now["total"], now["total_max"]) == (3.0, 23.0, 26.0)
    assert "applied names (-1), docs (+2)" in now["history"][0]["what"]
