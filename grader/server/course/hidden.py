"""What a student sees of the hidden cases their submissions failed (``hidden_cases``): a count and the
rules only, until the assignment says they are shown; then each question's first failing hidden case as a
failing public case is shown (the session, what was expected, what came back), from what the grader kept in
the instructor's record (``revealed``), for every submission graded so."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy.orm import Session

from grader.server.course import policy, standing
from grader.server.store import db
from grader.spec.serving import Assignment


def shown(session: Session, rules: Assignment | None, now: datetime | None = None) -> bool:
    """Whether the hidden cases of ``rules``'s submissions are shown to students now."""
    if rules is None or rules.hidden_cases == "counted":
        return False
    return policy.hidden_shown(rules, now or db.now(), standing.longest_extension(session, rules.name))


def for_student(result: dict | None, instructor: str | None, revealed: bool) -> dict | None:
    """The result a student reads: as graded; or, ``revealed``, each question's output with its first failing
    hidden case shown (a result graded before the grader kept that stays as it was)."""
    if not revealed or result is None or not instructor:
        return result
    kept = {q.get("number"): q["revealed"] for q in json.loads(instructor).get("questions", []) if q.get("revealed")}
    if not kept:
        return result
    return {**result, "tests": [{**test, "output": kept[test.get("number")]} if test.get("number") in kept else test
                                for test in result.get("tests", [])]}
