"""The security headers every response carries (pages, the API, errors, static files), set by
Flask-Talisman: a Content-Security-Policy that loads scripts, styles and images from the server alone
(no inline script or style: the pages' script and style are static files), ``frame-ancestors`` the
server itself, the course's ``[server] frame_ancestors`` and the registered LTI platforms' LMSs (``framers``,
read while the server runs: a platform added is framed without a restart),
``form-action`` the server itself (and, on the page that answers an LMS's deep linking request, that LMS),
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` and, where no other origin may
frame the pages, ``X-Frame-Options: SAMEORIGIN`` (which would contradict ``frame-ancestors`` otherwise).

Talisman's own choices that do not fit are turned off: it would redirect http to https (the HTTPS proxy
in front does that), mark the session cookie Secure on a plain-http course and SameSite=Lax on an https one
(where a launch from an LMS's frame needs None), and send HSTS only on a
request it sees arriving over https (behind a proxy that does not say so, never). HSTS is sent here on
every response when the course's url is https (a browser heeds it only over https). The class and
similarity reports are files made to be opened on their own too, with their style inline: they are sent
with a policy that allows inline style and nothing else inline.
"""

from __future__ import annotations

import functools
import re
from typing import Callable

from flask import Flask, Response, g
from flask_talisman import Talisman

from grader.spec.serving import Server

HSTS = "max-age=31536000"                  # a year
REFERRER = "same-origin"   # not no-referrer: Flask-WTF refuses a form sent over https without its Referer
REPORTS = ("staff.report", "staff.similarity")   # endpoints that send a report made with inline style
ORIGIN = re.compile(r"https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?")   # all a header may name of one


def policy(server: Server, *, inline_style: bool = False) -> dict[str, str]:
    """The Content-Security-Policy of the course's pages (``inline_style``: of a report made to stand alone)."""
    return {"default-src": "'self'", "script-src": "'self'",
            "style-src": "'self' 'unsafe-inline'" if inline_style else "'self'",
            "img-src": "'self' data:", "object-src": "'none'", "base-uri": "'none'", "form-action": "'self'",
            "frame-ancestors": " ".join(("'self'", *server.frame_ancestors))}


def protect(app: Flask, server: Server, framers: Callable[[], tuple[str, ...]] = tuple) -> None:
    """Set the headers on every response of ``app`` (its routes registered already); ``framers()``: the
    origins besides the config's that may frame its pages now."""

    @app.after_request   # registered before Talisman's: runs after it, on the headers it set
    def _lms_origins(response: Response) -> Response:
        extra = tuple(each for each in framers() if each not in server.frame_ancestors)
        sent = response.headers.get("Content-Security-Policy")
        if extra and sent:
            ancestors = "frame-ancestors " + " ".join(("'self'", *server.frame_ancestors, *extra))
            sent = re.sub(r"frame-ancestors [^;]*", ancestors, sent)
            response.headers.pop("X-Frame-Options", None)
        if sent and g.get("form_action") and ORIGIN.fullmatch(g.form_action):   # a form to an LMS (LTI deep linking)
            sent = re.sub(r"form-action [^;]*", f"form-action 'self' {g.form_action}", sent)
        if sent:
            response.headers["Content-Security-Policy"] = sent
        return response

    talisman = Talisman(app, content_security_policy=policy(server), force_https=False,
                        session_cookie_secure=server.secure, strict_transport_security=False,
                        session_cookie_samesite=app.config["SESSION_COOKIE_SAMESITE"],   # as the app chose it
                        frame_options=None if server.frame_ancestors else "SAMEORIGIN", referrer_policy=REFERRER)

    @app.after_request
    def _secure_transport(response: Response) -> Response:
        if server.secure:
            response.headers["Strict-Transport-Security"] = HSTS
        return response

    for endpoint in REPORTS:
        app.view_functions[endpoint] = _with_options(app.view_functions[endpoint], {
            "force_https": False, "frame_options": talisman.frame_options,
            "frame_options_allow_from": talisman.frame_options_allow_from,
            "content_security_policy": policy(server, inline_style=True),
            "content_security_policy_nonce_in": talisman.content_security_policy_nonce_in,
            "permissions_policy": talisman.permissions_policy, "document_policy": talisman.document_policy,
            "feature_policy": talisman.feature_policy})


def _with_options(view, options: dict):
    """``view`` as this app alone serves it, with Talisman's options for it. Every option Talisman reads
    is given: it fills those missing into the view's own dict, and a module's view function is every app's."""
    @functools.wraps(view)
    def served(*args, **kwargs):
        return view(*args, **kwargs)
    served.talisman_view_options = options
    return served
