"""Whether a grader process of this machine is alive, as every PID namespace of the machine sees it.

Each grader holds a lock on ``server/graders/<name>.lock`` in the course folder for its whole life; the
kernel lets go of it when the process ends, however it ends (SIGKILL included, and before a zombie is
reaped). A pid alone says nothing across PID namespaces: a ``hog serve`` started in a namespace of its own
(``unshare --pid``, a container sharing the course folder) finds no process of that number in its own
namespace and would take a live grader for dead, putting the jobs it is grading back in the queue. The
lock is a POSIX record lock (``fcntl.lockf``), which, unlike ``flock``, the worker processes a grader
forks do not inherit: a worker that outlives its grader for a moment does not keep the grader alive.
Such a lock is the process's until it closes any descriptor of that file, so this module never opens
the lock of a grader of this process (``held``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
from pathlib import Path

FOLDER = "graders"   # in the course's server folder
_held: dict[Path, int] = {}   # the locks of this process's graders: path → its descriptor


def folder(root: Path) -> Path:
    return root / "server" / FOLDER


def _path(root: Path, name: str) -> Path:
    return folder(root) / (re.sub(r"[^\w.:-]", "_", name) + ".lock")


def hold(root: Path | None, name: str) -> Path | None:
    """Take the lock of the grader ``name`` (this process) for as long as the process lives; its path, or
    None where it cannot be had (no course folder, one that cannot be written): others then judge the
    grader by its heartbeat."""
    if root is None:
        return None
    path = _path(root, name)
    if path in _held:
        return path
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:   # held by a live process of the same name (it cannot be: names hold the pid namespace)
        os.close(handle)
        return None
    _held[path] = handle
    return path


def release(root: Path | None, name: str) -> None:
    """Let go of this process's lock for the grader ``name`` (one that ends cleanly; its file is left for the
    next look to find free)."""
    handle = _held.pop(_path(root, name), None) if root is not None else None
    if handle is not None:
        os.close(handle)


def alive(root: Path | None, name: str) -> bool | None:
    """Whether the grader ``name`` of this machine lives: True while its lock is held, False once it can be
    taken (its file is then removed), None when it has no lock here to judge by."""
    if root is None:
        return None
    path = _path(root, name)
    if path in _held:
        return True
    try:
        handle = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:   # held: alive; a file system that keeps no locks: no judgement
            return True if error.errno in (errno.EACCES, errno.EAGAIN) else None
        with contextlib.suppress(OSError):
            path.unlink()
        return False
    finally:
        os.close(handle)
