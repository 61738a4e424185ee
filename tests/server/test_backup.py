"""``hog serve backup DEST`` while uploads arrive, and ``hog serve restore SRC`` into a new course folder: every
submission acknowledged before the backup began is there with its upload, people sign in with their links,
and the restored server grades. A backup that was changed, a DEST in use and a server that holds anything are
refused, and a restore that fails leaves nothing behind."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import threading
import time
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from grader import project
from grader.commands import serve
from grader.errors import UsageError
from grader.server.course import people
from grader.server.grading import graders
from grader.server.store import backup, db, dumps, liveness, uploads
from tests.server.conftest import (CONFIG, SOLUTION, bearer, fresh_postgres_database, issue, make_app, signed_in,
                                   upgraded_to, upload)

HEAD = ScriptDirectory(str(db.MIGRATIONS)).get_current_head()   # the newest schema

STUDENTS = [f"s{number}" for number in range(1, 9)]


def other_course(tmp_path: Path, name: str = "restored") -> Path:
    """A second course folder with the same config (no server folder yet), chosen as this run's course."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / project.CONFIG_NAME).write_text(CONFIG)
    project.use(str(folder))
    return folder


def said(verb, **arguments) -> str:
    out = io.StringIO()
    assert verb(out=out, **arguments) == 0
    return out.getvalue()


def keep_uploading(app, tokens: dict[str, str], acknowledged: list, stop: threading.Event) -> list[threading.Thread]:
    """A thread for each two students, each uploading their four a hour until told to stop; every 202 is
    appended to ``acknowledged`` as (its moment, its id)."""
    def send(ids):
        client = app.test_client()
        for _ in range(4):
            for sid in ids:
                if stop.is_set():
                    return
                answer = upload(client, tokens[sid], SOLUTION.read_bytes() + f"# {sid}\n".encode())
                assert answer.status_code == 202, answer.get_data(as_text=True)
                acknowledged.append((time.monotonic(), answer.get_json()["id"]))
    threads = [threading.Thread(target=send, args=(STUDENTS[index:index + 2],)) for index in range(0, 8, 2)]
    for thread in threads:
        thread.start()
    return threads


def backed_up_while_uploading(course, url, tmp_path, migrated=None):
    """The app, its tokens, the backup's folder and line, and the ids acknowledged before the backup began."""
    app = make_app(course, url, migrated)
    tokens = issue(app, *STUDENTS)
    people.write_csv(course / "server" / people.PEOPLE_CSV, {sid: (f"{sid}@example.edu", "student",
                                                                   people.link("http://hog.test", token))
                                                             for sid, token in tokens.items()})
    acknowledged, stop = [], threading.Event()
    threads = keep_uploading(app, tokens, acknowledged, stop)
    try:
        while len(acknowledged) < 6:
            time.sleep(0.01)
        began = time.monotonic()
        line = said(serve.backup, dest=str(tmp_path / "backup"), database=url)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    before = sorted(number for moment, number in acknowledged if moment < began)
    return app, tokens, tmp_path / "backup", line, before


def restored_holds(app, restored, tokens: dict[str, str], before: list[int]) -> None:
    """Every submission in ``before`` is in the restored server with its upload; each person's link signs in."""
    settings = restored.config["hog.settings"]
    with settings.engine.connect() as connection:
        rows = {number: (assignment, filename, sha256) for number, assignment, filename, sha256 in
                connection.exec_driver_sql("SELECT id, assignment, filename, sha256 FROM submissions").all()}
    for number in before:
        assignment, filename, sha256 = rows[number]
        kept = uploads.folder(settings.course, assignment, number) / filename
        assert hashlib.sha256(kept.read_bytes()).hexdigest() == sha256
    for sid, token in tokens.items():
        client = signed_in(restored, token)
        listed = client.get("/api/submissions", headers=bearer(token)).get_json()
        mine = {s["id"] for s in app.test_client().get("/api/submissions", headers=bearer(token)).get_json()}
        assert mine & set(before) <= {s["id"] for s in listed} <= mine


