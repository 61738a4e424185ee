"""The optimal strategy a user gets is optimal: it matches brute force and beats every always_roll."""

from __future__ import annotations

import pytest

from grader.reference.engine import exact_match, rules_for, solve, win_rate
from grader.strategy import Rules, always_roll_table
from grader.strategy.match import NEVER_ENDS, expected_payoff
from .conftest import load_reference
from .independent import game_for, optimal_value


@pytest.mark.slow
@pytest.mark.parametrize("goal", [10, 20])
def test_small_goals_match_a_plain_recursion(variant, goal):
    if variant == "nju21":
        pytest.skip("nju21 has zero-point turns; see the cycle tests below")
    if variant == "fa19":
        goal = min(goal, 13)  # the plain recursion over the full fa19 state is slow
    hog = load_reference(variant)
    expected = optimal_value(game_for(hog, variant, goal))
    assert solve(variant, goal).first_player_value == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_fa19_full_state_matters_for_the_optimum():
    """Solving fa19 while ignoring Feral Hogs gives a different (lower) value and strategy."""
    goal = 30
    feral = solve("fa19", goal)
    blind = solve(rules_for("fa19", goal, dice_count_bonus=False))
    assert feral.first_player_value != pytest.approx(blind.first_player_value, abs=1e-6)
    # Played under the real rules, the Feral-blind optimum does worse than the true one.
    blind_rate = win_rate(rules_for("fa19", goal), blind.table, feral, goal=goal).average
    assert blind_rate < 0.5


@pytest.mark.slow
def test_optimal_play_against_itself_is_worth_its_value(variant):
    """Evaluating the returned table (or full state) as a strategy gives back the solved value."""
    goal = 100 if variant != "fa19" else 40
    optimal = solve(variant, goal)
    result = exact_match(variant, optimal, optimal, goal)
    assert result.first_wins + result.never_ending / 2 == pytest.approx(optimal.first_player_value, abs=1e-12)


@pytest.mark.slow
def test_optimal_beats_or_ties_every_always_roll(variant):
    goal = 100 if variant != "fa19" else 40
    optimal = solve(variant, goal)
    rules = rules_for(variant, goal)
    for n in range(11):
        rate = win_rate(rules, optimal, always_roll_table(n, goal), goal)
        assert rate.average >= 0.5 - 1e-12, n


def test_the_strategy_object_is_a_strategy(variant):
    optimal = solve(variant, 30)
    assert all(optimal(a, b) == optimal.table[a][b] for a in range(30) for b in range(30))
    hog = load_reference(variant)
    score0, score1 = hog.play(optimal, hog.always_roll(4), goal=30)
    assert max(score0, score1) >= 30


def test_fa19_full_state_choices_are_reachable_through_choose():
    optimal = solve("fa19", 20)
    assert optimal.choose(0, 0, 0, 0) == optimal.full_table[0][0][0]
    assert {optimal.choose(5, 7, pm, po) for pm in range(11) for po in range(11)} <= set(range(11))


def test_fa19_table_rolls_what_optimal_self_play_rolls_most_often_at_each_score_pair():
    """The (score, opponent_score) table of fa19 weighs each full-state choice by the
    chance of reaching it in optimal self-play from 0-0, recomputed here game-forward."""
    goal = 20
    optimal = solve("fa19", goal)
    game = game_for(load_reference("fa19"), "fa19", goal)
    by_sum = [dict() for _ in range(2 * goal - 1)]  # score sum -> {(a, b, pm, po): probability}
    by_sum[0][0, 0, 0, 0] = 1.0
    for states in by_sum:
        for (a, b, pm, po), mass in states.items():
            n = optimal.choose(a, b, pm, po)
            bonus = 3 if abs(n - pm) == 2 else 0
            for p, x in game.outcomes(a, b, n, exact=False):
                ended, mover, other = game.settle(x + bonus, b)
                if not ended:
                    key = mover, other, po, n
                    by_sum[mover + other][key] = by_sum[mover + other].get(key, 0.0) + mass * p
    reached = {key: mass for states in by_sum for key, mass in states.items()}
    expected = []
    for a in range(goal):
        row = []
        for b in range(goal):
            votes = [0.0] * 11
            weights = {(pm, po): reached[a, b, pm, po] for pm in range(11) for po in range(11)
                       if (a, b, pm, po) in reached}
            for pm in range(11):
                for po in range(11):
                    # a score pair never reached: every full-state choice counts once
                    votes[optimal.choose(a, b, pm, po)] += weights.get((pm, po), 0.0) if weights else 1.0
            row.append(votes.index(max(votes)))
        expected.append(row)
    assert len(reached) > 100
    assert optimal.table == expected


