"""Load and validate a variant spec (``specs/<id>.yaml``) into typed models.

A spec holds one variant of Hog: its rules in our own words, its questions, and
the test cases of each question. Every error is reported as
``specs/<id>.yaml:LINE: what is wrong (how to fix it)``; a broken spec never
produces a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.spec import cache, course, explain
from grader.errors import SpecError
from grader.spec.choices import CONSTRUCTS, Alternative, alternatives, forbidden  # noqa: F401 (the model's)
from grader.spec.unlock import Concept, Unlock, locked, unlock  # noqa: F401 (Concept: part of the model)
from grader.spec.model import (ADDED, FEATURES, ORIGIN_PATTERN, ROLES, Case, Composition, Phase,  # noqa: F401
                               Question, Rule, Step, Threshold, Variant, with_points)
from grader.spec.yaml_lines import Key, Mapping, Node, closest, compose, mapping

# ------------------------------------------------------------------ parsing


def _parse_session(session: str, path: str, line: int, start: int | None = None) -> tuple[Step, ...]:
    """A session's steps; ``line`` holds its key, ``start`` its first line (the next one, for a block)."""
    import doctest   # only when a spec is parsed, not when it is found in the cache
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
            raise SpecError(path, (line + 1 if start is None else start) + example.lineno
                            + max((error.lineno or 1) - 1, 0),
                            f"'{example.source.strip()}' is not valid Python: {error.msg}",
                            "fix the call; every '>>> ' line must run as typed") from None
    return tuple(Step(example.source, example.want) for example in examples)


# Each section's keys with their types and defaults: the one place a default is written.
TOP = {
    "id": Key(str), "title": Key(str), "course": Key(str), "seed": Key(str),
    "goal": Key(int, 100), "baseline": Key(int, 4), "setup": Key(str, ">>> from hog import *"),
    "phases": Key(list), "rules": Key(list), "questions": Key(list), "compose": Key(dict, None),
}
COMPOSE = {"layout": Key(str), "zero_dice": Key(str), "swap": Key(str), "bonus": Key(str, "")}
PHASE = {"number": Key(int), "title": Key(str)}
RULE = {"name": Key(str), "summary": Key(str), "choices": Key(list, []), "feature": Key(str, ""),
        "applies": Key(str, ""), "explain": Key(str, "")}
QUESTION = {
    "number": Key(str), "role": Key(str), "function": Key(str), "title": Key(str),
    "phase": Key(int), "points": Key(float), "partial": Key(bool, False),
    "thresholds": Key(list, []), "cases": Key(list), "task": Key(str, ""),
    "unlock": Key(dict, None), "alternatives": Key(list, []), "forbid": Key(list, []),
}
THRESHOLD = {"win_rate": Key(float), "points": Key(float)}
CASE = {"origin": Key(str), "session": Key(str), "hidden": Key(bool, False), "note": Key(str, ""),
        "locked": Key(bool, False)}


def parse(text: str, path: str | Path) -> Variant:
    """Validate spec text; ``path`` is used in messages and records."""
    path = str(path)
    top = mapping(compose(text, path), path, TOP, "the spec")
    goal, baseline = top.get("goal"), top.get("baseline")
    if goal < 1:
        raise SpecError(path, top.line_of("goal"), "'goal' must be at least 1")
    if not 0 <= baseline <= 10:
        raise SpecError(path, top.line_of("baseline"), "'baseline' is a number of dice, 0 to 10")
    phases = tuple(_phase(node, path) for node in top.get("phases"))
    rules = tuple(_rule(node, path) for node in top.get("rules"))
    questions = _questions(top, path, phases, rules)
    setup, setup_line = top.text("setup"), top.line_of("setup")
    return Variant(
        id=top.text("id"), title=top.text("title"), course=top.text("course"), seed=top.text("seed"),
        goal=goal, baseline=baseline, setup=setup, phases=phases, rules=rules,
        questions=questions, path=path, compose=_composition(top, path),
        # a one-line setup is written on its key's line; a block (``setup: |``) starts on the next one
        setup_steps=_parse_session(setup, path, setup_line, setup_line + ("\n" in setup)),
    )


