"""Who a platform's user is in the course, and the LMS course's members as the course's people (Names and
Role Provisioning 2.0). A person is the platform's ``sub`` with its issuer (``Identity``), and no one else's:
met for the first time, they join the roster's person with their email only where the platform's emails are
verified (``--trust-email``) and that person has no LMS identity yet, else they are a person of their own
(``UNMATCHED``) that staff join by hand (``join``). Learners of the context are students, its staff roles
(``launch.STAFF_ROLES``) staff. ``hog serve lti roster`` reads the members of every bound LMS course launched
from (``Context``): the gradebook then lists those who have not launched yet too."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session

from grader.errors import UsageError

from grader.server.lti import ags, bindings, platforms
from grader.server.lti.launch import Launch, staff_role
from grader.server.store import db
from grader.server.store.models import (STAFF, STUDENT, Binding, Context, Extension, GradeChange, Identity, Invitation,
                                        Link, Membership, Person, RegradeRequest, Review, Submission)

ACTIVE = "Active"
UNMATCHED = "lti:"   # the student id of a person a launch made, not joined to the roster's


@dataclass(frozen=True)
class Member:
    """A user of a platform, as a launch or the course's member list names them."""
    issuer: str
    subject: str
    email: str
    sourcedid: str
    staff: bool


def person(session: Session, member: Member, *, trust_email: bool) -> tuple[Person, bool]:
    """The course's person for ``member``, and whether they are new to the course. A person bound to a platform
    identity is reached by that identity alone; a new identity joins the roster's person with its email only
    where the platform's emails are verified (``trust_email``) and that person has no LMS identity yet, and is
    a person of its own otherwise (``UNMATCHED``, for staff to join by hand). The platform's role and email
    are taken only for a person whose role staff did not set and who is bound to no other identity."""
    identity = session.scalars(select(Identity).where(Identity.issuer == member.issuer,
                                                      Identity.subject == member.subject)).first()
    if identity is not None:
        found = session.get(Person, identity.person_id)
        _as_the_platform_says(session, found, member)
        return found, False
    found = None
    if trust_email and member.email:
        unbound = session.scalars(select(Person).where(func.lower(Person.email) == member.email.lower(),
                                                       Person.id.not_in(select(Identity.person_id)))).all()
        found = unbound[0] if len(unbound) == 1 else None
    new = found is None
    if new:
        found = Person(student_id=_unmatched_id(session, member), email=member.email,
                       role=STAFF if member.staff else STUDENT, role_by_staff=False)
        session.add(found)
        session.flush()
    session.add(Identity(person_id=found.id, issuer=member.issuer, subject=member.subject))
    session.flush()
    _as_the_platform_says(session, found, member)
    return found, new


def _as_the_platform_says(session: Session, found: Person, member: Member) -> None:
    if found.role_by_staff:
        return
    elsewhere = session.scalar(select(func.count()).select_from(Identity).where(
        Identity.person_id == found.id, (Identity.issuer != member.issuer) | (Identity.subject != member.subject)))
    if elsewhere:
        return
    found.role = STAFF if member.staff else STUDENT
    found.email = member.email or found.email


def _unmatched_id(session: Session, member: Member) -> str:
    """A student id of its own for a person the course did not know: UNMATCHED and a hash of the identity."""
    digest = hashlib.sha256(f"{member.issuer}\0{member.subject}".encode("utf-8", "surrogateescape")).hexdigest()
    for length in (16, 32, 64):
        candidate = UNMATCHED + digest[:length]
        if session.scalars(select(Person.id).where(Person.student_id == candidate)).first() is None:
            return candidate
    return UNMATCHED + secrets.token_hex(16)


def join(session: Session, *, new_id: str, roster_id: str) -> str:
    """Staff join an unmatched person (``new_id``) to the roster's (``roster_id``): its identities, submissions,
    launches, extensions, group, invitations, review and regrade requests become theirs, and the unmatched person
    goes; what was joined."""
    new = session.scalars(select(Person).where(Person.student_id == new_id)).first()
    kept = session.scalars(select(Person).where(Person.student_id == roster_id)).first()
    if new is None or kept is None:
        raise UsageError(f"no person with the student id {(new_id if new is None else roster_id)!r} (the staff "
                         f"pages list them; an unmatched one's id begins with {UNMATCHED})")
    if new.id == kept.id or not new.student_id.startswith(UNMATCHED):
        raise UsageError(f"{new_id} is not an unmatched person (their id begins with {UNMATCHED}): only those are "
                         f"joined to a roster's person")
    identities = list(session.scalars(select(Identity).where(Identity.person_id == new.id)))
    theirs = set(session.scalars(select(Identity.issuer).where(Identity.person_id == kept.id)))
    if any(each.issuer in theirs for each in identities):
        raise UsageError(f"{roster_id} is bound to an identity of the same platform already: a person is one user "
                         f"of each platform")
    for model in (Membership, Review):   # one a student and assignment: both having one is for staff to settle
        both = sorted(set(session.scalars(select(model.assignment).where(model.person_id == new.id)))
                      & set(session.scalars(select(model.assignment).where(model.person_id == kept.id))))
        if both:
            raise UsageError(f"{new_id} and {roster_id} both have a {'group' if model is Membership else 'review'} "
                             f"of {', '.join(both)}: change the groups or reviews first, then join them")
    for each in identities:
        each.person_id = kept.id
    _move(session, new.id, kept.id)
    mine = set(session.scalars(select(Extension.assignment).where(Extension.person_id == kept.id)))
    session.execute(delete(Extension).where(Extension.person_id == new.id, Extension.assignment.in_(mine)))
    session.execute(update(Extension).where(Extension.person_id == new.id).values(person_id=kept.id))
    session.flush()
    session.delete(new)
    return f"{new_id} ({len(identities)} LMS identities) joined to {roster_id}"


