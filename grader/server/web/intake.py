"""What the web process does with an upload: check who may submit what, keep it, queue it.

The upload is checked (``uploads``) and the assignment's rules applied (``policy``) before anything is
kept; then its row is added, its file written and flushed to disk, and the row committed: only then is it
acknowledged. Where the disk is full or the database stops answering, neither file nor row is kept and the
request is answered 503 (``faults``). Student code is never run here.
"""

from __future__ import annotations

import errno
import functools
import hashlib
from datetime import datetime
from pathlib import Path

from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader import cases as case_source
from grader.classroom import roster
from grader.errors import UsageError
from grader.server.course import policy
from grader.server.store import db, uploads
from grader.server.store.models import Extension, Membership, Person, Seed, Submission
from grader.server.web import faults
from grader.spec.serving import Assignment


FULL = (errno.ENOSPC, errno.EDQUOT)   # a disk (or the server user's quota) full: the machine's fault


class NotTaken(Exception):
    """An upload that is not accepted: the HTTP status and the message the student reads."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@functools.lru_cache(maxsize=8)
def _manifest(path: Path, _modified: float) -> roster.Manifest:
    return roster.read_manifest(path)


def variant_for(course: Path, assignment: Assignment, person: Person) -> str | None:
    """The variant ``person`` works in for ``assignment`` (a roster's manifest gives each their own)."""
    if assignment.variant is not None:
        return assignment.variant
    path = course / assignment.manifest
    try:
        manifest = _manifest(path, path.stat().st_mtime)
    except (OSError, UsageError):
        return None
    student = manifest.student_for(person.student_id) or manifest.student_for(person.email)
    return student.variant if student is not None else None


def variant_of(course: Path, assignment: Assignment):
    """``variant_for`` of one course and assignment, as groups ask it of each person."""
    return lambda person: variant_for(course, assignment, person)


def _extension_days(person: Person, assignment: str):
    return select(Extension.days).where(Extension.person_id == person.id, Extension.assignment == assignment)


def extension(session: Session, person: Person, assignment: str) -> int:
    return session.scalar(_extension_days(person, assignment)) or 0


def _standing(session: Session, person: Person, assignment: str,
              when: datetime) -> tuple[int, int, int | None, int | None]:
    """(the person's extension in days, their submissions in the rate limit's window (their group's, where they
    are in one), the assignment's seed or None before its first submission, their group's id or None), read in
    one query: an upload waits for each round trip it makes."""
    days = _extension_days(person, assignment)
    group = select(Membership.group_id).where(Membership.person_id == person.id,
                                              Membership.assignment == assignment).scalar_subquery()
    recent = select(func.count()).select_from(Submission).where(
        or_(and_(group.is_(None), Submission.person_id == person.id), Submission.group_id == group),
        Submission.assignment == assignment, Submission.submitted_at > when - policy.WINDOW)
    seed = select(Seed.seed).where(Seed.assignment == assignment)
    row = session.execute(select(days.scalar_subquery(), recent.scalar_subquery(), seed.scalar_subquery(),
                                 group)).one()
    return row[0] or 0, row[1] or 0, row[2], row[3]


def _seed(session: Session, assignment: str, found: int | None) -> int:
    """The assignment's seed (``found``, when it was read already), drawn and kept at its first submission."""
    if found is not None:
        return found
    try:
        with session.begin_nested():
            session.add(Seed(assignment=assignment, seed=case_source.new_seed()))
    except IntegrityError:   # another request drew it first
        pass
    return session.get(Seed, assignment).seed


def accept(session: Session, course: Path, assignment: Assignment | None, person: Person, name: str | None,
           content: bytes, when: datetime | None = None) -> Submission:
    """The new submission, on disk and committed; NotTaken (nothing kept) otherwise."""
    when = when or db.now()
    if assignment is None:
        raise NotTaken(404, "no such assignment")
    variant = variant_for(course, assignment, person)
    if variant is None:
        raise NotTaken(403, f"you are not on {assignment.name}'s roster ({assignment.manifest}): ask the staff")
    days, recent, seed, group = _standing(session, person, assignment.name, when)
    closed = policy.closed_why(assignment, when, days)
    if closed:
        raise NotTaken(403, closed)
    limited = policy.over_limit(assignment, recent)
    if limited:
        raise NotTaken(429, limited)
    try:
        upload = uploads.check(name, content)
    except uploads.Refused as refused:
        raise NotTaken(400, str(refused)) from None
    submission = Submission(person_id=person.id, assignment=assignment.name, group_id=group, variant=variant,
                            filename=upload.filename, sent_as=upload.sent_as,
                            sha256=hashlib.sha256(upload.content).hexdigest(),
                            seed=_seed(session, assignment.name, seed), submitted_at=when,
                            late_days=policy.late_days(assignment, when, days), attempt=0)
    session.add(submission)
    session.flush()   # its id names its folder
    folder = uploads.folder(course, assignment.name, submission.id)
    stored = False
    try:
        uploads.store(folder, upload)
        stored = True
        session.commit()
    except BaseException as error:
        # A commit that failed on a database server gone away may have been kept there all the same: its upload
        # stays, so that a row kept is never a row without its file (a server's ids are never given again, so a
        # file whose row was not kept harms nothing). SQLite's commit is decided here, and it gives an id again.
        if not stored or db.is_sqlite(session.get_bind()):
            uploads.discard(folder, upload)   # first: a rollback on a database gone may fail too
        session.rollback()
        if isinstance(error, OSError) and error.errno in FULL:
            raise faults.Unavailable(f"the course server's disk is full ({error.strerror}): nothing was stored; try "
                                     f"again later, and tell your course staff", faults.DISK_RETRY) from None
        raise
    return submission
