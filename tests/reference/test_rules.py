"""The reference solution agrees with an independent reading of each seed on every input tests reach."""

import inspect

import pytest
from hypothesis import given, settings, strategies as st

from tests import oracle
from grader import reference
from grader.spec import load_variant

IDS = ["sp19", "nju24", "nju21", "fa19", "fa18"]
SCORES = range(200)


def rules_of(variant_id):
    hog = reference.load(variant_id)
    functions = load_variant(variant_id).functions
    return hog, getattr(hog, functions["zero_dice"]), getattr(hog, functions["swap"])


def swapped(swap, current, opponent):
    """Call a swap predicate whatever its arity (nju24's looks at one score)."""
    if len(inspect.signature(swap).parameters) == 1:
        return swap(current)
    return swap(current, opponent)


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", IDS)
def test_zero_dice_rule_on_every_score(variant_id):
    _, zero, _ = rules_of(variant_id)
    expected, _ = oracle.RULES[variant_id]
    assert [zero(score) for score in SCORES] == [expected(score) for score in SCORES]


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", IDS)
def test_swap_predicate_on_every_pair_of_scores(variant_id):
    _, _, swap = rules_of(variant_id)
    _, expected = oracle.RULES[variant_id]
    wrong = [(a, b) for a in SCORES for b in SCORES if swapped(swap, a, b) != expected(a, b)]
    assert wrong == []


outcomes = st.lists(st.integers(1, 6), min_size=1, max_size=12)


def take_turn(variant_id, hog, num_rolls, score, opponent, dice):
    if variant_id == "nju21":
        return hog.take_turn(num_rolls, score, opponent, dice)
    return hog.take_turn(num_rolls, opponent, dice)


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", IDS)
@settings(max_examples=300, deadline=None)
@given(num_rolls=st.integers(0, 10), score=st.integers(0, 99), opponent=st.integers(0, 99), cycle=outcomes)
def test_take_turn_matches_the_rules(variant_id, num_rolls, score, opponent, cycle):
    hog = reference.load(variant_id)
    dice = reference.dice().make_test_dice(*cycle)
    rolled = [cycle[k % len(cycle)] for k in range(num_rolls)]
    assert take_turn(variant_id, hog, num_rolls, score, opponent, dice) == \
        oracle.turn_points(variant_id, num_rolls, score, opponent, rolled)


def scripted(counts):
    """A strategy that rolls the given counts in turn, then repeats the last."""
    turns = iter(counts)
    last = [counts[-1]]

    def strategy(score, opponent_score):
        last[0] = next(turns, last[0])
        return last[0]
    return strategy


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", IDS)
@settings(max_examples=200, deadline=None)
@given(counts0=st.lists(st.integers(1, 10), min_size=1, max_size=8),
       counts1=st.lists(st.integers(0, 10), min_size=1, max_size=8),
       cycle=st.lists(st.integers(2, 6), min_size=1, max_size=8), ones=st.booleans(),
       start=st.tuples(st.integers(0, 60), st.integers(0, 60)), goal=st.integers(61, 100))
def test_play_matches_the_rules_turn_by_turn(variant_id, counts0, counts1, cycle, ones, start, goal):
    hog = reference.load(variant_id)
    if ones:
        cycle = cycle + [1]
    expected, _ = oracle.play(variant_id, [scripted(counts0), scripted(counts1)], cycle, *start, goal=goal)
    dice = reference.dice().make_test_dice(*cycle)
    assert hog.play(scripted(counts0), scripted(counts1), *start, dice=dice, goal=goal) == expected


@settings(max_examples=100, deadline=None)
@given(counts0=st.lists(st.integers(0, 10), min_size=1, max_size=8),
       counts1=st.lists(st.integers(0, 10), min_size=1, max_size=8),
       cycle=st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_fa19_play_without_feral_hogs_matches_the_rules(counts0, counts1, cycle):
    hog = reference.load("fa19")
    expected, _ = oracle.play("fa19", [scripted(counts0), scripted(counts1)], cycle, goal=60, feral_hogs=False)
    dice = reference.dice().make_test_dice(*cycle)
    assert hog.play(scripted(counts0), scripted(counts1), dice=dice, goal=60, feral_hogs=False) == expected
