"""The diagnosis of each question's first failing case (the one every report shows), attached to its verdict.

The failing call is observed once more, in the sandbox: one run for every question that has a diagnosis to
make (so a submission that passes costs nothing more). What comes back is a record, plain data; the
reference's record of the same call is made here (``grader.diagnosis``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from grader import diagnosis, project
from grader.diagnosis import Diagnosis
from grader.reference import engine
from grader.strategy import advice
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
           names: list[str], minimum: str | None) -> list:
    """``results`` with a diagnosis on the first failing case of each question where the rules decide
    one (a question of an imported okpy suite has none)."""
    wanted = []
    for index, result in enumerate(results):
        verdict = result.first_failure
        if verdict is None or result.question.name:
            continue
        traced = diagnosis.traced_session(variant, result.question, verdict.case, verdict.step)
        if traced is not None:
            wanted.append((index, verdict, traced))
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
