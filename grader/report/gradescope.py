"""Gradescope's results.json: score, max_score, execution_time, output, tests[].

Beside Gradescope's fields, six of the kit's own: ``kit_version`` (the Hog kit that graded), ``isolation_level`` (the level
that ran: process, files, bubblewrap; none when nothing ran), ``isolation_allowlist`` (the layer that limited
what the submission could read: bubblewrap, Landlock, chroot; none at the process level), ``isolation`` (what
isolated the submission, in words), ``seed`` (what the hidden cases were drawn from; a regrade with
it grades the same cases) and ``grader_failed`` (true when the kit itself failed:
the score is then no verdict on the submission, and a batch rerun regrades it).

Students read these results, so a failed case names where it is in the handout's rules
(``rules, Feral Hogs, example 1``), never the kit's files; the text report of ``hog grade``,
the instructor's, keeps the seed file and the spec's line.
"""

from __future__ import annotations

import json

from grader import project
from grader.grading.grade import GradeResult, QuestionResult
from grader.cases.unlocking import UnlockStatus
from grader.spec import Question
from grader.report.failure import RERUN, describe, diagnosis_of

UNLOCKED = ".u"   # a question's number + this: the entry that says whether its locked cases were unlocked


def question_name(question: Question) -> str:
    return question.name or f"Question {question.label}: {question.title} ({question.function})"


def counted(question: QuestionResult) -> str:
    """How many of a question's cases passed (hidden ones only counted), and its message."""
    passed, total = question.counts
    return f"{passed}/{total} cases passed" + (f"\n{question.message}" if question.message else "")


def explained(result: GradeResult, question: QuestionResult, rerun: str = RERUN) -> str:
    """Why a question lost points, as a student reads it: the first failing public case as the ok
    client shows it, or a count of the hidden ones; empty when it did not lose any."""
    if question.passed or not (result.import_error or question.first_failure is not None
                               or question.diagnosis is not None):
        return ""
    return result.import_error or describe(question, result.variant.setup,
                                           rerun.format(number=question.question.number), student=True)


def diagnosis_field(result: GradeResult, question: QuestionResult) -> dict:
    """``{"diagnosis": ...}`` for a question whose shown failing case has one (a hidden case's redacted), else {}."""
    found = None if question.passed or result.import_error else diagnosis_of(question, student=True)
    return {} if found is None else {"diagnosis": found.as_json()}


def unlocked(status: UnlockStatus) -> str:
    question = status.question
    return (f"{status.done}/{status.total} locked cases and concept questions unlocked"
            + ("" if status.unlocked else f" (run python3 unlock.py -q {question.number} "
               "and hand in .hog_unlock.json with hog.py)"))


def summary(result: GradeResult) -> str:
    """The line above the questions: the rules, the isolation, the seed; an import error."""
    output = f"Hog ({result.variant.title}). Isolation: {result.isolation}."
    if result.seed is not None:
        output += f" Hidden cases drawn from seed {result.seed}."
    if result.import_error:
        output += f"\nhog.py could not be imported: {result.import_error}"
    return output


def kit_fields(result: GradeResult) -> dict:
    """The kit's own fields of a results.json, beside the platform's (Gradescope's, PrairieLearn's)."""
    return {"isolation_level": result.isolation_level, "isolation_allowlist": result.isolation_allowlist,
            "isolation": result.isolation, "seed": result.seed, "kit_version": project.version(),
            "grader_failed": bool(result.grader_error)}


def results(result: GradeResult, *, rerun: str = RERUN) -> dict:
    if result.grader_error:
        return {"score": 0, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
                "output": f"grader failed: {result.grader_error}",
                "tests": [{"name": "grader failed", "number": "0", "score": 0, "max_score": result.max_score,
                           "status": "failed", "output": result.grader_error, "visibility": "visible"}],
                **kit_fields(result)}
    tests = []
    for question in result.questions:
        output = counted(question)
        explanation = explained(result, question, rerun)
        if explanation:
            output += "\n\n" + explanation
        entry = {"name": question_name(question.question), "number": question.question.label,
                 "score": question.score, "max_score": question.max_score,
                 "status": "passed" if question.passed else "failed", "output": output, "visibility": "visible"}
        tests.append({**entry, **diagnosis_field(result, question)})
    for status in result.unlocks:
        question = status.question
        tests.append({"name": f"Question {question.label}: unlocked", "number": f"{question.label}{UNLOCKED}",
                      "score": status.score, "max_score": question.unlock.points,
                      "status": "passed" if status.unlocked else "failed",
                      "output": unlocked(status), "visibility": "visible"})
    return {"score": result.score, "max_score": result.max_score, "execution_time": round(result.seconds, 3),
            "output": summary(result), "tests": tests, **kit_fields(result)}


def render(result: GradeResult, **options) -> str:
    return json.dumps(results(result, **options), indent=2) + "\n"
