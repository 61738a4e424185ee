"""A launch from an LMS on another site, as real ones are (``lms.test`` framing ``tool.test``, both over https
with a certificate made here, both on 127.0.0.1), in Chromium with third-party cookies allowed and blocked:
allowed, the launch signs the student in inside the LMS's frame and its pages and upload work there; blocked,
the tool's cookies are partitioned (CHIPS) and it works there still; in a browser that refuses even those
(Safari), the frame says so and one click continues the launch in a window of its own, where they work.
Where the LMS offers its storage (``lti_storage_target``, answered by its page's script) and the browser refuses
the login's cookie, the login's state is read back from it and the launch signs in inside the frame; where the
session cookie is refused too, or the LMS's storage does not answer, one click opens the window of its own."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import threading
from wsgiref.simple_server import make_server

import pytest

from grader import project
from grader.server.lti import bindings, keys, platforms

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
if shutil.which("openssl") is None:
    pytest.skip("no openssl to make the test certificate with (apt-get install openssl)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Python Playwright is not installed (pip install -e '.[browser]')")
pytest.importorskip("flask", reason="the course server's libraries: pip install -e '.[server]'")

from tests.server.conftest import SOLUTION, make_app, make_course   # noqa: E402
from tests.server.lti_platform import Platform, _Quiet, _Server, login_query   # noqa: E402

SITES = ("lms.test", "tool.test")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--ignore-certificate-errors",
        "--host-resolver-rules=" + ", ".join(f"MAP {site} 127.0.0.1" for site in SITES)]

# A page answered by a Playwright route counts as from the public network, whose navigations to 127.0.0.1 (the
# LMS) Chromium would block as local network access.
ROUTED = "--disable-features=LocalNetworkAccessChecks"


@pytest.fixture
def certificate(tmp_path):
    """A certificate for both sites (and its key), trusted by this process's own https calls."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=lms.test",
                    "-addext", "subjectAltName=" + ",".join(f"DNS:{site}" for site in SITES),
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return cert, context


@pytest.fixture
def sites(tmp_path, certificate, monkeypatch):
    """The tool at https://tool.test:PORT (the course's app, in this process) and the LMS at https://lms.test:PORT,
    the LMS's course bound; this process resolves both names to 127.0.0.1 and trusts the certificate."""
    cert, tls = certificate
    resolve = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *rest, **named: resolve(
        "127.0.0.1" if host in SITES else host, *rest, **named))
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    course = make_course(tmp_path)
    tool = make_server("127.0.0.1", 0, None, server_class=_Server, handler_class=_Quiet)
    tool.socket = tls.wrap_socket(tool.socket, server_side=True)
    base = f"https://tool.test:{tool.server_port}"
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace('url = "http://hog.test"', f'url = "{base}"'))
    app = make_app(course, f"sqlite:///{course / 'server' / 'hog.sqlite3'}")
    tool.set_app(app)
    threading.Thread(target=tool.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    platform = Platform(lambda: keys.tool_jwks(course / "server"), tls=tls, host="lms.test")
    platform.redirect_uri = f"{base}/lti/launch"
    with app.config["hog.settings"].sessions() as session, session.begin():
        platforms.add(session, **platform.registration())
        session.flush()
        bindings.link(session, issuer=platform.url, deployment_id=platform.deployment_id, context_id="course-7")
    platform.framed = f"{base}/lti/login?{login_query(platform, f'{base}/assignments/hog')}"
    yield base, platform
    tool.shutdown()
    tool.server_close()
    platform.stop()
    app.config["hog.settings"].engine.dispose()
    project.use()


def _submitted_in(where) -> None:
    """The assignment's page signed in, an upload sent from it, and its submission's page shown."""
    sync_api.expect(where.get_by_role("heading", name="hog")).to_be_visible(timeout=20_000)
    sync_api.expect(where.locator("nav")).to_contain_text("lti:")
    where.locator("input[name=file]").set_input_files(str(SOLUTION))
    where.get_by_role("button", name="Submit").click()
    sync_api.expect(where.locator("#status")).to_have_text("queued", timeout=20_000)


@contextlib.contextmanager
def lms_course_page(platform: Platform, tmp_path, *, blocked: bool, partitioned: bool = True, before=None):
    """The LMS's course page (the tool in its frame) in Chromium with its third-party cookies allowed or
    blocked (its profile's setting, as a user sets it), and partitioned cookies (CHIPS) kept or, as by a
    browser that has none, refused; and the browser (``before(browser)`` before the page opens)."""
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    refused = {} if partitioned else {"content_settings": {"exceptions": {"cookies": {   # the tool's, under the LMS
        "[*.]tool.test,[*.]lms.test": {"setting": 2}}}}}
    (profile / "Default" / "Preferences").write_text(json.dumps({"profile": {
        "cookie_controls_mode": 1 if blocked else 0, "block_third_party_cookies": blocked, **refused}}))
    with sync_api.sync_playwright() as playwright:
        args = ARGS if before is None else [*ARGS, ROUTED]
        browser = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=args,
                                                                ignore_https_errors=True)
        try:
            if before is not None:
                before(browser)
            page = browser.new_page()
            page.goto(f"{platform.url}/course")
            yield page, browser
        finally:
            browser.close()


