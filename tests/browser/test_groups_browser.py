"""Groups in headless Chromium against a running ``hog serve``: two students form a group on their pages (one
invites, the other accepts), one uploads, both see the grade; the staff's gradebook shows both rows, each with
the group's name and score; no console errors."""

from __future__ import annotations

import signal

import pytest

from grader import project
from tests.browser.test_server_browser import CHROMIUM, GRADED_WITHIN_MS, sync_api, watched
from tests.server.conftest import SOLUTION, issue, make_app, make_course
from tests.server.test_restart import start


@pytest.fixture
def served(tmp_path):
    course = make_course(tmp_path)
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("[assignments.hog]\n", "[assignments.hog]\ngroup_size = 2\n"))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    server, base = start(course, tmp_path / "serve.log")
    yield base, tokens
    server.send_signal(signal.SIGTERM)
    server.wait(20)
    project.use()


@pytest.mark.slow
def test_two_students_form_a_group_one_uploads_both_see_the_grade_and_staff_see_both_rows(served):
    base, tokens = served
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            errors, elsewhere = [], []
            one, two = (watched(chromium, errors, elsewhere, base) for _ in range(2))
            for page, who in ((one, "s1"), (two, "s2")):
                page.goto(f"{base}/signin/{tokens[who]}")
                page.get_by_role("link", name="hog", exact=True).click()
            one.get_by_label("Invite a partner (student id or email)").fill("s2@example.edu")
            one.get_by_role("button", name="Invite").click()
            sync_api.expect(one.locator("form.invited")).to_contain_text("You invited s2")
            two.reload()
            sync_api.expect(two.locator("form.invited-by")).to_contain_text("s1 (s1@example.edu) invited you")
            two.get_by_role("button", name="Accept").click()
            sync_api.expect(two.locator("#group")).to_contain_text("s1, s2")
            one.reload()
            sync_api.expect(one.locator("#group")).to_contain_text("s1, s2")
            group = one.locator("#group-name").inner_text()

            one.set_input_files("input[name=file]", str(SOLUTION))
            one.get_by_role("button", name="Submit").click()
            one.wait_for_url("**/submissions/*")
            sync_api.expect(one.locator("#status")).to_have_text("graded", timeout=GRADED_WITHIN_MS)
            sync_api.expect(one.locator("#score")).to_have_text("Score: 23 / 23")
            two.goto(one.url)
            sync_api.expect(two.locator("#score")).to_have_text("Score: 23 / 23")
            sync_api.expect(two.locator("#submitted-by")).to_have_text("s1")

            staff = watched(chromium, errors, elsewhere, base)
            staff.goto(f"{base}/signin/{tokens['t1']}")
            staff.get_by_role("link", name="hog", exact=True).click()
            # the columns by their names in gradebook.csv (each heading's data-key; its text is for people)
            head = staff.locator("#gradebook thead th").evaluate_all("all => all.map(th => th.dataset.key)")
            for who in ("s1", "s2"):
                cells = staff.locator("#gradebook tr", has_text=f"{who}@example.edu").locator("td").all_inner_texts()
                row = dict(zip(head, cells))
                assert (row["score"], row["group"], row["total"]) == ("23.0", group, "23.0")
            assert errors == [] and elsewhere == []
        finally:
            chromium.close()
