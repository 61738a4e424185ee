"""`hog grade-batch` and `hog contest` on a Dask cluster (`--workers N`, `--scheduler ADDRESS`) give what a
local run gives, byte for byte but the timings, whatever the submissions do or the workers suffer."""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader import project
from grader.classroom import batch, cluster, pool
from grader.contest.tournament import run_contest
from grader.errors import UsageError
from grader.report import classroom
from grader.spec import load_variant
from tests.classroom.test_batch import started_batch
from tests.processes import gone

HOSTILE = project.ROOT / "tests" / "submissions" / "hostile"
MIXED = ["loops", "import_loops", "import_raises", "exits", "forge_results", "read_kit", "fork_bomb",
         "monkeypatch"]
TIMINGS = {"execution_time", "seconds", "time"}   # what may differ between two runs of the same batch

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed is not installed: pip install 'hog-kit[cluster]' runs these")


def mixed_submissions(folder: Path) -> Path:
    """Submissions that loop, crash, exit, cheat, and ones that pass or lose a question."""
    folder.mkdir()
    for name in MIXED:
        shutil.copy(HOSTILE / f"{name}.py", folder / f"{name}.py")
    shutil.copytree(project.SOLUTION / "sp19", folder / "reference")
    for source in sorted((project.ROOT / "tests" / "submissions").glob("*/sp19_*.py")):
        shutil.copy(source, folder / source.name)
    return folder


def count(folder: Path) -> int:
    return len(list(folder.iterdir()))


def without_timings(value):
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def written(out: Path) -> dict[str, object]:
    """Every file a batch (and its class report) wrote, timings left out; the HTML page is checked by its
    figures (report.json)."""
    files = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix != ".html":
            text = path.read_text(encoding="utf-8")
            files[str(path.relative_to(out))] = without_timings(json.loads(text)) if path.suffix == ".json" \
                else text
    return files


def grade(folder: Path, out: Path, **options):
    return batch.grade_batch(folder, load_variant("sp19"), out, jobs=2, seed=11, **options)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("batch")
    folder = mixed_submissions(base / "in")
    summary = grade(folder, base / "local")
    classroom.write(base / "local")
    return folder, base / "local", summary


@pytest.mark.slow
def test_a_two_worker_cluster_grades_a_mixed_batch_as_a_local_run_does(local_run, tmp_path):
    folder, local, local_summary = local_run
    with cluster.connect(workers=2) as two:
        summary = grade(folder, tmp_path / "cluster", cluster=two)
    classroom.write(tmp_path / "cluster")
    assert (summary.graded, summary.failed) == (local_summary.graded, local_summary.failed) == (count(folder), 0)
    assert written(tmp_path / "cluster") == written(local)
    assert (tmp_path / "cluster" / "gradebook.csv").read_bytes() == (local / "gradebook.csv").read_bytes()


@pytest.mark.slow
def test_a_worker_killed_mid_batch_loses_nothing(local_run, tmp_path):
    folder, local, _ = local_run
    out = tmp_path / "cluster"
    killed = []

    def kill_a_worker_once_results_come(pids: list[int]) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(out.glob("*.json")):
            time.sleep(0.05)
        os.kill(pids[0], signal.SIGKILL)   # a worker process (its nanny starts another)
        killed.append(pids[0])

    with cluster.connect(workers=2) as two:
        pids = sorted(two.client.run(os.getpid).values())
        watcher = threading.Thread(target=kill_a_worker_once_results_come, args=(pids,))
        watcher.start()
        summary = grade(folder, out, cluster=two)
        watcher.join()
    assert killed
    failed = {path.name: json.loads(path.read_text()).get("output", "")[:300] for path in out.glob("*.json")
              if json.loads(path.read_text()).get("grader_failed")}
    assert summary.failed == 0 and summary.graded == count(folder), failed
    classroom.write(out)
    assert written(out) == written(local)


