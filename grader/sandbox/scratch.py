"""The scratch folder: what of a submission is copied in, checked arguments, and removal afterwards.

Only regular files are taken (a symbolic link, a device or an unreadable
hog.py is the submission's own fault, reported like an import error); the
kit's support files replace student copies of the same name. A support file
may sit in a folder of its own (``tests/check_strategy.py``, a course's helper):
the folders are made, and the support files are read-only (mode 0444, their
folders 0555), whoever runs the submission.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import stat
import sys
from pathlib import Path
from typing import Callable, Mapping, Sequence, Tuple

from grader.sandbox.model import NOT_RUN, Limits, SandboxReport, StepKind, cap, failed

_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


def submission_files(submission: Path) -> tuple[Path, list[Path]]:
    """hog.py and the student's other *.py files (only when given a folder)."""
    submission = Path(submission)
    if submission.is_dir():
        hog = submission / "hog.py"
        if not hog.exists() and not hog.is_symlink():
            raise FileNotFoundError(f"no hog.py in the submission folder {submission}")
        others = sorted(path for path in submission.glob("*.py")
                        if path.name != "hog.py" and path.is_file() and not path.is_symlink())
    elif submission.exists() or submission.is_symlink():
        hog, others = submission, []
    else:
        raise FileNotFoundError(f"the submission {submission} does not exist")
    if hog.is_symlink():
        raise Unusable(f"{hog.name} is a symbolic link; the grader only takes the file itself "
                        "(submit a copy of the file, not a link to it)")
    if not hog.is_file():
        raise Unusable(f"{hog.name} is not a regular file")
    return hog, others


class Unusable(Exception):
    """The submission's own files cannot be graded: its fault, reported like an import error."""


def not_run(cases: list[list[str]], problem: str) -> SandboxReport:
    note = f"the submission did not import: {problem}"
    return SandboxReport([failed(note, kind=StepKind.ERROR) for _ in cases], cap(problem), NOT_RUN, "")


def prepare(scratch: Path, hog: Path, others: list[Path], support_files: Mapping[str, str],
            opened: bool = True) -> None:
    """Copy the submission's files and the support files into ``scratch``; ``opened``: readable by
    every user (else the folder keeps its owner-only mode until ``user.hand_over``)."""
    for path in others:
        if path.name not in support_files:
            _copy_regular(path, scratch / path.name)
    _copy_regular(hog, scratch / "hog.py")
    for path in scratch.iterdir():
        path.chmod(0o644)
    folders = set()
    for name, content in support_files.items():
        target = scratch / name
        for parent in list(Path(name).parents)[-2::-1]:   # tests, then tests/data, ...
            (scratch / parent).mkdir(exist_ok=True)
            folders.add(scratch / parent)
        if target.exists():
            target.chmod(0o644)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        target.chmod(0o444)
    for folder in sorted(folders, reverse=True):
        folder.chmod(0o555)
    if opened:
        scratch.chmod(0o755)


def _copy_regular(source: Path, target: Path) -> None:
    """Copy without following a symbolic link swapped in after the check."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(source, flags)
    except OSError as error:
        if source.is_symlink():
            raise Unusable(f"{source.name} is a symbolic link; the grader only takes the file itself "
                            "(submit a copy of the file, not a link to it)") from None
        raise Unusable(f"cannot read {source.name}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise Unusable(f"{source.name} is not a regular file")
        with open(target, "wb") as copy:
            shutil.copyfileobj(handle, copy, 1 << 20)    # in pieces: a large hog.py never sits in memory


def remove(scratch: Path) -> None:
    """Delete a folder tree (a sandbox's, a run's scratch folder), even where the submission changed
    permissions inside; a symbolic link is removed, never followed to change its target's mode."""
    def retry(function, path, _error):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            if not os.path.islink(path):
                os.chmod(path, 0o700)
            function(path)
        except OSError:
            pass

    if sys.version_info >= (3, 12):
        shutil.rmtree(scratch, onexc=retry)
    else:
        shutil.rmtree(scratch, onerror=retry)


def check_arguments(cases, setup, support_files, limits, names,
                    groups=None) -> tuple[list[list[str]], list[str], list[str] | None]:
    if isinstance(cases, (str, bytes)):
        raise TypeError("cases must be a list of cases, each a list of steps")
    checked = []
    for number, case in enumerate(cases):
        if isinstance(case, (str, bytes)):
            raise TypeError(f"case {number} must be a list of steps, not a single string")
        steps = list(case)
        for step in steps:
            if not isinstance(step, str):
                raise TypeError(f"case {number} has a step that is not a string: {step!r}")
        checked.append(steps)
    if isinstance(setup, (str, bytes)) or not all(isinstance(step, str) for step in setup):
        raise TypeError("setup must be a list of strings")
    if names is not None and (isinstance(names, (str, bytes))
                              or not all(isinstance(name, str) for name in names)):
        raise TypeError("names must be a list of strings or None")
    for name, content in support_files.items():
        if not isinstance(content, (str, bytes)):
            raise TypeError(f"support file {name!r} must be given as text or bytes")
        parts = name.split("/") if isinstance(name, str) else [""]
        if not all(_NAME.fullmatch(part) and not part.startswith(".") for part in parts) or name == "hog.py":
            raise ValueError(f"support file name {name!r} must be a plain file name other than hog.py, "
                             f"or plain folder names and one such file joined by '/'")
    for field in ("case_seconds", "total_seconds", "backstop", "wait_seconds"):
        value = getattr(limits, field)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"Limits.{field} must be a positive number of seconds")
    for field in ("memory_bytes", "cpu_seconds", "file_bytes", "processes"):
        value = getattr(limits, field)
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"Limits.{field} must be a positive whole number")
    if groups is not None and (len(groups) != len(checked) or not all(type(g) is str for g in groups)):
        raise ValueError("groups must give one text label per case")
    return checked, list(setup), None if names is None else list(names)

# Cases known only once the sandbox runs (``run_cases``'s ``later``): a function that gives them, and
# their groups (None where the first cases have none).
Later = Callable[[], Tuple[Sequence[Sequence[str]], "Sequence[str] | None"]]


def with_later(cases: list[list[str]], groups: list[str] | None, later: Later | None, setup: list[str],
               names: list[str] | None, limits: Limits) -> tuple[list[list[str]], list[str] | None]:
    """``cases`` and ``groups`` followed by the ones ``later`` gives, checked as ``run_cases`` checks its own."""
    if later is None:
        return cases, groups
    more, more_groups = later()
    checked, _, _ = check_arguments(more, setup, {}, limits, names, more_groups)
    if (more_groups is None) != (groups is None):
        raise ValueError("later cases must have groups exactly when the first cases have them")
    return cases + checked, None if groups is None else groups + list(more_groups)
