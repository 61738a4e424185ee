"""The staff's pages: the live gradebook (and its CSV), each student's history, extensions and groups (and, for
an unmatched person a launch made, joining them to the roster's person), any
submission's instructor view, the class and similarity reports of the counted submissions, regrade-all."""

from __future__ import annotations

import functools
import json
import logging
from datetime import datetime
from html import escape
from urllib.parse import quote

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, send_file, url_for
from markupsafe import Markup
from sqlalchemy import func, select

from grader.errors import UsageError
from grader.report import style
from grader.server.course import gradebook, group_lists, groups, reports
from grader.server.grading import queue
from grader.server.lti import passback, roster
from grader.server.store import uploads
from grader.server.store.models import STUDENT, Extension, Person, Submission
from grader.server.web import access, code, intake, times

staff = Blueprint("staff", __name__, url_prefix="/staff")
MAX_EXTENSION = 365
KEPT_ROWS = 20_000          # gradebook rows kept made (a few courses' worth)
log = logging.getLogger("hog.staff")


@staff.get("/")
def home():
    person = access.staff()
    database = access.database()
    counts = dict(database.execute(select(Submission.assignment, func.count()).group_by(Submission.assignment)).all())
    return render_template("staff_home.html", person=person, assignments=access.settings().server.assignments,
                           counts=counts, waiting=queue.waiting(database),
                           students=list(database.scalars(select(Person).order_by(Person.student_id))))


@staff.get("/assignments/<name>")
def assignment(name: str, error: str = "", changes: list | None = None, status: int = 200):
    person = access.staff()
    found = access.assignment_or_404(name)
    seen = gradebook.state(access.database(), found.name)   # before the rows: a change between is looked at again
    table = gradebook.rows(access.database(), found, access.settings().summaries)
    listed = "".join(f"{sid},{group}\n" for sid, group in sorted(group_lists.current(access.database(),
                                                                                       found.name).items()))
    return render_template("staff_gradebook.html", person=person, assignment=found, head=headings(table[0]),
                           rows=_rows_html(table[1:]), waiting=queue.waiting(access.database()),
                           state=seen, error=error, changes=changes,
                           groups=f"{','.join(group_lists.COLUMNS)}\n{listed}"), status


def _regrouped(rules, change):
    """Staff's change of groups (``change``: of the session and the variant of each person) committed, each
    student moved given their counted score again; what changed, or Refused with nothing changed."""
    database = access.database()
    try:
        changes = change(database, intake.variant_of(access.settings().course, rules))
        for person_id in changes.people:
            passback.refresh(database, access.settings().server, person_id, rules.name)
        database.commit()
    except groups.Refused:
        database.rollback()
        raise
    return changes.lines


@staff.post("/assignments/<name>/groups")
def regroup_all(name: str):
    """Every group of the assignment as the pasted CSV says (``student_id,group``), as hog serve groups."""
    access.database(writes=True)
    access.staff()
    found = access.assignment_or_404(name)
    shown = "the groups"
    try:
        lines = _regrouped(found, lambda database, variant_of: group_lists.set_groups(
            database, found, group_lists.read_csv(request.form.get("groups", ""), shown), variant_of, shown))
    except groups.Refused as refused:
        return assignment(name, error=refused.message, status=refused.status)
    return assignment(name, changes=lines)


@staff.get("/assignments/<name>/state.json")
def state(name: str):
    """What the live gradebook looks at: ``state`` changes whenever the gradebook does."""
    access.staff()
    found = access.assignment_or_404(name)
    return jsonify(state=gradebook.state(access.database(), found.name), waiting=queue.waiting(access.database()))


def _rows_html(rows: list[list]) -> Markup:
    """The gradebook's rows as HTML, every value escaped: made here, since a template's loop over a few
    thousand cells costs a live gradebook's reload tens of milliseconds; a row unchanged since an earlier
    reload is not made again."""
    return Markup("\n".join(_row_html(tuple(row), tuple(map(type, row))) for row in rows))


