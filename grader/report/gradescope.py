"""Gradescope's results.json: score, max_score, execution_time, output, tests[]."""

from __future__ import annotations

import json

from grader.grade import GradeResult
from grader.report.failure import RERUN, describe


def results(result: GradeResult, *, rerun: str = RERUN) -> dict:
    if result.grader_error:
        return {"score": 0, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
                "output": f"grader failed: {result.grader_error}",
                "tests": [{"name": "grader failed", "number": "0", "score": 0, "max_score": result.max_score,
                           "status": "failed", "output": result.grader_error, "visibility": "visible"}]}
    tests = []
    for question in result.questions:
        passed, total = question.counts
        output = f"{passed}/{total} cases passed"
        if question.message:
            output += f"\n{question.message}"
        if not question.passed and (result.import_error or question.first_failure is not None):
            explanation = result.import_error or describe(question, result.variant.setup,
                                                          rerun.format(number=question.question.number))
            output += "\n\n" + explanation
        tests.append({"name": f"Question {question.question.label}: {question.question.title} "
                              f"({question.question.function})",
                      "number": question.question.label, "score": question.score,
                      "max_score": question.max_score, "status": "passed" if question.passed else "failed",
                      "output": output, "visibility": "visible"})
    output = f"Hog ({result.variant.title}). Isolation: {result.isolation}."
    if result.import_error:
        output += f"\nhog.py could not be imported: {result.import_error}"
    return {"score": result.score, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
            "output": output, "tests": tests}


def render(result: GradeResult, **options) -> str:
    return json.dumps(results(result, **options), indent=2) + "\n"
