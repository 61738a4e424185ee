"""The session that observes a failing case's call: its steps up to the failing one, that one rewritten so
that its value is a record of the call (``grader.shipped.student.game_trace``); and that session run on
the reference, here. The submission's run of it happens in the sandbox (``grader.grading.diagnose``)."""

from __future__ import annotations

import ast
import contextlib
import io
from dataclasses import dataclass, field

from grader.cases.calling import Api, compiled
from grader.shipped.student.game_trace import TRACER
from grader.spec import Case, Question, Variant

GAME_ROLES = frozenset({"play", "feral_hogs", "commentary"})
CALL_ROLES = frozenset({"roll_dice", "zero_dice", "take_turn", "swap", "zero_strategy", "swap_strategy"})
SAID_ROLES = frozenset({"announce_highest"})
WRAPPED = {"strategy0": "strategy(0, {})", "strategy1": "strategy(1, {})", "dice": "dice({})", "say": "say({})"}


def _call_of(tree: ast.AST, function: str) -> ast.Call | None:
    return next((node for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name) and node.func.id == function), None)


def _wrapped(node: ast.expr, how: str) -> ast.expr:
    return ast.parse("_hog." + how.format(ast.unparse(node)), mode="eval").body


def game_step(source: str, play: str, params: list[str]) -> tuple[str, dict] | None:
    """``source``'s first call of ``play`` as a traced game, and the call's arguments by name as written
    (source text); None when the step calls no game or cannot be read."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    call = _call_of(tree, play)
    if call is None or any(isinstance(arg, ast.Starred) for arg in call.args) or \
            any(keyword.arg is None for keyword in call.keywords) or len(call.args) > len(params):
        return None
    written = {}
    args = []
    for name, arg in zip(params, call.args):
        written[name] = ast.unparse(arg)
        args.append(_wrapped(arg, WRAPPED[name]) if name in WRAPPED else arg)
    keywords = []
    for keyword in call.keywords:
        written[keyword.arg] = ast.unparse(keyword.value)
        value = _wrapped(keyword.value, WRAPPED[keyword.arg]) if keyword.arg in WRAPPED else keyword.value
        keywords.append(ast.keyword(keyword.arg, value))
    traced = ast.Call(ast.Name(play, ast.Load()), args, keywords)
    text = f"_hog_game(lambda _hog: {ast.unparse(traced)})"
    return text, written


def call_step(source: str, function: str) -> str | None:
    """``source`` (an expression) with every call of ``function`` in it recorded; None for a statement."""
    if compiled(source) is None or not compiled(source)[1] or function not in source:
        return None
    return f"_hog_calls({function!r}, lambda: ({source.strip()}))"


@dataclass(frozen=True)
class Traced:
    session: list[str]                          # the last step's value is the record of the call
    written: dict = field(default_factory=dict)   # a game's arguments by name, as the case wrote them


def traced_session(variant: Variant, question: Question, case: Case, step: int) -> Traced | None:
    """The session whose last step's value records the failing step's call (or, where that step calls
    nothing, as ``dice()`` after a roll, the last step before it that calls the function); None when the
    step is not one the diagnosis reads."""
    if question.role in GAME_ROLES:
        made = game_step(case.steps[step].source, question.function, Api(variant).params(question.function))
        if made is None:
            return None
        return Traced([s.source for s in case.steps[:step]] + [TRACER, made[0]], made[1])
    if question.role in SAID_ROLES:
        steps = [s.source for s in case.steps[:step]]
        failing = "try:\n" + "".join(f"    {line}\n" for line in case.steps[step].source.rstrip("\n").splitlines()) \
            + "except Exception:\n    pass\n"
        return Traced([TRACER, f"_hog_said = _hog_commentary({question.function!r})"] + steps + [failing, "_hog_said"])
    if question.role not in CALL_ROLES:
        return None
    for index in range(step, -1, -1):
        made = call_step(case.steps[index].source, question.function)
        if made:
            return Traced([s.source for s in case.steps[:index]] + [TRACER, made])
    return None


def on_reference(variant: Variant, session: list[str]):
    """The value the session's last step has on the reference (its steps' printing discarded)."""
    namespace = dict(Api(variant).names)
    value = None
    with contextlib.redirect_stdout(io.StringIO()):
        for source in session:
            known = compiled(source)
            if known is None:
                return None
            code, expression = known
            value = eval(code, namespace) if expression else exec(code, namespace)
    return value
