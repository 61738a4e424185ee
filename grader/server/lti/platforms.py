"""The platforms (LMSs) the tool is registered with, and their deployments: ``hog serve lti add-platform``,
``list``, ``remove`` and ``trust-email``; where their services may be (their URLs' origins); the origins allowed to frame the tool's pages; what ``hog serve lti config`` prints
for an LMS administrator (the tool's URLs, and Canvas's JSON developer-key configuration)."""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, selectinload

from grader.errors import UsageError
from grader.server.store.models import Deployment, Platform

FRAMERS_SECONDS = 10.0   # how long the framing origins are kept before the table is read again
SCOPES = ("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
          "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/score",
          "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly")
LOGIN, LAUNCH, JWKS = "/lti/login", "/lti/launch", "/lti/jwks"
LONGEST = 255   # characters of an issuer, a client id, a deployment id or a context id (their columns')


HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")


def checked_origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) ``url``, nothing else (no user, no other character), or None
    where it has none: what may be placed in a header."""
    try:
        parts = urlsplit(url or "")
        port = parts.port
    except ValueError:
        return None
    host = parts.netloc.rpartition("@")[2].rsplit(":", 1)[0] if port is not None else parts.netloc.rpartition("@")[2]
    if parts.scheme not in ("https", "http") or "@" in parts.netloc or not HOST.fullmatch(host):
        return None
    return f"{parts.scheme}://{host.lower()}" + (f":{port}" if port is not None else "")


def origin(url: str) -> str:
    """The scheme and host (and port) of ``url`` ("" where it has no valid origin)."""
    return checked_origin(url) or ""


def _checked_url(url: str, option: str) -> str:
    if checked_origin(url) is None or any(ord(each) < 33 or ord(each) == 127 for each in url):
        raise UsageError(f"{option} {url!r} is not an http(s) URL: give the address the LMS's documentation "
                         f"names, e.g. https://canvas.instructure.com")
    return url


def add(session: Session, *, issuer: str, client_id: str, deployment_id: str, auth_url: str, token_url: str,
        jwks_url: str, lms_url: str | None = None, trust_email: bool | None = None,
        service_origins: tuple[str, ...] = ()) -> tuple[Platform, bool]:
    """Record a platform and one deployment of it (a platform already known by issuer and client id gets its
    addresses updated and the deployment added); (the platform, whether the deployment is new).
    ``trust_email``: its emails are verified (None: as recorded, else off); ``service_origins``: where its
    services (AGS, NRPS) may be besides the origins of its URLs."""
    for value, option in ((issuer, "--issuer"), (auth_url, "--auth-url"), (token_url, "--token-url"),
                          (jwks_url, "--jwks-url"), *(((lms_url, "--lms-url"),) if lms_url else ()),
                          *((each, "--service-origin") for each in service_origins)):
        _checked_url(value, option)
    for each in service_origins:
        if origin(each) != each.rstrip("/"):
            raise UsageError(f"--service-origin {each!r} is not an origin: give scheme://host[:port] alone, "
                             f"e.g. https://school.instructure.com")
    if not client_id or not deployment_id:
        raise UsageError("--client-id and --deployment-id are what the LMS shows once the tool is registered there")
    for value, option in ((issuer, "--issuer"), (client_id, "--client-id"), (deployment_id, "--deployment-id"),
                          (lms_url or "", "--lms-url")):
        if len(value) > LONGEST:
            raise UsageError(f"{option} is longer than {LONGEST} characters: give the value the LMS shows")
    platform = session.scalars(select(Platform).where(Platform.issuer == issuer, Platform.client_id == client_id)
                               .options(selectinload(Platform.deployments))).first()
    if platform is None:
        platform = Platform(issuer=issuer, client_id=client_id, deployments=[])
        session.add(platform)
    platform.auth_url, platform.token_url, platform.jwks_url = auth_url, token_url, jwks_url
    platform.lms_url = origin(lms_url or issuer)
    if trust_email is not None:
        platform.trust_email = trust_email
    platform.trust_email = bool(platform.trust_email)
    platform.service_origins = " ".join(sorted({*(platform.service_origins or "").split(), *map(origin, service_origins)}))
    new = deployment_id not in {each.deployment_id for each in platform.deployments}
    if new:
        platform.deployments.append(Deployment(deployment_id=deployment_id))
    return platform, new


def remove(session: Session, *, issuer: str, client_id: str | None, deployment_id: str | None) -> str:
    """Forget a deployment (``deployment_id``), or a platform with all its deployments; what was removed.
    Launches already recorded keep their scores: those not yet sent wait, shown to staff, for the platform
    to be added again."""
    query = select(Platform).where(Platform.issuer == issuer).options(selectinload(Platform.deployments))
    found = list(session.scalars(query.where(Platform.client_id == client_id) if client_id else query))
    if not found:
        raise UsageError(f"no platform {issuer!r}{f' with client id {client_id!r}' if client_id else ''} "
                         f"(hog serve lti list shows those registered)")
    if len(found) > 1 and deployment_id is None:
        raise UsageError(f"{issuer} is registered with {len(found)} client ids: give --client-id "
                         f"({', '.join(p.client_id for p in found)})")
    if deployment_id is None:
        session.delete(found[0])
        return f"the platform {issuer} (client id {found[0].client_id}) and its deployments"
    for platform in found:
        for deployment in platform.deployments:
            if deployment.deployment_id == deployment_id:
                platform.deployments.remove(deployment)
                return f"the deployment {deployment_id} of {issuer}"
    raise UsageError(f"{issuer} has no deployment {deployment_id!r} (hog serve lti list shows them)")


@dataclass(frozen=True)
class Registered:
    """A platform as a launch checks it."""
    issuer: str
    client_id: str
    auth_url: str
    token_url: str
    jwks_url: str
    deployments: frozenset[str]
    trust_email: bool = False
    service_origins: frozenset[str] = frozenset()   # where its AGS and NRPS services may be

    def serves_at(self, url: str) -> bool:
        """Whether ``url`` is on one of the platform's origins (an http(s) URL)."""
        return urlsplit(url).scheme in ("https", "http") and origin(url) in self.service_origins


