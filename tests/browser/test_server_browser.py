"""The course server in headless Chromium: a student's sign-in link, an upload and its result appearing,
then the staff's live gradebook; no console errors, nothing loaded from elsewhere."""

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


@pytest.mark.slow
def test_a_student_signs_in_uploads_and_reads_the_result_then_staff_read_the_gradebook(served):
    base, tokens = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            errors, elsewhere = [], []
            for who in ("s1", "t1"):
                page = chromium.new_context().new_page()
                page.on("console", lambda message: message.type == "error" and errors.append(message.text))
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.on("request", lambda request: request.url.startswith(base) or elsewhere.append(request.url))
                page.goto(f"{base}/signin/{tokens[who]}")
                if who == "s1":
                    sync_api.expect(page.get_by_role("heading", name="Your assignments")).to_be_visible()
                    page.get_by_role("link", name="hog", exact=True).click()
                    page.set_input_files("input[name=file]", str(SOLUTION))
                    page.get_by_role("button", name="Submit").click()
                    sync_api.expect(page.locator("#status")).to_have_text("graded", timeout=GRADED_WITHIN_MS)
                    sync_api.expect(page.locator("#score")).to_have_text("Score: 23 / 23")
                    assert page.get_by_role("cell", name="Question 1: Rolling dice (roll_dice)").is_visible()
                    page.screenshot(path=str(ARTIFACTS / "server-student.png"), full_page=True)
                else:
                    page.get_by_role("link", name="hog", exact=True).click()
                    row = page.locator("#gradebook tr", has_text="s1@example.edu")
                    sync_api.expect(row).to_contain_text("graded")
                    assert row.locator("td").nth(4).inner_text() == "23.0"
                    # a gradebook wider than the page scrolls in its own box; the page itself does not
                    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
                    assert page.evaluate("(box => box.scrollWidth > box.clientWidth)("
                                         "document.querySelector('#gradebook').parentElement)")
                    page.screenshot(path=str(ARTIFACTS / "server-gradebook.png"), full_page=True)
            assert errors == [] and elsewhere == []
        finally:
            chromium.close()
