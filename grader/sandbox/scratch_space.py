"""A run's scratch space: the folder every sandbox of a run is made in, held by a lock while the run lives.

``scratch_folder`` gives a run a folder of its own, ``<tmp>/hog-scratch-<random>`` (mode 0711: a sandbox
running as another user may pass through it, not list it), where tempfile makes its folders while it is
open; it is removed after. The name is unique on the machine, not a pid: two runs with the same pid in
different PID namespaces (a container, ``unshare --pid``) never share a folder or judge each other's.

Liveness is a lock every namespace sees: each process using a scratch folder holds a shared ``flock`` on
the folder itself (forked workers share their parent's), and a folder is abandoned only when an exclusive
lock can be taken on it, which no holder's death can leave held. ``remove_abandoned`` removes this user's
abandoned folders; systemd-tmpfiles honours the same lock (it skips a folder on which a lock is held), so a
periodic cleaner of /tmp leaves a live run's folder alone. A folder is made under a hidden name
(``.hog-scratch-<random>``), locked, then renamed without replacing anything, so it never shows under its
final name unlocked; a hidden one is removed once older than ``MAKING_SECONDS`` and unlocked (its maker
died before the rename). Folders of kits before this one (``hog-sandbox-of-<pid>``) hold no lock, so
nothing proves them abandoned: the kit leaves them to the machine's cleaner of /tmp (or to a reboot).

Healing: a folder removed while its run lives (``rm -rf``, a cleaner that ignores locks) is made again,
locked again, under the same name, by whoever next makes a sandbox folder in it (``sandbox_folder``), the
run's forked workers included: a worker's lock goes when the worker ends, so a later run can remove what it
made, and the owner's exit removes whatever folder then stands under the name.

A uid of the sandbox's own (a root grader, ``grader.sandbox.user``) must pass every folder on the way to its
scratch folder. Where TMPDIR's folder is closed to other users (a /tmp of mode 0700), the run's scratch
folder is made in a folder the kit makes for it (``KIT_FOLDERS``: root's, mode 0711); where none of them
can serve, ``sandbox_folder`` raises SandboxUnavailable saying why, a "grader failed", never a score.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
import fcntl
import os
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from grader.sandbox import user
from grader.sandbox.model import SandboxUnavailable
from grader.sandbox.scratch import remove   # the one way a tree a submission touched is deleted

SCRATCH_PREFIX = "hog-scratch-"     # + tempfile's random letters: a name unique on the machine
MAKING_PREFIX = ".hog-scratch-"     # the same folder while it is made: renamed to its final name once locked
MAKING_SECONDS = 60                 # a folder still being made this long after its last change lost its maker
SANDBOX_PREFIX = "hog-sandbox-"     # one sandbox's folder, inside the scratch folder
# Where a root grader's scratch folders go when TMPDIR's folder is closed to other users: persistent and
# in-memory temporary space, each open to every user (1777) on a usual Linux, in which the kit makes a
# folder of root's own that others may pass (0711) and no other user can replace.
KIT_FOLDERS = (Path("/var/tmp/hog-kit"), Path("/dev/shm/hog-kit"))
MAKE_TRIES = 5                      # a folder made again while a cleaner removes it: then SandboxUnavailable


@dataclass
class _Held:
    """A scratch folder this process holds a shared lock on (``descriptor``), as it was when locked."""
    path: Path
    descriptor: int
    identity: tuple[int, int]       # (device, inode) of the folder locked


_held: dict[Path, _Held] = {}       # this process's scratch folders (a forked worker's are its parent's at first)
_reachable: dict[Path, Path] = {}   # a scratch folder closed to other users -> the one made for them


# ------------------------------------------------------------------ a run's scratch folder


@contextlib.contextmanager
def scratch_folder() -> Iterator[Path]:
    """A scratch folder of this run's own in TMPDIR's folder, where tempfile makes its folders while this is
    open; removed after. For a root grader where that folder is closed to other users, a second one in a
    folder the kit makes (``KIT_FOLDERS``), for the sandboxes that run as a uid of their own: made here, so
    that the run's forked workers share it, and removed with the first."""
    base = Path(tempfile.gettempdir())
    remove_abandoned(base)
    if os.geteuid() == 0:
        for folder in KIT_FOLDERS:
            if folder.is_dir() and not folder.is_symlink():
                remove_abandoned(folder)
    held = _make(base)
    if os.geteuid() == 0 and user.closed_to_others(held.path) is not None:
        with contextlib.suppress(SandboxUnavailable):   # said by the first sandbox that needs it
            _reachable_from(held.path)
    previous = tempfile.tempdir
    tempfile.tempdir = str(held.path)
    try:
        yield held.path
    finally:
        tempfile.tempdir = previous
        _release(held.path)


