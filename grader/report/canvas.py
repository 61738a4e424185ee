"""``hog report OUTDIR --canvas EXPORT``: a batch's scores as one Canvas assignment column.

Read from Canvas's own gradebook export (Grades, Export): its header names
``Student``, ``ID`` (the Canvas user id), ``SIS User ID``, ``SIS Login ID`` and
``Section``, then one column per assignment; rows without a Canvas ``ID`` under
the header (``Points Possible``, the posting policy) are not students. Written:
``OUTDIR/canvas.csv``, which Canvas imports (Grades, Import) as a new column:
those five columns of every student of the export in its order, a column named
after the assignment, a ``Points Possible`` row with the batch's maximum score,
each student's score (empty without a graded submission). A submission belongs
to the student whose SIS User ID or SIS Login ID is its name (without case or
surrounding spaces; an email's local part matches a login without one, and the
reverse), or one of the ``aliases`` the caller knows for it (a manifest's
student id and email). Every submission that matches no student, or a student
already matched, or whose result cannot be read, is listed in
``OUTDIR/canvas-unmatched.csv``; a result whose grader failed is no score: its
cell stays empty and it is listed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.report.classroom import GRADED_FROM, GRADER_FAILED, Graded, load
from grader.report.spreadsheet import spreadsheet_cell

NAME = "canvas.csv"
UNMATCHED_NAME = "canvas-unmatched.csv"
IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"
UNMATCHED_COLUMNS = ("submission", "score", "max_score", "reason")
RERUN = "grader failed: rerun grade-batch"
EXPORT_FIX = "export it from Canvas: Grades, Export, Export Entire Gradebook"


@dataclass(frozen=True)
class Student:
    """A student row of the Canvas export: its five identity cells and the line it is on."""
    line: int
    cells: tuple[str, ...]

    @property
    def label(self) -> str:
        name, _, sis_id, login, _ = self.cells
        return f"{name or '(no name)'} ({', '.join(c for c in (sis_id, login) if c) or 'no SIS id or login'})"

    def keys(self) -> list[str]:
        _, _, sis_id, login, _ = self.cells
        return _keys([sis_id, login])


@dataclass(frozen=True)
class Unmatched:
    submission: str
    score: float | None
    max_score: float | None
    reason: str


@dataclass(frozen=True)
class Column:
    """What ``write`` wrote: the files, the points possible, and every student or submission left out."""
    path: Path
    unmatched_path: Path
    assignment: str
    points: float
    students: int
    scored: int
    without_submission: tuple[Student, ...]
    failed: tuple[tuple[Student, str], ...]          # a student whose submission's grader failed, and its name
    unmatched: tuple[Unmatched, ...]
    maxima: tuple[float, ...]                        # every max_score of the results, when they differ


def _keys(values: Iterable[str]) -> list[str]:
    """What a name is matched by: itself without case or spaces around it, then an email's local part."""
    keys = []
    for value in values:
        value = value.strip().lower()
        for key in (value, value.split("@", 1)[0] if "@" in value else ""):
            if key and key not in keys:
                keys.append(key)
    return keys


