"""Grade a submission: run its cases in the sandbox, compare here, score each question.

The submission's code runs only inside ``grader.sandbox``; what comes back is
plain data (what each line showed). Expected outputs stay in this process and
are compared here, so nothing the submission does can change a verdict except
producing the right output.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from grader import cases as case_source
from grader import project
from grader.cases import unlocking
from grader.diagnosis import Diagnosis
from grader.grading import construct_check, diagnose, tabulate
from grader.errors import GraderFault, UsageError
from grader.sandbox import CaseRun, Limits, StepKind, cap, case_code, run_cases
from grader.sandbox.level import NAMES as LEVEL_NAMES
from grader.sandbox.early import Early
from grader.shipped.student import constructs
from grader.spec import Case, Question, Variant
from grader.cases.unlocking import UnlockStatus

HIDDEN_FAILED = "a hidden case failed"
_BLANKLINE = re.compile(r"(?m)^<BLANKLINE>\s*?$")   # in what a case expects: an empty line
_SPACES_ONLY = re.compile(r"(?m)^[^\S\n]+$")          # in what a step showed: counts as empty


@dataclass
class CaseVerdict:
    case: Case
    passed: bool
    step: int = 0              # index of the first step that went wrong
    got: str = ""              # what that step showed (or the error)
    diagnosis: Diagnosis | None = None   # its first wrong step and the rules deciding it (grader.grading.diagnose)
    value: object = field(default=None, compare=False, repr=False)   # the value that step returned, if any


@dataclass
class QuestionResult:
    question: Question
    score: float
    verdicts: list[CaseVerdict] = field(default_factory=list)
    message: str = ""          # e.g. the final strategy's exact win rate
    table: list[list[int]] | None = None   # final_strategy as tabulated (for the instructor, never shown)
    win_rate: float | None = None          # its exact average win rate against the baseline
    diagnosis: Diagnosis | None = None     # the final strategy's: where other dice gain the most (diagnose.advice)

    @property
    def max_score(self) -> float:
        return self.question.points

    @property
    def passed(self) -> bool:
        return self.score >= self.max_score

    @property
    def first_failure(self) -> CaseVerdict | None:
        return next((v for v in self.verdicts if not v.passed), None)

    @property
    def counts(self) -> tuple[int, int]:
        return sum(v.passed for v in self.verdicts), len(self.verdicts)


@dataclass
class GradeResult:
    variant: Variant
    submission: str
    questions: list[QuestionResult]
    isolation: str
    seconds: float
    import_error: str | None = None
    grader_error: str | None = None   # a fault of the kit itself, never of the submission
    unlocks: list[UnlockStatus] = field(default_factory=list)   # from the submitted .hog_unlock.json
    isolation_level: str = "none"     # the level that ran: "process", "files", "bubblewrap" ("none": not run)
    isolation_allowlist: str = "none"   # what limited the files it could read: "bubblewrap", "Landlock", "chroot"
    seed: int | None = None           # the seed the hidden cases were drawn from (None: public cases only)

    @property
    def score(self) -> float:
        return sum(q.score for q in self.questions) + sum(u.score for u in self.unlocks)

    @property
    def max_score(self) -> float:
        if not self.questions:
            return self.variant.points
        return sum(q.max_score for q in self.questions) + sum(u.question.unlock.points for u in self.unlocks)


def shown(run_step) -> str:
    """What the interpreter showed for a step, errors written as a traceback's last line (capped)."""
    if run_step.error is None:
        return cap(run_step.output)
    if run_step.error_type:
        return cap(run_step.output) + "Traceback (most recent call last):\n  ...\n" + cap(run_step.error) + "\n"
    return cap(run_step.output) + cap(run_step.error) + "\n"


def _matches(want: str, run_step) -> bool:
    if want.startswith("Traceback (most recent call last):"):
        expected_error = want.strip().splitlines()[-1]
        return run_step.kind is StepKind.ERROR and run_step.error_type is not None and \
            run_step.error.split(":")[0] == expected_error.split(":")[0]
    if run_step.error is not None or run_step.kind is not StepKind.OK:
        return False
    return shows(want, run_step.output)


def shows(want: str, got: str) -> bool:
    """Whether output ``got`` is what a session expects (``want``), as doctest compares them with
    DONT_ACCEPT_TRUE_FOR_1: the same text once both are folded to ASCII escapes, where a
    ``<BLANKLINE>`` line expected is an empty line and a line of spaces shown counts as empty.
    (doctest itself is not imported on the grading path: it costs a start-up its parser no longer needs.)"""
    got = got.encode("ascii", "backslashreplace").decode("ascii")
    want = want.encode("ascii", "backslashreplace").decode("ascii")
    if got == want:
        return True
    return _SPACES_ONLY.sub("", got) == _BLANKLINE.sub("", want)


