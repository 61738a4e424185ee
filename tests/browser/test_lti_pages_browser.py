"""The pages the LTI tool shows, reached in headless Chromium through the test platform as an LMS reaches them:
a launch refused (a login that names no platform), a launch from an LMS course the server is not bound to, the
page that asks to continue in a new window (the browser sent no state cookie with the launch, as one that blocks
third-party cookies does), and the deep linking page where an instructor picks the assignment. At 390 and
1280 px, light and dark by the system's setting: nothing runs past the right edge and axe-core finds no
violation, as on the course server's other pages (tests/browser/test_pages_browser.py)."""

from __future__ import annotations

import pytest

from tests.browser.test_lti_browser import CHROMIUM, served, sync_api   # noqa: F401 (served: the fixture)
from tests.server.lti_platform import CLAIM, INSTRUCTOR, login_query

axe_playwright_python = pytest.importorskip("axe_playwright_python",
                                            reason="axe-core's script: pip install -e '.[browser]'")
from tests.browser.test_pages_browser import AXE   # noqa: E402

LOOKS = [(width, scheme) for width in (390, 1280) for scheme in ("light", "dark")]


def deep_linking(platform) -> dict:
    """The claims of an instructor's deep linking request, as when the tool is added to the LMS's course."""
    return {CLAIM + "message_type": "LtiDeepLinkingRequest",
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
                "deep_link_return_url": f"{platform.url}/deep_links", "accept_types": ["ltiResourceLink"]}}


def look(page) -> list[str]:
    """What is wrong with the page shown: overflow past the edge, axe-core's violations (none: [])."""
    page.wait_for_load_state("load")
    found = []
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        past = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
                             " > window.innerWidth).slice(0, 3).map(e => e.tagName + '.' + e.className)")
        found.append(f"runs past the right edge: {past}")
    page.evaluate(AXE)
    found += page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                           ".map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)")
    return found


def launch(page, base: str, platform, target: str = "/assignments/hog") -> None:
    """The LMS's launch, top level: the tool's login, the platform's authorization, its form post back."""
    page.goto(f"{base}/lti/login?{login_query(platform, base + target)}")
    page.wait_for_url(f"{base}/**", wait_until="load")   # back from the platform's form post


def cookie_refused(context):
    """The tool's login answered without the cookie it sets, as a browser refusing third-party cookies keeps none
    (the fetch keeps it in the context's cookies: dropped from there too)."""
    def answered(route):
        answer = route.fetch(max_redirects=0)
        context.clear_cookies()
        route.fulfill(response=answer, headers={name: value for name, value in answer.headers.items()
                                                if name.lower() != "set-cookie"})
    return answered


@pytest.mark.slow
def test_the_lti_pages_fit_and_pass_axe_at_both_widths_in_both_schemes(served):
    _, base, platform = served
    wrong = []
    student = dict(platform.user)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            for width, scheme in LOOKS:
                def check(name: str, heading: str, says: str, context) -> None:
                    page = context.pages[0]
                    sync_api.expect(page.locator("h1")).to_have_text(heading)
                    sync_api.expect(page.locator("main")).to_contain_text(says)
                    wrong.extend(f"{width} {scheme} {name}: {each}" for each in look(page))
                    context.close()

                def fresh():
                    context = chromium.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                    context.new_page()
                    return context

                context = fresh()   # a launch refused: a login that names no platform
                context.pages[0].goto(f"{base}/lti/login")
                check("refused", "Launch refused", "a login needs iss", context)

                platform.user, platform.launch_claims = dict(student), {}
                context = fresh()   # the launch came without the login's cookie
                context.pages[0].route(lambda url: "/lti/login?" in url, cookie_refused(context))
                launch(context.pages[0], base, platform)
                check("new window", "Open Hog in a new window", "third-party cookies", context)

                context = fresh()   # a launch from an LMS course the server is not bound to
                platform.launch_claims = {CLAIM + "context": {"id": f"course-{width}-{scheme}", "title": "CS 99"}}
                launch(context.pages[0], base, platform)
                check("unbound", "Launch refused", "hog serve lti link --issuer", context)

                context = fresh()   # an instructor adds the tool: the deep linking page
                platform.user = dict(student, sub="canvas-teacher", email="t1@example.edu", roles=[INSTRUCTOR])
                platform.launch_claims = deep_linking(platform)
                launch(context.pages[0], base, platform, "/")
                check("pick", "Link an assignment", "Link past", context)
        finally:
            chromium.close()
    assert wrong == [], "\n".join(wrong)