def test_a_backup_made_while_uploads_arrive_restores_each_acknowledged_upload_and_link(course, tmp_path,
                                                                                       migrated_sqlite):
    url = db.default_url(course / "server")
    liveness.hold(course, "elsewhere:1:ns")   # a grader running now: its lock says so here, never in a backup
    try:
        app, tokens, folder, line, before = backed_up_while_uploading(course, url, tmp_path, migrated_sqlite)
    finally:
        liveness.release(course, "elsewhere:1:ns")
    assert line.startswith(f"backed up server/ into {folder}: sqlite database (schema {HEAD}, ")
    assert "server files: metrics_token, people.csv, secret_key" in line
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600) for path in folder.rglob("*"))
    target = other_course(tmp_path)
    line = said(serve.restore, source=str(folder), database=None)
    assert line.startswith(f"restored {folder} into server/ (sqlite:///{target}/server/hog.sqlite3): sqlite database")
    assert (target / "server" / "secret_key").read_bytes() == (course / "server" / "secret_key").read_bytes()
    assert (target / "server" / "people.csv").read_bytes() == (course / "server" / "people.csv").read_bytes()
    restored = make_app(target, db.default_url(target / "server"))
    restored_holds(app, restored, tokens, before)


@pytest.mark.slow
def test_the_restored_server_grades(request, course, any_database, tmp_path, migrated_sqlite):
    app, tokens, folder, line, before = backed_up_while_uploading(course, any_database, tmp_path, migrated_sqlite)
    assert len(before) >= 6
    target = other_course(tmp_path)
    with pytest.raises(UsageError, match="cannot restore into this course: .*(already exists|already holds tables)"):
        said(serve.restore, source=str(folder), database=any_database)   # the database backed up: not empty
    assert not (target / "server").exists()
    url = db.default_url(target / "server") if any_database.startswith("sqlite") else \
        fresh_postgres_database(request.getfixturevalue("postgres"))
    said(serve.restore, source=str(folder), database=url)
    restored = make_app(target, url)
    restored_holds(app, restored, tokens, before)
    answer = upload(restored.test_client(), tokens["s1"], SOLUTION.read_bytes(), assignment="hog")
    assert answer.status_code in (202, 429)   # s1 may have used their four an hour before the backup
    engine = restored.config["hog.settings"].engine
    graded = graders.drain(engine, jobs=2, isolation="files")
    with engine.connect() as connection:
        statuses = connection.exec_driver_sql("SELECT status, score FROM submissions").all()
    assert graded >= 1 and statuses and all(row == ("graded", 23.0) for row in statuses)


@pytest.fixture
def backed_up(course, tmp_path, migrated_sqlite):
    """A backup of a server with two submissions; its folder."""
    app = make_app(course, db.default_url(course / "server"), migrated_sqlite)
    token = issue(app, "s1")["s1"]
    for _ in range(2):
        assert upload(app.test_client(), token, SOLUTION.read_bytes()).status_code == 202
    said(serve.backup, dest=str(tmp_path / "backup"), database=None)
    return tmp_path / "backup"


def test_a_backup_goes_into_a_new_folder_and_leaves_an_existing_one_as_it_was(course, tmp_path, backed_up):
    before = sorted(backed_up.rglob("*"))
    with pytest.raises(UsageError, match="already exists and is not an empty folder: a backup goes into a new folder"):
        said(serve.backup, dest=str(backed_up), database=None)
    assert sorted(backed_up.rglob("*")) == before


def test_a_changed_backup_is_refused_before_anything_is_written(course, tmp_path, backed_up):
    upload_copy = backed_up / "uploads" / "hog" / "1" / "hog.py"
    upload_copy.write_bytes(upload_copy.read_bytes() + b"# changed\n")
    target = other_course(tmp_path)
    with pytest.raises(UsageError, match=r"uploads/hog/1/hog.py does not match its sha256 in the manifest"):
        said(serve.restore, source=str(backed_up), database=None)
    assert not (target / "server").exists()


@pytest.mark.parametrize("change, why", [
    (lambda folder: (folder / "uploads" / "hog" / "9").mkdir() or (folder / "uploads/hog/9/hog.py").write_text("x"),
     "it holds uploads/hog/9/hog.py, which its manifest does not list"),
    (lambda folder: (folder / "server" / "secret_key").unlink(), "server/secret_key is missing"),
    (lambda folder: (folder / backup.MANIFEST).unlink(), "it holds no manifest.json"),
    (lambda folder: edit(folder, files={"../../outside": "0" * 64}), "which is no file of a backup"),
    (lambda folder: edit(folder, schema_revision="0999", kit_version="9.0"),
     "schema '0999', which this kit .* does not know: it was made by a newer kit \\(9.0\\)"),
])
def test_a_backup_that_is_not_as_written_is_refused_saying_why(course, tmp_path, backed_up, change, why):
    change(backed_up)
    other_course(tmp_path)
    with pytest.raises(UsageError, match=why):
        said(serve.restore, source=str(backed_up), database=None)


