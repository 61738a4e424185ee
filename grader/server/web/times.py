"""Times on the pages: each a ``<time datetime>`` whose text is the ISO form (in UTC), which the static
script ``static/times.js`` shows in the reader's own time zone, with a relative form where it helps ("in 2
days", "3 seconds ago"). A due date is said in the course's own time zone too, named, written here, so that
a student abroad sees both the course's deadline and their own clock's."""

from __future__ import annotations

from datetime import datetime

from markupsafe import Markup

from grader.server.store import db
from grader.spec.serving import Assignment


def when(moment: datetime | None, relative: bool = True) -> Markup:
    """``moment`` as a ``<time>`` element (empty for None)."""
    if moment is None:
        return Markup("")
    text = db.utc(moment).isoformat(timespec="seconds")
    return Markup('<time datetime="{0}"{1}>{0}</time>').format(text, Markup(" data-relative") if relative else "")


def due(assignment: Assignment, time_zone: str) -> Markup:
    """The due date in the reader's zone and, named, in the course's own (``time_zone``, its IANA name)."""
    local = assignment.due.astimezone(assignment.zone)
    return Markup('{0} <span class="text-body-secondary">({1}, {2})</span>').format(
        when(assignment.due), local.strftime("%a %d %b %Y, %H:%M %Z"), time_zone)
