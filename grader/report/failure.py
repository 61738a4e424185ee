"""How one failing case reads: the session as typed, what was expected, what came back.

The layout itself is shared with the students' own pytest run
(``grader/shipped/student/case_report.py``), so both read the same.
"""

from __future__ import annotations

from grader.grading.grade import HIDDEN_FAILED, CaseVerdict, QuestionResult
from grader.spec import okpy_suite
from grader.shipped.student.case_report import RERUN, RULE, failure

__all__ = ["RERUN", "RULE", "describe", "revealed", "session_lines"]   # ``hog test`` passes its own rerun command


def prompt(source: str) -> list[str]:
    lines = source.rstrip("\n").splitlines()
    return [">>> " + lines[0]] + ["... " + line for line in lines[1:]]


def session_lines(setup: str, verdict: CaseVerdict) -> list[str]:
    """The case as typed up to the failing line, with what earlier lines showed."""
    lines = setup.rstrip("\n").splitlines()
    for index, step in enumerate(verdict.case.steps[:verdict.step + 1]):
        lines += prompt(step.source)
        if index < verdict.step and step.want:
            lines += step.want.rstrip("\n").splitlines()
    return lines


def describe(result: QuestionResult, setup: str, rerun: str, *, student: bool = False) -> str:
    """The explanation of a question that lost points. For instructors a public case names its
    origin and spec line; for a student (``hog test``, the Gradescope results) where it is in the
    handout's rules, and no file of the kit's."""
    verdict = result.first_failure
    if verdict is None:
        return result.message
    if verdict.case.hidden:
        return f"{result.question.heading}: {HIDDEN_FAILED} (the public cases may all pass; " \
               f"check the rules in the handout)"
    if result.question.name:   # an imported okpy test: its cases' setup is their own, its rerun okpy's
        text = failure(f"{result.question.heading} > {verdict.case.origin}",
                       "" if student else f"({verdict.case.path})",
                       session_lines("", verdict), verdict.case.steps[verdict.step].want, verdict.got,
                       okpy_suite.rerun(verdict.case.id))
        return text.strip("-\n")
    short = verdict.case.id.split("-", 1)[1]
    text = failure(f"Question {result.question.label} > Case {short}",
                   f"({verdict.case.label})" if student else f"({verdict.case.origin}; {verdict.case.where})",
                   session_lines(setup, verdict),
                   verdict.case.steps[verdict.step].want, verdict.got, rerun)
    text = text.strip("-\n")  # the text report draws its own rules between questions
    return text + (f"\n{result.message}" if result.message else "")


def revealed(result: QuestionResult, setup: str, rerun: str) -> str:
    """A question's first failing case shown as a student is shown a public one (the session, what was
    expected, what came back), though it is hidden: what the course server shows once no student can submit
    any more (``hidden_cases``); "" when the question's first failing case is not hidden."""
    verdict = result.first_failure
    if verdict is None or not verdict.case.hidden:
        return ""
    number = verdict.case.id.rsplit("-", 1)[-1]
    text = failure(f"{result.question.heading} > hidden case {number}", f"({verdict.case.label})",
                   session_lines("" if result.question.name else setup, verdict),
                   verdict.case.steps[verdict.step].want, verdict.got, rerun)
    return text.strip("-\n") + (f"\n{result.message}" if result.message else "")
