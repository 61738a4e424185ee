"""The live gradebook of an assignment: ``grade-batch``'s columns, plus late days and the counted
submission, one row per student (those with no submission too); a group's members each have their row, with
the group's name and their own standing (``standing``), the points of each rubric item given by hand, and the
total (``manual.grade``: with the checkpoint and early bonus, and the manual part counted once released)."""

from __future__ import annotations

import csv
import io
import json
import threading
from collections import OrderedDict, namedtuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.report.spreadsheet import spreadsheet_cell
from grader.server.course import manual, policy, standing
from grader.server.store import db
from grader.server.store.models import GRADED, STUDENT, Extension, Group, Membership, Person, Review, Submission
from grader.spec import load_variant
from grader.spec.serving import Assignment

HEAD = ["student_id", "email", "submission", "submitted_at", "score", "max_score", "status", "late_days",
        "raw_score", "submissions", "seed", "kit_version", "group", "total", "total_max"]
MANUAL = ["adjustment"]   # after the questions' and the rubric items' columns


SHOWN = (Submission.id, Submission.person_id, Submission.group_id, Submission.variant, Submission.status,
         Submission.submitted_at, Submission.late_days, Submission.score, Submission.max_score, Submission.attempt)
"""What the gradebook reads of each submission."""
# Those columns as a named tuple: a database row's attributes cost about 0.7 µs each to read, a named
# tuple's a tenth of that, and a reload reads about ten thousand.
Shown = namedtuple("Shown", [column.key for column in SHOWN])


class Summaries:
    """What the gradebook shows of graded results (each question's score, the seed, the kit's version, the
    questions passed), by
    (submission, attempt), for one database: a result is written once per claim, so a live gradebook parses
    each result once rather than at every reload. Shared by the web process's threads."""

    KEPT = 100_000

    def __init__(self):
        self._known: OrderedDict[tuple[int, int], tuple[dict, object, object, frozenset]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, session: Session, chosen: list) -> dict[int, tuple[dict, object, object, frozenset]]:
        """Submission id → (question → score, seed, kit version, questions passed) of these graded submissions
        (rows with
        ``id`` and ``attempt``); the results not seen before are read in one query and parsed."""
        found, missing = {}, []
        with self._lock:
            for row in chosen:
                known = self._known.get((row.id, row.attempt))
                if known is None:
                    missing.append(row)
                else:
                    found[row.id] = known
                    self._known.move_to_end((row.id, row.attempt))
        if not missing:
            return found
        texts = dict(session.execute(select(Submission.id, Submission.result)
                                     .where(Submission.id.in_([row.id for row in missing]))).all())
        with self._lock:
            for row in missing:
                result = json.loads(texts.get(row.id) or "{}")
                found[row.id] = self._known[row.id, row.attempt] = (
                    {test.get("number"): test.get("score") for test in result.get("tests", [])},
                    result.get("seed", ""), result.get("kit_version", ""),
                    frozenset(str(t.get("number")) for t in result.get("tests", []) if t.get("status") == "passed"))
            while len(self._known) > self.KEPT:
                self._known.popitem(last=False)
        return found


def history(session: Session, person_id: int, assignment: str) -> list[Submission]:
    """A student's own submissions to an assignment, oldest first."""
    return list(session.scalars(select(Submission).where(
        Submission.person_id == person_id, Submission.assignment == assignment).order_by(Submission.id)))


def counted(assignment: Assignment, submissions: list) -> object | None:
    """The submission that counts: among the graded ones, by the assignment's ``score`` (``submissions``:
    Submission objects, or rows of their columns)."""
    return policy.counted(assignment, [s for s in submissions if s.status == GRADED])


def _labels(assignment: Assignment, variants: set[str]) -> list[str]:
    chosen = assignment.variant or (min(variants) if variants else None)
    return [q.label for q in load_variant(chosen).questions] if chosen else []


def _groups(session: Session, assignment: str) -> dict[int, tuple[int, str]]:
    """Person id → (group id, group name), for the students in a group of the assignment."""
    return {person: (group, name) for person, group, name in session.execute(
        select(Membership.person_id, Group.id, Group.name).join(Group, Group.id == Membership.group_id)
        .where(Membership.assignment == assignment)).all()}


def _number(value):
    return "" if value is None else value


