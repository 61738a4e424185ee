"""The staff's pages of grading by hand: an assignment's grading list (each student's counted submission and
its review, the rubric's distribution, the release button), a submission's grading page (its code with line
numbers and highlighting, the autograder's result beside it, the rubric applied with one click or key,
comments on lines, canned comments, an adjustment, "next ungraded", the history), and the queue of regrade
requests with their answers. What they save goes through the API's functions (``reviewing``)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, send_file, url_for
from sqlalchemy import select

from grader.errors import UsageError
from grader.server.course import manual, policy, regrades, reports, reviews
from grader.server.store import db, uploads
from grader.server.store.models import STUDENT, CannedComment, Person, Submission
from grader.server.web import access, code, reviewing

grading = Blueprint("grading", __name__)
LONGEST_CANNED = 2_000


@grading.get("/code.css")
def code_css():
    return Response(code.style(), mimetype="text/css", headers={"Cache-Control": "max-age=3600"})


def _source(submission: Submission) -> str:
    kept = uploads.folder(access.settings().course, submission.assignment, submission.id) / submission.filename
    return uploads.hog_text(kept)


@grading.get("/staff/assignments/<name>/grading")
def overview(name: str):
    person = access.staff()
    rules = access.assignment_or_404(name)
    database = access.database()
    rows = []
    for student in database.scalars(select(Person).where(Person.role == STUDENT).order_by(Person.student_id)):
        mine = reviews.standing_of(database, rules, student.id)
        chosen = mine.chosen
        review = reviews.of_person(database, student.id, rules.name)
        total, maximum = manual.grade(rules, mine, review, True)
        rows.append({"student": student, "counted": chosen, "review": review, "total": total, "total_max": maximum,
                     "outdated": bool(review and chosen and review.submission_id != chosen.id)})
    return render_template("staff_grading.html", person=person, assignment=rules, rows=rows,
                           released_at=manual.released_at(database, rules.name),
                           distribution=reviews.distribution(database, rules),
                           open_requests=len(regrades.listed(database, person, open_only=True)))


@grading.post("/staff/assignments/<name>/release")
def release(name: str):
    access.database(writes=True)
    person = access.staff()
    reviewing.release(name, person)
    return redirect(url_for("grading.overview", name=name), 303)


@grading.post("/staff/assignments/<name>/canvas.csv")
def canvas_csv(name: str):
    """A Canvas column of the totals, from the Canvas gradebook export sent (field ``export``)."""
    person = access.staff()
    rules = access.assignment_or_404(name)
    sent = request.files.get("export")
    try:
        made = reports.canvas_column(access.database(), access.settings().course, rules,
                                     sent.stream.read(uploads.MAX_UPLOAD) if sent is not None else b"")
    except UsageError as error:
        return render_template("message.html", title="Not a Canvas export", message=str(error), person=person), 400
    return send_file(made, mimetype="text/csv", as_attachment=True, download_name=f"{name}-canvas.csv", max_age=0)


@grading.get("/staff/assignments/<name>/next-ungraded")
def next_ungraded(name: str):
    access.staff()
    rules = access.assignment_or_404(name)
    found = reviews.ungraded_next(access.database(), rules, request.args.get("after", ""))
    if found is None:
        return redirect(url_for("grading.overview", name=name, done=1), 303)
    return redirect(url_for("grading.page", submission_id=found.id), 303)


def _page(person, submission: Submission, *, error: str = "", status: int = 200):
    database = access.database()
    rules = reviewing.rules_of(submission)
    view = reviews.staff_view(database, rules, submission)
    result = json.loads(submission.result) if submission.result else None
    counted = view["counted"]
    return render_template(
        "staff_grade.html", person=person, submission=submission, assignment=rules, review=view, error=error,
        result=result, lines=code.lines(_source(submission), view["comments"]),
        after_penalty=policy.counted_score(rules, submission.score, submission.late_days),
        carry_to=counted if view["outdated"] and counted == submission.id else None,
        canned=list(database.scalars(select(CannedComment).where(CannedComment.assignment == rules.name)
                                     .order_by(CannedComment.id))),
        requests=regrades.of_submission(database, submission.id)), status


@grading.get("/staff/submissions/<int:submission_id>/grade")
def page(submission_id: int):
    person = access.staff()
    return _page(person, access.own_submission(person, submission_id))


def _number(text: str, what: str) -> float:
    try:
        return float(text or 0)
    except ValueError:
        raise reviews.Refused(400, f"{what} is {text[:20]!r}: write a number") from None


def _line(text: str) -> int | str:
    return int(text) if text.strip().isdigit() else text


def _wanted_from(form) -> dict:
    """The review the form describes (what the API's PUT takes): the items applied, one toggled by its
    button, the comments kept (one removed by its button), a new one (typed or canned)."""
    marks = set(form.getlist("applied"))
    if form.get("toggle"):
        marks ^= {form["toggle"]}
    notes = [{"line": _line(line), "end_line": _line(end), "text": text}
             for line, end, text in zip(form.getlist("comment_line"), form.getlist("comment_end"),
                                        form.getlist("comment_text"))]
    if form.get("remove", "").isdigit() and int(form["remove"]) < len(notes):
        del notes[int(form["remove"])]
    text = form.get("new_text", "").strip() or form.get("canned_text", "").strip()
    if text:
        notes.append({"line": _line(form.get("new_line", "")),
                      "end_line": _line(form.get("new_end_line") or form.get("new_line", "")), "text": text})
    version = form.get("version", "")
    return {"rubric": {item: True for item in marks}, "comments": notes,
            "adjustment": {"points": _number(form.get("adjustment_points", ""), "the adjustment"),
                           "reason": form.get("adjustment_reason", "")},
            "version": int(version) if version.isdigit() else version}


@grading.post("/staff/submissions/<int:submission_id>/grade")
def save(submission_id: int):
    database = access.database(writes=True)
    person = access.staff()
    submission = access.own_submission(person, submission_id)
    try:
        wanted = _wanted_from(request.form)
        text = request.form.get("new_text", "").strip()
        if request.form.get("save_canned") and text and len(text) <= LONGEST_CANNED:
            database.add(CannedComment(assignment=submission.assignment, text=text))
        reviewing.save_review(submission, person, wanted)
    except reviews.Refused as refused:
        database.rollback()
        return _page(person, submission, error=refused.message, status=refused.status)
    return redirect(url_for("grading.page", submission_id=submission_id) + "#rubric", 303)


@grading.get("/staff/regrade-requests")
def queue():
    person = access.staff()
    database = access.database()
    server = access.settings().server
    found = [regrades.described(server.assignment(r.assignment), r) for r in regrades.listed(database, person)]
    return render_template("staff_regrades.html", person=person,
                           waiting=[r for r in found if r["answer"] is None],
                           answered=[r for r in found if r["answer"] is not None])


def _not_done(person, title: str, refused: reviews.Refused):
    """The page saying why a form's request was refused (its status)."""
    access.database().rollback()
    return render_template("message.html", title=title, message=refused.message, person=person), refused.status


@grading.post("/staff/regrade-requests/<int:request_id>/answer")
def answer(request_id: int):
    access.database(writes=True)
    person = access.staff()
    try:
        reviewing.answer(request_id, person, {"message": request.form.get("message", ""),
                                              "changed": request.form.get("changed") == "yes"})
    except reviews.Refused as refused:
        return _not_done(person, "Not answered", refused)
    return redirect(url_for("grading.queue"), 303)


def student_context(person, submission: Submission) -> dict:
    """What the student's submission page shows of grading by hand: the released review, the code with its
    comments, their requests and whether they may ask."""
    rules = access.settings().server.assignment(submission.assignment)
    database = access.database()
    view = reviews.student_view(database, rules, submission, person.id) if rules is not None else None
    if view is None:
        return {"review": None}
    closes = regrades.closes_at(rules, manual.released_at(database, submission.assignment))
    return {"review": view, "lines": code.lines(_source(submission), view["comments"]),
            "requests": [regrades.described(rules, r) for r in regrades.of_submission(database, submission.id)],
            "items": rules.rubric.items, "closes": closes, "asking": closes is not None and db.now() <= closes}


@grading.post("/submissions/<int:submission_id>/regrade-requests")
def ask(submission_id: int):
    access.database(writes=True)
    person = access.required()
    try:
        reviewing.ask(submission_id, person, {"item": request.form.get("item", ""),
                                              "message": request.form.get("message", "")})
    except reviews.Refused as refused:
        return _not_done(person, "Not asked", refused)
    return redirect(url_for("student.submission", submission_id=submission_id) + "#regrades", 303)
