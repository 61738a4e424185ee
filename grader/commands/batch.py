"""The verbs of a whole class: ``hog grade-batch`` and ``hog report``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import grader.classroom.batch
import grader.similarity.batch
from grader.classroom import pool, roster
from grader.classroom.cluster import connect
from grader.commands.grading import (DECLARATION_LINES, GRADER_FAULT, _check_seed, class_folder, declared_in,
                                     isolation_level)
from grader.errors import GraderFault, UsageError
from grader.report import canvas as canvas_column, classroom, progress
from grader.similarity.compare import THRESHOLD
from grader.spec import course, load_variant, okpy_suite


def grade_batch(*, folder: str, variant: str | None, jobs: int, out_dir: str, out: TextIO,
                isolation: str | None = None, seed: int | None = None, report: bool = False,
                manifest: str | None = None, scheduler: str | None = None, workers: int | None = None,
                suite: str | None = None) -> int:
    """``hog grade-batch``: every submission of a folder, results written as they come; exit 1 if the
    kit failed on any or OUT could not be written, 128 + the signal if SIGINT or SIGTERM stopped it;
    with ``report``, then the class report. With a roster's ``manifest``, each submission is graded
    under its student's variant (never its hog.py header's). ``scheduler`` or ``workers``: graded on
    a Dask cluster. ``suite``: ``--suite NAME`` or ``kit+NAME`` (an imported okpy suite)."""
    choose, spec = None, None
    imported, kit = okpy_suite.chosen(suite)
    if manifest is not None:
        if variant is not None:
            raise UsageError(f"--manifest gives each student's variant: drop --variant {variant}")
        students = roster.read_manifest(Path(manifest))
        if not students.students:
            raise UsageError(f"{manifest} lists no student")
        loaded = {vid: load_variant(vid) for vid in sorted({s.variant for s in students.students})}
        spec = loaded[students.students[0].variant]

        def choose(name: str):
            student = students.student_for(name)
            if student is None:
                return None, f"not on the manifest {manifest} (a submission is named after a student id or email)"
            return loaded[student.variant], ""
    elif variant is None:
        raise UsageError("hog grade-batch needs --variant ID, or --manifest M from hog assign --roster")
    else:
        spec = load_variant(variant)
    source = class_folder(folder, jobs)
    level, seed = isolation_level(isolation), _check_seed(seed)
    with connect(scheduler=scheduler, workers=workers, preload=grader.classroom.batch.WORKER_MODULES) as cluster:
        summary = grader.classroom.batch.grade_batch(source, spec, Path(out_dir), jobs=jobs, isolation=level, seed=seed,
                                           choose=choose, cluster=cluster, progress=progress.shown(sys.stderr),
                                           suite=imported, kit=kit)
    for skipped in summary.not_submissions:
        out.write(f"skipped {skipped.name}: {skipped.why}\n")
    listed = f", {len(summary.not_submissions)} not submissions (in {grader.classroom.batch.SKIPPED})" \
        if summary.not_submissions else ""
    retried = f" ({summary.retried} faults of the machine tried again)" if summary.retried else ""
    out.write(f"graded {summary.graded}, skipped {summary.skipped} already graded, "
              f"{summary.failed} grader faults{retried}{listed}; isolation required: {level}; hidden cases drawn "
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
        similarity(folder=folder, out_dir=out_dir, out=out, variant=variant, manifest=manifest)
        _write_report(Path(out_dir), out, None if manifest else spec)
    return GRADER_FAULT if summary.failed else 0


def class_report(*, out_dir: str, out: TextIO, canvas: str | None = None, assignment: str | None = None,
                 manifest: str | None = None) -> int:
    """``hog report OUTDIR``: report.html and report.json from the results grade-batch wrote; with
    ``canvas`` (Canvas's gradebook export), canvas.csv too: the scores as one assignment column, the
    submissions matched to the export's students by name, or through a roster's ``manifest``."""
    folder = Path(out_dir)
    if not folder.is_dir():
        raise UsageError(f"{out_dir} is not a folder (give the OUTDIR of hog grade-batch)")
    if canvas is None and (assignment is not None or manifest is not None):
        raise UsageError(f"--{'assignment' if assignment is not None else 'manifest'} names the Canvas column "
                         f"or its students: give --canvas EXPORT.csv too (Canvas's gradebook export)")
    if canvas is not None:
        _write_canvas(folder, Path(canvas), assignment, manifest, out)
    _write_report(folder, out, None)
    return 0


def _write_canvas(folder: Path, export: Path, assignment: str | None, manifest: str | None, out: TextIO) -> None:
    """canvas.csv and canvas-unmatched.csv, and every student and submission they leave out, listed."""
    listed = roster.read_manifest(Path(manifest)) if manifest else None

    def aliases(name: str) -> tuple[str, ...]:
        student = listed.student_for(name) if listed is not None else None
        return (student.student_id, student.email) if student else ()

    column = canvas_column.write(folder, export, assignment=assignment, aliases=aliases)
    for student in column.without_submission:
        out.write(f"no submission: {student.label}, line {student.line} of {export}\n")
    for student, name in column.failed:
        out.write(f"no score for {student.label}: {name}'s {canvas_column.RERUN}\n")
    for unmatched in column.unmatched:
        if unmatched.reason != canvas_column.RERUN:
            out.write(f"not in the Canvas column: {unmatched.submission}: {unmatched.reason}\n")
    if column.maxima:
        out.write(f"results out of different maximum scores ({', '.join(f'{m:g}' for m in column.maxima)}): "
                  f"Points Possible is the largest, {column.points:g}\n")
    left = len(column.unmatched)
    out.write(f"wrote {column.path}: {column.assignment!r} out of {column.points:g}, {column.scored} of "
              f"{column.students} students scored; {left} submission{'' if left == 1 else 's'} left out, "
              f"listed in {column.unmatched_path}\n")


def _write_report(folder: Path, out: TextIO, variant) -> None:
    page, figures = classroom.write(folder, variant)
    out.write(f"wrote {page} and {figures}\n")


def similarity(*, folder: str, out_dir: str, out: TextIO, variant: str | None = None,
               manifest: str | None = None, threshold: float | None = None, max_share: int | None = None) -> int:
    """``hog similarity``: every pair of a folder's submissions compared by structure; similarity.json and
    similarity.html in OUT (the threshold defaults to THRESHOLD, the share to MAX_SHARE)."""
    source = class_folder(folder, 1)
    threshold = THRESHOLD if threshold is None else threshold
    if not 0 < threshold <= 1:
        raise UsageError(f"--threshold {threshold:g} is not a share between 0 and 1 (try {THRESHOLD})")
    if max_share is not None and max_share < 2:
        raise UsageError(f"--max-share {max_share} would ignore every copy (a copy is shared by 2 "
                         f"submissions): give 2 or more")
    if variant is not None:
        load_variant(variant)  # an unknown id is named first, with the known ones
    listed = roster.read_manifest(Path(manifest)) if manifest else None
    default = variant or course.only_variant()   # a course of one variant: what its hog.py files were written for

    def variant_of(name: str, text: str) -> str | None:
        if listed is not None:
            return listed.variant_for(name)
        return declared_in(text.splitlines()[:DECLARATION_LINES]) or default

    target = Path(out_dir)
    classroom.refuse_result_named(target / grader.similarity.batch.JSON_NAME)
    found = grader.similarity.batch.similarity(source, target, variant_of=variant_of, threshold=threshold,
                                               max_share=max_share, progress=progress.shown(sys.stderr))
    for skipped in found.skipped:
        out.write(f"not compared {skipped.name}: {skipped.why}\n")
    for name in found.unknown:
        out.write(f"skeleton's code not left out of {name}: {grader.similarity.batch.SKELETON_KEPT}\n")
    out.write(f"compared {found.compared} submissions: {len(found.pairs)} pairs score {threshold:g} or more; "
              f"wrote {found.html_path} and {found.json_path}\n"
              f"{grader.similarity.batch.NOTE}\n")
    return 0
