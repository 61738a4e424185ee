"""Staff's grading by hand: a person's review of an assignment (``Review``) on its rubric, read and saved
against the version read (a save from a stale page is refused, never merged or lost), moved to a newer
counted submission by saving it there (carried over), every change kept in the history (who, when, what,
why); the assignment's release, before which students see nothing of it; and the total it makes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.server.course import groups, manual, standing
from grader.server.course.manual import applied, comments, released_at
from grader.server.store import db
from grader.server.store.models import STUDENT, GradeChange, Person, Release, Review, Submission
from grader.spec.serving import Assignment

BODY_KEYS = ("rubric", "adjustment", "comments", "version")
LONGEST_TEXT = 10_000     # characters of a comment or a reason
MOST_COMMENTS = 500
LARGEST_ADJUSTMENT = 1_000_000.0


class Refused(Exception):
    """What cannot be done, with the status the API answers (400 a body to fix, 409 a state that refuses it)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass(frozen=True)
class Wanted:
    """A review's content as staff send it, checked."""
    applied: frozenset[str]
    adjustment: float
    reason: str
    comments: tuple[tuple[int, int, str], ...]   # (line, end_line, text)
    version: int


def release(session: Session, assignment: str, by: Person | None) -> datetime:
    """The assignment's manual grades released (the first release's time kept when released again); ``by``:
    None from the command line."""
    found = session.get(Release, assignment)
    if found is None:
        found = Release(assignment=assignment, released_at=db.now(), released_by=by.id if by else None)
        session.add(found)
        session.flush()
    return db.utc(found.released_at)


def of_person(session: Session, person_id: int, assignment: str, *, locked: bool = False) -> Review | None:
    """The student's review of ``assignment``: their own, or else, in a group, the review of a submission of
    their group (staff grade a group's submission once, and it is each member's)."""
    query = select(Review).where(Review.person_id == person_id, Review.assignment == assignment)
    own = session.scalars(query.with_for_update() if locked else query).first()
    if own is not None or locked:
        return own
    group = groups.group_of(session, person_id, assignment)
    if group is None:
        return None
    return session.scalars(select(Review).join(Submission, Submission.id == Review.submission_id).where(
        Review.assignment == assignment, Submission.group_id == group.id).order_by(Review.id)).first()


def standing_of(session: Session, rules: Assignment, person_id: int) -> standing.Standing:
    """What counts for the student (their group's submissions where they are in one)."""
    return standing.for_person(session, rules, person_id)[1]


def history(session: Session, person_id: int, assignment: str) -> list[dict]:
    """Every change to the person's grade of the assignment, oldest first."""
    rows = session.scalars(select(GradeChange).where(GradeChange.person_id == person_id,
                                                     GradeChange.assignment == assignment).order_by(GradeChange.id))
    return [{"who": row.by.student_id if row.by else "", "when": db.utc(row.at).isoformat(timespec="seconds"),
             "submission": row.submission_id, "what": row.what, "why": row.why} for row in rows]


def noted(session: Session, person_id: int, assignment: str, submission_id: int | None, by: Person, what: str,
          why: str = "") -> None:
    session.add(GradeChange(person_id=person_id, assignment=assignment, submission_id=submission_id, by_id=by.id,
                            at=db.now(), what=what, why=why))


def staff_view(session: Session, rules: Assignment, submission: Submission) -> dict:
    """What staff read of the review of ``submission``'s person (an empty one at version 0 when none)."""
    review = of_person(session, submission.person_id, submission.assignment)
    mine = standing_of(session, rules, submission.person_id)
    chosen = mine.chosen
    found = applied(review)
    total, maximum = manual.grade(rules, mine, review, True)
    return {"submission": review.submission_id if review else submission.id,
            "counted": chosen.id if chosen else None,
            "outdated": review is not None and chosen is not None and review.submission_id != chosen.id,
            "rubric": {item.id: item.id in found for item in rules.rubric.items},
            "adjustment": {"points": review.adjustment if review else 0.0,
                           "reason": review.adjustment_reason if review else ""},
            "comments": comments(review), "version": review.version if review else 0,
            "rubric_points": manual.points(rules, review), "total": total, "total_max": maximum,
            "released_at": _text(released_at(session, submission.assignment)),
            "history": history(session, submission.person_id, submission.assignment)}


