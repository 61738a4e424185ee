"""Trust at the LTI door, tried as an attacker with an LMS of their own would: a second platform (its own keys
and users) registered beside the course's; launches from LMS courses not bound to this server, with
institution and system roles, with a borrowed email; service URLs off the platform's origins; claims too long;
a deep linking request's return URL crafted to write the page's policy, and its data of any JSON type."""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from joserfc import jwt
from joserfc.jwk import KeySet
from sqlalchemy import func, select

from grader.cli import main
from grader.errors import UsageError
from grader.server.lti import bindings, deep_linking, keys, passback, platforms, roster
from grader.server.store import db
from grader.server.store.models import (STAFF, Base, STUDENT, Group, Identity, Invitation, Membership, Person,
                                        Submission, Unbound)
from tests.server.conftest import issue, make_app, signed_in
from tests.server.lti_platform import INSTRUCTOR, LEARNER, Platform, login_query
from tests.server.test_lti import LAUNCH, LTI, counts, launched, register
from tests.server.test_lti_passback import graded, sender

@pytest.fixture
def platform(app, course):
    found = Platform(lambda: keys.tool_jwks(course / "server"))
    found.redirect_uri = LAUNCH
    register(app, found, trust_email=True)   # the school's LMS, its emails verified
    yield found
    found.stop()


@pytest.fixture
def other(app, course):
    """An LMS of an attacker's own, registered beside the school's, with its own keys and users."""
    found = Platform(lambda: keys.tool_jwks(course / "server"), client_id="other-tool", deployment_id="d-2", number=2)
    found.redirect_uri = LAUNCH
    found.user = {"sub": "mallory", "email": "mallory@evil.test", "name": "Mallory", "roles": [LEARNER]}
    register(app, found, trust_email=True)
    yield found
    found.stop()


def hog(course, *arguments) -> int:
    return main(["--course", str(course), "serve", "lti", *arguments])


def people(app) -> list[tuple[str, str, str]]:
    with app.config["hog.settings"].sessions() as session:
        return sorted(session.execute(select(Person.student_id, Person.email, Person.role)).all())


# 1. Staff only of the LMS courses bound to this course server.
def test_an_instructor_of_a_course_not_bound_is_refused_told_how_to_bind_it_and_nothing_but_its_count_kept(
        app, course, platform, capsys, caplog):
    platform.user["roles"] = [INSTRUCTOR]
    other_course = {LTI + "context": {"id": "course-9", "title": "Another course"}}
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="hog.lti"):
        answer = launched(client, platform, **other_course)
    text = answer.get_data(as_text=True)
    assert answer.status_code == 403 and "course-9" in text and "Another course" in text
    assert "hog serve lti link --issuer" in text and "deployment-1 course-9" in text
    assert client.get("/staff/").status_code == 401
    assert counts(app) == {"Person": 0, "Identity": 0, "Link": 0, "Nonce": 0}
    assert any("is not bound" in record.getMessage() for record in caplog.records)
    launched(app.test_client(), platform, **other_course)
    assert hog(course, "list") == 0
    listed = capsys.readouterr().out
    assert "context course-9 (Another course), 2 launches" in listed
    assert f"to serve it: hog serve lti link --issuer {platform.url} --deployment-id deployment-1 course-9" in listed
    assert hog(course, "link", "--issuer", platform.url, "--deployment-id", "deployment-1", "course-9") == 0
    assert launched(client, platform, **other_course).status_code == 303
    assert client.get("/staff/").status_code == 200
    assert hog(course, "unlink", "--issuer", platform.url, "--deployment-id", "deployment-1", "course-9") == 0
    assert launched(app.test_client(), platform, **other_course).status_code == 403


def test_the_same_context_id_in_another_deployment_or_a_launch_with_no_course_is_refused(app, platform):
    assert launched(app.test_client(), platform).status_code == 303    # course-7 of deployment-1: bound
    assert launched(app.test_client(), platform, **{LTI + "context": None}).status_code == 403
    register(app, platform, context=None, deployment_id="deployment-2")
    answer = launched(app.test_client(), platform, **{LTI + "deployment_id": "deployment-2"})
    assert answer.status_code == 403 and "deployment-2" in answer.get_data(as_text=True)


def test_the_unbound_contexts_kept_are_bounded_per_platform(app, platform, monkeypatch):
    monkeypatch.setattr(bindings, "UNBOUND_KEPT", 2)
    for number in range(4):
        assert launched(app.test_client(), platform,
                        **{LTI + "context": {"id": f"c-{number}", "title": ""}}).status_code == 403
    with app.config["hog.settings"].sessions() as session:
        assert sorted(session.scalars(select(Unbound.context_id))) == ["c-2", "c-3"]


