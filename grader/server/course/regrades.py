"""Regrade requests: after an assignment's manual grades are released, a student asks that one rubric item
(or the autograder's part) be looked at again, with a message, until ``regrade_requests_days`` days after the
release; one open request per item; staff answer each (what they changed, or why not), kept in the grade's
history."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.server.course import manual, reviews
from grader.server.course.reviews import Refused
from grader.server.store import db
from grader.server.store.models import STAFF, Person, RegradeRequest, Submission
from grader.spec.rubric import AUTOGRADER
from grader.spec.serving import Assignment


def closes_at(rules: Assignment, released: datetime | None) -> datetime | None:
    """When requests stop being taken (None: not released, or none taken)."""
    if released is None or rules.regrade_requests_days == 0:
        return None
    return released + timedelta(days=rules.regrade_requests_days)


def title(rules: Assignment, item: str) -> str:
    found = rules.rubric.item(item)
    if item == AUTOGRADER:
        return "the autograder's part"
    return found.title if found else f"{item} (no longer in the rubric)"


def ask(session: Session, rules: Assignment, person: Person, submission: Submission, body) -> RegradeRequest:
    """A new request of ``person`` about their ``submission``; refused (409) before release, past the window,
    or while one for the same item is open."""
    if not isinstance(body, dict) or set(body) - {"item", "message"}:
        raise Refused(400, 'send {"item": a rubric item\'s id or "autograder", "message": why}')
    item, message = body.get("item"), body.get("message")
    if not (item == AUTOGRADER or (isinstance(item, str) and rules.rubric.item(item) is not None)):
        known = ", ".join([AUTOGRADER, *(each.id for each in rules.rubric.items)])
        raise Refused(400, f"item is {item!r}: name one of {known}")
    if not isinstance(message, str) or not message.strip() or len(message) > reviews.LONGEST_TEXT:
        raise Refused(400, f"say why in the message (1 to {reviews.LONGEST_TEXT} characters)")
    released = manual.released_at(session, rules.name)
    if released is None:
        raise Refused(409, f"the grades of {rules.name} are not released yet: ask once they are")
    closes = closes_at(rules, released)
    if closes is None:
        raise Refused(409, f"{rules.name} takes no regrade requests: write to the course staff")
    if db.now() > closes:
        raise Refused(409, f"regrade requests for {rules.name} closed at {closes.isoformat(timespec='minutes')} "
                           f"({rules.regrade_requests_days} days after the grades were released)")
    session.scalars(select(Person).where(Person.id == person.id).with_for_update()).one()   # one ask at a time
    open_one = session.scalars(select(RegradeRequest).where(
        RegradeRequest.person_id == person.id, RegradeRequest.assignment == rules.name,
        RegradeRequest.item == item, RegradeRequest.answer.is_(None))).first()
    if open_one is not None:
        raise Refused(409, f"your request {open_one.id} about {title(rules, item)} is still open: wait for its answer")
    made = RegradeRequest(person_id=person.id, assignment=rules.name, submission_id=submission.id, item=item,
                          message=message.strip(), made_at=db.now())
    session.add(made)
    session.flush()
    reviews.noted(session, person.id, rules.name, submission.id, person,
                  f"regrade request {made.id} about {title(rules, item)}", made.message)
    return made


def answer(session: Session, rules: Assignment, request: RegradeRequest, by: Person, body) -> RegradeRequest:
    """Staff's answer to an open request (``{"message", "changed"}``)."""
    if not isinstance(body, dict) or set(body) - {"message", "changed"} or not isinstance(body.get("changed"), bool):
        raise Refused(400, 'send {"message": what you changed or why not, "changed": true or false}')
    message = body.get("message")
    if not isinstance(message, str) or not message.strip() or len(message) > reviews.LONGEST_TEXT:
        raise Refused(400, f"say what you changed, or why not, in the message (1 to {reviews.LONGEST_TEXT} characters)")
    if request.answer is not None:
        raise Refused(409, f"request {request.id} was answered already")
    request.answer, request.changed = message.strip(), body["changed"]
    request.answered_by, request.answered_at = by.id, db.now()
    reviews.noted(session, request.person_id, request.assignment, request.submission_id, by,
                  f"answered regrade request {request.id} about {title(rules, request.item)}: "
                  f"{'changed' if request.changed else 'not changed'}", request.answer)
    return request


def listed(session: Session, person: Person, *, open_only: bool = False) -> list[RegradeRequest]:
    """The person's requests, or every one for staff; oldest first."""
    query = select(RegradeRequest).order_by(RegradeRequest.id)
    if person.role != STAFF:
        query = query.where(RegradeRequest.person_id == person.id)
    if open_only:
        query = query.where(RegradeRequest.answer.is_(None))
    return list(session.scalars(query))


def of_submission(session: Session, submission_id: int) -> list[RegradeRequest]:
    return list(session.scalars(select(RegradeRequest).where(RegradeRequest.submission_id == submission_id)
                                .order_by(RegradeRequest.id)))


def described(rules: Assignment | None, request: RegradeRequest) -> dict:
    return {"id": request.id, "assignment": request.assignment, "submission": request.submission_id,
            "student_id": request.person.student_id, "item": request.item,
            "item_title": title(rules, request.item) if rules else request.item, "message": request.message,
            "made_at": db.utc(request.made_at).isoformat(), "answer": request.answer, "changed": request.changed,
            "answered_at": db.utc(request.answered_at).isoformat() if request.answered_at else None}
