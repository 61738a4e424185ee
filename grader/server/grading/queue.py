"""The job table: each accepted submission is a row whose ``status`` says where its grading is.

A grader claims rows atomically (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite, whose writers take turns:
one guarded UPDATE), each claim counting an ``attempt``. A result is written with its status in one
commit, and only by the claim that is current (same attempt, still grading), so a submission claimed
again after its grader died is graded once. At start, the jobs of graders that are gone go back to the
queue, with the "grader failed" ones (a fault of the kit is regraded, never left as a zero). While the
server runs, a grader whose machine is well puts its "grader failed" jobs back itself (``requeue_failed``),
each a bounded number of times, later after each try (``RETRY_AFTER``). A result recorded gives the student's
LTI launches of the assignment its counted score to send back (``lti.passback``), in the same commit.
"""

from __future__ import annotations

import json
import os
import socket
from collections import Counter
from datetime import timedelta

from sqlalchemy import Engine, and_, bindparam, delete, func, or_, select, update
from sqlalchemy.orm import Session

from grader import project
from grader.server.course import policy
from grader.server.lti import passback
from grader.server.store import db, liveness
from grader.server.store.models import FAILED, GRADED, GRADING, QUEUED, Extension, Grader, Submission
from grader.spec import course as course_config
from grader.spec.config_error import ConfigError
from grader.spec.serving import Assignment

STALE = timedelta(seconds=20)    # a grader silent this long is taken for dead
# How long after its failed claim a "grader failed" job is put back by a well grader: after its 1st, 2nd, 3rd
# claim; none after its 4th (AUTOMATIC_ATTEMPTS). A job that failed four times on a machine that passed the
# grader's probe each time fails for something of its own (a bug of the kit it meets): tried again for ever,
# it would hold a worker for ever; it stays "grader failed", shown, for a person (hog serve regrade). A claim
# lost with a grader that died counts too: four are rare, and such a job is put back at the next start.
RETRY_AFTER = (5.0, 20.0, 60.0)
AUTOMATIC_ATTEMPTS = len(RETRY_AFTER) + 1


def _pid_namespace() -> str:
    """This process's PID namespace (its inode), "" where there is none to read."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return ""


def grader_name() -> str:
    """host:pid:namespace: two graders of one machine in two PID namespaces may have the same pid."""
    return f"{socket.gethostname()}:{os.getpid()}:{_pid_namespace()}"


def claim(engine: Engine, grader: str, count: int) -> list[tuple[int, int]]:
    """Up to ``count`` queued jobs, oldest first, now this grader's: (submission id, attempt) each."""
    return [(row.id, row.attempt) for row in claim_jobs(engine, grader, count)]


def claim_jobs(engine: Engine, grader: str, count: int) -> list:
    """``claim``, each job with what grading it takes, read in the same statement: rows of (id, attempt,
    variant, assignment, filename, seed), by id."""
    waiting = select(Submission.id).where(Submission.status == QUEUED).order_by(Submission.id).limit(count)
    if db.is_sqlite(engine):   # one writer at a time: the subquery and the update are one step
        chosen = Submission.id.in_(waiting.scalar_subquery())
    else:   # picked once (a materialized CTE), rows others hold are skipped
        picked = waiting.with_for_update(skip_locked=True).cte("picked").prefix_with("MATERIALIZED")
        chosen = Submission.id == picked.c.id
    claimed = (update(Submission).where(chosen, Submission.status == QUEUED)
               .values(status=GRADING, attempt=Submission.attempt + 1, grader=grader, claimed_at=db.now())
               .returning(Submission.id, Submission.attempt, Submission.variant, Submission.assignment,
                          Submission.filename, Submission.seed))
    with engine.begin() as connection:
        return sorted(connection.execute(claimed), key=lambda row: row.id)


def finish(engine: Engine, job: tuple[int, int], data: dict, private: dict | None, fault: bool,
           retried: int = 0) -> bool:
    """Record a job's result with its status in one commit, and ``retried``, how often its grading was
    tried again for a fault of the machine, added to its ``retries``; False when the claim is no longer
    current (it was requeued and claimed again: that claim records the result)."""
    submission, attempt = job
    values = dict(status=FAILED if fault else GRADED, graded_at=db.now(), result=json.dumps(data),
                  instructor=json.dumps(private) if private is not None else None,
                  score=None if fault else data.get("score"), max_score=data.get("max_score"),
                  retries=Submission.retries + retried)
    try:
        config = course_config.current()
    except ConfigError:   # broken while the server runs: the result is kept; hog serve's next start sends it
        config = None
    with engine.begin() as connection:
        done = connection.execute(update(Submission).where(
            Submission.id == submission, Submission.attempt == attempt, Submission.status == GRADING).values(**values)
            .returning(Submission.person_id, Submission.assignment)).first()
        if done is not None and not fault:
            passback.refresh_after(connection, config.server if config else None, *done)
        return done is not None


