"""How a rule's explanation is written: the words of a spec's ``explain:``, with the numbers of one call.

A rule of a spec says which step of a turn it decides (``applies``: ``roll``, ``zero_dice``, ``bonus`` or
``swap``) and may give ``explain``, a sentence with fields in braces, e.g. for sp19's Free Bacon::

    the opponent has {opponent}; the smaller of {tens} and {ones} is {smaller}, so rolling zero dice
    scores {points}

Each step has its own fields (``FIELDS``), computed here from the call's numbers alone: the handout's
example of the rule and every diagnosis of a failing case render the same text, so the words are
written once. A rule without ``explain`` is explained by its step's ``DEFAULT`` sentence.
"""

from __future__ import annotations

import math
import string
from typing import Callable

APPLIES = ("roll", "zero_dice", "bonus", "swap")
"""The step of a turn a rule decides: what the dice scored, what rolling zero dice scored, a bonus of
the turn, and whether the scores trade places."""

PLACES = ("ones", "tens", "hundreds", "thousands")


def _digits(score: int) -> tuple[int, int]:
    return score // 10 % 10, score % 10


def _first(score: int) -> int:
    while score >= 10:
        score //= 10
    return score


def _shared(player: int, opponent: int) -> str:
    place = 0
    while player > 0 and opponent > 0:
        if player % 10 == opponent % 10:
            return f"the {player % 10} in the {PLACES[min(place, 3)]} place"
        player, opponent, place = player // 10, opponent // 10, place + 1
    return "no digit in the same place"


def _zero(opponent: int, points: int) -> dict:
    tens, ones = _digits(opponent)
    return {"opponent": opponent, "points": points, "tens": tens, "ones": ones, "smaller": min(tens, ones),
            "larger": max(tens, ones), "distance": abs(tens - ones), "twice_tens_minus_ones": 2 * tens - ones,
            "position": (opponent - 1) % 6 + 1 if opponent else 0}


def _swap(player: int, opponent: int, swaps: bool) -> dict:
    fields = {"player": player, "opponent": opponent, "verdict": "the scores swap" if swaps else
              "the scores do not swap", "shared": _shared(player, opponent), "total": player + opponent,
              "root": math.isqrt(max(player, 0)), "square": "a perfect square" if math.isqrt(max(player, 0)) ** 2
              == player else "not a perfect square"}
    for who, score in (("player", player), ("opponent", opponent)):
        tens, ones = _digits(score)
        fields[f"{who}_distance"] = abs(tens - ones)
        fields[f"{who}_first"], fields[f"{who}_last"] = _first(score), score % 10
        fields[f"{who}_product"] = _first(score) * (score % 10)
    power = str(3 ** min(player + opponent, 4000))
    fields["power_first"], fields["power_last"] = power[0], power[-1]
    return fields


def _roll(outcomes: list[int], points: int) -> dict:
    return {"outcomes": ", ".join(map(str, outcomes)), "count": len(outcomes), "sum": sum(outcomes),
            "points": points, "one_among": "a 1 among them" if 1 in outcomes else "no 1 among them"}


def _bonus(score: int, outcomes: list[int], rolled: int, previous: int, points: int) -> dict:
    parity = score % 2
    return {"score": score, "parity": "odd" if parity else "even", "points": points,
            "matching": sum(1 for outcome in outcomes if outcome % 2 == parity), "rolled": rolled,
            "previous": previous, "difference": abs(rolled - previous)}


FIELDS: dict[str, Callable[..., dict]] = {"roll": _roll, "zero_dice": _zero, "bonus": _bonus, "swap": _swap}
"""Step → what its fields are computed from (the call's numbers and what the rule gave)."""

SAMPLE = {"roll": ([4, 6], 10), "zero_dice": (39, 4), "bonus": (21, [1, 3, 6], 3, 1, 2), "swap": (43, 83, True)}
"""Numbers every explanation is checked on when a spec is read (a field that does not exist fails there)."""

DEFAULT = {
    "roll": "the dice show {outcomes}, so the turn scores {points}",
    "zero_dice": "the opponent has {opponent}, so rolling zero dice scores {points}",
    "bonus": "the turn earns {points} extra point(s)",
    "swap": "after the turn the scores are {player} and {opponent}, so {verdict}",
}


def fields_of(applies: str, *numbers) -> dict:
    return FIELDS[applies](*numbers)


def render(applies: str, explain: str, *numbers) -> str:
    """The explanation with the numbers of one call (the step's ``DEFAULT`` where ``explain`` is empty)."""
    return (explain or DEFAULT[applies]).format(**fields_of(applies, *numbers))


def unknown_field(applies: str, explain: str) -> str | None:
    """The first field of ``explain`` its step does not have, or None."""
    known = fields_of(applies, *SAMPLE[applies])
    for _, name, _, _ in string.Formatter().parse(explain):
        if name is not None and name not in known:
            return name or "{}"
    return None
