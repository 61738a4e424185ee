"""Who a platform's user is in the course, and the LMS course's members as the course's people (Names and
Role Provisioning 2.0). A person is the platform's ``sub`` with its issuer (``Identity``); met for the first
time, they are matched to the person with their email where the course has one (``hog serve people``), or
made. Learners are students; Instructors, TeachingAssistants, ContentDevelopers and Administrators staff.
``hog serve lti roster`` reads the members of every LMS course launched from (``Context``): the gradebook
then lists those who have not launched yet too."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from grader.server.lti import ags, platforms
from grader.server.lti.launch import Launch, staff_role
from grader.server.store import db
from grader.server.store.models import STAFF, STUDENT, Context, Identity, Person

ACTIVE = "Active"


@dataclass(frozen=True)
class Member:
    """A user of a platform, as a launch or the course's member list names them."""
    issuer: str
    subject: str
    email: str
    sourcedid: str
    staff: bool


def person(session: Session, member: Member) -> tuple[Person, bool]:
    """The course's person for ``member`` (their role and email as the platform says now), and whether they
    are new to the course."""
    identity = session.scalars(select(Identity).where(Identity.issuer == member.issuer,
                                                      Identity.subject == member.subject)).first()
    found = session.get(Person, identity.person_id) if identity is not None else None
    if found is None and member.email:
        found = session.scalars(select(Person).where(func.lower(Person.email) == member.email.lower())).first()
    new = found is None
    if new:
        found = Person(student_id=_free_id(session, member), email=member.email)
        session.add(found)
        session.flush()
    if identity is None:
        session.add(Identity(person_id=found.id, issuer=member.issuer, subject=member.subject))
    found.role = STAFF if member.staff else STUDENT
    found.email = member.email or found.email
    return found, new


def _free_id(session: Session, member: Member) -> str:
    """A student id for a person new to the course: their institution's id, else their email, else their
    ``sub`` at the platform's host; the first not taken."""
    host = platforms.origin(member.issuer).split("://", 1)[1]
    for candidate in (member.sourcedid, member.email, f"{member.subject}@{host}"):
        if candidate and session.scalars(select(Person.id).where(Person.student_id == candidate)).first() is None:
            return candidate[:200]
    return f"{member.subject}@{host}#{secrets.token_hex(4)}"[:200]


def of_launch(said: Launch) -> Member:
    return Member(said.issuer, said.subject, said.email, said.sourcedid, said.staff)


def remember(session: Session, said: Launch) -> None:
    """The LMS course a launch came from, where it names its member list."""
    if said.context_id is None or said.memberships_url is None:
        return
    context = session.scalars(select(Context).where(Context.issuer == said.issuer, Context.client_id == said.client_id,
                                                    Context.context_id == said.context_id)).first()
    if context is None:
        context = Context(issuer=said.issuer, client_id=said.client_id, context_id=said.context_id)
        session.add(context)
    context.title, context.memberships_url = said.context_title[:255], said.memberships_url


def read(engine: Engine, client: ags.Client) -> list[str]:
    """Every LMS course's active members made people of the course; a line per LMS course saying how many."""
    with Session(engine) as session:
        contexts = list(session.scalars(select(Context).order_by(Context.id)))
        session.expunge_all()
    said = []
    for context in contexts:
        with Session(engine) as session:
            found = platforms.registered(session, context.issuer, context.client_id)
        if not found:
            said.append(f"{context.title or context.context_id}: its platform {context.issuer} is no longer registered")
            continue
        try:
            members = client.members(found[0], context.memberships_url)
        except ags.Failed as error:
            said.append(f"{context.title or context.context_id}: {error}")
            continue
        said.append(f"{context.title or context.context_id}: " + _made_people(engine, context, members))
    return said


def _made_people(engine: Engine, context: Context, members: list[dict]) -> str:
    added = kept = left = 0
    with Session(engine) as session, session.begin():
        db.writing(session)
        for each in members:
            role = staff_role(each.get("roles"))
            if each.get("status", ACTIVE) != ACTIVE or not isinstance(each.get("user_id"), str) or role is None:
                left += 1
                continue
            email = each.get("email") if isinstance(each.get("email"), str) else ""
            sourcedid = each.get("lis_person_sourcedid") if isinstance(each.get("lis_person_sourcedid"), str) else ""
            _, new = person(session, Member(context.issuer, each["user_id"], email, sourcedid, role))
            added, kept = added + new, kept + (not new)
        session.get(Context, context.id).synced_at = db.now()
    return (f"{added} people added, {kept} already known"
            + (f", {left} left out (inactive, or neither learner nor staff)" if left else ""))
