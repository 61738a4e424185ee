"""A request the server cannot serve is answered 503 with Retry-After, nothing half-stored: the disk full while
an upload is stored, the database not answering (out of reach; PostgreSQL stopped, then started again)."""

from __future__ import annotations

import dataclasses
import errno
import io
import os
import re
import shutil
import subprocess

import pytest
from sqlalchemy import func, select

from grader.server.store import db, uploads
from grader.server.store.models import Submission
from grader.server.web import faults
from tests.server.conftest import (PG_BIN, _environment, bearer, csrf, fresh_postgres_database, issue, make_app,
                                   signed_in, upload)

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'


def kept(app, course) -> tuple[int, list]:
    with app.config["hog.settings"].sessions() as session:
        rows = session.scalar(select(func.count()).select_from(Submission))
    folder = course / "server" / "uploads"
    return rows, sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) if folder.exists() else []


def test_a_full_disk_while_an_upload_is_stored_is_a_503_with_nothing_kept_and_the_next_upload_is_kept(
        app, course, monkeypatch):
    token = issue(app, "s1")["s1"]
    real = os.fsync

    def full(descriptor):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(uploads.os, "fsync", full)
    answer = upload(app.test_client(), token, SOURCE)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == str(faults.DISK_RETRY)
    assert answer.get_json()["error"].startswith("the course server's disk is full (No space left on device): "
                                                 "nothing was stored")
    assert kept(app, course) == (0, ["hog"])   # the assignment's folder; no submission's
    page = signed_in(app, token)
    shown = page.post("/assignments/hog/submissions", data={"csrf_token": csrf(page, "/assignments/hog"),
                                                            "file": (io.BytesIO(SOURCE), "hog.py")},
                      content_type="multipart/form-data")
    assert shown.status_code == 503 and "disk is full" in shown.get_data(as_text=True)
    monkeypatch.setattr(uploads.os, "fsync", real)   # the disk freed
    again = upload(app.test_client(), token, SOURCE)
    assert again.status_code == 202 and again.get_json()["id"] == 1   # the id given to the lost one, kept now
    assert kept(app, course) == (1, ["hog", "hog/1", "hog/1/hog.py"])


def test_a_database_out_of_reach_is_a_503_with_retry_after_for_the_api_and_the_pages(app, course, tmp_path):
    token = issue(app, "s1")["s1"]
    browser = signed_in(app, token)
    settings = app.config["hog.settings"]
    gone = db.connect(f"sqlite:///{tmp_path / 'gone' / 'hog.sqlite3'}")
    shutil.rmtree(tmp_path / "gone")   # its folder removed: the file cannot be opened
    app.config["hog.settings"] = dataclasses.replace(settings, engine=gone, sessions=db.sessions(gone))
    answer = upload(app.test_client(), token, SOURCE)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == str(faults.DATABASE_RETRY)
    assert answer.get_json() == {"error": "the course server's database does not answer (it may be restarting): "
                                          "nothing was stored; try again in 5 s"}
    page = browser.get("/assignments/hog")
    assert page.status_code == 503 and "<h1>Try again in a moment</h1>" in page.get_data(as_text=True)
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    app.config["hog.settings"] = settings
    assert kept(app, course) == (0, [])


def _pg_ctl(url: str, *args: str) -> None:
    """pg_ctl on the test's own PostgreSQL server (started by the postgres fixture, its data in HOST/data)."""
    sockets = re.search(r"host=([^&]+)", url)[1]
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*as_user, str(PG_BIN / "pg_ctl"), "-D", f"{sockets}/data", "-w", *args], check=True,
                   capture_output=True, env=_environment())


@pytest.mark.slow
def test_postgresql_stopped_is_a_503_nothing_stored_and_started_again_uploads_are_taken(course, postgres):
    if os.environ.get("HOG_TEST_POSTGRES_URL"):
        pytest.skip("a PostgreSQL server given from outside is not stopped by the tests")
    app = make_app(course, fresh_postgres_database(postgres))
    token = issue(app, "s1")["s1"]
    assert upload(app.test_client(), token, SOURCE).status_code == 202
    sockets = re.search(r"host=([^&]+)", postgres)[1]
    _pg_ctl(postgres, "-m", "fast", "stop")
    try:
        answer = upload(app.test_client(), token, SOURCE)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5", answer.get_data(as_text=True)
        listed = app.test_client().get("/api/submissions", headers=bearer(token))
        assert listed.status_code == 503 and "does not answer" in listed.get_json()["error"]
    finally:
        _pg_ctl(postgres, "-l", f"{sockets}/log", "-o", f"-k {sockets} -c listen_addresses='' -c fsync=off", "start")
    assert upload(app.test_client(), token, SOURCE).status_code == 202
    listed = app.test_client().get("/api/submissions", headers=bearer(token)).get_json()
    assert [each["id"] for each in listed] == [1, 2]   # the refused upload reached no table
    assert sorted(p.name for p in (course / "server" / "uploads" / "hog").iterdir()) == \
        sorted(str(each["id"]) for each in listed)
