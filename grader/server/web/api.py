"""The JSON API (``submit.py`` and the pages use it): submit, read a submission, list one's own and one's
group's, and the staff's gradebook as CSV (a group's routes are ``groups``). Signed in by ``Authorization:
Bearer TOKEN`` (or the page's session cookie for reading); errors are ``{"error": message}`` with their status."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from grader.server.course import gradebook, groups, hidden, reviews
from grader.server.store import uploads
from grader.server.store.models import FAILED, GRADED, Submission
from grader.server.web import access, intake

api = Blueprint("api", __name__, url_prefix="/api")


def described(submission: Submission, revealed: bool = False) -> dict:
    """What the API says of a submission; ``sent_as``: the name it was uploaded as (None before the server
    kept it); ``submitted_by``: the student id of whoever uploaded it (a group member, or oneself);
    ``result`` is ``hog grade --format json``'s object once graded, its hidden cases shown where
    ``revealed`` (the assignment's ``hidden_cases`` says when)."""
    done = submission.status in (GRADED, FAILED) and submission.result is not None
    result = hidden.for_student(json.loads(submission.result), submission.instructor, revealed) if done else None
    return {"id": submission.id, "assignment": submission.assignment, "status": submission.status,
            "submitted_at": access.utc_text(submission.submitted_at), "late_days": submission.late_days,
            "sent_as": submission.sent_as, "submitted_by": submission.person.student_id, "result": result}


def _revealed(assignment: str) -> bool:
    return hidden.shown(access.database(), access.settings().server.assignment(assignment))


@api.errorhandler(HTTPException)
def _error(error: HTTPException):
    return jsonify(error=access.message(error)), error.code


@api.post("/assignments/<name>/submissions")
def submit(name: str):
    sent = request.files.get("file")   # read before the database is opened for writing
    content = sent.stream.read(uploads.MAX_UPLOAD + 1) if sent is not None else b""
    database = access.database(writes=True)
    person = access.required(api=True)
    settings = access.settings()
    try:
        submission = intake.accept(database, settings.course, settings.server.assignment(name), person,
                                   sent.filename if sent is not None else None, content)
    except intake.NotTaken as refused:
        return jsonify(error=refused.message), refused.status
    return jsonify(id=submission.id, status=submission.status), 202


@api.get("/submissions/<int:submission_id>")
def one(submission_id: int):
    person = access.required(api=True)
    found = access.own_submission(person, submission_id)
    shown = described(found, _revealed(found.assignment))
    rules = access.settings().server.assignment(found.assignment)
    review = reviews.student_view(access.database(), rules, found, person.id) if rules is not None else None
    return jsonify(shown if review is None else {**shown, "review": review})   # after the release only


@api.get("/submissions")
def mine():
    """The student's submissions and their groups', oldest first (of one assignment: ``?assignment=NAME``)."""
    person = access.required(api=True)
    names = [request.args["assignment"]] if request.args.get("assignment") else \
        [a.name for a in access.settings().server.assignments]
    found = {s.id: (s, name) for name in names for s in groups.visible(access.database(), person.id, name)}
    if not request.args.get("assignment"):   # an assignment no longer in the config: one's own are listed still
        found.update({s.id: (s, s.assignment) for s in access.database().query(Submission).filter(
            Submission.person_id == person.id) if s.id not in found})
    shown = {name: _revealed(name) for name in names}
    return jsonify([described(s, shown.get(name, False)) for _, (s, name) in sorted(found.items())])


@api.get("/assignments/<name>/gradebook.csv")
def gradebook_csv(name: str):
    access.staff(api=True)
    assignment = access.assignment_or_404(name)
    return Response(gradebook.csv_text(gradebook.rows(access.database(), assignment,
                                                    access.settings().summaries)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}-gradebook.csv"'})
