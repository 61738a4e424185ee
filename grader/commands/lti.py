"""``hog serve lti``: the LMSs the course server is an LTI 1.3 tool of. ``add-platform`` records a platform and
a deployment (and makes the tool's key pair in ``server/`` the first time), with the LMS courses of it this
server serves (``--context``); ``link`` and ``unlink`` bind and unbind an LMS course; ``list`` shows them and
the LMS courses launched from but not bound; ``remove`` forgets a platform or deployment; ``trust-email`` says
whether a platform's emails are verified; ``join`` joins an unmatched person a launch made to the roster's;
``roster`` makes the members of the bound LMS courses people of the course (Names and Role Provisioning);
``config`` prints what the LMS's administrator enters to register the tool."""

from __future__ import annotations

from typing import TextIO

from grader.commands.serve import _course, _database
from grader.errors import UsageError

try:   # the server's libraries are an extra: _course() says so when they are missing
    from grader.server.lti import ags, bindings, keys, passback, platforms, roster
    from grader.server.store import db
except ImportError:
    db = None


def _engine(database: str | None):
    root, course = _course()
    _, engine = _database(root, database)
    return root, course, engine


def add_platform(*, issuer: str, client_id: str, deployment_id: str, auth_url: str, token_url: str,
                 jwks_url: str, lms_url: str | None, contexts: tuple[str, ...] = (), trust_email: bool | None = None,
                 service_origins: tuple[str, ...] = (), database: str | None, out: TextIO) -> int:
    root, _, engine = _engine(database)
    with db.sessions(engine)() as session, session.begin():
        platform, new = platforms.add(session, issuer=issuer, client_id=client_id, deployment_id=deployment_id,
                                      auth_url=auth_url, token_url=token_url, jwks_url=jwks_url, lms_url=lms_url,
                                      trust_email=trust_email, service_origins=service_origins)
        session.flush()
        for context in contexts:
            bindings.link(session, issuer=issuer, deployment_id=deployment_id, context_id=context)
        framed, trusted = platform.lms_url, platform.trust_email
    keys.tool_key(root / "server")   # made now, so that its public half is at /lti/jwks before the first launch
    out.write(f"{'recorded' if new else 'already had'} the deployment {deployment_id} of {issuer} (client id "
              f"{client_id}); its pages at {framed} may frame the tool; its emails are "
              f"{'trusted' if trusted else 'not trusted (hog serve lti trust-email)'}. "
              + (f"Bound LMS courses: {', '.join(contexts)}. " if contexts else
                 "No LMS course bound yet: hog serve lti link binds one (a launch from it is refused until then). ")
              + "Launches are taken at once by a running hog serve\n")
    return 0


def link(*, issuer: str, deployment_id: str, context_id: str, bind: bool, database: str | None, out: TextIO) -> int:
    _, _, engine = _engine(database)
    with db.sessions(engine)() as session, session.begin():
        if bind:
            new = bindings.link(session, issuer=issuer, deployment_id=deployment_id, context_id=context_id)
        else:
            bindings.unlink(session, issuer=issuer, deployment_id=deployment_id, context_id=context_id)
    if bind:
        out.write(f"{'bound' if new else 'already bound'}: the LMS course {context_id} of {issuer} (deployment "
                  f"{deployment_id}); its staff are staff here, its learners students\n")
    else:
        out.write(f"unbound the LMS course {context_id} of {issuer}: its launches are refused from now on (its "
                  f"people and their grades stay)\n")
    return 0


def trust_emails(*, issuer: str, switch: str, database: str | None, out: TextIO) -> int:
    _, _, engine = _engine(database)
    with db.sessions(engine)() as session, session.begin():
        platforms.trust_email(session, issuer=issuer, on=switch == "on")
    said = ("trusted: a first launch joins the roster's person of that email (one without an LMS identity)"
            if switch == "on" else "not trusted: a first launch makes a person of its own, for staff to join")
    out.write(f"the emails of {issuer} are {said}\n")
    return 0


def join(*, new_id: str, roster_id: str, database: str | None, out: TextIO) -> int:
    _, course, engine = _engine(database)
    with db.sessions(engine)() as session, session.begin():
        said = roster.join(session, new_id=new_id, roster_id=roster_id)
        passback.refresh_person(session, course.server, roster_id)
    out.write(f"joined: {said}\n")
    return 0


def remove(*, issuer: str, client_id: str | None, deployment_id: str | None, database: str | None,
           out: TextIO) -> int:
    _, _, engine = _engine(database)
    with db.sessions(engine)() as session, session.begin():
        removed = platforms.remove(session, issuer=issuer, client_id=client_id, deployment_id=deployment_id)
    out.write(f"removed {removed}: its launches are refused from now on\n")
    return 0


def listed(*, database: str | None, out: TextIO) -> int:
    _, _, engine = _engine(database)
    with db.sessions(engine)() as session:
        lines = platforms.listed(session)
        contexts = bindings.listed(session)
    out.write("".join(line + "\n" for line in lines + contexts) if lines else
              "no platform recorded yet (hog serve lti add-platform; hog serve lti config says what the LMS needs)\n")
    return 0


def roster_(*, database: str | None, out: TextIO) -> int:
    """``hog serve lti roster``: the members of every bound LMS course launched from, made people of the course."""
    root, _, engine = _engine(database)
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


ACTIONS = "add-platform, list, remove, link, unlink, trust-email, join, roster and config"


def run(*, action: str, issuer: str | None, client_id: str | None = None, deployment_id: str | None = None,
        auth_url: str | None = None, token_url: str | None = None, jwks_url: str | None = None,
        lms_url: str | None = None, contexts: tuple[str, ...] = (), context_id: str | None = None,
        trust_email: bool | None = None, service_origins: tuple[str, ...] = (), switch: str | None = None,
        new_id: str | None = None, roster_id: str | None = None, database: str | None, out: TextIO) -> int:
    """``hog serve lti ACTION``: the verb its action names."""
    if action == "add-platform":
        return add_platform(issuer=issuer, client_id=client_id, deployment_id=deployment_id, auth_url=auth_url,
                            token_url=token_url, jwks_url=jwks_url, lms_url=lms_url, contexts=contexts,
                            trust_email=trust_email, service_origins=service_origins, database=database, out=out)
    if action in ("link", "unlink"):
        return link(issuer=issuer, deployment_id=deployment_id, context_id=context_id, bind=action == "link",
                    database=database, out=out)
    if action == "trust-email":
        return trust_emails(issuer=issuer, switch=switch, database=database, out=out)
    if action == "join":
        return join(new_id=new_id, roster_id=roster_id, database=database, out=out)
    if action == "remove":
        return remove(issuer=issuer, client_id=client_id, deployment_id=deployment_id, database=database, out=out)
    if action == "list":
        return listed(database=database, out=out)
    if action == "config":
        return config(out=out)
    if action == "roster":
        return roster_(database=database, out=out)
    raise UsageError(f"hog serve lti {action}: the actions are {ACTIONS}")
