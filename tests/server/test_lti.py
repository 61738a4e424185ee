"""The course server as an LTI 1.3 tool: a platform (tests/server/lti_platform.py) registered, its login and
launch, who is signed in and where they land; every refusal of a launch signs nobody in and stores nothing."""

from __future__ import annotations

import logging
import re
import time
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey
from sqlalchemy import func, select

from grader.server.lti import bindings, keys, platforms
from grader.server.web import lti as routes
from grader.server.store.models import STAFF, STUDENT, Identity, Link, Nonce, Person
from tests.server.conftest import issue, signed_in
from tests.server.lti_platform import INSTRUCTOR, TEACHING_ASSISTANT, Platform, login_query

LAUNCH = "http://hog.test/lti/launch"


def register(app, found: Platform, *, context: str | None = "course-7", **changes) -> None:
    """``found`` registered, and its LMS course ``context`` bound (None: none)."""
    with app.config["hog.settings"].sessions() as session, session.begin():
        platforms.add(session, **{**found.registration(), **changes})
        session.flush()
        if context is not None:
            bindings.link(session, issuer=found.url, deployment_id=found.deployment_id, context_id=context)


@pytest.fixture
def platform(app, course):
    found = Platform(lambda: keys.tool_jwks(course / "server"))
    found.redirect_uri = LAUNCH
    register(app, found)
    yield found
    found.stop()


def begun(client, platform: Platform, target: str = "http://hog.test/assignments/hog") -> tuple[str, str]:
    """A login begun at the tool: the state and nonce it sent to the platform's authorization URL."""
    answer = client.get(f"/lti/login?{login_query(platform, target)}")
    assert answer.status_code == 302, answer.get_data(as_text=True)
    sent = parse_qs(urlsplit(answer.headers["Location"]).query)
    return sent["state"][0], sent["nonce"][0]


def launched(client, platform: Platform, **changes):
    state, nonce = begun(client, platform)
    return client.post("/lti/launch", data={"id_token": platform.id_token(nonce, **changes), "state": state})


def counts(app) -> dict:
    with app.config["hog.settings"].sessions() as session:
        return {table.__name__: session.scalar(select(func.count()).select_from(table))
                for table in (Person, Identity, Link, Nonce)}


def test_the_login_sends_the_browser_to_the_platform_with_what_lti_asks_and_a_state_bound_to_it(app, platform):
    client = app.test_client()
    answer = client.get(f"/lti/login?{login_query(platform)}")
    assert answer.status_code == 302
    where = urlsplit(answer.headers["Location"])
    assert f"{where.scheme}://{where.netloc}{where.path}" == f"{platform.url}/auth"
    sent = {name: values[0] for name, values in parse_qs(where.query).items()}
    assert {name: sent[name] for name in ("scope", "response_type", "response_mode", "prompt", "client_id",
                                          "redirect_uri", "login_hint", "lti_message_hint")} == {
        "scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
        "client_id": "hog-tool", "redirect_uri": LAUNCH, "login_hint": "canvas-user-1", "lti_message_hint": "hint-1"}
    assert len(sent["state"]) >= 32 and len(sent["nonce"]) >= 32 and sent["state"] != sent["nonce"]
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{routes._cookie(sent['state'])}=") and "HttpOnly" in cookie and "Path=/lti/launch" in cookie


def test_a_login_from_an_issuer_not_registered_is_refused(app, platform):
    answer = app.test_client().get(f"/lti/login?{login_query(platform).replace('127.0.0.1', 'evil.test')}")
    assert answer.status_code == 400
    assert "not a registered platform" in answer.get_data(as_text=True)


def test_a_login_field_too_long_is_refused(app, platform):
    client = app.test_client()
    answer = client.get(f"/lti/login?{login_query(platform).replace('hint-1', 'x' * (routes.LONGEST_FIELD + 1))}")
    assert answer.status_code == 400 and "lti_message_hint is longer than" in answer.get_data(as_text=True)


def test_a_learner_launching_lands_signed_in_on_the_assignment_and_is_a_student_of_the_course(app, platform):
    client = app.test_client()
    answer = launched(client, platform)
    assert answer.status_code == 303 and answer.headers["Location"] == "/assignments/hog"
    page = client.get("/assignments/hog")
    with app.config["hog.settings"].sessions() as session:
        person = session.scalars(select(Person)).one()
        assert page.status_code == 200 and person.student_id in page.get_data(as_text=True)
        assert (person.student_id[:4], person.email, person.role) == ("lti:", "s1@example.edu", STUDENT)
        link = session.scalars(select(Link)).one()
        assert (link.assignment, link.subject, link.lineitem) == ("hog", "canvas-user-1", f"{platform.url}/lineitems/1")