@pytest.mark.slow
def test_a_worker_that_cannot_give_the_isolation_required_fails_visibly_and_grades_nothing_lower(
        local_run, tmp_path):
    folder, _, _ = local_run
    with cluster.connect(workers=2) as two:
        # the workers' sandbox is below "files" (a lambda travels by value: the workers' own os.environ)
        two.client.run(lambda: os.environ.__setitem__("HOG_SANDBOX", "process"))
        summary = grade(folder, tmp_path / "cluster", cluster=two)
    assert summary.failed == summary.graded == count(folder)
    for path in (tmp_path / "cluster").glob("*.json"):
        data = json.loads(path.read_text())
        assert data["grader_failed"] is True and data["score"] == 0, path.name
        assert "HOG_SANDBOX=process is below the isolation required" in data["output"]
    # a rerun here regrades them all
    assert grade(folder, tmp_path / "cluster").failed == 0


@pytest.mark.slow
def test_a_contest_on_a_cluster_writes_the_local_leaderboard_and_page(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("loops", "import_raises"):
        shutil.copy(HOSTILE / f"{name}.py", folder / f"{name}.py")
    for source in sorted((project.ROOT / "tests" / "submissions").glob("*/fa19_*.py")):
        shutil.copy(source, folder / source.name)
    shutil.copytree(project.SOLUTION / "fa19", folder / "reference")
    variant = load_variant("fa19")
    here = run_contest(folder, variant, tmp_path / "local", jobs=2)
    with cluster.connect(workers=2) as two:
        there = run_contest(folder, variant, tmp_path / "cluster", jobs=2, cluster=two)
    assert len(here.standings) >= 4 and here.disqualified
    assert (there.rates == here.rates).all()
    for name in ("leaderboard.csv", "contest.html"):
        assert (tmp_path / "cluster" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_without_distributed_the_flags_say_how_to_install_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)   # as if it were not installed
    with pytest.raises(UsageError, match=r"pip install 'hog-kit\[cluster\]'"):
        with cluster.connect(workers=2):
            pass


def test_a_local_cluster_starts_while_the_command_prepares_and_says_at_its_first_use_why_it_could_not(monkeypatch):
    """``connect`` does not wait for a local cluster's processes: the batch prepares its cases meanwhile. A cluster
    that cannot start (no TLS here, say) stops the command where its work is first sent, with the reason."""
    go_on = threading.Event()

    def cannot_start(distributed, workers):
        go_on.wait(10)
        raise UsageError("--workers secures its cluster with TLS, which needs the cryptography package")
    monkeypatch.setattr(cluster, "_local", cannot_start)
    monkeypatch.setattr(cluster, "_start_fork_server", lambda preload: None)
    with cluster.connect(workers=2) as starting:
        assert not go_on.is_set()   # here while the cluster is still starting
        go_on.set()
        with pytest.raises(UsageError, match="cryptography"):
            starting.workers
    # closed without a second error; nothing of it is left running
    assert not any(thread.name == "hog-cluster-start" for thread in threading.enumerate())


@pytest.mark.slow
def test_the_fork_server_starts_under_a_temporary_folder_too_deep_for_a_socket(tmp_path):
    """A Unix socket's path holds 107 bytes: under a deeper TMPDIR the fork server's socket goes under /tmp, where
    it raised "AF_UNIX path too long" and the command ended with a traceback."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    script = ("import multiprocessing, os\n"
              "from grader.classroom import cluster\n"
              "if __name__ == '__main__':\n"
              "    cluster._start_fork_server(())\n"
              "    child = multiprocessing.get_context('forkserver').Process(target=os.getpid)\n"
              "    child.start()\n"
              "    child.join()\n"
              "    print(child.exitcode)\n")
    (tmp_path / "start.py").write_text(script)
    done = subprocess.run([sys.executable, str(tmp_path / "start.py")], capture_output=True, text=True, timeout=120,
                          cwd=project.ROOT, env={**os.environ, "TMPDIR": str(deep), "PYTHONPATH": str(project.ROOT)})
    assert done.returncode == 0 and done.stdout.split() == ["0"], done.stderr[-2000:]


def test_neither_flag_runs_here_and_both_are_refused():
    with cluster.connect() as nothing:
        assert nothing is None
    with pytest.raises(UsageError, match="not both"):
        with cluster.connect(scheduler="tcp://127.0.0.1:1", workers=2):
            pass


@pytest.mark.slow
def test_the_kits_own_cluster_spends_nothing_on_what_only_a_dashboard_or_its_silenced_logs_would_show():
    with cluster.connect(workers=1) as workers:
        settings = workers.client.run(lambda: (dask_setting("distributed.worker.profile.enabled"),
                                               dask_setting("distributed.admin.system-monitor.interval"),
                                               dask_setting("distributed.admin.tick.interval")))
        scheduler = workers.client.run_on_scheduler(lambda dask_scheduler: dask_scheduler._tick_interval)
        watched = [*workers.client.run(memory_watched).values(),
                   *workers.client.run(memory_watched, nanny=True).values()]
    assert list(settings.values()) == [(False, "5s", "1s")]
    assert scheduler == 1.0   # the scheduler's loop too looks at its tick once a second
    assert watched == [False, False]   # no memory monitor in the worker nor in its nanny: the sandbox limits memory


def memory_watched(dask_worker) -> bool:
    return "memory_monitor" in dask_worker.periodic_callbacks


@pytest.mark.slow
def test_a_local_clusters_workers_start_with_the_batchs_modules_loaded():
    """A worker's first task does not load the kit's grading modules itself: its fork server loaded them once,
    while the command loaded Dask. (A new process: a process has one fork server, started by its first cluster.)"""
    script = ("import sys\n"
              "from grader.classroom import batch, cluster\n"
              "with cluster.connect(workers=2, preload=batch.WORKER_MODULES) as workers:\n"
              "    print(sorted(workers.client.run(lambda: all(name in sys.modules for name in\n"
              "                                                 ('grader.classroom.batch', 'grader.reference.engine',\n"
              "                                                  'numpy'))).values()))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=project.ROOT)
    assert done.stdout.split("\n")[0] == "[True, True]", done.stderr[-2000:]


def dask_setting(key: str):
    import dask
    return dask.config.get(key)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_a_usage_error_naming_it():
    with pytest.raises(UsageError, match="tcp://127.0.0.1:9"):
        with cluster.connect(scheduler="tcp://127.0.0.1:9"):
            pass


def test_chunks_cover_every_task_once_in_order():
    class Two(cluster.Cluster):
        workers = 2
    tasks = list(range(37))
    chunks = Two(client=None).chunks(tasks)
    assert [task for chunk in chunks for task in chunk] == tasks
    assert max(map(len, chunks)) <= cluster.MAX_CHUNK and len(chunks) >= 2 * cluster.CHUNKS_PER_WORKER


@pytest.mark.slow
def test_sigint_stops_a_batch_on_a_local_cluster_with_its_workers_and_a_rerun_grades_the_rest(tmp_path):
    run, subs, scratch, out, started = started_batch(tmp_path, 12, "--workers", "2")
    run.send_signal(signal.SIGINT)
    stopping = time.monotonic()
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    assert time.monotonic() - stopping < 15
    assert "Traceback" not in stderr
    assert "Stopped by SIGINT: the results written are kept" in stdout
    kept = sorted(path.stem for path in out.glob("*.json"))
    assert 1 <= len(kept) < 12
    assert all(json.loads((out / f"{name}.json").read_text())["score"] == load_variant("fa18").points
               for name in kept)
    assert started and gone(started)          # the workers, their nannies and their sandboxes
    again = subprocess.run([sys.executable, "-m", "grader.cli", "grade-batch", str(subs), "--variant", "fa18",
                            "--out", str(out)], cwd=project.ROOT, text=True, capture_output=True, timeout=600,
                           env={**os.environ, "TMPDIR": str(scratch)})
    assert f"graded {12 - len(kept)}, skipped {len(kept)} already graded, 0 grader faults" in again.stdout
    assert not list(scratch.glob(f"{pool.SCRATCH_PREFIX}*"))


@pytest.mark.slow
def test_sigterm_stops_a_contest_on_a_local_cluster_with_its_workers_and_no_traceback(tmp_path):
    subs = tmp_path / "in"
    subs.mkdir()
    source = (project.SOLUTION / "fa19" / "hog.py").read_text()
    for number in range(200):   # 200 tables to tabulate: the signal comes while the workers are busy
        (subs / f"s{number:03d}.py").write_text(f"{source}\n# {number}\n")
    run = subprocess.Popen([sys.executable, "-m", "grader.cli", "contest", str(subs), "--variant", "fa19",
                            "--workers", "2", "--out", str(tmp_path / "out")], cwd=project.ROOT, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(pool._descendants(run.pid)) < 4 and time.monotonic() < deadline:   # the cluster is up
        time.sleep(0.1)
    time.sleep(2)
    started = pool._descendants(run.pid)
    run.send_signal(signal.SIGTERM)
    stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 143, stderr
    assert "Stopped by SIGTERM." in stderr and "Traceback" not in stderr
    assert not (tmp_path / "out" / "leaderboard.csv").exists()
    assert started and gone(started)


@pytest.mark.slow
def test_a_cluster_is_fed_from_a_queue_that_fills_while_it_runs():
    done, given = {}, set()

    def more(free: int) -> list:   # two more arrive once the first is graded, one more once the second is
        for after, arriving in ((1, (2, 3)), (2, (4,))):
            if after in done and arriving[0] not in given:
                given.update(arriving)
                return list(arriving)
        return []
    with pool.Signals() as signals, cluster.connect(workers=2) as two:
        two.run_all([1], _doubled, signals=signals, done=done.__setitem__, lost=lambda *_: None, more=more)
    assert done == {1: 2, 2: 4, 3: 6, 4: 8}


def _doubled(number: int) -> int:
    return 2 * number


@pytest.mark.slow
def test_a_stopped_run_ends_its_running_chunk_before_the_next_task_on_a_cluster_that_stays(tmp_path):
    """A scheduler of the instructor's own is not closed when the command stops: each worker is told, and the
    chunk it is running starts no further task."""
    import distributed
    started = tmp_path / "started"
    started.mkdir()
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=cluster.QUIET) as theirs, \
            cluster.connect(scheduler=theirs.scheduler_address, notes=io.StringIO()) as used:
        signals = pool.Signals()
        threading.Timer(1.5, lambda: setattr(signals, "received", signal.SIGINT)).start()
        done = {}
        used.run_all(list(range(8)), functools.partial(_slowly, started), signals=signals, done=done.__setitem__,
                     lost=lambda *_: None)
        time.sleep(3.0)   # what a chunk told nothing would have started meanwhile
    assert done == {} and len(list(started.iterdir())) == 1   # the first chunk's first task alone


def _slowly(folder: Path, number: int) -> int:
    (folder / str(number)).touch()
    time.sleep(2.0)
    return number


@pytest.mark.slow
def test_a_run_fed_by_a_queue_asks_the_scheduler_for_its_workers_at_most_every_two_seconds(monkeypatch):
    """The course server's grader looks at the number of workers 50 times a second while a submission is graded
    and the queue is empty: each look was an answer from the scheduler listing every worker."""
    done = {}
    with pool.Signals() as signals, cluster.connect(workers=1) as one:
        asked = []
        real = one.client.scheduler_info
        monkeypatch.setattr(one.client, "scheduler_info", lambda **options: asked.append(1) or real(**options))
        one.run_all([3.0], _after, signals=signals, done=done.__setitem__, lost=lambda *_: None,
                    more=lambda _free: [])
    assert done == {3.0: 3.0}
    assert 1 <= len(asked) <= 3


def _after(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.slow
def test_a_queue_that_stays_deep_is_sent_in_larger_chunks_and_a_short_one_a_submission_at_a_time(monkeypatch):
    """The course server's grader on Dask: while the queue gives all that is asked, each chunk holds twice as many
    (up to FED_CHUNK); once it runs short, one submission a chunk again, so that no result waits on another's."""
    deep, given, done = list(range(1, 41)), [], {}

    def more(wanted: int) -> list:
        if not deep:   # the burst is over: one more straggler, then nothing
            return [] if 100 in given else (given.append(100) or [100])
        taken = [deep.pop(0) for _ in range(min(wanted, len(deep)))]
        given.extend(taken)
        return taken
    with pool.Signals() as signals, cluster.connect(workers=1) as one:
        sizes = []
        real = one.client.submit
        monkeypatch.setattr(one.client, "submit", lambda function, shared, chunk, *rest, **options:
                            sizes.append(len(chunk)) or real(function, shared, chunk, *rest, **options))
        one.run_all([], _doubled, signals=signals, done=done.__setitem__, lost=lambda *_: None, more=more)
    assert done == {number: 2 * number for number in [*range(1, 41), 100]}
    assert sizes[:2] == [1, 1] and max(sizes) == cluster.FED_CHUNK and sizes[-1] == 1
