"""Gradescope's results.json: score, max_score, execution_time, output, tests[].

Beside Gradescope's fields, three of the kit's own: ``isolation`` (what isolated
the submission), ``seed`` (what the hidden cases were drawn from; a regrade with
it grades the same cases) and ``grader_failed`` (true when the kit itself failed:
the score is then no verdict on the submission, and a batch rerun regrades it).
"""

from __future__ import annotations

import json

from grader.grade import GradeResult
from grader.report.failure import RERUN, describe


def results(result: GradeResult, *, rerun: str = RERUN) -> dict:
    if result.grader_error:
        return {"score": 0, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
                "output": f"grader failed: {result.grader_error}",
                "tests": [{"name": "grader failed", "number": "0", "score": 0, "max_score": result.max_score,
                           "status": "failed", "output": result.grader_error, "visibility": "visible"}],
                "isolation": result.isolation, "seed": result.seed, "grader_failed": True}
    tests = []
    for question in result.questions:
        passed, total = question.counts
        output = f"{passed}/{total} cases passed"
        if question.message:
            output += f"\n{question.message}"
        if not question.passed:
            explanation = result.import_error or describe(question, result.variant.setup,
                                                          rerun.format(number=question.question.number))
            output += "\n\n" + explanation
        tests.append({"name": f"Question {question.question.label}: {question.question.title} "
                              f"({question.question.function})",
                      "number": question.question.label, "score": question.score,
                      "max_score": question.max_score, "status": "passed" if question.passed else "failed",
                      "output": output, "visibility": "visible"})
    output = f"Hog ({result.variant.title}). Isolation: {result.isolation}."
    if result.seed is not None:
        output += f" Hidden cases drawn from seed {result.seed}."
    if result.import_error:
        output += f"\nhog.py could not be imported: {result.import_error}"
    return {"score": result.score, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
            "output": output, "tests": tests, "isolation": result.isolation, "seed": result.seed,
            "grader_failed": False}


def render(result: GradeResult, **options) -> str:
    return json.dumps(results(result, **options), indent=2) + "\n"
