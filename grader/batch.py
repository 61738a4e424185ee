"""Grade every submission in a folder, in parallel, resumably.

Each result is written atomically to ``OUTDIR/<name>.json`` as soon as it is
known, so a crash or Ctrl-C loses nothing already graded. Each result records
what it was graded from (``graded_from``: the variant, a hash of the
submission's files, the hidden cases' key and the kit's version); a rerun skips
only the results that still match, and regrades the rest. ``gradebook.csv`` is
rewritten at the end from the results of the submissions in the folder. A
broken submission gets its result like any other; a fault of the kit gets a
visible "grader failed" result scoring 0, as in ``hog grade``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import multiprocessing
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable, TextIO

from grader.errors import UsageError
from grader.files import write_atomically
from grader.grade import GradeResult, QuestionResult, grade_safely
from grader.report import gradescope, instructor
from grader.spec import Variant

GRADED_FROM = "graded_from"      # the key of the provenance in each result, beside Gradescope's fields
GRADER_FAILED = "grader failed"  # the test name of hog grade's result for a fault of the kit
INSTRUCTOR = "instructor"        # grade_one's key for instructor-only facts: written to a side file


@dataclass
class BatchSummary:
    graded: int
    skipped: int
    failed: int          # grader faults (each written as a "grader failed" result)
    interrupted: bool


def submissions(folder: Path, *, out: Path | None = None) -> list[Path]:
    """Each entry of the folder that is a submission: a folder, or a .py file (never OUTDIR itself)."""
    found = []
    skip = out.resolve() if out is not None else None
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.resolve() == skip:
            continue
        if entry.is_dir() or entry.suffix == ".py":
            found.append(entry)
    return found


def result_name(submission: Path) -> str:
    return (submission.stem if submission.is_file() else submission.name) + ".json"


def clashes(found: list[Path]) -> list[list[Path]]:
    """Groups of submissions that would share one result file (``alice/`` and ``alice.py``)."""
    by_name: dict[str, list[Path]] = {}
    for submission in found:
        by_name.setdefault(result_name(submission), []).append(submission)
    return [group for group in by_name.values() if len(group) > 1]


# ------------------------------------------------------------------ what a result was graded from


def submission_digest(submission: Path) -> str:
    """SHA-256 over the files the grader reads: a .py file, or a folder's top-level *.py files."""
    digest = hashlib.sha256()
    files = sorted(submission.glob("*.py")) if submission.is_dir() else [submission]
    for path in files:
        try:
            content = b"link:" + os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
        except OSError as error:
            content = f"unreadable: {error.strerror}".encode()
        digest.update(path.name.encode("utf-8") + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()


def _kit_version() -> str:
    try:
        return metadata.version("hog-kit")
    except metadata.PackageNotFoundError:  # the kit run from a folder (the autograder bundle)
        return "unknown"


def _cases_key(variant: Variant) -> str | None:
    """What the hidden cases come from (see grader.cases); None if even that cannot be computed."""
    from grader.cases import _cache_key
    try:
        return _cache_key(variant)
    except Exception:
        return None


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "score" in data else None


def _grader_failed(data: dict) -> bool:
    return any(isinstance(test, dict) and test.get("name") == GRADER_FAILED for test in data.get("tests", []))


def _finished(data: dict | None, graded_from: dict) -> bool:
    """A result to keep: it parses, the grader did not fail, and it was graded from exactly this."""
    return data is not None and not _grader_failed(data) and graded_from["cases"] is not None \
        and data.get(GRADED_FROM) == graded_from


# ------------------------------------------------------------------ progress and gradebook


class Progress:
    """A one-line progress bar on a terminal; silent otherwise."""

    def __init__(self, total: int, stream: TextIO):
        self.total, self.done, self.stream = total, 0, stream
        self.live = stream.isatty()
        self.lock = threading.Lock()

    def step(self, name: str) -> None:
        with self.lock:
            self.done += 1
            if self.live:
                width = 30
                filled = width * self.done // max(self.total, 1)
                self.stream.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total} "
                                  f"{name[:30]:<30}")
                self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")


