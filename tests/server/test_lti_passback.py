"""Counted scores sent back to the LMS: posted once per counted score to the launch's line item with a token
the tool's client assertion earned; an LMS down is tried again later, shown to staff, and gets the score once
it is back; the queue is the database's, so it outlives the process that filled it."""

from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select, update

from grader import project
from grader.server.grading import queue
from grader.server.lti import ags, keys, passback
from grader.server.store import db
from grader.server.store.models import GRADING, Link, Person, Submission
from tests.server.conftest import issue, make_app, make_course, signed_in
from tests.server.lti_platform import Platform, login_query
from tests.server.test_lti import launched, platform, register   # noqa: F401  (the platform fixture)


def graded(app, score: float, *, late_days: int = 0, fault: bool = False, email: str = "s1@example.edu",
           student_id: str | None = None) -> int:
    """A submission of the launched student (by email, or student id), claimed and given its result as the
    grader gives it."""
    settings = app.config["hog.settings"]
    with settings.sessions() as session, session.begin():
        person = session.scalars(select(Person).where(
            Person.student_id == student_id if student_id else Person.email == email)).one()
        row = Submission(person_id=person.id, assignment="hog", variant="sp19", filename="hog.py", sha256="0" * 64,
                         seed=1, submitted_at=db.now(), late_days=late_days, status=GRADING, attempt=1)
        session.add(row)
        session.flush()
        number = row.id
    assert queue.finish(settings.engine, (number, 1), {"score": score, "max_score": 23.0}, None, fault)
    return number


def link(app) -> Link:
    with app.config["hog.settings"].sessions() as session:
        return session.scalars(select(Link)).one()


def sender(app, course) -> ags.Client:
    return ags.Client(course / "server")


def test_a_graded_submission_s_counted_score_is_posted_once_to_the_launch_s_line_item(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0)
    client = sender(app, course)
    assert passback.send_due(app.config["hog.settings"].engine, client) == (1, 0)
    assert passback.send_due(app.config["hog.settings"].engine, client) == (0, 0)   # nothing twice
    [(lineitem, score)] = platform.scores
    assert lineitem == f"{platform.url}/lineitems/1"
    assert {name: score[name] for name in ("userId", "scoreGiven", "scoreMaximum", "activityProgress",
                                           "gradingProgress")} == {
        "userId": "canvas-user-1", "scoreGiven": 20.0, "scoreMaximum": 23.0, "activityProgress": "Completed",
        "gradingProgress": "FullyGraded"}
    assert score["timestamp"].endswith("Z") and platform.assertions_checked == 1
    graded(app, 23.0)   # a better one counts (score = "last"): sent, with the token kept
    graded(app, 23.0)   # the same counted score again: not sent again
    assert passback.send_due(app.config["hog.settings"].engine, client) == (1, 0)
    assert [each["scoreGiven"] for _, each in platform.scores] == [20.0, 23.0]
    assert platform.assertions_checked == 1
    assert platform.scores[1][1]["timestamp"] > platform.scores[0][1]["timestamp"]


def test_a_late_penalty_counts_and_a_fault_of_the_kit_sends_nothing(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 10.0, fault=True)
    assert link(app).due is False
    graded(app, 20.0, late_days=1)   # penalty_per_day 0.5
    assert passback.send_due(app.config["hog.settings"].engine, sender(app, course)) == (1, 0)
    assert platform.scores[0][1]["scoreGiven"] == 10.0


@pytest.mark.slow
def test_a_platform_down_is_tried_again_later_shown_to_staff_and_gets_the_score_once_back(app, course, platform):
    staff = signed_in(app, issue(app, "t1", role="staff")["t1"])
    register(app, platform, trust_email=True)   # the launch joins the roster's s1 by email
    issue(app, "s1")
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0)
    engine = app.config["hog.settings"].engine
    platform.down = True
    assert passback.send_due(engine, sender(app, course)) == (0, 1)
    assert passback.send_due(engine, sender(app, course)) == (0, 0)   # not again before its next try
    page = staff.get("/staff/lti").get_data(as_text=True)
    assert "not sent: tried 1 times" in page and "503" in page and "s1" in page
    assert "503" in staff.get("/staff/students/s1").get_data(as_text=True)
    platform.down = False
    with engine.begin() as connection:   # its next try is due (BACKOFF[0] seconds later)
        connection.execute(update(Link).values(next_try_at=db.now() - timedelta(seconds=1)))
    assert passback.send_due(engine, sender(app, course)) == (1, 0)   # another process: the queue is the table's
    assert [each["scoreGiven"] for _, each in platform.scores] == [20.0]
    assert "sent 20 / 23" in staff.get("/staff/lti").get_data(as_text=True)


