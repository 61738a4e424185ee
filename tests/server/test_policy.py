"""Late days count the course's calendar days: each day started counts, and the day of a daylight-saving
change is one day (of 23 or 25 hours); the course's time zone is checked when the config is read."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings, strategies as st

from sqlalchemy import select, update

from grader.server.course import policy
from grader.server.grading import queue
from grader.server.store.models import Extension, Person, Submission
from grader.spec.config_error import ConfigError
from grader.spec.serving import Assignment, zone
from tests.server.conftest import issue, upload

LOS_ANGELES = ZoneInfo("America/Los_Angeles")


def rules(due: datetime, time_zone=LOS_ANGELES, late_days: int = 3) -> Assignment:
    return Assignment("hog", "sp19", None, None, due, late_days=late_days, zone=time_zone)


def test_the_day_clocks_go_forward_is_one_late_day_of_23_hours():
    due = datetime(2026, 3, 7, 23, 59, tzinfo=LOS_ANGELES)             # the night before summer time starts
    assignment = rules(due)
    assert policy.late_days(assignment, datetime(2026, 3, 8, 23, 59, tzinfo=LOS_ANGELES)) == 1   # 23 h later
    assert policy.late_days(assignment, datetime(2026, 3, 9, 0, 0, tzinfo=LOS_ANGELES)) == 2
    assert policy.days_after(assignment, 1) - policy.days_after(assignment, 0) == timedelta(hours=23)


def test_the_day_clocks_go_back_is_one_late_day_of_25_hours():
    due = datetime(2026, 10, 31, 23, 59, tzinfo=LOS_ANGELES)
    assignment = rules(due)
    later = datetime(2026, 11, 1, 23, 58, tzinfo=LOS_ANGELES)          # 24 h 59 min later: still the first day
    assert later.astimezone(timezone.utc) - due.astimezone(timezone.utc) > timedelta(hours=24)
    assert policy.late_days(assignment, later) == 1
    assert policy.late_days(assignment, datetime(2026, 11, 2, 0, 0, tzinfo=LOS_ANGELES)) == 2
    assert policy.late_days(assignment, later, extension=1) == 0       # an extension is calendar days too
    assert policy.closed_why(assignment, datetime(2026, 11, 3, 23, 59, tzinfo=LOS_ANGELES)) is None
    assert policy.closed_why(assignment, datetime(2026, 11, 4, 0, 0, tzinfo=LOS_ANGELES)).startswith(
        "hog closed at 2026-11-03T23:59:00-08:00")                    # said in the course's own zone


def _counted_by_hand(assignment: Assignment, when: datetime, extension: int) -> int:
    """The definition itself: the first day k (0 on time) whose end, the due time k calendar days after the
    due date and extension in the course's zone, is not before ``when``."""
    late = 0
    while when.astimezone(timezone.utc) > policy.days_after(assignment, extension + late):
        late += 1
    return late


ZONES = st.sampled_from(["America/Los_Angeles", "Europe/London", "Australia/Lord_Howe", "Asia/Shanghai", "UTC"])
MOMENTS = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 31))


@settings(max_examples=60, deadline=None)
@given(name=ZONES, due=MOMENTS, after=st.floats(min_value=-3, max_value=10), extension=st.integers(0, 3))
def test_late_days_are_the_course_days_started_after_the_due_date_in_any_zone_over_any_change(
        name, due, after, extension):
    course_zone = ZoneInfo(name)
    assignment = rules(due.replace(tzinfo=course_zone), course_zone)
    when = assignment.due.astimezone(timezone.utc) + timedelta(days=after)
    counted = policy.late_days(assignment, when, extension)
    assert counted == _counted_by_hand(assignment, when, extension)
    assert (counted == 0) == (when <= policy.days_after(assignment, extension))
    assert counted <= max(0, after) + 2   # never more than the days elapsed (one started, one of 23 hours)


def test_the_course_time_zone_is_an_iana_name_checked_with_its_line():
    assert zone({}, "hog-course.toml", {})[0] == "UTC"
    assert zone({"time_zone": "America/Los_Angeles"}, "hog-course.toml", {})[1] == LOS_ANGELES
    for wrong in ("Pacific Time", "../../etc/passwd", 7, ""):
        with pytest.raises(ConfigError) as raised:
            zone({"time_zone": wrong}, "hog-course.toml", {"time_zone": 2})
        assert str(raised.value).startswith("hog-course.toml:2: time_zone ")
        assert 'time_zone = "America/Los_Angeles"' in str(raised.value)


def test_late_days_counted_at_the_upload_stay_until_a_regrade_counts_them_again(app):
    """An extension given after an upload changes nothing shown until the submission is graded again."""
    engine, settings = app.config["hog.settings"].engine, app.config["hog.settings"]
    tokens = issue(app, "s1")
    assert upload(app.test_client(), tokens["s1"], b'"""Hog."""\n').status_code == 202
    with engine.begin() as connection:   # as if sent 30 hours after the due date
        late = settings.server.assignment("hog").due + timedelta(hours=30)
        connection.execute(update(Submission).values(submitted_at=late, late_days=2))
    with settings.sessions() as session, session.begin():
        session.add(Extension(person_id=session.scalars(select(Person.id)).one(), assignment="hog", days=1))

    def counted() -> int:
        with engine.connect() as connection:
            return connection.execute(select(Submission.late_days)).scalar_one()
    assert counted() == 2
    assert queue.regrade(engine, "hog", settings.server.assignment("hog")) == 1
    assert counted() == 1
