"""PrairieLearn's results.json for an externally graded question: gradable, score, message, output, tests[].

The score is a fraction (0 to 1) of the question's points; each of the variant's questions is one entry of
``tests`` with its ``points`` and ``max_points``. Students read these results, so an entry says what the
Gradescope results say (``grader.report.gradescope``): how many cases passed, the first failing public case
as the ok client shows it, and hidden cases only counted.

A fault of the kit is ``gradable: false`` with the reason in ``message`` (and ``format_errors``, which
PrairieLearn shows for a submission it cannot grade): no score, and PrairieLearn charges the student no
attempt. Beside PrairieLearn's fields, the kit's own as in the Gradescope results: ``kit_version``,
``isolation_level``, ``isolation_allowlist``, ``isolation``, ``seed`` and ``grader_failed``.
"""

from __future__ import annotations

import json

from grader.grading.grade import GradeResult
from grader.report.failure import RERUN
from grader.report.gradescope import counted, diagnosis_field, explained, kit_fields, question_name, summary, unlocked

FAULT = "The autograder failed (not your submission's fault): {error}. Tell your instructor."


def results(result: GradeResult, *, rerun: str = RERUN) -> dict:
    if result.grader_error:
        message = FAULT.format(error=result.grader_error)
        return {"gradable": False, "message": message, "format_errors": [message], "output": "", "tests": [],
                **kit_fields(result)}
    tests = []
    for question in result.questions:
        tests.append({"name": question_name(question.question), "points": question.score,
                      "max_points": question.max_score, "message": counted(question),
                      "output": explained(result, question, rerun), **diagnosis_field(result, question)})
    for status in result.unlocks:
        tests.append({"name": f"Question {status.question.label}: unlocked", "points": status.score,
                      "max_points": status.question.unlock.points, "message": unlocked(status), "output": ""})
    score = result.score / result.max_score if result.max_score else 0.0
    return {"gradable": True, "score": round(min(max(score, 0.0), 1.0), 6),
            "message": f"{result.score:g} / {result.max_score:g} points",
            "output": summary(result), "tests": tests, **kit_fields(result)}


def render(result: GradeResult, **options) -> str:
    return json.dumps(results(result, **options), indent=2) + "\n"
