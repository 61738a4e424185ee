"""Deep linking (LTI Deep Linking 2.0): an instructor adding the tool in the LMS picks one of the course's
assignments on the tool's page, and the tool answers the LMS with a signed ``LtiDeepLinkingResponse``: a
resource link to that assignment (its URL, the custom parameter ``assignment=NAME``) with a line item for its
scores. The request's settings are checked here; the response is signed with the tool's key (joserfc)."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from joserfc import jwt

from grader.server.course import totals
from grader.server.lti.keys import ALGORITHM, tool_key
from grader.server.lti.platforms import checked_origin
from grader.spec import load_variant
from grader.spec.serving import Assignment

SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
RESPONSE_SECONDS = 300
SCALED_MAXIMUM = 100.0   # a line item's maximum where students' variants differ (the LMS scales each score)


@dataclass(frozen=True)
class Request:
    """Where the picked link goes back to, and what the LMS asked to have echoed: ``data_json`` its ``data``
    as JSON, whatever its type (None where it sent none); it goes back unchanged."""
    return_url: str
    data_json: str | None


def request(claims: dict) -> Request | None:
    """The deep linking request's settings, or None where they do not ask for a resource link (the caller
    refuses the launch then)."""
    settings = claims.get(SETTINGS)
    if not isinstance(settings, dict) or not isinstance(settings.get("deep_link_return_url"), str):
        return None
    if checked_origin(settings["deep_link_return_url"]) is None:   # its origin goes into the page's CSP
        return None
    accepted = settings.get("accept_types")
    if not isinstance(accepted, list) or "ltiResourceLink" not in accepted:
        return None
    data = json.dumps(settings["data"], separators=(",", ":"), ensure_ascii=False) if "data" in settings else None
    return Request(settings["deep_link_return_url"], data)


def maximum(assignment: Assignment) -> float:
    """The most an assignment's total is (``totals.total_max``: its variant's points and the rubric's positive
    points); a manifest's, whose variants differ: SCALED_MAXIMUM."""
    if not assignment.variant:
        return SCALED_MAXIMUM
    return totals.total_max(float(load_variant(assignment.variant).points), assignment.rubric.positive)


def response(server_folder: Path, *, url: str, issuer: str, client_id: str, deployment_id: str, asked: Request,
             assignment: Assignment) -> str:
    """The signed LtiDeepLinkingResponse linking ``assignment`` of the course at ``url``."""
    key, now = tool_key(server_folder), int(time.time())
    item = {"type": "ltiResourceLink", "title": assignment.name, "url": f"{url}/assignments/{assignment.name}",
            "custom": {"assignment": assignment.name},
            "lineItem": {"scoreMaximum": maximum(assignment), "label": assignment.name,
                         "resourceId": assignment.name}}
    claims = {"iss": client_id, "aud": issuer, "iat": now, "exp": now + RESPONSE_SECONDS,
              "nonce": secrets.token_urlsafe(16), CLAIM + "deployment_id": deployment_id,
              CLAIM + "message_type": "LtiDeepLinkingResponse", CLAIM + "version": "1.3.0",
              CONTENT_ITEMS: [item], **({DATA: json.loads(asked.data_json)} if asked.data_json is not None else {})}
    return jwt.encode({"alg": ALGORITHM, "kid": key.kid}, claims, key)