@pytest.mark.slow
def test_add_platform_binds_its_contexts_and_link_refuses_a_deployment_not_registered(course, capsys):
    platform = ["--issuer", "https://lms.school.edu", "--client-id", "c1", "--deployment-id", "d1",
                "--auth-url", "https://lms.school.edu/auth", "--token-url", "https://lms.school.edu/token",
                "--jwks-url", "https://lms.school.edu/jwks"]
    assert hog(course, "add-platform", *platform, "--context", "cs88", "--context", "cs61a") == 0
    assert "Bound LMS courses: cs88, cs61a" in capsys.readouterr().out
    assert hog(course, "list") == 0
    listed = capsys.readouterr().out
    assert "bound: https://lms.school.edu  deployment d1  context cs61a" in listed and "context cs88" in listed
    assert hog(course, "link", "--issuer", "https://lms.school.edu", "--deployment-id", "d9", "cs88") == 2
    assert "has no registered deployment 'd9'" in capsys.readouterr().err
    assert hog(course, "unlink", "--issuer", "https://lms.school.edu", "--deployment-id", "d1", "nope") == 2
    assert "is not bound" in capsys.readouterr().err


# 2. Roles from outside the course do not count.
OUTSIDE_ROLES = ("http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor",
                 "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
                 "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator", "https://evil.test/vocab#Instructor")


def test_an_institution_or_system_role_never_makes_a_learner_staff(app, platform):
    for role in OUTSIDE_ROLES:
        platform.user["roles"] = [LEARNER, role]
        client = app.test_client()
        assert launched(client, platform).headers["Location"] == "/assignments/hog", role
        assert client.get("/staff/").status_code == 403
        assert [each[2] for each in people(app)] == [STUDENT]
        platform.user["roles"] = [role]   # and alone it is no role in the course at all
        assert launched(app.test_client(), platform).status_code == 403, role


# 3. Identities cannot be borrowed.
@pytest.mark.slow
def test_a_user_of_another_platform_claiming_a_student_s_email_gets_a_person_of_their_own_and_no_score(
        app, course, platform, other):
    issue(app, "sa")   # the roster's sa, sa@example.edu
    platform.user.update(email="sa@example.edu")
    assert launched(app.test_client(), platform).status_code == 303   # joined: the school's emails are verified
    number = graded(app, 20.0, email="sa@example.edu")
    other.user.update(email="SA@EXAMPLE.EDU")
    thief = app.test_client()
    assert launched(thief, other).status_code == 303
    assert thief.get(f"/submissions/{number}").status_code == 404
    with app.config["hog.settings"].sessions() as session:
        theirs = session.scalars(select(Person).join(Identity).where(Identity.subject == "mallory")).one()
        assert theirs.student_id.startswith(roster.UNMATCHED) and theirs.student_id != "sa"
    engine = app.config["hog.settings"].engine
    passback.send_due(engine, sender(app, course))
    assert other.scores == [] and [score["userId"] for _, score in platform.scores] == ["canvas-user-1"]


def test_another_platform_s_users_with_staff_s_or_a_student_s_email_change_no_one_s_role(app, platform, other):
    issue(app, "teacher", role="staff")
    issue(app, "sc")
    for sub, email, role in (("t-1", "teacher@example.edu", INSTRUCTOR), ("c-1", "sc@example.edu", LEARNER)):
        platform.user.update(sub=sub, email=email, roles=[role])
        assert launched(app.test_client(), platform).status_code == 303
    other.user.update(sub="m-1", email="teacher@example.edu", roles=[LEARNER])
    assert launched(app.test_client(), other).status_code == 303
    other.user.update(sub="m-2", email="sc@example.edu", roles=[INSTRUCTOR])
    assert launched(app.test_client(), other).status_code == 303
    roles = {sid: role for sid, _, role in people(app)}
    assert roles["teacher"] == STAFF and roles["sc"] == STUDENT


def test_a_launch_keeps_a_role_staff_set(app, platform):
    issue(app, "helper", role="staff")
    platform.user.update(email="helper@example.edu", roles=[LEARNER])
    client = app.test_client()
    assert launched(client, platform).headers["Location"] == "/staff/assignments/hog"
    assert {sid: role for sid, _, role in people(app)}["helper"] == STAFF


