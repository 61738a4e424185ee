"""What the tests of grading by hand share: a course whose hog assignment has a rubric, and graded
submissions made as the grader makes them (their code kept where the upload's would be)."""

from __future__ import annotations

from sqlalchemy import or_, select

from grader import project
from grader.server.grading import queue
from grader.server.store import db, uploads
from grader.server.store.models import GRADING, Person, Submission
from tests.server.conftest import bearer, make_app, make_course
from tests.spec.test_rubric import TABLES

RUBRIC = TABLES   # the course config tests' rubric: names -1 and repeat -2 in style (-2 to 0), docs +2
CODE = 'def roll_dice(num_rolls, dice):\n    """Roll dice."""\n    total = 0\n    return total\n'


def rubric_course(tmp_path, extra: str = ""):
    """The server tests' course with the rubric above (and ``extra`` in its [assignments.hog])."""
    course = make_course(tmp_path)
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("submissions_per_hour = 4\n", f"submissions_per_hour = 4\n{extra}")
                      + RUBRIC)
    return course


def rubric_app(course, url: str | None = None, migrated=None):
    return make_app(course, url or db.default_url(course / "server"), migrated)


def graded(app, student_id: str, score: float, *, late_days: int = 0, code: str = CODE) -> int:
    """A graded submission of the person of this student id (or email) to hog, recorded as the grader records one."""
    settings = app.config["hog.settings"]
    with settings.sessions() as session, session.begin():
        person = session.scalars(select(Person).where(or_(Person.student_id == student_id,
                                                          Person.email == student_id))).one()
        row = Submission(person_id=person.id, assignment="hog", variant="sp19", filename="hog.py", sha256="0" * 64,
                         seed=1, submitted_at=db.now(), late_days=late_days, status=GRADING, attempt=1)
        session.add(row)
        session.flush()
        number = row.id
    kept = uploads.folder(settings.course, "hog", number)
    kept.mkdir(parents=True, exist_ok=True)
    (kept / "hog.py").write_text(code)
    result = {"score": score, "max_score": 23.0, "output": "", "tests": [
        {"name": "Question 1", "number": "1", "score": score, "max_score": 23.0, "status": "passed", "output": ""}]}
    assert queue.finish(settings.engine, (number, 1), result, None, False)
    return number


def review(client, token: str, submission: int) -> dict:
    answer = client.get(f"/api/submissions/{submission}/review", headers=bearer(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def put(client, token: str, submission: int, version: int, *, rubric=None, adjustment=None, comments=None):
    body = {"rubric": rubric or {}, "adjustment": adjustment or {"points": 0, "reason": ""},
            "comments": comments or [], "version": version}
    return client.put(f"/api/submissions/{submission}/review", headers=bearer(token), json=body)
