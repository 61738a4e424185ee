"""Assignment and Grade Services 2.0, the tool's side: an access token obtained with the client-credentials
grant and a JWT client assertion (RFC 7523) signed by the tool's key, kept until it expires; a score posted
to a line item; a line item found (or made) among a context's where a launch named no line item; the
members of an LMS course (Names and Role Provisioning 2.0). A service URL is called, with the platform's token,
only on the platform's origins (``Registered.serves_at``). HTTP is the standard library's; every failure is ``Failed`` with what the platform answered."""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

from joserfc import jwt

from grader.server.lti.keys import ALGORITHM, tool_key
from grader.server.lti.platforms import Registered

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
MEMBERSHIP_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
MEMBERSHIP_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
MEMBER_PAGES = 1000      # pages of a course's members read at most
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
CONTAINER_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
ASSERTION_SECONDS = 300
TOKEN_MARGIN = 60        # a token is asked for again this many seconds before it expires
HTTP_SECONDS = 20.0      # a platform answers within this, or the try fails (and is made again later)
LARGEST_ANSWER = 1 << 20
log = logging.getLogger("hog.lti")


class Failed(Exception):
    """A call to the platform that did not succeed: why, as a person reads it on the staff pages."""


def _call(method: str, url: str, *, body: bytes | None = None, headers: dict,
          answered: dict | None = None) -> tuple[int, bytes]:
    """The status and body of a request (``answered``, where given, gets the answer's headers)."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=HTTP_SECONDS) as answer:
            if answered is not None:
                answered.update(answer.headers.items())
            return answer.status, answer.read(LARGEST_ANSWER)
    except urllib.error.HTTPError as error:
        return error.code, error.read(LARGEST_ANSWER) if error.fp is not None else b""
    except (OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise Failed(f"{method} {url}: no answer ({reason})") from None


def _json(status: int, body: bytes, what: str) -> object:
    try:
        return json.loads(body)
    except ValueError:
        raise Failed(f"{what} answered {status} with what is not JSON: {body[:200]!r}") from None


def with_path(url: str, suffix: str, query: dict | None = None) -> str:
    """``url`` with ``suffix`` added to its path (its query kept) and ``query`` added to its query."""
    parts = urlsplit(url)
    extra = urlencode(query or {})
    joined = "&".join(each for each in (parts.query, extra) if each)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + suffix, joined, ""))


def timestamp(moment: datetime) -> str:
    """ISO 8601 with milliseconds and the time zone, as AGS asks."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Client:
    """Calls to the platforms, signed with the tool's key in ``server_folder``; tokens kept per platform and
    scopes until shortly before they expire. Shared by the sender's calls (one at a time, or threads)."""

    def __init__(self, server_folder: Path):
        self._folder, self._lock = Path(server_folder), threading.Lock()
        self._tokens: dict[tuple[str, str, str], tuple[str, float]] = {}

    def _assertion(self, platform: Registered) -> str:
        key, now = tool_key(self._folder), int(time.time())
        return jwt.encode({"alg": ALGORITHM, "kid": key.kid},
                          {"iss": platform.client_id, "sub": platform.client_id, "aud": platform.token_url,
                           "iat": now, "exp": now + ASSERTION_SECONDS, "jti": secrets.token_hex(16)}, key)

    def token(self, platform: Registered, scopes: tuple[str, ...]) -> str:
        """An access token for ``scopes`` on ``platform``: the one kept, or a new one."""
        cache = (platform.token_url, platform.client_id, " ".join(scopes))
        with self._lock:
            kept = self._tokens.get(cache)
        if kept is not None and kept[1] > time.monotonic():
            return kept[0]
        form = urlencode({"grant_type": "client_credentials", "client_assertion_type": ASSERTION_TYPE,
                          "client_assertion": self._assertion(platform), "scope": " ".join(scopes)}).encode()
        status, body = _call("POST", platform.token_url, body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"})
        if status != 200:
            raise Failed(f"the platform's token endpoint answered {status}: {body[:200].decode('utf-8', 'replace')}")
        answer = _json(status, body, "the platform's token endpoint")
        if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            raise Failed("the platform's token endpoint answered without an access_token")
        lifetime = answer.get("expires_in") if isinstance(answer.get("expires_in"), (int, float)) else 3600
        with self._lock:
            self._tokens[cache] = (answer["access_token"], time.monotonic() + max(0.0, lifetime - TOKEN_MARGIN))
        return answer["access_token"]

    def forget(self, platform: Registered) -> None:
        """Drop the platform's tokens (one it refused)."""
        with self._lock:
            for cache in [each for each in self._tokens if each[:2] == (platform.token_url, platform.client_id)]:
                del self._tokens[cache]

    def _authorized(self, platform: Registered, scopes: tuple[str, ...], method: str, url: str, *,
                    body: bytes | None = None, headers: dict, answered: dict | None = None) -> tuple[int, bytes]:
        if not platform.serves_at(url):   # a launch's or a page's URL elsewhere never gets the platform's token
            log.warning("LTI service URL refused: %s %s is not on the origins of %s (%s)", method, url[:300],
                        platform.issuer, ", ".join(sorted(platform.service_origins)))
            raise Failed(f"{url[:300]} is not on the platform's origins ({', '.join(sorted(platform.service_origins))})"
                         f": not called, no token sent (hog serve lti add-platform ... --service-origin ORIGIN "
                         f"where the LMS's services are elsewhere)")
        status, answer = _call(method, url, body=body, answered=answered,
                               headers={**headers, "Authorization": f"Bearer {self.token(platform, scopes)}"})
        if status in (401, 403):
            self.forget(platform)   # the next try asks for a token again
        return status, answer

    def post_score(self, platform: Registered, lineitem: str, *, user: str, score: float, maximum: float,
                   when: datetime) -> None:
        """``POST {lineitem}/scores``: the user's score, completed and fully graded."""
        body = json.dumps({"userId": user, "scoreGiven": score, "scoreMaximum": maximum,
                           "activityProgress": "Completed", "gradingProgress": "FullyGraded",
                           "timestamp": timestamp(when)}).encode()
        status, answer = self._authorized(platform, (SCORE_SCOPE,), "POST", with_path(lineitem, "/scores"),
                                          body=body, headers={"Content-Type": SCORE_TYPE})
        if not 200 <= status < 300:
            raise Failed(f"the platform answered the score with {status}: {answer[:200].decode('utf-8', 'replace')}")

    def lineitem_for(self, platform: Registered, lineitems: str, *, assignment: str, resource_link_id: str | None,
                     maximum: float) -> str:
        """The URL of the assignment's line item among the context's (``resourceId`` the assignment's name),
        made where there is none."""
        scopes = (LINEITEM_SCOPE, SCORE_SCOPE)
        listed = with_path(lineitems, "", {"resource_id": assignment})
        status, answer = self._authorized(platform, scopes, "GET", listed, headers={"Accept": CONTAINER_TYPE})
        if status != 200:
            raise Failed(f"the platform answered the line items' list with {status}")
        items = _json(status, answer, "the line items' list")
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and item.get("resourceId") == assignment and isinstance(item.get("id"), str):
                return item["id"]
        made = {"scoreMaximum": maximum, "label": assignment, "resourceId": assignment,
                **({"resourceLinkId": resource_link_id} if resource_link_id else {})}
        status, answer = self._authorized(platform, scopes, "POST", lineitems, body=json.dumps(made).encode(),
                                          headers={"Content-Type": LINEITEM_TYPE, "Accept": LINEITEM_TYPE})
        item = _json(status, answer, "the new line item") if 200 <= status < 300 else None
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise Failed(f"the platform answered the new line item with {status}")
        return item["id"]

    def members(self, platform: Registered, memberships_url: str) -> list[dict]:
        """Names and Role Provisioning: every member of the LMS course, page after page (``Link: rel=next``)."""
        found, url, pages = [], memberships_url, 0
        while url and pages < MEMBER_PAGES:
            answered: dict = {}
            status, answer = self._authorized(platform, (MEMBERSHIP_SCOPE,), "GET", url, answered=answered,
                                              headers={"Accept": MEMBERSHIP_TYPE})
            if status != 200:
                raise Failed(f"the platform answered the course's members with {status}")
            page = _json(status, answer, "the course's members")
            found += [each for each in (page.get("members") if isinstance(page, dict) else None) or []
                      if isinstance(each, dict)]
            url, pages = _next(answered.get("Link", "")), pages + 1
        return found


def _next(link: str) -> str | None:
    """The ``rel="next"`` URL of a Link header, if any."""
    for part in link.split(","):
        address, _, parameters = part.partition(";")
        if 'rel="next"' in parameters.replace(" ", "") or "rel=next" in parameters.replace(" ", ""):
            return address.strip().strip("<>")
    return None
