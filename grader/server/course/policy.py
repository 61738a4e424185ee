"""An assignment's rules for a submission: open or closed, late days, the penalty, the counted score and
the rate limit, when hidden cases are shown. Plain functions of the config's ``Assignment`` and times, so
each rule is tested alone."""

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


def counted(assignment: Assignment, graded: list, late=lambda s: s.late_days) -> object | None:
    """The submission that counts among a student's graded ones (oldest first): the last, or the best
    after penalties (the earliest of equal scores); ``late``: a submission's late days for this student."""
    if not graded:
        return None
    if assignment.score == "last":
        return graded[-1]
    return max(graded, key=lambda s: counted_score(assignment, s.score, late(s)) or 0.0)


def last_moment(assignment: Assignment, longest_extension: int) -> datetime:
    """When no student can submit any more: the due date, the longest extension and the late days past."""
    return assignment.due + (longest_extension + assignment.late_days) * DAY


def hidden_shown(assignment: Assignment, now: datetime, longest_extension: int) -> bool:
    """Whether a student sees the hidden cases their submissions failed, as they see public ones: never
    (``counted``), at once (``shown``), or once no student can still submit (``after_due``: the hidden cases
    are drawn from one seed per assignment, so one student's could be passed on to another)."""
    if assignment.hidden_cases == "shown":
        return True
    return assignment.hidden_cases == "after_due" and now > last_moment(assignment, longest_extension)


def over_limit(assignment: Assignment, recent: int) -> str | None:
    """The message of the rate limit when ``recent`` submissions were made in the last hour, or None."""
    if recent >= assignment.submissions_per_hour:
        return (f"{assignment.name} takes {assignment.submissions_per_hour} submissions per hour"
                f"{' from a group' if assignment.group_size > 1 else ''}: "
                f"wait a little and submit again (your latest one is being graded)")
    return None
