"""The course server's grading rate while it had a backlog, read from its database after a burst.

A burst spreads its uploads over a minute. A server that grades faster than they come never holds a
queue: the queue is drained a moment after the last upload, and uploads over the time from the first
upload to the drain measure how fast they came, not how fast the server grades. ``full_load`` measures
the second: the submissions graded while at least twice as many as there are workers were in the system
(queued or grading: every worker had one and the next one waiting, as ``grade-batch``'s pool always has),
over the time that lasted. That is the rate ``grade-batch``'s is compared with.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path


@dataclass(frozen=True)
class FullLoad:
    graded: int          # results recorded while every worker had a submission and its next one
    seconds: float       # how long that lasted
    most: int            # the most submissions in the system (queued or grading) at once
    lag: float           # from the last upload to the last result

    @property
    def rate(self) -> float:
        return self.graded / self.seconds if self.seconds else 0.0


def full_load(spans: list[tuple[float, float]], workers: int) -> FullLoad:
    """From each submission's (arrival, result) moments in seconds: see the module's text. A result and an
    arrival at the same moment count the result first (a worker that finishes is free before it is given
    the next)."""
    at_least = 2 * workers   # each worker's submission and the next one waiting for it
    events = sorted([(end, -1) for _, end in spans] + [(start, +1) for start, _ in spans])
    inside = graded = most = 0
    seconds, since = 0.0, None
    for moment, change in events:
        if inside >= at_least:
            seconds += moment - since
            graded += change < 0
        inside += change
        most = max(most, inside)
        since = moment
    last_upload = max((start for start, _ in spans), default=0.0)
    last_result = max((end for _, end in spans), default=0.0)
    return FullLoad(graded, seconds, most, max(0.0, last_result - last_upload))


def spans_of(database: Path) -> list[tuple[float, float]]:
    """Each graded submission's (submitted_at, graded_at) in seconds, from the server's SQLite database."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as connection:
        rows = connection.execute("SELECT submitted_at, graded_at FROM submissions "
                                  "WHERE graded_at IS NOT NULL").fetchall()
    return [(datetime.fromisoformat(start).timestamp(), datetime.fromisoformat(end).timestamp())
            for start, end in rows]
