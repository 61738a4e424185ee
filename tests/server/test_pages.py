"""What students and staff see and change on the pages: a roster's variant per student, extensions and
late days, the leaderboard's aliases, the Secure cookie behind https, a kit fault shown and graded again."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update

from grader import project
from grader.server.grading import queue
from grader.server.store.models import FAILED, QUEUED, Person, Submission
from grader.spec import load_variant
from tests.server.conftest import CONFIG, bearer, csrf, issue, make_app, signed_in, upload

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'
MANIFEST = "student_id,email,section,variant\ns1,s1@example.edu,101,sp19\ns2,s2@example.edu,102,fa19\n"


def test_with_a_roster_manifest_each_student_submits_to_their_own_variant_and_others_are_refused(course):
    (course / "manifest.csv").write_text(MANIFEST)
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text() + '\n[assignments.sections]\nmanifest = "manifest.csv"\n'
                      'due = 2099-01-01T00:00:00Z\n')
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = issue(app, "s1", "s2", "s3")
    client = app.test_client()
    for sid in ("s1", "s2"):
        assert upload(client, tokens[sid], SOURCE, assignment="sections").status_code == 202
    refused = upload(client, tokens["s3"], SOURCE, assignment="sections")
    assert refused.status_code == 403 and "not on sections's roster (manifest.csv)" in refused.get_json()["error"]
    with app.config["hog.settings"].sessions() as session:
        assert [s.variant for s in session.scalars(select(Submission).order_by(Submission.id))] == ["sp19", "fa19"]


def test_an_extension_given_by_staff_moves_the_late_days_and_the_closing_of_an_assignment(course):
    due = (datetime.now(timezone.utc) - timedelta(days=2, hours=12)).isoformat(timespec="seconds")
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text() + f'\n[assignments.recent]\nvariant = "sp19"\ndue = "{due}"\nlate_days = 1\n'
                      'penalty_per_day = 0.25\n')
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    closed = upload(app.test_client(), tokens["s1"], SOURCE, assignment="recent")
    assert closed.status_code == 403 and "closed at" in closed.get_json()["error"]
    staff = signed_in(app, tokens["t1"])
    form = {"csrf_token": csrf(staff, "/staff/students/s1"), "assignment": "recent", "days": "400"}
    assert staff.post("/staff/students/s1/extensions", data=form).status_code == 400
    assert staff.post("/staff/students/s1/extensions", data={**form, "days": "2"}).status_code == 303
    assert 'value="2"' in staff.get("/staff/students/s1").get_data(as_text=True)
    sent = upload(app.test_client(), tokens["s1"], SOURCE, assignment="recent")
    assert sent.status_code == 202   # due + 2 days of extension was half a day ago: one late day
    shown = app.test_client().get(f"/api/submissions/{sent.get_json()['id']}", headers=bearer(tokens["s1"]))
    assert shown.get_json()["late_days"] == 1
    student = signed_in(app, tokens["s1"])
    assert "(+2 days)" in student.get("/").get_data(as_text=True)
    # once graded, the page shows the score and what counts after a late day's penalty
    engine = app.config["hog.settings"].engine
    [job] = queue.claim(engine, "a test's grader", 1)
    assert queue.finish(engine, job, {"score": 20, "max_score": 23, "tests": [], "output": ""}, None, False)
    page = student.get(f"/submissions/{sent.get_json()['id']}").get_data(as_text=True)
    assert "Score: 20 / 23" in page and "Counted after the late penalty (1 late day): 15 / 23" in page


def test_the_leaderboard_shows_aliases_only_and_the_viewer_as_you(app):
    tokens = issue(app, "s1", "s2", "s3")
    engine = app.config["hog.settings"].engine
    for number, sid in enumerate(("s1", "s2", "s3")):
        assert upload(app.test_client(), tokens[sid], SOURCE).status_code == 202
        job = queue.claim(engine, queue.grader_name(), 1)[0]
        queue.finish(engine, job, {"score": 20.0 + number, "max_score": 23.0, "tests": []},
                     {"final_strategy": {"win_rate": 0.6 + number / 100}}, False)
    for sid, alias in (("s1", "Ada"), ("s2", "")):
        client = signed_in(app, tokens[sid])
        assert client.post("/alias", data={"csrf_token": csrf(client), "alias": alias}).status_code == 303
    page = signed_in(app, tokens["s3"]).get("/assignments/hog/leaderboard").get_data(as_text=True)
    assert "Ada" in page and "(hidden) (you)" in page and "s2" not in page.split("<table")[1]
    assert page.index("0.6200") < page.index("0.6000")


def test_behind_https_the_session_cookie_is_secure(course):
    config = course / project.CONFIG_NAME
    config.write_text(CONFIG.replace('url = "http://hog.test"', 'url = "https://hog.test"'))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    token = issue(app, "s1")["s1"]
    assert "Secure" in app.test_client().get(f"/signin/{token}").headers["Set-Cookie"]


def test_a_kit_fault_is_shown_as_grader_failed_never_a_zero_and_goes_back_to_the_queue_at_start(app):
    token = issue(app, "s1")["s1"]
    engine = app.config["hog.settings"].engine
    assert upload(app.test_client(), token, SOURCE).status_code == 202
    job = queue.claim(engine, queue.grader_name(), 1)[0]
    fault = {"score": 0, "max_score": 23.0, "tests": [], "grader_failed": True, "output": "grader failed: boom"}
    assert queue.finish(engine, job, fault, None, True)
    shown = app.test_client().get("/api/submissions/1", headers=bearer(token)).get_json()
    assert shown["status"] == FAILED and shown["result"]["grader_failed"] is True
    page = signed_in(app, token).get("/assignments/hog").get_data(as_text=True)
    assert "grader failed (a fault of the kit, not of your code: it is graded again)" in page
    with app.config["hog.settings"].sessions() as session:
        assert session.get(Submission, 1).score is None   # no zero enters the gradebook
    assert queue.requeue_dead(engine, failed=True) == 1
    assert json.loads(app.test_client().get("/api/submissions/1", headers=bearer(token)).data)["status"] == QUEUED


def test_the_gradebook_shows_each_student_with_what_they_typed_escaped_and_links_to_their_pages(course):
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = {**issue(app, "s1", "s/2"), **issue(app, "t1", role="staff")}
    with app.config["hog.settings"].sessions() as session, session.begin():
        session.execute(update(Person).where(Person.student_id == "s1").values(email='<b>"x"</b>&@example.edu'))
    sent = upload(app.test_client(), tokens["s1"], SOURCE)
    engine = app.config["hog.settings"].engine
    [job] = queue.claim(engine, "a test's grader", 1)
    assert queue.finish(engine, job, {"score": 20, "max_score": 23, "tests": [], "output": "", "seed": 7}, None, False)
    page = signed_in(app, tokens["t1"]).get("/staff/assignments/hog").get_data(as_text=True)
    assert "<b>" not in page and "&lt;b&gt;&quot;x&quot;&lt;/b&gt;&amp;@example.edu" in page
    assert f'<a href="/staff/submissions/{sent.get_json()["id"]}">' in page
    assert '<a href="/staff/students/s/2">s/2</a></td><td>s/2@example.edu</td><td></td>' in page
    assert "<td>20.0</td><td>23.0</td><td>graded</td><td>0</td><td>20.0</td><td>1</td><td>7</td>" in page


def test_a_regraded_submission_shows_its_new_scores_in_the_gradebook_and_its_csv(app):
    """The gradebook remembers what it read of each result; a regrade's result is read anew."""
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    engine = app.config["hog.settings"].engine
    assert upload(app.test_client(), tokens["s1"], SOURCE).status_code == 202
    staff_client = signed_in(app, tokens["t1"])

    first = load_variant("sp19").questions[0].label

    def graded(points: float) -> None:
        [job] = queue.claim(engine, "a test's grader", 1)
        result = {"score": points, "max_score": 23, "output": "", "seed": 7,
                  "tests": [{"number": first, "score": points, "max_score": 23}]}
        assert queue.finish(engine, job, result, None, False)

    def shown() -> tuple[str, str]:
        page = staff_client.get("/staff/assignments/hog").get_data(as_text=True)
        head, row = csv.reader(io.StringIO(staff_client.get("/staff/assignments/hog/gradebook.csv")
                                           .get_data(as_text=True)))
        return page, dict(zip(head, row))[f"q{first}"]

    graded(20)
    page, cell = shown()
    assert "<td>20.0</td><td>23.0</td><td>graded</td>" in page and cell == "20"
    assert queue.regrade(engine, "hog") == 1
    graded(11)
    page, cell = shown()
    assert "<td>11.0</td><td>23.0</td><td>graded</td>" in page and cell == "11"


