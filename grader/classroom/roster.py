"""A class roster and the manifest that gives each student a variant: ``hog assign --roster``.

A roster is a CSV file with a header row naming at least a student id column
(``student_id``, ``sid`` or ``id``) and an email column, and a ``section`` column
for ``--by section``. ``hog assign --roster`` mints one variant per section or
per student (``grader.mint``: deterministic from the seed, each balanced, all
distinct in their rules, all in the layout and questions of ``--like``) and
writes ``DIR/manifest.csv`` (``student_id``, ``email``, ``section``,
``variant``; kept as ``rosters/r<seed>_<by>.csv`` in the project too),
``DIR/<variant>/student/`` for each variant, and one Gradescope
bundle ``DIR/autograder/autograder.zip`` holding every variant and the manifest
(``run_autograder`` picks each student's variant from Gradescope's
``submission_metadata.json``).

A submission in a batch folder belongs to a student when its name (a file's
stem, a folder's name) is the student's id or email (emails compared without
case).
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from grader import project
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.spec import Variant, load_variant

if TYPE_CHECKING:   # for the annotations: assigning loads the handout's modules when it runs
    from grader.publishing import assign

MANIFEST_COLUMNS = ("student_id", "email", "section", "variant")
MAX_ROWS = 100_000
ID_COLUMNS = ("student_id", "sid", "id", "student")
EMAIL_COLUMNS = ("email", "e-mail", "email_address")
SECTION_COLUMNS = ("section",)
BY = ("section", "student")
SEED_TRIES = 20                  # draws for a variant whose rules another of the roster already has


@dataclass(frozen=True)
class Student:
    student_id: str
    email: str
    section: str
    variant: str


@dataclass(frozen=True)
class Manifest:
    students: tuple[Student, ...]

    @functools.cached_property
    def _places(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each student id, and each email without case, to the first place in the roster that has it."""
        by_id: dict[str, int] = {}
        by_email: dict[str, int] = {}
        for place, student in enumerate(self.students):
            by_id.setdefault(student.student_id, place)
            if student.email:
                by_email.setdefault(student.email.lower(), place)
        return by_id, by_email

    def student_for(self, name: str) -> Student | None:
        """The student a submission named ``name`` belongs to (by id, or by email without case): the
        first in the roster that matches either way."""
        by_id, by_email = self._places
        places = [place for place in (by_id.get(name), by_email.get(name.lower())) if place is not None]
        return self.students[min(places)] if places else None

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
        cells = {column: _cell(row, index) for column, index in where.items()}
        if not cells["student_id"] or not cells["variant"]:
            raise UsageError(f"{path}:{number}: a row without a student_id or a variant (fill it in, or "
                             f"delete the row)")
        students.append(Student(**cells))
    return Manifest(tuple(students))


def _cell(row: list[str], index: int | None) -> str:
    """The cell of a CSV row at ``index``, stripped; empty where the row is short or there is no such column."""
    return row[index].strip() if index is not None and index < len(row) else ""


# ------------------------------------------------------------------ the roster


def _column(header: list[str], names: tuple[str, ...], path: Path, what: str, needed: bool = True) -> int | None:
    normal = [cell.replace(" ", "_") for cell in header]
    for name in names:
        if name in normal:
            return normal.index(name)
    if needed:
        raise UsageError(f"{path}:1: the roster has no {what} column (name one {', '.join(names)}; "
                         f"its header is: {', '.join(header) or 'empty'})")
    return None


def read_roster(path: Path, by: str) -> tuple[Student, ...]:
    """The students of a roster (``variant`` still empty); a usage error naming the row of any fault:
    a missing column, an empty or repeated student id, an empty section for ``--by section``."""
    header, body = _rows(path, "roster")
    sid = _column(header, ID_COLUMNS, path, "student id")
    email = _column(header, EMAIL_COLUMNS, path, "email")
    section = _column(header, SECTION_COLUMNS, path, "section", needed=by == "section")
    students, first = [], {}
    for number, row in body:
        student = Student(_cell(row, sid), _cell(row, email), _cell(row, section), "")
        if not student.student_id:
            raise UsageError(f"{path}:{number}: the student id is empty (fill it in, or delete the row)")
        if student.student_id in first:
            raise UsageError(f"{path}:{number}: student id {student.student_id!r} again (first on row "
                             f"{first[student.student_id]}): each student once")
        if by == "section" and not student.section:
            raise UsageError(f"{path}:{number}: {student.student_id} has no section (--by section gives each "
                             f"section its rules: fill it in)")
        first[student.student_id] = number
        students.append(student)
    if not students:
        raise UsageError(f"{path} lists no student (one row per student under the header)")
    return tuple(students)


