"""Exact strategy analysis of Hog: win probabilities, optimal strategies, reports.

Everything is exact dynamic programming over game states with a variant's rules
given as a ``Rules`` value; nothing is sampled. The engine knows neither the
reference solution nor the spec: ``grader.engine`` builds the Rules of a named
variant from both.
"""

from grader.strategy.analysis import Analysis, analyze, report
from grader.strategy.dice_count_solve import DiceCountOptimalStrategy
from grader.strategy.heatmap import heatmap_svg
from grader.strategy.match import MatchResult, WinRate, exact_match, expected_payoff, win_rate
from grader.strategy.optimal import OptimalStrategy, solve
from grader.strategy.rules import Rules
from grader.strategy.tables import StrategyTableError, always_roll_table, as_table, validate_table

__all__ = [
    "Analysis", "analyze", "report", "DiceCountOptimalStrategy", "heatmap_svg",
    "MatchResult", "WinRate", "exact_match", "expected_payoff", "win_rate", "OptimalStrategy",
    "solve", "Rules", "StrategyTableError", "always_roll_table", "as_table", "validate_table",
]
