"""The user layer of the ``files`` level: a uid of its own for each concurrent sandbox.

Where the grader runs as root, each sandbox runs as an unprivileged uid taken
from a range (``BASE_UID`` + slot), held with a lock file per slot for as long
as the sandbox lives.  Its scratch folder belongs to that uid alone, so two
sandboxes cannot read each other's submissions, open each other's
``/proc/<pid>`` entries or signal each other.  A grader that is not root cannot
switch uid; Landlock is then the whole file layer.  The interpreter must be
reachable by other users (a Python installed under /root is not): otherwise the
uid is not switched and the report says why.

Where Landlock is missing (an older container engine refuses its system calls),
the uid is the file layer alone, and then only if file permissions close to it
everything that would give grading away (``open_to_others`` checks each before
a sandbox starts, and the level is not reached otherwise):

* the kit's package and its folder (the reference templates, ``solution/``, the
  specs and the course's files), the kit's cache (hidden cases, the signing key);
* the grader's home folder (keys, configuration: what a case printed would show);
* what the caller names: a batch's folder of submissions (``run_cases(protect=...)``);
* other sandboxes' scratch folders: each belongs to its own uid, mode 0500.

What stays readable needs no closing: the interpreter and its standard library
(the sandbox runs them), system files, and in ``/proc`` the command line and
status of other processes.  Everything else there about another uid's process
(its environment, descriptors, working folder, root, memory maps, memory) needs
ptrace access, which the kernel refuses to another uid without capabilities
(the sandbox has none); a command line names paths, and the paths that matter
are closed.  Where ``/proc`` is mounted with ``hidepid``, other processes are
not even listed.
"""

from __future__ import annotations

import fcntl
import os
import stat
import sysconfig
import tempfile
from pathlib import Path

from grader import project

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
    """Make the scratch folder readable by ``uid`` alone (root keeps the power to remove it)."""
    for path in scratch.iterdir():
        os.chown(path, uid, uid)
        path.chmod(0o400)
    os.chown(scratch, uid, uid)
    scratch.chmod(0o500)


# How far ``open_to_others`` looks into a folder that others may enter, before it counts it as open.
LOOK_DEPTH = 3
LOOK_ENTRIES = 400


def protected(others: "tuple[Path, ...] | list[Path]" = ()) -> list[tuple[str, Path]]:
    """What a sandbox running as another uid must not read, each with what it is: the kit's places,
    and what the caller names (``others``: a batch's folder of submissions)."""
    home, root = Path.home(), project.here().root   # root: the course folder or the kit's checkout, if any
    checkout = project.PACKAGE.parent if project.is_checkout(project.PACKAGE.parent) else None   # an editable kit
    return [("the kit's package", project.PACKAGE)] \
        + ([("the kit's checkout (its solutions)", checkout)] if checkout not in (None, root) else []) \
        + ([("the course's folder (its solutions, specs and releases)", root)] if root is not None else []) \
        + [("the kit's cache (HOG_CACHE)", project.CACHE)] \
        + ([("the grader's home folder (its keys, its configuration)", home)] if home != Path("/") else []) \
        + [("a folder of the batch (the other submissions, their results)", Path(path)) for path in others]


def open_to_others(others: "tuple[Path, ...] | list[Path]" = ()) -> str | None:
    """None when file permissions close every protected place to other uids, else the first open one
    and how to close it."""
    for what, place in protected(others):
        real = Path(os.path.realpath(place))
        opened = _first_open(real, LOOK_DEPTH) if _enterable(real.parent) else None
        if opened is not None:
            return (f"{what} ({place}) can be read by other users ({opened} is open to them); close it with "
                    f"`chmod -R go-rwx {place}`, as the Gradescope bundle's setup.sh does")
    return None


def _first_open(path: Path, depth: int) -> str | None:
    """The first file or folder at or below ``path`` (whose parent other users can enter) that they
    can read, or None. A folder on the way that others cannot enter closes everything below it."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return str(path) if info.st_mode & stat.S_IROTH else None
    if not info.st_mode & stat.S_IXOTH:
        return None
    if depth == 0:
        return str(path)
    try:
        entries = sorted(os.scandir(path), key=lambda entry: entry.name)
    except OSError:
        return None
    if len(entries) > LOOK_ENTRIES:
        return str(path)            # too many to look through: close the folder itself
    for entry in entries:
        found = _first_open(Path(entry.path), depth - 1)
        if found is not None:
            return found
    return None


def _enterable(folder: Path) -> bool:
    """Whether other users can pass through ``folder`` and every folder above it."""
    for current in [folder, *folder.parents]:
        try:
            if not os.stat(current).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def proc_hidden() -> bool:
    """Whether /proc hides other users' processes (mounted with hidepid)."""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                fields = line.split()
                if len(fields) > 3 and fields[1] == "/proc":
                    options = fields[3].split(",")
                    return any(option in ("hidepid=2", "hidepid=invisible", "hidepid=1", "hidepid=noaccess")
                               for option in options)
    except OSError:
        pass
    return False
