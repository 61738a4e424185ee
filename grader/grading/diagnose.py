"""The diagnosis of each question's first failing case (the one every report shows), attached to its verdict.

The failing call is observed once more, in the sandbox: one run for every question that has a diagnosis to
make (so a submission that passes costs nothing more). What comes back is a record, plain data; the
reference's record of the same call is made here (``grader.diagnosis``).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from grader import diagnosis, project
from grader.diagnosis import Diagnosis
from grader.sandbox import Limits, StepKind, run_cases
from grader.spec import Variant

TRACE_SECONDS = 30.0   # the submission's own time for the whole run of traced calls


def _why(step) -> str:
    if step.kind is StepKind.TIMEOUT:
        return "it ran out of time (it may never return)"
    if step.kind is StepKind.CRASH:
        return "the submission's process ended"
    return (step.error or "it failed").strip().splitlines()[-1]


def attach(submission: Path, variant: Variant, results: list, *, limits: Limits, setup: list[str],
           names: list[str], minimum: str | None, traced: dict | None = None) -> list:
    """``results`` with a diagnosis on the first failing case of each question where the rules decide
    one (a question of an imported okpy suite has none); ``traced``: (case id, step) → (Traced, its run) of the calls traced in the grading's own run."""
    wanted, traced = [], traced or {}
    for index, result in enumerate(results):
        verdict = result.first_failure
        if verdict is None or result.question.name:
            continue
        if (verdict.case.id, verdict.step) in traced:
            found = _diagnosis(variant, result.question, *traced[verdict.case.id, verdict.step])
            if found is not None:
                verdict.diagnosis = found
            continue
        session = diagnosis.traced_session(variant, result.question, verdict.case, verdict.step)
        if session is None:
            continue
        known = _from_value(variant, result.question, session, verdict)
        if known is not None:
            verdict.diagnosis = known
        else:
            wanted.append((index, verdict, session))
    if not wanted:
        return results
    traced_limits = replace(limits, total_seconds=min(limits.total_seconds, TRACE_SECONDS))
    report = run_cases(Path(submission), [traced.session for _, _, traced in wanted], setup=setup,
                       support_files=project.support_files(Path(submission)), limits=traced_limits, names=names,
                       minimum=minimum)
    results = list(results)
    for (index, verdict, traced), run in zip(wanted, report.cases):
        question = results[index].question
        found = _diagnosis(variant, question, traced, run)
        if found is not None:
            verdict.diagnosis = found
    return results


def public_traces(variant: Variant, cases) -> dict:
    """(case id, step) → Traced: every call of a public game case, traced (cached per variant)."""
    return _public_traces(variant, tuple(case.id for case in cases))


@functools.lru_cache(maxsize=16)
def _public_traces(variant: Variant, ids: tuple[str, ...]) -> dict:
    found = {}
    for case in variant.cases:
        question = variant.question(case.question)
        if case.id not in ids or question.role not in diagnosis.GAME_ROLES:
            continue
        for step in range(len(case.steps)):
            made = diagnosis.traced_session(variant, question, case, step)
            if made is not None:
                found[case.id, step] = made
    return found


def _from_value(variant: Variant, question, traced, verdict) -> Diagnosis | None:
    """The diagnosis read from the value the failing step showed (no second run), where that can tell it."""
    if verdict.value is None or traced.session[-1] != diagnosis.trace.call_step(
            verdict.case.steps[verdict.step].source, question.function):
        return None
    try:
        return diagnosis.from_value(variant, question, traced, verdict.value)
    except Exception:  # noqa: BLE001 - then the call is traced in the sandbox
        return None


def _diagnosis(variant: Variant, question, traced, run) -> Diagnosis | None:
    if len(run.steps) < len(traced.session):
        return diagnosis.not_finished(question, "the case stopped before the call")
    last = run.steps[-1]
    if last.kind is not StepKind.OK or last.error is not None:
        failed = next((step for step in run.steps[:-1] if step.kind is not StepKind.OK), None)
        return diagnosis.not_finished(question, _why(failed or last))
    try:
        return diagnosis.diagnose(variant, question, traced, last.value)
    except Exception:  # noqa: BLE001 - a record the kit cannot read explains nothing; the verdict stands
        return None


def advised(variant: Variant, result):
    """A final strategy that lost points, with the three states its games reach where another number of dice
    gains the most exact win rate (``grader.strategy.advice``); any other result as it is."""
    if result.question.role != "final_strategy" or result.table is None or result.passed:
        return result
    from grader.reference import engine   # the exact engine (NumPy), imported only for a final strategy to advise
    from grader.strategy import advice
    changes = advice.best_changes(engine.rules_for(variant.id), result.table)
    if not changes:
        return result
    said = "; ".join(f"at {change.score} against {change.opponent_score}, rolling {change.better} instead of "
                     f"{change.rolls} gains {change.gain:.6f}" for change in changes)
    text = (f"the states where another number of dice gains the most win rate, weighted by how often the "
            f"strategy's own games reach them: {said} (each the exact gain in average win rate of that one change)")
    return replace(result, diagnosis=Diagnosis(text, (), {"changes": [
        {"score": c.score, "opponent_score": c.opponent_score, "rolls": c.rolls, "better": c.better,
         "gain": round(c.gain, 9)} for c in changes]}))
