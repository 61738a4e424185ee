"""A session's source text, read and edited: the whole numbers typed in it (where, filling which
parameter), the names its steps bind and read, and the same session with a number changed or a keyword
added. The probes of the public cases (``grader.cases.visible``) are made with these.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

FACES = {"make_test_dice": (1, 6)}
"""Calls whose numbers keep to a range whatever the spec shows: a test die shows a face of a die."""
_ANSWER_NUMBER = re.compile(r"(?<![\d.])\d+(?![\d.])")   # whole numbers in what a step shows (not 4.5)


@dataclass(frozen=True)
class Number:
    """A whole number typed in a session: in which step, where in its source, its value and range."""
    step: int
    start: int
    end: int
    value: int
    low: int = 0
    high: int | None = None     # None: up to the larger of the value and the highest score below the goal
    slot: str = ""              # the parameter of the question's function it is passed to, if it is
    held: bool = False          # kept as typed (see numbers)


def numbers(sources: list[str], function: str = "", params: tuple[str, ...] = (),
            elsewhere: frozenset[str] = frozenset(), held: frozenset[str] = frozenset()) -> list[Number]:
    """Every whole number written in the sources (not True or False), in the order typed. Those passed
    straight to ``function`` (whose parameters are ``params``) name the parameter they fill. A number is
    held, never changed, when the innermost call around it of ``function`` or of the functions other
    questions grade (``elsewhere``) is one of the latter (a probe exercises them no further than the
    public case does), or when it fills a parameter named in ``held``."""
    found = []
    for index, source in enumerate(sources):
        tree = ast.parse(source)
        named = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
        faces = {id(argument): FACES[call.func.id] for call in named if call.func.id in FACES for argument in call.args}
        slots = {id(argument): params[place] if place < len(params) else str(place)
                 for call in named if call.func.id == function for place, argument in enumerate(call.args)}
        slots.update({id(keyword.value): keyword.arg for call in named if call.func.id == function
                      for keyword in call.keywords if keyword.arg})
        around = _innermost(tree, elsewhere | {function})
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and type(node.value) is int:
                low, high = faces.get(id(node), (0, None))
                slot = slots.get(id(node), "")
                found.append(Number(index, _offset(source, node.lineno, node.col_offset),
                                    _offset(source, node.end_lineno, node.end_col_offset), node.value, low, high,
                                    slot, around[id(node)] in elsewhere - {function} or slot in held))
    return sorted(found, key=lambda number: (number.step, number.start))


def _innermost(tree: ast.AST, names: frozenset[str]) -> dict[int, str]:
    """For each node (by id), the name of the innermost call of one of ``names`` around it ('' if none)."""
    found: dict[int, str] = {}

    def visit(node: ast.AST, around: str) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            around = node.func.id
        found[id(node)] = around
        for child in ast.iter_child_nodes(node):
            visit(child, around)

    visit(tree, "")
    return found


def _offset(source: str, line: int, column: int) -> int:
    """The index in ``source`` of ast's (line, UTF-8 byte column)."""
    lines = source.splitlines(keepends=True)
    return sum(map(len, lines[:line - 1])) + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8"))


def _names(source: str) -> tuple[set[str], set[str]]:
    """The names a step reads and those it binds."""
    tree = ast.parse(source)
    names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
    return ({name.id for name in names if isinstance(name.ctx, ast.Load)},
            {name.id for name in names if isinstance(name.ctx, ast.Store)}
            | {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))})


def affected(sources: list[str], step: int) -> list[int]:
    """The steps whose answers a change to ``step`` may change: itself, and every later step that reads
    a name the session has bound by then (the reference's functions keep no state of their own, so a
    step that reads only them and what it types, as ``free_bacon(19)``, depends on no earlier step)."""
    bound: set[str] = set()
    steps = []
    for index, source in enumerate(sources):
        reads, binds = _names(source)
        if index == step or index > step and reads & bound:
            steps.append(index)
        bound |= binds
    return steps


def pieces(sources: list[str]) -> list[list[int]]:
    """The steps of a session in groups that share no name the session binds (``free_bacon(19)`` and
    ``free_bacon(0)`` apart; ``dice = make_test_dice(5, 6)``, ``take_turn(0, 47, dice)`` and ``dice()``
    together), each in the order typed."""
    group_of: dict[str, int] = {}     # a name bound → the group that bound it
    groups: list[list[int]] = []
    for index, source in enumerate(sources):
        reads, binds = _names(source)
        joined = sorted({group_of[name] for name in reads if name in group_of})
        if not joined:
            groups.append([])
            joined = [len(groups) - 1]
        into = joined[0]
        for other in joined[1:]:      # a step that reads from two groups joins them
            groups[into] += groups[other]
            groups[other] = []
            group_of.update({name: into for name, group in group_of.items() if group == other})
        groups[into].append(index)
        group_of.update({name: into for name in binds})
    return [sorted(group) for group in groups if group]


def with_value(sources: list[str], number: Number, value: int) -> list[str]:
    """The sources with ``number`` written as ``value``, the rest as typed."""
    changed = list(sources)
    source = changed[number.step]
    changed[number.step] = source[:number.start] + str(value) + source[number.end:]
    return changed


def shown_numbers(sessions: list[tuple[list[str], list[str]]]) -> list[int]:
    """The numbers the sessions show, typed and answered, each once, in order of appearance."""
    seen: dict[int, None] = {}
    for sources, answers in sessions:
        for source, answer in zip(sources, answers):
            seen.update((number.value, None) for number in numbers([source]))
            seen.update((int(text), None) for text in _ANSWER_NUMBER.findall(answer))
    return list(seen)


def with_keyword(source: str, function: str, keyword: str, value: str, position: int | None = None) -> str:
    """``source`` with ``keyword=value`` added to every call of ``function`` that does not pass it (by
    name, or, where ``position`` is its place among the parameters, by position)."""
    tree = ast.parse(source)
    ends = sorted((_offset(source, node.end_lineno, node.end_col_offset) for node in ast.walk(tree)
                   if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function
                   and not any(given.arg == keyword for given in node.keywords)
                   and (position is None or len(node.args) <= position)), reverse=True)
    for end in ends:   # the last call first, so the earlier offsets still hold
        inside = source[:end - 1].rstrip()
        separator = "" if inside.endswith("(") else " " if inside.endswith(",") else ", "
        source = inside + separator + f"{keyword}={value}" + source[end - 1:]
    return source


def calls(source: str, function: str) -> bool:
    """Whether the source calls ``function`` by its name."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function
               for node in ast.walk(ast.parse(source)))
