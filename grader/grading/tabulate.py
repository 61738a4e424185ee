"""final_strategy, tabulated in the sandbox and scored here by its exact win rate.

The sandbox runs ``table_session`` (every score pair below the goal, twice: a
strategy is a function of the two scores, so both tables must agree) and
brings back the value rebuilt as plain data; nothing is parsed from printed
text, so a strategy that prints while it is asked still gets its table read.
Two tables of whole numbers that are equal come back as one (the second
would only repeat it: half the data to send, read and check); any other pair
comes back whole and is compared here.  A submission that sent one table
where its strategy gave two gains nothing: any table it can send, a strategy
that looks its answers up in that table earns too.
Every text the submission made that a message quotes is capped.

The exact win rate of a table is kept in the grader's signed cache
(``grader.project.signed_cache``), under the table's digest and a key that changes
with the rules and the engine, so a table graded before (a regrade, the
reference, a strategy many students share) is not solved again.
``Rating`` starts the tabulation's checks and the win rate in a thread as
soon as the tabulation's case is in, while the other cases run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading

from grader import project
from grader.project import signed_cache
from grader.reference import hog_source
from grader.sandbox import CaseRun, Limits, StepKind, cap
from grader.spec import Question, Variant

# Win rates kept per variant in the signed cache (the newest ones).
KEPT_WIN_RATES = 5000

# Run in the sandbox to tabulate final_strategy: an error names the score pair that raised it.
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


def _tabulated(goal):
    first, second = _tabulate(goal), _tabulate(goal)
    if all(type(n) is int for table in (first, second) for row in table for n in row) and first == second:
        return (first,)
    return first, second
"""
RAISED = "RuntimeError: final_strategy("


TABULATION_SEED = 61


def table_session(variant: Variant) -> list[str]:
    """The session that tabulates final_strategy over every score pair below the goal, twice: a
    strategy is a function of the two scores, so both tables must agree. Each pass starts from the
    same seed of ``random``, so a strategy that samples dice answers the same both times; any other
    change of mind (a counter, the clock) still shows."""
    return [TABULATE.replace("TABULATION_SEED", str(TABULATION_SEED)),
            f"_tabulated({variant.goal})\n"]


def untabulated(variant: Variant, run: CaseRun, limits: Limits) -> str | None:
    """Why the tabulation gave no table, or None when it gave one."""
    failed = next((step for step in run.steps if step.error is not None), None)
    if failed is None and len(run.steps) >= 2:
        return None
    why = cap(failed.error) if failed else "it produced no result"
    if why.startswith(RAISED):
        why = why.removeprefix("RuntimeError: ")
    elif failed is not None and failed.kind in (StepKind.TIMEOUT, StepKind.SKIPPED):
        calls = 2 * variant.goal * variant.goal
        why += (f" (each score pair is asked twice: the {calls} calls share one case's limit of "
                f"{limits.case_seconds:g} s of CPU time, so a call must take well under "
                f"{limits.case_seconds / calls * 1000:.2f} ms)")
    return f"final_strategy could not be tabulated over all {variant.goal}x{variant.goal} score pairs: {why}"


def tables_from(variant: Variant, run: CaseRun) -> tuple[list[list[int]] | None, str]:
    """(the table, "") when both tabulations agree and are valid, else (None, why not)."""
    from grader.strategy import tables  # imported only when needed

    values = run.steps[1].value
    if not (type(values) is tuple and len(values) in (1, 2)):
        return None, "final_strategy could not be tabulated: the result channel was tampered with"
    try:
        checked = [tables.validate_table(table, variant.goal) for table in values]   # one when both agreed
    except tables.StrategyTableError as error:
        return None, f"final_strategy: {cap(str(error))}"
    except (RecursionError, MemoryError):
        return None, "final_strategy returned values too large to check"
    table, again = checked[0], checked[-1]
    if table != again:
        score, opponent = next((s, o) for s, row in enumerate(table) for o, n in enumerate(row)
                               if again[s][o] != n)
        return None, (f"final_strategy must roll the same number of dice whenever it is asked about "
                      f"the same scores: at ({score}, {opponent}) it chose {table[score][opponent]}, "
                      f"then {again[score][opponent]}")
    return table, ""