def read_export(path: Path) -> tuple[Student, ...]:
    """The students of a Canvas gradebook export, in its order; a usage error naming the file and line
    of any fault."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            rows = []
            for row in reader:
                rows.append((reader.line_num, row))
    except OSError as error:
        raise UsageError(f"cannot read the Canvas export {path}: {error.strerror} ({EXPORT_FIX})") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise UsageError(f"{path}: not a CSV file in UTF-8 ({error}); {EXPORT_FIX}") from None
    rows = [(line, row) for line, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise UsageError(f"{path} is empty: a Canvas export starts with a header row naming "
                         f"{', '.join(IDENTITY)} ({EXPORT_FIX})")
    (header_line, header), body = rows[0], rows[1:]
    names = [cell.strip().lower() for cell in header]
    missing = [column for column in IDENTITY if column.lower() not in names]
    if missing:
        raise UsageError(f"{path}:{header_line}: the Canvas export has no {', '.join(missing)} column (its header "
                         f"must name {', '.join(IDENTITY)}; it is: {', '.join(c.strip() for c in header) or 'empty'}); "
                         f"{EXPORT_FIX}")
    where = [names.index(column.lower()) for column in IDENTITY]
    students = []
    for line, row in body:
        cells = tuple(row[index].strip() if index < len(row) else "" for index in where)
        if cells[1]:            # no Canvas ID: the Points Possible row, a posting policy's row
            students.append(Student(line, cells))
    if not students:
        raise UsageError(f"{path} lists no student (a row with a Canvas ID under the header); {EXPORT_FIX}")
    return tuple(students)


def _failed(graded: Graded) -> bool:
    return graded.result.get("grader_failed") is True or \
        any(test.get("name") == GRADER_FAILED for test in graded.result["tests"])


def _index(students: tuple[Student, ...]) -> dict[str, int]:
    """Each key to the one student it names; a key two students share names neither."""
    places: dict[str, int] = {}
    shared: set[str] = set()
    for place, student in enumerate(students):
        for key in student.keys():
            if places.setdefault(key, place) != place:
                shared.add(key)
    return {key: place for key, place in places.items() if key not in shared}


def match(students: tuple[Student, ...], graded: list[Graded],
          aliases: Callable[[str], Iterable[str]]) -> tuple[dict[int, Graded], list[Unmatched]]:
    """Each student's place in the export to their submission's result, and every submission left out."""
    index = _index(students)
    given: dict[int, Graded] = {}
    unmatched = []
    for g in graded:
        score = None if _failed(g) else float(g.result["score"])
        top = float(g.result.get("max_score") or 0)
        place = next((index[key] for key in _keys([g.name, *aliases(g.name)]) if key in index), None)
        if place is None:
            why = "no student of the Canvas export has this SIS User ID or SIS Login ID"
            unmatched.append(Unmatched(g.name, score, top, why + ("; " + RERUN if score is None else "")))
        elif place in given:
            unmatched.append(Unmatched(g.name, score, top, f"{students[place].label} already has the score of "
                                                            f"{given[place].name}"))
        else:
            given[place] = g
    return given, unmatched


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.4f}".rstrip("0")


def default_assignment(graded: list[Graded]) -> str:
    """``Hog (VARIANT)`` for a batch graded under one variant, else ``Hog``."""
    ids = {str(g.result[GRADED_FROM].get("variant")) for g in graded if isinstance(g.result.get(GRADED_FROM), dict)}
    return f"Hog ({ids.pop()})" if len(ids) == 1 else "Hog"


def _csv(rows: list[tuple]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def write(out: Path, export: Path, *, assignment: str | None = None,
          aliases: Callable[[str], Iterable[str]] = lambda name: ()) -> Column:
    """``OUTDIR/canvas.csv`` and ``OUTDIR/canvas-unmatched.csv`` from the results in OUTDIR."""
    students = read_export(export)
    graded, unreadable = load(out)
    if not graded:
        raise UsageError(f"{out} holds no result of grade-batch (give the OUTDIR of hog grade-batch)")
    assignment = (assignment or default_assignment(graded)).strip()
    if not assignment:
        raise UsageError("--assignment is empty: give the name of the Canvas column")
    maxima = sorted({float(g.result.get("max_score") or 0) for g in graded})
    points = maxima[-1]
    given, unmatched = match(students, graded, aliases)
    unmatched += [Unmatched(Path(skipped["file"]).stem, None, None, f"{skipped['file']}: {skipped['reason']}")
                  for skipped in unreadable]
    rows: list[tuple] = [(*IDENTITY, assignment), (POINTS_POSSIBLE, "", "", "", "", _number(points))]
    failed, scored = [], 0
    for place, student in enumerate(students):
        g = given.get(place)
        if g is not None and _failed(g):
            failed.append((student, g.name))
            unmatched.append(Unmatched(g.name, None, float(g.result.get("max_score") or 0), RERUN))
        scored += g is not None and not _failed(g)
        cell = _number(float(g.result["score"])) if g is not None and not _failed(g) else ""
        rows.append((*student.cells, cell))
    write_atomically(out / NAME, _csv(rows))
    write_atomically(out / UNMATCHED_NAME, _csv([UNMATCHED_COLUMNS] + [
        (spreadsheet_cell(u.submission), "" if u.score is None else _number(u.score),
         "" if u.max_score is None else _number(u.max_score), spreadsheet_cell(u.reason)) for u in unmatched]))
    return Column(out / NAME, out / UNMATCHED_NAME, assignment, points, len(students), scored,
                  tuple(s for place, s in enumerate(students) if place not in given), tuple(failed),
                  tuple(unmatched), tuple(maxima) if len(maxima) > 1 else ())
