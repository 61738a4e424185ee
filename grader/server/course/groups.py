"""Groups of an assignment (``group_size`` above 1): students who submit as one.

A student invites another student of the course; the invitee accepts or declines; the inviter withdraws; a
member leaves while the group has no submission. Staff set every group of an assignment at once (``hog serve
groups NAME GROUPS.csv``, the staff pages), checked before anything changes. A submission is made for the
group its uploader is in (``Submission.group_id``); what each member sees and what counts is ``visible`` and
``counting``: the group's submissions once it has one, the student's own before.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from grader.server.store import db
from grader.server.store.models import STUDENT, Group, Invitation, Membership, Person, Submission
from grader.spec.serving import Assignment

VariantOf = Callable[[Person], "str | None"]   # the variant a student works in (a roster manifest gives each theirs)


class Refused(Exception):
    """What a student or staff asked of groups and may not: the HTTP status and the message they read."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# ------------------------------------------------------------------ who is in which group


def group_of(session: Session, person_id: int, assignment: str) -> Group | None:
    return session.scalar(select(Group).join(Membership, Membership.group_id == Group.id).where(
        Membership.person_id == person_id, Membership.assignment == assignment))


def members(session: Session, group_id: int) -> list[Person]:
    return list(session.scalars(select(Person).join(Membership, Membership.person_id == Person.id)
                                .where(Membership.group_id == group_id).order_by(Person.student_id)))


def member_ids(session: Session, person_id: int, assignment: str) -> list[int]:
    """The people whose counted score a submission of ``person_id``'s changes: their group's, or them alone."""
    group = group_of(session, person_id, assignment)
    return [person_id] if group is None else [each.id for each in members(session, group.id)]


def has_submission(session: Session, group_id: int) -> bool:
    return session.scalar(select(Submission.id).where(Submission.group_id == group_id).limit(1)) is not None


def visible(session: Session, person_id: int, assignment: str) -> list[Submission]:
    """What a student sees of an assignment, oldest first: every submission they made, and their group's."""
    group = group_of(session, person_id, assignment)
    mine = Submission.person_id == person_id
    return list(session.scalars(select(Submission).where(
        Submission.assignment == assignment, or_(mine, Submission.group_id == group.id) if group else mine)
        .order_by(Submission.id)))


def counting(submissions: list, person_id: int, group_id: int | None) -> list:
    """Those of ``submissions`` (one student's, ``visible``) that may count: the group's once it has one; the
    student's own until then (earlier ones stay in their history and stop counting)."""
    groups = [each for each in submissions if group_id is not None and each.group_id == group_id]
    return groups or [each for each in submissions if each.person_id == person_id]


def can_see(session: Session, person_id: int, submission: Submission) -> bool:
    if submission.person_id == person_id:
        return True
    if submission.group_id is None:
        return False
    group = group_of(session, person_id, submission.assignment)
    return group is not None and group.id == submission.group_id


# ------------------------------------------------------------------ invitations


def invitations(session: Session, person_id: int, assignment: str) -> tuple[list[Person], list[Person]]:
    """(those this student invited, those who invited them), by student id."""
    def people(mine, theirs) -> list[Person]:
        return list(session.scalars(select(Person).join(Invitation, theirs == Person.id).where(
            Invitation.assignment == assignment, mine == person_id).order_by(Person.student_id)))
    return (people(Invitation.inviter_id, Invitation.invitee_id),
            people(Invitation.invitee_id, Invitation.inviter_id))


def _student(session: Session, student_id: str | None = None, email: str | None = None) -> Person:
    if not student_id and not email:
        raise Refused(400, 'name the student: {"student_id": ...} or {"email": ...}')
    column, value = (Person.student_id, student_id) if student_id else (func.lower(Person.email), email.lower())
    found = session.scalars(select(Person).where(column == value)).first()
    if found is None:
        raise Refused(404, f"no student of the course has the {'student id' if student_id else 'email'} "
                           f"{student_id or email}: check it with your partner")
    if found.role != STUDENT:
        raise Refused(400, f"{found.student_id} is course staff, not a student: groups are of students")
    return found


def _size(session: Session, person_id: int, assignment: str) -> int:
    """The students a group of ``person_id``'s has or has invited (themselves alone: 1)."""
    ids = member_ids(session, person_id, assignment)
    waiting = session.scalar(select(func.count()).select_from(Invitation).where(
        Invitation.assignment == assignment, Invitation.inviter_id.in_(ids)))
    return len(ids) + (waiting or 0)


