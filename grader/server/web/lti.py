"""The tool's LTI endpoints: ``/lti/jwks`` (its public keys), ``/lti/login`` (OIDC third-party login initiation:
a nonce made, what the login began signed into its state and bound to the browser by a cookie, nothing kept
on the server, then off to the platform's authorization URL), ``/lti/launch`` (the form-posted id_token
checked, its LMS course one bound to this server, its nonce recorded once, the person found or made and signed
in, their launch of the assignment recorded for the passback, and the assignment's page). A launch refused
signs nobody in and stores nothing (but the count of an unbound LMS course, ``bindings``): a line in the log
says why, and the page says so. Where the browser refused the tool's cookie inside
the LMS's frame (third-party cookies), the page says so and offers the tool in a window of its own; where the
login was made with the LMS's storage (``lti_storage_target``, ``storage``), the launch's page reads the login's
value back from there and ``/lti/launch/storage`` signs in with it, checked against the signed state."""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta
from typing import NamedTuple
from urllib.parse import urlencode

from flask import (Blueprint, abort, current_app, g, jsonify, make_response, redirect, render_template, request,
                   session, url_for)
from flask_wtf.csrf import CSRFError, validate_csrf
from itsdangerous import BadData, URLSafeTimedSerializer
from wtforms import ValidationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from grader.server.course import people
from grader.server.lti import bindings, deep_linking, keys, passback, platforms, roster
from grader.server.lti.launch import Launch, Refused, verify
from grader.server.store import db
from grader.server.store.models import STAFF, Link, Nonce, Person
from grader.server.web import access, forwarded, storage

lti = Blueprint("lti", __name__, url_prefix="/lti")
log = logging.getLogger("hog.lti")
STATE_LIFETIME = timedelta(minutes=10)   # a login's launch comes within this, or is refused
NONCES_KEPT = timedelta(days=1)          # a used nonce is remembered this long (its token expired long before)
COOKIE = "hog_lti_"                      # + the state's digest: the browser that began the login
PICK = "lti_pick"                        # the session's deep linking request, until an assignment is picked
LOGIN_FIELDS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id")
# A login keeps nothing on the server: what it began is in its state, signed with the server's secret and
# good for STATE_LIFETIME, which the platform sends back with the launch. Anyone may begin one, so each
# field is bounded (an LMS's are well under 1 KiB) and no table fills.
LONGEST_FIELD = 4096


def _refused(status: int, why: str):
    log.warning("LTI refused (%s) from %s: %s", status, forwarded.client(), why)
    return render_template("message.html", title="Launch refused", person=None,
                           message=f"This launch from your LMS was refused: {why}."), status


def _signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt="hog-lti-login")


def _cookie(state: str) -> str:
    """The name of the cookie that binds a login's state to the browser that began it."""
    return COOKIE + hashlib.sha256(state.encode()).hexdigest()[:32]


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
    found = platforms.registered(access.database(), asked["iss"], asked["client_id"] or None)
    if not found:
        return _refused(400, f"the issuer {asked['iss']!r}{' with that client id' if asked['client_id'] else ''} "
                             f"is not a registered platform (hog serve lti add-platform)")
    if len(found) > 1:
        return _refused(400, f"{asked['iss']} is registered with several client ids and the login names none")
    platform = found[0]
    if asked["lti_deployment_id"] and asked["lti_deployment_id"] not in platform.deployments:
        return _refused(400, f"the deployment {asked['lti_deployment_id']!r} is not registered")
    nonce = secrets.token_urlsafe(32)
    target = request.values.get("lti_storage_target", "").strip()[:256]   # a frame's name, or "_parent"
    kept = {"storage": target, "auth": platforms.checked_origin(platform.auth_url) or ""} if target else {}
    state = _signer().dumps({"nonce": nonce, **{field: asked[field] for field in LOGIN_FIELDS},
                             "client_id": platform.client_id, **kept})
    query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
             "client_id": platform.client_id, "redirect_uri": access.settings().server.url + platforms.LAUNCH,
             "login_hint": asked["login_hint"], "state": state, "nonce": nonce,
             **({"lti_message_hint": asked["lti_message_hint"]} if asked["lti_message_hint"] else {})}
    authorize = f"{platform.auth_url}{'&' if '?' in platform.auth_url else '?'}{urlencode(query)}"
    # Where the platform offers its storage (LTI Client Side postMessages), the state goes there too, from a
    # page in the LMS's frame, before the platform's authorization: the launch reads it back if the cookie is refused.
    response = make_response(storage.login_page(target, platform.auth_url, state, nonce, authorize)) if target \
        else redirect(authorize, 302)
    secure = access.settings().server.secure
    response.set_cookie(_cookie(state), "1", max_age=int(STATE_LIFETIME.total_seconds()), path=platforms.LAUNCH,
                        httponly=True, secure=secure, samesite="None" if secure else "Lax", partitioned=secure)
    return response


