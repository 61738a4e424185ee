"""The class report and the similarity report of an assignment's counted submissions, and a Canvas column
of its totals, made on request with the kit's own modules (``grader.report.classroom``, ``grader.similarity``,
``grader.report.canvas``) from a folder laid out as ``grade-batch`` leaves one: ``server/reports/NAME/``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.classroom.batch import GRADED_FROM
from grader.project.files import write_atomically
from grader.report import canvas, classroom, instructor
from grader.server.course import manual, reviews, standing
from grader.server.store import uploads
from grader.server.store.models import STUDENT, Person, Submission
from grader.similarity import batch as similarity
from grader.spec import load_variant
from grader.spec.serving import Assignment

UNSAFE = re.compile(r"[^A-Za-z0-9._@-]")


def _students(session: Session):
    """(a name for files, the person) of each student, by student id."""
    for person in session.scalars(select(Person).where(Person.role == STUDENT).order_by(Person.student_id)):
        yield UNSAFE.sub("_", person.student_id) or f"student{person.id}", person


def _counted(session: Session, assignment: Assignment) -> list[tuple[str, Submission]]:
    """Each student's counted submission, named after them; a group's once (under its first member's name), so
    that partners are not compared with themselves."""
    found, seen = [], set()
    for name, person in _students(session):
        chosen = standing.for_person(session, assignment, person.id)[1].chosen
        if chosen is not None and chosen.id not in seen:
            seen.add(chosen.id)
            found.append((name, chosen))
    return found


def _fresh(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, mode=0o700)
    return folder


def class_report(session: Session, course: Path, assignment: Assignment) -> Path:
    """report.html of the counted submissions (each one's result and instructor record), with how often each
    rubric item was applied where the assignment has a rubric."""
    out = _fresh(course / "server" / "reports" / assignment.name / "class")
    (out / instructor.FOLDER).mkdir()
    for name, submission in _counted(session, assignment):
        marker = {"submission": submission.id, "attempt": submission.attempt}
        write_atomically(out / f"{name}.json", json.dumps({**json.loads(submission.result), GRADED_FROM: marker}))
        if submission.instructor:
            write_atomically(out / instructor.FOLDER / f"{name}.json",
                             json.dumps({**json.loads(submission.instructor), GRADED_FROM: marker}))
    page, _ = classroom.write(out, load_variant(assignment.variant) if assignment.variant else None,
                              reviews.distribution(session, assignment) if assignment.rubric.items else None)
    return page


def similarity_report(session: Session, course: Path, assignment: Assignment) -> Path:
    """similarity.html over the counted submissions' uploads, each compared under its own variant."""
    base = course / "server" / "reports" / assignment.name
    folder = _fresh(base / "counted")
    variants = {}
    for name, submission in _counted(session, assignment):
        kept = uploads.folder(course, submission.assignment, submission.id) / submission.filename
        target = folder / (f"{name}.py" if submission.filename == uploads.HOG else f"{name}.zip")
        shutil.copyfile(kept, target)
        variants[name] = submission.variant
    found = similarity.similarity(folder, _fresh(base / "similarity"),
                                  variant_of=lambda name, _text: variants.get(name))
    return found.html_path


def canvas_column(session: Session, course: Path, assignment: Assignment, export: bytes) -> Path:
    """canvas.csv: each student's total (``manual.grade``: the grading by hand counted once released) as one
    Canvas column, matched to the students of Canvas's gradebook export (``export``, its bytes) by student id
    or email; a usage error says what is wrong with the export."""
    folder = _fresh(course / "server" / "reports" / assignment.name / "canvas")
    released = manual.released_at(session, assignment.name) is not None
    known: dict[str, tuple[str, str]] = {}
    for name, person in _students(session):   # each member of a group by their own standing
        total, maximum = manual.grade(assignment, standing.for_person(session, assignment, person.id)[1],
                                      reviews.of_person(session, person.id, assignment.name), released)
        if total is None:
            continue
        write_atomically(folder / f"{name}.json", json.dumps({"score": total, "max_score": maximum, "tests": []}))
        known[name] = (person.student_id, person.email)
    write_atomically(folder / "export.csv", export.decode("utf-8", errors="replace"))
    return canvas.write(folder, folder / "export.csv", assignment=assignment.name,
                        aliases=lambda name: known.get(name, ())).path
