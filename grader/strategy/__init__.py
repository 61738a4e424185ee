"""Exact strategy analysis of Hog: win probabilities, optimal strategies, reports.

Everything is exact dynamic programming over game states with a variant's rules
given as a ``Rules`` value; nothing is sampled. The engine knows neither the
reference solution nor the spec: ``grader.reference.engine`` builds the Rules of a named
variant from both.
"""

import importlib

# Each public name and the module that holds it, imported when first used: a caller that only
# checks a table (grader.strategy.tables) does not load NumPy.
_HOMES = {
    "Analysis": "analysis", "analyze": "analysis", "report": "analysis",
    "DiceCountOptimalStrategy": "dice_count_solve", "heatmap_svg": "heatmap",
    "MatchResult": "match", "WinRate": "match", "exact_match": "match", "expected_payoff": "match",
    "win_rate": "match", "OptimalStrategy": "optimal", "solve": "optimal", "Rules": "rules",
    "StrategyTableError": "tables", "always_roll_table": "tables", "as_table": "tables",
    "validate_table": "tables",
}
__all__ = list(_HOMES)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
