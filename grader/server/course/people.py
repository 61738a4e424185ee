"""People and their sign-in tokens: ``hog serve people ROSTER.csv`` and who a request comes from.

A token is ``secrets.token_urlsafe``; only its SHA-256 is stored, so the database cannot sign anyone in.
Issuing a person a token again replaces the hash: the old link and the old ``.hog-token`` stop working.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import secrets
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.classroom.roster import Student
from grader.project.files import write_atomically
from grader.server.store.models import STAFF, STUDENT, Person

ROLES = (STUDENT, STAFF)
PEOPLE_CSV = "people.csv"
COLUMNS = ("student_id", "email", "role", "link")
TOKEN_BYTES = 32


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def link(url: str, token: str) -> str:
    return f"{url}/signin/{token}"


def issue(session: Session, students: tuple[Student, ...], role: str) -> dict[str, str]:
    """A new token for each student of the roster (added when new; role and email updated): id → token."""
    tokens = {}
    existing = {person.student_id: person for person in session.scalars(
        select(Person).where(Person.student_id.in_([s.student_id for s in students])))}
    for student in students:
        person = existing.get(student.student_id)
        if person is None:
            person = Person(student_id=student.student_id)
            session.add(person)
        person.email, person.role, person.role_by_staff = student.email, role, True   # a launch keeps it
        tokens[student.student_id] = secrets.token_urlsafe(TOKEN_BYTES)
        person.token_sha256 = digest(tokens[student.student_id])
    return tokens


def write_csv(path: Path, rows: dict[str, tuple[str, str, str]]) -> None:
    """server/people.csv (mode 0600: it holds every link): the rows already there, those issued now replacing
    theirs. ``rows``: student id → (email, role, link)."""
    kept: dict[str, tuple[str, str, str]] = {}
    if path.is_file():
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if row.get("student_id"):
                    kept[row["student_id"]] = (row.get("email", ""), row.get("role", ""), row.get("link", ""))
    kept.update(rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    writer.writerows([sid, *rest] for sid, rest in kept.items())
    write_atomically(path, buffer.getvalue(), mode=0o600)
    path.chmod(0o600)   # an older file's mode too


def signed_in(session: Session, token: str | None) -> Person | None:
    """The person whose token this is, or None (the hash is looked up, then compared in constant time)."""
    if not token:
        return None
    wanted = digest(token)
    person = session.scalars(select(Person).where(Person.token_sha256 == wanted)).first()
    if person is None or person.token_sha256 is None or not hmac.compare_digest(person.token_sha256, wanted):
        return None
    return person


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
