"""The rules of a variant as tables the engine indexes.

``Rules.build`` calls a zero-dice rule and a swap predicate once for every score
the engine can meet and keeps the results as tables; the dice distributions come
from ``grader.strategy.distributions``. fa19's dice-count bonus (its Feral Hogs)
is described here by its two numbers. ``grader.reference.engine`` builds a variant's Rules
from its reference solution and its spec; the engine itself knows neither.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from grader.strategy.distributions import MAX_DICE, roll_distribution

# fa19's dice-count bonus (the seed's "Feral Hogs"): this many extra points when the
# dice count is exactly DICE_COUNT_DISTANCE away from the same player's previous count.
DICE_COUNT_BONUS = 3
DICE_COUNT_DISTANCE = 2
COUNTS = MAX_DICE + 1


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about one variant at one goal.

    ``zero_points[b]``: points for rolling 0 dice against opponent score ``b``.
    ``swaps[b][x]``: whether the scores swap when the player ends the turn's
    points with ``x`` and the opponent has ``b`` (``x`` runs past the goal).
    ``rolls[parity][n]``: ``(lowest points, probabilities)`` of rolling ``n``
    dice for a player whose score has that parity (the same for both parities
    unless ``parity_bonus``); index 0 is unused.
    ``baseline``: the dice count of the baseline ``always_roll(n)`` that
    ``final_strategy`` is graded against.
    """

    variant_id: str
    goal: int
    zero_points: tuple[int, ...]
    swaps: tuple[tuple[bool, ...], ...]
    rolls: tuple[tuple[tuple[int, tuple[float, ...]], ...], ...]
    parity_bonus: bool
    dice_count_bonus: bool
    max_points: int
    baseline: int

    @property
    def has_zero_point_turns(self) -> bool:
        """Whether a turn can score nothing (then the game may never end)."""
        return 0 in self.zero_points

    @classmethod
    def build(cls, variant_id: str, goal: int, zero_dice: Callable[[int], int],
              swap: Callable[[int, int], bool], *, baseline: int = 4, parity_bonus: bool = False,
              dice_count_bonus: bool = False) -> "Rules":
        """Tabulate ``zero_dice(opponent_score)`` and ``swap(player_score, opponent_score)``."""
        if not isinstance(goal, int) or goal < 1:
            raise ValueError(f"goal must be a positive int, got {goal!r}")
        zero_points = tuple(int(zero_dice(b)) for b in range(goal))
        if min(zero_points) < 0:
            raise ValueError(f"{variant_id}: the zero-dice rule gave negative points")
        rolls = tuple(
            ((0, (1.0,)),) + tuple(roll_distribution(n, parity if parity_bonus else None)
                                   for n in range(1, MAX_DICE + 1))
            for parity in (0, 1))
        bonus = DICE_COUNT_BONUS if dice_count_bonus else 0
        most_rolled = max(lo + len(probs) - 1 for table in rolls for lo, probs in table[1:])
        max_points = max(most_rolled, max(zero_points)) + bonus
        top = goal + max_points
        swaps = tuple(tuple(bool(swap(x, b)) for x in range(top)) for b in range(goal))
        return cls(variant_id, goal, zero_points, swaps, rolls, parity_bonus, dice_count_bonus, max_points,
                   baseline)


@functools.lru_cache(maxsize=32)
def roll_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, probs)``: ``lo[parity, n]`` the lowest points of rolling ``n`` dice and
    ``probs[parity, n, k]`` the probability of ``lo + k`` points (zero-padded);
    ``n = 0`` is a single outcome at offset 0 (its points are the zero-dice rule's)."""
    width = max(len(probs) for table in rules.rolls for _, probs in table)
    lo = np.zeros((2, COUNTS), dtype=np.intp)
    probs = np.zeros((2, COUNTS, width))
    for parity in (0, 1):
        probs[parity, 0, 0] = 1.0
        for n in range(1, COUNTS):
            low, distribution = rules.rolls[parity][n]
            lo[parity, n] = low
            probs[parity, n, :len(distribution)] = distribution
    lo.flags.writeable = probs.flags.writeable = False
    return lo, probs