def remove_abandoned(base: Path) -> list[Path]:
    """Remove this user's scratch folders in ``base`` that no process holds (an exclusive lock can be taken
    on each); the ones removed. A folder still being made is left alone for ``MAKING_SECONDS``."""
    removed = []
    for entry in sorted([*base.glob(SCRATCH_PREFIX + "*"), *base.glob(MAKING_PREFIX + "*")]):
        try:
            descriptor = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue   # gone, a symbolic link, not a folder, or not ours to open
        try:
            found = os.fstat(descriptor)
            if found.st_uid != os.geteuid() or (entry.name.startswith(MAKING_PREFIX)
                                                and time.time() - found.st_mtime < MAKING_SECONDS):
                continue
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue   # a process of its run holds it
            if _identity(entry) != (found.st_dev, found.st_ino):
                continue   # made again under that name since it was opened: the new one is not judged
            remove(entry)
            removed.append(entry)
        finally:
            os.close(descriptor)
    return removed


def heal(folder: Path | None = None) -> None:
    """Make ``folder`` (default: tempfile's, while it is a scratch folder of this process) again, locked,
    where it was removed or replaced since this process locked it; nothing otherwise."""
    path = Path(folder if folder is not None else tempfile.gettempdir())
    held = _held.get(path)
    if held is None or _identity(path) == held.identity:
        return
    again = _make(path.parent, name=path.name)
    os.close(held.descriptor)   # the folder it locked is gone (a forked worker's copy leaves its parent's)
    _held[path] = again


def sandbox_folder(*, other_uid: bool = False, prefix: str = SANDBOX_PREFIX) -> Path:
    """A new folder (mode 0700) for one sandbox, in this run's scratch folder, made again first if it was
    removed. ``other_uid``: the sandbox runs as a uid of its own, which must pass every folder on the way;
    where TMPDIR's folder is closed to it, the folder is made in one the kit makes (``KIT_FOLDERS``), and
    where none can serve, SandboxUnavailable says why."""
    base = Path(tempfile.gettempdir())
    if other_uid:
        base = _reachable_from(base)
    for _attempt in range(MAKE_TRIES):
        heal(base)
        try:
            return Path(tempfile.mkdtemp(prefix=prefix, dir=base))
        except FileNotFoundError:
            continue   # removed between the look and the making: made again
    raise SandboxUnavailable(f"the scratch folder {base} was removed {MAKE_TRIES} times while a sandbox's folder "
                             "was made in it: stop what removes it (a cleaner of the temporary folder)")


# ------------------------------------------------------------------ making and locking


