"""The student handout of a variant, as one HTML page and as Markdown.

Everything in it comes from the spec and the reference ``hog.py``: the rules
in our own words (``rule.summary``, ``rule.choices``), the seed's worked
examples (the public cases whose origin names the seed, grouped under their
rule), each question's signature and task (read with ``ast`` from the
reference source, so they match the student's file), and the grading scheme.
The templates live in ``grader/templates/handout/``; a missing value is an error.
The HTML page has the look of the kit's other pages: it links Bootstrap's sheet and the kit's
(``grader.report.style``), written beside it wherever it is written (``sheets``), and adds its layout.

The sessions in the Markdown handout are doctests: each starts with the
variant's setup line (``>>> from hog import *``) and ends with a blank line
before its closing fence, so running them against the solution checks every
number the handout shows.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass

from grader import reference
from grader.diagnosis import steps
from grader.reference import rendering
from grader.report import style
from grader.spec import Case, Question, Rule, SpecError, Variant

FORMATS = ("html", "md")
FILES = {fmt: f"handout.{fmt}" for fmt in FORMATS}
HEATMAP_FILE = "optimal-strategy.svg"   # the optimal strategy's picture, for instructors


@dataclass(frozen=True)
class Function:
    """A function of the student's ``hog.py``: its ``def`` lines and its task."""
    name: str
    signature: str   # the ``def ...:`` lines exactly as in the file
    task: str        # the first paragraph of the docstring, on one line


@dataclass(frozen=True)
class Line:
    kind: str        # "setup", "input" or "output"
    text: str


@dataclass(frozen=True)
class Example:
    case: Case
    lines: tuple[Line, ...]

    @property
    def doctest(self) -> str:
        """The session as typed, setup line first."""
        return "\n".join(line.text for line in self.lines)

    @property
    def locked(self) -> str:
        """A locked case's calls without prompts and '?' for its answers (no doctest runs it)."""
        return "\n".join(line.text[4:] if line.kind != "output" else line.text for line in self.lines)


@dataclass(frozen=True)
class RuleSection:
    rule: Rule
    examples: tuple[tuple[int, tuple[Example, ...]], ...]   # (example number, its sessions)
    explained: str = ""   # the rule's explanation with one example's numbers (as a diagnosis says it)


@dataclass(frozen=True)
class QuestionSection:
    question: Question
    function: Function
    public: int                  # number of public cases in tests/qNN.md
    earlier: Question | None     # an earlier question that asks for the same function

    @property
    def task(self) -> str:
        """What to do: the spec's words where it has them, else the docstring's first paragraph."""
        return self.question.task or self.function.task


# ------------------------------------------------------------------ reading