def _linked_to_outside(folder: Path) -> None:
    """The backup's secret key replaced by a link to a file outside it (the manifest's sha256 made to match)."""
    outside = folder.parent / "outside-secret"
    outside.write_text("read me out")
    (folder / "server" / "secret_key").unlink()
    (folder / "server" / "secret_key").symlink_to(outside)
    edit(folder, files={"server/secret_key": hashlib.sha256(b"read me out").hexdigest()})


def _folder_linked_to_outside(folder: Path) -> None:
    outside = folder.parent / "outside-folder"
    shutil.move(folder / "uploads" / "hog" / "1", outside)
    (folder / "uploads" / "hog" / "1").symlink_to(outside)


@pytest.mark.parametrize("change, entry, what", [
    (_linked_to_outside, "server/secret_key", "a symbolic link"),
    (_folder_linked_to_outside, "uploads/hog/1", "a symbolic link"),
    (lambda folder: os.mkfifo(folder / "uploads" / "hog" / "pipe"), "uploads/hog/pipe", "a device, pipe or socket"),
])
def test_a_backup_holding_a_link_or_a_device_is_refused_naming_it_and_nothing_is_restored(course, tmp_path,
                                                                                           backed_up, change, entry,
                                                                                           what):
    change(backed_up)
    target = other_course(tmp_path)
    with pytest.raises(UsageError, match=f"it holds {entry}, {what}, which no backup holds"):
        said(serve.restore, source=str(backed_up), database=None)
    assert not (target / "server").exists()


def edit(folder: Path, **changes) -> None:
    manifest = json.loads((folder / backup.MANIFEST).read_text())
    for key, value in changes.items():
        manifest[key] = {**manifest[key], **value} if isinstance(value, dict) else value
    (folder / backup.MANIFEST).write_text(json.dumps(manifest))


def test_a_restore_into_a_server_that_holds_anything_is_refused_and_changes_nothing(course, tmp_path, backed_up):
    with pytest.raises(UsageError, match="cannot restore into this course: server already holds hog.sqlite3"):
        said(serve.restore, source=str(backed_up), database=None)
    target = other_course(tmp_path)
    (target / "server").mkdir()
    (target / "server" / "secret_key").write_text("another server's\n")
    with pytest.raises(UsageError, match="server already holds secret_key. A restore goes into an empty course "
                                         "server folder"):
        said(serve.restore, source=str(backed_up), database=None)
    assert [path.name for path in (target / "server").iterdir()] == ["secret_key"]


def test_a_restore_that_fails_removes_what_it_wrote(course, tmp_path, backed_up, monkeypatch):
    def full(copy, url):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(dumps, "restore_sqlite", full)
    target = other_course(tmp_path)
    with pytest.raises(OSError, match="No space left"):
        said(serve.restore, source=str(backed_up), database=None)
    assert not (target / "server").exists()


def test_a_backup_of_an_older_schema_is_brought_to_the_newest_when_restored(course, tmp_path):
    engine = db.connect(db.default_url(course / "server"))
    upgraded_to(engine, "0001")
    engine.dispose()
    line = said(serve.backup, dest=str(tmp_path / "old"), database=None)
    assert "sqlite database (schema 0001, 0 submissions)" in line
    target = other_course(tmp_path)
    assert f"schema 0001 brought to {HEAD}" in said(serve.restore, source=str(tmp_path / "old"), database=None)
    restored = db.connect(db.default_url(target / "server"))
    with restored.connect() as connection:
        assert "sent_as" in {row[1] for row in connection.exec_driver_sql("PRAGMA table_info(submissions)")}
    restored.dispose()


def test_a_backup_of_postgresql_says_which_pg_dump_is_missing_or_too_old(tmp_path, monkeypatch):
    monkeypatch.setattr(dumps, "INSTALLED_POSTGRESQL", tmp_path / "none")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with pytest.raises(UsageError, match=r"no pg_dump here .* apt-get install postgresql-client"):
        dumps.tool("pg_dump", 15)
    (tmp_path / "bin").mkdir()
    old = tmp_path / "bin" / "pg_dump"
    old.write_text("#!/bin/sh\necho 'pg_dump (PostgreSQL) 13.9'\n")
    old.chmod(0o755)
    with pytest.raises(UsageError, match=r"is of PostgreSQL 13, older than the server's 15, which it cannot copy"):
        dumps.tool("pg_dump", 15)
    assert dumps.tool("pg_dump", 13) == old


def test_a_backup_of_a_course_whose_server_never_ran_says_so(course, tmp_path):
    with pytest.raises(UsageError, match="no database at .*: this course's server has not run yet"):
        said(serve.backup, dest=str(tmp_path / "backup"), database=None)
    assert not (tmp_path / "backup").exists()
    assert os.listdir(tmp_path) == ["course"]
