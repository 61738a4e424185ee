"""A class roster and the manifest that gives each student a variant.

``manifest.csv`` has a header row and one row per student: ``student_id``,
``email``, ``section``, ``variant``. A submission in a batch folder belongs to a
student when its name (a file's stem, a folder's name) is the student's id or
email (emails compared without case).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError

MANIFEST_COLUMNS = ("student_id", "email", "section", "variant")
MAX_ROWS = 100_000


@dataclass(frozen=True)
class Student:
    student_id: str
    email: str
    section: str
    variant: str


@dataclass(frozen=True)
class Manifest:
    students: tuple[Student, ...]

    def student_for(self, name: str) -> Student | None:
        """The student a submission named ``name`` belongs to (by id, or by email without case)."""
        for student in self.students:
            if name == student.student_id or (student.email and name.lower() == student.email.lower()):
                return student
        return None

    def variant_for(self, name: str) -> str | None:
        student = self.student_for(name)
        return student.variant if student else None


def _rows(path: Path, what: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the numbered rows of a CSV file; a usage error naming the file when it cannot be read."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            rows = [(number, row) for number, row in enumerate(csv.reader(handle), start=1)
                    if any(cell.strip() for cell in row)]
    except OSError as error:
        raise UsageError(f"cannot read the {what} {path}: {error.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise UsageError(f"{path} is not a CSV file in UTF-8 ({error}); save the {what} as CSV") from None
    if not rows:
        raise UsageError(f"{path} is empty: the {what} needs a header row")
    if len(rows) > MAX_ROWS:
        raise UsageError(f"{path} has {len(rows):,} rows; at most {MAX_ROWS:,} are read")
    (_, header), body = rows[0], rows[1:]
    return [cell.strip().lower() for cell in header], body


def read_manifest(path: Path) -> Manifest:
    """The manifest ``hog assign --roster`` wrote; a usage error naming the row of any fault."""
    header, body = _rows(path, "manifest")
    missing = [column for column in MANIFEST_COLUMNS if column not in header]
    if missing:
        raise UsageError(f"{path}:1: the manifest has no {', '.join(missing)} column (its header must name "
                         f"{', '.join(MANIFEST_COLUMNS)}, as hog assign --roster writes it)")
    where = {column: header.index(column) for column in MANIFEST_COLUMNS}
    students = []
    for number, row in body:
        cells = {column: (row[index].strip() if index < len(row) else "") for column, index in where.items()}
        if not cells["student_id"] or not cells["variant"]:
            raise UsageError(f"{path}:{number}: a row without a student_id or a variant (fill it in, or "
                             f"delete the row)")
        students.append(Student(**cells))
    return Manifest(tuple(students))
