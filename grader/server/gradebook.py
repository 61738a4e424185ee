"""The live gradebook of an assignment: ``grade-batch``'s columns, plus late days and the counted
submission, one row per student (those with no submission too)."""

from __future__ import annotations

import csv
import io
import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.report.html import spreadsheet_cell
from grader.server import db, policy
from grader.server.models import GRADED, STUDENT, Person, Submission
from grader.spec import load_variant
from grader.spec.serving import Assignment

HEAD = ["student_id", "email", "submission", "submitted_at", "score", "max_score", "status", "late_days",
        "raw_score", "submissions", "seed", "kit_version"]


SHOWN = (Submission.id, Submission.person_id, Submission.variant, Submission.status, Submission.submitted_at,
         Submission.late_days, Submission.score, Submission.max_score)
"""What the gradebook reads of each submission."""


def history(session: Session, person_id: int, assignment: str) -> list[Submission]:
    """A student's submissions to an assignment, oldest first."""
    return list(session.scalars(select(Submission).where(
        Submission.person_id == person_id, Submission.assignment == assignment).order_by(Submission.id)))


def counted(assignment: Assignment, submissions: list) -> object | None:
    """The submission that counts: among the graded ones, by the assignment's ``score`` (``submissions``:
    Submission objects, or rows of their columns)."""
    return policy.counted(assignment, [s for s in submissions if s.status == GRADED])


def _labels(assignment: Assignment, variants: set[str]) -> list[str]:
    chosen = assignment.variant or (min(variants) if variants else None)
    return [q.label for q in load_variant(chosen).questions] if chosen else []


def rows(session: Session, assignment: Assignment) -> list[list]:
    """The gradebook's rows, its header first."""
    students = session.execute(select(Person.id, Person.student_id, Person.email).where(Person.role == STUDENT)
                               .order_by(Person.student_id)).all()
    everything: dict[int, list] = {}
    # Every submission's columns the table shows, as plain rows (no result or instructor record: tens of
    # kilobytes each; no ORM objects: a live gradebook is read every few seconds); the counted ones'
    # results are read after, in one query.
    for submission in session.execute(select(*SHOWN).where(Submission.assignment == assignment.name)
                                      .order_by(Submission.id)):
        everything.setdefault(submission.person_id, []).append(submission)
    chosen_of = {person: counted(assignment, mine) for person, mine in everything.items()}
    wanted = [chosen.id for chosen in chosen_of.values() if chosen is not None]
    results = {number: text for number, text in session.execute(
        select(Submission.id, Submission.result).where(Submission.id.in_(wanted)))} if wanted else {}
    labels = _labels(assignment, {s.variant for group in everything.values() for s in group})
    table = [HEAD + [f"q{label}" for label in labels]]
    for student in students:
        mine = everything.get(student.id, [])
        chosen = chosen_of.get(student.id)
        if chosen is None:
            latest = mine[-1] if mine else None
            table.append([student.student_id, student.email, latest.id if latest else "",
                          db.utc(latest.submitted_at).isoformat(timespec="seconds") if latest else "", "", "",
                          latest.status if latest else "no submission", "", "", len(mine), "", ""]
                         + [""] * len(labels))
            continue
        result = json.loads(results.get(chosen.id) or "{}")
        by_number = {test.get("number"): test.get("score") for test in result.get("tests", [])}
        table.append([student.student_id, student.email, chosen.id,
                      db.utc(chosen.submitted_at).isoformat(timespec="seconds"),
                      policy.counted_score(assignment, chosen.score, chosen.late_days), chosen.max_score,
                      chosen.status, chosen.late_days, chosen.score, len(mine), result.get("seed", ""),
                      result.get("kit_version", "")] + [by_number.get(label, "") for label in labels])
    return table


def csv_text(table: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[spreadsheet_cell(value) for value in row] for row in table])
    return buffer.getvalue()
