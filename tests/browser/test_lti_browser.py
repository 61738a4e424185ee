"""The course server launched from an LMS in headless Chromium: the LMS's course page shows the tool in a frame,
the login and the platform's form post of the id_token run in it, the student lands signed in on the
assignment, submits there, and the grade reaches the LMS's line item once, though the LMS was down when it
was graded."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from sqlalchemy import select

from grader import project
from grader.cli import main
from grader.server.store import db
from grader.server.store.models import Link

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")
pytest.importorskip("flask", reason="the course server's libraries: pip install -e '.[server]'")

from tests.server.conftest import SOLUTION, make_course   # noqa: E402
from tests.server.lti_platform import Platform, login_query   # noqa: E402

GRADED_WITHIN_S = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


@pytest.fixture
def served(tmp_path):
    """hog serve at its public address on 127.0.0.1, and a platform registered with hog serve lti."""
    course = make_course(tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace('url = "http://hog.test"', f'url = "{base}"'))
    platform = Platform(f"{base}/lti/jwks")
    platform.redirect_uri = f"{base}/lti/launch"
    registration = platform.registration()
    assert main(["--course", str(course), "serve", "lti", "add-platform", *(
        part for name, value in registration.items() for part in (f"--{name.replace('_', '-')}", value)),
        "--context", "course-7"]) == 0
    log = (tmp_path / "serve.log").open("ab")
    server = subprocess.Popen([sys.executable, "-m", "grader.cli", "--course", str(course), "serve", "--port",
                               str(port), "--jobs", "1"], stdout=subprocess.PIPE, stderr=log, text=True,
                              env={**os.environ, "PYTHONPATH": str(project.PACKAGE.parent)})
    assert "serving" in server.stdout.readline(), (tmp_path / "serve.log").read_text()
    yield course, base, platform
    server.send_signal(signal.SIGTERM)
    server.wait(20)
    platform.stop()
    project.use()


def _link(course):
    engine = db.connect(db.default_url(course / "server"))
    try:
        with db.sessions(engine)() as session:
            return session.scalars(select(Link)).first()
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_student_launched_in_the_lms_s_frame_submits_there_and_the_grade_reaches_the_lms_once(served):
    course, base, platform = served
    platform.framed = f"{base}/lti/login?{login_query(platform, f'{base}/assignments/hog')}"
    platform.down = True   # the LMS is down when the submission is graded
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = chromium.new_context().new_page()
            errors = []
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.on("response", lambda answer: answer.status >= 400 and errors.append(f"{answer.status} {answer.url}"))
            page.goto(f"{platform.url}/course")
            tool = page.frame_locator("iframe[title=Hog]")
            sync_api.expect(tool.get_by_role("heading", name="hog")).to_be_visible(timeout=20_000)
            sync_api.expect(tool.locator("nav")).to_contain_text("lti:")   # a person the launch made
            tool.locator("input[name=file]").set_input_files(str(SOLUTION))
            tool.get_by_role("button", name="Submit").click()
            sync_api.expect(tool.locator("#status")).to_have_text("graded", timeout=GRADED_WITHIN_S * 1000)
            assert errors == []
        finally:
            chromium.close()
    failed = wait_for(lambda: (link := _link(course)) is not None and link.tries >= 1 and link, 20,
                      "the passback tried while the LMS is down")
    assert "503" in failed.problem and platform.scores == []
    platform.down = False
    wait_for(lambda: platform.scores, 30, "the score sent once the LMS is back")   # its next try: 10 s later
    time.sleep(2)
    assert [(score["userId"], score["scoreGiven"], score["scoreMaximum"]) for _, score in platform.scores] == [
        ("canvas-user-1", 23.0, 23.0)]
    assert _link(course).due is False


@pytest.mark.slow
def test_an_instructor_adding_the_tool_in_the_lms_picks_an_assignment_and_the_lms_receives_the_link(served):
    course, base, platform = served
    platform.user.update(sub="canvas-teacher", email="t1@example.edu",
                         roles=["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"])
    platform.launch_claims = {
        "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingRequest",
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
            "deep_link_return_url": f"{platform.url}/deep_links", "accept_types": ["ltiResourceLink"]}}
    platform.framed = f"{base}/lti/login?{login_query(platform, f'{base}/')}"
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = chromium.new_context().new_page()
            errors = []
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.goto(f"{platform.url}/course")
            tool = page.frame_locator("iframe[title=Hog]")
            tool.get_by_role("button", name="Link past").click(timeout=20_000)
            sync_api.expect(tool.get_by_role("heading", name="Linked")).to_be_visible(timeout=20_000)
            assert errors == []
        finally:
            chromium.close()
    [claims] = platform.deep_links
    [item] = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["url"] == f"{base}/assignments/past" and item["custom"] == {"assignment": "past"}
