"""``hog contest``: every submission's final_strategy against every other, exactly, both seats.

Tables come from ``grader.contest.entrants`` (the sandbox, as grading does, or a
cache); the pairs are played by ``grader.contest.engine``; ``OUTDIR`` gets
``leaderboard.csv`` and ``contest.html``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader.classroom.submissions import clashes, scan, submission_name
from grader.contest import engine
from grader.contest.entrants import Entrant, gather
from grader.contest.matrix import matrix_svg, spread
from grader.contest.standings import RULE, Standing, leaderboard_csv, standings
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.report import style
from grader.report.html import render
from grader.report.progress import SILENT, Progress
from grader.spec import Variant
from grader.reference.engine import rules_for

# What a cluster's worker plays and tabulates with: loaded once in the fork server its workers start from.
WORKER_MODULES = ("grader.contest.engine", "grader.contest.entrants")


@dataclass(frozen=True)
class Contest:
    variant: Variant
    entrants: list[Entrant]
    standings: list[Standing]
    rates: np.ndarray                      # rates[i, j]: entrant i against j (qualified entrants only)
    tabulated: int                         # tables computed in the sandbox this run (the rest were known)
    play_seconds: float

    @property
    def disqualified(self) -> list[tuple[str, str]]:
        return [(e.name, e.reason or "") for e in self.entrants if e.table is None]


def play(variant: Variant, entrants: list[Entrant], *, jobs: int = 1, cluster=None,
         progress: Progress = SILENT) -> tuple[list[Standing], np.ndarray, float]:
    """Standings and the matrix of exact win rates of the entrants that have a table."""
    playing = [e for e in entrants if e.table is not None]
    started = time.perf_counter()
    if playing:
        choices = np.array([e.table for e in playing], dtype=np.intp)
        with progress.task("playing matchups", len(playing) * (len(playing) - 1) // 2) as advance:
            first = engine.first_mover_matrix(rules_for(variant.id, variant.goal), choices, jobs=jobs,
                                              cluster=cluster, advance=advance)
        rates = engine.win_rates(first)
    else:
        rates = np.zeros((0, 0))
    seconds = time.perf_counter() - started
    return standings([e.name for e in playing], rates), rates, seconds


def page(contest: Contest) -> str:
    count = len(contest.standings)
    return render("contest.html.j2", variant=contest.variant, entrants=len(contest.entrants),
                  standings=contest.standings, disqualified=contest.disqualified, rule=RULE,
                  pairs=count * (count - 1) // 2, spread=spread(contest.rates),
                  matrix=matrix_svg(contest.standings, contest.rates))


def run_contest(folder: Path, variant: Variant, out: Path, *, jobs: int = 2,
                results: Path | None = None, minimum: str = "files", cluster=None,
                only: "list[Path] | None" = None, progress: Progress = SILENT) -> Contest:
    """Tabulate (or reuse), play every pair, write ``leaderboard.csv`` and ``contest.html``; with
    ``cluster`` (a ``grader.classroom.cluster.Cluster``), the tabulation and the blocks of pairs run on its workers.
    ``only``: the submissions of ``folder`` that enter (a roster's variant's), else all of them.
    ``progress`` shows the strategies tabulated, then the matchups played."""
    # Folders and .py files play; a .zip is graded by grade-batch but does not enter the contest.
    entering = None if only is None else set(only)
    found = [entry for entry in scan(folder, out=out)[0] if entry.suffix.lower() != ".zip"
             and (entering is None or entry in entering)]
    clashing = clashes(found)
    if clashing:
        listed = ", ".join(" and ".join(p.name for p in group) + f" are both {submission_name(group[0])}"
                           for group in clashing)
        raise UsageError(f"in {folder}, {listed}: rename one of each; no contest was played")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.mkdir(mode=0o700, exist_ok=True)   # the entrants' tables: out of every sandbox's reach
    entrants, tabulated = gather(found, variant, out, jobs=jobs, results=results, minimum=minimum, cluster=cluster,
                                 progress=progress)
    table, rates, seconds = play(variant, entrants, jobs=jobs, cluster=cluster, progress=progress)
    contest = Contest(variant, entrants, table, rates, tabulated, seconds)
    write_atomically(out / "leaderboard.csv", leaderboard_csv(contest.standings, contest.disqualified))
    write_atomically(out / "contest.html", page(contest))
    style.write_beside(out)   # the page's stylesheets, so that it opens as a file
    return contest