# Tiny made-up games (goal 1 or 2, zero dice score nothing) whose values are worked out by hand.

def _game(goal, swap):
    return Rules.build("made-up", goal, lambda opponent: 0, swap)


def test_when_scoring_hands_the_game_to_the_opponent_both_pass_for_ever():
    """Goal 1, every turn ends in a swap: rolling reaches 1 and gives it to the opponent.
    Passing leaves 0-0 to the opponent, so the value is 1/2 and the game never ends."""
    rules = _game(1, lambda mine, theirs: True)
    optimal = solve(rules)
    assert optimal.table == [[0]] and optimal.first_player_value == 0.5
    assert expected_payoff(rules, optimal.table, optimal.table, NEVER_ENDS) == 1.0


def test_when_scoring_wins_the_fewest_dice_that_win_are_rolled():
    rules = _game(1, lambda mine, theirs: False)
    optimal = solve(rules)
    assert optimal.table == [[1]] and optimal.first_player_value == pytest.approx(1.0, abs=1e-15)


def test_a_pair_of_states_passing_to_each_other_where_one_player_leaves():
    """Goal 2; reaching 2 against an opponent at 0 swaps (and loses), otherwise no swap.

    1-1: one die reaches 2 against 1: win, V = 1.
    0-1: one die wins with 5/6; a 1 brings 1-1 to the opponent, who wins: V = 5/6.
         More dice only raise the chance of the 1. Passing gives 1-0 to the opponent.
    1-0: any roll reaches 2 against 0 and swaps: lose. Passing gives the opponent
         0-1, worth 5/6 to them: V = 1/6 by passing (the 0-1 player leaves).
    0-0: a 1 (1 point) gives the opponent 0-1 (worth 1/6 to us); anything else loses,
         so rolling is worth at most (1 - (5/6)**10) / 6 < 1/2; passing leaves 0-0
         to the opponent: both pass, V = 1/2.
    """
    rules = _game(2, lambda mine, theirs: mine >= 2 and theirs == 0)
    optimal = solve(rules)
    assert optimal.values[1][1] == pytest.approx(1.0, abs=1e-15) and optimal.table[1][1] == 1
    assert optimal.values[0][1] == pytest.approx(5 / 6, abs=1e-15) and optimal.table[0][1] == 1
    assert optimal.values[1][0] == pytest.approx(1 / 6, abs=1e-15) and optimal.table[1][0] == 0
    assert optimal.values[0][0] == 0.5 and optimal.table[0][0] == 0
    assert exact_match(rules, optimal, optimal).never_ending == 1.0


def test_a_pair_of_states_passing_to_each_other_where_both_pass():
    """Goal 2; reaching 2 always swaps (and loses). 1-1: rolling loses, passing returns
    1-1: V = 1/2. 0-1 and 1-0 pass to each other, neither can win by rolling more than
    half the time, so both pass: V = 1/2 for both."""
    rules = _game(2, lambda mine, theirs: mine >= 2)
    optimal = solve(rules)
    assert [optimal.values[a][b] for a, b in ((1, 1), (0, 1), (1, 0), (0, 0))] == [0.5] * 4
    assert [optimal.table[a][b] for a, b in ((1, 1), (0, 1), (1, 0), (0, 0))] == [0] * 4


@pytest.mark.slow
@pytest.mark.parametrize("goal", [25, 100])
def test_nju21_optimal_values_satisfy_the_optimality_equations(goal):
    """Every state's value is the best of its moves' values, the passes included,
    and the chosen dice count is worth that value."""
    rules = rules_for("nju21", goal)
    optimal = solve(rules)
    V = optimal.values
    for a in range(goal):
        for b in range(goal):
            options = []
            for n in range(11):
                if n == 0:
                    outcomes = [(1.0, rules.zero_points[b])]
                else:
                    lo, probs = rules.rolls[a % 2][n]
                    outcomes = [(p, lo + i) for i, p in enumerate(probs)]
                total = 0.0
                for p, points in outcomes:
                    x, y = a + points, b
                    if rules.swaps[b][x]:
                        x, y = y, x
                    total += p * (1.0 if x >= goal else 0.0 if y >= goal else 1.0 - V[y][x])
                options.append(total)
            assert V[a][b] == pytest.approx(max(options), abs=1e-12), (a, b)
            assert options[optimal.table[a][b]] == pytest.approx(V[a][b], abs=1e-12), (a, b)
