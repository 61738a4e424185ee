"""The platforms' key sets cannot stall the server: a fetch has an overall deadline (a key set trickling in
too), runs once per key set at a time with the others waiting for its answer, is remembered a while when it
fails, keeps a key set as its Cache-Control says within bounds; and with 50 launches waiting on a trickling
key set, pages and /healthz still answer."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlencode

import pytest
from joserfc.jwk import RSAKey

from grader.commands import serve
from grader.server.lti import keys
from tests.server.conftest import _TOOL_KEY
from tests.server.lti_platform import Platform
from tests.server.test_lti import LAUNCH, begun, register

URL = "https://lms.test/jwks"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    found = Clock()
    monkeypatch.setattr(keys.time, "monotonic", found)
    return found


KEY = RSAKey.import_key(_TOOL_KEY(), {"kid": "k1"})   # made once in a test process, and shared with the other tests of it


def published(age: float | None = None):
    return {"keys": [KEY.as_dict(private=False)]}, age


def test_launches_needing_one_key_set_at_once_share_one_fetch():
    release, calls = threading.Event(), []

    def fetch(url):
        calls.append(url)
        release.wait(10)
        return published()
    found = keys.PlatformKeys(fetch, waiting=8)
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(found.key_set(URL, KEY.kid)))
               for _ in range(8)]
    for each in threads:
        each.start()
    release.set()
    for each in threads:
        each.join(10)
    assert len(answers) == 8 and calls == [URL]


def test_more_launches_than_may_wait_are_refused_at_once():
    release = threading.Event()
    found = keys.PlatformKeys(lambda url: (release.wait(10), published())[1], waiting=1)
    waiting = threading.Thread(target=found.key_set, args=(URL, None))
    waiting.start()
    try:
        with pytest.raises(keys.KeysBusy):
            for _ in range(1000):   # until the first one waits
                found.key_set(URL, None)
    finally:
        release.set()
        waiting.join(10)


def test_a_failed_fetch_is_remembered_and_tried_again_later(clock):
    calls = []

    def fetch(url):
        calls.append(url)
        raise keys.KeysUnavailable(f"{url}: connection refused")
    found = keys.PlatformKeys(fetch)
    for _ in range(3):
        with pytest.raises(keys.KeysUnavailable, match="connection refused"):
            found.key_set(URL, "k")
    assert len(calls) == 1
    clock.now += keys.FAILURE_SECONDS + 1
    with pytest.raises(keys.KeysUnavailable):
        found.key_set(URL, "k")
    assert len(calls) == 2


@pytest.mark.parametrize("age, kept", [(0.0, keys.CACHE_BOUNDS[0]), (600.0, 600.0), (10.0 ** 9, keys.CACHE_BOUNDS[1]),
                                       (None, keys.DEFAULT_CACHE)])
def test_a_key_set_is_kept_as_its_cache_control_says_within_bounds(clock, age, kept):
    calls = []
    found = keys.PlatformKeys(lambda url: (calls.append(url), published(age))[1])
    kid = KEY.kid
    found.key_set(URL, kid)
    clock.now += kept - 1
    found.key_set(URL, kid)
    assert len(calls) == 1
    clock.now += 2
    found.key_set(URL, kid)
    assert len(calls) == 2


def test_cache_control_is_read_as_http_says():
    assert keys.max_age("public, max-age=300") == 300.0
    assert keys.max_age("no-store") == 0.0 and keys.max_age("") is None and keys.max_age("max-age=x") is None


class _Trickle(BaseHTTPRequestHandler):
    def do_GET(self):   # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        for _ in range(400):   # 20 s at most
            try:
                self.wfile.write(b" ")
                self.wfile.flush()
            except OSError:
                return
            self.server.stopping.wait(0.05)
            if self.server.stopping.is_set():
                return

    def log_message(self, *args):
        pass


def test_a_key_set_trickling_in_is_given_up_at_the_deadline(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Trickle)
    server.stopping = threading.Event()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        with pytest.raises(keys.KeysUnavailable, match="not answered whole within 0.3 s"):
            keys.fetch_json(f"http://127.0.0.1:{server.server_port}/jwks", seconds=0.3)
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_with_fifty_launches_waiting_on_a_trickling_key_set_pages_and_healthz_answer(app, course, monkeypatch):
    monkeypatch.setattr(keys, "FETCH_SECONDS", 3.0)
    platform = Platform(lambda: keys.tool_jwks(course / "server"))
    platform.redirect_uri, platform.trickle = LAUNCH, 0.05
    register(app, platform)
    server = serve.listening(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    where = f"http://127.0.0.1:{server.effective_port}"
    logins = [begun(app.test_client(), platform) for _ in range(50)]
    answers: list[int] = []

    def launch(state: str, nonce: str) -> None:
        form = urlencode({"id_token": platform.id_token(nonce), "state": state}).encode()
        try:
            with urllib.request.urlopen(urllib.request.Request(f"{where}/lti/launch", data=form), timeout=30) as got:
                answers.append(got.status)
        except urllib.error.HTTPError as error:
            answers.append(error.code)
    launches = [threading.Thread(target=launch, args=each) for each in logins]
    try:
        for each in launches:
            each.start()
        for _ in range(200):   # until the key set is being fetched
            if platform.jwks_fetches:
                break
            threading.Event().wait(0.01)
        for page in ("/healthz", "/", "/static/server.css"):   # well within 5 s (1 s here); nothing waits on the keys
            try:
                urllib.request.urlopen(f"{where}{page}", timeout=5).close()
            except urllib.error.HTTPError as error:
                assert error.code in (401, 404, 503)   # answered: signed out, or no grader alive
        for each in launches:
            each.join(30)
        assert len(answers) == 50 and set(answers) <= {401, 503} and platform.jwks_fetches == 1
    finally:
        server.close()
        platform.stop()


def test_a_launch_that_looked_before_another_s_fetch_ended_takes_its_keys_without_fetching_again():
    """Between a launch's look at what is kept (nothing yet) and its asking for a fetch, another launch's fetch
    may end: the later launch is answered by it, and the key set is fetched once."""
    calls = []
    found = keys.PlatformKeys(lambda url: calls.append(url) or published(), waiting=8)
    assert found.key_set(URL, KEY.kid) is not None
    late = found._begun(URL, None, None)   # as a launch that saw nothing kept, once the fetch has ended
    assert late.done.is_set() and late.kept is not None and calls == [URL]
