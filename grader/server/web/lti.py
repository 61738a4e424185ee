"""The tool's LTI endpoints: ``/lti/jwks`` (its public keys), ``/lti/login`` (OIDC third-party login initiation:
a state and a nonce made and bound to the browser by a cookie, then off to the platform's authorization URL),
``/lti/launch`` (the form-posted id_token checked, the person found or made and signed in, their launch of the
assignment recorded for the passback, and the assignment's page). A launch refused signs nobody in and stores
nothing: a line in the log says why, and the page says so. Where the browser refused the tool's cookie inside
the LMS's frame (third-party cookies), the page says so and offers the tool in a window of its own."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from urllib.parse import urlencode

from flask import Blueprint, abort, g, jsonify, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError, validate_csrf
from wtforms import ValidationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from grader.server.course import people
from grader.server.lti import deep_linking, keys, passback, platforms, roster
from grader.server.lti.launch import Launch, Refused, verify
from grader.server.store import db
from grader.server.store.models import STAFF, Link, LoginState, Nonce, Person
from grader.server.web import access, faults

lti = Blueprint("lti", __name__, url_prefix="/lti")
log = logging.getLogger("hog.lti")
STATE_LIFETIME = timedelta(minutes=10)   # a login's launch comes within this, or is refused
NONCES_KEPT = timedelta(days=1)          # a used nonce is remembered this long (its token expired long before)
COOKIE = "hog_lti_"                      # + the state: the browser that began the login
PICK = "lti_pick"                        # the session's deep linking request, until an assignment is picked
LOGIN_FIELDS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id")
# What a login may keep, as anyone may begin one: each field at most this long (an LMS's are well under 1 KiB),
# and at most this many logins waiting for their launch (STATE_LIFETIME): a whole course logging in at once
# is a few hundred; past that, a 503 until the oldest expire, never a database that grows without bound.
LONGEST_FIELD = 4096
PENDING_LOGINS = 10_000


def _refused(status: int, why: str):
    log.warning("LTI refused (%s) from %s: %s", status, request.remote_addr, why)
    return render_template("message.html", title="Launch refused", person=None,
                           message=f"This launch from your LMS was refused: {why}."), status


@lti.get("/jwks")
def jwks():
    return jsonify(keys.tool_jwks(access.settings().course / "server"))


@lti.route("/login", methods=["GET", "POST"])
def login():
    asked = {field: request.values.get(field, "").strip() for field in LOGIN_FIELDS}
    if not asked["iss"] or not asked["login_hint"] or not asked["target_link_uri"]:
        return _refused(400, "a login needs iss, login_hint and target_link_uri")
    too_long = [field for field, value in asked.items() if len(value) > LONGEST_FIELD]
    if too_long:
        return _refused(400, f"{too_long[0]} is longer than {LONGEST_FIELD} characters")
    database = access.database(writes=True)
    found = platforms.registered(database, asked["iss"], asked["client_id"] or None)
    if not found:
        return _refused(400, f"the issuer {asked['iss']!r}{' with that client id' if asked['client_id'] else ''} "
                             f"is not a registered platform (hog serve lti add-platform)")
    if len(found) > 1:
        return _refused(400, f"{asked['iss']} is registered with several client ids and the login names none")
    platform = found[0]
    if asked["lti_deployment_id"] and asked["lti_deployment_id"] not in platform.deployments:
        return _refused(400, f"the deployment {asked['lti_deployment_id']!r} is not registered")
    now = db.now()
    database.execute(delete(LoginState).where(LoginState.made_at < now - STATE_LIFETIME))
    database.execute(delete(Nonce).where(Nonce.used_at < now - NONCES_KEPT))
    if database.scalar(select(func.count()).select_from(LoginState)) >= PENDING_LOGINS:
        database.rollback()
        raise faults.Unavailable(f"more than {PENDING_LOGINS} logins are waiting for their launch; try again in a "
                                 f"minute", 60)
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    database.add(LoginState(state=state, nonce=nonce, issuer=platform.issuer, client_id=platform.client_id,
                            login_hint=asked["login_hint"], message_hint=asked["lti_message_hint"] or None,
                            target_link_uri=asked["target_link_uri"],
                            deployment_id=asked["lti_deployment_id"] or None, made_at=now))
    database.commit()
    query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
             "client_id": platform.client_id, "redirect_uri": access.settings().server.url + platforms.LAUNCH,
             "login_hint": asked["login_hint"], "state": state, "nonce": nonce,
             **({"lti_message_hint": asked["lti_message_hint"]} if asked["lti_message_hint"] else {})}
    response = redirect(f"{platform.auth_url}{'&' if '?' in platform.auth_url else '?'}{urlencode(query)}", 302)
    secure = access.settings().server.secure
    response.set_cookie(COOKIE + state, "1", max_age=int(STATE_LIFETIME.total_seconds()), path=platforms.LAUNCH,
                        httponly=True, secure=secure, samesite="None" if secure else "Lax")
    return response


def _relogin(row: LoginState) -> str:
    """The login that began this launch, to begin again in a window of its own."""
    return platforms.LOGIN + "?" + urlencode({field: value for field, value in (
        ("iss", row.issuer), ("client_id", row.client_id), ("login_hint", row.login_hint),
        ("lti_message_hint", row.message_hint), ("target_link_uri", row.target_link_uri),
        ("lti_deployment_id", row.deployment_id)) if value})


@lti.post("/launch")
def launch():
    token, state = request.form.get("id_token", ""), request.form.get("state", "")
    if not token or not state:
        return _refused(400, "it carries no id_token and state (an LMS form-posts both)")
    # Read, and the token checked, before the request's write transaction: fetching the platform's keys may
    # take seconds, and SQLite's writers wait for the one holding its lock.
    with access.settings().sessions() as reading:
        row = reading.get(LoginState, state)
        registered = platforms.registered(reading, row.issuer, row.client_id) if row is not None else []
        reading.expunge_all()
    if row is None or db.now() - db.utc(row.made_at) > STATE_LIFETIME:
        return _refused(401, "it ends a login this tool did not begin, or began too long ago, or that was used "
                             "already: launch again from the LMS")
    try:
        said = verify(token, platforms=registered, keys=access.settings().platform_keys, nonce=row.nonce)
    except Refused as refused:
        return _refused(refused.status, refused.why)
    if request.cookies.get(COOKIE + state) is None:
        log.warning("LTI launch without its state cookie (third-party cookies refused?) from %s", request.remote_addr)
        return render_template("lti_window.html", person=None, again=_relogin(row)), 401
    database = access.database(writes=True)
    if database.execute(delete(LoginState).where(LoginState.state == state)).rowcount != 1:
        return _refused(401, "its login was used already")
    try:
        with database.begin_nested():
            database.add(Nonce(nonce=row.nonce, used_at=db.now()))
    except IntegrityError:
        database.rollback()
        return _refused(401, "its token was used already (a replay)")
    person = _person(database, said)
    if said.assignment is not None and not said.staff and access.settings().server.assignment(said.assignment):
        _record(database, person, said)
    database.commit()
    access.sign_in(person)
    if said.deep_link is not None:   # an instructor picks the assignment the LMS links to
        session[PICK] = {"return_url": said.deep_link.return_url, "data": said.deep_link.data,
                         "issuer": said.issuer, "client_id": said.client_id, "deployment_id": said.deployment_id}
    response = redirect(url_for("lti.pick") if said.deep_link is not None else _landing(said, person), 303)
    response.delete_cookie(COOKIE + state, path=platforms.LAUNCH)
    return response


def _landing(said: Launch, person: Person) -> str:
    known = said.assignment is not None and access.settings().server.assignment(said.assignment) is not None
    if person.role == STAFF:
        return url_for("staff.assignment", name=said.assignment) if known else url_for("staff.home")
    return url_for("student.assignment", name=said.assignment) if known else url_for("student.home")


def _person(database, said: Launch) -> Person:
    """The person of the launch (``roster.person``); one without a sign-in token gets one (never shown): the
    session names it, as a sign-in link's does."""
    person, _ = roster.person(database, roster.of_launch(said))
    if person.token_sha256 is None:
        person.token_sha256 = people.digest(secrets.token_urlsafe(people.TOKEN_BYTES))
    roster.remember(database, said)
    return person


