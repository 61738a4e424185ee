"""The student's pages: sign in by link, the assignments, upload, a submission's status and report,
earlier submissions (their group's too), late days, the checkpoint and early dates, and the contest
leaderboard (an alias each chooses, or hidden). A group's forms are ``groups``'s."""

from __future__ import annotations

import json
import re

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from grader.server.course import groups, hidden, leaderboard, manual, people, policy, reviews, standing
from grader.server.store import uploads
from grader.server.store.models import FAILED, GRADED, STAFF
from grader.server.web import access, grading, intake

student = Blueprint("student", __name__)
ALIAS_LIMIT = 40


@student.app_errorhandler(HTTPException)
def _error(error: HTTPException):
    return render_template("message.html", title=error.name, message=access.message(error),
                           person=access.person()), error.code


@student.get("/signin/<token>")
def sign_in(token: str):
    found = people.signed_in(access.database(), token)
    if found is None:
        return render_template("message.html", title="Link not valid", person=None,
                               message="This sign-in link is not valid (a newer one may have replaced it): "
                                       "ask the course staff for yours."), 404
    access.sign_in(found)
    return redirect(url_for("staff.home" if found.role == STAFF else "student.home"))


@student.post("/signout")
def sign_out():
    access.sign_out()
    return redirect(url_for("student.home"))


def _released_review(database, person_id: int, assignment: str):
    """The student's review of ``assignment`` once its manual grades are released (None before, or none)."""
    if manual.released_at(database, assignment) is None:
        return None
    return reviews.of_person(database, person_id, assignment)


def _summary(person, assignment) -> dict:
    database = access.database()
    seen, mine = standing.for_person(database, assignment, person.id)
    days = intake.extension(database, person, assignment.name)
    group = groups.group_of(database, person.id, assignment.name)
    invited, invited_by = groups.invitations(database, person.id, assignment.name)
    return {"assignment": assignment, "submissions": seen, "counted": mine.chosen, "standing": mine,
            "extension": days, "late_of": {s.id: standing.late_for(assignment, s, days, person.id) for s in seen},
            "late_used": max((standing.late_for(assignment, s, days, person.id) for s in seen), default=0),
            "score": mine.score, "group": group, "invited": invited, "invited_by": invited_by,
            "members": groups.members(database, group.id) if group else [],
            "locked": group is not None and groups.has_submission(database, group.id),
            "total": (manual.grade(assignment, mine, review, True) if (review := _released_review(
                database, person.id, assignment.name)) is not None else None),
            "checkpoint_due": (policy.later(assignment, assignment.checkpoint.due, days)
                               if assignment.checkpoint else None)}


@student.get("/")
def home():
    person = access.person()
    if person is None:
        return render_template("message.html", title="Sign in", person=None,
                               message="Open the personal sign-in link the course staff sent you."), 401
    settings = access.settings()
    return render_template("home.html", person=person,
                           rows=[_summary(person, a) for a in settings.server.assignments])


@student.get("/assignments/<name>")
def assignment(name: str, error: str = "", status: int = 200):
    person = access.required()
    found = access.assignment_or_404(name)
    return render_template("assignment.html", person=person, error=error, max_upload=uploads.MAX_UPLOAD,
                           **_summary(person, found)), status


@student.post("/assignments/<name>/submissions")
def submit(name: str):
    sent = request.files.get("file")   # read before the database is opened for writing
    content = sent.stream.read(uploads.MAX_UPLOAD + 1) if sent is not None else b""
    database = access.database(writes=True)
    person = access.required()
    settings = access.settings()
    try:
        submission = intake.accept(database, settings.course, settings.server.assignment(name), person,
                                   sent.filename if sent is not None else None, content)
    except intake.NotTaken as refused:
        if refused.status == 404:
            abort(404)
        return assignment(name, error=refused.message, status=refused.status)
    return redirect(url_for("student.submission", submission_id=submission.id), 303)


@student.get("/submissions/<int:submission_id>")
def submission(submission_id: int):
    person = access.required()
    found = access.own_submission(person, submission_id)
    done = found.status in (GRADED, FAILED) and found.result is not None
    rules = access.settings().server.assignment(found.assignment)
    late = (standing.late_for(rules, found, intake.extension(access.database(), person, rules.name), person.id)
            if rules is not None else found.late_days)   # this student's, by their own extension
    counted = (policy.counted_score(rules, found.score, late)
               if done and late and rules is not None else None)   # None: on time, or no score
    result = hidden.for_student(json.loads(found.result), found.instructor,
                                hidden.shown(access.database(), rules)) if done else None
    return render_template("submission.html", person=person, submission=found, result=result, done=done,
                           counted=counted, late=late, **grading.student_context(person, found))


@student.get("/assignments/<name>/leaderboard")
def board(name: str):
    person = access.required()
    found = access.assignment_or_404(name)
    return render_template("leaderboard.html", person=person, assignment=found,
                           rows=leaderboard.rows(access.database(), found, person))


@student.post("/alias")
def alias():
    access.database(writes=True)
    person = access.required()
    chosen = " ".join(request.form.get("alias", "").split())[:ALIAS_LIMIT]
    person.alias = chosen or None
    access.database().commit()
    back = request.form.get("back", "")   # placed in Location: an assignment's page, nothing else
    return redirect(back if re.fullmatch(r"/assignments/[A-Za-z0-9_-]{1,64}", back) else url_for("student.home"), 303)
