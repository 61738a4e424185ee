"""Load and validate a variant spec (``specs/<id>.yaml``) into typed models.

A spec holds one variant of Hog: its rules in our own words, its questions, and
the test cases of each question. Every error is reported as
``specs/<id>.yaml:LINE: what is wrong (how to fix it)``; a broken spec never
produces a traceback.
"""

from __future__ import annotations

import ast
import doctest
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grader import project
from grader.sources.student import constructs

ROLES = (
    "roll_dice", "zero_dice", "take_turn", "swap", "play", "commentary",
    "announce_highest", "always_roll", "is_always_roll", "make_averaged",
    "max_scoring_num_rolls", "zero_strategy", "swap_strategy", "final_strategy",
)
"""What a question grades. The solution sources mark each role's code with
``# BEGIN PROBLEM <role>``; hidden cases are generated per role."""

ORIGIN_PATTERN = re.compile(r"^(?P<seed>[\w.]+\.txt): (?P<rule>[^,]+), example (?P<example>\d+)$")
ADDED = "added"


class SpecError(Exception):
    """A spec is not usable. ``str(error)`` is the message to show the user."""

    def __init__(self, path: Path | str, line: int | None, what: str, hint: str = ""):
        self.path, self.line, self.what, self.hint = str(path), line, what, hint
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {what}" + (f" ({hint})" if hint else ""))


# ---------------------------------------------------------------- the models


@dataclass(frozen=True)
class Step:
    """One line typed at the prompt (possibly continued) and what it shows."""
    source: str
    want: str


@dataclass(frozen=True)
class Case:
    id: str
    question: str           # the question number, e.g. "01"
    origin: str             # "<seed file>: <rule>, example <n>" or "added"
    session: str            # the interpreter session as typed, ">>> " prompts included
    steps: tuple[Step, ...]
    hidden: bool
    note: str
    path: str               # spec file
    line: int               # line of the case in the spec file

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def label(self) -> str:
        """Where the case comes from, in words a student can use (the handout's rules, not the
        seed file): ``rules, Pig Out, example 1``, or ``added``."""
        match = ORIGIN_PATTERN.match(self.origin)
        return f"rules, {match['rule']}, example {match['example']}" if match else self.origin

    @property
    def rule(self) -> str | None:
        match = ORIGIN_PATTERN.match(self.origin)
        return match["rule"] if match else None

    @property
    def example(self) -> int | None:
        match = ORIGIN_PATTERN.match(self.origin)
        return int(match["example"]) if match else None


@dataclass(frozen=True)
class Alternative:
    """A choice the rules leave open, as a small variant of the reference.

    ``source`` defines one or more functions that replace the reference's
    functions of the same names; a hidden case is kept only when the reference
    and every alternative show the same thing."""
    choice: str      # what a correct solution may do differently, in a sentence
    source: str
    line: int


@dataclass(frozen=True)
class Threshold:
    win_rate: float
    points: float


@dataclass(frozen=True)
class Question:
    number: str
    role: str
    function: str
    title: str
    phase: int
    points: float
    partial: bool
    thresholds: tuple[Threshold, ...]
    cases: tuple[Case, ...]
    line: int
    task: str = ""   # what the student does, where the function's docstring does not say it
    alternatives: tuple[Alternative, ...] = ()   # choices the rules leave open
    forbidden: tuple[str, ...] = ()              # constructs the function may not use (see CONSTRUCTS)

    @property
    def label(self) -> str:
        """The number as the course prints it in ``# BEGIN PROBLEM 5``."""
        return self.number.lstrip("0") or "0"

    @property
    def key(self) -> str:
        """The name used on the command line and in file names: ``q05``."""
        return f"q{self.number}"


@dataclass(frozen=True)
class Rule:
    name: str
    summary: str
    choices: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Phase:
    number: int
    title: str