SUBMITTED_AT = gradebook.HEAD.index("submitted_at")
HEADINGS = {"student_id": "Student", "email": "Email", "submission": "Submission", "submitted_at": "Submitted",
            "score": "Score", "max_score": "Out of", "status": "Status", "late_days": "Late days",
            "raw_score": "Before the late penalty", "submissions": "Submissions", "seed": "Seed",
            "kit_version": "Kit version", "adjustment": "Adjustment", "total": "Total", "total_max": "Total out of"}


def headings(columns: list[str]) -> list[tuple[str, str]]:
    """Each gradebook column's name (as gradebook.csv has it) and its heading for people: a question's
    column ``q1.2`` is "Q1.2", a rubric item's ``rubric:docs`` "Rubric: docs", a column not named here
    its name in words."""
    def heading(name: str) -> str:
        if name in HEADINGS:
            return HEADINGS[name]
        if name.startswith("q") and name[1:2].isdigit():
            return name.upper()
        kind, _, item = name.partition(":")
        return f"{kind.capitalize()}: {item}" if item else name.replace("_", " ").capitalize()
    return [(name, heading(name)) for name in columns]


@functools.lru_cache(maxsize=KEPT_ROWS)
def _row_html(row: tuple, _types: tuple) -> str:
    """One row's HTML; kept by its values and their types (20 and 20.0 are equal, but shown apart)."""
    student_id, submission = str(row[0]), row[2]
    link = f'<a href="/staff/submissions/{submission}">{submission}</a>' if submission != "" else ""
    return (f'<tr><td><a href="/staff/students/{quote(student_id, safe="/")}">{escape(student_id)}</a></td>'
            f"<td>{escape(str(row[1]))}</td><td>{link}</td>"
            + "".join(f"<td>{_cell(cell, number == SUBMITTED_AT)}</td>" for number, cell in enumerate(row[3:], 3))
            + "</tr>")


def _cell(value, moment: bool) -> str:
    """A gradebook cell's HTML: a number as it is, a time (the ISO text of ``submitted_at``) as ``<time>``,
    any other value escaped."""
    if type(value) in (int, float):
        return str(value)
    if moment and value:
        return str(times.when(datetime.fromisoformat(value)))
    return escape(str(value))


@staff.get("/assignments/<name>/gradebook.csv")
def gradebook_csv(name: str):
    access.staff()
    found = access.assignment_or_404(name)
    table = gradebook.rows(access.database(), found, access.settings().summaries)
    return Response(gradebook.csv_text(table), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}-gradebook.csv"'})


@staff.post("/assignments/<name>/regrade")
def regrade(name: str):
    access.staff()
    found = access.assignment_or_404(name)
    queue.regrade(access.settings().engine, found.name, found)
    return redirect(url_for("staff.assignment", name=name), 303)


@staff.get("/assignments/<name>/report")
def report(name: str):
    access.staff()
    found = access.assignment_or_404(name)
    return send_file(reports.class_report(access.database(), access.settings().course, found), max_age=0)


@staff.get("/assignments/<name>/similarity")
def similarity(name: str):
    access.staff()
    found = access.assignment_or_404(name)
    return send_file(reports.similarity_report(access.database(), access.settings().course, found), max_age=0)


@staff.get("/assignments/<name>/<any('bootstrap.min.css', 'kit.css'):sheet>")
def report_style(name: str, sheet: str):
    """The stylesheets a report links by name beside it (as its folder has them, opened as a file)."""
    access.staff()
    access.assignment_or_404(name)
    return Response(style.sheet(sheet), mimetype="text/css")


def _student(student_id: str) -> Person:
    found = access.database().scalars(select(Person).where(Person.student_id == student_id)).first()
    if found is None:
        abort(404)
    return found


@staff.get("/students/<path:student_id>")
def student(student_id: str, error: str = "", changes: list | None = None, status: int = 200):
    person = access.staff()
    found = _student(student_id)
    database = access.database()
    extensions = {e.assignment: e.days for e in database.scalars(select(Extension).where(
        Extension.person_id == found.id))}
    chosen = access.settings().server.assignments
    history = {a.name: groups.visible(database, found.id, a.name) for a in chosen}
    return render_template("staff_student.html", person=person, student=found, extensions=extensions,
                           passback=[(link, passback.state_text(link))
                                     for link in passback.links(database, found.id)],
                           assignments=chosen, error=error, changes=changes,
                           history=history, plots={name: _plot(mine) for name, mine in history.items()},
                           groups={a.name: groups.group_of(database, found.id, a.name) for a in chosen}), status


