"""A student's group of an assignment, on the API (``/api/assignments/NAME/group``: read, invite, accept,
decline, leave) and on the assignment page's forms (the same, and withdraw). What is refused says why, and
changes nothing. Joining or leaving a group changes what counts for its members: their LTI passback is
refreshed."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, request, url_for
from werkzeug.exceptions import HTTPException

from grader.server.course import groups
from grader.server.lti import passback
from grader.server.store.models import Person
from grader.server.web import access, intake
from grader.server.web.student import assignment

group_api = Blueprint("group_api", __name__, url_prefix="/api/assignments/<name>/group")
group_pages = Blueprint("group_pages", __name__, url_prefix="/assignments/<name>/group")


def person_json(person: Person) -> dict:
    return {"student_id": person.student_id, "email": person.email}


def view(person: Person, rules) -> dict:
    """What the API says of a student's group: its name (None: alone), its members (the student alone when in
    none), those they invited and those who invited them."""
    database = access.database()
    group = groups.group_of(database, person.id, rules.name)
    invited, invited_by = groups.invitations(database, person.id, rules.name)
    return {"group": group.name if group else None,
            "members": [person_json(p) for p in (groups.members(database, group.id) if group else [person])],
            "invitations": [person_json(p) for p in invited], "invited_by": [person_json(p) for p in invited_by]}


def _refresh(rules, people: list[int]) -> None:
    for person_id in people:
        passback.refresh(access.database(), access.settings().server, person_id, rules.name)


def _act(name: str, action: str, fields: dict, *, api: bool) -> tuple[Person, object]:
    """Do ``action`` for the signed-in student and commit; groups.Refused (nothing changed) otherwise."""
    database = access.database(writes=True)
    person = access.required(api=api)
    rules = access.assignment_or_404(name)
    before = groups.member_ids(database, person.id, rules.name)
    try:
        if action == "invite":
            wanted = fields.get("student_id"), fields.get("email")
            if not all(isinstance(each, (str, type(None))) for each in wanted):
                raise groups.Refused(400, 'name the student: {"student_id": "..."} or {"email": "..."}')
            groups.invite(database, rules, person, intake.variant_of(access.settings().course, rules), student_id=(wanted[0] or "").strip() or None,
                          email=(wanted[1] or "").strip() or None)
        elif action == "leave":
            groups.leave(database, rules, person)
        else:
            other = fields.get("from" if action in ("accept", "decline") else "student_id")
            getattr(groups, action)(database, rules, person, other.strip() if isinstance(other, str) else other)
        _refresh(rules, sorted(set(before) | set(groups.member_ids(database, person.id, rules.name))))
        database.commit()
    except groups.Refused:
        database.rollback()
        raise
    return person, rules


@group_api.errorhandler(HTTPException)
def _error(error: HTTPException):
    return jsonify(error=access.message(error)), error.code


@group_api.errorhandler(groups.Refused)
def _refused(refused: groups.Refused):
    return jsonify(error=refused.message), refused.status


@group_api.get("")
def read(name: str):
    person = access.required(api=True)
    return jsonify(view(person, access.assignment_or_404(name)))


def _api(name: str, action: str, status: int = 200):
    fields = request.get_json(silent=True)
    person, rules = _act(name, action, fields if isinstance(fields, dict) else {}, api=True)
    return jsonify(view(person, rules)), status


@group_api.post("/invitations")
def invite(name: str):
    return _api(name, "invite", 201)


@group_api.post("/accept")
def accept(name: str):
    return _api(name, "accept")


@group_api.post("/decline")
def decline(name: str):
    return _api(name, "decline")


@group_api.post("/leave")
def leave(name: str):
    return _api(name, "leave")


@group_pages.post("/<action>")
def act(name: str, action: str):
    """The assignment page's forms: invite (``student``: a student id or an email), accept and decline
    (``from``), withdraw (``student_id``), leave."""
    from_page = dict(request.form)
    if action == "invite":
        typed = from_page.get("student", "").strip()
        from_page = {"email": typed} if "@" in typed else {"student_id": typed}
    elif action not in ("accept", "decline", "withdraw", "leave"):
        abort(404)
    try:
        _act(name, action, from_page, api=False)
    except groups.Refused as refused:
        return assignment(name, error=refused.message, status=refused.status)
    return redirect(url_for("student.assignment", name=name), 303)
