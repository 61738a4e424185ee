"""The class report and the contest page in headless Chromium: no console errors, nothing loaded
from elsewhere, the figures visible; screenshots kept in $CI_ARTIFACTS (or tests/artifacts/)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from grader import project
from grader.contest.entrants import Entrant
from grader.contest.standings import standings
from grader.contest.tournament import Contest, page
from grader.report import classroom, style
from grader.spec import load_variant
from tests.report.test_report_classroom import VARIANT, craft


CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")

ARTIFACTS = Path(os.environ.get("CI_ARTIFACTS") or project.ROOT / "tests" / "artifacts")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield chromium
        chromium.close()


def open_page(browser, path: Path):
    """The page, the console errors and the addresses it asked for that are not the file itself."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors, elsewhere = [], []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    beside = path.parent.as_uri() + "/"   # the stylesheets written beside the page
    page.on("request", lambda request: request.url == path.as_uri() or request.url.startswith(beside)
            or elsewhere.append(request.url))
    page.goto(path.as_uri())
    return page, errors, elsewhere


@pytest.mark.slow
def test_the_class_report_opens_without_errors(browser, tmp_path):
    full = {q.label: q.points for q in VARIANT.questions}
    craft(tmp_path, "ada", full, rate=0.66, seconds=2.0)
    craft(tmp_path, "bo", {**full, "5": 0.0}, failed=[("5", "sp19-q05-3", "(12, 8)")], rate=0.61, seconds=4.5)
    craft(tmp_path, "cy", {"1": full["1"]}, failed=[("5", "sp19-q05-3", "(12, 8)")], rate=0.52, seconds=1.0)
    html, _ = classroom.write(tmp_path)
    page, errors, elsewhere = open_page(browser, html)
    assert page.locator("#scores rect.bar").count() == classroom.score_bins(VARIANT.points)[1]
    assert page.locator("#questions tbody tr").count() == len(VARIANT.questions)
    stuck = page.locator("#stuck").inner_text()
    assert "sp19-q05-3: 2 submissions; 2 of them returned (12, 8)" in stuck
    assert page.locator("#win-rates").is_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "class-report.png"), full_page=True)
    assert errors == [] and elsewhere == []
    page.close()


@pytest.mark.slow
def test_the_contest_page_opens_without_errors(browser, tmp_path):
    names = ["six", "bacon", "four"]
    rates = np.array([[0.5, 0.507, 0.532], [0.493, 0.5, 0.521], [0.468, 0.479, 0.5]])
    entrants = [Entrant(name, name, [[4]]) for name in names] + [Entrant("loops", "x", None, "Timeout")]
    html = tmp_path / "contest.html"
    html.write_text(page(Contest(load_variant("sp19"), entrants, standings(names, rates), rates, 0, 0.0)))
    style.write_beside(tmp_path)   # as run_contest writes them
    view, errors, elsewhere = open_page(browser, html)
    assert view.locator("#leaderboard tbody tr").all_inner_texts()[0].split("\t")[:3] == ["1", "six", "2"]
    assert view.locator("#matrix rect").count() == 6
    assert "Timeout" in view.locator("#disqualified").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / "contest.png"), full_page=True)
    assert errors == [] and elsewhere == []
    view.close()
