"""The grader process: claims jobs from the table and grades them as ``hog grade`` would, never in the web
process. The kit's worker pool (``grader.classroom.pool``) asks for jobs as its workers fall idle, and its
workers outlast an empty queue: each keeps what it made for earlier submissions (an assignment's hidden
cases and their compiled form, the sandbox's level) for the next, where a pool started at every burst made
them again in each new worker (28 ms of the machine's CPU per submission of a deadline burst, measured). A
Dask cluster (``grader.classroom.cluster``) likewise. Each is graded with the per-submission path
``grade-batch`` uses (``grade_one``: the sandbox at the course's isolation minimum). A result is recorded
as each job ends; a worker that dies records a "grader failed" result. The grader heals: after a job
fails, and while jobs wait "grader failed", it probes its machine (``grader.server.grading.healing``); while the
probe fails it claims nothing, keeps probing, and says why with its heartbeat (``Grader.problem``); once it
passes, it puts the "grader failed" jobs back in the queue, each a bounded number of times
(``queue.requeue_failed``), and grades them with fresh workers. It holds a lock for its life
(``grader.server.store.liveness``), by which every PID namespace of the machine tells it is alive. The process
ends when its parent (``hog serve``) is gone or it is told to stop.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from pathlib import Path
from typing import Callable

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from grader import project
from grader.classroom import pool
from grader.classroom.batch import INSTRUCTOR, RETRIED, grade_one, worker_failed
from grader.classroom.cluster import Cluster, connect as connect_cluster
from grader.grading.grade import prepare
from grader.sandbox import level
from grader.server.grading import healing, queue
from grader.server.store import db, liveness, uploads
from grader.spec import Variant, load_variant, okpy_suite
from grader.spec import course as course_config

IDLE_SECONDS = 0.05     # between looks at an empty queue (an indexed query: a look costs well under 1 ms)
BEAT_SECONDS = 2.0      # between heartbeats
NICENESS = 10           # the grader process's (and its workers' and sandboxes') scheduling priority, lowered
REQUEUE_SECONDS = 5.0   # between looks for the jobs of graders that died
PREPARE_SECONDS = 1.0   # between looks at a variant's spec before its jobs (``_prepare``)
DATABASE_PATIENCE = 600.0   # seconds the grader waits for a database that does not answer before it gives up
DATABASE_PAUSES = (0.5, 1.0, 2.0, 5.0)   # seconds between its tries meanwhile; the last repeats
# What a cluster's worker grades with: loaded once in the fork server a local cluster's workers start from.
WORKER_MODULES = (__name__, "grader.reference.engine")


Job = tuple   # (submission id, attempt, variant id, the upload's path, seed, assignment): what a worker is sent


def _jobs(claimed: list) -> list[Job]:
    """The jobs of claimed rows (``queue.claim_jobs``)."""
    root = project.here().root
    return [(row.id, row.attempt, row.variant, str(uploads.folder(root, row.assignment, row.id) / row.filename),
             row.seed, row.assignment) for row in claimed]


def _variant(variant_id: str) -> Variant:
    """The variant as its spec and the course config say now (read again when they change: a regrade after
    a spec fix grades with the fix; reading an unchanged spec again costs well under a millisecond)."""
    return load_variant(variant_id)


def _prepare(variant_ids: set[str], prepared: set) -> tuple[set[str], str | None]:
    """What grading any submission of a variant needs, whatever its seed (the public cases compiled, the
    exact engine, what every seed's hidden cases share), made here once per variant as its spec is now,
    so that workers forked after inherit it. The hidden cases of an assignment's seed (``Seed``) are each
    worker's to draw, at its first job of that assignment, and it keeps them: made here, they would hold
    up the claim, and the workers already forked would draw them again. The variants prepared, and why
    the first that could not be fails (None: all were)."""
    ready, why = set(), None
    for variant_id in sorted(variant_ids):
        try:
            variant = _variant(variant_id)
            if variant not in prepared:
                prepare(variant)
                prepared.add(variant)
        except Exception as error:   # a fault of the kit or a spec the course broke: each submission meets
            why = why or f"the variant {variant_id} cannot be prepared: {healing.line(error)}"
            continue                 # it again in grade_safely, which reports it
        ready.add(variant_id)
    return ready, why


def _assignment_variants() -> set[str]:
    """The variants the course's assignments grade in: each one's own, or the course's list where a roster
    manifest gives each student theirs."""
    config = course_config.current()
    if config is None:
        return set()
    named = {assignment.variant for assignment in config.server.assignments if assignment.variant}
    manifests = any(assignment.manifest for assignment in config.server.assignments)
    return named | (set(course_config.used_variants()) if manifests else set())


def _patiently(call: Callable, *args):
    """``call(*args)``, tried again while the database does not answer (PostgreSQL restarting, a dropped
    connection), for DATABASE_PATIENCE seconds, saying so: a grader outlives a database's restart, and a result
    already graded is kept rather than lost with a crash. Past that, the error is raised (the grader process
    ends, and ``hog serve`` starts another, whose start puts this one's jobs back in the queue)."""
    return db.patiently(call, *args, seconds=DATABASE_PATIENCE, pauses=DATABASE_PAUSES, said=_waiting)


def _waiting(error: BaseException, pause: float) -> None:
    print(f"the grader: the database does not answer ({healing.line(error)}); trying again in {pause:g} s",
          file=sys.stderr, flush=True)


def _grade(job: Job, *, isolation: str) -> tuple[dict, bool]:
    _number, _attempt, variant_id, path, seed, assignment = job
    rules = course_config.current().server.assignment(assignment)   # hog-course.toml as it is now
    suite, kit = okpy_suite.chosen(rules.suite if rules is not None else None)
    imported = {"suite": suite, "kit": kit} if suite is not None else {}   # none: the kit's cases, as ever
    return grade_one(_variant(variant_id), Path(path), isolation=isolation, seed=seed,
                     diagnoses=rules.diagnoses if rules is not None else True, **imported)


class _Grading:
    """One grader's claims, results, heartbeat and health, as the worker pool asks for jobs and reports
    them."""

    def __init__(self, engine: Engine, name: str, requeuing: bool = False, isolation: str = "files"):
        self.engine, self.name, self.isolation = engine, name, isolation
        self.beaten = self.asked = self.requeued = 0.0
        self.requeuing = requeuing   # the jobs of graders that died are put back in the queue here
        self.prepared: set[Variant] = set()
        self.looked: dict[str, float] = {}   # variant id → when its spec was last looked at for _prepare
        self.problem: str | None = None      # what the last probe found wrong with the machine; None: well
        self.noted: str | None = None        # what stops a failed job's variant from being prepared
        self.suspect = False                 # a job failed since the last probe
        self.backoff = healing.Backoff()
        self.working: set[int] = set()      # the jobs claimed and not yet done
        self.unsure = False                  # a claim failed with the database gone: it may have been kept
        liveness.hold(project.here().root, name)

    def beat(self) -> None:
        """The heartbeat; every REQUEUE_SECONDS the jobs of dead graders put back (``requeuing``) and a look
        for "grader failed" jobs to put back; a probe when one is due (``heal``)."""
        now = time.monotonic()
        if now - self.beaten > BEAT_SECONDS:
            self._beat()
        failed = False
        if now - self.requeued > REQUEUE_SECONDS:
            if self.requeuing:
                _patiently(queue.requeue_dead, self.engine)
            self.requeued = now
            failed = bool(_patiently(queue.failed_to_retry, self.engine))
        if self.suspect or ((failed or self.problem is not None) and self.backoff.ready()):
            self.heal()

    def _beat(self) -> None:
        _patiently(queue.beat, self.engine, self.name, self.problem or self.noted)
        self.beaten = time.monotonic()

    def heal(self) -> None:
        """Probe the machine; once it passes, put back the "grader failed" jobs due again whose variant can
        be prepared. Said with the heartbeat at once. What was probed of the levels before is forgotten first,
        so a level that vanished, or came back (a container engine started again), is seen as it is now."""
        level.forget()
        self.problem, self.suspect = healing.probe(self.isolation), False
        if self.problem is not None:
            self.backoff.failed()
        else:
            self.backoff.passed()
            failed = _patiently(queue.failed_to_retry, self.engine)
            ready, self.noted = _prepare(set(failed), self.prepared)
            if ready:
                _patiently(queue.requeue_failed, self.engine, ready)
        self._beat()

    def claim(self, count: int) -> list[Job]:
        self.beat()
        if self.problem is not None:   # the machine is unwell: the jobs wait, queued, until it is well
            return []
        if time.monotonic() - self.asked < IDLE_SECONDS:   # asked a moment ago and there was nothing
            return []
        if self.unsure:   # a claim kept while its answer was lost: its jobs go back to the queue
            _patiently(queue.release_unknown, self.engine, self.name, self.working)
            self.unsure = False
        try:
            found = _jobs(queue.claim_jobs(self.engine, self.name, count))
        except DBAPIError as error:   # not tried again as it is: the claim may have been kept
            if not db.gone(error):
                raise
            self.unsure = True
            _waiting(error, DATABASE_PAUSES[0])
            time.sleep(DATABASE_PAUSES[0])
            return []
        self.working.update(job[0] for job in found)
        now = time.monotonic()
        if not found:
            self.asked = now
        # Each variant's spec is looked at again at most once a second here: a worker reads it itself anyway.
        fresh = {job[2] for job in found if now - self.looked.get(job[2], -PREPARE_SECONDS) >= PREPARE_SECONDS}
        _prepare(fresh, self.prepared)
        self.looked.update(dict.fromkeys(fresh, now))
        return found

    def done(self, job: Job, value: tuple[dict, bool]) -> None:
        data, fault = value
        private, retried = data.pop(INSTRUCTOR, None), data.pop(RETRIED, 0)
        _patiently(queue.finish, self.engine, (job[0], job[1]), data, private, fault, retried)
        self.working.discard(job[0])
        self.suspect = self.suspect or fault
        self.beat()

    def lost(self, job: Job, why: str) -> None:
        self.done(job, (worker_failed(_variant(job[2]), Path(job[3]), why, job[4]), True))


def _round(grading: _Grading, jobs: int, isolation: str, cluster: Cluster | None, signals: pool.Signals,
           going: Callable[[], bool] | None = None) -> int:
    """Grade until the queue is empty (and, on the worker pool, until ``going()`` says to stop: its workers
    wait for the next submission with what they made for the earlier ones); how many were claimed."""
    counted = [0]

    def claim(count: int) -> list[Job]:
        found = grading.claim(count)
        counted[0] += len(found)
        return found
    work = functools.partial(_grade, isolation=isolation)
    if cluster is not None:
        cluster.run_all(claim(cluster.workers * 2), work, signals=signals, done=grading.done, lost=grading.lost,
                        more=claim)
    else:
        pool.run_all(claim(jobs), work, jobs=jobs, signals=signals, done=grading.done, lost=grading.lost, more=claim,
                     going=going)
    return counted[0]


def drain(engine: Engine, *, jobs: int, isolation: str) -> int:
    """Grade here until nothing is queued, or the machine is found unwell (``hog serve``'s grader process
    does this forever); how many were claimed."""
    grading, total = _Grading(engine, queue.grader_name(), isolation=isolation), 0
    try:
        with pool.Signals() as signals, pool.scratch_folder():
            while signals.received is None and (claimed := _round(grading, jobs, isolation, None, signals)):
                total += claimed
                grading.asked = 0.0
    finally:
        liveness.release(project.here().root, grading.name)
    return total


def run(*, course: str, database: str, jobs: int, isolation: str, scheduler: str | None = None,
        workers: int | None = None, parent: int | None = None) -> None:
    """Grade jobs until told to stop (SIGINT, SIGTERM) or until ``parent`` is gone. The entry point of the
    grader process: it chooses the course again, as a new interpreter must."""
    project.use(course)
    os.nice(NICENESS)   # the web process answers first; grading takes the time it leaves
    engine = db.connect(database)
    grading = _Grading(engine, queue.grader_name(), requeuing=True, isolation=isolation)
    # Ready before the first upload rather than at its claim (a deadline burst starts on a cold grader), and so
    # is the sandbox's level, which the pool's workers inherit rather than each probe it.
    _prepare(_assignment_variants(), grading.prepared)
    with contextlib.suppress(Exception):
        level.choose(isolation)   # a level that cannot be had: each submission meets it in grade_safely
    with pool.Signals() as signals, pool.scratch_folder(), \
            connect_cluster(scheduler=scheduler, workers=workers, preload=WORKER_MODULES) as cluster:
        grading.heal()   # the machine looked at before the first claim: an unwell one spends no job's tries

        def going() -> bool:
            return signals.received is None and (parent is None or os.getppid() == parent)

        def well() -> bool:   # an unwell machine ends the round: its workers are made again once it heals
            return going() and grading.problem is None
        while going():
            grading.beat()
            if grading.problem is not None or not _round(grading, max(1, jobs), isolation, cluster, signals, well):
                time.sleep(IDLE_SECONDS)
    engine.dispose()
