"""``hog serve lti``: platforms and deployments recorded, listed and removed; the key pair made once; what an
LMS administrator enters, printed; and the same launch and passback on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from grader.cli import main
from grader.server.lti import keys, passback
from grader.server.store.models import STAFF, STUDENT, Person
from tests.server.conftest import issue, make_app, signed_in
from tests.server.lti_platform import Platform
from tests.server.test_lti import launched, register
from tests.server.test_lti_passback import graded

PLATFORM = ["--issuer", "https://canvas.instructure.com", "--client-id", "10000000000001",
            "--auth-url", "https://sso.canvaslms.com/api/lti/authorize_redirect",
            "--token-url", "https://sso.canvaslms.com/login/oauth2/token",
            "--jwks-url", "https://sso.canvaslms.com/api/lti/security/jwks"]


def hog(course, *arguments) -> int:
    return main(["--course", str(course), "serve", "lti", *arguments])


def test_platforms_and_deployments_are_added_listed_and_removed(course, capsys):
    assert hog(course, "add-platform", *PLATFORM, "--deployment-id", "1:abc",
               "--lms-url", "https://school.instructure.com/courses/7") == 0
    assert "recorded the deployment 1:abc of https://canvas.instructure.com" in capsys.readouterr().out
    assert (course / "server" / keys.TOOL_KEY).stat().st_mode & 0o777 == 0o600
    made = (course / "server" / keys.TOOL_KEY).read_bytes()
    assert hog(course, "add-platform", *PLATFORM, "--deployment-id", "2:def") == 0
    assert hog(course, "add-platform", *PLATFORM, "--deployment-id", "2:def") == 0
    assert "already had the deployment 2:def" in capsys.readouterr().out
    assert (course / "server" / keys.TOOL_KEY).read_bytes() == made   # made once
    assert hog(course, "list") == 0
    listed = capsys.readouterr().out
    assert "client id 10000000000001  deployments 1:abc, 2:def" in listed
    assert "framed by https://canvas.instructure.com" in listed
    assert hog(course, "remove", "--issuer", "https://canvas.instructure.com", "--deployment-id", "1:abc") == 0
    assert hog(course, "remove", "--issuer", "https://canvas.instructure.com") == 0
    assert "removed the platform https://canvas.instructure.com" in capsys.readouterr().out
    assert hog(course, "list") == 0
    assert "no platform recorded yet" in capsys.readouterr().out


def test_a_platform_given_what_is_not_a_url_or_one_not_registered_is_an_error_saying_so(course, capsys):
    assert hog(course, "add-platform", *PLATFORM[:-1], "canvas-jwks", "--deployment-id", "1") == 2
    assert "--jwks-url 'canvas-jwks' is not an http(s) URL" in capsys.readouterr().err
    assert hog(course, "remove", "--issuer", "https://moodle.example.edu") == 2
    assert "no platform 'https://moodle.example.edu'" in capsys.readouterr().err


def test_config_prints_the_tool_s_urls_and_canvas_s_developer_key(course, capsys):
    assert hog(course, "config") == 0
    out = capsys.readouterr().out
    assert "an LMS launches only a tool at a public https address" in out   # the course's url is http://hog.test
    assert "Login (OIDC initiation) URL:  http://hog.test/lti/login" in out
    assert "Redirect (launch) URL:        http://hog.test/lti/launch" in out
    assert "Public keyset (JWKS) URL:     http://hog.test/lti/jwks" in out
    canvas = json.loads(out[out.index("{"):])
    assert canvas["oidc_initiation_url"] == "http://hog.test/lti/login"
    assert canvas["public_jwk_url"] == "http://hog.test/lti/jwks"
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in canvas["scopes"]
    placements = canvas["extensions"][0]["settings"]["placements"]
    assert {(each["placement"], each["message_type"]) for each in placements} == {
        ("link_selection", "LtiDeepLinkingRequest"), ("assignment_selection", "LtiDeepLinkingRequest")}


@pytest.mark.slow
def test_a_launch_and_its_passback_on_postgresql(course, any_database):
    app = make_app(course, any_database)
    platform = Platform(lambda: keys.tool_jwks(course / "server"))
    platform.redirect_uri = "http://hog.test/lti/launch"
    try:
        register(app, platform)
        assert launched(app.test_client(), platform).status_code == 303
        assert launched(app.test_client(), platform).status_code == 303
        graded(app, 20.0)
        engine = app.config["hog.settings"].engine
        assert passback.send_due(engine, passback.ags.Client(course / "server")) == (1, 0)
        assert passback.send_due(engine, passback.ags.Client(course / "server")) == (0, 0)
        assert [score["scoreGiven"] for _, score in platform.scores] == [20.0]
    finally:
        platform.stop()
        app.config["hog.settings"].engine.dispose()


def test_roster_makes_the_lms_course_s_active_members_people_of_the_course(course, capsys, migrated_sqlite):
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}", migrated_sqlite)
    platform = Platform(lambda: keys.tool_jwks(course / "server"))
    platform.redirect_uri = "http://hog.test/lti/launch"
    try:
        assert hog(course, "roster") == 0
        assert "no LMS course to read yet" in capsys.readouterr().out
        register(app, platform)
        assert launched(app.test_client(), platform).status_code == 303   # s1 launches: the course is known
        assert hog(course, "roster") == 0
        assert capsys.readouterr().out == ("CS 88: 2 people added, 1 already known, 1 left out (inactive, neither "
                                           "learner nor staff, or a field too long)\n")
        with app.config["hog.settings"].sessions() as session:
            assert sorted(session.execute(select(Person.email, Person.role)).all()) == [
                ("s1@example.edu", STUDENT), ("s2@example.edu", STUDENT), ("t1@example.edu", STAFF)]
            assert all(each.startswith("lti:") for each in session.scalars(select(Person.student_id)))
        page = signed_in(app, issue(app, "ta", role="staff")["ta"]).get("/staff/assignments/hog")
        assert "s2@example.edu" in page.get_data(as_text=True)   # listed before they launch
        platform.user.update(sub="canvas-user-2", email="s2@example.edu")
        assert launched(app.test_client(), platform).status_code == 303
        with app.config["hog.settings"].sessions() as session:
            assert session.scalar(select(func.count()).select_from(Person)) == 4   # the same s2, and ta
    finally:
        platform.stop()
        app.config["hog.settings"].engine.dispose()