def test_without_verified_emails_a_launch_is_unmatched_until_staff_join_it_to_the_roster_s_person(
        app, course, platform, capsys):
    assert hog(course, "trust-email", "--issuer", platform.url, "off") == 0
    token = issue(app, "s1")["s1"]
    student = app.test_client()
    assert launched(student, platform).status_code == 303
    [unmatched] = [sid for sid, _, _ in people(app) if sid.startswith("lti:")]
    staff = signed_in(app, issue(app, "ta", role="staff")["ta"])
    assert f"{unmatched}</a> (unmatched)" in staff.get("/staff/").get_data(as_text=True)
    number = graded(app, 12.0, student_id=unmatched)
    assert hog(course, "join", unmatched, "s1") == 0
    assert f"{unmatched} (1 LMS identities) joined to s1" in capsys.readouterr().out
    assert [sid for sid, _, _ in people(app)] == ["s1", "ta"]
    assert signed_in(app, token).get("/assignments/hog").status_code == 200
    with app.config["hog.settings"].sessions() as session:   # their submission is s1's now
        assert session.get(Submission, number).person.student_id == "s1"
    assert launched(app.test_client(), platform).status_code == 303
    assert [sid for sid, _, _ in people(app)] == ["s1", "ta"]   # the identity is s1's now


def test_an_unmatched_person_joined_brings_their_group_and_invitations_and_a_clash_is_refused(app, platform):
    """A partner who launched before staff matched them keeps their group once joined; where both people are in a
    group of the same assignment, the join is refused and nothing changes."""
    register(app, platform, trust_email=False)
    assert launched(app.test_client(), platform).status_code == 303
    [unmatched] = [sid for sid, _, _ in people(app)]
    issue(app, "s1", "s2", "s3")
    with app.config["hog.settings"].sessions() as session, session.begin():
        ids = dict(session.execute(select(Person.student_id, Person.id)).all())
        group = Group(assignment="hog", name="pair")
        session.add(group)
        session.flush()
        session.add_all([Membership(group_id=group.id, person_id=ids[unmatched], assignment="hog"),
                         Membership(group_id=group.id, person_id=ids["s2"], assignment="hog"),
                         Invitation(assignment="past", inviter_id=ids[unmatched], invitee_id=ids["s3"],
                                    made_at=db.now())])
    with app.config["hog.settings"].sessions() as session, session.begin():
        session.add(Membership(group_id=group.id, person_id=ids["s3"], assignment="hog"))
    with pytest.raises(UsageError, match="both have a group of hog"):
        with app.config["hog.settings"].sessions() as session, session.begin():
            roster.join(session, new_id=unmatched, roster_id="s3")
    with app.config["hog.settings"].sessions() as session, session.begin():
        assert roster.join(session, new_id=unmatched, roster_id="s1").endswith("joined to s1")
    with app.config["hog.settings"].sessions() as session:
        members = session.execute(select(Person.student_id).join(Membership, Membership.person_id == Person.id)
                                  .where(Membership.group_id == group.id).order_by(Person.student_id)).scalars()
        assert list(members) == ["s1", "s2", "s3"]
        invited = session.scalars(select(Invitation)).one()
        assert (invited.inviter_id, invited.invitee_id) == (ids["s1"], ids["s3"])


def test_staff_join_an_unmatched_person_on_their_page(app, platform):
    register(app, platform, trust_email=False)
    assert launched(app.test_client(), platform).status_code == 303
    [unmatched] = [sid for sid, _, _ in people(app)]
    issue(app, "s1")
    staff = signed_in(app, issue(app, "ta", role="staff")["ta"])
    page = staff.get(f"/staff/students/{unmatched}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    assert "Unmatched" in page
    answer = staff.post(f"/staff/students/{unmatched}/join", data={"csrf_token": token, "roster_id": "nobody"})
    assert answer.status_code == 400 and "no person with the student id" in answer.get_data(as_text=True)
    answer = staff.post(f"/staff/students/{unmatched}/join", data={"csrf_token": token, "roster_id": "s1"})
    assert answer.status_code == 303 and [sid for sid, _, _ in people(app)] == ["s1", "ta"]


def test_a_score_goes_only_to_the_identity_its_person_is_bound_to(app, course, platform):
    assert launched(app.test_client(), platform).status_code == 303
    graded(app, 20.0)
    with app.config["hog.settings"].sessions() as session, session.begin():
        session.execute(Identity.__table__.update().values(subject="someone-else"))
    assert passback.send_due(app.config["hog.settings"].engine, sender(app, course)) == (0, 1)
    assert platform.scores == []


@pytest.mark.slow
def test_the_roster_of_the_lms_joins_by_email_only_where_the_platform_s_emails_are_verified(app, course, platform,
                                                                                             capsys):
    issue(app, "s2")
    register(app, platform, trust_email=False)
    assert launched(app.test_client(), platform).status_code == 303
    assert hog(course, "roster") == 0
    assert "s2" in {sid for sid, _, _ in people(app)} and len(people(app)) == 4   # s2 and an unmatched s2
    assert hog(course, "trust-email", "--issuer", platform.url, "on") == 0
    issue(app, "s3x")
    platform.members.append({"user_id": "canvas-user-9", "email": "S3X@example.edu", "roles": [LEARNER]})
    assert hog(course, "roster") == 0
    with app.config["hog.settings"].sessions() as session:
        s3x = session.scalars(select(Person).where(Person.student_id == "s3x")).one()
        assert session.scalar(select(func.count()).select_from(Identity).where(Identity.person_id == s3x.id)) == 1


# 7. Service URLs only on the platform's origins.
class _Catcher(BaseHTTPRequestHandler):
    """Another port of 127.0.0.1: records what reaches it."""
    seen: list = []

    def do_GET(self):   # noqa: N802
        self.seen.append(self.headers.get("Authorization"))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"[]")

    do_POST = do_GET   # noqa: N815

    def log_message(self, *args):
        pass


