"""An LTI 1.3 platform for the tests, on 127.0.0.1 (over https where given a TLS context), built with joserfc as the tool is: its key set at /jwks; an
OIDC authorization endpoint (/auth) that checks the login's redirect and form-posts a signed id_token back to
the tool's launch URL; a token endpoint (/token) that takes only a client assertion signed by a key of the
tool's /lti/jwks; line items (/lineitems) that record the scores posted to them, and that can be made to
answer 503 (``down``), as an LMS down for hours would; where a deep linking response returns (/deep_links),
checked against the tool's keys."""

from __future__ import annotations

import functools
import html
import json
import secrets
import socketserver
import ssl
import threading
import time
import urllib.request
from urllib.parse import parse_qs, urlencode
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TEACHING_ASSISTANT = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
TRICKLE_SECONDS = 20.0


class _Server(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@functools.cache
def platform_key(number: int = 1) -> RSAKey:
    """Platform ``number``'s signing key (a test that rotates it gives the platform a new one)."""
    return RSAKey.generate_key(2048, private=True, auto_kid=True)


# The LMS page's platform storage (LTI Client Side postMessages): what a tool's frame puts, kept in the page's
# memory per origin and key, and given back; every message it answered in window.lmsHeard.
STORAGE = """<script>
window.lmsHeard = [];
var kept = {};
window.addEventListener("message", function (event) {
  var asked = event.data;
  if (!asked || typeof asked !== "object" || typeof asked.subject !== "string") { return; }
  var answer = {subject: asked.subject + ".response", message_id: asked.message_id};
  if (asked.subject === "lti.capabilities") {
    answer.supported_messages = [{subject: "lti.put_data"}, {subject: "lti.get_data"}];
  } else if (asked.subject === "lti.put_data") {
    kept[event.origin + " " + asked.key] = asked.value;
    answer.key = asked.key; answer.value = asked.value;
  } else if (asked.subject === "lti.get_data") {
    answer.key = asked.key; answer.value = kept[event.origin + " " + asked.key];
  } else { return; }
  window.lmsHeard.push(asked.subject);
  event.source.postMessage(answer, event.origin);
});
</script>"""


class Platform:
    """The platform; ``tool_jwks()`` gives the tool's public key set (fetched from its /lti/jwks where
    ``tool_jwks`` is a URL). ``user`` is who launches next; ``scores`` what the line items received."""

    def __init__(self, tool_jwks, *, client_id: str = "hog-tool", deployment_id: str = "deployment-1", number: int = 1,
                 tls: ssl.SSLContext | None = None, host: str = "127.0.0.1"):
        self.key = platform_key(number)   # one per test process and platform: a new RSA key takes 50-150 ms
        self.tool_jwks = tool_jwks
        self.client_id, self.deployment_id = client_id, deployment_id
        self.user = {"sub": "canvas-user-1", "email": "s1@example.edu", "name": "Sam One", "roles": [LEARNER]}
        self.target = "/assignments/hog"
        self.scores: list[tuple[str, dict]] = []        # (line item, score) as received
        self.lineitems: dict[str, dict] = {"1": {"id": "", "label": "hog", "scoreMaximum": 23}}
        self.down = False
        self.trickle = 0.0                # > 0: its key set answers a byte that often, for TRICKLE_SECONDS at most
        self.jwks_fetches = 0
        self.tokens: set[str] = set()
        self.assertions_checked = 0
        self.redirect_uri = ""            # the tool's launch URL, as registered
        self.framed = ""                  # what the LMS's course page (/course) shows in its frame
        self.storage = False              # its course page answers lti.put_data and lti.get_data (platform storage)
        self.launch_claims: dict = {}     # what the next launches' id_tokens carry besides (a deep linking request)
        self.deep_links: list[dict] = []  # the claims of each deep linking response received, checked
        self.members = [                  # the LMS course's members (Names and Role Provisioning), two pages
            {"user_id": "canvas-user-1", "email": "s1@example.edu", "roles": [LEARNER], "status": "Active"},
            {"user_id": "canvas-user-2", "email": "s2@example.edu", "lis_person_sourcedid": "2002",
             "roles": [LEARNER], "status": "Active"},
            {"user_id": "canvas-teacher", "email": "t1@example.edu", "roles": [INSTRUCTOR]},
            {"user_id": "canvas-user-3", "email": "s3@example.edu", "roles": [LEARNER], "status": "Inactive"}]
        self._server = make_server("127.0.0.1", 0, self._app, server_class=_Server, handler_class=_Quiet)
        if tls is not None:   # over https (``host`` resolving to 127.0.0.1), as an LMS on a site of its own
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self.url = f"{'https' if tls else 'http'}://{host}:{self._server.server_port}"
        self.lineitems["1"]["id"] = f"{self.url}/lineitems/1"
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def registration(self) -> dict:
        """What hog serve lti add-platform is given."""
        return dict(issuer=self.url, client_id=self.client_id, deployment_id=self.deployment_id,
                    auth_url=f"{self.url}/auth", token_url=f"{self.url}/token", jwks_url=f"{self.url}/jwks")

    def claims(self, sent_nonce: str, **changes) -> dict:
        """A resource link launch's claims for ``user``, with ``changes`` (None: the claim left out)."""
        now = int(time.time())
        claims = {"iss": self.url, "aud": self.client_id, "sub": self.user["sub"], "iat": now, "exp": now + 300,
                  "nonce": sent_nonce, "email": self.user["email"], "name": self.user["name"],
                  CLAIM + "message_type": "LtiResourceLinkRequest", CLAIM + "version": "1.3.0",
                  CLAIM + "deployment_id": self.deployment_id, CLAIM + "roles": self.user["roles"],
                  CLAIM + "target_link_uri": self.redirect_uri.rsplit("/lti/", 1)[0] + self.target,
                  CLAIM + "resource_link": {"id": "link-1"}, CLAIM + "context": {"id": "course-7", "title": "CS 88"},
                  "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                      "context_memberships_url": f"{self.url}/memberships", "service_versions": ["2.0"]},
                  "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                      "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                      "lineitem": self.lineitems["1"]["id"]}}
        claims.update(changes)
        return {name: value for name, value in claims.items() if value is not None}

    def id_token(self, sent_nonce: str, *, key: RSAKey | None = None, **changes) -> str:
        signing = key or self.key
        return jwt.encode({"alg": "RS256", "kid": signing.kid}, self.claims(sent_nonce, **changes), signing)

    # The HTTP side.
    def _app(self, environ, respond):
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        query = {name: values[0] for name, values in parse_qs(environ.get("QUERY_STRING", "")).items()}
        if path == "/jwks":
            self.jwks_fetches += 1
            if self.trickle:
                respond("200 OK", [("Content-Type", "application/json")])
                return self._trickled()
            return _answer(respond, 200, {"keys": [self.key.as_dict(private=False)]})
        if path == "/favicon.ico":
            respond("204 No Content", [])
            return [b""]
        if path == "/course":   # the LMS's page of the course, the tool in a frame as Canvas and Moodle show it
            respond("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [f'<!doctype html><h1>LMS course</h1><iframe title="Hog" src="{html.escape(self.framed)}" '
                    f'width="1000" height="700"></iframe>{STORAGE if self.storage else ""}'.encode()]
        if path == "/auth":
            return self._authorize(respond, query)
        if path == "/token" and method == "POST":
            return self._token(respond, {name: values[0] for name, values in parse_qs(body.decode()).items()})
        if path == "/deep_links" and method == "POST":   # where a deep linking response returns
            form = {name: values[0] for name, values in parse_qs(body.decode()).items()}
            try:
                claims = jwt.decode(form.get("JWT", ""), KeySet.import_key_set(self._tool_keys()),
                                    algorithms=["RS256"]).claims
                jwt.JWTClaimsRegistry(iss={"essential": True, "value": self.client_id},
                                      aud={"essential": True, "value": self.url}, exp={"essential": True},
                                      nonce={"essential": True}).validate(claims)
            except Exception as error:
                return _answer(respond, 401, {"error": "invalid deep linking response", "why": str(error)})
            self.deep_links.append(claims)
            respond("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [b"<!doctype html><h1>Linked</h1>"]
        if path.startswith("/lineitems") or path == "/memberships":
            token = environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ")
            if self.down:
                return _answer(respond, 503, {"error": "down for maintenance"})
            if token not in self.tokens:
                return _answer(respond, 401, {"error": "no valid access token"})
            if path == "/memberships":   # two members a page
                start = int(query.get("page", "0")) * 2
                more = [("Link", f'<{self.url}/memberships?page={start // 2 + 1}>; rel="next"')] \
                    if start + 2 < len(self.members) else []
                respond("200 OK", [("Content-Type", "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"), *more])
                return [json.dumps({"id": f"{self.url}/memberships", "context": {"id": "course-7"},
                                    "members": self.members[start:start + 2]}).encode()]
            return self._lineitems(respond, path, method, environ.get("CONTENT_TYPE", ""), body)
        return _answer(respond, 404, {"error": "not found"})

    def _trickled(self):
        """A key set that never ends: a space every ``trickle`` seconds, for TRICKLE_SECONDS at most."""
        for _ in range(int(TRICKLE_SECONDS / self.trickle)):
            time.sleep(self.trickle)
            yield b" "

    def _authorize(self, respond, query: dict):
        expected = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
                    "client_id": self.client_id, "redirect_uri": self.redirect_uri}
        wrong = {name: query.get(name) for name, value in expected.items() if query.get(name) != value}
        if wrong or not query.get("state") or not query.get("nonce") or query.get("login_hint") != self.user["sub"]:
            return _answer(respond, 400, {"error": "invalid_request", "wrong": wrong})
        token = self.id_token(query["nonce"], **self.launch_claims)
        page = (f'<!doctype html><form method="post" action="{html.escape(self.redirect_uri)}">'
                f'<input type="hidden" name="id_token" value="{html.escape(token)}">'
                f'<input type="hidden" name="state" value="{html.escape(query["state"])}"></form>'
                f'<script>document.forms[0].submit()</script>')
        respond("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [page.encode()]

    def _token(self, respond, form: dict):
        if form.get("grant_type") != "client_credentials" or form.get("client_assertion_type") != \
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return _answer(respond, 400, {"error": "unsupported_grant_type"})
        try:
            claims = jwt.decode(form.get("client_assertion", ""), KeySet.import_key_set(self._tool_keys()),
                                algorithms=["RS256"]).claims
            jwt.JWTClaimsRegistry(iss={"essential": True, "value": self.client_id},
                                  sub={"essential": True, "value": self.client_id},
                                  aud={"essential": True, "value": f"{self.url}/token"},
                                  exp={"essential": True}, jti={"essential": True}).validate(claims)
        except Exception as error:
            return _answer(respond, 401, {"error": "invalid_client", "why": str(error)})
        self.assertions_checked += 1
        token = secrets.token_hex(16)
        self.tokens.add(token)
        return _answer(respond, 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                                      "scope": form.get("scope", "")})

    def _tool_keys(self) -> dict:
        return self.tool_jwks() if callable(self.tool_jwks) else _fetch(self.tool_jwks)

    def _lineitems(self, respond, path: str, method: str, content_type: str, body: bytes):
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[2] == "scores" and method == "POST" and parts[1] in self.lineitems:
            if content_type != "application/vnd.ims.lis.v1.score+json":
                return _answer(respond, 415, {"error": f"content type {content_type}"})
            self.scores.append((self.lineitems[parts[1]]["id"], json.loads(body)))
            return _answer(respond, 200, {})
        if len(parts) == 1 and method == "GET":
            return _answer(respond, 200, list(self.lineitems.values()))
        if len(parts) == 1 and method == "POST":
            made = json.loads(body)
            number = str(len(self.lineitems) + 1)
            self.lineitems[number] = {**made, "id": f"{self.url}/lineitems/{number}"}
            return _answer(respond, 201, self.lineitems[number])
        return _answer(respond, 404, {"error": "no such line item"})


def _fetch(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


def _answer(respond, status: int, data) -> list[bytes]:
    reasons = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
               415: "Unsupported Media Type", 503: "Service Unavailable"}
    respond(f"{status} {reasons[status]}", [("Content-Type", "application/json")])
    return [json.dumps(data).encode()]


def login_query(platform: Platform, target: str = "http://hog.test/assignments/hog") -> str:
    return urlencode({"iss": platform.url, "login_hint": platform.user["sub"], "target_link_uri": target,
                      "client_id": platform.client_id, "lti_deployment_id": platform.deployment_id,
                      "lti_message_hint": "hint-1"})
