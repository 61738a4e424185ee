"""The grader process: claims jobs from the table and grades them as ``hog grade`` would, never in the web
process. Each round claims as many jobs as there are workers and grades them on the kit's worker pool
(``grader.classroom.pool``) or a Dask cluster (``grader.classroom.cluster``), with the per-submission path
``grade-batch`` uses (``grade_one``: the sandbox at the course's isolation minimum). A result is recorded
as each job ends; a worker that dies records a "grader failed" result, which a regrade or a restart
grades again. The process ends when its parent (``hog serve``) is gone or it is told to stop.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from grader import cases as case_source
from grader import project
from grader.classroom import pool
from grader.classroom.batch import INSTRUCTOR, grade_one, worker_failed
from grader.classroom.cluster import Cluster, connect as connect_cluster
from grader.grading import tabulate
from grader.server import db, queue, uploads
from grader.server.models import Submission
from grader.spec import Variant, load_variant

IDLE_SECONDS = 0.2      # between looks at an empty queue
REQUEUE_SECONDS = 5.0   # between looks for the jobs of graders that died


def _variants(engine: Engine, rows: list[tuple[int, int]], loaded: dict[str, Variant]) -> dict:
    """Each claimed job → (variant, the upload's path, seed)."""
    with Session(engine) as session:
        found = {s.id: s for s in session.scalars(select(Submission).where(Submission.id.in_([r[0] for r in rows])))}
    tasks = {}
    for job in rows:
        submission = found[job[0]]
        if submission.variant not in loaded:
            loaded[submission.variant] = load_variant(submission.variant)
        tasks[f"{job[0]}:{job[1]}"] = (loaded[submission.variant], _upload(submission), submission.seed)
    return tasks


def _upload(submission: Submission) -> Path:
    return uploads.folder(project.here().root, submission.assignment, submission.id) / submission.filename


def _prepare(tasks: dict) -> None:
    """The hidden cases of each (variant, seed) and the exact engine, computed here once: forked workers
    inherit them."""
    for variant, seed in {(v.id, s): (v, s) for v, _, s in tasks.values()}.values():
        try:
            case_source.grading_cases(variant, seed)
            tabulate.ready(variant)
        except Exception:
            pass  # a fault of the kit: each submission meets it again in grade_safely, which reports it


def _grade(tasks: dict, task: str, *, isolation: str) -> tuple[dict, bool]:
    variant, path, seed = tasks[task]
    return grade_one(variant, path, isolation=isolation, seed=seed)


def _round(engine: Engine, name: str, jobs: int, isolation: str, cluster: Cluster | None,
           signals: pool.Signals, loaded: dict[str, Variant]) -> int:
    """Claim and grade one round of jobs; how many were claimed."""
    claimed = queue.claim(engine, name, cluster.workers if cluster is not None else jobs)
    if not claimed:
        return 0
    tasks = _variants(engine, claimed, loaded)
    _prepare(tasks)

    def done(task: str, value: tuple[dict, bool]) -> None:
        data, fault = value
        private = data.pop(INSTRUCTOR, None)
        submission, attempt = task.split(":")
        queue.finish(engine, (int(submission), int(attempt)), data, private, fault)

    def lost(task: str, why: str) -> None:
        variant, path, seed = tasks[task]
        done(task, (worker_failed(variant, path, why, seed), True))

    work = functools.partial(_grade, tasks, isolation=isolation)
    if cluster is not None:
        cluster.run_all(list(tasks), work, signals=signals, done=done, lost=lost)
    else:
        pool.run_all(list(tasks), work, jobs=jobs, signals=signals, done=done, lost=lost)
    return len(claimed)


def drain(engine: Engine, *, jobs: int, isolation: str) -> int:
    """Grade here until nothing is queued (``hog serve``'s grader process does this forever); how many."""
    name, loaded, total = queue.grader_name(), {}, 0
    queue.beat(engine, name)
    with pool.Signals() as signals, pool.scratch_folder():
        while signals.received is None and (claimed := _round(engine, name, jobs, isolation, None, signals, loaded)):
            total += claimed
    return total


def run(*, course: str, database: str, jobs: int, isolation: str, scheduler: str | None = None,
        workers: int | None = None, parent: int | None = None) -> None:
    """Grade jobs until told to stop (SIGINT, SIGTERM) or until ``parent`` is gone. The entry point of the
    grader process: it chooses the course again, as a new interpreter must."""
    project.use(course)
    engine = db.connect(database)
    name = queue.grader_name()
    loaded: dict[str, Variant] = {}
    last_requeue = 0.0
    with pool.Signals() as signals, pool.scratch_folder(), \
            connect_cluster(scheduler=scheduler, workers=workers) as cluster:
        while signals.received is None and (parent is None or os.getppid() == parent):
            queue.beat(engine, name)
            if time.monotonic() - last_requeue > REQUEUE_SECONDS:
                queue.requeue_dead(engine)
                last_requeue = time.monotonic()
            if not _round(engine, name, max(1, jobs), isolation, cluster, signals, loaded):
                time.sleep(IDLE_SECONDS)
    engine.dispose()