def _move(session: Session, old: int, new: int) -> None:
    """Every row of ``old``'s, and every mention of them, made ``new``'s (but extensions: the caller's)."""
    mentions = [(Submission, "person_id"), (Link, "person_id"), (Membership, "person_id"), (Review, "person_id"),
                (Review, "graded_by"), (RegradeRequest, "person_id"), (RegradeRequest, "answered_by"),
                (GradeChange, "person_id"), (GradeChange, "by_id")]
    kept_invitations = set(session.execute(select(Invitation.assignment, Invitation.inviter_id, Invitation.invitee_id)
                                           .where((Invitation.inviter_id == new) | (Invitation.invitee_id == new))))
    for each in list(session.scalars(select(Invitation).where((Invitation.inviter_id == old)
                                                              | (Invitation.invitee_id == old)))):
        moved = (each.assignment, new if each.inviter_id == old else each.inviter_id,
                 new if each.invitee_id == old else each.invitee_id)
        if moved in kept_invitations or moved[1] == moved[2]:
            session.delete(each)   # the same invitation already, or one to oneself
        else:
            each.inviter_id, each.invitee_id = moved[1], moved[2]
    for model, column in mentions:
        session.execute(update(model).where(getattr(model, column) == old).values({column: new}))


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
    context.title, context.memberships_url = said.context_title, said.memberships_url
    context.deployment_id = said.deployment_id


def read(engine: Engine, client: ags.Client) -> list[str]:
    """Every LMS course's active members made people of the course; a line per LMS course saying how many."""
    with Session(engine) as session:
        contexts = list(session.scalars(select(Context).order_by(Context.id)))
        session.expunge_all()
    said = []
    for context in contexts:
        with Session(engine) as session:
            found = platforms.registered(session, context.issuer, context.client_id)
            serves = _bound(session, context)
        if not found:
            said.append(f"{context.title or context.context_id}: its platform {context.issuer} is no longer registered")
            continue
        if not serves:
            said.append(f"{context.title or context.context_id}: not bound to this course server, not read "
                        f"(hog serve lti link binds it)")
            continue
        try:
            members = client.members(found[0], context.memberships_url)
        except ags.Failed as error:
            said.append(f"{context.title or context.context_id}: {error}")
            continue
        said.append(f"{context.title or context.context_id}: "
                    + _made_people(engine, context, members, trust_email=found[0].trust_email))
    return said


def _bound(session: Session, context: Context) -> bool:
    """Whether the context is bound (one recorded before deployments were: bound in any deployment)."""
    if context.deployment_id is not None:
        return bindings.bound(session, context.issuer, context.deployment_id, context.context_id)
    return session.scalars(select(Binding.id).where(Binding.issuer == context.issuer,
                                                    Binding.context_id == context.context_id)).first() is not None


def _text(member: dict, name: str, most: int) -> str | None:
    """A member's string field ("" where absent), None where it is longer than ``most`` (left out)."""
    value = member.get(name) if isinstance(member.get(name), str) else ""
    return value if len(value) <= most else None


def _made_people(engine: Engine, context: Context, members: list[dict], *, trust_email: bool) -> str:
    added = kept = left = 0
    with Session(engine) as session, session.begin():
        db.writing(session)
        for each in members:
            role = staff_role(each.get("roles"))
            user, email = _text(each, "user_id", 255), _text(each, "email", 320)
            sourcedid = _text(each, "lis_person_sourcedid", 200)
            if each.get("status", ACTIVE) != ACTIVE or not user or role is None or email is None or sourcedid is None:
                left += 1
                continue
            _, new = person(session, Member(context.issuer, user, email, sourcedid, role), trust_email=trust_email)
            added, kept = added + new, kept + (not new)
        session.get(Context, context.id).synced_at = db.now()
    return (f"{added} people added, {kept} already known"
            + (f", {left} left out (inactive, neither learner nor staff, or a field too long)" if left else ""))
