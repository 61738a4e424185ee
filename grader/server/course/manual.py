"""The manual part of a grade, read from a review and the assignment's release: the rubric items applied,
the comments, the points they give with the adjustment, and the grade (total and maximum) they make with
the counted submission. What the gradebook, the reviews and the passback share."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy.orm import Session

from grader.server.course import totals
from grader.server.store import db
from grader.server.store.models import Release, Review
from grader.spec.serving import Assignment


def released_at(session: Session, assignment: str) -> datetime | None:
    """When the assignment's manual grades were released (None: not yet; students see nothing of them)."""
    found = session.get(Release, assignment)
    return db.utc(found.released_at) if found is not None else None


def applied(review: Review | None) -> set[str]:
    return set(json.loads(review.applied)) if review is not None else set()


def comments(review: Review | None) -> list[dict]:
    return json.loads(review.comments) if review is not None else []


def points(rules: Assignment, review: Review | None) -> float:
    """The points given by hand: the rubric's applied items (their points now) and the adjustment."""
    return rules.rubric.points(applied(review)) + (review.adjustment if review is not None else 0.0)


def grade(rules: Assignment, mine, review: Review | None,
          counting_manual: bool) -> tuple[float | None, float | None]:
    """(total, total_max) of a student whose standing is ``mine`` (``standing.Standing``: the counted
    submission's score after their late penalty, with the checkpoint and early bonus), the manual part counted
    where ``counting_manual`` (after the release; always for staff reading a review)."""
    if mine.total is None:
        return None, None
    return (totals.total(mine.total, points(rules, review) if counting_manual else 0.0),
            totals.total_max(mine.total_max, rules.rubric.positive if counting_manual else 0.0))
