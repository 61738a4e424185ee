"""An assignment's rules for a submission: open or closed, late days, the penalty, the counted score and
the rate limit. Plain functions of the config's ``Assignment`` and times, so each rule is tested alone.

Days are the course's calendar days (``time_zone`` in hog-course.toml): an extension of a day moves the
due date to the same time of the next day there, and each late day ends at that time of a day after it, so
a day over a daylight-saving change lasts 23 or 25 hours and is still one day."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from grader.spec.serving import Assignment

WINDOW = timedelta(hours=1)


def days_after(assignment: Assignment, days: int) -> datetime:
    """The due date's time of day on the course's calendar day ``days`` after its own, in UTC (the wall time
    of a day whose clocks skip it, as ``zoneinfo`` reads it)."""
    local = assignment.due.astimezone(assignment.zone)
    moved = datetime.combine(local.date() + timedelta(days=days), local.time(), tzinfo=assignment.zone)
    return moved.astimezone(timezone.utc)


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
