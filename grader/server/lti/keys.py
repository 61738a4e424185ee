"""Keys: the tool's own RSA key pair, made once in ``server/`` (readable by its owner alone; backed up with
the rest of the folder) and published at ``/lti/jwks``; the platforms' key sets, fetched from their JWKS URLs
and kept, fetched again when a token names a key not among them (a platform rotating its keys)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

from joserfc.jwk import KeySet, RSAKey

from grader.project.files import kept_secret

TOOL_KEY = "lti_tool_key.pem"   # server/lti_tool_key.pem: signs the tool's client assertions
KEY_BITS = 2048
ALGORITHM = "RS256"             # what LTI 1.3 signs with
FETCH_SECONDS = 10.0            # a platform's key set answers within this, or the launch is refused
LARGEST_KEY_SET = 1 << 20       # bytes
REFETCH_SECONDS = 5.0           # a key set is fetched again for an unknown kid at most this often


class KeysUnavailable(Exception):
    """A platform's key set could not be fetched or read."""


def _made() -> str:
    return RSAKey.generate_key(KEY_BITS, private=True).as_pem(private=True).decode("ascii")


def tool_key(server_folder: Path) -> RSAKey:
    """The tool's private key (made the first time), with its kid: the key's RFC 7638 thumbprint."""
    key = RSAKey.import_key(kept_secret(Path(server_folder) / TOOL_KEY, _made))
    return RSAKey.import_key(key.as_dict(private=True), {"kid": key.thumbprint(), "alg": ALGORITHM, "use": "sig"})


def tool_jwks(server_folder: Path) -> dict:
    """The tool's public key set, as ``/lti/jwks`` serves it."""
    return {"keys": [tool_key(server_folder).as_dict(private=False)]}


def fetch_json(url: str, *, limit: int = LARGEST_KEY_SET, timeout: float = FETCH_SECONDS) -> dict:
    """The JSON document at ``url`` (a GET), or KeysUnavailable saying why not."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read(limit + 1)
    except (OSError, ValueError) as error:
        raise KeysUnavailable(f"{url}: {error}") from None
    if len(body) > limit:
        raise KeysUnavailable(f"{url}: over {limit} bytes")
    try:
        return json.loads(body)
    except ValueError:
        raise KeysUnavailable(f"{url}: not JSON") from None


class PlatformKeys:
    """The key sets of platforms, by JWKS URL, as last fetched; shared by the web process's threads."""

    def __init__(self, fetch=fetch_json):
        self._fetch, self._lock = fetch, threading.Lock()
        self._known: dict[str, tuple[KeySet, set[str], float]] = {}

    def key_set(self, url: str, kid: str | None) -> KeySet:
        """The key set at ``url``, fetched again where it lacks ``kid`` (not more often than REFETCH_SECONDS)."""
        with self._lock:
            known = self._known.get(url)
        if known is not None and (kid in known[1] or time.monotonic() - known[2] < REFETCH_SECONDS):
            return known[0]
        data = self._fetch(url)
        try:
            found = KeySet.import_key_set({"keys": [key for key in data.get("keys", []) if key.get("kty") == "RSA"]})
        except Exception as error:   # joserfc's errors for a malformed key are of several kinds
            raise KeysUnavailable(f"{url}: not a key set ({error})") from None
        kids = {key.kid for key in found.keys if key.kid}
        with self._lock:
            self._known[url] = (found, kids, time.monotonic())
        return found
