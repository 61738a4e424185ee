"""What a student sees of the hidden cases their submission failed, by the assignment's ``hidden_cases``:
never (``counted``); once no student can still submit (``after_due``: the due date, the longest extension and
the late days past), for every submission, also ones graded before; at once (``shown``). Until then nothing of a
hidden case's call, expected or got value reaches the student: not the pages, not the API (which submit.py
reads). The due date is passed by moving the course's due date."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from grader import project
from grader.server.store.models import Extension, Person
from tests.server.conftest import bearer, issue, make_app, signed_in, upload
from tests.server.groups_helpers import SOURCE, configured, grade_all

SECRET_CALL = "roll_dice(7, make_test_dice(2, 1, 1, 4, 1, 1, 1))"
REDACTED = "0/3 cases passed\n\nQuestion 1: a hidden case failed (the public cases may all pass; check the rules)"
REVEALED = (f"0/3 cases passed\n\nQuestion 1 > hidden case 4\n(generated)\n\n>>> {SECRET_CALL}\n\n"
            "# Error: expected\n#     1\n# but got\n#     -1")
TESTS = [{"name": "Question 1", "number": "1", "score": 0, "max_score": 2, "status": "failed", "output": REDACTED}]
RECORD = {"format": 1, "questions": [{"number": "1", "score": 0, "max_score": 2, "revealed": REVEALED,
                                      "failed": [{"case": "sp19-q01-hidden-4", "hidden": True, "step": 1,
                                                  "got": "-1"}]}]}


def graded_one(course, migrated, hidden: str):
    app = configured(course, migrated, extra=f'hidden_cases = "{hidden}"\n')
    tokens = issue(app, "s1", "s2")
    number = upload(app.test_client(), tokens["s1"], SOURCE).get_json()["id"]
    grade_all(app, 0.0, tests=TESTS, instructor=RECORD)
    return app, tokens, number


def everything_seen(app, token: str, number: int) -> str:
    """What the student reads of the submission by every route: its page, the API's one and its list."""
    client = app.test_client()
    return "\n".join([signed_in(app, token).get(f"/submissions/{number}").get_data(as_text=True),
                      client.get(f"/api/submissions/{number}", headers=bearer(token)).get_data(as_text=True),
                      client.get("/api/submissions", headers=bearer(token)).get_data(as_text=True)])


def moved_due(course, when: datetime):
    """The course's hog due at ``when`` (hog serve started again over the same database)."""
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("due = 2099-01-01T00:00:00Z",
                                                 f"due = {when.isoformat(timespec='seconds')}", 1))
    return make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")


def test_after_due_hides_every_hidden_case_until_no_student_can_submit_then_shows_it_as_a_public_one(
        course, migrated_sqlite):
    app, tokens, number = graded_one(course, migrated_sqlite, "after_due")
    before = everything_seen(app, tokens["s1"], number)
    assert "a hidden case failed" in before and "make_test_dice(2, 1, 1, 4" not in before and "#     -1" not in before
    # Due three days ago with two late days: past for everyone but a student given two days more.
    with app.config["hog.settings"].sessions() as session, session.begin():
        s2 = session.query(Person).filter_by(student_id="s2").one()
        session.add(Extension(person_id=s2.id, assignment="hog", days=2))
    later = moved_due(course, datetime.now(timezone.utc) - timedelta(days=3))
    assert "make_test_dice(2, 1, 1, 4" not in everything_seen(later, tokens["s1"], number)
    with later.config["hog.settings"].sessions() as session, session.begin():
        session.query(Extension).delete()
    shown = signed_in(later, tokens["s1"]).get(f"/submissions/{number}").get_data(as_text=True)
    assert "&gt;&gt;&gt; roll_dice(7, make_test_dice(2, 1, 1, 4, 1, 1, 1))" in shown and "#     -1" in shown
    api = later.test_client().get(f"/api/submissions/{number}", headers=bearer(tokens["s1"])).get_json()
    assert api["result"]["tests"][0]["output"] == REVEALED
    assert later.test_client().get("/api/submissions", headers=bearer(tokens["s1"])).get_json()[0][
        "result"]["tests"][0]["output"] == REVEALED


def test_counted_never_shows_a_hidden_case_even_long_after_the_due_date(course, migrated_sqlite):
    app, tokens, number = graded_one(course, migrated_sqlite, "counted")
    later = moved_due(course, datetime(2001, 1, 1, tzinfo=timezone.utc))
    seen = everything_seen(later, tokens["s1"], number)
    assert "a hidden case failed" in seen and "make_test_dice(2, 1, 1, 4" not in seen


def test_shown_shows_a_failing_hidden_case_at_once(course, migrated_sqlite):
    app, tokens, number = graded_one(course, migrated_sqlite, "shown")
    api = app.test_client().get(f"/api/submissions/{number}", headers=bearer(tokens["s1"])).get_json()
    assert api["result"]["tests"][0]["output"] == REVEALED
