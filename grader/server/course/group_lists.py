"""Staff set an assignment's groups: ``hog serve groups NAME GROUPS.csv`` (columns ``student_id,group``: the
whole assignment's groups) and the staff pages (one student's). Every row is checked before anything changes;
what changed is reported, one line a student. A student left out is in no group; a group keeps its name
(and the submissions made for it) while staff keep naming it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from grader.server.course.groups import Refused, VariantOf
from grader.server.store.models import STUDENT, Group, Invitation, Membership, Person
from grader.spec.serving import Assignment

COLUMNS = ("student_id", "group")


@dataclass(frozen=True)
class Changed:
    lines: list[str]    # what changed, a line a student ("s1: g1 -> g2"); none: nothing
    people: list[int]   # the ids of the students who changed group (whose counted score may change)


@dataclass(frozen=True)
class Row:
    line: int
    student_id: str
    group: str          # "": in no group


def read_csv(text: str, shown: str) -> list[Row]:
    """The rows of a GROUPS.csv; Refused naming the file, the line and the fix."""
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or [name.strip() for name in reader.fieldnames[:2]] != list(COLUMNS):
        raise Refused(400, f"{shown}:1: the header is {','.join(reader.fieldnames or [])!r}; write "
                           f"{','.join(COLUMNS)} (a student id and their group's name a line)")
    rows = []
    for row in reader:
        student_id = (row.get("student_id") or "").strip()
        if not student_id:
            raise Refused(400, f"{shown}:{reader.line_num}: no student id: write student_id,group")
        rows.append(Row(reader.line_num, student_id, (row.get("group") or "").strip()))
    return rows


def current(session: Session, assignment: str) -> dict[str, str]:
    """Student id → group name, of every student in a group of ``assignment``."""
    return dict(session.execute(select(Person.student_id, Group.name).join(
        Membership, Membership.person_id == Person.id).join(Group, Group.id == Membership.group_id)
        .where(Membership.assignment == assignment)).all())


def _where(shown: str, row: Row) -> str:
    return f"{shown}:{row.line}" if row.line else shown


def _checked(session: Session, rules: Assignment, rows: list[Row], shown: str,
             variant_of: VariantOf) -> dict[str, Person]:
    if rules.group_size < 2:
        raise Refused(400, f"{rules.name} is done alone: set group_size = 2 (or more) in its [assignments."
                           f"{rules.name}] first")
    found = {p.student_id: p for p in session.scalars(select(Person).where(
        Person.student_id.in_([row.student_id for row in rows])))}
    seen: dict[str, int] = {}
    groups: dict[str, list[Row]] = {}
    for row in rows:
        where = _where(shown, row)
        if row.student_id in seen:
            raise Refused(400, f"{where}: {row.student_id} is listed already (line {seen[row.student_id]}): "
                               f"one line a student")
        seen[row.student_id] = row.line
        person = found.get(row.student_id)
        if person is None:
            raise Refused(400, f"{where}: no student {row.student_id} on the server: add them with hog serve "
                               f"people, or fix the id")
        if person.role != STUDENT:
            raise Refused(400, f"{where}: {row.student_id} is course staff: groups are of students")
        if row.group:
            groups.setdefault(row.group, []).append(row)
    for name, listed in groups.items():
        if len(listed) > rules.group_size:
            raise Refused(400, f"{_where(shown, listed[-1])}: group {name} has {len(listed)} students, over "
                               f"{rules.name}'s group_size of {rules.group_size}: split it or raise group_size")
        variants = {variant_of(found[row.student_id]) for row in listed}
        if len(variants) > 1:
            raise Refused(400, f"{_where(shown, listed[-1])}: group {name} mixes variants of {rules.name} "
                               f"(the roster's manifest gives its members different ones): a group shares one")
    return found


def set_groups(session: Session, rules: Assignment, rows: list[Row], variant_of: VariantOf,
               shown: str = "GROUPS.csv") -> Changed:
    """Make the assignment's groups those of ``rows`` (every student not listed: in no group); what changed,
    one line a student (none: nothing changed). Refused, with nothing changed, for any row that is wrong."""
    found = _checked(session, rules, rows, shown, variant_of)
    before = current(session, rules.name)
    after = {row.student_id: row.group for row in rows if row.group}
    changed = sorted(sid for sid in set(before) | set(after) if before.get(sid) != after.get(sid))
    if not changed:
        return Changed([], [])
    named = {g.name: g for g in session.scalars(select(Group).where(Group.assignment == rules.name))}
    moved = [p.id for p in session.scalars(select(Person).where(Person.student_id.in_(changed)))]
    session.execute(delete(Membership).where(Membership.assignment == rules.name, Membership.person_id.in_(moved)))
    session.execute(delete(Invitation).where(Invitation.assignment == rules.name, or_(
        Invitation.inviter_id.in_(moved), Invitation.invitee_id.in_(moved))))
    for student_id in changed:
        name = after.get(student_id)
        if name is None:
            continue
        if name not in named:
            named[name] = Group(assignment=rules.name, name=name)
            session.add(named[name])
            session.flush()
        session.add(Membership(group_id=named[name].id, person_id=found[student_id].id, assignment=rules.name))
    session.flush()
    return Changed([f"{sid}: {before.get(sid) or '(no group)'} -> {after.get(sid) or '(no group)'}"
                    for sid in changed], moved)


def set_one(session: Session, rules: Assignment, person: Person, group: str, variant_of: VariantOf) -> Changed:
    """Put one student in the group named ``group`` ("": in none), the others as they are."""
    rows = [Row(0, sid, name) for sid, name in current(session, rules.name).items() if sid != person.student_id]
    return set_groups(session, rules, rows + [Row(0, person.student_id, group.strip())], variant_of,
                      shown="the group of " + person.student_id)
