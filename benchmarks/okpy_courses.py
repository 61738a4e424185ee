"""Any okpy assignment, graded by the kit and by okpy 1.18.1: per okpy test, each one's points and time.

Run: python benchmarks/okpy_courses.py OKPY_FOLDER SUBMISSIONS --variant V [--docs]
       (no arguments: the kit's own fixtures, in the real courses' shapes, each on its variant's corpus and edits)

OKPY_FOLDER is an okpy assignment as a course hands it out (its ``.ok`` config, ``tests/``, the course's
files beside ``hog.py``); SUBMISSIONS is a folder of ``hog.py`` files, or of folders each holding one (with
the student's other files). The folder is imported as ``hog import-ok`` imports it, the course's files with
it, and each submission is graded one okpy test at a time: by the kit (``hog grade --suite`` of that test
alone, in the sandbox) and by okpy (``ok --local --score -q KEY`` in a copy of the folder holding the
submission's files). Each line gives the test, the kit's points and okpy's, and the wall time each took for
that test; the last lines, how many agree and the times in all. Both are timed in this run, on this machine:
okpy runs in the grader's process, the kit in its sandbox, each started once per test.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

from grader import project
from grader.grading import okpy_grade
from grader.spec import load_variant, okpy_folder

import corpus   # beside this script: the kit's corpus of students' submissions, by variant
import okpy_run   # beside this script: how okpy is found or installed, and run

FIXTURES = project.PACKAGE.parent / "tests" / "data" / "okpy"
DEFAULTS = ("fa18", "nju24", "sp19", "fa19")   # the fixtures, each graded on its variant's corpus


def submissions(folder: Path) -> list[Path]:
    """Each submission in ``folder``: a .py file, or a folder holding hog.py."""
    if not folder.is_dir():
        raise SystemExit(f"{folder}: not a folder (give a folder of hog.py files, or of folders each holding one)")
    found = sorted(path for path in folder.iterdir()
                   if (path.is_file() and path.suffix == ".py") or (path / "hog.py").is_file())
    if not found:
        raise SystemExit(f"{folder}: no submission (a .py file, or a folder holding hog.py)")
    return found


def okpy_points(command: list[str], assignment: Path, submission: Path, key: str, scratch: Path) -> tuple[dict, float]:
    """okpy's points for one test of one submission, and the wall time of its run."""
    folder = Path(tempfile.mkdtemp(prefix="okpy-", dir=scratch)) / "assignment"
    okpy_run.assignment_copy(assignment, folder)
    if submission.is_dir():   # the student's own files, where okpy would see them; the course's win
        for path in submission.glob("*.py"):
            if path.name == "hog.py" or not (folder / path.name).exists():
                shutil.copy(path, folder / path.name)
    else:
        shutil.copy(submission, folder / "hog.py")
    started = time.perf_counter()
    output = okpy_run.run(command, folder, scratch, ["-q", key])
    seconds = time.perf_counter() - started
    shutil.rmtree(folder.parent, ignore_errors=True)
    return okpy_run.breakdown(output), seconds


def compare(assignment: Path, folder: Path, variant_id: str, command: list[str], scratch: Path) -> tuple[int, int,
                                                                                                         float, float]:
    """Print each submission's okpy tests, the kit's points against okpy's; (agreed, tests, kit s, okpy s)."""
    suite = okpy_folder.suite(okpy_folder.read(assignment), "bench", {}, {})
    variant = load_variant(variant_id)
    agreed = compared = 0
    kit_total = okpy_total = 0.0
    print(f"\n{shown_path(assignment)} ({len(suite.tests)} okpy tests, {len(suite.files)} course files carried) on "
          f"{shown_path(folder)}, variant {variant_id}")
    print(f"  {'submission':<40} {'okpy test':<14} {'kit':>7} {'okpy':>7} {'kit s':>7} {'okpy s':>7}")
    for submission in submissions(folder):
        for test in suite.tests:
            started = time.perf_counter()
            result = okpy_grade.grade_suite(submission, variant, dataclasses.replace(suite, tests=(test,)))
            kit_seconds = time.perf_counter() - started
            ours = result.questions[0].score
            theirs, okpy_seconds = okpy_points(command, assignment, submission, test.key, scratch)
            same = theirs.get(test.name) == ours
            agreed, compared = agreed + same, compared + 1
            kit_total, okpy_total = kit_total + kit_seconds, okpy_total + okpy_seconds
            shown = "-" if test.name not in theirs else f"{theirs[test.name]:g}"
            print(f"  {submission.name[:40]:<40} {test.name[:14]:<14} {ours:>7g} {shown:>7} {kit_seconds:>7.2f} "
                  f"{okpy_seconds:>7.2f}{'' if same else '  differs'}")
    print(f"  same points on {agreed} of {compared} tests; kit {kit_total:.1f} s, okpy {okpy_total:.1f} s in all")
    return agreed, compared, kit_total, okpy_total


def shown_path(path: Path) -> str:
    """A path as the page shows it: inside the checkout relative to it; a corpus by what it holds."""
    if path.name.startswith("corpus-"):
        return (f"the {path.name[7:]} reference, the kit's submissions of it (tests/submissions/allowed, buggy) "
                f"and its edits (okpy_run.EDITS)")
    try:
        return path.relative_to(project.PACKAGE.parent).as_posix()
    except ValueError:
        return str(path)


def corpus_folder(variant_id: str, scratch: Path) -> Path:
    """A folder of the variant's reference, the kit's allowed and buggy submissions of it, and the reference
    edited where okpy's rules or the course's files matter (``okpy_run.EDITS``)."""
    folder = scratch / f"corpus-{variant_id}"
    folder.mkdir()
    reference, *students = corpus.by_variant()[variant_id]
    shutil.copy(reference, folder / "reference.py")
    edits = okpy_run.edited(variant_id, scratch / f"edited-{variant_id}") if variant_id in okpy_run.EDITS else []
    for path in students + edits:
        shutil.copy(path, folder / path.name)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", type=Path, help="an okpy assignment folder (its .ok, tests/)")
    parser.add_argument("submissions", nargs="?", type=Path, help="a folder of hog.py files or of folders")
    parser.add_argument("--variant", help="the kit's variant the submissions are graded as")
    args = parser.parse_args()
    if (args.assignment is None) != (args.submissions is None) or (args.assignment and not args.variant):
        parser.error("give OKPY_FOLDER SUBMISSIONS --variant V, or nothing (the kit's fixtures)")
    print(f"$ python benchmarks/okpy_courses.py {' '.join(sys.argv[1:])}")
    with tempfile.TemporaryDirectory(prefix="hog-bench-okpy-") as scratch:
        command, where = okpy_run.client(Path(scratch))
        print(f"okpy {okpy_run.VERSION} from {where}")
        runs = [(args.assignment, args.submissions, args.variant)] if args.assignment else [
            (FIXTURES / variant_id, corpus_folder(variant_id, Path(scratch)), variant_id) for variant_id in DEFAULTS]
        totals = [compare(assignment.resolve(), folder.resolve(), variant_id, command, Path(scratch))
                  for assignment, folder, variant_id in runs]
    if len(totals) > 1:
        agreed, compared, kit_seconds, okpy_seconds = (sum(column) for column in zip(*totals))
        print(f"\nIn all: same points on {agreed} of {compared} okpy tests; kit {kit_seconds:.1f} s, "
              f"okpy {okpy_seconds:.1f} s")


if __name__ == "__main__":
    from figures import recorded   # with --docs, also the page of figures in docs/benchmarks/
    recorded(main)