def test_gradebook_rows_kept_once_made_still_show_each_value_as_it_is():
    """A row's HTML is kept by its values and their types: 20 and 20.0 are equal, and shown apart."""
    from grader.server.web import staff
    whole, decimal = (str(staff._rows_html([["s1", "s1@example.edu", 1, "2026-01-01T00:00:00+00:00", score]]))
                      for score in (20, 20.0))
    assert whole.endswith("<td>20</td></tr>") and decimal.endswith("<td>20.0</td></tr>")


def test_staff_reach_the_page_of_a_student_whose_id_has_a_slash_from_the_gradebook_and_extend_them(app):
    tokens = {**issue(app, "s/2"), **issue(app, "t1", role="staff")}
    staff_client = signed_in(app, tokens["t1"])
    assert '<a href="/staff/students/s/2">s/2</a>' in staff_client.get("/staff/assignments/hog").get_data(as_text=True)
    page = staff_client.get("/staff/students/s/2")
    assert page.status_code == 200 and "<h1>s/2 (s/2@example.edu, student)</h1>" in page.get_data(as_text=True)
    form = {"csrf_token": csrf(staff_client, "/staff/students/s/2"), "assignment": "hog", "days": "3"}
    assert staff_client.post("/staff/students/s/2/extensions", data=form).status_code == 303
    assert 'value="3"' in staff_client.get("/staff/students/s/2").get_data(as_text=True)


