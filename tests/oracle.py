"""An independent reading of each seed's rules, written apart from the solution.

The property tests compare the reference solution with these functions on many
inputs. The code is deliberately different from the solution's (strings where
the solution uses arithmetic, explicit turn records where it uses a loop), so a
mistake in one is unlikely to be repeated in the other.
"""

from __future__ import annotations

from fractions import Fraction


def digits_by_place(score: int) -> dict[int, str]:
    """Place value (0 = ones) → digit, for the digits a number really has."""
    if score == 0:
        return {}
    return {place: digit for place, digit in enumerate(reversed(str(score)))}


def tens_ones(score: int) -> tuple[int, int]:
    text = f"{score:02d}"
    return int(text[-2]), int(text[-1])


# Zero-dice rules: the opponent's score → points.
def sp19_zero(opponent: int) -> int:
    tens, ones = tens_ones(opponent)
    return 1 + min(tens, ones)


def fa19_zero(opponent: int) -> int:
    tens, ones = tens_ones(opponent)
    return 10 - min(tens, ones)


def fa18_zero(opponent: int) -> int:
    tens, ones = tens_ones(opponent)
    return max(2 * tens - ones, 1)


def nju24_zero(opponent: int) -> int:
    tens, ones = tens_ones(opponent)
    return 2 * abs(tens - ones) + 1


def nju21_zero(opponent: int) -> int:
    if opponent == 0:
        return 1
    expansion = Fraction(1, 21)
    digit = 0
    for _ in range(opponent):
        expansion *= 10
        digit = int(expansion)
        expansion -= digit
    return digit


# Swap predicates: (current player's score after the turn, opponent's score) → swap?
def sp19_swap(current: int, opponent: int) -> bool:
    mine, theirs = digits_by_place(current), digits_by_place(opponent)
    return any(theirs.get(place) == digit for place, digit in mine.items())


def fa19_swap(current: int, opponent: int) -> bool:
    def product(score):
        text = str(score)
        return int(text[0]) * int(text[-1])
    return product(current) == product(opponent)


def fa18_swap(current: int, opponent: int) -> bool:
    def difference(score):
        tens, ones = tens_ones(score)
        return abs(tens - ones)
    return difference(current) == difference(opponent)


def nju24_swap(current: int, opponent: int) -> bool:
    return any(root * root == current for root in range(current + 1))


def nju21_swap(current: int, opponent: int) -> bool:
    text = str(3 ** (current + opponent))
    return text[0] == text[-1]


RULES = {
    "sp19": (sp19_zero, sp19_swap),
    "fa19": (fa19_zero, fa19_swap),
    "fa18": (fa18_zero, fa18_swap),
    "nju24": (nju24_zero, nju24_swap),
    "nju21": (nju21_zero, nju21_swap),
}


def turn_points(variant: str, num_rolls: int, score: int, opponent: int, outcomes: list[int]) -> int:
    """Points of one turn, given the outcomes the dice show (len == num_rolls)."""
    zero, _ = RULES[variant]
    if num_rolls == 0:
        return zero(opponent)
    points = 1 if 1 in outcomes else sum(outcomes)
    if variant == "nju21":
        points += sum(1 for outcome in outcomes if outcome % 2 == score % 2)
    return points


def play(variant: str, strategies, outcomes, score0=0, score1=0, goal=100, feral_hogs=True):
    """Play a game with dice that show ``outcomes`` in a cycle.

    Returns the final scores and the list of scores after every turn.
    """
    _, swap = RULES[variant]
    position = 0
    scores = [score0, score1]
    previous = [0, 0]
    history = []
    player = 0
    while scores[0] < goal and scores[1] < goal:
        other = 1 - player
        num_rolls = strategies[player](scores[player], scores[other])
        rolled = [outcomes[(position + k) % len(outcomes)] for k in range(num_rolls)]
        position += num_rolls
        gained = turn_points(variant, num_rolls, scores[player], scores[other], rolled)
        if variant == "fa19" and feral_hogs and abs(num_rolls - previous[player]) == 2:
            gained += 3
        previous[player] = num_rolls
        scores[player] += gained
        if swap(scores[player], scores[other]):
            scores[player], scores[other] = scores[other], scores[player]
        history.append(tuple(scores))
        player = other
    return tuple(scores), history