def release_unknown(engine: Engine, grader: str, working: set[int]) -> int:
    """This grader's claims that it does not know of, back to the queue: a claim whose commit was kept while its
    answer was lost (the database went away in the middle). ``working``: the jobs it does know of. How many."""
    with engine.begin() as connection:
        return connection.execute(update(Submission).where(
            Submission.grader == grader, Submission.status == GRADING, Submission.id.not_in(working))
            .values(status=QUEUED, grader=None)).rowcount


def beat(engine: Engine, grader: str, problem: str | None = None) -> None:
    """Say that ``grader`` is alive (its row's heartbeat), and what it last found wrong with its machine
    (``problem``; None: nothing)."""
    with Session(engine) as session, session.begin():
        db.writing(session)
        row = session.get(Grader, grader)
        if row is None:
            session.add(Grader(id=grader, heartbeat=db.now(), problem=problem))
        else:
            row.heartbeat, row.problem = db.now(), problem


def _dead(row: Grader, root) -> bool:
    """A grader of this machine is dead once its lock (``liveness``) is free; one without a lock here when
    its process is gone, where its pid means the same process (the caller's PID namespace, or a name of
    before namespaces were named); any other when it is silent (STALE)."""
    host, _, rest = row.id.partition(":")
    pid, _, namespace = rest.partition(":")
    if host == socket.gethostname():
        held = liveness.alive(root, row.id)
        if held is not None:
            return not held
        if pid.isdigit() and namespace in ("", _pid_namespace()):
            return not _running(int(pid))
    return db.now() - db.utc(row.heartbeat) > STALE


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (a killed grader whose parent died too may stay one where
    no init process reaps orphans, as in a container)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rpartition(")")[2].split()[:1] != ["Z"]
    except FileNotFoundError:
        return False
    except OSError:   # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True


def requeue_dead(engine: Engine, *, failed: bool = False) -> int:
    """Jobs claimed by graders that are gone (no process, or silent for STALE) back to the queue; with
    ``failed``, the "grader failed" ones too. How many."""
    with Session(engine) as session, session.begin():
        db.writing(session)
        root = project.here().root
        gone = [row.id for row in session.scalars(select(Grader)) if _dead(row, root)]
        claimed = select(Grader.id)
        lost = and_(Submission.status == GRADING,
                    or_(Submission.grader.in_(gone), Submission.grader.is_(None),
                        Submission.grader.not_in(claimed)))
        changed = session.execute(update(Submission).where(or_(lost, Submission.status == FAILED) if failed
                                                           else lost).values(status=QUEUED, grader=None))
        session.execute(delete(Grader).where(Grader.id.in_(gone)))
        return changed.rowcount


def _retryable():
    """The "grader failed" jobs a well grader puts back now: tried fewer than AUTOMATIC_ATTEMPTS times, and
    failed at least RETRY_AFTER (by their claims so far) ago."""
    now = db.now()
    return and_(Submission.status == FAILED, or_(*(
        and_(Submission.attempt == claims, Submission.graded_at <= now - timedelta(seconds=after))
        for claims, after in enumerate(RETRY_AFTER, start=1))))


def failed_to_retry(engine: Engine) -> Counter:
    """How many "grader failed" jobs are to be put back now, by variant."""
    with engine.connect() as connection:
        return Counter(dict(connection.execute(select(Submission.variant, func.count()).where(_retryable())
                                               .group_by(Submission.variant)).all()))


def requeue_failed(engine: Engine, variants: set[str]) -> int:
    """The "grader failed" jobs of ``variants`` to be put back now (``failed_to_retry``) back in the queue,
    each counting a retry; how many."""
    with engine.begin() as connection:
        return connection.execute(update(Submission).where(_retryable(), Submission.variant.in_(variants)).values(
            status=QUEUED, grader=None, retries=Submission.retries + 1)).rowcount


def regrade(engine: Engine, assignment: str, rules: Assignment | None = None) -> int:
    """Every submission of ``assignment`` not being graded back to the queue (after a spec fix). With its
    ``rules``, each one's late days are counted again as they are now (the course's time zone, the student's
    extension): what was counted at the upload stays until then."""
    with engine.begin() as connection:
        chosen = and_(Submission.assignment == assignment, Submission.status != GRADING)
        if rules is not None:
            extensions = dict(connection.execute(select(Extension.person_id, Extension.days).where(
                Extension.assignment == assignment)).all())
            counted = [{"row": row.id, "late": policy.late_days(rules, db.utc(row.submitted_at),
                                                                 extensions.get(row.person_id, 0))}
                       for row in connection.execute(select(Submission.id, Submission.person_id,
                                                            Submission.submitted_at).where(chosen))]
            if counted:
                connection.execute(update(Submission).where(Submission.id == bindparam("row"))
                                   .values(late_days=bindparam("late")), counted)
        return connection.execute(update(Submission).where(chosen).values(status=QUEUED)).rowcount


def waiting(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Submission).where(
        Submission.status.in_((QUEUED, GRADING)))) or 0
