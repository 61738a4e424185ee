"""An assignment's rules for a submission: open or closed, late days, the penalty, the counted score and
the rate limit, when hidden cases are shown. Plain functions of the config's ``Assignment`` and times, so
each rule is tested alone.

Days are the course's calendar days (``time_zone`` in hog-course.toml): an extension of a day moves the
due date to the same time of the next day there, and each late day ends at that time of a day after it, so
a day over a daylight-saving change lasts 23 or 25 hours and is still one day."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from grader.spec.serving import Assignment

WINDOW = timedelta(hours=1)


def later(assignment: Assignment, moment: datetime, days: int) -> datetime:
    """``moment``'s time of day on the course's calendar day ``days`` after its own, in UTC (the wall time
    of a day whose clocks skip it, as ``zoneinfo`` reads it): a date moved by an extension."""
    local = moment.astimezone(assignment.zone)
    moved = datetime.combine(local.date() + timedelta(days=days), local.time(), tzinfo=assignment.zone)
    return moved.astimezone(timezone.utc)


def days_after(assignment: Assignment, days: int) -> datetime:
    """The due date moved ``days`` of the course's calendar days later (``later``)."""
    return later(assignment, assignment.due, days)


def late_days(assignment: Assignment, when: datetime, extension: int = 0) -> int:
    """The course's calendar days (each one started) past the due date and the student's extension; 0 on
    time."""
    moment = when.astimezone(timezone.utc)
    if moment <= days_after(assignment, extension):
        return 0
    local, due = when.astimezone(assignment.zone).date(), assignment.due.astimezone(assignment.zone).date()
    late = max(1, (local - due).days - extension)
    return late if moment <= days_after(assignment, extension + late) else late + 1


def closed_why(assignment: Assignment, when: datetime, extension: int = 0) -> str | None:
    """Why a submission at ``when`` is not taken (not open yet, past its last late day), or None."""
    if assignment.opens is not None and when < assignment.opens:
        return f"{assignment.name} opens at {assignment.opens.isoformat()}"
    used = late_days(assignment, when, extension)
    if used > assignment.late_days:
        last = days_after(assignment, extension + assignment.late_days).astimezone(assignment.zone)
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
    return days_after(assignment, longest_extension + assignment.late_days)


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
