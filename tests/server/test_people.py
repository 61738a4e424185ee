"""``hog serve people``: a personal sign-in link each, only a hash kept, a new link revoking the old;
``hog serve regrade``: every submission of an assignment queued again."""

from __future__ import annotations

import csv
import hashlib
import socket

import pytest

from sqlalchemy import select

from grader.cli import main
from grader.server.store import db
from grader.server.store.models import QUEUED, Person, Submission
from tests.server.conftest import make_app, signed_in, upload

ROSTER = "student_id,email,section\ns1,ada@example.edu,101\ns2,bob@example.edu,102\n"


def rows(course) -> list[dict]:
    with (course / "server" / "people.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_each_person_gets_a_link_of_the_public_url_and_only_its_hash_is_stored(course, tmp_path, capsys):
    (tmp_path / "roster.csv").write_text(ROSTER)
    (tmp_path / "staff.csv").write_text("sid,email\nt1,tia@example.edu\n")
    assert main(["--course", str(course), "serve", "people", str(tmp_path / "roster.csv")]) == 0
    assert main(["--course", str(course), "serve", "people", str(tmp_path / "staff.csv"), "--role", "staff"]) == 0
    assert "issued 2 student sign-in links" in capsys.readouterr().out
    found = rows(course)
    assert [(r["student_id"], r["email"], r["role"]) for r in found] == [
        ("s1", "ada@example.edu", "student"), ("s2", "bob@example.edu", "student"), ("t1", "tia@example.edu", "staff")]
    assert all(r["link"].startswith("http://hog.test/signin/") for r in found)
    assert oct((course / "server" / "people.csv").stat().st_mode & 0o777) == "0o600"
    tokens = {r["student_id"]: r["link"].rsplit("/", 1)[1] for r in found}
    engine = db.connect(db.default_url(course / "server"))
    with db.sessions(engine)() as session:
        stored = {p.student_id: p.token_sha256 for p in session.scalars(select(Person))}
    assert stored == {sid: hashlib.sha256(token.encode()).hexdigest() for sid, token in tokens.items()}
    assert not any(token.encode() in (course / "server" / db.FILE).read_bytes() for token in tokens.values())
    app = make_app(course, db.default_url(course / "server"))
    signed_in(app, tokens["s1"])
    # Issued again: the new link works, the old one no longer does; the other rows of people.csv are kept.
    (tmp_path / "one.csv").write_text("student_id,email\ns1,ada@example.edu\n")
    assert main(["--course", str(course), "serve", "people", str(tmp_path / "one.csv")]) == 0
    again = {r["student_id"]: r["link"].rsplit("/", 1)[1] for r in rows(course)}
    assert again["s1"] != tokens["s1"] and again["s2"] == tokens["s2"] and len(again) == 3
    assert app.test_client().get(f"/signin/{tokens['s1']}").status_code == 404
    signed_in(app, again["s1"])


@pytest.mark.slow
def test_links_issued_on_postgresql_before_any_server_ran_are_written_down(course, tmp_path, capsys, postgres):
    # A course on PostgreSQL has no server/ folder until something makes one: the links must still be kept.
    from tests.server.conftest import fresh_postgres_database
    url = fresh_postgres_database(postgres)
    (tmp_path / "roster.csv").write_text(ROSTER)
    assert not (course / "server").exists()
    assert main(["--course", str(course), "serve", "people", str(tmp_path / "roster.csv"), "--database", url]) == 0
    assert "issued 2 student sign-in links" in capsys.readouterr().out
    found = rows(course)
    assert [r["student_id"] for r in found] == ["s1", "s2"]
    app = make_app(course, url)
    signed_in(app, found[0]["link"].rsplit("/", 1)[1])


def test_a_roster_without_an_email_column_is_refused_with_its_header(course, tmp_path, capsys):
    (tmp_path / "roster.csv").write_text("student_id,name\ns1,Ada\n")
    assert main(["--course", str(course), "serve", "people", str(tmp_path / "roster.csv")]) == 2
    assert "email" in capsys.readouterr().err
    assert not (course / "server" / "people.csv").exists()


def test_regrade_queues_every_submission_of_the_assignment_again(course, capsys):
    app = make_app(course, db.default_url(course / "server"))
    (course / "r.csv").write_text(ROSTER)
    assert main(["--course", str(course), "serve", "people", str(course / "r.csv")]) == 0
    token = rows(course)[0]["link"].rsplit("/", 1)[1]
    assert upload(app.test_client(), token, b"x = 1\n").status_code == 202
    with app.config["hog.settings"].sessions() as session, session.begin():
        session.get(Submission, 1).status = "graded"
    assert main(["--course", str(course), "serve", "regrade", "hog"]) == 0
    assert "1 submissions of hog queued to be graded again" in capsys.readouterr().out
    with app.config["hog.settings"].sessions() as session:
        assert session.get(Submission, 1).status == QUEUED


def test_serve_on_a_port_taken_says_so_in_one_line(course, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--course", str(course), "serve", "--port", str(port), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"Error: cannot listen on 127.0.0.1:{port}: Address already in use")
    assert "Traceback" not in err