def test_a_refused_token_or_a_platform_removed_is_kept_and_said(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0)
    engine = app.config["hog.settings"].engine
    (course / "server" / keys.TOOL_KEY).write_text(
        keys.RSAKey.generate_key(2048, private=True).as_pem(private=True).decode())   # not the key it published
    platform.tool_jwks = lambda: {"keys": []}
    assert passback.send_due(engine, sender(app, course)) == (0, 1)
    assert "token endpoint answered 401" in link(app).problem
    assert platform.scores == []


def test_a_launch_with_only_the_line_items_finds_or_makes_the_assignment_s_item(app, course, platform):
    endpoint = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
    answer = launched(app.test_client(), platform, **{endpoint: {"lineitems": f"{platform.url}/lineitems"}})
    assert answer.status_code == 303
    graded(app, 20.0)
    assert passback.send_due(app.config["hog.settings"].engine, sender(app, course)) == (1, 0)
    [(lineitem, _)] = platform.scores
    assert lineitem == f"{platform.url}/lineitems/2" and platform.lineitems["2"]["resourceId"] == "hog"
    assert link(app).lineitem == lineitem


def test_a_student_graded_before_their_first_launch_has_the_score_sent_at_the_launch(app, course, platform):
    register(app, platform, trust_email=True)   # the launch joins the roster's s1 by email
    token = issue(app, "s1")["s1"]
    signed_in(app, token)
    graded(app, 21.0)
    assert launched(app.test_client(), platform).status_code == 303
    assert link(app).due and link(app).wanted_score == 21.0


def test_start_gives_every_link_its_counted_score_as_the_config_says_now(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0, late_days=1)
    engine = app.config["hog.settings"].engine
    server = app.config["hog.settings"].server
    assert link(app).wanted_score == 10.0
    changed = server.__class__(server.url, tuple(a.__class__(**{**a.__dict__, "penalty_per_day": 0.25})
                                                 for a in server.assignments))
    passback.refresh_all(engine, changed)
    assert link(app).wanted_score == 15.0 and link(app).due


@pytest.mark.slow
def test_the_sender_thread_of_hog_serve_sends_what_is_due(app, course, platform, database):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0)
    running = passback.Sender(database, course / "server").start()
    try:
        deadline = time.monotonic() + 10
        while not platform.scores and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        running.stop()
    assert len(platform.scores) == 1


@pytest.mark.slow
def test_a_regrade_sends_nothing_until_its_last_result_and_then_only_a_changed_score(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    older, newer = graded(app, 10.0), graded(app, 20.0)
    engine = app.config["hog.settings"].engine
    assert passback.send_due(engine, sender(app, course)) == (1, 0)
    assert queue.regrade(engine, "hog") == 2
    for number, score in ((older, 10.0), (newer, 21.0)):
        with engine.begin() as connection:
            connection.execute(update(Submission).where(Submission.id == number).values(status=GRADING, attempt=2))
        assert queue.finish(engine, (number, 2), {"score": score, "max_score": 23.0}, None, False)
        if number == older:
            assert link(app).wanted_score == 20.0   # the older one's 10 is never wanted
    assert passback.send_due(engine, sender(app, course)) == (1, 0)
    assert [each["scoreGiven"] for _, each in platform.scores] == [20.0, 21.0]


def test_the_session_after_a_launch_over_https_works_in_the_lms_s_frame(tmp_path, migrated_sqlite):
    course = make_course(tmp_path)
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("http://hog.test", "https://hog.test"))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}", migrated_sqlite)
    found = Platform(lambda: keys.tool_jwks(course / "server"))
    found.redirect_uri = "https://hog.test/lti/launch"
    try:
        register(app, found)
        client = app.test_client()
        login = client.get(f"/lti/login?{login_query(found, 'https://hog.test/assignments/hog')}",
                           base_url="https://hog.test")
        assert "Secure" in login.headers["Set-Cookie"] and "SameSite=None" in login.headers["Set-Cookie"]
        sent = parse_qs(urlsplit(login.headers["Location"]).query)
        answer = client.post("/lti/launch", base_url="https://hog.test", headers={"Referer": "https://lms.test/"},
                             data={"id_token": found.id_token(sent["nonce"][0]), "state": sent["state"][0]})
        assert answer.status_code == 303
        session = next(cookie for cookie in answer.headers.getlist("Set-Cookie") if cookie.startswith("hog_session="))
        assert "Secure" in session and "SameSite=None" in session and "HttpOnly" in session
        assert client.get("/assignments/hog", base_url="https://hog.test").status_code == 200
    finally:
        found.stop()
        project.use()
