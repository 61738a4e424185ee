"""Groups of an assignment: invited and accepted on the pages and the API, every refusal said and nothing
changed by it, one submission for the group that every member sees and that counts for each, the rate limit
per group, a student's earlier submissions no longer counting once the group has one."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from sqlalchemy import text

from grader import project
from grader.server.store import db
from grader.server.store.models import Extension, Person
from tests.server.conftest import bearer, issue, signed_in, upgraded_to, upload
from tests.server.groups_helpers import SOURCE, configured, grade_all, page_action, submissions

API = "/api/assignments/hog/group"


def test_two_students_form_a_group_on_the_pages_and_both_see_the_one_submission_and_its_grade(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = issue(app, "s1", "s2", "s3")
    one, two = signed_in(app, tokens["s1"]), signed_in(app, tokens["s2"])
    assert page_action(one, "invite", student="s2@example.edu").status_code == 303
    invited = two.get("/assignments/hog").get_data(as_text=True)
    assert "s1 (s1@example.edu) invited you" in invited
    assert page_action(two, "accept", **{"from": "s1"}).status_code == 303
    for client in (one, two):
        page = client.get("/assignments/hog").get_data(as_text=True)
        assert '<span class="member">s1</span>, <span class="member">s2</span>' in page
    sent = upload(app.test_client(), tokens["s1"], SOURCE).get_json()
    grade_all(app, 20.0)
    seen = two.get(f"/submissions/{sent['id']}").get_data(as_text=True)
    assert "Score: 20 / 23" in seen and '<span id="submitted-by">s1</span> (your group)' in seen
    listed = app.test_client().get("/api/submissions?assignment=hog", headers=bearer(tokens["s2"])).get_json()
    assert [(s["id"], s["submitted_by"], s["result"]["score"]) for s in listed] == [(sent["id"], "s1", 20.0)]
    assert app.test_client().get(f"/api/submissions/{sent['id']}", headers=bearer(tokens["s3"])).status_code == 404
    assert signed_in(app, tokens["s3"]).get(f"/submissions/{sent['id']}").status_code == 404


def test_the_group_api_reads_invites_accepts_and_shows_both_sides(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = issue(app, "s1", "s2")
    client = app.test_client()
    made = client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    assert made.status_code == 201
    s1 = {"student_id": "s1", "email": "s1@example.edu"}
    s2 = {"student_id": "s2", "email": "s2@example.edu"}
    assert made.get_json() == {"group": None, "members": [s1], "invitations": [s2], "invited_by": []}
    assert client.get(API, headers=bearer(tokens["s2"])).get_json()["invited_by"] == [s1]
    joined = client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"])).get_json()
    assert joined["members"] == [s1, s2] and joined["group"] and joined["invited_by"] == []
    assert client.get(API, headers=bearer(tokens["s1"])).get_json() == {**joined, "invited_by": []}


def test_every_refused_invitation_says_why_and_changes_nothing(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3", "s4"), **issue(app, "t1", role="staff")}
    client = app.test_client()

    def invite(who: str, **named):
        answer = client.post(f"{API}/invitations", json=named, headers=bearer(tokens[who]))
        return answer.status_code, answer.get_json()["error"]

    assert invite("s1", student_id="s1") == (400, "you cannot invite yourself: name your partner")
    assert invite("s1", student_id="nobody")[0] == 404
    assert "no student of the course has the student id nobody" in invite("s1", student_id="nobody")[1]
    assert invite("s1", email="t1@example.edu") == (400, "t1 is course staff, not a student: groups are of students")
    assert client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"])).status_code == 201
    assert invite("s1", student_id="s2") == (409, "you invited s2 already")
    assert invite("s1", student_id="s3")[0] == 409 and "at most 2 students, counting those invited" in \
        invite("s1", student_id="s3")[1]
    assert client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"])).status_code == 200
    assert invite("s3", student_id="s2") == (409, "s2 is in a group of hog already")
    assert invite("s3") == (400, 'name the student: {"student_id": ...} or {"email": ...}')
    assert invite("s3", student_id=7)[0] == 400
    assert client.post(f"{API}/accept", json={"from": "s4"}, headers=bearer(tokens["s3"])).status_code == 404
    assert invite("t1", student_id="s4") == (403, "groups are of students: staff set them (hog serve groups)")
    assert client.post(f"{API}/invitations", json={"student_id": "s2"}).status_code == 401
    lone = client.get(API, headers=bearer(tokens["s3"])).get_json()
    assert lone == {"group": None, "members": [{"student_id": "s3", "email": "s3@example.edu"}],
                    "invitations": [], "invited_by": []}


def test_an_assignment_without_group_size_takes_no_invitation(course, migrated_sqlite):
    app = configured(course, migrated_sqlite, extra="")
    tokens = issue(app, "s1", "s2")
    answer = app.test_client().post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    assert (answer.status_code, answer.get_json()["error"]) == (400, "hog is done alone (no groups)")


def test_an_invitation_across_variants_of_a_roster_manifest_is_refused(course, migrated_sqlite):
    (course / "manifest.csv").write_text("student_id,email,section,variant\ns1,s1@example.edu,1,sp19\n"
                                         "s2,s2@example.edu,2,fa19\ns3,s3@example.edu,1,sp19\n")
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text() + '\n[assignments.sections]\nmanifest = "manifest.csv"\n'
                      'due = 2099-01-01T00:00:00Z\ngroup_size = 2\n')
    app = configured(course, migrated_sqlite, extra="")
    tokens = issue(app, "s1", "s2", "s3")
    client = app.test_client()
    where = "/api/assignments/sections/group/invitations"
    refused = client.post(where, json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    assert refused.status_code == 409 and "works in another variant of sections" in refused.get_json()["error"]
    assert client.post(where, json={"student_id": "s3"}, headers=bearer(tokens["s1"])).status_code == 201


def test_an_invitation_is_declined_or_withdrawn_and_a_member_leaves_only_before_the_group_submits(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = issue(app, "s1", "s2", "s3")
    one, two, three = (signed_in(app, tokens[s]) for s in ("s1", "s2", "s3"))
    assert page_action(one, "invite", student="s2").status_code == 303
    assert page_action(two, "decline", **{"from": "s1"}).status_code == 303
    assert "invited you" not in two.get("/assignments/hog").get_data(as_text=True)
    assert page_action(one, "invite", student="s3").status_code == 303
    assert "You invited s3" in one.get("/assignments/hog").get_data(as_text=True)
    assert page_action(one, "withdraw", student_id="s3").status_code == 303
    assert page_action(three, "accept", **{"from": "s1"}).status_code == 404
    page_action(one, "invite", student="s2")
    page_action(two, "accept", **{"from": "s1"})
    assert page_action(two, "leave").status_code == 303
    assert "You work alone on hog" in one.get("/assignments/hog").get_data(as_text=True)
    page_action(one, "invite", student="s2")
    page_action(two, "accept", **{"from": "s1"})
    upload(app.test_client(), tokens["s2"], SOURCE)
    refused = page_action(one, "leave")
    assert refused.status_code == 409
    assert "your group has submitted to hog: only the course staff can change it now" in refused.get_data(as_text=True)


def test_earlier_solo_submissions_stop_counting_once_the_group_has_one_and_the_gradebook_has_a_row_each(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    client = app.test_client()
    alone = upload(client, tokens["s2"], SOURCE).get_json()["id"]
    grade_all(app, 22.0)
    client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"]))
    book = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
    rows = {line.split(",")[0]: line.split(",") for line in book.splitlines()[1:]}
    assert rows["s2"][2:5] == [str(alone), rows["s2"][3], "22.0"]   # the group has none yet: hers counts
    together = upload(client, tokens["s1"], SOURCE).get_json()["id"]
    grade_all(app, 15.0)
    book = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
    head, *lines = [line.split(",") for line in book.splitlines()]
    rows = {line[0]: dict(zip(head, line)) for line in lines}
    group = rows["s1"]["group"]
    assert group and rows["s2"]["group"] == group and rows["s3"]["group"] == ""
    for sid in ("s1", "s2"):
        assert (rows[sid]["submission"], rows[sid]["score"], rows[sid]["total"]) == (str(together), "15.0", "15.0")
    assert rows["s2"]["submissions"] == "2"   # her own, kept in her history, and the group's
    staff = signed_in(app, tokens["t1"]).get("/staff/assignments/hog").get_data(as_text=True)
    assert staff.count(f'<a href="/staff/submissions/{together}">{together}</a>') == 2


def test_the_rate_limit_counts_the_group_s_submissions(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)   # submissions_per_hour = 4
    tokens = issue(app, "s1", "s2")
    client = app.test_client()
    client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"]))
    for who in ("s1", "s2", "s1", "s2"):
        assert upload(client, tokens[who], SOURCE).status_code == 202
    refused = upload(client, tokens["s2"], SOURCE)
    assert refused.status_code == 429 and "submissions per hour from a group" in refused.get_json()["error"]


def test_two_members_uploading_at_the_same_moment_are_both_stored_and_graded_and_the_last_counts(
        course, migrated_sqlite, any_database):
    app = configured(course, migrated_sqlite, url=any_database)
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    client = app.test_client()
    client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"]))
    start, answers = threading.Barrier(2), {}

    def send(who: str) -> None:
        start.wait()
        answers[who] = upload(app.test_client(), tokens[who], SOURCE + who.encode()).status_code
    threads = [threading.Thread(target=send, args=(who,)) for who in ("s1", "s2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {"s1": 202, "s2": 202}
    assert len(grade_all(app, 10.0)) == 2
    stored = submissions(app)
    assert len({s.group_id for s in stored}) == 1 and all((course / "server" / "uploads" / "hog" / str(s.id)).is_dir()
                                                         for s in stored)
    book = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
    counted = {line.split(",")[0]: line.split(",")[2] for line in book.splitlines()[1:]}
    assert counted == {"s1": str(stored[-1].id), "s2": str(stored[-1].id)}


def test_each_member_s_row_applies_their_own_extension_to_the_group_s_late_submission(course, migrated_sqlite):
    due = (datetime.now(timezone.utc) - timedelta(days=1, hours=12)).isoformat(timespec="seconds")
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("due = 2099-01-01T00:00:00Z", f"due = {due}", 1))
    app = configured(course, migrated_sqlite)   # late_days 2, penalty 0.5 a day
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    client = app.test_client()
    client.post(f"{API}/invitations", json={"student_id": "s2"}, headers=bearer(tokens["s1"]))
    client.post(f"{API}/accept", json={"from": "s1"}, headers=bearer(tokens["s2"]))
    with app.config["hog.settings"].sessions() as session, session.begin():
        s2 = session.query(Person).filter_by(student_id="s2").one()
        session.add(Extension(person_id=s2.id, assignment="hog", days=2))
    upload(client, tokens["s1"], SOURCE)
    grade_all(app, 20.0)
    book = client.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"])).get_data(as_text=True)
    head, *lines = [line.split(",") for line in book.splitlines()]
    rows = {line[0]: dict(zip(head, line)) for line in lines}
    assert (rows["s1"]["late_days"], rows["s1"]["score"]) == ("2", "0.0")
    assert (rows["s2"]["late_days"], rows["s2"]["score"]) == ("0", "20.0")
    assert "Late days used: <span id=\"late-used\">0</span>" in signed_in(app, tokens["s2"]).get(
        "/assignments/hog").get_data(as_text=True)


def test_the_groups_migration_keeps_every_submission_and_score_of_the_schema_before(course):
    engine = db.connect(db.default_url(course / "server"))
    upgraded_to(engine, "0003")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO people (id, student_id, email, role) VALUES (1, 's1', '', 'student')"))
        for number, score in ((1, 3.0), (2, 21.5)):
            connection.execute(text(
                "INSERT INTO submissions (id, person_id, assignment, variant, filename, sha256, seed, submitted_at, "
                "late_days, status, attempt, retries, score, max_score, result) VALUES (:id, 1, 'hog', 'sp19', "
                "'hog.py', '', 1, '2026-01-01 00:00:00', 0, 'graded', 1, 0, :score, 23.0, '{}')"),
                {"id": number, "score": score})
    db.upgrade(engine)
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT id, score, max_score, group_id FROM submissions ORDER BY id")).all()
    engine.dispose()
    assert [tuple(row) for row in kept] == [(1, 3.0, 23.0, None), (2, 21.5, 23.0, None)]