def _make(base: Path, name: str | None = None) -> _Held:
    """A scratch folder in ``base`` (named ``name``, else a new unique name), locked before it is seen under
    that name; where another process of the run made ``name`` first, that one, locked too."""
    problem = None
    for _attempt in range(MAKE_TRIES):
        try:
            making = Path(tempfile.mkdtemp(prefix=MAKING_PREFIX, dir=base))
        except FileNotFoundError as error:   # the folder it goes in was removed too: the kit's is made again
            problem = error
            if base not in KIT_FOLDERS or _kit_folder(base) is not None:
                break
            continue
        descriptor = os.open(making, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
            os.fchmod(descriptor, 0o711)
            final = base / (name or SCRATCH_PREFIX + making.name[len(MAKING_PREFIX):])
            _rename_new(making, final)
        except OSError as error:
            os.close(descriptor)
            with contextlib.suppress(OSError):
                remove(making)
            if error.errno != errno.EEXIST:
                problem = error
                continue   # a cleaner took it while it was made
            joined = _join(final)   # made again by another process of this run first
            if joined is not None:
                return joined
            continue
        held = _held[final] = _Held(final, descriptor, _identity(final) or (-1, -1))
        return held
    raise SandboxUnavailable(f"a scratch folder could not be made in {base} ({problem or 'removed as it was made'})")


def _join(path: Path) -> _Held | None:
    """``path``, locked by this process too, where it is a scratch folder of this user; else None."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    found = os.fstat(descriptor)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        found = None   # a cleaner holds it while it removes it
    if found is None or found.st_uid != os.geteuid() or _identity(path) != (found.st_dev, found.st_ino):
        os.close(descriptor)
        return None
    held = _held[path] = _Held(path, descriptor, (found.st_dev, found.st_ino))
    return held


def _release(path: Path) -> None:
    """Remove the scratch folder at ``path`` (whichever process of the run made it last) and drop the lock."""
    held = _held.pop(path, None)
    made = _reachable.pop(path, None)
    if made is not None:
        _release(made)
    with contextlib.suppress(OSError):
        found = path.lstat()
        if stat.S_ISDIR(found.st_mode) and found.st_uid == os.geteuid():
            remove(path)
    if held is not None:
        os.close(held.descriptor)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None


_RENAME_NOREPLACE = 1
_AT_FDCWD = -100


def _rename_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target`` only where nothing is there yet (FileExistsError otherwise): a plain
    rename would replace an empty folder another process just made."""
    renameat2 = getattr(_libc, "renameat2", None)
    if renameat2 is not None:
        if renameat2(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE) == 0:
            return
        number = ctypes.get_errno()
        if number not in (errno.EINVAL, errno.ENOSYS):    # a file system or kernel without the flag: below
            raise OSError(number, os.strerror(number), str(target))
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.rename(source, target)


_libc = ctypes.CDLL(None, use_errno=True)


# ------------------------------------------------------------------ a folder other users can pass


def _reachable_from(base: Path) -> Path:
    """``base`` where other users can pass every folder on the way to it; else a scratch folder of this
    process's in a folder the kit makes (made once, removed when the run's own is, or at exit); else
    SandboxUnavailable."""
    closed = user.closed_to_others(base)
    if closed is None:
        return base
    made = _reachable.get(base)
    if made is not None and made in _held:
        return made
    problems = []
    for folder in KIT_FOLDERS:
        problem = _kit_folder(folder)
        if problem is None:
            remove_abandoned(folder)
            made = _reachable[base] = _make(folder).path
            if base not in _held:    # no run holds ``base``: the process's exit removes what it made
                atexit.register(_release_in, os.getpid(), made)
            return made
        problems.append(problem)
    raise SandboxUnavailable(
        f"the sandbox runs as a uid of its own, which cannot pass {closed} on the way to the temporary folder "
        f"{base}, and no folder the kit makes for it can serve ({'; '.join(problems)}): set TMPDIR to a folder "
        "that every user may pass (mode 0711 or more on it and on each folder above it)")


def passable_folder(prefix: str) -> Path:
    """A new folder (mode 0700, this user's) that other users could reach once given it: in tempfile's folder
    where they can pass every folder on the way, else in a folder the kit makes (``KIT_FOLDERS``); else
    SandboxUnavailable. For a program run as another user on purpose (a test's PostgreSQL server)."""
    base = Path(tempfile.gettempdir())
    if user.closed_to_others(base) is None:
        return Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    problems = [problem for problem in map(_kit_folder, KIT_FOLDERS) if problem is not None]
    serving = [folder for folder in KIT_FOLDERS if _kit_folder(folder) is None]
    if not serving:
        raise SandboxUnavailable(f"other users cannot reach {base} and no folder the kit makes can serve "
                                 f"({'; '.join(problems)}): set TMPDIR to a folder that every user may pass")
    return Path(tempfile.mkdtemp(prefix=prefix, dir=serving[0]))


def _release_in(pid: int, path: Path) -> None:
    """``_release`` at exit, in the process that made ``path`` only (a forked worker's exit leaves it)."""
    if os.getpid() == pid:
        _release(path)


def _kit_folder(folder: Path) -> str | None:
    """Make ``folder`` (root's, mode 0711) where it is missing; None when it can serve other users' sandboxes,
    else why not."""
    closed = user.closed_to_others(folder.parent)
    if closed is not None:
        return f"other users cannot pass {closed}, on the way to {folder}"
    try:
        folder.mkdir(mode=0o711)
    except FileExistsError:
        pass   # made before: checked below
    except OSError as error:
        return f"{folder} cannot be made ({error.strerror})"
    found = folder.lstat()
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
        return f"{folder} is not a folder of the grader's own (remove it)"
    if stat.S_IMODE(found.st_mode) != 0o711:
        os.chmod(folder, 0o711)   # ours: a umask took some of it away
    return None
