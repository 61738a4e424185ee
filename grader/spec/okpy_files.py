"""What of an okpy assignment folder travels with its suite: what okpy would run beside the submission.

okpy runs a course's tests in the assignment's folder: the whole ``tests/`` package is importable
(``from tests.check_strategy import check_strategy``), a test's helpers open their data files from there
(``tests/play.sol``), and the course's own modules beside ``hog.py`` (``hog_gui.py``, ``ucb.py``,
``dice.py``, a package such as ``gui_files/``) are imported as they are. ``walk`` lists every file of the
folder the kit carries, and every one it leaves out with why: the submission's own files (the config's
``src``, and ``hog.py`` whatever it says), the config itself, okpy's client (``ok``), compiled caches,
hidden files, symbolic links, names the sandbox does not take and files of 2 MiB or more. A folder of 50 MiB
or more, or of more than 10,000 files, is refused, naming it, before anything is written.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from grader.errors import UsageError

FILE_BYTES = 2 << 20       # each file read or carried is smaller
FOLDER_BYTES = 50 << 20    # and the folder's files together
FOLDER_FILES = 10_000      # and there are fewer files
CLIENT = "ok"              # okpy's client, a zip kept beside the config
SUBMISSION = "hog.py"      # the submission's file, whatever the config's src says
NAME = re.compile(r"[A-Za-z0-9_.\-]+")   # each part of a name the sandbox takes (grader.sandbox.scratch)


def mib(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


def relative(folder: Path, path: Path) -> str:
    return path.relative_to(folder).as_posix()


def inside(folder: Path, path: Path, shown: str, config: Path) -> Path:
    """``path`` resolved, when it stays inside ``folder``; a UsageError naming it otherwise."""
    resolved = path.resolve()
    if resolved != folder and folder not in resolved.parents:
        how = "is a symbolic link leading out of" if path.is_symlink() else "lies outside"
        raise UsageError(f"{config.name}: {shown} {how} {folder} (to {resolved}): a test is read inside the okpy "
                         f"folder only; nothing was written")
    return resolved


def bounded_text(path: Path, shown: str, what: str = "a test file") -> str:
    """A file's text, when it is smaller than FILE_BYTES; a UsageError naming it otherwise."""
    try:
        size = path.stat().st_size
        if size >= FILE_BYTES:
            raise UsageError(f"{shown}: {mib(size)}, over the {FILE_BYTES >> 20} MiB {what} may be; "
                             f"nothing was written")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not UTF-8 text; nothing was written") from None
    except OSError as error:
        raise UsageError(f"{shown}: cannot be read ({error.strerror}); nothing was written") from None


def _why_not(entry: os.DirEntry, name: str, src: set[str], config: str) -> str | None:
    """Why an entry of the folder is not carried (None: it is, or it is a folder to look into)."""
    if entry.is_symlink():
        return "a symbolic link: only files themselves are carried"
    if entry.name.startswith("."):
        return "a hidden folder" if entry.is_dir(follow_symlinks=False) else "a hidden file"
    if not NAME.fullmatch(entry.name):
        return "a name the sandbox does not take (letters, digits, '.', '_' and '-' only)"
    if entry.is_dir(follow_symlinks=False):
        return "compiled files Python makes again" if entry.name == "__pycache__" else None
    if not entry.is_file(follow_symlinks=False):
        return "not a regular file"
    if name in src or name == SUBMISSION:
        return "the submission's own (the config's src): each submission brings its own"
    if name == config:
        return "the okpy config, read into suite.json"
    if name == CLIENT:
        return "okpy's client itself, not the course's code"
    size = entry.stat(follow_symlinks=False).st_size
    if size >= FILE_BYTES:
        return f"{mib(size)}, over the {FILE_BYTES >> 20} MiB a carried file may be"
    return None


def walk(folder: Path, config: str, src: list[str]) -> tuple[dict[str, Path], list[str]]:
    """Every file of ``folder`` carried (relative POSIX path → its path), in name order, and each file or
    folder left out as ``"path: why"``; a UsageError when the folder's files reach FOLDER_BYTES."""
    carried: dict[str, Path] = {}
    left_out: list[str] = []
    total = 0
    waiting = [folder]
    while waiting:
        current = waiting.pop()
        with os.scandir(current) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                path = Path(entry.path)
                name = relative(folder, path)
                why = _why_not(entry, name, set(src), config)
                if why is not None:   # a name that is not UTF-8 shown escaped, never a crash printing it
                    shown = name.encode("utf-8", "backslashreplace").decode("utf-8")
                    left_out.append(f"{shown}{'/' if entry.is_dir(follow_symlinks=False) else ''}: {why}")
                elif entry.is_dir(follow_symlinks=False):
                    waiting.append(path)
                else:
                    total += entry.stat(follow_symlinks=False).st_size
                    if len(carried) >= FOLDER_FILES:
                        raise UsageError(f"{folder}: more than {FOLDER_FILES:,} files: an okpy folder is carried "
                                         f"with its suite whole; leave out what the tests do not need; nothing "
                                         f"was written")
                    if total >= FOLDER_BYTES:
                        raise UsageError(f"{folder}: more than {FOLDER_BYTES >> 20} MiB of files (at {name}): "
                                         f"an okpy folder is carried with its suite whole; leave out what the "
                                         f"tests do not need; nothing was written")
                    carried[name] = path
    return dict(sorted(carried.items())), sorted(left_out)


def read(path: Path) -> bytes:
    """A carried file's bytes, read without following a link swapped in after ``walk`` looked."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UsageError(f"{path}: not a regular file any more (import the okpy folder again)")
        return handle.read(FILE_BYTES)


def plain(name: str) -> bool:
    """Whether ``name`` is a relative path the kit may write a carried file to (no '..', nothing hidden)."""
    parts = PurePosixPath(name).parts
    return bool(parts) and not PurePosixPath(name).is_absolute() and name != SUBMISSION and all(
        NAME.fullmatch(part) and part not in (".", "..") and not part.startswith(".") for part in parts)