def groups(students: tuple[Student, ...], by: str) -> list[str]:
    """What gets a variant each, in a fixed order: the sections (sorted), or the students (roster order)."""
    if by == "section":
        return sorted({student.section for student in students})
    return [student.student_id for student in students]


def _rules(variant: Variant) -> tuple[str, str, str]:
    compose = variant.compose
    return (compose.zero_dice, compose.swap, compose.bonus) if compose else (variant.id, "", "")


def _mint_distinct(variant_id: str, seed: int, like: str, taken: set[tuple[str, str, str]], log: TextIO) -> Variant:
    """Mint ``variant_id`` from seeds derived from ``seed`` until its rules differ from every one taken;
    a spec already minted under that id (an earlier run) is kept."""
    from grader import mint   # the exact engine and NumPy: loaded by what mints, not by what grades
    path = project.spec_path(variant_id)
    for attempt in range(SEED_TRIES):
        if not path.exists():
            mint.mint(variant_id, seed=seed * 1000 + attempt, like=like, out=log)
        variant = load_variant(variant_id)
        if _rules(variant) not in taken:
            return variant
        path.unlink()
        project.table_path(variant_id, minted=True).unlink(missing_ok=True)
    raise UsageError(f"no distinct rules for {variant_id} in {SEED_TRIES} draws: the catalogue offers "
                     f"fewer rule sets than the roster needs (use --by section, or add rules to the catalogue)")


def manifest_text(students: list[Student]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows([(s.student_id, s.email, s.section, s.variant) for s in students])
    return buffer.getvalue()


def assign_roster(roster: Path, *, by: str, seed: int, out: Path, like: str = "sp19", log: TextIO,
                  submitting: assign.Submitting | None = None) -> tuple[list[Student], list[Variant]]:
    """Mint a variant per group, then write DIR/manifest.csv, DIR/<variant>/student/ (with submit.py when
    ``submitting``) and the bundle."""
    from grader.publishing import assign   # the handout's templates: loaded by what assigns, not by what grades
    if by not in BY:
        raise UsageError(f"--by {by}: give section or student")
    students = read_roster(roster, by)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not empty (choose a new folder for --out)")
    variants: dict[str, Variant] = {}
    taken: set[tuple[str, str, str]] = set()
    for number, group in enumerate(groups(students, by), start=1):
        variant_id = f"r{seed}_{'s' if by == 'section' else 'u'}{number:03d}"
        log.write(f"{by} {group}: minting {variant_id}\n")
        variant = _mint_distinct(variant_id, seed * 10_000 + number, like, taken, log)
        taken.add(_rules(variant))
        variants[group] = variant
    placed = [Student(s.student_id, s.email, s.section,
                      variants[s.section if by == "section" else s.student_id].id) for s in students]
    manifest = manifest_text(placed)
    files: dict[str, bytes] = {"manifest.csv": manifest.encode()}
    for variant in variants.values():
        files.update({f"{variant.id}/student/{name}": text.encode()
                      for name, text in assign.student_files(variant, submitting).items()})
    files["autograder/autograder.zip"] = assign.autograder_zip(None, manifest=manifest, variants=list(variants.values()))
    assign.write_folder(out, files)
    kept = project.ROSTERS / f"r{seed}_{by}.csv"
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(kept, manifest)
    except OSError as error:
        raise UsageError(f"wrote {out}, but cannot keep its manifest as {kept}: {error.strerror} (copy "
                         f"{out / 'manifest.csv'} there yourself)") from None
    return placed, list(variants.values())