def _changing(student_id: str):
    """(the student, the assignment the form names) of a staff form that changes what is theirs."""
    access.database(writes=True)
    access.staff()
    return _student(student_id), access.assignment_or_404(request.form.get("assignment", ""))


@staff.post("/students/<path:student_id>/group")
def regroup(student_id: str):
    """Put the student in the group named (a new one where no group has that name; none where blank)."""
    found, chosen = _changing(student_id)
    try:
        lines = _regrouped(chosen, lambda database, variant_of: group_lists.set_one(
            database, chosen, found, request.form.get("group", ""), variant_of))
    except groups.Refused as refused:
        return student(student_id, error=refused.message, status=refused.status)
    return student(student_id, changes=lines)


PLOT = (320, 120, 28)   # the score plot's width, height and margin, in its own units


def _plot(submissions: list) -> dict | None:
    """A student's graded scores on an assignment over time, as the points of a small line plot (oldest
    first, evenly spaced: the order matters, not the hours between); None before any score."""
    scores = [(s.score, s.max_score) for s in submissions if s.score is not None and s.max_score]
    if not scores:
        return None
    width, height, margin = PLOT
    top = max(maximum for _, maximum in scores)
    step = (width - 2 * margin) / max(1, len(scores) - 1)
    points = [(round(margin + number * step, 1), round(height - margin - (height - 2 * margin) * score / top, 1))
              for number, (score, _) in enumerate(scores)]
    return {"points": points, "line": " ".join(f"{x},{y}" for x, y in points), "top": top,
            "said": ", ".join(f"{score:g}" for score, _ in scores), "size": PLOT}


@staff.post("/students/<path:student_id>/extensions")
def extend(student_id: str):
    found, chosen = _changing(student_id)
    try:
        days = int(request.form.get("days", ""))
    except ValueError:
        abort(400)
    if not 0 <= days <= MAX_EXTENSION or found.role != STUDENT:
        abort(400)
    database = access.database()
    row = database.scalars(select(Extension).where(Extension.person_id == found.id,
                                                   Extension.assignment == chosen.name)).first()
    if row is None:
        database.add(Extension(person_id=found.id, assignment=chosen.name, days=days))
    else:
        row.days = days
    passback.refresh(database, access.settings().server, found.id, chosen.name)
    database.commit()
    return redirect(url_for("staff.student", student_id=student_id), 303)


@staff.post("/students/<path:student_id>/join")
def join(student_id: str):
    """An unmatched person a launch made joined to the roster's person staff name (``roster.join``)."""
    database = access.database(writes=True)
    access.staff()
    into = request.form.get("roster_id", "").strip()
    try:
        said = roster.join(database, new_id=student_id, roster_id=into)
    except UsageError as error:
        database.rollback()
        return render_template("message.html", title="Not joined", person=access.staff(), message=str(error)), 400
    passback.refresh_person(database, access.settings().server, into)
    database.commit()
    log.info("staff joined %s", said)
    return redirect(url_for("staff.student", student_id=into), 303)


@staff.get("/lti")
def lti_grades():
    """Every LTI launch recorded and where its score's passback to the LMS is."""
    person = access.staff()
    return render_template("staff_lti.html", person=person, passback=[
        (link, passback.state_text(link)) for link in passback.links(access.database())])


@staff.get("/submissions/<int:submission_id>")
def submission(submission_id: int):
    person = access.staff()
    found = access.own_submission(person, submission_id)
    kept = uploads.folder(access.settings().course, found.assignment, found.id) / found.filename
    source = (kept.read_text(encoding="utf-8", errors="replace")   # a .zip's files are not shown here
              if found.filename == uploads.HOG and kept.is_file() else None)
    return render_template("staff_submission.html", person=person, submission=found,
                           lines=code.lines(source) if source is not None else None,
                           result=json.loads(found.result) if found.result else None,
                           private=json.dumps(json.loads(found.instructor), indent=2) if found.instructor else "")
