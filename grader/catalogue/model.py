"""A rule of the catalogue: one small Python function and what the kit needs to know about it.

A member is written once, as a documented Python function (see ``historic.py``)
or as the text such a function would have (``families.py`` makes those from
parameters). From that one text come:

* the reference code in ``hog.py``: the function renamed to the variant's name
  (``{{ fn.zero_dice }}``) with its body between ``# BEGIN PROBLEM <kind>`` and
  ``# END PROBLEM <kind>`` (the skeleton's placeholder replaces it);
* the function the kit's tools call (the same text, executed);
* the worked examples of the handout and the spec, computed by that function for
  the member's ``branches`` (inputs chosen so that every line of the body runs).

``validate`` checks a member as ``grader.spec`` checks a spec: each error names
the file and line of the member and says how to fix it.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Callable

from grader.errors import UsageError

KINDS = ("zero_dice", "swap", "bonus")
ARITY = {"zero_dice": (1,), "swap": (1, 2), "bonus": ()}
SCORES = range(200)   # every score a rule is checked on (a turn can end past the goal)


class CatalogueError(UsageError):
    """A member of the catalogue is not usable; ``str(error)`` says where and how to fix it."""


@dataclass(frozen=True)
class Branch:
    """Arguments that exercise one branch of a rule, and what the branch is."""
    args: tuple[int, ...]
    note: str


@dataclass(frozen=True)
class Member:
    """One rule. ``source`` is the Python text of the function (empty for a bonus,
    which lives in the family layout and is switched on by ``flag``)."""

    id: str
    kind: str
    summary: str
    choices: tuple[str, ...]
    branches: tuple[Branch, ...]
    source: str = ""
    name: str = ""               # the course's name of the rule; "" takes the layout's
    family: str = "historic"
    params: tuple[tuple[str, int], ...] = ()
    flag: str = ""               # bonus: the layout setting that turns it on
    where: str = ""              # file:line where the member is defined
    function: Callable | None = field(default=None, compare=False, repr=False)

    @property
    def arity(self) -> int:
        return len(inspect.signature(self.function).parameters) if self.function else 0

    def __call__(self, *args):
        return self.function(*args)

    def reference_text(self) -> str:
        """The function as ``hog.py`` holds it, as Jinja text (the name comes from the variant)."""
        return reference_text(self.source, self.kind)


def function_source(function: Callable) -> tuple[str, str]:
    """The text of a module-level function without its decorators, and its file:line."""
    lines, first = inspect.getsourcelines(function)
    start = next(i for i, line in enumerate(lines) if line.startswith("def "))
    where = f"{_shown(inspect.getsourcefile(function))}:{first + start}"
    return "".join(lines[start:]), where


def _shown(path: str | None) -> str:
    from grader import project
    return project.display(path) if path else "<catalogue>"


def compile_source(source: str, where: str) -> Callable:
    """The function a member's text defines (its only top-level statement)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise CatalogueError(f"{where}: the rule is not valid Python: {error.msg} (line {error.lineno})") from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        raise CatalogueError(f"{where}: a rule is one function definition (move helpers inside it)")
    namespace: dict = {}
    exec(compile(source, where, "exec"), namespace)
    return namespace[tree.body[0].name]


def reference_text(source: str, kind: str) -> str:
    """``def NAME(...)`` → ``def {{ fn.KIND }}(...)``, the body after the docstring marked as a problem."""
    if not source:
        return ""
    tree = ast.parse(source)
    node = tree.body[0]
    lines = source.splitlines(keepends=True)
    docstring_end = node.body[0].end_lineno
    header = lines[0].replace(f"def {node.name}(", "def {{ fn.%s }}(" % kind, 1)
    return ("\n\n" + header + "".join(lines[1:docstring_end]) + f"    # BEGIN PROBLEM {kind}\n"
            + "".join(lines[docstring_end:]).rstrip("\n") + f"\n    # END PROBLEM {kind}\n")


# ----------------------------------------------------------------- validation


