"""The verbs of a whole class: ``hog grade-batch`` and ``hog report``."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import grader.batch
from grader import pool
from grader.cluster import connect
from grader.commands.grading import GRADER_FAULT, _check_seed, class_folder, isolation_level
from grader.errors import GraderFault, UsageError
from grader.report import classroom
from grader.spec import load_variant


def grade_batch(*, folder: str, variant: str, jobs: int, out_dir: str, out: TextIO,
                isolation: str | None = None, seed: int | None = None, report: bool = False,
                scheduler: str | None = None, workers: int | None = None) -> int:
    """``hog grade-batch``: every submission of a folder, results written as they come; exit 1 if the
    kit failed on any or OUT could not be written, 128 + the signal if SIGINT or SIGTERM stopped it;
    with ``report``, then the class report. ``scheduler`` or ``workers``: graded on a Dask cluster."""
    spec = load_variant(variant)
    source = class_folder(folder, jobs)
    level, seed = isolation_level(isolation), _check_seed(seed)
    with connect(scheduler=scheduler, workers=workers) as cluster:
        summary = grader.batch.grade_batch(source, spec, Path(out_dir), jobs=jobs, isolation=level, seed=seed,
                                           cluster=cluster)
    for skipped in summary.not_submissions:
        out.write(f"skipped {skipped.name}: {skipped.why}\n")
    listed = f", {len(summary.not_submissions)} not submissions (in {grader.batch.SKIPPED})" \
        if summary.not_submissions else ""
    out.write(f"graded {summary.graded}, skipped {summary.skipped} already graded, "
              f"{summary.failed} grader faults{listed}; isolation required: {level}; hidden cases drawn "
              f"from seed {summary.seed}; gradebook: {Path(out_dir) / 'gradebook.csv'}\n")
    if summary.out_error:
        out.flush()
        raise GraderFault(f"{summary.out_error}; the results written before it are kept (make room or "
                          f"choose another --out, then run the same command again)")
    if summary.interrupted:
        out.write(f"Stopped by {pool.signal_name(summary.stopped_by)}: the results written are kept; "
                  f"run the same command again to grade the rest.\n")
        return 128 + summary.stopped_by
    if report:
        class_report(out_dir=out_dir, out=out)
    return GRADER_FAULT if summary.failed else 0


def class_report(*, out_dir: str, out: TextIO) -> int:
    """``hog report OUTDIR``: report.html and report.json from the results grade-batch wrote."""
    folder = Path(out_dir)
    if not folder.is_dir():
        raise UsageError(f"{out_dir} is not a folder (give the OUTDIR of hog grade-batch)")
    page, figures = classroom.write(folder)
    out.write(f"wrote {page} and {figures}\n")
    return 0
