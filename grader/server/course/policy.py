"""An assignment's rules for a submission: open or closed, late days, the penalty, the counted score and
the rate limit. Plain functions of the config's ``Assignment`` and times, so each rule is tested alone."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from grader.spec.serving import Assignment

DAY = timedelta(days=1)
WINDOW = timedelta(hours=1)


def late_days(assignment: Assignment, when: datetime, extension: int = 0) -> int:
    """Whole days (started) past the due date and the student's extension; 0 on time."""
    past = when - (assignment.due + extension * DAY)
    return 0 if past <= timedelta(0) else math.ceil(past / DAY)


def closed_why(assignment: Assignment, when: datetime, extension: int = 0) -> str | None:
    """Why a submission at ``when`` is not taken (not open yet, past its last late day), or None."""
    if assignment.opens is not None and when < assignment.opens:
        return f"{assignment.name} opens at {assignment.opens.isoformat()}"
    used = late_days(assignment, when, extension)
    if used > assignment.late_days:
        last = assignment.due + (extension + assignment.late_days) * DAY
        return f"{assignment.name} closed at {last.isoformat()} (due date, extension and late days all passed)"
    return None


def counted_score(assignment: Assignment, score: float | None, late: int) -> float | None:
    """The score after the late penalty (never below 0)."""
    if score is None:
        return None
    return max(0.0, score * (1 - assignment.penalty_per_day * late))


def counted(assignment: Assignment, graded: list) -> object | None:
    """The submission that counts among a student's graded ones (oldest first): the last, or the best
    after penalties (the earliest of equal scores)."""
    if not graded:
        return None
    if assignment.score == "last":
        return graded[-1]
    return max(graded, key=lambda s: counted_score(assignment, s.score, s.late_days) or 0.0)


def over_limit(assignment: Assignment, recent: int) -> str | None:
    """The message of the rate limit when ``recent`` submissions were made in the last hour, or None."""
    if recent >= assignment.submissions_per_hour:
        return (f"{assignment.name} takes {assignment.submissions_per_hour} submissions per hour: "
                f"wait a little and submit again (your latest one is being graded)")
    return None
