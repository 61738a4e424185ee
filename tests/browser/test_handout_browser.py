"""The HTML handout in headless Chromium: rules, examples and questions are visible, on a desktop
and on a phone, and the page loads nothing from elsewhere than its folder (the stylesheets written beside
it). At 390 and 1280 px, light and dark by the system's setting: nothing runs past the right edge and
axe-core finds no violation, as on the course server's pages."""

from importlib import resources
from pathlib import Path

import pytest

from grader.publishing import build, handout
from grader.spec import all_variants

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")

VARIANTS = all_variants()
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield chromium
        chromium.close()


def open_handout(browser, variant, folder, viewport, scheme="light", heatmap=None):
    """The page, written with its stylesheets beside it as ``hog build`` and ``hog assign`` write them, and
    the list of every address it asks for that is not in its folder."""
    path = folder / f"handout-{variant.id}.html"
    path.write_text(handout.render(variant, "html", build.solution_source(variant), heatmap), encoding="utf-8")
    for name, text in handout.sheets().items():
        (folder / name).write_text(text, encoding="utf-8")
    page = browser.new_page(viewport=viewport, color_scheme=scheme)
    elsewhere = []
    beside = folder.as_uri() + "/"
    page.on("request", lambda request: request.url.startswith(beside) or elsewhere.append(request.url))
    page.goto(path.as_uri())
    return page, elsewhere


LOOKS = [(width, scheme) for width in (390, 1280) for scheme in ("light", "dark")]


@pytest.mark.slow
@pytest.mark.parametrize("width, scheme", LOOKS, ids=[f"{w}-{s}" for w, s in LOOKS])
def test_it_fits_and_passes_axe_at_both_widths_in_both_schemes(browser, width, scheme, tmp_path):
    """Every variant's students' edition, and one instructor's edition (the picture of the optimal strategy)."""
    axe = pytest.importorskip("axe_playwright_python", reason="axe-core's script: pip install -e '.[browser]'")
    script = (resources.files(axe) / "axe.min.js").read_text(encoding="utf-8")
    wrong = []
    editions = [(variant, None) for variant in VARIANTS] + [(VARIANTS[0], build.optimal_heatmap(VARIANTS[0]))]
    for variant, heatmap in editions:
        page, elsewhere = open_handout(browser, variant, tmp_path, {"width": width, "height": 900}, scheme, heatmap)
        name = variant.id + (" (instructors)" if heatmap else "")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == (
            "rgb(33, 37, 41)" if scheme == "dark" else "rgb(255, 255, 255)")   # Bootstrap's, by the system
        if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
            past = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect()"
                                 ".right > window.innerWidth).slice(0, 3).map(e => e.tagName + '.' + e.className)")
            wrong.append(f"{name}: runs past the right edge: {past}")
        page.evaluate(script)
        wrong += [f"{name}: {each}" for each in page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)")]
        wrong += [f"{name}: asked for {url}" for url in elsewhere]
        page.close()
    assert wrong == [], "\n".join(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_rules_examples_and_questions_are_visible(browser, variant, tmp_path):
    page, elsewhere = open_handout(browser, variant, tmp_path, DESKTOP)
    rules = page.locator(".rule h3")
    assert rules.all_inner_texts() == [rule.name for rule in variant.rules]
    for index in range(rules.count()):
        rules.nth(index).scroll_into_view_if_needed()
        assert rules.nth(index).is_visible()
    for question in variant.questions:
        title = page.locator(f"#{question.key} h4")
        title.scroll_into_view_if_needed()
        assert title.is_visible()
        assert title.inner_text() == f"Question {question.label}: {question.title}"
    example = page.locator("figure.example pre").first
    example.scroll_into_view_if_needed()
    assert example.is_visible()
    assert example.inner_text().startswith(">>> from hog import *\n>>> ")
    page.screenshot(path=str(tmp_path / f"handout-{variant.id}-desktop.png"), full_page=True)
    assert elsewhere == []
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_a_phone_reads_it_without_scrolling_sideways(browser, variant, tmp_path):
    page, _ = open_handout(browser, variant, tmp_path, PHONE)
    width, visible = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= visible, f"the page is {width}px wide on a {visible}px screen"
    body = page.locator("main")
    assert body.bounding_box()["width"] <= PHONE["width"]
    shot = tmp_path / f"handout-{variant.id}-phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.close()


@pytest.mark.slow
def test_printing_hides_the_contents_and_wraps_sessions(browser, tmp_path):
    variant = VARIANTS[0]
    page, _ = open_handout(browser, variant, tmp_path, DESKTOP)
    page.emulate_media(media="print")
    assert not page.locator("nav.contents").is_visible()
    wrap = page.locator("figure.example pre").first.evaluate("node => getComputedStyle(node).whiteSpace")
    assert wrap == "pre-wrap"
    page.pdf(path=str(tmp_path / f"handout-{variant.id}.pdf"))
    assert (tmp_path / f"handout-{variant.id}.pdf").stat().st_size > 10_000
    page.close()