def _record(database, person: Person, said: Launch) -> None:
    """The person's launch of the assignment (where its scores go), and its counted score to send if any."""
    link = database.scalars(select(Link).where(Link.person_id == person.id, Link.assignment == said.assignment,
                                               Link.issuer == said.issuer, Link.client_id == said.client_id)).first()
    if link is None:
        link = Link(person_id=person.id, assignment=said.assignment, issuer=said.issuer, client_id=said.client_id,
                    due=False, tries=0)
        database.add(link)
    link.deployment_id, link.subject, link.launched_at = said.deployment_id, said.subject, db.now()
    link.resource_link_id = said.resource_link_id
    if said.lineitem and said.lineitem != link.lineitem or said.lineitems and not said.lineitem:
        link.lineitem, link.lineitems = said.lineitem, said.lineitems
    database.flush()
    passback.refresh(database, access.settings().server, person.id, said.assignment)


@lti.get("/pick")
def pick():
    """The assignments an instructor may link the LMS to (after a deep linking launch)."""
    person = access.staff()
    if PICK not in session:
        abort(400, "no deep linking request to answer: add the tool from the LMS again")
    return render_template("lti_pick.html", person=person, assignments=access.settings().server.assignments)


@lti.post("/pick")
def picked():
    """The LMS answered with the assignment picked: a signed LtiDeepLinkingResponse form-posted to it."""
    person = access.staff()
    try:   # this blueprint takes no CSRF token by itself (the launch is the LMS's form): this form has one
        validate_csrf(request.form.get("csrf_token"))
    except (CSRFError, ValidationError):
        abort(400, "the form has expired: reload the page")
    asked = session.get(PICK)
    chosen = access.assignment_or_404(request.form.get("assignment", ""))
    if asked is None:
        abort(400, "no deep linking request to answer: add the tool from the LMS again")
    token = deep_linking.response(access.settings().course / "server", url=access.settings().server.url,
                                  issuer=asked["issuer"], client_id=asked["client_id"],
                                  deployment_id=asked["deployment_id"],
                                  asked=deep_linking.Request(asked["return_url"], asked["data"]), assignment=chosen)
    session.pop(PICK)
    g.form_action = platforms.origin(asked["return_url"])   # the page's form goes to the LMS (headers.protect)
    return render_template("lti_return.html", person=person, return_url=asked["return_url"], token=token,
                           assignment=chosen)