def _composition(top: Mapping, path: str) -> Composition | None:
    """The spec's ``compose:`` block (``hog mint``), its rules checked against the catalogue."""
    if "compose" not in top:
        return None
    from grader.catalogue import layouts   # only a composed spec needs the catalogue
    item = mapping(top["compose"], path, COMPOSE, "'compose'")
    composition = Composition(item.text("layout"), item.text("zero_dice"), item.text("swap"), item.text("bonus"))
    problem = layouts.check(composition)
    if problem:
        raise SpecError(path, top.line_of("compose"), f"'compose' cannot be built: {problem}",
                        "see docs/rules.md for the catalogue's rules")
    return composition


def _phase(node: Node, path: str) -> Phase:
    item = mapping(node, path, PHASE, "a phase")
    return Phase(item.get("number"), item.text("title"))


def _rule(node: Node, path: str) -> Rule:
    item = mapping(node, path, RULE, "a rule")
    choices = []
    for choice in item.get("choices"):
        if type(choice.value) is not str:
            raise SpecError(path, choice.line, "each choice is a sentence of text")
        choices.append(choice.value.strip())
    feature = item.text("feature")
    if feature and feature not in FEATURES:
        close = closest(feature, FEATURES)
        raise SpecError(path, item.line_of("feature"), f"unknown feature '{feature}'",
                        f"did you mean '{close}'?" if close else f"one of: {', '.join(FEATURES)}")
    applies, words = item.text("applies"), " ".join(item.text("explain").split())
    if applies and applies not in explain.APPLIES:
        raise SpecError(path, item.line_of("applies"), f"unknown step '{applies}'",
                        f"one of: {', '.join(explain.APPLIES)}")
    if words and not applies:
        raise SpecError(path, item.line_of("explain"), "an explanation needs the step it explains",
                        f"add 'applies:' (one of: {', '.join(explain.APPLIES)})")
    missing = explain.unknown_field(applies, words) if words else None
    if missing:
        known = ", ".join(explain.fields_of(applies, *explain.SAMPLE[applies]))
        raise SpecError(path, item.line_of("explain"), f"the explanation has no field '{missing}'",
                        f"the fields of step '{applies}' are: {known}")
    return Rule(item.text("name"), item.text("summary"), tuple(choices), node.line, feature, applies, words)


def _questions(top: Mapping, path: str, phases: tuple[Phase, ...], rules: tuple[Rule, ...]) -> tuple[Question, ...]:
    """Each question, checked against the ones before it (numbers, roles, shared functions)."""
    context = _Context(path, top.text("id"), top.text("seed"), {phase.number for phase in phases},
                       {rule.name for rule in rules})
    questions: list[Question] = []
    for node in top.get("questions"):
        questions.append(_question(node, context, questions))
    return tuple(questions)


@dataclass(frozen=True)
class _Context:
    """What a question is checked against, beyond itself."""
    path: str
    variant_id: str
    seed: str
    phase_numbers: set[int]
    rule_names: set[str]


def _question(node: Node, context: _Context, earlier: list[Question]) -> Question:
    path = context.path
    item = mapping(node, path, QUESTION, "a question")
    number = _number(item, path, earlier)
    role = _role(item, path, earlier)
    function = item.text("function")
    if not function.isidentifier():
        raise SpecError(path, item["function"].line, f"'{function}' is not a Python function name")
    phase = item.get("phase")
    if phase not in context.phase_numbers:
        raise SpecError(path, item["phase"].line, f"phase {phase} is not listed under 'phases'",
                        f"use one of {sorted(context.phase_numbers)}")
    points = float(item.get("points"))
    if points < 0:
        raise SpecError(path, item["points"].line, "points cannot be negative")
    thresholds = _thresholds(item, path, role, points)
    cases = tuple(_case(case_node, context, number, index)
                  for index, case_node in enumerate(item.get("cases"), start=1))
    task = item.text("task")
    shared = next((q for q in earlier if q.function == function), None)
    if shared is not None and not task:
        raise SpecError(path, item["function"].line,
                        f"question {number} grades '{function}' like question {shared.number}",
                        "give it a 'task' saying what this question adds")
    return Question(
        number=number, role=role, function=function, title=item.text("title"), task=task, phase=phase,
        points=points, partial=item.get("partial"), thresholds=thresholds, cases=cases, line=node.line,
        unlock=unlock(item["unlock"] if "unlock" in item else None, cases, number, path),
        alternatives=alternatives(item, path), forbidden=forbidden(item, path),
    )


def _number(item: Mapping, path: str, earlier: list[Question]) -> str:
    number = item.text("number")
    if not re.fullmatch(r"\d{2}[a-z]?", number):
        raise SpecError(path, item["number"].line, f"question number '{number}' is not like \"05\" or \"05a\"",
                        "two digits, optionally a letter, in quotes")
    if any(q.number == number for q in earlier):
        raise SpecError(path, item["number"].line, f"question {number} appears twice", "number them uniquely")
    return number