def test_the_live_pages_name_what_they_look_at_and_the_gradebooks_state_changes_with_each_step_of_a_job(app):
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    staff, engine = signed_in(app, tokens["t1"]), app.config["hog.settings"].engine
    states = [staff.get("/staff/assignments/hog/state.json").get_json()["state"]]
    assert upload(app.test_client(), tokens["s1"], SOURCE).status_code == 202
    states.append(staff.get("/staff/assignments/hog/state.json").get_json()["state"])
    job = queue.claim(engine, queue.grader_name(), 1)[0]
    states.append(staff.get("/staff/assignments/hog/state.json").get_json()["state"])
    pending = signed_in(app, tokens["s1"]).get("/submissions/1").get_data(as_text=True)
    assert 'data-live-now="grading"' in pending and 'data-live-until="graded,grader failed"' in pending
    assert 'data-live-every="0.25"' in pending   # a grade pending is looked for 4 times a second, then no more
    assert queue.finish(engine, job, {"score": 23.0, "max_score": 23.0, "tests": [], "output": ""}, None, False)
    states.append(staff.get("/staff/assignments/hog/state.json").get_json()["state"])
    assert len(set(states)) == 4
    page = staff.get("/staff/assignments/hog").get_data(as_text=True)
    assert f'data-live-now="{states[-1]}"' in page and 'http-equiv="refresh"' not in page
    assert signed_in(app, tokens["s1"]).get("/staff/assignments/hog/state.json").status_code == 403
    mine = signed_in(app, tokens["s1"]).get("/submissions/1").get_data(as_text=True)
    assert 'data-live-source="/api/submissions/1"' in mine and 'data-live-now="graded"' in mine


def test_times_are_time_elements_for_the_readers_zone_and_due_dates_name_the_courses_own(course):
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace('name = "Server course"\n',
                                                 'name = "Server course"\ntime_zone = "America/Los_Angeles"\n'))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    token = issue(app, "s1")["s1"]
    assert upload(app.test_client(), token, SOURCE).status_code == 202
    student = signed_in(app, token)
    home = student.get("/").get_data(as_text=True)
    assert ('<time datetime="2099-01-01T00:00:00+00:00" data-relative>2099-01-01T00:00:00+00:00</time> '
            '<span class="text-body-secondary">(Wed 31 Dec 2098, 16:00 PST, America/Los_Angeles)</span>') in home
    assert '<script src="/static/times.js" defer></script>' in home
    page = student.get("/assignments/hog").get_data(as_text=True)
    assert re.search(r'<td><time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00" data-relative>', page)