def judge(case: Case, run: CaseRun) -> CaseVerdict:
    for index, step in enumerate(case.steps):
        if index >= len(run.steps):
            return CaseVerdict(case, False, index, "the case stopped before this line")
        if not _matches(step.want, run.steps[index]):
            return CaseVerdict(case, False, index, shown(run.steps[index]), value=run.steps[index].value)
    return CaseVerdict(case, True)


def _score(question: Question, verdicts: list[CaseVerdict]) -> float:
    if not verdicts:
        return 0.0
    if question.partial:
        return question.points * sum(v.passed for v in verdicts) / len(verdicts)
    return question.points if all(v.passed for v in verdicts) else 0.0


def final_strategy_result(variant: Variant, question: Question, run: CaseRun, verdicts: list[CaseVerdict],
                          limits: Limits, rating: tabulate.Rating | None = None) -> QuestionResult:
    """Points by the exact average win rate of the tabulated strategy against the baseline
    (``rating``: where it may have been computed already, while the other cases ran)."""
    table, why, rate = (rating or tabulate.Rating(variant, limits)).result(run)
    if table is None:
        return QuestionResult(question, 0.0, verdicts, why)
    score, detail = tabulate.points(variant, question, rate, all(v.passed for v in verdicts))
    return QuestionResult(question, score, verdicts, detail, table=table, win_rate=rate)


def grade(submission: Path, variant: Variant, *, limits: Limits | None = None,
          questions: list[Question] | None = None, hidden: bool = True,
          leave_out: frozenset[str] = frozenset(), minimum: str | None = None,
          seed: int | None = None, early: Early | None = None, keep_compiled: bool = False,
          diagnoses: bool = True) -> GradeResult:
    """Grade one submission (a hog.py, or a folder holding one) on a variant.

    ``leave_out`` names cases not to run (``hog test`` leaves out the cases a student has not unlocked).
    ``minimum``: the least isolation level accepted ("process", "files", "bubblewrap";
    ``HOG_ISOLATION`` when None); SandboxUnavailable (a GraderFault) when it cannot be reached.
    The hidden cases are drawn from ``seed`` (cases.DEFAULT_SEED if None).
    ``early``: a sandbox started before the cases were read (``grader.sandbox.early``).
    ``keep_compiled``: the cases' compiled form read from the grader's signed cache and kept there
    (``case_code.keep``), for a process that grades one submission (``hog grade``).
    ``diagnoses``: each question's first failing case gets its diagnosis (``grader.grading.diagnose``).
    """
    started = time.perf_counter()
    seed = (case_source.DEFAULT_SEED if seed is None else seed) if hidden else None
    questions = questions or list(variant.questions)
    chosen = {q.number for q in questions}

    def kept(pool) -> list:
        return [case for case in pool if case.question in chosen and case.id not in leave_out]

    graded = kept(case_source.public_cases(variant))   # the hidden ones follow: grading_cases' order
    drawn: list = []

    def hidden_ones() -> tuple[list, list]:
        """The seed's hidden cases, drawn while the sandbox runs the tabulation and the public cases."""
        drawn.extend(kept(case_source.hidden_cases(variant, seed)))
        sessions = _sessions(drawn)
        if keep_compiled:   # those every seed draws, then this seed's own
            for generated in (False, True):
                case_code.keep([steps for steps, case in zip(sessions, drawn)
                                if (case.origin == case_source.GENERATED) == generated])
        return sessions, [case.question for case in drawn]

    final = next((q for q in questions if q.role == "final_strategy"), None)
    limits = limits or Limits()
    # The tabulation runs first, so that its win rate is worked out while the other cases run.
    tabulation = [tabulate.table_session(variant)] if final else []
    rating = tabulate.Rating(variant, limits) if final else None
    checks = _start_construct_checks(Path(submission), questions, limits)   # they run beside the sandbox
    # Each public game case's call, traced: the diagnosis of one that fails needs no second run.
    traced = diagnose.public_traces(variant, graded) if diagnoses else {}
    first = tabulation + _sessions(graded) + [each.session for each in traced.values()]
    if keep_compiled:
        case_code.keep(first)
    try:
        report = run_cases(Path(submission), first, setup=setup_lines(variant),
                           support_files=project.support_files(Path(submission)), limits=limits, names=api_names(variant),
                           groups=["tabulation"] * len(tabulation) + [c.question for c in graded]
                           + ["diagnosis"] * len(traced), minimum=minimum,
                           on_result=(lambda index, run: index == 0 and rating.start(run)) if final else None,
                           early=early, later=hidden_ones if hidden else None)
        public = len(tabulation) + len(graded)
        runs = report.cases[:public] + report.cases[public + len(traced):]
        traced_runs = dict(zip(traced, report.cases[public:public + len(traced)]))
        graded += drawn
        below_minimum(report.level, minimum)
        verdicts: dict[str, list[CaseVerdict]] = {q.number: [] for q in questions}
        for case, run in zip(graded, runs[len(tabulation):]):
            verdicts[case.question].append(judge(case, run))
        results = []
        for question in questions:
            if question is final:
                results.append(final_strategy_result(variant, question, report.cases[0], verdicts[question.number],
                                                     limits, rating))
            else:
                results.append(QuestionResult(question, _score(question, verdicts[question.number]),
                                              verdicts[question.number]))
        results = [_constructs_checked(result, checks) for result in results]
        if diagnoses and report.import_error is None:
            results = diagnose.attach(Path(submission), variant, results, limits=limits, setup=setup_lines(variant),
                                      names=api_names(variant), minimum=minimum,
                                      traced={key: (traced[key], run) for key, run in traced_runs.items()})
            results = [diagnose.advised(variant, result) for result in results]
    finally:
        for pending in checks.values():
            pending.cancel()
    return GradeResult(variant, str(submission), results, report.isolation, time.perf_counter() - started,
                       import_error=report.import_error, isolation_level=report.level,
                       isolation_allowlist=report.allowlist,
                       unlocks=unlocking.status(Path(submission), variant, questions),
                       seed=seed if hidden else None)


