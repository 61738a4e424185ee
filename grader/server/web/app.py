"""The Flask application factory: ``create_app`` builds one app for a course and a database (tests build
as many as they like). Pages are Jinja2 templates under ``grader/templates/server/`` (StrictUndefined), their
script and style static files (``static/``, under the security headers of ``headers``);
forms carry CSRF tokens (Flask-WTF); the session cookie is HttpOnly, and over https (the course's public
URL) Secure, SameSite=None and Partitioned (CHIPS: kept per embedding site, which browsers blocking
third-party cookies still keep), so that a session begun by an LTI launch inside an LMS's frame keeps working
there (the forms' CSRF tokens guard what it changes), SameSite=Lax over plain http (where None is refused).
Every value a page shows has its bidirectional controls made visible (``neutralised``). Nothing here runs
student code: uploads are queued for the graders."""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path

import jinja2
from flask import Flask, Response, abort
from flask_wtf.csrf import CSRFProtect
from markupsafe import Markup

from grader import project
from grader.project.files import kept_secret
from grader.report import style
from grader.server.lti import platforms as lti_platforms
from grader.server.store import db, uploads
from grader.server.web import access, faults, headers, metrics, times
from grader.server.web.api import api
from grader.server.web.groups import group_api, group_pages
from grader.server.web.health import health
from grader.server.web.lti import lti
from grader.server.web.grading import grading
from grader.server.web.reviewing import reviewing
from grader.server.web.staff import staff
from grader.server.web.student import student
from grader.spec import course as course_config
from grader.spec.serving import Server

SECRET = "secret_key"              # server/secret_key: signs the session cookies (kept across restarts)
FORM_SLACK = 64 * 1024             # a multipart body's fields and boundaries, beyond the file itself


# Bidirectional controls (Unicode's Bidi_Control): in a name shown on a page they reorder what follows, so
# that "hog\u202eyp.exe" reads as "hogexe.py". Every value a template shows has them made visible instead.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_VISIBLE = {ord(each): f"[U+{ord(each):04X}]" for each in BIDI_CONTROLS}


def neutralised(value):
    """What a template shows of ``value``: a string with its bidirectional controls made visible."""
    if isinstance(value, Markup):
        return Markup(str(value).translate(_VISIBLE))
    return value.translate(_VISIBLE) if isinstance(value, str) else value


def secret_key(folder: Path) -> str:
    return kept_secret(folder / SECRET, lambda: secrets.token_hex(32))


def _course_name() -> str:
    """The course's name in hog-course.toml (read again when the file changes), else "Hog"."""
    config = course_config.current()
    return config.name if config is not None and config.name else "Hog"


def _style(name: str) -> Response:
    """Bootstrap's sheet and the kit's (``grader.report.style``), from the installed packages."""
    if name not in style.SHEETS:
        abort(404)
    answer = Response(style.sheet(name), mimetype="text/css")
    answer.cache_control.public, answer.cache_control.max_age = True, 3600
    return answer


def create_app(*, course: Path, server: Server, database: str) -> Flask:
    """The web application of ``course`` over ``database`` (already migrated)."""
    app = Flask(__name__, template_folder=str(project.TEMPLATES / "server"))
    app.jinja_env.undefined = jinja2.StrictUndefined
    app.jinja_env.finalize = neutralised
    engine = db.connect(database)
    app.config.update(
        SECRET_KEY=secret_key(course / "server"), MAX_CONTENT_LENGTH=uploads.MAX_UPLOAD + FORM_SLACK,
        SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SECURE=server.secure,
        SESSION_COOKIE_SAMESITE="None" if server.secure else "Lax", SESSION_COOKIE_PARTITIONED=server.secure,
        SESSION_COOKIE_NAME="hog_session", PERMANENT_SESSION_LIFETIME=timedelta(days=120),
        WTF_CSRF_TIME_LIMIT=None, JSON_SORT_KEYS=False,
        **{access.SETTINGS: access.Settings(course, server, engine, db.sessions(engine))})
    csrf = CSRFProtect(app)
    csrf.exempt(api)   # the API takes a Bearer token, never the cookie, for what it changes
    csrf.exempt(group_api)
    csrf.exempt(reviewing)
    csrf.exempt(lti)   # an LMS form-posts the launch; its id_token, state and nonce are what guard it
    app.teardown_appcontext(access.close_database)
    metrics.register(app, engine, app.config[access.SETTINGS].sessions, course / "server")
    for blueprint in (api, group_api, reviewing, grading, student, group_pages, staff, health, metrics.metrics, lti):
        app.register_blueprint(blueprint)
    faults.install(app)
    headers.protect(app, server, lti_platforms.Framers(engine))
    app.jinja_env.globals.update(status_text=access.status_text)
    app.context_processor(lambda: {"course_name": _course_name()})
    app.add_url_rule("/style/<name>", "style", _style)
    app.jinja_env.filters["when"] = times.when
    app.jinja_env.filters["due"] = lambda assignment: times.due(assignment, server.time_zone)
    return app
