"""``GET /metrics`` in Prometheus's text format (prometheus-client): submissions by status, the queue's depth
and its oldest job's wait, the graders alive, the "grader failed" results of the last hour, and a histogram
of grading time (``graded_at - claimed_at`` of the graded submissions). Grading happens in another process,
so every figure is read from the database when Prometheus scrapes (a collector of this app's own registry),
never counted in the web process.

Who may read it: a request from this machine (``forwarded.local``: a Prometheus on the same machine), or
one with ``Authorization: Bearer`` and the token in ``server/metrics_token`` (made at the first start,
readable by the server's user alone; give its path to Prometheus's ``credentials_file``). Anyone else: 403.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Blueprint, Response, current_app
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily
from sqlalchemy import Engine, and_, case, func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from grader.project.files import kept_secret
from grader.server.store import db
from grader.server.store.models import GRADED, Submission
from grader.server.web import access, forwarded, health

metrics = Blueprint("metrics", __name__)
TOKEN = access.METRICS_TOKEN      # server/metrics_token: what a Prometheus elsewhere sends as its Bearer token
REGISTRY = "hog.metrics"          # the app's CollectorRegistry, in its config
BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)   # seconds a grading took


def token(folder: Path) -> str:
    """The metrics token (made, readable by its owner alone, when there is none)."""
    return kept_secret(folder / TOKEN, lambda: secrets.token_urlsafe(32))


def _seconds(engine: Engine):
    """A graded submission's grading time in seconds, as this database computes it."""
    if db.is_sqlite(engine):
        return (func.julianday(Submission.graded_at) - func.julianday(Submission.claimed_at)) * 86400.0
    return func.extract("epoch", Submission.graded_at - Submission.claimed_at)


def grading_time(session: Session, engine: Engine) -> tuple[list[int], int, float]:
    """(graded submissions at most each bound of BUCKETS long, how many in all, their seconds together),
    counted by the database in one query."""
    seconds = _seconds(engine)
    row = session.execute(select(*(func.coalesce(func.sum(case((seconds <= bound, 1), else_=0)), 0)
                                   for bound in BUCKETS), func.count(), func.coalesce(func.sum(seconds), 0.0))
                          .where(and_(Submission.status == GRADED, Submission.claimed_at.is_not(None),
                                      Submission.graded_at.is_not(None)))).one()
    return [int(each) for each in row[:len(BUCKETS)]], int(row[-2]), float(row[-1])


class Collector:
    """The figures, read from the database at each scrape; none where it does not answer (``hog_up`` 0)."""

    def __init__(self, engine: Engine, sessions: sessionmaker[Session]):
        self.engine, self.sessions = engine, sessions

    def collect(self):
        up = GaugeMetricFamily("hog_database_up", "Whether the database answered this scrape (1) or not (0)")
        try:
            with self.sessions() as session:
                facts = health.read(session)
                within, count, total = grading_time(session, self.engine)
        except (SQLAlchemyError, OSError):
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        statuses = GaugeMetricFamily("hog_submissions", "Submissions by status", labels=["status"])
        for status, number in facts.statuses.items():
            statuses.add_metric([status], number)
        yield statuses
        yield GaugeMetricFamily("hog_queue_depth", "Submissions queued or being graded", value=facts.waiting)
        yield GaugeMetricFamily("hog_queue_oldest_seconds", "How long the oldest queued submission has waited "
                                "(0: none queued)", value=facts.oldest_queued or 0.0)
        yield GaugeMetricFamily("hog_graders_alive", "Grader processes whose heartbeat is recent",
                                value=len(facts.alive))
        yield GaugeMetricFamily("hog_graders_with_a_problem", "Graders alive that report a problem of their "
                                "machine", value=sum(1 for seen in facts.alive if seen.problem))
        yield GaugeMetricFamily("hog_grader_failures_last_hour", "Results 'grader failed' written in the last hour",
                                value=facts.failures_last_hour)
        yield HistogramMetricFamily("hog_grading_seconds", "Time from a graded submission's claim to its result",
                                    buckets=[*((str(bound), number) for bound, number in zip(BUCKETS, within)),
                                             ("+Inf", count)], sum_value=total)


def register(app, engine: Engine, sessions: sessionmaker[Session], folder: Path) -> None:
    """Give ``app`` its registry (read from this database) and its metrics token."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(Collector(engine, sessions))
    app.config[REGISTRY] = registry
    app.config[TOKEN] = token(folder)


def _allowed() -> bool:
    return forwarded.local() or access.metrics_token_given()


@metrics.get("/metrics")
def scrape():
    if not _allowed():
        return Response("the metrics are for a Prometheus on this machine, or one sending Authorization: Bearer "
                        "and the token in the course's server/metrics_token\n", 403, mimetype="text/plain")
    return Response(generate_latest(current_app.config[REGISTRY]), mimetype=CONTENT_TYPE_LATEST)
