"""The diagnosis of a failing game (play, Feral Hogs, commentary): each turn of the rules' game explained by
the rules, and the first turn where the submission's game leaves it (``game_trace.game_diagnosis``, which
a student folder's pytest runs too, on the same explanations)."""

from __future__ import annotations

from grader.diagnosis.model import Diagnosis
from grader.diagnosis.steps import Rules, Said
from grader.shipped.student.game_trace import game_diagnosis, turns
from grader.spec import Variant


def _scores(pair) -> str:
    return f"{pair[0]} and {pair[1]}" if isinstance(pair, list) and len(pair) == 2 else str(pair)


def explain_turn(rules: Rules, turn: dict, previous: list[int], feral: bool) -> tuple[Said, list[int] | None]:
    """What the rules give on a turn of the rules' game, and the scores after it (None where the turn's
    record is not one the rules can have played)."""
    said = Said()
    who, rolled, outcomes = turn["player"], turn["rolled"], turn["outcomes"]
    score, opponent = turn["before"][who], turn["before"][1 - who]
    if type(rolled) is not int or any(type(outcome) is not int for outcome in outcomes):
        return said, None
    points = rules.turn_points(rolled, outcomes, score, opponent, said)
    if feral:
        points += rules.feral(rolled, previous[who], said)
    new = score + points
    if rules.swaps(new, opponent, said):
        new, opponent = opponent, new
    return said, ([new, opponent] if who == 0 else [opponent, new])


def explained_turns(variant: Variant, hog, written: dict, want_events) -> list[dict]:
    """Each turn of the rules' game as the rules explain it (``text``, ``rules``), up to the first turn whose
    explanation does not give the scores the rules' game reached (none is ever shown wrong)."""
    rules = Rules(variant, hog)
    feral = rules.dice_count and written.get("feral_hogs", "True") not in ("False", "0")
    previous, explained = [0, 0], []
    for number, turn in enumerate(turns(want_events)[0], start=1):
        said, after = explain_turn(rules, turn, previous, feral)
        if after != turn["after"]:
            break
        previous[turn["player"]] = turn["rolled"]
        head = (f"turn {number}: player {turn['player']} moves with the scores at {_scores(turn['before'])} and "
                f"rolls {turn['rolled']} dice" + (f" ({', '.join(map(str, turn['outcomes']))})"
                                                  if turn["outcomes"] else ""))
        explained.append({"text": "; ".join([head] + said.sentences), "rules": said.rules})
    return explained


def diagnose(variant: Variant, hog, written: dict, want_events, got_events) -> Diagnosis | None:
    """The first wrong turn; None when the two records agree or the rules' turn cannot be explained."""
    found = game_diagnosis(explained_turns(variant, hog, written, want_events), want_events, got_events,
                           written.get("goal", variant.goal))
    return None if found is None else Diagnosis.of(found)
