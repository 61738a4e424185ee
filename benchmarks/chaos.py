"""Faults of the machine a course server meets over a term, made on purpose for the soak benchmark: a
PostgreSQL server of its own (started, restarted), a small disk (a tmpfs mounted as root, filled and freed),
the grader's scratch folders removed, another ``hog`` in a PID namespace of its own, a process group
killed with SIGKILL. Each returns what it did, to be printed; each is undone by its owner's cleanup, even
after Ctrl-C or an error (every one is a context or has a ``stop``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from grader.classroom.pool import SCRATCH_PREFIX
from grader.sandbox.processes import alive

from processes import descendants   # beside this script: a process tree, read from /proc

ROOT = Path(__file__).resolve().parent.parent
SCRATCH_GLOB = "hog-*"   # all the kit makes in the server's own TMPDIR: its scratch folders, probes, uid locks
# Debian's PostgreSQL (apt-get install postgresql): the newest installed, or HOG_TEST_POSTGRES_BIN (as the tests).
PG_BIN = Path(os.environ.get("HOG_TEST_POSTGRES_BIN") or max(
    Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    default=Path("/usr/lib/postgresql/15/bin")))
CHUNK = 1024 * 1024


def _run(command: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **options)


# ------------------------------------------------------------------ PostgreSQL


class Postgres:
    """A PostgreSQL server of this run, as the server tests start one: initdb and pg_ctl as the ``postgres``
    user (we are root) in ``base``, which that user must be able to reach; a Unix socket only, no TCP."""

    def __init__(self, base: Path):
        if not (PG_BIN / "initdb").is_file():
            raise SystemExit(f"no PostgreSQL in {PG_BIN} (apt-get install postgresql, or set HOG_TEST_POSTGRES_BIN; "
                             f"or run with --database sqlite)")
        self.base, self.data = base, base / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        base.mkdir(mode=0o700)
        if self.as_user:
            shutil.chown(base, "postgres")
            if _run([*self.as_user, "test", "-w", str(base)]).returncode:
                raise SystemExit(f"the postgres user cannot reach {base}: make its parent folders passable "
                                 f"(chmod o+x) or give TMPDIR a folder it can reach")
        done = _run([*self.as_user, str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "hog",
                     "-E", "UTF8"])
        if done.returncode:
            raise SystemExit(f"initdb failed: {done.stderr.strip()[-500:]}")
        self.started = False
        self._pg_ctl("start")
        self.started = True
        done = _run([str(PG_BIN / "createdb"), "-h", str(base), "-U", "hog", "soak"])
        if done.returncode:
            raise SystemExit(f"createdb failed: {done.stderr.strip()[-500:]}")
        self.url = f"postgresql://hog@/soak?host={base}"

    def _pg_ctl(self, *action: str) -> float:
        started = time.perf_counter()
        done = _run([*self.as_user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.base / "log"),
                     "-o", f"-k {self.base} -c listen_addresses='' -c max_connections=200", *action])
        if done.returncode:
            raise SystemExit(f"pg_ctl {' '.join(action)} failed: {(done.stderr or done.stdout).strip()[-500:]}")
        return time.perf_counter() - started

    def restart(self) -> str:
        """``pg_ctl restart -m fast``: every connection ended, the server back."""
        return f"pg_ctl restart -m fast: back after {self._pg_ctl('restart', '-m', 'fast'):.1f} s"

    def processes(self) -> list[int]:
        """The postmaster and every process under it."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            return descendants(int((self.data / "postmaster.pid").read_text().split()[0]))
        return []

    def stop(self) -> None:
        if self.started:
            _run([*self.as_user, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"])
            self.started = False


# ------------------------------------------------------------------ the disk


class Disk:
    """A tmpfs of ``mib`` MiB mounted at ``folder`` (mode 0711: a sandbox's own uid may pass), filled with a
    file of zeros until the kernel says it is full, and freed."""

    def __init__(self, folder: Path, mib: int):
        self.folder, self.mib, self.filler = folder, mib, folder / "filler"
        folder.mkdir(mode=0o711)
        done = _run(["mount", "-t", "tmpfs", "-o", f"size={mib}m,mode=0711", "hog-soak", str(folder)])
        if done.returncode:
            raise SystemExit(f"cannot mount a tmpfs at {folder} ({done.stderr.strip()}): the soak benchmark "
                             f"runs as root")
        self.mounted = True

    def fill(self) -> int:
        """Zeros written until the disk is full; how many bytes."""
        written, chunk = 0, b"\0" * CHUNK
        with open(self.filler, "wb", buffering=0) as handle:
            while True:
                try:
                    written += handle.write(chunk if written % CHUNK == 0 else chunk[:CHUNK - written % CHUNK])
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    return written

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def used(self) -> tuple[int, int]:
        """(bytes in use, bytes in all)."""
        info = os.statvfs(self.folder)
        return (info.f_blocks - info.f_bfree) * info.f_frsize, info.f_blocks * info.f_frsize

    def unmount(self) -> None:
        if self.mounted and _run(["umount", str(self.folder)]).returncode:
            _run(["umount", "-l", str(self.folder)])   # still busy (a process left behind): detached
        self.mounted = False


# ------------------------------------------------------------------ scratch folders, another hog, a killed group


def scratch_folders(tmp: Path) -> set[str]:
    """The names of the grader's own scratch folders in ``tmp`` (not the level's probes, nor the uids' slots)."""
    return {folder.name for folder in tmp.glob(SCRATCH_PREFIX + "*")}


def made_anew(tmp: Path, known: set[str], seconds: float = 30) -> bool:
    """Whether a scratch folder not in ``known`` (those killed graders left behind) is in ``tmp``, waiting for
    one at most ``seconds``: a grader just started makes its own once it has prepared, and a fault meant for
    a live grader's folder waits for it."""
    deadline = time.monotonic() + seconds
    while not scratch_folders(tmp) - known:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def remove_scratch(tmp: Path) -> list[str]:
    """The grader's scratch folders in ``tmp`` removed while it runs (as a cleaner of /tmp would); their names."""
    gone = []
    for folder in tmp.glob(SCRATCH_GLOB):
        shutil.rmtree(folder, onerror=_writable_then_again)
        gone.append(folder.name)
    return gone


def _writable_then_again(function, path, _error) -> None:
    with contextlib.suppress(OSError):
        os.chmod(os.path.dirname(path), 0o700)
        function(path)


def other_namespace_hog(tmp: Path, environment: dict[str, str]) -> str:
    """``hog grade`` of the sp19 reference in a PID namespace of its own (``unshare --pid --fork --mount-proc``)
    with the server's TMPDIR: what it printed of its score, and which scratch folders it left."""
    before = sorted(path.name for path in tmp.glob(SCRATCH_GLOB))
    started = time.perf_counter()
    done = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-m", "grader.cli", "grade",
                           str(ROOT / "solution" / "sp19"), "--variant", "sp19", "--format", "json"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, **environment, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)})
    after = sorted(path.name for path in tmp.glob(SCRATCH_GLOB))
    try:
        data = json.loads(done.stdout)
        said = f"{data.get('score'):g}/{data.get('max_score'):g}"
    except (ValueError, TypeError):
        said = f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    lost = sorted(set(before) - set(after))
    return (f"hog grade in a PID namespace of its own: {said} in {time.perf_counter() - started:.1f} s; the server's "
            f"scratch folders {'removed by it: ' + ', '.join(lost) if lost else 'left as they were'}")


def kill_group(leader: int) -> tuple[int, list[int]]:
    """SIGKILL to the process group ``leader`` leads (web, grader, workers); how many processes were under
    it, and those still alive 5 s later (killed then, one by one)."""
    tree = descendants(leader)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(leader, signal.SIGKILL)
    deadline = time.monotonic() + 5
    left = tree
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [pid for pid in left if alive(pid)]
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(tree), left

