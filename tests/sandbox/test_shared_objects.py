"""Nothing a submission makes outlives its sandbox or reaches the host, at every level.

A correct sp19 ``hog.py`` that, on import, makes System V shared memory, a message
queue and a semaphore set (mode 0666, keys of its own) and sends a datagram to a unix
socket the test binds on the host: the system call filter refuses each with EPERM,
the submission still grades full, no IPC object is left (``/proc/sysvipc``) and the
socket receives nothing; alone and two at a time in ``grade-batch --jobs 2``, at
``process``, ``files`` (also in the container simulation) and ``bubblewrap``. Nor does it change
another process of its uid: its nice value and CPU affinity are its own to change, no one else's.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from grader.grading import grade
from grader.sandbox import Limits, namespaces, run_cases
from grader.spec import load_variant
from tests import ROOT, TESTS
from tests.sandbox.isolated import in_container, no_level_settings, use_level  # noqa: F401 (an autouse fixture)

HOSTILE = TESTS / "submissions" / "hostile"
FAST = Limits(case_seconds=2.0, total_seconds=60.0)
LEVELS = ["process", "files", "bubblewrap"]


@pytest.fixture
def host_socket(tmp_path):
    """A datagram socket bound on the host, in a folder of the test's own."""
    folder = tmp_path / "host"
    folder.mkdir(mode=0o700)
    path = folder / "listening"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    os.chmod(path, 0o777)
    server.setblocking(False)
    yield server, path
    server.close()


def received(server: socket.socket) -> list[bytes]:
    got = []
    while True:
        try:
            got.append(server.recv(4096))
        except BlockingIOError:
            return got


def ipc_keys() -> set[int]:
    """Every System V key in use on the machine (this IPC namespace)."""
    keys = set()
    for kind in ("shm", "msg", "sem"):
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        keys |= {int(line.split()[0]) for line in lines if line.split()}
    return keys


def ipc_ids() -> dict[str, set[int]]:
    return {kind: {int(line.split()[1]) for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
                   if line.split()} for kind in ("shm", "msg", "sem")}


def leaving(folder: Path, socket_path: Path) -> tuple[Path, int]:
    """A correct sp19 submission with the attempts appended, and the first of its three keys."""
    key = random.randrange(0x48000000, 0x48FFFFFF)
    extra = (HOSTILE / "leaves_objects.py").read_text()
    extra = extra.replace("KEY = None", f"KEY = {key}").replace("SOCKET = None", f"SOCKET = {str(socket_path)!r}")
    folder.mkdir(parents=True)
    (folder / "hog.py").write_text((ROOT / "solution" / "sp19" / "hog.py").read_text() + "\n\n" + extra)
    shutil.copy(ROOT / "solution" / "sp19" / "dice.py", folder / "dice.py")
    return folder, key


def assert_nothing_left(keys: list[int], before: dict[str, set[int]], server) -> None:
    assert not set(keys) & ipc_keys()
    after = ipc_ids()
    assert all(after[kind] <= before[kind] for kind in after), (before, after)
    assert received(server) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", LEVELS)
def test_every_attempt_is_refused_and_the_submission_still_grades_full(tmp_path, monkeypatch, host_socket, name):
    use_level(monkeypatch, name)
    server, path = host_socket
    before = ipc_ids()
    submission, key = leaving(tmp_path / "student", path)
    report = run_cases(submission, [["left_behind()"]], limits=FAST, minimum=name)
    assert report.level == name
    tried = dict(eval(report.cases[0].steps[0].output))
    assert (tried.pop("socketpair"), tried.pop("asyncio")) == ("made", "made")   # the standard library's pairs work
    assert len(tried) == 10 and set(tried.values()) <= {"PermissionError", "refused (errno 1)"}, tried   # EPERM
    result = grade.grade(submission, load_variant("sp19"), limits=FAST, minimum=name)
    assert result.isolation_level == name and result.grader_error is None and result.import_error is None
    assert result.score == result.max_score
    assert_nothing_left([key, key + 1, key + 2], before, server)


