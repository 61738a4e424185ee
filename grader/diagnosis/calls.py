"""The diagnosis of a failing case of a rule function or a strategy: each call the reference made explained
by the rules, and the first call whose result differs (``game_trace.calls_diagnosis``, which a student
folder's pytest runs too, on the same explanations)."""

from __future__ import annotations

import inspect

from grader.diagnosis.model import Diagnosis
from grader.diagnosis.steps import Rules, Said
from grader.spec import Question, Variant
from grader.shipped.student.game_trace import calls_diagnosis, first_wrong_call


def _call_text(function: str, args: list, named: list) -> str:
    return f"{function}({', '.join([str(arg) for arg in args] + [f'{key}={value}' for key, value in named])})"


def _bound(hog, function: str, args: list, named: list) -> dict:
    bound = inspect.signature(getattr(hog, function)).bind_partial(*args, **dict(named))
    bound.apply_defaults()
    return dict(bound.arguments)


def _said(question: Question, rules: Rules, args: list, keywords: list, outcomes: list, value) -> Said | None:
    """The rules of one call of the question's function; None for a role the rules do not explain."""
    said, role = Said(), question.role
    named = _bound(rules.hog, question.function, args, keywords)
    args = list(named.values())
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
    after = (opponent, new) if rules.swaps(new, opponent, said) else (new, opponent)
    said.sentences.append(f"rolling 0 would take the player from {score} to {after[0]} (the opponent to {after[1]}), "
                          f"a gain of {after[0] - score} against the {cutoff_name} {cutoff}, so the strategy rolls {value}")


def explained_calls(variant: Variant, question: Question, hog, want_calls, only: int | None = None) -> list[dict | None]:
    """Each call the reference made, as the rules explain it (``call``, ``text``, ``rules``; None for a call
    that did not return); with ``only``, that call alone (the others None)."""
    rules, explained = Rules(variant, hog), []
    for index, (args, how, value, outcomes, keywords) in enumerate(want_calls):
        if only is not None and index != only:
            explained.append(None)
            continue
        said = _said(question, rules, list(args), list(keywords), list(outcomes), value) if how == "value" else None
        call = _call_text(question.function, list(args), list(keywords))
        heading = call + (f" with the dice showing {', '.join(map(str, outcomes))}" if outcomes else "")
        explained.append(None if said is None else {"call": call, "text": f"{heading}: {said.text}",
                                                    "rules": said.rules})
    return explained


def diagnose(variant: Variant, question: Question, hog, want_calls, got_calls) -> Diagnosis | None:
    """The first wrong call; None when the records agree or cannot be read."""
    if not isinstance(want_calls, list) or not want_calls:
        return None
    got = got_calls if isinstance(got_calls, list) else []
    index = first_wrong_call(want_calls, got)
    found = calls_diagnosis(explained_calls(variant, question, hog, want_calls, index), want_calls, got,
                            question.function)
    return None if found is None else Diagnosis.of(found)