def rows(session: Session, assignment: Assignment, summaries: Summaries) -> list[list]:
    """The gradebook's rows, its header first (``summaries``: the results already read, of this database)."""
    students = session.execute(select(Person.id, Person.student_id, Person.email).where(Person.role == STUDENT)
                               .order_by(Person.student_id)).all()
    own: dict[int, list] = {}
    made_for: dict[int, list] = {}
    # Every submission's columns the table shows, as plain rows (no result or instructor record: tens of
    # kilobytes each; no ORM objects: a live gradebook is read every few seconds); the counted ones'
    # results are read after, those not read before (``Summaries``) in one query.
    for submission in map(Shown._make, session.execute(select(*SHOWN).where(
            Submission.assignment == assignment.name).order_by(Submission.id))):
        own.setdefault(submission.person_id, []).append(submission)
        if submission.group_id is not None:
            made_for.setdefault(submission.group_id, []).append(submission)
    in_group = _groups(session, assignment.name)
    extensions = dict(session.execute(select(Extension.person_id, Extension.days).where(
        Extension.assignment == assignment.name)).all())
    seen, counting = {}, {}
    for person_id, _, _ in students:
        group_id = in_group.get(person_id, (None, ""))[0]
        mine, theirs = own.get(person_id, []), made_for.get(group_id, []) if group_id is not None else []
        seen[person_id] = sorted({s.id: s for s in mine + theirs}.values(), key=lambda s: s.id) if theirs else mine
        counting[person_id] = theirs or mine
    # Every graded result is read only where a checkpoint asks which questions passed; else the counted ones'.
    shown = summaries.of(session, [s for person in counting.values() for s in person if s.status == GRADED]
                         if assignment.checkpoint else [])

    def passed(submission) -> frozenset:
        return shown[submission.id][3] if submission.id in shown else frozenset()
    stand = {person_id: standing.of(assignment, person_id, mine, extensions.get(person_id, 0), passed)
             for person_id, mine in counting.items()}
    shown.update(summaries.of(session, [each.chosen for each in stand.values()
                                        if each.chosen is not None and each.chosen.id not in shown]))
    labels = _labels(assignment, {s.variant for group in own.values() for s in group})
    items = assignment.rubric.items
    table = [HEAD + [f"q{label}" for label in labels] + [f"rubric:{item.id}" for item in items] + MANUAL]
    reviews = {review.person_id: review for review in session.scalars(
        select(Review).where(Review.assignment == assignment.name).order_by(Review.id.desc()))}
    group_of_submission = {s.id: s.group_id for mine in own.values() for s in mine}
    of_group = {group_of_submission[review.submission_id]: review for review in reviews.values()
                if group_of_submission.get(review.submission_id) is not None}   # a group's: each member's
    released = manual.released_at(session, assignment.name) is not None
    for person_id, student_id, email in students:
        mine, row, group = seen[person_id], stand[person_id], in_group.get(person_id, (None, ""))[1]
        chosen = row.chosen
        review = reviews.get(person_id) or of_group.get(in_group.get(person_id, (None, ""))[0])
        tail = [group, *map(_number, manual.grade(assignment, row, review, released))]
        if chosen is None:
            latest = mine[-1] if mine else None
            table.append([student_id, email, latest.id if latest else "",
                          db.utc(latest.submitted_at).isoformat(timespec="seconds") if latest else "", "", "",
                          latest.status if latest else "no submission", "", "", len(mine), "", "", *tail]
                         + [""] * len(labels) + _manual_cells(assignment, review))
            continue
        by_number, seed, kit_version, _ = shown[chosen.id]
        table.append([student_id, email, chosen.id,
                      db.utc(chosen.submitted_at).isoformat(timespec="seconds"),
                      row.score, chosen.max_score, chosen.status, row.late, chosen.score, len(mine), seed,
                      kit_version, *tail]
                     + [by_number.get(label, "") for label in labels] + _manual_cells(assignment, review))
    return table


def _manual_cells(assignment: Assignment, review: Review | None) -> list:
    """Each rubric item's points (0 where not applied; empty where no review), and the adjustment."""
    if review is None:
        return [""] * (len(assignment.rubric.items) + len(MANUAL))
    found = manual.applied(review)
    return [item.points if item.id in found else 0 for item in assignment.rubric.items] + [review.adjustment]


def state(session: Session, assignment: str) -> str:
    """A short text that changes whenever the assignment's gradebook does (a submission made, claimed,
    graded, regraded; a student added; a group changed): what a live gradebook page looks at before reading the
    rows again."""
    by_status = session.execute(select(Submission.status, func.count(), func.max(Submission.id),
                                       func.sum(Submission.attempt)).where(Submission.assignment == assignment)
                                .group_by(Submission.status).order_by(Submission.status)).all()
    people = session.scalar(select(func.count()).select_from(Person).where(Person.role == STUDENT))
    members, last_member = session.execute(select(func.count(), func.max(Membership.id)).where(
        Membership.assignment == assignment)).one()
    graded_by_hand = session.execute(select(func.count(), func.sum(Review.version)).where(
        Review.assignment == assignment)).one()
    released = manual.released_at(session, assignment) is not None
    return ";".join([f"people={people}", f"groups={members}/{last_member}",
                     f"reviews={graded_by_hand[0]}/{graded_by_hand[1]}/{released}",
                     *(f"{status}={count}/{last}/{attempts}" for status, count, last, attempts in by_status)])


def csv_text(table: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[spreadsheet_cell(value) for value in row] for row in table])
    return buffer.getvalue()
