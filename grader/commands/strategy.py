"""The verbs of the exact strategy engine: ``hog analyze``, ``play`` and ``contest``."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TextIO

from grader.classroom import pool, roster
from grader.reference import engine
from grader.classroom import play as playing
from grader.classroom.cluster import connect
from grader.commands.grading import class_folder, isolation_level
from grader.contest.tournament import WORKER_MODULES, Contest, run_contest
from grader.errors import UsageError
from grader.report import progress
from grader.spec import load_variant
from grader.strategy import analysis
from grader.classroom.submissions import scan, submission_name


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
         submission: str | None = None, isolation: str | None = None) -> int:
    """``hog play``: the students' Hog page on the reference rules (or a submission judged against
    them, its code run only in the sandbox at ``isolation`` or above, as grading), until Ctrl-C."""
    return playing.serve(load_variant(variant), vs=vs, goal=goal, port=port, browser=browser, out=out,
                         submission=submission, isolation=isolation_level(isolation))


def contest(*, folder: str, variant: str | None, out_dir: str, jobs: int, results: str | None, out: TextIO,
            isolation: str | None = None, manifest: str | None = None, scheduler: str | None = None,
            workers: int | None = None) -> int:
    """``hog contest``: every final_strategy of a folder against every other, exactly; each strategy is
    tabulated under at least the isolation grading requires. With a roster's ``manifest`` and no
    ``variant``, each variant's entrants play among themselves, under their own rules, in OUT/<variant>/.
    ``scheduler`` or ``workers``: the blocks of pairs are played on a Dask cluster (one for every variant)."""
    level = isolation_level(isolation)
    source = class_folder(folder, jobs)
    if results is not None and not Path(results).is_dir():
        raise UsageError(f"--results {results} is not a folder (give the OUTDIR of an earlier grade-batch)")
    # What to play: (a heading, the variant, its OUT, its entrants: None for the whole folder).
    if variant is not None:
        plays = [("", load_variant(variant), Path(out_dir), None)]
    elif manifest is None:
        raise UsageError("hog contest needs --variant ID, or --manifest M from hog assign --roster")
    else:
        listed = roster.read_manifest(Path(manifest))
        groups: dict[str, list[Path]] = {}
        for entry in scan(source, out=Path(out_dir))[0]:
            chosen = listed.variant_for(submission_name(entry))
            if chosen is None:
                out.write(f"skipped {entry.name}: not on the manifest {manifest}\n")
            else:
                groups.setdefault(chosen, []).append(entry)
        plays = [(f"{variant_id} ({len(entries)} submissions, under its own rules):\n", load_variant(variant_id),
                  Path(out_dir) / variant_id, entries) for variant_id, entries in sorted(groups.items())]
    for _, spec, _, _ in plays:
        if not any(q.role == "final_strategy" for q in spec.questions):
            raise UsageError(f"{spec.id} has no final_strategy question: there is nothing to play")
    # On a cluster, SIGTERM stops the command as SIGINT does, so the cluster's tasks are cancelled.
    stopping = pool.stopping_on_signals() if scheduler or workers else contextlib.nullcontext()
    with stopping, connect(scheduler=scheduler, workers=workers, preload=WORKER_MODULES) as cluster:
        for heading, spec, target, entrants in plays:
            out.write(heading)
            played = run_contest(source, spec, target, jobs=jobs, results=Path(results) if results else None,
                                 minimum=level, cluster=cluster, only=entrants, progress=progress.shown(sys.stderr))
            _summary(played, target, out)
    return 0


def _summary(played: Contest, out_dir: Path, out: TextIO) -> None:
    count = len(played.standings)
    out.write(f"{len(played.entrants)} submissions: {count} played {count * (count - 1) // 2} matchups "
              f"in {played.play_seconds:.1f} s, {len(played.disqualified)} disqualified, "
              f"{played.tabulated} tables tabulated in the sandbox, the rest reused\n")
    if count < 2:
        out.write("  a contest needs at least two strategies that play\n")
    for row in played.standings[:3] if count > 1 else []:
        out.write(f"  {row.rank}. {row.name}: {row.wins} won, average win rate {row.average:.6f}\n")
    out.write(f"wrote {out_dir / 'leaderboard.csv'} and {out_dir / 'contest.html'}\n")