@dataclass(frozen=True)
class Variant:
    id: str
    title: str
    course: str
    seed: str
    goal: int
    baseline: int
    setup: str
    phases: tuple[Phase, ...]
    rules: tuple[Rule, ...]
    questions: tuple[Question, ...]
    path: str

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(case for question in self.questions for case in question.cases)

    @property
    def functions(self) -> dict[str, str]:
        """Role → function name, for the roles this variant grades."""
        return {question.role: question.function for question in self.questions}

    def question(self, key: str) -> Question:
        """Find a question by ``05``, ``5``, ``q05`` or ``q5``; raise KeyError."""
        wanted = key.lower().removeprefix("q").lstrip("0") or "0"
        for question in self.questions:
            if question.label.lower() == wanted:
                return question
        raise KeyError(key)

    @property
    def points(self) -> float:
        return sum(question.points for question in self.questions)


# ------------------------------------------------------------ YAML with lines


class _Node:
    """A loaded YAML value with the line it starts on."""
    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int):
        self.value, self.line = value, line


def _compose(text: str, path: str) -> _Node:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        line = _syntax_line(error)
        problem = error.problem or error.context or "cannot be read"
        raise SpecError(path, line, f"YAML syntax error: {problem}",
                        "check the indentation and quoting on this line and the one above") from None
    except yaml.YAMLError as error:
        raise SpecError(path, None, f"YAML error: {error}") from None
    if node is None:
        raise SpecError(path, 1, "the spec is empty", "start from an existing spec in specs/")
    return _convert(node, path)


def _syntax_line(error: yaml.MarkedYAMLError) -> int | None:
    """The line of a YAML syntax mistake. The scanner notices a missing ':' or an unclosed quote
    only lines later (a plain scalar runs on); its context mark is where that key or quote began.
    The parser's problem mark is the unexpected line itself (its context is the whole block)."""
    if isinstance(error, yaml.scanner.ScannerError) and error.context_mark is not None:
        mark = error.context_mark
    else:
        mark = error.problem_mark or error.context_mark
    return mark.line + 1 if mark else None


def _convert(node: yaml.Node, path: str) -> _Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[str, _Node] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in result:
                raise SpecError(path, key_node.start_mark.line + 1, f"duplicate key '{key}'",
                                "keep one of them")
            result[key] = _convert(value_node, path)
        return _Node(result, line)
    if isinstance(node, yaml.SequenceNode):
        return _Node([_convert(item, path) for item in node.value], line)
    loader = yaml.SafeLoader("")
    try:
        return _Node(loader.construct_object(node, deep=True), line)
    except yaml.YAMLError as error:
        raise SpecError(path, line, f"bad value: {error}") from None
    finally:
        loader.dispose()


# ---------------------------------------------------------------- validation

_TYPE_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
               dict: "a mapping", list: "a list"}


def _mapping(node: _Node, path: str, allowed: dict[str, tuple[type, bool]], what: str) -> dict[str, _Node]:
    """Check a mapping's keys: ``allowed`` maps key → (type, required)."""
    if not isinstance(node.value, dict):
        raise SpecError(path, node.line, f"{what} must be a mapping of keys to values",
                        f"write it as 'key: value' lines; allowed keys: {', '.join(allowed)}")
    for key, value in node.value.items():
        if key not in allowed:
            close = _closest(key, allowed)
            raise SpecError(path, value.line, f"unknown key '{key}' in {what}",
                            f"did you mean '{close}'?" if close else f"allowed keys: {', '.join(allowed)}")
    for key, (kind, required) in allowed.items():
        if key not in node.value:
            if required:
                raise SpecError(path, node.line, f"{what} is missing '{key}'",
                                f"add '{key}:' ({_TYPE_NAMES.get(kind, kind.__name__)})")
            continue
        value = node.value[key]
        if not _is(value.value, kind):
            raise SpecError(path, value.line,
                            f"'{key}' in {what} must be {_TYPE_NAMES.get(kind, kind.__name__)}, "
                            f"not {_describe(value.value)}",
                            "quote numbers that are names, e.g. number: \"05\"" if kind is str else "")
    return node.value


