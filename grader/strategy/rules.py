"""The rules of a variant as tables the engine indexes, read from its reference solution.

The zero-dice rule and the swap predicate are the reference ``hog`` module's own
functions (``grader.reference.load``), called once for every score the engine
can meet and kept as tables; the dice distributions come from
``grader.strategy.distributions``. Feral Hogs (fa19) lives in the reference
``play`` and is described here by its two numbers.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Callable

from grader.strategy.distributions import MAX_DICE, roll_distribution

# The baseline each course graded ``final_strategy`` against: always_roll(n).

# fa19 Feral Hogs: this many extra points when the dice count is exactly
# FERAL_DISTANCE away from the same player's previous dice count.
FERAL_BONUS = 3
FERAL_DISTANCE = 2


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about one variant at one goal.

    ``zero_points[b]``: points for rolling 0 dice against opponent score ``b``.
    ``swaps[b][x]``: whether the scores swap when the player ends the turn's
    points with ``x`` and the opponent has ``b`` (``x`` runs past the goal).
    ``rolls[parity][n]``: ``(lowest points, probabilities)`` of rolling ``n``
    dice for a player whose score has that parity (the same for both parities
    unless ``parity_bonus``); index 0 is unused.
    """

    variant_id: str
    goal: int
    zero_points: tuple[int, ...]
    swaps: tuple[tuple[bool, ...], ...]
    rolls: tuple[tuple[tuple[int, tuple[float, ...]], ...], ...]
    parity_bonus: bool
    feral_hogs: bool
    max_points: int

    @property
    def has_zero_point_turns(self) -> bool:
        """Whether a turn can score nothing (then the game may never end)."""
        return 0 in self.zero_points

    @classmethod
    def build(cls, variant_id: str, goal: int, zero_dice: Callable[[int], int],
              swap: Callable[[int, int], bool], parity_bonus: bool = False,
              feral_hogs: bool = False) -> "Rules":
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
        bonus = FERAL_BONUS if feral_hogs else 0
        most_rolled = max(lo + len(probs) - 1 for table in rolls for lo, probs in table[1:])
        max_points = max(most_rolled, max(zero_points)) + bonus
        top = goal + max_points
        swaps = tuple(tuple(bool(swap(x, b)) for x in range(top)) for b in range(goal))
        return cls(variant_id, goal, zero_points, swaps, rolls, parity_bonus, feral_hogs, max_points)


def reference_module(variant_id: str):
    """The reference ``hog`` module of a variant (``grader.reference.load``)."""
    from grader import reference
    return reference.load(variant_id)


def _zero_dice_function(module) -> Callable[[int], int]:
    for name in ("free_bacon", "picky_piggy"):
        if hasattr(module, name):
            return getattr(module, name)
    raise ValueError(f"{module.__name__}: no zero-dice rule (free_bacon or picky_piggy)")


def _swap_function(module) -> Callable[[int, int], bool]:
    for name in ("is_swap", "swine_swap"):
        if hasattr(module, name):
            function = getattr(module, name)
            if len(inspect.signature(function).parameters) == 1:
                return lambda player_score, opponent_score: function(player_score)
            return function
    raise ValueError(f"{module.__name__}: no swap rule (is_swap or swine_swap)")


@functools.cache
def rules_for(variant_id: str, goal: int = 100, feral_hogs: bool = True) -> Rules:
    """The tabulated rules of a variant; ``feral_hogs=False`` turns fa19's bonus off
    (as the reference ``play(..., feral_hogs=False)`` does). Cached per arguments."""
    module = reference_module(variant_id)
    parity_bonus = "current_score" in inspect.signature(module.roll_dice).parameters
    has_feral = "feral_hogs" in inspect.signature(module.play).parameters
    return Rules.build(variant_id, goal, _zero_dice_function(module), _swap_function(module),
                       parity_bonus=parity_bonus, feral_hogs=has_feral and feral_hogs)


@functools.cache
def baseline_rolls(variant_id: str) -> int:
    """The dice count of the variant's baseline ``always_roll(n)``, from its spec (cached)."""
    from grader.spec import load_variant
    return load_variant(variant_id).baseline
