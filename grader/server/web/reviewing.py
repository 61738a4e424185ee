"""The API of grading by hand (Bearer token; the staff's pages use the same functions): a submission's review
read and saved against its version (409 when stale), an assignment's release, regrade requests asked,
listed and answered. Errors are ``{"error": message}`` with their status; another student's submission or
request is 404, a staff route 403 for a student."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from werkzeug.exceptions import HTTPException

from grader.server.course import groups, manual, regrades, reviews
from grader.server.lti import passback
from grader.server.store.models import RegradeRequest, Submission
from grader.server.web import access

reviewing = Blueprint("reviewing", __name__, url_prefix="/api")


@reviewing.errorhandler(HTTPException)
def _error(error: HTTPException):
    return jsonify(error=access.message(error)), error.code


@reviewing.errorhandler(reviews.Refused)
def _refused(refused: reviews.Refused):
    return jsonify(error=refused.message), refused.status


def rules_of(submission: Submission):
    found = access.settings().server.assignment(submission.assignment)
    if found is None:   # an assignment taken out of the config: its submissions are kept, not graded by hand
        abort(404)
    return found


def save_review(submission: Submission, by, body) -> dict:
    """``body`` saved as the review of ``submission`` (committed, and the total sent where released)."""
    database = access.database()
    rules = rules_of(submission)
    reviews.save(database, rules, submission, by, reviews.wanted(rules, body))
    if manual.released_at(database, submission.assignment) is not None:
        for person_id in groups.member_ids(database, submission.person_id, submission.assignment):
            passback.refresh(database, access.settings().server, person_id, submission.assignment)   # each member
    database.commit()
    return reviews.staff_view(database, rules, submission)


def release(name: str, by) -> str:
    rules = access.assignment_or_404(name)
    database = access.database()
    when = reviews.release(database, rules.name, by)
    passback.refresh_assignment(database, access.settings().server, rules.name)
    database.commit()
    return when.isoformat()


def ask(submission_id: int, person, body) -> RegradeRequest:
    submission = access.database().get(Submission, submission_id)
    if submission is None or submission.person_id != person.id:
        abort(404)
    made = regrades.ask(access.database(), rules_of(submission), person, submission, body)
    access.database().commit()
    return made


def answer(request_id: int, by, body) -> RegradeRequest:
    database = access.database()
    found = database.get(RegradeRequest, request_id)
    if found is None:
        abort(404)
    regrades.answer(database, access.settings().server.assignment(found.assignment), found, by, body)
    database.commit()
    return found


@reviewing.get("/submissions/<int:submission_id>/review")
def read(submission_id: int):
    person = access.staff(api=True)
    submission = access.own_submission(person, submission_id)
    return jsonify(reviews.staff_view(access.database(), rules_of(submission), submission))


@reviewing.put("/submissions/<int:submission_id>/review")
def write(submission_id: int):
    access.database(writes=True)
    person = access.staff(api=True)
    return jsonify(save_review(access.own_submission(person, submission_id), person, request.get_json(silent=True)))


@reviewing.post("/assignments/<name>/release")
def released(name: str):
    access.database(writes=True)
    person = access.staff(api=True)
    return jsonify(assignment=name, released_at=release(name, person))


@reviewing.post("/submissions/<int:submission_id>/regrade-requests")
def asked(submission_id: int):
    access.database(writes=True)
    person = access.required(api=True)
    made = ask(submission_id, person, request.get_json(silent=True))
    return jsonify(regrades.described(access.settings().server.assignment(made.assignment), made)), 201


@reviewing.get("/regrade-requests")
def requests():
    person = access.required(api=True)
    server = access.settings().server
    return jsonify([regrades.described(server.assignment(each.assignment), each)
                    for each in regrades.listed(access.database(), person)])


@reviewing.post("/regrade-requests/<int:request_id>/answer")
def answered(request_id: int):
    access.database(writes=True)
    person = access.staff(api=True)
    found = answer(request_id, person, request.get_json(silent=True))
    return jsonify(regrades.described(access.settings().server.assignment(found.assignment), found))
