"""The grader heals: a job a fault of the machine failed is "grader failed" with the grader's problem said,
no job is claimed while the machine stays unwell, and once the cause clears the failed job is graded again
with no restart; a job that fails for a bug of the kit is tried a bounded number of times; a grader alive
in one PID namespace is alive for a ``hog serve`` in another."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from grader import project
from grader.classroom import batch
from grader.classroom.batch import RETRIED, worker_failed
from grader.sandbox import level
from grader.sandbox.model import SandboxUnavailable
from grader.server.grading import graders, healing, queue
from grader.server.store import db, liveness
from grader.server.store.models import FAILED, GRADED, GRADING, QUEUED, Grader, Submission
from grader.spec import load_variant
from tests.server.conftest import SOLUTION, issue, make_app, upload

GONE = "bubblewrap went away (a test's fault of the machine)"


def rows(app) -> list[tuple]:
    with app.config["hog.settings"].sessions() as session:
        return [tuple(row) for row in session.execute(select(
            Submission.id, Submission.status, Submission.attempt, Submission.retries, Submission.score)
            .order_by(Submission.id))]


def problems(app) -> list[str | None]:
    with app.config["hog.settings"].sessions() as session:
        return list(session.scalars(select(Grader.problem)))


def unreachable(*_args, **_kwargs):
    raise SandboxUnavailable(GONE)


@pytest.fixture
def at_once(monkeypatch):
    """A failed job is due again at once, rather than seconds later, and grade_one tries again at once too."""
    monkeypatch.setattr(queue, "RETRY_AFTER", (0.0, 0.0, 0.0))
    monkeypatch.setattr(batch, "RETRY_SECONDS", (0.0, 0.0, 0.0))


def test_a_machine_fault_fails_the_job_with_the_problem_said_and_it_is_graded_once_the_cause_clears(
        course, any_database, migrated_sqlite, monkeypatch, at_once):
    app = make_app(course, any_database, migrated_sqlite)
    engine = app.config["hog.settings"].engine
    token = issue(app, "s1")["s1"]
    choose = level.choose
    monkeypatch.setattr(level, "choose", unreachable)
    first = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
    assert graders.drain(engine, jobs=1, isolation="files") == 1
    # grade_one tried it again three times itself (batch.RETRY_SECONDS) before it was "grader failed".
    assert rows(app) == [(first, FAILED, 1, 3, None)]
    [problem] = problems(app)
    assert problem.startswith("a sandbox at isolation files does not start: SandboxUnavailable: ") and GONE in problem
    # Unwell, the grader claims nothing: a new upload waits, queued.
    second = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
    assert graders.drain(engine, jobs=1, isolation="files") == 0
    assert rows(app) == [(first, FAILED, 1, 3, None), (second, QUEUED, 0, 0, None)]
    monkeypatch.setattr(level, "choose", choose)   # the cause clears
    assert graders.drain(engine, jobs=1, isolation="files") == 2
    assert rows(app) == [(first, GRADED, 2, 4, 23.0), (second, GRADED, 1, 0, 23.0)]
    assert problems(app) == [None]


def stay_unwell_while(marker: Path):
    """level.choose, failing while ``marker`` exists."""
    choose = level.choose

    def chosen(*args, **kwargs):
        if marker.exists():
            raise SandboxUnavailable(GONE)
        return choose(*args, **kwargs)
    return chosen


def wait_for(check, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while not (found := check()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


@pytest.mark.slow
def test_the_grader_process_stops_claiming_while_its_machine_is_unwell_and_heals_with_no_restart(
        course, app, monkeypatch, at_once, tmp_path):
    marker = tmp_path / "unwell"
    monkeypatch.setattr(level, "choose", stay_unwell_while(marker))
    monkeypatch.setattr(healing, "FIRST_WAIT", 0.1)
    monkeypatch.setattr(healing, "LONGEST_WAIT", 0.2)
    monkeypatch.setattr(graders, "REQUEUE_SECONDS", 0.2)
    settings = app.config["hog.settings"]
    token = issue(app, "s1")["s1"]
    # The grader process as hog serve runs it, forked so that it fails as the machine says.
    grader = multiprocessing.get_context("fork").Process(target=graders.run, kwargs=dict(
        course=str(course), database=str(settings.engine.url), jobs=2, isolation="files", parent=os.getpid()))
    grader.start()
    try:
        assert wait_for(lambda: problems(app) == [None])   # started, its machine well
        marker.touch()   # then a fault of the machine
        first = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
        assert wait_for(lambda: rows(app)[0][1] == FAILED and any(problems(app))), rows(app)
        second = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
        time.sleep(1.0)   # the grader probes again meanwhile (every 0.2 s), each probe failing
        assert rows(app) == [(first, FAILED, 1, 3, None), (second, QUEUED, 0, 0, None)]   # 3 tries in grade_one
        assert GONE in problems(app)[0]
        marker.unlink()
        assert wait_for(lambda: [row[1] for row in rows(app)] == [GRADED, GRADED]), rows(app)
        assert rows(app) == [(first, GRADED, 2, 4, 23.0), (second, GRADED, 1, 0, 23.0)]
        assert wait_for(lambda: problems(app) == [None])
        assert grader.is_alive()
    finally:
        grader.terminate()
        grader.join(20)


def test_a_job_that_keeps_failing_on_a_well_machine_is_tried_a_bounded_number_of_times(app, monkeypatch, at_once):
    engine = app.config["hog.settings"].engine
    token = issue(app, "s1")["s1"]

    def broken(variant, submission, *, isolation, seed, **options):   # a bug of the kit every try meets, twice retried
        return {**worker_failed(variant, submission, "ValueError: a bug of the kit", seed), RETRIED: 2}, True
    monkeypatch.setattr(graders, "grade_one", broken)
    monkeypatch.setattr(healing, "probe", lambda isolation: None)   # the machine is well
    sent = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
    assert graders.drain(engine, jobs=1, isolation="files") == queue.AUTOMATIC_ATTEMPTS == 4
    # Four tries, each retried twice by grade_one, and put back three times by the grader: then left to a person.
    assert rows(app) == [(sent, FAILED, 4, 4 * 2 + 3, None)]
    assert not queue.failed_to_retry(engine)
    assert graders.drain(engine, jobs=1, isolation="files") == 0
    assert problems(app) == [None]   # nothing wrong with the machine
    monkeypatch.undo()
    assert queue.regrade(engine, "hog") == 1   # the person's regrade, after the fix
    assert graders.drain(engine, jobs=1, isolation="files") == 1
    assert rows(app) == [(sent, GRADED, 5, 11, 23.0)]


def test_a_failed_job_is_due_again_only_after_its_wait_and_a_variant_that_cannot_be_prepared_keeps_it(app):
    engine = app.config["hog.settings"].engine
    token = issue(app, "s1")["s1"]
    sent = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"]
    grading = graders._Grading(engine, queue.grader_name())
    [job] = grading.claim(1)
    grading.done(job, (worker_failed(load_variant("sp19"), Path(job[3]), "OSError: gone", job[4]), True))
    assert rows(app) == [(sent, FAILED, 1, 0, None)]
    assert not queue.failed_to_retry(engine)   # failed a moment ago: due RETRY_AFTER[0] later
    with engine.begin() as connection:
        connection.execute(Submission.__table__.update().values(
            graded_at=db.now() - timedelta(seconds=queue.RETRY_AFTER[0] + 1), variant="nosuch"))
    assert queue.failed_to_retry(engine) == {"nosuch": 1}
    grading.heal()
    assert rows(app) == [(sent, FAILED, 1, 0, None)]   # kept: its variant cannot be prepared
    [problem] = problems(app)
    assert problem.startswith("the variant nosuch cannot be prepared: ")


def test_a_grade_one_retry_count_is_added_to_the_job_and_not_kept_in_its_result(app):
    engine = app.config["hog.settings"].engine
    upload(app.test_client(), issue(app, "s1")["s1"], SOLUTION.read_bytes())
    grading = graders._Grading(engine, queue.grader_name())
    [job] = grading.claim(1)
    grading.done(job, ({"score": 23.0, "max_score": 23.0, "tests": [], RETRIED: 2}, False))
    with app.config["hog.settings"].sessions() as session:
        kept = session.scalars(select(Submission)).one()
    assert (kept.status, kept.retries, kept.score) == (GRADED, 2, 23.0) and RETRIED not in kept.result


def test_the_probe_says_what_stops_a_sandbox(monkeypatch):
    assert healing.probe("files") is None
    monkeypatch.setattr(level, "choose", unreachable)
    assert healing.probe("files") == f"a sandbox at isolation files does not start: SandboxUnavailable: {GONE}"


@pytest.mark.slow
def test_a_live_grader_is_alive_for_a_hog_serve_in_another_pid_namespace(app, course):
    """The grader's pid is no process in the other namespace: judged by its pid, its jobs were taken back."""
    engine = app.config["hog.settings"].engine
    upload(app.test_client(), issue(app, "s1")["s1"], SOLUTION.read_bytes())
    name = queue.grader_name()
    grading = graders._Grading(engine, name)   # holds its lock
    queue.beat(engine, name)
    assert len(grading.claim(1)) == 1
    script = ("import sys; from grader import project; project.use(sys.argv[1]); "
              "from grader.server.grading import queue; from grader.server.store import db; "
              "engine = db.connect(sys.argv[2]); "
              "print(queue.requeue_dead(engine), flush=True); sys.stdin.readline(); print(queue.requeue_dead(engine))")
    other = subprocess.Popen(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", script, str(course),
                              str(engine.url)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(project.PACKAGE.parent)})
    try:
        assert other.stdout.readline() == "0\n"   # alive: its job stays its own
        assert rows(app)[0][1] == GRADING
        liveness.release(course, name)   # the grader ends (as SIGKILL ends it: the kernel lets go of its lock)
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.stdout.readline() == "1\n"   # dead at once, its heartbeat still fresh
    finally:
        other.kill()
        other.wait(10)
    assert rows(app)[0][1] == QUEUED


