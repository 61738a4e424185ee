"""A login where the platform offers its storage (``lti_storage_target``): the login's page keeps the state
there, and a launch whose state cookie did not come back is signed in only with the value the signed state
names (the browser side: tests/browser/test_lti_cross_site.py)."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

from tests.server.lti_platform import login_query
from tests.server.test_lti import counts, platform  # noqa: F401 (a fixture)

HERE = {"Origin": "http://hog.test"}   # the tool's own page posts its form
FIELD = re.compile(r'(data-[a-z]+|name="[a-z_]+" value)="([^"]*)"')


def _fields(page: str) -> dict:
    return {name.removeprefix("data-").removeprefix('name="').removesuffix('" value'): html.unescape(value)
            for name, value in FIELD.findall(page)}


def _signed_in(client) -> bool:
    return client.get("/").status_code != 401


def _stored_login(client, platform) -> dict:   # noqa: F811
    """A login with platform storage: its page's fields (the key and value it stores, the authorization URL)."""
    answer = client.get(f"/lti/login?{login_query(platform)}&lti_storage_target=_parent")
    assert answer.status_code == 200 and "Set-Cookie" in answer.headers
    page = answer.get_data(as_text=True)
    assert '<script src="/static/lti_storage.js"' in page and "<script>" not in page
    fields = _fields(page)
    assert fields["step"] == "put" and fields["target"] == "_parent" and fields["origin"] == platform.url
    sent = parse_qs(urlsplit(fields["next"]).query)
    assert fields["value"] == sent["nonce"][0] and fields["key"].startswith("state_")
    return {**fields, "state": sent["state"][0], "nonce": sent["nonce"][0]}


def _storage_page(platform, login: dict) -> dict:   # noqa: F811
    """The launch without its state cookie: the page asking the platform's storage, and its fields."""
    cookieless = login["app"].test_client()
    answer = cookieless.post("/lti/launch", data={"id_token": platform.id_token(login["nonce"]),
                                                   "state": login["state"]})
    assert answer.status_code == 200 and not _signed_in(cookieless)
    fields = _fields(answer.get_data(as_text=True))
    assert fields["step"] == "get" and fields["key"] == login["key"] and fields["origin"] == platform.url
    return fields


def test_a_launch_without_its_cookie_is_signed_in_by_the_value_kept_in_the_lms_s_storage(app, platform):  # noqa: F811
    login = {**_stored_login(app.test_client(), platform), "app": app}
    fields = _storage_page(platform, login)
    browser = app.test_client()
    answer = browser.post("/lti/launch/storage", data={"id_token": fields["id_token"], "state": fields["state"],
                                                        "value": login["value"], "failed": ""}, headers=HERE)
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/lti/signed-in?")
    landed = browser.get(answer.headers["Location"])
    assert landed.status_code == 303 and landed.headers["Location"] == "/assignments/hog"
    assert _signed_in(browser)
    again = app.test_client().get(answer.headers["Location"])   # the session cookie refused: a window of its own
    assert again.status_code == 401 and 'id="new-window"' in again.get_data(as_text=True)


def test_the_platform_s_storage_giving_a_wrong_value_or_none_signs_nobody_in_and_says_why(app, platform):  # noqa: F811
    for value, failed, why in (("not-the-nonce", "", "is not the one this login stored"),
                               ("", "", "is not the one this login stored"),
                               ("", "timeout", "did not give the login&#39;s value back (timeout)")):
        login = {**_stored_login(app.test_client(), platform), "app": app}
        fields = _storage_page(platform, login)
        before = counts(app)
        browser = app.test_client()
        answer = browser.post("/lti/launch/storage", data={"id_token": fields["id_token"], "state": fields["state"],
                                                            "value": value, "failed": failed}, headers=HERE)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 401 and why in page and 'id="new-window"' in page, page
        assert not _signed_in(browser) and counts(app) == before


def test_the_value_counts_only_for_a_login_that_used_the_platform_s_storage(app, platform):  # noqa: F811
    browser = app.test_client()
    answer = browser.get(f"/lti/login?{login_query(platform)}")
    sent = parse_qs(urlsplit(answer.headers["Location"]).query)
    nonce, state = sent["nonce"][0], sent["state"][0]
    answer = app.test_client().post("/lti/launch/storage", data={"id_token": platform.id_token(nonce),
                                                                  "state": state, "value": nonce}, headers=HERE)
    assert answer.status_code == 401 and "did not use the LMS" in answer.get_data(as_text=True)


def test_the_value_posted_by_a_page_of_another_site_signs_nobody_in(app, platform):  # noqa: F811
    """A site that began a login of its own knows its value, and could post it from its page (login CSRF)."""
    login = {**_stored_login(app.test_client(), platform), "app": app}
    fields = _storage_page(platform, login)
    for headers in ({}, {"Origin": "https://evil.test"}):
        browser = app.test_client()
        answer = browser.post("/lti/launch/storage", data={"id_token": fields["id_token"], "state": fields["state"],
                                                            "value": login["value"], "failed": ""}, headers=headers)
        assert answer.status_code == 403 and "not posted by this tool" in answer.get_data(as_text=True)
        assert not _signed_in(browser)
