"""The user layer of the ``files`` level: a uid of its own for each concurrent sandbox.

Where the grader runs as root, each sandbox runs as an unprivileged uid taken
from a range (``BASE_UID`` + slot), held with a lock file per slot for as long
as the sandbox lives.  Its scratch folder belongs to that uid alone, so two
sandboxes cannot read each other's submissions, open each other's
``/proc/<pid>`` entries or signal each other.  A grader that is not root cannot
switch uid; Landlock is then the whole file layer.  With Landlock, the
interpreter must be reachable by other users (a Python installed under /root is
not): otherwise the uid is not switched and the report says why.  In a chroot
tree (``grader.sandbox.tree``, where Landlock is refused) the harness switches to
the uid itself once inside, and nothing outside the tree exists for it.
"""

from __future__ import annotations

import fcntl
import os
import stat
import sysconfig
import tempfile
from pathlib import Path


BASE_UID = 1_900_000_000
SLOTS = 512
SLOT_FOLDER = Path(tempfile.gettempdir()) / "hog-sandbox-uids"


class Slot:
    """One uid, held until ``release``."""

    def __init__(self, number: int, descriptor: int):
        self.uid = BASE_UID + number
        self._descriptor = descriptor

    def release(self) -> None:
        if self._descriptor >= 0:
            os.close(self._descriptor)  # closing drops the lock
            self._descriptor = -1


def unavailable(python: str) -> str | None:
    """None if sandboxes can run under uids of their own here, else why not."""
    if os.geteuid() != 0:
        return "the grader does not run as root, so it cannot give the submission a uid of its own"
    for path in (python, sysconfig.get_paths()["stdlib"]):
        blocked = _unreachable(os.path.realpath(path))
        if blocked:
            return (f"the Python runtime ({path}) is not readable by other users ({blocked} is closed), "
                    "so the submission keeps the grader's uid")
    return None


def closed_to_others(folder: Path) -> str | None:
    """The first folder on the way to ``folder`` (itself included) that other users cannot pass, else None."""
    current = "/"
    for part in Path(os.path.abspath(folder)).parts:
        current = os.path.join(current, part)
        try:
            if not os.stat(current).st_mode & stat.S_IXOTH:
                return current
        except OSError:
            return current
    return None


def _unreachable(path: str) -> str | None:
    """The first folder on the way to ``path`` that other users cannot enter, or the path if unreadable."""
    current = "/"
    for part in Path(path).parts[1:]:
        if not os.stat(current).st_mode & stat.S_IXOTH:
            return current
        current = os.path.join(current, part)
    return None if os.stat(current).st_mode & stat.S_IROTH else current


def acquire() -> Slot | None:
    """A free uid slot, or None when all are taken."""
    SLOT_FOLDER.mkdir(mode=0o700, exist_ok=True)
    for number in range(SLOTS):
        descriptor = os.open(SLOT_FOLDER / str(number), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            continue
        return Slot(number, descriptor)
    return None


def hand_over(scratch: Path, uid: int) -> None:
    """Make the scratch folder readable by ``uid`` alone (root keeps the power to remove it); a folder inside
    (the support files' ``tests/``) is readable and passable, never writable."""
    for path in scratch.iterdir():
        if path.is_dir() and not path.is_symlink():
            hand_over(path, uid)
            continue
        os.chown(path, uid, uid)
        path.chmod(0o400)
    os.chown(scratch, uid, uid)
    scratch.chmod(0o500)
