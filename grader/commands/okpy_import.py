"""``hog import-ok FOLDER``: an okpy assignment's tests kept in the course folder as a suite to grade with.

Every check runs before anything is written (``grader.spec.okpy_folder``); the suite (one JSON file and the
files it carries from the folder) is written whole or not at all. The command prints what it imported
(tests, suites, cases, points) and, one line each, what it did not and why, each file carried and each
file left out with why.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TextIO

from grader import project
from grader.commands.grading import isolation_level
from grader.errors import UsageError
from grader.grading import okpy_unlock
from grader.spec import okpy_folder, okpy_suite


def _solution(path: str | None) -> Path | None:
    if path is None:
        return None
    solution = Path(path)
    if solution.is_dir():
        solution = solution / "hog.py"
    if not solution.is_file() or solution.suffix != ".py":
        raise UsageError(f"--solution {path}: no reference hog.py there (give the reference hog.py, or its folder); "
                         f"nothing was written")
    return solution.resolve()


def import_ok(*, folder: str, name: str | None, solution: str | None, isolation: str | None = None,
              out: TextIO) -> int:
    """Read the okpy assignment in ``folder``, recover its locked answers from ``solution`` (run in the
    sandbox), and write the suite into this course folder under ``name`` (default: the config's name as a
    slug). Exit 0; a usage error, with nothing written, for anything okpy itself would refuse."""
    assignment = okpy_folder.read(Path(folder))
    chosen = name or okpy_folder.slug(assignment.name)
    project.suite_path(chosen)   # a bad name, or no course folder: refused before anything runs
    reference = _solution(solution)
    recovered = {}
    if reference is not None and okpy_folder.locked_cases(assignment):
        recovered = okpy_unlock.recover(assignment, reference, minimum=isolation_level(isolation))
    provenance = {"folder": str(assignment.folder), "config": assignment.config, "files": assignment.files,
                  "imported": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "kit_version": project.version()}
    if reference is not None:
        provenance["solution"] = str(reference)
    suite = okpy_folder.suite(assignment, chosen, recovered, provenance)
    path = okpy_suite.write(suite)
    tests, suites, cases = suite.counts()
    out.write(f"Imported {assignment.name!r} from {folder} as suite {chosen!r} ({project.display(path)}): "
              f"{tests} tests, {suites} doctest suites, {cases} cases, {suite.points:g} points"
              + (f"; {len(recovered)} locked cases unlocked from {solution}" if recovered else "") + "\n")
    for test in suite.tests:
        scored = test.scored
        out.write(f"  {test.name}: {test.points:g} points over {len(scored)} scored suite(s), "
                  f"{sum(len(one.cases) for one in scored)} cases ({test.file})\n")
    for line in suite.skipped:
        out.write(f"Not imported: {line}\n")
    _files(assignment, out)
    out.write(f"Grade with it: hog grade SUBMISSION --suite {chosen} (or --suite kit+{chosen} for the kit's "
              f"cases too)\n")
    return 0


def _files(assignment: okpy_folder.Assignment, out: TextIO) -> None:
    """One line per file carried with the suite and per file or folder left out, each with why."""
    beside_tests = {str(Path(test.file).parent) for test in assignment.tests}
    kit = set(project.support_files(assignment.folder / "hog.py"))
    for name in assignment.carried:
        where = ("beside the test files, as okpy's tests package holds it" if str(Path(name).parent) in beside_tests
                 else "the course's, beside hog.py; it replaces the kit's" if name in kit else
                 "the course's, beside hog.py")
        out.write(f"Carried: {name} ({where})\n")
    for line in assignment.left_out:
        name, why = line.split(": ", 1)
        out.write(f"Left out: {name} ({why})\n")
