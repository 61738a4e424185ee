"""The verbs of the exact strategy engine: ``hog analyze``, ``play`` and ``contest``."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import TextIO

from grader import engine, pool, roster
from grader import play as playing
from grader.cluster import connect
from grader.commands.grading import class_folder, isolation_level
from grader.contest.tournament import run_contest
from grader.errors import UsageError
from grader.spec import load_variant
from grader.strategy import analysis
from grader.submissions import result_name, scan


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
    ``variant``, each variant's entrants play among themselves, under their own rules, in OUT/<variant>/. ``scheduler`` or ``workers``: the blocks of pairs are played on a Dask cluster."""
    level = isolation_level(isolation)
    source = class_folder(folder, jobs)
    if results is not None and not Path(results).is_dir():
        raise UsageError(f"--results {results} is not a folder (give the OUTDIR of an earlier grade-batch)")
    if variant is not None:
        return _contest(source, load_variant(variant), Path(out_dir), jobs, results, level, out, scheduler, workers)
    if manifest is None:
        raise UsageError("hog contest needs --variant ID, or --manifest M from hog assign --roster")
    listed = roster.read_manifest(Path(manifest))
    groups: dict[str, list[Path]] = {}
    for entry in scan(source, out=Path(out_dir))[0]:
        chosen = listed.variant_for(Path(result_name(entry)).stem)
        if chosen is None:
            out.write(f"skipped {entry.name}: not on the manifest {manifest}\n")
        else:
            groups.setdefault(chosen, []).append(entry)
    for variant_id, entries in sorted(groups.items()):
        spec = load_variant(variant_id)
        out.write(f"{variant_id} ({len(entries)} submissions, under its own rules):\n")
        with tempfile.TemporaryDirectory(prefix="hog-contest-") as scratch:
            for entry in entries:   # the variant's entrants alone, under their own names
                if entry.is_dir():
                    shutil.copytree(entry, Path(scratch) / entry.name, symlinks=True)
                else:
                    shutil.copy2(entry, Path(scratch) / entry.name, follow_symlinks=False)
            _contest(Path(scratch), spec, Path(out_dir) / variant_id, jobs, results, level, out, scheduler, workers)
    return 0


def _contest(source: Path, spec, out_dir: Path, jobs: int, results: str | None, level: str, out: TextIO,
             scheduler: str | None = None, workers: int | None = None) -> int:
    if not any(q.role == "final_strategy" for q in spec.questions):
        raise UsageError(f"{spec.id} has no final_strategy question: there is nothing to play")
    # On a cluster, SIGTERM stops the command as SIGINT does, so the cluster's tasks are cancelled.
    stopping = pool.stopping_on_signals() if scheduler or workers else contextlib.nullcontext()
    with stopping, connect(scheduler=scheduler, workers=workers) as cluster:
        played = run_contest(source, spec, out_dir, jobs=jobs, results=Path(results) if results else None,
                             minimum=level, cluster=cluster)
    count = len(played.standings)
    out.write(f"{len(played.entrants)} submissions: {count} played {count * (count - 1) // 2} matchups "
              f"in {played.play_seconds:.1f} s, {len(played.disqualified)} disqualified, "
              f"{played.tabulated} tables tabulated in the sandbox, the rest reused\n")
    if count < 2:
        out.write("  a contest needs at least two strategies that play\n")
    for row in played.standings[:3] if count > 1 else []:
        out.write(f"  {row.rank}. {row.name}: {row.wins} won, average win rate {row.average:.6f}\n")
    out.write(f"wrote {out_dir / 'leaderboard.csv'} and {out_dir / 'contest.html'}\n")
    return 0
