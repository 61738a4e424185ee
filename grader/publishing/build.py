"""Generate every artefact of a variant from its spec and the kit's sources.

``solution/<id>/`` and ``skeleton/<id>/`` hold the reference ``hog.py`` and its
skeleton (``grader.reference.hog_source``, one template for both).

Both folders also get the kit's ``dice.py``, the public cases of each question
as ``tests/qNN.md`` interpreter sessions, and the pytest wiring that runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.cases import unlocking
from grader.publishing import diagnoses, handout
from grader.reference import engine, rendering
from grader.catalogue import docs as catalogue_docs
from grader.project.files import write_atomically
from grader.reference.hog_source import (BuildError, final_rows, final_table_path, marked_source, resolve,
                               skeleton_source, solution_source)
from grader.spec import Case, Question, SpecError, Variant
from grader.strategy.heatmap import heatmap_svg

STUDENT_FILES = ("conftest.py", "case_report.py", "constructs.py", "pytest.ini", "unlock.py", "hog_gui.py",
                 "hog_gui_game.py", "hog_gui.html", "hog_gui.css", "hog_gui.js", "game_trace.py")


# ------------------------------------------------------- the optimal tables


def solve_final_tables(variants: list[Variant]) -> list[Path]:
    """Recompute each variant's optimal table with the exact engine and store it."""
    written = []
    for variant in variants:
        path = final_table_path(variant)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():  # the engine reads only the rules; start from always_roll(baseline)
            _write_table(path, [[variant.baseline] * variant.goal] * variant.goal)
        _write_table(path, engine.solve(variant.id, variant.goal).table)
        written.append(path)
    return written


def _write_table(path: Path, table: list[list[int]]) -> None:
    write_atomically(path, "".join("".join(f"{count:x}" for count in row) + "\n" for row in table))


# ------------------------------------------------------------ public cases


def case_file(variant: Variant, question: Question, cases: list[Case], *, locked: bool = True) -> str:
    """The public cases of one question as a Markdown file of sessions.

    With ``locked``, the locked cases and concept questions are written as salted hashes of
    their answers for ``unlock.py``; without it (the solution folder, whose code gives every
    answer away anyway) every case is a plain session."""
    lines = [
        f"# Question {question.label}: {question.title} (`{question.function}`), {rendering.points(question.points)}",
        "",
        f"Public cases of question {question.label} of Hog ({variant.title}), worth {rendering.points(question.points)}.",
        f"Run them with `python -m pytest -k {question.key}`.",
        "",
    ]
    if question.forbidden:  # conftest.py checks hog.py for these (see constructs.py)
        lines += [f"<!-- forbid {question.function}: {', '.join(question.forbidden)} -->",
                  f"Not allowed in `{question.function}`: {', '.join(question.forbidden)}.", ""]
    setup = variant.setup.rstrip("\n")
    lines += unlocking.concept_lines(variant, question) if locked else []
    for case in cases:
        short_id = case.id.removeprefix(f"{variant.id}-")
        if case.locked and locked:
            lines += unlocking.locked_lines(variant, question, case)
            continue
        lines += [
            f"<!-- case {short_id} | {case.label} -->",
            f"**Case {short_id}** ({case.label})",
            "",
            "```pycon",
            setup,
            case.session.rstrip("\n"),
            "",
            "```",
            "",
        ]
    return "\n".join(lines)


def case_files(variant: Variant, *, locked: bool = True) -> dict[str, str]:
    files = {}
    for question in variant.questions:
        public = [case for case in question.cases if not case.hidden]
        if public:
            files[f"tests/{question.key}.md"] = case_file(variant, question, public, locked=locked)
    return files


# ------------------------------------------------------------------ outputs


def student_folder(variant: Variant, hog_source: str, *, locked: bool = True,
                   diagnosing: bool = True) -> dict[str, str]:
    """What a student's folder holds: hog.py, dice.py, public cases, pytest wiring, unlock.py; with
    ``diagnosing``, what its pytest needs to diagnose a failing public case (``diagnoses.FILE``)."""
    files = {"hog.py": hog_source, "dice.py": project.DICE.read_text(encoding="utf-8")}
    for name in STUDENT_FILES:
        files[name] = (project.SHIPPED / "student" / name).read_text(encoding="utf-8")
    files.update(case_files(variant, locked=locked))
    if diagnosing:
        files[diagnoses.FILE] = diagnoses.text(variant, locked=locked)
    return files


def outputs(variant: Variant) -> dict[Path, str]:
    """Every generated file of a variant, by path."""
    result: dict[Path, str] = {}
    solution = solution_source(variant)
    for folder, source in ((project.SOLUTION, solution),
                           (project.SKELETON, skeleton_source(variant))):
        # The solution's code gives every answer away, so its cases stay unlocked (and all run).
        for name, text in student_folder(variant, source, locked=folder == project.SKELETON).items():
            result[folder / variant.id / name] = text
    result[project.DOCS / variant.id / handout.HEATMAP_FILE] = optimal_heatmap(variant)
    for name, text in {**handout.documents(variant, solution), **handout.sheets()}.items():   # the page's look
        result[project.DOCS / variant.id / name] = text
    return result


def optimal_heatmap(variant: Variant) -> str:
    """The dice the optimal strategy rolls at each pair of scores, as an SVG picture."""
    table = [[int(digit, 16) for digit in row] for row in final_rows(variant)]
    return heatmap_svg(table, f"Optimal strategy, {variant.title}")


def catalogue_outputs() -> dict[Path, str]:
    """``docs/rules.md``, the catalogue of rules every variant is built from."""
    return {project.DOCS / "rules.md": catalogue_docs.markdown()}


def generated_folders(variant: Variant) -> list[Path]:
    return [project.SOLUTION / variant.id, project.SKELETON / variant.id, project.DOCS / variant.id]


@dataclass
class BuildResult:
    written: list[Path]
    stale: list[Path]
    extra: list[Path]


def build(variants: list[Variant], *, check: bool = False) -> BuildResult:
    """Write every generated file, or with ``check`` only report the stale ones.

    A file is stale when its text differs from what the sources make, or when it
    is missing; ``extra`` lists files in generated folders that nothing makes.
    """
    written, stale, extra = [], [], []
    for variant in [None, *variants]:
        files = outputs(variant) if variant else catalogue_outputs()
        for path, text in files.items():
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current == text:
                continue
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(path, text)
                written.append(path)
        for folder in generated_folders(variant) if variant else ():
            if folder.exists():
                for path in sorted(folder.rglob("*")):
                    if path.is_file() and path not in files and "__pycache__" not in path.parts:
                        extra.append(path)
                        if not check:
                            path.unlink()
    return BuildResult(written, stale, extra)


__all__ = ["BuildError", "SpecError", "build", "final_rows", "final_table_path", "marked_source", "outputs",
           "resolve", "solution_source", "skeleton_source"]
