"""The grading verbs of one submission: ``hog grade`` and ``hog test``."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import TextIO

from grader import reference
from grader.cases import unlocking
from grader.commands.container import ensure_image
from grader.spec import course
from grader.cases import new_seed
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.grading import okpy_grade
from grader.grading.grade import grade_safely
from grader.report import FORMATS
from grader.commands import starting
from grader.sandbox.early import Early
from grader.sandbox.level import NAMES, Level, minimum_from
from grader.spec import load_variant, okpy_suite, titles, variant_ids


GRADER_FAULT = 1
DECLARATION_LINES = 8      # a hog.py names its variant in its docstring's title, within these lines


def _submission(path: str) -> Path:
    submission = Path(path)
    if not submission.exists():
        raise UsageError(f"no submission at {path} (give a hog.py or a folder holding one)")
    if submission.is_dir() and not (submission / "hog.py").is_file():
        raise UsageError(f"{path} holds no hog.py (give a hog.py or a folder holding one)")
    if submission.is_file() and submission.suffix != ".py":
        raise UsageError(f"{path} is not a Python file (give a hog.py or a folder holding one)")
    return submission


def class_folder(folder: str, jobs: int) -> Path:
    """A folder of submissions and a number of workers, checked for the class verbs."""
    source = Path(folder)
    if not source.is_dir():
        raise UsageError(f"{folder} is not a folder of submissions")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return source


def isolation_level(choice: str | None) -> str:
    """The least isolation a grading run requires: --isolation, else $HOG_ISOLATION, else the course
    config's, else files; at the container level, its image made first if it is missing."""
    least = minimum_from(choice, otherwise=NAMES.get(course.isolation(), Level.FILES)).label
    ensure_image(least)
    return least


def _check_seed(seed: int | None) -> int:
    if seed is not None and seed < 0:
        raise UsageError("--seed must be 0 or more")
    return new_seed() if seed is None else seed


def _output_target(output: str) -> Path:
    """--output as a path to replace: absent or a regular file, in a folder that exists."""
    target = Path(output)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UsageError(f"cannot write {output}: {error.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                else "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "not a regular file")
        raise UsageError(f"--output {output} is {kind}; give a regular file or a new name "
                         f"(nothing was written)")
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {output}: folder {target.parent} does not exist")
    return target


def grade(*, submission: str, variant: str | None, fmt: str, output: str | None, out: TextIO,
          isolation: str | None = None, seed: int | None = None, force_variant: bool = False,
          early: Early | None = None, suite: str | None = None, diagnoses: bool = True) -> int:
    """``hog grade``: exit 0 whenever grading completed, 1 for a fault of the grader (including an
    isolation below the required level).

    Without ``variant``, the variant hog.py declares; a ``variant`` that differs from the
    declared one is refused (usage error) unless ``force_variant``. ``early``: the run already
    ``starting.started`` (the command line's), else it starts here. ``suite``: ``--suite NAME`` (an imported
    okpy suite instead of the kit's cases) or ``kit+NAME`` (both). ``diagnoses``: failing cases diagnosed."""
    path = _submission(submission)
    with contextlib.nullcontext(early) if early is not None else starting.started(path) as early:
        # The sandbox's interpreter is starting, while the spec, the reference and the cases are read.
        spec = load_variant(_chosen_variant(path, variant, force_variant))
        reference.load(spec.id)  # a spec the reference cannot be built from is the spec's error, not the kit's
        level, seed = isolation_level(isolation), _check_seed(seed)
        target = _output_target(output) if output else None
        imported, kit = okpy_suite.chosen(suite)
        result, fault = okpy_grade.grade_safely(path, spec, suite=imported, kit=kit, minimum=level, seed=seed,
                                                early=early, keep_compiled=True, diagnoses=diagnoses)
    text = FORMATS[fmt](result)
    if target is not None:
        try:
            write_atomically(target, text)
        except OSError as error:
            raise UsageError(f"cannot write {output}: {error.strerror} "
                             f"(choose an --output in a folder you can write to)") from None
    else:
        out.write(text)
    return GRADER_FAULT if fault else 0


def declared_variant(hog: Path) -> str | None:
    """The variant a student's hog.py was handed out for, from its docstring's title line
    (``The Game of Hog (CS 61A Spring 2019 rules)``, within the first lines), or None."""
    try:   # a FIFO or device named hog.py is refused, not waited on; one long line is not read whole
        with os.fdopen(os.open(hog, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise UsageError(f"cannot read {hog}: not a regular file (give the hog.py itself)")
            head = handle.read(1 << 16).decode("utf-8", "replace").splitlines()[:DECLARATION_LINES]
    except OSError as error:
        raise UsageError(f"cannot read {hog}: {error.strerror}") from None
    return declared_in(head)


def declared_in(head: list[str]) -> str | None:
    """The variant the first lines of a hog.py declare (see ``declared_variant``), or None."""
    head = head[:DECLARATION_LINES]
    for variant_id, title in titles().items():
        if any(f"({title})" in line for line in head):
            return variant_id
    return None


def detect_variant(hog: Path) -> str:
    """The variant a student's hog.py declares; a usage error naming the known ids when it declares none."""
    declared = declared_variant(hog)
    if declared is None:
        raise UsageError(f"cannot tell the variant from {hog} (add --variant, one of: "
                         f"{', '.join(variant_ids())})")
    return declared


def _chosen_variant(submission: Path, variant: str | None, force: bool) -> str:
    hog = submission / "hog.py" if submission.is_dir() else submission
    if variant is None:
        return detect_variant(hog)
    load_variant(variant)  # an unknown id is named first, with the known ones
    declared = declared_variant(hog)
    if declared is not None and declared != variant and not force:
        raise UsageError(f"{hog} declares the {declared} rules, not {variant}: graded under the wrong rules, "
                         f"correct code fails (drop --variant to grade it as {declared}, or add "
                         f"--force-variant to grade it as {variant} anyway)")
    return variant


def _questions_named(spec, key: str) -> list:
    """The question ``-q`` names (``3``, ``05``, ``5a``), or every part of a problem (``5``: 5a and 5b)."""
    try:
        return list(spec.questions_named(key))
    except KeyError:
        raise UsageError(f"no question {key} in {spec.id} (questions: "
                         f"{', '.join(q.label for q in spec.questions)})") from None


def test(*, path: str, variant: str | None, question: str | None, out: TextIO, unlock: bool = False) -> int:
    """``hog test``: the public cases against a student's hog.py; exit 1 if any fails.
    Locked cases are left out until unlocked; with ``unlock`` (``-u``) the unlock session runs first."""
    submission = _submission(path)
    hog = submission / "hog.py" if submission.is_dir() else submission
    spec = load_variant(variant or detect_variant(hog))
    questions = _questions_named(spec, question) if question else None
    folder = submission if submission.is_dir() else submission.parent
    for part in questions or [None]:
        if unlock and unlocking.session(folder, spec, part):
            return 1
    locked = unlocking.still_locked(folder, spec)
    result, fault = grade_safely(submission, spec, questions=questions, hidden=False, leave_out=frozenset(locked))
    shown = "hog test -q {number}" + ("" if variant is None else f" --variant {spec.id}") + \
            ("" if path == "." else f" {path}")
    out.write(FORMATS["text"](result, rerun=shown, student=True))
    for number in sorted({case.question for case in spec.cases if case.id in locked}):
        if questions is None or number in {q.number for q in questions}:
            out.write(f"Question {number}: locked cases skipped (unlock them: hog test -q {number} -u)\n")
    if fault:
        return GRADER_FAULT
    return 0 if all(q.passed for q in result.questions) and not result.import_error else 1