def _is(value: Any, kind: type) -> bool:
    if kind is float:
        return type(value) in (int, float)
    if kind is int:
        return type(value) is int
    return type(value) is kind


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    return f"{_TYPE_NAMES.get(type(value), type(value).__name__)} ({value!r})" if not isinstance(
        value, (dict, list)) else _TYPE_NAMES[type(value)]


def _closest(word: str, options) -> str | None:
    import difflib
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return found[0] if found else None


def _get(mapping: dict[str, _Node], key: str, default: Any = None) -> Any:
    return mapping[key].value if key in mapping else default


def _text(mapping: dict[str, _Node], key: str, default: str = "") -> str:
    return str(_get(mapping, key, default)).strip()


def _parse_session(session: str, path: str, line: int) -> tuple[Step, ...]:
    try:
        examples = doctest.DocTestParser().get_examples(session)
    except ValueError as error:
        raise SpecError(path, line, f"the session cannot be read: {error}",
                        "each line typed starts with '>>> ' (or '... ' to continue), "
                        "followed by what it shows") from None
    if not examples:
        raise SpecError(path, line, "the session has no '>>> ' line", "add at least one '>>> call' line")
    for example in examples:
        try:
            compile(example.source, "<session>", "single")
        except SyntaxError as error:
            # ``line`` holds "session: |"; the block starts on the next line.
            raise SpecError(path, line + 1 + example.lineno + max((error.lineno or 1) - 1, 0),
                            f"'{example.source.strip()}' is not valid Python: {error.msg}",
                            "fix the call; every '>>> ' line must run as typed") from None
    return tuple(Step(example.source, example.want) for example in examples)


