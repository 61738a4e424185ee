"""The LMS courses (contexts) a course server serves: a binding is (issuer, deployment id, context id), as
context ids are unique only within a deployment and many schools share one issuer (Canvas's). Staff bind
them (``hog serve lti add-platform ... --context ID``, ``hog serve lti link``, ``unlink``); a launch from a
context not bound is refused for everyone, and the context is kept in a bounded table (``Unbound``: its
title, when last seen and how often) that ``hog serve lti list`` shows with the command that binds it."""

from __future__ import annotations

import shlex

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from grader.errors import UsageError
from grader.server.store import db
from grader.server.lti.platforms import LONGEST
from grader.server.store.models import Binding, Deployment, Platform, Unbound

UNBOUND_KEPT = 300   # unbound contexts kept per platform (issuer); past it the one seen longest ago goes


def command(issuer: str, deployment_id: str, context_id: str, verb: str = "link") -> str:
    """The command that binds (or unbinds) a context, quoted for a shell."""
    return (f"hog serve lti {verb} --issuer {shlex.quote(issuer)} --deployment-id {shlex.quote(deployment_id)} "
            f"{shlex.quote(context_id)}")


def _deployment_known(session: Session, issuer: str, deployment_id: str) -> bool:
    return session.scalars(select(Deployment.id).join(Deployment.platform).where(
        Platform.issuer == issuer, Deployment.deployment_id == deployment_id)).first() is not None


def link(session: Session, *, issuer: str, deployment_id: str, context_id: str) -> bool:
    """Bind a context of a registered deployment; whether it is new (an unbound row of it is dropped)."""
    if not context_id or len(context_id) > LONGEST:
        raise UsageError(f"give the LMS course's context id, at most {LONGEST} characters (the launch's refusal page "
                         f"and hog serve lti list show it)")
    if not _deployment_known(session, issuer, deployment_id):
        raise UsageError(f"{issuer} has no registered deployment {deployment_id!r}: hog serve lti list shows those "
                         f"recorded (hog serve lti add-platform records one)")
    session.execute(delete(Unbound).where(Unbound.issuer == issuer, Unbound.deployment_id == deployment_id,
                                          Unbound.context_id == context_id))
    if bound(session, issuer, deployment_id, context_id):
        return False
    session.add(Binding(issuer=issuer, deployment_id=deployment_id, context_id=context_id))
    return True


def unlink(session: Session, *, issuer: str, deployment_id: str, context_id: str) -> None:
    """Unbind a context: its launches are refused from now on (its people and their grades stay)."""
    removed = session.execute(delete(Binding).where(Binding.issuer == issuer, Binding.deployment_id == deployment_id,
                                                    Binding.context_id == context_id)).rowcount
    if not removed:
        raise UsageError(f"the context {context_id!r} of {issuer} (deployment {deployment_id}) is not bound "
                         f"(hog serve lti list shows those that are)")


def bound(session: Session, issuer: str, deployment_id: str | None, context_id: str | None) -> bool:
    """Whether the context is bound (one of an unknown deployment or none never is)."""
    if not deployment_id or not context_id:
        return False
    return session.scalars(select(Binding.id).where(Binding.issuer == issuer, Binding.deployment_id == deployment_id,
                                                    Binding.context_id == context_id)).first() is not None


def seen(session: Session, *, issuer: str, deployment_id: str, context_id: str, title: str) -> None:
    """A launch from an unbound context: its row counted (made, the oldest of its platform's dropped past
    UNBOUND_KEPT)."""
    row = session.scalars(select(Unbound).where(Unbound.issuer == issuer, Unbound.deployment_id == deployment_id,
                                                Unbound.context_id == context_id)).first()
    if row is None:
        kept = session.scalar(select(func.count()).select_from(Unbound).where(Unbound.issuer == issuer))
        if kept >= UNBOUND_KEPT:
            oldest = select(Unbound.id).where(Unbound.issuer == issuer).order_by(Unbound.last_seen, Unbound.id)
            session.execute(delete(Unbound).where(Unbound.id.in_(oldest.limit(kept - UNBOUND_KEPT + 1)
                                                                 .scalar_subquery())))
        row = Unbound(issuer=issuer, deployment_id=deployment_id, context_id=context_id, count=0)
        session.add(row)
    row.title, row.last_seen, row.count = title[:255], db.now(), row.count + 1


def listed(session: Session) -> list[str]:
    """A line per bound context, then one per unbound context launched from (with the command binding it)."""
    lines = [f"bound: {b.issuer}  deployment {b.deployment_id}  context {b.context_id}"
             for b in session.scalars(select(Binding).order_by(Binding.issuer, Binding.deployment_id, Binding.context_id))]
    for u in session.scalars(select(Unbound).order_by(Unbound.last_seen.desc())):
        lines.append(f"not bound, launches refused: {u.issuer}  deployment {u.deployment_id}  context {u.context_id}"
                     f" ({u.title or 'no title'}), {u.count} launches, last {db.utc(u.last_seen).isoformat(timespec='seconds')}"
                     f"\n    to serve it: {command(u.issuer, u.deployment_id, u.context_id)}")
    return lines
