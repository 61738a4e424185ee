"""What a student may upload, and what is refused with a message, nothing kept; the assignment's rules
(open, closed, rate limit, late days) as a student meets them."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from grader.server.course import policy
from grader.server.store.models import Submission
from grader.spec.serving import Assignment
from tests.server.conftest import bearer, csrf, issue, signed_in, upload

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'


def zipped(members: dict[str, bytes], *, mode: int | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            info = zipfile.ZipInfo(name)
            if mode is not None:
                info.external_attr = mode << 16
            archive.writestr(info, content, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def kept(app, course) -> tuple[int, list]:
    settings = app.config["hog.settings"]
    with settings.sessions() as session:
        rows = session.scalar(select(func.count()).select_from(Submission))
    folder = course / "server" / "uploads"
    return rows, sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.mark.parametrize("name, content, status, message", [
    ("hog.py", b"x" * (1024 * 1024 + 1), 400, "the file is over 1024 KiB"),
    ("hog.py", b"x" * (2 * 1024 * 1024), 413, "the upload is over 1024 KiB: send hog.py alone"),
    ("../hog.py", SOURCE, 400, "the file name '../hog.py' has a folder in it"),
    ("hog.py", "# café\n".encode("latin-1"), 400, "hog.py is not UTF-8 text (byte 5): save it as UTF-8"),
    ("hog.py", b"def f():\0 pass", 400, "hog.py is not Python source (it holds NUL bytes)"),
    ("notes.txt", SOURCE, 400, "'notes.txt' is neither a .py file nor a .zip: upload your hog.py"),
    ("h" * 253 + ".py", SOURCE, 400, "the file name is over 255 characters"),
    ("hog (1).py", b"\xff", 400, "'hog (1).py' is not UTF-8 text (byte 0)"),
    ("hog.zip", b"PK not really", 400, "the file is not a zip that can be read"),
    ("hog.zip", zipped({"hog/dice.py": SOURCE}), 400, "the zip holds no hog.py"),
    ("hog.zip", zipped({"../hog.py": SOURCE}), 400, "the zip member '../hog.py' would be written outside"),
    ("hog.zip", zipped({"hog.py": b"/etc/passwd"}, mode=0o120777), 400, "the zip member 'hog.py' is not a plain file"),
    ("hog.zip", zipped({"hog.py": SOURCE, "bomb": b"\0" * (9 * 1024 * 1024)}), 400,
     "the zip unpacks to more than 8 MiB"),
    ("hog.zip", zipped({"hog/hog.py": b"\xff\xfe\xfd"}), 400, "the zip's hog/hog.py is not UTF-8 text"),
], ids=lambda value: f"{len(value)}-bytes" if isinstance(value, bytes) else None)   # not a test id of a MiB
def test_a_refused_upload_says_why_and_nothing_is_kept(app, course, name, content, status, message):
    token = issue(app, "s1")["s1"]
    answer = upload(app.test_client(), token, content, name)
    assert answer.status_code == status
    assert answer.get_json()["error"].startswith(message), answer.get_json()
    assert kept(app, course) == (0, [])


def test_hog_py_and_a_zip_of_the_folder_are_kept_on_disk_and_in_the_database_before_the_202(app, course):
    token = issue(app, "s1")["s1"]
    first = upload(app.test_client(), token, SOURCE)
    second = upload(app.test_client(), token, zipped({"hog/hog.py": SOURCE, "hog/dice.py": b""}), "hog.zip")
    assert (first.status_code, second.status_code) == (202, 202)
    assert first.get_json() == {"id": 1, "status": "queued"} and second.get_json()["id"] == 2
    rows, files = kept(app, course)
    assert rows == 2 and [f.relative_to(course / "server" / "uploads").as_posix() for f in files] == \
        ["hog/1/hog.py", "hog/2/submission.zip"]
    assert files[0].read_bytes() == SOURCE and oct(files[0].stat().st_mode & 0o777) == "0o600"


def test_any_single_py_file_is_the_assignments_hog_py_its_sent_name_kept_and_shown_to_staff(app, course):
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    first = upload(app.test_client(), tokens["s1"], SOURCE, "hog (1).py")
    page = signed_in(app, tokens["s1"])
    second = page.post("/assignments/hog/submissions", data={"csrf_token": csrf(page, "/assignments/hog"),
                                                             "file": (io.BytesIO(SOURCE), "My_Hog.PY")},
                       content_type="multipart/form-data")
    assert (first.status_code, second.status_code) == (202, 303)
    rows, files = kept(app, course)
    assert rows == 2 and [f.relative_to(course / "server" / "uploads").as_posix() for f in files] == \
        ["hog/1/hog.py", "hog/2/hog.py"]
    listed = app.test_client().get("/api/submissions", headers=bearer(tokens["s1"])).get_json()
    assert [each["sent_as"] for each in listed] == ["hog (1).py", "My_Hog.PY"]
    shown = signed_in(app, tokens["t1"]).get("/staff/submissions/1").get_data(as_text=True)
    assert 'as <code id="sent-as">hog (1).py</code> (kept as hog.py)' in shown


def test_past_the_limit_per_hour_a_student_is_told_to_wait_and_others_are_not(app):
    tokens = issue(app, "s1", "s2")
    client = app.test_client()
    assert [upload(client, tokens["s1"], SOURCE).status_code for _ in range(5)] == [202] * 4 + [429]
    assert "hog takes 4 submissions per hour" in upload(client, tokens["s1"], SOURCE).get_json()["error"]
    assert upload(client, tokens["s2"], SOURCE).status_code == 202


def test_a_closed_assignment_and_an_unknown_one_refuse_the_upload(app):
    token = issue(app, "s1")["s1"]
    closed = upload(app.test_client(), token, SOURCE, assignment="past")
    assert closed.status_code == 403 and closed.get_json()["error"].startswith("past closed at 2001-01-02")
    assert upload(app.test_client(), token, SOURCE, assignment="nope").status_code == 404
    assert app.test_client().get("/api/submissions", headers=bearer(token)).get_json() == []


DUE = datetime(2026, 9, 15, 23, 59, tzinfo=timezone.utc)
RULES = Assignment("hog", "sp19", None, DUE - timedelta(days=14), DUE, late_days=2, penalty_per_day=0.25)


def test_late_days_are_whole_days_started_past_the_due_date_and_an_extension():
    assert policy.late_days(RULES, DUE) == 0
    assert policy.late_days(RULES, DUE + timedelta(seconds=1)) == 1
    assert policy.late_days(RULES, DUE + timedelta(days=1, seconds=1)) == 2
    assert policy.late_days(RULES, DUE + timedelta(days=1, seconds=1), extension=2) == 0
    assert policy.closed_why(RULES, DUE + timedelta(days=2)) is None
    assert policy.closed_why(RULES, DUE + timedelta(days=2, seconds=1)).startswith("hog closed at 2026-09-17T23:59")
    assert policy.closed_why(RULES, DUE - timedelta(days=15)).startswith("hog opens at 2026-09-01T23:59")
    assert policy.counted_score(RULES, 20.0, 2) == 10.0 and policy.counted_score(RULES, 20.0, 5) == 0.0


class Graded:
    def __init__(self, score, late_days=0):
        self.score, self.late_days = score, late_days


def test_the_counted_submission_is_the_last_or_the_best_after_penalties():
    earlier, later = Graded(20.0, late_days=0), Graded(22.0, late_days=1)
    assert policy.counted(RULES, [earlier, later]) is later
    best = Assignment("hog", "sp19", None, None, DUE, late_days=2, penalty_per_day=0.25, score="best")
    assert policy.counted(best, [earlier, later]) is earlier           # 22 less a quarter is 16.5
    assert policy.counted(best, []) is None


def test_a_name_with_bidirectional_controls_is_shown_with_them_made_visible(app):
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    assert upload(app.test_client(), tokens["s1"], SOURCE, "hog\u202eyp.exe\u2066.py").status_code == 202
    shown = signed_in(app, tokens["t1"]).get("/staff/submissions/1").get_data(as_text=True)
    assert 'as <code id="sent-as">hog[U+202E]yp.exe[U+2066].py</code>' in shown
    assert not any(each in shown for each in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