def test_a_launch_finds_the_roster_s_person_by_email_and_their_sign_in_link_keeps_working(app, platform):
    register(app, platform, trust_email=True)   # a platform whose emails are verified
    token = issue(app, "s1")["s1"]
    assert launched(app.test_client(), platform).status_code == 303
    assert counts(app)["Person"] == 1
    assert signed_in(app, token).get("/assignments/hog").status_code == 200
    again = app.test_client()   # the next launch knows them by their identity on the platform
    platform.user["email"] = "changed@example.edu"
    assert launched(again, platform).status_code == 303
    assert counts(app)["Person"] == 1


@pytest.mark.parametrize("role", [INSTRUCTOR, TEACHING_ASSISTANT, "Instructor",
                                  "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator"])
def test_an_instructor_a_ta_or_an_administrator_is_staff_and_lands_on_the_gradebook(app, platform, role):
    platform.user["roles"] = [role]
    client = app.test_client()
    answer = launched(client, platform)
    assert answer.headers["Location"] == "/staff/assignments/hog"
    assert client.get("/staff/assignments/hog").status_code == 200
    with app.config["hog.settings"].sessions() as session:
        assert session.scalars(select(Person.role)).one() == STAFF
        assert session.scalars(select(Link)).all() == []   # staff have no grade to send


def test_the_custom_parameter_assignment_chooses_the_assignment(app, platform):
    platform.target = "/"
    answer = launched(app.test_client(), platform,
                      **{"https://purl.imsglobal.org/spec/lti/claim/custom": {"assignment": "past"}})
    assert answer.headers["Location"] == "/assignments/past"


def _expired(platform):
    return {"iat": int(time.time()) - 900, "exp": int(time.time()) - 600}


LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DEEP_LINKING = {"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
    "deep_link_return_url": "https://lms.test/deep_links/7", "accept_types": ["ltiResourceLink"], "data": "opaque-7"}}
REFUSALS = {
    "expired": (401, "expired", _expired),
    "issued in the future": (401, "future",
                             lambda p: {"iat": int(time.time()) + 900, "exp": int(time.time()) + 1200}),
    "for another client": (401, "not this tool", lambda p: {"aud": "another-tool"}),
    "several audiences, azp another": (401, "azp", lambda p: {"aud": ["hog-tool", "another"], "azp": "another"}),
    "another issuer": (401, "claims do not hold", lambda p: {"iss": "https://evil.test"}),
    "unregistered deployment": (400, "deployment", lambda p: {LTI + "deployment_id": "d-9"}),
    "deep linking by a learner": (403, "deep linking request", lambda p: {
        LTI + "message_type": "LtiDeepLinkingRequest", **DEEP_LINKING}),
    "deep linking without its settings": (400, "deep_link_return_url", lambda p: {
        LTI + "message_type": "LtiDeepLinkingRequest", LTI + "roles": [INSTRUCTOR]}),
    "another message type": (400, "message type", lambda p: {LTI + "message_type": "LtiSubmissionReviewRequest"}),
    "another version": (400, "version", lambda p: {LTI + "version": "1.1"}),
    "another nonce": (401, "nonce", lambda p: {"nonce": "not-the-one-sent"}),
    "no role this tool knows": (403, "role", lambda p: {
        LTI + "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"]}),
    "no user": (401, "sub", lambda p: {"sub": ""}),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_launch_that_fails_a_check_is_refused_saying_why_signing_nobody_in_storing_nothing(app, platform, caplog,
                                                                                           case):
    status, said, changes = REFUSALS[case]
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="hog.lti"):
        answer = launched(client, platform, **changes(platform))
    assert answer.status_code == status
    assert "Launch refused" in answer.get_data(as_text=True) and said in answer.get_data(as_text=True)
    assert client.get("/").status_code == 401
    assert counts(app) == {"Person": 0, "Identity": 0, "Link": 0, "Nonce": 0}
    assert any("LTI refused" in record.getMessage() for record in caplog.records)


def test_a_tampered_signature_is_refused(app, platform):
    forger = RSAKey.generate_key(2048, private=True)
    forged = RSAKey.import_key(forger.as_dict(private=True), {"kid": platform.key.kid})   # the platform's kid
    client = app.test_client()
    state, nonce = begun(client, platform)
    answer = client.post("/lti/launch", data={"id_token": platform.id_token(nonce, key=forged), "state": state})
    assert answer.status_code == 401 and "signature" in answer.get_data(as_text=True)
    token = platform.id_token(nonce)
    header, payload, signature = token.split(".")
    state, nonce = begun(client, platform)
    answer = client.post("/lti/launch", data={"id_token": f"{header}.{payload}.{signature[:-4]}AAAA", "state": state})
    assert answer.status_code == 401
    assert counts(app)["Person"] == 0