def write_gradebook(variant: Variant, out: Path, graded: dict[str, dict]) -> Path:
    """gradebook.csv: one row per submission whose result is current (result name → graded_from)."""
    numbers = [question.label for question in variant.questions]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["submission", "score", "max_score", "status"] + [f"q{n}" for n in numbers])
    for name in sorted(graded):
        data = _read(out / name)
        if data is None or data.get(GRADED_FROM) != graded[name]:
            continue
        by_number = {test.get("number"): test.get("score") for test in data.get("tests", [])}
        writer.writerow([Path(name).stem, data.get("score"), data.get("max_score"),
                         GRADER_FAILED if _grader_failed(data) else "graded"]
                        + [by_number.get(n, "") for n in numbers])
    target = out / "gradebook.csv"
    write_atomically(target, buffer.getvalue())
    return target


# ------------------------------------------------------------------ grading


def grade_one(variant_id: str, submission: Path) -> tuple[dict, bool]:
    """One submission's results.json, and whether the kit itself failed on it.

    Runs in a worker process; the hidden cases were computed before the workers
    were forked, so each worker starts with them.
    """
    from grader.spec import load_variant
    variant = load_variant(variant_id)
    if submission.is_dir() and not (submission / "hog.py").is_file():
        result = GradeResult(variant, str(submission), [QuestionResult(q, 0.0) for q in variant.questions],
                             "none", 0.0, import_error="the submission holds no hog.py")
        return {**gradescope.results(result), INSTRUCTOR: instructor.record(result)}, False
    result, fault = grade_safely(submission, variant)
    return {**gradescope.results(result), INSTRUCTOR: instructor.record(result)}, fault


def _worker_failed(variant: Variant, submission: Path, error: BaseException) -> dict:
    """hog grade's "grader failed" result, for a worker that died before it could report."""
    return gradescope.results(GradeResult(variant, str(submission), [], "unknown", 0.0,
                                          grader_error=f"{type(error).__name__}: {error}"))


def grade_batch(folder: Path, variant: Variant, out: Path, *, jobs: int,
                grade: Callable[[str, Path], tuple[dict, bool]] = grade_one,
                progress: TextIO = sys.stderr) -> BatchSummary:
    """Grade each submission in worker processes; ``grade`` gives (results.json dict, grader fault?).

    Raises UsageError, before grading anything, when two submissions would share a result file.
    """
    from grader.cases import grading_cases
    found = submissions(folder, out=out)
    clashing = clashes(found)
    if clashing:
        listed = ", ".join(" and ".join(p.name + ("/" if p.is_dir() else "") for p in group)
                           + f" would both write {result_name(group[0])}" for group in clashing)
        raise UsageError(f"in {folder}, {listed}: rename one of each (a result is named after "
                         f"the submission's folder, or its .py file without .py); nothing was graded")
    out.mkdir(parents=True, exist_ok=True)
    cases, kit = _cases_key(variant), _kit_version()
    sources = {submission: {"variant": variant.id, "submission_sha256": submission_digest(submission),
                            "cases": cases, "kit": kit} for submission in found}
    todo = [s for s in found if not _finished(_read(out / result_name(s)), sources[s])]
    skipped = len(found) - len(todo)
    bar = Progress(len(todo), progress)
    graded = failed = 0
    interrupted = False
    pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=multiprocessing.get_context("fork"))
    try:
        try:
            grading_cases(variant)  # computed once here; workers, forked on the first submit, inherit it
        except Exception:
            pass  # a fault of the kit: each submission meets it again in grade_safely, which reports it
        futures = {pool.submit(grade, variant.id, submission): submission for submission in todo}
        for future in as_completed(futures):
            submission = futures[future]
            try:
                data, fault = future.result()
            except Exception as error:  # the worker itself broke: a fault of the kit, never a lost result
                data, fault = _worker_failed(variant, submission, error), True
            data[GRADED_FROM] = sources[submission]
            private = data.pop(INSTRUCTOR, None)
            if private is not None:   # beside the result, never in it: hidden cases by id, the table
                (out / instructor.FOLDER).mkdir(exist_ok=True)
                write_atomically(out / instructor.FOLDER / result_name(submission),
                                 json.dumps({**private, GRADED_FROM: sources[submission]}) + "\n")
            write_atomically(out / result_name(submission), json.dumps(data, indent=2) + "\n")
            graded += 1
            failed += fault
            bar.step(submission.name)
    except KeyboardInterrupt:
        interrupted = True
        pool.shutdown(wait=False, cancel_futures=True)
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
        bar.close()
        write_gradebook(variant, out, {result_name(s): sources[s] for s in found})
    return BatchSummary(graded, skipped, failed, interrupted)
