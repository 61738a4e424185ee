"""The JSON API (``submit.py`` and the pages use it): submit, read a submission, list one's own, and the
staff's gradebook as CSV. Signed in by ``Authorization: Bearer TOKEN`` (or the page's session cookie
for reading); errors are ``{"error": message}`` with their status."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from grader.server.course import gradebook, reviews
from grader.server.store import uploads
from grader.server.store.models import FAILED, GRADED, Submission
from grader.server.web import access, intake

api = Blueprint("api", __name__, url_prefix="/api")


def described(submission: Submission) -> dict:
    """What the API says of a submission; ``sent_as``: the name it was uploaded as (None before the server
    kept it); ``result`` is ``hog grade --format json``'s object once graded."""
    done = submission.status in (GRADED, FAILED) and submission.result is not None
    return {"id": submission.id, "assignment": submission.assignment, "status": submission.status,
            "submitted_at": access.utc_text(submission.submitted_at), "late_days": submission.late_days,
            "sent_as": submission.sent_as, "result": json.loads(submission.result) if done else None}


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
    submission = access.own_submission(person, submission_id)
    shown = described(submission)
    rules = access.settings().server.assignment(submission.assignment)
    review = reviews.student_view(access.database(), rules, submission) if rules is not None else None
    return jsonify(shown if review is None else {**shown, "review": review})   # after the release only


@api.get("/submissions")
def mine():
    person = access.required(api=True)
    query = access.database().query(Submission).filter(Submission.person_id == person.id)
    if request.args.get("assignment"):
        query = query.filter(Submission.assignment == request.args["assignment"])
    return jsonify([described(s) for s in query.order_by(Submission.id)])


@api.get("/assignments/<name>/gradebook.csv")
def gradebook_csv(name: str):
    access.staff(api=True)
    assignment = access.assignment_or_404(name)
    return Response(gradebook.csv_text(gradebook.rows(access.database(), assignment,
                                                    access.settings().summaries)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}-gradebook.csv"'})
