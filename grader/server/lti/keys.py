"""Keys: the tool's own RSA key pair, made once in ``server/`` (readable by its owner alone; backed up with
the rest of the folder) and published at ``/lti/jwks``; the platforms' key sets, fetched from their JWKS URLs
and kept as their Cache-Control says (within bounds), fetched again when a token names a key not among them
(a platform rotating its keys). A fetch cannot stall the server: it has an overall deadline, runs once per
key set at a time, is remembered a while when it fails, and only a few requests wait on fetches at once."""

from __future__ import annotations

import functools
import json
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from joserfc.jwk import KeySet, RSAKey

from grader.project.files import kept_secret

TOOL_KEY = "lti_tool_key.pem"   # server/lti_tool_key.pem: signs the tool's client assertions
KEY_BITS = 2048
ALGORITHM = "RS256"             # what LTI 1.3 signs with
FETCH_SECONDS = 10.0            # a platform's key set answers whole within this, or the launch is refused
LARGEST_KEY_SET = 1 << 20       # bytes
CHUNK = 64 * 1024
REFETCH_SECONDS = 5.0           # a key set is fetched again for an unknown kid at most this often
FAILURE_SECONDS = 30.0          # a fetch that failed is not tried again for this long (launches refused at once)
WAITING = 4                     # requests waiting on key sets at once (of hog serve's 16 threads); others refused
CACHE_BOUNDS = (60.0, 86400.0)  # a key set is kept as long as its Cache-Control says, within these seconds
DEFAULT_CACHE = 3600.0          # where it says nothing


class KeysUnavailable(Exception):
    """A platform's key set could not be fetched or read."""


class KeysBusy(KeysUnavailable):
    """As many launches as may wait on key sets wait already: this one is refused at once."""


def _made() -> str:
    return RSAKey.generate_key(KEY_BITS, private=True).as_pem(private=True).decode("ascii")


def tool_key(server_folder: Path) -> RSAKey:
    """The tool's private key (made the first time), with its kid: the key's RFC 7638 thumbprint."""
    return _imported(kept_secret(Path(server_folder) / TOOL_KEY, _made))


@functools.lru_cache(maxsize=8)
def _imported(pem: str) -> RSAKey:
    """The key of ``pem``, imported once (an RSA key's import costs tens of milliseconds; a launch, a deep
    linking response and each client assertion ask for it)."""
    key = RSAKey.import_key(pem)
    return RSAKey.import_key(key.as_dict(private=True), {"kid": key.thumbprint(), "alg": ALGORITHM, "use": "sig"})


def tool_jwks(server_folder: Path) -> dict:
    """The tool's public key set, as ``/lti/jwks`` serves it."""
    return {"keys": [tool_key(server_folder).as_dict(private=False)]}


def fetch_json(url: str, *, limit: int = LARGEST_KEY_SET, seconds: float = FETCH_SECONDS) -> tuple[dict, float | None]:
    """The JSON document at ``url`` (a GET) read whole within ``seconds`` (an answer trickling in too: checked
    after each read, each of which waits at most ``seconds``), and the max-age its Cache-Control gives (None:
    none); KeysUnavailable saying why not."""
    deadline = time.monotonic() + seconds
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=seconds) as answer:
            body, caching = b"", answer.headers.get("Cache-Control", "")
            while len(body) <= limit:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise KeysUnavailable(f"{url}: not answered whole within {seconds:g} s")
                chunk = answer.read1(CHUNK)
                if not chunk:
                    break
                body += chunk
    except (OSError, ValueError) as error:
        raise KeysUnavailable(f"{url}: {error}") from None
    if len(body) > limit:
        raise KeysUnavailable(f"{url}: over {limit} bytes")
    try:
        return json.loads(body), max_age(caching)
    except ValueError:
        raise KeysUnavailable(f"{url}: not JSON") from None


def max_age(cache_control: str) -> float | None:
    """The ``max-age`` of a Cache-Control header (0 for no-store or no-cache), None where it gives none."""
    found = None
    for part in cache_control.lower().split(","):
        name, _, value = part.strip().partition("=")
        if name in ("no-store", "no-cache"):
            return 0.0
        if name == "max-age" and value.strip().isdigit():
            found = float(value.strip())
    return found


@dataclass(frozen=True)
class _Kept:
    keys: KeySet
    kids: frozenset[str]
    fetched: float     # time.monotonic() of the fetch
    until: float       # kept until then (Cache-Control, within CACHE_BOUNDS)


