"""What counts for one student of an assignment: the submission counted, its score after their late
penalty, the checkpoint and the early bonus, and the total.

A group's submissions count for each member by that member's own window: the late days a partner's submission
used are counted from its time and the member's extension (one's own were counted when it was made), a
submission past the member's last late day does not count
for them, and ``score = "last" | "best"`` chooses among the rest; so two members' rows can differ. The
checkpoint is met by a submission made by its date (moved by the member's extension) in which every
checkpoint question passes, hidden cases too; the early bonus by one made by the early date (never moved)
that passes everything.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.server.course import groups, policy, totals
from grader.server.store import db
from grader.server.store.models import GRADED, Extension, Submission
from grader.spec import load_variant
from grader.spec.serving import Assignment

Passed = Callable[[object], "frozenset[str]"]   # the numbers of the questions a graded submission passed


@dataclass(frozen=True)
class Standing:
    chosen: object | None          # the submission counted (None: none graded in the student's window)
    late: int                      # the late days it used, for this student
    score: float | None            # its score after this student's late penalty
    max_score: float | None
    checkpoint: bool | None        # whether the checkpoint was met (None: the assignment sets none)
    early: bool | None             # whether the early bonus was earned (None: the assignment sets none)
    total: float | None            # score with the checkpoint's and the early bonus's points
    total_max: float | None
    outside: int = 0               # the group's submissions made past this student's window: not counted


def late_for(rules: Assignment, submission, extension: int, person_id: int) -> int:
    """The late days ``submission`` used for the student ``person_id`` with ``extension`` days."""
    if submission.person_id == person_id:
        return submission.late_days
    return policy.late_days(rules, db.utc(submission.submitted_at), extension)


@functools.lru_cache(maxsize=64)
def checkpoint_questions(rules: Assignment, variant_id: str) -> frozenset[str]:
    """The checkpoint's questions: those it names, or the variant's phase 1."""
    if rules.checkpoint is None:
        return frozenset()
    if rules.checkpoint.questions is not None:
        return frozenset(rules.checkpoint.questions)
    return frozenset(q.label for q in load_variant(variant_id).questions if q.phase == 1)


def passed_in(result_text: str | None) -> frozenset[str]:
    """The questions a stored result (``hog grade --format json``) says passed."""
    tests = json.loads(result_text or "{}").get("tests", [])
    return frozenset(str(t.get("number")) for t in tests if t.get("status") == "passed")


def of(rules: Assignment, person_id: int, counting: list, extension: int, passed: Passed) -> Standing:
    """The standing of the student ``person_id`` from the submissions that may count for them
    (``groups.counting``; rows with id, person_id, status, submitted_at, late_days, score, max_score, variant),
    oldest first, and their extension in days."""
    late = {s.id: late_for(rules, s, extension, person_id) for s in counting}
    taken = [s for s in counting if late[s.id] <= rules.late_days]
    chosen = policy.counted(rules, [s for s in taken if s.status == GRADED], lambda s: late[s.id])
    score = policy.counted_score(rules, chosen.score, late[chosen.id]) if chosen is not None else None
    bonuses = rules.checkpoint is not None or rules.early is not None
    graded = [s for s in taken if s.status == GRADED and s.score is not None] if bonuses or chosen is None else []
    checkpoint = early = None
    if rules.checkpoint is not None:
        by = policy.later(rules, rules.checkpoint.due, extension)
        checkpoint = any(db.utc(s.submitted_at) <= by and checkpoint_questions(rules, s.variant) <= passed(s)
                         for s in graded)
    if rules.early is not None:
        early = any(db.utc(s.submitted_at) <= rules.early and s.score >= (s.max_score or 0) for s in graded)
    bonus = (rules.checkpoint.points if checkpoint else 0.0) + (rules.early_points if early else 0.0)
    maximum = chosen.max_score if chosen is not None else (graded[-1].max_score if graded else None)
    total = None if chosen is None and not bonus else totals.total(score or 0.0, bonus_points=bonus)
    return Standing(chosen, late[chosen.id] if chosen is not None else 0, score, maximum, checkpoint, early,
                    total, totals.total_max(maximum, bonus_max=rules.bonus_max), len(counting) - len(taken))


def extension(session: Session, person_id: int, assignment: str) -> int:
    return session.scalar(select(Extension.days).where(Extension.person_id == person_id,
                                                       Extension.assignment == assignment)) or 0


def longest_extension(session: Session, assignment: str) -> int:
    return session.scalar(select(func.max(Extension.days)).where(Extension.assignment == assignment)) or 0


def for_person(session: Session, rules: Assignment, person_id: int) -> tuple[list[Submission], Standing]:
    """(every submission the student sees, oldest first; their standing)."""
    group = groups.group_of(session, person_id, rules.name)
    seen = groups.visible(session, person_id, rules.name)
    counting = groups.counting(seen, person_id, group.id if group is not None else None)
    return seen, of(rules, person_id, counting, extension(session, person_id, rules.name),
                    lambda s: passed_in(s.result))