def validate(member: Member) -> Member:
    """Check a member; raise CatalogueError naming its file:line and the fix."""
    where, rule = member.where or "<catalogue>", f"rule '{member.id}'"

    def fail(what: str, fix: str) -> None:
        raise CatalogueError(f"{where}: {rule}: {what} ({fix})")

    if member.kind not in KINDS:
        fail(f"unknown kind '{member.kind}'", f"one of: {', '.join(KINDS)}")
    if not member.id or any(c in member.id for c in " \t\n"):
        fail("the id is empty or has spaces", "use letters, digits and underscores")
    if not member.summary.strip():
        fail("no summary", "say the rule in one or two sentences for the handout")
    if member.kind == "bonus":
        if not member.flag:
            fail("a bonus names the layout setting that turns it on", "set flag='feral_hogs' or similar")
        return member
    if "{{" in member.source or "{%" in member.source or "{#" in member.source:
        fail("the source holds '{{', '{%' or '{#'", "the text goes through Jinja; write it another way")
    function = member.function
    if not (function.__doc__ or "").strip():
        fail("the function has no docstring", "say what it returns; students read it in hog.py")
    if member.arity not in ARITY[member.kind]:
        fail(f"a {member.kind} rule takes {' or '.join(map(str, ARITY[member.kind]))} argument(s), "
             f"not {member.arity}", "change the signature")
    _check_values(member, fail)
    if not member.branches:
        fail("no branches", "list the inputs that exercise each branch, with a note each")
    for branch in member.branches:
        if len(branch.args) != member.arity or not branch.note.strip():
            fail(f"branch {branch.args} has the wrong number of arguments or no note",
                 f"give {member.arity} score(s) and a sentence")
    missed = _lines_missed(member)
    if missed:
        fail(f"line(s) {', '.join(map(str, missed))} of the function run for no branch",
             "add a branch whose input reaches them")
    return member


def _check_values(member: Member, fail) -> None:
    for score in SCORES:
        args = (score,) if member.arity == 1 else (score, (score * 37 + 11) % 200)
        try:
            value = member.function(*args)
        except Exception as error:  # noqa: BLE001 - a rule's own bug, reported with its input
            fail(f"raises {type(error).__name__} for {args}", "make it total on scores 0 to 199")
        if member.kind == "zero_dice" and (type(value) is not int or not 0 <= value <= 60):
            fail(f"returns {value!r} for {args}", "rolling zero dice scores a whole number of points, 0 to 60")
        if member.kind == "swap" and type(value) is not bool:
            fail(f"returns {value!r} for {args}", "a swap rule returns True or False")


def _lines_missed(member: Member) -> list[int]:
    """Body lines (relative to the def line, 1-based) that no branch runs."""
    code = member.function.__code__
    body = set()
    tree = ast.parse(member.source).body[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node is not tree and node is not tree.body[0]:
            body.add(node.lineno)
    run: set[int] = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == code.co_filename:
            run.add(frame.f_lineno - code.co_firstlineno + 1)
            return tracer
        return None

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        for branch in member.branches:
            member.function(*branch.args)
    finally:
        sys.settrace(previous)
    nested_defs = {node.lineno for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node is not tree}
    return sorted(line for line in body - run if line not in nested_defs)


def make(kind: str, summary: str, branches, *, source: str = "", function: Callable | None = None,
         choices=(), id: str = "", name: str = "", family: str = "historic", params=(), flag: str = "",
         where: str = "") -> Member:
    """A validated member from a function (or its text)."""
    if function is not None and not source:
        source, where = function_source(function)
    if source:
        source = textwrap.dedent(source)
        function = compile_source(source, where or "<catalogue>")
    member = Member(
        id=id or (function.__name__ if function else ""), kind=kind, summary=" ".join(summary.split()),
        choices=tuple(" ".join(c.split()) for c in choices),
        branches=tuple(Branch(tuple(args), note) for args, note in branches),
        source=source, name=name, family=family, params=tuple(params), flag=flag, where=where,
        function=function)
    return validate(member)
