"""Grade every submission in a folder, in parallel, resumably.

Each result is written atomically to ``OUTDIR/<name>.json`` as soon as it is
known, so a crash or Ctrl-C loses nothing already graded; a rerun skips the
submissions that have a result. ``gradebook.csv`` is rewritten from all
results at the end. A broken submission gets its result like any other.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import tempfile
import threading
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from grader.report import gradescope
from grader.spec import Variant


@dataclass
class BatchSummary:
    graded: int
    skipped: int
    failed: int          # grader faults (each written as a "grader failed" result)
    interrupted: bool


def submissions(folder: Path) -> list[Path]:
    """Each entry of the folder that is a submission: a folder, or a .py file."""
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() or entry.suffix == ".py":
            found.append(entry)
    return found


def result_name(submission: Path) -> str:
    return (submission.stem if submission.is_file() else submission.name) + ".json"


def write_atomically(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _finished(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "score" in data and "grader failed" not in [
        test.get("name") for test in data.get("tests", [])]


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


def write_gradebook(variant: Variant, out: Path) -> Path:
    """gradebook.csv from every result JSON in OUTDIR: one row per submission."""
    numbers = [question.label for question in variant.questions]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["submission", "score", "max_score", "status"] + [f"q{n}" for n in numbers])
    for path in sorted(out.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        by_number = {test.get("number"): test.get("score") for test in data.get("tests", [])}
        failed = any(test.get("name") == "grader failed" for test in data.get("tests", []))
        writer.writerow([path.stem, data.get("score"), data.get("max_score"),
                         "grader failed" if failed else "graded"] + [by_number.get(n, "") for n in numbers])
    target = out / "gradebook.csv"
    write_atomically(target, buffer.getvalue())
    return target


def grade_one(variant_id: str, submission: Path) -> tuple[dict, bool]:
    """One submission's results.json, and whether the kit itself failed on it.

    Runs in a worker process; the hidden cases were computed before the workers
    were forked, so each worker starts with them.
    """
    from grader.commands import grade_safely
    from grader.grade import GradeResult, QuestionResult
    from grader.spec import load_variant
    variant = load_variant(variant_id)
    if submission.is_dir() and not (submission / "hog.py").is_file():
        result = GradeResult(variant, str(submission), [QuestionResult(q, 0.0) for q in variant.questions],
                             "none", 0.0, import_error="the submission holds no hog.py")
        return gradescope.results(result), False
    result, fault = grade_safely(submission, variant)
    return gradescope.results(result), fault


def grade_batch(folder: Path, variant: Variant, out: Path, *, jobs: int,
                grade: Callable[[str, Path], tuple[dict, bool]] = grade_one,
                progress: TextIO = sys.stderr) -> BatchSummary:
    """Grade each submission in worker processes; ``grade`` gives (results.json dict, grader fault?)."""
    out.mkdir(parents=True, exist_ok=True)
    todo, skipped = [], 0
    for submission in submissions(folder):
        if _finished(out / result_name(submission)):
            skipped += 1
        else:
            todo.append(submission)
    bar = Progress(len(todo), progress)
    graded = failed = 0
    interrupted = False
    from grader.cases import grading_cases
    grading_cases(variant)  # computed once here; forked workers inherit it
    pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=multiprocessing.get_context("fork"))
    try:
        futures = {pool.submit(grade, variant.id, submission): submission for submission in todo}
        for future in as_completed(futures):
            submission = futures[future]
            data, fault = future.result()
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
        write_gradebook(variant, out)
    return BatchSummary(graded, skipped, failed, interrupted)

