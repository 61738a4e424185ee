"""Grade a submission: run its cases in the sandbox, compare here, score each question.

The submission's code runs only inside ``grader.sandbox``; what comes back is
plain data (what each line showed). Expected outputs stay in this process and
are compared here, so nothing the submission does can change a verdict except
producing the right output.
"""

from __future__ import annotations

import ast
import doctest
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader import cases as case_source
from grader import project
from grader.sandbox import SKIPPED_AFTER_TIMEOUT, CaseRun, Limits, run_cases
from grader.sources.student import constructs
from grader.spec import Case, Question, Variant

HIDDEN_FAILED = "a hidden case failed"
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.DONT_ACCEPT_TRUE_FOR_1


@dataclass
class CaseVerdict:
    case: Case
    passed: bool
    step: int = 0              # index of the first step that went wrong
    got: str = ""              # what that step showed (or the error)


@dataclass
class QuestionResult:
    question: Question
    score: float
    verdicts: list[CaseVerdict] = field(default_factory=list)
    message: str = ""          # e.g. the final strategy's exact win rate

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

    @property
    def score(self) -> float:
        return sum(q.score for q in self.questions)

    @property
    def max_score(self) -> float:
        if not self.questions:
            return self.variant.points
        return sum(q.max_score for q in self.questions)


def shown(run_step) -> str:
    """What the interpreter showed for a step, errors written as a traceback's last line."""
    if run_step.error is None:
        return run_step.output
    if run_step.error_type:
        return run_step.output + "Traceback (most recent call last):\n  ...\n" + run_step.error + "\n"
    return run_step.output + run_step.error + "\n"


def _matches(want: str, run_step) -> bool:
    if want.startswith("Traceback (most recent call last):"):
        expected_error = want.strip().splitlines()[-1]
        return run_step.error is not None and run_step.error_type is not None and \
            run_step.error.split(":")[0] == expected_error.split(":")[0]
    if run_step.error is not None:
        return False
    return _CHECKER.check_output(want, run_step.output, _FLAGS)


def judge(case: Case, run: CaseRun) -> CaseVerdict:
    for index, step in enumerate(case.steps):
        if index >= len(run.steps):
            return CaseVerdict(case, False, index, "the case stopped before this line")
        if not _matches(step.want, run.steps[index]):
            return CaseVerdict(case, False, index, shown(run.steps[index]))
    return CaseVerdict(case, True)


def _score(question: Question, verdicts: list[CaseVerdict]) -> float:
    if not verdicts:
        return 0.0
    if question.partial:
        return question.points * sum(v.passed for v in verdicts) / len(verdicts)
    return question.points if all(v.passed for v in verdicts) else 0.0


# Run in the sandbox to tabulate final_strategy: an error names the score pair that raised it.
# Each pass starts from the same seed of ``random``, so a strategy that samples dice answers the same
# both times; any other change of mind (a counter, the clock) still shows.
TABULATE = """\
def _tabulate(goal):
    import random
    random.seed(TABULATION_SEED)
    table = []
    for score in range(goal):
        row = []
        for opponent_score in range(goal):
            try:
                row.append(final_strategy(score, opponent_score))
            except Exception as error:
                raise RuntimeError(f"final_strategy({score}, {opponent_score}) raised "
                                   f"{type(error).__name__}: {error}") from None
        table.append(row)
    return table
"""
RAISED = "RuntimeError: final_strategy("
TABULATION_SEED = 61


def table_session(variant: Variant) -> list[str]:
    """The session that tabulates final_strategy over every score pair below the goal, twice:
    a strategy is a function of the two scores, so both tables must agree."""
    return [TABULATE.replace("TABULATION_SEED", str(TABULATION_SEED)),
            f"_tabulate({variant.goal}), _tabulate({variant.goal})\n"]


