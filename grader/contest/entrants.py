"""Each submission's final_strategy as a table, tabulated in the sandbox as grading does.

The session and its checks are grading's own (``grader.grading.grade``): the strategy is
asked about every score pair twice in the sandbox, and one that raises, runs out
of time, answers outside 0..10 or changes its mind is disqualified with grading's
reason. A table already known is not tabulated again: from ``OUTDIR/tables/``
(keyed by variant and the submission's digest, so a contest is resumable), or
from the instructor-only facts of an earlier ``grade-batch`` of the same files.
"""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from grader.classroom.batch import GRADED_FROM
from grader.classroom.pool import end_with_parent
from grader.classroom.submissions import digest as submission_digest, result_name, submission_name
from grader import project
from grader.project.files import write_atomically
from grader.grading.grade import api_names, final_strategy_result, setup_lines
from grader.report import instructor
from grader.report.progress import SILENT, Progress
from grader.sandbox import Limits, run_cases
from grader.grading.tabulate import table_session
from grader.spec import Variant
from grader.strategy.tables import StrategyTableError, validate_table

CACHE = "tables"


@dataclass(frozen=True)
class Entrant:
    """One submission in the contest: its table, or why it is disqualified."""

    name: str
    digest: str
    table: list[list[int]] | None
    reason: str | None = None


def final_question(variant: Variant):
    question = next((q for q in variant.questions if q.role == "final_strategy"), None)
    if question is None:
        raise ValueError(f"{variant.id} has no final_strategy question")
    return question


def tabulate(submission: Path, variant: Variant, limits: Limits | None = None,
             minimum: str = "files") -> tuple[list | None, str | None]:
    """``(table, None)``, or ``(None, reason)`` when grading would not accept the strategy.

    ``minimum``: the least isolation accepted, as for grading (an entrant that could read the kit
    could play the optimal table; at ``files`` nothing outside the entrant's own folder and the Python
    runtime exists for it: not the other entrants, the OUTDIR, nor a batch's results); SandboxUnavailable
    when it cannot be reached."""
    limits = limits or Limits()
    report = run_cases(submission, [table_session(variant)], setup=setup_lines(variant),
                       support_files=project.support_files(submission), limits=limits, names=api_names(variant),
                       minimum=minimum)
    if report.import_error:
        return None, f"hog.py could not be imported: {instructor.capped(report.import_error, 500)}"
    # Without thresholds, grading gives full points exactly when the table is accepted.
    question = replace(final_question(variant), thresholds=(), points=1.0)
    checked = final_strategy_result(variant, question, report.cases[0], [], limits)
    if checked.table is None:
        return None, instructor.capped(checked.message, 500)
    return checked.table, None


def _tabulated(variant_id: str, minimum: str, submission: Path) -> tuple[list | None, str | None]:
    from grader.spec import load_variant
    return tabulate(submission, load_variant(variant_id), minimum=minimum)


def _tabulated_there(submission: Path, variant_id: str, minimum: str) -> tuple[list | None, str | None]:
    return _tabulated(variant_id, minimum, submission)


def _cached(path: Path, variant: Variant) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("variant") != variant.id:
            return None
        if data.get("table") is not None:
            validate_table(data["table"], variant.goal)
        elif not isinstance(data.get("reason"), str):
            return None
        return data
    except (OSError, ValueError, AttributeError, StrategyTableError):
        return None


def _from_batch(results: Path, submission: Path, variant: Variant, digest: str) -> list | None:
    """The table an earlier grade-batch of exactly these files recorded, if any."""
    try:
        data = json.loads((results / instructor.FOLDER / result_name(submission)).read_text(encoding="utf-8"))
        final, graded_from = data.get("final_strategy") or {}, data.get(GRADED_FROM) or {}
        if graded_from.get("variant") != variant.id or graded_from.get("submission_sha256") != digest \
                or final.get("table") is None:
            return None
        return validate_table(instructor.decode_table(final["table"]), variant.goal)
    except (OSError, ValueError, AttributeError, StrategyTableError):
        return None


def gather(found: list[Path], variant: Variant, out: Path, *, jobs: int = 2, results: Path | None = None,
           minimum: str = "files", cluster=None, progress: Progress = SILENT) -> tuple[list[Entrant], int]:
    """Every submission's entrant, tabulating only the unknown ones (``progress`` shows them);
    and how many were tabulated."""
    final_question(variant)
    cache = out / CACHE
    cache.mkdir(parents=True, exist_ok=True)
    known: dict[Path, tuple] = {}
    digests = {submission: submission_digest(submission) for submission in found}
    for submission, digest in digests.items():
        data = _cached(cache / f"{variant.id}-{digest}.json", variant)
        if data is not None:
            known[submission] = (data.get("table"), data.get("reason"))
        elif results is not None and (table := _from_batch(results, submission, variant, digest)) is not None:
            known[submission] = (table, None)
    todo = [submission for submission in found if submission not in known]
    with progress.task("tabulating strategies", len(todo)) as advance:
        if todo and cluster is not None:
            for submission, (table, reason) in zip(todo, cluster.map(_tabulated_there, todo, variant.id, minimum)):
                known[submission] = (table, reason)
                advance()
        elif todo:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context,
                                     initializer=end_with_parent) as pool:
                tabulated = pool.map(_tabulated, [variant.id] * len(todo), [minimum] * len(todo), todo)
                for submission, (table, reason) in zip(todo, tabulated):
                    known[submission] = (table, reason)
                    advance()
    for submission, (table, reason) in known.items():
        target = cache / f"{variant.id}-{digests[submission]}.json"
        if not target.exists():
            write_atomically(target, json.dumps({"variant": variant.id, "table": table, "reason": reason}) + "\n")
    entrants = [Entrant(submission_name(s), digests[s], *known[s]) for s in found]
    return entrants, len(todo)