def functions(hog_source: str) -> dict[str, Function]:
    """The top-level functions of a ``hog.py``, by name."""
    lines = hog_source.splitlines()
    found = {}
    for node in ast.parse(hog_source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        header = []
        for line in lines[node.lineno - 1:]:   # up to the line that ends the signature with ':'
            header.append(line)
            if line.split("#")[0].rstrip().endswith(":"):
                break
        docstring = ast.get_docstring(node) or ""
        task = " ".join(docstring.split("\n\n")[0].split())
        found[node.name] = Function(node.name, "\n".join(header), task)
    return found


def _session(variant: Variant, case: Case) -> tuple[Line, ...]:
    """The session's lines; a locked case shows '?' where each answer goes, never the answer."""
    lines = [Line("setup", line) for line in variant.setup.rstrip("\n").splitlines()]
    for line in case.session.rstrip("\n").splitlines():
        kind = "input" if line.startswith((">>> ", "... ")) or line in (">>>", "...") else "output"
        lines.append(Line(kind, "?" if kind == "output" and case.locked else line))
    return tuple(lines)


def rule_sections(variant: Variant) -> tuple[RuleSection, ...]:
    """Each rule with the seed's worked examples that illustrate it, by example number, and its explanation
    (``explain`` of the spec) with an example's numbers.

    Only public cases are shown: a hidden case stays out of everything a
    student receives.
    """
    hog = reference.load(variant.id)
    sections = []
    for rule in variant.rules:
        by_number: dict[int, list[Example]] = {}
        for case in variant.cases:
            if case.rule == rule.name and not case.hidden:
                by_number.setdefault(case.example, []).append(Example(case, _session(variant, case)))
        explained = steps.example(variant, hog, rule.applies) if rule.explain else ""
        sections.append(RuleSection(rule, tuple((number, tuple(by_number[number]))
                                                for number in sorted(by_number)), explained))
    return tuple(sections)


def question_sections(variant: Variant, hog_source: str) -> tuple[QuestionSection, ...]:
    defined = functions(hog_source)
    sections: list[QuestionSection] = []
    for question in variant.questions:
        if question.function not in defined:
            close = difflib.get_close_matches(question.function, list(defined), n=1)
            raise SpecError(variant.path, question.line,
                            f"question {question.number} names function '{question.function}', "
                            f"which the reference hog.py does not define",
                            f"did you mean '{close[0]}'?" if close else
                            f"define it in grader/templates/hog/{variant.id}.py.j2")
        public = sum(not case.hidden for case in question.cases)
        earlier = next((s.question for s in sections if s.question.function == question.function), None)
        sections.append(QuestionSection(question, defined[question.function], public, earlier))
    return tuple(sections)


# ---------------------------------------------------------------- rendering


def picture(svg: str) -> str:
    """The heatmap as the handout shows it: without the tooltip of each cell, so the
    handout carries no machine-readable table of the optimal strategy."""
    body = re.sub(r"<title>score [^<]*</title>", "", svg)
    body = body.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)  # inline in HTML, the parser knows
    return re.sub(r"^<svg ", '<svg role="img" aria-label="optimal strategy heatmap" ', body, count=1)


def render(variant: Variant, fmt: str, hog_source: str, heatmap: str | None = None) -> str:
    """The handout in ``fmt`` ("html" or "md"); ``hog_source`` is the reference hog.py.

    Students get it without ``heatmap``: any picture of the optimal strategy, even
    without its labels, gives away the answer to the final strategy question (the
    colours are the table). With ``heatmap``, the SVG picture of the optimal
    strategy, it is the instructor's edition, e.g. to publish after the deadline;
    the Markdown edition then links to ``HEATMAP_FILE`` beside it."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown handout format {fmt!r}")
    template = rendering.environment("handout").get_template(f"handout.{fmt}.j2")
    questions = question_sections(variant, hog_source)
    phases = [(phase, [section for section in questions if section.question.phase == phase.number])
              for phase in variant.phases]
    text = template.render(
        variant=variant,
        rules=rule_sections(variant),
        phases=[(phase, sections) for phase, sections in phases if sections],
        strategy_questions=[q for q in variant.questions if q.thresholds],
        partial_questions=[q for q in variant.questions if q.partial and not q.thresholds],
        case_files=[section.question.key for section in questions if section.public],
        heatmap=picture(heatmap) if heatmap is not None else None,
        heatmap_is_projection=heatmap is not None and _previous_rolls_matter(variant),
        heatmap_file=HEATMAP_FILE,
    )
    return re.sub(r"\n{3,}", "\n\n", text)


def _previous_rolls_matter(variant: Variant) -> bool:
    """Whether optimal play depends on more than the two scores (fa19: the previous dice
    counts), so that a table of the two scores only summarises it."""
    return "dice_count_bonus" in variant.features


def documents(variant: Variant, hog_source: str) -> dict[str, str]:
    """File name → text of both students' handouts, as ``docs/<id>/`` and the student folder hold them."""
    return {FILES[fmt]: render(variant, fmt, hog_source) for fmt in FORMATS}


def sheets() -> dict[str, str]:
    """File name → text of the stylesheets the HTML handout links by name, to be written beside it."""
    return {name: style.sheet(name).decode("utf-8") for name in style.SHEETS}
