"""A launch's id_token checked as LTI 1.3 and its Security Framework ask, and what it says: who (the platform's
``sub``, with email and name where given), in which role, for which assignment, and where the assignment's
line item is. Every check that fails raises ``Refused`` with the HTTP status and a reason a person can read;
the caller stores nothing then. The nonce's single use is the caller's (it is in the database). A deep
linking request (an instructor choosing what the LMS links to) is taken too (``deep_linking``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from joserfc import jws, jwt
from joserfc.errors import ExpiredTokenError, InvalidKeyIdError, JoseError

from grader.server.lti import deep_linking
from grader.server.lti.keys import ALGORITHM, KeysBusy, KeysUnavailable, PlatformKeys
from grader.server.lti.platforms import Registered
from grader.spec.serving import NAME

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST = "LtiResourceLinkRequest", "LtiDeepLinkingRequest"
VERSION = "1.3.0"
LEEWAY = 60   # seconds of clock difference taken for exp and iat
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
# The context (membership) roles that make staff, as full URIs and as the short names LTI 1.3 allows for
# context roles; nothing else (an institution or system role, a URI merely ending in #Instructor) does.
_STAFF = ("#Instructor", "#Administrator", "#ContentDeveloper", "#TeachingAssistant", "/Instructor#TeachingAssistant")
STAFF_ROLES = frozenset({MEMBERSHIP + each for each in _STAFF} | {"Instructor", "Administrator", "ContentDeveloper",
                                                                   "TeachingAssistant", "Instructor#TeachingAssistant"})
LEARNER_ROLES = frozenset({MEMBERSHIP + "#Learner", MEMBERSHIP + "/Learner#Learner", "Learner"})


class Refused(Exception):
    """A launch refused: ``status`` (400: not a launch this tool takes; 401: not to be trusted) and why."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status, self.why = status, why


@dataclass(frozen=True)
class Launch:
    issuer: str
    client_id: str
    deployment_id: str
    subject: str
    email: str
    name: str
    sourcedid: str          # the person's id in the institution's records (LIS), "" where not given
    staff: bool
    assignment: str | None  # the assignment chosen (custom assignment=NAME, or the target link's), if any
    resource_link_id: str | None
    lineitem: str | None    # AGS: where this assignment's scores go
    lineitems: str | None   # AGS: the context's line items (where lineitem is not given)
    deep_link: deep_linking.Request | None = None   # a deep linking request: an instructor picks an assignment
    context_id: str | None = None        # the LMS course launched from
    context_title: str = ""
    memberships_url: str | None = None   # Names and Role Provisioning: where the course's members are listed


def unverified(token: str) -> tuple[dict, dict]:
    """The header and claims of a compact JWS, before any check (to know whose keys verify it)."""
    try:
        found = jws.extract_compact(token.encode("ascii"))
        claims = jwt.JSONDecoder().decode(found.payload.decode("utf-8")) if found.payload else None
    except (JoseError, ValueError, UnicodeError):
        raise Refused(400, "the id_token is not a signed JWT") from None
    if not isinstance(claims, dict):
        raise Refused(400, "the id_token's claims are not a JSON object")
    return found.headers(), claims


def _platform(claims: dict, platforms: list[Registered]) -> Registered:
    """The registered platform the token is for: its issuer's, whose client id is the audience (or, among
    several audiences, the authorized party ``azp``)."""
    issuer = claims.get("iss")
    if not platforms:
        raise Refused(400, f"the issuer {issuer!r} is not a registered platform (hog serve lti add-platform)")
    audience = claims.get("aud")
    audiences = [audience] if isinstance(audience, str) else audience if isinstance(audience, list) else []
    clients = {platform.client_id: platform for platform in platforms}
    if len(audiences) > 1:
        if claims.get("azp") not in clients or claims.get("azp") not in audiences:
            raise Refused(401, "the id_token has several audiences and its azp is not this tool's client id")
        return clients[claims["azp"]]
    if not audiences or audiences[0] not in clients:
        raise Refused(401, f"the id_token is for the client {audience!r}, not this tool's")
    if "azp" in claims and claims["azp"] != audiences[0]:
        raise Refused(401, "the id_token's azp is not its audience")
    return clients[audiences[0]]


def _verified_claims(token: str, header: dict, platform: Registered, keys: PlatformKeys, nonce: str) -> dict:
    """The claims, once the signature is the platform's and exp, iat, iss and nonce hold."""
    if header.get("alg") != ALGORITHM:
        raise Refused(401, f"the id_token is signed with {header.get('alg')!r}, not {ALGORITHM}")
    try:
        key_set = keys.key_set(platform.jwks_url, header.get("kid"))
        claims = jwt.decode(token, key_set, algorithms=[ALGORITHM]).claims
    except KeysBusy:
        raise Refused(503, "the LMS's keys are being fetched for other launches: launch again in a few seconds") \
            from None
    except KeysUnavailable as error:
        raise Refused(401, f"the platform's keys could not be fetched ({error}): try again in a minute") from None
    except InvalidKeyIdError:
        raise Refused(401, "the id_token is signed with a key the platform does not publish") from None
    except (JoseError, ValueError):
        raise Refused(401, "the id_token's signature is not the platform's") from None
    registry = jwt.JWTClaimsRegistry(now=int(time.time()), leeway=LEEWAY, iss={"essential": True,
                                     "value": platform.issuer}, sub={"essential": True}, exp={"essential": True},
                                     iat={"essential": True}, nonce={"essential": True, "value": nonce})
    try:
        registry.validate(claims)
    except ExpiredTokenError:
        raise Refused(401, "the id_token has expired: launch again from the LMS") from None
    except JoseError as error:
        raise Refused(401, f"the id_token's claims do not hold: {error.description or error.error}") from None
    return claims


