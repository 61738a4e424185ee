"""The verbs of the exact strategy engine: ``hog analyze``, ``play`` and ``contest``."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TextIO

from grader import engine, pool
from grader import play as playing
from grader.cluster import connect
from grader.commands.grading import class_folder, isolation_level
from grader.contest.tournament import run_contest
from grader.errors import UsageError
from grader.spec import load_variant
from grader.strategy import analysis


def analyze(*, variant: str, as_json: bool, goal: int | None, out: TextIO) -> int:
    """``hog analyze``: the variant's exact figures, as a report or a JSON object."""
    spec = load_variant(variant)
    goal = spec.goal if goal is None else goal
    if not 1 <= goal <= 200:
        raise UsageError("--goal must be from 1 to 200")
    result = engine.analyze(spec.id, goal=goal, baseline=spec.baseline)
    out.write(result.to_json() + "\n" if as_json else analysis.report(result) + "\n")
    return 0


def play(*, variant: str, vs: str, goal: int | None, port: int, browser: bool, out: TextIO,
         submission: str | None = None) -> int:
    """``hog play``: the students' Hog page on the reference rules (or a submission judged against
    them), until Ctrl-C."""
    return playing.serve(load_variant(variant), vs=vs, goal=goal, port=port, browser=browser, out=out,
                         submission=submission)


def contest(*, folder: str, variant: str, out_dir: str, jobs: int, results: str | None, out: TextIO,
            isolation: str | None = None, scheduler: str | None = None, workers: int | None = None) -> int:
    """``hog contest``: every final_strategy of a folder against every other, exactly; each strategy is
    tabulated under at least the isolation grading requires. ``scheduler`` or ``workers``: the blocks
    of pairs are played on a Dask cluster."""
    level = isolation_level(isolation)
    spec = load_variant(variant)
    source = class_folder(folder, jobs)
    if results is not None and not Path(results).is_dir():
        raise UsageError(f"--results {results} is not a folder (give the OUTDIR of an earlier grade-batch)")
    if not any(q.role == "final_strategy" for q in spec.questions):
        raise UsageError(f"{spec.id} has no final_strategy question: there is nothing to play")
    # On a cluster, SIGTERM stops the command as SIGINT does, so the cluster's tasks are cancelled.
    stopping = pool.stopping_on_signals() if scheduler or workers else contextlib.nullcontext()
    with stopping, connect(scheduler=scheduler, workers=workers) as cluster:
        played = run_contest(source, spec, Path(out_dir), jobs=jobs, results=Path(results) if results else None,
                             minimum=level, cluster=cluster)
    count = len(played.standings)
    out.write(f"{len(played.entrants)} submissions: {count} played {count * (count - 1) // 2} matchups "
              f"in {played.play_seconds:.1f} s, {len(played.disqualified)} disqualified, "
              f"{played.tabulated} tables tabulated in the sandbox, the rest reused\n")
    if count < 2:
        out.write("  a contest needs at least two strategies that play\n")
    for row in played.standings[:3] if count > 1 else []:
        out.write(f"  {row.rank}. {row.name}: {row.wins} won, average win rate {row.average:.6f}\n")
    out.write(f"wrote {Path(out_dir) / 'leaderboard.csv'} and {Path(out_dir) / 'contest.html'}\n")
    return 0
