"""The contest leaderboard of an assignment: each student's counted submission ranked by its final
strategy's exact win rate against the baseline, under the alias the student chose (no alias: hidden)."""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.server.course import gradebook
from grader.server.store.models import STUDENT, Person, Submission
from grader.spec.serving import Assignment


def _win_rate(submission: Submission | None) -> float | None:
    if submission is None or not submission.instructor:
        return None
    final = json.loads(submission.instructor).get("final_strategy") or {}
    return final.get("win_rate")


def rows(session: Session, assignment: Assignment, viewer: Person) -> list[dict]:
    """Ranked entries: alias (or "you" beside the viewer's own), win rate; hidden students left out."""
    found = []
    for person in session.scalars(select(Person).where(Person.role == STUDENT)):
        if person.alias is None and person.id != viewer.id:
            continue
        rate = _win_rate(gradebook.counted(assignment, gradebook.history(session, person.id, assignment.name)))
        if rate is not None:
            found.append({"alias": person.alias or "(hidden)", "win_rate": rate, "you": person.id == viewer.id})
    found.sort(key=lambda row: -row["win_rate"])
    return [{**row, "rank": number} for number, row in enumerate(found, 1)]
