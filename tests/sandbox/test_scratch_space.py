"""A run's scratch folder: held by a lock every PID namespace sees, removed only when no process holds it,
made again when something removes it while the run lives, and where a sandbox's own uid can pass."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader import project
from grader.sandbox import SandboxUnavailable, level, scratch_space, user

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import sys
from grader.sandbox import scratch_space
with scratch_space.scratch_folder() as folder:
    print(folder, flush=True)
    sys.stdin.readline()
"""
CLEANER = "import sys; from pathlib import Path; from grader.sandbox import scratch_space; " \
          "print([p.name for p in scratch_space.remove_abandoned(Path(sys.argv[1]))])"


def holder(tmp: Path) -> tuple[subprocess.Popen, Path]:
    """Another process holding a scratch folder in ``tmp`` until its standard input closes; and the folder."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)})
    return process, Path(process.stdout.readline().strip())


def cleaned(tmp: Path) -> list[str]:
    """What ``remove_abandoned`` removes from ``tmp`` when another process (another run) calls it."""
    done = subprocess.run([sys.executable, "-c", CLEANER, str(tmp)], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return eval(done.stdout)


@pytest.fixture
def tmp(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_runs_scratch_folder_has_a_name_of_its_own_is_held_while_it_runs_and_goes_with_it(tmp):
    with scratch_space.scratch_folder() as folder, scratch_space.scratch_folder() as second:
        assert folder.parent == tmp and folder.name.startswith(scratch_space.SCRATCH_PREFIX)
        assert second != folder and str(os.getpid()) not in folder.name
        assert stat.S_IMODE(folder.stat().st_mode) == 0o711
        assert tempfile.gettempdir() == str(second)
        assert cleaned(tmp) == [] and folder.is_dir() and second.is_dir()
    assert list(tmp.iterdir()) == []


def test_only_folders_that_no_process_holds_are_removed(tmp):
    living, kept = holder(tmp)
    killed, left = holder(tmp)
    (left / "hog-sandbox-x1").mkdir()
    (left / "hog-sandbox-x1" / "hog.py").write_text("a student's code\n")
    (left / "hog-sandbox-x1").chmod(0o500)
    killed.kill()   # SIGKILL: nothing of its own cleans up after it
    killed.wait()
    older = tmp / "hog-sandbox-of-1"   # an older kit's, which no lock proves abandoned: left to the machine
    older.mkdir()
    making = tmp / f"{scratch_space.MAKING_PREFIX}fresh"   # being made by a process that did not rename it yet
    making.mkdir()
    lost = tmp / f"{scratch_space.MAKING_PREFIX}lost"       # its maker died before renaming it
    lost.mkdir()
    os.utime(lost, (time.time() - scratch_space.MAKING_SECONDS - 5,) * 2)
    try:
        assert sorted(cleaned(tmp)) == sorted([left.name, lost.name])
        assert sorted(p.name for p in tmp.iterdir()) == sorted([kept.name, older.name, making.name])
    finally:
        living.communicate("")
    assert not kept.exists()


def test_a_scratch_folder_removed_while_its_run_lives_is_made_again_locked_under_its_name(tmp):
    with scratch_space.scratch_folder() as folder:
        shutil.rmtree(folder)   # a cleaner of /tmp, or rm -rf
        made = scratch_space.sandbox_folder()
        assert made.parent == folder and stat.S_IMODE(folder.stat().st_mode) == 0o711
        assert cleaned(tmp) == [] and made.is_dir()
    assert list(tmp.iterdir()) == []


def _worker_makes_it_again(ready, finish) -> None:
    scratch_space.sandbox_folder()
    ready.send(True)
    finish.recv()


def test_a_forked_worker_makes_it_again_and_holds_it_until_the_worker_ends(tmp):
    context = multiprocessing.get_context("fork")
    with scratch_space.scratch_folder() as folder:
        shutil.rmtree(folder)
        ready, readied = context.Pipe()
        finish, finished = context.Pipe()
        worker = context.Process(target=_worker_makes_it_again, args=(readied, finished))
        worker.start()
        assert ready.recv() and folder.is_dir()
        assert cleaned(tmp) == []            # the worker holds what it made
        finish.send(True)
        worker.join(10)
        assert cleaned(tmp) == [folder.name]  # once it ended, a later run may remove it
        assert scratch_space.sandbox_folder().parent == folder   # and the owner makes it again
    assert list(tmp.iterdir()) == []


@pytest.mark.slow
def test_another_hog_in_another_pid_namespace_leaves_a_living_runs_scratch_folder_alone(tmp):
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("needs root and unshare to run hog in a PID namespace of its own")
    living, kept = holder(tmp)
    try:
        done = subprocess.run([unshare, "--pid", "--fork", "--mount-proc", sys.executable, "-m", "grader.cli",
                               "grade", str(project.SOLUTION / "sp19"), "--variant", "sp19"], capture_output=True,
                              text=True, timeout=600, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)})
        assert done.returncode == 0, done.stderr
        assert kept.is_dir() and [p.name for p in tmp.iterdir()] == [kept.name]
    finally:
        living.communicate("")


# ---------------------------------------------------------------------------
# A root grader's sandboxes, each of a uid of its own, where /tmp is closed to other users
# ---------------------------------------------------------------------------


@pytest.fixture
def closed_tmp(tmp_path, monkeypatch) -> Path:
    """A temporary folder (0777) inside a folder only root may pass (0700): a machine whose /tmp is 0700."""
    closed = tmp_path / "closed"
    (closed / "tmp").mkdir(parents=True)
    closed.chmod(0o700)
    (closed / "tmp").chmod(0o777)
    monkeypatch.setattr(tempfile, "tempdir", str(closed / "tmp"))
    return closed / "tmp"


def test_a_sandbox_of_a_uid_of_its_own_is_made_where_that_uid_can_pass(closed_tmp):
    if os.geteuid() != 0:
        pytest.skip("only root gives a sandbox a uid of its own")
    with scratch_space.scratch_folder() as folder:
        reachable = scratch_space.sandbox_folder(other_uid=True).parent
        assert reachable.parent in scratch_space.KIT_FOLDERS and reachable.name.startswith(scratch_space.SCRATCH_PREFIX)
        assert user.closed_to_others(reachable) is None and user.closed_to_others(folder) is not None
        assert scratch_space.sandbox_folder().parent == folder   # a sandbox of the grader's own uid stays
    assert not reachable.exists() and list(closed_tmp.iterdir()) == []


def test_where_no_folder_can_serve_a_uid_of_its_own_the_sandbox_is_unavailable_and_says_why(closed_tmp,
                                                                                            monkeypatch):
    monkeypatch.setattr(scratch_space, "KIT_FOLDERS", (closed_tmp.parent / "kit",))
    with scratch_space.scratch_folder():
        with pytest.raises(SandboxUnavailable) as raised:
            scratch_space.sandbox_folder(other_uid=True)
    assert "the sandbox runs as a uid of its own, which cannot pass " in str(raised.value)
    assert f"on the way to the temporary folder {closed_tmp}/{scratch_space.SCRATCH_PREFIX}" in str(raised.value)
    assert "other users cannot pass " in str(raised.value) and f", on the way to {closed_tmp.parent}/kit" in str(raised.value)
    assert "set TMPDIR to a folder that every user may pass" in str(raised.value)


ROOT_GRADER = """
import json, sys
from pathlib import Path
from grader.classroom import batch, pool
from grader.sandbox import scratch_space
from grader.spec import load_variant
batch.RETRY_SECONDS = (0.0,)
if sys.argv[2] == "none":
    scratch_space.KIT_FOLDERS = (Path(sys.argv[3]),)