def parse(text: str, path: str | Path) -> Variant:
    """Validate spec text; ``path`` is used in messages and records."""
    path = str(path)
    root = _compose(text, path)
    top = _mapping(root, path, {
        "id": (str, True), "title": (str, True), "course": (str, True), "seed": (str, True),
        "goal": (int, False), "baseline": (int, False), "setup": (str, False),
        "phases": (list, True), "rules": (list, True), "questions": (list, True),
    }, "the spec")
    variant_id = _text(top, "id")
    seed = _text(top, "seed")
    goal = _get(top, "goal", 100)
    if goal < 1:
        raise SpecError(path, top["goal"].line, "'goal' must be at least 1")
    baseline = _get(top, "baseline", 4)
    if not 0 <= baseline <= 10:
        raise SpecError(path, top["baseline"].line, "'baseline' is a number of dice, 0 to 10")

    phases = []
    for node in top["phases"].value:
        item = _mapping(node, path, {"number": (int, True), "title": (str, True)}, "a phase")
        phases.append(Phase(_get(item, "number"), _text(item, "title")))

    rules = []
    for node in top["rules"].value:
        item = _mapping(node, path, {"name": (str, True), "summary": (str, True), "choices": (list, False)},
                        "a rule")
        choices = []
        for choice in _get(item, "choices", []):
            if type(choice.value) is not str:
                raise SpecError(path, choice.line, "each choice is a sentence of text")
            choices.append(choice.value.strip())
        rules.append(Rule(_text(item, "name"), _text(item, "summary"), tuple(choices), node.line))
    rule_names = {rule.name for rule in rules}

    phase_numbers = {phase.number for phase in phases}
    questions, numbers, roles = [], set(), set()
    for node in top["questions"].value:
        item = _mapping(node, path, {
            "number": (str, True), "role": (str, True), "function": (str, True), "title": (str, True),
            "phase": (int, True), "points": (float, True), "partial": (bool, False),
            "thresholds": (list, False), "cases": (list, True), "task": (str, False),
            "alternatives": (list, False), "forbid": (list, False),
        }, "a question")
        number = _text(item, "number")
        if not re.fullmatch(r"\d{2}[a-z]?", number):
            raise SpecError(path, item["number"].line, f"question number '{number}' is not like \"05\" or \"05a\"",
                            "two digits, optionally a letter, in quotes")
        if number in numbers:
            raise SpecError(path, item["number"].line, f"question {number} appears twice", "number them uniquely")
        numbers.add(number)
        role = _text(item, "role")
        if role not in ROLES:
            close = _closest(role, ROLES)
            raise SpecError(path, item["role"].line, f"unknown role '{role}'",
                            f"did you mean '{close}'?" if close else f"one of: {', '.join(ROLES)}")
        if role in roles:
            raise SpecError(path, item["role"].line, f"role '{role}' is graded by two questions",
                            "each role belongs to one question")
        roles.add(role)
        function = _text(item, "function")
        if not function.isidentifier():
            raise SpecError(path, item["function"].line, f"'{function}' is not a Python function name")
        phase = _get(item, "phase")
        if phase not in phase_numbers:
            raise SpecError(path, item["phase"].line, f"phase {phase} is not listed under 'phases'",
                            f"use one of {sorted(phase_numbers)}")
        points = float(_get(item, "points"))
        if points < 0:
            raise SpecError(path, item["points"].line, "points cannot be negative")
        thresholds = []
        for threshold_node in _get(item, "thresholds", []):
            entry = _mapping(threshold_node, path, {"win_rate": (float, True), "points": (float, True)},
                             "a threshold")
            threshold = Threshold(float(_get(entry, "win_rate")), float(_get(entry, "points")))
            if not 0 <= threshold.win_rate <= 1:
                raise SpecError(path, entry["win_rate"].line, f"win_rate {threshold.win_rate:g} is not a "
                                "probability", "write it as a number from 0 to 1, e.g. 0.55")
            if not 0 <= threshold.points <= points:
                raise SpecError(path, entry["points"].line, f"a threshold gives {threshold.points:g} points, "
                                f"but the question is worth {points:g}", "keep each threshold within the question's points")
            if thresholds and threshold.win_rate <= thresholds[-1].win_rate:
                raise SpecError(path, entry["win_rate"].line, "thresholds must rise", "list them from the lowest "
                                "win rate to the highest")
            thresholds.append(threshold)
        if thresholds and role != "final_strategy":
            raise SpecError(path, item["thresholds"].line, f"only the final strategy is graded by win rate, "
                            f"not '{role}'", "remove 'thresholds' from this question")
        cases = []
        for index, case_node in enumerate(_get(item, "cases"), start=1):
            case_item = _mapping(case_node, path, {
                "origin": (str, True), "session": (str, True), "hidden": (bool, False), "note": (str, False),
            }, "a case")
            origin = _text(case_item, "origin")
            _check_origin(origin, seed, rule_names, path, case_item["origin"].line)
            session = str(_get(case_item, "session")).rstrip() + "\n"
            steps = _parse_session(session, path, case_item["session"].line)
            cases.append(Case(
                id=f"{variant_id}-q{number}-{index}", question=number, origin=origin, session=session,
                steps=steps, hidden=_get(case_item, "hidden", False), note=_text(case_item, "note"),
                path=path, line=case_node.line,
            ))
        task = _text(item, "task")
        shared = next((q for q in questions if q.function == function), None)
        if shared is not None and not task:
            raise SpecError(path, item["function"].line,
                            f"question {number} grades '{function}' like question {shared.number}",
                            "give it a 'task' saying what this question adds")
        questions.append(Question(
            number=number, role=role, function=function, title=_text(item, "title"), task=task, phase=phase,
            points=points, partial=_get(item, "partial", False), thresholds=tuple(thresholds),
            cases=tuple(cases), line=node.line,
            alternatives=_alternatives(item, path), forbidden=_forbidden(item, path),
        ))
    return Variant(
        id=variant_id, title=_text(top, "title"), course=_text(top, "course"), seed=seed, goal=goal,
        baseline=baseline, setup=_text(top, "setup", ">>> from hog import *"), phases=tuple(phases),
        rules=tuple(rules), questions=tuple(questions), path=path,
    )