def prepare(variant: Variant, seed: int | None = None) -> None:
    """What grading any submission on ``variant`` needs first, done now (before workers fork, so that they
    share it): the public cases and the final strategy's session compiled, the exact engine that rates a
    table, what every seed's hidden cases share; with ``seed`` (a batch's one seed), that seed's hidden
    cases and their compiled form too."""
    if seed is None:
        case_source.shared(variant)
        graded = case_source.public_cases(variant)
    else:
        graded = case_source.grading_cases(variant, seed)
    case_code.warm([tabulate.table_session(variant)] + _sessions(graded))
    tabulate.ready(variant)


def _start_construct_checks(submission: Path, questions: list[Question],
                            limits: Limits) -> dict[str, construct_check.Pending]:
    """The construct check of each question that forbids constructs, started: the source is parsed
    outside the sandbox, never run, within the sandbox's limits (``grader.grading.construct_check``)."""
    hog = submission / "hog.py" if submission.is_dir() else submission
    return {question.number: construct_check.start(hog, question.function, question.forbidden, limits)
            for question in questions if question.forbidden}


def _constructs_checked(result: QuestionResult, checks: dict[str, construct_check.Pending]) -> QuestionResult:
    """A question whose function uses a construct the spec forbids earns nothing, whatever its cases
    say; so does one whose hog.py is too large to check."""
    question = result.question
    if question.number not in checks:
        return result
    checked = checks[question.number].result()
    if checked.problem is not None:
        return QuestionResult(question, 0.0, result.verdicts, checked.problem)
    if not checked.found:
        return result
    return QuestionResult(question, 0.0, result.verdicts,
                          constructs.explain(question.function, question.forbidden, list(checked.found),
                                             unlisted=checked.unlisted))


def below_minimum(reached: str, minimum: str | None) -> None:
    """Raise GraderFault when a run reports a level below the one required. The sandbox refuses to
    start below it already; this check keeps any report that says otherwise from being scored."""
    if minimum is None or reached not in LEVEL_NAMES:   # "none": nothing of the submission ran
        return
    required = LEVEL_NAMES.get(minimum)   # an unknown name never gets here: run_cases refuses it
    if required is not None and LEVEL_NAMES[reached] < required:
        raise GraderFault(f"isolation '{required.label}' was required, but the sandbox reached only '{reached}'; "
                          f"nothing was scored (grade with a lower --isolation only if you accept that)")


def grade_safely(submission: Path, variant: Variant, *, raising: tuple[type[Exception], ...] = (),
                 grading: Callable[..., GradeResult] | None = None, **options) -> tuple[GradeResult, bool]:
    """A GradeResult, and whether the kit itself failed (then a visible 'grader failed' result). Errors of
    the kinds in ``raising`` are raised instead, for a caller that tries again (faults of the machine).
    ``grading``: what grades, ``grade`` unless given (``okpy_grade`` grades with an imported suite)."""
    try:
        return (grading or grade)(submission, variant, **options), False
    except UsageError:
        raise  # the operator's mistake (e.g. an unknown isolation level): exit 2, not a kit fault
    except raising:
        raise
    except Exception as error:  # a fault of the kit: reported, never a silent score
        return faulted(submission, variant, error, options.get("seed")), True


def faulted(submission: Path, variant: Variant, error: Exception, seed: int | None) -> GradeResult:
    """The 'grader failed' result of a submission the kit failed on with ``error``."""
    return GradeResult(variant, str(submission), [], "unknown", 0.0, grader_error=f"{type(error).__name__}: {error}",
                       seed=seed)


def _sessions(cases) -> list[list[str]]:
    """What the sandbox is sent of each case: its steps' text."""
    return [[step.source for step in case.steps] for case in cases]


def setup_lines(variant: Variant) -> list[str]:
    """The lines the spec's ``setup`` session types before each case."""
    return [step.source for step in variant.setup_steps]


def api_names(variant: Variant) -> list[str]:
    """Names a case may use from the submission: every public function of the reference."""
    from grader import reference
    return sorted(name for name in vars(reference.load(variant.id)) if not name.startswith("_"))
