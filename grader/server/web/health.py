"""Whether the course server is well, for an operator's monitor: ``GET /healthz`` (no sign-in, JSON).

It reports the web process (answering: well), the database (a query answers, and how fast), the graders
(alive: a heartbeat within ``queue.STALE``; the latest heartbeat; the problem a grader found with its
machine, ``Grader.problem``), and the queue (its length, queued and grading; how long the oldest queued
job has waited; the "grader failed" jobs of the last hour), to the holder of the metrics token or staff signed
in; anyone else is told the status and the ok flags alone (``minimal``). 200 when all are well; 503 when the database
does not answer, no grader is alive, or a grader reports a problem. It never fails itself: a database that
went away is a 503 saying so, with what is known. ``read`` is what ``metrics`` reads too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Blueprint, jsonify
from sqlalchemy import func, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from grader.server.grading import queue
from grader.server.store import db
from grader.server.store.models import FAILED, GRADING, QUEUED, STAFF, STATUSES, Grader, Submission
from grader.server.web import access

health = Blueprint("health", __name__)
HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Seen:
    """A grader as its row says: its name (host:pid), last heartbeat, the problem it reports, and whether
    it is alive (a heartbeat within ``queue.STALE``)."""
    name: str
    heartbeat: datetime
    problem: str | None
    alive: bool


@dataclass(frozen=True)
class Facts:
    """What the database says of the queue and the graders, read at one moment."""
    latency: float                 # seconds a trivial query took
    statuses: dict[str, int]       # submissions by status (every status, 0 where none)
    oldest_queued: float | None    # seconds the oldest queued submission has waited; None: none queued
    failures_last_hour: int        # "grader failed" results written in the last hour
    graders: tuple[Seen, ...]

    @property
    def waiting(self) -> int:
        return self.statuses[QUEUED] + self.statuses[GRADING]

    @property
    def alive(self) -> tuple[Seen, ...]:
        return tuple(seen for seen in self.graders if seen.alive)


def read(session: Session, now: datetime | None = None) -> Facts:
    """The facts, from ``session`` (SQLAlchemyError when the database does not answer)."""
    now = now or db.now()
    started = time.perf_counter()
    session.execute(text("SELECT 1"))
    latency = time.perf_counter() - started
    counted = dict(session.execute(select(Submission.status, func.count()).group_by(Submission.status)).all())
    oldest = db.utc(session.scalar(select(func.min(Submission.submitted_at)).where(Submission.status == QUEUED)))
    failures = session.scalar(select(func.count()).select_from(Submission).where(
        Submission.status == FAILED, Submission.graded_at >= now - HOUR)) or 0
    graders = tuple(Seen(row.id, db.utc(row.heartbeat), row.problem, now - db.utc(row.heartbeat) <= queue.STALE)
                    for row in session.scalars(select(Grader).order_by(Grader.id)))
    return Facts(latency, {status: counted.get(status, 0) for status in STATUSES},
                 (now - oldest).total_seconds() if oldest is not None else None, failures, graders)


def report(facts: Facts | None, problem: str | None) -> tuple[dict, bool]:
    """What /healthz says, and whether all is well (``facts``: None where the database did not answer,
    ``problem`` saying why)."""
    if facts is None:
        return {"ok": False, "web": {"ok": True}, "database": {"ok": False, "error": problem},
                "graders": None, "queue": None}, False
    alive = facts.alive
    problems = [f"{seen.name}: {seen.problem}" for seen in alive if seen.problem]
    latest = max((seen.heartbeat for seen in facts.graders), default=None)
    graders = {"ok": bool(alive) and not problems, "alive": len(alive),
               "last_heartbeat": access.utc_text(latest) if latest else None, "problems": problems,
               "each": [{"name": seen.name, "alive": seen.alive, "heartbeat": access.utc_text(seen.heartbeat),
                         "problem": seen.problem} for seen in facts.graders]}
    if not alive:
        graders["error"] = (f"no grader has said it is alive in the last {queue.STALE.seconds} s: uploads are "
                            f"kept but not graded (is hog serve's grader process running?)")
    well = graders["ok"]
    return {"ok": well, "web": {"ok": True},
            "database": {"ok": True, "latency_ms": round(facts.latency * 1000, 3)}, "graders": graders,
            "queue": {"ok": True, "length": facts.waiting, "queued": facts.statuses[QUEUED], "grading": facts.statuses[GRADING],
                      "oldest_queued_seconds": round(facts.oldest_queued, 3) if facts.oldest_queued is not None
                      else None, "failures_last_hour": facts.failures_last_hour}}, well


def checked() -> tuple[Facts | None, str | None]:
    """The facts, or None and why the database did not answer (in a session of its own, closed here)."""
    try:
        with access.settings().sessions() as session:
            return read(session), None
    except (SQLAlchemyError, OSError) as error:
        first = (str(error).splitlines() or [""])[0]
        return None, f"the database does not answer: {type(error).__name__}: {first[:300]}"


def minimal(said: dict) -> dict:
    """What a stranger is told: the status and the ok flags alone (no host, pid, path or problem text)."""
    return {"ok": said["ok"], **{part: {"ok": bool(said[part] and said[part].get("ok"))}
                                 for part in ("database", "graders", "queue")}}


def _insider() -> bool:
    """The metrics token's holder, or a member of staff signed in: told everything."""
    if access.metrics_token_given():
        return True
    try:
        found = access.person()
    except (SQLAlchemyError, OSError):   # the database gone: the report says so, to strangers too
        return False
    return found is not None and found.role == STAFF


@health.get("/healthz")
def healthz():
    said, well = report(*checked())
    answer = jsonify(said if _insider() else minimal(said))
    answer.status_code = 200 if well else 503
    answer.headers["Cache-Control"] = "no-store"
    return answer