def _begun(state: str) -> dict | None:
    """What the login of ``state`` began (signed by this server, within STATE_LIFETIME), or None."""
    try:
        found = _signer().loads(state, max_age=int(STATE_LIFETIME.total_seconds()))
    except BadData:
        return None
    return found if isinstance(found, dict) and all(isinstance(found.get(f), str) for f in ("nonce", *LOGIN_FIELDS)) \
        else None


def _relogin(begun: dict) -> str:
    """The login that began this launch, to begin again in a window of its own."""
    return platforms.LOGIN + "?" + urlencode({field: begun[field] for field in LOGIN_FIELDS if begun[field]})


@lti.post("/launch")
def launch():
    checked = _checked(request.form.get("id_token", ""), request.form.get("state", ""))
    if not isinstance(checked, _Checked):
        return checked
    token, state, begun, said, registered = checked
    if request.cookies.get(_cookie(state)) is None:
        if begun.get("storage"):   # the login kept its state in the platform's storage too: the page asks it
            log.info("LTI launch without its state cookie from %s: asking the platform's storage", forwarded.client())
            return storage.launch_page(token=token, state=state, begun=begun, again=_relogin(begun))
        log.warning("LTI launch without its state cookie (third-party cookies refused?) from %s", forwarded.client())
        return render_template("lti_window.html", person=None, again=_relogin(begun)), 401
    return _signed_in(state, begun, said, registered)


@lti.post("/launch/storage")
def launch_from_storage():
    """The launch again, from the page that read the login's value from the platform's storage (lti.get_data):
    signed in only where that value is the one the login's signed state names."""
    checked = _checked(request.form.get("id_token", ""), request.form.get("state", ""))
    if not isinstance(checked, _Checked):
        return checked
    _, state, begun, said, registered = checked
    # Only the tool's own page posts here (a form of another site could post a login of someone else's, its
    # value known to them, and sign this browser in as them): the browser says where the form came from.
    if request.headers.get("Origin") != platforms.checked_origin(access.settings().server.url):
        return _refused(403, "the platform storage's answer was not posted by this tool's page")
    why = storage.refusal(begun, request.form.get("value", ""), request.form.get("failed", ""))
    if why:
        log.warning("LTI refused (401) from %s: platform storage: %s", forwarded.client(), why)
        return render_template("lti_window.html", person=None, again=_relogin(begun), why=why), 401
    return _signed_in(state, begun, said, registered, again=_relogin(begun))


@lti.get("/signed-in")
def signed_in():
    """Where a launch through the platform's storage lands: its session cookie came back, or the browser
    refused it in the frame too, and the login continues in a window of its own."""
    to, again = request.args.get("to", ""), request.args.get("again", "")
    if not again.startswith(platforms.LOGIN + "?"):
        again = ""
    if access.person() is None:
        log.warning("LTI launch through platform storage without its session cookie from %s", forwarded.client())
        return render_template("lti_window.html", person=None, again=again), 401
    return redirect(to if to.startswith("/") and not to.startswith(("//", "/\\")) else url_for("student.home"), 303)


class _Checked(NamedTuple):
    token: str
    state: str
    begun: dict
    said: Launch
    registered: list