def registered(session: Session, issuer: str, client_id: str | None = None) -> list[Registered]:
    """The platforms of ``issuer`` (and ``client_id`` where given)."""
    query = select(Platform).where(Platform.issuer == issuer).options(selectinload(Platform.deployments))
    if client_id is not None:
        query = query.where(Platform.client_id == client_id)
    return [Registered(p.issuer, p.client_id, p.auth_url, p.token_url, p.jwks_url,
                       frozenset(d.deployment_id for d in p.deployments), bool(p.trust_email),
                       frozenset({*map(origin, (p.issuer, p.auth_url, p.token_url, p.jwks_url, p.lms_url)),
                                  *p.service_origins.split()})) for p in session.scalars(query)]


def trust_email(session: Session, *, issuer: str, on: bool) -> int:
    """Whether the emails of ``issuer``'s platforms are verified (joining a launch to the roster's person by
    email); how many platforms were changed."""
    found = list(session.scalars(select(Platform).where(Platform.issuer == issuer)))
    if not found:
        raise UsageError(f"no platform {issuer!r} (hog serve lti list shows those registered)")
    for platform in found:
        platform.trust_email = on
    return len(found)


def listed(session: Session) -> list[str]:
    """One line per platform: issuer, client id, deployments, and its addresses."""
    lines = []
    for p in session.scalars(select(Platform).options(selectinload(Platform.deployments)).order_by(Platform.issuer)):
        deployments = ", ".join(sorted(d.deployment_id for d in p.deployments)) or "none"
        lines.append(f"{p.issuer}  client id {p.client_id}  deployments {deployments}\n"
                     f"    auth {p.auth_url}\n    token {p.token_url}\n    jwks {p.jwks_url}\n"
                     f"    framed by {p.lms_url}\n"
                     f"    emails {'trusted (joined to the roster by email)' if p.trust_email else 'not trusted'}"
                     + (f"\n    services also at {p.service_origins}" if p.service_origins else ""))
    return lines


class Framers:
    """The origins whose pages may frame the tool (each platform's LMS), read from the table at most every
    FRAMERS_SECONDS: the Content-Security-Policy names them, and a platform added while the server runs is
    framed within that time."""

    def __init__(self, engine: Engine):
        self._engine, self._lock = engine, threading.Lock()
        self._known: tuple[str, ...] = ()
        self._read = -FRAMERS_SECONDS

    def __call__(self) -> tuple[str, ...]:
        with self._lock:
            if time.monotonic() - self._read < FRAMERS_SECONDS:
                return self._known
        try:
            with Session(self._engine) as session:
                found = tuple(sorted({each for each in session.scalars(select(Platform.lms_url))
                                      if checked_origin(each) == each}))
        except Exception:   # a database that does not answer: the origins last read, not asked again at once
            found = self._known
        with self._lock:
            self._known, self._read = found, time.monotonic()
        return found


def config_text(url: str, title: str) -> str:
    """What an LMS administrator enters to register the tool at ``url`` (the course's public address)."""
    canvas = {
        "title": title, "description": f"{title}: the Hog project, submitted and graded",
        "oidc_initiation_url": url + LOGIN, "target_link_uri": url + LAUNCH, "public_jwk_url": url + JWKS,
        "scopes": list(SCOPES),
        "extensions": [{"platform": "canvas.instructure.com", "privacy_level": "public", "domain": urlsplit(url).netloc,
                        "settings": {"placements": [
                            {"placement": "link_selection", "message_type": "LtiDeepLinkingRequest",
                             "target_link_uri": url + "/"},
                            {"placement": "assignment_selection", "message_type": "LtiDeepLinkingRequest",
                             "target_link_uri": url + "/"}]}}]}
    return (f"Login (OIDC initiation) URL:  {url}{LOGIN}\n"
            f"Redirect (launch) URL:        {url}{LAUNCH}\n"
            f"Public keyset (JWKS) URL:     {url}{JWKS}\n"
            f"Target link URI:              {url}/assignments/NAME  (one per assignment; or {url}/ with the custom "
            f"parameter assignment=NAME)\n"
            f"Services: Assignment and Grade Services (scores), Names and Role Provisioning; share name and email\n"
            f"\nCanvas developer key (LTI key, Method: Paste JSON); add {url}{LAUNCH} as its Redirect URI:\n"
            f"{json.dumps(canvas, indent=2)}\n")
