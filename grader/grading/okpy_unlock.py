"""A locked okpy case's answers, recovered from a reference ``hog.py`` run in the sandbox.

okpy keeps a locked answer as an HMAC of each line keyed by the assignment's name: the answer itself is not
in the test file. ``hog import-ok --solution PATH`` runs each locked case on the reference, in the sandbox as
any submission (never in the grader's process), takes what each prompt showed as okpy would show it, and
keeps it only where okpy's hash of every line is the one the test file holds: the answer a student unlocking
the case would have had to type.
"""

from __future__ import annotations

from pathlib import Path

from grader.grading import okpy_grade
from grader.sandbox import Limits, run_cases
from grader.spec import okpy_folder
from grader.spec import okpy_format as ok
from grader.spec.okpy_suite import OkCase, OkSuite, Prompt


def _runnable(suite: okpy_folder.ReadSuite, case: okpy_folder.ReadCase) -> tuple[OkSuite, OkCase]:
    prompts = tuple(Prompt(prompt.source, tuple(prompt.answer.lines()), prompt.answer.exception)
                    for prompt in case.prompts)
    return (OkSuite(suite.number, suite.kind, suite.scored, tuple(suite.setup), tuple(suite.teardown), ()),
            OkCase(case.number, case.hidden, prompts))


def recover(assignment: okpy_folder.Assignment, solution: Path, *, minimum: str | None = None,
            limits: Limits | None = None) -> dict[tuple[str, int, int], list[ok.Prompt]]:
    """Each locked case whose answers the reference shows, keyed by (test key, suite, case): its prompts with
    the answers in clear. A case the reference does not reproduce is left out (the import lists it)."""
    locked = okpy_folder.locked_cases(assignment)
    if not locked:
        return {}
    runnable = [_runnable(suite, case) for _, suite, case in locked]
    report = run_cases(solution, [okpy_grade.sources(suite, case) for suite, case in runnable], setup=(),
                       support_files=okpy_grade.support_files(solution, okpy_folder.carried_files(assignment)),
                       limits=limits or Limits(), names=None,
                       groups=[test.key for test, _, _ in locked], minimum=minimum)
    recovered = {}
    for (test, suite, case), (runnable_suite, _), run in zip(locked, runnable, report.cases):
        setup = len(runnable_suite.setup)
        shown = [okpy_grade.actual(step) for step in run.steps[setup:setup + len(case.prompts)]]
        lines = None if any(got is None for got in shown) else [got[1] for got in shown]
        prompts = okpy_folder.unlocked(assignment, case, lines)
        if prompts is not None:
            recovered[test.key, suite.number, case.number] = prompts
    return recovered
