"""Generate every artefact of a variant from its spec and the kit's sources.

``solution/<id>/`` and ``skeleton/<id>/`` come from one source: the variant's
template in ``grader/sources/hog/`` (which includes the parts every variant
shares) renders the reference ``hog.py`` with symbolic markers
``# BEGIN PROBLEM <role>``. The markers are then resolved against the spec's
questions: the solution keeps each question's code under ``# BEGIN PROBLEM 5``,
the skeleton replaces it with the course's placeholder.

Both folders also get the kit's ``dice.py``, the public cases of each question
as ``tests/qNN.md`` interpreter sessions, and the pytest wiring that runs them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import jinja2

from grader import handout, project
from grader.spec import ROLES, Case, Question, SpecError, Variant

PLACEHOLDER = '"*** YOUR CODE HERE ***"'
MARKER = re.compile(r"^(?P<indent>\s*)# (?P<kind>BEGIN|END) PROBLEM (?P<role>\w+)\s*$")
STUDENT_FILES = ("conftest.py", "case_report.py", "constructs.py", "pytest.ini")


class BuildError(Exception):
    """The sources and the spec do not fit together; the message says where."""


# ------------------------------------------------------------------ hog.py


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(project.SOURCES / "hog"),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, autoescape=False,
    )


def final_table_path(variant: Variant) -> Path:
    return project.SOURCES / "hog" / "final" / f"{variant.id}.txt"


def final_rows(variant: Variant) -> list[str]:
    """The optimal dice counts the reference's final_strategy rolls, one hex digit each."""
    path = final_table_path(variant)
    try:
        rows = path.read_text(encoding="utf-8").split()
    except FileNotFoundError:
        raise BuildError(f"{project.display(path)} is missing (run 'hog build --solve' to compute it)") from None
    if len(rows) != variant.goal or any(len(row) != variant.goal or not re.fullmatch(r"[0-9a]+", row)
                                        for row in rows):
        raise BuildError(f"{project.display(path)}: expected {variant.goal} rows of {variant.goal} digits "
                         f"0-9 or 'a' (run 'hog build --solve' to recompute it)")
    return rows


def solve_final_tables(variants: list[Variant]) -> list[Path]:
    """Recompute each variant's optimal table with the exact engine and store it."""
    from grader.strategy import optimal
    written = []
    for variant in variants:
        path = final_table_path(variant)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():  # the engine reads only the rules; start from always_roll(baseline)
            _write_table(path, [[variant.baseline] * variant.goal] * variant.goal)
        _write_table(path, optimal.solve(variant.id, variant.goal).table)
        written.append(path)
    return written


def _write_table(path: Path, table: list[list[int]]) -> None:
    path.write_text("".join("".join(f"{count:x}" for count in row) + "\n" for row in table), encoding="utf-8")


def marked_source(variant: Variant) -> str:
    """The reference hog.py with symbolic ``# BEGIN PROBLEM <role>`` markers."""
    labels = {question.role: question.label for question in variant.questions}
    template_name = f"{variant.id}.py.j2"
    try:
        template = _environment().get_template(template_name)
        return template.render(
            title=variant.title,
            fn=_Functions(variant, template_name),
            problem_label=lambda role: labels[role],
            final_rows=final_rows(variant),
            final_goal=variant.goal,
            baseline_rolls=variant.baseline,
        )
    except jinja2.TemplateNotFound as error:
        raise BuildError(f"grader/sources/hog/{error.name}: no such source template "
                         f"(variant '{variant.id}' needs grader/sources/hog/{template_name})") from None
    except jinja2.UndefinedError as error:
        raise BuildError(f"grader/sources/hog/{template_name}: {error.message} "
                         f"(add the question or setting to {variant.path})") from None
    except jinja2.TemplateSyntaxError as error:
        raise BuildError(f"grader/sources/hog/{error.name}:{error.lineno}: {error.message}") from None


class _Functions(dict):
    """Role → function name for the templates; a role the template needs but no question grades
    is the spec's mistake, reported at the spec's questions, not a fault of the kit."""

    def __init__(self, variant: Variant, template_name: str):
        super().__init__(variant.functions)
        self.variant, self.template_name = variant, template_name

    def __missing__(self, role: str):
        line = self.variant.questions[0].line if self.variant.questions else None
        raise SpecError(self.variant.path, line, f"no question has role '{role}', which the reference "
                        f"grader/sources/hog/{self.template_name} needs",
                        f"add a question with 'role: {role}' and the function students write for it")


@dataclass
class _Problem:
    role: str
    line: int


