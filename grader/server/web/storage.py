"""The LTI platform's storage (IMS LTI Client Side postMessages and Platform Storage), where the platform
offers it (``lti_storage_target`` in the login initiation): the login's page, in the LMS's frame, puts the
login's value under a key of its state (``lti.put_data``) before going on to the platform's authorization; a
launch whose state cookie the browser refused gets a page that reads it back (``lti.get_data``) and posts it
with the id_token and state to ``/lti/launch/storage``, where it must be the value the signed state names.
The messages go to the platform's authorization origin only, and only its answers count
(``static/lti_storage.js``). The value alone proves nothing: it is checked against the signed state."""

from __future__ import annotations

import hashlib
import hmac

from flask import render_template

from grader.server.lti import platforms

TIMEOUT_MS = 3000   # a platform that answers a message at all answers within this


def key(state: str) -> str:
    """The storage key of a login's state (the state itself is too long for a platform's key)."""
    return "state_" + hashlib.sha256(state.encode()).hexdigest()[:32]


def value(begun: dict) -> str:
    """What the login stores under its key: its nonce, which only the signed state and the platform know."""
    return begun["nonce"]


def login_page(target: str, auth_url: str, state: str, nonce: str, authorize: str):
    """The login's page: the state stored in the platform's storage, then on to ``authorize``."""
    return render_template("lti_storage_login.html", person=None, target=target,
                           origin=platforms.checked_origin(auth_url) or "", key=key(state), value=nonce,
                           authorize=authorize, timeout=TIMEOUT_MS)


def launch_page(*, token: str, state: str, begun: dict, again: str):
    """The launch's page when its state cookie did not come back: the value read from the platform's storage and
    posted, with the id_token and state, to /lti/launch/storage."""
    return render_template("lti_storage_launch.html", person=None, target=begun["storage"],
                           origin=begun.get("auth", ""), key=key(state), token=token, state=state, again=again,
                           timeout=TIMEOUT_MS)


def refusal(begun: dict, sent: str, failed: str) -> str:
    """Why the value read from the platform's storage signs nobody in ("" where it is the login's)."""
    if not begun.get("storage"):
        return "its login did not use the LMS's storage"
    if failed:
        return f"the LMS's storage did not give the login's value back ({failed[:80]})"
    if not sent or not hmac.compare_digest(sent.encode(), value(begun).encode()):
        return "the value the LMS's storage gave back is not the one this login stored"
    return ""