with pool.scratch_folder():
    data, fault = batch.grade_one(load_variant("sp19"), Path(sys.argv[1]), isolation="files", seed=1)
print(json.dumps([data["score"], fault, data["output"], data["retried"]]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("kit_folder", ["usable", "none"])
def test_a_root_grader_where_tmp_is_closed_scores_the_reference_in_full_or_fails_saying_why(tmp_path, kit_folder):
    """As a root grader with Landlock and a Python other users can read (the system's), TMPDIR inside a folder
    only root may pass: the reference's full marks as a uid of its own, or "grader failed" with the reason."""
    system_python = Path("/usr/bin/python3.11")
    if os.geteuid() != 0 or not system_python.exists() or level.landlock_unavailable():
        pytest.skip("needs root, Landlock and a system Python 3.11 that other users can read")
    closed = tmp_path / "closed"
    (closed / "tmp").mkdir(parents=True)
    closed.chmod(0o700)
    (closed / "tmp").chmod(0o777)
    done = subprocess.run([str(system_python), "-c", ROOT_GRADER, str(project.SOLUTION / "sp19"), kit_folder,
                           str(closed / "kit")], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "HOG_SANDBOX": "files",
                               "TMPDIR": str(closed / "tmp")})
    assert done.returncode == 0, done.stderr
    score, fault, error, retried = json.loads(done.stdout.splitlines()[-1])
    if kit_folder == "usable":
        assert (score, fault, retried) == (23.0, False, 0) and "grader failed" not in error
    else:
        assert (score, fault, retried) == (0, True, 1)
        assert error.startswith("grader failed: SandboxUnavailable: the sandbox runs as a uid of its own, which "
                                "cannot pass ") and "set TMPDIR to a folder that every user may pass" in error
    assert [p.name for p in (closed / "tmp").iterdir()] == [user.SLOT_FOLDER.name]   # the uids' locks stay