def _checked(token: str, state: str):
    """The launch's (token, state, begun, said, registered), its token checked against its signed state; or the
    page refusing it."""
    if not token or not state:
        return _refused(400, "it carries no id_token and state (an LMS form-posts both)")
    begun = _begun(state)
    if begun is None:
        return _refused(401, "it ends a login this tool did not begin, or began too long ago: launch again from "
                             "the LMS")
    # Read, and the token checked, before the request's write transaction: fetching the platform's keys may
    # take seconds, and SQLite's writers wait for the one holding its lock.
    with access.settings().sessions() as reading:
        registered = platforms.registered(reading, begun["iss"], begun["client_id"])
    try:
        said = verify(token, platforms=registered, keys=access.settings().platform_keys, nonce=begun["nonce"])
    except Refused as refused:
        return _refused(refused.status, refused.why)
    return _Checked(token, state, begun, said, registered)


def _signed_in(state: str, begun: dict, said: Launch, registered: list, *, again: str | None = None):
    """The launch's person signed in (its LMS course bound, its nonce used once), and off to their page; ``again``
    (a launch through platform storage): through /lti/signed-in, which sees whether the session cookie came back."""
    database = access.database(writes=True)
    if not bindings.bound(database, said.issuer, said.deployment_id, said.context_id):
        return _unbound(database, said)
    database.execute(delete(Nonce).where(Nonce.used_at < db.now() - NONCES_KEPT))
    try:
        with database.begin_nested():
            database.add(Nonce(nonce=begun["nonce"], used_at=db.now()))
    except IntegrityError:
        database.rollback()
        return _refused(401, "its token was used already (a replay)")
    person = _person(database, said, registered)
    if said.assignment is not None and person.role != STAFF and access.settings().server.assignment(said.assignment):
        _record(database, person, said)
    database.commit()
    access.sign_in(person)
    if said.deep_link is not None:   # an instructor picks the assignment the LMS links to
        session[PICK] = {"return_url": said.deep_link.return_url, "data": said.deep_link.data_json,
                         "issuer": said.issuer, "client_id": said.client_id, "deployment_id": said.deployment_id}
    to = url_for("lti.pick") if said.deep_link is not None else _landing(said, person)
    if again is not None:
        to = url_for("lti.signed_in", to=to, again=again)
    response = redirect(to, 303)
    secure = access.settings().server.secure
    response.delete_cookie(_cookie(state), path=platforms.LAUNCH, secure=secure, samesite="None" if secure else "Lax",
                           partitioned=secure)
    return response


def _unbound(database, said: Launch):
    """A launch from an LMS course not bound to this server: refused for everyone, the context counted."""
    if said.context_id is None:
        database.rollback()
        return _refused(403, "it names no LMS course (context): launch the tool from inside a course of the LMS")
    bindings.seen(database, issuer=said.issuer, deployment_id=said.deployment_id, context_id=said.context_id,
                  title=said.context_title)
    database.commit()
    log.warning("LTI refused (403) from %s: the context %r (%s) of %s, deployment %s, is not bound",
                forwarded.client(), said.context_id, said.context_title, said.issuer, said.deployment_id)
    return render_template("lti_unbound.html", person=None, said=said,
                           command=bindings.command(said.issuer, said.deployment_id, said.context_id)), 403


def _landing(said: Launch, person: Person) -> str:
    known = said.assignment is not None and access.settings().server.assignment(said.assignment) is not None
    if person.role == STAFF:
        return url_for("staff.assignment", name=said.assignment) if known else url_for("staff.home")
    return url_for("student.assignment", name=said.assignment) if known else url_for("student.home")


def _person(database, said: Launch, registered: list) -> Person:
    """The person of the launch (``roster.person``); one without a sign-in token gets one (never shown): the
    session names it, as a sign-in link's does."""
    trusted = any(each.trust_email for each in registered if each.client_id == said.client_id)
    person, _ = roster.person(database, roster.of_launch(said), trust_email=trusted)
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
    framed_to = platforms.checked_origin(asked["return_url"])
    if framed_to is None:
        abort(400, "the LMS's deep linking return URL is not an http(s) URL: add the tool from the LMS again")
    session.pop(PICK)
    g.form_action = framed_to   # the page's form goes to the LMS (headers.protect)
    return render_template("lti_return.html", person=person, return_url=asked["return_url"], token=token,
                           assignment=chosen)