def invite(session: Session, rules: Assignment, inviter: Person, variant_of: VariantOf, *,
           student_id: str | None = None, email: str | None = None) -> Person:
    """Invite a student to ``inviter``'s group (made when they accept); the invitee, or Refused."""
    if rules.group_size < 2:
        raise Refused(400, f"{rules.name} is done alone (no groups)")
    if inviter.role != STUDENT:
        raise Refused(403, "groups are of students: staff set them (hog serve groups)")
    invitee = _student(session, student_id, email)
    if invitee.id == inviter.id:
        raise Refused(400, "you cannot invite yourself: name your partner")
    if group_of(session, invitee.id, rules.name) is not None:
        raise Refused(409, f"{invitee.student_id} is in a group of {rules.name} already")
    if session.scalar(select(Invitation.id).where(Invitation.assignment == rules.name, Invitation.inviter_id
                                                  == inviter.id, Invitation.invitee_id == invitee.id)):
        raise Refused(409, f"you invited {invitee.student_id} already")
    if _size(session, inviter.id, rules.name) >= rules.group_size:
        raise Refused(409, f"a group of {rules.name} has at most {rules.group_size} students, counting those "
                           f"invited: withdraw an invitation first")
    if variant_of(invitee) != variant_of(inviter):
        raise Refused(409, f"{invitee.student_id} works in another variant of {rules.name}: a group's members "
                           f"share one (ask the course staff)")
    session.add(Invitation(assignment=rules.name, inviter_id=inviter.id, invitee_id=invitee.id, made_at=db.now()))
    session.flush()
    return invitee


def _invitation(session: Session, assignment: str, inviter_id: int, invitee_id: int) -> Invitation | None:
    return session.scalar(select(Invitation).where(Invitation.assignment == assignment, Invitation.inviter_id ==
                                                   inviter_id, Invitation.invitee_id == invitee_id))


def _named(session: Session, student_id) -> Person:
    if not isinstance(student_id, str) or not student_id:
        raise Refused(400, 'name the student by their student id: {"from": "..."}')
    found = session.scalars(select(Person).where(Person.student_id == student_id)).first()
    if found is None:
        raise Refused(404, f"no invitation with {student_id}")
    return found


def accept(session: Session, rules: Assignment, person: Person, inviter_id: str) -> Group:
    """Join the group of the student who invited ``person`` (made now if they had none); Refused otherwise."""
    inviter = _named(session, inviter_id)
    invitation = _invitation(session, rules.name, inviter.id, person.id)
    if invitation is None:
        raise Refused(404, f"no invitation from {inviter_id} to {rules.name}")
    if group_of(session, person.id, rules.name) is not None:
        raise Refused(409, f"you are in a group of {rules.name} already: leave it first")
    group = group_of(session, inviter.id, rules.name)
    if group is not None and len(members(session, group.id)) >= rules.group_size:
        raise Refused(409, f"{inviter.student_id}'s group of {rules.name} is full ({rules.group_size} students)")
    session.delete(invitation)
    if group is None:
        group = Group(assignment=rules.name, name=f"g-{secrets.token_hex(4)}")
        session.add(group)
        session.flush()
        session.add(Membership(group_id=group.id, person_id=inviter.id, assignment=rules.name))
    session.add(Membership(group_id=group.id, person_id=person.id, assignment=rules.name))
    # The one who joined no longer invites anyone, nor is invited; a full group invites no more.
    session.execute(delete(Invitation).where(Invitation.assignment == rules.name, or_(
        Invitation.inviter_id == person.id, Invitation.invitee_id == person.id)))
    session.flush()
    if len(members(session, group.id)) >= rules.group_size:
        session.execute(delete(Invitation).where(Invitation.assignment == rules.name, Invitation.inviter_id.in_(
            [each.id for each in members(session, group.id)])))
    return group


def decline(session: Session, rules: Assignment, person: Person, inviter_id: str) -> None:
    invitation = _invitation(session, rules.name, _named(session, inviter_id).id, person.id)
    if invitation is None:
        raise Refused(404, f"no invitation from {inviter_id} to {rules.name}")
    session.delete(invitation)


def withdraw(session: Session, rules: Assignment, person: Person, invitee_id: str) -> None:
    invitation = _invitation(session, rules.name, person.id, _named(session, invitee_id).id)
    if invitation is None:
        raise Refused(404, f"you have not invited {invitee_id} to {rules.name}")
    session.delete(invitation)


def leave(session: Session, rules: Assignment, person: Person) -> None:
    """Leave one's group while it has no submission (a group left with one member is no group)."""
    group = group_of(session, person.id, rules.name)
    if group is None:
        raise Refused(409, f"you are in no group of {rules.name}")
    if has_submission(session, group.id):
        raise Refused(409, f"your group has submitted to {rules.name}: only the course staff can change it now")
    session.execute(delete(Membership).where(Membership.person_id == person.id, Membership.assignment == rules.name))
    session.execute(delete(Invitation).where(Invitation.assignment == rules.name, Invitation.inviter_id == person.id))
    if len(members(session, group.id)) < 2:
        session.execute(delete(Membership).where(Membership.group_id == group.id))
        session.delete(group)
    session.flush()