def student_view(session: Session, rules: Assignment, submission: Submission, reader: int) -> dict | None:
    """What the student ``reader`` (a person's id: the submitter, or a partner of their group) reads of their
    review of ``submission`` once released (None before, or when the review is of another submission)."""
    when = released_at(session, submission.assignment)
    review = of_person(session, reader, submission.assignment) if when else None
    if review is None or review.submission_id != submission.id:
        return None
    total, maximum = manual.grade(rules, standing_of(session, rules, reader), review, True)
    found = applied(review)
    return {"items": [{"id": item.id, "title": item.title, "points": item.points}
                      for item in rules.rubric.items if item.id in found],
            "comments": comments(review),
            "adjustment": {"points": review.adjustment, "reason": review.adjustment_reason},
            "total": total, "total_max": maximum, "released_at": _text(when)}


def _text(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _whole(value, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise Refused(400, f"{what} is {value!r}: send a whole number, {least} or more")
    return value


def _text_of(value, what: str, *, empty: bool) -> str:
    if not isinstance(value, str) or len(value) > LONGEST_TEXT or (not empty and not value.strip()):
        raise Refused(400, f"{what} is {str(value)[:40]!r}: send a text of 1 to {LONGEST_TEXT} characters")
    return value.strip()


def wanted(rules: Assignment, body) -> Wanted:
    """A review's content as sent (``{"rubric", "adjustment", "comments", "version"}``), checked."""
    if not isinstance(body, dict):
        raise Refused(400, 'send a JSON object: {"rubric": {...}, "adjustment": {...}, "comments": [...], '
                           '"version": N}')
    unknown = sorted(set(body) - set(BODY_KEYS))
    if unknown:
        raise Refused(400, f"unknown key {unknown[0]!r}: the keys are {', '.join(BODY_KEYS)}")
    version = _whole(body.get("version"), "version", 0)
    marks = body.get("rubric", {})
    if not isinstance(marks, dict):
        raise Refused(400, 'rubric is not an object: send {"ITEM_ID": true or false, ...}')
    for item_id, value in marks.items():
        if rules.rubric.item(item_id) is None:
            known = ", ".join(item.id for item in rules.rubric.items) or "none"
            raise Refused(400, f"{rules.name} has no rubric item {item_id!r} (its items: {known})")
        if not isinstance(value, bool):
            raise Refused(400, f"rubric.{item_id} is {value!r}: send true or false")
    adjustment = body.get("adjustment") or {}
    points = adjustment.get("points", 0) if isinstance(adjustment, dict) else None
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not abs(points) <= LARGEST_ADJUSTMENT:
        raise Refused(400, 'adjustment is not {"points": NUMBER, "reason": TEXT}')
    reason = _text_of(adjustment.get("reason", ""), "adjustment.reason", empty=True)
    if points and not reason:
        raise Refused(400, "an adjustment needs a reason: say why, the student reads it")
    given = body.get("comments", [])
    if not isinstance(given, list) or len(given) > MOST_COMMENTS:
        raise Refused(400, f"comments is not a list of at most {MOST_COMMENTS} {{\"line\", \"end_line\", \"text\"}}")
    notes = []
    for number, comment in enumerate(given):
        if not isinstance(comment, dict):
            raise Refused(400, f"comments[{number}] is not an object")
        line = _whole(comment.get("line"), f"comments[{number}].line", 1)
        end = comment.get("end_line")
        end = line if end is None else _whole(end, f"comments[{number}].end_line (at least its line)", line)
        notes.append((line, end, _text_of(comment.get("text"), f"comments[{number}].text", empty=False)))
    return Wanted(frozenset(item for item, value in marks.items() if value), float(points), reason,
                  tuple(notes), version)


def _signed(points: float) -> str:
    return f"{points:+g}"


def _changes(rules: Assignment, review: Review | None, new: Wanted, submission_id: int) -> list[str]:
    """What a save changes, as the history says it (the items with their points at the time)."""
    said, before = [], applied(review)
    shown = {item.id: f"{item.id} ({_signed(item.points)})" for item in rules.rubric.items}
    if review is not None and review.submission_id != submission_id:
        said.append(f"carried over from submission {review.submission_id} to {submission_id}")
    if new.applied - before:
        said.append("applied " + ", ".join(shown[i] for i in shown if i in new.applied - before))
    if before - new.applied:
        said.append("removed " + ", ".join(shown.get(i, i) for i in sorted(before - new.applied)))
    old_points = review.adjustment if review is not None else 0.0
    if old_points != new.adjustment or (review is not None and review.adjustment_reason != new.reason):
        said.append(f"adjustment {_signed(old_points)} → {_signed(new.adjustment)}")
    old_notes = {(c["line"], c["end_line"], c["text"]) for c in comments(review)}
    for line, end, text in new.comments:
        if (line, end, text) not in old_notes:
            said.append(f"comment on line {line}{f'-{end}' if end != line else ''}: {text[:80]}")
    removed = len(old_notes - set(new.comments))
    if removed:
        said.append(f"{removed} comment{'s' if removed != 1 else ''} removed")
    return said


def save(session: Session, rules: Assignment, submission: Submission, by: Person, new: Wanted) -> Review:
    """The review of ``submission``'s person, now of ``submission`` and as ``new`` says; refused (409) when
    its version is no longer ``new.version`` (another grader saved since it was read)."""
    review = of_person(session, submission.person_id, submission.assignment, locked=True)
    current = review.version if review is not None else 0
    if new.version != current:
        who = session.get(Person, review.graded_by).student_id if review and review.graded_by else "another grader"
        raise Refused(409, f"this review changed since you read it (you read version {new.version}; {who} saved "
                           f"version {current}): reload it and make your change again")
    said = _changes(rules, review, new, submission.id)
    if not said:
        return review
    values = dict(submission_id=submission.id, applied=json.dumps(sorted(new.applied)), adjustment=new.adjustment,
                  adjustment_reason=new.reason, version=current + 1, graded_by=by.id, updated_at=db.now(),
                  comments=json.dumps([{"line": line, "end_line": end, "text": text}
                                       for line, end, text in new.comments]))
    try:
        if review is None:
            review = Review(person_id=submission.person_id, assignment=submission.assignment, **values)
            session.add(review)
            session.flush()
        elif session.execute(update(Review).where(Review.id == review.id, Review.version == current)
                             .values(**values)).rowcount != 1:
            raise Refused(409, "this review changed since you read it: reload it and make your change again")
    except IntegrityError:   # another grader made the first version at the same moment
        raise Refused(409, "this review was made by another grader since you read it: reload it") from None
    session.expire(review)
    why = new.reason if any(each.startswith("adjustment") for each in said) else ""
    noted(session, submission.person_id, submission.assignment, submission.id, by, "; ".join(said), why)
    return review


def ungraded_next(session: Session, rules: Assignment, after_student: str = "") -> Submission | None:
    """The counted submission of the first student (by id, after ``after_student``) with no review of it."""
    from_people = session.execute(select(Person.id, Person.student_id).where(Person.role == STUDENT,
                                                                            Person.student_id > after_student)
                                  .order_by(Person.student_id)).all()
    reviewed = dict(session.execute(select(Review.person_id, Review.submission_id).where(
        Review.assignment == rules.name)).all())
    for person_id, _ in from_people:
        chosen = standing_of(session, rules, person_id).chosen
        if chosen is not None and reviewed.get(person_id) != chosen.id:
            return chosen
    return None


def distribution(session: Session, rules: Assignment) -> dict:
    """How often each rubric item is applied among the assignment's reviews (the class report's, the
    grading list's): ``{"reviews": N, "items": [{"id", "title", "points", "applied"}]}``."""
    counts = {item.id: 0 for item in rules.rubric.items}
    found = list(session.scalars(select(Review.applied).where(Review.assignment == rules.name)))
    for text in found:
        for item_id in json.loads(text):
            if item_id in counts:
                counts[item_id] += 1
    return {"reviews": len(found), "items": [{"id": item.id, "title": item.title, "points": item.points,
                                              "applied": counts[item.id]} for item in rules.rubric.items]}