class _Fetch:
    """A fetch of one key set under way, in a thread of its own: launches waiting for it wait on ``done``."""

    def __init__(self):
        self.done, self.kept, self.failure = threading.Event(), None, None


class PlatformKeys:
    """The key sets of platforms, by JWKS URL, as last fetched; shared by the web process's threads. One fetch
    per URL at a time, in a thread of its own (those who need it wait for it, each within FETCH_SECONDS); a
    failure remembered for FAILURE_SECONDS (launches then refused at once); at most WAITING requests wait on
    fetches at once, others refused at once (KeysBusy), so that pages always have threads to answer with."""

    def __init__(self, fetch=fetch_json, *, waiting: int = WAITING):
        self._fetch, self._lock = fetch, threading.Lock()
        self._known: dict[str, _Kept] = {}
        self._failed: dict[str, tuple[float, str]] = {}
        self._fetches: dict[str, _Fetch] = {}
        self._waiting = threading.BoundedSemaphore(waiting)

    def key_set(self, url: str, kid: str | None) -> KeySet:
        """The key set at ``url``: the one kept while its Cache-Control allows, fetched again where it lacks
        ``kid`` (not more often than REFETCH_SECONDS)."""
        now = time.monotonic()
        with self._lock:
            known, failed = self._known.get(url), self._failed.get(url)
        if known is not None and now < known.until and (kid in known.kids or now - known.fetched < REFETCH_SECONDS):
            return known.keys
        if failed is not None and now < failed[0]:
            if known is not None:
                return known.keys
            raise KeysUnavailable(f"{failed[1]} (tried again {failed[0] - now:.0f} s from now)")
        if not self._waiting.acquire(blocking=False):
            raise KeysBusy(f"{url}: being fetched for other launches")
        try:
            fetch = self._begun(url, known, failed)
            if not fetch.done.wait(FETCH_SECONDS):
                raise KeysUnavailable(f"{url}: not answered within {FETCH_SECONDS:g} s")
        finally:
            self._waiting.release()
        if fetch.kept is not None:
            return fetch.kept.keys
        if known is not None:   # the keys kept before, while the platform's key set does not answer
            return known.keys
        raise KeysUnavailable(fetch.failure)

    def _begun(self, url: str, seen: _Kept | None, seen_failure: tuple | None) -> _Fetch:
        """The fetch of ``url`` under way, or one begun; a fetch that ended since the caller looked (what is
        kept, or the failure remembered, is no longer what it saw) answers with its outcome, never fetched again
        at once."""
        with self._lock:
            fetch = self._fetches.get(url)
            kept, failed = self._known.get(url), self._failed.get(url)
            if fetch is None and (kept is not seen or failed is not seen_failure) and (kept or failed):
                fetch = _Fetch()
                fetch.kept = kept if kept is not seen else None
                fetch.failure = failed[1] if fetch.kept is None and failed is not None else None
                fetch.done.set()
            elif fetch is None:
                fetch = self._fetches[url] = _Fetch()
                threading.Thread(target=self._run, args=(url, fetch), name="hog-jwks", daemon=True).start()
        return fetch

    def _run(self, url: str, fetch: _Fetch) -> None:
        try:
            data, age = self._fetch(url)
            try:
                found = KeySet.import_key_set({"keys": [key for key in data.get("keys", [])
                                                        if isinstance(key, dict) and key.get("kty") == "RSA"]})
            except Exception as error:   # joserfc's errors for a malformed key are of several kinds
                raise KeysUnavailable(f"{url}: not a key set ({error})") from None
            now = time.monotonic()
            low, high = CACHE_BOUNDS
            fetch.kept = _Kept(found, frozenset(key.kid for key in found.keys if key.kid), now,
                               now + min(max(age if age is not None else DEFAULT_CACHE, low), high))
        except (KeysUnavailable, AttributeError, TypeError) as error:
            fetch.failure = str(error) if isinstance(error, KeysUnavailable) else f"{url}: not a key set"
        with self._lock:
            if fetch.kept is not None:
                self._known[url] = fetch.kept
                self._failed.pop(url, None)
            else:
                self._failed[url] = (time.monotonic() + FAILURE_SECONDS, fetch.failure)
            self._fetches.pop(url, None)
        fetch.done.set()