def resolve(marked: str, variant: Variant, *, skeleton: bool) -> str:
    """Turn symbolic markers into the solution's or the skeleton's text.

    A line-by-line state machine: outside a problem every line is kept; inside
    a problem graded by a question the skeleton keeps only the placeholder; the
    markers of roles that are not questions of this variant are dropped.
    """
    labels = {question.role: question.label for question in variant.questions}
    seen: set[str] = set()
    out: list[str] = []
    current: _Problem | None = None
    for number, line in enumerate(marked.splitlines(keepends=True), start=1):
        match = MARKER.match(line)
        if match is None:
            if current is None or not skeleton or current.role not in labels:
                out.append(line)
            continue
        kind, role, indent = match["kind"], match["role"], match["indent"]
        if role not in ROLES:
            raise BuildError(f"{variant.id}.py.j2 (rendered line {number}): unknown problem role '{role}' "
                             f"(one of: {', '.join(ROLES)})")
        if kind == "BEGIN":
            if current is not None:
                raise BuildError(f"{variant.id}.py.j2 (rendered line {number}): problem '{role}' begins "
                                 f"inside problem '{current.role}' (end it first)")
            current = _Problem(role, number)
            if role in labels:
                seen.add(role)
                out.append(f"{indent}# BEGIN PROBLEM {labels[role]}\n")
                if skeleton:
                    out.append(f"{indent}{PLACEHOLDER}\n")
        else:
            if current is None or current.role != role:
                raise BuildError(f"{variant.id}.py.j2 (rendered line {number}): 'END PROBLEM {role}' "
                                 f"without its BEGIN")
            if role in labels:
                out.append(f"{indent}# END PROBLEM {labels[role]}\n")
            current = None
    if current is not None:
        raise BuildError(f"{variant.id}.py.j2: problem '{current.role}' never ends")
    missing = [q for q in variant.questions if q.role not in seen]
    if missing:
        names = ", ".join(f"question {q.number} ({q.role})" for q in missing)
        raise BuildError(f"{variant.path}: {names} has no code marked in grader/sources/hog/{variant.id}.py.j2 "
                         f"(mark it with '# BEGIN PROBLEM <role>' ... '# END PROBLEM <role>')")
    return "".join(out)


def solution_source(variant: Variant) -> str:
    return resolve(marked_source(variant), variant, skeleton=False)


def skeleton_source(variant: Variant) -> str:
    return resolve(marked_source(variant), variant, skeleton=True)


# ------------------------------------------------------------ public cases


def case_file(variant: Variant, question: Question, cases: list[Case]) -> str:
    """The public cases of one question as a Markdown file of sessions."""
    lines = [
        f"# Question {question.label}: {question.title} (`{question.function}`)",
        "",
        f"Public cases of question {question.label} of Hog ({variant.title}).",
        f"Run them with `python -m pytest -k {question.key}`.",
        "",
    ]
    if question.forbidden:  # conftest.py checks hog.py for these (see constructs.py)
        lines += [f"<!-- forbid {question.function}: {', '.join(question.forbidden)} -->",
                  f"Not allowed in `{question.function}`: {', '.join(question.forbidden)}.", ""]
    setup = variant.setup.rstrip("\n")
    for case in cases:
        short_id = case.id.removeprefix(f"{variant.id}-")
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


def case_files(variant: Variant) -> dict[str, str]:
    files = {}
    for question in variant.questions:
        public = [case for case in question.cases if not case.hidden]
        if public:
            files[f"tests/{question.key}.md"] = case_file(variant, question, public)
    return files


# ------------------------------------------------------------------ outputs


def student_folder(variant: Variant, hog_source: str) -> dict[str, str]:
    """What a student's folder holds: hog.py, dice.py, public cases, pytest wiring."""
    files = {"hog.py": hog_source, "dice.py": (project.SOURCES / "dice.py").read_text(encoding="utf-8")}
    for name in STUDENT_FILES:
        files[name] = (project.SOURCES / "student" / name).read_text(encoding="utf-8")
    files.update(case_files(variant))
    return files


def outputs(variant: Variant) -> dict[Path, str]:
    """Every generated file of a variant, by path."""
    result: dict[Path, str] = {}
    solution = solution_source(variant)
    for folder, source in ((project.SOLUTION, solution),
                           (project.SKELETON, skeleton_source(variant))):
        for name, text in student_folder(variant, source).items():
            result[folder / variant.id / name] = text
    result[project.DOCS / variant.id / handout.HEATMAP_FILE] = optimal_heatmap(variant)
    for name, text in handout.documents(variant, solution).items():
        result[project.DOCS / variant.id / name] = text
    return result


def optimal_heatmap(variant: Variant) -> str:
    """The dice the optimal strategy rolls at each pair of scores, as an SVG picture."""
    from grader.strategy.heatmap import heatmap_svg
    table = [[int(digit, 16) for digit in row] for row in final_rows(variant)]
    return heatmap_svg(table, f"Optimal strategy, {variant.title}")


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
    for variant in variants:
        files = outputs(variant)
        for path, text in files.items():
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current == text:
                continue
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                written.append(path)
        for folder in generated_folders(variant):
            if folder.exists():
                for path in sorted(folder.rglob("*")):
                    if path.is_file() and path not in files and "__pycache__" not in path.parts:
                        extra.append(path)
                        if not check:
                            path.unlink()
    return BuildResult(written, stale, extra)


__all__ = ["BuildError", "SpecError", "build", "outputs", "solution_source", "skeleton_source"]
