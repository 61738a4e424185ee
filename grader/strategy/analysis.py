"""One variant's strategy analysis: the optimal strategy and exact win rates, as data and text."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

from grader.strategy.distributions import MAX_DICE
from grader.strategy.match import FIRST_WINS, NEVER_ENDS, can_loop, expected_payoff, win_rate
from grader.strategy.optimal import solve
from grader.strategy.rules import Rules
from grader.strategy.tables import always_roll_table


@dataclass(frozen=True)
class Analysis:
    """Exact figures for one variant at one goal.

    ``optimal_first_player_win_rate``: both play the optimal strategy, the first
    player's chance of winning, a never-ending game counted as half a win.
    ``never_ending_probability``: the chance that this optimal game never ends
    (``None`` for variants where every turn scores).
    ``always_roll_win_rates[i][j]``: the chance that always_roll(i), moving
    first, beats always_roll(j); ``always_roll_never_ending`` the same layout for
    games that never end (``None`` where impossible).
    ``optimal_vs_baseline``: the optimal strategy's win rate against
    always_roll(baseline_rolls), averaged over going first and second;
    ``optimal_vs_baseline_by_seat`` the same going first, going second and on
    average. For fa19 the optimal strategy plays
    with the previous dice counts; ``projected_vs_baseline`` is the same for its
    (score, opponent_score) table and ``projected_vs_optimal`` that table against
    the full-state optimum (both ``None`` for the other variants).
    ``solve_seconds``: time of the optimal solve; ``seconds``: the whole analysis.
    """

    variant_id: str
    goal: int
    baseline_rolls: int
    optimal_first_player_win_rate: float
    never_ending_probability: float | None
    always_roll_win_rates: list[list[float]]
    always_roll_never_ending: list[list[float]] | None
    optimal_vs_baseline: float
    optimal_vs_baseline_by_seat: dict
    projected_vs_baseline: dict | None
    projected_vs_optimal: dict | None
    optimal_table: list[list[int]]
    solve_seconds: float
    seconds: float

    def to_json(self, include_table: bool = False) -> str:
        data = asdict(self)
        if not include_table:
            data.pop("optimal_table")
        return json.dumps(data, indent=2)


def analyze(rules: Rules, baseline: int | None = None) -> Analysis:
    """Solve the variant of ``rules`` and compute its exact figures.

    ``baseline`` is the baseline's dice count (default: the variant's, ``rules.baseline``).
    """
    started = time.perf_counter()
    variant_id, goal = rules.variant_id, rules.goal
    rolls = rules.baseline if baseline is None else baseline
    optimal = solve(rules)
    baseline_table = always_roll_table(rolls, goal)
    never = None
    if rules.has_zero_point_turns:
        never = expected_payoff(rules, optimal.table, optimal.table, NEVER_ENDS)
    tables = [always_roll_table(n, goal) for n in range(MAX_DICE + 1)]
    rates, loops = [], []
    for first in tables:
        rates.append([expected_payoff(rules, first, second, FIRST_WINS) for second in tables])
        loops.append([expected_payoff(rules, first, second, NEVER_ENDS)
                      if can_loop(rules, first, second) else 0.0 for second in tables])
    projected = projected_vs_optimal = None
    if rules.dice_count_bonus:
        projected = win_rate(rules, optimal.table, baseline_table).to_dict()
        projected_vs_optimal = win_rate(rules, optimal.table, optimal).to_dict()
    against_baseline = win_rate(rules, optimal, baseline_table).to_dict()
    return Analysis(
        variant_id=variant_id, goal=goal, baseline_rolls=rolls,
        optimal_first_player_win_rate=optimal.first_player_value,
        never_ending_probability=never,
        always_roll_win_rates=rates,
        always_roll_never_ending=loops if rules.has_zero_point_turns else None,
        optimal_vs_baseline=against_baseline["average"],
        optimal_vs_baseline_by_seat=against_baseline,
        projected_vs_baseline=projected,
        projected_vs_optimal=projected_vs_optimal,
        optimal_table=optimal.table,
        solve_seconds=optimal.solve_seconds,
        seconds=time.perf_counter() - started)


def report(analysis: Analysis) -> str:
    """The analysis as text for a terminal or a course page."""
    a = analysis
    lines = [f"Hog {a.variant_id}, goal {a.goal}",
             f"  optimal vs optimal, first player wins: {a.optimal_first_player_win_rate:.6f}"
             + (" (a never-ending game counts half)" if a.never_ending_probability is not None else "")]
    if a.never_ending_probability is not None:
        lines.append(f"  optimal vs optimal, game never ends: {a.never_ending_probability:.3g}")
    vs = a.optimal_vs_baseline_by_seat
    lines.append(f"  optimal vs always_roll({a.baseline_rolls}): {vs['average']:.6f} "
                 f"(first {vs['as_first']:.6f}, second {vs['as_second']:.6f})")
    if a.projected_vs_baseline is not None:
        pv = a.projected_vs_baseline
        lines.append(f"  its (score, opponent_score) table vs always_roll({a.baseline_rolls}): "
                     f"{pv['average']:.6f} (first {pv['as_first']:.6f}, second {pv['as_second']:.6f})")
        lines.append(f"  its (score, opponent_score) table vs the full-state optimum: "
                     f"{a.projected_vs_optimal['average']:.6f}")
    best = max(range(MAX_DICE + 1), key=lambda n: _average(a, n))
    lines.append(f"  best always_roll against always_roll({a.baseline_rolls}): always_roll({best}) "
                 f"{_average(a, best):.6f}")
    lines.append("  always_roll(i) first vs always_roll(j), chance the first wins:")
    lines.append("      j=" + "".join(f"{j:>7}" for j in range(MAX_DICE + 1)))
    for i, row in enumerate(a.always_roll_win_rates):
        lines.append(f"  i={i:>2}  " + "".join(f"{rate:7.3f}" for rate in row))
    lines.append(f"  solve {a.solve_seconds * 1000:.0f} ms, analysis {a.seconds:.1f} s")
    return "\n".join(lines)


def _average(a: Analysis, n: int) -> float:
    """always_roll(n)'s average win rate against the baseline (never-ending games count half)."""
    rates, base = a.always_roll_win_rates, a.baseline_rolls
    loops = a.always_roll_never_ending or [[0.0] * len(rates)] * len(rates)
    first = rates[n][base] + loops[n][base] / 2
    second = 1.0 - rates[base][n] - loops[base][n] / 2
    return (first + second) / 2