def _final_strategy(variant: Variant, question: Question, run: CaseRun, verdicts: list[CaseVerdict],
                    limits: Limits) -> QuestionResult:
    """Points by the exact average win rate of the tabulated strategy against the baseline."""
    from grader.strategy import match, tables  # the exact engine; imported only when needed

    failed = next((step for step in run.steps if step.error is not None), None)
    if failed is not None or len(run.steps) < 2:
        why = failed.error if failed else "it produced no result"
        if why.startswith(RAISED):
            why = why.removeprefix("RuntimeError: ")
        elif why.startswith("Timeout") or why == SKIPPED_AFTER_TIMEOUT:
            calls = 2 * variant.goal * variant.goal
            why += (f" (each score pair is asked twice: the {calls} calls share one case's limit of "
                    f"{limits.case_seconds:g} s, so a call must take well under "
                    f"{limits.case_seconds / calls * 1000:.2f} ms)")
        return QuestionResult(question, 0.0, verdicts, f"final_strategy could not be tabulated over all "
                                                       f"{variant.goal}x{variant.goal} score pairs: {why}")
    step = run.steps[1]
    try:
        values = ast.literal_eval(step.output.strip())
    except (ValueError, SyntaxError):
        return QuestionResult(question, 0.0, verdicts, "final_strategy printed text while being tabulated; "
                                                       "a strategy only returns a number of dice")
    if not (isinstance(values, tuple) and len(values) == 2):
        return QuestionResult(question, 0.0, verdicts, "final_strategy could not be tabulated: "
                                                       "the result channel was tampered with")
    try:
        table, again = (tables.validate_table(table, variant.goal) for table in values)
    except tables.StrategyTableError as error:
        return QuestionResult(question, 0.0, verdicts, f"final_strategy: {error}")
    if table != again:
        score, opponent = next((s, o) for s, row in enumerate(table) for o, n in enumerate(row)
                               if again[s][o] != n)
        return QuestionResult(question, 0.0, verdicts,
                              f"final_strategy must roll the same number of dice whenever it is asked about "
                              f"the same scores: at ({score}, {opponent}) it chose {table[score][opponent]}, "
                              f"then {again[score][opponent]}")
    rate = match.win_rate(variant.id, table, goal=variant.goal).average
    earned = max((t.points for t in question.thresholds if rate >= t.win_rate), default=0.0)
    if not question.thresholds:
        earned = question.points if all(v.passed for v in verdicts) else 0.0
    elif not all(v.passed for v in verdicts):
        earned = 0.0
    detail = f"exact average win rate against always_roll({variant.baseline}): {rate:.6f}"
    higher = next((t for t in sorted(question.thresholds, key=lambda t: t.win_rate) if rate < t.win_rate), None)
    if higher is not None:
        detail += f" ({higher.win_rate:g} earns {higher.points:g} of {question.points:g} points)"
    return QuestionResult(question, min(earned, question.points), verdicts, detail)


def grade(submission: Path, variant: Variant, *, limits: Limits | None = None,
          questions: list[Question] | None = None, hidden: bool = True) -> GradeResult:
    """Grade one submission (a hog.py, or a folder holding one) on a variant."""
    started = time.perf_counter()
    questions = questions or list(variant.questions)
    chosen = {q.number for q in questions}
    pool = case_source.grading_cases(variant) if hidden else case_source.public_cases(variant)
    graded = [case for case in pool if case.question in chosen]
    sessions = [[step.source for step in case.steps] for case in graded]
    final = next((q for q in questions if q.role == "final_strategy"), None)
    if final:
        sessions.append(table_session(variant))
    groups = [case.question for case in graded] + ([final.number] if final else [])
    limits = limits or Limits()
    report = run_cases(Path(submission), sessions, setup=_setup_lines(variant),
                       support_files=support_files(Path(submission)), limits=limits,
                       names=_api_names(variant), groups=groups)
    verdicts: dict[str, list[CaseVerdict]] = {q.number: [] for q in questions}
    for case, run in zip(graded, report.cases):
        verdicts[case.question].append(judge(case, run))
    results = []
    for question in questions:
        if question is final:
            results.append(_final_strategy(variant, question, report.cases[-1], verdicts[question.number], limits))
        else:
            results.append(QuestionResult(question, _score(question, verdicts[question.number]),
                                          verdicts[question.number]))
    results = [_constructs_checked(Path(submission), result) for result in results]
    return GradeResult(variant, str(submission), results, report.isolation, time.perf_counter() - started,
                       import_error=report.import_error)


def _constructs_checked(submission: Path, result: QuestionResult) -> QuestionResult:
    """A question whose function uses a construct the spec forbids earns nothing, whatever its cases
    say. The source is read here, outside the sandbox, and never run for this check."""
    question = result.question
    if not question.forbidden:
        return result
    hog = submission / "hog.py" if submission.is_dir() else submission
    try:
        source = hog.read_text(encoding="utf-8") if not hog.is_symlink() else ""
    except (OSError, UnicodeDecodeError):
        return result
    found = constructs.violations(source, question.function, question.forbidden)
    if not found:
        return result
    return QuestionResult(question, 0.0, result.verdicts,
                          constructs.explain(question.function, question.forbidden, found))


def grade_safely(submission: Path, variant: Variant, **options) -> tuple[GradeResult, bool]:
    """A GradeResult, and whether the kit itself failed (then a visible 'grader failed' result)."""
    try:
        return grade(submission, variant, **options), False
    except Exception as error:  # a fault of the kit: reported, never a silent score
        return GradeResult(variant, str(submission), [], "unknown", 0.0,
                           grader_error=f"{type(error).__name__}: {error}"), True


def support_files(submission: Path) -> dict[str, str]:
    """The files the grader puts beside hog.py: the kit's dice.py always, and a
    standard-library ucb.py (main, trace, interact, as the courses' skeletons import)
    unless the submission brings its own."""
    files = {"dice.py": (project.SOURCES / "dice.py").read_text(encoding="utf-8")}
    if not (submission.is_dir() and (submission / "ucb.py").is_file()):
        files["ucb.py"] = (project.SOURCES / "ucb.py").read_text(encoding="utf-8")
    return files


def _setup_lines(variant: Variant) -> list[str]:
    return [example.source for example in doctest.DocTestParser().get_examples(variant.setup)]


def _api_names(variant: Variant) -> list[str]:
    """Names a case may use from the submission: every public function of the reference."""
    from grader import reference
    return sorted(name for name in vars(reference.load(variant.id)) if not name.startswith("_"))