@pytest.mark.slow
def test_across_sites_with_third_party_cookies_allowed_the_launch_signs_in_inside_the_lms_s_frame(sites, tmp_path):
    with lms_course_page(sites[1], tmp_path, blocked=False) as (page, _):
        _submitted_in(page.frame_locator("iframe[title=Hog]"))


@pytest.mark.slow
def test_across_sites_with_third_party_cookies_blocked_the_tool_s_partitioned_cookies_sign_in_inside_the_frame(
        sites, tmp_path):
    with lms_course_page(sites[1], tmp_path, blocked=True) as (page, _):
        _submitted_in(page.frame_locator("iframe[title=Hog]"))


@pytest.mark.slow
def test_a_browser_refusing_the_tool_s_cookies_in_the_frame_continues_in_a_window_of_its_own_in_one_click(
        sites, tmp_path):
    with lms_course_page(sites[1], tmp_path, blocked=True, partitioned=False) as (page, browser):
        frame = page.frame_locator("iframe[title=Hog]")
        sync_api.expect(frame.get_by_role("heading", name="Open Hog in a new window")).to_be_visible(timeout=20_000)
        with browser.expect_page() as opened:
            frame.get_by_role("link", name="Open Hog in a new window").click()
        _submitted_in(opened.value)


def _without_the_state_cookie(route) -> None:
    """The login's answer without its state cookie: as a browser that refused it in the frame (fetched by
    Playwright itself, which resolves tool.test by no rule of Chromium's: at 127.0.0.1)."""
    host = route.request.url.split("/")[2]
    answer = route.fetch(url=route.request.url.replace(host, "127.0.0.1:" + host.rsplit(":", 1)[1], 1),
                         headers={**route.request.headers, "host": host})
    route.fulfill(response=answer, headers={name: value for name, value in answer.headers.items()
                                            if name.lower() != "set-cookie"})


@pytest.mark.slow
def test_where_the_state_cookie_is_refused_the_lms_s_platform_storage_signs_in_inside_the_frame(sites, tmp_path):
    base, platform = sites
    platform.storage = True
    platform.framed += "&lti_storage_target=_parent"
    with lms_course_page(platform, tmp_path, blocked=True, partitioned=True, before=lambda browser: browser.route(
            f"{base}/lti/login?*", _without_the_state_cookie)) as (page, _):
        _submitted_in(page.frame_locator("iframe[title=Hog]"))
        assert page.evaluate("window.lmsHeard").count("lti.put_data") == 1
        assert page.evaluate("window.lmsHeard").count("lti.get_data") == 1


@pytest.mark.slow
def test_where_every_cookie_of_the_tool_is_refused_platform_storage_checks_the_login_then_a_window_of_its_own(
        sites, tmp_path):
    _, platform = sites
    platform.storage = True
    platform.framed += "&lti_storage_target=_parent"
    with lms_course_page(platform, tmp_path, blocked=True, partitioned=False) as (page, browser):
        frame = page.frame_locator("iframe[title=Hog]")
        sync_api.expect(frame.get_by_role("heading", name="Open Hog in a new window")).to_be_visible(timeout=20_000)
        assert "lti.get_data" in page.evaluate("window.lmsHeard")
        with browser.expect_page() as opened:
            frame.get_by_role("link", name="Open Hog in a new window").click()
        _submitted_in(opened.value)


@pytest.mark.slow
def test_an_lms_naming_a_storage_that_does_not_answer_falls_back_to_a_window_of_its_own(sites, tmp_path):
    _, platform = sites
    platform.framed += "&lti_storage_target=_parent"   # and no responder on its page
    with lms_course_page(platform, tmp_path, blocked=True, partitioned=False) as (page, browser):
        frame = page.frame_locator("iframe[title=Hog]")
        sync_api.expect(frame.get_by_role("heading", name="Open Hog in a new window")).to_be_visible(timeout=20_000)
        sync_api.expect(frame.locator("#why")).to_contain_text("timeout")
        with browser.expect_page() as opened:
            frame.get_by_role("link", name="Open Hog in a new window").click()
        _submitted_in(opened.value)
