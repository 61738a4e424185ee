"""The diagnosis of a failing case of a rule function or a strategy: the first call whose result differs
from the reference's, and the rules that decide that call, with its numbers."""

from __future__ import annotations

import inspect

from grader.diagnosis.model import Diagnosis
from grader.diagnosis.steps import Rules, Said
from grader.shipped.student.game_trace import first_wrong_call
from grader.spec import Question, Variant


def _call_text(function: str, args: list) -> str:
    return f"{function}({', '.join(map(str, args))})"


def _bound(hog, function: str, args: list) -> dict:
    signature = inspect.signature(getattr(hog, function))
    bound = signature.bind_partial(*args)
    bound.apply_defaults()
    return dict(bound.arguments)


def _explained(variant: Variant, question: Question, rules: Rules, args: list, outcomes: list, value) -> Said | None:
    """The rules of one call of the question's function; None for a role the rules do not explain."""
    said, role = Said(), question.role
    named = _bound(rules.hog, question.function, args)
    if role == "zero_dice":
        rules.zero_dice(args[0], said)
    elif role == "swap":
        rules.swaps(args[0], args[1] if len(args) > 1 else 0, said)
    elif role == "roll_dice":
        rules.rolled(outcomes, named.get("current_score", 0), said)
    elif role == "take_turn":
        rules.turn_points(named["num_rolls"], outcomes, named.get("current_score", 0), named["opponent_score"], said)
    elif role in ("zero_strategy", "swap_strategy"):
        _strategy(rules, role, list(named.items()), value, said)
    else:
        return None
    return said


def _strategy(rules: Rules, role: str, named: list, value, said: Said) -> None:
    (_, score), (_, opponent), (cutoff_name, cutoff), (_, num_rolls) = named[:4]
    points = rules.zero_dice(opponent, said)
    if role == "zero_strategy":
        said.sentences.append(f"{points} is {'at least' if points >= cutoff else 'less than'} the {cutoff_name} "
                              f"{cutoff}, so the strategy rolls {value}")
        return
    new = score + points
    swapped = rules.swaps(new, opponent, said)
    after = (opponent, new) if swapped else (new, opponent)
    said.sentences.append(f"rolling 0 would take the player from {score} to {after[0]} (the opponent to {after[1]}), "
                          f"a gain of {after[0] - score} against the {cutoff_name} {cutoff}, so the strategy rolls {value}")


def diagnose(variant: Variant, question: Question, hog, want_calls, got_calls) -> Diagnosis | None:
    """The first wrong call; None when the records agree or cannot be read."""
    if not isinstance(want_calls, list) or not want_calls:
        return None
    got_calls = got_calls if isinstance(got_calls, list) else []
    index = first_wrong_call(want_calls, [list(call) for call in got_calls])
    if index is None:
        return _dice_count(variant, question, want_calls, got_calls)
    args, _, value, outcomes = want_calls[index]
    call = _call_text(question.function, args)
    said = _explained(variant, question, Rules(variant, hog), list(args), list(outcomes), value)
    if said is None:
        return None
    mine = got_calls[index] if index < len(got_calls) else None
    if mine is None:
        got = "the submission never made this call (an earlier one failed)"
    elif mine[1] == "raised":
        return Diagnosis(f"{call} raised {mine[2]}; by the rules it returns {value!r}", (), decided=False)
    else:
        got = f"the submission returns {mine[2]}"
    heading = f"{call}" + (f" with the dice showing {', '.join(map(str, outcomes))}" if outcomes else "")
    return Diagnosis(f"{heading}: {said.text}; the rules give {value!r}, {got}", tuple(said.rules))


def _dice_count(variant: Variant, question: Question, want_calls, got_calls) -> Diagnosis | None:
    """Every result agrees, but a call used the dice another number of times than the rules roll."""
    for want, got in zip(want_calls, got_calls):
        if len(want[3]) != len(got[3]):
            call = _call_text(question.function, want[0])
            return Diagnosis(f"{call} rolls {len(want[3])} dice by the rules, so it calls the dice {len(want[3])} "
                             f"time(s), every die even after a 1; the submission's called them {len(got[3])} time(s)",
                             (variant.rule("roll").name,) if 1 in want[3] and variant.rule("roll") else ())
    return None
