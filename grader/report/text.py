"""The ok client's style: a line per question, then each failing question's first failing case."""

from __future__ import annotations

from pathlib import Path

from grader.grading.grade import GradeResult
from grader.report.failure import RERUN, RULE, describe


def _points(value: float) -> str:
    return f"{value:g}"


def unlock_line(status) -> str:
    """Whether a question was unlocked, from the submitted .hog_unlock.json."""
    state = "unlocked" if status.unlocked else f"locked: {status.done}/{status.total} answered " \
                                               f"(python3 unlock.py -q {status.question.number})"
    points = f"  {_points(status.score)}/{_points(status.question.unlock.points)}" if status.question.unlock.points else ""
    return f"Unlock   {status.question.label:>3}  {state}{points}"


def _hog_file(submission: str) -> str:
    """The graded file as the user names it: ``hog.py`` for ``hog test`` in its folder."""
    path = Path(submission)
    return str(path / "hog.py") if path.is_dir() else str(path)


def _named(question, width: int) -> str:
    """A question's column: ``Question   5  take_turn``, or an imported okpy test's own name."""
    if question.name:
        return f"{question.name:<{width + 14}}"
    return f"Question {question.label:>3}  {question.function:<{width}}"


def render(result: GradeResult, *, rerun: str = RERUN, student: bool = False) -> str:
    variant = result.variant
    lines = [RULE, f"Hog ({variant.title}): {_hog_file(result.submission)}"]
    if result.grader_error:
        lines += [RULE, f"grader failed: {result.grader_error}", "Score: 0 (this is a fault of the kit, "
                  "not of the submission; please report it)"]
        return "\n".join(lines) + "\n"
    if result.import_error:
        lines += ["", "hog.py could not be imported, so no question could be graded:", result.import_error]
    lines.append(RULE)
    width = max(len(q.question.function) for q in result.questions)
    for question in result.questions:
        state = "passed" if question.passed else ("partly" if question.score else "failed")
        passed, total = question.counts
        lines.append(f"{_named(question.question, width)}  {state:<6}  "
                     f"{_points(question.score)}/{_points(question.max_score)}  ({passed}/{total} cases)")
        if question.message:
            lines.append(f"              {question.message}")
    lines += [unlock_line(status) for status in result.unlocks]
    for question in result.questions:
        if not question.passed and not result.import_error and \
                (question.first_failure is not None or question.diagnosis is not None):
            lines += [RULE, describe(question, variant.setup, rerun.format(number=question.question.number),
                                         student=student)]
    lines += [RULE, f"Score: {_points(result.score)}/{_points(result.max_score)}",
              f"Isolation: {result.isolation}", f"Graded in {result.seconds:.2f} s"]
    if result.seed is not None:
        lines.append(f"Hidden cases drawn from seed {result.seed} (--seed {result.seed} grades with them again)")
    return "\n".join(lines) + "\n"
