"""Grading with an imported okpy suite, the way okpy scores it, with the submission run in the sandbox.

okpy (1.18.1, ``client/sources/ok_test``) runs each case of a doctest suite in a fresh namespace: the suite's
setup, then the case's prompts, each compared with what it must show, then the teardown (which runs even
after a failure). A prompt compares as okpy's ``Console._compare``: the lines printed and the value's repr
(``DEBUG:`` lines dropped), or, where it raised, ``Traceback (most recent call last):``, ``  ...`` and
``Type: message``; a bare exception name expected matches that exception too. A suite passes when none of
its cases fails; a test earns its points times its passed suites over its scored ones.

Each okpy case is one case of the sandbox, whose steps are the setup, the prompts and the teardown. The
sandbox ends a case at its first error, where okpy goes on after an error a prompt expected (``Error`` or a
traceback): so each prompt is typed wrapped, evaluated as okpy evaluates it (an expression, else
statements), its value shown with its own ``repr`` as okpy shows it, an error caught inside and shown after
``MARKER``. What a prompt shows is only compared here, outside the submission's process. Setup and
teardown lines are typed the same way but show nothing: okpy evaluates them without comparing what they
show (``importlib.reload(hog)`` shows a module), and a case fails only where one raises.

The case runs where okpy would run it: beside the submission's files, the course's files the suite carries
(its ``tests/`` package, its ``hog_gui.py``, ``dice.py``, ...; they win over the kit's and the submission's
files of the same name), read-only, with the working folder and ``sys.path`` at the submission's folder, so
that ``import tests.construct_check`` and ``open('tests/play.sol')`` find them as okpy's working folder does.
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from grader import project
from grader.grading import grade as kit_grading   # its grade() and grade_safely(), looked up when called
from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult, below_minimum, shown
from grader.sandbox import CaseRun, Limits, StepKind, run_cases
from grader.sandbox.early import Early
from grader.spec import Case, Question, Step, Variant
from grader.spec.okpy_format import TRACEBACK
from grader.spec.okpy_suite import OKPY_ROLE, OkCase, OkSuite, OkTest, Prompt, Suite, case_id

MARKER = "\x1e okpy: raised "      # what a wrapped prompt prints before the error it caught
_DEBUG = re.compile(r"^DEBUG[: ].*\n", re.MULTILINE | re.IGNORECASE)   # okpy's debug.remove_debug
# A prompt as the sandbox types it. The builtins it calls are the namespace's own (``__builtins__``, which
# the sandbox gives each case whole), never names ``from hog import *`` brought in: okpy shows a value
# with its own repr and print whatever hog.py defines.
WRAPPED = """\
__okpy = __builtins__
__okpy_source = {source!r}
try:
    __okpy_code = __okpy["compile"](__okpy_source, "<case>", "eval")
except __okpy["SyntaxError"]:
    __okpy_code = __okpy["compile"](__okpy_source, "<case>", "exec")
try:
    __okpy_value = __okpy["eval"](__okpy_code)
except __okpy["Exception"] as __okpy_error:
    __okpy["print"]({marker!r} + __okpy["type"](__okpy_error).__name__ + ": " + __okpy["str"](__okpy_error))
else:
    if {shows} and __okpy_value is not None:
        __okpy["print"](__okpy["repr"](__okpy_value))
"""


def _typed(source: str, shows: bool) -> str:
    return WRAPPED.format(source=source, marker=MARKER, shows=shows)


def sources(suite: OkSuite, case: OkCase) -> list[str]:
    """What the sandbox types for one okpy case: the setup, each prompt wrapped (an error it raises is caught
    and shown, as okpy goes on to the next prompt when the error was expected), the teardown; the setup and
    teardown show nothing but an error."""
    return [_typed(line, False) for line in suite.setup] + [_typed(prompt.source, True) for prompt in case.prompts] \
        + [_typed(line, False) for line in suite.teardown]


def support_files(submission: Path, course: Iterable[tuple[str, bytes]]) -> dict[str, str | bytes]:
    """The files beside the submission for an okpy suite's cases: the kit's (dice.py, ucb.py), then the
    course's files the suite carries (``Suite.files``), which replace them."""
    return {**project.support_files(Path(submission)), **dict(course)}


def _silent_failure(step) -> str | None:
    """Why a setup or teardown line failed (it raised, or came to no answer); None when it ran."""
    got = actual(step)
    if got is None:
        return shown(step)
    return "\n".join(got[1][2:]) if got[0] else None


def actual(step) -> tuple[bool, list[str]] | None:
    """What a prompt showed as okpy compares it: (raised, its lines); None when it came to no answer (it
    ran out of time, the process ended, its value could not be reported)."""
    if step.kind is StepKind.ERROR and step.error_type:
        detail = step.error if step.error != step.error_type else f"{step.error}: "
        return True, [TRACEBACK, "  ..."] + detail.splitlines()
    if step.kind is not StepKind.OK or step.error is not None:
        return None
    output = _DEBUG.sub("", step.output)
    if MARKER in output:
        return True, [TRACEBACK, "  ..."] + output.split(MARKER, 1)[1].splitlines()
    return False, output.splitlines()


def matches(prompt: Prompt, got: tuple[bool, list[str]] | None) -> bool:
    """okpy's comparison: the same lines, both raised or neither; or an exception named by a bare name."""
    if got is None:
        return False
    raised, lines = got
    legacy = raised and len(prompt.want) == 1 and lines[2:] and prompt.want[0] == lines[2].split(":", 1)[0]
    return (raised == prompt.error and lines == list(prompt.want)) or bool(legacy)


