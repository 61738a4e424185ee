"""Exact distributions of the points of a turn that rolls dice.

Pig Out: any 1 makes the turn score 1; otherwise the turn scores the sum of the
outcomes. nju21's Feral Hogs adds one point per die whose outcome has the
parity of the player's score before the turn, Pig Out or not. Counts are exact
integers out of 6**n; the probabilities are those integers divided by 6**n.
``parity`` is the parity (0 or 1) of the player's score for that bonus, or
``None`` for the variants without it.
"""

from __future__ import annotations

from math import comb

MAX_DICE = 10
SIDES = 6


def die_points(parity: int | None = None) -> list[int]:
    """The points each face 2..6 adds to a turn without a 1."""
    return [face + (parity is not None and face % 2 == parity) for face in range(2, SIDES + 1)]


def _check(num_rolls: int) -> None:
    if not 1 <= num_rolls <= MAX_DICE:
        raise ValueError(f"num_rolls must be 1..{MAX_DICE}, got {num_rolls}")


def no_one_counts(num_rolls: int, parity: int | None = None) -> dict[int, int]:
    """Points → number of outcomes without a 1 that score them."""
    _check(num_rolls)
    counts: dict[int, int] = {0: 1}
    for _ in range(num_rolls):
        step: dict[int, int] = {}
        for total, count in counts.items():
            for points in die_points(parity):
                step[total + points] = step.get(total + points, 0) + count
        counts = step
    return counts


def pig_out_counts(num_rolls: int, parity: int | None = None) -> dict[int, int]:
    """Points → number of outcomes with at least one 1 (Pig Out) that score them."""
    _check(num_rolls)
    if parity is None:
        return {1: SIDES ** num_rolls - (SIDES - 1) ** num_rolls}
    # 1 point plus one per die of the player's parity. Faces 1..6 have three of
    # each parity; faces 2..6 have three even (2, 4, 6) and two odd (3, 5).
    same_without_one = 3 if parity == 0 else 2
    counts = {}
    for same in range(num_rolls + 1):
        other = num_rolls - same
        ways = comb(num_rolls, same)
        with_one = ways * (3 ** same * 3 ** other
                           - same_without_one ** same * (5 - same_without_one) ** other)
        if with_one:
            counts[1 + same] = with_one
    return counts


def roll_counts(num_rolls: int, parity: int | None = None) -> dict[int, int]:
    """Points → number of the 6**num_rolls equally likely outcomes that score them."""
    counts = no_one_counts(num_rolls, parity)
    for points, count in pig_out_counts(num_rolls, parity).items():
        counts[points] = counts.get(points, 0) + count
    return counts


def roll_distribution(num_rolls: int, parity: int | None = None) -> tuple[int, tuple[float, ...]]:
    """``(lo, probs)``: ``probs[i]`` is the probability of scoring ``lo + i`` points."""
    counts = roll_counts(num_rolls, parity)
    lo, hi = min(counts), max(counts)
    total = SIDES ** num_rolls
    return lo, tuple(counts.get(points, 0) / total for points in range(lo, hi + 1))
