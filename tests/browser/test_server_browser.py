"""The course server in headless Chromium, under its Content-Security-Policy: a student's sign-in link, an
upload and its result appearing without a reload, while the staff's gradebook shows it without one either;
no console errors (a refusal of the policy among them), nothing loaded from elsewhere."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from grader import project

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")
pytest.importorskip("flask", reason="the course server's libraries: pip install -e '.[server]'")

from tests.server.conftest import SOLUTION, issue, make_app, make_course   # noqa: E402
from tests.server.test_restart import start                           # noqa: E402

ARTIFACTS = Path(os.environ.get("CI_ARTIFACTS") or project.ROOT / "tests" / "artifacts")
GRADED_WITHIN_MS = 120_000


@pytest.fixture
def served(tmp_path):
    course = make_course(tmp_path)
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = {**issue(app, "s1"), **issue(app, "t1", role="staff")}
    server, base = start(course, tmp_path / "serve.log")
    yield base, tokens
    server.send_signal(signal.SIGTERM)
    server.wait(20)
    project.use()


def launch(playwright):
    """Debian's headless Chromium (never one downloaded)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM),
                                      args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])


def watched(chromium, errors: list, elsewhere: list, base: str):
    """A page of its own browser context that records console errors (a policy's refusals among them) and
    any request to another origin."""
    page = chromium.new_context().new_page()
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: request.url.startswith(base) or elsewhere.append(request.url))
    return page


@pytest.mark.slow
def test_a_student_uploads_and_sees_the_grade_appear_as_staff_see_it_in_the_gradebook_neither_reloading(served):
    base, tokens = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            errors, elsewhere = [], []
            staff = watched(chromium, errors, elsewhere, base)
            staff.goto(f"{base}/signin/{tokens['t1']}")
            staff.get_by_role("link", name="hog", exact=True).click()
            row = staff.locator("#gradebook tr", has_text="s1@example.edu")
            sync_api.expect(row).to_contain_text("no submission")
            staff.evaluate("window.unreloaded = true")   # gone if the page were loaded again

            student = watched(chromium, errors, elsewhere, base)
            student.goto(f"{base}/signin/{tokens['s1']}")
            sync_api.expect(student.get_by_role("heading", name="Your assignments")).to_be_visible()
            student.get_by_role("link", name="hog", exact=True).click()
            student.set_input_files("input[name=file]", str(SOLUTION))
            student.get_by_role("button", name="Submit").click()
            student.wait_for_url("**/submissions/*")
            student.evaluate("window.unreloaded = true")
            sync_api.expect(student.locator("#status")).to_have_text("graded", timeout=GRADED_WITHIN_MS)
            sync_api.expect(student.locator("#score")).to_have_text("Score: 23 / 23")
            question = student.locator("#questions details", has_text="Question 1: Rolling dice (roll_dice)")
            sync_api.expect(question).to_have_class("question passed")   # folded, its details a click away
            question.locator("summary").click()
            sync_api.expect(question.locator("pre")).to_be_visible()
            assert student.evaluate("window.unreloaded === true")
            assert student.locator("[aria-live] #status").count() == 1   # said by a screen reader as it changes
            student.screenshot(path=str(ARTIFACTS / "server-student.png"), full_page=True)

            sync_api.expect(row).to_contain_text("graded", timeout=30_000)
            assert row.locator("td").nth(4).inner_text() == "23.0"
            assert staff.evaluate("window.unreloaded === true")
            assert staff.locator("meta[http-equiv=refresh]").count() == 0
            # a gradebook wider than the page scrolls in its own box, which the keyboard reaches; the page does not
            assert staff.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert staff.evaluate("document.querySelector('#gradebook').parentElement.tabIndex") == 0
            staff.screenshot(path=str(ARTIFACTS / "server-gradebook.png"), full_page=True)
            assert errors == [] and elsewhere == []
        finally:
            chromium.close()