CONTAINED = """
import json, sys
from grader.grading import grade
from grader.spec import load_variant
result = grade.grade(sys.argv[1], load_variant("sp19"), minimum="files")
print(json.dumps([result.isolation_level, result.score, result.max_score, result.grader_error]))
"""


@pytest.mark.slow
def test_in_a_container_the_files_level_leaves_nothing_and_grades_full(tmp_path, host_socket):
    server, path = host_socket
    before = ipc_ids()
    submission, key = leaving(tmp_path / "student", path)
    done = in_container([sys.executable, "-c", CONTAINED, str(submission)])
    assert done.returncode == 0, done.stderr
    reached, score, most, fault = json.loads(done.stdout.splitlines()[-1])
    assert (reached, fault) == ("files", None) and score == most
    assert_nothing_left([key, key + 1, key + 2], before, server)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["files in a container", "bubblewrap"])
def test_two_at_a_time_in_a_batch_nothing_passes_between_them(tmp_path, host_socket, name):
    server, path = host_socket
    before = ipc_ids()
    subs = tmp_path / "subs"
    keys = []
    for student in ("alice", "bob"):
        _, key = leaving(subs / student, path)
        keys += [key, key + 1, key + 2]
    out = tmp_path / "out"
    level_name = name.split()[0]
    command = [sys.executable, "-P", "-m", "grader.cli", "grade-batch", str(subs), "--variant", "sp19", "--jobs", "2",
               "--isolation", level_name, "--out", str(out)]
    if level_name == "files":
        done = in_container(command)
    else:
        if namespaces.unavailable():
            pytest.skip(namespaces.unavailable())
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("HOG_SANDBOX", None)
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for student in ("alice", "bob"):
        result = json.loads((out / f"{student}.json").read_text())
        assert result["isolation_level"] == level_name and not result.get("grader_failed")
        assert result["score"] == result["max_score"], result
    assert_nothing_left(keys, before, server)


RENICE = '''
import os

NEIGHBOUR = None


def renice():
    tried = []
    for name, call in [("neighbour", lambda: os.setpriority(os.PRIO_PROCESS, NEIGHBOUR, 19)),
                       ("affinity", lambda: os.sched_setaffinity(NEIGHBOUR, {0})),
                       ("itself", lambda: os.nice(1))]:
        try:
            call()
            tried.append(name + " changed")
        except OSError as error:
            tried.append(name + " " + type(error).__name__)
    return tried
'''


@pytest.fixture
def neighbour():
    """Another process of the grader's uid, with no more capabilities than a sandbox (as root, the
    kernel itself refuses a process without capabilities to change one that has them)."""
    command = ["sleep", "60"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("needs setpriv to start a process without capabilities")
        command = [setpriv, "--bounding-set", "-all", "--inh-caps", "-all", *command]
    process = subprocess.Popen(command)
    yield process.pid
    process.kill()
    process.wait()


@pytest.mark.parametrize("name", ["process", "files"])
def test_a_submission_changes_its_own_priority_only_never_another_processs(tmp_path, monkeypatch, neighbour, name):
    use_level(monkeypatch, name)
    (tmp_path / "hog.py").write_text(RENICE.replace("NEIGHBOUR = None", f"NEIGHBOUR = {neighbour}"))
    nice, affinity = os.getpriority(os.PRIO_PROCESS, neighbour), os.sched_getaffinity(neighbour)
    report = run_cases(tmp_path, [["renice()"]], limits=FAST, minimum=name)
    assert report.level == name
    assert eval(report.cases[0].steps[0].output) == [
        "neighbour PermissionError", "affinity PermissionError", "itself changed"]
    assert (os.getpriority(os.PRIO_PROCESS, neighbour), os.sched_getaffinity(neighbour)) == (nice, affinity)