CONSTRUCTS = constructs.CONSTRUCTS
"""Constructs a spec may forbid in a question's function (checked on the source with ``ast``)."""


def _alternatives(item: dict[str, _Node], path: str) -> tuple[Alternative, ...]:
    """A question's ``alternatives``: each a ``choice`` sentence and the ``source`` of the replacement."""
    alternatives = []
    for node in _get(item, "alternatives", []):
        entry = _mapping(node, path, {"choice": (str, True), "source": (str, True)}, "an alternative")
        source = str(_get(entry, "source"))
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            raise SpecError(path, entry["source"].line + (error.lineno or 1),
                            f"the alternative is not valid Python: {error.msg}",
                            "write one or more 'def' blocks replacing reference functions") from None
        if not tree.body or not all(isinstance(statement, ast.FunctionDef) for statement in tree.body):
            raise SpecError(path, entry["source"].line, "an alternative's source holds only 'def' blocks",
                            "define the replacing function(s), nothing else")
        alternatives.append(Alternative(_text(entry, "choice"), source, node.line))
    return tuple(alternatives)


def _forbidden(item: dict[str, _Node], path: str) -> tuple[str, ...]:
    """A question's ``forbid``: constructs its function may not use."""
    forbidden = []
    for node in _get(item, "forbid", []):
        if node.value not in CONSTRUCTS:
            close = _closest(str(node.value), CONSTRUCTS)
            raise SpecError(path, node.line, f"unknown construct '{node.value}' under 'forbid'",
                            f"did you mean '{close}'?" if close else f"one of: {', '.join(CONSTRUCTS)}")
        forbidden.append(node.value)
    return tuple(forbidden)


def _check_origin(origin: str, seed: str, rule_names: set[str], path: str, line: int) -> None:
    if origin == ADDED:
        return
    match = ORIGIN_PATTERN.match(origin)
    if not match:
        raise SpecError(path, line, f"origin '{origin}' is not understood",
                        f"write '{seed}: <rule>, example <n>' or 'added'")
    if match["seed"] != seed:
        raise SpecError(path, line, f"origin names seed '{match['seed']}', but this variant's seed is '{seed}'",
                        "a variant's examples come from its own seed")
    if match["rule"] not in rule_names:
        raise SpecError(path, line, f"origin names rule '{match['rule']}', which is not under 'rules'",
                        f"use one of: {', '.join(sorted(rule_names))}")


def load(path: str | Path) -> Variant:
    """Load and validate one spec file."""
    path = Path(path)
    shown = project.display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SpecError(shown, None, f"cannot read the spec: {error.strerror}") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise SpecError(shown, line, "the spec is not UTF-8 text", "save it as UTF-8") from None
    variant = parse(text, shown)
    if variant.id != path.stem:
        raise SpecError(shown, 1, f"id '{variant.id}' does not match the file name",
                        f"name the file specs/{variant.id}.yaml or set id: {path.stem}")
    return variant


def variant_ids() -> list[str]:
    return sorted(path.stem for path in project.SPECS.glob("*.yaml"))


def load_variant(variant_id: str) -> Variant:
    """Load ``specs/<variant_id>.yaml``; an unknown id names the known ones."""
    known = variant_ids()
    if variant_id not in known:
        close = _closest(variant_id, known)
        raise SpecError("specs", None, f"no variant '{variant_id}'",
                        f"did you mean '{close}'?" if close else f"known variants: {', '.join(known)}")
    return load(project.SPECS / f"{variant_id}.yaml")


def all_variants() -> list[Variant]:
    return [load_variant(variant_id) for variant_id in variant_ids()]