def _role(item: Mapping, path: str, earlier: list[Question]) -> str:
    role = item.text("role")
    if role not in ROLES:
        close = closest(role, ROLES)
        raise SpecError(path, item["role"].line, f"unknown role '{role}'",
                        f"did you mean '{close}'?" if close else f"one of: {', '.join(ROLES)}")
    if any(q.role == role for q in earlier):
        raise SpecError(path, item["role"].line, f"role '{role}' is graded by two questions",
                        "each role belongs to one question")
    return role


def _thresholds(item: Mapping, path: str, role: str, points: float) -> tuple[Threshold, ...]:
    thresholds: list[Threshold] = []
    for node in item.get("thresholds"):
        entry = mapping(node, path, THRESHOLD, "a threshold")
        threshold = Threshold(float(entry.get("win_rate")), float(entry.get("points")))
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
    return tuple(thresholds)


def _case(node: Node, context: _Context, number: str, index: int) -> Case:
    path = context.path
    item = mapping(node, path, CASE, "a case")
    origin = item.text("origin")
    _check_origin(origin, context.seed, context.rule_names, path, item["origin"].line)
    session = str(item.get("session")).rstrip() + "\n"
    steps = _parse_session(session, path, item["session"].line)
    return Case(
        id=f"{context.variant_id}-q{number}-{index}", question=number, origin=origin, session=session,
        steps=steps, hidden=item.get("hidden"), note=item.text("note"), path=path, line=node.line,
        locked=locked(item, steps, path),
    )


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


_loaded: dict[tuple, Variant] = {}   # (path, size, mtime) → the Variant: each spec is parsed once a process


def load(path: str | Path) -> Variant:
    """Load and validate one spec file (parsed once per process while the file is unchanged)."""
    path = Path(path)
    try:
        status = path.stat()
        key = (str(path.resolve()), status.st_size, status.st_mtime_ns)
    except OSError:
        key = None
    if key in _loaded:
        return _loaded[key]
    variant = _load(path)
    if key is not None:
        _loaded[key] = variant
    return variant


def _load(path: Path) -> Variant:
    shown = project.display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SpecError(shown, None, f"cannot read the spec: {error.strerror}") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise SpecError(shown, line, "the spec is not UTF-8 text", "save it as UTF-8") from None
    variant = cache.read(text, shown)
    if variant is None:
        variant = parse(text, shown)
        if variant.id != path.stem:
            raise SpecError(shown, 1, f"id '{variant.id}' does not match the file name",
                            f"name the file specs/{variant.id}.yaml or set id: {path.stem}")
        cache.write(text, shown, variant)
    return variant


variant_ids = project.variant_ids


def load_variant(variant_id: str) -> Variant:
    """Load ``specs/<variant_id>.yaml``; an unknown id names the known ones."""
    clashing = project.clash(variant_id)
    if clashing is not None:
        raise SpecError(project.display(clashing), 1, f"the course's variant '{variant_id}' takes the id of a "
                        "built-in variant", f"rename it (file and its id:), e.g. {variant_id}x")
    paths = project.variant_paths()
    if variant_id not in paths:
        known = sorted(paths)
        close = closest(variant_id, known)
        raise SpecError("specs", None, f"no variant '{variant_id}'",
                        f"did you mean '{close}'?" if close else f"known variants: {', '.join(known)}")
    return course.apply(load(paths[variant_id]), course.current())


def titles() -> dict[str, str]:
    """Each variant's title by id, in id order (what a student's hog.py declares): from one entry of
    the cache while no spec changed since they were checked (``grader.spec.cache``), else from the variants."""
    specs = {}
    for variant_id, path in project.variant_paths().items():
        try:
            specs[variant_id] = (path.read_text(encoding="utf-8"), project.display(path))
        except (OSError, UnicodeDecodeError):   # load_variant says where and why
            return {variant_id: load_variant(variant_id).title for variant_id in variant_ids()}
    found = cache.titles(specs)
    if found is None:
        found = {variant_id: load_variant(variant_id).title for variant_id in specs}
        cache.write_titles(specs, found)
    return {variant_id: found[variant_id] for variant_id in specs}


def all_variants() -> list[Variant]:
    return [load_variant(variant_id) for variant_id in variant_ids()]