def judge(suite: OkSuite, case: OkCase, shown_case: Case, run: CaseRun) -> CaseVerdict:
    """One okpy case's verdict; ``step`` indexes ``shown_case.steps`` (its setup, then its prompts)."""
    steps, setup = run.steps, len(suite.setup)
    for index in range(setup):
        failed = _silent_failure(steps[index]) if index < len(steps) else "the case stopped before this line"
        if failed is not None:
            return CaseVerdict(shown_case, False, index, f"the setup `{suite.setup[index]}` failed: {failed}")
    wrapped = sources(suite, case)
    for number, prompt in enumerate(case.prompts):
        index = setup + number
        if index >= len(steps):
            return CaseVerdict(shown_case, False, index, "the case stopped before this line")
        got = actual(steps[index])
        if not matches(prompt, got):
            return CaseVerdict(shown_case, False, index, shown(steps[index]) if got is None else "\n".join(got[1]))
    for index in range(setup + len(case.prompts), len(wrapped)):
        failed = _silent_failure(steps[index]) if index < len(steps) else "the case stopped before this line"
        if failed is not None:
            line = suite.teardown[index - setup - len(case.prompts)]
            return CaseVerdict(shown_case, False, setup + len(case.prompts) - 1,
                               f"the teardown `{line}` failed: {failed}")
    return CaseVerdict(shown_case, True)


def shown_case(suite_name: str, test: OkTest, suite: OkSuite, case: OkCase) -> Case:
    """An okpy case as the reports show it: its setup and prompts, each with what it must show."""
    steps = tuple(Step(source, "") for source in suite.setup) + tuple(
        Step(prompt.source, "".join(line + "\n" for line in prompt.want)) for prompt in case.prompts)
    session = "".join(">>> " + step.source.replace("\n", "\n... ") + "\n" + step.want for step in steps)
    return Case(case_id(suite_name, test.key, suite.number, case.number), test.key,
                f"Suite {suite.number} > Case {case.number}", session, steps, case.hidden, "", test.file, 0)


def questions(suite: Suite) -> list[Question]:
    """The suite's okpy tests as the questions results list, each named by its okpy name."""
    return [Question(test.key, OKPY_ROLE, "", test.name, 0, test.points, False, (),
                     tuple(shown_case(suite.name, test, one, case) for one in test.scored for case in one.cases),
                     0, name=test.name) for test in suite.tests]


def score(test: OkTest, passed: dict[int, bool]) -> float:
    """okpy's ``OkTest.score``: the points spread evenly over the scored suites, a suite's share earned when
    none of its cases failed (a scored concept suite, with nothing to run, passes)."""
    scored = test.scored
    if not scored:
        return 0.0
    return test.points * sum(suite.kind == "concept" or passed[suite.number] for suite in scored) / len(scored)


def grade_suite(submission: Path, variant: Variant, suite: Suite, *, limits: Limits | None = None,
                minimum: str | None = None, early: Early | None = None, **_kit_options) -> GradeResult:
    """Grade a submission with the imported suite alone: one result per okpy test. ``_kit_options``: those of
    ``grade`` for the kit's own cases (the seed of its hidden cases, their compiled form kept), unused here."""
    started = time.perf_counter()
    asked = questions(suite)
    runs = [(test, one, case) for test in suite.tests for one in test.scored for case in one.cases]
    report = run_cases(Path(submission), [sources(one, case) for _, one, case in runs], setup=(),
                       support_files=support_files(submission, suite.files), limits=limits or Limits(),
                       names=None, groups=[test.key for test, _, _ in runs], minimum=minimum, early=early)
    below_minimum(report.level, minimum)   # a report below the level required is never scored
    by_key = {question.number: question for question in asked}
    verdicts: dict[str, list[CaseVerdict]] = {test.key: [] for test in suite.tests}
    passed: dict[tuple[str, int], bool] = {}
    shown_cases = {case.id: case for question in asked for case in question.cases}
    for (test, one, case), run in zip(runs, report.cases):
        verdict = judge(one, case, shown_cases[case_id(suite.name, test.key, one.number, case.number)], run)
        verdicts[test.key].append(verdict)
        passed[test.key, one.number] = passed.get((test.key, one.number), True) and verdict.passed
    results = [QuestionResult(by_key[test.key],
                              score(test, {one.number: passed.get((test.key, one.number), True)
                                           for one in test.scored}),
                              verdicts[test.key]) for test in suite.tests]
    return GradeResult(variant, str(submission), results, report.isolation, time.perf_counter() - started,
                       import_error=report.import_error, isolation_level=report.level,
                       isolation_allowlist=report.allowlist)   # no hidden case of the kit is drawn


def grade_with(submission: Path, variant: Variant, suite: Suite | None, kit: bool = True, **options) -> GradeResult:
    """``--suite``: the kit's own cases (``kit``), the imported suite's, or both in one result."""
    if suite is None:
        return kit_grading.grade(submission, variant, **options)
    if not kit:
        return grade_suite(submission, variant, suite, **options)
    own = kit_grading.grade(submission, variant, **options)
    imported = grade_suite(submission, variant, suite, **{**options, "early": None})
    return replace(own, questions=own.questions + imported.questions, seconds=own.seconds + imported.seconds,
                   import_error=own.import_error or imported.import_error)


def grade_safely(submission: Path, variant: Variant, *, suite: Suite | None = None, kit: bool = True,
                 **options) -> tuple[GradeResult, bool]:
    """``grade.grade_safely`` with ``--suite``: a GradeResult, and whether the kit itself failed."""
    return kit_grading.grade_safely(submission, variant, grading=functools.partial(grade_with, suite=suite, kit=kit),
                                    **options)
