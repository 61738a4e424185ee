"""Exact balance checks of a composed variant, before it is accepted.

All figures come from the strategy engine with the rules tabulated from the
catalogue's functions (the same code the reference ``hog.py`` holds):

* every game ends: each turn scores at least one point (else the chance that
  optimal play never ends must be 0);
* fairness: the optimal first player's win rate lies in a band;
* each rule matters: the share of score pairs where the optimal dice count
  changes when the rule is turned off (zero dice scoring a constant, the mean
  of the rule; no swap at all);
* ``always_roll`` is not degenerate: always_roll(baseline) against itself is
  not one-sided, and no always_roll(n) comes close to optimal play;
* the final-strategy thresholds sit above every always_roll(n) and below optimal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.strategy.distributions import MAX_DICE
from grader.strategy.match import FIRST_WINS, NEVER_ENDS, expected_payoff, win_rate
from grader.strategy.optimal import solve
from grader.strategy.rules import Rules
from grader.strategy.tables import always_roll_table


@dataclass(frozen=True)
class Limits:
    """What a balanced variant must satisfy (``hog mint --band`` sets the first two)."""
    band: tuple[float, float] = (0.45, 0.55)
    rule_share: float = 0.05        # each rule changes the optimal choice in at least this share of states
    mirror: tuple[float, float] = (0.35, 0.65)   # always_roll(baseline) vs itself, first player
    margin: float = 0.05            # optimal beats every always_roll(n) against the baseline by this much
    trivial: float = 0.62           # no always_roll(n) wins more than this against the baseline (historic: 0.53-0.55)


@dataclass(frozen=True)
class Balance:
    """The exact figures of one composition and the checks it failed (none: accepted)."""
    first_player: float
    never_ends: float
    zero_share: float
    swap_share: float
    mirror: float
    always_roll_best: tuple[int, float]     # best always_roll(n) against the baseline: n, average win rate
    optimal_vs_baseline: float
    thresholds: tuple[float, ...]
    failures: tuple[str, ...] = field(default=())
    final_table: tuple[tuple[int, ...], ...] = field(default=(), repr=False)

    @property
    def accepted(self) -> bool:
        return not self.failures

    def lines(self) -> list[str]:
        n, best = self.always_roll_best
        ends = "yes" if self.never_ends == 0 else f"no (optimal play never ends with chance {self.never_ends:.3g})"
        return [
            f"  every game ends: {ends}",
            f"  optimal first player wins: {self.first_player:.4f}",
            f"  zero-dice rule changes the optimal choice in {self.zero_share:.1%} of score pairs; "
            f"swap rule in {self.swap_share:.1%}",
            f"  always_roll(baseline) vs itself, first player wins: {self.mirror:.4f}",
            f"  against the baseline: optimal {self.optimal_vs_baseline:.4f}, best always_roll({n}) {best:.4f}",
            "  final-strategy thresholds: " + (", ".join(f"{t:.2f}" for t in self.thresholds) or "none fit"),
        ]


def rules_of(name: str, goal: int, zero, swap, feral_hogs: bool) -> Rules:
    return Rules.build(name, goal, zero, swap, dice_count_bonus=feral_hogs)


def _share(a: list[list[int]], b: list[list[int]]) -> float:
    goal = len(a)
    return sum(a[i][j] != b[i][j] for i in range(goal) for j in range(goal)) / goal ** 2


def thresholds_between(low: float, high: float) -> tuple[float, ...]:
    """Three rising win rates (two decimals) strictly above ``low`` and at most ``high``: the
    lowest just beats every always_roll(n), the highest is half-way to optimal play (sp19 used
    0.55, 0.60, 0.65 where these give 0.55, 0.60, 0.65 too)."""
    first, last = int(low * 100) / 100 + 0.01, int(high * 100) / 100
    if last - first < 0.02 - 1e-9:
        return ()
    middle = round((first + last) / 2, 2)
    return tuple(round(t, 2) for t in (first, middle, last)) if first < middle < last else ()


def check(name: str, goal: int, baseline: int, zero, swap, feral_hogs: bool = False,
          limits: Limits = Limits()) -> Balance:
    """Solve the composition exactly and check it against ``limits``."""
    rules = rules_of(name, goal, zero, swap, feral_hogs)
    optimal = solve(rules)
    failures = []
    never = 0.0
    if rules.has_zero_point_turns:
        never = expected_payoff(rules, optimal.table, optimal.table, NEVER_ENDS)
        if never > 0:
            failures.append(f"optimal play never ends with chance {never:.3g} (choose a zero-dice rule that "
                            "always scores)")
    first = optimal.first_player_value
    if not limits.band[0] <= first <= limits.band[1]:
        failures.append(f"the optimal first player wins {first:.4f}, outside {limits.band[0]:.2f}-{limits.band[1]:.2f}")
    mean = max(1, round(sum(rules.zero_points) / goal))
    no_zero = solve(rules_of(name, goal, lambda score: mean, swap, feral_hogs)).table
    no_swap = solve(rules_of(name, goal, zero, lambda a, b: False, feral_hogs)).table
    table = [list(row) for row in optimal.table]
    zero_share, swap_share = _share(table, no_zero), _share(table, no_swap)
    for what, share in (("zero-dice", zero_share), ("swap", swap_share)):
        if share < limits.rule_share:
            failures.append(f"the {what} rule changes the optimal choice in only {share:.1%} of score pairs "
                            f"(at least {limits.rule_share:.0%} wanted)")
    base = always_roll_table(baseline, goal)
    mirror = expected_payoff(rules, base, base, FIRST_WINS) if not feral_hogs else \
        win_rate(rules, base, base).as_first
    if not limits.mirror[0] <= mirror <= limits.mirror[1]:
        failures.append(f"always_roll({baseline}) against itself: the first player wins {mirror:.4f}, outside "
                        f"{limits.mirror[0]:.2f}-{limits.mirror[1]:.2f}")
    rates = [(n, win_rate(rules, always_roll_table(n, goal), base).average) for n in range(MAX_DICE + 1)]
    best = max(rates, key=lambda pair: pair[1])
    against = win_rate(rules, table, base).average   # the (score, opponent_score) table final_strategy rolls
    if against - best[1] < limits.margin:
        failures.append(f"always_roll({best[0]}) wins {best[1]:.4f} against the baseline, within "
                        f"{limits.margin:.2f} of optimal play ({against:.4f}): a trivial strategy nearly suffices")
    if best[1] > limits.trivial:
        failures.append(f"always_roll({best[0]}) wins {best[1]:.4f} against always_roll({baseline}), above "
                        f"{limits.trivial:.2f}: one fixed dice count dominates")
    thresholds = thresholds_between(best[1] + 0.015, best[1] + (against - best[1]) / 2)
    if not thresholds:
        failures.append("no three final-strategy thresholds fit between the best always_roll and optimal play")
    return Balance(first, never, zero_share, swap_share, mirror, best, against, thresholds, tuple(failures),
                   tuple(tuple(row) for row in table))
