"""The exact strategy engine applied to a named variant.

``grader.strategy`` works on a ``Rules`` value and knows neither the reference
solution nor the spec. Here a variant's Rules are built from both: the
zero-dice rule and the swap predicate are the reference ``hog`` module's own
functions (``grader.reference.load``), so the engine follows exactly the code
``solution/<id>/hog.py`` holds; the baseline and the rules' features
(``parity_bonus``, ``dice_count_bonus``) are read from the spec. The functions
below take a variant id (or Rules) where the engine takes Rules.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable

from grader import reference
from grader.spec import load_variant
from grader.strategy import analysis, match, optimal
from grader.strategy.heatmap import heatmap_svg
from grader.strategy.rules import Rules
from grader.strategy.tables import Strategy


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
def rules_for(variant_id: str, goal: int | None = None, dice_count_bonus: bool = True) -> Rules:
    """The tabulated rules of a variant at ``goal`` (default: the spec's).

    ``dice_count_bonus=False`` turns fa19's bonus off, as the reference
    ``play(..., feral_hogs=False)`` does. Cached per arguments.
    """
    variant = load_variant(variant_id)
    module = reference.load(variant_id)
    return Rules.build(variant_id, variant.goal if goal is None else goal, _zero_dice_function(module),
                       _swap_function(module), baseline=variant.baseline,
                       parity_bonus="parity_bonus" in variant.features,
                       dice_count_bonus=dice_count_bonus and "dice_count_bonus" in variant.features)


def _rules(variant: str | Rules, goal: int | None) -> Rules:
    return variant if isinstance(variant, Rules) else rules_for(variant, goal)


def win_rate(variant: str | Rules, strategy: Strategy, baseline: Strategy | None = None,
             goal: int | None = None) -> match.WinRate:
    """Exact win rate of ``strategy`` against ``baseline`` (default: the spec's always_roll)."""
    return match.win_rate(_rules(variant, goal), strategy, baseline)


def exact_match(variant: str | Rules, first: Strategy, second: Strategy, goal: int | None = None,
                score0: int = 0, score1: int = 0) -> match.MatchResult:
    """Exact probabilities of a game between ``first`` (moving first) and ``second``."""
    return match.exact_match(_rules(variant, goal), first, second, score0, score1)


def solve(variant: str | Rules, goal: int | None = None) -> optimal.OptimalStrategy:
    """The optimal strategy of a variant at ``goal``."""
    return optimal.solve(_rules(variant, goal))


def analyze(variant_id: str, goal: int | None = None, baseline: int | None = None) -> analysis.Analysis:
    """The exact figures of ``hog analyze``."""
    return analysis.analyze(rules_for(variant_id, goal), baseline)


def strategy_heatmap(variant_id: str, goal: int | None = None) -> str:
    """SVG heatmap of the variant's optimal strategy (fa19: its (score, opponent_score) table)."""
    rules = rules_for(variant_id, goal)
    strategy = optimal.solve(rules)
    note = " (most probable full-state choice)" if hasattr(strategy, "full_table") else ""
    return heatmap_svg(strategy.table, f"Optimal strategy, Hog {variant_id}, goal {rules.goal}{note}")
