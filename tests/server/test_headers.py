"""The security headers on every response (a page, the API, an error, a static file, a report): a
Content-Security-Policy with no inline script, framing by the server itself and the LMS origins the course
names, nosniff, a Referrer-Policy; HSTS only when the course's url is https."""

from __future__ import annotations

import pytest

from grader import project
from grader.spec import course as course_config
from grader.spec.config_error import ConfigError
from tests.server.conftest import CONFIG, bearer, issue, make_app, signed_in

PATHS = ("/", "/assignments/hog", "/api/submissions", "/nowhere", "/api/nowhere", "/static/server.css",
         "/signin/not-a-token")


def served(course, server_lines: str = ""):
    config = course / project.CONFIG_NAME
    config.write_text(CONFIG.replace('url = "http://hog.test"\n', f'url = "http://hog.test"\n{server_lines}'))
    return make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")


def directives(response) -> dict[str, str]:
    text = response.headers["Content-Security-Policy"]
    return {part.split()[0]: " ".join(part.split()[1:]) for part in text.split(";") if part.strip()}


def test_every_response_carries_the_policy_nosniff_and_a_referrer_policy_and_no_hsts_over_http(app):
    token = issue(app, "s1")["s1"]
    client = signed_in(app, token)
    answers = [client.get(path) for path in PATHS] + [app.test_client().get("/api/submissions", headers=bearer(token))]
    assert sorted({answer.status_code for answer in answers}) == [200, 404]
    for answer in answers:
        policy = directives(answer)
        assert policy["default-src"] == "'self'" and policy["script-src"] == "'self'", answer.request.path
        assert policy["style-src"] == "'self'" and policy["frame-ancestors"] == "'self'"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "same-origin"
        assert answer.headers["X-Frame-Options"] == "SAMEORIGIN"
        assert "Strict-Transport-Security" not in answer.headers
    assert "<style" not in answers[0].get_data(as_text=True) and "<script>" not in answers[1].get_data(as_text=True)


def test_behind_https_every_response_says_to_keep_to_https(course):
    config = course / project.CONFIG_NAME
    config.write_text(CONFIG.replace("http://hog.test", "https://hog.test"))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    for path in ("/", "/api/submissions", "/static/server.css"):
        answer = app.test_client().get(path)
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000", path
        assert answer.status_code in (200, 401)   # never a redirect: the proxy in front speaks https


def test_an_lms_named_in_the_config_may_frame_the_pages_and_x_frame_options_does_not_contradict_it(course):
    app = served(course, 'frame_ancestors = ["https://canvas.example.edu", "https://*.instructure.com"]\n')
    answer = app.test_client().get("/")
    assert directives(answer)["frame-ancestors"] == "'self' https://canvas.example.edu https://*.instructure.com"
    assert "X-Frame-Options" not in answer.headers
    other = make_app(course, f"sqlite:///{course / 'server' / 'other.sqlite3'}")
    assert directives(other.test_client().get("/"))["frame-ancestors"].startswith("'self' https://canvas")


def test_the_class_report_made_to_stand_alone_may_use_its_inline_style_and_nothing_else_inline(course):
    app = served(course)
    tokens = issue(app, "t1", role="staff")
    staff = signed_in(app, tokens["t1"])
    report = staff.get("/staff/assignments/hog/report")
    assert report.status_code == 200 and "<style>" in report.get_data(as_text=True)
    policy = directives(report)
    assert policy["style-src"] == "'self' 'unsafe-inline'" and policy["script-src"] == "'self'"
    assert directives(staff.get("/staff/"))["style-src"] == "'self'"   # the pages' own policy is unchanged


@pytest.mark.parametrize("value", ['"https://canvas.example.edu"', '["canvas.example.edu"]',
                                   '["https://canvas.example.edu/courses"]'])
def test_a_frame_ancestor_that_is_not_an_origin_is_refused_with_the_fix(course, value):
    config = course / project.CONFIG_NAME
    config.write_text(CONFIG.replace('url = "http://hog.test"\n',
                                     f'url = "http://hog.test"\nframe_ancestors = {value}\n'))
    with pytest.raises(ConfigError, match=r"hog-course.toml:6: server.frame_ancestors is .* \(write a list of origins"):
        course_config.current()