def staff_role(roles) -> bool | None:
    """True where a role of the launch is a staff role of its context (STAFF_ROLES, matched exactly), False
    for a Learner of it, None for neither. Institution and system roles (``institution/person#...``,
    ``system/person#...``) are never a role in the course."""
    given = {role for role in roles or () if isinstance(role, str)}
    if given & STAFF_ROLES:
        return True
    return False if given & LEARNER_ROLES else None


def chosen_assignment(claims: dict) -> str | None:
    """The assignment a launch is for: the custom parameter ``assignment``, else the target link URI's
    ``/assignments/NAME``; None for neither."""
    custom = claims.get(CLAIM + "custom")
    if isinstance(custom, dict) and isinstance(custom.get("assignment"), str) and custom["assignment"].strip():
        return custom["assignment"].strip()
    path = urlsplit(str(claims.get(CLAIM + "target_link_uri") or "")).path.rstrip("/").split("/")
    if len(path) >= 2 and path[-2] == "assignments" and NAME.fullmatch(path[-1]):
        return path[-1]
    return None


def verify(token: str, *, platforms: list[Registered], keys: PlatformKeys, nonce: str) -> Launch:
    """The launch ``token`` says, every check passed (``platforms``: those of its issuer; ``nonce``: the one
    its login state was sent with); Refused otherwise."""
    header, unchecked = unverified(token)
    platform = _platform(unchecked, platforms)
    claims = _verified_claims(token, header, platform, keys, nonce)
    deployment = claims.get(CLAIM + "deployment_id")
    if not isinstance(deployment, str) or deployment not in platform.deployments:
        raise Refused(400, f"the deployment {deployment!r} of {platform.issuer} is not registered "
                           f"(hog serve lti add-platform ... --deployment-id ID)")
    kind = claims.get(CLAIM + "message_type")
    if kind not in (RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST):
        raise Refused(400, f"the message type {kind!r} is neither {RESOURCE_LINK_REQUEST} nor {DEEP_LINKING_REQUEST}")
    if claims.get(CLAIM + "version") != VERSION:
        raise Refused(400, f"the LTI version {claims.get(CLAIM + 'version')!r} is not {VERSION}")
    if not isinstance(claims.get("sub"), str) or not claims["sub"].strip():
        raise Refused(400, "the id_token names no user (its sub is empty): an anonymous launch has no grade")
    staff = staff_role(claims.get(CLAIM + "roles"))
    if staff is None:
        raise Refused(403, "your role in this course is neither learner nor instructor, teaching assistant, "
                           "content developer or administrator: this tool has nothing for it")
    deep_link = deep_linking.request(claims) if kind == DEEP_LINKING_REQUEST else None
    if kind == DEEP_LINKING_REQUEST and (deep_link is None or not staff):
        raise Refused(400 if staff else 403, "a deep linking request is an instructor's, asking for a resource link "
                                             "(ltiResourceLink among its accept_types, and a deep_link_return_url "
                                             "that is an http(s) URL)")
    link = claims.get(CLAIM + "resource_link")
    ags = claims.get(AGS) if isinstance(claims.get(AGS), dict) else {}
    lis = claims.get(CLAIM + "lis") if isinstance(claims.get(CLAIM + "lis"), dict) else {}
    context = claims.get(CLAIM + "context") if isinstance(claims.get(CLAIM + "context"), dict) else {}
    nrps = claims.get(NRPS) if isinstance(claims.get(NRPS), dict) else {}
    text = lambda value: value if isinstance(value, str) else ""   # noqa: E731  (a claim that is a string, or "")
    said = Launch(platform.issuer, platform.client_id, deployment, text(claims["sub"]), text(claims.get("email")),
                  text(claims.get("name")), text(lis.get("person_sourcedid")), staff, chosen_assignment(claims),
                  text(link.get("id")) or None if isinstance(link, dict) else None,
                  text(ags.get("lineitem")) or None, text(ags.get("lineitems")) or None, deep_link,
                  text(context.get("id")) or None, text(context.get("title")),
                  text(nrps.get("context_memberships_url")) or None)
    _bounded(said)
    return said


# What a launch may store, at most (the columns' lengths, checked here on every database: SQLite keeps longer).
LONGEST = {"sub": ("subject", 255), "email": ("email", 320), "name": ("name", 255),
           "lis person_sourcedid": ("sourcedid", 200), "context id": ("context_id", 255),
           "context title": ("context_title", 255), "resource_link id": ("resource_link_id", 255),
           "AGS lineitem": ("lineitem", 2048), "AGS lineitems": ("lineitems", 2048),
           "NRPS context_memberships_url": ("memberships_url", 2048), "custom assignment": ("assignment", 64)}
LONGEST_RETURN_URL = 2048
LONGEST_DATA = 4096   # a deep linking request's data, as JSON


def _bounded(said: Launch) -> None:
    for claim, (field, most) in LONGEST.items():
        if len(getattr(said, field) or "") > most:
            raise Refused(400, f"its {claim} claim is longer than {most} characters, more than this tool keeps")
    if said.deep_link is not None and (len(said.deep_link.return_url) > LONGEST_RETURN_URL
                                       or len(said.deep_link.data_json or "") > LONGEST_DATA):
        raise Refused(400, f"its deep linking return URL or data is longer than this tool keeps "
                           f"({LONGEST_RETURN_URL} and {LONGEST_DATA} characters)")