@pytest.fixture
def elsewhere():
    _Catcher.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Catcher)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_line_item_or_member_list_off_the_platform_s_origins_is_refused_logged_and_gets_no_token(
        app, course, platform, elsewhere, caplog, capsys):
    assert launched(app.test_client(), platform, **{
        "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {"lineitem": f"{elsewhere}/lineitems/1"},
        "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
            "context_memberships_url": f"{elsewhere}/memberships"}}).status_code == 303
    graded(app, 20.0)
    with caplog.at_level(logging.WARNING, logger="hog.lti"):
        assert passback.send_due(app.config["hog.settings"].engine, sender(app, course)) == (0, 1)
        assert hog(course, "roster") == 0
    assert "is not on the platform's origins" in capsys.readouterr().out
    assert _Catcher.seen == [] and platform.assertions_checked == 0
    assert sum("service URL refused" in record.getMessage() for record in caplog.records) == 2


@pytest.mark.slow
def test_a_service_origin_given_at_registration_is_called(app, course, platform, elsewhere):
    register(app, platform, service_origins=(elsewhere,))
    assert launched(app.test_client(), platform, **{
        "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {"lineitem": f"{elsewhere}/lineitems/1"}}
    ).status_code == 303
    graded(app, 20.0)
    assert passback.send_due(app.config["hog.settings"].engine, sender(app, course)) == (1, 0)
    assert len(_Catcher.seen) == 1 and _Catcher.seen[0].startswith("Bearer ")


# 8. A deep linking return URL cannot write the page's policy; 13. its data comes back unchanged.
DEEP = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"


def test_a_deep_linking_return_url_crafted_to_add_directives_is_refused(app, platform):
    platform.user["roles"] = [INSTRUCTOR]
    client = app.test_client()
    answer = launched(client, platform, **{LTI + "message_type": "LtiDeepLinkingRequest", DEEP: {
        "deep_link_return_url": "https://lms.test;frame-ancestors *;x/deep", "accept_types": ["ltiResourceLink"]}})
    assert answer.status_code == 400 and "frame-ancestors *" not in answer.headers["Content-Security-Policy"]
    assert counts(app)["Person"] == 0


def test_an_address_that_is_not_a_plain_origin_is_refused_where_it_would_go_into_a_header(app):
    with app.config["hog.settings"].sessions() as session:
        for given in ("https://lms.test;frame-ancestors *", "https://lms.test\r\nX-Evil: 1", "https://user@lms.test",
                      "javascript:alert(1)//x", "https://lms.test/a b"):
            with pytest.raises(UsageError, match="is not an http"):
                platforms.add(session, issuer="https://lms.test", client_id="c", deployment_id="d",
                              auth_url="https://lms.test/a", token_url="https://lms.test/t",
                              jwks_url="https://lms.test/j", lms_url=given)


def test_a_page_s_way_back_goes_into_location_only_as_an_assignment_s_page(app):
    client = signed_in(app, issue(app, "s1")["s1"])
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    for back, where in (("/assignments/hog", "/assignments/hog"), ("/assignments/hog\r\nSet-Cookie: x=1", "/"),
                        ("/assignments/../staff/", "/")):
        answer = client.post("/alias", data={"csrf_token": token, "alias": "pig", "back": back})
        assert answer.status_code == 303 and answer.headers["Location"] == where


def test_a_deep_linking_request_s_data_comes_back_unchanged_whatever_its_json_type(app, course, platform):
    platform.user["roles"] = [INSTRUCTOR]
    client = app.test_client()
    assert launched(client, platform, **{LTI + "message_type": "LtiDeepLinkingRequest", DEEP: {
        "deep_link_return_url": "https://lms.test/deep", "accept_types": ["ltiResourceLink"],
        "data": {"id": 7, "nested": [1, "two"]}}}).status_code == 303   # as lti1p3platform sends it
    page = client.get("/lti/pick").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    signed = re.search(r'name="JWT" value="([^"]+)"',
                       client.post("/lti/pick", data={"assignment": "hog", "csrf_token": token}).get_data(as_text=True))[1]
    assert _returned(course, signed) == {"id": 7, "nested": [1, "two"]}
    # a manifest's assignment: its maximum is known without reading its variant's spec each time
    hog_assignment = dataclasses.replace(app.config["hog.settings"].server.assignment("hog"), variant=None,
                                         manifest="rosters/r.csv")
    for data in (["a", 1], 7, "opaque", None, True):
        asked = deep_linking.request({DEEP: {"deep_link_return_url": "https://lms.test/deep", "data": data,
                                             "accept_types": ["ltiResourceLink"]}})
        signed = deep_linking.response(course / "server", url="http://hog.test", issuer=platform.url, client_id="c",
                                       deployment_id="d", asked=asked, assignment=hog_assignment)
        assert _returned(course, signed) == data


def _returned(course, signed: str):
    """The data a signed deep linking response returns."""
    claims = jwt.decode(signed, KeySet.import_key_set(keys.tool_jwks(course / "server")), algorithms=["RS256"]).claims
    return claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"]


# 10. Every stored claim bounded, on every database.
@pytest.mark.parametrize("claim", ["email", "sub", "context"])
def test_a_claim_longer_than_the_tool_keeps_is_refused_on_every_database(course, any_database, migrated_sqlite,
                                                                          claim):
    app = make_app(course, any_database, migrated_sqlite)
    platform = Platform(lambda: keys.tool_jwks(course / "server"))
    platform.redirect_uri = LAUNCH
    try:
        register(app, platform)
        long = "x" * 5000
        changes = {"email": {"email": long + "@example.edu"}, "sub": {"sub": long},
                   "context": {LTI + "context": {"id": "course-7", "title": long}}}[claim]
        answer = launched(app.test_client(), platform, **changes)
        assert answer.status_code == 400 and "longer than" in answer.get_data(as_text=True)
        assert counts(app) == {"Person": 0, "Identity": 0, "Link": 0, "Nonce": 0}
    finally:
        platform.stop()
        app.config["hog.settings"].engine.dispose()


# 5. No shared table anyone can fill.
def _flooded(app, platform, logins: int) -> None:
    flooder = app.test_client()
    query = f"/lti/login?{login_query(platform)}"
    assert all(flooder.get(query).status_code == 302 for _ in range(logins))
    assert counts(app) == {"Person": 0, "Identity": 0, "Link": 0, "Nonce": 0}
    with app.config["hog.settings"].sessions() as session:   # nothing of a login is kept on the server
        assert all(session.scalar(select(func.count()).select_from(table)) == 0
                   for table in Base.metadata.sorted_tables if table.name.startswith("lti_") and
                   table.name not in ("lti_platforms", "lti_deployments", "lti_bindings"))
    assert launched(app.test_client(), platform).status_code == 303   # anyone else's login works


def test_logins_from_one_client_keep_nothing_and_leave_every_other_login_working(app, platform):
    _flooded(app, platform, 20)


@pytest.mark.slow
def test_twenty_thousand_logins_from_one_client_leave_every_other_login_working(app, platform):
    _flooded(app, platform, 20_000)


def test_a_registration_or_binding_longer_than_its_column_is_refused_saying_so(app):
    with app.config["hog.settings"].sessions() as session:
        with pytest.raises(UsageError, match="--deployment-id is longer than 255 characters"):
            platforms.add(session, issuer="https://lms.test", client_id="c", deployment_id="d" * 256,
                          auth_url="https://lms.test/a", token_url="https://lms.test/t", jwks_url="https://lms.test/j")
        with pytest.raises(UsageError, match="at most 255 characters"):
            bindings.link(session, issuer="https://lms.test", deployment_id="d", context_id="c" * 256)
