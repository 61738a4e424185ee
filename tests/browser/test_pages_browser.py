"""Every page of the course server as students and staff open it, in headless Chromium: at a phone's width
(390 px) and a laptop's (1280 px), light and dark by the system's setting, in a time zone other than the
server's (Asia/Shanghai, America/Los_Angeles). On each: nothing runs past the right edge, every time is
shown in the reader's zone, axe-core finds no violation, and no console error (a refusal of the pages'
policy among them). The staff gradebook sorted, filtered and searched by clicking and typing, its headings
reached by the keyboard. With ``--update-goldens``, screenshots of the main pages are written to
``docs/images/`` (the server guide shows them)."""

from __future__ import annotations

import signal
from importlib import resources

import pytest

from grader import project
# Chromium, Playwright and the server's libraries, or the module skips saying which is missing, as that one does.
from tests.browser.test_server_browser import CHROMIUM, sync_api

pytest.importorskip("axe_playwright_python", reason="axe-core's script: pip install -e '.[browser]'")

from tests.server.conftest import SOLUTION, issue, make_app, make_course   # noqa: E402
from tests.server.test_restart import post, start                     # noqa: E402

AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
SCREENSHOTS = project.ROOT / "docs" / "images"
# Each width in both colour schemes, each in one of the two zones: (width, scheme, zone, the zone's names).
LOOKS = [(390, "light", "Asia/Shanghai", ("GMT+8",)), (390, "dark", "America/Los_Angeles", ("PST", "PDT")),
         (1280, "light", "America/Los_Angeles", ("PST", "PDT")), (1280, "dark", "Asia/Shanghai", ("GMT+8",))]
STUDENT_PAGES = ["/", "/assignments/hog", "/submissions/1", "/assignments/hog/leaderboard"]
STAFF_PAGES = ["/staff/", "/staff/assignments/hog", "/staff/students/s1", "/staff/submissions/1", "/staff/lti",
               "/staff/assignments/hog/report", "/staff/assignments/hog/similarity", "/staff/assignments/hog/grading",
               "/staff/submissions/1/grade", "/staff/regrade-requests"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """hog serve over a course of three students (two graded, one who has not submitted) and a member of staff."""
    tmp_path = tmp_path_factory.mktemp("pages")
    course = make_course(tmp_path)
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace('name = "Server course"\n',
                                                 'name = "CS 88 Fall 2026"\ntime_zone = "America/Los_Angeles"\n'))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    server, base = start(course, tmp_path / "serve.log")
    try:
        for student in ("s1", "s3"):
            post(base, tokens[student], SOLUTION.read_bytes())
        yield base, tokens
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
        project.use()


def problems(page, path: str, zone_names: tuple[str, ...], errors: list) -> list:
    """What is wrong with one page: overflow past the edge, a time not in the reader's zone, axe-core's
    violations, console errors (none: [])."""
    page.goto(page.base + path)
    page.wait_for_load_state("load")
    found = []
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        past = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
                             " > window.innerWidth).slice(0, 3).map(e => e.tagName + '.' + e.className)")
        found.append(f"runs past the right edge: {past}")
    for text, moment in page.eval_on_selector_all("time[datetime]", "all => all.map(t => [t.textContent, t.dateTime])"):
        if text == moment or not any(name in text for name in zone_names):
            found.append(f"time {moment} shown as {text!r}")
    page.evaluate(AXE)   # evaluated by the browser's tools: the pages' policy does not apply to it
    found += page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                           ".map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)")
    found += errors
    errors.clear()
    return [(path, each) for each in found]


@pytest.mark.slow
@pytest.mark.parametrize("width, scheme, zone, zone_names", LOOKS, ids=[f"{w}-{s}-{z}" for w, s, z, _ in LOOKS])
def test_every_page_fits_shows_local_times_and_passes_axe(served, width, scheme, zone, zone_names):
    base, tokens = served
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        wrong = []
        try:
            for who, pages in (("s1", STUDENT_PAGES), ("t1", STAFF_PAGES)):
                context = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme,
                                               timezone_id=zone, locale="en-US")
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda message: message.type == "error" and errors.append(message.text))
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.base = base
                if who == "s1":   # the page that asks a person signed out to use their link (answered 401)
                    wrong += [each for each in problems(page, "/", zone_names, errors) if "status of 401" not in each[1]]
                page.goto(f"{base}/signin/{tokens[who]}")
                sync_api.expect(page.locator("#status, h1").first).to_be_visible()
                if who == "s1":   # the grade is in before the pages are looked at
                    page.goto(f"{base}/submissions/1")
                    sync_api.expect(page.locator("#status")).to_have_text("graded", timeout=120_000)
                wrong += [each for path in pages for each in problems(page, path, zone_names, errors)]
                context.close()
        finally:
            chromium.close()
    assert wrong == [], "\n".join(f"{path}: {what}" for path, what in wrong)


@pytest.mark.slow
def test_the_gradebook_is_sorted_filtered_and_searched_by_clicking_and_typing(served, request):
    base, tokens = served
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = chromium.new_page(viewport={"width": 1280, "height": 900}, timezone_id="Asia/Shanghai")
            page.goto(f"{base}/signin/{tokens['t1']}")
            page.goto(f"{base}/staff/submissions/1")
            page.goto(f"{base}/staff/assignments/hog")
            for graded in ("s1@", "s3@"):   # the live page shows both grades as they come in
                sync_api.expect(page.locator("#gradebook tbody tr", has_text=graded)).to_contain_text(
                    "graded", timeout=120_000)
            rows = page.locator("#gradebook tbody tr:visible td:first-child")
            sync_api.expect(rows).to_have_text(["s1", "s2", "s3"])
            assert page.locator("#gradebook th").first.inner_text() == "Student"
            heading = page.get_by_role("button", name="Student", exact=True)
            heading.click()
            sync_api.expect(page.locator("#gradebook th[data-key=student_id]")).to_have_attribute("aria-sort",
                                                                                                  "ascending")
            heading.click()   # again: the other way
            sync_api.expect(rows).to_have_text(["s3", "s2", "s1"])
            sync_api.expect(page.locator("#gradebook th[data-key=student_id]")).to_have_attribute("aria-sort",
                                                                                                  "descending")
            heading.focus()   # by the keyboard too
            page.keyboard.press("Enter")
            sync_api.expect(rows).to_have_text(["s1", "s2", "s3"])
            page.get_by_label("Status").select_option("no submission")
            sync_api.expect(rows).to_have_text(["s2"])
            page.get_by_label("Status").select_option("")
            page.get_by_label("Search students").fill("s3@")
            sync_api.expect(rows).to_have_text(["s3"])
            sync_api.expect(page.locator("#gradebook-shown")).to_have_text("1 of 3 shown")
            if request.config.getoption("--update-goldens"):
                page.get_by_label("Search students").fill("")
                _screenshots(chromium, base, tokens)
        finally:
            chromium.close()


def _screenshots(chromium, base: str, tokens: dict) -> None:
    """The main pages as the server guide shows them, light at 1280 px and dark on a phone."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = [("t1", "/staff/assignments/hog", "server-gradebook"), ("s1", "/submissions/1", "server-submission"),
             ("s1", "/", "server-home")]
    for width, scheme in ((1280, "light"), (390, "dark")):
        for who, path, name in shots:
            context = chromium.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme,
                                           timezone_id="America/Los_Angeles", locale="en-US")
            page = context.new_page()
            page.goto(f"{base}/signin/{tokens[who]}")
            page.goto(base + path)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}-{scheme}.png"), full_page=True)
            context.close()
