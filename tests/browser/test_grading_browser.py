"""Grading by hand in headless Chromium, under the pages' Content-Security-Policy: a staff member grades two
submissions with rubric items and a line comment and releases the grades; the student reads both on their
submission's page and asks for a regrade; staff answer; the student reads the answer. No console errors (a
refusal of the policy among them), nothing loaded from elsewhere."""

from __future__ import annotations

import signal

import pytest

from grader import project
from tests.browser.test_server_browser import ARTIFACTS, launch, sync_api, watched
from tests.server.conftest import issue
from tests.server.reviewing import graded, rubric_app, rubric_course
from tests.server.test_restart import start


@pytest.fixture
def served(tmp_path):
    course = rubric_course(tmp_path)
    app = rubric_app(course)
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    numbers = {student: graded(app, student, score) for student, score in (("s1", 20.0), ("s2", 15.0))}
    server, base = start(course, tmp_path / "serve.log")
    yield base, tokens, numbers
    server.send_signal(signal.SIGTERM)
    server.wait(20)
    project.use()


def grade(page, item: str, line: str, comment: str) -> None:
    """Apply one rubric item by its button and comment on a line, as a grader does."""
    page.get_by_role("button", name=item).click()
    sync_api.expect(page.get_by_role("button", name=item)).to_have_attribute("aria-pressed", "true")
    page.get_by_label("Line", exact=True).fill(line)
    page.get_by_label("Comment", exact=True).fill(comment)
    page.get_by_role("button", name="Save", exact=True).click()
    sync_api.expect(page.locator(f"#L{line} ~ tr.comment").first).to_contain_text(comment)


@pytest.mark.slow
def test_staff_grade_two_submissions_release_and_answer_the_student_s_regrade_request(served):
    base, tokens, numbers = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            errors, elsewhere = [], []
            staff = watched(chromium, errors, elsewhere, base)
            staff.goto(f"{base}/signin/{tokens['t1']}")
            staff.get_by_role("link", name="hog", exact=True).click()
            staff.get_by_role("link", name="grading by hand").click()
            staff.get_by_role("link", name="Next ungraded").click()
            sync_api.expect(staff.get_by_role("heading", level=1)).to_contain_text(f"submission {numbers['s1']}: s1")
            assert staff.locator("#L1 .k").first.inner_text() == "def"   # highlighted by Pygments
            grade(staff, "+2 Docstrings", "3", "total is never changed")
            sync_api.expect(staff.locator("#total")).to_contain_text("22 / 25")
            staff.screenshot(path=str(ARTIFACTS / "server-grading.png"), full_page=True)
            staff.get_by_role("link", name="Next ungraded").click()
            sync_api.expect(staff.get_by_role("heading", level=1)).to_contain_text(f"submission {numbers['s2']}: s2")
            grade(staff, "-1 Names say what they hold", "1", "roll_dice is a good name; num_rolls too")
            staff.get_by_role("link", name="hog", exact=True).click()
            sync_api.expect(staff.locator("#distribution")).to_contain_text("Docstrings")
            staff.get_by_role("button", name="Release the grades of hog").click()
            sync_api.expect(staff.locator("#released")).to_contain_text("Released")

            student = watched(chromium, errors, elsewhere, base)
            student.goto(f"{base}/signin/{tokens['s1']}")
            student.goto(f"{base}/submissions/{numbers['s1']}")
            sync_api.expect(student.locator("#review-total")).to_contain_text("Total: 22 / 25")
            sync_api.expect(student.locator("#rubric-items")).to_contain_text("+2 Docstrings")
            sync_api.expect(student.locator("#L3 ~ tr.comment").first).to_contain_text("total is never changed")
            student.get_by_label("Ask about").select_option("docs")
            student.get_by_label("Why").fill("every function has a docstring")
            student.get_by_role("button", name="Ask for a regrade").click()
            sync_api.expect(student.locator("#regrades")).to_contain_text("Waiting for an answer")

            staff.goto(f"{base}/staff/regrade-requests")
            request = staff.locator("article.regrade", has_text="every function has a docstring")
            request.get_by_label("Answer (what you changed, or why not)").fill("they do: kept at +2")
            request.get_by_role("button", name="Answer").click()
            sync_api.expect(staff.locator("table")).to_contain_text("they do: kept at +2")

            student.reload()
            sync_api.expect(student.locator("#regrades .answer")).to_have_text("they do: kept at +2")
            student.screenshot(path=str(ARTIFACTS / "server-review-student.png"), full_page=True)
            assert errors == [] and elsewhere == []
        finally:
            chromium.close()
