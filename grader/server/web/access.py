"""Who a request comes from, and what they may reach: their own submissions, and staff routes for staff.

A page request is signed in by its session cookie (set by the sign-in link; it names the person and the
hash of their current token, so issuing a new token signs the old sessions out); an API request by
``Authorization: Bearer TOKEN``. Another student's submission is 404 (never confirmed to exist); a staff
route is 403 for a student; anything without a person is 401.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from pathlib import Path

from flask import abort, current_app, g, request, session
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from grader.server.course import gradebook, groups, people
from grader.server.lti.keys import PlatformKeys
from grader.server.store import db, uploads
from grader.server.store.models import STAFF, Person, Submission
from grader.spec.serving import Server

SETTINGS = "hog.settings"
METRICS_TOKEN = "metrics_token"   # server/metrics_token, and the app's config key of it (``metrics``)


@dataclass(frozen=True)
class Settings:
    course: Path                    # the course folder
    server: Server                  # [server] and the assignments
    engine: Engine
    sessions: sessionmaker[Session]
    summaries: gradebook.Summaries = field(default_factory=gradebook.Summaries)   # the gradebook's, read so far
    platform_keys: PlatformKeys = field(default_factory=PlatformKeys)   # the LTI platforms' key sets, fetched so far


def settings() -> Settings:
    return current_app.config[SETTINGS]


def database(*, writes: bool = False) -> Session:
    """This request's database session (closed when the request ends); ``writes``: the request will
    write, said before its first query (SQLite then takes the write lock at once)."""
    if "database" not in g:
        g.database = settings().sessions()
        if writes:
            db.writing(g.database)
    return g.database


def close_database(_error=None) -> None:
    found = g.pop("database", None)
    if found is not None:
        found.close()


def person(*, api: bool = False) -> Person | None:
    """Who is asking: the Bearer token's person (API), else the session cookie's (never for what the API
    changes: a cross-site form cannot borrow the cookie there)."""
    if api and (request.headers.get("Authorization") or request.method != "GET"):
        return people.signed_in(database(), people.bearer(request.headers.get("Authorization")))
    known, token_hash = session.get("person"), session.get("token")
    if known is None or token_hash is None:
        return None
    found = database().get(Person, known)
    if found is None or found.token_sha256 is None or not hmac.compare_digest(found.token_sha256, token_hash):
        return None
    return found


def metrics_token_given() -> bool:
    """Whether the request sends the metrics token as its Bearer token."""
    given = people.bearer(request.headers.get("Authorization"))
    return bool(given) and hmac.compare_digest(given.encode(), current_app.config[METRICS_TOKEN].encode())


def sign_in(found: Person) -> None:
    session.clear()
    session["person"], session["token"] = found.id, found.token_sha256
    session.permanent = True


def required(*, api: bool = False) -> Person:
    found = person(api=api)
    if found is None:
        abort(401)
    return found


def staff(*, api: bool = False) -> Person:
    found = required(api=api)
    if found.role != STAFF:
        abort(403)
    return found


def own_submission(found: Person, submission_id: int) -> Submission:
    """A submission the person may read: their own or their group's, or any for staff; 404 otherwise."""
    submission = database().get(Submission, submission_id)
    if submission is None or (found.role != STAFF and not groups.can_see(database(), found.id, submission)):
        abort(404)
    return submission


def assignment_or_404(name: str):
    found = settings().server.assignment(name)
    if found is None:
        abort(404)
    return found


def utc_text(moment) -> str:
    return db.utc(moment).isoformat()


MESSAGES = {401: "sign in first: open your personal link, or send Authorization: Bearer TOKEN",
            403: "this is for the course staff", 404: "not found",
            413: f"the upload is over {uploads.MAX_UPLOAD // 1024} KiB: send hog.py alone"}


STATUS_TEXT = {"queued": "queued", "grading": "grading", "graded": "graded", "grader failed": "grader failed "
               "(a fault of the kit, not of your code: it is graded again)"}


def status_text(status: str) -> str:
    return STATUS_TEXT.get(status, status)


def message(error) -> str:
    return MESSAGES.get(error.code, error.description or error.name)


def sign_out() -> None:
    session.clear()
