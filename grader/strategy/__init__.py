"""Exact strategy analysis of Hog: win probabilities, optimal strategies, reports.

Everything is exact dynamic programming over game states with the rules of the
variant's reference solution (``grader.reference``); nothing is sampled.
"""

from grader.strategy.analysis import Analysis, analyze, report
from grader.strategy.feral_solve import FeralOptimalStrategy
from grader.strategy.heatmap import heatmap_svg, strategy_heatmap
from grader.strategy.match import MatchResult, WinRate, exact_match, expected_payoff, win_rate
from grader.strategy.optimal import OptimalStrategy, solve
from grader.strategy.rules import Rules, baseline_rolls, rules_for
from grader.strategy.tables import StrategyTableError, always_roll_table, as_table, validate_table

__all__ = [
    "Analysis", "analyze", "report", "FeralOptimalStrategy", "heatmap_svg", "strategy_heatmap",
    "MatchResult", "WinRate", "exact_match", "expected_payoff", "win_rate", "OptimalStrategy",
    "solve", "baseline_rolls", "Rules", "rules_for", "StrategyTableError", "always_roll_table",
    "as_table", "validate_table",
]