def test_the_grader_outlives_a_database_that_stops_answering_and_loses_no_claim_or_result(
        course, app, monkeypatch, capsys):
    # A database restarting: a claim that was kept while its answer was lost, then a result that cannot be
    # written at first. The grader neither ends nor leaves a job claimed for ever; each is graded once.
    monkeypatch.setattr(graders, "DATABASE_PAUSES", (0.0,))
    engine = app.config["hog.settings"].engine
    token = issue(app, "s1")["s1"]
    first, second = (upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()["id"] for _ in range(2))
    claim, finish, broken = queue.claim_jobs, queue.finish, {"claim": 1, "finish": 1}

    def claim_kept_answer_lost(*args):
        found = claim(*args)
        if broken["claim"] and found:
            broken["claim"] -= 1
            raise OperationalError("UPDATE submissions", {}, Exception("server closed the connection"))
        return found

    def finish_once_refused(*args):
        if broken["finish"]:
            broken["finish"] -= 1
            raise OperationalError("UPDATE submissions", {}, Exception("the database system is starting up"))
        return finish(*args)
    monkeypatch.setattr(queue, "claim_jobs", claim_kept_answer_lost)
    monkeypatch.setattr(queue, "finish", finish_once_refused)
    graders.drain(engine, jobs=1, isolation="files")
    assert broken == {"claim": 0, "finish": 0}
    assert [row[:2] + row[4:] for row in rows(app)] == [(first, GRADED, 23.0), (second, GRADED, 23.0)]
    assert "the database does not answer" in capsys.readouterr().err


def test_each_look_at_the_machine_sees_its_levels_as_they_are_now(course, app, monkeypatch):
    # A level probed once is remembered (bubblewrap's start, a container engine's answer): the grader's look
    # after a fault forgets it first, so an engine started again, or a level gone, is seen as it now is.
    forgotten = []
    monkeypatch.setattr(level, "forget", lambda: forgotten.append(True))
    monkeypatch.setattr(healing, "probe", lambda isolation: None)
    grading = graders._Grading(app.config["hog.settings"].engine, queue.grader_name(), isolation="files")
    try:
        grading.heal()
        grading.heal()
    finally:
        liveness.release(course, grading.name)
    assert forgotten == [True, True]