def points(variant: Variant, question: Question, rate: float, all_passed: bool) -> tuple[float, str]:
    """Points for the exact average win rate ``rate`` against the baseline, and the sentence saying so."""
    earned = max((t.points for t in question.thresholds if rate >= t.win_rate), default=0.0)
    if not question.thresholds:
        earned = question.points if all_passed else 0.0
    elif not all_passed:
        earned = 0.0
    detail = f"exact average win rate against always_roll({variant.baseline}): {rate:.6f}"
    higher = next((t for t in sorted(question.thresholds, key=lambda t: t.win_rate) if rate < t.win_rate), None)
    if higher is not None:
        detail += f" ({higher.win_rate:g} earns {higher.points:g} of {question.points:g} points)"
    return min(earned, question.points), detail


def rated(variant: Variant, run: CaseRun, limits: Limits) -> tuple[list[list[int]] | None, str, float | None]:
    """(table, "", its exact average win rate) from the tabulation's run, or (None, why not, None)."""
    why = untabulated(variant, run, limits)
    if why is not None:
        return None, why, None
    table, why = tables_from(variant, run)
    if table is None:
        return None, why, None
    return table, "", win_rate(variant, table)


class Rating:
    """``rated`` for one tabulation's run, computed in a thread from the moment the run is in."""

    def __init__(self, variant: Variant, limits: Limits):
        self.variant, self.limits = variant, limits
        self.run: CaseRun | None = None
        self.thread: threading.Thread | None = None
        self.outcome: tuple | None = None
        self.error: BaseException | None = None

    def start(self, run: CaseRun) -> None:
        if self.thread is None:
            self.run = run
            self.thread = threading.Thread(target=self._rate, daemon=True, name="final strategy rating")
            self.thread.start()

    def _rate(self) -> None:
        try:
            self.outcome = rated(self.variant, self.run, self.limits)
        except BaseException as error:  # raised again in the grader's thread by result()
            self.error = error

    def result(self, run: CaseRun) -> tuple[list[list[int]] | None, str, float | None]:
        """``rated(run)``: the thread's, when it rated this very run, else computed now."""
        if self.thread is None or self.run is not run:
            return rated(self.variant, run, self.limits)
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.outcome


def win_rate(variant: Variant, table: list[list[int]]) -> float:
    """The exact average win rate of ``table`` against the variant's baseline (cached, signed)."""
    digest = hashlib.sha256(bytes(n for row in table for n in row)).hexdigest()
    rules = _rules_key(variant)
    key = f"{rules}-{digest}"

    def solve() -> float:
        from grader.reference import engine  # the exact engine (NumPy), imported only when a table is not cached
        return float(engine.win_rate(variant.id, table, goal=variant.goal).average)

    return signed_cache.kept("win-rates", f"{variant.id}-{rules}-{digest[:40]}.json", key, "win rate", solve,
                             load=signed_cache.json_of(float), dump=lambda rate: json.dumps(rate).encode("ascii"),
                             keep=(f"{variant.id}-*.json", KEPT_WIN_RATES))


def ready(variant: Variant) -> None:
    """What rating a variant's tables needs, made before the first one: the rules' key, and the exact
    engine loaded (a batch does it once, before its workers fork, rather than once in each worker)."""
    _rules_key(variant)
    from grader.reference import engine  # noqa: F401 (loaded, as win_rate's solve loads it)


@functools.lru_cache(maxsize=16)
def _rules_key(variant: Variant) -> str:
    """Changes whenever what a win rate comes from changes: the reference, goal and baseline, the engine.
    Worked out once per variant and process (a contest rates a table per entrant)."""
    digest = hashlib.sha256(f"{variant.id}/{variant.goal}/{variant.baseline}/{sorted(variant.features)}\n"
                            .encode("utf-8"))
    digest.update(hog_source.solution_source(variant).encode("utf-8"))
    for path in [project.PACKAGE / "reference" / "engine.py", *sorted((project.PACKAGE / "strategy").glob("*.py"))]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]
