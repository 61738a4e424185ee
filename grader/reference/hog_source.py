"""The reference ``hog.py`` of a variant, and its skeleton, from one template.

The variant's template in ``grader/templates/hog/`` (which includes the parts
every variant shares) renders the reference ``hog.py`` with symbolic markers
``# BEGIN PROBLEM <role>``. The markers are then resolved against the spec's
questions: the solution keeps each question's code under ``# BEGIN PROBLEM 5``,
the skeleton replaces it with the course's placeholder. The optimal table the
reference ``final_strategy`` rolls is read from ``grader/data/final/<id>.txt``.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.project import signed_cache
from grader.errors import UsageError
from grader.spec import ROLES, SpecError, Variant

PLACEHOLDER = '"*** YOUR CODE HERE ***"'
MARKER = re.compile(r"^(?P<indent>\s*)# (?P<kind>BEGIN|END) PROBLEM (?P<role>\w+)\s*$")


class BuildError(UsageError):
    """The sources and the spec do not fit together; the message says where."""


# ------------------------------------------------------------------ hog.py


def final_table_path(variant: Variant) -> Path:
    # a minted variant keeps its table beside its spec (the course's, not the kit's)
    return project.table_path(variant.id, minted=variant.compose is not None)


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


def _template(variant: Variant):
    """The variant's source template; ``catalogue/<rule id>.py.j2`` serves each rule from the catalogue,
    and a composed variant (``compose:`` in its spec) is its family layout filled with catalogue rules."""
    from grader import catalogue   # Jinja: only when a reference is rendered, not when it is cached
    from grader.reference import rendering
    environment = rendering.environment("hog")
    if variant.compose:
        return environment.from_string(catalogue.layout_source(variant.compose))
    return environment.get_template(f"{variant.id}.py.j2")


KEPT_PER_VARIANT = 8   # rendered references kept in the cache per variant: the newest


@functools.lru_cache(maxsize=32)
def marked_source(variant: Variant) -> str:
    """The reference hog.py with symbolic ``# BEGIN PROBLEM <role>`` markers.

    Rendered once per process for each variant, and kept in the grader's signed cache under a
    digest of everything it is made from (the spec, the templates, the catalogue, the optimal
    table), so a grading run does not render it again, nor even load Jinja."""
    key = _source_key(variant)
    return signed_cache.kept("reference", f"{variant.id}-{key}.py", key, "reference source",
                             lambda: _render(variant), load=lambda payload: payload.decode("utf-8"),
                             dump=lambda text: text.encode("utf-8"), keep=(f"{variant.id}-*.py", KEPT_PER_VARIANT))


def _source_key(variant: Variant) -> str:
    """Changes whenever anything the reference source is made from changes."""
    digest = hashlib.sha256(variant.contents.encode("utf-8"))
    sources = sorted(project.TEMPLATES.joinpath("hog").rglob("*.j2")) + \
        sorted(project.PACKAGE.joinpath("catalogue").glob("*.py")) + [Path(__file__), final_table_path(variant)]
    for path in sources:
        digest.update(str(path.name).encode("utf-8") + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"missing")
    return digest.hexdigest()[:24]


def _render(variant: Variant) -> str:
    import jinja2   # only when a reference is rendered
    labels = {question.role: question.problem for question in variant.questions}
    template_name = f"{variant.id}.py.j2"
    try:
        template = _template(variant)
        return template.render(
            title=variant.title,
            fn=_Functions(variant, template_name),
            problem_label=lambda role: labels[role],
            final_rows=final_rows(variant),
            final_goal=variant.goal,
            baseline_rolls=variant.baseline,
        )
    except jinja2.TemplateNotFound as error:
        raise BuildError(f"grader/templates/hog/{error.name}: no such source template "
                         f"(variant '{variant.id}' needs grader/templates/hog/{template_name})") from None
    except jinja2.UndefinedError as error:
        raise BuildError(f"grader/templates/hog/{template_name}: {error.message} "
                         f"(add the question or setting to {variant.path})") from None
    except jinja2.TemplateSyntaxError as error:
        raise BuildError(f"grader/templates/hog/{error.name}:{error.lineno}: {error.message}") from None


class _Functions(dict):
    """Role → function name for the templates; a role the template needs but no question grades
    is the spec's mistake, reported at the spec's questions, not a fault of the kit."""

    def __init__(self, variant: Variant, template_name: str):
        super().__init__(variant.functions)
        self.variant, self.template_name = variant, template_name

    def __missing__(self, role: str):
        line = self.variant.questions[0].line if self.variant.questions else None
        raise SpecError(self.variant.path, line, f"no question has role '{role}', which the reference "
                        f"grader/templates/hog/{self.template_name} needs",
                        f"add a question with 'role: {role}' and the function students write for it")


@dataclass
class _Problem:
    role: str
    line: int


def resolve(marked: str, variant: Variant, *, skeleton: bool) -> str:
    """Turn symbolic markers into the solution's or the skeleton's text.

    A line-by-line state machine: outside a problem every line is kept; inside
    a problem graded by a question the skeleton keeps only the placeholder; the
    markers of roles that are not questions of this variant are dropped. A question without
    markers of its own grades part of the problem of the same number (5b: Feral Hogs, in play's 5).
    """
    labels = {question.role: question.problem for question in variant.questions}
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
    problems = {labels[role] for role in seen}   # a question may grade part of another's problem (fa19's 5b)
    missing = [q for q in variant.questions if q.role not in seen and q.problem not in problems]
    if missing:
        names = ", ".join(f"question {q.number} ({q.role})" for q in missing)
        raise BuildError(f"{variant.path}: {names} has no code marked in grader/templates/hog/{variant.id}.py.j2 "
                         f"(mark it with '# BEGIN PROBLEM <role>' ... '# END PROBLEM <role>')")
    return "".join(out)


def solution_source(variant: Variant) -> str:
    return resolve(marked_source(variant), variant, skeleton=False)


def skeleton_source(variant: Variant) -> str:
    return resolve(marked_source(variant), variant, skeleton=True)
