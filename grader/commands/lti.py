"""``hog serve lti``: the LMSs the course server is an LTI 1.3 tool of. ``add-platform`` records a platform and
a deployment (and makes the tool's key pair in ``server/`` the first time), ``list`` and ``remove`` show and
forget them, ``roster`` makes the members of the LMS courses launched from people of the course (Names and
Role Provisioning), ``config`` prints what the LMS's administrator enters to register the tool."""

from __future__ import annotations

from typing import TextIO

from grader.commands.serve import _course, _database
from grader.errors import UsageError

try:   # the server's libraries are an extra: _course() says so when they are missing
    from grader.server.lti import ags, keys, platforms, roster
    from grader.server.store import db
except ImportError:
    db = None


def add_platform(*, issuer: str, client_id: str, deployment_id: str, auth_url: str, token_url: str,
                 jwks_url: str, lms_url: str | None, database: str | None, out: TextIO) -> int:
    root, _ = _course()
    _, engine = _database(root, database)
    with db.sessions(engine)() as session, session.begin():
        platform, new = platforms.add(session, issuer=issuer, client_id=client_id, deployment_id=deployment_id,
                                      auth_url=auth_url, token_url=token_url, jwks_url=jwks_url, lms_url=lms_url)
        framed = platform.lms_url
    keys.tool_key(root / "server")   # made now, so that its public half is at /lti/jwks before the first launch
    out.write(f"{'recorded' if new else 'already had'} the deployment {deployment_id} of {issuer} (client id "
              f"{client_id}); its pages at {framed} may frame the tool. Launches are taken at once by a running "
              f"hog serve\n")
    return 0


def remove(*, issuer: str, client_id: str | None, deployment_id: str | None, database: str | None,
           out: TextIO) -> int:
    root, _ = _course()
    _, engine = _database(root, database)
    with db.sessions(engine)() as session, session.begin():
        removed = platforms.remove(session, issuer=issuer, client_id=client_id, deployment_id=deployment_id)
    out.write(f"removed {removed}: its launches are refused from now on\n")
    return 0


def listed(*, database: str | None, out: TextIO) -> int:
    root, _ = _course()
    _, engine = _database(root, database)
    with db.sessions(engine)() as session:
        lines = platforms.listed(session)
    out.write("".join(line + "\n" for line in lines) if lines else
              "no platform recorded yet (hog serve lti add-platform; hog serve lti config says what the LMS needs)\n")
    return 0


def roster_(*, database: str | None, out: TextIO) -> int:
    """``hog serve lti roster``: the members of every LMS course launched from, made people of the course."""
    root, _ = _course()
    _, engine = _database(root, database)
    lines = roster.read(engine, ags.Client(root / "server"))
    out.write("".join(f"{line}\n" for line in lines) if lines else
              "no LMS course to read yet: its members are listed once someone has launched the tool from it\n")
    return 0


def config(*, out: TextIO) -> int:
    root, course = _course()
    if not course.server.url.startswith("https://"):
        out.write(f"note: the course's [server] url is {course.server.url}; an LMS launches only a tool at a public "
                  f"https address: set url in the course config first\n\n")
    out.write(platforms.config_text(course.server.url, course.name or root.name))
    return 0


def run(*, action: str, issuer: str | None, client_id: str | None, deployment_id: str | None, auth_url: str | None,
        token_url: str | None, jwks_url: str | None, lms_url: str | None, database: str | None, out: TextIO) -> int:
    """``hog serve lti ACTION``: the verb its action names."""
    if action == "add-platform":
        return add_platform(issuer=issuer, client_id=client_id, deployment_id=deployment_id, auth_url=auth_url,
                            token_url=token_url, jwks_url=jwks_url, lms_url=lms_url, database=database, out=out)
    if action == "remove":
        return remove(issuer=issuer, client_id=client_id, deployment_id=deployment_id, database=database, out=out)
    if action == "list":
        return listed(database=database, out=out)
    if action == "config":
        return config(out=out)
    if action == "roster":
        return roster_(database=database, out=out)
    raise UsageError(f"hog serve lti {action}: the actions are add-platform, list, remove, roster and config")