def test_a_launch_sent_again_is_refused(app, platform):
    client = app.test_client()
    state, nonce = begun(client, platform)
    form = {"id_token": platform.id_token(nonce), "state": state}
    assert client.post("/lti/launch", data=form).status_code == 303
    other = app.test_client()
    other.set_cookie(routes._cookie(state), "1", path="/lti/launch")
    replayed = other.post("/lti/launch", data=form)
    assert replayed.status_code == 401 and "used already" in replayed.get_data(as_text=True)
    assert other.get("/").status_code == 401


def test_a_platform_that_rotates_its_key_is_fetched_again(app, platform, monkeypatch):
    assert launched(app.test_client(), platform).status_code == 303
    monkeypatch.setattr(keys, "REFETCH_SECONDS", 0.0)   # not within 5 s of the last fetch, as here
    platform.key = RSAKey.generate_key(2048, private=True, auto_kid=True)
    assert launched(app.test_client(), platform).status_code == 303


def test_a_browser_that_refused_the_tool_s_cookie_in_the_frame_is_offered_a_window_of_its_own(app, platform):
    client = app.test_client()
    state, nonce = begun(client, platform)
    client.delete_cookie(routes._cookie(state), path="/lti/launch")
    answer = client.post("/lti/launch", data={"id_token": platform.id_token(nonce), "state": state})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 401 and "third-party cookies" in text and 'target="_blank"' in text
    assert "/lti/login?iss=" in text and "login_hint=canvas-user-1" in text
    assert client.get("/").status_code == 401 and counts(app)["Person"] == 0


def test_the_registered_platforms_may_frame_the_pages_and_the_tool_publishes_its_key(app, course, platform):
    answer = app.test_client().get("/lti/jwks")
    policy = answer.headers["Content-Security-Policy"]
    assert f"frame-ancestors 'self' {platform.url}" in policy and "X-Frame-Options" not in answer.headers
    published = answer.get_json()["keys"]
    assert [key["kty"] for key in published] == ["RSA"] and "d" not in published[0]
    assert (course / "server" / keys.TOOL_KEY).stat().st_mode & 0o777 == 0o600


def test_a_launch_whose_login_began_too_long_ago_or_elsewhere_is_refused(app, platform, monkeypatch):
    client = app.test_client()
    state, nonce = begun(client, platform)
    forged = state[:-6] + ("AAAAAA" if not state.endswith("AAAAAA") else "BBBBBB")
    answer = client.post("/lti/launch", data={"id_token": platform.id_token(nonce), "state": forged})
    assert answer.status_code == 401 and "did not begin" in answer.get_data(as_text=True)
    monkeypatch.setattr(routes, "STATE_LIFETIME", timedelta(seconds=-1))   # every login began too long ago
    answer = client.post("/lti/launch", data={"id_token": platform.id_token(nonce), "state": state})
    assert answer.status_code == 401 and "too long ago" in answer.get_data(as_text=True)
    assert counts(app)["Person"] == 0


def test_an_instructor_adding_the_tool_picks_the_assignment_and_the_lms_gets_a_signed_link_to_it(app, course,
                                                                                                 platform):
    platform.user["roles"] = [INSTRUCTOR]
    client = app.test_client()
    answer = launched(client, platform, **{LTI + "message_type": "LtiDeepLinkingRequest", **DEEP_LINKING})
    assert answer.status_code == 303 and answer.headers["Location"] == "/lti/pick"
    page = client.get("/lti/pick").get_data(as_text=True)
    assert "Link hog" in page and "Link past" in page
    assert client.post("/lti/pick", data={"assignment": "hog"}).status_code == 400   # no CSRF token
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    answer = client.post("/lti/pick", data={"assignment": "hog", "csrf_token": token})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'action="https://lms.test/deep_links/7"' in text
    assert "form-action 'self' https://lms.test" in answer.headers["Content-Security-Policy"]
    signed = re.search(r'name="JWT" value="([^"]+)"', text)[1]
    claims = jwt.decode(signed, KeySet.import_key_set(keys.tool_jwks(course / "server")), algorithms=["RS256"]).claims
    assert (claims["iss"], claims["aud"], claims[LTI + "message_type"], claims[LTI + "deployment_id"]) == (
        "hog-tool", platform.url, "LtiDeepLinkingResponse", "deployment-1")
    assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-7"
    [item] = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item == {"type": "ltiResourceLink", "title": "hog", "url": "http://hog.test/assignments/hog",
                    "custom": {"assignment": "hog"},
                    "lineItem": {"scoreMaximum": 23.0, "label": "hog", "resourceId": "hog"}}
    assert client.post("/lti/pick", data={"assignment": "hog", "csrf_token": token}).status_code == 400   # once
