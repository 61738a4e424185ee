"""Exact win probabilities a user can rely on: they add up, agree with plain recursion and with play."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from grader.reference.engine import exact_match, rules_for, win_rate
from grader.strategy import always_roll_table
from grader.strategy.match import FIRST_WINS, NEVER_ENDS, SECOND_WINS, expected_payoff
from .conftest import load_reference
from .independent import game_for, match_by_linear_algebra, match_by_recursion


def test_a_strategy_against_itself_averages_exactly_one_half(variant):
    rate = win_rate(variant, always_roll_table(5, 100), always_roll_table(5, 100))
    assert rate.average == pytest.approx(0.5, abs=1e-15)


def test_outcomes_computed_separately_add_up_to_one(variant):
    rules = rules_for(variant)
    hog = load_reference(variant)
    first, second = always_roll_table(3, 100), hog.always_roll(7)
    from grader.strategy.match import _strategy_tables
    t0, t1 = _strategy_tables(rules, first, second)
    total = sum(expected_payoff(rules, t0, t1, payoff) for payoff in (FIRST_WINS, SECOND_WINS, NEVER_ENDS))
    assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.data())
def test_random_strategies_at_goal_12_match_plain_recursion(data):
    variant = data.draw(st.sampled_from(["sp19", "nju24", "fa19", "fa18"]))
    goal = 12
    hog = load_reference(variant)
    tables = [data.draw(st.lists(st.lists(st.integers(0, 10), min_size=goal, max_size=goal),
                                 min_size=goal, max_size=goal)) for _ in range(2)]
    exact = match_by_recursion(game_for(hog, variant, goal),
                               *(lambda a, b, t=t: t[a][b] for t in tables))
    result = exact_match(rules_for(variant, goal), tables[0], tables[1], goal)
    assert result.first_wins == pytest.approx(float(exact), abs=1e-12)
    assert result.never_ending == 0.0


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0, 0, 1, 3, 6, 10]), min_size=5, max_size=5),
                min_size=5, max_size=5),
       st.lists(st.lists(st.sampled_from([0, 0, 2, 5]), min_size=5, max_size=5),
                min_size=5, max_size=5))
def test_nju21_with_zero_point_turns_matches_exact_linear_algebra(table0, table1):
    """Random nju21 strategies at goal 5, cycles included, against Fraction Gaussian elimination."""
    goal = 5
    hog = load_reference("nju21")
    first, second, never = match_by_linear_algebra(
        game_for(hog, "nju21", goal), lambda a, b: table0[a][b], lambda a, b: table1[a][b])
    result = exact_match(rules_for("nju21", goal), table0, table1, goal)
    assert result.first_wins == pytest.approx(float(first), abs=1e-12)
    assert result.second_wins == pytest.approx(float(second), abs=1e-12)
    assert result.never_ending == pytest.approx(float(never), abs=1e-12)


def test_nju21_both_passing_at_7_7_never_finish():
    """The 7th digit of 1/21 = 0.0476190... is 0 and 3**14 = 4782969 (4 ≠ 9): no swap.

    From 7-7, rolling 0 dice scores 0 and leaves 7-7 for the other player: for ever.
    """
    hog = load_reference("nju21")
    assert hog.picky_piggy(7) == 0 and not hog.swine_swap(7, 7)
    result = exact_match("nju21", always_roll_table(0, 100), always_roll_table(0, 100), score0=7, score1=7)
    assert (result.first_wins, result.second_wins, result.never_ending) == (0.0, 0.0, 1.0)


def test_nju21_passing_back_and_forth_between_1_7_and_7_1_never_finishes():
    """picky_piggy(7) = picky_piggy(1) = 0 and 3**8 = 6561 (6 ≠ 1): 1-7 and 7-1 alternate."""
    hog = load_reference("nju21")
    assert hog.picky_piggy(1) == 0 and not hog.swine_swap(1, 7) and not hog.swine_swap(7, 1)
    zero = always_roll_table(0, 100)
    assert exact_match("nju21", zero, zero, score0=1, score1=7).never_ending == 1.0
    # If the second player rolls one die instead, it always scores and the loop is gone.
    assert exact_match("nju21", zero, always_roll_table(1, 100), score0=1, score1=7).never_ending == 0.0


@pytest.mark.slow
def test_nju21_half_the_time_a_passing_loop():
    """From 1-1 (picky_piggy(1) = 0, 3**2 = 9 swaps: a zero-point turn leaves 1-1).

    The first player passes at 1-1; the second passes at 1-1 too, and otherwise
    rolls 0. Exact chance of never ending from 0-1 against the linear algebra.
    """
    hog = load_reference("nju21")
    goal = 6
    table = [[0] * goal for _ in range(goal)]
    table[0][1] = 1
    first, second, never = match_by_linear_algebra(
        game_for(hog, "nju21", goal), lambda a, b: table[a][b], lambda a, b: table[a][b])
    result = exact_match("nju21", table, table, goal)
    assert result.never_ending == pytest.approx(float(never), abs=1e-15)
    assert result.first_wins == pytest.approx(float(first), abs=1e-15)


def _monte_carlo(hog, strategy0, strategy1, games, seed, **options):
    random.seed(seed)
    wins = 0
    for _ in range(games):
        score0, score1 = hog.play(strategy0, strategy1, **options)
        wins += score0 > score1
    return wins / games


def _alternating(score, opponent_score):
    return 3 if (score + opponent_score) % 2 else 5


@pytest.mark.parametrize("games", [3000])
def test_exact_rates_agree_with_reference_play(variant, games):
    """Within 5 standard errors of 3000 games of the reference play with fair dice."""
    hog = load_reference(variant)
    first = _alternating
    second = hog.always_roll(6) if variant.startswith("nju") else hog.always_roll(4)
    exact = exact_match(variant, first, second).first_wins
    sampled = _monte_carlo(hog, first, second, games, seed=61)
    sigma = math.sqrt(exact * (1 - exact) / games)
    assert abs(sampled - exact) < 5 * sigma


@pytest.mark.slow
def test_fa19_dice_count_bonus_changes_the_result_and_play_agrees_with_it():
    hog = load_reference("fa19")
    baseline = always_roll_table(4, 100)
    with_feral = exact_match(rules_for("fa19"), _alternating, baseline).first_wins
    without = exact_match(rules_for("fa19", dice_count_bonus=False), _alternating, baseline).first_wins
    assert abs(with_feral - without) > 0.02
    games = 4000
    sampled_on = _monte_carlo(hog, _alternating, hog.always_roll(4), games, seed=7)
    sampled_off = _monte_carlo(hog, _alternating, hog.always_roll(4), games, seed=7, feral_hogs=False)
    for exact, sampled in ((with_feral, sampled_on), (without, sampled_off)):
        assert abs(sampled - exact) < 5 * math.sqrt(exact * (1 - exact) / games)


def test_fa19_always_roll_2_earns_the_bonus_only_on_its_first_turn():
    """Previous count 0 before the first turn: rolling 2 then is 2 away (bonus), later never."""
    goal = 8
    hog = load_reference("fa19")
    game = game_for(hog, "fa19", goal)
    exact = match_by_recursion(game, lambda a, b: 2, lambda a, b: 4)
    result = exact_match("fa19", always_roll_table(2, goal), always_roll_table(4, goal), goal)
    assert result.first_wins == pytest.approx(float(exact), abs=1e-12)
    assert exact != match_by_recursion(game_for(hog, "fa19", goal, feral=False),
                                       lambda a, b: 2, lambda a, b: 4)
