"""How one failing case reads: the session as typed, what was expected, what came back."""

from __future__ import annotations

from grader.grade import HIDDEN_FAILED, CaseVerdict, QuestionResult

RULE = "-" * 69


def commented(text: str) -> str:
    lines = text.rstrip("\n").splitlines() or ["Nothing: the line returned None and printed nothing"]
    return "\n".join("#     " + line for line in lines)


def prompt(source: str) -> str:
    lines = source.rstrip("\n").splitlines()
    return "\n".join([">>> " + lines[0]] + ["... " + line for line in lines[1:]])


def session(setup: str, verdict: CaseVerdict) -> str:
    """The case as typed up to the failing line, with what earlier lines showed."""
    lines = [setup.rstrip("\n")]
    for index, step in enumerate(verdict.case.steps[:verdict.step + 1]):
        lines.append(prompt(step.source))
        if index < verdict.step and step.want:
            lines.append(step.want.rstrip("\n"))
    failing = verdict.case.steps[verdict.step]
    return "\n".join(lines + ["", "# Error: expected", commented(failing.want), "# but got", commented(verdict.got)])


def describe(result: QuestionResult, setup: str, rerun: str) -> str:
    """The explanation of a question that lost points."""
    if result.message and not result.first_failure:
        return result.message
    verdict = result.first_failure
    if verdict is None:
        return result.message
    if verdict.case.hidden:
        return f"{HIDDEN_FAILED} (the public cases may all pass; check the rules in the handout)"
    short = verdict.case.id.split("-", 1)[1]
    where = f"({verdict.case.origin}; {verdict.case.where})"
    parts = [f"Question {result.question.label} > Case {short}", where, "", session(setup, verdict), "",
             f"Run only this question:  {rerun}"]
    if result.message:
        parts.append(result.message)
    return "\n".join(parts)
