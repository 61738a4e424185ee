"""A request the server cannot serve now is answered so, never with a traceback: 503 Service Unavailable
with ``Retry-After`` and what happened, as ``{"error": ...}`` for the API and as a page otherwise.

Two causes are the machine's, not the request's, and pass: the database not answering (PostgreSQL
restarting, a connection it dropped, SQLite's file out of reach or its disk full: the driver's
OperationalError and InterfaceError, or a connection found dead) and the disk full while an upload is
stored (``Unavailable``, raised by ``intake``). Nothing is half-stored: an upload is acknowledged only once
its file and its row are both kept, and neither is kept otherwise. ``submit.py`` tries again on a 503.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from sqlalchemy.exc import DBAPIError

from grader.server.store import db

DATABASE_RETRY = 5       # seconds: a database restarting is back in a few
DISK_RETRY = 60          # seconds: a full disk waits for someone to free it


class Unavailable(Exception):
    """The server cannot serve this request now: the message says what and that nothing was kept."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.message, self.retry_after = message, retry_after


def _answer(found: Unavailable):
    if request.path.startswith("/api/"):
        answer = jsonify(error=found.message)
    else:
        answer = render_template("message.html", title="Try again in a moment", message=found.message, person=None)
    return answer, 503, {"Retry-After": str(found.retry_after), "Cache-Control": "no-store"}


def _database(error: DBAPIError):
    if not db.gone(error):   # else a fault of the kit: a 500
        raise error
    return _answer(Unavailable(f"the course server's database does not answer (it may be restarting): nothing "
                               f"was stored; try again in {DATABASE_RETRY} s", DATABASE_RETRY))


def install(app: Flask) -> None:
    """Answer ``app``'s requests that meet these faults with a 503."""
    app.register_error_handler(Unavailable, _answer)
    app.register_error_handler(DBAPIError, _database)
